"""The kernels of the compiled ``dfs`` search (numba nopython functions): propagation, the branching
heuristics and the searches; ``dfs_compiled`` drives them.

They run without numba's reference counting (``_nrt=False``; the batch entry point, which allocates the
search's arrays, keeps it): they allocate nothing and write into arrays their callers own, and the counts
of the slices they take and pass, atomic increments and decrements, were a third of a killer's search
(perf: 32-38% of the samples in ``NRT_incref``/``NRT_decref`` on TAREK #37 and #38 and Wecoc #2; the same
trees 1.3 to 1.5 times faster without). So no slice is assigned to (``a[:] = b`` makes a temporary): loops
do. The entry points ``_start``, ``_run`` and ``_solve_batch`` are what ``dfs_aot`` compiles ahead of
time; with ``cache=True`` numba's JIT keeps its own machine code of them where that is not possible.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..rules.sums import FEW_OPEN
from .batch_result import EXHAUSTED, LIMIT_REACHED, OUT_OF_NODES
from .dfs_compiled import (
    _AUTOMATON,
    _BACKTRACKS,
    _BUFFER_FULL,
    _CAGE,
    _CONFLICTS,
    _COUNT,
    _DECAY_EVERY,
    _DECIDE,
    _DONE,
    _EXPAND,
    _FINAL,
    _FIRST,
    _GUESSES,
    _IDLE,
    _LEVEL,
    _MAX_NODES,
    _MRV,
    _NCTR,
    _NEXT,
    _NODES,
    _NOUT,
    _PAIR,
    _PENDING,
    _PLACEMENT_START,
    _SANDWICH,
    _SELF_WOKEN,
    _SKYSCRAPER,
    _STATE,
    _THERMO,
    _WDEG,
    CLOCK,
)
from .dfs_reference import OWN_WEIGHT
from .dfs_rules import MATCHED_CELLS

if CLOCK is not None:
    _clock_gettime = types.ExternalFunction("clock_gettime", types.int32(types.int32, types.voidptr))
    _CLOCK_ID = CLOCK

    @njit(_nrt=False, cache=True)
    def _now_ns(timespec):
        """Nanoseconds on the monotonic clock; ``timespec`` holds two int64 (seconds, nanoseconds)."""
        _clock_gettime(_CLOCK_ID, timespec.ctypes)
        return timespec[0] * 1_000_000_000 + timespec[1]

else:  # pragma: no cover - platforms without clock_gettime

    @njit(_nrt=False, cache=True)
    def _now_ns(timespec):
        return 0


@njit(_nrt=False, cache=True, inline="always")
def _popcount(x: int) -> int:
    """Bits set in a mask below 2**64, by the 32-bit SWAR sum on each half (no overflow in int64)."""
    total = 0
    while x != 0:
        v = x & 0xFFFFFFFF
        v = v - ((v >> 1) & 0x55555555)
        v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
        v = (v + (v >> 4)) & 0x0F0F0F0F
        total += ((v * 0x01010101) & 0xFFFFFFFF) >> 24
        x >>= 32
    return total


@njit(_nrt=False, cache=True, inline="always")
def _highest(mask: int) -> int:
    """The largest digit of a mask (its bit length, one count of leading zeros), 0 for none."""
    return 64 - leading_zeros(np.int64(mask)) if mask != 0 else 0


@njit(_nrt=False, cache=True, inline="always")
def _lowest(mask: int) -> int:
    """The smallest digit of a nonzero mask (one count of trailing zeros)."""
    return trailing_zeros(np.int64(mask)) + 1


@njit(_nrt=False, cache=True, inline="always")
def _narrow(cands, cell, narrowed, changed, nch):
    """Write ``narrowed`` (a nonzero strict subset) into ``cell`` and note it in ``changed``."""
    cands[cell] = narrowed
    changed[nch] = cell * 2 + (1 if narrowed & (narrowed - 1) == 0 else 0)
    return nch + 1


@njit(_nrt=False, cache=True)
def _pair_rule(cands, cells, table, data, changed):
    """Arc consistency of a pair: each cell keeps the digits some digit of the other allows. ``table``:
    where in ``data`` the supports of each side's candidates start, and the width w of their chunks: a
    mask's supports are those of its w-bit chunks ORed, one lookup a chunk (two on 9x9, where a loop over
    the digits took up to nine; the JS solver's binary constraints read a mask's supports at once)."""
    nch = 0
    width = table[2]
    low = (np.int64(1) << width) - 1
    for side in range(2):
        here = cells[side]
        there = cells[1 - side]
        at = table[side]
        mask = cands[here]
        reach = 0
        while mask != 0:
            reach |= data[at + (mask & low)]
            mask >>= width
            at += low + 1
        narrowed = cands[there] & reach
        if narrowed != cands[there]:
            if narrowed == 0:
                return -1
            nch = _narrow(cands, there, narrowed, changed, nch)
    return nch


@njit(_nrt=False, cache=True)
def _thermo_rule(cands, cells, n, full, changed):
    """Bounds along a thermometer: above the smallest digit below, below the largest digit above."""
    nch = 0
    floor = 0
    for i in range(cells.shape[0]):
        cell = cells[i]
        narrowed = cands[cell] & full & ~((np.int64(1) << floor) - 1)
        if narrowed == 0:
            return -1
        if narrowed != cands[cell]:
            nch = _narrow(cands, cell, narrowed, changed, nch)
        floor = _lowest(narrowed)
    ceiling = n + 1
    for i in range(cells.shape[0] - 1, -1, -1):
        cell = cells[i]
        narrowed = cands[cell] & ((np.int64(1) << (ceiling - 1)) - 1)
        if narrowed == 0:
            return -1
        if narrowed != cands[cell]:
            nch = _narrow(cands, cell, narrowed, changed, nch)
        ceiling = _highest(narrowed)
    return nch


@njit(_nrt=False, cache=True)
def _cage_rule(cands, cells, table, changed, peer_bits, full, scratch, placements):
    """A cage's digit sets (``table``: the rest of a house that holds it, counted, then the sets): each
    cell keeps the digits of the sets that still fit the cage and leave the rest of the house its other
    digits (with at most ``MATCHED_CELLS`` open cells, those it holds in a placement of the set:
    ``_placed``), the rest keeps what they leave it, and a digit in every set that fits goes to the one
    cell that can hold it, or leaves the cells outside the cage that see every cell that can
    (``dfs_rules._cage``). ``scratch``: row 0 what each cell keeps, row 3 ``_placed``'s."""
    nrest = table[0]
    rest = table[1 : 1 + nrest]
    sets = table[1 + nrest :]
    m = cells.shape[0]
    keep = scratch[0]
    union = 0
    placed = 0
    nopen = 0
    for i in range(m):
        c = cands[cells[i]]
        union |= c
        keep[i] = 0
        if c & (c - 1) == 0:
            placed |= c
        else:
            nopen += 1
    exact = nopen <= MATCHED_CELLS
    others = 0
    for k in range(nrest):
        others |= cands[rest[k]]
    fits = 0
    left = 0
    required = np.int64(-1)
    for s in sets:
        if s & union == s and (nrest == 0 or full & ~s & ~others == 0):
            every = True
            for cell in cells:
                if cands[cell] & s == 0:
                    every = False
                    break
            if every and exact:
                every = _placed(cands, cells, s & ~placed, nopen, keep, scratch, placements)
            elif every:
                for i in range(m):
                    keep[i] |= cands[cells[i]] & s
            if every:
                fits |= s
                left |= full & ~s
                required &= s
    nch = 0
    for i in range(m):
        cell = cells[i]
        narrowed = cands[cell] & keep[i]
        if narrowed == 0:
            return -1
        if narrowed != cands[cell]:
            nch = _narrow(cands, cell, narrowed, changed, nch)
    for k in range(nrest):
        cell = rest[k]
        narrowed = cands[cell] & left
        if narrowed == 0:
            return -1
        if narrowed != cands[cell]:
            nch = _narrow(cands, cell, narrowed, changed, nch)
    while required != 0:
        bit = required & -required
        required ^= bit
        holder = -1
        for cell in cells:
            if cands[cell] & bit:
                if holder >= 0:
                    holder = -2
                    break
                holder = cell
        if holder == -1:
            return -1
        if holder >= 0 and cands[holder] != bit:
            nch = _narrow(cands, holder, bit, changed, nch)
        if holder == -2:
            nch = _required_elsewhere(cands, cells, bit, changed, nch, peer_bits)
            if nch < 0:
                return -1
    return nch


