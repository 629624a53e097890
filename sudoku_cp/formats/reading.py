"""Reading puzzles from text, streaming: one ``Record`` per input puzzle, bad puzzles included.

A bad puzzle (wrong length, unknown symbol, a ragged grid, a digit given twice) becomes a record holding a
``ParseError`` that names its puzzle number, input line and source; the puzzles after it come out with their
right numbers. Nothing here reads a whole input into memory: lines are consumed one at a time, a grid block
keeps at most a few hundred lines, and a file is read with a bounded ``readline`` so that even a line of
gigabytes costs a megabyte of memory.

The common case (a well-formed line, or a well-formed grid or spaced block) goes through ``RulesCodec``
without a per-character Python loop; anything else takes a slow path that finds the exact fault.
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from functools import partial
from itertools import chain
from typing import Any

from ..candidates import Candidates
from ..errors import InvalidPuzzleError, ParseError, UsageError
from ..grid import BLANKS, Puzzle, Rules, length_error
from ..wording import plural
from .alphabet import Alphabet, parse_alphabet
from .codec import (
    INVALID,
    RulesCodec,
    codec_in,
    shape_error,
    shape_for_cells,
    shape_for_n,
    symbol_range,
    zero_or_blank,
    zero_or_blank_error,
)
from .detect import MAX_LINE, classify, csv_header
from .header import PREFIX, Header, is_header, read_header

__all__ = ["INPUT_FORMATS", "Record", "iter_records", "open_records", "parse"]

INPUT_FORMATS = ("line", "grid", "spaced", "csv", "fpuzzles")

#: How far detection may look ahead (the 36 rows of a 36x36 grid and the empty line after them fit).
PEEK_LINES = 64
PEEK_CHARS = 1 << 22
#: A block (lines between empty lines) longer than this cannot be a grid; the rest is counted, not kept.
BLOCK_LINES = 256
#: The raw text kept in an error record is cut to this many characters.
TEXT_LIMIT = 8192


@dataclass(frozen=True, slots=True)
class Record:
    """One input puzzle: its 1-based number ``index``, the 1-based input ``line`` where it starts, and either
    the ``puzzle`` or the ``error`` that kept it from being read.

    ``solution`` is a solution given in the input (``PUZZLE SOLUTION`` lines, a csv ``solution`` column);
    ``text`` the puzzle's raw text; ``format`` the layout it was read in; ``candidates`` the cells'
    candidates of a pencilmark grid (``formats.pencilmarks``; ``puzzle`` then has no givens). ``named``:
    for text that is no puzzle, the rules a ``# rules:`` line in force names, for a pencilmark grid it may
    turn out to be.
    """

    index: int
    line: int
    puzzle: Puzzle | None
    error: ParseError | None
    solution: Puzzle | None = None
    text: str = ""
    format: str = "line"
    candidates: Candidates | None = None
    named: str | tuple[str, ...] = ""

    @property
    def ok(self) -> bool:
        return self.error is None

    def moved(self, index: int, line: int) -> Record:
        """This record numbered as if ``index`` records and ``line`` lines came before the input it was
        read from (a batch that reads the rest of a file on its own)."""
        error = self.error
        if error is not None:
            error = type(error)(
                error.reason,
                index=None if error.index is None else error.index + index,
                line=None if error.line is None else error.line + line,
                source=error.source,
            )
        return Record(
            self.index + index,
            self.line + line,
            self.puzzle,
            error,
            self.solution,
            self.text,
            self.format,
            self.candidates,
            self.named,
        )


_NEW = object.__new__
_SETTERS = tuple(getattr(Record, f.name).__set__ for f in fields(Record))


def _record(
    index: int,
    line: int,
    puzzle: Puzzle | None,
    error: ParseError | None,
    solution: Puzzle | None,
    text: str,
    fmt: str,
) -> Record:
    """``Record(...)`` at a third of the cost: a frozen dataclass's ``__init__`` goes through
    ``object.__setattr__`` per field, which dominates reading a well-formed puzzle; the slot descriptors
    set the same fields directly."""
    r = _NEW(Record)
    si, sl, sp, se, ss, st, sf, sc, sn = _SETTERS
    si(r, index)
    sl(r, line)
    sp(r, puzzle)
    se(r, error)
    ss(r, solution)
    st(r, text)
    sf(r, fmt)
    sc(r, None)
    sn(r, "")
    return r


def with_named_rules(
    records: Iterable[Record], names: str | Sequence[str], validate: bool = True, source: str | None = None
) -> Iterator[Record]:
    """``records`` with grid-wide rules added to each puzzle (``"x,anti-knight"``, as ``Rules.with_named``);
    with ``validate``, a puzzle whose givens break the added rules becomes an error record naming them."""
    added: dict[Rules, Rules] = {}
    for record in records:
        try:
            yield _with_names(record, names, validate, source, added)
        except ValueError as exc:  # a rule that does not fit the grid (windoku on 2x3 boxes)
            raise UsageError(str(exc)) from None


def _with_names(
    record: Record, names: str | Sequence[str], validate: bool, source: str | None, added: dict[Rules, Rules]
) -> Record:
    """``record`` with the rules ``names`` added to its puzzle and known solution (``added`` caches the
    rules made); ``ValueError`` where a rule does not fit the puzzle's grid."""
    puzzle = record.puzzle
    if puzzle is None:
        return record
    rules = added.get(puzzle.rules)
    if rules is None:
        rules = added[puzzle.rules] = puzzle.rules.with_named(names)
    if record.candidates is not None:  # a pencilmark grid: its candidates under the rules
        ruled = Puzzle(rules, puzzle.cells)
        return replace(record, puzzle=ruled, candidates=Candidates(ruled, record.candidates.masks))
    puzzle = Puzzle(rules, puzzle.cells)
    error = None
    if validate and (clash := rules.violations(puzzle.cells, first=True)):
        error = InvalidPuzzleError(clash[0].message)
        error = error.located(index=record.index, line=record.line, source=source)
    solution = None if record.solution is None else Puzzle(rules, record.solution.cells)
    keep = None if error else puzzle
    return _record(record.index, record.line, keep, error, solution, record.text, record.format)


