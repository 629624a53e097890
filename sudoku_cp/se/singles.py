"""Sudoku Explainer's singles and "direct" techniques: the producers that place a digit.

Sudoku Explainer 1.2.1 (N. Juillerat) tries these first, in its order: hidden singles (full houses first,
1.0, then block singles, 1.2, then row and column singles, 1.5), direct pointing and claiming (1.7, 1.9),
direct hidden pairs (2.0), naked singles (2.3) and direct hidden triplets (2.5). A direct technique places
the hidden single its pattern makes and nothing more: the eliminations that justify it are not applied.
Each producer yields its hints lazily in SE's order, since only the first is used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
from numba import njit

from .grid import BLOCK, COLUMN, ROW, Grid
from .hints import Hint
from .subsets import hidden_sets, locked

__all__ = ["direct_hidden_set", "direct_locking", "hidden_single", "naked_single"]

Producer = Callable[[Grid], Iterator[Hint]]


def hidden_single(grid: Grid) -> Iterator[Hint]:
    """SE's ``HiddenSingle``: a digit with one position in a region. Six passes: full houses (the region's
    last empty cell, 1.0) over blocks, columns, rows; then the others over blocks (1.2), columns and rows
    (1.5). Regions by index, digits ascending."""
    geo = grid.geo
    cands = grid.cands
    rows = _single_rows(
        np.array(cands, dtype=np.int64), np.array(grid.values, dtype=np.int64), geo.region_table
    ).tolist()
    for alone in (True, False):
        for is_alone, t, index, single in rows:
            if is_alone != alone:
                continue
            cells = geo.regions[t][index]
            difficulty = 1.0 if alone else 1.2 if t == BLOCK else 1.5
            while single:
                low = single & -single
                single ^= low
                cell = next(c for c in cells if cands[c] & low)
                yield Hint(
                    "Hidden Single",
                    difficulty,
                    cell=cell,
                    value=low.bit_length(),
                    regions=((t, index),),
                )


@njit(cache=True)
def _single_rows(cands, values, table):  # type: ignore[no-untyped-def]
    """Per region (blocks, columns, rows; by index) whose candidates hold digits in one cell only: a row
    (whether it is the region's last empty cell, type, index, those digits as a mask)."""
    n = table.shape[1]
    out = np.empty((3 * n, 4), dtype=np.int64)
    m = 0
    for t in (BLOCK, COLUMN, ROW):
        for index in range(n):
            once = twice = 0
            empty = 0
            for c in table[t, index]:
                mask = cands[c]
                twice |= once & mask
                once |= mask
                if not values[c]:
                    empty += 1
            single = once & ~twice
            if single:
                out[m, 0], out[m, 1], out[m, 2], out[m, 3] = empty == 1, t, index, single
                m += 1
    return out[:m]


def direct_locking(grid: Grid) -> Iterator[Hint]:
    """Direct pointing (1.7) and direct claiming (1.9): the hidden single a locked digit leaves in a region
    of the first region's type crossing the second region."""
    return locked(grid, direct=True)


def direct_hidden_set(k: int) -> Producer:
    """Direct hidden pair (2.0) and triplet (2.5): the hidden single a hidden set leaves in its region."""

    def produce(grid: Grid) -> Iterator[Hint]:
        return hidden_sets(grid, k, direct=True)

    produce.__name__ = produce.__qualname__ = f"direct_hidden_set_{k}"
    return produce


def naked_single(grid: Grid) -> Iterator[Hint]:
    """SE's ``NakedSingle`` (2.3): the first cell, row-major, with a single candidate."""
    for c, m in enumerate(grid.cands):
        if m and m & (m - 1) == 0:
            yield Hint("Naked Single", 2.3, cell=c, value=m.bit_length())
