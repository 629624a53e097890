"""Chunks of puzzles as numpy arrays: one kernel call for a chunk, and answers as arrays.

A chunk is an ``(m, ncells)`` uint8 array of digits (0 = empty); its answer is arrays too (``ChunkAnswer``):
a status code per puzzle and the first and second solution found. The compiled ``dfs`` answers a whole chunk
in one call of its chunk kernel, with no Python work per puzzle (``solve_compiled``); the answers of a
backend that solves puzzle by puzzle become arrays for the raw path, which writes its output from them
(``answer_of``). Only these paths load numpy (``solver``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..grid import Puzzle, Rules
from ..result import SolveResult, Status
from .solver import CODES, MULTIPLE, NO_SOLUTION, SOLVED, STATUSES, UNKNOWN, SolverConfig

__all__ = ["ChunkAnswer", "answer_of", "as_grids", "solve_compiled", "valid_complete"]


def as_grids(grids: Any, rules: Rules) -> np.ndarray:
    """Rows of digits (an array or a list of tuples) as one contiguous ``(m, ncells)`` uint8 array."""
    return np.ascontiguousarray(grids, dtype=np.uint8).reshape(-1, rules.ncells)


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


def answer_of(results: list[SolveResult], rules: Rules, backend: str, unique: bool) -> ChunkAnswer:
    """The results of a chunk solved puzzle by puzzle, as arrays."""
    m = len(results)
    status = np.array([CODES[r.status] for r in results], np.uint8)
    first = np.zeros((m, rules.ncells), np.uint8)
    second = np.zeros((m, rules.ncells), np.uint8)
    for i, result in enumerate(results):
        for target, sol in zip((first, second), result.solutions, strict=False):
            target[i] = sol.cells
    return ChunkAnswer(status, first, second, [r.stats for r in results], backend, unique)


def solve_compiled(
    kernel: Any, grids: np.ndarray, rules: Rules, config: SolverConfig, heuristic: str, backend: str
) -> ChunkAnswer:
    """One call of the backend's chunk ``kernel`` for the chunk; complete grids that are valid skip it
    (nothing to search)."""
    m = len(grids)
    status = np.full(m, UNKNOWN, np.uint8)
    first = np.zeros_like(grids)
    second = np.zeros_like(grids)
    stats = {
        name: np.zeros(m, np.int64) for name in ("guesses", "backtracks", "nodes", "decisions", "conflicts")
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
            config.limit,
            heuristic,
            time_limit=config.time_limit,
        )
        counts = found.counts
        complete = found.status == kernel.EXHAUSTED
        code = np.full(len(rest), UNKNOWN, np.uint8)
        code[counts >= 2] = MULTIPLE
        one = counts == 1
        code[one & complete if config.unique else one] = SOLVED
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
    return ChunkAnswer(status, first, second, stats, backend, config.unique)


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
