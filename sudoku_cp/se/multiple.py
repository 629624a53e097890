"""SE's Nishio, multiple and dynamic forcing chains without nested levels, searched compiled.

Producers 22 to 25 (``Chaining`` at level 0) assume each candidate on and off, propagate (the kernel of
``propagation``), and compare what the assumptions force: a contradiction, the same conclusion both ways
(double), or the same conclusion from every candidate of a cell or every place of a digit in a region.
Here all the propagations of one call share one arena of rows, and what SE would make a hint leaves as a
row of numbers (``Found``) with the rows its chains end in; ``Chaining`` names them and makes them hints.
Nested levels run inner techniques between propagations and stay with ``Chaining``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .propagation import (
    _ABSURD_OFF,
    _ABSURD_ON,
    _NPAR,
    _NPOT,
    _OFF_HEAD,
    _OFF_TAIL,
    _ON_HEAD,
    _ON_TAIL,
    _STATUS,
    _run,
)

__all__ = ["ABSURD", "CELL", "DOUBLE", "REGION", "search"]

#: What a found row is: a contradiction, a double forcing chain, a cell or a region forcing chain.
ABSURD, DOUBLE, CELL, REGION = 0, 1, 2, 3
#: The columns of a found row.
KIND, SORT_KEY, REMOVE_CELL, REMOVE_MASK, VALUE_CELL, VALUE, WHERE_TYPE, WHERE, DIGIT, FLAT, FIRST, COUNT = (
    range(12)
)


@njit(cache=True)
def _grown(a, size):  # type: ignore[no-untyped-def]
    out = np.empty(max(size, 2 * a.shape[0]), dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _branch(
    arena, index_of, cell, digit, on, source, regions, block_of, n, cell_rule, dynamic, qon, qoff, cnt
):  # type: ignore[no-untyped-def]
    """One propagation from ``cell`` being (``on``) or not being ``digit``, its rows appended to the
    arena (grown as needed), its sets in ``index_of``: the arena and the contradiction's rows (or -1)."""
    pkey, pcause, pstart, pnpar, par = arena
    cands = source.copy() if dynamic else source
    index_of[:] = -1
    cnt[_ON_HEAD] = cnt[_ON_TAIL] = cnt[_OFF_HEAD] = cnt[_OFF_TAIL] = 0
    if cnt[_NPOT] + 1 > pkey.shape[0]:
        pkey, pcause, pstart, pnpar = (
            _grown(pkey, 0),
            _grown(pcause, 0),
            _grown(pstart, 0),
            _grown(pnpar, 0),
        )
    first = cnt[_NPOT]
    k = cell << 6 | digit << 1 | (1 if on else 0)
    pkey[first], pcause[first], pstart[first], pnpar[first] = k, -1, cnt[_NPAR], 0
    cnt[_NPOT] += 1
    index_of[k] = first
    if on:
        qon[0] = first
        cnt[_ON_TAIL] = 1
    else:
        qoff[0] = first
        cnt[_OFF_TAIL] = 1
    while True:
        _run(
            cands,
            source,
            regions,
            block_of,
            n,
            cell_rule,
            dynamic,
            pkey,
            pcause,
            pstart,
            pnpar,
            par,
            index_of,
            qon,
            qoff,
            cnt,
        )
        if cnt[_STATUS] != 2:
            break
        pkey, pcause, pstart, pnpar = (
            _grown(pkey, 0),
            _grown(pcause, 0),
            _grown(pstart, 0),
            _grown(pnpar, 0),
        )
        par = _grown(par, 0)
    if cnt[_STATUS] == 1:
        return (pkey, pcause, pstart, pnpar, par), cnt[_ABSURD_ON], cnt[_ABSURD_OFF]
    return (pkey, pcause, pstart, pnpar, par), -1, -1