class _Headers:
    """The ``# rules:`` line in force while a reader goes through an input (``formats.header``): the
    rules it parses with (``fixed``: the header's box, else the reader's own) and what it does to each
    record it makes (``apply``: the header's rule names added, or its error)."""

    __slots__ = ("added", "current", "fixed", "given", "source", "validate")

    def __init__(self, given: Rules | None, validate: bool, source: str | None) -> None:
        self.given = self.fixed = given
        self.validate = validate
        self.source = source
        self.current: Header | None = None
        self.added: dict[Rules, Rules] = {}

    def read(self, text: str, line: int) -> None:
        """Take the header line ``text`` (stripped) at ``line``: it rules the puzzles after it."""
        self.current = read_header(text, line, self.given)
        self.fixed = self.current.box or self.given
        self.added = {}

    def codecs(self, symbols: Alphabet | None, by_cells: bool) -> dict[int, Any]:
        """A reader's codecs to start from: that of the rules it parses with, keyed by the cells (``line``)
        or the size (``grid``) of its puzzles; none where each puzzle's size gives its rules."""
        fixed = self.fixed
        return {} if fixed is None else {fixed.ncells if by_cells else fixed.n: _codec(fixed, symbols)}

    def apply(self, record: Record) -> Record:
        """``record`` under the header in force (itself when there is none, or it adds nothing)."""
        header = self.current
        if header is not None and record.puzzle is None and header.names and header.error is None:
            return replace(record, named=tuple(header.names))  # for pencilmarks, if they are
        if header is None or record.puzzle is None or not (header.names or header.error):
            return record
        if header.error is None:
            try:
                return _with_names(record, header.names, self.validate, self.source, self.added)
            except ValueError as exc:
                error = ParseError(f"the '{PREFIX}' line {header.line}: {exc}")
        else:
            error = ParseError(f"the '{PREFIX}' line {header.line} cannot be read: {header.error}")
        return _error_record(record.index, record.line, error, record.text, record.format, self.source)


def alphabet_of(symbols: Alphabet | str | None) -> Alphabet | None:
    """An ``Alphabet`` from ``--symbols`` text (``0-F``), an alphabet itself, or None for the default;
    ``UsageError`` for text that names no alphabet."""
    if symbols is None or isinstance(symbols, Alphabet):
        return symbols
    try:
        return parse_alphabet(symbols)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _check_format(format: str | None) -> None:
    if format is not None and format not in INPUT_FORMATS:
        raise UsageError(f"unknown input format {format!r}; choose one of {', '.join(INPUT_FORMATS)}")


def iter_records(
    lines: Iterable[str],
    format: str | None = None,
    rules: Rules | None = None,
    validate: bool = True,
    source: str | None = None,
    symbols: Alphabet | str | None = None,
) -> Iterator[Record]:
    """The records of an input given as lines (with or without their line ends), streaming.

    ``format`` is one of ``INPUT_FORMATS`` or None to detect it from the first lines; ``shape`` fixes the box
    shape (needed for shapes such as 1x5 or 12x12 as 2x6), else each puzzle's size gives it; ``validate``
    makes a digit given twice in a unit an error; ``source`` (a file name) goes into error messages.
    Nothing is read before the first record is asked for.

    >>> [r.puzzle.to_string() for r in iter_records(["1234", "3412", "2143", "4321"])]
    ['1234341221434321']
    >>> bad = list(iter_records(["1234341221434321", "123", "1234341221434321"]))
    >>> [(r.index, r.line, r.ok) for r in bad]
    [(1, 1, True), (2, 2, False), (3, 3, True)]
    """
    _check_format(format)
    return _records(iter(lines), format, rules, validate, source, False, alphabet_of(symbols))