@njit(_nrt=False, cache=True, inline="always")
def _positions(mask, digits):
    """The digits of ``mask`` among ``digits``, as positions: bit p for the p-th digit of ``digits``."""
    out = np.int64(0)
    p = 0
    while digits != 0:
        bit = digits & -digits
        digits ^= bit
        if mask & bit:
            out |= np.int64(1) << p
        p += 1
    return out


@njit(_nrt=False, cache=True, inline="always")
def _at_positions(positions, digits):
    """The inverse of ``_positions``: the digits of ``digits`` at the positions set in ``positions``."""
    out = np.int64(0)
    p = 0
    while digits != 0:
        bit = digits & -digits
        digits ^= bit
        if (positions >> p) & 1:
            out |= bit
        p += 1
    return out


@njit(_nrt=False, cache=True)
def _placed(cands, cells, digits, nopen, keep, scratch, placements):
    """Whether ``digits`` can go one to each of the ``nopen`` open cells of ``cells``; where so, each
    cell's ``keep`` gains the digits it holds in some such placement (a fixed cell its own): the open
    cells' candidates among the digits (``_positions``) index the table of ``_placements``.
    ``scratch[3]`` holds the open cells' places in ``cells``."""
    if _popcount(digits) != nopen:
        return False
    where = scratch[3]
    index = np.int64(0)
    j = 0
    for i in range(cells.shape[0]):
        c = cands[cells[i]]
        if c & (c - 1) != 0:
            index |= _positions(c, digits) << (nopen * j)
            where[j] = i
            j += 1
        else:
            keep[i] |= c
    held = np.int64(placements[_PLACEMENT_START[nopen] + index])
    if held < 0:
        return False
    whole = (np.int64(1) << nopen) - 1
    for j in range(nopen):
        keep[where[j]] |= _at_positions((held >> (nopen * j)) & whole, digits)
    return True


@njit(_nrt=False, cache=True)
def _required_elsewhere(cands, cells, bit, changed, nch, peer_bits):
    """A digit the cage must hold, in two or more of its cells: it leaves every cell that sees all of them
    (a pointing pair of the cage), the AND of their peers' bits (no cell is its own peer, so none of
    them is among those); -1 when that empties a cell."""
    for word in range(peer_bits.shape[1]):
        seen = np.int64(-1)
        for cell in cells:
            if cands[cell] & bit:
                seen &= peer_bits[cell, word]
        while seen != 0:
            low = seen & -seen
            seen ^= low
            x = word * 64 + trailing_zeros(low)
            if cands[x] & bit:
                narrowed = cands[x] & ~bit
                if narrowed == 0:
                    return -1
                nch = _narrow(cands, x, narrowed, changed, nch)
    return nch


@njit(_nrt=False, cache=True, inline="always")
def _least(union, k):
    """The sum of the ``k`` smallest digits of ``union``, -1 when it holds fewer."""
    total = 0
    while k > 0 and union != 0:
        total += _lowest(union)
        union &= union - 1
        k -= 1
    return total if k == 0 else -1


@njit(_nrt=False, cache=True, inline="always")
def _most(union, k):
    """The sum of the ``k`` largest digits of ``union`` (which holds at least k)."""
    total = 0
    while k > 0:
        d = _highest(union)
        total += d
        union ^= np.int64(1) << (d - 1)
        k -= 1
    return total


@njit(_nrt=False, cache=True, inline="always")
def _smear(x):
    """Every bit at or below the highest bit of ``x`` (a mask below 2**63): the digits up to its largest."""
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    x |= x >> 32
    return x


@njit(_nrt=False, cache=True)
def _parked(cands, cells, order, first, last, union, low):
    """``rules.sums._parked`` for the terms ``order[first:last]``: the sum of the digits they take in
    turn, each the smallest free digit at least its least candidate (``low``) or the largest at most its
    most, within ``union``'s range; -1 when a term finds none."""
    top = _smear(union)
    bottom = (union & -union) - 1
    taken = 0
    total = 0
    for x in range(first, last):
        mask = cands[cells[order[x]]]
        if low:
            free = top & ~taken & ~((mask & -mask) - 1)
            if free == 0:
                return -1
            bit = free & -free
            total += _lowest(bit)
        else:
            free = top & ~bottom & ~taken & _smear(mask)
            if free == 0:
                return -1
            below = _smear(free)
            bit = below ^ (below >> 1)
            total += _highest(below)
        taken |= bit
    return total


@njit(_nrt=False, cache=True, inline="always")
def _union_span(rest, k, w, out):
    """``rules.sums._union_span``: into ``out[0]`` and ``out[1]`` the least and most of w times the sum of
    ``k`` distinct digits of ``rest``; False when it holds fewer."""
    low = _least(rest, k)
    if low < 0:
        return False
    high = _most(rest, k)
    out[0] = w * low if w > 0 else w * high
    out[1] = w * high if w > 0 else w * low
    return True


@njit(_nrt=False, cache=True)
def _group_span(cands, cells, order, first, last, union, w, out):
    """``rules.sums._group_span`` of one group, the terms ``order[first:last]``: into ``out[0]`` and
    ``out[1]`` the least and most of w times their sum over distinct digits, the tighter of the union's
    bound (``_union_span``) and the parked digits' (``_parked``); False when there is none."""
    k = last - first
    if not _union_span(union, k, 1, out):
        return False
    low, high = out[0], out[1]
    if k > 1:  # one term parks where the union's bound is
        parked = _parked(cands, cells, order, first, last, union, True)
        if parked < 0:
            return False
        low = max(low, parked)
        parked = _parked(cands, cells, order, first, last, union, False)
        if parked < 0:
            return False
        high = min(high, parked)
        if low > high:
            return False
    out[0] = w * low if w > 0 else w * high
    out[1] = w * high if w > 0 else w * low
    return True


@njit(_nrt=False, cache=True)
def _sum_bounds(cands, cells, table, bounds):
    """The bounds pass of a sum (``LinearSum._bounds``): into ``bounds[2]``, the digits each term keeps,
    with each exclusion group's least and most over distinct digits (``_group_span``; the table's end
    holds the terms in order of group and where each group starts) and for each digit of a term, the
    union's of the rest of its group without it; False when the sum cannot be kept."""
    m = cells.shape[0]
    total = table[1]
    union, size, weight, span_lo, span_hi = bounds[4], bounds[5], bounds[6], bounds[7], bounds[8]
    order = table[2 + 2 * m : 2 + 3 * m]
    start = table[2 + 3 * m :]
    count = start.shape[0] - 1
    for g in range(count):
        union[g] = 0
        size[g] = start[g + 1] - start[g]
        weight[g] = table[2 + order[start[g]]] if size[g] > 0 else 0
    for i in range(m):
        union[table[2 + m + i]] |= cands[cells[i]]
    span = bounds[0]  # two slots: a group's span (rows 0 and 1 are the graph's windows, later)
    least = 0
    most = 0
    for g in range(count):
        if not _group_span(cands, cells, order, start[g], start[g + 1], union[g], weight[g], span):
            return False
        span_lo[g] = span[0]
        span_hi[g] = span[1]
        least += span_lo[g]
        most += span_hi[g]
    if total < least or total > most:
        return False
    keep = bounds[2]
    for i in range(m):
        g = table[2 + m + i]
        mask = cands[cells[i]]
        reach = abs(weight[g]) * (_highest(union[g]) - _lowest(union[g]))
        if total - least >= reach and most - total >= reach:
            keep[i] = mask  # one term moves its group's bounds by at most reach: every digit stays
            continue
        kept = 0
        d = 1
        while mask != 0:
            if mask & 1:
                bit = np.int64(1) << (d - 1)
                w = weight[g]
                rest = _union_span(union[g] & ~bit, size[g] - 1, w, span)  # the group but d and its term
                if (
                    rest
                    and least - span_lo[g] + span[0] + w * d <= total <= most - span_hi[g] + span[1] + w * d
                ):
                    kept |= bit
            mask >>= 1
            d += 1
        if kept == 0:
            return False
        keep[i] = kept
    return True


