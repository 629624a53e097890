"""The forcing nets' propagation probe, and whether a walk's puzzle has one solution.

The probe holds the extended encoding of the rules simplified by the board's facts at the time it is
built (clauses a placement satisfies dropped, eliminated candidates' literals removed: a few thousand
clauses instead of the twelve thousand of the empty 9x9 grid), with the facts, then the later ones,
assigned and propagated; its unit propagation is compiled (``forcing_compiled``). It is that of the
whole formula with the facts as unit clauses, breadth first in a fixed order, so a net's size (the
literals assigned by a contradiction) depends on the board alone, not on what was propagated before.
Uniqueness is asked of one incremental ``sat`` backend per thread, kept across walks (a solver built per
walk cost as much as the rest of a short walk).
"""

from __future__ import annotations

import atexit
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import deadline
from ..rules import RULES_KEPT, Rules
from .board import Board, cells_of, compiled, digits_of, rule_arrays

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Probe", "probe_of", "release", "unique_board"]


#: The literals the forcing nets' new propagations may assign in one compiled call (``Probe.forcing``):
#: some 20 ms, so that the time limit and Ctrl-C are heard between calls. One call on a puzzle whose
#: pill over most of the grid gives a formula of 241,092 variables took 3.5 s; a 9x9 puzzle of the
#: classic rules assigns a few hundred thousand in a whole search.
FORCING_WORK = 1 << 21


