"""The propagated formula: a puzzle's CNF after the easy deductions, over the open candidates only.

Before a SAT solver is called, the givens are propagated by the compiled kernels of the ``dfs`` backend
(``backends.dfs_compiled``): naked and hidden singles, locked candidates (pointing and claiming, here for
the classic rules too) and the propagators of the rules beyond houses, to a fixpoint. What is left is
stated as the extended encoding reduced by everything decided, in the spirit of Kwon and Jain's reduced
encoding (LPAR 2006) but after propagation instead of after the givens alone:

- one variable per candidate of an open cell (a cell with two candidates or more), numbered 1..V in cell
  order (``cell * n + digit`` ascending); decided cells and removed candidates have no variable;
- ``cell_at_least_one`` and pairwise ``cell_at_most_one`` over each open cell's candidates;
- ``unit_at_least_one`` for each house and digit the house's decided cells do not hold, over the open
  cells where the digit is a candidate;
- pairwise at-most-one of each digit over every two open peers that share it (houses, groups, differ
  pairs: ``Rules.peers``), each pair once;
- the clauses of the rules beyond houses (``rules_cnf.rule_families``: pairs, thermometers, cage sums,
  arrows) with the decided literals applied: satisfied clauses left out, false literals removed, their
  auxiliary variables numbered from V + 1 on.

Propagation only removes candidates that no solution has, so the formula's models are exactly the
puzzle's solutions restricted to the open cells (the decided cells are the same in every solution). A
contradiction found by propagation, or a clause left without literals, means no solution; no open cell
and no clause left means the decided grid is the one solution, found without a solver.

The formula is built in one compiled call into flat arrays (``lits``, clause ``ends``): a 9x9 puzzle
from ``top1465`` gives about 200 variables and 1,300 clauses in some 30 microseconds. ``clauses()`` turns
them into lists for solvers that take lists; ``sat_native`` loads them into a solver directly.

>>> from sudoku_cp.grid import Puzzle
>>> encoder = PropagatedEncoder(Puzzle.from_string("1234341221434...").rules)
>>> formula = encoder.encode(Puzzle.from_string("1234341221434...").cells)
>>> formula.status, formula.solution()
('solved', (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit

from ..backends.dfs_compiled import _flat, _tables, _work
from ..backends.dfs_kernels import _highest, _popcount, _propagate
from ..backends.dfs_rules import house_intersections
from ..rules import RULES_KEPT, Rules
from ..signals import compiling
from .rules_cnf import rule_families

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Formula", "PropagatedEncoder", "ready", "warm_up"]

#: ``encode`` kernel outcomes (its first return value when not a count of variables).
_CONTRADICTION = -1
_TOO_SMALL = -2


_READY = False  # whether the kernels have run in this process (their start-up is paid)


def ready() -> bool:
    """Whether the kernels are loaded in this process, so that encoding costs no start-up."""
    return _READY


def warm_up() -> float:
    """Load the kernels (once per process: numba's start-up takes a second or two); the seconds it took."""
    import time

    start = time.perf_counter()
    from ..grid import Puzzle

    puzzle = Puzzle.from_string("1234341221434...")  # propagation solves it: decoding runs too
    PropagatedEncoder(puzzle.rules).encode(puzzle.cells).solution()
    return time.perf_counter() - start


class _Shape(NamedTuple):
    """What every puzzle of a shape shares: the propagation tables (locked candidates on every two houses
    sharing cells) and the clauses of the rules beyond houses as flat arrays over the full grid's numbering
    (auxiliaries above n**3), without the groups' at-most-one clauses (the peers' pairs state them)."""

    tables: Any
    rule_lits: np.ndarray
    rule_ends: np.ndarray
    auxiliaries: int


@lru_cache(maxsize=RULES_KEPT)
def _shape(rules: Rules) -> _Shape:
    from pysat.formula import IDPool

    n = rules.n
    locks = house_intersections(rules)  # for the classic rules too
    lock_start, lock_cells = _flat([sum(parts, ()) for parts in locks])
    tables = _tables(rules)._replace(
        lock_start=lock_start,
        lock_cells=lock_cells,
        lock_sizes=np.array([(len(s), len(a)) for s, a, _ in locks], np.int64).reshape(-1, 2),
    )
    pool = IDPool(start_from=n**3 + 1)
    extra = [c for name, group in rule_families(rules, "pairwise", pool) if name != "group_at_most_one"
             for c in group]  # fmt: skip
    starts, rule_lits = _flat(extra)
    return _Shape(tables, rule_lits, np.ascontiguousarray(starts[1:]), max(pool.top - n**3, 0))


class PropagatedEncoder:
    """Builds the propagated formulas of one shape (``Rules``) into buffers of its own: one encoder serves
    one thread at a time, and a formula it returns holds until its next ``encode``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, ncells = rules.n, rules.ncells
        shape = _shape(rules)
        self.tables, self.rule_lits, self.rule_ends = shape.tables, shape.rule_lits, shape.rule_ends
        self.auxiliaries = shape.auxiliaries
        self.work = _work(self.tables, ncells)
        self.cands = np.zeros(ncells, np.int64)
        self.varid = np.zeros(ncells * n, np.int32)
        self.inverse = np.zeros(ncells * n + 1, np.int32)
        self.grid = np.zeros(ncells, np.int64)
        self.block = np.zeros(ncells, np.int32)
        self._buffers(ncells * (n + 1) + len(rules.houses) * n, 4 * ncells * n + len(self.rule_lits))
        #: The compiled ``_encode`` for these arguments' types, called without numba's dispatcher (whose
        #: typing of the tables, named tuples of arrays, costs 7 of its 10 microseconds per call)
        self._kernel: Any = None

    def _buffers(self, clauses: int, lits: int) -> None:
        self.ends = np.zeros(clauses, np.int32)
        self.lits = np.zeros(lits, np.int32)

    def encode(self, cells: Sequence[int], masks: Sequence[int] | None = None) -> Formula:
        """The propagated formula of a grid (digits per cell, 0 blank), optionally within candidate
        ``masks`` per cell (bit d - 1 for digit d, as ``Candidates.masks``; a given's mask is its bit)."""
        digits = masks is None
        start = np.ascontiguousarray(cells if digits else masks, dtype=np.int64)
        while True:
            args = (start, digits, self.rules.n, self.tables, self.work, self.cands, self.varid, self.inverse,
                    self.rule_lits, self.rule_ends, self.lits, self.ends)  # fmt: skip
            if self._kernel is None:  # the first call types the arguments; later ones skip the dispatch
                with compiling("the propagation of sat and cpsat", 25):
                    nvars, nclauses, nlits, lits_needed = _encode(*args)
                self._kernel = _encode.overloads[tuple(map(_encode.typeof_pyval, args))].entry_point
                global _READY
                _READY = True
            else:
                nvars, nclauses, nlits, lits_needed = self._kernel(*args)
            if nvars != _TOO_SMALL:
                break
            self._buffers(2 * nclauses, 2 * lits_needed)
        if nvars == _CONTRADICTION:
            return Formula(self, "contradiction", 0, 0, 0, 0)
        total = nvars + (self.auxiliaries if nclauses else 0)
        status = "solved" if nvars == 0 and nclauses == 0 else "open"
        return Formula(self, status, nvars, total, nclauses, nlits)


@dataclass
class Formula:
    """One puzzle's propagated formula, in its encoder's buffers (valid until the encoder's next call).

    ``status``: ``contradiction`` (no solution), ``solved`` (propagation decided every cell and no clause is
    left: one solution) or ``open``. ``primary`` variables stand for candidates, ``variables`` counts the
    auxiliaries as well; ``clauses`` and ``literals`` are the sizes of the flat arrays."""

    encoder: PropagatedEncoder
    status: str
    primary: int
    variables: int
    clauses: int
    literals: int

    @property
    def lits(self) -> np.ndarray:
        return self.encoder.lits[: self.literals]

    @property
    def ends(self) -> np.ndarray:
        return self.encoder.ends[: self.clauses]

    def clause_lists(self) -> list[list[int]]:
        """The clauses as lists of literals."""
        flat = self.lits.tolist()
        return [flat[a:b] for a, b in pairwise([0, *self.ends.tolist()])]

    def solution(self) -> tuple[int, ...]:
        """The grid of a ``solved`` formula: propagation's digits."""
        grid, _ = self.decode([])
        return grid

    def decode(self, model: Sequence[int]) -> tuple[tuple[int, ...], list[int]]:
        """The grid a model of the formula gives (a solver's model: ``model[v - 1]`` is ``v`` or ``-v``),
        decided cells and each open cell's true candidate, and the clause that blocks the model's digits of
        the open cells (its negated true candidates). ``ValueError`` unless every open cell has exactly one
        true candidate."""
        encoder = self.encoder
        values = np.array(model[: self.primary], dtype=np.int64)
        count = _decode(values, encoder.cands, encoder.inverse, encoder.rules.n, encoder.grid, encoder.block)
        if count < 0:
            raise ValueError("the model does not give every open cell exactly one digit")
        return tuple(encoder.grid.tolist()), encoder.block[:count].tolist()


@njit(cache=True)
def _encode(start, digits, n, t, w, cands, varid, inverse, rule_lits, rule_ends, lits, ends):
    """Propagate ``start`` (digits per cell, 0 blank, when ``digits``; else candidate masks per cell) into
    ``cands`` and write the formula.

    Returns (variables, clauses, literals, literals needed): variables is the count of candidate
    variables, or -1 on a contradiction, or -2 when ``lits``/``ends`` are too small (then clauses and
    literals needed say how large they must be)."""
    ncells = start.shape[0]
    qlen = 0
    full = t.full
    one = np.int64(1)
    for cell in range(ncells):
        if digits:
            d = start[cell]
            mask = full if d == 0 else one << (d - 1)
        else:
            mask = start[cell] & full
        cands[cell] = mask
        if mask == 0:
            return _CONTRADICTION, 0, 0, 0
        if mask & (mask - 1) == 0:
            w.queue[qlen] = cell
            qlen += 1
    nprops = t.kinds.shape[0]
    for p in range(nprops):
        w.pending[p] = True
        w.stack[p] = p
    if not _propagate(cands, qlen, nprops, t, w):
        return _CONTRADICTION, 0, 0, 0
    # number the candidates of the open cells
    v = 0
    for cell in range(ncells):
        mask = cands[cell]
        base = cell * n
        single = mask & (mask - 1) == 0
        for d in range(n):
            if not single and mask >> d & 1:
                v += 1
                varid[base + d] = v
                inverse[v] = base + d
            else:
                varid[base + d] = 0
    # sizes first: the buffers may be too small for a large grid
    nclauses = 0
    nlits = 0
    for cell in range(ncells):
        mask = cands[cell]
        if mask & (mask - 1) != 0:
            k = _popcount(mask)
            nclauses += 1 + k * (k - 1) // 2
            nlits += k + k * (k - 1) + k * (t.house_start[cell + 1] - t.house_start[cell])  # with houses'
    nclauses += t.units.shape[0] * n
    for a in range(ncells):
        for j in range(t.peer_start[a], t.peer_start[a + 1]):
            b = t.peers[j]
            if b > a:
                k = _popcount(cands[a] & cands[b])
                nclauses += k
                nlits += 2 * k
    nclauses += rule_ends.shape[0]
    nlits += rule_lits.shape[0]
    if nclauses > ends.shape[0] or nlits > lits.shape[0]:
        return _TOO_SMALL, nclauses, 0, nlits
    c = 0
    k = 0
    # cell_at_least_one, then cell_at_most_one (pairwise)
    for cell in range(ncells):
        mask = cands[cell]
        if mask & (mask - 1) != 0:
            for d in range(n):
                if mask >> d & 1:
                    lits[k] = varid[cell * n + d]
                    k += 1
            ends[c] = k
            c += 1
    for cell in range(ncells):
        mask = cands[cell]
        if mask & (mask - 1) != 0:
            base = cell * n
            for d in range(n):
                if mask >> d & 1:
                    for e in range(d + 1, n):
                        if mask >> e & 1:
                            lits[k] = -varid[base + d]
                            lits[k + 1] = -varid[base + e]
                            k += 2
                            ends[c] = k
                            c += 1
    # unit_at_least_one: the digits a house's decided cells do not hold
    units = t.units
    for u in range(units.shape[0]):
        placed = 0
        for i in range(units.shape[1]):
            mask = cands[units[u, i]]
            if mask & (mask - 1) == 0:
                placed |= mask
        for d in range(n):
            if placed >> d & 1:
                continue
            first = k
            for i in range(units.shape[1]):
                cell = units[u, i]
                if cands[cell] >> d & 1:
                    lits[k] = varid[cell * n + d]
                    k += 1
            if k == first:
                return _CONTRADICTION, 0, 0, 0
            ends[c] = k
            c += 1
    # at most one of each digit over two open peers
    for a in range(ncells):
        mask_a = cands[a]
        if mask_a & (mask_a - 1) == 0:
            continue
        for j in range(t.peer_start[a], t.peer_start[a + 1]):
            b = t.peers[j]
            if b <= a:
                continue
            common = mask_a & cands[b]
            if common == 0 or cands[b] & (cands[b] - 1) == 0:
                continue
            for d in range(n):
                if common >> d & 1:
                    lits[k] = -varid[a * n + d]
                    lits[k + 1] = -varid[b * n + d]
                    k += 2
                    ends[c] = k
                    c += 1
    # the rules beyond houses, simplified by what is decided
    n3 = ncells * n
    start_lit = 0
    for r in range(rule_ends.shape[0]):
        first = k
        satisfied = False
        for j in range(start_lit, rule_ends[r]):
            lit = rule_lits[j]
            var = lit if lit > 0 else -lit
            if var > n3:
                lits[k] = v + var - n3 if lit > 0 else -(v + var - n3)
                k += 1
                continue
            cell = (var - 1) // n
            bit = np.int64(1) << ((var - 1) % n)
            mask = cands[cell]
            if mask & bit == 0:
                value = False
            elif mask & (mask - 1) == 0:
                value = True
            else:
                lits[k] = varid[var - 1] if lit > 0 else -varid[var - 1]
                k += 1
                continue
            if value == (lit > 0):
                satisfied = True
                break
        start_lit = rule_ends[r]
        if satisfied:
            k = first
            continue
        if k == first:
            return _CONTRADICTION, 0, 0, 0
        ends[c] = k
        c += 1
    return v, c, k, k


@njit(cache=True)
def _decode(values, cands, inverse, n, grid, block):
    """The grid of ``values`` (the model's first variables) into ``grid`` and the blocking clause into
    ``block``: its length, or -1 when an open cell has no true candidate or several."""
    for cell in range(cands.shape[0]):
        mask = cands[cell]
        grid[cell] = _highest(mask) if mask & (mask - 1) == 0 else 0
    count = 0
    for i in range(values.shape[0]):
        if values[i] > 0:
            cell = inverse[i + 1] // n
            if grid[cell] != 0:
                return -1
            grid[cell] = inverse[i + 1] % n + 1
            block[count] = -(i + 1)
            count += 1
    for cell in range(cands.shape[0]):
        if grid[cell] == 0:
            return -1
    return count
