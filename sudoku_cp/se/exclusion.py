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

from .grid import Grid, geometry
from .hints import Hint
from .set_kernels import append_row, popcount

__all__ = ["aligned_pair_exclusion", "aligned_triplet_exclusion", "search"]


@njit(cache=True)
def _base_cells(cands, house, most):  # type: ignore[no-untyped-def]
    """SE's base cells (two candidates or more, none of their house cells a naked single) and, for each,
    its excluders (house cells with 2..``most`` candidates, in house order): the cells, the excluders as
    rows, their counts. ``house``: per cell its house cells in SE's order."""
    ncells = cands.shape[0]
    counts = np.empty(ncells, dtype=np.int64)
    for c in range(ncells):
        counts[c] = popcount(cands[c])
    base = np.empty(ncells, dtype=np.int32)
    ex = np.empty((ncells, house.shape[1]), dtype=np.int32)
    nex = np.zeros(ncells, dtype=np.int32)
    nb = 0
    for c in range(ncells):
        if counts[c] < 2:
            continue
        m = 0
        single = False
        for h in house[c]:
            k = counts[h]
            if k == 1:
                single = True
                break
            if 2 <= k <= most:
                ex[nb, m] = h
                m += 1
        if not single and m:
            base[nb] = c
            nex[nb] = m
            nb += 1
    return base[:nb], ex[:nb], nex[:nb]


@cache
def _sees(box_rows: int, box_cols: int) -> np.ndarray:
    """``sees[a, b]``: whether cells ``a`` and ``b`` share a house."""
    geo = geometry(box_rows, box_cols)
    sees = np.zeros((geo.ncells, geo.ncells), dtype=np.bool_)
    for c, house in enumerate(geo.house_cells):
        sees[c, list(house)] = True
    return sees


@njit(cache=True)
def _membership(ncells, base, ex, nex):  # type: ignore[no-untyped-def]
    """``is_ex[i, c]``: whether cell ``c`` is an excluder of base cell ``i``; ``pos[c]``: the index of
    cell ``c`` among the base cells, or -1."""
    is_ex = np.zeros((base.shape[0], ncells), dtype=np.bool_)
    pos = np.full(ncells, -1, dtype=np.int32)
    for i in range(base.shape[0]):
        pos[base[i]] = i
        for j in range(nex[i]):
            is_ex[i, ex[i, j]] = True
    return is_ex, pos


@njit(cache=True)
def _empties(common, nc, digits):  # type: ignore[no-untyped-def]
    """Whether the base cells holding ``digits`` would leave one of the ``nc`` common excluders (their
    candidates in ``common``) without a candidate."""
    for x in range(nc):  # noqa: SIM110 (a loop, not a generator: compiled)
        if not common[x] & ~digits:
            return True
    return False


@njit(cache=True)
def _pairs(cands, base, ex, nex, sees, n):  # type: ignore[no-untyped-def]
    """Every aligned pair exclusion, in SE's order: rows (a, b, and the digits each keeps)."""
    is_ex, _ = _membership(cands.shape[0], base, ex, nex)
    out = np.empty((16, 4), dtype=np.int64)
    row = np.empty(4, dtype=np.int64)
    found = 0
    common = np.empty(ex.shape[1], dtype=np.int64)
    for j in range(1, base.shape[0]):  # pairs of base cells in co-lexicographic order
        for i in range(j):
            a, b = base[i], base[j]
            nc = 0
            for x in range(nex[i]):
                if is_ex[j, ex[i, x]]:
                    common[nc] = cands[ex[i, x]]
                    nc += 1
            if nc < 2:
                continue
            ma, mb = cands[a], cands[b]
            allowed_a = allowed_b = 0
            for p in range(n):
                pb = 1 << p
                if not ma & pb:
                    continue
                for q in range(n):
                    qb = 1 << q
                    if not mb & qb or (pb == qb and sees[a, b]):
                        continue
                    if not _empties(common, nc, pb | qb):
                        allowed_a |= pb
                        allowed_b |= qb
                if allowed_a == ma and allowed_b == mb:
                    break  # every digit allowed: nothing to exclude (the usual case)
            if ma & ~allowed_a or mb & ~allowed_b:
                row[0], row[1], row[2], row[3] = a, b, allowed_a, allowed_b
                out, found = append_row(out, found, row)
    return out[:found]


