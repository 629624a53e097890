"""SE's Nishio, multiple and dynamic forcing chains without nested levels, searched compiled.

Producers 22 to 25 (``Chaining`` at level 0) assume each candidate on and off, propagate (the kernel of
``propagation``), and compare what the assumptions force: a contradiction, the same conclusion both ways
(double), or the same conclusion from every candidate of a cell or every place of a digit in a region.
Here all the propagations of one call share one arena of rows, and each hint SE would make leaves as a
found row of numbers (columns ``KIND`` to ``COUNT``) with the rows its chains end in; ``Chaining`` names
them and makes them hints. Nested levels run inner techniques between propagations and stay in Python.

Bundles passed along: ``grid`` (candidates, their places, regions, ``where``, n, cell rule, dynamic),
``arena`` (rows: key, cause, parents' start and count; the parents), ``work`` (the queues, counters and
targets of ``propagate``), ``copies`` (what a dynamic branch strikes), ``branches`` (per "on" branch its
sets by key and its span of rows; per candidate its branch; the call's counts) and ``out`` (found rows,
the rows they end in, the counts). Python makes every array (``_Room``), so the kernels allocate nothing
and run without numba's reference counts; one that runs out of room says so, and the call starts over
with more.
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
    keep,
    off_targets,
    on_targets,
    places_of,
    propagate,
    set_keys,
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
#: Per grid size (keys), the room a call searches in (``_Room``), kept between calls: the index arrays are
#: -1 everywhere between calls (a call unsets what it set), the sizes grow as calls need.
_ROOMS: dict[int, _Room] = {}
#: The arena rows whose ancestor counts a call keeps (rows beyond are counted each time they end a chain):
#: the level-0 calls of a forum walk on 9x9 made up to 23,544.
_MEMO_ROWS = 1 << 16
# the span of an "on" branch: its first row, the row after its last, its contradiction's rows (or -1)
_FIRST, _END, _ABSURD0, _ABSURD1 = range(4)
#: How a kernel call ended: done, or out of room for rows (or parents), found rows (or their ends), or
#: branches; the caller grows that room and searches again.
_DONE, _MORE_ROWS, _MORE_FOUND, _MORE_BRANCHES = range(4)
# the counters of a call (``count``): branches made, found rows, their ends, the ancestor counts' stamp
_NBRANCH, _NFOUND, _NREFS, _STAMP = range(4)


class _Room:
    """The arrays one call searches in, made by Python so that the kernels allocate nothing and run
    without numba's reference counts (which were over half of a call's time: atomic increments and
    decrements of every array passed or sliced). ``rows``/``par`` (the arena) and ``found``/``refs`` are
    new for each call, since the hints read them after; the rest is reused."""

    def __init__(self, ncells: int, n: int) -> None:
        nkeys = ncells << 6
        qcap = 2 * ncells * n + 4 * n + 8  # the rows of one propagation, at most
        self.nrows, self.npar, self.nfound, self.nrefs = 4096, 16384, 64, 256
        self.index_on = np.full((16, nkeys), -1, dtype=np.int32)
        self.index_off = np.full(nkeys, -1, dtype=np.int32)
        self.memo = np.full(_MEMO_ROWS, -1, dtype=np.int32)
        self.span = np.empty((16, 4), dtype=np.int64)
        self.slot_of = np.empty(ncells * n, dtype=np.int32)
        self.work = (
            np.empty(qcap, dtype=np.int32), np.empty(qcap, dtype=np.int32), np.zeros(9, dtype=np.int64),
            np.empty(4 * n, dtype=np.int32), np.empty(4 * n, dtype=np.int32),
        )  # fmt: skip
        self.copies = (np.empty(ncells, dtype=np.int64), np.empty((3 * n, n), dtype=np.int64))
        self.scratch = (np.zeros(nkeys, dtype=np.int32), np.empty(nkeys, dtype=np.int32))
        self.lists = (
            np.empty(qcap, dtype=np.int32),  # keys of a branch's set
            np.empty((2, qcap), dtype=np.int32),  # the keys every digit of a cell so far reaches, on and off
            np.zeros(2, dtype=np.int64),  # their counts
            np.empty(n, dtype=np.int64),  # the slots of a cell's branches
            np.empty((3, n), dtype=np.int64),  # a digit's places in each region of the cell
            np.zeros(3, dtype=np.int64),  # their counts
            np.empty(max(n, 2), dtype=np.int64),  # the rows a found row ends in
            np.empty(n, dtype=np.int64),  # "on" keys whose branches may meet
        )
        self.count = np.zeros(4, dtype=np.int64)

    def grow(self, status: int) -> None:
        """Twice the room that a call ran out of (``status``); the index arrays afresh, all -1 (a call
        that stops short leaves them set)."""
        if status == _MORE_ROWS:
            self.nrows, self.npar = 2 * self.nrows, 2 * self.npar
        elif status == _MORE_FOUND:
            self.nfound, self.nrefs = 2 * self.nfound, 2 * self.nrefs
        else:
            branches = 2 * self.index_on.shape[0]
            self.index_on = np.empty((branches, self.index_on.shape[1]), dtype=np.int32)
            self.span = np.empty((branches, 4), dtype=np.int64)
        self.index_on.fill(-1)
        self.index_off.fill(-1)
        self.memo.fill(-1)


@njit(_nrt=False, cache=True)
def _unset(index_of, keys, first, end):  # type: ignore[no-untyped-def]
    """``index_of`` back to -1 at the keys of rows ``first`` to ``end``: one branch's sets undone, in the
    time of its rows rather than of every key (a call makes hundreds of branches of twenty rows)."""
    for r in range(first, end):
        index_of[keys[r]] = -1


@njit(_nrt=False, cache=True)
def _branch(arena, index_of, cell, digit, on, grid, work, copies):  # type: ignore[no-untyped-def]
    """One propagation from ``cell`` being (``on``) or not being ``digit``: its rows appended to the
    arena, its sets in ``index_of`` (-1 at every key before: ``_unset`` clears it after). Dynamic
    chains strike ``copies`` of the candidates and places. The status (``_MORE_ROWS`` when the arena is
    full) and the contradiction's rows (or -1)."""
    rows, par = arena
    source, places, regions, where, n, cell_rule, dynamic = grid
    qon, qoff, cnt, tk, tc = work
    cands = source
    if dynamic:
        cands, struck = copies
        for x in range(source.shape[0]):
            cands[x] = source[x]
        for x in range(places.shape[0]):
            for y in range(places.shape[1]):
                struck[x, y] = places[x, y]
        places = struck
    cnt[ON_HEAD] = cnt[ON_TAIL] = cnt[OFF_HEAD] = cnt[OFF_TAIL] = 0
    if cnt[NPOT] == rows.shape[1]:
        return _MORE_ROWS, -1, -1
    first = cnt[NPOT]
    k = cell << 6 | digit << 1 | (1 if on else 0)
    rows[0, first], rows[1, first], rows[2, first], rows[3, first] = k, -1, cnt[NPAR], 0
    cnt[NPOT] += 1
    index_of[k] = first
    queue, tail = (qon, ON_TAIL) if on else (qoff, OFF_TAIL)
    queue[0] = first
    cnt[tail] = 1
    propagate(cands, places, source, regions, where, n, cell_rule, dynamic,
              rows[0], rows[1], rows[2], rows[3], par, index_of, qon, qoff, cnt, tk, tc)  # fmt: skip
    if cnt[STATUS] == 2:
        return _MORE_ROWS, -1, -1
    if cnt[STATUS] == 1:
        return _DONE, cnt[ABSURD_ON], cnt[ABSURD_OFF]
    return _DONE, -1, -1


