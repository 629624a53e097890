"""The finned fish search, compiled with numba: the walk asks it of every digit at most states of a hard
puzzle and nearly always finds nothing, so in Python it was a fifth of the walk.

The first finned fish of ``size`` base lines is the least, in this order, of: digit, rows before columns
as the base, the base lines (as a sorted tuple), the fins' box, the cover lines (as a sorted tuple); for
which: every base line holds the digit twice or more, the base lines' places outside the box lie in the
cover lines, each cover line crosses such a place or a base line's place inside the box, some place of a
base line is in no cover line (a fin: all of them lie in the box), and some place of the box off the base
lines lies in a cover line (what goes). Lines are bit sets of crossing indices (bit ``column`` of a row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..backends.dfs_kernels import _popcount
from ..signals import compiling

__all__ = ["first_finned", "warm_up"]


@njit(cache=True)
def first_finned(masks, region_of, n, size, found):
    """The first finned fish of ``size`` base lines on the open cells' candidate ``masks`` (0 for a placed
    cell), regions per cell in ``region_of``: True and ``found`` = digit, 0 for rows as the base (1 for
    columns), box, base lines and cover lines as bit sets; False if there is none."""
    place = np.zeros(n, np.int64)  # per base line: the crossings holding the digit
    inside = np.zeros((n, n), np.int64)  # per base line and box: those crossings inside the box
    spanned = np.zeros(n, np.int64)  # per box: the base lines with a place in it
    for digit in range(n):
        bit = np.int64(1) << digit
        for across in range(2):
            place[:] = 0
            inside[:, :] = 0
            spanned[:] = 0
            for line in range(n):
                for x in range(n):
                    cell = line * n + x if across == 0 else x * n + line
                    if masks[cell] & bit:
                        box = region_of[cell]
                        place[line] |= np.int64(1) << x
                        inside[line, box] |= np.int64(1) << x
                        spanned[box] |= np.int64(1) << line
            if _first(place, inside, spanned, n, size, found):
                found[0] = digit + 1
                found[1] = across
                return True
    return False


@njit(cache=True)
def _first(place, inside, spanned, n, size, found):
    """The least (base, box, cover) of one digit and orientation into ``found[2:5]``; False if none."""
    lines = np.zeros(n, np.int64)
    nlines = 0
    for line in range(n):
        if _popcount(place[line]) >= 2:
            lines[nlines] = line
            nlines += 1
    fit = np.zeros(n, np.int64)
    outer = np.zeros(n, np.int64)
    picked = np.zeros(size, np.int64)
    needed = np.zeros(size + 1, np.int64)
    best = np.zeros(size, np.int64)
    best_box = -1
    for box in range(n):
        if _popcount(spanned[box]) < 2:  # no place for a fin and one to eliminate
            continue
        nfit = 0
        fins = False
        for k in range(nlines):  # the lines whose places outside the box lie in size lines or fewer
            line = lines[k]
            out = place[line] & ~inside[line, box]
            if _popcount(out) <= size:
                fit[nfit] = line
                outer[nfit] = out
                nfit += 1
                fins = fins or inside[line, box] != 0
        if nfit < size or not fins:
            continue
        depth, i = 0, 0  # the size-subsets of fit in increasing order, none extended past size crossings
        while True:
            if depth == size:
                if best_box >= 0 and not _less(fit, picked, best):
                    break  # this box's later bases come after the best one
                cover = _cover(place, inside, fit, picked, box, needed[size], size, n)
                if cover >= 0:
                    for k in range(size):
                        best[k] = fit[picked[k]]
                    best_box = box
                    found[2] = box
                    found[4] = cover
                    break
                depth -= 1
                i = picked[depth] + 1
            elif i > nfit - (size - depth):
                if depth == 0:
                    break
                depth -= 1
                i = picked[depth] + 1
            else:
                grown = needed[depth] | outer[i]
                if _popcount(grown) <= size:
                    picked[depth] = i
                    needed[depth + 1] = grown
                    depth += 1
                i += 1
    if best_box < 0:
        return False
    base = np.int64(0)
    for k in range(size):
        base |= np.int64(1) << best[k]
    found[3] = base
    return True


@njit(cache=True)
def _less(fit, picked, best):
    """Whether the base ``fit[picked]`` comes before ``best``, both increasing."""
    for k in range(picked.shape[0]):
        if fit[picked[k]] != best[k]:
            return fit[picked[k]] < best[k]
    return False


@njit(cache=True)
def _cover(place, inside, fit, picked, box, needed, size, n):
    """The least cover of the base ``fit[picked]`` with fins in ``box``: the ``needed`` crossings and some
    of the base's crossings inside the box, as a bit set; -1 if none leaves a fin and something to
    eliminate."""
    base = np.int64(0)
    optional = np.int64(0)
    for k in range(size):
        line = fit[picked[k]]
        base |= np.int64(1) << line
        optional |= inside[line, box]
    target = np.int64(0)  # the crossings of the box's places off the base lines
    for line in range(n):
        if not base >> line & 1:
            target |= inside[line, box]
    spare = np.zeros(n, np.int64)
    nspare = 0
    for x in range(n):
        if (optional & ~needed) >> x & 1:
            spare[nspare] = x
            nspare += 1
    extra = size - _popcount(needed)
    if extra > nspare:
        return -1
    chosen = np.arange(extra)  # the extra-subsets of spare, in increasing order
    while True:
        cover = needed
        for k in range(extra):
            cover |= np.int64(1) << spare[chosen[k]]
        fin = False
        for k in range(size):
            fin = fin or place[fit[picked[k]]] & ~cover != 0
        if fin and target & cover:
            return cover
        k = extra - 1
        while k >= 0 and chosen[k] == nspare - extra + k:
            k -= 1
        if k < 0:
            return -1
        chosen[k] += 1
        for j in range(k + 1, extra):
            chosen[j] = chosen[j - 1] + 1


def warm_up() -> None:
    """Compile the search, or load it from numba's cache (6 s the first time on a machine), with
    Ctrl-C held, on the types of the real calls."""
    with compiling("the finned fish search", 6):
        first_finned(np.zeros(16, np.int64), np.zeros(16, np.int64), 4, 2, np.zeros(5, np.int64))
