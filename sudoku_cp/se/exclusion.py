"""Sudoku Explainer's aligned pair (6.2) and aligned triplet (7.5) exclusion.

As Sudoku Explainer 1.2.1 (N. Juillerat) searches them: base cells (two candidates or more, row-major) and
their excluders (house cells, in SE's house order, with two candidates, or two or three for triplets);
a cell seeing a naked single is no base cell. Pairs of base cells come in SE's ``Permutations`` order
(co-lexicographic), the triplet's third cell from the first two's excluders. A combination of digits is
excluded when two cells that see each other would share a digit, or when a common excluder would be left
without a candidate; a digit of a base cell that no allowed combination uses is removed. Hints that remove
something are yielded lazily, since the rating uses the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np
from numba import njit

from .grid import Grid, bits, geometry
from .hints import Hint
from .subsets import permutations

__all__ = ["aligned_pair_exclusion", "aligned_triplet_exclusion"]


def _base_cells(grid: Grid, most: int) -> tuple[list[int], dict[int, list[int]]]:
    """SE's base cells and, for each, its excluders (house cells with 2..``most`` candidates)."""
    geo = grid.geo
    cands = grid.cands
    counts = [m.bit_count() for m in cands]
    base: list[int] = []
    excluders: dict[int, list[int]] = {}
    for c, count in enumerate(counts):
        if count < 2:
            continue
        ex = []
        single = False
        for h in geo.house_cells[c]:
            k = counts[h]
            if k == 1:
                single = True
                break
            if 2 <= k <= most:
                ex.append(h)
        if not single and ex:
            base.append(c)
            excluders[c] = ex
    return base, excluders


def aligned_pair_exclusion(grid: Grid) -> Iterator[Hint]:
    """SE's ``AlignedPairExclusion``, 6.2."""
    cands = grid.cands
    house_sets = grid.geo.house_sets
    base, excluders = _base_cells(grid, 2)
    if len(base) < 2:
        return
    ex_sets = {c: set(ex) for c, ex in excluders.items()}
    for i, j in permutations(2, len(base)):
        a, b = base[i], base[j]
        b_set = ex_sets[b]
        common = [cands[e] for e in excluders[a] if e in b_set]
        if len(common) < 2:
            continue
        see = b in house_sets[a]
        ma, mb = cands[a], cands[b]
        allowed_a = allowed_b = 0
        for p in bits(ma):
            pb = 1 << (p - 1)
            for q in bits(mb):
                if p == q and see:
                    continue
                u = pb | 1 << (q - 1)
                if any(not e & ~u for e in common):
                    continue
                allowed_a |= pb
                allowed_b |= 1 << (q - 1)
        removable = {}
        if ma & ~allowed_a:
            removable[a] = ma & ~allowed_a
        if mb & ~allowed_b:
            removable[b] = mb & ~allowed_b
        if removable:
            yield Hint("Aligned Pair Exclusion", 6.2, removable=removable, cells=(a, b))


@cache
def _sees(box_rows: int, box_cols: int) -> np.ndarray:
    """``sees[a, b]``: whether cells ``a`` and ``b`` share a house."""
    geo = geometry(box_rows, box_cols)
    sees = np.zeros((geo.ncells, geo.ncells), dtype=np.bool_)
    for c, house in enumerate(geo.house_cells):
        sees[c, list(house)] = True
    return sees


@njit(cache=True)
def _triplets(cands, base, ex, nex, sees, n):  # type: ignore[no-untyped-def]
    """Every aligned triplet exclusion, in SE's order: rows (a, b, t, and the digits each keeps)."""
    nb = base.shape[0]
    ncells = cands.shape[0]
    is_ex = np.zeros((nb, ncells), dtype=np.bool_)
    pos = np.full(ncells, -1, dtype=np.int32)
    for i in range(nb):
        pos[base[i]] = i
        for j in range(nex[i]):
            is_ex[i, ex[i, j]] = True
    out = np.empty((16, 6), dtype=np.int64)
    found = 0
    ab = np.empty(ex.shape[1], dtype=np.int32)
    common = np.empty(ex.shape[1], dtype=np.int64)
    tails = np.empty(2 * ex.shape[1], dtype=np.int32)
    for j in range(1, nb):  # pairs of base cells in co-lexicographic order
        for i in range(j):
            a, b = base[i], base[j]
            nab = 0
            for x in range(nex[i]):
                if is_ex[j, ex[i, x]]:
                    ab[nab] = ex[i, x]
                    nab += 1
            if nab < 2:
                continue  # the triplet's common excluders are among these
            ntails = 0
            for x in range(nex[i] + nex[j]):
                t = ex[i, x] if x < nex[i] else ex[j, x - nex[i]]
                if pos[t] < 0 or t in (a, b) or (x >= nex[i] and is_ex[i, t]):
                    continue
                tails[ntails] = t
                ntails += 1
            ma, mb = cands[a], cands[b]
            for y in range(ntails):
                t = tails[y]
                nc = 0
                for x in range(nab):
                    if is_ex[pos[t], ab[x]]:
                        common[nc] = cands[ab[x]]
                        nc += 1
                if nc < 2:
                    continue
                mt = cands[t]
                see_ab, see_at, see_bt = sees[a, b], sees[a, t], sees[b, t]
                allowed_a = allowed_b = allowed_t = 0
                for p in range(n):
                    pb = 1 << p
                    if not ma & pb:
                        continue
                    for q in range(n):
                        qb = 1 << q
                        if not mb & qb or (pb == qb and see_ab):
                            continue
                        for r in range(n):
                            rb = 1 << r
                            if not mt & rb or (rb == pb and see_at) or (rb == qb and see_bt):
                                continue
                            u = pb | qb | rb
                            emptied = False
                            for x in range(nc):
                                if not common[x] & ~u:
                                    emptied = True
                                    break
                            if not emptied:
                                allowed_a |= pb
                                allowed_b |= qb
                                allowed_t |= rb
                if ma & ~allowed_a or mb & ~allowed_b or mt & ~allowed_t:
                    if found == out.shape[0]:
                        more = np.empty((2 * found, 6), dtype=np.int64)
                        more[:found] = out[:found]
                        out = more
                    out[found, 0], out[found, 1], out[found, 2] = a, b, t
                    out[found, 3], out[found, 4], out[found, 5] = allowed_a, allowed_b, allowed_t
                    found += 1
    return out[:found]


def aligned_triplet_exclusion(grid: Grid) -> Iterator[Hint]:
    """SE's ``AlignedExclusion(3)``, 7.5."""
    cands = grid.cands
    geo = grid.geo
    base, excluders = _base_cells(grid, 3)
    if len(base) < 3:
        return
    width = max(len(ex) for ex in excluders.values())
    ex = np.zeros((len(base), width), dtype=np.int32)
    for i, c in enumerate(base):
        ex[i, : len(excluders[c])] = excluders[c]
    nex = np.array([len(excluders[c]) for c in base], dtype=np.int32)
    rows = _triplets(
        np.array(cands, dtype=np.int64), np.array(base, dtype=np.int32), ex, nex,
        _sees(geo.box_rows, geo.box_cols), geo.n,
    )  # fmt: skip
    for a, b, t, allowed_a, allowed_b, allowed_t in rows.tolist():
        removable = {}
        for c, allowed in ((a, allowed_a), (b, allowed_b), (t, allowed_t)):
            if cands[c] & ~allowed:
                removable[c] = cands[c] & ~allowed
        yield Hint("Aligned Triplet Exclusion", 7.5, removable=removable, cells=(a, b, t))
