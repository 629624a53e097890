"""SE's Nishio, multiple and dynamic forcing chains without nested levels, searched compiled.

Producers 22 to 25 (``Chaining`` at level 0) assume each candidate on and off, propagate (the kernel of
``propagation``), and compare what the assumptions force: a contradiction, the same conclusion both ways
(double), or the same conclusion from every candidate of a cell or every place of a digit in a region.
Here all the propagations of one call share one arena of rows, and each hint SE would make leaves as a
found row of numbers (columns ``KIND`` to ``COUNT``) with the rows its chains end in; ``Chaining`` names
them and makes them hints. Nested levels run inner techniques between propagations and stay in Python.

Bundles passed along: ``grid`` (candidates, their places, regions, ``where``, n, cell rule, dynamic),
``arena`` (rows: key, cause, parents' start and count; the parents), ``work`` (the queues and counters of
``propagate``), ``branches`` (per "on" branch its sets by key and its span of rows; per candidate its
branch) and ``out`` (found rows, the rows they end in, counts).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .propagation import (
    ABSURD_OFF,
    ABSURD_ON,
    NPAR,
    NPOT,
    OFF_HEAD,
    OFF_TAIL,
    ON_HEAD,
    ON_TAIL,
    STATUS,
    count_ancestors,
    off_targets,
    on_targets,
    places_of,
    propagate,
)
from .reach import components, reach_bits

__all__ = ["ABSURD", "CELL", "DOUBLE", "REGION", "search"]

#: What a found row is: a contradiction, a double forcing chain, a cell or a region forcing chain.
ABSURD, DOUBLE, CELL, REGION = 0, 1, 2, 3
#: The columns of a found row: what it removes and places, where it starts (region type, cell, digit),
#: its complexity without nesting, and its end rows in the refs.
KIND, SORT_KEY, REMOVE_CELL, REMOVE_MASK, VALUE_CELL, VALUE, WHERE_TYPE, WHERE, DIGIT, FLAT, FIRST, COUNT = (
    range(12)
)
#: Per count of keys, the "on" branches' and the "off" branch's key indexes, -1 everywhere (``search``).
_UNSET: dict[int, tuple[np.ndarray, np.ndarray]] = {}
# the span of an "on" branch: its first row, the row after its last, its contradiction's rows (or -1)
_FIRST, _END, _ABSURD0, _ABSURD1 = range(4)


@njit(cache=True)
def _grown(a):  # type: ignore[no-untyped-def]
    """``a`` (one or two axes) with twice the room along its first axis."""
    if a.ndim == 1:
        out = np.empty(2 * a.shape[0], dtype=a.dtype)
    else:
        out = np.empty((2 * a.shape[0], a.shape[1]), dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _wider(rows):  # type: ignore[no-untyped-def]
    """The arena's rows with room for twice as many."""
    out = np.empty((rows.shape[0], 2 * rows.shape[1]), dtype=rows.dtype)
    out[:, : rows.shape[1]] = rows
    return out


@njit(cache=True)
def _unset(index_of, keys, first, end):  # type: ignore[no-untyped-def]
    """``index_of`` back to -1 at the keys of rows ``first`` to ``end``: one branch's sets undone, in the
    time of its rows rather than of every key (a call makes hundreds of branches of twenty rows)."""
    for r in range(first, end):
        index_of[keys[r]] = -1


