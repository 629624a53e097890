"""Sudoku Explainer's uniqueness techniques: unique rectangles and loops (types 1 to 4) and BUG (1 to 4).

As Sudoku Explainer 1.2.1 (N. Juillerat) finds them. Unique loops are all collected first (loops grown by
SE's depth-first search from each bivalue cell, row-major, through block, row and column neighbours),
kept when new (same type, same loop cells, and for type 3 the same set) and removing something, then
stably sorted by difficulty and type: the rating takes the first. Difficulty 4.5 for a rectangle, more
for longer loops (4.6 for 6 cells, 4.7 for 8, 5.0 for 10 or more), plus 0.1 per extra digit of a type 3
naked set. BUG: the pattern where every cell but the BUG cells is bivalue and every digit has two places
in each region once the BUG digits are gone; 5.6 (type 1), 5.7 (types 2 and 4), 5.7 + 0.1 per digit of
the naked set beyond the first (type 3). Both assume the puzzle has one solution, as SE does.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from . import loop_kernels
from .grid import BLOCK, COLUMN, ROW, Grid
from .hints import Hint
from .subsets import common_tuple, permutations

__all__ = ["bug", "unique_loops"]

#: SE's ``Grid.getRegionTypes`` order.
TYPES = (BLOCK, ROW, COLUMN)


# ---------------------------------------------------------------- unique loops


def _loop_base(size: int) -> float:
    result = 4.5
    if size >= 10:
        result += 0.3
    if size >= 8:
        result += 0.2
    elif size >= 6:
        result += 0.1
    return result


def _loop_name(size: int, type_: int) -> str:
    shape = "Rectangle" if size == 4 else "Loop"
    if size > 6:
        return f"Unique {shape} {size} type {type_}"
    return f"Unique {shape} type {type_}"


def unique_loops(grid: Grid) -> Iterator[Hint]:
    """SE's ``UniqueLoops``: every unique rectangle and loop hint, stably sorted by difficulty, then
    type. The search and the types are compiled (``loop_kernels``); its rows become hints here."""
    geo = grid.geo
    regions, region_of, house = loop_kernels.tables(geo.box_rows, geo.box_cols)
    cands = np.array(grid.cands, dtype=np.int64)
    values = np.array(grid.values, dtype=np.int64)
    rows, data = loop_kernels.loop_rows(cands, values, regions, region_of, house, geo.n)
    flat = data.tolist()
    found: list[tuple[Hint, int]] = []
    for type_, loop, size, rem, nrem, digits, tenths, *_ in rows.tolist():
        removable = {flat[i]: flat[i + 1] for i in range(rem, rem + 2 * nrem, 2)}
        difficulty = _loop_base(size)
        if type_ == 3:
            difficulty += tenths * 0.1
        cells = tuple(flat[loop : loop + size])
        hint = Hint(_loop_name(size, type_), difficulty, removable=removable, cells=cells, digits=digits)
        found.append((hint, type_))
    found.sort(key=lambda f: (f[0].difficulty, f[1]))
    for hint, _ in found:
        yield hint


# ---------------------------------------------------------------- BUG


def bug(grid: Grid) -> Iterator[Hint]:
    """SE's ``BivalueUniversalGrave``: types 1 (5.6), 2 and 4 (5.7), 3 (5.8 and up)."""
    geo = grid.geo
    n = geo.n
    cands, values = grid.cands, grid.values
    temp = list(cands)
    bug_cells: list[int] = []
    bug_values: dict[int, int] = {}
    all_bug = 0
    common: list[int] | None = None
    for t in TYPES:
        for cells in geo.regions[t]:
            for d in range(1, n + 1):
                bit = 1 << (d - 1)
                places = [c for c in cells if cands[c] & bit]
                if len(places) in (0, 2):
                    continue
                fat = [c for c in places if cands[c].bit_count() >= 3]
                if len(fat) == 1:
                    c = fat[0]
                    if c not in bug_cells:
                        bug_cells.append(c)
                    bug_values[c] = bug_values.get(c, 0) | bit
                    all_bug |= bit
                    temp[c] &= ~bit
                    if common is None:
                        common = list(geo.house_cells[c])
                    else:
                        house = geo.house_sets[c]
                        common = [x for x in common if x in house]
                    common = [x for x in common if x not in bug_cells]
                    if len(bug_cells) > 1 and all_bug.bit_count() > 1 and not common:
                        return
                elif not fat:
                    return
    for c in range(geo.ncells):
        if not values[c] and temp[c].bit_count() != 2:
            return
    for t in TYPES:
        for cells in geo.regions[t]:
            for d in range(1, n + 1):
                bit = 1 << (d - 1)
                if sum(1 for c in cells if temp[c] & bit) not in (0, 2):
                    return
    if len(bug_cells) == 1:
        c = bug_cells[0]
        yield Hint("BUG type 1", 5.6, removable={c: cands[c] & ~all_bug}, cells=(c,), digits=all_bug)
    elif all_bug.bit_count() == 1:
        if common:
            removable = {c: all_bug for c in common if cands[c] & all_bug}
            if removable:
                yield Hint("BUG type 2", 5.7, removable=removable, cells=tuple(bug_cells), digits=all_bug)
        if len(bug_cells) == 2:
            yield from _bug4(grid, bug_cells, bug_values, all_bug)
    elif common:
        if len(bug_cells) == 2:
            yield from _bug4(grid, bug_cells, bug_values, all_bug)
        yield from _bug3(grid, bug_cells, all_bug, common)


def _shared_all(grid: Grid, cells: list[int]) -> Iterator[tuple[int, int]]:
    """The regions ``(type, index)`` holding all of ``cells``, in SE's type order."""
    region_of = grid.geo.region_of
    for t in TYPES:
        index = region_of[t][cells[0]]
        if all(region_of[t][c] == index for c in cells):
            yield t, index


def _bug4(grid: Grid, bug_cells: list[int], bug_values: dict[int, int], all_bug: int) -> Iterator[Hint]:
    cands = grid.cands
    c1, c2 = bug_cells
    x = cands[c1] & cands[c2] & ~all_bug
    if x.bit_count() != 1:
        return
    for _ in _shared_all(grid, bug_cells):
        # As SE: no check that something is removed.
        removable = {c1: cands[c1] & ~bug_values[c1] & ~x, c2: cands[c2] & ~bug_values[c2] & ~x}
        yield Hint("BUG type 4", 5.7, removable=removable, cells=(c1, c2), digits=x)


def _bug3(grid: Grid, bug_cells: list[int], all_bug: int, common: list[int]) -> Iterator[Hint]:
    cands = grid.cands
    region_of = grid.geo.region_of
    for t, index in _shared_all(grid, bug_cells):
        region_cells = [c for c in common if region_of[t][c] == index]
        for degree in range(2, 7):
            if len(region_cells) < degree:
                continue
            for sub in permutations(degree - 1, len(region_cells)):
                naked_cells = [region_cells[j] for j in sub]
                sets = [cands[c] for c in naked_cells]
                union = 0
                for s in sets:
                    union |= s
                if union.bit_count() != degree:
                    continue
                naked = common_tuple([*sets, all_bug], degree)
                if not naked:
                    continue
                erasable = [c for c in region_cells if c not in naked_cells and c not in bug_cells]
                removable = {c: cands[c] & naked for c in erasable if cands[c] & naked}
                if removable:
                    yield Hint(
                        "BUG type 3",
                        5.7 + (naked.bit_count() - 1) * 0.1,
                        removable=removable,
                        cells=tuple(bug_cells),
                        digits=naked,
                    )
