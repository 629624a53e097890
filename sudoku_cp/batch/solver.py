"""Solving a chunk of puzzles of one shape, with the backend a process keeps.

A chunk is an ``(m, ncells)`` uint8 numpy array of digits (0 = empty), or a list of rows of digits or of
pencilmark grids (``Candidates``). For the ``dfs`` backend on its compiled engine the whole chunk is one call
of its chunk kernel, answered with arrays (``arrays``); any other backend is driven puzzle by puzzle through
the common ``enumerate`` interface, so every backend serves the batch path. An array is always answered with
arrays (the raw path writes its output from them); a list that is solved puzzle by puzzle is answered with
one ``SolveResult`` each (``EachAnswer``), without numpy: solving a puzzle or two from the command line
does not wait for numpy's import, which takes longer than the search. Either answer gives puzzle i's
``SolveResult`` as ``answer.result(i, puzzle)``.

Each process builds its backend once (``Solver``) and keeps it for every chunk: the sat backend keeps its
incremental solver, the compiled search its work arrays.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..backends import DEFAULT_BACKEND, Backend, make_backend
from ..candidates import Candidates
from ..grid import Puzzle, Rules
from ..result import SolveResult, Status
from ..solving import enumerate_from, result_of

if TYPE_CHECKING:
    import numpy as np

    from .arrays import ChunkAnswer

__all__ = ["CODES", "STATUSES", "EachAnswer", "Solver", "SolverConfig"]

#: Status by code, and code by status: the answer arrays hold codes.
STATUSES: tuple[Status, ...] = tuple(Status)
CODES: dict[Status, int] = {status: code for code, status in enumerate(STATUSES)}
SOLVED, NO_SOLUTION, MULTIPLE, UNKNOWN, ERROR = (
    CODES[s] for s in (Status.SOLVED, Status.NO_SOLUTION, Status.MULTIPLE, Status.UNKNOWN, Status.ERROR)
)


@dataclass(frozen=True)
class SolverConfig:
    """What every worker needs to build the same backend and ask the same question of each puzzle."""

    backend: str = DEFAULT_BACKEND
    options: dict[str, Any] = field(default_factory=dict)
    unique: bool = False
    time_limit: float | None = None

    @property
    def limit(self) -> int:
        """Solutions to look for: two prove uniqueness."""
        return 2 if self.unique else 1


class EachAnswer(NamedTuple):
    """The answers for a chunk solved puzzle by puzzle: one ``SolveResult`` each, in order."""

    results: list[SolveResult]

    def result(self, i: int, puzzle: Puzzle) -> SolveResult:
        """Puzzle i's answer, about ``puzzle`` (the one it was asked for)."""
        return dataclasses.replace(self.results[i], puzzle=puzzle)


def takes_candidates(config: SolverConfig) -> bool:
    """Whether the configured backend solves pencilmark grids (``Backend.enumerate_candidates``)."""
    from ..backends import backend_class

    return backend_class(config.backend.partition(":")[0]).takes_candidates


class Solver:
    """A backend built once from a ``SolverConfig`` and kept, solving chunks of grids."""

    def __init__(self, config: SolverConfig, backend: Backend | None = None) -> None:
        self.config = config
        self.backend = backend if backend is not None else make_backend(config.backend, **config.options)
        self._kernel = self.backend.chunk_kernel()

    @property
    def compiled(self) -> bool:
        """True when chunks of puzzles go to the backend's chunk kernel in one call."""
        return self._kernel is not None

    @property
    def kernel(self) -> Any | None:
        """The backend's chunk kernel (``Backend.chunk_kernel``), or None."""
        return self._kernel

    def solve(
        self, grids: np.ndarray | list[tuple[int, ...]] | list[Candidates], rules: Rules
    ) -> ChunkAnswer | EachAnswer:
        """Solve every row of ``grids`` (digits of one shape), or every pencilmark grid of a list of
        ``Candidates`` (for a backend that takes them).

        An array is answered with arrays (``ChunkAnswer``), a list puzzle by puzzle (``EachAnswer``) unless
        it is rows of digits for the chunk kernel, which takes them as one array.
        """
        if isinstance(grids, list) and (
            self._kernel is None or any(isinstance(g, Candidates) for g in grids[:1])
        ):
            return EachAnswer(self._solve_each(grids, rules))
        from . import arrays  # numpy: only chunks given or answered as arrays load it

        array = arrays.as_grids(grids, rules)
        spec, cfg = self.backend.spec, self.config
        if self._kernel is not None:
            return arrays.solve_compiled(self._kernel, array, rules, cfg, self.backend.heuristic, spec)
        return arrays.answer_of(self._solve_each(array.tolist(), rules), rules, spec, cfg.unique)

    def _solve_each(self, items: list[Any], rules: Rules) -> list[SolveResult]:
        """Each puzzle's ``SolveResult`` in turn: ``items`` are rows of digits or ``Candidates``."""
        cfg = self.config
        results = []
        for item in items:
            marks = item if isinstance(item, Candidates) else None
            puzzle = marks.puzzle if marks is not None else Puzzle(rules, tuple(item))
            found = enumerate_from(self.backend, marks or puzzle, cfg.limit, cfg.time_limit)
            results.append(result_of(puzzle, found, self.backend.spec, cfg.unique))
        return results
