"""The ``sat`` backend: a Sudoku CNF on a python-sat solver, with uniqueness by a guarded blocking clause.

The default way, **propagated**: each puzzle is propagated first by the compiled kernels of the dfs
engine (naked and hidden singles, locked candidates, the variant rules' propagators), and what is left
goes to a solver of its own as the propagated formula (``encode.propagated``: only the open cells'
candidates, renumbered, only the clauses not yet satisfied), loaded from compiled code
(``sat_native``). Propagation alone decides 76 to 79% of 17_clue, unique, with no solver at all.
Measured (benchmarks/bench_sat.py, CPU time, uniqueness included, against the two ways below as chosen
by measurement): 17_clue 3.4 times as fast, top1465 2.0 times, forum_hardest_11plus 2.7 times; faster on
12x12 to 25x25 grids too. MiniSat 2.2 builds and solves these small formulas fastest up to 16x16, Glucose
4 on 25x25 grids (``PROPAGATED_SOLVERS``; CaDiCaL's set-up per solver is too dear for them).

Its start-up, numba's, takes about 1.5 s once per process, so unless ``propagate=True`` a backend rents
(``propagation.Rental``): its first puzzles go the two older ways until they have taken as long, unless
the kernels are loaded already. ``propagate=False`` keeps to the older ways, which the backend measures
against each other:

- incremental: one solver per grid shape holds the empty grid's encoding and a puzzle's givens are
  assumptions, so the next puzzle costs no rebuild. A found solution is blocked by a clause guarded by a
  fresh activation literal, falsified for good once the puzzle is done (the solver then drops the clause).
- per puzzle: a solver with the puzzle's own formula, the extended encoding reduced by the givens (Kwon and
  Jain, LPAR 2006), cut from a per-shape template (``encode.reduced_fast``). Its search is about twice as
  fast, but every puzzle pays for a formula and a solver.

Measured (encodings/README.md): easy 9x9 puzzles (17_clue) run 5 times faster on the incremental solver,
the hardest ones (forum_hardest_11plus, ~90 conflicts each) a third faster per puzzle, where Glucose 4
builds and solves the small formulas fastest; from 25x25 on a formula per puzzle is faster even against a
built solver. So without propagation a shape's first puzzles are solved per puzzle until their time pays
for building the incremental solver (the ski-rental rule); from then on each puzzle goes the way with the
lower measured mean time, the other way getting short trials that cost at most 1% more. Grids beyond
16x16 are always solved per puzzle. The minimal and reduced encodings, another at-most-one scheme and
``incremental=True`` take these ways too.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Any, ClassVar

from ..encode.amo import at_most_one, check_scheme
from ..encode.cnf import candidates, check_encoding, clause_families, decode, default_amo
from ..errors import BackendUnavailableError, UnknownBackendError, UnsupportedRuleError, UsageError
from ..grid import Puzzle, Rules
from ..result import Enumeration, Stats
from ..signals import Stop, held_import, stop_requested, stopping
from .base import Backend, Searching, interruptible
from .propagation import Rental

if TYPE_CHECKING:
    from pysat.solvers import Solver

    from ..candidates import Candidates
    from ..encode.propagated import PropagatedEncoder
    from ..encode.reduced_fast import ReducedTemplate
    from .grid_solver import GridSolver

__all__ = [
    "DEFAULT_SOLVER",
    "PROOF_SOLVERS",
    "PROPAGATED_SOLVERS",
    "SOLVERS",
    "SatBackend",
    "canonical_solver",
    "propagated_solver",
]

#: python-sat's solver names (``pysat.solvers.SolverNames``), the variants of ``sat:NAME``.
SOLVERS: tuple[str, ...] = (
    "cadical103", "cadical153", "cadical195", "cadical300", "cryptosat", "ergo", "gluecard3", "gluecard4",
    "glucose3", "glucose4", "glucose42", "kissat404", "lingeling", "maplechrono", "maplecm", "maplesat",
    "mergesat3", "minicard", "minisat22", "minisatep",
)  # fmt: skip
#: Solvers python-sat lets log a DRUP proof (``with_proof=True``); the default is one of them.
PROOF_SOLVERS: tuple[str, ...] = (
    "cadical103", "cadical153", "cadical195", "cadical300", "ergo", "gluecard3", "gluecard4",
    "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm", "maplesat",
)  # fmt: skip
#: The solver of plain ``sat``: CaDiCaL leads the PROOF_SOLVERS on forum_hardest_11plus (1.7 times
#: Glucose), on 17_clue (1.2 times) and on 36x36 grids (4 s against Glucose's 150 s); 1.5.3 and 1.9.5 are
#: as fast, 1.5.3 up to 5% ahead on 17_clue (benchmarks/bench_sat.py, encodings/README.md).
DEFAULT_SOLVER = "cadical153"
#: The solver of a puzzle's propagated formula (``encode.propagated``) under plain ``sat``, by grid side:
#: the first entry whose side the grid's does not pass; larger grids take DEFAULT_SOLVER, CaDiCaL. Measured
#: with uniqueness, CPU time, alternating in one process: MiniSat 2.2 ahead of Glucose 4 by 9% on 17_clue
#: and top1465 and 6% on forum_hardest_11plus, as fast on 12x12 and 16x16 grids, 10% behind on 25x25
#: grids with 62% blanks (Glucose 21-25 ms a puzzle); 25x25 with 45% givens, Glucose 4 0.02 to 0.08 s,
#: CaDiCaL 0.03 to 0.15 s; 36x36, CaDiCaL 10 s, Glucose 4 not done in 60 s. These solvers log no proof:
#: ``prove`` runs its own proof-logging solver.
PROPAGATED_SOLVERS: tuple[tuple[int, str], ...] = ((16, "minisat22"), (25, "glucose4"))
#: The solver of a formula built for one puzzle under plain ``sat``, by grid side (others: DEFAULT_SOLVER).
PER_PUZZLE_SOLVER: dict[int, str] = {9: "glucose4"}
#: Options set on a new solver. Chronological backtracking (Nadel and Ryvchin, SAT 2018) off: these
#: short searches under many assumption levels run 5 to 10% faster with classic backjumping (measured).
SOLVER_OPTIONS: dict[str, dict[str, int]] = {"cadical153": {"chrono": 0}, "cadical195": {"chrono": 0}}
#: Options added for an incremental solver: lucky phases off, whose assignments are not counted as
#: decisions (UNIT_PROOF relies on that count); under assumptions they made no difference (measured),
#: while a 25x25 formula per puzzle solves up to twice as fast with them.
INCREMENTAL_OPTIONS: dict[str, dict[str, int]] = {"cadical153": {"lucky": 0}, "cadical195": {"lucky": 0}}
#: Solvers whose decision count covers every decision but those of assumptions (CaDiCaL: ``decide()``).
#: When such a solver finds a model under the givens without a decision, unit propagation alone forced
#: every cell: the solution is unique, and the second call that would prove it is skipped. This happens
#: for 44% of 17_clue puzzles (naked and hidden singles solve them) and none of the hardest.
UNIT_PROOF: frozenset[str] = frozenset({"cadical153", "cadical195"})
#: python-sat's C function adding one clause, and the attribute of its solver object holding the handle it
#: takes, for the default solvers: mapped over a formula without a Python loop, a 9x9 formula goes in a
#: third faster than by ``append_formula`` (measured: 350 against 520 microseconds for Glucose).
_ADD_CLAUSE: dict[str, tuple[str, str]] = {
    "cadical153": ("cadical153_add_cl", "cadical"),
    "glucose4": ("glucose41_add_cl", "glucose"),
}
#: Solvers python-sat can give a conflict budget but cannot interrupt: they search in conflict slices.
BUDGETED: frozenset[str] = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
#: Solvers that can be neither interrupted nor budgeted: a time limit is refused rather than risk a hang.
UNSTOPPABLE: frozenset[str] = frozenset({"kissat404", "lingeling"})
#: Solvers that ignore assumptions and take no clause after a call: a fresh solver per call.
NON_INCREMENTAL: frozenset[str] = frozenset({"kissat404"})
#: Conflicts of the first slice of a CaDiCaL search; each next slice doubles, capped under a time limit
#: by what the measured rate allows before the deadline. Every slice is a new SAT call, which resets the
#: solver's search schedule, so slices must grow: fixed slices of 1,000 conflicts never finished a 36x36
#: puzzle that one call solved in 2 s. Growing slices also cut heavy tails: one 36x36 puzzle took 174 s in
#: a single call and 4.9 s in slices, while five others took within a factor of 2.6 either way (measured).
FIRST_SLICE = 2000
#: An incremental solver is rebuilt after this many puzzles that needed a blocking clause: every
#: activation variable is one more slot in each model python-sat copies out (about 50 ns each), so
#: rebuilding (a few ms for 9x9) every few hundred puzzles is cheapest; it also sheds stale learnt clauses.
REBUILD_AFTER = 500
#: Choosing between the incremental solver and a solver per puzzle by their measured seconds per puzzle:
#: the means weigh the last COST_WINDOW puzzles of a way most. The slower way gets a trial of EXPLORE_RUN
#: puzzles in a row now and then, so that a change in the puzzles is noticed, spaced so that the trials
#: cost at most EXPLORE_SHARE more time, and at least EXPLORE_MIN puzzles apart. Isolated puzzles would
#: mislead: measured, a lone per-puzzle solve among incremental ones takes 40% longer than in a run.
COST_WINDOW = 256
EXPLORE_RUN = 8
EXPLORE_SHARE = 0.01
EXPLORE_MIN = 64
#: Largest grid side served by an incremental solver by default; larger grids solve faster per puzzle.
INCREMENTAL_UP_TO = 16
#: Largest grid side whose per-puzzle formulas are cut from a ``ReducedTemplate`` (16x16: about 120,000
#: ready-made binary clauses, 27 MB, built in 40 ms); larger grids build theirs with ``clause_families``.
TEMPLATE_UP_TO = 16


def propagated_solver(n: int, sums: bool = False) -> str:
    """The solver of a propagated formula of a grid of ``n`` digits (``PROPAGATED_SOLVERS``); with
    ``sums`` (rules with cage totals, arrows or thermometers), DEFAULT_SOLVER: their formulas are harder
    than the classic ones MiniSat was measured fastest on (a published killer, Wecoc #2: over 20 s on
    MiniSat 2.2, under 6 s on CaDiCaL)."""
    if sums:
        return DEFAULT_SOLVER
    return next((name for side, name in PROPAGATED_SOLVERS if n <= side), DEFAULT_SOLVER)


def canonical_solver(name: str) -> str:
    """python-sat's canonical name of a solver given by any of its aliases (``g4`` -> ``glucose4``)."""
    key = name.strip().lower()
    if key in SOLVERS:
        return key
    from pysat.solvers import SolverNames

    for canonical, aliases in vars(SolverNames).items():
        if canonical in SOLVERS and isinstance(aliases, tuple) and key in aliases:
            return canonical
    raise UnknownBackendError(f"backend sat has no solver {name!r}; valid: {', '.join(SOLVERS)}")


