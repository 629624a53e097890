"""Sudoku Explainer's singles and "direct" techniques: the producers that place a digit.

Sudoku Explainer 1.2.1 (N. Juillerat) tries these first, in its order: hidden singles (full houses first,
1.0, then block singles, 1.2, then row and column singles, 1.5), direct pointing and claiming (1.7, 1.9),
direct hidden pairs (2.0), naked singles (2.3) and direct hidden triplets (2.5). A direct technique places
the hidden single its pattern makes and nothing more: the eliminations that justify it are not applied.
Each producer yields its hints lazily in SE's order, since only the first is used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

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
    cands, values = grid.cands, grid.values
    found: list[list[tuple[int, int, int]]] = [[], []]  # [alone, hidden] -> (type, single digits, index)
    for t in (BLOCK, COLUMN, ROW):
        for index, cells in enumerate(geo.regions[t]):
            once = twice = 0
            empty = 0
            for c in cells:
                m = cands[c]
                twice |= once & m
                once |= m
                if not values[c]:
                    empty += 1
            single = once & ~twice
            if single:
                found[0 if empty == 1 else 1].append((t, index, single))
    for alone, passes in ((True, found[0]), (False, found[1])):
        for t, index, single in passes:
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
