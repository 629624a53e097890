"""The f-puzzles JSON format, the exchange format of variant setters: read into ``Rules`` and givens, and
written back, as JSON or as the compressed ``?load=`` link f-puzzles and SudokuPad open.

The compressed form is lz-string's base64 (the ``lzstring`` package). Cells are named ``R1C1``; the
constraint keys read are those of ``RULE_KEYS``; cosmetic keys (``COSMETIC_KEYS``) are ignored; any other
key that holds something is refused by name, since ignoring a rule would give wrong uniqueness answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from ..errors import ParseError
from ..grid import Puzzle
from ..rules import Arrow, Cage, Pair, Rules, Thermo

__all__ = [
    "COSMETIC_KEYS",
    "LINK_PREFIX",
    "RULE_KEYS",
    "from_fpuzzles",
    "looks_like_fpuzzles",
    "parse_fpuzzles",
    "to_fpuzzles",
    "to_link",
]

#: The keys that state rules, all of them read.
RULE_KEYS = (
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
    "extraregion",
    "killercage",
    "thermometer",
    "arrow",
    "difference",
    "ratio",
    "xv",
    "negative",
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
_CELL = re.compile(r"^R(\d+)C(\d+)$", re.IGNORECASE)


def _lz() -> Any:
    from lzstring import LZString

    return LZString()


def looks_like_fpuzzles(text: str) -> bool:
    """True for a line that holds f-puzzles JSON, a link with ``load=``, or its compressed form."""
    text = text.strip()
    return (
        text.startswith("{")
        or "load=" in text
        or "f-puzzles.com" in text
        or text.startswith(("N4Ig", "fpuzzles"))
    )


def parse_fpuzzles(text: str) -> Puzzle:
    """One puzzle from f-puzzles JSON, a link (``...?load=...``) or the bare compressed string."""
    return from_fpuzzles(_decode(text))


def _decode(text: str) -> dict[str, Any]:
    text = text.strip()
    if not text.startswith("{"):
        payload = text
        if "load=" in text:
            payload = text.split("load=", 1)[1].split("&", 1)[0]
        elif "?id=" in text:
            raise ParseError("an f-puzzles short link (?id=) names a puzzle on the f-puzzles server; open it "
                             "there and copy the long link (?load=) or the JSON")  # fmt: skip
        payload = payload.removeprefix("fpuzzles").replace(" ", "+")
        payload = payload.replace("%2B", "+").replace("%2F", "/").replace("%3D", "=")
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
    if not isinstance(data, dict):
        raise ParseError("f-puzzles JSON must be an object with size and grid")
    return data


def _cell(name: Any, n: int) -> int:
    m = _CELL.match(str(name))
    if not m or not (1 <= int(m[1]) <= n and 1 <= int(m[2]) <= n):
        raise ParseError(f"bad f-puzzles cell {name!r} for a {n}x{n} grid (cells are R1C1 to R{n}C{n})")
    return (int(m[1]) - 1) * n + int(m[2]) - 1


def _cells(names: Iterable[Any], n: int, what: str) -> tuple[int, ...]:
    if not isinstance(names, list) or not names:
        raise ParseError(f"an f-puzzles {what} needs a list of cells")
    return tuple(_cell(name, n) for name in names)


def _number(value: Any, what: str, default: int | None) -> int | None:
    if value in (None, ""):
        return default
    try:
        return int(str(value).strip())
    except ValueError:
        raise ParseError(f"an f-puzzles {what} has a value that is not a number: {value!r}") from None


def _entries(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise ParseError(f"f-puzzles key {key!r} must be a list of objects")
    return value


def from_fpuzzles(data: dict[str, Any]) -> Puzzle:
    """The puzzle (its ``Rules`` and givens) an f-puzzles object describes; ``ParseError`` naming any key
    that states a rule sudoku-cp does not know."""
    unknown = sorted(k for k, v in data.items() if k not in COSMETIC_KEYS and k not in RULE_KEYS and v)
    if unknown:
        raise ParseError(
            f"unsupported f-puzzles constraint {unknown[0]!r} (supported: {', '.join(RULE_KEYS)})"
        )
    n = data.get("size")
    grid = data.get("grid")
    if not isinstance(n, int) or not 2 <= n <= 36:
        raise ParseError(f"f-puzzles size must be a whole number from 2 to 36, not {n!r}")
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
            if not isinstance(entry, dict):
                raise ParseError(f"f-puzzles cell R{r + 1}C{c + 1} must be an object")
            extra = sorted(k for k, v in entry.items() if k not in _COSMETIC_CELL_KEYS and v)
            if extra:
                raise ParseError(f"unsupported f-puzzles cell key {extra[0]!r} at R{r + 1}C{c + 1}")
            if entry.get("given") and entry.get("value"):
                value = _number(entry["value"], f"given at R{r + 1}C{c + 1}", None)
                if value is None or not 1 <= value <= n:
                    raise ParseError(
                        f"f-puzzles given {entry['value']!r} at R{r + 1}C{c + 1} is not a digit 1..{n}"
                    )
                cells[r * n + c] = value
            if "region" in entry:
                if entry["region"] is None:
                    raise ParseError(f"R{r + 1}C{c + 1} belongs to no region: grids with cells outside every "
                                     "region are not supported")  # fmt: skip
                regions[r * n + c] = _number(entry["region"], "region", None)
    rules = _base_rules(n, regions)
    named = [_NAMED[k] for k in _NAMED if data.get(k)]
    try:
        if named:
            rules = rules.with_named(named)
        rules = rules.with_(
            extra_regions=[_cells(e.get("cells"), n, "extra region") for e in _entries(data, "extraregion")],
            cages=[
                Cage(_cells(e.get("cells"), n, "killer cage"), _number(e.get("value"), "killer cage", None))
                for e in _entries(data, "killercage")
            ],
            thermos=[
                Thermo(_cells(line, n, "thermometer"))
                for e in _entries(data, "thermometer")
                for line in e.get("lines") or []
            ],
            arrows=[_arrow(e, n) for e in _entries(data, "arrow")],
            dots=[*_dots(data, n)],
            negative=sorted({str(k) for k in data.get("negative") or []}),
        )
    except ValueError as exc:
        raise ParseError(f"f-puzzles rules: {exc}") from None
    return Puzzle(rules, tuple(cells))


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
    try:
        return Rules.jigsaw(list(groups.values()))  # the boxes of some shape give classic rules
    except ValueError as exc:
        raise ParseError(f"f-puzzles regions: {exc}") from None


def _arrow(entry: dict[str, Any], n: int) -> Arrow:
    circle = tuple(sorted(_cells(entry.get("cells"), n, "arrow circle")))  # a pill reads left to right, down
    line: list[int] = []
    for part in entry.get("lines") or []:
        line += [c for c in _cells(part, n, "arrow line") if c not in circle and c not in line]
    if not line:
        raise ParseError("an f-puzzles arrow needs a line beyond its circle")
    return Arrow(circle, tuple(line))


def _dots(data: dict[str, Any], n: int) -> Iterable[Pair]:
    for key, relation, default, source in (
        ("difference", "difference", 1, "kropki white dot"),
        ("ratio", "ratio", 2, "kropki black dot"),
    ):
        for e in _entries(data, key):
            a, b = _cells(e.get("cells"), n, source)
            yield Pair(a, b, relation, _number(e.get("value"), source, default) or default, source=source)
    for e in _entries(data, "xv"):
        a, b = _cells(e.get("cells"), n, "XV")
        mark = str(e.get("value", "")).upper()
        if mark not in ("X", "V"):
            raise ParseError(f"an f-puzzles xv mark must be X or V, not {e.get('value')!r}")
        yield Pair(a, b, "sum", 10 if mark == "X" else 5, source=mark)


def _name(cell: int, n: int) -> str:
    return f"R{cell // n + 1}C{cell % n + 1}"


def to_fpuzzles(puzzle: Puzzle, solution: Puzzle | None = None) -> dict[str, Any]:
    """The f-puzzles object of ``puzzle`` (givens and rules), with ``solution``'s digits as the
    ``solution`` key when given; ``from_fpuzzles`` reads it back to the same puzzle."""
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
    names = lambda cells: [_name(c, n) for c in cells]  # noqa: E731 - a short local helper
    if rules.extra_regions:
        data["extraregion"] = [{"cells": names(r)} for r in rules.extra_regions]
    if rules.cages:
        data["killercage"] = [
            {"cells": names(c.cells), **({"value": str(c.total)} if c.total is not None else {})}
            for c in rules.cages
        ]
    if rules.thermos:
        data["thermometer"] = [{"lines": [names(t.cells)]} for t in rules.thermos]
    if rules.arrows:
        data["arrow"] = [
            {"cells": names(a.circle), "lines": [names((a.circle[-1], *a.cells))]} for a in rules.arrows
        ]
    for key, relation in (("difference", "difference"), ("ratio", "ratio")):
        dots = [d for d in rules.dots if d.relation == relation]
        if dots:
            data[key] = [{"cells": names(d.cells), "value": str(d.value)} for d in dots]
    xv = [d for d in rules.dots if d.relation == "sum"]
    if xv:
        data["xv"] = [{"cells": names(d.cells), "value": "X" if d.value == 10 else "V"} for d in xv]
    if rules.negative:
        data["negative"] = list(rules.negative)
    if solution is not None:
        data["solution"] = list(solution.cells)
    return data


def to_link(puzzle: Puzzle, solution: Puzzle | None = None) -> str:
    """The f-puzzles link that opens ``puzzle`` (``?load=`` and the lz-string compressed JSON), with
    ``solution`` as the answer the app checks a solver's grid against."""
    data = to_fpuzzles(puzzle, solution)
    return LINK_PREFIX + _lz().compressToBase64(json.dumps(data, separators=(",", ":")))
