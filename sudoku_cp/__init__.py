r"""sudoku-cp: Sudoku of any box shape reformulated for real constraint solvers.

>>> import sudoku_cp
>>> [puzzle] = sudoku_cp.parse("12343412214343..")
>>> result = sudoku_cp.solve(puzzle, backend="dfs", unique=True)
>>> result.status.value, sudoku_cp.format_puzzle(result.solution, "grid")
('solved', '1234\n3412\n2143\n4321')
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
from .explain import Explanation, explain
from .formats import format_puzzle, open_records, parse, write_puzzles
from .generate import Generated, generate
from .grid import Puzzle, Rules
from .rate import Rating, rate
from .result import Enumeration, SolveResult, Status
from .solving import count_solutions, is_unique, solve
from .verify import is_solution

__all__ = [
    "Backend",
    "BackendUnavailableError",
    "Enumeration",
    "Explanation",
    "Generated",
    "InvalidPuzzleError",
    "ParseError",
    "Puzzle",
    "Rating",
    "Rules",
    "SolveResult",
    "Status",
    "SudokuError",
    "UnknownBackendError",
    "UsageError",
    "__version__",
    "backend_names",
    "count_solutions",
    "explain",
    "format_puzzle",
    "generate",
    "is_solution",
    "is_unique",
    "make_backend",
    "open_records",
    "parse",
    "rate",
    "solve",
    "write_puzzles",
]