#: The widest window of partial sums ``_sum_words`` holds in one int64 (bit s: the sum lo + s).
_SUMS_IN_A_WORD = 62


@njit(_nrt=False, cache=True, inline="always")
def _shifted(x, by):
    """``x`` shifted left by ``by`` bits (right where negative; 0 past the word)."""
    if by >= 0:
        return x << by if by < 64 else 0
    return x >> -by if by > -64 else 0


@njit(_nrt=False, cache=True)
def _sum_words(masks, table, m, total, lo, hi, keep, forward, back):
    """The exact pass of ``_sum_rule`` where every window fits a word: layer i's reachable partial sums
    as the bits of ``forward[i]`` (bit s: the sum lo[i] + s), a term's digit moving them all at once, and
    back from the total the same way; each term keeps the digits on a path (the same digits as the
    graph of partial sums, a word operation per digit instead of one per partial sum). False when the
    total cannot be made."""
    forward[0] = 1
    for i in range(m):
        w = table[2 + i]
        width = hi[i + 1] - lo[i + 1] + 1
        reach = 0
        mask = masks[i]
        d = 1
        while mask != 0:
            if mask & 1:
                reach |= _shifted(forward[i], lo[i] + w * d - lo[i + 1])
            mask >>= 1
            d += 1
        forward[i + 1] = reach & ((np.int64(1) << width) - 1)
    if forward[m] >> (total - lo[m]) & 1 == 0:
        return False
    back[m] = np.int64(1) << (total - lo[m])
    for i in range(m - 1, -1, -1):
        w = table[2 + i]
        width = hi[i] - lo[i] + 1
        kept = 0
        alive = 0
        mask = masks[i]
        d = 1
        while mask != 0:
            if mask & 1:
                x = forward[i] & _shifted(back[i + 1], lo[i + 1] - lo[i] - w * d)
                if x != 0:
                    kept |= np.int64(1) << (d - 1)
                    alive |= x
            mask >>= 1
            d += 1
        keep[i] = kept
        back[i] = alive & ((np.int64(1) << width) - 1)
    return True


@njit(_nrt=False, cache=True)
def _sum_rule(cands, cells, table, changed, layers, bounds):
    """A sum (``rules.sums.LinearSum.narrow``; ``table`` is exact, total, the coefficients, then each
    term's exclusion group): the bounds pass (``_sum_bounds``), then, exact, each cell keeps the digits on
    a path of the graph of partial sums from 0 to the total; at most ``FEW_OPEN`` open terms, the exact
    ``_sum_placed`` (alone where they are that few from the start). ``layers`` (2, work) holds the graph
    forward and backward, layer after layer; ``bounds`` (9, terms + 1) the windows, the masks after the
    bounds, what the graph keeps, and the groups' unions, sizes, coefficients and spans."""
    m = cells.shape[0]
    masks = bounds[2]
    keep = bounds[3]
    nopen = 0
    for i in range(m):
        masks[i] = cands[cells[i]]
        if masks[i] == 0:
            return -1
        if masks[i] & (masks[i] - 1) != 0:
            nopen += 1
    if nopen > FEW_OPEN:  # (with few open terms the exact pass below keeps no more than the bounds)
        if not _sum_bounds(cands, cells, table, bounds):
            return -1
        nopen = 0
        for i in range(m):
            if masks[i] & (masks[i] - 1) != 0:
                nopen += 1
    if nopen <= FEW_OPEN:
        if not _sum_placed(masks, table, m, nopen, keep, bounds[4], bounds[5]):
            return -1
    elif table[0] == 0:
        for i in range(m):
            keep[i] = masks[i]
    else:
        total = table[1]
        lo = bounds[0]
        hi = bounds[1]
        least = 0
        most = 0
        lo[0] = 0
        hi[0] = 0
        for i in range(m):  # the partial sums each layer can make: lo/hi as the least and most for now
            w = table[2 + i]
            a = w * _lowest(masks[i])
            b = w * _highest(masks[i])
            least += min(a, b)
            most += max(a, b)
            lo[i + 1] = least
            hi[i + 1] = most
            keep[i] = 0
        if total < least or total > most:  # the narrowed terms' own bounds no longer reach the total
            return -1
        widest = 0
        for i in range(m + 1):  # the window: reachable so far, and the terms left can still make the total
            a = lo[i]
            b = hi[i]
            lo[i] = max(a, total - (most - b))
            hi[i] = min(b, total - (least - a))
            widest = max(widest, hi[i] - lo[i] + 1)
        if widest <= _SUMS_IN_A_WORD:
            if not _sum_words(masks, table, m, total, lo, hi, keep, bounds[4], bounds[5]):
                return -1
            return _keep_all(cands, cells, keep, changed)
        forward = layers[0]
        back = layers[1]
        base = 0
        forward[0] = 1
        for i in range(m):
            width = hi[i] - lo[i] + 1
            nxt = base + width
            nwidth = hi[i + 1] - lo[i + 1] + 1
            for x in range(nxt, nxt + nwidth):
                forward[x] = 0
            w = table[2 + i]
            for s in range(width):
                if forward[base + s]:
                    mask = masks[i]
                    d = 1
                    while mask != 0:
                        if mask & 1:
                            t = s + lo[i] + w * d - lo[i + 1]
                            if 0 <= t < nwidth:
                                forward[nxt + t] = 1
                        mask >>= 1
                        d += 1
            base = nxt
        if forward[base + total - lo[m]] == 0:
            return -1
        for x in range(base, base + hi[m] - lo[m] + 1):
            back[x] = 0
        back[base + total - lo[m]] = 1
        for i in range(m - 1, -1, -1):
            width = hi[i] - lo[i] + 1
            start = base - width
            nwidth = hi[i + 1] - lo[i + 1] + 1
            w = table[2 + i]
            for s in range(width):
                back[start + s] = 0
                if forward[start + s]:
                    mask = masks[i]
                    d = 1
                    while mask != 0:
                        if mask & 1:
                            t = s + lo[i] + w * d - lo[i + 1]
                            if 0 <= t < nwidth and back[base + t]:
                                keep[i] |= np.int64(1) << (d - 1)
                                back[start + s] = 1
                        mask >>= 1
                        d += 1
            base = start
    return _keep_all(cands, cells, keep, changed)