@njit(_nrt=False, cache=True)
def _on_branch(arena, branches, cell, digit, grid, work, copies):  # type: ignore[no-untyped-def]
    """The "on" branch of ``cell`` being ``digit``, propagated the first time a chain asks for it (the
    cell's own, or a region chain through it): the status and its slot."""
    index_on, span, slot_of, count = branches
    n = grid[4]
    slot = slot_of[cell * n + digit - 1]
    if slot >= 0:
        return _DONE, slot
    slot = count[_NBRANCH]
    if slot == index_on.shape[0]:
        return _MORE_BRANCHES, -1
    cnt = work[2]
    span[slot, _FIRST] = cnt[NPOT]
    status, first, second = _branch(arena, index_on[slot], cell, digit, True, grid, work, copies)
    span[slot, _ABSURD0], span[slot, _ABSURD1] = first, second
    span[slot, _END] = cnt[NPOT]
    slot_of[cell * n + digit - 1] = slot
    count[_NBRANCH] = slot + 1
    return status, slot


@njit(_nrt=False, cache=True)
def _reached(source, k):  # type: ignore[no-untyped-def]
    """What a chain that reaches the potential of key ``k`` removes (cell, mask; mask 0: nothing, an "on"
    alone in its cell) and places (cell or -1, digit)."""
    cell, digit = k >> 6, k >> 1 & 31
    bit = 1 << (digit - 1)
    if k & 1:
        return cell, source[cell] & ~bit, cell, digit
    return cell, bit, -1, 0


