"""The band search: the compiled ``dfs`` engine's fast path for the classic 9x9 rules (heuristic ``auto``).

The grid is held per digit and per band (three rows of boxes): 27 words of 27 bits, bit ``r * 9 + c``
for row r of the band and column c, set where the digit may still go, and three words of the cells not
yet placed. Whole-band bit operations and small tables replace loops over cells:

- rows of a band: each row holds the digit once and each of the band's three boxes holds it once, so the
  row-box pieces (minirows) that hold it form a 3x3 permutation; every piece on no permutation of the
  pieces still open goes (pointing and claiming inside the band, and a box's or a row's single place);
- columns: the same with the three bands of a stack of boxes and its three columns (a column's single
  place, and the box/column interactions across bands);
- hidden singles: a row of a band with one place left for a digit puts it there (boxes and columns have
  become rows by then), which takes the cell from the other digits;
- naked singles: a cell with one digit left, found for a whole band by counting in bit-slices.

A digit is taken through its rows again only in the bands where it narrowed since (the work to do is a
bit per digit and band). The search branches on a cell with two digits (the one with the most such
cells among its peers; else the first with the fewest digits), tries its digits in increasing order, and
copies the 32-word state onto the next row of a stack per guess (the last digit of a cell is tried in
place). It explores its own tree, unlike the other heuristics (which follow ``dfs_reference`` step for
step): the same solutions to each limit whenever the search is complete, the same counts, but its own
order among several solutions and its own statistics.

The kernel is resumable like ``dfs_kernels._run`` (its state is the stack and the counters), so the
single-puzzle search runs in slices of nodes and returns to Python between them.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from .dfs_compiled import (
    _BACKTRACKS,
    _DONE,
    _EXPAND,
    _FINAL,
    _GUESSES,
    _LEVEL,
    _MAX_NODES,
    _NCTR,
    _NEXT,
    _NODES,
    _NOUT,
    _STATE,
    BAND_LEVELS,
    BAND_WORDS,
    EXHAUSTED,
    OUT_OF_NODES,
)
from .dfs_kernels import _keep, _now_ns, _record, _solved, _take

__all__ = ["LEVELS", "WORDS", "run", "solve_batch", "start"]

#: Words of one search state: 27 digit-band masks (digit * 3 + band), 3 masks of unplaced cells, 2 spare
#: (``dfs_compiled.band_stack`` makes a search's arrays).
WORDS = BAND_WORDS
_UNPLACED = 27
FULL = (1 << 27) - 1
#: Depth of the stack: each level places at least one cell.
LEVELS = BAND_LEVELS


def _tables() -> tuple[np.ndarray, ...]:
    """The lookup tables of the kernels (numba keeps module-level arrays as constants)."""
    boxes_of_row = np.array([sum(1 << k for k in range(3) if x >> (3 * k) & 7) for x in range(512)])
    perms = [sum(1 << (r * 3 + p[r]) for r in range(3)) for p in itertools.permutations(range(3))]
    support = np.array([_union(m, perms) for m in range(512)])
    spread = np.array([sum(7 << (3 * i) for i in range(9) if m >> i & 1) for m in range(512)])
    lone = np.array([x if x and x & (x - 1) == 0 else 0 for x in range(512)])
    peers = np.zeros(27, np.int64)
    for i in range(27):
        r, c = divmod(i, 9)
        row = 511 << (9 * r)
        box = sum(7 << (9 * rr + c // 3 * 3) for rr in range(3))
        peers[i] = (row | box) & ~(1 << i)
    column = np.array([(1 | 1 << 9 | 1 << 18) << c for c in range(9)])
    log37 = np.zeros(37, np.int64)
    for i in range(36):
        log37[(1 << i) % 37] = i
    return boxes_of_row, support, spread[support], lone, peers, column, log37


def _union(m: int, perms: list[int]) -> int:
    """The pieces of the 3x3 matrix ``m`` that lie on a permutation inside it."""
    out = 0
    for q in perms:
        if m & q == q:
            out |= q
    return out


_BOXES_OF_ROW, _SUPPORT, _ROW_SUPPORT, _LONE, _PEERS, _COLUMN, _LOG37 = (
    t.astype(np.int64) for t in _tables()
)
_SPREAD_COLUMNS = 1 | 1 << 9 | 1 << 18  # a 9-bit set of columns times this: those columns in all three rows


@njit(cache=True)
def _place(s, d, b, bit, i):
    """Digit d goes in cell i of band b (its bit): off its row, box and column; the cell is placed."""
    s[d * 3 + b] &= ~_PEERS[i]
    column = _COLUMN[i % 9]
    for other in range(3):
        if other != b:
            s[d * 3 + other] &= ~column
    s[_UNPLACED + b] &= ~bit


@njit(cache=True)
def _rows(a):
    """A digit's mask of one band with every row-box piece on no permutation of the open pieces gone."""
    return (
        a
        & _ROW_SUPPORT[
            _BOXES_OF_ROW[a & 511] | _BOXES_OF_ROW[(a >> 9) & 511] << 3 | _BOXES_OF_ROW[a >> 18] << 6
        ]
    )


