"""The grid as Sudoku Explainer sees it: values, candidate masks, and its regions in its orders.

Orders are part of the rating (SE applies the first hint it finds), so they are SE's: cells row-major,
region types block, row, column; a block's cells row by row; a cell's house cells are those of its block,
then its row, then its column, each once. Candidates are bit masks (bit ``d - 1`` for digit ``d``); a
filled cell has none.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np

from ..grid import Puzzle, Rules

__all__ = ["BLOCK", "COLUMN", "ROW", "Geometry", "Grid", "bits", "geometry"]

#: Region types, in SE's order.
BLOCK, ROW, COLUMN = 0, 1, 2
TYPE_NAMES = ("block", "row", "column")


def bits(mask: int) -> Iterator[int]:
    """The digits of a candidate mask, ascending (``bits(0b101) -> 1, 3``)."""
    d = 1
    while mask:
        if mask & 1:
            yield d
        mask >>= 1
        d += 1


class Geometry:
    """The regions of a classic grid of ``n = box_rows * box_cols`` in SE's orders."""

    def __init__(self, box_rows: int, box_cols: int) -> None:
        n = box_rows * box_cols
        self.n, self.box_rows, self.box_cols = n, box_rows, box_cols
        self.ncells = n * n
        self.full = (1 << n) - 1
        stacks = n // box_cols  # blocks across
        blocks = []
        for b in range(n):
            band, stack = divmod(b, stacks)
            blocks.append(
                tuple(
                    (band * box_rows + i // box_cols) * n + stack * box_cols + i % box_cols for i in range(n)
                )
            )
        rows = [tuple(r * n + x for x in range(n)) for r in range(n)]
        columns = [tuple(y * n + c for y in range(n)) for c in range(n)]
        #: regions[type][index] -> cells in the region's index order.
        self.regions: tuple[tuple[tuple[int, ...], ...], ...] = (tuple(blocks), tuple(rows), tuple(columns))
        #: region_of[type][cell] -> index of the region of that type holding the cell.
        self.region_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(next(i for i, r in enumerate(regs) if c in r) for c in range(self.ncells))
            for regs in self.regions
        )
        house = []
        for c in range(self.ncells):
            seen: dict[int, None] = {}
            for t in (BLOCK, ROW, COLUMN):
                for other in self.regions[t][self.region_of[t][c]]:
                    if other != c:
                        seen.setdefault(other)
            house.append(tuple(seen))
        #: house_cells[cell]: the cells of its block, row and column, each once, in that order.
        self.house_cells: tuple[tuple[int, ...], ...] = tuple(house)
        self.house_sets: tuple[frozenset[int], ...] = tuple(frozenset(h) for h in house)
        #: The same as arrays for the compiled searches: ``region_table[type, index]``, ``house_table[cell]``.
        self.region_table = np.array(self.regions, dtype=np.int32)
        self.house_table = np.array(self.house_cells, dtype=np.int32)

    def region(self, rtype: int, cell: int) -> tuple[int, ...]:
        """The cells of the region of type ``rtype`` holding ``cell``."""
        return self.regions[rtype][self.region_of[rtype][cell]]

    def name(self, cell: int) -> str:
        """``r4c5``."""
        y, x = divmod(cell, self.n)
        return f"r{y + 1}c{x + 1}"

    def region_name(self, rtype: int, index: int) -> str:
        return f"{TYPE_NAMES[rtype]} {index + 1}"


@cache
def geometry(box_rows: int, box_cols: int) -> Geometry:
    return Geometry(box_rows, box_cols)


class Grid:
    """Values and candidates, changed by applying hints (chains strike candidates and give them back)."""

    __slots__ = ("cands", "geo", "values")

    def __init__(self, geo: Geometry, values: list[int], cands: list[int]) -> None:
        self.geo, self.values, self.cands = geo, values, cands

    @classmethod
    def of(cls, puzzle: Puzzle) -> Grid:
        """The puzzle's grid with SE's starting candidates: every digit its placed peers leave."""
        rules = puzzle.rules
        geo = geometry(*box_shape(rules))
        values = list(puzzle.cells)
        cands = [0 if v else geo.full for v in values]
        for c, v in enumerate(values):
            if v:
                for other in geo.house_cells[c]:
                    cands[other] &= ~(1 << (v - 1))
        return cls(geo, values, cands)

    def place(self, cell: int, digit: int) -> None:
        """SE's ``setValueAndCancel``: the value goes in, the digit leaves the cell's house cells."""
        self.values[cell] = digit
        self.cands[cell] = 0
        keep = ~(1 << (digit - 1))
        for other in self.geo.house_cells[cell]:
            self.cands[other] &= keep

    @property
    def solved(self) -> bool:
        return all(self.values)


def box_shape(rules: Rules) -> tuple[int, int]:
    """The box shape of classic rules; ``ValueError`` naming what SE's rating cannot read otherwise."""
    from ..rules.model import boxes_of

    if rules.kinds != ("boxes",):
        extra = ", ".join(k for k in rules.kinds if k != "boxes")
        raise ValueError(f"Sudoku Explainer's rating reads rows, columns and boxes only, not {extra}")
    n = rules.n
    for rows in range(1, n + 1):
        if n % rows == 0 and set(rules.regions) == set(boxes_of(rows, n // rows)):
            return rows, n // rows
    raise ValueError("Sudoku Explainer's rating reads rows, columns and boxes only, not these regions")
