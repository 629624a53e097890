"""The compiled search of the ``dfs`` backend: the Python engines as numba nopython kernels, for any rules.

On the classic rules it follows ``dfs_reference`` step for step (bitmask candidates as int64, naked and
hidden singles to a fixpoint, the same branching heuristics and tie-breaking, candidates tried in
increasing order), so both engines explore the same search tree and report the same solutions in the same
order with the same statistics. On any other rules it adds the propagators of ``dfs_rules`` (pairs,
thermometers, cage sums, arrows; the extra houses and the differ pairs are houses and peers), and with the
``mrv`` heuristic explores the same tree as that module. The search is iterative over an explicit stack
of candidate-state copies, one row per depth. With the heuristic ``auto`` (the default) on the classic
9x9 rules, both entry points hand the search to the band search of ``dfs_bands`` instead (``takes_bands``);
``auto`` is ``mrv`` everywhere else.

Two entry points:

- ``solve_array(grids, shape, limit, ...)``: a whole chunk of puzzles of one shape in one compiled call,
  without Python work per puzzle: what the batch engine uses.
- ``CompiledSearch(shape).search(cells, limit, heuristic, time_limit)``: one puzzle, as the backend's
  ``enumerate`` needs it. Its kernel is resumable: it runs for a budget of nodes and returns, keeping its
  whole state in numpy arrays, so the Python side reads the clock between slices and a time limit gives
  ``unknown``, never a hang, without redoing any work. It also pauses to hand over solutions whenever its
  buffer is full, so enumerating many solutions needs bounded memory inside the kernel.
  ``begin`` starts the same search without running it: ``Resumable.advance(seconds)`` runs it in turns, each
  going on where the last stopped (the ``auto`` portfolio's dfs turns).

Importing this module imports numba; ``dfs.DfsBackend`` falls back to the reference search when that fails.
Kernels are compiled with ``cache=True``: only the first run on a machine pays the compile time. They run
without numba's reference counting (``_nrt=False``; the batch entry point, which allocates the search's
arrays, keeps it): they allocate nothing and write into arrays their callers own, and the counts of the
slices they take and pass, atomic increments and decrements, were a third of a killer's search (perf:
32-38% of the samples in ``NRT_incref``/``NRT_decref`` on TAREK #37 and #38 and Wecoc #2; the same trees
1.3 to 1.5 times faster without). So no slice is assigned to (``a[:] = b`` makes a temporary): loops do.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..rules import RULES_KEPT, Rules
from ..rules.automaton import Automaton
from ..rules.sums import FEW_OPEN, LinearSum, digit_sets, graph_size
from ..signals import compiling
from .batch_result import EXHAUSTED, LIMIT_REACHED, OUT_OF_NODES, BatchResult
from .dfs_reference import AUTO, HEURISTICS, OWN_WEIGHT, SearchOutcome, resolved, weight_table
from .dfs_rules import MATCHED_CELLS, complement, intersections, sum_forms

__all__ = [
    "EXHAUSTED",
    "LIMIT_REACHED",
    "OUT_OF_NODES",
    "BatchResult",
    "CompiledSearch",
    "Resumable",
    "heuristic_code",
    "solve_array",
    "warm_up",
]

# What stopped a search (``BatchResult.status``): EXHAUSTED, LIMIT_REACHED, OUT_OF_NODES (``batch_result``),
# and for the resumable search alone:
_BUFFER_FULL = 3  # (resumable search only) paused to hand over the solutions found so far

# Slots of the counter array ``ctr`` that holds a search's scalar state between calls.
_LEVEL, _STATE, _FINAL, _COUNT, _NOUT, _NODES, _GUESSES, _BACKTRACKS = range(8)
_NCTR = 8
# Values of ``ctr[_STATE]``: expand the state at ``level``, try the next value of the branch point at
# ``level``, or finished with the status in ``ctr[_FINAL]``.
_EXPAND, _NEXT, _DONE, _DECIDE = 0, 1, 2, 3
_MAX_NODES = np.iinfo(np.int64).max

_MRV, _FIRST, _WEIGHTED, _CONFLICTS, _WDEG = (
    HEURISTICS.index(h) for h in ("mrv", "first", "weighted", "conflicts", "wdeg")
)
#: ``wdeg`` halves its scores every this many dead ends (its value scores twice over), so the search
#: follows where the puzzle is hard now rather than where it was (the JS solver's period)
_DECAY_EVERY = 1 << 14

#: The clock the batch kernel reads around each puzzle: POSIX ``clock_gettime(CLOCK_MONOTONIC)`` called
#: from the compiled code (tens of nanoseconds a call), the clock of ``time.monotonic``. None where Python
#: has no such clock (Windows): ``solve_array`` then shares the call's time out in proportion to nodes.
CLOCK: int | None = getattr(time, "CLOCK_MONOTONIC", None)

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


def heuristic_code(heuristic: str, rules: Rules) -> int:
    """The integer the general kernels take for a heuristic name under ``rules`` (the index in
    ``HEURISTICS`` of ``dfs_reference.resolved`` for the compiled engine: ``auto`` is ``mrv`` on the
    classic rules, ``wdeg`` beyond them; see ``takes_bands`` for where the general kernels do not search
    at all)."""
    return HEURISTICS.index(resolved(heuristic, rules, compiled=True))


#: The one rules value the band search (``dfs_bands``) serves: only rows, columns and 3x3 boxes.
BANDS_RULES = Rules.classic(3, 3)


def takes_bands(rules: Rules, heuristic: str) -> bool:
    """Whether a search goes to the band search of ``dfs_bands``: heuristic ``auto`` on the classic 9x9
    rules. Every other rules value, and every named heuristic, keeps the general kernels."""
    return heuristic == AUTO and rules == BANDS_RULES


# Kinds of the propagators beyond houses and peers (``_Tables.kinds``); see ``dfs_rules`` for each one's
# reasoning, which the kernels below follow (but the sandwich's, which ``_sandwich_rule`` says).
_PAIR, _THERMO, _CAGE, _SUM, _AUTOMATON, _SANDWICH = 0, 1, 2, 3, 4, 5
#: ``_Work.pending``: not on the stack, on it, or on it by its own narrowing alone. The pair, thermometer
#: and automaton rules are idempotent (arc consistency, bounds both ways, a graph's paths: a second run
#: on what the first left removes nothing), so such a run is skipped, as a rerun of an automaton over
#: a row cost the sandwiches a fifth of their search.
_IDLE, _PENDING, _SELF_WOKEN = 0, 1, 2


class _Tables(NamedTuple):
    """Per-rules arrays the kernels read (lists of any length are flat arrays with start offsets, CSR).

    Houses hold every digit, so ``units`` is a rectangle; peers, each cell's houses and the propagators'
    cells vary in number. A propagator ``p`` reads ``cells[cell_start[p]:cell_start[p + 1]]`` and its
    table ``data[data_start[p]:data_start[p + 1]]``: a pair its supports (n + 1 masks per side), a cage the
    digit sets of its sum, a sum its total, coefficients and groups, an automaton its graph
    (``_automaton_table``); ``watch`` lists the propagators of a cell.
    """

    units: np.ndarray  # (houses, n) int32
    peer_start: np.ndarray  # (ncells + 1,) int32
    peers: np.ndarray  # int32
    #: (ncells, peers) int32 for the classic rules, which the singles alone serve (``_singles``, the hot
    #: loop of the classic benchmarks, with every argument its own: no tables passed per node); (0, 0)
    #: for any other rules
    peer_rect: np.ndarray
    house_start: np.ndarray  # (ncells + 1,) int32
    houses_of: np.ndarray  # int32: indices into units
    weights: np.ndarray  # (n + 1,) int64: 1/k in fixed point (see dfs_reference.weight_table)
    full: int  # the mask with all n digits
    kinds: np.ndarray  # (propagators,) int64
    cell_start: np.ndarray  # (propagators + 1,) int32
    cells: np.ndarray  # int32
    data_start: np.ndarray  # (propagators + 1,) int32
    data: np.ndarray  # int64
    watch_start: np.ndarray  # (ncells + 1,) int32
    watch: np.ndarray  # int32
    sum_work: int  # the partial sums a sum's graph holds at most, over all its layers (``_sum_rule``)
    sum_terms: int  # the most terms of a sum, plus one
    lock_start: np.ndarray  # (intersections + 1,) int32
    lock_cells: np.ndarray  # int32: the shared cells of two houses, the rest of one, the rest of the other
    lock_sizes: np.ndarray  # (intersections, 2) int64: how many shared cells, how many in the first rest
    priority: np.ndarray  # (ncells,) int64: ``wdeg``'s first score of each cell (``_priority``)
    #: (ncells, words) int64: each cell's peers as bits (cell c is bit c % 64 of word c // 64), so the
    #: cells that see several cells at once are an AND of their rows (``_required_elsewhere``)
    peer_bits: np.ndarray
    #: int32: ``_placements`` for 0 to ``MATCHED_CELLS`` open cells, each size's block at offset
    #: ``_PLACEMENT_START[k]``
    placements: np.ndarray


def _flat(lists: Sequence[Sequence[int]], dtype: type = np.int32) -> tuple[np.ndarray, np.ndarray]:
    """Lists of any lengths as (start offsets, concatenation)."""
    start = np.zeros(len(lists) + 1, np.int32)
    start[1:] = np.cumsum([len(x) for x in lists])
    flat = np.fromiter(itertools.chain.from_iterable(lists), dtype, count=int(start[-1]))
    return start, flat


def _propagators(rules: Rules) -> list[tuple[int, tuple[int, ...], list[int]]]:
    """(kind, cells, table) of every rule beyond houses and peers, in the order of ``dfs_rules``."""
    n = rules.n
    digits = range(1, n + 1)
    out: list[tuple[int, tuple[int, ...], list[int]]] = []
    for p in rules.pairs:
        if p.relation == "differ" and not p.negated:
            continue  # a peer: the singles handle it
        allowed = p.allowed(n)
        for_a = [sum(1 << (y - 1) for y in digits if (x, y) in allowed) for x in range(n + 1)]
        for_b = [sum(1 << (x - 1) for x in digits if (x, y) in allowed) for y in range(n + 1)]
        out.append((_PAIR, p.cells, for_a + for_b))
    out += [(_THERMO, t.cells, []) for t in rules.thermos]
    for cells, form in sum_forms(rules):
        if isinstance(form, LinearSum):
            groups = form.groups or tuple(range(len(form.cells)))  # none: a group per term
            order = sorted(range(len(groups)), key=groups.__getitem__)
            start = [0]
            for g in range(max(groups, default=-1) + 1):
                start.append(start[-1] + groups.count(g))
            table = [int(form.exact), form.total, *form.coefficients, *groups, *order, *start]
            out.append((_SUM, form.cells, table))
        else:
            rest = complement(cells, rules)
            out.append((_CAGE, cells, [len(rest), *rest, *(sum(1 << (d - 1) for d in s) for s in form)]))
    for a in rules.automata:
        table = _sandwich_table(a, rules)
        if table is not None:
            out.append((_SANDWICH, a.cells, table))
        else:
            a = rules.automaton_in_house(a)
            out.append((_AUTOMATON, a.cells, _automaton_table(a)))
    return out


#: The most digit sets a sandwich's kernel reads (every size together); a clue with more (a middle total
#: on 16x16 or larger) is reasoned on by its graph instead.
SANDWICH_SETS = 4096


def _sandwich_table(a: Automaton, rules: Rules) -> list[int] | None:
    """The table of ``_sandwich_rule`` for an automaton whose kernel is a sandwich over a house: its
    total, then n offsets into the table where the sets of 0, 1, ... n - 2 digits among 2..n-1 adding up
    to the total start (and the last ends), then the sets as masks. None for any other automaton, a
    sandwich outside a house or one of more than ``SANDWICH_SETS`` sets."""
    n = rules.n
    if a.kernel[:1] != ("sandwich",) or len(a.cells) != n or not rules.see_each_other(a.cells):
        return None
    total = int(a.kernel[1])
    by_size: list[tuple[tuple[int, ...], ...]] = []
    left = SANDWICH_SETS
    for size in range(n - 1):  # the digits between the ends: 2..n-1
        sets = digit_sets(size, total, n - 1, low=2, most=left)
        if sets is None:
            return None
        by_size.append(sets)
        left -= len(sets)
    offsets = [1 + n]
    for sets in by_size:
        offsets.append(offsets[-1] + len(sets))
    return [total, *offsets, *(sum(1 << (d - 1) for d in digits) for sets in by_size for digits in sets)]


def _automaton_table(a: Automaton) -> list[int]:
    """An automaton's graph for ``_automaton_rule``: its node count N, the nodes numbered across layers
    (the first is 0, the last, N - 1, the accepting one); then N + 1 offsets into the table, where each
    node's edges start (and where the next's do); then the edges as (digit, next node). An impossible
    automaton is two nodes and no edge."""
    if a.empty:
        return [2, 4, 4, 4]
    first = [0]
    for i in range(len(a.cells)):
        first.append(first[-1] + a.nodes(i))
    nodes = first[-1] + 1
    out_of: list[list[int]] = [[] for _ in range(nodes)]
    for i, layer in enumerate(a.edges):
        for u, d, v in layer:
            out_of[first[i] + u] += [d, first[i + 1] + v]
    offsets = [nodes + 2]
    for edges in out_of:
        offsets.append(offsets[-1] + len(edges))
    return [nodes, *offsets, *(x for edges in out_of for x in edges)]


def _sum_work(rules: Rules, props: list[tuple[int, tuple[int, ...], list[int]]]) -> tuple[int, int]:
    """The scratch a sum needs at most: the cells of its graph's layers (with every digit possible, the
    widest they get), and the most terms of a sum or cells of a cage plus one (a cage's placements need
    the places of ``MATCHED_CELLS`` open cells, a sum's few open terms ``2 * FEW_OPEN``)."""
    work, terms = 1, max(MATCHED_CELLS, 2 * FEW_OPEN)
    for cells, form in sum_forms(rules):
        if isinstance(form, LinearSum) and form.exact:
            work = max(work, graph_size(form.coefficients, form.total, rules.n))
        terms = max(terms, len(cells) + 1)
    for kind, cells, table in props:
        if kind == _AUTOMATON:
            work = max(work, table[0])
        if kind in (_AUTOMATON, _SANDWICH):
            terms = max(terms, len(cells) + 1)
    return work, terms


@lru_cache(maxsize=RULES_KEPT)
def _tables(rules: Rules) -> _Tables:
    props = _propagators(rules)
    watch: list[list[int]] = [[] for _ in range(rules.ncells)]
    for i, (_, cells, _) in enumerate(props):
        # A cage reads the rest of its house too, but runs only when its own cells narrow: a rest cell
        # fixed takes its digit from the cage's cells anyway, and woken by every rest cell a cage ran
        # 74 times a guess (Wecoc #2: 1.99 -> 1.34 s, 19,288 -> 18,769 guesses; killers x0.81).
        for cell in sorted(set(cells)):
            watch[cell].append(i)
    locks = intersections(rules)
    return _Tables(
        np.array(rules.houses, dtype=np.int32),
        *_flat(rules.peers),
        np.array(
            rules.peers if not props and len(set(map(len, rules.peers))) == 1 else np.zeros((0, 0)), np.int32
        ),
        *_flat(rules.houses_of),
        np.array(weight_table(rules.n), dtype=np.int64),
        (1 << rules.n) - 1,
        np.array([kind for kind, _, _ in props], dtype=np.int64),
        *_flat([cells for _, cells, _ in props]),
        *_flat([table for _, _, table in props], np.int64),
        *_flat(watch),
        *_sum_work(rules, props),
        *_flat([sum(parts, ()) for parts in locks]),
        np.array([(len(s), len(a)) for s, a, _ in locks], np.int64).reshape(-1, 2),
        _priority(rules, props),
        _peer_bits(rules),
        _placements(),
    )


#: Where the block of ``k`` open cells starts in ``_Tables.placements`` (2^(k*k) entries each).
_PLACEMENT_START = np.cumsum([0] + [1 << (k * k) for k in range(MATCHED_CELLS + 1)])


@lru_cache(maxsize=1)
def _placements() -> np.ndarray:
    """For k open cells and a set of k digits: each cell's digits among the set as k bits (the p-th bit
    the set's p-th digit), the k rows side by side as the index; the entry is the digits each cell holds
    in some placement of the set one digit to a cell, packed alike, or -1 when there is none. Built
    over all k! placements at once (k <= ``MATCHED_CELLS``: 65,536 entries for 4), read by ``_placed``."""
    blocks = []
    for k in range(MATCHED_CELLS + 1):
        index = np.arange(1 << (k * k), dtype=np.int64)
        rows = [(index >> (k * j)) & ((1 << k) - 1) for j in range(k)]
        held = np.zeros_like(index)
        found = np.zeros(index.shape, bool)
        for order in itertools.permutations(range(k)):
            fits = np.ones(index.shape, bool)
            for j, p in enumerate(order):
                fits &= (rows[j] >> p) & 1 == 1
            found |= fits
            held |= np.where(fits, sum(1 << (k * j + p) for j, p in enumerate(order)), 0)
        blocks.append(np.where(found, held, -1))
    return np.concatenate(blocks).astype(np.int32)


def _peer_bits(rules: Rules) -> np.ndarray:
    """``_Tables.peer_bits``: each cell's peers as a row of 64-bit words (set in one numpy pass: a 36x36
    grid has 100,000 peers)."""
    start, peers = _flat(rules.peers, np.int64)
    cells = np.repeat(np.arange(rules.ncells), np.diff(start))
    bits = np.zeros((rules.ncells, (rules.ncells + 63) // 64), np.uint64)
    np.bitwise_or.at(bits, (cells, peers // 64), np.left_shift(np.uint64(1), (peers % 64).astype(np.uint64)))
    return bits.view(np.int64)


def _priority(rules: Rules, props: list[tuple[int, tuple[int, ...], list[int]]]) -> np.ndarray:
    """``wdeg``'s first score of each cell, before any dead end: how constrained it is. Each house and
    rule adds its number of cells to each of its cells, a sum ``max(2n - cells, n)`` (short sums bind
    hardest), as the JS solver's optimizer weighs them."""
    n = rules.n
    priority = np.zeros(rules.ncells, np.int64)
    for house in rules.houses:
        priority[list(house)] += len(house)
    for kind, cells, _ in props:
        distinct = sorted(set(cells))
        priority[distinct] += max(2 * n - len(distinct), n) if kind in (_SUM, _CAGE) else len(distinct)
    return priority


class _Work(NamedTuple):
    """Scratch arrays of one search, sized for its rules (the kernels allocate nothing per node)."""

    queue: np.ndarray  # (ncells,) int64: cells just fixed, their digit not yet removed from their peers
    pending: np.ndarray  # (propagators,) int8: on the stack below or not (``_IDLE``, ``_PENDING``...)
    stack: np.ndarray  # (propagators,) int64: propagators to run
    changed: np.ndarray  # ((n + 2) * ncells,) int64: what one propagator narrowed: cell * 2 + (1 if now
    #: fixed), a cell at most once per digit it loses (a cage's required digits narrow cells outside it)
    layers: np.ndarray  # (5, sum_work) int32: a sum's graph, forward and backward; an automaton's, and
    #: the nodes its passes reached
    bounds: np.ndarray  # (9, sum_terms) int64: a sum's windows, masks and its groups (``_sum_rule``)
    unit_sums: np.ndarray  # (houses,) int64: the weighted heuristic's sums per house
    scores: np.ndarray  # (ncells,) int64: conflicts' dead ends per branch cell, wdeg's scores
    value_scores: np.ndarray  # (n,) int64: wdeg's dead ends per digit
    culprit: np.ndarray  # (1,) int64: the fixed cell whose digit ``_propagate`` was removing last, -1 none


def _work(t: _Tables, ncells: int) -> _Work:
    nprops = len(t.kinds)
    return _Work(
        np.empty(ncells, np.int64),
        np.zeros(nprops, np.int8),
        np.empty(nprops, np.int64),
        np.empty((t.weights.shape[0] + 1) * ncells, np.int64),
        np.zeros((5, t.sum_work), np.int32),
        np.zeros((9, t.sum_terms), np.int64),
        np.empty(t.units.shape[0], np.int64),
        np.zeros(ncells, np.int64),
        np.zeros(t.weights.shape[0] - 1, np.int64),
        np.full(1, -1, np.int64),
    )


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
def _pair_rule(cands, cells, table, n, changed):
    """Arc consistency of a pair: each cell keeps the digits some digit of the other allows."""
    nch = 0
    for side in range(2):
        here = cells[side]
        there = cells[1 - side]
        base = side * (n + 1)
        mask = cands[here]
        reach = 0
        d = 1
        while mask != 0:
            if mask & 1:
                reach |= table[base + d]
            mask >>= 1
            d += 1
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
    a path of the graph of partial sums from 0 to the total. ``layers`` (2, work) holds the graph forward
    and backward, layer after layer; ``bounds`` (9, terms + 1) the windows, the masks after the bounds,
    what the graph keeps, and the groups' unions, sizes, coefficients and spans."""
    m = cells.shape[0]
    if not _sum_bounds(cands, cells, table, bounds):
        return -1
    masks = bounds[2]
    keep = bounds[3]
    nopen = 0
    for i in range(m):
        if masks[i] & (masks[i] - 1) != 0:
            nopen += 1
    if nopen <= FEW_OPEN:
        if not _sum_placed(masks, table, m, nopen, keep, bounds[4]):
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
def _sum_placed(masks, table, m, nopen, keep, scratch):
    """A sum with at most ``FEW_OPEN`` open terms (``LinearSum._placed``): each digit of the open terms
    but the last tried, the last's following from the rest of the total, the terms of a group on
    distinct digits and off the digits its fixed terms hold; ``keep`` the digits of such assignments.
    ``scratch`` holds the open terms' places, then what each may hold."""
    rest = table[1]
    j = 0
    for i in range(m):
        mask = masks[i]
        if mask & (mask - 1) != 0:
            scratch[j] = i
            j += 1
            keep[i] = 0
        else:
            rest -= table[2 + i] * _highest(mask)
            keep[i] = mask
    if nopen == 0:
        return rest == 0
    for k in range(nopen):  # what each open term may hold: none of its group's fixed digits
        g = table[2 + m + scratch[k]]
        taken = 0
        for x in range(m):
            if table[2 + m + x] == g and masks[x] & (masks[x] - 1) == 0:
                taken |= masks[x]
        scratch[FEW_OPEN + k] = masks[scratch[k]] & ~taken
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
            if left % w != 0:
                continue
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
        return _pair_rule(cands, cells, table, t.weights.shape[0] - 1, w.changed)
    if kind == _THERMO:
        return _thermo_rule(cands, cells, t.weights.shape[0] - 1, t.full, w.changed)
    if kind == _CAGE:
        return _cage_rule(cands, cells, table, w.changed, t.peer_bits, t.full, w.bounds, t.placements)
    if kind == _AUTOMATON:
        return _automaton_rule(cands, cells, table, w.changed, w.layers, w.bounds)
    if kind == _SANDWICH:
        return _sandwich_rule(cands, cells, table, t.full, w.changed, w.bounds)
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
            if w.pending[p] == _PENDING and t.kinds[p] in (_PAIR, _THERMO, _AUTOMATON):
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


@njit(_nrt=False, cache=True)
def _blame(child, cell, bit, heuristic, ctr, w):
    """Count a dead end of the guess ``bit`` in ``cell``: ``conflicts`` scores the guessed cell;
    ``wdeg`` scores the cell whose digit propagation was removing when it failed (the guess itself, or a
    single it forced: where the contradiction is) and that digit, and decays every ``_DECAY_EVERY``."""
    if heuristic != _WDEG:
        w.scores[cell] += 1
        return
    culprit = w.culprit[0]
    if culprit >= 0 and child[culprit] != 0 and child[culprit] & (child[culprit] - 1) == 0:
        cell = culprit
        bit = child[culprit]
    w.scores[cell] += 1
    w.value_scores[_lowest(bit) - 1] += 1
    if ctr[_BACKTRACKS] % _DECAY_EVERY == 0:
        for c in range(w.scores.shape[0]):
            w.scores[c] >>= 1
        for d in range(w.value_scores.shape[0]):
            w.value_scores[d] >>= 2


@njit(_nrt=False, cache=True)
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


@njit(_nrt=False, cache=True)
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


@njit(cache=True)
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


def _as_grids(grids: np.ndarray, rules: Rules) -> np.ndarray:
    grids = np.ascontiguousarray(grids, dtype=np.uint8)
    if grids.ndim != 2 or grids.shape[1] != rules.ncells:
        raise ValueError(f"grids must be (m, {rules.ncells}) for a {rules} box shape, not {grids.shape}")
    if grids.size and int(grids.max()) > rules.n:
        raise ValueError(f"a digit above {rules.n} in a grid of a {rules} box shape")
    return grids


def solve_array(
    grids: np.ndarray,
    rules: Rules,
    limit: int = 1,
    heuristic: str = AUTO,
    max_nodes: int = 0,
    time_limit: float | None = None,
) -> BatchResult:
    """Solve m puzzles of one shape in one compiled call: ``grids`` is (m, ncells) digits, 0 = empty.

    Each puzzle's solutions are enumerated up to ``limit`` (2 proves uniqueness: count 1 with status
    EXHAUSTED). ``max_nodes`` > 0 caps each puzzle's search (status OUT_OF_NODES when it runs out).
    Unless ``max_nodes`` is given, the chunk first runs with a node budget per puzzle worth about a quarter
    of ``time_limit`` (seconds per puzzle; the kernel cannot read a clock), or ``SLICE_SECONDS`` without
    one; each puzzle that ran out of nodes is then searched once more, from the start, by the single-puzzle
    search, which returns to Python between slices of a few milliseconds: it reads the clock there, and a
    Ctrl-C or SIGTERM handler runs there, so no chunk runs for long out of reach of a signal. A puzzle
    still unanswered at its time limit stays OUT_OF_NODES (unknown): it gets at most about 1.25 times the
    time limit. Puzzles that need more than the first budget are rare and costly anyway (it is 20 ms of
    search), so the search done twice costs little. Givens that clash give count 0 with status EXHAUSTED.

    >>> from sudoku_cp.rules import Rules
    >>> r = solve_array(np.zeros((1, 16), np.uint8), Rules.classic(2, 2), limit=1000)
    >>> int(r.counts[0]), int(r.status[0]) == EXHAUSTED
    (288, True)
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    limit = min(limit, BEYOND_REACH)
    _ensure_compiled(takes_bands(rules, heuristic))
    code = heuristic_code(heuristic, rules)
    grids = _as_grids(grids, rules)
    t = _tables(rules)
    m, ncells = grids.shape
    result = BatchResult.zeros(m, ncells)
    budget = max_nodes
    if budget <= 0:  # never one long compiled call: Python must get control back to stop on a signal
        first = SLICE_SECONDS if time_limit is None else time_limit / 4
        if not rules.is_classic:  # a node's cost varies too much to budget a quarter of the time on it
            first = min(first, SLICE_SECONDS)
        budget = _nodes_within(first, rules)
    called = time.perf_counter()
    if takes_bands(rules, heuristic):
        from . import dfs_bands

        dfs_bands.solve_batch(grids, limit, budget, result)
    else:
        _solve_batch(grids, limit, code, budget, t, _work(t, ncells), result)
    if CLOCK is None and m:  # no clock in the kernel: the call's time shared out in proportion to nodes
        result.seconds[:] = (time.perf_counter() - called) * result.nodes / max(1, result.nodes.sum())
    if max_nodes <= 0:
        searcher = CompiledSearch(rules)
        for i in np.flatnonzero(result.status == OUT_OF_NODES):
            found = searcher.search(grids[i], limit, heuristic, time_limit)
            result.counts[i] = len(found.solutions)
            for row, sol in zip((result.solutions, result.second), found.solutions, strict=False):
                row[i] = sol
            for name, column in (
                ("guesses", result.guesses),
                ("backtracks", result.backtracks),
                ("nodes", result.nodes),
            ):
                column[i] = found.stats[name]
            result.seconds[i] += found.stats["time"]  # the budgeted first pass's time and this search's
            result.status[i] = (
                OUT_OF_NODES if found.timed_out else EXHAUSTED if found.complete else LIMIT_REACHED
            )
    return result


#: Seconds of search a puzzle of a batch gets in the one compiled call of its chunk before it is searched
#: again by the sliced, interruptible search (see ``solve_array``).
SLICE_SECONDS = 0.02


#: The most solutions counted and nodes searched: beyond any search's reach (a larger limit means the same),
#: and within the kernels' int64.
BEYOND_REACH = 2**62


def _nodes_within(seconds: float, rules: Rules) -> int:
    """A rough node budget that a search of this shape gets through within ``seconds`` (at least 16; an
    infinite time, ``BEYOND_REACH``).

    A node costs about one pass over the units, about 3 * ncells mask operations (~1 microsecond on 9x9),
    plus a run of each propagator: a sum's graph can cost a million operations (``_node_cost``).
    """
    per_second = 2.5e8 / _node_cost(rules)
    return max(16, int(min(seconds * per_second, BEYOND_REACH)))


@lru_cache(maxsize=RULES_KEPT)
def _node_cost(rules: Rules) -> int:
    """The mask operations of a node: the passes over the units, and each propagator run once."""
    t = _tables(rules)
    cost = 3 * rules.ncells
    for p, kind in enumerate(t.kinds.tolist()):
        terms = int(t.cell_start[p + 1] - t.cell_start[p])
        table = int(t.data_start[p + 1] - t.data_start[p])
        cost += terms * table if kind == _CAGE else terms * rules.n if kind == _SUM else table + terms
    return cost + t.sum_work * rules.n


#: The time one slice of the single-puzzle search aims at: the longest a signal or a deadline waits.
SLICE_AIM = 0.01


def _next_budget(budget: int, nodes: int, seconds: float) -> int:
    """The nodes of the next slice: what the last one's pace gets through in ``SLICE_AIM``, growing at
    most eightfold a slice (a node can cost a microsecond on a classic grid or milliseconds among long
    sums, so the first slices are small and the budget follows the puzzle's own pace both ways)."""
    if seconds <= 0:
        return budget * 8
    return max(1, min(budget * 8, int(nodes * SLICE_AIM / seconds)))


class CompiledSearch:
    """The resumable compiled search for one puzzle at a time, with work arrays kept for its shape."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tables = _tables(rules)
        ncells = rules.ncells
        self._stack = np.empty((ncells + 1, ncells), np.int64)
        self._branch = np.zeros(ncells + 1, np.int64)
        self._untried = np.zeros(ncells + 1, np.int64)
        self._ctr = np.zeros(_NCTR, np.int64)
        self._work = _work(self.tables, ncells)
        self._buffers: dict[int, np.ndarray] = {}
        self._bands: tuple[np.ndarray, ...] | None = None  # the band search's stack, made when first used
        self._band_rules = takes_bands(rules, AUTO)
        self._current: Resumable | None = None  # the search begun last: the one the arrays hold

    def _buffer(self, rows: int) -> np.ndarray:
        """The solution buffer of ``rows`` rows, kept between calls (the kernel overwrites what it uses)."""
        buffer = self._buffers.get(rows)
        if buffer is None:
            buffer = self._buffers[rows] = np.zeros((rows, self.rules.ncells), np.uint8)
        return buffer

    def search(
        self,
        cells: tuple[int, ...] | list[int] | np.ndarray,
        limit: int = 1,
        heuristic: str = AUTO,
        time_limit: float | None = None,
    ) -> SearchOutcome:
        """Enumerate up to ``limit`` solutions, like ``dfs_reference.search`` (with a named heuristic: same
        order, same statistics; ``auto`` on 9x9 takes the band search).

        The kernel runs in slices of nodes sized to last about ``SLICE_AIM`` at the puzzle's own pace;
        between slices the clock is read, so a ``time_limit`` is overshot by a few milliseconds at most,
        and Python runs its signal handlers, so Ctrl-C and SIGTERM stop even the longest search at once.
        """
        return self.begin(cells, limit, heuristic).advance(time_limit)

    def begin(
        self, cells: tuple[int, ...] | list[int] | np.ndarray, limit: int = 1, heuristic: str = AUTO
    ) -> Resumable:
        """The search of ``search``, started but not run: ``advance(seconds)`` runs it in turns, each going
        on where the last stopped (a portfolio's turns lose nothing). It works in this object's arrays, so
        beginning another search here ends it."""
        started = time.perf_counter()
        code = heuristic_code(heuristic, self.rules)
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        limit = min(limit, BEYOND_REACH)
        bands = self._band_rules and heuristic == AUTO
        _ensure_compiled(bands)
        if isinstance(cells, np.ndarray):
            grid = _as_grids(cells.reshape(1, -1), self.rules)[0]
        else:  # a tuple of digits, as a Puzzle holds them: the quick way into an array
            if len(cells) != self.rules.ncells or max(cells) > self.rules.n or min(cells) < 0:
                raise ValueError(f"a {self.rules} grid takes {self.rules.ncells} digits 0..{self.rules.n}")
            grid = np.frombuffer(bytes(cells), np.uint8)
        ctr, out = self._ctr, self._buffer(min(limit, 256))
        if bands:
            from . import dfs_bands

            if self._bands is None:
                self._bands = dfs_bands.stack()
            dfs_bands.start(grid, self._bands[0], ctr)
            band_stack = self._bands

            def run(budget: int) -> int:
                return dfs_bands.run(*band_stack, ctr, out, True, limit, budget)
        else:
            _start(grid, self._stack, ctr, self.tables, self._work, code)

            def run(budget: int) -> int:
                return _run(
                    self._stack, self._branch, self._untried, ctr, out, True, limit, budget, code,
                    self.tables, self._work,
                )  # fmt: skip

        self._current = searching = Resumable(self, run, ctr, out, time.perf_counter() - started)
        return searching


class Resumable:
    """One puzzle's compiled search between turns (``CompiledSearch.begin``): its state stays in the
    searcher's arrays, so ``advance`` goes on from the node where the last turn stopped."""

    def __init__(
        self,
        searcher: CompiledSearch,
        run: Callable[[int], int],
        ctr: np.ndarray,
        out: np.ndarray,
        spent: float,
    ) -> None:
        self._searcher, self._run, self._ctr, self._out = searcher, run, ctr, out
        self._solutions: list[tuple[int, ...]] = []
        self._status = OUT_OF_NODES
        self._spent = spent  # seconds of every turn so far (and of the start)
        self._budget = 0  # the next slice's nodes, carried from turn to turn (0: none measured yet)

    def advance(self, time_limit: float | None = None) -> SearchOutcome:
        """Search on for at most ``time_limit`` seconds (None: to the end), and answer with every solution
        found since the start, the whole search's statistics and ``timed_out`` while it is not over."""
        if self._searcher._current is not self:
            raise RuntimeError("this search's searcher began another search since: it cannot go on")
        started = time.perf_counter()
        ctr, out = self._ctr, self._out
        deadline = None if time_limit is None else started + time_limit
        if self._budget == 0 or time_limit is not None:
            aim = SLICE_AIM / 4 if time_limit is None else min(SLICE_AIM / 4, time_limit / 4)
            fresh = _nodes_within(aim, self._searcher.rules)  # slices, even with no deadline: signals run
            self._budget = fresh if self._budget == 0 else min(self._budget, fresh)
        timed_out = False
        while self._status not in (EXHAUSTED, LIMIT_REACHED):
            sliced = time.perf_counter()
            before = int(ctr[_NODES])
            self._status = self._run(self._budget)
            self._solutions.extend(tuple(row) for row in out[: ctr[_NOUT]].tolist())
            ctr[_NOUT] = 0
            if self._status in (EXHAUSTED, LIMIT_REACHED):
                break
            now = time.perf_counter()  # out of nodes for this slice, or paused with a full buffer
            if deadline is not None and now >= deadline:
                timed_out = True
                break
            if self._status == OUT_OF_NODES:
                self._budget = _next_budget(self._budget, int(ctr[_NODES]) - before, now - sliced)
        self._spent += time.perf_counter() - started
        stats = {
            "guesses": int(ctr[_GUESSES]),
            "backtracks": int(ctr[_BACKTRACKS]),
            "nodes": int(ctr[_NODES]),
            "time": self._spent,
        }
        return SearchOutcome(list(self._solutions), self._status == EXHAUSTED, timed_out, stats)


_READY = False  # the general kernels are loaded
_BANDS_READY = False  # the band search's kernels are loaded


def _ensure_compiled(bands: bool = False) -> None:
    """Compile or load the general kernels once per process, and with ``bands`` the band search's, with
    Ctrl-C and SIGTERM held meanwhile.

    A signal that cut numba's compiling short would be lost and leave it broken, so it is delivered when
    the kernels are ready instead; on a warm cache that is a fraction of a second. A first compile on a
    machine is slow (about 70 s here, the band search 20 s more), so after ``signals.NOTICE_AFTER``
    seconds a line on standard error says what is happening.
    The band search's kernels load only for a search that takes them (a 9x9 one), so other shapes start
    no later than before they existed.
    """
    global _READY, _BANDS_READY
    if _READY and (_BANDS_READY or not bands):
        return
    try:
        with compiling("the dfs search", 70):
            if not _READY:
                _warm_general()
            if bands and not _BANDS_READY:
                _warm_bands()
    except BaseException:
        _READY = _BANDS_READY = False
        raise


def _warm_general() -> None:
    global _READY
    _READY = True  # the calls below must not start another warm-up
    rules = Rules.classic(2, 2)
    for heuristic in HEURISTICS:
        solve_array(np.zeros((1, rules.ncells), np.uint8), rules, 2, heuristic)
        CompiledSearch(rules).search((0,) * rules.ncells, 2, heuristic, time_limit=10.0)


def _warm_bands() -> None:
    global _BANDS_READY
    _BANDS_READY = True
    solve_array(np.zeros((1, 81), np.uint8), BANDS_RULES, 2, AUTO)
    CompiledSearch(BANDS_RULES).search((0,) * 81, 2, AUTO, time_limit=10.0)


def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel, the band search's too, on tiny puzzles; the
    seconds it took."""
    started = time.perf_counter()
    _warm_general()
    _warm_bands()
    return time.perf_counter() - started
