"""The ``cpsat`` backend: OR-tools CP-SAT on an AllDifferent model (``cpsat``) or one-hot (``cpsat:bool``).

The models are in ``sudoku_cp.encode.cpsat_model``. What was measured (ortools 9.15; 9x9, one worker,
counting up to 2 solutions, 300-500-puzzle samples; a shared 2-core machine, so wall-clock rates varied by
up to 2x with the load: the per-CPU-second rates of ``benchmarks/bench_cpsat.py`` are the steadier ones)
and chosen:

- Propagate first (``propagate``, on by default once its compiled start-up is paid for, as in ``sat``:
  ``propagation.Rental``): the dfs engine's kernels (singles, locked candidates, the variant rules'
  propagators, ``encode.propagated``) decide 76 to 79% of 17_clue with no CP-SAT call, unique, and find
  contradictions; for the rest the int model's every cell takes its candidates as its domain and CP-SAT
  runs without presolve or probing (nothing is left for them). Measured with uniqueness, per CPU second:
  17_clue int 4.3 times as fast, bool 3.7 times; top1465 int 1.4 times. The bool model's literals are
  all fixed to the candidates at once (``cpsat_model.set_literals``): one by one, setting them cost more
  than they saved (top1465 141 against 266 puzzles per CPU second); at once, 17_clue 1,963 against 1,480
  and top1465 737 against 314 (``bench_cpsat.py --quick``, 2026-11-26, that version right after).
- Reuse one model per shape and set only the givens' domains in ``model.proto`` (undone before the next
  puzzle) instead of building a model per puzzle. Building costs 1.0 ms (int: 81 variables, 27
  AllDifferent) or 5.8 ms (bool: 729 literals, 324 ExactlyOne) in Python against 1-2 ms of CP-SAT: on
  17_clue, int 618 puzzles/s reused against 477/s rebuilt (541 against 465 per CPU second under load),
  bool 886 against 215 per CPU second. Fixing the bool model's givens by domains or by assumptions
  (``add_assumptions``) ran the same with presolve (523/s against 518/s); without presolve domains won
  (655/s against 496/s), so both models take domains. Narrowing the other cells' domains in Python
  first (Kwon and Jain's reduction) was slower: CP-SAT's propagation does it for less.
- Counting: one solve with ``enumerate_all_solutions`` and a solution callback that stops at the limit,
  rather than solve, block the solution, solve again: each solve has about 1 ms of set-up (loading,
  presolve) and little search, so the second solve doubles the cost (17_clue, per CPU second: int 627
  against 260, bool 853 against 399; serg_multi_solution: bool 730 against 353). CP-SAT's enumeration
  is only correct with one worker (with 2 it reported 168 of the 288 solutions of the empty 4x4 grid as
  all of them), so with more workers the backend blocks and solves again on a copy of the model.
- Reading a solution in the callback: value by value over each cell's candidates
  (``cpsat_model.read_cells``), not by copying the response's 729 literals into a list (pybind11 copies
  them one by one): 17_clue puzzles left open by propagation, bool, both ways alternating puzzle by
  puzzle, 0.28 against 0.08 ms a puzzle in the callback, 1.43 against 1.24 ms a solve.
- Parameters: symmetry detection, LP relaxation and SAT inprocessing off (``symmetry_level`` 0,
  ``linearization_level`` 0, ``use_sat_inprocessing`` false) took the bool model from 656 to 1,031
  puzzles/s, and did not slow 25x25 grids (int 0.57 s against 0.87 s with the defaults, bool 0.39 s
  against 0.79 s). Presolve: the int model needs it (AllDifferent is expanded there; off: 305/s against
  618/s) and one presolve iteration is enough (654/s); the bool model runs faster without presolve and
  probing (1,146/s; top1465: 894/s against 469/s with the default parameters). The detection of
  "greater than at least one of" structures (scheduling's precedences) off: a CP-SAT call on a 17-clue
  puzzle that propagation left open took 6% less time with the bool model and 10% less with the int
  model, on top1465 3% and 8% less (alternating in one process, callback enumeration to 2 solutions).
- Workers: one by default at every size. More never helped (the same number of branches: CP-SAT's first
  subsolver finds the solution, the others only take CPU): 9x9 bool, 2.4 ms per solve with 1 worker
  against 120 ms with 2; 25x25 (55% blank) bool 0.27 s against 0.67 s; empty 36x36, int 3.6 s with 1
  worker, 5.1 s with 2, 10.2 s with 8, bool 0.22 s, 0.77 s, 2.4 s; empty 49x49 bool 4.9 s against
  10.1 s with 2. ``workers=N`` (``--workers``) is there for machines where that differs.

A time limit becomes ``max_time_in_seconds`` (it bounds the search; building a shape's model once is not
counted); a search it stops reports ``timed_out`` (status unknown) and keeps only solutions really found.
Ctrl-C: CP-SAT's own SIGINT catching (``catch_sigint_signal``) is turned off, because after a solve it
leaves SIGINT at SIG_DFL (ortools 9.15), so the next Ctrl-C would kill the process with no clean-up. From
16x16 up, where a search may take seconds, ``signals.stopping`` lets Ctrl-C or SIGTERM stop the search and
then delivers the signal (the search stops within milliseconds, presolve between its steps: up to about
1.5 s on an empty 49x49 int model); smaller searches end within milliseconds and the signal comes after.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from typing import TYPE_CHECKING, Any, ClassVar

from ..encode.cpsat_model import (
    CpSatModel,
    add_blocking,
    build_model,
    candidate_domains,
    decode,
    free_domain,
    given_domains,
    mask_domains,
    read_cells,
    set_literals,
)
from ..errors import SudokuError, UsageError
from ..grid import Puzzle, Rules
from ..result import Enumeration, Stats, common_stats
from ..signals import Stop, held_import, stop_requested, stopping
from .base import Backend, interruptible
from .propagation import Rental

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ortools.sat.python import cp_model

    from ..candidates import Candidates

__all__ = ["ENUMERATIONS", "INTERRUPTIBLE_FROM_N", "CpSatBackend"]

#: Grids with this many digits and more, and any variant rules (``base.interruptible``), get a watcher so
#: that Ctrl-C or SIGTERM stops a long search.
INTERRUPTIBLE_FROM_N = 16
#: How solutions past the first are found: a callback in one enumerating solve, or solve-block-solve.
ENUMERATIONS = ("callback", "block")


@functools.cache
def _load_ortools() -> None:
    """Import CP-SAT once a process with the signals held: a Ctrl-C that lands while its C extension
    initialises leaves it failing with "ImportError: initialization failed" (seen on a loaded machine)."""
    held_import("ortools.sat.python.cp_model")


class CpSatBackend(Backend):
    """OR-tools CP-SAT with one model per shape; the givens are set as variable domains for each puzzle.

    The model (``cpsat_model``): the variant's (``cpsat:int``, ``cpsat:bool``), else per rules the one-hot
    bool model, or the int model (AllDifferent) for rules with sums (``kind_for``, as measured).

    Options: ``workers`` (CP-SAT search workers, default 1),
    ``presolve`` (True/False; default: on for the int model, off for the bool model and for a propagated
    puzzle, as measured), ``propagate`` (None: once its start-up is paid for; True, False),
    ``reuse`` (keep one model per shape, the default; False rebuilds it per puzzle, for the benchmark),
    ``enumeration`` (``callback`` or ``block``; default callback with one worker, block with more).

    >>> backend = CpSatBackend()
    >>> found = backend.enumerate(Puzzle.from_string("..3." ".2.4" "41.." "...."), limit=2)
    >>> [s.to_string() for s in found.solutions], found.complete
    (['1432321441232341'], True)
    """

    name: ClassVar[str] = "cpsat"
    description: ClassVar[str] = (
        "OR-tools CP-SAT: one-hot ExactlyOne (cpsat:bool) or AllDifferent per unit (cpsat:int); cpsat "
        "picks the one measured faster for the rules"
    )
    requires: ClassVar[dict[str, str]] = {"ortools": "ortools"}
    variants: ClassVar[tuple[str, ...]] = ("int", "bool")

    def __init__(
        self,
        variant: str | None = None,
        *,
        workers: int | None = None,
        presolve: bool | None = None,
        reuse: bool = True,
        enumeration: str | None = None,
        propagate: bool | str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(variant, **options)
        from .sat import _tristate

        propagate = _tristate(propagate, "propagate")
        if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool) or workers < 1):
            raise UsageError(f"workers must be a whole number of at least 1, not {workers!r}")
        if presolve is not None and not isinstance(presolve, bool):
            raise UsageError(f"presolve must be True or False, not {presolve!r}")
        if not isinstance(reuse, bool):
            raise UsageError(f"reuse must be True or False, not {reuse!r}")
        if enumeration is not None and enumeration not in ENUMERATIONS:
            raise UsageError(f"unknown enumeration {enumeration!r}; valid: {', '.join(ENUMERATIONS)}")
        self.workers = workers
        self.presolve = presolve
        self.reuse = reuse
        self.enumeration = enumeration
        self._models: dict[Rules, CpSatModel] = {}
        #: Variable indices whose domains the current puzzle narrowed, per shape: undone before the next one.
        self._narrowed: dict[Rules, list[int]] = {}
        #: Whether puzzles are propagated first (``encode.propagated``; on by default once its compiled
        #: start-up is paid for, ``propagation.Rental``), and the encoders that propagate them, per shape.
        self._rental = Rental(propagate is not False, asked=bool(propagate))
        self._encoders: dict[Rules, Any] = {}
        self._propagated = False  # whether the puzzle being solved was propagated (its parameters)

    def close(self) -> None:
        """Drop the models; the next puzzle of each shape builds its model again."""
        self._models.clear()
        self._narrowed.clear()

    # -- choices ---------------------------------------------------------------------------------------

    def workers_for(self, rules: Rules) -> int:
        """The number of CP-SAT workers for a grid: the user's, else 1 (measured best at every size)."""
        return self.workers or 1

    def kind_for(self, rules: Rules) -> str:
        """The model of a grid: the variant's, else the bool model, or the int model for rules with sums
        (cages with a total, arrows), whose linear constraints it states on the digits themselves.

        Measured (propagated, uniqueness, CPU time, 2026-11-26): the bool model took 17_clue at 2,070 to
        2,733 puzzles a second against 1,189 to 1,586 (alternating in one process), top1465 at 410
        against 199, a 16x16 and a 25x25 grid in 0.010 and 0.08 s against 0.013 and 0.17 s; on
        ``bench_variants.py --quick`` it was ahead on every rule without sums (X 165 against 62 a
        second, anti-knight 51 against 23, windoku 195 against 98, non-consecutive 2.0 against 1.4, the
        16x16 ones level) and behind on killer puzzles (47 against 85) and on the published arrow
        puzzles of the tests (36 and 92 ms against 11 and 26).
        """
        if self.variant:
            return self.variant
        return "int" if rules.has_sums else "bool"

    def presolve_for(self, kind: str, propagated: bool = False) -> bool:
        """Presolve on for the int model (it expands AllDifferent), off for the bool model and for a
        propagated puzzle (its domains are the candidates already), unless set."""
        if self.presolve is not None:
            return self.presolve
        return kind == "int" and not propagated

    def _parameters(
        self, solver: cp_model.CpSolver, kind: str, workers: int, *, enumerate_all: bool, propagated: bool
    ) -> None:
        """The parameters chosen by measurement (see the module's docstring)."""
        params = solver.parameters
        params.num_workers = workers
        params.enumerate_all_solutions = enumerate_all
        params.cp_model_presolve = self.presolve_for(kind, propagated)
        params.max_presolve_iterations = 1
        params.symmetry_level = 0
        params.linearization_level = 0
        params.use_sat_inprocessing = False
        params.auto_detect_greater_than_at_least_one_of = False
        params.catch_sigint_signal = False  # see the module's docstring
        if kind == "bool" or propagated:
            params.cp_model_probing_level = 0

    # -- the model of a puzzle -------------------------------------------------------------------------

    def _model_for(
        self, puzzle: Puzzle, candidates: Candidates | None = None, masks: Sequence[int] | None = None
    ) -> CpSatModel:
        """The shape's model with this puzzle's givens fixed (the last puzzle's undone), built if needed;
        with ``candidates``, each cell's variable narrowed to them as well; with ``masks`` (candidates per
        cell after propagation), every cell's variable narrowed to its own instead of the givens. The bool
        model's literals are all set anew each time (``set_literals``)."""
        rules = puzzle.rules
        model = self._models.get(rules) if self.reuse else None
        if model is None:
            model = build_model(rules, self.kind_for(rules))
            self._narrowed[rules] = []
            if self.reuse:
                self._models[rules] = model
        if model.kind == "bool":
            set_literals(model, masks if masks is not None else _known_masks(puzzle, candidates))
            return model
        variables = model.model.proto.variables
        lo, hi = free_domain("int", rules.n)
        narrowed = self._narrowed[rules]
        if masks is None:  # (masks give every variable its domain anew)
            for index in narrowed:
                domain = variables[index].domain
                domain.clear()
                domain.extend((lo, hi))
        narrowed.clear()
        if masks is not None:
            domains = mask_domains(masks, "int", rules.n)
        else:
            domains = [*given_domains(puzzle, "int"), *candidate_domains(candidates, "int")]
        for index, values in domains:
            domain = variables[index].domain
            domain.clear()
            domain.extend((values, values) if isinstance(values, int) else values)
            narrowed.append(index)
        return model

    # -- search ----------------------------------------------------------------------------------------

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        """Up to ``limit`` solutions; ``complete`` when CP-SAT proved there are no more."""
        _load_ortools()
        if self._rental.propagating(puzzle.rules):
            return self._enumerate_propagated(puzzle, None, limit, time_limit)
        found = self._enumerate(puzzle, None, limit, time_limit)
        self._rental.paid(found.stats["time"])
        return found

    takes_candidates: ClassVar[bool] = True

    def enumerate_candidates(
        self, candidates: Candidates, limit: int = 1, time_limit: float | None = None
    ) -> Enumeration:
        """Up to ``limit`` solutions within ``candidates``: each cell's domain narrowed to them."""
        _load_ortools()
        if not all(candidates.masks):  # a cell without a candidate: no solution (and no empty domain)
            return Enumeration((), True, False, {"time": 0.0})
        if self._rental.propagating(candidates.puzzle.rules):
            return self._enumerate_propagated(candidates.puzzle, candidates, limit, time_limit)
        return self._enumerate(candidates.puzzle, candidates, limit, time_limit)

    def _enumerate_propagated(
        self, puzzle: Puzzle, candidates: Candidates | None, limit: int, time_limit: float | None
    ) -> Enumeration:
        """The puzzle propagated first (``encode.propagated``): decided there, or solved by CP-SAT with
        every cell narrowed to its candidates (presolve off: nothing is left for it to find)."""
        if limit < 1:
            raise UsageError(f"limit must be at least 1, not {limit}")
        start = time.perf_counter()
        encoder = self._encoders.get(puzzle.rules)
        if encoder is None:
            propagated = held_import("sudoku_cp.encode.propagated")  # (numba: see held_import)
            encoder = self._encoders[puzzle.rules] = propagated.PropagatedEncoder(puzzle.rules)
        formula = encoder.encode(puzzle.cells, None if candidates is None else candidates.masks)
        if formula.status == "open":
            return self._enumerate(puzzle, None, limit, time_limit, encoder.cands.tolist(), start)
        found = () if formula.status == "contradiction" else (Puzzle(puzzle.rules, formula.solution()),)
        stats: Stats = {"workers": 0, "branches": 0, "conflicts": 0, "propagations": 0, "wall_time": 0.0}
        stats.update(solves=0, forced=int(bool(found)))  # decided by propagation, without CP-SAT
        stats["time"] = stats["build_time"] = time.perf_counter() - start
        return Enumeration(
            found, True, False, common_stats(stats, decisions="branches", conflicts="conflicts")
        )

    def _enumerate(
        self,
        puzzle: Puzzle,
        candidates: Candidates | None,
        limit: int,
        time_limit: float | None,
        masks: Sequence[int] | None = None,
        start: float | None = None,
    ) -> Enumeration:
        """Up to ``limit`` solutions by CP-SAT, the domains narrowed to the givens and ``candidates``, or
        to ``masks`` (each cell's candidates), which also tell where to read a solution."""
        import ortools.sat.python.cp_model  # noqa: F401  (imported here so build_time leaves out the import)

        if limit < 1:
            raise UsageError(f"limit must be at least 1, not {limit}")
        start = time.perf_counter() if start is None else start
        model = self._model_for(puzzle, candidates, masks)
        self._propagated = masks is not None
        workers = self.workers_for(puzzle.rules)
        solving = time.perf_counter()
        deadline = None if time_limit is None else solving + max(0.0, time_limit)
        stats: Stats = {
            "build_time": solving - start,
            "variables": model.variables,
            "constraints": model.constraints,
            "workers": workers,
            "branches": 0,
            "conflicts": 0,
            "propagations": 0,
            "wall_time": 0.0,
            "solves": 0,
        }
        method = self.enumeration or ("callback" if workers == 1 else "block")
        if limit > 1 and method == "callback":
            known = masks or _known_masks(puzzle, candidates)
            solutions, complete, timed_out = self._enumerate_callback(model, limit, deadline, stats, known)
        else:
            solutions, complete, timed_out = self._enumerate_blocking(
                model, puzzle, limit, deadline, workers, stats
            )
        stats["time"] = time.perf_counter() - start  # the common Stats ``time``: building included
        grids = tuple(Puzzle(puzzle.rules, cells) for cells in solutions)
        return Enumeration(
            grids, complete, timed_out, common_stats(stats, decisions="branches", conflicts="conflicts")
        )

    def _solve(
        self,
        model: CpSatModel,
        workers: int,
        deadline: float | None,
        stats: Stats,
        collector: Any = None,
    ) -> tuple[Any, cp_model.CpSolver | None]:
        """One CP-SAT solve (enumerating into ``collector`` if given): its status and solver, with the
        statistics added to ``stats``; ``(None, None)`` when the deadline has passed already (or the thread's
        ``signals.Stop`` was set)."""
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        enumerate_all = collector is not None
        self._parameters(
            solver, model.kind, workers, enumerate_all=enumerate_all, propagated=self._propagated
        )
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None, None
            solver.parameters.max_time_in_seconds = left
        if stop_requested():  # a helper thread's solve stopped before it began (``signals.Stop``)
            return None, None
        if interruptible(model.rules, INTERRUPTIBLE_FROM_N) or Stop.current() is not None:
            with stopping(solver.stop_search):
                status = solver.solve(model.model, collector)
        else:
            status = solver.solve(model.model, collector)
        stats["branches"] += solver.num_branches
        stats["conflicts"] += solver.num_conflicts
        stats["propagations"] += solver.num_binary_propagations + solver.num_integer_propagations
        stats["wall_time"] += solver.wall_time
        stats["solves"] += 1
        if status == cp_model.MODEL_INVALID:
            raise SudokuError(f"CP-SAT rejected the model: {model.model.validate()}")
        return status, solver

    def _enumerate_callback(
        self, model: CpSatModel, limit: int, deadline: float | None, stats: Stats, masks: Sequence[int]
    ) -> tuple[list[tuple[int, ...]], bool, bool]:
        """One enumerating solve whose callback collects solutions (read over each cell's candidates,
        ``masks``) and stops the search at the limit."""
        from ortools.sat.python import cp_model

        collector = _collector_class()(model, limit, masks)
        status, solver = self._solve(model, 1, deadline, stats, collector)
        if solver is None:
            return [], False, True
        complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        return collector.solutions, complete, not complete and len(collector.solutions) < limit

    def _enumerate_blocking(
        self,
        model: CpSatModel,
        puzzle: Puzzle,
        limit: int,
        deadline: float | None,
        workers: int,
        stats: Stats,
    ) -> tuple[list[tuple[int, ...]], bool, bool]:
        """Solve, exclude the solution with a constraint on a copy of the model, solve again, up to the limit.

        The blocking constraints go on a clone, so the shared model never carries them to the next puzzle.
        """
        from ortools.sat.python import cp_model

        solutions: list[tuple[int, ...]] = []
        work = model
        while len(solutions) < limit:
            status, solver = self._solve(work, workers, deadline, stats)
            if solver is None:
                return solutions, False, True
            if status == cp_model.INFEASIBLE:
                return solutions, True, False
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return solutions, False, True
            cells = decode(list(solver.response_proto.solution), puzzle.rules, model.kind)
            solutions.append(cells)
            if len(solutions) < limit:
                if work is model:
                    work = dataclasses.replace(model, model=model.model.clone())
                add_blocking(work, puzzle, cells)
        return solutions, False, False