def open_records(
    path: str | os.PathLike[str] | None,
    format: str | None = None,
    rules: Rules | None = None,
    validate: bool = True,
    source: str | None = None,
    symbols: Alphabet | str | None = None,
) -> Iterator[Record]:
    """The records of a file (``None`` or ``"-"``: standard input), streaming.

    The file is opened here, so a missing or unreadable file raises ``OSError`` at once. Text is UTF-8 with
    or without a byte order mark, with any line ends (``\\n``, ``\\r\\n``, a lone ``\\r``); bytes that are not
    UTF-8 make the puzzle holding them an error record. ``source`` defaults to the path (``<stdin>``).
    """
    _check_format(format)
    if path is None or os.fspath(path) == "-":
        return _read_stdin(format, rules, validate, source or "<stdin>", alphabet_of(symbols))
    stream = open(path, **_TEXT)  # noqa: SIM115 - closed by _read_stream when done
    return _read_stream(stream, format, rules, validate, source or os.fspath(path), alphabet_of(symbols))


#: How files are decoded: a BOM dropped, undecodable bytes kept (as surrogates) to be reported, any line end.
_TEXT: dict[str, Any] = {"encoding": "utf-8-sig", "errors": "surrogateescape", "newline": None}


def _read_stream(
    stream: io.TextIOWrapper,
    format: str | None,
    rules: Rules | None,
    validate: bool,
    source: str,
    symbols: Alphabet | None,
) -> Iterator[Record]:
    with stream:
        lines = iter(partial(stream.readline, MAX_LINE), "")
        yield from _records(lines, format, rules, validate, source, True, symbols)


