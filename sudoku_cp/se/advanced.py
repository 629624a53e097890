"""The first inner techniques of SE's nested chains, compiled: pointing and claiming, hidden and naked
pairs and X-wings run on a stalled propagation, their strikes added to it as "off" potentials.

Each time the propagation of a nested level (``propagation.Store``) stalls, Sudoku Explainer runs its inner
techniques in order on the grid as the propagation has reduced it (``Chaining.getAdvancedPotentials``):
the first one that finds a hint resting on the assumption gives every strike of its hints, each an "off"
whose parents are the strikes since the grid it started from that the hint needs (``getRuleParents``).
Here those four techniques and their parents are one kernel call per stall, in SE's order (the searches
of ``set_kernels``; the parents as ``Hint.parents`` reads them), instead of hint objects made per stall:
levels 1 to 3 meet hundreds of stalls a grid. The chaining techniques of the higher levels stay in
``chaining``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .grid import COLUMN, ROW
from .propagation import ABSURD_OFF, ABSURD_ON, NPAR, NPOT, OFF_TAIL, STATUS, Store, propagate, target_room
from .set_kernels import PASSES, fish_rows_at, hidden_rows_at, locked_rows_at, naked_rows, tables

__all__ = ["ADDED", "NOTHING", "NOTHING_NEW", "TECHNIQUES", "run_inner", "settle"]

#: The inner techniques compiled here, SE's first four of every nested level, in its order.
TECHNIQUES = (("locking",), ("hidden", 2), ("naked", 2), ("fish", 2))
#: What a stall's inner techniques did: strikes added, strikes found that were all known, none found.
ADDED, NOTHING_NEW, NOTHING = range(3)
_GROW = -1
#: How ``_settle`` ended besides its inner techniques' outcome: a contradiction, or out of room.
_ABSURD, _GROW_ROWS = -2, -3


@njit(cache=True, inline="always")
def _strike(strikes, m, cell, mask, hint, n):  # type: ignore[no-untyped-def]
    """The digits of ``mask`` in ``cell`` as strikes of ``hint`` from row ``m`` of ``strikes``: the count
    after them."""
    for d in range(1, n + 1):
        if mask >> (d - 1) & 1:
            strikes[m, 0], strikes[m, 1], strikes[m, 2] = cell, d, hint
            m += 1
    return m


@njit(cache=True, inline="always")
def _rest_on(par, npar, cell, mask, n):  # type: ignore[no-untyped-def]
    """The "off" keys of the digits of ``mask`` in ``cell`` as parents from ``par[npar]``: the count after
    them."""
    for d in range(1, n + 1):
        if mask >> (d - 1) & 1:
            par[npar] = cell << 6 | d << 1
            npar += 1
    return npar


@njit(cache=True)
def _hints(technique, cands, source, pos, values, cells, inside, n):  # type: ignore[no-untyped-def]
    """The strikes of one technique's hints that rest on some strike since ``source``, in SE's order:
    ``strikes`` (rows: cell, digit, hint), and per hint ``h`` its parents' keys, ``pcount[h]`` of them
    from ``par[pstart[h]]``."""
    if technique == 0:
        rows = locked_rows_at(pos, cells, inside, n, False)
    elif technique == 1:
        rows = hidden_rows_at(cands, values, pos, cells, n, 2, False)
    elif technique == 2:
        rows = naked_rows(cands, values, cells, n, 2)
    else:
        rows = fish_rows_at(cands, values, pos, cells, n, 2)
    most = rows.shape[0] * 2 * n  # what one hint strikes, or rests on, at most
    strikes = np.empty((most, 3), dtype=np.int64)
    par = np.empty(most, dtype=np.int64)
    pstart = np.empty(rows.shape[0], dtype=np.int64)
    pcount = np.empty(rows.shape[0], dtype=np.int64)
    m = 0
    npar = 0
    h = 0
    for r in range(rows.shape[0]):
        start = npar
        first = m
        if technique == 0:  # pointing, claiming: the digit off the cover region outside the base region
            t1, t2 = PASSES[rows[r, 0], 0], PASSES[rows[r, 0], 1]
            i1, i2, bit = rows[r, 1], rows[r, 2], 1 << (rows[r, 3] - 1)
            out, within = inside[t2, i2, t1, i1], inside[t1, i1, t2, i2]
            for j in range(n):
                if not out >> j & 1:
                    m = _strike(strikes, m, cells[t2, i2, j], cands[cells[t2, i2, j]] & bit, h, n)
                if not within >> j & 1:
                    c = cells[t1, i1, j]
                    npar = _rest_on(par, npar, c, source[c] & ~cands[c] & bit, n)
        elif technique == 1:  # hidden pair: its cells lose their other digits
            t, index, union, digits = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
            for j in range(n):
                c = cells[t, index, j]
                if union >> j & 1:
                    m = _strike(strikes, m, c, cands[c] & ~digits, h, n)
            for j in range(n):
                c = cells[t, index, j]
                if not cands[c] & digits:
                    npar = _rest_on(par, npar, c, source[c] & digits, n)
        elif technique == 2:  # naked pair: the region's other cells lose its digits
            t, index, chosen, union = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
            for j in range(n):
                c = cells[t, index, j]
                if not chosen >> j & 1:
                    m = _strike(strikes, m, c, cands[c] & union, h, n)
            for j in range(n):
                c = cells[t, index, j]
                if chosen >> j & 1:
                    npar = _rest_on(par, npar, c, source[c] & ~cands[c] & ~union, n)
        else:  # X-wing: the cover lines lose the digit outside the base lines
            base_t, bases, covers, bit = rows[r, 0], rows[r, 1], rows[r, 3], 1 << (rows[r, 2] - 1)
            cover_t = ROW if base_t == COLUMN else COLUMN
            for ci in range(n):
                if covers >> ci & 1:
                    for j in range(n):
                        if not bases >> j & 1:
                            c = cells[cover_t, ci, j]
                            m = _strike(strikes, m, c, cands[c] & bit, h, n)
            for bi in range(n):
                if bases >> bi & 1:
                    for j in range(n):
                        if not covers >> j & 1:
                            c = cells[base_t, bi, j]
                            npar = _rest_on(par, npar, c, source[c] & ~cands[c] & bit, n)
        if npar == start:
            m = first  # it holds without the assumption: no use inside the chain
        else:
            pstart[h], pcount[h] = start, npar - start
            h += 1
    return strikes[:m], par, pstart, pcount


@njit(cache=True)
def _run(
    cands,
    source,
    places,
    values,
    cells,
    inside,
    n,
    skip,
    cause,
    index_of,
    pkey,
    pcause,
    pstart,
    pnpar,
    par,
    qoff,
    cnt,
):  # type: ignore[no-untyped-def]
    """The first technique from ``skip`` on that finds strikes resting on the assumption, its strikes
    added to the store's arrays as "off" potentials (each key once): ADDED, NOTHING_NEW or NOTHING; or
    _GROW (nothing changed) when the arrays have too little room for them."""
    pos = places.reshape((3, n, n))  # the propagation's regions' places: the digits' positions
    for technique in range(skip, 4):
        strikes, keys, kstart, kcount = _hints(technique, cands, source, pos, values, cells, inside, n)
        m = strikes.shape[0]
        if m == 0:
            continue
        need = 0
        for i in range(m):
            need += kcount[strikes[i, 2]]
        if cnt[NPOT] + m > pkey.shape[0] or cnt[NPAR] + need > par.shape[0]:
            return _GROW
        added = False
        for i in range(m):
            k = strikes[i, 0] << 6 | strikes[i, 1] << 1
            if index_of[k] >= 0:
                continue
            h = strikes[i, 2]
            q = cnt[NPOT]
            start = cnt[NPAR]
            pkey[q], pcause[q], pstart[q], pnpar[q] = k, cause, start, kcount[h]
            for j in range(kcount[h]):
                par[start + j] = index_of[keys[kstart[h] + j]]
            cnt[NPOT] = q + 1
            cnt[NPAR] = start + kcount[h]
            index_of[k] = q
            qoff[cnt[OFF_TAIL]] = q
            cnt[OFF_TAIL] += 1
            added = True
        return ADDED if added else NOTHING_NEW
    return NOTHING


def run_inner(store: Store, values: np.ndarray, skip: int, cause: int) -> int:
    """SE's first four inner techniques (``TECHNIQUES``, from the ``skip``-th) on the grid as ``store`` (a
    dynamic propagation, stalled: its places are its candidates') has reduced it, the first productive
    one's strikes added to it with ``cause``: ADDED, NOTHING_NEW (its strikes were all known) or NOTHING
    (none found). ``values`` are the grid's values (the searches count a region's empty cells on them, not
    on the propagation's placements, as SE does). One stall's worth: the nested levels call ``settle``,
    which the tests hold to this and ``Store.run`` in turn, and this to the hint producers."""
    geo = store.geo
    cells, inside = tables(geo.box_rows, geo.box_cols)
    store.own()
    while True:
        outcome = _run(
            store.cands, store.source, store.places, values, cells, inside, geo.n, skip, cause,
            store.index_of, store.pkey, store.pcause, store.pstart, store.pnpar, store.par, store.qoff,
            store.cnt,
        )  # fmt: skip
        if outcome != _GROW:
            return int(outcome)
        store.grow(2 * geo.ncells * geo.n)


@njit(cache=True)
def _settle(  # type: ignore[no-untyped-def]
    cands, source, places, values, cells, inside, regions, where, n, cell_rule, skip, cause,
    index_of, pkey, pcause, pstart, pnpar, par, qon, qoff, cnt, tk, tc,
):  # fmt: skip
    """Propagate, and at each stall run the four inner techniques (the first time from ``skip``), until
    they add nothing: their outcome (NOTHING_NEW or NOTHING), _ABSURD (the contradiction's rows in
    ``cnt``), or _GROW_ROWS / _GROW when the arrays need more room; with the ``skip`` to call again with."""
    while True:
        propagate(cands, places, source, regions, where, n, cell_rule, True, pkey, pcause, pstart, pnpar,
                  par, index_of, qon, qoff, cnt, tk, tc)  # fmt: skip
        if cnt[STATUS] == 2:
            return _GROW_ROWS, skip
        if cnt[STATUS] == 1:
            return _ABSURD, skip
        outcome = _run(cands, source, places, values, cells, inside, n, skip, cause, index_of, pkey, pcause,
                       pstart, pnpar, par, qoff, cnt)  # fmt: skip
        if outcome != ADDED:
            return outcome, skip  # (_GROW: nothing changed, the same skip again)
        skip = 0


def settle(store: Store, values: np.ndarray, skip: int, cause: int) -> tuple[tuple[int, int] | None, int]:
    """``store`` (dynamic) propagated, with SE's first four inner techniques (the first time from the
    ``skip``-th) run at each stall and their strikes added with ``cause``, until they add nothing: the
    contradiction met (its "on" and "off" rows) or None, and how the inner techniques ended (NOTHING_NEW,
    NOTHING; NOTHING with a contradiction). What ``Store.run`` and ``run_inner`` do in turn, in one call
    (a nested level's propagations stall a few times each)."""
    geo = store.geo
    cells, inside = tables(geo.box_rows, geo.box_cols)
    store.own()
    while True:
        outcome, skip = _settle(
            store.cands, store.source, store.places, values, cells, inside, store.regions, store.where, geo.n,
            store.cell_rule, skip, cause, store.index_of, store.pkey, store.pcause, store.pstart, store.pnpar,
            store.par, store.qon, store.qoff, store.cnt, *target_room(geo.n),
        )  # fmt: skip
        if outcome == _GROW_ROWS:
            store.grow(0)
        elif outcome == _GROW:
            store.grow(2 * geo.ncells * geo.n)
        else:
            break
    store.forget_keys()
    if outcome == _ABSURD:
        return (int(store.cnt[ABSURD_ON]), int(store.cnt[ABSURD_OFF])), NOTHING
    return None, int(outcome)
