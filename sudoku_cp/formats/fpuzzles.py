"""The f-puzzles JSON format, the exchange format of variant setters: read into ``Rules`` and givens, and
written back, as JSON or as the compressed ``?load=`` link f-puzzles and SudokuPad open.

The compressed form is lz-string's base64 (the ``lzstring`` package). Cells are named ``R1C1``; the
constraint keys read are those of ``RULE_KEYS``: the grid-wide rules by name, and one key per constraint
kind, which the kind's module reads and writes (``rules.kinds``: ``Variant.read_key``, ``write_key``);
cosmetic keys (``COSMETIC_KEYS``) are ignored; any other key that holds something is refused by name,
since ignoring a rule would give wrong uniqueness answers.

Every value is checked for its type and range before it is used, so that any JSON gives a ``Puzzle`` or a
``ParseError`` that says what is wrong, never another exception (kropki values, cage sums and the like:
see each kind's module).

f-puzzles has no key for windoku: its windows are written as ``extraregion`` entries (the app then keeps
them), and extra regions that are exactly the windows of a grid with square boxes are read back as the
windoku rule, so a puzzle written and read is the same ``Rules`` value.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

from ..errors import ParseError, UnsupportedRuleError
from ..grid import Puzzle
from ..rules import NAMED, Rules
from ..rules.kinds import KINDS, Variant
from ..rules.kinds.entries import number as _number
from ..rules.kinds.entries import shown as _shown
from ..rules.kinds.regions import ExtraRegion
from .alphabet import Alphabet
from .codec import codec_in, zero_or_blank, zero_or_blank_error
from .header import PREFIX, header_words, read_header

__all__ = [
    "COSMETIC_KEYS",
    "LINK_PREFIX",
    "RULE_KEYS",
    "from_fpuzzles",
    "looks_like_fpuzzles",
    "parse_fpuzzles",
    "rules_field",
    "to_fpuzzles",
    "to_link",
]

#: The built-in kinds' keys, written before ``windoku`` in the list of keys read.
_BUILT_IN = tuple(kind.key for kind in KINDS if kind.field != "variants")
#: The keys that state rules, all of them read (``windoku`` is sudoku-cp's own: see the module's note).
RULE_KEYS = (
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
    *_BUILT_IN,
    "windoku",
    *(kind.key for kind in KINDS if kind.key not in _BUILT_IN),
)
#: Keys that only change how a puzzle looks, or say who made it.
COSMETIC_KEYS = frozenset(
    {
        "size", "grid", "title", "author", "ruleset", "highlightConflicts", "text", "line", "lines",
        "rectangle", "circle", "cage", "solution", "disabledlogic", "truecandidatesoptions", "colours",
        "colors",
        "index",  # sudoku-cp's own output adds these two (``--output-format fpuzzles``)
        "status",
        "error",
    }
)  # fmt: skip
#: The keys of a grid cell that state nothing about the rules (a player's marks and colours).
_COSMETIC_CELL_KEYS = frozenset(
    {"value", "given", "region", "c", "cArray", "highlight", "centerPencilMarks", "cornerPencilMarks"}
)
_NAMED = {
    "diagonal+": "diagonal+",
    "diagonal-": "diagonal-",
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "disjointgroups": "disjoint",
    "nonconsecutive": "non-consecutive",
}
#: What ``to_link`` puts before the compressed puzzle.
LINK_PREFIX = "https://www.f-puzzles.com/?load="


def _lz() -> Any:
    from lzstring import LZString

    return LZString()


#: A SudokuPad link or puzzle id that carries f-puzzles data: ``fpuzzles`` (or ``fpuz``) and the
#: compressed JSON, as a path (``https://sudokupad.app/fpuzzles...``) or a ``puzzleid=`` parameter.
_SUDOKUPAD = re.compile(r"(?:^|[/=])fpuz(?:zles)?([A-Za-z0-9+/=%_-]+)")


def looks_like_fpuzzles(text: str) -> bool:
    """True for a line that holds f-puzzles JSON (an object, or any JSON value that starts with ``[``, to
    be refused as such), a link with ``load=``, a SudokuPad link or id with f-puzzles data
    (``fpuzzles``/``fpuz``), or the compressed form."""
    text = text.strip()
    return (
        text.startswith(("{", "["))
        or "load=" in text
        or "f-puzzles.com" in text
        or "sudokupad" in text
        or text.startswith(("N4Ig", "fpuz"))
        or (" " not in text and bool(_SUDOKUPAD.search(text)))
    )


def parse_fpuzzles(text: str, symbols: Alphabet | None = None) -> Puzzle:
    """One puzzle from f-puzzles JSON, a link (``...?load=...``, or a SudokuPad link with f-puzzles data)
    or the bare compressed string; ``symbols``: the alphabet of a jsonl record's puzzle line."""
    return from_fpuzzles(_decode(text), symbols)


def _decode(text: str) -> dict[str, Any]:
    text = text.strip()
    if not text.startswith(("{", "[")):
        payload = text
        sudokupad = _SUDOKUPAD.search(text)
        if "load=" in text:
            payload = text.split("load=", 1)[1].split("&", 1)[0]
        elif sudokupad:
            payload = sudokupad[1]
        elif "sudokupad" in text:
            raise ParseError(
                "a SudokuPad link in SudokuPad's own format (scl, ctc or a short id) is not read; links "
                "that carry f-puzzles data (sudokupad.app/fpuzzles...) are: open the puzzle in SudokuPad or "
                "f-puzzles and copy an f-puzzles link or its JSON"
            )
        elif "?id=" in text:
            raise ParseError("an f-puzzles short link (?id=) names a puzzle on the f-puzzles server; open it "
                             "there and copy the long link (?load=) or the JSON")  # fmt: skip
        payload = unquote(payload.replace(" ", "+"))  # %2B, %2b, ...: escapes of either case
        try:
            text = _lz().decompressFromBase64(payload) or ""
        except Exception:  # lz-string raises assorted errors on text that is not its output
            text = ""
        if not text.startswith("{"):
            raise ParseError("not an f-puzzles link or compressed puzzle (lz-string base64)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid f-puzzles JSON: {exc.msg} at character {exc.pos + 1}") from None
    except RecursionError:
        raise ParseError("not f-puzzles JSON: lists or objects nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an integer (4,300)
        raise ParseError("not f-puzzles JSON: a number with thousands of digits") from None
    if not isinstance(data, dict):
        raise ParseError(f"f-puzzles JSON must be an object with size and grid, not {_shown(data)}")
    return data


def _flag(data: dict[str, Any], key: str) -> bool:
    """A rule switched on or off by ``key`` (true, false, or absent)."""
    value = data.get(key)
    if value is not None and not isinstance(value, bool):
        raise ParseError(f"f-puzzles key {key!r} must be true or false, not {_shown(value)}")
    return bool(value)


#: Keys of sudoku-cp's own jsonl records (``rules_field``, the results' fields) that no f-puzzles object has.
_RECORD_KEYS = {"rules", "index", "status", "error", "count"}


def from_fpuzzles(data: dict[str, Any], symbols: Alphabet | None = None) -> Puzzle:
    """The puzzle (its ``Rules`` and givens) an f-puzzles object describes; ``ParseError`` naming any key
    that states a rule sudoku-cp does not know, or any value that is not of its key's form.

    An object with a ``puzzle`` line and no ``grid`` is one of sudoku-cp's own jsonl records: its puzzle
    under its ``rules`` (``rules_field``), its other keys (results, statistics) left aside."""
    if not isinstance(data, dict):
        raise ParseError(f"f-puzzles JSON must be an object with size and grid, not {_shown(data)}")
    if "grid" not in data and "puzzle" in data:
        return _from_record(data, symbols)
    if "grid" not in data and "size" not in data and data.keys() & _RECORD_KEYS:
        if data.get("status") == "error":
            said = data.get("error")
            raise ParseError(
                "an error record, which holds no puzzle" + (f": {said}" if isinstance(said, str) else "")
            )
        raise ParseError(
            f"a jsonl record without its 'puzzle' line (it holds {', '.join(map(repr, sorted(data)))})"
        )
    unknown = sorted(k for k, v in data.items() if k not in COSMETIC_KEYS and k not in RULE_KEYS and v)
    if unknown:
        raise ParseError(
            f"unsupported f-puzzles constraint {_shown(unknown[0])} (supported: {', '.join(RULE_KEYS)})"
        )
    n = data.get("size")
    grid = data.get("grid")
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 36:
        raise ParseError(f"f-puzzles size must be a whole number from 2 to 36, not {_shown(n)}")
    if (
        not isinstance(grid, list)
        or len(grid) != n
        or any(not isinstance(row, list) or len(row) != n for row in grid)
    ):
        raise ParseError(f"f-puzzles grid must be {n} rows of {n} cells")
    cells = [0] * (n * n)
    regions: list[int | None] = [None] * (n * n)
    for r, row in enumerate(grid):
        for c, entry in enumerate(row):
            where = f"R{r + 1}C{c + 1}"
            if not isinstance(entry, dict):
                raise ParseError(f"f-puzzles cell {where} must be an object, not {_shown(entry)}")
            extra = sorted(k for k, v in entry.items() if k not in _COSMETIC_CELL_KEYS and v)
            if extra:
                raise ParseError(f"unsupported f-puzzles cell key {_shown(extra[0])} at {where}")
            if entry.get("given") and entry.get("value"):
                cells[r * n + c] = _number(entry["value"], f"given at {where}", None, 1, n) or 0
            if "region" in entry:
                if entry["region"] is None:
                    raise ParseError(f"{where} belongs to no region: grids with cells outside every region "
                                     "are not supported")  # fmt: skip
                regions[r * n + c] = _number(entry["region"], f"region at {where}", None, -(n**2), n**2)
    rules = _base_rules(n, regions)
    named = [_NAMED[k] for k in _NAMED if _flag(data, k)]
    windoku = _flag(data, "windoku")  # sudoku-cp's own mark: its windows are among the extra regions
    try:
        found = [v for kind in KINDS for v in kind.read_key(data.get(kind.key), rules)]
        if windoku:
            named.append("windoku")
            found = _without_windows(found, rules)
        if named:
            rules = rules.with_named(named)
        rules = rules.with_(variants=found)
    except ValueError as exc:
        if isinstance(exc, ParseError):
            raise
        raise ParseError(f"f-puzzles rules: {exc}") from None
    return Puzzle(rules, tuple(cells))


def rules_field(rules: Rules) -> str | dict[str, Any] | None:
    """The ``rules`` of a puzzle's jsonl record: None for the classic rules of its size; what a
    ``# rules:`` line says (``x,anti-knight``, ``2x6``) where that names them; else the f-puzzles object of
    the rules (the givens left out, the ``grid`` only where it holds regions)."""
    try:
        return header_words(rules, "jsonl")
    except UnsupportedRuleError:
        data = to_fpuzzles(Puzzle.empty(rules))
        if not any(cell for row in data["grid"] for cell in row):
            del data["grid"]
        return data


def _from_record(data: dict[str, Any], symbols: Alphabet | None = None) -> Puzzle:
    """The puzzle of one of sudoku-cp's jsonl records: its ``puzzle`` line under its ``rules``, in the
    alphabet ``symbols`` (``--symbols``) where it has as many digits as the grid."""
    text, field = data["puzzle"], data.get("rules")
    if not isinstance(text, str):
        raise ParseError(f"a jsonl record's puzzle must be a line of text, not {_shown(text)}")
    if isinstance(field, dict):
        n = field.get("size")
        empty = [[{} for _ in range(n)] for _ in range(n)] if isinstance(n, int) and 2 <= n <= 36 else None
        return _line(text, from_fpuzzles({"grid": empty, **field}).rules, symbols)
    if field is not None and not isinstance(field, str):
        raise ParseError(f"a jsonl record's rules must be text or an f-puzzles object, not {_shown(field)}")
    header = read_header(f"{PREFIX} {field or 'classic'}", 1, None)
    if header.error is not None:
        raise ParseError(f"a jsonl record's rules {_shown(field)} cannot be read: {header.error}")
    puzzle = _line(text, header.box, symbols)
    if not header.names:
        return puzzle
    try:
        return Puzzle(puzzle.rules.with_named(header.names), puzzle.cells)
    except ValueError as exc:
        raise ParseError(f"a jsonl record's rules {_shown(field)}: {exc}") from None


def _line(text: str, rules: Rules | None, symbols: Alphabet | None) -> Puzzle:
    """A jsonl record's puzzle line under ``rules`` (None: the classic rules of its length), read in
    ``symbols`` where the alphabet fits the grid; a 16x16 line that 0-F and 1-9A-G read differently is
    refused without one, as in the line layout."""
    chars = "".join(text.split())
    if rules is None:
        try:
            rules = Rules.from_cell_count(len(chars))
        except ValueError:
            return Puzzle.from_string(chars)  # its own message: no grid has that many cells
    if symbols is not None and symbols.n == rules.n:
        digits = codec_in(rules, symbols).digits(chars)
        if digits is None or len(digits) != rules.ncells:
            size = f"{rules.n}x{rules.n}"
            raise ParseError(f"a jsonl record's puzzle is no {size} line in the symbols {symbols}")
        return Puzzle(rules, tuple(digits))
    if zero_or_blank(chars, rules.n):
        raise zero_or_blank_error(symbols)
    return Puzzle.from_string(chars, rules)


def _windows(rules: Rules) -> list[tuple[int, ...]]:
    """The windoku windows of ``rules``' grid; ``ParseError`` where it has none (irregular, oblong boxes)."""
    try:
        return list(NAMED["windoku"](rules.n, rules.box)[0])
    except ValueError as exc:
        raise ParseError(f"f-puzzles rules: {exc}") from None


def _without_windows(found: list[Variant], rules: Rules) -> list[Variant]:
    """The constraints read but the first extra region that is each windoku window (``to_fpuzzles``
    writes them first)."""
    left = [frozenset(w) for w in _windows(rules)]
    kept = []
    for c in found:
        if isinstance(c, ExtraRegion) and frozenset(c.cells) in left:
            left.remove(frozenset(c.cells))
        else:
            kept.append(c)
    return kept


def _base_rules(n: int, regions: list[int | None]) -> Rules:
    if all(r is None for r in regions):
        try:
            return Rules.from_n(n)
        except ValueError:
            raise ParseError(f"a {n}x{n} f-puzzles grid without regions has no box shape") from None
    default = Rules.from_n(n) if any(n % d == 0 for d in range(2, n)) else None
    ids = [
        r if r is not None else (default.region_of[cell] if default else -1) for cell, r in enumerate(regions)
    ]
    groups: dict[int, list[int]] = {}
    for cell, r in enumerate(ids):
        groups.setdefault(r, []).append(cell)
    if len(groups) != n or any(len(g) != n for g in groups.values()):
        sizes = ", ".join(f"{r}: {len(groups[r])}" for r in sorted(groups)[:12]) + (
            ", ..." if len(groups) > 12 else ""
        )
        raise ParseError(
            f"f-puzzles regions: a {n}x{n} grid needs {n} regions of {n} cells each, not {len(groups)} "
            f"(cells by region number: {sizes})"
        )
    try:  # in the order of their numbers, as written (the boxes of some shape give classic rules)
        return Rules.jigsaw([groups[r] for r in sorted(groups)])
    except ValueError as exc:
        raise ParseError(f"f-puzzles regions: {exc}") from None


def to_fpuzzles(puzzle: Puzzle, solution: Puzzle | None = None) -> dict[str, Any]:
    """The f-puzzles object of ``puzzle`` (givens and rules), with ``solution``'s digits as the
    ``solution`` key when given; ``from_fpuzzles`` reads it back to the same puzzle.
    ``UnsupportedRuleError`` for a rule f-puzzles cannot state (a pill whose digits are not read left to
    right and downwards, a kropki value or a cage sum the reader refuses)."""
    rules, n = puzzle.rules, puzzle.n
    try:
        default = rules.box is not None and Rules.from_n(n).regions == rules.regions
    except ValueError:  # no box shape is the default of this size: write the regions
        default = False
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            cell = r * n + c
            entry: dict[str, Any] = {}
            if puzzle.cells[cell]:
                entry = {"value": puzzle.cells[cell], "given": True}
            if not default:
                entry["region"] = rules.region_of[cell]
            row.append(entry)
        grid.append(row)
    data: dict[str, Any] = {"size": n, "grid": grid}
    for key, name in _NAMED.items():
        if name in rules.named:
            data[key] = True
    if "windoku" in rules.named:  # the app knows the windows as extra regions; the mark names the rule
        data["windoku"] = True
    for kind in KINDS:
        written = list(kind.stored(rules))
        if kind is ExtraRegion and "windoku" in rules.named:
            written = [ExtraRegion(w) for w in _windows(rules)] + written
        if written:
            data[kind.key] = kind.write_key(written, n)
    if any(type(v) not in KINDS for v in rules.variants):
        raise UnsupportedRuleError(
            f"f-puzzles has no key for {next(v for v in rules.variants if type(v) not in KINDS).kind}"
        )
    if solution is not None:
        data["solution"] = list(solution.cells)
    return data


def to_link(puzzle: Puzzle, solution: Puzzle | None = None) -> str:
    """The f-puzzles link that opens ``puzzle`` (``?load=`` and the lz-string compressed JSON), with
    ``solution`` as the answer the app checks a solver's grid against."""
    data = to_fpuzzles(puzzle, solution)
    return LINK_PREFIX + _lz().compressToBase64(json.dumps(data, separators=(",", ":")))