@njit(_nrt=False, cache=True)
def _emit(out, head, ends, nends, arena, scratch):  # type: ignore[no-untyped-def]
    """A found row (``head``: its columns up to ``DIGIT``) with the rows its chains end in and their
    ancestor counts (``scratch``: the marks and stack of ``count_ancestors`` and the counts found so far
    by row, -1 where none); the status (``_MORE_FOUND`` when ``out`` is full)."""
    found, refs, count = out
    rows, par = arena
    mark, stack, memo = scratch
    nfound, nrefs = count[_NFOUND], count[_NREFS]
    if nfound == found.shape[0] or nrefs + nends > refs.shape[0]:
        return _MORE_FOUND
    flat = 0
    for i in range(nends):
        r = ends[i]
        known = memo[r] if r < memo.shape[0] else -1
        if known < 0:  # an end row's count once per call: most ends are the ends of several chains
            count[_STAMP] += 1
            known = count_ancestors(rows[0], rows[2], rows[3], par, r, mark, count[_STAMP], stack)
            if r < memo.shape[0]:
                memo[r] = known
        flat += known
        refs[nrefs + i] = r
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
    count[_NFOUND], count[_NREFS] = nfound + 1, nrefs + nends
    return _DONE


@njit(_nrt=False, cache=True)
def _reductions(out, keys, m, kind, where, digit, slots, nslots, index_on, arena, grid, scratch, ends):  # type: ignore[no-untyped-def]
    """The cell (or region) forcing chains: each of the ``m`` keys every branch of ``slots`` reaches;
    the status."""
    for j in range(m):
        rcell, rmask, vcell, value = _reached(grid[0], keys[j])
        if not rmask:
            continue
        for i in range(nslots):
            ends[i] = index_on[slots[i], keys[j]]
        sort_key, where_type = (5, -1) if kind == CELL else (6, where[0])
        head = (kind, sort_key, rcell, rmask, vcell, value, where_type, where[1], digit)
        status = _emit(out, head, ends, nslots, arena, scratch)
        if status != _DONE:
            return status
    return _DONE


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


@njit(_nrt=False, cache=True)
def _may_meet(reach, comp, nid, keys, count, acc):  # type: ignore[no-untyped-def]
    """Whether the potentials of the first ``count`` of ``keys`` all reach some component: else their
    branches have nothing in common (``acc``: room for a row of bits)."""
    first = comp[nid[keys[0]]]
    for w in range(acc.shape[0]):  # (no slice assigned: it would take numba's runtime)
        acc[w] = reach[first, w]
    for i in range(1, count):
        row = comp[nid[keys[i]]]
        left = np.uint64(0)
        for w in range(acc.shape[0]):
            acc[w] &= reach[row, w]
            left |= acc[w]
        if not left:
            return False
    return True