def new_solver(name: str, clauses: list[list[int]], incremental: bool = False) -> Solver:
    """A python-sat solver holding ``clauses``, with its SOLVER_OPTIONS set (and INCREMENTAL_OPTIONS for
    an ``incremental`` one); BackendUnavailableError when this python-sat build lacks it."""
    from pysat.solvers import NoSuchSolverError, Solver

    try:
        solver = Solver(name=name)
    except NoSuchSolverError:
        raise _unavailable(name) from None
    options = {**SOLVER_OPTIONS.get(name, {}), **(INCREMENTAL_OPTIONS.get(name, {}) if incremental else {})}
    if options:
        solver.configure(options)  # CaDiCaL takes options only before its first clause
    add_clauses(solver, name, clauses)
    return solver


def _unavailable(name: str) -> BackendUnavailableError:
    why = " (it needs pycryptosat)" if name == "cryptosat" else ""
    return BackendUnavailableError(f"this python-sat build has no solver {name}{why}")


@functools.cache
def _check_available(name: str) -> None:
    """BackendUnavailableError when this python-sat build lacks solver ``name`` (a success is kept)."""
    from pysat.solvers import NoSuchSolverError, Solver

    try:
        Solver(name=name).delete()
    except NoSuchSolverError:
        raise _unavailable(name) from None


