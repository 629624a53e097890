"""Chunk sizes that follow the measured speed: big enough to amortise a task's cost, small enough to keep
the progress line moving, interruptions quick and the workers evenly loaded at the end of a file.
"""

from __future__ import annotations

__all__ = ["ChunkSizer"]


class ChunkSizer:
    """The next chunk's size (puzzles or bytes), aiming at ``target`` seconds of work per chunk.

    It starts at ``first`` and moves towards ``rate * target`` as answers report how long they took, at most
    doubling per step and staying within ``[low, high]``. A ``fixed`` size disables the adaptation.
    """

    def __init__(
        self, first: int, low: int, high: int, target: float = 0.15, fixed: int | None = None
    ) -> None:
        if fixed is not None and fixed < 1:
            raise ValueError(f"chunk size must be at least 1, not {fixed}")
        self.fixed = fixed
        self.low, self.high, self.target = low, high, target
        self.size = fixed or max(low, min(first, high))
        self._amount = 0.0
        self._seconds = 0.0

    def next_size(self) -> int:
        return self.size

    def observe(self, amount: int, seconds: float) -> None:
        """A chunk of ``amount`` took ``seconds`` of work: adjust the size from the running rate."""
        if self.fixed is not None or amount <= 0:
            return
        self._amount = 0.5 * self._amount + amount  # a decaying sum: recent chunks weigh more
        self._seconds = 0.5 * self._seconds + max(seconds, 1e-6)
        wanted = int(self._amount / self._seconds * self.target)
        self.size = max(self.low, min(wanted, 2 * self.size, self.high))