def _read_stdin(
    format: str | None, rules: Rules | None, validate: bool, source: str, symbols: Alphabet | None
) -> Iterator[Record]:
    """Standard input as bytes, decoded like a file; wrapped only once reading starts, and unwrapped at
    the end, so that ``sys.stdin.buffer`` is never closed."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # standard input replaced by a text stream (as in tests): read it as it is
        yield from _records(iter(sys.stdin), format, rules, validate, source, False, symbols)
        return
    stream = io.TextIOWrapper(buffer, **_TEXT)
    try:
        lines = iter(partial(stream.readline, MAX_LINE), "")
        yield from _records(lines, format, rules, validate, source, True, symbols)
    finally:
        stream.detach()


def parse(
    text: str,
    format: str | None = None,
    rules: Rules | None = None,
    validate: bool = True,
    symbols: Alphabet | str | None = None,
) -> list[Puzzle]:
    """Every puzzle of ``text`` in any input layout; raises the first ``ParseError`` (with its position).

    >>> [p.to_string() for p in parse("1234\\n3412\\n2143\\n43..\\n")]
    ['12343412214343..']
    """
    puzzles = []
    for record in iter_records(text.splitlines(), format, rules, validate, symbols=symbols):
        if record.error is not None:
            raise record.error
        assert record.puzzle is not None
        puzzles.append(record.puzzle)
    return puzzles


# -- dispatch and detection ------------------------------------------------------------------------------


def _records(
    it: Iterator[str],
    format: str | None,
    rules: Rules | None,
    validate: bool,
    source: str | None,
    bounded: bool,
    symbols: Alphabet | None = None,
) -> Iterator[Record]:
    first = next(it, None)
    if first is None:
        return
    if not isinstance(first, str):
        raise UsageError(
            f"lines must be text, not {type(first).__name__}: open the file in text mode, or use open_records"
        )
    head = [first[1:] if first.startswith("\ufeff") else first]
    if format is None:
        format = _peek_format(head, it, rules)
    reader = _READERS[format]
    yield from reader(chain(head, it), format, rules, validate, source, bounded, symbols)


def _peek_format(head: list[str], it: Iterator[str], rules: Rules | None) -> str:
    """Read lines into ``head`` until ``classify`` can decide (or the look-ahead limit is reached)."""
    size = len(head[0])
    while True:
        decided = classify(head, rules, final=False)
        if decided is not None:
            return decided
        if len(head) >= PEEK_LINES or size >= PEEK_CHARS:
            break
        nxt = next(it, None)
        if nxt is None:
            break
        head.append(nxt)
        size += len(nxt)
    decided = classify(head, rules, final=True)
    assert decided is not None
    return decided


# -- errors ----------------------------------------------------------------------------------------------


def _skip_rest(raw: str, it: Iterator[str], bounded: bool) -> int:
    """The length of an over-long line; from a bounded reader, also consume the rest of it."""
    total = len(raw)
    if bounded:
        while not raw.endswith("\n"):
            piece = next(it, "")
            if not piece:
                break
            raw = piece
            total += len(raw)
    return total - (len(raw) - len(raw.rstrip("\r\n")))


def _too_long(total: int) -> ParseError:
    return ParseError(f"a line of {total:,} characters: longer than any puzzle ({MAX_LINE:,} at most)")


def _clean(text: str) -> str:
    """Raw text fit to keep in an error record: not-UTF-8 bytes shown as U+FFFD, cut to ``TEXT_LIMIT``."""
    if len(text) > TEXT_LIMIT:
        text = text[:TEXT_LIMIT] + "..."
    if not text.isascii():
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return text


def _error_record(
    index: int, line: int, error: ParseError, text: str, fmt: str, source: str | None
) -> Record:
    return _record(
        index, line, None, error.located(index=index, line=line, source=source), None, _clean(text), fmt
    )


def _symbol_error(
    text: str, table: bytes, n: int, where: Callable[[int], str], alphabet: Alphabet | None = None
) -> ParseError:
    """The first character of ``text`` that is not a symbol of an n x n grid, described."""
    for i, ch in enumerate(text):
        code = ord(ch)
        if code >= 256 or table[code] == INVALID:
            return _bad_symbol(ch, n, where(i), alphabet)
    raise AssertionError("no bad symbol found")  # pragma: no cover - callers checked there is one


def _bad_symbol(symbol: str, n: int, place: str, alphabet: Alphabet | None = None) -> ParseError:
    for ch in symbol:
        if 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte that was not UTF-8, kept by the surrogateescape handler
            return ParseError(f"byte 0x{ord(ch) - 0xDC00:02x} at {place} is not UTF-8 text")
    uses = f"{alphabet.symbols} (--symbols)" if alphabet is not None else symbol_range(n)
    blanks = alphabet.blanks if alphabet is not None else BLANKS
    return ParseError(f"unknown symbol {symbol!r} at {place}: a {n}x{n} grid uses {uses} and blanks {blanks}")


# -- the line layout -------------------------------------------------------------------------------------


def parse_symbols(text: str, rules: Rules | None, validate: bool, symbols: Alphabet | None = None) -> Puzzle:
    """One puzzle written as one symbol per cell (``text`` stripped); ``ParseError`` says what is wrong."""
    length = len(text)
    wrong_length = length != rules.ncells if rules else shape_for_cells(length) is None
    if wrong_length and not text.isascii():
        for i, ch in enumerate(text):  # garbled bytes explain a wrong length better than the length does
            if 0xDC80 <= ord(ch) <= 0xDCFF:
                raise _bad_symbol(ch, 0, f"character {i + 1} of the puzzle")
    if rules is None:
        rules = shape_for_cells(length)
        if rules is None:
            raise shape_error(length)
    elif length != rules.ncells:
        raise length_error(length, rules)
    if _ambiguous(text, rules.n, symbols):
        raise zero_or_blank_error(symbols)
    c = _codec(rules, symbols)
    d = c.digits(text)
    if d is None:
        raise _symbol_error(text, c.decode_table, rules.n, rules.name, c.alphabet)
    puzzle = Puzzle(rules, tuple(d))
    if validate and not c.consistent(d):
        puzzle.validate()
    return puzzle


def _puzzle_record(
    text: str,
    solution: str,
    index: int,
    line: int,
    rules: Rules | None,
    validate: bool,
    source: str | None,
    fmt: str,
    symbols: Alphabet | None = None,
) -> Record:
    """The record of one puzzle text and an optional known solution (the slow, exact path)."""
    try:
        puzzle = parse_symbols(text, rules, validate, symbols)
        known = None
        if solution:
            try:
                known = parse_symbols(solution, puzzle.rules, False, symbols)
            except ParseError as exc:
                raise ParseError(f"the solution given with the puzzle: {exc.reason}") from None
            if blanks := known.cells.count(0):
                raise ParseError(f"the solution given with the puzzle has {blanks} empty cells")
    except ParseError as exc:
        return _error_record(index, line, exc, text, fmt, source)
    return _record(index, line, puzzle, None, known, text, fmt)


def _line_records(
    lines: Iterable[str],
    fmt: str,
    rules: Rules | None,
    validate: bool,
    source: str | None,
    bounded: bool,
    symbols: Alphabet | None = None,
) -> Iterator[Record]:
    """``line``: one puzzle per line, optionally followed by its solution; ``#`` and empty lines skipped,
    ``# rules:`` lines honoured (``formats.header``)."""
    headers = _Headers(rules, validate, source)
    codecs: dict[int, RulesCodec] = headers.codecs(symbols, by_cells=True)
    index = 0
    it = iter(lines)
    for lineno, raw in enumerate(it, start=1):
        if len(raw) >= MAX_LINE:
            total = _skip_rest(raw, it, bounded)
            if not raw.lstrip().startswith("#"):
                index += 1
                yield _error_record(index, lineno, _too_long(total), raw[:80], fmt, source)
            continue
        s = raw.strip()
        while s.startswith("\ufeff"):  # byte order marks inside the input: files joined by cat
            s = s[1:].lstrip()
        if not s or s[0] == "#":
            if is_header(s):
                headers.read(s, lineno)
                codecs = headers.codecs(symbols, by_cells=True)
            continue
        index += 1
        c = codecs.get(len(s))
        if c is None and headers.fixed is None and (found := shape_for_cells(len(s))) is not None:
            c = codecs[len(s)] = _codec(found, symbols)
        if c is not None and s.isascii() and not _ambiguous(s, c.n, symbols):
            d = s.encode().translate(c.decode_table)
            if INVALID not in d and (not validate or c.consistent(d)):
                yield headers.apply(_record(index, lineno, Puzzle(c.rules, tuple(d)), None, None, s, fmt))
                continue
        parts = s.split()
        if len(parts) > 2:
            error = ParseError(
                f"{len(parts)} fields on one line: a line holds a puzzle and maybe its solution"
            )
            yield _error_record(index, lineno, error, s, fmt, source)
        else:
            record = _puzzle_record(
                parts[0],
                parts[1] if len(parts) == 2 else "",
                index,
                lineno,
                headers.fixed,
                validate,
                source,
                fmt,
                symbols,
            )
            yield headers.apply(record)