@njit(cache=True)
def _on_branch(
    arena,
    index_on,
    first_on,
    end_on,
    absurd_on,
    slot_of,
    nslots,
    cell,
    digit,
    source,
    regions,
    block_of,
    n,
    cell_rule,
    dynamic,
    qon,
    qoff,
    cnt,
):  # type: ignore[no-untyped-def]
    """The slot of the "on" branch of ``cell`` being ``digit``, propagated the first time it is asked
    (by the cell's own chains or a region chain through it), and the grown tables."""
    slot = slot_of[cell * n + digit - 1]
    if slot >= 0:
        return arena, index_on, first_on, end_on, absurd_on, nslots, slot
    if nslots == index_on.shape[0]:
        grown = np.empty((2 * nslots, index_on.shape[1]), dtype=np.int32)
        grown[:nslots] = index_on[:nslots]
        index_on = grown
        first_on = _grown(first_on, 0)
        end_on = _grown(end_on, 0)
        pairs = np.empty((2 * nslots, 2), dtype=np.int64)
        pairs[:nslots] = absurd_on[:nslots]
        absurd_on = pairs
    first_on[nslots] = cnt[_NPOT]
    arena, a0, a1 = _branch(
        arena,
        index_on[nslots],
        cell,
        digit,
        True,
        source,
        regions,
        block_of,
        n,
        cell_rule,
        dynamic,
        qon,
        qoff,
        cnt,
    )
    end_on[nslots] = cnt[_NPOT]
    absurd_on[nslots, 0], absurd_on[nslots, 1] = a0, a1
    slot_of[cell * n + digit - 1] = nslots
    return arena, index_on, first_on, end_on, absurd_on, nslots + 1, nslots


@njit(cache=True)
def _ancestors(pstart, pnpar, par, row, mark, stamp, stack):  # type: ignore[no-untyped-def]
    """How many rows ``row`` rests on, itself included (keys are unique within a propagation)."""
    mark[row] = stamp
    stack[0] = row
    top, count = 1, 0
    while top:
        top -= 1
        r = stack[top]
        count += 1
        for j in range(pstart[r], pstart[r] + pnpar[r]):
            q = par[j]
            if mark[q] != stamp:
                mark[q] = stamp
                stack[top] = q
                top += 1
    return count


@njit(cache=True)
def _set_keys(pkey, first, end, index_of, on, out):  # type: ignore[no-untyped-def]
    """The keys of a propagation's "on" (or "off") set, in the order they were added: their count."""
    m = 0
    for r in range(first, end):
        k = pkey[r]
        if (k & 1) == on and index_of[k] == r:
            out[m] = k
            m += 1
    return m


