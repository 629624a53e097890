"""SE's unique loops searched compiled: the loops from each bivalue cell and their types 1 to 4.

Sudoku Explainer's ``UniqueLoops`` grows loops depth first from each bivalue cell (``checkForLoops``),
keeps the valid ones (``isValidLoop``) and looks at each for the four types; a hint counts when it removes
something and is new (same type, same loop cells and, for type 3, the same set). The walk meets this
producer on almost every stall before the chains, and in Python the search and the type 3 sets took a
sixth of the walk's time on hard puzzles (top1465), hence this kernel. It returns the new hints in SE's
order, before the final sort, as rows of numbers; a row's variable parts (the loop's cells, the
removals, the type 3 set) lie in one flat array beside the rows. ``uniqueness`` makes the hints.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from . import set_kernels
from .grid import geometry
from .set_kernels import append_row, next_subset, popcount

__all__ = ["COLUMNS", "loop_rows", "tables"]

#: The columns of a row: its type (1 to 4); where its loop starts in the flat array and its length (the
#: loop's cells, then the same sorted: the loop as a set); where its removals start (cell, mask pairs) and
#: their count; its digits; the tenths added to the loop's difficulty (type 3); for type 3 its kind (0
#: naked, 1 hidden, else -1), region (type, index), and where its set starts (naked: the other cells,
#: hidden: the indexes) and its length.
COLUMNS = (
    "type", "loop", "size", "removals", "nremovals", "digits", "tenths", "kind", "rtype", "rindex", "set",
    "nset",
)  # fmt: skip
(TYPE, LOOP, SIZE, REM, NREM, DIGITS, TENTHS, KIND, RTYPE, RINDEX, SET, NSET) = range(len(COLUMNS))
NAKED, HIDDEN = 0, 1


@cache
def tables(box_rows: int, box_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The grid's regions as arrays: ``regions[type, index]`` (cells in the region's order),
    ``region_of[type, cell]`` and ``house[cell]`` (its block, row and column cells, each once)."""
    geo = geometry(box_rows, box_cols)
    regions = set_kernels.tables(box_rows, box_cols)[0]  # (a region's cells are ascending: SE's order)
    region_of = np.array(geo.region_of, dtype=np.int64)
    house = np.array(geo.house_cells, dtype=np.int64)
    return regions, region_of, house


@njit(cache=True)
def _put(data, nd, value):  # type: ignore[no-untyped-def]
    """``value`` appended to the first ``nd`` numbers of ``data`` (grown when full): ``data``, the count."""
    if nd == data.shape[0]:
        more = np.empty(2 * nd + 64, dtype=np.int64)
        more[:nd] = data[:nd]
        data = more
    data[nd] = value
    return data, nd + 1


@njit(cache=True)
def _valid(loop, region_of, seen):  # type: ignore[no-untyped-def]
    """SE's ``isValidLoop``: no region met twice at the same parity of the loop, and each region met at
    both parities or neither. ``seen[parity, type, index]`` is work space."""
    seen[:] = False
    odd = 0
    for cell in loop:
        for t in range(3):
            r = region_of[t, cell]
            if seen[odd, t, r]:
                return False
            seen[odd, t, r] = True
        odd ^= 1
    return np.all(seen[0] == seen[1])


@njit(cache=True)
def _is_new(out, nout, row, data):  # type: ignore[no-untyped-def]
    """Whether no row kept so far has ``row``'s key: its type, its loop as a set and, for type 3, its
    kind, region, digits and set: what makes two of SE's loop hints equal."""
    size = row[SIZE]
    for r in range(nout):
        if out[r, TYPE] != row[TYPE] or out[r, SIZE] != size:
            continue
        if row[TYPE] == 3 and (
            out[r, KIND] != row[KIND] or out[r, RTYPE] != row[RTYPE] or out[r, RINDEX] != row[RINDEX]
            or out[r, DIGITS] != row[DIGITS] or out[r, NSET] != row[NSET]
        ):  # fmt: skip
            continue
        same = True
        a, b = out[r, LOOP] + size, row[LOOP] + size
        for i in range(size):
            if data[a + i] != data[b + i]:
                same = False
                break
        if same and row[TYPE] == 3:
            a, b = out[r, SET], row[SET]
            for i in range(row[NSET]):
                if data[a + i] != data[b + i]:
                    same = False
                    break
        if same:
            return False
    return True


@njit(cache=True)
def _offer(out, nout, row, data, nd, first):  # type: ignore[no-untyped-def]
    """``row`` kept when it removes something and is new; its numbers from ``first`` on are dropped from
    ``data`` otherwise. ``out``, its count and the count of ``data``."""
    if row[NREM] and _is_new(out, nout, row, data):
        out, nout = append_row(out, nout, row)
        return out, nout, nd
    return out, nout, first