@njit(_nrt=False, cache=True)
def _sum_placed(masks, table, m, nopen, keep, scratch, taken):
    """A sum with at most ``FEW_OPEN`` open terms (``LinearSum._placed``): each digit of the open terms
    but the last tried, the last's following from the rest of the total, the terms of a group on
    distinct digits and off the digits its fixed terms hold (two fixed terms of a group on one digit
    fail); ``keep`` the digits of such assignments. ``scratch`` holds the open terms' places, then what
    each may hold; ``taken`` (m,) each group's fixed digits."""
    rest = table[1]
    for i in range(m):
        taken[i] = 0
    j = 0
    for i in range(m):
        mask = masks[i]
        if mask & (mask - 1) != 0:
            scratch[j] = i
            j += 1
            keep[i] = 0
        else:
            g = table[2 + m + i]
            if taken[g] & mask:
                return False
            taken[g] |= mask
            rest -= table[2 + i] * _highest(mask)
            keep[i] = mask
    if nopen == 0:
        return rest == 0
    for k in range(nopen):  # what each open term may hold: none of its group's fixed digits
        scratch[FEW_OPEN + k] = masks[scratch[k]] & ~taken[table[2 + m + scratch[k]]]
    if nopen == 3:
        for z in range(3):  # two terms of opposite unit weights: their digits a shift of each other's
            if table[2 + scratch[(z + 1) % 3]] * table[2 + scratch[(z + 2) % 3]] == -1:
                return _sum_shifted(table, m, rest, scratch, z, keep)
    last = scratch[nopen - 1]
    a = scratch[0]  # the terms tried before the last (digit 0 where there is none)
    b = scratch[1] if nopen > 2 else a
    found = False
    tries_a = scratch[FEW_OPEN] if nopen > 1 else np.int64(1)
    while tries_a != 0:
        d0 = _lowest(tries_a) if nopen > 1 else 0
        tries_a &= tries_a - 1
        tries_b = scratch[FEW_OPEN + 1] if nopen > 2 else np.int64(1)
        while tries_b != 0:
            d1 = _lowest(tries_b) if nopen > 2 else 0
            tries_b &= tries_b - 1
            if d1 != 0 and d0 == d1 and table[2 + m + a] == table[2 + m + b]:
                continue
            left = rest - table[2 + a] * d0 - table[2 + b] * d1
            w = table[2 + last]
            if w == 1 or w == -1:  # (most terms: a division costs more than the rest of the loop)
                d = left * w
            elif left % w != 0:
                continue
            else:
                d = left // w
            if d < 1 or d > 63 or (scratch[FEW_OPEN + nopen - 1] >> (d - 1)) & 1 == 0:
                continue
            g = table[2 + m + last]
            if (d0 == d and table[2 + m + a] == g) or (d1 == d and table[2 + m + b] == g):
                continue
            found = True
            keep[last] |= np.int64(1) << (d - 1)
            if d0 != 0:
                keep[a] |= np.int64(1) << (d0 - 1)
            if d1 != 0:
                keep[b] |= np.int64(1) << (d1 - 1)
    return found


@njit(_nrt=False, cache=True)
def _sum_shifted(table, m, rest, scratch, which, keep):
    """``_sum_placed`` on its three open terms (``scratch``: their places, then their options) where the
    two after the ``which``-th, x and y, weigh s and -s (s = 1 or -1): each digit of the third, z, tried,
    dx - dy is then fixed, so the digits of x and y that pair up are their options masked by each other's
    shifted (a word operation where a loop over pairs was); the terms of a group on distinct digits. True
    when an assignment remains."""
    x = scratch[(which + 1) % 3]
    y = scratch[(which + 2) % 3]
    z = scratch[which]
    options_x = scratch[FEW_OPEN + (which + 1) % 3]
    options_y = scratch[FEW_OPEN + (which + 2) % 3]
    tries = scratch[FEW_OPEN + which]
    found = False
    s = table[2 + x]
    wz = table[2 + z]
    gx = table[2 + m + x]
    gy = table[2 + m + y]
    gz = table[2 + m + z]
    while tries != 0:
        bit = tries & -tries
        tries ^= bit
        dz = _lowest(bit)
        k = (rest - wz * dz) * s  # dx - dy
        if k == 0 and gx == gy:
            continue
        ox = options_x & ~bit if gx == gz else options_x
        oy = options_y & ~bit if gy == gz else options_y
        kx = ox & _shifted(oy, k)
        if kx != 0:
            found = True
            keep[x] |= kx
            keep[y] |= oy & _shifted(ox, -k)
            keep[z] |= bit
    return found


@njit(_nrt=False, cache=True, inline="always")
def _keep_all(cands, cells, keep, changed):
    """Narrow each cell ``cells[i]`` to ``keep[i]``: the count of ``changed`` entries, -1 when one empties."""
    nch = 0
    for i in range(cells.shape[0]):
        cell = cells[i]
        if keep[i] == 0:
            return -1
        if keep[i] != cands[cell]:
            nch = _narrow(cands, cell, keep[i], changed, nch)
    return nch


@njit(_nrt=False, cache=True)
def _automaton_rule(cands, cells, table, changed, layers, bounds):
    """An automaton (``rules.automaton``; ``table`` from ``_automaton_table``): the nodes reachable from
    the first through edges whose digit is a candidate, then, back from the accepting node, each cell
    keeps the digits of the edges on such a path. Each pass follows the edges of the nodes reached only,
    so a row mostly decided costs a path, not the graph. ``layers`` holds the two passes' marks and the
    nodes reached (layer after layer) in rows 2 to 4, which it leaves clear (the sums' rows 0 and 1 they
    clear themselves), ``bounds[3]`` the digits kept and ``bounds[4]`` where each layer starts among the
    nodes reached."""
    m = cells.shape[0]
    nodes = table[0]
    forward = layers[2]
    back = layers[3]
    reached = layers[4]
    starts = bounds[4]
    keep = bounds[3]
    forward[0] = 1
    reached[0] = 0
    lo = 0
    hi = 1
    for i in range(m):
        starts[i] = lo
        mask = cands[cells[i]]
        top = hi
        for k in range(lo, hi):
            u = reached[k]
            for e in range(table[1 + u], table[2 + u], 2):
                v = table[e + 1]
                if forward[v] == 0 and (mask >> (table[e] - 1)) & 1:
                    forward[v] = 1
                    reached[top] = v
                    top += 1
        lo = hi
        hi = top
    starts[m] = lo
    ok = forward[nodes - 1] != 0
    if ok:
        back[nodes - 1] = 1
        for i in range(m - 1, -1, -1):
            mask = cands[cells[i]]
            kept = 0
            for k in range(starts[i], starts[i + 1]):
                u = reached[k]
                for e in range(table[1 + u], table[2 + u], 2):
                    d = table[e]
                    if back[table[e + 1]] and (mask >> (d - 1)) & 1:
                        back[u] = 1
                        kept |= np.int64(1) << (d - 1)
            keep[i] = kept
    for k in range(hi):
        forward[reached[k]] = 0
        back[reached[k]] = 0
    if not ok:
        return -1
    return _keep_all(cands, cells, keep, changed)


@njit(_nrt=False, cache=True)
def _sandwich_rule(cands, cells, table, full, changed, scratch):
    """A sandwich over a house (``table``: ``_sandwich_table``): for each two places of its ends (1 and
    n) and each set of digits of the right size and total between them, whether every cell between can
    hold a digit of the set and every cell outside one of the other digits, each digit having a place;
    each cell keeps the digits some such choice leaves it. The JS solver's reasoning on sandwiches, each
    cell's own digits kept rather than the union's: weaker than the graph of the clue and its row's
    distinct digits (``Automaton.distinct``), but a few set operations per choice against thousands of
    edges (Sandwich snipe 18: 14,148 guesses in 2.6 s -> 21,986 in 0.48 s). ``scratch``: row 0 what each
    cell keeps, row 1 its digits, row 2 the union of the digits from it to the end."""
    m = cells.shape[0]
    lo = np.int64(1)
    hi = np.int64(1) << (m - 1)
    border = lo | hi
    middle = full & ~border
    keep = scratch[0]
    v = scratch[1]
    after = scratch[2]
    after[m] = 0
    for k in range(m - 1, -1, -1):
        v[k] = cands[cells[k]]
        after[k] = after[k + 1] | v[k]
        keep[k] = 0
    before = 0  # the union of the digits of the cells before i
    for i in range(m - 1):
        vi = v[i] & border
        if vi != 0:
            inner = 0  # the union of the digits of the cells between i and j
            for j in range(i + 1, m):
                vj = v[j] & border
                ai = 0  # the ends' digits at i and at j, one of each
                bj = 0
                if vi & lo and vj & hi:
                    ai |= lo
                    bj |= hi
                if vi & hi and vj & lo:
                    ai |= hi
                    bj |= lo
                s = j - i - 1
                if ai != 0 and table[1 + s] < table[2 + s]:
                    outer = before | after[j + 1]
                    for x in range(table[1 + s], table[2 + s]):
                        c = table[x]
                        o = middle & ~c
                        if c & ~inner or o & ~outer:
                            continue  # a digit of the set (or of the rest) has no cell to go to
                        if _sandwich_fits(v, i, j, m, c, o):
                            keep[i] |= ai
                            keep[j] |= bj
                            for k in range(m):
                                if k < i or k > j:
                                    keep[k] |= v[k] & o
                                elif i < k < j:
                                    keep[k] |= v[k] & c
                inner |= v[j]
        before |= v[i]
    return _keep_all(cands, cells, keep, changed)  # (each keep within its cell's digits)