# -- the grid and spaced layouts -------------------------------------------------------------------------


def _block_records(
    lines: Iterable[str],
    fmt: str,
    rules: Rules | None,
    validate: bool,
    source: str | None,
    bounded: bool,
    symbols: Alphabet | None = None,
) -> Iterator[Record]:
    """``grid`` and ``spaced``: a puzzle is a block of non-empty lines; ``#`` lines skipped.

    The two layouts share this reader: a row is n symbols, written side by side or separated by spaces
    (decimal numbers such as 10 allowed then); ``|`` and lines such as ``+-------+`` are box separators.
    A block of n well-formed rows is read in a few string operations; any other goes to ``parse_block``.
    A ``# rules:`` line rules the blocks that start after it (``formats.header``).
    """
    it = iter(lines)
    headers = _Headers(rules, validate, source)
    pending: tuple[str, int] | None = None  # a header line met inside a block, taken when the block ends
    codecs: dict[int, RulesCodec | None] = headers.codecs(symbols, by_cells=False)
    block: list[str | int] = []  # the block's stripped lines; an int stands for an over-long line
    regular = True  # no comment, over-long or surplus line in the block: the fast path may apply
    surplus = 0
    index = first = 0
    # an empty line after the input ends the last block
    for lineno, raw in enumerate(chain(it, ("",)), start=1):
        if len(raw) >= MAX_LINE:
            if not block:
                first = lineno
            block.append(_skip_rest(raw, it, bounded))
            regular = False
            continue
        s = raw.strip()
        if s:
            if not block:
                if s[0] == "#":
                    if is_header(s):
                        headers.read(s, lineno)
                        codecs = headers.codecs(symbols, by_cells=False)
                    continue
                first = lineno
            elif s[0] == "#":
                regular = False
                if is_header(s):
                    pending = (s, lineno)
            if len(block) < BLOCK_LINES:
                block.append(s)
            else:
                surplus += 1
                regular = False
            continue
        if not block:
            continue
        if regular:
            m = len(block)
            c = codecs.get(m)
            if c is None and headers.fixed is None and m not in codecs:
                c = codecs[m] = _codec_for_n(m, symbols)
            if c is not None:
                joined = "\n".join(block)  # type: ignore[arg-type]  # a regular block holds strings
                width = len(block[0])  # type: ignore[arg-type]
                cells = None
                if width == m:  # n symbols side by side: the newlines must fall every n + 1 characters
                    if len(joined) == m * (m + 1) - 1 and joined[m :: m + 1] == "\n" * (m - 1):
                        cells = joined.replace("\n", "")
                elif width == 2 * m - 1:  # one-character symbols separated by single spaces
                    gaps = _SPACED_GAPS.get(m)
                    if gaps is None:
                        gaps = _SPACED_GAPS[m] = ((" " * (m - 1) + "\n") * m)[:-1]
                    if len(joined) == 2 * m * m - 1 and joined[1::2] == gaps:
                        cells = joined[::2]
                if cells is not None and cells.isascii() and not _ambiguous(cells, c.n, symbols):
                    d = cells.encode().translate(c.decode_table)
                    if INVALID not in d and (not validate or c.consistent(d)):
                        index += 1
                        puzzle = Puzzle(c.rules, tuple(d))
                        yield headers.apply(_record(index, first, puzzle, None, None, joined, fmt))
                        block = []
                        continue
        fixed = headers.fixed
        record = _block_record(block, surplus, index + 1, first, fmt, fixed, validate, source, symbols)
        if record is not None:  # None: a block of box separators only, like a comment
            index += 1
            yield headers.apply(record)
        block = []
        regular = True
        surplus = 0
        if pending is not None:
            headers.read(*pending)
            codecs = headers.codecs(symbols, by_cells=False)
            pending = None


