"""Sudoku Explainer's XY-Wing (4.2) and XYZ-Wing (4.4).

As Sudoku Explainer 1.2.1 (N. Juillerat) searches them: pivots row-major, then the two wings among the
pivot's house cells in SE's house order (block, row, column); the digit ``z`` shared by the wings leaves
the cells that see both wings (and the pivot, for XYZ). Only hints that remove something are yielded,
lazily, since the rating uses the first.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import Grid
from .hints import Hint

__all__ = ["xy_wing", "xyz_wing"]


def _wings(grid: Grid, xyz: bool) -> Iterator[Hint]:
    geo = grid.geo
    cands = grid.cands
    house, house_sets = geo.house_cells, geo.house_sets
    target = 3 if xyz else 2
    inter_size = 1 if xyz else 0
    name, difficulty = ("XYZ-Wing", 4.4) if xyz else ("XY-Wing", 4.2)
    for pivot, xy in enumerate(cands):
        if xy.bit_count() != target:
            continue
        bivalues = [c for c in house[pivot] if cands[c].bit_count() == 2]
        for xz_cell in bivalues:
            xz = cands[xz_cell]
            if (xy & ~xz).bit_count() != 1:
                continue
            for yz_cell in bivalues:
                yz = cands[yz_cell]
                if (xy | xz | yz).bit_count() != 3 or (xy & xz & yz).bit_count() != inter_size:
                    continue
                zbits = xz & yz
                z = zbits & -zbits
                yz_house = house_sets[yz_cell]
                pivot_house = house_sets[pivot]
                removable = {}
                for c in house[xz_cell]:
                    if (
                        cands[c] & z
                        and c in yz_house
                        and (not xyz or c in pivot_house)
                        and c != pivot
                        and c != yz_cell
                    ):
                        removable[c] = z
                if removable:
                    yield Hint(
                        name, difficulty, removable=removable, cells=(pivot, xz_cell, yz_cell), digits=z
                    )


def xy_wing(grid: Grid) -> Iterator[Hint]:
    """XY-Wing, 4.2: pivot {x,y}, wings {x,z} and {y,z}."""
    return _wings(grid, xyz=False)


def xyz_wing(grid: Grid) -> Iterator[Hint]:
    """XYZ-Wing, 4.4: pivot {x,y,z}, wings {x,z} and {y,z}."""
    return _wings(grid, xyz=True)
