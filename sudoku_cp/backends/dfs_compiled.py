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

The kernels themselves are in ``dfs_kernels`` and ``dfs_bands`` (numba); this module drives them and
imports numpy alone. ``kernels()`` loads them once a process: the module ``dfs_aot`` builds ahead of time
(loaded in milliseconds, numba not imported), else numba's JIT dispatchers with their cache. Where neither
can be had (no numba) it raises ImportError, and ``dfs.DfsBackend`` falls back to the reference search.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..ragged import flat
from ..rules import RULES_KEPT, Rules
from ..rules.automaton import Automaton
from ..rules.sums import FEW_OPEN, LinearSum, digit_sets, graph_size
from ..signals import compiling
from .batch_result import EXHAUSTED, LIMIT_REACHED, OUT_OF_NODES, BatchResult
from .dfs_reference import AUTO, HEURISTICS, SearchOutcome, resolved, weight_table
from .dfs_rules import MATCHED_CELLS, complement, intersections, sum_forms

__all__ = [
    "BAND_LEVELS",
    "BAND_WORDS",
    "EXHAUSTED",
    "LIMIT_REACHED",
    "OUT_OF_NODES",
    "BatchResult",
    "CompiledSearch",
    "Kernels",
    "Resumable",
    "band_stack",
    "heuristic_code",
    "jit_kernels",
    "kernels",
    "loaded",
    "loads_quickly",
    "sample_calls",
    "solve_array",
    "warm_up",
]

# The constants below are the kernels' too (``dfs_kernels``, ``dfs_bands``), frozen into their machine code:
# the module built ahead of time is keyed on this file, and numba's JIT cache, keyed on the kernels' own
# files only, is dropped at import when this file changed (``sudoku_cp.kernel_cache``).

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
# reasoning, which the kernels below follow (but the sandwich's and the skyscraper's, which
# ``_sandwich_rule`` and ``_skyscraper_rule`` say).
_PAIR, _THERMO, _CAGE, _SUM, _AUTOMATON, _SANDWICH, _SKYSCRAPER = 0, 1, 2, 3, 4, 5, 6
#: ``_Work.pending``: not on the stack, on it, or on it by its own narrowing alone. The pair, thermometer,
#: automaton and skyscraper rules are idempotent (arc consistency, bounds both ways, a graph's paths: a
#: second run on what the first left removes nothing), so such a run is skipped, as a rerun of an
#: automaton over a row cost the sandwiches a fifth of their search.
_IDLE, _PENDING, _SELF_WOKEN = 0, 1, 2


class _Tables(NamedTuple):
    """Per-rules arrays the kernels read (lists of any length are flat arrays with start offsets, CSR).

    Houses hold every digit, so ``units`` is a rectangle; peers, each cell's houses and the propagators'
    cells vary in number. A propagator ``p`` reads ``cells[cell_start[p]:cell_start[p + 1]]`` and its
    table ``data[data_start[p]:data_start[p + 1]]``: a pair where its supports start in ``data`` (after
    every propagator's table: ``_flat_tables``), a cage the digit sets of its sum, a sum its total,
    coefficients and groups, an automaton its graph (``_automaton_table``); ``watch`` lists the
    propagators of a cell.
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
    """``ragged.flat`` with the offsets as the kernels take them (int32), the items int32 unless said."""
    return flat(lists, dtype, starts=np.int32)


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
        elif _skyscraper_kernel(a, rules):
            out.append((_SKYSCRAPER, a.cells, [int(a.kernel[1])]))
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
    if a.kernel[:1] != ("sandwich",) or not _over_house(a, rules):
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


#: The widest grid whose skyscrapers ``_skyscraper_rule`` reasons on (its states are 32-bit masks).
SKYSCRAPER_N = 31


def _skyscraper_kernel(a: Automaton, rules: Rules) -> bool:
    """Whether ``_skyscraper_rule`` reasons on an automaton: a skyscraper over a house (the tallest is n)
    whose clue its cells can meet, on a grid of at most ``SKYSCRAPER_N``."""
    return (
        a.kernel[:1] == ("skyscraper",)
        and 1 <= int(a.kernel[1]) <= rules.n <= SKYSCRAPER_N
        and _over_house(a, rules)
    )


def _over_house(a: Automaton, rules: Rules) -> bool:
    """Whether an automaton reads a whole house: n cells that all see each other (its kernel's ground)."""
    return len(a.cells) == rules.n and rules.see_each_other(a.cells)


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
        if kind == _SKYSCRAPER:
            work = max(work, len(cells) * table[0])
        if kind in (_AUTOMATON, _SANDWICH, _SKYSCRAPER):
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
        *_flat_tables(props, rules.n),
        *_flat(watch),
        *_sum_work(rules, props),
        *_flat([sum(parts, ()) for parts in locks]),
        np.array([(len(s), len(a)) for s, a, _ in locks], np.int64).reshape(-1, 2),
        _priority(rules, props),
        _peer_bits(rules),
        _placements(),
    )