_SPACED_GAPS: dict[int, str] = {}


def _block_record(
    block: list[str | int],
    surplus: int,
    index: int,
    first: int,
    fmt: str,
    rules: Rules | None,
    validate: bool,
    source: str | None,
    symbols: Alphabet | None = None,
) -> Record | None:
    """The record of a block the fast path did not take: a puzzle, the exact fault, or None for a block
    of nothing but box separators (and comments)."""
    if all(isinstance(s, str) and (s[0] == "#" or _is_separator(s)) for s in block):
        return None
    text = "\n".join(s if isinstance(s, str) else "..." for s in block)
    try:
        puzzle = parse_block(block, first, surplus, rules, validate, symbols)
    except ParseError as exc:
        return _error_record(index, first, exc, text, fmt, source)
    return _record(index, first, puzzle, None, None, text, fmt)


def _codec_for_n(n: int, symbols: Alphabet | None = None) -> RulesCodec | None:
    rules = shape_for_n(n)
    return _codec(rules, symbols) if rules is not None else None


_codec = codec_in


def _ambiguous(text: str, n: int, symbols: Alphabet | None) -> bool:
    """A 16x16 text that 0-F and 1-9A-G read differently, when no alphabet of that size was given."""
    return (symbols is None or symbols.n != n) and zero_or_blank(text, n)


def _is_dash_line(s: str) -> bool:
    return set(s) <= _DASH_CHARS


def _is_separator(s: str) -> bool:
    """A line that can only be a box separator: dashes and such with a ``+``, ``=`` or ``|``."""
    return _is_dash_line(s) and any(ch in s for ch in "+=|")


_DASH_CHARS = frozenset("-+=| \t")


def _readings(s: str) -> tuple[list[str] | None, list[str]]:
    """Two readings of a row (``|`` removed): its whitespace-separated tokens if each is one symbol or a
    decimal number (None otherwise), and all its characters but white space."""
    tokens = s.replace("|", " ").split()
    chars = list("".join(tokens))
    if all(len(t) == 1 or (t.isascii() and t.isdigit()) for t in tokens):
        return tokens, chars
    return None, chars


def _token_count(tokens: list[str] | None, chars: list[str]) -> int:
    """The symbols a row seems to hold: its tokens where they are symbols or numbers, else characters."""
    return len(tokens) if tokens is not None else len(chars)


