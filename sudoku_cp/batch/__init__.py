"""Batch solving: millions of puzzles through any backend, in parallel worker processes, in input order.

``solve_many`` is the library's entry point (puzzles in, ``SolveResult`` out, lazily and in order);
``count_many`` and ``rate_many`` ask the other per-puzzle questions the same way. The command line's
``sudoku-cp solve`` uses ``solve_stream``, which moves whole chunks of text between files and workers
without a Python object per puzzle where the layouts allow (``rawio``).
"""

from __future__ import annotations

from .each import count_many, rate_many
from .engine import check_backend, resolve_jobs, solve_many
from .pool import OrderedPool, WorkerError, default_jobs

__all__ = [
    "OrderedPool",
    "WorkerError",
    "check_backend",
    "count_many",
    "default_jobs",
    "rate_many",
    "resolve_jobs",
    "solve_many",
]