def add_clauses(solver: Solver, name: str, clauses: list[list[int]]) -> None:
    """Add ``clauses`` to a python-sat solver: for the solvers of ``_ADD_CLAUSE`` the C function that adds
    one clause is mapped over them at C speed, else (or should python-sat change) ``append_formula``."""
    entry = _ADD_CLAUSE.get(name)
    if entry is not None:
        import pysolvers

        add = getattr(pysolvers, entry[0], None)
        handle = getattr(getattr(solver, "solver", None), entry[1], None)
        if add is not None and handle is not None:
            deque(map(add, repeat(handle), clauses), maxlen=0)
            return
    solver.append_formula(clauses)


def solve_call(
    solver: Any,
    name: str,
    assumptions: list[int],
    deadline: float | None,
    stoppable: bool = False,
    conflicts: int | None = None,
) -> bool | None:
    """One SAT call; None when the deadline passed first, or when the search met ``conflicts`` conflicts
    (a bound that, unlike a deadline, gives the same answer on any machine; solvers that cannot be
    budgeted, ``UNSTOPPABLE``, search without it). The solver stays usable.

    CaDiCaL, which python-sat cannot interrupt, always runs in growing slices of conflicts (FIRST_SLICE)
    with the clock read between them; other solvers get a timer that interrupts them.

    Ctrl-C and SIGTERM: python-sat's own Ctrl-C handling is never used (``_own_signals``): it jumps out of
    the solver from the signal handler, and when that lands inside the C library's allocator the lock it
    holds stays taken, so the process hangs at its next allocation (seen: one Ctrl-C in two on a 49x49).
    A short call lets the signal wait for its end. A ``stoppable`` call (a grid where one call may run for
    seconds, ``STOPPABLE_FROM_N``) runs where a signal stops it at once (``signals.stopping``): CaDiCaL
    through its own ``terminate``, called natively, the others through python-sat's ``interrupt``.
    """
    try:
        with _own_signals():
            return _solve_call(solver, name, assumptions, deadline, stoppable, conflicts)
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise


#: Grids with this many digits and more run each SAT call where Ctrl-C or SIGTERM stops it at once, at the
#: cost of a helper thread per call (about 0.1 ms); a call on a smaller classic grid ends within
#: milliseconds, one under variant rules may not (``stoppable``).
STOPPABLE_FROM_N = 16


def stoppable(rules: Rules) -> bool:
    """Whether a SAT call under ``rules`` runs where a signal stops it at once (``base.interruptible``)."""
    return interruptible(rules, STOPPABLE_FROM_N)


@contextlib.contextmanager
def _own_signals() -> Iterator[None]:
    """python-sat calls in the block install no SIGINT handler of their own (they take the main thread for
    another one: python-sat installs its handler only on the main thread)."""
    from pysat._utils import MainThread

    check = MainThread.__dict__["check"]
    MainThread.check = staticmethod(_not_main)  # type: ignore[method-assign]
    try:
        yield
    finally:
        MainThread.check = check  # type: ignore[method-assign]


def _not_main() -> bool:
    return False


def _solve_call(
    solver: Any,
    name: str,
    assumptions: list[int],
    deadline: float | None,
    stoppable: bool,
    conflicts: int | None = None,
) -> bool | None:
    if stop_requested():  # a helper thread's call that was stopped before it began (``signals.Stop``)
        return None
    stoppable = stoppable or Stop.current() is not None
    if name in BUDGETED:
        return _sliced(solver, name, assumptions, deadline, stoppable, conflicts)
    if name in UNSTOPPABLE:
        conflicts = None
    if deadline is None and conflicts is None and (not stoppable or name in UNSTOPPABLE):
        return solver.solve(assumptions=assumptions)
    if name in UNSTOPPABLE:
        raise UsageError(f"sat:{name} can be neither interrupted nor budgeted, so it takes no time limit")
    remaining = None if deadline is None else deadline - time.perf_counter()
    if remaining is not None and remaining <= 0:
        return None
    if remaining is not None and remaining >= threading.TIMEOUT_MAX:
        remaining = None  # a timer that far off would overflow; it would never go off anyway
    timer = None if remaining is None else threading.Timer(remaining, solver.interrupt)
    if timer is not None:
        timer.start()
    if conflicts is not None:
        solver.conf_budget(conflicts)  # for this call alone: python-sat lifts it after a limited call
    try:
        with stopping(solver.interrupt) if stoppable else contextlib.nullcontext():
            return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()
        solver.clear_interrupt()