#: The widest chunk of a mask whose supports a pair looks up at once: 2^8 entries a chunk, so a pair
#: reads one to four chunks up to 32x32 and its blocks stay small (two chunks of 2^5 on 9x9).
PAIR_CHUNK_BITS = 8


def _flat_tables(
    props: list[tuple[int, tuple[int, ...], list[int]]], n: int
) -> tuple[np.ndarray, np.ndarray]:
    """The propagators' tables as ``_flat`` lays them out, but a pair's: its supports per digit become
    supports per chunk of a mask (``_pair_rule``), each side's block kept once after the propagators'
    tables however many pairs share it, and the pair's table (where its two sides' blocks start, the
    chunk width)."""
    chunks = -(-n // PAIR_CHUNK_BITS)
    width = -(-n // chunks)
    blocks: dict[tuple[int, ...], int] = {}
    pool: list[int] = []
    tables = [table for _, _, table in props]
    base = sum(3 if kind == _PAIR else len(table) for kind, _, table in props)
    for i, (kind, _, table) in enumerate(props):
        if kind != _PAIR:
            continue
        at = []
        for side in (table[: n + 1], table[n + 1 :]):
            key = tuple(side)
            if key not in blocks:
                blocks[key] = base + len(pool)
                for c in range(chunks):
                    for mask in range(1 << width):
                        reach = 0
                        for b in range(width):
                            if mask >> b & 1 and c * width + b < n:
                                reach |= side[c * width + b + 1]
                        pool.append(reach)
            at.append(blocks[key])
        tables[i] = [*at, width]
    start, items = _flat(tables, np.int64)
    return start, np.concatenate([items, np.array(pool, np.int64)])


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
    A Ctrl-C or SIGTERM that stops the call carries ``batch``: the result so far and the index of the
    puzzle it stopped in (the rows before it are answered), for a caller to keep those answers.

    >>> from sudoku_cp.rules import Rules
    >>> r = solve_array(np.zeros((1, 16), np.uint8), Rules.classic(2, 2), limit=1000)
    >>> int(r.counts[0]), int(r.status[0]) == EXHAUSTED
    (288, True)
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    limit = min(limit, BEYOND_REACH)
    k = kernels(takes_bands(rules, heuristic))
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
        k.band_solve_batch(grids, limit, budget, result)
    else:
        k.solve_batch(grids, limit, code, budget, t, _work(t, ncells), result)
    if CLOCK is None and m:  # no clock in the kernel: the call's time shared out in proportion to nodes
        result.seconds[:] = (time.perf_counter() - called) * result.nodes / max(1, result.nodes.sum())
    if max_nodes <= 0:
        searcher = CompiledSearch(rules)
        for i in np.flatnonzero(result.status == OUT_OF_NODES):
            try:
                found = searcher.search(grids[i], limit, heuristic, time_limit)
            except KeyboardInterrupt as exc:  # the puzzles before this one are answered: said on the stop
                exc.batch = (result, int(i))  # type: ignore[attr-defined]
                raise
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
        if kind == _CAGE:
            cost += terms * table
        elif kind == _SUM:
            cost += terms * rules.n
        elif kind == _SKYSCRAPER:  # both passes over (cell, how many seen)
            cost += 2 * terms * int(t.data[t.data_start[p]])
        else:
            cost += table + terms
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
        k = kernels(bands)
        if isinstance(cells, np.ndarray):
            grid = np.array(_as_grids(cells.reshape(1, -1), self.rules)[0])  # a writable copy
        else:  # a tuple of digits, as a Puzzle holds them: the quick way into an array
            if len(cells) != self.rules.ncells or max(cells) > self.rules.n or min(cells) < 0:
                raise ValueError(f"a {self.rules} grid takes {self.rules.ncells} digits 0..{self.rules.n}")
            grid = np.frombuffer(bytearray(cells), np.uint8)
        ctr, out = self._ctr, self._buffer(min(limit, 256))
        if bands:
            if self._bands is None:
                self._bands = band_stack()
            k.band_start(grid, self._bands[0], ctr)
            states = self._bands

            def run(budget: int) -> int:
                return k.band_run(*states, ctr, out, True, limit, budget)
        else:
            k.start(grid, self._stack, ctr, self.tables, self._work, code)

            def run(budget: int) -> int:
                return k.run(
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


class Kernels(NamedTuple):
    """The compiled entry points the searches call (``dfs_kernels``' ``_start``, ``_run`` and
    ``_solve_batch``, ``dfs_bands``' ``start``, ``run`` and ``solve_batch``), and how they were made:
    ``aot`` the ahead-of-time module of ``dfs_aot``, ``jit`` numba's dispatchers."""

    start: Callable[..., None]
    run: Callable[..., int]
    solve_batch: Callable[..., None]
    band_start: Callable[..., None]
    band_run: Callable[..., int]
    band_solve_batch: Callable[..., None]
    how: str


_KERNELS: Kernels | None = None
_JIT_WARM: set[str] = set()  # which of numba's kernels ("general", "bands") have run in this process


def kernels(bands: bool = False) -> Kernels:
    """The kernels, loaded once a process, with Ctrl-C and SIGTERM held meanwhile (a signal that cut a
    compile short would leave it broken, so it is delivered when they are ready).

    The module ``dfs_aot`` compiles ahead of time loads in milliseconds, without numba (whose import and
    first dispatch took 1.1 s of a one-puzzle command); the first search on a machine builds it (about
    80 s here on a fresh install, 20-25 s where numba's cache holds the kernels' inner functions already;
    announced on standard error after ``signals.NOTICE_AFTER`` seconds). Where it cannot be
    built (no C compiler, no ``numba.pycc``) or ``SUDOKU_CP_KERNELS=jit`` asks, numba's JIT kernels serve,
    from numba's cache (their first compile: about 70 s here, the band search's 20 s more, which loads only
    for a search that takes it). Raises ImportError when neither is possible (no numba).
    """
    global _KERNELS
    if _KERNELS is None:
        with compiling("the dfs search", 80):
            _KERNELS = _load_kernels()
    if _KERNELS.how == "jit" and not ({"general", "bands"} if bands else {"general"}) <= _JIT_WARM:
        with compiling("the dfs search", 70):
            _warm(_KERNELS, bands)
    return _KERNELS


def _load_kernels() -> Kernels:
    """The ahead-of-time kernels (built here the first time), else numba's JIT ones."""
    from . import dfs_aot

    if os.environ.get("SUDOKU_CP_KERNELS", "aot") != "jit":
        module = dfs_aot.load()
        if module is None and dfs_aot.failed() is None:
            try:
                module = dfs_aot.build()
            except Exception as exc:  # no compiler, no numba.pycc, a folder we may not write
                print(f"sudoku-cp: the dfs search runs on numba's JIT instead ({exc})", file=sys.stderr)
        if module is not None:
            return Kernels(*(getattr(module, name) for name in dfs_aot.ENTRY_POINTS), how="aot")
    return jit_kernels()


def jit_kernels() -> Kernels:
    """numba's dispatchers of the entry points (imports numba; compiles nothing yet)."""
    from . import dfs_bands, dfs_kernels

    return Kernels(
        dfs_kernels._start,
        dfs_kernels._run,
        dfs_kernels._solve_batch,
        dfs_bands.start,
        dfs_bands.run,
        dfs_bands.solve_batch,
        how="jit",
    )


def sample_calls(part: str) -> dict[str, tuple]:
    """One call's arguments for each entry point of a part of ``Kernels``, in the order to call them:
    ``general`` on an empty 4x4, ``bands`` on an empty 9x9. ``_warm`` runs numba's JIT kernels on them,
    and ``dfs_aot`` compiles the entry points for their types: those the driver passes."""
    if part == "general":
        rules = Rules.classic(2, 2)
        t, s = _tables(rules), CompiledSearch(rules)
        grid = np.zeros(rules.ncells, np.uint8)
        return {
            "start": (grid, s._stack, s._ctr, t, s._work, 0),
            "run": (s._stack, s._branch, s._untried, s._ctr, s._buffer(2), True, 2, 0, 0, t, s._work),
            "solve_batch": (grid.reshape(1, -1), 2, 0, 0, t, s._work, BatchResult.zeros(1, rules.ncells)),
        }
    states, branch, untried = band_stack()
    ctr = np.zeros(_NCTR, np.int64)
    grid = np.zeros(BANDS_RULES.ncells, np.uint8)
    return {
        "band_start": (grid, states, ctr),
        "band_run": (states, branch, untried, ctr, np.zeros((2, BANDS_RULES.ncells), np.uint8), True, 2, 0),
        "band_solve_batch": (grid.reshape(1, -1), 2, 0, BatchResult.zeros(1, BANDS_RULES.ncells)),
    }


def _warm(k: Kernels, bands: bool) -> None:
    """Run each JIT kernel once on a tiny search (``sample_calls``: the general ones, the band search's
    with ``bands``), so that numba compiles or loads them here, where signals are held."""
    for part in ("general", "bands") if bands else ("general",):
        if part not in _JIT_WARM:
            for name, args in sample_calls(part).items():
                getattr(k, name)(*args)
            _JIT_WARM.add(part)


#: A band search's state: 27 digit-band masks (digit * 3 + band), 3 masks of unplaced cells, 2 spare;
#: and its stack's depth: each level places at least one cell (``dfs_bands``).
BAND_WORDS = 32
BAND_LEVELS = 82


def band_stack() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A band search's arrays: the states (a row per level), each level's branch cell and untried
    digits."""
    return (
        np.empty((BAND_LEVELS, BAND_WORDS), np.int64),
        np.zeros(BAND_LEVELS, np.int64),
        np.zeros(BAND_LEVELS, np.int64),
    )


def loaded() -> bool:
    """Whether this process has loaded its kernels."""
    return _KERNELS is not None


def loads_quickly() -> bool:
    """Whether this process has its kernels already or can load them in milliseconds (the
    ahead-of-time module is built): when not, a command on a puzzle or two tries the searches that need
    no numba first (``auto``'s quick turns)."""
    if _KERNELS is not None:
        return True
    from . import dfs_aot

    return os.environ.get("SUDOKU_CP_KERNELS", "aot") != "jit" and dfs_aot.built()


def warm_up() -> float:
    """Load every kernel (building or compiling them if this machine has none yet), the band search's
    too; the seconds it took."""
    started = time.perf_counter()
    kernels(bands=True)
    return time.perf_counter() - started