def parse_block(
    block: list[str | int],
    first: int,
    surplus: int,
    rules: Rules | None,
    validate: bool,
    symbols: Alphabet | None = None,
) -> Puzzle:
    """One grid written as a block of lines (starting at line ``first``); ``ParseError`` says what is wrong.

    Separators: lines of ``-``, ``+``, ``=``, ``|`` and spaces holding a ``+``, ``=`` or ``|``; a line
    of dashes only is a row of blanks when it has as many dashes as other rows have symbols, else a separator.
    """
    if surplus:
        raise ParseError(
            f"{len(block) + surplus} lines without an empty line between them: too many for a grid"
        )
    lines: list[tuple[int, str]] = []
    for offset, s in enumerate(block):
        if isinstance(s, int):
            raise _too_long(s).located(line=first + offset)
        if s[0] != "#":
            lines.append((first + offset, s))
    plain = [(ln, s) for ln, s in lines if not _is_dash_line(s)]
    expected = rules.n if rules is not None else (_token_count(*_readings(plain[0][1])) if plain else None)
    rows: list[tuple[int, list[str] | None, list[str]]] = []
    for ln, s in lines:
        tokens, chars = _readings(s)
        if _is_separator(s) or (_is_dash_line(s) and len(chars) != (expected or len(chars))):
            continue  # a box separator
        rows.append((ln, tokens, chars))
    if not rows:
        raise ParseError("a block of box separators without any row")
    m = len(rows)
    n = rules.n if rules is not None else m
    written: list[list[str]] = []
    for k, (ln, tokens, chars) in enumerate(rows, start=1):
        if tokens is not None and len(tokens) == n:
            written.append(tokens)
        elif len(chars) == n:
            written.append(chars)
        else:
            count = _token_count(tokens, chars)
            if rules is None and k == 1:
                raise ParseError(f"{m} rows of {count} symbols: a grid has as many rows as symbols in a row")
            raise ParseError(
                f"row {k} has {count} {plural(count, 'symbol')}, a {n}x{n} grid has {n}"
            ).located(line=ln)
    if rules is None:
        rules = shape_for_n(n)
        if rules is None:
            raise ParseError(f"a {n}x{n} grid: " + _why_no_shape(n))
    if _ambiguous("".join(sym for row in written for sym in row if len(sym) == 1), rules.n, symbols):
        raise zero_or_blank_error(symbols).located(line=first)
    c = _codec(rules, symbols)
    cells: list[int] = []
    for r, (ln, *_) in enumerate(rows):
        for col, sym in enumerate(written[r]):
            if len(sym) == 1:
                d = c.decode_table[ord(sym)] if ord(sym) < 256 else INVALID
            else:
                d = int(sym) if sym.isascii() and sym.isdigit() and int(sym) <= n else INVALID
            if d == INVALID:
                raise _bad_symbol(sym, n, rules.name(r * n + col), c.alphabet).located(line=ln)
            cells.append(d)
    puzzle = Puzzle(rules, tuple(cells))
    if validate:
        puzzle.validate()
    return puzzle


def _why_no_shape(n: int) -> str:
    try:
        Rules.from_n(n)
    except ValueError as exc:
        return str(exc)
    return "no box shape"  # pragma: no cover - only called when from_n failed


# -- the csv layout --------------------------------------------------------------------------------------


def _csv_records(
    lines: Iterable[str],
    fmt: str,
    rules: Rules | None,
    validate: bool,
    source: str | None,
    bounded: bool,
    symbols: Alphabet | None = None,
) -> Iterator[Record]:
    """``csv``: a header naming a ``quizzes``/``puzzle``/``puzzles`` column, maybe a ``solution(s)`` one.

    Without a puzzle column every row is an error record (so the output still has one record per row).
    A ``# rules:`` line, before the header or between rows, rules the rows after it (``formats.header``).
    """
    it = iter(lines)
    headers = _Headers(rules, validate, source)
    lineno = 0
    header = None
    for raw in it:
        lineno += 1
        if len(raw) >= MAX_LINE:
            _skip_rest(raw, it, bounded)
            header = ""
            break
        s = raw.strip()
        if s and s[0] != "#":
            header = s
            break
        if is_header(s):
            headers.read(s, lineno)
    if header is None:
        return
    head = csv_header(header)
    header_line = lineno
    long_lines: dict[int, int] = {}

    def guarded() -> Iterator[str]:
        for number, raw in enumerate(it, start=1):
            if len(raw) >= MAX_LINE:
                long_lines[number] = _skip_rest(raw, it, bounded)
                yield "\n"
            elif raw[:1] == "#" and is_header(raw.strip()):  # read before the row after it is made
                headers.read(raw.strip(), header_line + number)
                yield "\n"
            else:
                yield raw

    reader = csv.reader(guarded(), delimiter=head.delimiter)
    index = read = 0
    if head.puzzle is None:
        names = ", ".join(head.names) if header else "(an over-long line)"
        missing = ParseError(
            f"the csv header (line {header_line}) has no puzzle column (quizzes, puzzle or puzzles): {names}"
        )
    while True:
        try:
            row = next(reader)
            error = None
        except StopIteration:
            break
        except csv.Error as exc:
            row, error = [], ParseError(f"not a csv row: {exc}")
        start = header_line + read + 1
        end = reader.line_num
        long = [long_lines.pop(k) for k in range(read + 1, end + 1) if k in long_lines]
        read = end
        if long:
            error = _too_long(long[0])
        if error is None and not any(field.strip() for field in row):
            continue
        index += 1
        if error is None and head.puzzle is None:
            error = missing
        if error is not None:
            yield _error_record(index, start, error, ",".join(row)[:80], fmt, source)
            continue
        if head.puzzle >= len(row) or not row[head.puzzle].strip():  # type: ignore[operator]
            error = ParseError(f"no puzzle in column {head.puzzle + 1} ({head.names[head.puzzle]})")  # type: ignore[operator,index]
            yield _error_record(index, start, error, ",".join(row), fmt, source)
            continue
        text = row[head.puzzle].strip()  # type: ignore[index]
        solution = (
            row[head.solution].strip() if head.solution is not None and head.solution < len(row) else ""
        )
        record = _puzzle_record(text, solution, index, start, headers.fixed, validate, source, fmt, symbols)
        yield headers.apply(record)