def _sliced(
    solver: Any,
    name: str,
    assumptions: list[int],
    deadline: float | None,
    stoppable: bool,
    conflicts: int | None = None,
) -> bool | None:
    """A budgeted search in slices of FIRST_SLICE conflicts and doubling, none ending past the deadline,
    all of them within ``conflicts`` conflicts."""
    native = _cadical_native(name) if stoppable else None
    budget = FIRST_SLICE
    left = conflicts
    while (deadline is None or deadline > time.perf_counter()) and not stop_requested():
        if left is not None:
            if left <= 0:
                return None
            budget = min(budget, left)
            left -= budget
        solver.conf_budget(budget)
        if deadline is not None:  # the rate of this slice bounds the next one (no reading without)
            started, before = time.perf_counter(), solver.accum_stats()["conflicts"]
        if native is not None:
            status = native.solve(solver, assumptions)
        else:
            status = solver.solve_limited(assumptions=assumptions)
        if status is not None:
            return status
        budget *= 2
        if deadline is not None:  # no slice may run far past the deadline, at the rate just measured
            spent = max(time.perf_counter() - started, 1e-6)
            rate = max(solver.accum_stats()["conflicts"] - before, 1) / spent
            budget = max(100, min(budget, int(rate * (deadline - time.perf_counter())) + 1))
    return None


class _NativeCadical:
    """A CaDiCaL of python-sat's library called through ctypes, which releases the GIL (python-sat's own
    call keeps it, so no other thread could run during a search) and reaches ``Solver::terminate``, the
    asynchronous stop that python-sat does not offer for CaDiCaL."""

    def __init__(self, library: Any, version: str) -> None:
        import ctypes

        prefix = f"_ZN{len('CaDiCaL' + version)}CaDiCaL{version}6Solver"  # the Itanium C++ names
        self._solve = getattr(library, f"{prefix}5solveEv")
        self._assume = getattr(library, f"{prefix}6assumeEi")
        self._terminate = getattr(library, f"{prefix}9terminateEv")
        for function, argtypes in (
            (self._solve, [ctypes.c_void_p]),
            (self._assume, [ctypes.c_void_p, ctypes.c_int]),
            (self._terminate, [ctypes.c_void_p]),
        ):
            function.argtypes = argtypes
        self._solve.restype = ctypes.c_int
        self._assume.restype = self._terminate.restype = None
        self._pointer = ctypes.pythonapi.PyCapsule_GetPointer
        self._pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        self._pointer.restype = ctypes.c_void_p

    def solve(self, solver: Any, assumptions: list[int]) -> bool | None:
        """What python-sat's ``solve_limited`` does (assume, solve, record the status for ``get_model``
        and ``get_core``), stoppable at once by Ctrl-C or SIGTERM."""
        inner = solver.solver  # python-sat's Cadical object behind its Solver facade
        handle = self._pointer(inner.cadical, None)
        for literal in assumptions:
            self._assume(handle, literal)
        with stopping(lambda: self._terminate(handle)):
            code = self._solve(handle)
        inner.status = None if code == 0 else code == 10  # 10 satisfiable, 20 not, 0 stopped
        inner.prev_assumps = assumptions
        return inner.status


@functools.cache
def _cadical_native(name: str) -> _NativeCadical | None:
    """The native calls for the CaDiCaL ``name`` (``cadical153``), or None where this python-sat build does
    not export them (the search then runs through python-sat, stopping at the end of a slice)."""
    import ctypes

    try:
        import pysolvers

        return _NativeCadical(ctypes.CDLL(pysolvers.__file__), name.removeprefix("cadical"))
    except (ImportError, OSError, AttributeError):
        return None


_COUNTERS = ("decisions", "conflicts", "propagations")


def counters(solver: Any) -> dict[str, int]:
    """The solver's cumulative decisions, conflicts and propagations (empty where it keeps none)."""
    try:
        stats = solver.accum_stats() or {}
    except NotImplementedError:  # Kissat keeps no statistics python-sat can read
        return {}
    return {k: stats.get(k, 0) for k in _COUNTERS}


