"""Unit propagation and the cell and region forcing nets, compiled with numba: the nets propagate every
open candidate at most states of a hard puzzle, and in Python, one solver call and one set a candidate,
they were a quarter of the walk.

The propagation runs on the probe's formula (``probe``: the clauses the SAT solver holds) from the
fixpoint of its facts, as the solver's ``propagate`` does; where that meets no conflict, what it assigns
is the fixpoint of the formula with the assumption, whatever the order of the propagation, so the nets
read the same literals as from the solver. (Where it meets a conflict, what was assigned by then depends
on the order: the contradiction nets, which count it, ask the solver.)

Literals are stored at ``lit + nv`` (``nv`` the variable count); a value is 1 true, -1 false, 0 open.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..backends.dfs_kernels import _popcount
from ..signals import compiling

__all__ = ["PAUSED", "fails_once_nested", "fix", "forcing", "formula", "propagate", "single", "warm_up"]

#: What ``forcing`` writes in ``found[0]`` (and ``_net`` returns) when its work is spent before an answer.
PAUSED = -2


@njit(cache=True)
def formula(lits, ends, nv):
    """The clauses (``lits`` end to end, clause k ending at ``ends[k]``) with each literal once, and for
    each literal the clauses holding it: (lits, starts, occurrence starts, occurrences)."""
    nclauses = ends.shape[0]
    starts = np.zeros(nclauses + 1, np.int64)
    kept = np.zeros(lits.shape[0], np.int64)
    count = np.zeros(2 * nv + 2, np.int64)
    size = 0
    begin = 0
    for k in range(nclauses):
        for t in range(begin, ends[k]):
            lit = lits[t]
            seen = False
            for u in range(starts[k], size):
                seen = seen or kept[u] == lit
            if not seen:
                kept[size] = lit
                size += 1
                count[lit + nv + 1] += 1
        starts[k + 1] = size
        begin = ends[k]
    occ_starts = np.cumsum(count)
    fill = occ_starts.copy()
    occ = np.zeros(size, np.int64)
    for k in range(nclauses):
        for t in range(starts[k], starts[k + 1]):
            at = kept[t] + nv
            occ[fill[at]] = k
            fill[at] += 1
    return kept[:size].copy(), starts, occ_starts, occ


@njit(cache=True)
def _propagate(value, lits, starts, occ_starts, occ, nv, trail, head, size):
    """Unit propagation of the literals ``trail[head:size]`` (already assigned): the trail's new size, and
    whether it met no conflict (then no clause is false; else propagation stopped there)."""
    while head < size:
        lit = trail[head]
        head += 1
        at = nv - lit  # the clauses holding -lit, which it made false there
        for j in range(occ_starts[at], occ_starts[at + 1]):
            k = occ[j]
            open_lits = 0
            last = 0
            satisfied = False
            for t in range(starts[k], starts[k + 1]):
                other = lits[t]
                v = value[abs(other)]
                if v == 0:
                    open_lits += 1
                    last = other
                elif (v > 0) == (other > 0):
                    satisfied = True
                    break
            if satisfied:
                continue
            if open_lits == 0:
                return size, False
            if open_lits == 1:
                size = _assign(value, last, trail, size)
    return size, True


@njit(cache=True)
def _assign(value, lit, trail, size):
    """Make ``lit`` true, at the end of the trail: the trail's new size; the same if it is true already,
    -1 if it is false."""
    v = value[abs(lit)]
    if v != 0:
        return size if (v > 0) == (lit > 0) else -1
    value[abs(lit)] = 1 if lit > 0 else -1
    trail[size] = lit
    return size + 1


@njit(cache=True)
def fix(value, lits, starts, occ_starts, occ, nv, facts, trail):
    """Assign the literals ``facts`` for good and propagate them: whether no conflict arose."""
    size = 0
    for lit in facts:
        size = _assign(value, lit, trail, size)
        if size < 0:
            return False
    size, ok = _propagate(value, lits, starts, occ_starts, occ, nv, trail, 0, size)
    return ok


@njit(cache=True)
def propagate(value, lits, starts, occ_starts, occ, nv, assumptions, trail):
    """Unit propagation from the facts under ``assumptions``, each assigned in turn (skipped if true
    already) and propagated: the count of literals assigned into ``trail`` by the end or the conflict, and
    whether none arose. The values are left as they were."""
    size, good = _assume(value, lits, starts, occ_starts, occ, nv, assumptions, trail)
    for t in range(size):
        value[abs(trail[t])] = 0
    return size, good


@njit(cache=True)
def _assume(value, lits, starts, occ_starts, occ, nv, assumptions, trail):
    """``propagate`` without undoing it: the literals stay assigned, on the trail from its start."""
    size = 0
    good = True
    for lit in assumptions:
        grown = _assign(value, lit, trail, size)
        if grown < 0:
            return size, False
        size, good = _propagate(value, lits, starts, occ_starts, occ, nv, trail, size, grown)
        if not good:
            break
    return size, good


@njit(cache=True)
def fails_once_nested(assumptions, candidates, value, lits, starts, occ_starts, occ, nv, trail, kept):
    """``forcing._fails`` at level 1, the contradiction net nested once: 0 when ``assumptions`` and every
    candidate whose net meets a contradiction under them, struck in turn until none is left, propagate
    without one, else the size it counts. Incremental where the Python version propagates each trial from
    the facts: the assumptions and the strikes so far are propagated once and kept at the trail's start,
    and each candidate is tried on top (unit propagation is breadth first in a fixed order, so the trail,
    and the point where a conflict stops it, are those of propagating everything from the facts).

    A candidate that a trial without conflict made true is not tried in that state: what it propagates is
    part of what that trial propagated, so it meets no conflict either (the skip of failed literal probing;
    Lynce and Marques-Silva, *Probing-based preprocessing techniques for propositional satisfiability*,
    ICTAI 2003). ``held[var] == epoch`` marks them; a strike starts a new epoch. Without a contradiction,
    ``kept[0]`` is the size of the final state's trail (``trail[:kept[0]]``: the assumptions and the
    strikes, propagated), else 0."""
    size, good = _assume(value, lits, starts, occ_starts, occ, nv, assumptions, trail)
    result = 0
    if not good:
        result = max(1, size)
    else:
        total = size
        held = np.zeros(nv + 1, np.int64)
        epoch = 1
        changed = True
        while changed and result == 0:
            changed = False
            for i in range(candidates.shape[0]):
                var = candidates[i]
                if value[var] != 0 or held[var] == epoch:  # assigned, or known to hold: nothing to try
                    continue
                value[var] = 1
                trail[size] = var
                end, ok = _propagate(value, lits, starts, occ_starts, occ, nv, trail, size, size + 1)
                for t in range(size, end):
                    lit = trail[t]
                    value[abs(lit)] = 0
                    if ok and lit > 0:
                        held[lit] = epoch
                if ok:
                    continue
                epoch += 1
                total += max(1, end)
                value[var] = -1
                trail[size] = -var
                end, ok = _propagate(value, lits, starts, occ_starts, occ, nv, trail, size, size + 1)
                size = end
                if not ok:
                    result = total + size
                    break
                changed = True
    kept[0] = size if result == 0 else 0
    for t in range(size):
        value[abs(trail[t])] = 0
    return result


@njit(cache=True)
def single(var, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count, gone):
    """``propagate([var])`` as (no conflict, literals assigned), once a state (see ``_single``)."""
    _single(var, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count, gone)
    return ok[var], count[var]


@njit(cache=True)
def _single(var, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count, gone):
    """Propagate ``var`` (once a state: ``done``): ``ok[var]``, ``count[var]`` (literals assigned, as the
    solver counts them) and ``gone[var]`` (the primary variables it makes false, a bit set in words: a row
    for each primary variable and 0)."""
    if done[var]:
        return
    done[var] = True
    v = value[var]
    if v != 0:  # decided by the facts: true propagates nothing, false contradicts
        ok[var] = v > 0
        return
    value[var] = 1
    trail[0] = var
    size, good = _propagate(value, lits, starts, occ_starts, occ, nv, trail, 0, 1)
    ok[var] = good
    count[var] = size
    primary = gone.shape[0] - 1
    for t in range(size):
        lit = trail[t]
        value[abs(lit)] = 0
        if good and lit < 0 and -lit <= primary:
            gone[var, -lit >> 6] |= np.uint64(1) << np.uint64(-lit & 63)


@njit(cache=True)
def _net(options, noptions, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count, gone, common,
         work):  # fmt: skip
    """What every option of ``options[:noptions]`` eliminates into ``common`` (a bit set in words), and the
    nets' size; -1 if an option contradicts or nothing is common, ``PAUSED`` if an option is still to be
    propagated and ``work[0]`` (the literals new propagations may still assign) is spent."""
    common[:] = ~np.uint64(0)
    size = 0
    for k in range(noptions):
        var = options[k]
        if not done[var]:
            if work[0] <= 0:
                return PAUSED
            _single(var, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count, gone)
            work[0] -= count[var] + 1
        if not ok[var]:
            return -1
        size += count[var]
        anything = False
        for w in range(common.shape[0]):
            common[w] &= gone[var, w]
            anything = anything or common[w] != 0
        if not anything:
            return -1
    return size


@njit(cache=True)
def forcing(masks, n, house_ptr, houses, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count,
            gone, found, eliminated, work):  # fmt: skip
    """The first cell forcing net (cells with fewer candidates first, then in order), else the first region
    forcing net (houses in order, digits in order, two places or more): ``found`` = 1 for a cell, 2 for a
    region, 0 for none; then the cell or house, the digit (regions), the nets' size and the count of the
    variables eliminated, written to ``eliminated`` (increasing). The state's propagations are kept in
    ``done``, ``ok``, ``count`` and ``gone`` (indexed by variable) for the next call, so a call that has
    spent ``work[0]`` (literals its new propagations may assign) stops with ``found[0] = PAUSED``, and the
    next call on the same state goes on where it stopped: the nets before it are found wanting again from
    what is kept."""
    ncells = masks.shape[0]
    common = np.zeros(gone.shape[1], np.uint64)
    options = np.zeros(n, np.int64)
    found[0] = 0
    for width in range(1, n + 1):
        for cell in range(ncells):
            mask = masks[cell]
            if mask == 0 or _popcount(mask) != width:
                continue
            k = 0
            for d in range(n):
                if mask >> d & 1:
                    options[k] = cell * n + d + 1
                    k += 1
            size = _net(options, k, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count, gone,
                        common, work)  # fmt: skip
            if size == PAUSED:
                found[0] = PAUSED
                return 0
            if size >= 0:
                found[0], found[1], found[2] = 1, cell, 0
                return _write(found, size, common, eliminated)
    for h in range(house_ptr.shape[0] - 1):
        for d in range(n):
            k = 0
            for t in range(house_ptr[h], house_ptr[h + 1]):
                cell = houses[t]
                if masks[cell] >> d & 1:
                    options[k] = cell * n + d + 1
                    k += 1
            if k < 2:
                continue
            size = _net(options, k, value, lits, starts, occ_starts, occ, nv, trail, done, ok, count, gone,
                        common, work)  # fmt: skip
            if size == PAUSED:
                found[0] = PAUSED
                return 0
            if size >= 0:
                found[0], found[1], found[2] = 2, h, d + 1
                return _write(found, size, common, eliminated)
    return 0


@njit(cache=True)
def _write(found, size, common, eliminated):
    found[3] = size
    count = 0
    for w in range(common.shape[0]):
        for b in range(64):
            if common[w] >> np.uint64(b) & np.uint64(1):
                eliminated[count] = w * 64 + b
                count += 1
    found[4] = count
    return found[0]


def warm_up() -> None:
    """Compile the propagation and the nets, or load them from numba's cache (10 s the first time on a
    machine), with Ctrl-C held, on the types of the real calls."""
    with compiling("the forcing nets", 10):
        lits, ends = np.array([1, 2, -1, -2], np.int64), np.array([2, 4], np.int64)
        clauses = formula(lits, ends, 2)
        value, trail = np.zeros(3, np.int8), np.zeros(3, np.int64)
        fix(value, *clauses, 2, np.zeros(0, np.int64), trail)
        propagate(value, *clauses, 2, np.zeros(1, np.int64), trail)
        found, gone = np.zeros(5, np.int64), np.zeros((3, 1), np.uint64)
        done, ok, count = np.zeros(3, np.bool_), np.zeros(3, np.bool_), np.zeros(3, np.int64)
        empty = np.zeros(1, np.int64)
        masks, eliminated = np.zeros(1, np.int64), np.zeros(2, np.int64)
        work = np.ones(1, np.int64)
        args = (masks, 2, empty, empty, value, *clauses, 2, trail, done, ok, count, gone, found, eliminated)
        forcing(*args, work)
        single(1, value, *clauses, 2, trail, done, ok, count, gone)
        one = np.ones(1, np.int64)
        fails_once_nested(one, one, value, *clauses, 2, trail, np.zeros(1, np.int64))