@njit(cache=True)
def _digit(s, d, bands):
    """The rows (of the bands in ``bands``, 3 bits, those narrowed since) and the stacks of digit d to
    their fixpoint, then its hidden singles placed. Returns the digit-bands (bit d * 3 + b) that narrowed,
    -1 on a contradiction."""
    a0 = s[d * 3]
    a1 = s[d * 3 + 1]
    a2 = s[d * 3 + 2]
    while True:
        if bands & 1:
            a0 = _rows(a0)
            if a0 == 0:
                return -1
        if bands & 2:
            a1 = _rows(a1)
            if a1 == 0:
                return -1
        if bands & 4:
            a2 = _rows(a2)
            if a2 == 0:
                return -1
        c0 = (a0 | a0 >> 9 | a0 >> 18) & 511
        c1 = (a1 | a1 >> 9 | a1 >> 18) & 511
        c2 = (a2 | a2 >> 9 | a2 >> 18) & 511
        k0 = 0
        k1 = 0
        k2 = 0
        for shift in range(0, 9, 3):
            kept = _SUPPORT[(c0 >> shift) & 7 | ((c1 >> shift) & 7) << 3 | ((c2 >> shift) & 7) << 6]
            if kept == 0:
                return -1
            k0 |= (kept & 7) << shift
            k1 |= ((kept >> 3) & 7) << shift
            k2 |= (kept >> 6) << shift
        n0 = a0 & k0 * _SPREAD_COLUMNS
        n1 = a1 & k1 * _SPREAD_COLUMNS
        n2 = a2 & k2 * _SPREAD_COLUMNS
        bands = (n0 != a0) | (n1 != a1) << 1 | (n2 != a2) << 2
        if bands == 0:
            break
        a0 = n0
        a1 = n1
        a2 = n2
    s[d * 3] = a0
    s[d * 3 + 1] = a1
    s[d * 3 + 2] = a2
    woken = 0
    for b in range(3):
        a = s[d * 3 + b]
        placed = (_LONE[a & 511] | _LONE[(a >> 9) & 511] << 9 | _LONE[a >> 18] << 18) & s[_UNPLACED + b]
        if placed != 0:
            s[_UNPLACED + b] &= ~placed
            for other in range(9):
                x = s[other * 3 + b]
                if other != d and x & placed != 0:
                    s[other * 3 + b] = x & ~placed
                    woken |= 1 << (other * 3 + b)
    return woken


