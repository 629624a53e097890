"""Writing puzzles and results in every output layout, one output record per input puzzle, in order.

In the ``line``, ``grid`` and ``spaced`` layouts a solved puzzle is written as its solution and any other
outcome as one line holding the status word (``no_solution``, ``multiple``, ``unknown``, ``error``), so the
output stays aligned with the input; ``csv`` has the columns ``index,puzzle,solution,status``; ``jsonl`` one
object per puzzle; ``pretty`` a boxed grid under a header line per puzzle; ``fpuzzles`` and ``link`` the
puzzle in the f-puzzles form, its solution (where there is one) as the app's answer.

The layouts of digits (``line``, ``grid``, ``spaced``, ``csv``) say rules other than the classic ones of a
puzzle's size by a ``# rules:`` line before the first puzzle they rule (``formats.header``), and refuse
rules such a line cannot name; ``jsonl`` records hold them in a ``rules`` field (``fpuzzles.rules_field``).
What these writers write, the readers read back as the same puzzles under the same rules.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import Any, TextIO

from ..errors import UnsupportedRuleError, UsageError
from ..grid import Puzzle, Rules
from ..result import SolveResult, Status
from .alphabet import Alphabet
from .codec import codec, codec_in
from .fpuzzles import rules_field, to_fpuzzles, to_link
from .header import PREFIX, header_words
from .reading import INPUT_FORMATS, Record

__all__ = [
    "OUTPUT_FORMATS",
    "RESUMABLE_OUTPUTS",
    "ResultWriter",
    "body_text",
    "format_puzzle",
    "nothing_answered",
    "resume_overrun",
    "rules_line",
    "rules_note",
    "with_rules_field",
    "write_puzzles",
]

OUTPUT_FORMATS = (*INPUT_FORMATS, "jsonl", "pretty", "link")

#: Output layouts with one record per line, so that a stopped run's records can be counted (``--resume``).
RESUMABLE_OUTPUTS = ("line", "jsonl")


def resume_overrun(partial: int, read: int) -> UsageError:
    """``--resume`` with a partial output of ``partial`` records over an input of ``read``: not its own."""
    return UsageError(
        f"--resume: the partial output holds {partial:,} records, more than the {read:,} of the input: it is "
        "another input's (remove it, or leave --resume out)"
    )


def nothing_answered(names: str, skipped: int) -> str:
    """The warning of a run that answered no puzzle of ``names``: there were none, or ``--resume`` found
    every one of them (``skipped``) in the partial output already."""
    if skipped:
        return f"--resume: every puzzle of {names} was answered already; the output is complete"
    return f"no puzzles in {names}"


_SPACED_TEMPLATES: dict[int, bytes] = {}


def _check_format(format: str) -> str:
    if format not in OUTPUT_FORMATS:
        raise UsageError(f"unknown output format {format!r}; choose one of {', '.join(OUTPUT_FORMATS)}")
    return format


def line_text(puzzle: Puzzle, symbols: Alphabet | None = None) -> str:
    """The puzzle on one line, ``.`` for blanks, in ``symbols`` (an ``Alphabet``; None: 1-9 then A, B...)."""
    return codec_in(puzzle.rules, symbols).symbols(puzzle.cells)


def grid_text(puzzle: Puzzle, symbols: Alphabet | None = None) -> str:
    """n lines of n symbols, ``.`` for blanks."""
    text = line_text(puzzle, symbols)
    n = puzzle.n
    return "\n".join([text[i : i + n] for i in range(0, len(text), n)])


def spaced_text(puzzle: Puzzle, symbols: Alphabet | None = None) -> str:
    """Each row as symbols separated by single spaces, ``0`` for blanks; numbers 10, 11, ... above 9.
    In an alphabet of the grid's size: its symbols, and ``.`` for blanks where ``0`` is a digit."""
    n = puzzle.n
    if symbols is not None and symbols.n == n:
        c = codec_in(puzzle.rules, symbols)
        text = bytes(puzzle.cells).translate(c.spaced_table).decode("ascii")
        return "\n".join(" ".join(text[r * n : (r + 1) * n]) for r in range(n))
    if n <= 9:  # every symbol is one character: fill the even positions of a template in one operation
        template = _SPACED_TEMPLATES.get(n)
        if template is None:
            template = _SPACED_TEMPLATES[n] = ((b"0 " * (n - 1) + b"0\n") * n)[:-1]
        buf = bytearray(template)
        buf[::2] = bytes(puzzle.cells).translate(codec(puzzle.rules).spaced_table)
        return buf.decode("ascii")
    return "\n".join(" ".join(map(str, row)) for row in puzzle.rows)


