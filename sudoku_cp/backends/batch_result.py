"""What the chunk kernel of the compiled dfs answers for m puzzles (``dfs_compiled.solve_array``), kept
apart from numba so that the ``auto`` backend can answer in the same form before it loads the kernel
(``auto._Portfolio``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EXHAUSTED", "LIMIT_REACHED", "OUT_OF_NODES", "BatchResult"]

# What stopped a search (``BatchResult.status``).
EXHAUSTED = 0  # the search space was exhausted: the count is exact
LIMIT_REACHED = 1  # ``limit`` solutions were found; there may be more
OUT_OF_NODES = 2  # the node budget ran out first: the count is a lower bound (status unknown)


class BatchResult(NamedTuple):
    """What ``solve_array`` found for m puzzles; row i belongs to puzzle i.

    ``counts``: solutions found (exact when ``status`` is EXHAUSTED, a lower bound otherwise);
    ``solutions``/``second``: the first and second solution found as digits (zeros where there is none);
    ``guesses``/``backtracks``/``nodes``: the search statistics (see ``dfs_reference``);
    ``status``: EXHAUSTED, LIMIT_REACHED or OUT_OF_NODES; ``seconds``: each puzzle's search time, read by
    the kernel around it (see ``dfs_compiled.CLOCK``).
    """

    counts: np.ndarray  # (m,) int64
    solutions: np.ndarray  # (m, ncells) uint8
    second: np.ndarray  # (m, ncells) uint8
    guesses: np.ndarray  # (m,) int64
    backtracks: np.ndarray  # (m,) int64
    nodes: np.ndarray  # (m,) int64
    status: np.ndarray  # (m,) int8
    seconds: np.ndarray  # (m,) float64

    @classmethod
    def zeros(cls, m: int, ncells: int) -> BatchResult:
        """The answer for m puzzles before any search: every field zero."""
        import numpy as np  # (imported where an answer is made: importing this module loads nothing)

        return cls(
            np.zeros(m, np.int64),
            np.zeros((m, ncells), np.uint8),
            np.zeros((m, ncells), np.uint8),
            np.zeros(m, np.int64),
            np.zeros(m, np.int64),
            np.zeros(m, np.int64),
            np.zeros(m, np.int8),
            np.zeros(m, np.float64),
        )

    @property
    def complete(self) -> np.ndarray:
        """True where the search space was exhausted, so ``counts`` is exact."""
        return self.status == EXHAUSTED

    @property
    def unknown(self) -> np.ndarray:
        """True where the node budget or the time limit stopped the search before an answer."""
        return self.status == OUT_OF_NODES