@njit(_nrt=False, cache=True)
def _skyscraper_rule(cands, cells, total, changed, layers, keep):
    """A skyscraper over a house: ``total`` of its cells, read from the clue, are taller than every cell
    before them, and the tallest is n. The states after cell i are (how many seen, the tallest so far),
    the tallest as a mask per count (``layers[0]``, i * total + count - 1); a forward pass finds the states
    each cell can reach, a backward pass (``layers[1]``) those that still reach n with ``total`` seen, and
    each cell keeps the digits of some such step: the regular constraint on this automaton (Pesant 2004),
    as the JS solver reasons on skyscrapers, with what the row's distinct digits say of each state
    (``_tallest``). A few mask operations per state, where the graph of the clue joined with its row's
    distinct digits (``Automaton.distinct``, 2,500 edges a clue), a little stronger, is far slower
    (Skyscraper - all 5: 23 guesses in 3.9 ms -> 130 in 0.96 ms; Skyscaper 2-3: 16 guesses in 4.3 ms ->
    62 in 0.53 ms, 1,320 without ``_tallest``)."""
    m = cells.shape[0]
    fwd = layers[0]
    back = layers[1]
    one = np.int64(1)
    for j in range(total):
        fwd[j] = 0
    fwd[0] = cands[cells[0]] & _tallest(0, 0, m, total)  # the first cell is always seen
    for i in range(1, m):
        v = cands[cells[i]]
        taller = _above_least(v)  # the tallest so far hides some digit of the cell
        at = i * total
        for j in range(total):
            hidden = fwd[at - total + j] & taller
            if j > 0:  # seen: a digit above the least tallest before
                hidden |= v & _above_least(np.int64(fwd[at - total + j - 1]))
            fwd[at + j] = hidden & _tallest(i, j, m, total)
    last = (m - 1) * total
    for j in range(total):
        back[last + j] = 0
    back[last + total - 1] = fwd[last + total - 1] & (one << (m - 1))
    if back[last + total - 1] == 0:
        return -1
    for i in range(m - 1, 0, -1):
        v = cands[cells[i]]
        taller = _above_least(v)
        at = i * total
        kept = np.int64(0)
        for j in range(total):
            back[at - total + j] = 0
        for j in range(total):
            now = np.int64(back[at + j])
            if now == 0:
                continue
            same = fwd[at - total + j] & now & taller  # hidden: the tallest stays, above the cell's digit
            if same != 0:
                back[at - total + j] |= same
                kept |= _below_greatest(same)
            if j > 0:
                before = np.int64(fwd[at - total + j - 1])
                seen = now & v & _above_least(before)  # seen: the cell is the new tallest
                if seen != 0:
                    back[at - total + j - 1] |= before & _below_greatest(seen)
                    kept |= seen
        keep[i] = kept & v
    keep[0] = back[0] & cands[cells[0]]
    return _keep_all(cands, cells, keep, changed)


@njit(_nrt=False, cache=True, inline="always")
def _above_least(mask):
    """The digits above the least of ``mask`` (none for an empty mask)."""
    return -((mask & -mask) << 1)


@njit(_nrt=False, cache=True, inline="always")
def _below_greatest(mask):
    """The digits below the greatest of a nonempty ``mask``."""
    return (np.int64(1) << (_highest(mask) - 1)) - 1


@njit(_nrt=False, cache=True, inline="always")
def _tallest(i, j, n, total):
    """The tallest a row of n distinct digits can have after its cell ``i`` with ``j + 1`` seen: at least
    i + 1 (so many distinct digits) and j + 1, and room above it for the ``total - j - 1`` still to see."""
    low = max(i, j) + 1
    high = n - (total - j - 1)
    if high < low:
        return np.int64(0)
    return ((np.int64(1) << high) - 1) & ~((np.int64(1) << (low - 1)) - 1)


@njit(_nrt=False, cache=True, inline="always")
def _sandwich_fits(v, i, j, m, c, o):
    """Whether each cell between ``i`` and ``j`` can hold a digit of ``c`` and each outside one of ``o``,
    every digit of both with a place."""
    union = 0
    for k in range(i + 1, j):
        x = v[k] & c
        if x == 0:
            return False
        union |= x
    if union != c:
        return False
    union = 0
    for k in range(m):
        if i <= k <= j:
            continue
        x = v[k] & o
        if x == 0:
            return False
        union |= x
    return union == o


@njit(_nrt=False, cache=True)
def _locked_rule(cands, cells, shared, a_rest, changed):
    """Locked candidates: ``cells`` are the cells two houses share, then the rest of each; a digit one
    house holds only in the shared cells leaves the other house's other cells."""
    inside = 0
    for i in range(shared):
        inside |= cands[cells[i]]
    a_out = 0
    for i in range(shared, shared + a_rest):
        a_out |= cands[cells[i]]
    b_out = 0
    for i in range(shared + a_rest, cells.shape[0]):
        b_out |= cands[cells[i]]
    nch = 0
    for side in range(2):
        if side == 0:
            locked = inside & ~a_out & b_out
            start, stop = shared + a_rest, cells.shape[0]
        else:
            locked = inside & ~b_out & a_out
            start, stop = shared, shared + a_rest
        if locked != 0:
            for i in range(start, stop):
                cell = cells[i]
                narrowed = cands[cell] & ~locked
                if narrowed != cands[cell]:
                    if narrowed == 0:
                        return -1
                    nch = _narrow(cands, cell, narrowed, changed, nch)
    return nch


@njit(_nrt=False, cache=True, inline="always")
def _apply(p, cands, t, w):
    """Run propagator ``p``: the count of ``w.changed`` entries it wrote, -1 on a contradiction."""
    cells = t.cells[t.cell_start[p] : t.cell_start[p + 1]]
    table = t.data[t.data_start[p] : t.data_start[p + 1]]
    kind = t.kinds[p]
    if kind == _PAIR:
        return _pair_rule(cands, cells, table, t.data, w.changed)
    if kind == _THERMO:
        return _thermo_rule(cands, cells, t.weights.shape[0] - 1, t.full, w.changed)
    if kind == _CAGE:
        return _cage_rule(cands, cells, table, w.changed, t.peer_bits, t.full, w.bounds, t.placements)
    if kind == _AUTOMATON:
        return _automaton_rule(cands, cells, table, w.changed, w.layers, w.bounds)
    if kind == _SANDWICH:
        return _sandwich_rule(cands, cells, table, t.full, w.changed, w.bounds)
    if kind == _SKYSCRAPER:
        return _skyscraper_rule(cands, cells, table[0], w.changed, w.layers, w.bounds[0])
    return _sum_rule(cands, cells, table, w.changed, w.layers, w.bounds)


