"""The grid model: a box ``Shape`` with its units and peers, and the immutable ``Puzzle`` value.

Cells are numbered 0..n*n-1 in row-major order and digits run 1..n with 0 for an empty cell; rows and
columns appear only at the user-facing edge (``r1c3=5``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .errors import InvalidPuzzleError, ParseError

__all__ = ["BLANKS", "SYMBOLS", "Puzzle", "Shape", "digit_of", "symbol"]

#: Symbols of digits 1..n: 1-9, then A-Z, then a-z (lower case is distinct only past 35 digits).
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: Characters read as an empty cell.
BLANKS = ".0?_-"


def symbol(digit: int) -> str:
    """The one-character symbol of ``digit`` (``0`` gives ``.``)."""
    return "." if digit == 0 else SYMBOLS[digit - 1]


def digit_of(char: str, n: int) -> int:
    """The digit a symbol stands for in an n-digit grid, 0 for a blank; ``ValueError`` if it is none.

    Letters are read without regard to case while n <= 35, so ``a`` and ``A`` are both 10.
    """
    if char in BLANKS:
        return 0
    if n <= 35:
        char = char.upper()
    d = SYMBOLS.find(char) + 1
    if d == 0 or d > n:
        raise ValueError(f"unknown symbol {char!r} for a {n}x{n} grid")
    return d


@dataclass(frozen=True, order=True)
class Shape:
    """A grid of boxes ``box_rows`` x ``box_cols``; ``n = box_rows * box_cols`` digits and rows."""

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1 or self.n < 2:
            raise ValueError(f"no grid has boxes of {self.box_rows}x{self.box_cols}")
        if self.n > len(SYMBOLS):
            raise ValueError(
                f"grids up to {len(SYMBOLS)}x{len(SYMBOLS)} are supported, not {self.n}x{self.n}"
            )

    @classmethod
    def from_n(cls, n: int) -> Shape:
        """The most nearly square box shape of an n x n grid (9 -> 3x3, 6 -> 2x3, 12 -> 3x4)."""
        rows = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0) if n >= 1 else 0
        if rows <= 1:
            raise ValueError(f"a {n}x{n} grid has no box shape; give one explicitly, such as 1x{n}")
        return cls(rows, n // rows)

    @classmethod
    def parse(cls, text: str) -> Shape:
        """``"3x3"`` (box rows x box cols) or a grid size such as ``"9"``."""
        text = text.strip().lower()
        try:
            if "x" in text:
                r, c = (int(part) for part in text.split("x"))
                return cls(r, c)
            return cls.from_n(int(text))
        except ValueError as exc:
            raise ValueError(f"bad box shape {text!r}: {exc}") from None

    @classmethod
    def from_cell_count(cls, cells: int) -> Shape:
        """The shape whose grid has exactly ``cells`` cells (81 -> 3x3); ``ValueError`` if none."""
        n = math.isqrt(cells)
        if n * n != cells:
            raise ValueError(f"{cells} cells is not a square grid")
        return cls.from_n(n)

    @property
    def n(self) -> int:
        return self.box_rows * self.box_cols

    @property
    def ncells(self) -> int:
        return self.n * self.n

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, then columns, then boxes; each a tuple of cells."""
        return _geometry(self.box_rows, self.box_cols)[0]

    @property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """``peers[cell]``: the other cells sharing a unit with it, sorted."""
        return _geometry(self.box_rows, self.box_cols)[1]

    @property
    def cell_units(self) -> tuple[tuple[int, int, int], ...]:
        """``cell_units[cell]``: the indices in ``units`` of the cell's row, column and box."""
        return _geometry(self.box_rows, self.box_cols)[2]

    def box_of(self, cell: int) -> int:
        row, col = divmod(cell, self.n)
        return (row // self.box_rows) * self.box_rows + col // self.box_cols

    def name(self, cell: int) -> str:
        """The user-facing name of a cell, ``r1c1`` for cell 0."""
        row, col = divmod(cell, self.n)
        return f"r{row + 1}c{col + 1}"

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"


@cache
def _geometry(
    box_rows: int, box_cols: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, int, int], ...]]:
    n = box_rows * box_cols
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = [
        tuple((br * box_rows + r) * n + bc * box_cols + c for r in range(box_rows) for c in range(box_cols))
        for br in range(box_cols)  # there are n // box_rows == box_cols bands of boxes
        for bc in range(box_rows)
    ]
    units = tuple(rows + cols + boxes)
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for u, unit in enumerate(units):
        for cell in unit:
            cell_units[cell].append(u)
    peers = tuple(
        tuple(sorted({p for u in cell_units[cell] for p in units[u]} - {cell})) for cell in range(n * n)
    )
    return units, peers, tuple((a, b, c) for a, b, c in cell_units)


