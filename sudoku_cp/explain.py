"""Why a puzzle is not a proper Sudoku: givens that cannot all hold, or two solutions and a clue between them.

- No solution: a minimal set of givens that cannot all hold. Givens that break a rule by themselves (a
  digit given twice in one house, what ``solve`` reports) are the first set, whatever the backend; else
  the sat backend names one from its solver's core (the failed assumptions among the givens), and other
  backends start from every given. A deletion pass then drops each given whose removal keeps the rest
  unsatisfiable, until none can go (Marques-Silva, *Minimal Unsatisfiability: Models, Algorithms and
  Applications*, ISMVL 2010).
- Several solutions: how many (counted up to ``COUNT_LIMIT``, ``10+`` beyond), two of them and the cells
  where they differ, and a smallest set of clues from the first solution that makes the puzzle unique,
  proven so. It is found as an implicit hitting set (the idea of MaxHS: Davies and Bacchus, *Solving
  MAXSAT by Solving a Sequence of Simpler SAT Instances*, CP 2011): every other solution found differs
  from the first on a set of cells that the clues must hit; a minimum hitting set of the sets found so far
  (CP-SAT) is tried, and a second solution under it adds its set, until the clues leave one solution. The
  last set is then a minimum for all solutions, since every unique set hits the sets seen.
- One solution: the puzzle is unique.

Everything runs on the Backend interface (``enumerate``), so every backend can explain; only the core
shortcut is particular to ``sat``.

>>> print(explain("123." "...." "...4" "....").summary())
no solution: r1c1=1 r1c2=2 r1c3=3 r3c4=4 cannot all hold
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .backends import Backend, make_backend
from .grid import Puzzle
from .result import Status
from .signals import stopping

__all__ = [
    "COUNT_LIMIT",
    "Explanation",
    "explain",
    "minimal_conflict",
    "render_givens",
    "smallest_unique_clues",
    "splitting_clue",
]

#: Solutions counted before ``explain`` says ``10+``.
COUNT_LIMIT = 10
#: Hitting-set rounds before the search for a smallest clue set settles for a small one (unproven).
CLUE_ROUNDS = 200

Given = tuple[int, int]  # (cell, digit)


def render_givens(puzzle: Puzzle, givens: tuple[Given, ...] | list[Given]) -> str:
    """``r1c3=5 r1c8=5``: cells by row and column, digits as numbers."""
    return " ".join(f"{puzzle.rules.name(cell)}={d}" for cell, d in givens)


@dataclass(frozen=True)
class Explanation:
    """What explains a puzzle's status.

    ``conflict``: for ``NO_SOLUTION``, givens that cannot all hold, none of which can be dropped.
    ``solutions``: the solution of a unique puzzle, or two of a puzzle with several; ``count`` how many
    there are, counted up to ``COUNT_LIMIT`` (``capped`` when there are at least that many).
    ``differences``: the cells where the two solutions differ. ``unique_with``: ``(cell, digit)`` clues
    from the first solution with which the puzzle has exactly that solution (proven); ``minimum`` says no
    smaller set does (False when the search for one was cut short). ``status`` is ``UNKNOWN`` when a time
    limit stopped a search.
    """

    puzzle: Puzzle
    status: Status
    conflict: tuple[Given, ...] = ()
    solutions: tuple[Puzzle, ...] = ()
    differences: tuple[int, ...] = ()
    count: int = 0
    capped: bool = False
    unique_with: tuple[Given, ...] = ()
    minimum: bool = False
    backend: str = ""

    @property
    def solutions_text(self) -> str:
        """The number of solutions as said: ``2``, or ``10+`` when counting stopped at the limit."""
        return f"{self.count}+" if self.capped else str(self.count)

    def summary(self) -> str:
        """One line: the verdict and its reason."""
        if self.status is Status.NO_SOLUTION:
            if not self.conflict:  # the rules break each other with no given at all
                rules = self.puzzle.rules
                return f"no solution: the rules themselves ({rules}) cannot all hold, with no given"
            return f"no solution: {render_givens(self.puzzle, self.conflict)} cannot all hold"
        if self.status is Status.MULTIPLE:
            cells = " ".join(self.puzzle.rules.name(c) for c in self.differences)
            count = f"{self.solutions_text} solutions" if self.count else "multiple solutions"
            line = f"{count}: two differ at {cells}"
            if self.unique_with:
                kind = "a smallest set" if self.minimum else "a small set, not proven smallest"
                line += (
                    f"; unique with {render_givens(self.puzzle, self.unique_with)} ({kind}, proven unique)"
                )
            return line
        if self.status is Status.SOLVED:
            return "unique: exactly one solution"
        return "unknown: the time limit stopped the search"

    def lines(self) -> list[str]:
        """The summary, then the solutions that witness it."""
        out = [self.summary()]
        if self.status is Status.MULTIPLE:
            out += [f"solution {i}: {s.to_string()}" for i, s in enumerate(self.solutions, 1)]
        elif self.status is Status.SOLVED:
            out.append(f"solution: {self.solutions[0].to_string()}")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def _with_givens(puzzle: Puzzle, givens: list[Given]) -> Puzzle:
    return Puzzle.empty(puzzle.rules).with_cells(givens)


def _search(engine: Backend, puzzle: Puzzle, limit: int, time_limit: float | None) -> tuple[Puzzle, ...]:
    found = engine.enumerate(puzzle, limit=limit, time_limit=time_limit)
    if found.timed_out:
        raise TimeoutError("a search reached the time limit")
    return found.solutions


def _core(
    engine: Backend, puzzle: Puzzle, givens: list[Given], time_limit: float | None
) -> list[Given] | None:
    """None when ``givens`` can all hold; else a subset of them that cannot (the solver's core when known)."""
    sub = _with_givens(puzzle, givens)
    failed = getattr(engine, "failed_givens", None)
    if failed is not None:
        core = failed(sub, time_limit=time_limit)
        return None if core is None else [g for g in givens if g in set(core)]
    return None if _search(engine, sub, 1, time_limit) else list(givens)


def _clash(puzzle: Puzzle) -> list[Given] | None:
    """The givens of the first rule the givens break by themselves (a digit twice in one house, ...), or None.

    Such a clash is the simplest explanation, the one ``solve`` gives, and it is found without a search, so
    every backend starts from it rather than from its own choice among all the givens.
    """
    clash = puzzle.rules.violations(puzzle.cells, first=True)
    return [(c, puzzle.cells[c]) for c in clash[0].cells if puzzle.cells[c]] if clash else None


def minimal_conflict(
    puzzle: Puzzle, backend: str | Backend = "sat", *, time_limit: float | None = None
) -> tuple[Given, ...] | None:
    """A minimal set of the puzzle's givens that cannot all hold, or None when the puzzle has a solution.

    Minimal: dropping any one of them leaves givens that can all hold (checked by a search each). Givens
    that break a rule by themselves (a digit twice in one house) are the answer, the same from every backend.
    ``TimeoutError`` when a search reaches ``time_limit``.
    """
    engine = make_backend(backend)
    core = _clash(puzzle) or _core(engine, puzzle, list(puzzle.givens), time_limit)
    if core is None:
        return None
    i = 0
    while i < len(core):  # the first i givens of `core` are known to be needed
        smaller = _core(engine, puzzle, core[:i] + core[i + 1 :], time_limit)
        if smaller is None:
            i += 1
        else:  # a needed given stays needed in every subset, so `smaller` keeps core[:i]
            core = smaller
    return tuple(core)


def splitting_clue(
    puzzle: Puzzle,
    first: Puzzle,
    second: Puzzle,
    backend: str | Backend = "sat",
    *,
    time_limit: float | None = None,
) -> tuple[Given | None, bool]:
    """A clue from ``first`` at a cell where ``second`` differs, and whether it makes the puzzle unique.

    Any such clue removes ``second`` and keeps ``first``; the cells are tried in order for one that leaves
    a single solution, and the first cell's clue is the answer when none does.
    """
    engine = make_backend(backend)
    clues = [(c, first.cells[c]) for c in range(puzzle.rules.ncells) if first.cells[c] != second.cells[c]]
    for clue in clues:
        if len(_search(engine, puzzle.with_cells([clue]), 2, time_limit)) == 1:
            return clue, True
    return (clues[0] if clues else None), False


def smallest_unique_clues(
    puzzle: Puzzle,
    solution: Puzzle,
    others: list[Puzzle],
    backend: str | Backend = "sat",
    *,
    time_limit: float | None = None,
    rounds: int = CLUE_ROUNDS,
) -> tuple[tuple[Given, ...], bool]:
    """Clues from ``solution`` with which ``puzzle`` has it as its only solution, and whether no smaller set
    does; ``others`` are other solutions already known (each adds a set of cells to hit).

    The implicit hitting-set loop of the module docstring; each round is one CP-SAT call and one uniqueness
    search. After ``rounds`` rounds the set of the last round is completed greedily (clues added where a
    second solution differs) into a unique one that is not proven smallest. ``TimeoutError`` when a search
    reaches ``time_limit``.
    """
    engine = make_backend(backend)
    target = solution.cells
    to_hit: list[frozenset[int]] = []
    for other in others:
        diff = frozenset(c for c, d in enumerate(other.cells) if d != target[c])
        if diff and diff not in to_hit:
            to_hit.append(diff)
    chosen: frozenset[int] = frozenset()
    for _ in range(rounds):
        chosen = _minimum_hitting_set(to_hit)
        second = _second_solution(engine, puzzle, solution, chosen, time_limit)
        if second is None:
            return _clues(solution, chosen), True
        to_hit.append(frozenset(c for c, d in enumerate(second.cells) if d != target[c]))
    while (second := _second_solution(engine, puzzle, solution, chosen, time_limit)) is not None:
        chosen |= {next(c for c, d in enumerate(second.cells) if d != target[c])}
    return _clues(solution, chosen), False


def _clues(solution: Puzzle, cells: frozenset[int]) -> tuple[Given, ...]:
    return tuple((c, solution.cells[c]) for c in sorted(cells))


def _second_solution(
    engine: Backend, puzzle: Puzzle, solution: Puzzle, cells: frozenset[int], time_limit: float | None
) -> Puzzle | None:
    """A solution other than ``solution`` once its digits at ``cells`` are given, or None: then unique."""
    found = _search(engine, puzzle.with_cells(_clues(solution, cells)), 2, time_limit)
    return next((s for s in found if s != solution), None)


def _minimum_hitting_set(sets: list[frozenset[int]]) -> frozenset[int]:
    """A smallest set of cells meeting every set (CP-SAT: one Boolean per cell, at least one per set)."""
    if not sets:
        return frozenset()
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    cells = sorted(set().union(*sets))
    pick = {c: model.new_bool_var(f"c{c}") for c in cells}
    for group in sets:
        model.add_bool_or([pick[c] for c in group])
    model.minimize(sum(pick.values()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is Python's, as in backends.cpsat
    with stopping(solver.stop_search):  # a signal stops the search, then reaches its handler
        status = solver.solve(model)
    if status != cp_model.OPTIMAL:  # pragma: no cover - a set cover always has an optimum
        raise RuntimeError(f"the hitting-set model ended {solver.status_name(status)}")
    return frozenset(c for c in cells if solver.value(pick[c]))


def explain(
    puzzle: Puzzle | str, backend: str | Backend = "sat", *, time_limit: float | None = None, **options: Any
) -> Explanation:
    """Explain a puzzle: its conflicting givens; how many solutions, two of them and a smallest set of clues
    that makes it unique; or its uniqueness.

    ``backend`` is a name or a Backend (``options`` go to ``make_backend``); ``time_limit`` bounds each
    search, and the answer is ``UNKNOWN`` when one runs out.
    """
    puzzle = Puzzle.from_string(puzzle) if isinstance(puzzle, str) else puzzle
    engine = make_backend(backend, **options)
    try:
        found = () if _clash(puzzle) else _search(engine, puzzle, 2, time_limit)
        if not found:
            conflict = minimal_conflict(puzzle, engine, time_limit=time_limit) or ()
            return Explanation(puzzle, Status.NO_SOLUTION, conflict=conflict, backend=engine.spec)
        if len(found) == 1:
            return Explanation(puzzle, Status.SOLVED, solutions=found, backend=engine.spec)
        counted = engine.enumerate(puzzle, limit=COUNT_LIMIT, time_limit=time_limit)
        if counted.timed_out:
            raise TimeoutError("counting reached the time limit")
        first, second = found
        clues, minimum = smallest_unique_clues(
            puzzle,
            first,
            [s for s in counted.solutions if s != first] or [second],
            engine,
            time_limit=time_limit,
        )
        differences = tuple(c for c in range(puzzle.rules.ncells) if first.cells[c] != second.cells[c])
        return Explanation(
            puzzle, Status.MULTIPLE, solutions=found, differences=differences,
            count=len(counted.solutions), capped=not counted.complete, unique_with=clues, minimum=minimum,
            backend=engine.spec,
        )  # fmt: skip
    except TimeoutError:
        return Explanation(puzzle, Status.UNKNOWN, backend=engine.spec)