@njit(cache=True)
def _search(source, regions, block_of, n, nishio, multiple, dynamic):  # type: ignore[no-untyped-def]
    ncells = source.shape[0]
    nkeys = ncells << 6
    cell_rule = not nishio
    contradiction = dynamic or nishio
    cap = 4096
    arena = (
        np.empty(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int32),
        np.empty(4 * cap, dtype=np.int32),
    )
    cnt = np.zeros(9, dtype=np.int64)
    qcap = 2 * ncells * n + 4 * n + 8
    qon = np.empty(qcap, dtype=np.int32)
    qoff = np.empty(qcap, dtype=np.int32)
    # the "on" branches, kept for the call: per candidate its slot; per slot its sets and rows
    slot_of = np.full(ncells * n, -1, dtype=np.int32)
    index_on = np.empty((16, nkeys), dtype=np.int32)
    first_on = np.empty(16, dtype=np.int64)
    end_on = np.empty(16, dtype=np.int64)
    absurd_on = np.empty((16, 2), dtype=np.int64)
    nslots = 0
    index_off = np.empty(nkeys, dtype=np.int32)
    found = np.empty((64, 12), dtype=np.int64)
    refs = np.empty(256, dtype=np.int32)
    counts = np.zeros(3, dtype=np.int64)  # found rows, refs, the ancestor counts' stamp
    mark = np.zeros(cap, dtype=np.int32)
    stack = np.empty(qcap, dtype=np.int32)
    # scratch: keys in common, the branches of a cell or region
    on_keys = np.empty(qcap, dtype=np.int32)
    cell_on = np.empty(qcap, dtype=np.int32)
    cell_off = np.empty(qcap, dtype=np.int32)
    reg_on = np.empty(qcap, dtype=np.int32)
    reg_off = np.empty(qcap, dtype=np.int32)
    cell_slots = np.empty(n, dtype=np.int32)
    reg_slots = np.empty(n, dtype=np.int32)
    places = np.empty(n, dtype=np.int32)
    ends = np.empty(n, dtype=np.int64)
    for cell in range(ncells):
        mask = source[cell]
        count = 0
        for d in range(n):
            count += mask >> d & 1
        if not (count > 2 or (count > 1 and dynamic)):
            continue
        double = count >= 3 and not nishio and dynamic
        ncell_on = ncell_off = 0
        ndigits = 0
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            if not mask & bit:
                continue
            arena, index_on, first_on, end_on, absurd_on, nslots, s = _on_branch(
                arena,
                index_on,
                first_on,
                end_on,
                absurd_on,
                slot_of,
                nslots,
                cell,
                digit,
                source,
                regions,
                block_of,
                n,
                cell_rule,
                dynamic,
                qon,
                qoff,
                cnt,
            )
            index_s = index_on[s]
            cell_slots[ndigits] = s
            ndigits += 1
            arena, b0, b1 = _branch(
                arena,
                index_off,
                cell,
                digit,
                False,
                source,
                regions,
                block_of,
                n,
                cell_rule,
                dynamic,
                qon,
                qoff,
                cnt,
            )
            pkey, pcause, pstart, pnpar, par = arena
            if mark.shape[0] < pkey.shape[0]:
                mark = np.zeros(pkey.shape[0], dtype=np.int32)
            # found rows of this digit, in SE's order: contradiction of "on", of "off", doubles
            rest = mask & ~bit
            for which in range(2):
                if which == 0:
                    r0, r1 = absurd_on[s, 0], absurd_on[s, 1]
                    if not contradiction or r0 < 0:
                        continue
                    rcell, rmask, vcell, value = cell, bit, -1, 0
                else:
                    r0, r1 = b0, b1
                    if not contradiction or r0 < 0 or not rest:
                        continue
                    rcell, rmask, vcell, value = cell, rest, cell, digit
                ends[0], ends[1] = r0, r1
                found, refs = _emit(
                    found,
                    refs,
                    counts,
                    ABSURD,
                    7,
                    rcell,
                    rmask,
                    vcell,
                    value,
                    -1,
                    cell,
                    digit,
                    ends,
                    2,
                    pstart,
                    pnpar,
                    par,
                    mark,
                    stack,
                )
            if double:
                for on in (1, 0):
                    m = _set_keys(pkey, first_on[s], end_on[s], index_s, on, on_keys)
                    for j in range(m):
                        k = on_keys[j]
                        row = index_off[k]
                        if row < 0:
                            continue
                        rcell, rmask, vcell, value = _reached(source, k)
                        if rmask:
                            ends[0], ends[1] = index_s[k], row
                            found, refs = _emit(
                                found,
                                refs,
                                counts,
                                DOUBLE,
                                1,
                                rcell,
                                rmask,
                                vcell,
                                value,
                                -1,
                                cell,
                                digit,
                                ends,
                                2,
                                pstart,
                                pnpar,
                                par,
                                mark,
                                stack,
                            )
            # region chains from this cell (each region from its first place of the digit)
            if not nishio:
                for t in range(3):
                    nplaces = 0
                    for i in range(n):
                        c = regions[cell, t, i]
                        if source[c] & bit:
                            places[nplaces] = c
                            nplaces += 1
                    if not (nplaces == 2 or (multiple and nplaces > 2)) or places[0] != cell:
                        continue
                    for i in range(nplaces):
                        arena, index_on, first_on, end_on, absurd_on, nslots, reg_slots[i] = _on_branch(
                            arena,
                            index_on,
                            first_on,
                            end_on,
                            absurd_on,
                            slot_of,
                            nslots,
                            places[i],
                            digit,
                            source,
                            regions,
                            block_of,
                            n,
                            cell_rule,
                            dynamic,
                            qon,
                            qoff,
                            cnt,
                        )
                    index_s = index_on[s]
                    pkey, pcause, pstart, pnpar, par = arena
                    if mark.shape[0] < pkey.shape[0]:
                        mark = np.zeros(pkey.shape[0], dtype=np.int32)
                    nro = _set_keys(pkey, first_on[s], end_on[s], index_s, 1, reg_on)
                    nrf = _set_keys(pkey, first_on[s], end_on[s], index_s, 0, reg_off)
                    for i in range(1, nplaces):
                        nro = _keep(reg_on, nro, index_on[reg_slots[i]])
                        nrf = _keep(reg_off, nrf, index_on[reg_slots[i]])
                    for on in (1, 0):
                        keys = reg_on if on else reg_off
                        for j in range(nro if on else nrf):
                            k = keys[j]
                            rcell, rmask, vcell, value = _reached(source, k)
                            if not rmask:
                                continue
                            for i in range(nplaces):
                                ends[i] = index_on[reg_slots[i], k]
                            found, refs = _emit(
                                found,
                                refs,
                                counts,
                                REGION,
                                6,
                                rcell,
                                rmask,
                                vcell,
                                value,
                                t,
                                cell,
                                digit,
                                ends,
                                nplaces,
                                pstart,
                                pnpar,
                                par,
                                mark,
                                stack,
                            )
            if ndigits == 1:
                ncell_on = _set_keys(pkey, first_on[s], end_on[s], index_s, 1, cell_on)
                ncell_off = _set_keys(pkey, first_on[s], end_on[s], index_s, 0, cell_off)
            else:
                ncell_on = _keep(cell_on, ncell_on, index_s)
                ncell_off = _keep(cell_off, ncell_off, index_s)
        if not nishio and (count == 2 or (multiple and count > 2)):
            pkey, pcause, pstart, pnpar, par = arena
            for on in (1, 0):
                keys = cell_on if on else cell_off
                for j in range(ncell_on if on else ncell_off):
                    k = keys[j]
                    rcell, rmask, vcell, value = _reached(source, k)
                    if not rmask:
                        continue
                    for i in range(ndigits):
                        ends[i] = index_on[cell_slots[i], k]
                    found, refs = _emit(
                        found,
                        refs,
                        counts,
                        CELL,
                        5,
                        rcell,
                        rmask,
                        vcell,
                        value,
                        -1,
                        cell,
                        0,
                        ends,
                        ndigits,
                        pstart,
                        pnpar,
                        par,
                        mark,
                        stack,
                    )
    pkey, pcause, pstart, pnpar, par = arena
    npot = cnt[_NPOT]
    return (
        found[: counts[0]],
        refs[: counts[1]],
        pkey[:npot],
        pcause[:npot],
        pstart[:npot],
        pnpar[:npot],
        par[: cnt[_NPAR]],
    )


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
def _keep(keys, m, index_of):  # type: ignore[no-untyped-def]
    """The first ``m`` keys that ``index_of`` also holds, kept in order: their count."""
    kept = 0
    for j in range(m):
        if index_of[keys[j]] >= 0:
            keys[kept] = keys[j]
            kept += 1
    return kept


