"""The searches of SE's intersections, naked and hidden sets and fish, compiled.

Each kernel returns every hint of one producer on the grid, in Sudoku Explainer's order, as rows of
numbers (the regions, the digits and the cells' positions that make the pattern); ``subsets`` turns the
rows into hints. Positions are indexes within a region, and a region's cells are in ascending order (so
an index mask read low to high is the cells in order). Nested chains run these producers on every grid
their propagation stalls on, so their speed is the speed of the hardest ratings.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from .grid import BLOCK, COLUMN, ROW, geometry

__all__ = [
    "append_row",
    "choose",
    "fish_rows",
    "fish_rows_at",
    "hidden_rows",
    "hidden_rows_at",
    "locked_rows",
    "locked_rows_at",
    "naked_rows",
    "next_subset",
    "popcount",
    "positions",
    "tables",
]

#: SE's region type order for sets (``HiddenSet``, ``NakedSet``): block, column, row.
SET_TYPES = np.array([BLOCK, COLUMN, ROW], dtype=np.int64)
#: SE's ``Locking`` passes: (region type searched, region type crossed).
PASSES = np.array([(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)], dtype=np.int64)


@cache
def tables(box_rows: int, box_cols: int) -> tuple[np.ndarray, np.ndarray]:
    """The cells of each region (``cells[type, index]``, ascending) and, for two regions, the indexes of
    the first's cells that lie in the second (``inside[ta, ia, tb, ib]``, a mask)."""
    geo = geometry(box_rows, box_cols)
    n = geo.n
    cells = np.array([[sorted(r) for r in regions] for regions in geo.regions], dtype=np.int64)
    inside = np.zeros((3, n, 3, n), dtype=np.int64)
    for ta in range(3):
        for ia in range(n):
            for tb in range(3):
                for ib in range(n):
                    other = set(cells[tb, ib].tolist())
                    inside[ta, ia, tb, ib] = sum(1 << j for j, c in enumerate(cells[ta, ia]) if c in other)
    return cells, inside


