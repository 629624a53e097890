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
from numba import njit

from . import loop_kernels
from .grid import BLOCK, COLUMN, ROW, Grid
from .hints import Hint
from .set_kernels import popcount
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
    cands = grid.cands
    found, cells, values, all_bug, common, ncommon = _bug_cells(
        np.array(cands, dtype=np.int64), np.array(grid.values, dtype=np.int64), geo.region_table,
        geo.house_table,
    )  # fmt: skip
    if not found:
        return
    bug_cells = cells.tolist()
    bug_values = {c: int(values[c]) for c in bug_cells}
    common = common[:ncommon].tolist() if ncommon >= 0 else None
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


@njit(cache=True)
def _bug_cells(cands, values, table, house):  # type: ignore[no-untyped-def]
    """SE's search for the BUG pattern, regions in ``TYPES`` order, digits ascending: the cell that is
    alone with three candidates or more among a digit's places in a region (other than two) is a BUG cell,
    the digit one of its BUG values; the pattern fails where such places have no such cell, or several,
    and when BUG cells of several values see no cell in common. Then every empty cell must be left with
    two candidates and every digit with two places in a region (or none).

    Whether it holds, the BUG cells in the order found, per cell its BUG values, all of them, the cells
    every BUG cell sees (SE's order, BUG cells out) and their count (-1 before the first BUG cell)."""
    ncells, n = cands.shape[0], table.shape[1]
    temp = cands.copy()
    cells = np.empty(ncells, dtype=np.int64)
    nb = 0
    is_bug = np.zeros(ncells, dtype=np.bool_)
    bug_values = np.zeros(ncells, dtype=np.int64)
    all_bug = 0
    common = np.empty(house.shape[1], dtype=np.int64)
    ncommon = -1
    sees = np.zeros(ncells, dtype=np.bool_)
    for t in range(3):  # TYPES: block, row, column
        for index in range(n):
            for d in range(n):
                bit = 1 << d
                places = fat = 0
                fat_cell = -1
                for c in table[t, index]:
                    if cands[c] & bit:
                        places += 1
                        if popcount(cands[c]) >= 3:
                            fat += 1
                            fat_cell = c
                if places == 0 or places == 2:
                    continue
                if fat == 0:
                    return False, cells[:0], bug_values, all_bug, common, ncommon
                if fat > 1:
                    continue
                c = fat_cell
                if not is_bug[c]:
                    is_bug[c] = True
                    cells[nb] = c
                    nb += 1
                bug_values[c] |= bit
                all_bug |= bit
                temp[c] &= ~bit
                if ncommon < 0:
                    ncommon = 0
                    for x in house[c]:
                        common[ncommon] = x
                        ncommon += 1
                else:
                    sees[:] = False
                    for x in house[c]:
                        sees[x] = True
                    kept = 0
                    for i in range(ncommon):
                        if sees[common[i]]:
                            common[kept] = common[i]
                            kept += 1
                    ncommon = kept
                kept = 0
                for i in range(ncommon):
                    if not is_bug[common[i]]:
                        common[kept] = common[i]
                        kept += 1
                ncommon = kept
                if nb > 1 and popcount(all_bug) > 1 and not ncommon:
                    return False, cells[:0], bug_values, all_bug, common, ncommon
    for c in range(ncells):
        if not values[c] and popcount(temp[c]) != 2:
            return False, cells[:0], bug_values, all_bug, common, ncommon
    for t in range(3):
        for index in range(n):
            for d in range(n):
                places = 0
                for c in table[t, index]:
                    places += temp[c] >> d & 1
                if places != 0 and places != 2:
                    return False, cells[:0], bug_values, all_bug, common, ncommon
    return True, cells[:nb], bug_values, all_bug, common, ncommon


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