@njit(cache=True)
def _sees(region_of, a, b):  # type: ignore[no-untyped-def]
    """Whether cells ``a`` and ``b`` share a block, row or column."""
    same_block = region_of[0, a] == region_of[0, b]
    return same_block or region_of[1, a] == region_of[1, b] or region_of[2, a] == region_of[2, b]


@njit(cache=True)
def _type2(cands, region_of, house, extra, ne, pair, row, data, nd):  # type: ignore[no-untyped-def]
    """Type 2: the lowest extra digit of the first extra cell leaves the cells that see every extra cell
    (taken in the first one's house order). Fills ``row``; ``data`` and its count."""
    rest = cands[extra[0]] & ~pair
    z = rest & -rest
    row[TYPE], row[REM], row[DIGITS] = 2, nd, z
    for h in range(house.shape[1]):
        c = house[extra[0], h]
        if not cands[c] & z:
            continue
        keep = True
        for x in range(ne):
            if c == extra[x] or (x > 0 and not _sees(region_of, c, extra[x])):
                keep = False
                break
        if keep:
            data, nd = _put(data, nd, c)
            data, nd = _put(data, nd, z)
    row[NREM] = (nd - row[REM]) // 2
    return data, nd


@njit(cache=True)
def _type3(cands, values, regions, region_of, n, c1, c2, pair, row, data, nd, out, nout):  # type: ignore[no-untyped-def]
    """Type 3: the two extra cells' extra digits with other cells of a shared region make a naked set,
    or with the loop's digits a hidden set; degrees ascending, then the shared regions, in SE's
    ``Permutations`` order. Each hint is offered; ``out``, its count, ``data`` and its count.

    SE tries every subset of the region's cells (of the other digits for hidden sets) and skips those
    that cannot be a set: a naked set holds the first extra cell, not the second, and no cell of fewer
    than two digits; a hidden set no digit without a place. Here only the subsets of the cells (digits)
    left by those rules are enumerated, in the same order: removing bits that every enumerated subset
    sets, or none does, keeps the subsets' numeric order, and ``Permutations`` is that order."""
    extra = (cands[c1] | cands[c2]) & ~pair
    low, high = pair & -pair, pair & ~(pair & -pair)
    usable = np.empty((3, n), dtype=np.int64)  # naked: the cells that may join c1
    nu = np.zeros(3, dtype=np.int64)
    digits = np.empty((3, n), dtype=np.int64)  # hidden: the other digits with a place
    ndigits = np.zeros(3, dtype=np.int64)
    pos = np.zeros((3, n), dtype=np.int64)  # hidden: each digit's places (d - 1), c2 left out
    i1s, i2s, empties = np.full(3, -1), np.full(3, -1), np.zeros(3, dtype=np.int64)
    nrem = 0  # digits outside the loop's and the extra ones
    for d in range(n):
        if not (pair | extra) >> d & 1:
            nrem += 1
    for t in range(3):
        cells = regions[t, region_of[t, c1]]
        if region_of[t, c2] != region_of[t, c1]:
            continue
        for i in range(n):
            m = cands[cells[i]]
            if not values[cells[i]]:
                empties[t] += 1
            if cells[i] == c1:
                i1s[t] = i
            elif cells[i] == c2:
                i2s[t] = i
            else:
                for d in range(n):
                    if m >> d & 1:
                        pos[t, d] |= 1 << i
                if m & (m - 1):
                    usable[t, nu[t]] = i
                    nu[t] += 1
        for d in range(n):
            if cands[c1] >> d & 1:
                pos[t, d] |= 1 << i1s[t]
            if pos[t, d] and not (pair | extra) >> d & 1:
                digits[t, ndigits[t]] = d
                ndigits[t] += 1
    for degree in range(popcount(extra), n - 1):
        for t in range(3):
            index = region_of[t, c1]
            if region_of[t, c2] != index:
                continue
            cells = regions[t, index]
            i1, i2, empty = i1s[t], i2s[t], empties[t]
            row[TYPE], row[KIND], row[RTYPE], row[RINDEX] = 3, NAKED, t, index
            if 2 * degree <= empty:
                sub = (1 << (degree - 1)) - 1
                while sub < 1 << nu[t]:
                    naked = extra & cands[c1] & cands[c2]
                    union = extra
                    others = 0
                    for u in range(nu[t]):
                        if sub >> u & 1:
                            m = cands[cells[usable[t, u]]]
                            naked |= m
                            union |= m
                            others |= 1 << usable[t, u]
                    if popcount(naked) == degree and popcount(union) == degree:
                        first = nd
                        row[REM] = nd
                        for i in range(n):
                            c = cells[i]
                            if not others >> i & 1 and c != c1 and c != c2 and cands[c] & union:
                                data, nd = _put(data, nd, c)
                                data, nd = _put(data, nd, cands[c] & union)
                        row[NREM] = (nd - row[REM]) // 2
                        row[SET] = nd
                        for i in range(n):
                            if others >> i & 1:
                                data, nd = _put(data, nd, cells[i])
                        row[NSET] = nd - row[SET]
                        row[DIGITS], row[TENTHS] = union, popcount(union) - 1
                        out, nout, nd = _offer(out, nout, row, data, nd, first)
                    sub = next_subset(sub)
            row[KIND] = HIDDEN
            k = degree - 2
            low_pos, high_pos = pos[t, popcount(low - 1)], pos[t, popcount(high - 1)]
            if 2 * degree < empty and k <= nrem and nrem > 0 and low_pos and high_pos:
                sub = (1 << k) - 1
                while sub < 1 << ndigits[t]:
                    union = low_pos | high_pos
                    hidden = pair
                    for j in range(ndigits[t]):
                        if sub >> j & 1:
                            union |= pos[t, digits[t, j]]
                            hidden |= 1 << digits[t, j]
                    if popcount(union) == degree:
                        first = nd
                        row[REM] = nd
                        for i in range(n):
                            if union >> i & 1 and i != i1 and i != i2 and cands[cells[i]] & ~hidden:
                                data, nd = _put(data, nd, cells[i])
                                data, nd = _put(data, nd, cands[cells[i]] & ~hidden)
                        row[NREM] = (nd - row[REM]) // 2
                        row[SET] = nd
                        for i in range(n):
                            if union >> i & 1 and i != i1 and i != i2:
                                data, nd = _put(data, nd, i)
                        row[NSET] = nd - row[SET]
                        row[DIGITS], row[TENTHS] = hidden, row[NSET] - 1
                        out, nout, nd = _offer(out, nout, row, data, nd, first)
                    if k == 0:
                        break
                    sub = next_subset(sub)
    return out, nout, data, nd