@cache
def _digit_set(n: int) -> frozenset[int]:
    return frozenset(range(n + 1))


@dataclass(frozen=True)
class Puzzle:
    """An immutable grid: ``cells[i]`` is the digit of cell i, 0 where empty.

    >>> p = Puzzle.from_string("1.3." "..1." ".1.." "...1")
    >>> p.shape, p.cells[:4]
    (Shape(box_rows=2, box_cols=2), (1, 0, 3, 0))
    """

    shape: Shape
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        n = self.shape.n
        if len(self.cells) != n * n:
            raise ParseError(f"{len(self.cells)} cells given, a {n}x{n} grid has {n * n}")
        if _digit_set(n).issuperset(self.cells):  # one C-level pass: it runs for every puzzle read or solved
            return
        for d in self.cells:
            if not 0 <= d <= n:
                raise ParseError(f"digit {d} is out of range 0..{n}")

    @classmethod
    def from_string(cls, text: str, shape: Shape | None = None) -> Puzzle:
        """Read one puzzle written on one line, one symbol per cell; white space is ignored."""
        chars = "".join(text.split())
        try:
            shape = shape or Shape.from_cell_count(len(chars))
        except ValueError:
            raise ParseError(
                f"{len(chars)} symbols is not the length of any grid (81 for 9x9, 256 for 16x16)"
            ) from None
        if len(chars) != shape.ncells:
            raise ParseError(f"{len(chars)} symbols, a {shape.n}x{shape.n} grid has {shape.ncells}")
        try:
            return cls(shape, tuple(digit_of(ch, shape.n) for ch in chars))
        except ValueError as exc:
            raise ParseError(str(exc)) from None

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], shape: Shape | None = None) -> Puzzle:
        """A puzzle from n rows of n digits (0 for blank)."""
        shape = shape or Shape.from_n(len(rows))
        return cls(shape, tuple(int(d) for row in rows for d in row))

    @classmethod
    def empty(cls, shape: Shape) -> Puzzle:
        return cls(shape, (0,) * shape.ncells)

    @property
    def n(self) -> int:
        return self.shape.n

    @property
    def givens(self) -> tuple[tuple[int, int], ...]:
        """``(cell, digit)`` of every filled cell."""
        return tuple((cell, d) for cell, d in enumerate(self.cells) if d)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.n
        return tuple(self.cells[r * n : (r + 1) * n] for r in range(n))

    def is_complete(self) -> bool:
        return 0 not in self.cells

    def with_cells(self, assignments: Iterable[tuple[int, int]]) -> Puzzle:
        """A copy with the given ``(cell, digit)`` pairs written in (digit 0 empties a cell)."""
        cells = list(self.cells)
        for cell, d in assignments:
            cells[cell] = d
        return Puzzle(self.shape, tuple(cells))

    def conflicts(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """Every ``(unit index, digit, cells)`` where a digit is given more than once in one unit."""
        found = []
        for u, unit in enumerate(self.shape.units):
            seen: dict[int, list[int]] = {}
            for cell in unit:
                if d := self.cells[cell]:
                    seen.setdefault(d, []).append(cell)
            found.extend((u, d, tuple(cells)) for d, cells in seen.items() if len(cells) > 1)
        return found

    def validate(self) -> Puzzle:
        """Return self, or raise ``InvalidPuzzleError`` naming the first digit given twice in a unit."""
        if clash := self.conflicts():
            _, d, cells = clash[0]
            where = " and ".join(self.shape.name(c) for c in cells)
            raise InvalidPuzzleError(f"digit {symbol(d)} is given twice in one unit, at {where}")
        return self

    def to_string(self, blank: str = ".") -> str:
        """The puzzle on one line, ``blank`` for empty cells."""
        return "".join(SYMBOLS[d - 1] if d else blank for d in self.cells)

    def __str__(self) -> str:
        return self.to_string()

    def _repr_svg_(self) -> str | None:
        """The picture Jupyter shows (None, so the text is shown, without the ``draw`` extra)."""
        from .draw import repr_svg

        return repr_svg(self)