@dataclass
class _RulesState:
    """What the backend knows of a grid shape: its incremental solver, if built, the ski-rental tally, and
    the measured seconds per puzzle of each way (``True``: incremental) that choose between them."""

    engine: GridSolver | None = None
    encoder: PropagatedEncoder | None = None  # the shape's propagated formulas are built by it
    rent: float = 0.0  # seconds spent on per-puzzle solvers of this shape
    clause_seconds: list[float] = field(default_factory=list)  # build seconds per clause, per-puzzle builds
    cost: dict[bool, float] = field(default_factory=dict)  # mean seconds per puzzle, recent ones weigh more
    samples: dict[bool, int] = field(default_factory=dict)
    last: bool | None = None  # the way of the last puzzle
    since: int = 0  # puzzles since the slower way was last tried
    trial: int = 0  # puzzles left in the current trial of the slower way
    trying: bool = False  # the way on trial
    warm: set[bool] = field(default_factory=set)  # the ways that have solved a puzzle

    def observe(self, incremental: bool, seconds: float) -> None:
        """Fold one puzzle's time into its way's mean: the plain mean at first, then a moving average.

        A way's first puzzle (cold caches, first allocations: up to 8 times slower, measured) is left out,
        and so is the first puzzle after a change of way, which pays for the change, once its way has a
        mean."""
        switched, self.last = self.last is not None and self.last != incremental, incremental
        if incremental not in self.warm:  # a way's very first puzzle also warms up the process
            self.warm.add(incremental)
            return
        if switched and incremental in self.cost:
            return
        count = self.samples[incremental] = self.samples.get(incremental, 0) + 1
        mean = self.cost.get(incremental, seconds)
        self.cost[incremental] = mean + (seconds - mean) / min(count, COST_WINDOW)

    def choose(self) -> bool:
        """The way with the lower mean; now and then a trial of the other one, of EXPLORE_RUN puzzles in a
        row, spaced so that trials cost at most EXPLORE_SHARE more time (closer ways: more trials)."""
        incremental, per_puzzle = self.cost.get(True), self.cost.get(False)
        if self.trial:
            self.trial -= 1
            return self.trying
        unsure = [way for way in (True, False) if self.samples.get(way, 0) < EXPLORE_RUN // 2]
        if unsure or incremental is None or per_puzzle is None:  # a way measured too little gets a trial
            self.trial, self.trying = EXPLORE_RUN - 1, unsure[0] if unsure else incremental is None
            return self.trying
        best = incremental <= per_puzzle
        ratio = max(incremental, per_puzzle) / max(min(incremental, per_puzzle), 1e-9)
        self.since += 1
        if self.since >= max(EXPLORE_MIN, EXPLORE_RUN * (ratio - 1) / EXPLORE_SHARE):
            self.since = 0
            self.trial, self.trying = EXPLORE_RUN - 1, not best
            return self.trying
        return best


class SatBackend(Backend):
    """A python-sat solver on a Sudoku CNF: ``sat`` (the measured default solver) or ``sat:NAME``.

    Options: ``encoding`` (``minimal``, ``extended`` default, ``reduced``), ``amo`` (an at-most-one scheme
    of ``sudoku_cp.encode.amo.AMO_SCHEMES``; None: pairwise for groups up to 16 literals, else the
    sequential counter), ``incremental`` (None decides by measurement, True always one solver per
    shape with givens as assumptions, False a solver per puzzle) and ``propagate`` (None: the propagated
    way once its start-up is paid for, where the encoding is extended and the scheme pairwise; True from
    the first puzzle; False never). The strings ``auto``, ``true`` and ``false`` are read too, as
    configurations written as text give them.

    A time limit interrupts the search (CaDiCaL: between conflict slices); Lingeling and Kissat take
    none. Statistics per puzzle: ``variables`` and ``clauses`` of the formula, the solver's
    ``decisions``, ``conflicts`` and ``propagations``, ``time`` and ``build_time`` in seconds, and
    ``incremental`` (1 when the shape's incremental solver answered) and, from the propagated way and the
    incremental solver, ``forced`` (1 when propagation alone decided every cell, which proves the
    solution unique).

    >>> from sudoku_cp.grid import Puzzle
    >>> SatBackend().enumerate(Puzzle.from_string("1234341221434..."), limit=2).solutions[0].to_string()
    '1234341221434321'
    """

    name: ClassVar[str] = "sat"
    description: ClassVar[str] = "CNF on a python-sat solver: exactly-one encodings, incremental solving"
    requires: ClassVar[dict[str, str]] = {"pysat": "python-sat"}
    variants: ClassVar[tuple[str, ...]] = SOLVERS

    def __init__(
        self,
        variant: str | None = None,
        encoding: str = "extended",
        amo: str | None = None,
        incremental: bool | str | None = None,
        propagate: bool | str | None = None,
    ) -> None:
        super().__init__(None)
        incremental = _tristate(incremental)
        propagate = _tristate(propagate, "propagate")
        self.solver_name = canonical_solver(variant) if variant is not None else DEFAULT_SOLVER
        self.variant = None if variant is None else self.solver_name
        if self.variant is not None:
            _check_available(self.variant)  # now, not at the first puzzle propagation cannot finish
        try:
            self.encoding = check_encoding(encoding)
            self.amo = check_scheme(amo) if amo is not None else None
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if incremental and (encoding == "reduced" or self.solver_name in NON_INCREMENTAL):
            why = "the reduced formula depends on the givens" if encoding == "reduced" else "no assumptions"
            raise UsageError(f"sat:{self.solver_name} with encoding {encoding} cannot be incremental: {why}")
        if self.solver_name in NON_INCREMENTAL or encoding == "reduced":
            incremental = False
        elif encoding == "minimal" and incremental is None:
            incremental = True
        self.incremental = incremental
        fits = encoding == "extended" and amo in (None, "pairwise") and not incremental
        if propagate and not fits:
            raise UsageError(
                "propagate needs the extended encoding with pairwise at-most-one and no incremental solver"
            )
        #: Whether puzzles are propagated and solved as their propagated formulas (``encode.propagated``):
        #: from the first one when asked (``propagate=True``), else once the compiled start-up is paid for
        #: (``propagation.Rental``)
        self.propagate = fits if propagate is None else propagate
        self._rental = Rental(self.propagate, asked=bool(propagate))
        self._rules: dict[Rules, _RulesState] = {}

    # -- the Backend interface -------------------------------------------------------------------------

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if time_limit is not None and self.solver_name in UNSTOPPABLE:
            raise UsageError(
                f"sat:{self.solver_name} can be neither interrupted nor budgeted, so it takes no time limit; "
                f"use sat:{DEFAULT_SOLVER} or drop the time limit"
            )
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        state = self._rules.get(puzzle.rules)
        if state is None:
            state = self._rules[puzzle.rules] = _RulesState()
        if self._rental.propagating(puzzle.rules):
            return self._enumerate_propagated(puzzle, limit, deadline, state)
        incremental = self._use_incremental(puzzle.rules, state)
        if incremental:
            try:
                found = self._enumerate_incremental(puzzle, limit, deadline, state)
            except KeyboardInterrupt:
                state.engine = None  # python-sat left the solver mid-search: build a new one next time
                raise
            state.observe(True, found.stats["time"] - found.stats["build_time"])  # a build is paid once
        else:
            found = self._enumerate_per_puzzle(puzzle, limit, deadline)
            state.observe(False, found.stats["time"])
            state.rent += found.stats["time"]
            if found.stats["clauses"]:
                state.clause_seconds.append(found.stats["build_time"] / found.stats["clauses"])
        self._rental.paid(found.stats["time"])
        return found

    takes_candidates: ClassVar[bool] = True

    def enumerate_candidates(
        self,
        candidates: Candidates,
        limit: int = 1,
        time_limit: float | None = None,
        conflicts: int | None = None,
    ) -> Enumeration:
        """Up to ``limit`` solutions within ``candidates``: the shape's incremental solver, each digit a cell
        may not hold assumed false. ``conflicts`` bounds the search as ``time_limit`` does (``timed_out``
        when met), but gives the same answer on any machine and under any load."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if self.solver_name in NON_INCREMENTAL:
            raise UnsupportedRuleError(
                f"sat:{self.solver_name} takes no assumptions, so it cannot start from candidates: use "
                f"sat:{DEFAULT_SOLVER}"
            )
        puzzle = candidates.puzzle
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        state = self._rules.setdefault(puzzle.rules, _RulesState())
        if self._rental.propagating(puzzle.rules):
            return self._enumerate_propagated(puzzle, limit, deadline, state, candidates.masks, conflicts)
        n = puzzle.n
        excluded = [
            -(cell * n + d)
            for cell, mask in enumerate(candidates.masks)
            for d in range(1, n + 1)
            if not mask >> (d - 1) & 1
        ]
        try:
            return self._enumerate_incremental(puzzle, limit, deadline, state, excluded, conflicts)
        except KeyboardInterrupt:
            state.engine = None
            raise

    def close(self) -> None:
        for state in self._rules.values():
            if state.engine is not None:
                state.engine.close()
        self._rules.clear()

    # -- a service beyond the interface (used by sudoku_cp.explain) ------------------------------------

    def failed_givens(self, puzzle: Puzzle, time_limit: float | None = None) -> list[tuple[int, int]] | None:
        """None when the givens can all hold; else ``(cell, digit)`` givens that cannot, from the core.

        The core is the set of failed assumptions of the incremental solver (small, not always minimal).
        Solvers without assumptions (Kissat) answer with every given when the puzzle has no solution.
        ``TimeoutError`` when the search reaches ``time_limit`` (seconds).
        """
        if self.solver_name in NON_INCREMENTAL:
            found = self.enumerate(puzzle, 1, time_limit)
            if found.timed_out:
                raise TimeoutError(f"sat:{self.solver_name} reached the time limit")
            return None if found.solutions else list(puzzle.givens)
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        engine = self._engine(puzzle.rules, self._rules.setdefault(puzzle.rules, _RulesState()))
        n = puzzle.n
        try:
            status = engine.solve(engine.givens(puzzle.cells), deadline)
        except KeyboardInterrupt:
            self._rules[puzzle.rules].engine = None
            raise
        if status is None:
            raise TimeoutError(f"sat:{self.solver_name} reached the time limit")
        if status:
            return None
        return sorted(((lit - 1) // n, (lit - 1) % n + 1) for lit in engine.core() if lit > 0)

    # -- internals ---------------------------------------------------------------------------------------

    def _template(self, rules: Rules) -> ReducedTemplate | None:
        """The template of reduced formulas of classic rules where every group is pairwise, else None (the
        formula is then built by ``clause_families``, as it is for givens that clash)."""
        if (
            not rules.is_classic
            or rules.n > TEMPLATE_UP_TO
            or (self.amo or default_amo(rules.n)) != "pairwise"
        ):
            return None
        from ..encode.reduced_fast import ReducedTemplate  # numpy loads only when a formula per puzzle is cut

        return ReducedTemplate.of(rules)

    def _use_incremental(self, rules: Rules, state: _RulesState) -> bool:
        """Whether this puzzle goes to the shape's incremental solver, when not forced: per puzzle until
        their time would have paid for building it (ski rental), then the way measured faster."""
        if self.incremental is not None:
            return self.incremental
        if state.engine is not None:
            return state.choose()
        if rules.n > INCREMENTAL_UP_TO or not state.clause_seconds:
            return False
        per_clause = sum(state.clause_seconds) / len(state.clause_seconds)
        return state.rent >= per_clause * _full_clauses(rules, self.encoding, self.amo)

    def _engine(self, rules: Rules, state: _RulesState) -> GridSolver:
        engine = state.engine
        if engine is None:
            from .grid_solver import GridSolver

            encoding = "extended" if self.encoding == "reduced" else self.encoding
            engine = state.engine = GridSolver(rules, self.solver_name, encoding, self.amo)
        elif engine.guards >= REBUILD_AFTER:
            engine.renew()
        return engine

    def _enumerate_incremental(
        self,
        puzzle: Puzzle,
        limit: int,
        deadline: float | None,
        state: _RulesState,
        excluded: Sequence[int] = (),
        conflicts: int | None = None,
    ) -> Enumeration:
        """The shape's solver under the givens (and the ``excluded`` literals: digits cells may not hold),
        within ``conflicts`` conflicts in all when given."""
        start = time.perf_counter()
        rules, cells = puzzle.rules, puzzle.cells
        engine = self._engine(rules, state)
        fresh, name = engine.fresh, self.solver_name
        before = engine.counters()
        assumptions = engine.givens(cells) + list(excluded)
        solutions: list[Puzzle] = []
        complete = timed_out = forced = False
        unit_proof = name in UNIT_PROOF and bool(assumptions)
        guard = 0
        while True:
            left = None
            if conflicts is not None:
                left = conflicts - engine.counters().get("conflicts", 0) + before.get("conflicts", 0)
            status = None if left is not None and left <= 0 else engine.solve(assumptions, deadline, left)
            if status is None:
                timed_out = True
                break
            if not status:
                complete = True
                break
            grid = engine.solution()
            solutions.append(Puzzle(rules, grid))
            if len(solutions) >= limit:
                break
            if unit_proof and len(solutions) == 1 and engine.counters()["decisions"] == before["decisions"]:
                complete = forced = True  # every cell forced by unit propagation: no second solution
                break
            if not guard:
                guard = engine.guard()
                assumptions.append(guard)
            engine.block(grid, guard, cells)
        if guard:
            engine.retire(guard)
        stats: Stats = {"variables": engine.nv, "clauses": len(engine.clauses)}
        for k, v in engine.counters().items():
            stats[k] = v - before.get(k, 0)
        stats["time"] = time.perf_counter() - start
        stats["build_time"] = engine.build_time if fresh else 0.0
        stats["incremental"] = 1
        stats["forced"] = int(forced)
        return Enumeration(tuple(solutions), complete, timed_out, stats)

    def _enumerate_propagated(
        self,
        puzzle: Puzzle,
        limit: int,
        deadline: float | None,
        state: _RulesState,
        masks: Any = None,
        conflicts: int | None = None,
    ) -> Enumeration:
        """The puzzle propagated, then its propagated formula on a solver of its own (``encode.propagated``):
        no solver at all when propagation decides every cell or meets a contradiction."""
        turns = self._propagated(puzzle, limit, state, deadline, masks, conflicts)
        try:
            return next(turns)
        finally:
            turns.close()

    def searching(self, puzzle: Puzzle, limit: int = 1) -> Searching:
        """A propagated puzzle's solver is kept between turns, with what it learned (each turn's call goes on
        from there); the other paths start afresh each turn."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if self.solver_name in UNSTOPPABLE or not self._rental.propagating(puzzle.rules):
            return super().searching(puzzle, limit)
        state = self._rules.get(puzzle.rules)
        if state is None:
            state = self._rules[puzzle.rules] = _RulesState()
        return _Turns(lambda deadline: self._propagated(puzzle, limit, state, deadline))

    def _propagated(
        self,
        puzzle: Puzzle,
        limit: int,
        state: _RulesState,
        deadline: float | None,
        masks: Any = None,
        conflicts: int | None = None,
    ) -> Generator[Enumeration, float | None, None]:
        """``_enumerate_propagated`` in turns: the first ``next`` runs to ``deadline``, each later turn to
        the deadline sent; each answers with the solutions so far, ``timed_out`` until the search ends
        (``conflicts``, for a single turn: the conflicts it may meet in all). Closing it deletes the
        solver. ``time`` counts the turns only."""
        start = time.perf_counter()
        rules = puzzle.rules
        encoder = state.encoder
        if encoder is None:
            propagated = held_import("sudoku_cp.encode.propagated")  # (numba: see held_import)
            encoder = state.encoder = propagated.PropagatedEncoder(rules)
        formula = encoder.encode(puzzle.cells, masks)
        stats: Stats = {"variables": formula.variables, "clauses": formula.clauses, "incremental": 0}
        if formula.status != "open":  # decided by propagation: one solution (unique) or none
            found = () if formula.status == "contradiction" else (Puzzle(rules, formula.solution()),)
            stats.update(decisions=0, conflicts=0, propagations=0, forced=int(bool(found)))
            stats["time"] = stats["build_time"] = time.perf_counter() - start
            yield Enumeration(found, True, False, stats)
            return
        name = self.variant or propagated_solver(puzzle.n, bool(rules.constraints))
        stops = stoppable(rules)
        native = _sat_native()
        direct = deadline is None and conflicts is None and not stops and native.Direct.available(name)
        solver: Any = native.Direct(name, SOLVER_OPTIONS.get(name)) if direct else new_solver(name, [])
        load = native.load
        solutions: list[Puzzle] = []
        complete = False
        totals: dict[str, int] = {}
        blocks: list[list[int]] = []
        waited = 0.0  # seconds between turns, not counted as the search's
        try:
            if direct:
                satisfiable = solver.load(formula.variables, formula.lits, formula.ends)
            else:
                satisfiable = load(solver, name, formula.variables, formula.lits, formula.ends)
            build_time = time.perf_counter() - start
            complete = not satisfiable
            while satisfiable:
                left = None
                if conflicts is not None:
                    left = conflicts - totals.get("conflicts", 0) - counters(solver).get("conflicts", 0)
                if left is not None and left <= 0:
                    status = None
                else:
                    status = solver.solve() if direct else solve_call(solver, name, [], deadline, stops, left)
                if status is None:  # the deadline passed: the turn's answer, then the next turn's deadline
                    paused = time.perf_counter()
                    so_far = dict(totals)
                    _add_totals(so_far, solver)
                    turn: Stats = {**stats, **so_far, "forced": 0, "build_time": build_time}
                    turn["time"] = paused - start - waited
                    deadline = yield Enumeration(tuple(solutions), False, True, turn)
                    waited += time.perf_counter() - paused
                    continue
                if not status:
                    complete = True
                    break
                cells, block = formula.decode(solver.get_model())
                solutions.append(Puzzle(rules, cells))
                if not block:  # no open cell, only auxiliaries: no other grid
                    complete = True
                    break
                if len(solutions) >= limit:
                    break
                if name in NON_INCREMENTAL:  # a new solver with the blocking clauses so far
                    blocks.append(block)
                    _add_totals(totals, solver)
                    solver.delete()
                    solver = new_solver(name, blocks)
                    load(solver, name, formula.variables, formula.lits, formula.ends)
                else:
                    solver.add_clause(block)
            _add_totals(totals, solver)
            solver.delete()
            solver = None
        except KeyboardInterrupt:
            solver = None  # python-sat left it mid-search: dropped untouched (see _enumerate_per_puzzle)
            raise
        finally:
            if solver is not None:  # closed between turns, or an error
                solver.delete()
        stats.update(totals, forced=0)
        stats["time"] = time.perf_counter() - start - waited
        stats["build_time"] = build_time
        yield Enumeration(tuple(solutions), complete, False, stats)

    def _enumerate_per_puzzle(self, puzzle: Puzzle, limit: int, deadline: float | None) -> Enumeration:
        """A solver for this puzzle alone: the reduced formula, or the full one with the givens as units."""
        encoding = "reduced" if self.encoding == "extended" else self.encoding
        name = self.variant or PER_PUZZLE_SOLVER.get(puzzle.n, self.solver_name)
        template = self._template(puzzle.rules) if encoding == "reduced" else None  # built once, untimed
        start = time.perf_counter()
        cut = template.clauses(puzzle) if template is not None else None
        if template is not None and cut is not None:
            clauses, free_vars = cut
            nv = puzzle.n**3
            cut_from = template

            def read(model: list[int]) -> tuple[Puzzle, list[int]]:
                return cut_from.decode(model, puzzle, free_vars)
        else:
            families, nv = clause_families(puzzle, encoding, self.amo)
            clauses = [c for group in families.values() for c in group]
            reduced = encoding == "reduced" and puzzle.rules.is_classic
            free = candidates(puzzle)[0] if reduced and not puzzle.conflicts() else None
            n = puzzle.n
            blanks = [cell for cell, d in enumerate(puzzle.cells) if not d]

            def read(model: list[int]) -> tuple[Puzzle, list[int]]:
                solution = decode(model, puzzle, free)
                return solution, [-(cell * n + solution.cells[cell]) for cell in blanks]

        solutions: list[Puzzle] = []
        complete = timed_out = False
        solver = new_solver(name, clauses)
        build_time = time.perf_counter() - start
        totals: dict[str, int] = {}

        def retire(solver: Solver) -> None:  # a solver's counters start at 0: read them once, at its end
            for k, v in counters(solver).items():
                totals[k] = totals.get(k, 0) + v
            solver.delete()

        try:
            while True:
                status = solve_call(solver, name, [], deadline, stoppable(puzzle.rules))
                if status is None:
                    timed_out = True
                    break
                if not status:
                    complete = True
                    break
                solution, block = read(solver.get_model())
                solutions.append(solution)
                if len(solutions) >= limit:
                    break
                if name in NON_INCREMENTAL:
                    clauses.append(block)
                    retire(solver)
                    solver = new_solver(name, clauses)
                else:
                    solver.add_clause(block)
        except KeyboardInterrupt:
            # python-sat left the solver mid-search: any call on it now (its counters) makes CaDiCaL abort
            # the whole process, so it is dropped untouched, as the incremental path drops its engine
            solver = None
            raise
        finally:
            if solver is not None:
                retire(solver)
        stats: Stats = {"variables": nv, "clauses": len(clauses), **totals}
        stats["time"] = time.perf_counter() - start
        stats["build_time"] = build_time
        stats["incremental"] = 0
        return Enumeration(tuple(solutions), complete, timed_out, stats)