@njit(_nrt=False, cache=True, inline="always")
def _wake(cell, t, w, npend):
    """Put the propagators that read ``cell`` on the stack (once each); the new stack height."""
    for k in range(t.watch_start[cell], t.watch_start[cell + 1]):
        p = t.watch[k]
        state = w.pending[p]
        if state != _PENDING:  # (one woken by its own narrowing alone is so no more)
            if state == _IDLE:
                w.stack[npend] = p
                npend += 1
            w.pending[p] = _PENDING
    return npend


@njit(_nrt=False, cache=True)
def _absorb(nch, queue, qlen, npend, t, w):
    """Take in the ``nch`` cells a kernel narrowed (``w.changed``: cell << 1 | fixed): wake what reads
    them, queue those now fixed; the new stack height and queue length."""
    for i in range(nch):
        cell = w.changed[i] >> 1
        npend = _wake(cell, t, w, npend)
        if w.changed[i] & 1:
            queue[qlen] = cell
            qlen += 1
    return npend, qlen


@njit(_nrt=False, cache=True)
def _hidden_singles(cands, queue, qlen, units, full):
    """One pass of hidden singles over the houses (a digit with one place in a house goes there), fixed
    cells pushed on ``queue``: the new queue length, -1 on a contradiction (a digit without a place, or
    one cell the only place of two digits)."""
    n = units.shape[1]
    for u in range(units.shape[0]):
        once = 0
        twice = 0
        placed = 0
        for k in range(n):
            mask = cands[units[u, k]]
            twice |= once & mask
            once |= mask
            if mask & (mask - 1) == 0:
                placed |= mask
        if once != full:
            return -1
        hidden = once & ~twice & ~placed
        if hidden != 0:
            for k in range(n):
                cell = units[u, k]
                mask = cands[cell] & hidden
                if mask != 0:
                    if mask & (mask - 1) != 0:
                        return -1
                    cands[cell] = mask
                    queue[qlen] = cell
                    qlen += 1
    return qlen


@njit(_nrt=False, cache=True)
def _singles(cands, queue, qlen, peers, units, full):
    """Naked and hidden singles to a fixpoint, for rules of houses alone with as many peers per cell: the
    loop of ``_propagate`` without propagators, on a rectangle of peers (the classic rules' hot path)."""
    npeers = peers.shape[1]
    while qlen > 0:
        while qlen > 0:  # naked singles
            qlen -= 1
            cell = queue[qlen]
            bit = cands[cell]
            for k in range(npeers):
                peer = peers[cell, k]
                mask = cands[peer]
                if mask & bit:
                    mask ^= bit
                    if mask == 0:
                        return False
                    cands[peer] = mask
                    if mask & (mask - 1) == 0:
                        queue[qlen] = peer
                        qlen += 1
        qlen = _hidden_singles(cands, queue, qlen, units, full)
        if qlen < 0:
            return False
    return True


@njit(_nrt=False, cache=True)
def _propagate(cands, qlen, npend, t, w):
    """Naked and hidden singles and the propagators to a fixpoint over ``cands``; False on a contradiction.

    ``w.queue[:qlen]`` are the cells that became single and whose digit is not yet removed from their
    peers; a cell enters the queue only when it becomes single, at most once per call, so ``ncells``
    slots suffice. ``w.stack[:npend]`` are the propagators to run; one runs again when a cell it reads
    narrows (but for an idempotent one that narrowed them itself, ``_SELF_WOKEN``), and only once the
    singles are done (they are cheaper).
    """
    queue = w.queue
    units = t.units
    full = t.full
    watched = t.kinds.shape[0] > 0
    unseen = True  # cells narrowed since the last look for hidden singles
    w.culprit[0] = -1
    while True:
        while qlen > 0 or unseen:
            unseen = False
            while qlen > 0:  # naked singles
                qlen -= 1
                cell = queue[qlen]
                w.culprit[0] = cell
                bit = cands[cell]
                for k in range(t.peer_start[cell], t.peer_start[cell + 1]):
                    peer = t.peers[k]
                    mask = cands[peer]
                    if mask & bit:
                        mask ^= bit
                        if mask == 0:
                            return _fail(w, npend)
                        cands[peer] = mask
                        if watched:
                            npend = _wake(peer, t, w, npend)
                        if mask & (mask - 1) == 0:
                            queue[qlen] = peer
                            qlen += 1
            found = _hidden_singles(cands, queue, qlen, units, full)
            if found < 0:
                return _fail(w, npend)
            for i in range(qlen, found):  # cells the hidden singles fixed
                npend = _wake(queue[i], t, w, npend)
            qlen = found
        if npend == 0:  # the rest is at its fixpoint: one sweep of locked candidates
            swept = False
            for x in range(t.lock_sizes.shape[0]):
                cells = t.lock_cells[t.lock_start[x] : t.lock_start[x + 1]]
                nch = _locked_rule(cands, cells, t.lock_sizes[x, 0], t.lock_sizes[x, 1], w.changed)
                if nch < 0:
                    return _fail(w, npend)
                swept = swept or nch > 0
                npend, qlen = _absorb(nch, queue, qlen, npend, t, w)
            if not swept:
                return True
            unseen = True
            continue
        while npend > 0 and qlen == 0:
            npend -= 1
            p = w.stack[npend]
            skip = w.pending[p] == _SELF_WOKEN  # its run would remove nothing
            w.pending[p] = _IDLE
            if skip:
                continue
            nch = _apply(p, cands, t, w)
            if nch < 0:
                return _fail(w, npend)
            unseen = unseen or nch > 0
            npend, qlen = _absorb(nch, queue, qlen, npend, t, w)
            if w.pending[p] == _PENDING and t.kinds[p] in (_PAIR, _THERMO, _AUTOMATON, _SKYSCRAPER):
                w.pending[p] = _SELF_WOKEN


@njit(_nrt=False, cache=True, inline="always")
def _settle(cands, qlen, npend, t, w):
    """Propagate ``cands`` after a narrowing (``w.queue[:qlen]`` the cells it fixed, ``w.stack[:npend]``
    the propagators it woke): the singles alone on rules that are rows, columns and boxes (``peer_rect``),
    else ``_propagate``; False on a contradiction."""
    if t.peer_rect.shape[0] > 0:
        return _singles(cands, w.queue, qlen, t.peer_rect, t.units, t.full)
    return _propagate(cands, qlen, npend, t, w)


@njit(_nrt=False, cache=True)
def _fail(w, npend):
    """Clear the propagators still pending (the next call starts clean); False."""
    for i in range(npend):
        w.pending[w.stack[i]] = _IDLE
    return False


@njit(_nrt=False, cache=True)
def _choose(cands, heuristic, units, house_start, houses_of, weights, unit_sums, scores):
    """The cell to branch on (ties to the first in row-major order), -1 when all cells are solved; ``wdeg``
    chooses in ``_run_binary`` (``_most_conflicted``)."""
    ncells = cands.shape[0]
    best = -1
    if heuristic == _CONFLICTS:
        best_score = 0
        best_count = 1
        for cell in range(ncells):
            mask = cands[cell]
            if mask & (mask - 1) != 0:
                count = _popcount(mask)
                score = scores[cell]
                if best < 0 or count < best_count or (count == best_count and score > best_score):
                    best = cell
                    best_score = score
                    best_count = count
        return best
    if heuristic == _FIRST:
        for cell in range(ncells):
            mask = cands[cell]
            if mask & (mask - 1) != 0:
                return cell
        return -1
    if heuristic == _MRV:
        return _fewest(cands)
    # weighted
    for u in range(units.shape[0]):
        total = 0
        for k in range(units.shape[1]):
            total += weights[_popcount(cands[units[u, k]])]
        unit_sums[u] = total
    best_weight = -1
    for cell in range(ncells):
        mask = cands[cell]
        if mask & (mask - 1) != 0:
            weight = OWN_WEIGHT * weights[_popcount(mask)]
            for k in range(house_start[cell], house_start[cell + 1]):
                weight += unit_sums[houses_of[k]]
            if weight > best_weight:
                best = cell
                best_weight = weight
    return best


