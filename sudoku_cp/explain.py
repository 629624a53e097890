"""Why a puzzle is not a proper Sudoku: givens that cannot all hold, or two solutions and a clue between them.

- No solution: a minimal set of givens that cannot all hold. The sat backend names a first set from its
  solver's core (the failed assumptions among the givens); a deletion pass then drops each given whose
  removal keeps the rest unsatisfiable, until none can go (Marques-Silva, *Minimal Unsatisfiability:
  Models, Algorithms and Applications*, ISMVL 2010). Other backends start from every given.
- Several solutions: two of them, the cells where they differ, and a clue taken from the first solution
  at one of those cells, which removes the second; one that makes the puzzle unique when there is one.
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

__all__ = ["Explanation", "explain", "minimal_conflict", "render_givens", "splitting_clue"]

Given = tuple[int, int]  # (cell, digit)


def render_givens(puzzle: Puzzle, givens: tuple[Given, ...] | list[Given]) -> str:
    """``r1c3=5 r1c8=5``: cells by row and column, digits as numbers."""
    return " ".join(f"{puzzle.shape.name(cell)}={d}" for cell, d in givens)


@dataclass(frozen=True)
class Explanation:
    """What explains a puzzle's status.

    ``conflict``: for ``NO_SOLUTION``, givens that cannot all hold, none of which can be dropped.
    ``solutions``: the solution of a unique puzzle, or two of a puzzle with several.
    ``differences``: the cells where the two solutions differ. ``clue``: ``(cell, digit)`` from the first
    solution that removes the second; ``clue_makes_unique`` when the puzzle with it has one solution.
    ``status`` is ``UNKNOWN`` when a time limit stopped a search.
    """

    puzzle: Puzzle
    status: Status
    conflict: tuple[Given, ...] = ()
    solutions: tuple[Puzzle, ...] = ()
    differences: tuple[int, ...] = ()
    clue: Given | None = None
    clue_makes_unique: bool = False
    backend: str = ""

    def summary(self) -> str:
        """One line: the verdict and its reason."""
        if self.status is Status.NO_SOLUTION:
            return f"no solution: {render_givens(self.puzzle, self.conflict)} cannot all hold"
        if self.status is Status.MULTIPLE:
            cells = " ".join(self.puzzle.shape.name(c) for c in self.differences)
            line = f"multiple solutions: two differ at {cells}"
            if self.clue is not None:
                effect = "makes the puzzle unique" if self.clue_makes_unique else "removes the second"
                line += f"; the clue {render_givens(self.puzzle, [self.clue])} {effect}"
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
    return Puzzle.empty(puzzle.shape).with_cells(givens)


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


def minimal_conflict(
    puzzle: Puzzle, backend: str | Backend = "sat", *, time_limit: float | None = None
) -> tuple[Given, ...] | None:
    """A minimal set of the puzzle's givens that cannot all hold, or None when the puzzle has a solution.

    Minimal: dropping any one of them leaves givens that can all hold (checked by a search each).
    ``TimeoutError`` when a search reaches ``time_limit``.
    """
    engine = make_backend(backend)
    core = _core(engine, puzzle, list(puzzle.givens), time_limit)
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
    clues = [(c, first.cells[c]) for c in range(puzzle.shape.ncells) if first.cells[c] != second.cells[c]]
    for clue in clues:
        if len(_search(engine, puzzle.with_cells([clue]), 2, time_limit)) == 1:
            return clue, True
    return (clues[0] if clues else None), False


def explain(
    puzzle: Puzzle | str, backend: str | Backend = "sat", *, time_limit: float | None = None, **options: Any
) -> Explanation:
    """Explain a puzzle: its conflicting givens, its two solutions and a splitting clue, or its uniqueness.

    ``backend`` is a name or a Backend (``options`` go to ``make_backend``); ``time_limit`` bounds each
    search, and the answer is ``UNKNOWN`` when one runs out.
    """
    puzzle = Puzzle.from_string(puzzle) if isinstance(puzzle, str) else puzzle
    engine = make_backend(backend, **options)
    try:
        found = _search(engine, puzzle, 2, time_limit)
        if not found:
            conflict = minimal_conflict(puzzle, engine, time_limit=time_limit) or ()
            return Explanation(puzzle, Status.NO_SOLUTION, conflict=conflict, backend=engine.spec)
        if len(found) == 1:
            return Explanation(puzzle, Status.SOLVED, solutions=found, backend=engine.spec)
        first, second = found
        clue, unique = splitting_clue(puzzle, first, second, engine, time_limit=time_limit)
        differences = tuple(c for c in range(puzzle.shape.ncells) if first.cells[c] != second.cells[c])
        return Explanation(
            puzzle, Status.MULTIPLE, solutions=found, differences=differences, clue=clue,
            clue_makes_unique=unique, backend=engine.spec,
        )  # fmt: skip
    except TimeoutError:
        return Explanation(puzzle, Status.UNKNOWN, backend=engine.spec)