@njit(cache=True)
def _emit(
    found,
    refs,
    counts,
    kind,
    sort_key,
    rcell,
    rmask,
    vcell,
    value,
    where_type,
    where,
    digit,
    ends,
    nends,
    pstart,
    pnpar,
    par,
    mark,
    stack,
):  # type: ignore[no-untyped-def]
    """A found row, with the rows its chains end in and their ancestor counts (``counts``: rows and refs
    so far, the marking stamp); the tables, grown if they had to."""
    nfound, nrefs = counts[0], counts[1]
    if nfound == found.shape[0]:
        more = np.empty((2 * nfound, found.shape[1]), dtype=np.int64)
        more[:nfound] = found[:nfound]
        found = more
    if nrefs + nends > refs.shape[0]:
        refs = _grown(refs, nrefs + nends)
    flat = 0
    for i in range(nends):
        counts[2] += 1
        flat += _ancestors(pstart, pnpar, par, ends[i], mark, counts[2], stack)
        refs[nrefs + i] = ends[i]
    row = found[nfound]
    row[KIND], row[SORT_KEY], row[REMOVE_CELL], row[REMOVE_MASK] = kind, sort_key, rcell, rmask
    row[VALUE_CELL], row[VALUE], row[WHERE_TYPE], row[WHERE], row[DIGIT] = (
        vcell,
        value,
        where_type,
        where,
        digit,
    )
    row[FLAT], row[FIRST], row[COUNT] = flat, nrefs, nends
    counts[0], counts[1] = nfound + 1, nrefs + nends
    return found, refs


def search(
    source: np.ndarray,
    regions: np.ndarray,
    block_of: np.ndarray,
    n: int,
    nishio: bool,
    multiple: bool,
    dynamic: bool,
) -> tuple[np.ndarray, ...]:
    """What one call of a level-0 producer finds on ``source``: found rows (columns ``KIND`` ... ``COUNT``),
    the rows they end in, and the arena (key, cause, parents' start and count, parents)."""
    return _search(source, regions, block_of, n, nishio, multiple, dynamic)