@njit(cache=True)
def _type4(cands, regions, region_of, n, c1, c2, pair, row, data, nd):  # type: ignore[no-untyped-def]
    """Type 4: when a loop digit has no other place in a region the two extra cells share, the other
    loop digit leaves both (the high digit when the low one is locked). Fills ``row`` (no removals when
    neither is); ``data`` and its count."""
    low = pair & -pair
    high = pair & ~low
    r1 = r2 = False
    for t in range(3):
        index = region_of[t, c1]
        if region_of[t, c2] != index:
            continue
        has1 = has2 = False
        for i in range(n):
            c = regions[t, index, i]
            if c != c1 and c != c2:
                has1 = has1 or cands[c] & low != 0
                has2 = has2 or cands[c] & high != 0
        r1 = r1 or not has1
        r2 = r2 or not has2
    row[TYPE], row[REM], row[NREM] = 4, nd, 0
    if r1 or r2:
        removed = high if r1 else low
        data, nd = _put(data, nd, c1)
        data, nd = _put(data, nd, removed)
        data, nd = _put(data, nd, c2)
        data, nd = _put(data, nd, removed)
        row[NREM] = 2
    return data, nd


@njit(cache=True)
def _loop_hints(cands, values, regions, region_of, house, n, loop, pair, row, data, nd, out, nout):  # type: ignore[no-untyped-def]
    """The hints of one valid loop on the digits of ``pair``, by its number of cells with extra digits:
    one, type 1; two, type 2 (one extra digit between them) or 3, then 4; more, type 2. The loop's cells
    and their sorted copy go to ``data`` first; ``out``, its count, ``data`` and its count."""
    size = loop.shape[0]
    start = nd
    for c in loop:
        data, nd = _put(data, nd, c)
    for c in np.sort(loop):
        data, nd = _put(data, nd, c)
    kept = nout
    extra = np.empty(size, dtype=np.int64)
    ne = 0
    for c in loop:
        if popcount(cands[c]) > 2:
            extra[ne] = c
            ne += 1
    row[:] = 0
    row[LOOP], row[SIZE], row[KIND] = start, size, -1
    first = nd
    if ne == 1:
        row[TYPE], row[REM], row[NREM] = 1, nd, 1
        data, nd = _put(data, nd, extra[0])
        data, nd = _put(data, nd, pair)
        out, nout, nd = _offer(out, nout, row, data, nd, first)
    elif ne > 2 or (ne == 2 and popcount((cands[extra[0]] | cands[extra[1]]) & ~pair) == 1):
        data, nd = _type2(cands, region_of, house, extra, ne, pair, row, data, nd)
        out, nout, nd = _offer(out, nout, row, data, nd, first)
    if ne == 2:
        c1, c2 = extra[0], extra[1]
        if popcount((cands[c1] | cands[c2]) & ~pair) >= 2:
            out, nout, data, nd = _type3(
                cands, values, regions, region_of, n, c1, c2, pair, row, data, nd, out, nout
            )
        row[DIGITS:] = 0
        row[KIND] = -1
        first = nd
        data, nd = _type4(cands, regions, region_of, n, c1, c2, pair, row, data, nd)
        out, nout, nd = _offer(out, nout, row, data, nd, first)
    if nout == kept:  # nothing kept refers to this loop
        nd = start
    return out, nout, data, nd