@njit(_nrt=False, cache=True)
def _search(grid, multiple, reach, arena, branches, index_off, out, work, copies, scratch, lists):  # type: ignore[no-untyped-def]
    """SE's ``getMultipleChainsHintList`` at level 0, in its order: for each cell (row-major) with three
    candidates or more (two for dynamic chains), for each of its digits, the contradictions of the digit
    on and off, the double chains, the region chains that start at this cell; then the cell's own chains.
    Each "on" branch is propagated once and kept for the region chains through it. ``branches[0]`` (a row
    per "on" branch), ``index_off`` (by key) and the ancestor counts by row (``scratch[2]``) are -1
    everywhere, and are again when it returns ``_DONE`` (``_unset``); else the status says which room
    (``_Room``) it ran out of, and those are left set. ``reach``: the static chains' reachability
    (``_static_reach``), its first array empty where not searched by it."""
    source, _, regions, _, n, cell_rule, dynamic = grid
    nishio = not cell_rule
    ncells = source.shape[0]
    contradiction = dynamic or nishio
    index_on, span, slot_of, count = branches
    keys, common, ncommon, cell_slots, places, nplaces, ends, on_keys = lists
    nid, comp, bits, acc = reach
    pruned = nid.shape[0] > 0
    rows = arena[0]  # (the arena never grows within a call: one that runs out of room stops)
    cnt = work[2]
    for x in range(slot_of.shape[0]):
        slot_of[x] = -1
    for x in range(count.shape[0]):
        count[x] = 0
    for x in range(cnt.shape[0]):
        cnt[x] = 0
    mark = scratch[0]
    for x in range(mark.shape[0]):
        mark[x] = 0
    for cell in range(ncells):
        mask = source[cell]
        ncands = 0
        for d in range(n):
            if mask >> d & 1:
                on_keys[ncands] = cell << 6 | (d + 1) << 1 | 1
                ncands += 1
        if not (ncands > 2 or (ncands > 1 and dynamic)):
            continue
        double = ncands >= 3 and not nishio and dynamic
        cell_chains = not nishio and (ncands == 2 or (multiple and ncands > 2))
        if pruned and cell_chains:
            cell_chains = _may_meet(bits, comp, nid, on_keys, ncands, acc)
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
                    if not _may_meet(bits, comp, nid, on_keys, nplaces[t], acc):
                        nplaces[t] = 0
                        continue
                regions_to_do = True
            if pruned and not (cell_chains or regions_to_do):
                continue
            status, s = _on_branch(arena, branches, cell, digit, grid, work, copies)
            if status != _DONE:
                return status
            cell_slots[ndigits] = s
            ndigits += 1
            off_first = off_end = cnt[NPOT]
            b0 = b1 = -1
            if contradiction or double:  # what the digit being off forces: read by these alone
                status, b0, b1 = _branch(arena, index_off, cell, digit, False, grid, work, copies)
                if status != _DONE:
                    return status
                off_end = cnt[NPOT]
            # in SE's order: the contradictions of "on" and of "off", the doubles, the region chains
            if contradiction and span[s, _ABSURD0] >= 0:
                ends[0], ends[1] = span[s, _ABSURD0], span[s, _ABSURD1]
                status = _emit(out, (ABSURD, 7, cell, bit, -1, 0, -1, cell, digit), ends, 2, arena, scratch)
                if status != _DONE:
                    return status
            if contradiction and b0 >= 0 and mask & ~bit:
                ends[0], ends[1] = b0, b1
                head = (ABSURD, 7, cell, mask & ~bit, cell, digit, -1, cell, digit)
                status = _emit(out, head, ends, 2, arena, scratch)
                if status != _DONE:
                    return status
            if double:
                for on in (1, 0):
                    m = set_keys(rows[0], span[s, _FIRST], span[s, _END], index_on[s], on, keys, 0)
                    for j in range(m):
                        k = keys[j]
                        rcell, rmask, vcell, value = _reached(source, k)
                        if index_off[k] >= 0 and rmask:
                            ends[0], ends[1] = index_on[s, k], index_off[k]
                            head = (DOUBLE, 1, rcell, rmask, vcell, value, -1, cell, digit)
                            status = _emit(out, head, ends, 2, arena, scratch)
                            if status != _DONE:
                                return status
            _unset(index_off, rows[0], off_first, off_end)
            for t in range(3):
                if not nplaces[t]:
                    continue
                slots = places[t]
                for i in range(nplaces[t]):
                    status, slots[i] = _on_branch(arena, branches, slots[i], digit, grid, work, copies)
                    if status != _DONE:
                        return status
                for on in (1, 0):
                    m = set_keys(rows[0], span[s, _FIRST], span[s, _END], index_on[s], on, keys, 0)
                    for i in range(1, nplaces[t]):
                        m = keep(keys, m, index_on[slots[i]])
                    status = _reductions(out, keys, m, REGION, (t, cell), digit, slots, nplaces[t], index_on,
                                         arena, grid, scratch, ends)  # fmt: skip
                    if status != _DONE:
                        return status
            if not cell_chains:
                continue
            for on in (1, 0):  # what every digit of the cell so far reaches
                if ndigits == 1:
                    ncommon[on] = set_keys(
                        rows[0], span[s, _FIRST], span[s, _END], index_on[s], on, common[on], 0
                    )
                else:
                    ncommon[on] = keep(common[on], ncommon[on], index_on[s])
        if cell_chains:
            for on in (1, 0):
                status = _reductions(out, common[on], ncommon[on], CELL, (-1, cell), 0, cell_slots, ndigits,
                                     index_on, arena, grid, scratch, ends)  # fmt: skip
                if status != _DONE:
                    return status
    for slot in range(count[_NBRANCH]):
        _unset(index_on[slot], rows[0], span[slot, _FIRST], span[slot, _END])
    memo, refs = scratch[2], out[1]
    for i in range(count[_NREFS]):
        if refs[i] < memo.shape[0]:
            memo[refs[i]] = -1
    return _DONE


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

    The room it searches in is kept between calls (``_ROOMS``, per grid size), taken out for the call and
    put back when it returns; where a call runs out of some room, that room doubles and the call starts
    over (its sizes are kept, so this happens a few times a process)."""
    ncells = source.shape[0]
    room = _ROOMS.pop(ncells << 6, None) or _Room(ncells, n)
    grid = (source, places_of(source, where, n), regions, where, n, not nishio, dynamic)
    if prune and not dynamic and 2 * ncells * n <= _REACH_NODES:
        nid, comp, bits = _static_reach(grid)
    else:  # none: the first array empty
        nid = comp = np.zeros(0, dtype=np.int32)
        bits = np.zeros((1, 1), dtype=np.uint64)
    reach = (nid, comp, bits, np.empty(bits.shape[1], dtype=np.uint64))
    while True:
        rows, par = np.empty((4, room.nrows), dtype=np.int32), np.empty(room.npar, dtype=np.int32)
        found, refs = np.empty((room.nfound, 12), dtype=np.int64), np.empty(room.nrefs, dtype=np.int32)
        status = _search(
            grid, multiple, reach, (rows, par), (room.index_on, room.span, room.slot_of, room.count),
            room.index_off, (found, refs, room.count), room.work, room.copies, (*room.scratch, room.memo),
            room.lists,
        )  # fmt: skip
        if status == _DONE:
            break
        room.grow(status)
    count, cnt = room.count, room.work[2]
    _ROOMS[ncells << 6] = room
    # copied to their sizes: the arrays have the room of the largest call so far, and a result is kept
    # (a producer's cache of grids, a nested level's inner hints for a step): slices would keep it all
    # (five forum walks in one process peaked at 1,092 MB with slices, 502 MB with copies)
    return (
        found[: count[_NFOUND]].copy(),
        refs[: count[_NREFS]].copy(),
        rows[:, : cnt[NPOT]].copy(),
        par[: cnt[NPAR]].copy(),
    )