# -- the f-puzzles layout -----------------------------------------------------------------------------

#: The most text one f-puzzles object spread over several lines may take.
MAX_JSON = 16 << 20


def _fpuzzles_records(
    lines: Iterable[str],
    fmt: str,
    rules: Rules | None,
    validate: bool,
    source: str | None,
    bounded: bool,
    symbols: Alphabet | None = None,
) -> Iterator[Record]:
    """``fpuzzles``: one JSON object per line, one object over several lines, or links and compressed
    puzzles one per line (``formats.fpuzzles``). Blank lines and ``#`` comments are skipped; a ``# rules:``
    line makes the puzzles after it errors, as these state their own rules."""
    from .fpuzzles import parse_fpuzzles

    it = iter(lines)
    pending: list[str] = []  # lines read ahead by an object that never ended, to read again (last first)
    lineno = index = 0
    refused: ParseError | None = None
    while (raw := pending.pop() if pending else next(it, None)) is not None:
        lineno += 1
        if len(raw) >= MAX_LINE:
            total = _skip_rest(raw, it, bounded)
            index += 1
            yield _error_record(index, lineno, _too_long(total), raw[:80], fmt, source)
            continue
        start, text = lineno, raw.strip()
        if not text or text[0] == "#":
            if is_header(text):
                refused = ParseError(
                    f"the '{PREFIX}' line {lineno}: f-puzzles JSON and links state their own rules (the line "
                    "is for layouts of digits only)"
                )
            continue
        index += 1
        error: ParseError | None = None
        if text[0] in "{[":  # an object, or a list to refuse, may go on over the next lines
            depth, size = _json_depth(text, 0), len(text)
            parts = [text]  # joined once: adding each line to a string copied it again (quadratic)
            while depth > 0 and size < MAX_JSON:
                nxt = pending.pop() if pending else next(it, None)
                if nxt is None or len(nxt) >= MAX_LINE:
                    if nxt is not None:
                        pending.append(nxt)
                    break
                lineno += 1
                parts.append(nxt)
                size += len(nxt)
                depth = _json_depth(nxt, depth)
            if depth > 0 and size < MAX_JSON:
                # cut short: it ends where a line starts another object at its first column (as one
                # object a line does; a pretty-printed object indents what it holds), and the lines from
                # there are read again, so that one broken object loses no puzzle after it
                end = next((j for j in range(1, len(parts)) if parts[j][:1] in "{["), len(parts))
                pending.extend(reversed(parts[end:]))
                lineno -= len(parts) - end
                del parts[end:]
            text = "".join(parts)
            if depth > 0:
                error = ParseError(
                    "an f-puzzles object that never ends"
                    if size < MAX_JSON
                    else "an f-puzzles object over 16 MB"
                )
        puzzle = None
        error = error or refused
        if error is None:
            try:
                puzzle = parse_fpuzzles(text, symbols)
                if rules is not None and puzzle.rules.regions != rules.regions:
                    raise ParseError(_own_regions(puzzle.rules, rules))
                if validate:
                    puzzle.validate()
            except ParseError as exc:
                error, puzzle = exc, None
        if error is not None:
            error = error.located(index=index, line=start, source=source)
        yield _record(index, start, puzzle, error, None, text[:200], fmt)


def _own_regions(theirs: Rules, given: Rules) -> str:
    """Why ``--box`` does not apply to an f-puzzles puzzle, a link or a jsonl record: they state their own
    regions, and a box shape that differs would be ignored without a word."""
    if theirs.box is not None:
        shape = f"has boxes of {theirs.box[0]}x{theirs.box[1]}"
    else:
        shape = "has regions of its own"
    asked = f"{given.box[0]}x{given.box[1]}" if given.box is not None else "other regions"
    return (
        f"--box {asked}: this {theirs.n}x{theirs.n} puzzle {shape}; f-puzzles JSON, links and jsonl records "
        "state their own regions (leave --box out)"
    )


#: A JSON string (an unterminated one runs to the end of the text), for ``_json_depth`` to skip.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)


def _json_depth(text: str, depth: int) -> int:
    """The nesting depth of braces and brackets after ``text``, from ``depth`` (strings skipped)."""
    if '"' in text:
        text = _JSON_STRING.sub("", text)
    return depth + text.count("{") + text.count("[") - text.count("}") - text.count("]")


_READERS = {
    "line": _line_records,
    "grid": _block_records,
    "spaced": _block_records,
    "csv": _csv_records,
    "fpuzzles": _fpuzzles_records,
}
