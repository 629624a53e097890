"""The values of f-puzzles entries, read with a check of type and range: cell names (``R1C1``, and the
places outside the grid where clues stand, ``R0C3``), lists and whole numbers. Every reader raises
``ParseError`` saying what is wrong, never another exception, so any JSON gives a puzzle or a message."""

from __future__ import annotations

import json
import re
from typing import Any

from ...errors import ParseError

__all__ = ["cell", "cell_list", "clue_place", "listed", "name", "number", "shown"]

_CELL = re.compile(r"^R(\d{1,3})C(\d{1,3})$", re.IGNORECASE)
#: Numbers in f-puzzles text are short: a longer one is refused before ``int`` reads it.
DIGITS = 9


def shown(value: Any) -> str:
    """A value for a message, short whatever its size: a short string or number as written, else its kind."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, str | int | float):
        text = repr(value) if isinstance(value, str) else str(value) if abs(value) < 10**DIGITS else ""
        if text and len(text) <= 24:
            return text
        return "a long string" if isinstance(value, str) else "a number of many digits"
    return "a list" if isinstance(value, list) else "an object"


def name(cell_index: int, n: int) -> str:
    """The f-puzzles name of a cell, ``R1C1`` for cell 0."""
    return f"R{cell_index // n + 1}C{cell_index % n + 1}"


def cell(text: Any, n: int) -> int:
    """The cell an f-puzzles name (``R1C1`` to ``RnCn``) names."""
    m = _CELL.match(text) if isinstance(text, str) else None
    if not m or not (1 <= int(m[1]) <= n and 1 <= int(m[2]) <= n):
        raise ParseError(f"bad f-puzzles cell {shown(text)} for a {n}x{n} grid (cells are R1C1 to R{n}C{n})")
    return (int(m[1]) - 1) * n + int(m[2]) - 1


def clue_place(text: Any, n: int, what: str, corners: bool = False) -> tuple[int, int]:
    """The (row, column) of a clue outside the grid, 0 or n + 1 in one coordinate (``R0C3`` above column
    3, ``R4C10`` right of row 4 on 9x9), or in both where ``corners`` allows it (``R0C0``, where a little
    killer along a main diagonal stands); ``ParseError`` for a place inside the grid or beyond its rim."""
    m = _CELL.match(text) if isinstance(text, str) else None
    if m:
        r, c = int(m[1]), int(m[2])
        rim = (r in (0, n + 1), c in (0, n + 1))
        if (any(rim) if corners else rim[0] != rim[1]) and 0 <= r <= n + 1 and 0 <= c <= n + 1:
            return r, c
    where = "beside a row or column, or at a corner" if corners else "beside a row or column"
    raise ParseError(f"an f-puzzles {what} stands outside the grid, {where}, not at {shown(text)}")


def cell_list(names: Any, n: int, what: str, count: int | None = None) -> tuple[int, ...]:
    """The cells a list of names states (not empty; exactly ``count`` when given)."""
    if not isinstance(names, list) or not names:
        found = "an empty list" if isinstance(names, list) else shown(names)
        raise ParseError(f"an f-puzzles {what} needs a list of cells, not {found}")
    if count is not None and len(names) != count:
        raise ParseError(f"an f-puzzles {what} joins {count} cells, not {len(names)}")
    return tuple(cell(text, n) for text in names)


def listed(value: Any, what: str) -> list[Any]:
    """``value`` when it is a list (None: an empty one); ``ParseError`` naming ``what`` otherwise."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ParseError(f"an f-puzzles {what} must be a list, not {shown(value)}")
    return value


def number(value: Any, what: str, default: int | None, low: int, high: int) -> int | None:
    """The whole number ``value`` states (a JSON number or a string of digits), ``default`` when it is
    missing or empty; ``ParseError`` when it is no whole number from ``low`` to ``high``."""
    if value is None or value == "":
        return default
    found = None
    if isinstance(value, int) and not isinstance(value, bool):
        found = value
    elif isinstance(value, str) and re.fullmatch(rf"\s*[+-]?\d{{1,{DIGITS}}}\s*", value):
        found = int(value)
    if found is None:
        raise ParseError(f"an f-puzzles {what} has a value that is not a number: {shown(value)}")
    if not low <= found <= high:
        raise ParseError(f"an f-puzzles {what} value must be from {low} to {high}, not {shown(value)}")
    return found