@njit(cache=True)
def _closings(cands, regions, region_of, n, start, work, on_path, store):  # type: ignore[no-untyped-def]
    """SE's ``checkForLoops`` from ``start``, made iterative: every path of four cells or more back to
    ``start``, in the order the search closes them, in ``store`` (its length, then its cells); how much
    of ``store`` they fill, or -1 when it is too small.

    From a cell, the search looks at the cells of its block, row and column (not the region type it was
    entered by) that hold both digits of ``start``; a cell with more digits is entered while the extra
    digits seen so far from the same cell are one digit or while fewer than two such cells are on the
    path. The extra digits seen accumulate over the siblings tried before (SE's shared ``exValues``),
    which decides what is searched. ``work`` (six rows of cells) and ``on_path`` are work space."""
    path, allowed, ex, entered, tpos, jpos = work[0], work[1], work[2], work[3], work[4], work[5]
    pair = cands[start]
    used = 0
    d = 0
    path[0], allowed[0], ex[0], entered[0], tpos[0], jpos[0] = start, 2, 0, -1, 0, 0
    on_path[start] = True
    while d >= 0:
        cell = path[d]
        entering = False  # whether a neighbour is entered: the search goes one cell deeper
        while not entering and tpos[d] < 3:
            t, j = tpos[d], jpos[d]
            if t != entered[d]:
                region = regions[t, region_of[t, cell]]
                while not entering and j < n:
                    nxt = region[j]
                    j += 1
                    if nxt == start and d >= 3:
                        if used + d + 2 > store.shape[0]:
                            on_path[path[: d + 1]] = False
                            return -1
                        store[used] = d + 1
                        store[used + 1 : used + d + 2] = path[: d + 1]
                        used += d + 2
                    elif not on_path[nxt] and cands[nxt] & pair == pair:
                        ex[d] |= cands[nxt] & ~pair
                        count = popcount(cands[nxt])
                        entering = count == 2 or popcount(ex[d]) == 1 or allowed[d] > 0
            if entering:
                jpos[d] = j  # the search goes on after ``nxt`` when it comes back
            else:
                tpos[d], jpos[d] = t + 1, 0
        if entering:
            d += 1
            path[d], ex[d], entered[d], tpos[d], jpos[d] = nxt, ex[d - 1], t, 0, 0
            allowed[d] = allowed[d - 1] - (1 if count > 2 else 0)
            on_path[nxt] = True
        else:
            on_path[cell] = False
            d -= 1
    return used


@njit(cache=True)
def loop_rows(cands, values, regions, region_of, house, n):  # type: ignore[no-untyped-def]
    """Every new unique loop hint that removes something, in SE's order (start cells row-major, the
    valid loops in the order ``_closings`` finds them, types as ``_loop_hints`` takes them): the rows
    and the flat array."""
    ncells = cands.shape[0]
    out = np.empty((8, len(COLUMNS)), dtype=np.int64)
    nout = 0
    row = np.zeros(len(COLUMNS), dtype=np.int64)
    data = np.empty(256, dtype=np.int64)
    nd = 0
    seen = np.zeros((2, 3, n), dtype=np.bool_)
    work = np.empty((6, ncells), dtype=np.int64)
    on_path = np.zeros(ncells, dtype=np.bool_)
    store = np.empty(1024, dtype=np.int64)
    for start in range(ncells):
        if popcount(cands[start]) != 2:
            continue
        used = _closings(cands, regions, region_of, n, start, work, on_path, store)
        while used < 0:
            store = np.empty(2 * store.shape[0], dtype=np.int64)
            used = _closings(cands, regions, region_of, n, start, work, on_path, store)
        i = 0
        while i < used:
            loop = store[i + 1 : i + 1 + store[i]]
            i += 1 + store[i]
            if _valid(loop, region_of, seen):
                out, nout, data, nd = _loop_hints(
                    cands, values, regions, region_of, house, n, loop, cands[start], row, data, nd, out, nout
                )
    return out[:nout], data[:nd]
