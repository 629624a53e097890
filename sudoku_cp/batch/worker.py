"""What runs inside a worker process: the backend it keeps, and the handler of each task.

A worker builds one ``Solver`` (so one backend, one incremental SAT solver, one set of compiled work arrays)
at start and keeps it for every task. Tasks and answers are plain picklable values; the functions here are
module-level so the ``forkserver`` and ``spawn`` start methods can find them by name.

Task kinds:

- ``("grids", groups)``: groups of ``(shape, grids)``, each an (m, ncells) uint8 array, a list of rows of
  digits or a list of pencilmark grids; the answer is a list of what ``Solver.solve`` answers (the path of
  puzzles already parsed: ``solve_many``, and the command line's records);
- ``("raw", RawTask)``: text bytes of whole records, parsed, solved and written back as text bytes without a
  Python object per puzzle (the command line's fast path, see ``rawio``).
"""

from __future__ import annotations

import time
from typing import Any

from ..grid import Rules
from .solver import Solver, SolverConfig

__all__ = ["handle", "init", "solver"]

_SOLVER: Solver | None = None
_CONFIG: SolverConfig | None = None


def init(config: SolverConfig) -> None:
    """Build this process's backend once and warm it up, so that a worker that says it is ready is.

    A bad option fails here and is reported with the first task. The warm-up loads the compiled kernel
    (numba's cached machine code takes a second or more to load) on a tiny puzzle.
    """
    global _SOLVER, _CONFIG
    _CONFIG = config
    _SOLVER = Solver(config)
    if _SOLVER.compiled:
        _SOLVER.solve([(0,) * 16], Rules.classic(2, 2))


def solver() -> Solver:
    """This process's solver (built on first use when ``init`` was not run, as in the parent process)."""
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver(_CONFIG or SolverConfig())
    return _SOLVER


def handle(task: tuple[str, Any], engine: Solver | None = None) -> tuple[Any, float]:
    """Run one task with ``engine`` (default: this process's solver); the answer and the seconds it took.

    The parent sizes later chunks from those seconds.
    """
    started = time.perf_counter()
    kind, payload = task
    engine = engine or solver()
    if kind == "grids":
        answer: Any = [engine.solve(grids, rules) for rules, grids in payload]
    elif kind == "raw":
        from .rawio import run_raw_task

        answer = run_raw_task(payload, engine)
    else:  # count, rate, ...: the per-puzzle task kinds
        from .tasks import run_task

        answer = run_task(kind, payload, engine)
    return answer, time.perf_counter() - started
