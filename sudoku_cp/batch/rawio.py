"""The fast path of the command line: chunks of input text to chunks of output text, no object per puzzle.

For the ``line``, ``grid`` and ``spaced`` layouts a chunk of whole records is turned into an (m, ncells)
uint8 array in a few numpy operations (``np.frombuffer``, a strided view over the fixed-width records, one
table lookup from symbols to digits), solved in one call of the compiled kernel (or puzzle by puzzle for
the other backends), and the solutions written back into a byte template of the output layout. A chunk that
is not perfectly regular (comment lines, trailing spaces, bad puzzles, mixed sizes) is still read here: the
regular lines go the fast way and the others through ``formats`` one by one, or the whole chunk does when
its layout is a block layout; the answers are always those of the ``formats`` readers and ``ResultWriter``.

Record numbers and line numbers are counted from the chunk's start; the parent adds the chunk's offsets
(``RawAnswer.errors``), so a worker needs nothing of the chunks before its own.

The parent's side (the layouts taken, the task and answer, cutting the input into chunks) is ``rawchunks``.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass

import numpy as np

from ..errors import InvalidPuzzleError, ParseError
from ..formats import iter_records
from ..formats.codec import INVALID, codec, shape_for_cells, shape_for_n
from ..formats.writing import body_text
from ..grid import Puzzle, Rules
from .rawchunks import RawAnswer, RawTask, count_lines
from .solver import ERROR, NO_SOLUTION, SOLVED, STATUSES, UNKNOWN, Solver

__all__ = ["parse_chunk", "run_raw_task"]

_NL, _CR, _SPACE = 10, 13, 32

# -- reading ---------------------------------------------------------------------------------------------


@dataclass
class _Parsed:
    """A chunk's records: per shape, the grids to solve; per record, where its grid or its error is.

    ``group[i]`` is the index in ``shapes`` of record i's shape (-1 for an error), ``row[i]`` its row in that
    shape's grids (or its index in ``errors``), ``line[i]`` the line where it starts (from 1).
    """

    rules_list: list[Rules]
    grids: list[np.ndarray]
    group: np.ndarray
    row: np.ndarray
    line: np.ndarray
    errors: list[ParseError]


def _decode_table(rules: Rules) -> np.ndarray:
    return np.frombuffer(codec(rules).decode_table, np.uint8)


def _zero_or_blank(symbols: np.ndarray, rules: Rules) -> np.ndarray:
    """Per row of symbol bytes, ``formats.codec.zero_or_blank``: a 16x16 row with 0 and F and no G."""
    if rules.n != 16 or not len(symbols):
        return np.zeros(len(symbols), bool)

    def has(*chars: str) -> np.ndarray:
        return np.isin(symbols, np.frombuffer("".join(chars).encode(), np.uint8)).any(axis=1)

    return has("0") & has("F", "f") & ~has("G", "g")


def _regular_lines(data: bytes, rules: Rules | None) -> _Parsed | None:
    """Every line exactly one puzzle of one shape, ``\\n`` ends: one reshape and one table lookup."""
    first = data.find(b"\n")
    width = first if first >= 0 else len(data)
    rules = rules or shape_for_cells(width)
    if rules is None or width != rules.ncells:
        return None
    if not data.endswith(b"\n"):
        data += b"\n"
    if len(data) % (width + 1):
        return None
    view = np.frombuffer(data, np.uint8).reshape(-1, width + 1)
    if not (view[:, width] == _NL).all():
        return None
    if _zero_or_blank(view[:, :width], rules).any():
        return None  # such lines are refused: the slow path words the error
    grids = _decode_table(rules)[view[:, :width]]
    if (grids == INVALID).any():
        return None
    m = len(grids)
    return _Parsed([rules], [grids], np.zeros(m, np.int8), np.arange(m), np.arange(1, m + 1), [])


def _mixed_lines(data: bytes, rules: Rules | None) -> _Parsed:
    """``line`` input with a few irregular lines: those go through ``formats``, the others the fast way."""
    if not data.endswith(b"\n"):
        data += b"\n"
    buf = np.frombuffer(data, np.uint8)
    ends = np.flatnonzero(buf == _NL)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    crlf = (ends > starts) & (buf[np.maximum(ends - 1, 0)] == _CR)
    ends = ends - crlf
    lengths = ends - starts
    given = rules
    if rules is None:  # the fast shape: that of the first line of a puzzle's length
        sized = [shape_for_cells(int(k)) for k in np.unique(lengths[: min(len(lengths), 64)])]
        sized = [s for s in sized if s is not None]
        fits = [int(np.argmax(lengths == s.ncells)) for s in sized]
        rules = sized[int(np.argmin(fits))] if sized else None
    fast_lines = np.zeros(0, np.int64)
    grids = np.zeros((0, rules.ncells if rules else 0), np.uint8)
    if rules is not None:
        candidates = np.flatnonzero(lengths == rules.ncells)
        symbols = buf[starts[candidates, None] + np.arange(rules.ncells)]
        digits = _decode_table(rules)[symbols]
        valid = ~(digits == INVALID).any(axis=1) & ~_zero_or_blank(symbols, rules)
        fast_lines, grids = candidates[valid], digits[valid]
    slow = np.ones(len(ends), bool)
    slow[fast_lines] = False
    rules_list = [rules] if rules is not None else []
    rows: list[list[tuple[int, ...]]] = [[]] if rules is not None else []
    group = np.zeros(len(fast_lines), np.int8)
    row = np.arange(len(fast_lines))
    errors: list[ParseError] = []
    extra_lines, extra_group, extra_row = [], [], []
    for k in np.flatnonzero(slow).tolist():
        text = data[starts[k] : ends[k] + 1].decode("utf-8", "surrogateescape")
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        for record in iter_records([text], "line", given):
            extra_lines.append(k)
            if record.error is not None:
                extra_group.append(-1)
                extra_row.append(len(errors))
                errors.append(type(record.error)(record.error.reason, line=k + 1))
                continue
            assert record.puzzle is not None
            g = _group_of(record.puzzle.rules, rules_list, rows)
            extra_group.append(g)
            extra_row.append(len(grids) + len(rows[g]) if g == 0 else len(rows[g]))
            rows[g].append(record.puzzle.cells)
    if rules is not None and rows[0]:
        grids = np.concatenate([grids, np.array(rows[0], np.uint8)])
    all_grids = [grids] if rules is not None else []
    all_grids += [np.array(r, np.uint8) for r in rows[len(all_grids) :]]
    lines = np.concatenate([fast_lines, np.array(extra_lines, np.int64)])
    order = np.argsort(lines, kind="stable")
    group = np.concatenate([group, np.array(extra_group, np.int8)])[order]
    row = np.concatenate([row, np.array(extra_row, np.int64)])[order]
    return _Parsed(rules_list, all_grids, group, row, lines[order] + 1, errors)


def _group_of(rules: Rules, rules_list: list[Rules], rows: list[list[tuple[int, ...]]]) -> int:
    if rules not in rules_list:
        rules_list.append(rules)
        rows.append([])
    return rules_list.index(rules)


def _regular_blocks(data: bytes, layout: str, rules: Rules | None) -> _Parsed | None:
    """Blocks of n rows of equal width (n symbols, or n symbols and n - 1 spaces), one empty line apart."""
    first_blank = data.find(b"\n\n")
    n = rules.n if rules is not None else data.count(b"\n", 0, first_blank + 1) if first_blank > 0 else 0
    rules = rules or shape_for_n(n)
    if rules is None or n == 0 or (layout == "spaced" and n > 9):
        return None
    width = n if layout == "grid" else 2 * n - 1
    size = n * (width + 1) + 1
    rest = len(data) % size
    if rest == size - 1 and data.endswith(b"\n"):  # the last block of the input: no empty line after it
        data += b"\n"
    elif rest == size - 2 and not data.endswith(b"\n"):  # nor a line end
        data += b"\n\n"
    elif rest:
        return None
    view = np.frombuffer(data, np.uint8).reshape(-1, size)
    rows = view[:, :-1].reshape(len(view), n, width + 1)
    if not ((view[:, -1] == _NL).all() and (rows[:, :, width] == _NL).all()):
        return None
    if layout == "spaced":
        if not (rows[:, :, 1:width:2] == _SPACE).all():
            return None
        symbols = rows[:, :, 0:width:2]
    else:
        symbols = rows[:, :, :width]
    flat = symbols.reshape(len(view), rules.ncells)
    if _zero_or_blank(flat, rules).any():
        return None
    grids = _decode_table(rules)[flat]
    if (grids == INVALID).any():
        return None
    m = len(grids)
    return _Parsed([rules], [grids], np.zeros(m, np.int8), np.arange(m), np.arange(m) * (n + 1) + 1, [])


def _by_formats(data: bytes, layout: str, rules: Rules | None) -> _Parsed:
    """Any chunk, record by record through ``formats`` (universal newlines, comments, bad puzzles)."""
    text = io.StringIO(data.decode("utf-8", "surrogateescape"), newline=None)
    rules_list: list[Rules] = []
    rows: list[list[tuple[int, ...]]] = []
    group, row, line = [], [], []
    errors: list[ParseError] = []
    for record in iter_records(text, layout, rules):
        line.append(record.line)
        if record.error is not None:
            group.append(-1)
            row.append(len(errors))
            errors.append(record.error)
        else:
            assert record.puzzle is not None
            g = _group_of(record.puzzle.rules, rules_list, rows)
            group.append(g)
            row.append(len(rows[g]))
            rows[g].append(record.puzzle.cells)
    return _Parsed(
        rules_list,
        [np.array(r, np.uint8) for r in rows],
        np.array(group, np.int8),
        np.array(row, np.int64),
        np.array(line, np.int64),
        errors,
    )


def parse_chunk(data: bytes, layout: str, rules: Rules | None) -> _Parsed:
    """The records of a chunk of whole records, the fastest way its text allows."""
    if b"\r" in data:
        if data.count(b"\r") != data.count(b"\r\n"):
            return _by_formats(data, layout, rules)  # lone CRs end lines too: let formats count them
        data = data.replace(b"\r\n", b"\n")
    if layout == "line":
        return _regular_lines(data, rules) or _mixed_lines(data, rules)
    return _regular_blocks(data, layout, rules) or _by_formats(data, layout, rules)


# -- writing ---------------------------------------------------------------------------------------------


def _render(solutions: np.ndarray, rules: Rules, layout: str) -> np.ndarray | None:
    """Each solution's output record as one row of bytes, or None if the layout needs ``formats`` here."""
    m, n = len(solutions), rules.n
    symbols = np.frombuffer(codec(rules).symbol_table, np.uint8)[solutions]
    if layout == "line":
        out = np.empty((m, rules.ncells + 1), np.uint8)
        out[:, :-1] = symbols
        out[:, -1] = _NL
        return out
    if layout == "grid":
        out = np.empty((m, 1 + n * (n + 1)), np.uint8)
        out[:, 0] = _NL
        rows = out[:, 1:].reshape(m, n, n + 1)
        rows[:, :, :n] = symbols.reshape(m, n, n)
        rows[:, :, n] = _NL
        return out
    if n > 9:  # spaced writes 10, 11, ... as numbers: not fixed width
        return None
    out = np.full((m, 1 + 2 * n * n), _SPACE, np.uint8)
    out[:, 0] = _NL
    rows = out[:, 1:].reshape(m, n, 2 * n)
    rows[:, :, 0 : 2 * n : 2] = symbols.reshape(m, n, n)
    rows[:, :, 2 * n - 1] = _NL
    return out


