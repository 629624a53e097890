"""sudoku-cp: Sudoku of any box shape reformulated for real constraint solvers.

>>> import sudoku_cp
>>> sudoku_cp.solve("12343412214343..").solution.to_string()
'1234341221434321'
"""

from __future__ import annotations

from ._version import __version__
from .backends import Backend, backend_names, make_backend
from .errors import (
    BackendUnavailableError,
    InvalidPuzzleError,
    ParseError,
    SudokuError,
    UnknownBackendError,
    UsageError,
)
from .grid import Puzzle, Shape
from .result import Enumeration, SolveResult, Status
from .solving import count_solutions, is_unique, solve
from .verify import is_solution

__all__ = [
    "Backend",
    "BackendUnavailableError",
    "Enumeration",
    "InvalidPuzzleError",
    "ParseError",
    "Puzzle",
    "Shape",
    "SolveResult",
    "Status",
    "SudokuError",
    "UnknownBackendError",
    "UsageError",
    "__version__",
    "backend_names",
    "count_solutions",
    "is_solution",
    "is_unique",
    "make_backend",
    "solve",
]