@njit(cache=True)
def popcount(x):  # type: ignore[no-untyped-def]
    """The number of bits set in ``x``."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _lowest(x):  # type: ignore[no-untyped-def]
    """The index of the lowest bit."""
    i = 0
    while not x >> i & 1:
        i += 1
    return i


@njit(cache=True)
def next_subset(v):  # type: ignore[no-untyped-def]
    """The next mask with as many bits (Gosper's hack): SE's ``Permutations`` order."""
    smallest = v & -v
    ripple = v + smallest
    return ripple | (((v ^ ripple) >> 2) // smallest)


@njit(cache=True)
def choose(n, k):  # type: ignore[no-untyped-def]
    """The number of k-subsets of n things."""
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def _tuples(masks, k, usable, out):  # type: ignore[no-untyped-def]
    """Every ``k`` of ``masks`` (those with two to ``k`` bits) whose union has exactly ``k`` bits, in
    SE's ``Permutations`` order, into ``out`` (room for ``choose(len(masks), k)`` rows): rows (the
    chosen indexes as a mask, the union); their count. A naked set is k cells' candidates, a hidden set
    k digits' positions, a fish k lines' positions of a digit. ``usable`` is scratch room."""
    nu = 0
    for i in range(masks.shape[0]):
        if 2 <= popcount(masks[i]) <= k:
            usable[nu] = i
            nu += 1
    if nu < k:
        return 0
    count = 0
    sub = (1 << k) - 1
    while sub < 1 << nu:
        chosen = union = 0
        for u in range(nu):
            if sub >> u & 1:
                chosen |= 1 << usable[u]
                union |= masks[usable[u]]
        if popcount(union) == k:
            out[count, 0], out[count, 1] = chosen, union
            count += 1
        sub = next_subset(sub)
    return count


@njit(cache=True)
def positions(cands, cells, n):  # type: ignore[no-untyped-def]
    """``pos[t, i, d - 1]``: the indexes in region (t, i) where digit d is a candidate."""
    pos = np.zeros((3, n, n), dtype=np.int64)
    for t in range(3):
        for i in range(n):
            for j in range(n):
                m = cands[cells[t, i, j]]
                for d in range(n):
                    if m >> d & 1:
                        pos[t, i, d] |= 1 << j
    return pos


@njit(cache=True)
def append_row(out, count, row):  # type: ignore[no-untyped-def]
    """``row`` appended to the first ``count`` rows of ``out`` (grown when full): ``out``, the count."""
    if count == out.shape[0]:
        more = np.empty((2 * count + 8, out.shape[1]), dtype=np.int64)
        more[:count] = out[:count]
        out = more
    out[count] = row
    return out, count + 1


@njit(cache=True, inline="always")
def _put(out, count, row):  # type: ignore[no-untyped-def]
    """``row`` written as row ``count`` of ``out`` where it has room: the count after it. A search counts
    the rows it has no room for and is called again with room for all (``append_row``'s growing array,
    reassigned inside a search's loops, cost numba's reference counts on every pass: 11 us a call of
    ``locked_rows``, 1.7 us so)."""
    if count < out.shape[0]:
        out[count] = row
    return count + 1


#: Rows a search makes room for before it knows how many it finds.
_ROOM = 16


@njit(cache=True)
def _locked(pos, cells, inside, n, direct, out):  # type: ignore[no-untyped-def]
    count = 0
    row = np.empty(5, dtype=np.int64)
    for k in range(PASSES.shape[0]):
        t1, t2 = PASSES[k, 0], PASSES[k, 1]
        for i1 in range(n):
            for i2 in range(n):
                cross = inside[t1, i1, t2, i2]
                if not cross:
                    continue
                for d in range(1, n + 1):
                    p = pos[t1, i1, d - 1]
                    if p & (p - 1) == 0 or p & ~cross:
                        continue
                    if direct:  # the hidden single it leaves in another region of type t1 crossing i2
                        for i3 in range(n):
                            if i3 == i1 or not inside[t1, i3, t2, i2]:
                                continue
                            p3 = pos[t1, i3, d - 1]
                            if p3 & (p3 - 1) == 0:
                                continue
                            rest = p3 & ~inside[t1, i3, t2, i2]
                            if rest and rest & (rest - 1) == 0:
                                row[0], row[1], row[2], row[3] = k, i1, i2, d
                                row[4] = cells[t1, i3, _lowest(rest)]
                                count = _put(out, count, row)
                    elif pos[t2, i2, d - 1] & ~inside[t2, i2, t1, i1]:
                        row[0], row[1], row[2], row[3], row[4] = k, i1, i2, d, -1
                        count = _put(out, count, row)
    return count


@njit(cache=True)
def locked_rows(cands, cells, inside, n, direct):  # type: ignore[no-untyped-def]
    """Pointing and claiming: rows (pass, i1, i2, digit, cell placed or -1)."""
    return locked_rows_at(positions(cands, cells, n), cells, inside, n, direct)


@njit(cache=True)
def locked_rows_at(pos, cells, inside, n, direct):  # type: ignore[no-untyped-def]
    """``locked_rows`` on the digits' positions (``positions``)."""
    out = np.empty((_ROOM, 5), dtype=np.int64)
    count = _locked(pos, cells, inside, n, direct, out)
    if count > _ROOM:
        out = np.empty((count, 5), dtype=np.int64)
        _locked(pos, cells, inside, n, direct, out)
    return out[:count]


@njit(cache=True)
def _naked(cands, values, cells, n, k, out):  # type: ignore[no-untyped-def]
    count = 0
    row = np.empty(4, dtype=np.int64)
    region = np.empty(n, dtype=np.int64)
    usable = np.empty(n, dtype=np.int64)
    tuples = np.empty((choose(n, k), 2), dtype=np.int64)
    for t in SET_TYPES:
        for index in range(n):
            empty = 0
            for j in range(n):
                region[j] = cands[cells[t, index, j]]
                if not values[cells[t, index, j]]:
                    empty += 1
            if empty < 2 * k:
                continue
            for r in range(_tuples(region, k, usable, tuples)):
                chosen, union = tuples[r, 0], tuples[r, 1]
                for j in range(n):
                    if not chosen >> j & 1 and region[j] & union:
                        row[0], row[1], row[2], row[3] = t, index, chosen, union
                        count = _put(out, count, row)
                        break
    return count


@njit(cache=True)
def naked_rows(cands, values, cells, n, k):  # type: ignore[no-untyped-def]
    """Naked sets of ``k`` cells: rows (type, index, the set's index mask, its digits) that remove."""
    out = np.empty((_ROOM, 4), dtype=np.int64)
    count = _naked(cands, values, cells, n, k, out)
    if count > _ROOM:
        out = np.empty((count, 4), dtype=np.int64)
        _naked(cands, values, cells, n, k, out)
    return out[:count]