@njit(cache=True)
def _grown_unset(a):  # type: ignore[no-untyped-def]
    """``a`` (two axes) with twice the room along its first axis, the new rows -1."""
    out = np.full((2 * a.shape[0], a.shape[1]), -1, dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _branch(arena, index_of, cell, digit, on, grid, work):  # type: ignore[no-untyped-def]
    """One propagation from ``cell`` being (``on``) or not being ``digit``: its rows appended to the
    arena (grown as needed), its sets in ``index_of`` (-1 at every key before: ``_unset`` clears it
    after); the arena and the contradiction's rows (or -1)."""
    rows, par = arena
    source, places, regions, where, n, cell_rule, dynamic = grid
    qon, qoff, cnt = work
    cands = source.copy() if dynamic else source
    places = places.copy() if dynamic else places
    cnt[ON_HEAD] = cnt[ON_TAIL] = cnt[OFF_HEAD] = cnt[OFF_TAIL] = 0
    if cnt[NPOT] == rows.shape[1]:
        rows = _wider(rows)
    first = cnt[NPOT]
    k = cell << 6 | digit << 1 | (1 if on else 0)
    rows[0, first], rows[1, first], rows[2, first], rows[3, first] = k, -1, cnt[NPAR], 0
    cnt[NPOT] += 1
    index_of[k] = first
    queue, tail = (qon, ON_TAIL) if on else (qoff, OFF_TAIL)
    queue[0] = first
    cnt[tail] = 1
    while True:
        propagate(cands, places, source, regions, where, n, cell_rule, dynamic,
                  rows[0], rows[1], rows[2], rows[3], par, index_of, qon, qoff, cnt)  # fmt: skip
        if cnt[STATUS] != 2:
            break
        rows, par = _wider(rows), _grown(par)
    if cnt[STATUS] == 1:
        return (rows, par), cnt[ABSURD_ON], cnt[ABSURD_OFF]
    return (rows, par), -1, -1


@njit(cache=True)
def _on_branch(arena, branches, cell, digit, grid, work):  # type: ignore[no-untyped-def]
    """The "on" branch of ``cell`` being ``digit``, propagated the first time a chain asks for it (the
    cell's own, or a region chain through it): the arena, the branches (grown) and its slot."""
    index_on, span, slot_of, count = branches
    n = grid[4]
    slot = slot_of[cell * n + digit - 1]
    if slot >= 0:
        return arena, branches, slot
    slot = count[0]
    if slot == index_on.shape[0]:
        index_on, span = _grown_unset(index_on), _grown(span)
    span[slot, _FIRST] = work[2][NPOT]
    arena, first, second = _branch(arena, index_on[slot], cell, digit, True, grid, work)
    span[slot, _ABSURD0], span[slot, _ABSURD1] = first, second
    span[slot, _END] = work[2][NPOT]
    slot_of[cell * n + digit - 1] = slot
    count[0] = slot + 1
    return arena, (index_on, span, slot_of, count), slot


@njit(cache=True)
def _set_keys(keys, span, index_of, on, out):  # type: ignore[no-untyped-def]
    """The keys of a branch's "on" (or "off") set in the order they were added, into ``out``: their
    count."""
    m = 0
    for r in range(span[_FIRST], span[_END]):
        k = keys[r]
        if (k & 1) == on and index_of[k] == r:
            out[m] = k
            m += 1
    return m


@njit(cache=True)
def _keep(keys, m, index_of):  # type: ignore[no-untyped-def]
    """The first ``m`` keys that ``index_of`` also holds, kept in order: their count."""
    kept = 0
    for j in range(m):
        if index_of[keys[j]] >= 0:
            keys[kept] = keys[j]
            kept += 1
    return kept


@njit(cache=True)
def _reached(source, k):  # type: ignore[no-untyped-def]
    """What a chain that reaches the potential of key ``k`` removes (cell, mask; mask 0: nothing, an "on"
    alone in its cell) and places (cell or -1, digit)."""
    cell, digit = k >> 6, k >> 1 & 31
    bit = 1 << (digit - 1)
    if k & 1:
        return cell, source[cell] & ~bit, cell, digit
    return cell, bit, -1, 0


@njit(cache=True)
def _emit(out, head, ends, nends, arena, scratch):  # type: ignore[no-untyped-def]
    """A found row (``head``: its columns up to ``DIGIT``) with the rows its chains end in and their
    ancestor counts; ``out``, grown if it had to."""
    found, refs, counts = out
    rows, par = arena
    mark, stack = scratch
    nfound, nrefs = counts[0], counts[1]
    if nfound == found.shape[0]:
        found = _grown(found)
    while nrefs + nends > refs.shape[0]:
        refs = _grown(refs)
    flat = 0
    for i in range(nends):
        counts[2] += 1
        flat += count_ancestors(rows[0], rows[2], rows[3], par, ends[i], mark, counts[2], stack)
        refs[nrefs + i] = ends[i]
    kind, sort_key, rcell, rmask, vcell, value, where_type, where, digit = head
    row = found[nfound]
    row[KIND], row[SORT_KEY], row[REMOVE_CELL], row[REMOVE_MASK] = kind, sort_key, rcell, rmask
    row[VALUE_CELL], row[VALUE], row[WHERE_TYPE], row[WHERE], row[DIGIT] = (
        vcell,
        value,
        where_type,
        where,
        digit,
    )
    found[nfound, FLAT], found[nfound, FIRST], found[nfound, COUNT] = flat, nrefs, nends
    counts[0], counts[1] = nfound + 1, nrefs + nends
    return found, refs, counts


@njit(cache=True)
def _reductions(out, keys, m, kind, where, digit, slots, nslots, index_on, arena, grid, scratch):  # type: ignore[no-untyped-def]
    """The cell (or region) forcing chains: each of the ``m`` keys every branch of ``slots`` reaches."""
    ends = np.empty(nslots, dtype=np.int64)
    for j in range(m):
        rcell, rmask, vcell, value = _reached(grid[0], keys[j])
        if not rmask:
            continue
        for i in range(nslots):
            ends[i] = index_on[slots[i], keys[j]]
        sort_key, where_type = (5, -1) if kind == CELL else (6, where[0])
        head = (kind, sort_key, rcell, rmask, vcell, value, where_type, where[1], digit)
        out = _emit(out, head, ends, nslots, arena, scratch)
    return out


#: Above this many potentials, static chains are searched without their reachability (bits per pair of
#: components): 9x9 has at most 1,458, 16x16 8,192.
_REACH_NODES = 4096


@njit(cache=True)
def _static_reach(grid):  # type: ignore[no-untyped-def]
    """For chains on a grid that is never struck (static multiple chains), the graph of what forces what:
    each candidate's "on" and "off" as nodes (``nid`` by key), their components and the components each
    reaches (``reach.reach_bits``). A branch's sets lie in what its assumption reaches."""
    source, places, regions, where, n, cell_rule, _ = grid
    ncells = source.shape[0]
    nid = np.full(ncells << 6, -1, dtype=np.int32)
    nodes = np.empty(2 * ncells * n, dtype=np.int32)
    nnodes = 0
    for cell in range(ncells):
        for digit in range(1, n + 1):
            if source[cell] >> (digit - 1) & 1:
                k = cell << 6 | digit << 1
                nodes[nnodes], nodes[nnodes + 1] = k, k | 1
                nid[k], nid[k | 1] = nnodes, nnodes + 1
                nnodes += 2
    first = np.empty(nnodes + 1, dtype=np.int32)
    links = np.empty(nnodes * 4 * n, dtype=np.int32)
    tk = np.empty(4 * n, dtype=np.int32)
    tc = np.empty(4 * n, dtype=np.int32)
    m = 0
    for v in range(nnodes):
        first[v] = m
        k = nodes[v]
        if k & 1:
            count = on_targets(source, places, regions, where, n, k, cell_rule, tk, tc)
        else:
            count = off_targets(source, places, regions, where, n, k, cell_rule, True, tk, tc)
        for j in range(count):
            links[m] = nid[tk[j]]
            m += 1
    first[nnodes] = m
    comp = np.empty(nnodes, dtype=np.int32)
    size = np.empty(nnodes, dtype=np.int32)
    ncomp = components(nnodes, first, links, comp, size)
    return nid, comp, reach_bits(nnodes, first, links, comp, ncomp)


@njit(cache=True)
def _may_meet(reach, comp, nid, keys, count, acc):  # type: ignore[no-untyped-def]
    """Whether the potentials of the first ``count`` of ``keys`` all reach some component: else their
    branches have nothing in common (``acc``: room for a row of bits)."""
    acc[:] = reach[comp[nid[keys[0]]]]
    for i in range(1, count):
        row = reach[comp[nid[keys[i]]]]
        left = np.uint64(0)
        for w in range(acc.shape[0]):
            acc[w] &= row[w]
            left |= acc[w]
        if not left:
            return False
    return True


@njit(cache=True)
def _search(source, regions, where, n, nishio, multiple, dynamic, index_on, index_off, prune):  # type: ignore[no-untyped-def]
    """SE's ``getMultipleChainsHintList`` at level 0, in its order: for each cell (row-major) with three
    candidates or more (two for dynamic chains), for each of its digits, the contradictions of the digit
    on and off, the double chains, the region chains that start at this cell; then the cell's own chains.
    Each "on" branch is propagated once and kept for the region chains through it. ``index_on`` (a row
    per "on" branch) and ``index_off`` are -1 at every key, and are again when it returns (``_unset``);
    the arrays it returns last ``index_on``, grown if it had to."""
    ncells = source.shape[0]
    nkeys = ncells << 6
    contradiction = dynamic or nishio
    grid = (source, places_of(source, where, n), regions, where, n, not nishio, dynamic)
    qcap = 2 * ncells * n + 4 * n + 8  # the rows of one propagation, at most
    arena = (np.empty((4, 4096), dtype=np.int32), np.empty(16384, dtype=np.int32))
    work = (np.empty(qcap, dtype=np.int32), np.empty(qcap, dtype=np.int32), np.zeros(9, dtype=np.int64))
    branches = (index_on, np.empty((index_on.shape[0], 4), dtype=np.int64),
                np.full(ncells * n, -1, dtype=np.int32), np.zeros(1, dtype=np.int64))  # fmt: skip
    out = (np.empty((64, 12), dtype=np.int64), np.empty(256, dtype=np.int32), np.zeros(3, dtype=np.int64))
    scratch = (np.zeros(nkeys, dtype=np.int32), np.empty(nkeys, dtype=np.int32))
    keys = np.empty(qcap, dtype=np.int32)
    common = np.empty((2, qcap), dtype=np.int32)  # the keys every branch of the cell reaches, on and off
    ncommon = np.zeros(2, dtype=np.int64)
    cell_slots = np.empty(n, dtype=np.int64)
    places = np.empty((3, n), dtype=np.int64)
    nplaces = np.zeros(3, dtype=np.int64)
    ends = np.empty(2, dtype=np.int64)
    # static chains: a cell's or a region's chains are searched only where their branches can meet
    pruned = prune and not dynamic and 2 * ncells * n <= _REACH_NODES
    nid, comp, reach = _static_reach(grid) if pruned else (index_off, index_off, np.zeros((1, 1), np.uint64))
    acc = np.empty(reach.shape[1], dtype=np.uint64)
    on_keys = np.empty(n, dtype=np.int64)
    for cell in range(ncells):
        mask = source[cell]
        count = 0
        for d in range(n):
            if mask >> d & 1:
                on_keys[count] = cell << 6 | (d + 1) << 1 | 1
                count += 1
        if not (count > 2 or (count > 1 and dynamic)):
            continue
        double = count >= 3 and not nishio and dynamic
        cell_chains = not nishio and (count == 2 or (multiple and count > 2))
        if pruned and cell_chains:
            cell_chains = _may_meet(reach, comp, nid, on_keys, count, acc)
        ndigits = 0
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            if not mask & bit:
                continue
            regions_to_do = False  # each region from its first place of the digit
            for t in range(3):
                nplaces[t] = 0
                if nishio:
                    continue
                for i in range(n):
                    if source[regions[cell, t, i]] & bit:
                        places[t, nplaces[t]] = regions[cell, t, i]
                        nplaces[t] += 1
                if not (nplaces[t] == 2 or (multiple and nplaces[t] > 2)) or places[t, 0] != cell:
                    nplaces[t] = 0
                    continue
                if pruned:
                    for i in range(nplaces[t]):
                        on_keys[i] = places[t, i] << 6 | digit << 1 | 1
                    if not _may_meet(reach, comp, nid, on_keys, nplaces[t], acc):
                        nplaces[t] = 0
                        continue
                regions_to_do = True
            if pruned and not (cell_chains or regions_to_do):
                continue
            arena, branches, s = _on_branch(arena, branches, cell, digit, grid, work)
            cell_slots[ndigits] = s
            ndigits += 1
            off_first = off_end = work[2][NPOT]
            b0 = b1 = -1
            if contradiction or double:  # what the digit being off forces: read by these alone
                arena, b0, b1 = _branch(arena, index_off, cell, digit, False, grid, work)
                off_end = work[2][NPOT]
            index_on, span = branches[0], branches[1]
            # in SE's order: the contradictions of "on" and of "off", the doubles, the region chains
            if contradiction and span[s, _ABSURD0] >= 0:
                ends[0], ends[1] = span[s, _ABSURD0], span[s, _ABSURD1]
                out = _emit(out, (ABSURD, 7, cell, bit, -1, 0, -1, cell, digit), ends, 2, arena, scratch)
            if contradiction and b0 >= 0 and mask & ~bit:
                ends[0], ends[1] = b0, b1
                head = (ABSURD, 7, cell, mask & ~bit, cell, digit, -1, cell, digit)
                out = _emit(out, head, ends, 2, arena, scratch)
            if double:
                for on in (1, 0):
                    for j in range(_set_keys(arena[0][0], span[s], index_on[s], on, keys)):
                        k = keys[j]
                        rcell, rmask, vcell, value = _reached(source, k)
                        if index_off[k] >= 0 and rmask:
                            ends[0], ends[1] = index_on[s, k], index_off[k]
                            head = (DOUBLE, 1, rcell, rmask, vcell, value, -1, cell, digit)
                            out = _emit(out, head, ends, 2, arena, scratch)
            _unset(index_off, arena[0][0], off_first, off_end)
            for t in range(3):
                if not nplaces[t]:
                    continue
                slots = places[t]
                for i in range(nplaces[t]):
                    arena, branches, slots[i] = _on_branch(arena, branches, slots[i], digit, grid, work)
                index_on, span = branches[0], branches[1]
                for on in (1, 0):
                    m = _set_keys(arena[0][0], span[s], index_on[s], on, keys)
                    for i in range(1, nplaces[t]):
                        m = _keep(keys, m, index_on[slots[i]])
                    out = _reductions(out, keys, m, REGION, (t, cell), digit, slots, nplaces[t], index_on,
                                      arena, grid, scratch)  # fmt: skip
            if not cell_chains:
                continue
            for on in (1, 0):  # what every digit of the cell so far reaches
                if ndigits == 1:
                    ncommon[on] = _set_keys(arena[0][0], span[s], index_on[s], on, common[on])
                else:
                    ncommon[on] = _keep(common[on], ncommon[on], index_on[s])
        if cell_chains:
            for on in (1, 0):
                out = _reductions(out, common[on], ncommon[on], CELL, (-1, cell), 0, cell_slots, ndigits,
                                  branches[0], arena, grid, scratch)  # fmt: skip
    (rows, par), (found, refs, counts) = arena, out
    index_on, span = branches[0], branches[1]
    for slot in range(branches[3][0]):
        _unset(index_on[slot], rows[0], span[slot, _FIRST], span[slot, _END])
    npot = work[2][NPOT]
    return found[: counts[0]], refs[: counts[1]], rows[:, :npot], par[: work[2][NPAR]], index_on


def search(
    source: np.ndarray,
    regions: np.ndarray,
    where: np.ndarray,
    n: int,
    nishio: bool,
    multiple: bool,
    dynamic: bool,
    prune: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What one call of a level-0 producer finds on ``source``: the found rows, the rows they end in, and
    the arena (rows of key, cause, parents' start and count; the parents). ``prune=False`` searches every
    static cell and region chain, reachable or not: the same hints, slower (the tests' reference).

    The branches' key indexes are kept between calls (``_UNSET``, per grid size), all -1: a call unsets
    what it set instead of filling hundreds of indexes of every key. Taken out for the call, they go
    back only when it returns."""
    nkeys = source.shape[0] << 6
    index_on, index_off = _UNSET.pop(nkeys, None) or (
        np.full((16, nkeys), -1, dtype=np.int32),
        np.full(nkeys, -1, dtype=np.int32),
    )
    found, refs, rows, par, index_on = _search(
        source, regions, where, n, nishio, multiple, dynamic, index_on, index_off, prune
    )
    _UNSET[nkeys] = (index_on, index_off)
    return found, refs, rows, par