def _record_text(status: int, solution: Puzzle | None, layout: str) -> bytes:
    """One record's output the slow way: the status word, or a solution through ``formats``."""
    solved = status == SOLVED and solution is not None
    body = body_text(solution, layout) if solved else STATUSES[status].value  # type: ignore[arg-type]
    return (body + "\n" if layout == "line" else "\n" + body + "\n").encode()


def run_raw_task(task: RawTask, solver: Solver) -> RawAnswer:
    """Parse, solve and write one chunk (in a worker, or in the parent with ``jobs=1``)."""
    parsed = parse_chunk(task.data, task.layout, task.rules)
    m = len(parsed.group)
    status = np.full(m, ERROR, np.uint8)
    rendered: list[np.ndarray | None] = []
    solutions: list[np.ndarray] = []
    for g, (rules, grids) in enumerate(zip(parsed.rules_list, parsed.grids, strict=True)):
        answer = solver.solve(grids, rules)
        code = answer.status
        _invalid_as_errors(code, grids, rules, g, parsed)
        mine = parsed.group == g
        status[mine] = code[parsed.row[mine]]
        rendered.append(_render(answer.first, rules, task.output))
        solutions.append(answer.first)
    errors = []
    for i in np.flatnonzero(parsed.group == -1).tolist():
        error = parsed.errors[int(parsed.row[i])]
        line = error.line if error.line is not None else int(parsed.line[i])  # a block's bad row, if named
        errors.append((type(error), error.reason, i + 1, line))
    out = _assemble(status, parsed, rendered, solutions, task.output)
    counts = np.bincount(status, minlength=len(STATUSES))
    return RawAnswer(out, m, count_lines(task.data), tuple(int(c) for c in counts), errors)


