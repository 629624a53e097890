"""Solving a chunk of puzzles of one shape as a numpy array, with the backend a process keeps.

A chunk is an ``(m, ncells)`` uint8 array of digits (0 = empty) and the answer is arrays too: a status code
per puzzle and the first and second solution found. For the ``dfs`` backend on its compiled engine the whole
chunk is one call of ``dfs_compiled.solve_array`` (no Python work per puzzle); any other backend is driven
puzzle by puzzle through the common ``enumerate`` interface, so every backend serves the batch path.

Each process builds its backend once (``Solver``) and keeps it for every chunk: the sat backend keeps its
incremental solver, the compiled search its work arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ..backends import DEFAULT_BACKEND, Backend, make_backend
from ..candidates import Candidates
from ..grid import Puzzle, Rules
from ..result import SolveResult, Status
from ..solving import enumerate_from, result_of

__all__ = ["CODES", "STATUSES", "ChunkAnswer", "Solver", "SolverConfig", "valid_complete"]

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


class ChunkAnswer(NamedTuple):
    """The answers for a chunk of m puzzles of one shape; row i belongs to puzzle i.

    ``status``: codes into ``STATUSES``; ``first``/``second``: the first and second solution found, zeros
    where none; ``stats``: per-puzzle statistics, as arrays by name (compiled dfs) or one dict per puzzle.
    """

    status: np.ndarray  # (m,) uint8
    first: np.ndarray  # (m, ncells) uint8
    second: np.ndarray  # (m, ncells) uint8
    stats: dict[str, np.ndarray] | list[dict[str, Any]]
    backend: str  # the spec of the backend that answered
    unique: bool  # whether uniqueness was asked (SOLVED then means proved unique)

    def stats_of(self, i: int) -> dict[str, Any]:
        """The statistics of puzzle i as a dict."""
        if isinstance(self.stats, list):
            return self.stats[i]
        return {name: values[i].item() for name, values in self.stats.items()}

    def result(self, i: int, puzzle: Puzzle) -> SolveResult:
        """Puzzle i's answer as the SolveResult that ``solving.solve`` gives for it."""
        status = STATUSES[int(self.status[i])]
        rules = puzzle.rules
        sols: tuple[Puzzle, ...] = ()
        if self.first[i].any():
            sols = (Puzzle(rules, tuple(self.first[i].tolist())),)
            if self.second[i].any():
                sols += (Puzzle(rules, tuple(self.second[i].tolist())),)
        unique = None
        if self.unique and status is Status.MULTIPLE:
            unique = False
        elif self.unique and status is Status.SOLVED:
            unique = True
        return SolveResult(puzzle, status, sols, unique, self.backend, self.stats_of(i))


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

    def solve(self, grids: np.ndarray | list[Candidates], rules: Rules) -> ChunkAnswer:
        """Solve every row of ``grids`` (digits of one shape), or every pencilmark grid of a list of
        ``Candidates`` (for a backend that takes them), and return the answers as arrays."""
        if isinstance(grids, list):
            return self._solve_each([(c.puzzle, c) for c in grids], rules)
        grids = np.ascontiguousarray(grids, dtype=np.uint8).reshape(-1, rules.ncells)
        if self._kernel is not None:
            return self._solve_compiled(grids, rules)
        return self._solve_each(grids, rules)

    def _solve_compiled(self, grids: np.ndarray, rules: Rules) -> ChunkAnswer:
        """One kernel call for the chunk; complete grids that are valid skip it (nothing to search)."""
        kernel = self._kernel
        cfg = self.config
        m = len(grids)
        status = np.full(m, UNKNOWN, np.uint8)
        first = np.zeros_like(grids)
        second = np.zeros_like(grids)
        stats = {
            name: np.zeros(m, np.int64)
            for name in ("guesses", "backtracks", "nodes", "decisions", "conflicts")
        }
        stats["time"] = np.zeros(m, np.float64)
        filled = valid_complete(grids, rules)
        status[filled] = SOLVED
        first[filled] = grids[filled]
        stats["nodes"][filled] = 1  # the root, as the kernel counts it: propagation finds nothing to do
        rest = np.flatnonzero(~filled)
        if len(rest):
            found = kernel.solve_array(
                grids if len(rest) == m else grids[rest],
                rules,
                cfg.limit,
                self.backend.heuristic,
                time_limit=cfg.time_limit,
            )
            counts = found.counts
            complete = found.status == kernel.EXHAUSTED
            code = np.full(len(rest), UNKNOWN, np.uint8)
            code[counts >= 2] = MULTIPLE
            one = counts == 1
            code[one & complete if cfg.unique else one] = SOLVED
            code[(counts == 0) & complete] = NO_SOLUTION
            status[rest], first[rest], second[rest] = code, found.solutions, found.second
            for name, values in (
                ("guesses", found.guesses),
                ("backtracks", found.backtracks),
                ("nodes", found.nodes),
                ("time", found.seconds),
                ("decisions", found.guesses),
                ("conflicts", found.backtracks),
            ):
                stats[name][rest] = values
        return ChunkAnswer(status, first, second, stats, self.backend.spec, cfg.unique)

    def _solve_each(self, grids: np.ndarray | list[tuple[Puzzle, Candidates]], rules: Rules) -> ChunkAnswer:
        cfg = self.config
        m = len(grids)
        status = np.empty(m, np.uint8)
        first = np.zeros((m, rules.ncells), np.uint8)
        second = np.zeros((m, rules.ncells), np.uint8)
        stats: list[dict[str, Any]] = []
        items = (
            grids
            if isinstance(grids, list)
            else [(Puzzle(rules, tuple(row)), None) for row in grids.tolist()]
        )
        for i, (puzzle, marks) in enumerate(items):
            found = enumerate_from(self.backend, marks or puzzle, cfg.limit, cfg.time_limit)
            result = result_of(puzzle, found, self.backend.spec, cfg.unique)
            status[i] = CODES[result.status]
            for target, sol in zip((first, second), result.solutions, strict=False):
                target[i] = sol.cells
            stats.append(result.stats)
        return ChunkAnswer(status, first, second, stats, self.backend.spec, cfg.unique)


def valid_complete(grids: np.ndarray, rules: Rules) -> np.ndarray:
    """True for each row that is a complete, valid grid: its own only solution, found without a search.

    A complete unit holds n digits; the sum of ``2**(d - 1)`` over them is ``2**n - 1`` exactly when they
    are all different (n powers of two reach a number with n one bits only without carries). Rows, columns
    and boxes are sums over axes of reshaped views: no gather, a few passes over the chunk.
    """
    m, n = len(grids), rules.n
    result = np.zeros(m, bool)
    if n > 58 or not m or not rules.is_classic:
        return result
    filled = np.flatnonzero(grids.all(axis=1))
    if not len(filled):
        return result
    dtype = np.uint32 if n <= 24 else np.uint64
    powers = np.zeros(n + 1, dtype)
    powers[1:] = np.left_shift(dtype(1), np.arange(n, dtype=dtype))
    cells = powers[grids[filled] if len(filled) < m else grids].reshape(-1, n, n)
    target = dtype(2**n - 1)
    br, bc = rules.box_rows, rules.box_cols
    ok = (cells.sum(axis=2, dtype=dtype) == target).all(axis=1)
    ok &= (cells.sum(axis=1, dtype=dtype) == target).all(axis=1)
    boxes = cells.reshape(-1, n // br, br, n // bc, bc).sum(axis=(2, 4), dtype=dtype)
    ok &= (boxes == target).all(axis=(1, 2))
    result[filled] = ok
    return result