@njit(_nrt=False, cache=True)
def _most_conflicted(cands, scores, value_scores):
    """``wdeg``'s cell: the highest score per candidate, a fifth of the top digit's score added to the
    cells that hold that digit (when one digit stands out: at least n dead ends, over 1.5 times the
    fewest); -1 when all cells are solved. Integer arithmetic: score * 5 / count, compared crosswise."""
    n = value_scores.shape[0]
    top = 0
    top_bit = 0
    least = np.int64(1) << 62
    for d in range(n):
        x = value_scores[d]
        if x > top:
            top = x
            top_bit = np.int64(1) << d
        if 0 < x < least:
            least = x
    if top < n or 2 * top <= 3 * least:
        top_bit = 0
    best = -1
    best_score = -1
    best_count = 1
    for cell in range(cands.shape[0]):
        mask = cands[cell]
        if mask & (mask - 1) != 0:
            count = _popcount(mask)
            score = 5 * scores[cell] + (top if mask & top_bit else 0)
            if score * best_count > best_score * count:
                best = cell
                best_score = score
                best_count = count
    if best_score == 0:  # no score anywhere: the fewest candidates
        return _fewest(cands)
    return best


@njit(_nrt=False, cache=True)
def _fewest(cands):
    """``mrv``'s cell: the first unsolved cell with the fewest candidates, -1 when all are solved."""
    best = -1
    best_count = 1 << 30
    for cell in range(cands.shape[0]):
        mask = cands[cell]
        if mask & (mask - 1) != 0:
            count = _popcount(mask)
            if count < best_count:
                best = cell
                best_count = count
                if count == 2:  # after propagation no unsolved cell has fewer
                    break
    return best


@njit(_nrt=False, cache=True)
def _two_places(cands, units, scores, num, den):
    """``wdeg``'s alternative to a wide cell: a digit with exactly two places in a house, scored half the
    higher score of its two cells, taken when that is at least ``num / den`` (the cell's score per
    candidate; the last of equal scores wins). Returns (place, digit bit), the place of higher score (the
    binary search tries the digit there; its refutation leaves the other place to hidden singles);
    (-1, 0) when no digit qualifies."""
    first = -1
    digit = 0
    n = units.shape[1]
    for u in range(units.shape[0]):
        once = 0
        twice = 0
        thrice = 0
        for k in range(n):
            mask = cands[units[u, k]]
            thrice |= twice & mask
            twice |= once & mask
            once |= mask
        pairs = twice & ~thrice
        while pairs != 0:
            bit = pairs & -pairs
            pairs ^= bit
            a = -1
            b = -1
            for k in range(n):
                cell = units[u, k]
                if cands[cell] & bit:
                    if a < 0:
                        a = cell
                    else:
                        b = cell
            if cands[a] == bit or cands[b] == bit:
                continue  # placed already
            if scores[b] > scores[a]:
                a, b = b, a
            if scores[a] * den >= 2 * num:
                num = scores[a]
                den = 2
                first = a
                digit = bit
    return first, digit


#: ``wdeg`` adds this to the score of the single whose digit propagation was removing at a dead end, and
#: one to the guessed cell's (the JS solver's whole rule): dfs on the 93 published puzzles of
#: bench_published, against the culprit alone: geometric mean of times over 10 ms x0.74 (27 puzzles),
#: Arrow, slow 18,778 -> 5,518 backtracks (the JS solver's own tree, 5,106, blames the guess), I want to
#: break free 0.63 -> 0.18 s, Wecoc #1 [mod A] 0.57 -> 0.39 s; but Hard renban 2 0.58 -> 3.3 s. With 1 or
#: 2 for the culprit the mean was the same, Hard renban 1 and Anti-consecutive, hard slower, with 6 x0.82;
#: the guess alone x1.06, Hard renban 2 4.3 s. Measured again on 2026-11-29 over the 174 cases (culprit
#: 0 to 6, guess 0 or 1): this rule still has the best geometric mean, and Hard renban 2 takes 1.8-5.4 s
#: under every one of them (the culprit alone 1.8 s, this rule 3.3 s). (Here, not in ``dfs_compiled``:
#: numba's cache of a kernel knows its own file's changes, not those of a constant it imports.)
_CULPRIT_SCORE = 3


@njit(_nrt=False, cache=True)
def _blame(child, cell, bit, heuristic, ctr, w):
    """Count a dead end of the guess ``bit`` in ``cell``: ``conflicts`` scores the guessed cell;
    ``wdeg`` scores it by one, as the JS solver does, and by ``_CULPRIT_SCORE`` the single the guess
    forced whose digit propagation was removing when it failed (where the contradiction is), and that
    digit; it decays every ``_DECAY_EVERY``."""
    w.scores[cell] += 1
    if heuristic != _WDEG:
        return
    culprit = w.culprit[0]
    if culprit >= 0 and culprit != cell:
        single = child[culprit]
        if single != 0 and single & (single - 1) == 0:
            w.scores[culprit] += _CULPRIT_SCORE
            bit = single
    w.value_scores[_lowest(bit) - 1] += 1
    if ctr[_BACKTRACKS] % _DECAY_EVERY == 0:
        for c in range(w.scores.shape[0]):
            w.scores[c] >>= 1
        for d in range(w.value_scores.shape[0]):
            w.value_scores[d] >>= 2


@njit(_nrt=False, cache=True, nogil=True)
def _start(grid, stack, ctr, t, w, heuristic):
    """Load a puzzle into ``stack[0]`` and propagate its givens (and every propagator); reset the counters."""
    root = stack[0]
    qlen = 0
    one = np.int64(1)
    full = t.full
    for cell in range(grid.shape[0]):
        d = np.int64(grid[cell])
        if d != 0:
            root[cell] = one << (d - 1)
            w.queue[qlen] = cell
            qlen += 1
        else:
            root[cell] = full
    nprops = t.kinds.shape[0]
    for p in range(nprops):
        w.pending[p] = _PENDING
        w.stack[p] = p
    for x in range(ctr.shape[0]):
        ctr[x] = 0
    ctr[_NODES] = 1
    if heuristic == _WDEG:
        for x in range(w.scores.shape[0]):
            w.scores[x] = t.priority[x]
    else:
        for x in range(w.scores.shape[0]):
            w.scores[x] = 0
    for x in range(w.value_scores.shape[0]):
        w.value_scores[x] = 0
    if _settle(root, qlen, nprops, t, w):
        ctr[_STATE] = _EXPAND
    else:
        ctr[_STATE] = _DONE
        ctr[_FINAL] = EXHAUSTED


@njit(_nrt=False, cache=True, nogil=True)
def _run(stack, branch, untried, ctr, out, pause_when_full, limit, budget, heuristic, t, w):
    """Continue the search kept in ``stack``/``branch``/``untried``/``ctr`` for up to ``budget`` nodes.

    Returns EXHAUSTED, LIMIT_REACHED, OUT_OF_NODES or (with ``pause_when_full``) _BUFFER_FULL. Found
    solutions go to ``out[ctr[_NOUT]]`` while rows are free; ``budget`` 0 means no budget.
    """
    if ctr[_STATE] == _DONE:
        return ctr[_FINAL]
    if heuristic == _WDEG:
        return _run_binary(stack, branch, untried, ctr, out, pause_when_full, limit, budget, heuristic, t, w)
    level = ctr[_LEVEL]
    state = ctr[_STATE]
    node_end = ctr[_NODES] + budget if budget > 0 else _MAX_NODES
    status = OUT_OF_NODES
    units = t.units
    house_start = t.house_start
    houses_of = t.houses_of
    weights = t.weights
    unit_sums = w.unit_sums
    while True:
        if state == _EXPAND:
            cands = stack[level]
            cell = _choose(cands, heuristic, units, house_start, houses_of, weights, unit_sums, w.scores)
            if cell < 0:  # a solution
                untried[level] = 0  # nothing left to try here: step back
                state, status = _solution(cands, ctr, out, limit, pause_when_full)
                if status != OUT_OF_NODES:
                    break
            else:
                branch[level] = cell
                untried[level] = cands[cell]
                state = _NEXT
        else:  # try the next value of the branch point at ``level``
            level, bit = _take(untried, level, ctr, node_end)
            if bit <= 0:
                state, status = (_DONE, EXHAUSTED) if bit == 0 else (_NEXT, OUT_OF_NODES)
                break
            if _guess(stack, level, branch[level], bit, heuristic, ctr, t, w):
                level += 1
                state = _EXPAND
    return _keep(ctr, level, state, status)


