"""Solve, count and prove uniqueness: built only on the backend interface, so they work with every backend."""

from __future__ import annotations

from typing import Any

from . import deadline
from .backends import DEFAULT_BACKEND, Backend, make_backend
from .candidates import Candidates, as_start
from .grid import Puzzle, as_puzzle
from .result import Enumeration, SolveResult, Status

__all__ = ["count_solutions", "enumerate_from", "is_unique", "result_of", "solve", "true_candidates"]


def enumerate_from(
    engine: Backend, start: Puzzle | Candidates, limit: int, time_limit: float | None
) -> Enumeration:
    """The solutions of a puzzle, or of a pencilmark grid (every cell within its candidates: the backends
    that take candidates do, the others refuse with ``UnsupportedRuleError``). ``UsageError`` for a time
    limit that is not above 0 (the command line refuses it too)."""
    time_limit = deadline.seconds(time_limit)
    if isinstance(start, Candidates):
        return engine.enumerate_candidates(start, limit=limit, time_limit=time_limit)
    return engine.enumerate(start, limit=limit, time_limit=time_limit)


def result_of(puzzle: Puzzle, found: Enumeration, backend: str, unique: bool) -> SolveResult:
    """The status a search outcome means: with ``unique`` the search was asked for two solutions."""
    sols = found.solutions
    if len(sols) >= 2:
        return SolveResult(puzzle, Status.MULTIPLE, sols[:2], False if unique else None, backend, found.stats)
    if len(sols) == 1:
        if not unique:
            return SolveResult(puzzle, Status.SOLVED, sols, None, backend, found.stats)
        if found.complete:
            return SolveResult(puzzle, Status.SOLVED, sols, True, backend, found.stats)
        return SolveResult(puzzle, Status.UNKNOWN, sols, None, backend, found.stats)
    if found.complete:
        return SolveResult(puzzle, Status.NO_SOLUTION, (), None, backend, found.stats)
    return SolveResult(puzzle, Status.UNKNOWN, (), None, backend, found.stats)


def solve(
    puzzle: Puzzle | Candidates | str,
    backend: str | Backend = DEFAULT_BACKEND,
    *,
    unique: bool = False,
    time_limit: float | None = None,
    **options: Any,
) -> SolveResult:
    """Solve one puzzle; with ``unique=True`` also prove there is no second solution.

    ``backend`` is a name (``"dfs"``, ``"sat:glucose4"``, ...) or a Backend instance; ``options`` go to the
    backend (``heuristic="mrv"`` for dfs, ``encoding="extended"`` for sat, ...).

    ``puzzle`` may be a ``Candidates`` grid (pencilmarks): every cell then takes one of its candidates
    (``sat`` and ``cpsat`` start from candidates; ``dfs`` refuses).

    >>> solve("12343412214343..").solution.to_string()
    '1234341221434321'
    """
    start = as_start(puzzle)
    engine = make_backend(backend, **options)
    found = enumerate_from(engine, start, 2 if unique else 1, time_limit)
    return result_of(start.puzzle if isinstance(start, Candidates) else start, found, engine.spec, unique)


def count_solutions(
    puzzle: Puzzle | Candidates | str,
    limit: int = 2,
    backend: str | Backend = DEFAULT_BACKEND,
    *,
    time_limit: float | None = None,
    **options: Any,
) -> int:
    """The number of solutions, counted up to ``limit`` (so ``2`` means "two or more" with the default).

    With ``time_limit`` the count is a lower bound when the search was cut short. ``puzzle`` may be a
    ``Candidates`` grid, as ``solve`` takes it.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    engine = make_backend(backend, **options)
    start = as_start(puzzle)
    return len(enumerate_from(engine, start, limit, time_limit).solutions)


def is_unique(
    puzzle: Puzzle | Candidates | str,
    backend: str | Backend = DEFAULT_BACKEND,
    *,
    time_limit: float | None = None,
    **options: Any,
) -> bool:
    """True when the puzzle has exactly one solution (the found one blocked, the search finds no other).
    ``TimeoutError`` when ``time_limit`` cuts the search short before it knows: one solution found is not
    yet uniqueness.

    >>> is_unique("12343412214343.."), is_unique("1234............")
    (True, False)
    """
    engine = make_backend(backend, **options)
    start = as_start(puzzle)
    found = enumerate_from(engine, start, 2, time_limit)
    if len(found.solutions) >= 2:
        return False
    if not found.complete:
        raise TimeoutError(
            f"{engine.spec} reached the time limit before it knew whether the puzzle is unique"
        )
    return len(found.solutions) == 1


def true_candidates(
    puzzle: Puzzle | str, backend: str | Backend = "sat", *, time_limit: float | None = None, **options: Any
) -> Candidates | None:
    """For each cell, the digits it holds in at least one solution (the "true candidates" of the variant
    solvers); None when the puzzle has no solution.

    Each solution found marks all of its digits at once; every digit still unmarked is then tried as one
    more given (one search per candidate that no solution has, one per new solution), so the answer is
    exact on any backend. ``time_limit`` bounds each search: ``TimeoutError`` when one runs out.

    >>> c = true_candidates("12.." "34.." "...." "....")
    >>> c.digits(2), c.digits(15)
    ((3, 4), (1, 2, 3, 4))
    """
    puzzle = as_puzzle(puzzle)
    engine = make_backend(backend, **options)
    n, cells = puzzle.n, puzzle.cells
    found = [0] * len(cells)

    def search(trial: Puzzle) -> Puzzle | None:
        answer = engine.enumerate(trial, limit=1, time_limit=time_limit)
        if answer.solutions:
            return answer.solutions[0]
        if answer.timed_out or not answer.complete:
            raise TimeoutError(f"a search for the true candidates of {puzzle} ran out of time")
        return None

    def mark(solution: Puzzle) -> None:
        for cell, d in enumerate(solution.cells):
            found[cell] |= 1 << (d - 1)

    first = search(puzzle)
    if first is None:
        return None
    mark(first)
    possible = Candidates.of(puzzle).masks  # digits a peer's given rules out need no search
    for cell in range(len(cells)):
        if cells[cell]:
            continue
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            if found[cell] & bit or not possible[cell] & bit:
                continue
            solution = search(puzzle.with_cells([(cell, d)]))
            if solution is not None:
                mark(solution)
    return Candidates(puzzle, tuple(found))