def pretty_text(puzzle: Puzzle, rules: Rules | None = None, symbols: Alphabet | None = None) -> str:
    """A boxed grid: ``+-------+`` lines between bands of boxes, ``|`` between boxes, ``.`` for blanks."""
    rules = rules or puzzle.rules
    n = puzzle.n
    text = line_text(puzzle, symbols)
    if rules.box is None:  # irregular regions: the rows alone (a picture shows the regions: ``draw``)
        return "\n".join(" ".join(text[r * n : (r + 1) * n]) for r in range(n))
    bar = "+" + "+".join(["-" * (2 * rules.box_cols + 1)] * (n // rules.box_cols)) + "+"
    lines = [bar]
    for r in range(n):
        row = text[r * n : (r + 1) * n]
        boxes = [" ".join(row[c : c + rules.box_cols]) for c in range(0, n, rules.box_cols)]
        lines.append("| " + " | ".join(boxes) + " |")
        if (r + 1) % rules.box_rows == 0:
            lines.append(bar)
    return "\n".join(lines)


def body_text(puzzle: Puzzle, format: str = "line", symbols: Alphabet | None = None) -> str:
    """The digits of ``puzzle`` in a layout of digits (``line``, ``grid``, ``spaced``, ``pretty``), without
    the ``# rules:`` line its rules may need (``format_puzzle`` adds it)."""
    if format == "line":
        return line_text(puzzle, symbols)
    if format == "grid":
        return grid_text(puzzle, symbols)
    if format == "spaced":
        return spaced_text(puzzle, symbols)
    return pretty_text(puzzle, symbols=symbols)


def rules_line(rules: Rules | None, current: str | None, layout: str) -> tuple[str | None, str]:
    """What a writer of a layout of digits puts before a puzzle of ``rules`` (None: the classic rules of
    its size) when the ``# rules:`` line in force says ``current`` (None: the classic rules): the words now
    in force and the line to write (empty when they are the same). ``UnsupportedRuleError`` for rules no
    such line can name."""
    words = None if rules is None else header_words(rules, layout)
    return words, "" if words == current else f"{PREFIX} {words or 'classic'}\n"


def format_puzzle(puzzle: Puzzle, format: str = "line", symbols: Alphabet | None = None) -> str:
    """A puzzle in one layout, without a final newline (``csv``: a header and one row; ``jsonl``: one object).
    The layouts of digits start with a ``# rules:`` line for rules other than the classic ones of the
    puzzle's size, and refuse rules it cannot name (``UnsupportedRuleError``).

    >>> p = Puzzle.from_string("1234341221434321")
    >>> print(format_puzzle(p, "spaced"))
    1 2 3 4
    3 4 1 2
    2 1 4 3
    4 3 2 1
    >>> print(format_puzzle(Puzzle.empty(Rules.classic(2, 2).with_named("x"))))
    # rules: x
    ................
    """
    _check_format(format)
    if format == "fpuzzles":
        return json.dumps(to_fpuzzles(puzzle), separators=(",", ":"))
    if format == "link":
        return to_link(puzzle)
    if format == "jsonl":
        return json.dumps(with_rules_field({"puzzle": line_text(puzzle, symbols)}, puzzle.rules))
    _, line = rules_line(puzzle.rules, None, format)
    if format == "csv":
        return line + "puzzle\n" + line_text(puzzle, symbols)
    return line + body_text(puzzle, format, symbols)


def with_rules_field(item: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """``item``, a jsonl record of a puzzle, with the puzzle's ``rules`` field (``fpuzzles.rules_field``)
    where they are not the classic ones of its size: every jsonl writer of a puzzle adds it."""
    field = rules_field(rules)
    if field is not None:
        item["rules"] = field
    return item


def write_puzzles(
    stream: TextIO, puzzles: Iterable[Puzzle], format: str = "line", symbols: Alphabet | None = None
) -> int:
    """Write plain puzzles (no results) in any output layout; returns how many were written.

    ``grid``, ``spaced`` and ``pretty`` separate puzzles by an empty line; ``csv`` writes a ``puzzle`` header
    (even for no puzzles); ``jsonl`` writes ``{"index": i, "puzzle": "..."}`` and the ``rules`` where they
    are not the classic ones. The layouts of digits write a ``# rules:`` line wherever the rules change
    (``pretty``, a listing for people, names them in each puzzle's title instead).
    """
    _check_format(format)
    count = 0
    current: str | None = None
    started = False  # csv: the column header written
    for count, puzzle in enumerate(puzzles, start=1):
        line = ""
        if format in ("line", "csv", "grid", "spaced"):
            current, line = rules_line(puzzle.rules, current, format)
        if format == "csv":
            stream.write(line + ("" if started else "puzzle\n") + line_text(puzzle, symbols) + "\n")
            started = True
        elif format == "line":
            stream.write(line + line_text(puzzle, symbols) + "\n")
        elif format == "jsonl":
            item = with_rules_field({"index": count, "puzzle": line_text(puzzle, symbols)}, puzzle.rules)
            stream.write(json.dumps(item) + "\n")
        elif format in ("fpuzzles", "link"):
            stream.write(format_puzzle(puzzle, format, symbols) + "\n")
        else:
            sep = "\n" if count > 1 else ""
            if format == "pretty":
                title = f"Puzzle {count}{rules_note(puzzle.rules)}"
                stream.write(f"{sep}{title}\n{pretty_text(puzzle, symbols=symbols)}\n")
            else:
                stream.write(sep + line + body_text(puzzle, format, symbols) + "\n")
    if format == "csv" and not started:
        stream.write("puzzle\n")
    return count


def rules_note(rules: Rules) -> str:
    """Rules other than the classic ones of their size, for the title of a puzzle in a listing or report
    for people (``pretty``): `` (rules: x,anti-knight)``, or in words (`` (rules: 3x3 killer(9))``)."""
    try:
        words = header_words(rules)
    except UnsupportedRuleError:
        words = str(rules)
    return f" (rules: {words})" if words else ""


def _json_default(value: Any) -> Any:
    item = getattr(value, "item", None)  # numpy scalars
    return item() if callable(item) else str(value)


class ResultWriter:
    """Writes ``SolveResult``s in any output layout, streaming: one output record per call, in call order.

    ``shape`` sets the boxes drawn by the ``pretty`` layout (default: each puzzle's own). The stream is
    the caller's: ``close`` flushes it (and writes the csv header if no record came) but does not close it.

    >>> import io
    >>> out = io.StringIO()
    >>> w = ResultWriter(out, "line")
    >>> w.write(1, SolveResult(None, Status.ERROR, error="bad"))
    >>> w.close(); out.getvalue()
    'error\\n'
    """

    def __init__(
        self, stream: TextIO, format: str, rules: Rules | None = None, symbols: Alphabet | None = None
    ) -> None:
        self.symbols = symbols
        self.stream = stream
        self.format = _check_format(format)
        self.rules = rules
        self.count = 0
        #: what the ``# rules:`` line in force in the output says (None: the classic rules, as at the start)
        self.header: str | None = None
        self._out = stream.write
        self._csv = csv.writer(stream, lineterminator="\n") if format == "csv" else None
        self._csv_header = False
        self._emit = getattr(self, f"_write_{format}")

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, index: int, result: SolveResult, record: Record | None = None) -> None:
        """Write the result of puzzle ``index`` (1-based); ``record`` gives the raw text of a bad puzzle."""
        self._emit(index, result, record)
        self.count += 1

    def close(self) -> None:
        """Finish the output (a csv header even for no records) and flush the stream."""
        if self._csv is not None and not self._csv_header:
            self._csv.writerow(("index", "puzzle", "solution", "status"))
            self._csv_header = True
        self.stream.flush()

    # -- one method per layout -----------------------------------------------------------------------

    @staticmethod
    def _solution(result: SolveResult) -> Puzzle | None:
        return result.solutions[0] if result.status == Status.SOLVED and result.solutions else None

    @classmethod
    def _puzzle(cls, result: SolveResult) -> Puzzle | None:
        """The puzzle whose rules the record states: the one solved, or its solution."""
        return result.puzzle if result.puzzle is not None else cls._solution(result)

    def _rules_line(self, result: SolveResult) -> str:
        """The ``# rules:`` line to write before this result's record (empty when the one in force fits)."""
        puzzle = self._puzzle(result)
        if puzzle is None:
            return ""
        self.header, line = rules_line(puzzle.rules, self.header, self.format)
        return line

    def _write_line(self, index: int, result: SolveResult, record: Record | None) -> None:
        solution = self._solution(result)
        body = line_text(solution, self.symbols) if solution is not None else result.status.value
        self._out(self._rules_line(result) + body + "\n")

    def _write_grid(self, index: int, result: SolveResult, record: Record | None) -> None:
        solution = self._solution(result)
        body = grid_text(solution, self.symbols) if solution is not None else result.status.value
        self._out(("\n" if self.count else "") + self._rules_line(result) + body + "\n")

    def _write_spaced(self, index: int, result: SolveResult, record: Record | None) -> None:
        solution = self._solution(result)
        body = spaced_text(solution, self.symbols) if solution is not None else result.status.value
        self._out(("\n" if self.count else "") + self._rules_line(result) + body + "\n")

    def _write_csv(self, index: int, result: SolveResult, record: Record | None) -> None:
        assert self._csv is not None
        if line := self._rules_line(result):  # before the column header, for the first record
            self._out(line)
        if not self._csv_header:
            self._csv.writerow(("index", "puzzle", "solution", "status"))
            self._csv_header = True
        solution = self._solution(result)
        self._csv.writerow(
            (
                index,
                _puzzle_text(result, record, self.symbols),
                line_text(solution, self.symbols) if solution else "",
                result.status.value,
            )
        )

    def _write_jsonl(self, index: int, result: SolveResult, record: Record | None) -> None:
        solution = self._solution(result)
        item: dict[str, Any] = {
            "index": index,
            "status": result.status.value,
            "puzzle": _puzzle_text(result, record, self.symbols),
            "solution": line_text(solution, self.symbols) if solution is not None else None,
        }
        if result.status == Status.MULTIPLE:
            item["solutions"] = [line_text(s, self.symbols) for s in result.solutions]
        if result.unique is not None:
            item["unique"] = result.unique
        item["backend"] = result.backend
        item["stats"] = result.stats
        if result.status == Status.ERROR:
            item["error"] = result.error or (str(record.error) if record and record.error else "")
        if (puzzle := self._puzzle(result)) is not None:
            with_rules_field(item, puzzle.rules)
        self._out(json.dumps(item, default=_json_default) + "\n")

    def _write_fpuzzles(self, index: int, result: SolveResult, record: Record | None) -> None:
        """The puzzle as f-puzzles JSON with its solution (the ``solution`` key) and sudoku-cp's ``index``
        and ``status``; a puzzle that could not be read is its status and error alone."""
        item: dict[str, Any] = {"index": index, "status": result.status.value}
        if result.puzzle is not None:
            item.update(to_fpuzzles(result.puzzle, self._solution(result)))
        else:
            item["error"] = result.error or (str(record.error) if record and record.error else "")
        self._out(json.dumps(item, separators=(",", ":")) + "\n")

    def _write_link(self, index: int, result: SolveResult, record: Record | None) -> None:
        """An f-puzzles link per puzzle that opens it with its solution as the app's answer (where there is
        one); the status alone for a puzzle that could not be read."""
        if result.puzzle is None:
            self._out(result.status.value + "\n")
        else:
            self._out(to_link(result.puzzle, self._solution(result)) + "\n")

    def _write_pretty(self, index: int, result: SolveResult, record: Record | None) -> None:
        where = f" (line {record.line})" if record is not None else ""
        head = f"Puzzle {index}{where}: {result.status.value.replace('_', ' ')}"
        if result.backend:
            head += f" by {result.backend}"
        if (puzzle := self._puzzle(result)) is not None:
            head += rules_note(puzzle.rules)
        solution = self._solution(result)
        if solution is not None:
            body = pretty_text(solution, self.rules, self.symbols)
        elif result.status == Status.MULTIPLE and result.solutions:
            head += f", {len(result.solutions)} solutions shown" if len(result.solutions) > 1 else ""
            body = "\n\n".join(pretty_text(s, self.rules, self.symbols) for s in result.solutions[:2])
        elif result.puzzle is not None:
            body = pretty_text(result.puzzle, self.rules, self.symbols)
        else:
            body = result.error or (str(record.error.reason) if record and record.error else "")
        self._out(("\n" if self.count else "") + head + "\n" + body + "\n")


def _puzzle_text(result: SolveResult, record: Record | None, symbols: Alphabet | None = None) -> str:
    if record is not None and record.candidates is not None:  # a pencilmark grid: its candidates
        from .pencilmarks import pencilmarks

        return pencilmarks(record.candidates)
    if result.puzzle is not None:
        return line_text(result.puzzle, symbols)
    return record.text if record is not None else ""
