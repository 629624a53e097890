"""Sudoku Explainer's intersections, naked and hidden sets and fish, with the helpers they share.

Sudoku Explainer 1.2.1 (N. Juillerat) applies the first hint its first productive technique finds, so each
producer here yields its hints lazily in SE's order: pointing (block against column, then row) before
claiming (column, then row, against block); naked and hidden sets over blocks, then columns, then rows;
fish with columns as base lines, then rows, the base lines' tuples in SE's ``Permutations`` order (the
tuples as bit masks in increasing numeric order, i.e. co-lexicographic) and digits inside. Only hints
that remove something are yielded, as SE does.

The searches are compiled (``set_kernels``); this module makes their rows into hints. ``permutations`` and
``common_tuple`` are SE's ``Permutations`` and ``CommonTuples``, which the uniqueness techniques read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache

import numpy as np

from . import set_kernels
from .grid import BLOCK, COLUMN, ROW, Grid
from .hints import Hint

__all__ = [
    "common_tuple",
    "fish",
    "hidden_set",
    "locking",
    "naked_set",
    "permutations",
]

Producer = Callable[[Grid], Iterator[Hint]]


@cache
def permutations(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """SE's ``Permutations(k, n)``: the k-subsets of ``range(n)`` (each ascending), their bit masks in
    increasing numeric order (Gosper's hack: co-lexicographic). ``(0, n)`` gives one empty subset when
    n > 0; ``(0, 0)`` and ``k > n`` give none."""
    if n == 0 or k > n or k < 0:
        return ()
    if k == 0:
        return ((),)
    out = []
    v = (1 << k) - 1
    last = v << (n - k)
    while True:
        out.append(tuple(i for i in range(n) if v >> i & 1))
        if v == last:
            return tuple(out)
        smallest = v & -v
        ripple = v + smallest
        v = ripple | (((v ^ ripple) >> 2) // smallest)


def common_tuple(sets: Sequence[int], degree: int) -> int:
    """SE's ``searchCommonTuple``: the union of ``sets`` (masks) when each has two bits or more and the
    union has exactly ``degree``; else 0."""
    union = 0
    for s in sets:
        if s & (s - 1) == 0:  # fewer than two bits
            return 0
        union |= s
    return union if union.bit_count() == degree else 0


# ---------------------------------------------------------------- intersections


def _arrays(grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The grid as the kernels read it: candidates, values, region cells and crossings."""
    geo = grid.geo
    cells, inside = set_kernels.tables(geo.box_rows, geo.box_cols)
    return np.array(grid.cands, dtype=np.int64), np.array(grid.values, dtype=np.int64), cells, inside


def locked(grid: Grid, direct: bool) -> Iterator[Hint]:
    """Pointing and claiming, SE's ``Locking``: a digit whose positions in a region (more than one) all lie
    in a crossing region. Direct: the hidden single this makes in a third region (a placement only)."""
    cands, _, cells, inside = _arrays(grid)
    for k, i1, i2, d, cell in set_kernels.locked_rows(cands, cells, inside, grid.geo.n, direct).tolist():
        t1, t2 = set_kernels.PASSES[k].tolist()
        pointing = t1 == BLOCK
        bit = 1 << (d - 1)
        regions = ((t1, i1), (t2, i2))
        if direct:
            name, difficulty = ("Direct Pointing", 1.7) if pointing else ("Direct Claiming", 1.9)
            yield Hint(name, difficulty, cell=cell, value=d, kind="locking", regions=regions, digits=bit)
        else:
            out = int(inside[t2, i2, t1, i1])
            removable = {
                int(c): bit for j, c in enumerate(cells[t2, i2]) if not out >> j & 1 and grid.cands[c] & bit
            }
            name, difficulty = ("Pointing", 2.6) if pointing else ("Claiming", 2.8)
            yield Hint(name, difficulty, removable=removable, kind="locking", regions=regions, digits=bit)


def _indexes(mask: int, n: int) -> list[int]:
    return [i for i in range(n) if mask >> i & 1]


def locking(grid: Grid) -> Iterator[Hint]:
    """Pointing (2.6) and claiming (2.8)."""
    return locked(grid, direct=False)


# ---------------------------------------------------------------- naked and hidden sets

_SET_NAMES = {2: "Pair", 3: "Triplet", 4: "Quad"}


def naked_set(k: int) -> Producer:
    """SE's ``NakedSet(k)``: k cells of a region whose candidates (two or more each) make k digits; the
    other cells of the region lose them. Pair 3.0, triplet 3.6, quad 5.0."""
    name = f"Naked {_SET_NAMES.get(k, f'Set {k}')}"
    difficulty = {2: 3.0, 3: 3.6, 4: 5.0}[k]

    def produce(grid: Grid) -> Iterator[Hint]:
        cands, values, cells, _ = _arrays(grid)
        for t, index, chosen, union in set_kernels.naked_rows(cands, values, cells, grid.geo.n, k).tolist():
            region = cells[t, index].tolist()
            members = tuple(c for j, c in enumerate(region) if chosen >> j & 1)
            removable = {
                c: grid.cands[c] & union for c in region if c not in members and grid.cands[c] & union
            }
            yield Hint(
                name, difficulty, removable=removable, kind="naked", regions=((t, index),), cells=members,
                digits=union,
            )  # fmt: skip

    produce.__name__ = produce.__qualname__ = f"naked_set_{k}"
    return produce


def hidden_sets(grid: Grid, k: int, direct: bool) -> Iterator[Hint]:
    """SE's ``HiddenSet(k, direct)``: k digits of a region whose positions (two or more each) make k cells.
    Indirect: those cells lose their other candidates. Direct: the first other digit left with a single
    position outside them is placed there (nothing removed)."""
    if direct:
        name, difficulty = f"Direct Hidden {_SET_NAMES.get(k, f'Set {k}')}", {2: 2.0, 3: 2.5, 4: 4.3}[k]
    else:
        name, difficulty = f"Hidden {_SET_NAMES.get(k, f'Set {k}')}", {2: 3.4, 3: 4.0, 4: 5.4}[k]
    cands, values, cells, _ = _arrays(grid)
    rows = set_kernels.hidden_rows(cands, values, cells, grid.geo.n, k, direct)
    for t, index, union, digits, value, cell in rows.tolist():
        members = tuple(c for j, c in enumerate(cells[t, index].tolist()) if union >> j & 1)
        pattern = {"kind": "hidden", "regions": ((t, index),), "cells": members, "digits": digits}
        if direct:
            yield Hint(name, difficulty, cell=cell, value=value, **pattern)  # type: ignore[arg-type]
        else:
            removable = {c: grid.cands[c] & ~digits for c in members if grid.cands[c] & ~digits}
            yield Hint(name, difficulty, removable=removable, **pattern)  # type: ignore[arg-type]


def hidden_set(k: int) -> Producer:
    """Hidden pair 3.4, triplet 4.0, quad 5.4."""

    def produce(grid: Grid) -> Iterator[Hint]:
        return hidden_sets(grid, k, direct=False)

    produce.__name__ = produce.__qualname__ = f"hidden_set_{k}"
    return produce


# ---------------------------------------------------------------- fish

_FISH = {2: ("X-Wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish(k: int) -> Producer:
    """SE's ``Fisherman(k)``: k base lines whose positions of a digit (two or more each) make k cover
    lines; the cover lines lose the digit elsewhere. Columns as base lines first, then rows; inside a pass
    the base tuples in ``Permutations`` order, digits ascending for each. X-wing 3.2, swordfish 3.8,
    jellyfish 5.2."""
    name, difficulty = _FISH.get(k, (f"Fish {k}", 5.2))

    def produce(grid: Grid) -> Iterator[Hint]:
        n = grid.geo.n
        cands, values, cells, _ = _arrays(grid)
        for base_t, bases, d, covers in set_kernels.fish_rows(cands, values, cells, n, k).tolist():
            cover_t = ROW if base_t == COLUMN else COLUMN
            bit = 1 << (d - 1)
            removable = {}
            for ci in range(n):
                if covers >> ci & 1:
                    for j, c in enumerate(cells[cover_t, ci].tolist()):
                        if grid.cands[c] & bit and not bases >> j & 1:
                            removable[c] = bit
            regions: list[tuple[int, int]] = []
            for bi, ci in zip(_indexes(bases, n), _indexes(covers, n), strict=True):
                regions += [(base_t, bi), (cover_t, ci)]
            yield Hint(
                name, difficulty, removable=removable, kind="locking", regions=tuple(regions), digits=bit
            )

    produce.__name__ = produce.__qualname__ = f"fish_{k}"
    return produce