@njit(cache=True, inline="always")
def _bits(x):  # type: ignore[no-untyped-def]
    """The number of bits set in ``x`` (a uint64), by halves, nibbles and bytes."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True)
def _shared(sets, i, j, k):  # type: ignore[no-untyped-def]
    """The cells rows ``i``, ``j`` and ``k`` of ``sets`` (cells as bits, 64 a word) have in common."""
    count = 0
    for w in range(sets.shape[1]):
        count += _bits(sets[i, w] & sets[j, w] & sets[k, w])
    return count


@njit(cache=True, inline="always")
def _valid(pb, qb, rb, see_ab, see_at, see_bt, common, nc):  # type: ignore[no-untyped-def]
    """Whether the digits (as bits) ``pb``, ``qb``, ``rb`` of a triplet's cells a, b and t may stand
    together: no two cells that see each other share one, and no common excluder is left empty."""
    if (pb == qb and see_ab) or (pb == rb and see_at) or (qb == rb and see_bt):
        return False
    return not _empties(common, nc, pb | qb | rb)


@njit(cache=True, inline="always")
def _first(pm, qm, rm, see_ab, see_at, see_bt, common, nc):  # type: ignore[no-untyped-def]
    """The first combination ``_valid`` allows of a digit of ``pm``, one of ``qm`` and one of ``rm``
    (digits as bits, lowest first), or (0, 0, 0)."""
    while pm:
        pb = pm & -pm
        pm ^= pb
        q = qm
        while q:
            qb = q & -q
            q ^= qb
            r = rm
            while r:
                rb = r & -r
                r ^= rb
                if _valid(pb, qb, rb, see_ab, see_at, see_bt, common, nc):
                    return pb, qb, rb
    return 0, 0, 0


@njit(cache=True)
def _allowed(ma, mb, mt, see_ab, see_at, see_bt, common, nc, n, every):  # type: ignore[no-untyped-def]
    """The digits of a triplet's cells (candidates ``ma``, ``mb``, ``mt``) that some combination allowed
    by ``_valid`` uses. Each digit of a looks for one such combination, then each digit of b and of t not
    met yet, among the digits found allowed so far: in the usual case every digit is allowed, and about
    one combination a digit is tried, where trying them all, digit by digit, took three times as many
    (top1465: 34,000 a call of the search, 0.5 ms). ``every``: every combination of the ``n`` digits
    tried (the tests' reference)."""
    allowed_a = allowed_b = allowed_t = 0
    if every:
        for p in range(n):
            for q in range(n):
                for r in range(n):
                    pb, qb, rb = 1 << p, 1 << q, 1 << r
                    if (
                        ma & pb
                        and mb & qb
                        and mt & rb
                        and _valid(pb, qb, rb, see_ab, see_at, see_bt, common, nc)
                    ):
                        allowed_a, allowed_b, allowed_t = allowed_a | pb, allowed_b | qb, allowed_t | rb
        return allowed_a, allowed_b, allowed_t
    pm = ma
    while pm:  # each digit of a
        pb = pm & -pm
        pm ^= pb
        pb, qb, rb = _first(pb, mb, mt, see_ab, see_at, see_bt, common, nc)
        allowed_a, allowed_b, allowed_t = allowed_a | pb, allowed_b | qb, allowed_t | rb
    qm = mb & ~allowed_b
    while qm:  # each digit of b not met, with the digits of a allowed (a combination holds only those)
        qb = qm & -qm
        qm ^= qb
        pb, qb, rb = _first(allowed_a, qb, mt, see_ab, see_at, see_bt, common, nc)
        allowed_b, allowed_t = allowed_b | qb, allowed_t | rb
    rm = mt & ~allowed_t
    while rm:  # each digit of t not met, with those of a and b allowed
        rb = rm & -rm
        rm ^= rb
        pb, qb, rb = _first(allowed_a, allowed_b, rb, see_ab, see_at, see_bt, common, nc)
        allowed_t |= rb
    return allowed_a, allowed_b, allowed_t


@njit(cache=True)
def _triplets(cands, base, ex, nex, sees, n, every):  # type: ignore[no-untyped-def]
    """Every aligned triplet exclusion, in SE's order: rows (a, b, t, and the digits each keeps).

    Most pairs and tails share fewer than two excluders: that is counted on the excluders as bits
    (``_shared``) before the common excluders are listed."""
    nb = base.shape[0]
    is_ex, pos = _membership(cands.shape[0], base, ex, nex)
    sets = np.zeros((nb, (cands.shape[0] + 63) // 64), dtype=np.uint64)
    for i in range(nb):
        for x in range(nex[i]):
            sets[i, ex[i, x] >> 6] |= np.uint64(1) << np.uint64(ex[i, x] & 63)
    out = np.empty((16, 6), dtype=np.int64)
    row3 = np.empty(6, dtype=np.int64)
    found = 0
    ab = np.empty(ex.shape[1], dtype=np.int32)
    common = np.empty(ex.shape[1], dtype=np.int64)
    tails = np.empty(2 * ex.shape[1], dtype=np.int32)
    for j in range(1, nb):  # pairs of base cells in co-lexicographic order
        for i in range(j):
            a, b = base[i], base[j]
            if _shared(sets, i, j, j) < 2:
                continue  # the triplet's common excluders are among those of a and b
            nab = 0
            for x in range(nex[i]):
                if is_ex[j, ex[i, x]]:
                    ab[nab] = ex[i, x]
                    nab += 1
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
                if _shared(sets, i, j, pos[t]) < 2:
                    continue
                nc = 0
                for x in range(nab):
                    if is_ex[pos[t], ab[x]]:
                        common[nc] = cands[ab[x]]
                        nc += 1
                if nc < 2:
                    continue
                mt = cands[t]
                allowed_a, allowed_b, allowed_t = _allowed(
                    ma, mb, mt, sees[a, b], sees[a, t], sees[b, t], common, nc, n, every
                )
                if ma & ~allowed_a or mb & ~allowed_b or mt & ~allowed_t:
                    row3[0], row3[1], row3[2], row3[3], row3[4], row3[5] = (
                        a,
                        b,
                        t,
                        allowed_a,
                        allowed_b,
                        allowed_t,
                    )
                    out, found = append_row(out, found, row3)
    return out[:found]


def search(cands: np.ndarray, size: int, box_rows: int, box_cols: int, every: bool = False) -> np.ndarray:
    """The aligned pair (``size`` 2) or triplet exclusions on the candidates ``cands`` of a grid of
    ``box_rows`` x ``box_cols`` boxes, in SE's order: rows of cells, then the digits each keeps.
    ``every``: a triplet's digits found by trying every combination, the same rows, slower (the reference
    the tests hold the search to)."""
    geo = geometry(box_rows, box_cols)
    base, ex, nex = _base_cells(cands, geo.house_table, size)
    if len(base) < size:
        return np.zeros((0, 2 * size), dtype=np.int64)
    sees = _sees(box_rows, box_cols)
    if size == 2:
        return _pairs(cands, base, ex, nex, sees, geo.n)
    return _triplets(cands, base, ex, nex, sees, geo.n, every)


def _found(grid: Grid, size: int) -> list[list[int]]:
    """``search`` on ``grid``, as lists."""
    cands = np.array(grid.cands, dtype=np.int64)
    return search(cands, size, grid.geo.box_rows, grid.geo.box_cols).tolist()


def _hint(grid: Grid, name: str, difficulty: float, row: list[int]) -> Hint:
    size = len(row) // 2
    cells, kept = row[:size], row[size:]
    removable = {c: grid.cands[c] & ~allowed for c, allowed in zip(cells, kept, strict=True)}
    removable = {c: mask for c, mask in removable.items() if mask}
    return Hint(name, difficulty, removable=removable, cells=tuple(cells))


def aligned_pair_exclusion(grid: Grid) -> Iterator[Hint]:
    """SE's ``AlignedPairExclusion``, 6.2."""
    for row in _found(grid, 2):
        yield _hint(grid, "Aligned Pair Exclusion", 6.2, row)


def aligned_triplet_exclusion(grid: Grid) -> Iterator[Hint]:
    """SE's ``AlignedExclusion(3)``, 7.5."""
    for row in _found(grid, 3):
        yield _hint(grid, "Aligned Triplet Exclusion", 7.5, row)