@njit(_nrt=False, cache=True, inline="always")
def _guess(stack, level, cell, bit, heuristic, ctr, t, w):
    """Try ``bit`` in ``cell`` on a copy of ``stack[level]`` into ``stack[level + 1]``, propagated: whether
    it holds (a dead end is counted and blamed)."""
    child = stack[level + 1]
    for x in range(stack.shape[1]):
        child[x] = stack[level, x]
    child[cell] = bit
    w.queue[0] = cell
    ctr[_GUESSES] += 1
    ctr[_NODES] += 1
    consistent = _settle(child, 1, _wake(cell, t, w, 0), t, w)
    if not consistent:
        ctr[_BACKTRACKS] += 1
        _blame(child, cell, bit, heuristic, ctr, w)
    return consistent


@njit(_nrt=False, cache=True)
def _run_binary(stack, branch, untried, ctr, out, pause_when_full, limit, budget, heuristic, t, w):
    """``_run`` by binary choices (``wdeg``): a decision puts a digit in a cell (``branch``, ``untried``
    at its level); when what follows it is done (a contradiction, or every solution below found), the
    digit leaves the cell at that level, which is propagated, and the cell to branch on is chosen anew
    there, as the Interactive Sudoku Solver does. States: _EXPAND choose at ``level``, _DECIDE try the
    decision at ``level``, _NEXT refute it."""
    level = ctr[_LEVEL]
    state = ctr[_STATE]
    node_end = ctr[_NODES] + budget if budget > 0 else _MAX_NODES
    status = OUT_OF_NODES
    units = t.units
    while True:
        if state == _EXPAND:
            cands = stack[level]
            cell = _most_conflicted(cands, w.scores, w.value_scores)
            if cell < 0:  # a solution
                state, status = _solution(cands, ctr, out, limit, pause_when_full)
                if state == _DONE:  # the limit
                    break
                if level == 0:  # no decision above: the search is over
                    state, status = _DONE, EXHAUSTED
                    break
                level -= 1  # the decision above is done with
                if status != OUT_OF_NODES:  # a full buffer: hand the solutions over first
                    break
                continue
            bit = cands[cell] & -cands[cell]
            count = _popcount(cands[cell])
            if count > 2 and w.scores[cell] > 0:
                first, digit = _two_places(cands, units, w.scores, w.scores[cell], count)
                if first >= 0:
                    cell = first
                    bit = digit
            branch[level] = cell
            untried[level] = bit
            state = _DECIDE
        elif state == _DECIDE:
            if ctr[_NODES] >= node_end:
                break
            if _guess(stack, level, branch[level], untried[level], heuristic, ctr, t, w):
                level += 1
                state = _EXPAND
            else:
                state = _NEXT
        else:  # _NEXT: the decision at ``level`` is done with: its digit leaves its cell there
            if ctr[_NODES] >= node_end:
                break
            cands = stack[level]
            cell = branch[level]
            left = cands[cell] & ~untried[level]
            consistent = left != 0  # (not a node of the statistics: at most one per guess)
            if consistent:
                cands[cell] = left
                qlen = 0
                if left & (left - 1) == 0:
                    w.queue[0] = cell
                    qlen = 1
                consistent = _settle(cands, qlen, _wake(cell, t, w, 0), t, w)
            if consistent:
                state = _EXPAND
            elif level == 0:
                state, status = _DONE, EXHAUSTED
                break
            else:
                level -= 1
    return _keep(ctr, level, state, status)


@njit(_nrt=False, cache=True)
def _keep(ctr, level, state, status):
    """Keep where a search stopped in its counters, for the next call; its status."""
    ctr[_LEVEL] = level
    ctr[_STATE] = state
    if state == _DONE:
        ctr[_FINAL] = status
    return status


@njit(_nrt=False, cache=True)
def _take(untried, level, ctr, node_end):
    """The next value to try: back to the deepest level from ``level`` up whose branch point has one
    left, then its lowest bit, taken off ``untried``. Returns (level, bit), with bit 0 when no level has
    a value left (the search is exhausted) and -1 when the node budget is spent."""
    while untried[level] == 0:
        if level == 0:
            return level, 0
        level -= 1
    if ctr[_NODES] >= node_end:
        return level, -1
    rest = untried[level]
    bit = rest & -rest
    untried[level] = rest ^ bit
    return level, bit


@njit(_nrt=False, cache=True)
def _solution(cands, ctr, out, limit, pause_when_full):
    """``_solved`` for the solution ``cands``, written to ``out[ctr[_NOUT]]`` first (when that row exists)."""
    if ctr[_NOUT] < out.shape[0]:
        for c in range(cands.shape[0]):
            out[ctr[_NOUT], c] = _highest(cands[c])
    return _solved(ctr, out, limit, pause_when_full)


@njit(_nrt=False, cache=True)
def _solved(ctr, out, limit, pause_when_full):
    """Count the solution just written to ``out[ctr[_NOUT]]`` (when that row exists): the search's next
    state and its status, OUT_OF_NODES to go on (LIMIT_REACHED at the limit, _BUFFER_FULL to hand over)."""
    if ctr[_NOUT] < out.shape[0]:
        ctr[_NOUT] += 1
    ctr[_COUNT] += 1
    if ctr[_COUNT] >= limit:
        return _DONE, LIMIT_REACHED
    if pause_when_full and ctr[_NOUT] == out.shape[0]:
        return _NEXT, _BUFFER_FULL
    return _NEXT, OUT_OF_NODES


@njit(cache=True, nogil=True)
def _solve_batch(grids, limit, heuristic, max_nodes, t, w, result):
    """Solve every row of ``grids`` into ``result`` (a ``BatchResult`` of zeroed arrays), with each
    puzzle's seconds from the monotonic clock read before and after it."""
    m = grids.shape[0]
    ncells = grids.shape[1]
    stack = np.empty((ncells + 1, ncells), np.int64)
    branch = np.zeros(ncells + 1, np.int64)
    untried = np.zeros(ncells + 1, np.int64)
    ctr = np.zeros(_NCTR, np.int64)
    out = np.zeros((2, ncells), np.uint8)
    timespec = np.zeros(2, np.int64)
    for i in range(m):
        started = _now_ns(timespec)
        _start(grids[i], stack, ctr, t, w, heuristic)
        status = _run(stack, branch, untried, ctr, out, False, limit, max_nodes, heuristic, t, w)
        _record(result, i, ctr, out, status, started, timespec)


@njit(_nrt=False, cache=True)
def _record(result, i, ctr, out, status, started, timespec):
    """Puzzle i's answer into ``result``: what the counters and ``out`` hold, and its seconds since
    ``started`` (nanoseconds)."""
    result.counts[i] = ctr[_COUNT]
    if ctr[_NOUT] > 0:
        for x in range(out.shape[1]):
            result.solutions[i, x] = out[0, x]
    if ctr[_NOUT] > 1:
        for x in range(out.shape[1]):
            result.second[i, x] = out[1, x]
    result.guesses[i] = ctr[_GUESSES]
    result.backtracks[i] = ctr[_BACKTRACKS]
    result.nodes[i] = ctr[_NODES]
    result.status[i] = status
    result.seconds[i] = (_now_ns(timespec) - started) * 1e-9