@njit(cache=True)
def _hidden(cands, values, pos, cells, n, k, direct, out):  # type: ignore[no-untyped-def]
    count = 0
    row = np.empty(6, dtype=np.int64)
    usable = np.empty(n, dtype=np.int64)
    tuples = np.empty((choose(n, k), 2), dtype=np.int64)
    for t in SET_TYPES:
        for index in range(n):
            empty = 0
            for j in range(n):
                if not values[cells[t, index, j]]:
                    empty += 1
            if not (empty > 2 * k or (direct and empty > k)):
                continue
            for r in range(_tuples(pos[t, index], k, usable, tuples)):
                digits, union = tuples[r, 0], tuples[r, 1]
                row[0], row[1], row[2], row[3], row[4], row[5] = t, index, union, digits, -1, -1
                if direct:
                    for w in range(n):
                        q = pos[t, index, w]
                        if digits >> w & 1 or q & (q - 1) == 0:
                            continue
                        rest = q & ~union
                        if rest and rest & (rest - 1) == 0:
                            row[4], row[5] = w + 1, cells[t, index, _lowest(rest)]
                            count = _put(out, count, row)
                            break
                else:
                    for j in range(n):
                        if union >> j & 1 and cands[cells[t, index, j]] & ~digits:
                            count = _put(out, count, row)
                            break
    return count


@njit(cache=True)
def hidden_rows(cands, values, cells, n, k, direct):  # type: ignore[no-untyped-def]
    """Hidden sets of ``k`` digits: rows (type, index, the cells' index mask, the digits, and when
    ``direct`` the digit placed and its cell, else -1 -1)."""
    return hidden_rows_at(cands, values, positions(cands, cells, n), cells, n, k, direct)


@njit(cache=True)
def hidden_rows_at(cands, values, pos, cells, n, k, direct):  # type: ignore[no-untyped-def]
    """``hidden_rows`` with the digits' positions (``positions``) given."""
    out = np.empty((_ROOM, 6), dtype=np.int64)
    count = _hidden(cands, values, pos, cells, n, k, direct, out)
    if count > _ROOM:
        out = np.empty((count, 6), dtype=np.int64)
        _hidden(cands, values, pos, cells, n, k, direct, out)
    return out[:count]


@njit(cache=True)
def _fish(cands, values, pos, cells, n, k, found, out):  # type: ignore[no-untyped-def]
    """Fish rows into ``out`` (their count), each pass's candidates first into ``found`` (the most a pass
    held, returned second: when above its room, nothing in ``out`` is complete)."""
    placed = np.zeros(n + 1, dtype=np.int64)
    for v in values:
        placed[v] += 1
    count = 0
    most = 0
    usable = np.empty(n, dtype=np.int64)
    tuples = np.empty((choose(n, k), 2), dtype=np.int64)
    line = np.empty(n, dtype=np.int64)
    for base_t, cover_t in ((COLUMN, ROW), (ROW, COLUMN)):
        nfound = 0
        for d in range(1, n + 1):
            if placed[d] + 2 * k > n:
                continue
            for i in range(n):
                line[i] = pos[base_t, i, d - 1]
            for r in range(_tuples(line, k, usable, tuples)):
                if nfound < found.shape[0]:
                    found[nfound, 0], found[nfound, 1] = base_t, tuples[r, 0]
                    found[nfound, 2], found[nfound, 3] = d, tuples[r, 1]
                nfound += 1
        most = max(most, nfound)
        if nfound > found.shape[0]:
            continue
        order = np.argsort(
            found[:nfound, 1] * (n + 1) * (1 << n) + found[:nfound, 2] * (1 << n) + found[:nfound, 3]
        )
        for r in order:
            bases, d, covers = found[r, 1], found[r, 2], found[r, 3]
            removes = False
            for ci in range(n):
                if covers >> ci & 1:
                    for j in range(n):
                        if cands[cells[cover_t, ci, j]] >> (d - 1) & 1 and not bases >> j & 1:
                            removes = True
            if removes:
                count = _put(out, count, found[r])
    return count, most


@njit(cache=True)
def fish_rows(cands, values, cells, n, k):  # type: ignore[no-untyped-def]
    """Fish of ``k`` base lines: rows (base type, base mask, digit, cover mask) that remove, columns as
    base lines first, then rows, each pass by base mask, digit and cover mask."""
    return fish_rows_at(cands, values, positions(cands, cells, n), cells, n, k)


@njit(cache=True)
def fish_rows_at(cands, values, pos, cells, n, k):  # type: ignore[no-untyped-def]
    """``fish_rows`` with the digits' positions (``positions``) given."""
    found = np.empty((4 * _ROOM, 4), dtype=np.int64)
    out = np.empty((_ROOM, 4), dtype=np.int64)
    while True:  # twice at most once ``found`` has room: then the count is exact
        count, most = _fish(cands, values, pos, cells, n, k, found, out)
        if count <= out.shape[0] and most <= found.shape[0]:
            return out[:count]
        found = np.empty((max(most, found.shape[0]), 4), dtype=np.int64)
        out = np.empty((max(count, out.shape[0]), 4), dtype=np.int64)