class Probe:
    """The board's rules as clauses, with the board's facts assigned, for unit propagation (see the
    module's docstring)."""

    def __init__(self, board: Board) -> None:
        import numpy as np

        self.n = board.n
        lits, ends, self._nv = _simplified(board)
        self._compiled = compiled("forcing_compiled")
        self._formula = self._compiled.formula(lits, ends, self._nv)
        #: Each variable's value at the fixpoint of the facts (1 true, -1 false, 0 open), and whether that
        #: met no conflict (else every propagation does).
        self._value = np.zeros(self._nv + 1, np.int8)
        self._trail = np.zeros(self._nv + 1, np.int64)
        # the formula's unit clauses are its first facts; with an empty clause (a rule broken) none holds
        sizes = np.diff(ends, prepend=0)
        units = lits[ends[sizes == 1] - 1].tolist()
        self._facts_hold = bool((sizes > 0).all()) and self._fix(units)
        #: Each cell's candidates and digit when its facts were last assigned.
        self._masks, self._values = list(board.masks), list(board.values)
        #: Each literal's propagation alone, kept for the board state it was asked in (``Board.version``):
        #: the forcing nets and the first contradiction nets ask the same ones.
        self._singles: tuple[np.ndarray, ...] | None = None
        self._version = -1
        self._candidates: list[int] = []

    def update(self, board: Board) -> list[int]:
        """Assign the board's new facts; the open candidates' variables, cells in order (once per board
        state)."""
        if board.version == self._version:
            return self._candidates
        self._singles = None
        self._version = board.version
        n = self.n
        masks, values, known_masks, known_values = board.masks, board.values, self._masks, self._values
        facts = []
        # a digit placed where it was the last candidate changes no mask: its cell's clause is then a unit
        for cell in [c for c, (a, b) in enumerate(zip(masks, known_masks, strict=True)) if a != b]:
            base, mask, value = cell * n, masks[cell], values[cell]
            old_mask, old_value = known_masks[cell], known_values[cell]
            known_masks[cell], known_values[cell] = mask, value
            if value and not old_value:
                facts.append(base + value)
            facts += [-(base + d) for d in digits_of(old_mask & ~(1 << (value - 1) if value else mask))]
        if facts:
            self._facts_hold = self._fix(facts) and self._facts_hold
        candidates = [var for cell in cells_of(board.open_bits) for var in _variables(cell * n, masks[cell])]
        self._candidates = candidates
        return candidates

    def propagate(self, assumptions: list[int]) -> tuple[bool, list[int]]:
        """Unit propagation under ``assumptions`` (each in turn, then what it forces, breadth first): whether
        it meets no conflict, and the literals it assigned by then (the facts are not among them)."""
        import numpy as np

        if not self._facts_hold:
            return False, []
        size, ok = self._compiled.propagate(
            self._value, *self._formula, self._nv, np.array(assumptions, np.int64), self._trail
        )
        return ok, self._trail[:size].tolist()

    def fails_once_nested(
        self, assumptions: list[int], candidates: list[int], held: set[int] | None = None
    ) -> int:
        """``forcing._fails`` at level 1 (``forcing_compiled.fails_once_nested``): 0 when ``assumptions``
        hold through the contradiction nets of ``candidates`` under them, else the size counted. When
        they hold, the variables they make true go into ``held``: those hold through the nets as well."""
        import numpy as np

        if not self._facts_hold:
            return 1  # every propagation meets the facts' conflict at once
        kept = np.zeros(1, np.int64)
        size = int(
            self._compiled.fails_once_nested(
                np.array(assumptions, np.int64), np.array(candidates, np.int64), self._value, *self._formula,
                self._nv, self._trail, kept,
            )
        )  # fmt: skip
        if not size and held is not None:
            trail = self._trail[: int(kept[0])]
            held.update(trail[trail > 0].tolist())
        return size

    def decided(self, var: int) -> bool:
        """Whether the facts' propagation assigned ``var`` (a candidate the board still lists may be one)."""
        return bool(self._value[var])

    def single(self, var: int) -> tuple[bool, int]:
        """``propagate([var])`` as whether it meets no conflict and how many literals it assigned, once per
        board state."""
        if not self._facts_hold:
            return False, 0
        return self._compiled.single(var, self._value, *self._formula, self._nv, self._trail, *self._kept())

    def forcing(self, board: Board) -> tuple[int, int, int, int, list[int]] | None:
        """The first cell or region forcing net (``forcing_compiled.forcing`` says which comes first): 1 for
        a cell or 2 for a region, the cell or house, the region's digit, the nets' size, the variables every
        option eliminates; or None."""
        import numpy as np

        if not self._facts_hold:
            return None
        found, eliminated = np.zeros(5, np.int64), np.zeros(board.rules.ncells * self.n, np.int64)
        house_ptr, houses = rule_arrays(board.rules)[2:4]
        args = (board.open_masks(), self.n, house_ptr, houses, self._value, *self._formula, self._nv)
        work = np.zeros(1, np.int64)
        while True:  # in calls of bounded work, the thread's deadline (and Ctrl-C) read between them
            work[0] = FORCING_WORK
            if self._compiled.forcing(*args, self._trail, *self._kept(), found, eliminated, work):
                break
            if found[0] != self._compiled.PAUSED:
                return None
            deadline.check()
        kind, where, digit, size, count = found.tolist()
        return kind, where, digit, size, eliminated[:count].tolist()

    def _kept(self) -> tuple[np.ndarray, ...]:
        """The state's single propagations (``forcing_compiled.single``): done, ok, count, eliminations."""
        import numpy as np

        if self._singles is None:
            primary = self.n**3
            self._singles = (
                np.zeros(primary + 1, np.bool_),
                np.zeros(primary + 1, np.bool_),
                np.zeros(primary + 1, np.int64),
                np.zeros((primary + 1, primary // 64 + 1), np.uint64),
            )
        return self._singles

    def _fix(self, facts: list[int]) -> bool:
        import numpy as np

        return self._compiled.fix(
            self._value, *self._formula, self._nv, np.array(facts, np.int64), self._trail
        )


@lru_cache(maxsize=1 << 14)
def _variables(base: int, mask: int) -> tuple[int, ...]:
    """The variables ``base + d`` of the digits d of ``mask``."""
    return tuple(base + d for d in digits_of(mask))


def probe_of(board: Board) -> Probe:
    """The walk's probe, built on first use and kept in ``board.memo``, updated to the board."""
    probe = board.memo.get("probe")
    if probe is None:
        probe = board.memo["probe"] = Probe(board)
    probe.update(board)
    return probe


#: How many conflicts ``unique_board`` lets the solver meet: a puzzle it has not settled by then counts as
#: not known unique (nested nets are skipped, as for several solutions), so that no walk waits on it
#: without end (a published little killer puzzle without solution kept sat busy for minutes). A count of
#: conflicts, not seconds, so that a walk is the same on any machine, under any load and with any number
#: of worker processes. The published puzzles' proofs (``sudoku-cp count``'s solver from the walk's
#: candidates): Hard renban 2 49,191 conflicts (1.5 s), the hard killers 60,000-190,000 (2-10 s); one
#: without solution met 80,000 in 9 s.
UNIQUE_CONFLICTS = 80_000


def unique_board(board: Board) -> bool:
    """Whether ``board`` is known to have exactly one solution (within ``UNIQUE_CONFLICTS``). Sound steps
    keep every solution, so this holds for the whole walk and is asked once. ``TimeoutError`` (and no
    answer kept) when the thread's ``deadline`` passes first."""
    unique = board.memo.get("unique")
    if unique is None:
        from ..encode import propagated

        if not propagated.ready():  # loading (or compiling) sat's kernels is no part of the solver's work
            propagated.warm_up()
        found = _uniqueness_backend().enumerate_candidates(
            board.candidates(), limit=2, time_limit=deadline.left(), conflicts=UNIQUE_CONFLICTS
        )
        deadline.check()  # an answer cut short by the deadline is no answer
        unique = board.memo["unique"] = found.complete and len(found.solutions) == 1
    return unique


def release(board: Board) -> None:
    """Drop what the walk kept (its probe, links, caches): a board kept or sent elsewhere holds none."""
    board.memo.clear()


_LOCAL = threading.local()


def _uniqueness_backend() -> Any:
    """This thread's ``sat`` backend (its incremental solver per rules serves every walk), closed at exit:
    python-sat's solvers cannot delete themselves once the interpreter is being torn down."""
    backend = getattr(_LOCAL, "backend", None)
    if backend is None:
        from ..backends import make_backend

        backend = _LOCAL.backend = make_backend("sat")
        atexit.register(backend.close)
    return backend


def _simplified(board: Board) -> tuple[np.ndarray, np.ndarray, int]:
    """The extended encoding of the board's rules simplified by its facts: the clauses no fact satisfies,
    without the literals a fact falsifies (one left with a single literal stays, a unit; with none, the
    empty clause). The longer clauses first, then the binary ones, each in the encoding's order (Glucose
    watches the two kinds apart, so their propagation order is the whole formula's). As flat arrays: the
    literals, each clause's end, and the variable count."""
    import numpy as np

    n = board.n
    lits, starts, binary, nv = _clause_arrays(board.rules)
    value = np.zeros(nv + 1, dtype=np.int8)  # per variable: 1 true, -1 false, 0 open
    masks = np.array(board.masks, dtype=np.int64)
    values = np.array(board.values, dtype=np.int64)
    placed = values > 0
    primary = np.where((masks[:, None] >> np.arange(n)) & 1 == 1, 0, -1).astype(np.int8)
    primary[placed] = -1
    primary[placed, values[placed] - 1] = 1
    value[1 : primary.size + 1] = primary.ravel()
    # the longer clauses (and any unit): those with no true literal, their open literals
    state = value[np.abs(lits)] * np.sign(lits)  # 1 a true literal, -1 a false one, 0 open
    count = len(starts) - 1
    clause = np.repeat(np.arange(count), np.diff(starts))
    satisfied = np.bincount(clause[state == 1], minlength=count) > 0
    open_lits = (state == 0) & ~satisfied[clause]
    sizes = [np.bincount(clause[open_lits], minlength=count)[~satisfied]]
    out = [lits[open_lits]]
    # the binary ones: both ends open, else the open end alone (or none)
    state = value[np.abs(binary)] * np.sign(binary)
    live = ~(state == 1).any(axis=1)
    open_ends = (state == 0).sum(axis=1)
    both = binary[live & (open_ends == 2)]
    out.append(both.ravel())
    sizes.append(np.full(len(both), 2, dtype=np.int64))
    cut = live & (open_ends < 2)
    out.append(binary[cut][state[cut] == 0])
    sizes.append(open_ends[cut])
    return np.concatenate(out), np.cumsum(np.concatenate(sizes)), nv


@lru_cache(maxsize=RULES_KEPT)
def _clause_arrays(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The empty grid's extended encoding as arrays: the longer clauses (and any unit) as their literals
    one after the other and where each starts (one more entry: the end), the binary ones a clause a row,
    and the variable count. (The longer clauses padded to the longest were 1.3 GB for a pill over most of
    the grid, whose sum's graph makes clauses of 593 literals: 117 times their literals.)"""
    import numpy as np

    from ..backends.grid_solver import empty_grid_clauses
    from ..ragged import flat

    clauses, nv = empty_grid_clauses(rules, "extended")
    starts, lits = flat([c for c in clauses if len(c) != 2])
    binary = np.array([c for c in clauses if len(c) == 2], dtype=np.int64).reshape(-1, 2)
    return lits, starts, binary, nv