@functools.cache
def _sat_native() -> Any:
    """The module ``sat_native``, imported at the first propagated puzzle (it imports numba)."""
    return held_import("sudoku_cp.backends.sat_native")


def _add_totals(totals: dict[str, int], solver: Any) -> None:
    """Add a solver's counters (they start at 0 with each solver) to ``totals``."""
    for k, v in counters(solver).items():
        totals[k] = totals.get(k, 0) + v


def _tristate(value: bool | str | None, option: str = "incremental") -> bool | None:
    """An option (``incremental``, ``propagate``) as None, True or False, from a bool or its text
    (``auto``, ``true``, ``false``)."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("auto", "none"):
        return None
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    raise UsageError(f"{option} must be auto, true or false, not {value!r}")


def _full_clauses(rules: Rules, encoding: str, amo: str | None) -> int:
    """The number of clauses of the empty grid's encoding, from the size of one group's at-most-one."""
    from pysat.formula import IDPool

    n = rules.n
    per_group = len(at_most_one(list(range(1, n + 1)), amo or default_amo(n), IDPool(start_from=n + 1)))
    groups = n * n
    if encoding == "minimal":
        return groups + 3 * groups * per_group
    return 4 * groups * (1 + per_group)


class _Turns(Searching):
    """A search written as a generator of turns (``SatBackend._propagated``), made at the first turn."""

    def __init__(self, start: Callable[[float | None], Generator[Enumeration, float | None, None]]) -> None:
        self._start = start
        self._turns: Generator[Enumeration, float | None, None] | None = None
        self._last: Enumeration | None = None

    def advance(self, time_limit: float | None = None) -> Enumeration:
        if self._last is not None and not self._last.timed_out:
            return self._last  # over: its answer stays
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        if self._turns is None:
            self._turns = self._start(deadline)
            self._last = next(self._turns)
        else:
            self._last = self._turns.send(deadline)
        return self._last

    def close(self) -> None:
        if self._turns is not None:
            self._turns.close()