def _invalid_as_errors(code: np.ndarray, grids: np.ndarray, rules: Rules, g: int, parsed: _Parsed) -> None:
    """Puzzles whose givens clash become error records, as ``formats`` validates them.

    Only puzzles without a solution (or cut short by a time limit) can clash, since clashing givens never
    have one, so the check runs on a handful of rows.
    """
    c = codec(rules)
    for r in np.flatnonzero((code == NO_SOLUTION) | (code == UNKNOWN)).tolist():
        digits = grids[r].tobytes()
        if c.consistent(digits):
            continue
        try:
            Puzzle(rules, tuple(digits)).validate()
        except InvalidPuzzleError as exc:
            k = int(np.flatnonzero((parsed.group == g) & (parsed.row == r))[0])
            parsed.group[k] = -1
            parsed.row[k] = len(parsed.errors)
            parsed.errors.append(exc)
            code[r] = ERROR


def _assemble(
    status: np.ndarray,
    parsed: _Parsed,
    rendered: list[np.ndarray | None],
    solutions: list[np.ndarray],
    layout: str,
) -> bytes:
    """The chunk's output: runs of fast-written records as slices of one buffer, the others one by one."""
    group, row = parsed.group, parsed.row
    m = len(group)
    if m == 0:
        return b""
    fast = (group == 0) & (status == SOLVED) if rendered and rendered[0] is not None else np.zeros(m, bool)
    if fast.all() and (np.diff(row) == 1).all():
        block = rendered[0]
        assert block is not None
        return block[row[0] : row[-1] + 1].tobytes()
    # runs of consecutive fast records whose rows are consecutive too
    breaks = np.flatnonzero(~fast[1:] | ~fast[:-1] | (np.diff(row) != 1)) + 1
    bounds = [0, *breaks.tolist(), m]
    pieces: list[bytes] = []
    for a, b in itertools.pairwise(bounds):
        if fast[a]:
            block = rendered[0]
            assert block is not None
            pieces.append(block[row[a] : row[b - 1] + 1].tobytes())
            continue
        for i in range(a, b):
            g, r = int(group[i]), int(row[i])
            code = int(status[i])
            solution = (
                Puzzle(parsed.rules_list[g], tuple(solutions[g][r].tolist())) if code == SOLVED else None
            )
            pieces.append(_record_text(code, solution, layout))
    return b"".join(pieces)