@njit(cache=True)
def _propagate(s, dirty):
    """Every digit in ``dirty`` (a bit each) through ``_digit``, then the naked singles, to the fixpoint;
    False on a contradiction (a digit without a place, a cell without a digit)."""
    while True:
        while dirty != 0:
            for d in range(9):
                bands = (dirty >> (d * 3)) & 7
                if bands != 0:
                    dirty &= ~(7 << (d * 3))
                    woken = _digit(s, d, bands)
                    if woken < 0:
                        return False
                    dirty |= woken
        for b in range(3):
            unplaced = s[_UNPLACED + b]
            if unplaced == 0:
                continue
            once = 0
            twice = 0
            for d in range(9):
                x = s[d * 3 + b]
                twice |= once & x
                once |= x
            if once != FULL:
                return False
            naked = unplaced & ~twice
            while naked != 0:
                bit = naked & -naked
                naked ^= bit
                d = 0
                while d < 9 and s[d * 3 + b] & bit == 0:
                    d += 1
                if d == 9:  # an earlier single of this pass took its only digit
                    return False
                _place(s, d, b, bit, _LOG37[bit % 37])
                dirty |= 7 << (d * 3)
        if dirty == 0:
            return True


@njit(cache=True)
def _count(x):
    """Bits set in a nonnegative mask below 2**56."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    return (((x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F) * 0x0101010101010101) >> 56


@njit(cache=True)
def _pairs(s, b):
    """The unplaced cells of band b with exactly two digits left."""
    once = 0
    twice = 0
    thrice = 0
    for d in range(9):
        x = s[d * 3 + b]
        thrice |= twice & x
        twice |= once & x
        once |= x
    return s[_UNPLACED + b] & twice & ~thrice


@njit(cache=True)
def _choose(s):
    """The branch cell as band * 32 + bit index, -1 when every cell is placed (a solution).

    A cell with two digits when there is one: the one with the most such cells among its peers (its row
    and box in its band, its column in the other bands), ties to the first; its guesses reach furthest.
    Else the first cell with the fewest digits. (The first cell with two digits takes a third more nodes
    on forum_hardest_11plus.)
    """
    pairs0 = _pairs(s, 0)
    pairs1 = _pairs(s, 1)
    pairs2 = _pairs(s, 2)
    best = -1
    if pairs0 | pairs1 | pairs2 != 0:
        top = -1
        for b in range(3):
            # this band's pairs, and the other two bands' side by side (54 bits) for the columns
            if b == 0:
                here, there = pairs0, pairs1 | pairs2 << 27
            elif b == 1:
                here, there = pairs1, pairs0 | pairs2 << 27
            else:
                here, there = pairs2, pairs0 | pairs1 << 27
            rest = here
            while rest != 0:
                bit = rest & -rest
                rest ^= bit
                i = _LOG37[bit % 37]
                column = _COLUMN[i % 9]
                score = _count(here & _PEERS[i] | there & (column | column << 27))
                if score > top:
                    top = score
                    best = b * 32 + i
        return best
    fewest = 10
    for b in range(3):
        rest = s[_UNPLACED + b]
        while rest != 0 and fewest > 3:
            bit = rest & -rest
            rest ^= bit
            count = 0
            for d in range(9):
                if s[d * 3 + b] & bit:
                    count += 1
            if count < fewest:
                fewest = count
                best = b * 32 + _LOG37[bit % 37]
    return best


@njit(cache=True, nogil=True)
def start(grid, stack, ctr):
    """Load a 9x9 puzzle (81 digits, 0 = empty) into ``stack[0]``, propagate it and reset the counters."""
    s = stack[0]
    s[: _UNPLACED + 3] = FULL
    s[_UNPLACED + 3 :] = 0
    ctr[:] = 0
    ctr[_NODES] = 1
    consistent = True
    for cell in range(81):
        d = np.int64(grid[cell]) - 1
        if d >= 0:
            b = cell // 27
            i = cell - b * 27
            bit = np.int64(1) << i
            if s[d * 3 + b] & bit == 0:  # a peer's given took it, or a given of another digit is here
                consistent = False
                break
            for other in range(9):
                if other != d:
                    s[other * 3 + b] &= ~bit
            _place(s, d, b, bit, i)
    if consistent:
        consistent = _propagate(s, FULL)
    ctr[_STATE] = _EXPAND if consistent else _DONE
    ctr[_FINAL] = EXHAUSTED


@njit(cache=True)
def _write(s, row):
    """The digits of a solved state into ``row`` (81 cells)."""
    for d in range(9):
        for b in range(3):
            x = s[d * 3 + b]
            while x != 0:
                bit = x & -x
                x ^= bit
                row[b * 27 + _LOG37[bit % 37]] = d + 1


@njit(cache=True, nogil=True)
def run(stack, branch, untried, ctr, out, pause_when_full, limit, budget):
    """Continue the search kept in ``stack``/``branch``/``untried``/``ctr`` for up to ``budget`` nodes (0:
    no budget), with the statuses and counters of ``dfs_kernels._run``."""
    if ctr[_STATE] == _DONE:
        return ctr[_FINAL]
    level = ctr[_LEVEL]
    state = ctr[_STATE]
    node_end = ctr[_NODES] + budget if budget > 0 else _MAX_NODES
    status = OUT_OF_NODES
    while True:
        if state == _EXPAND:
            s = stack[level]
            cell = _choose(s)
            if cell < 0:  # a solution
                if ctr[_NOUT] < out.shape[0]:
                    _write(s, out[ctr[_NOUT]])
                untried[level] = 0  # nothing left to try here: step back
                state, status = _solved(ctr, out, limit, pause_when_full)
                if status != OUT_OF_NODES:
                    break
            else:
                b = cell >> 5
                bit = np.int64(1) << (cell & 31)
                digits = 0
                for d in range(9):
                    if s[d * 3 + b] & bit:
                        digits |= 1 << d
                branch[level] = cell
                untried[level] = digits
                state = _NEXT
        else:  # the next digit of the branch cell at ``level``; a level without one is done
            level, bit = _take(untried, level, ctr, node_end)
            if bit <= 0:
                state, status = (_DONE, EXHAUSTED) if bit == 0 else (_NEXT, OUT_OF_NODES)
                break
            d = _LOG37[bit % 37]
            cell = branch[level]
            b = cell >> 5
            i = cell & 31
            bit = np.int64(1) << i
            if untried[level] == 0:  # the cell's last digit: in place, this level becomes the child
                child = stack[level]
                target = level
            else:
                child = stack[level + 1]
                child[:] = stack[level]
                target = level + 1
            dirty = 7 << (d * 3)
            for other in range(9):
                x = child[other * 3 + b]
                if other != d and x & bit != 0:
                    child[other * 3 + b] = x & ~bit
                    dirty |= 1 << (other * 3 + b)
            _place(child, d, b, bit, i)
            ctr[_GUESSES] += 1
            ctr[_NODES] += 1
            if _propagate(child, dirty):
                level = target
                state = _EXPAND
            else:
                ctr[_BACKTRACKS] += 1
    return _keep(ctr, level, state, status)


@njit(cache=True, nogil=True)
def solve_batch(grids, limit, max_nodes, result):
    """``dfs_kernels._solve_batch`` for 9x9 puzzles by the band search: every row of ``grids`` into
    ``result``, each puzzle with at most ``max_nodes`` nodes."""
    states = np.empty((LEVELS, WORDS), np.int64)
    branch = np.zeros(LEVELS, np.int64)
    untried = np.zeros(LEVELS, np.int64)
    ctr = np.zeros(_NCTR, np.int64)
    out = np.zeros((2, 81), np.uint8)
    timespec = np.zeros(2, np.int64)
    for i in range(grids.shape[0]):
        started = _now_ns(timespec)
        start(grids[i], states, ctr)
        status = run(states, branch, untried, ctr, out, False, limit, max_nodes)
        _record(result, i, ctr, out, status, started, timespec)