def _known_masks(puzzle: Puzzle, candidates: Candidates | None) -> list[int]:
    """Each cell's candidates as far as the model's domains say: ``candidates``, else the givens."""
    if candidates is not None:
        return list(candidates.masks)
    full = (1 << puzzle.n) - 1
    return [1 << (d - 1) if d else full for d in puzzle.cells]


@functools.cache
def _collector_class() -> type:
    """The solution callback class, made on first use so that ortools is imported only then."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        """Collects distinct solutions (as grids) and stops the search when ``limit`` are found."""

        def __init__(self, model: CpSatModel, limit: int, masks: Sequence[int] | None) -> None:
            super().__init__()
            self.model = model
            self.limit = limit
            self.masks = masks  # each cell's candidates: what ``read_cells`` looks up
            self.value = self.SolutionIntegerValue if model.kind == "int" else self.SolutionBooleanValue
            self.solutions: list[tuple[int, ...]] = []
            self.seen: set[tuple[int, ...]] = set()

        def on_solution_callback(self) -> None:
            cells = read_cells(self.value, self.model.rules, self.model.kind, self.masks)
            if cells in self.seen:  # CP-SAT does not repeat a solution; this keeps the count safe if it did
                return
            self.seen.add(cells)
            self.solutions.append(cells)
            if len(self.solutions) >= self.limit:
                self.stop_search()

    return Collector
