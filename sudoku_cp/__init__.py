r"""sudoku-cp: Sudoku of any box shape reformulated for real constraint solvers.

>>> import sudoku_cp
>>> [puzzle] = sudoku_cp.parse("12343412214343..")
>>> result = sudoku_cp.solve(puzzle, backend="dfs", unique=True)
>>> result.status.value, sudoku_cp.format_puzzle(result.solution, "grid")
('solved', '1234\n3412\n2143\n4321')
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .kernel_cache import drop_stale

drop_stale()  # before any kernel loads its cache: one compiled from sources since changed would run stale

#: Where each public name lives: the package imports a module when one of its names is first used, so
#: that ``import sudoku_cp`` (and ``sudoku-cp --help``) pays for none of the solvers, parsers or numpy.
_HOMES = {
    "Backend": "backends",
    "backend_names": "backends",
    "make_backend": "backends",
    "BackendUnavailableError": "errors",
    "InvalidPuzzleError": "errors",
    "ParseError": "errors",
    "SudokuError": "errors",
    "UnknownBackendError": "errors",
    "UsageError": "errors",
    "Explanation": "explain",
    "explain": "explain",
    "format_puzzle": "formats",
    "open_records": "formats",
    "parse": "formats",
    "write_puzzles": "formats",
    "Generated": "generate",
    "generate": "generate",
    "Puzzle": "grid",
    "Rules": "grid",
    "hint": "human",
    "nth_step": "human",
    "walk": "human",
    "Rating": "rate",
    "rate": "rate",
    "Enumeration": "result",
    "SolveResult": "result",
    "Status": "result",
    "count_solutions": "solving",
    "is_unique": "solving",
    "solve": "solving",
    "is_solution": "verify",
}

if TYPE_CHECKING:
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
    from .human import hint, nth_step, walk
    from .rate import Rating, rate
    from .result import Enumeration, SolveResult, Status
    from .solving import count_solutions, is_unique, solve
    from .verify import is_solution


#: Submodules named after the function they export: the package's attribute stays the function.
_SHADOWED = frozenset({"explain", "generate", "rate"})


class _Package(types.ModuleType):
    """The package's module type: importing a submodule such as ``sudoku_cp.rate`` (which the import
    system records as an attribute of the package) leaves ``sudoku_cp.rate`` the function ``rate``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'sudoku_cp' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value  # later uses find it at once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


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
    "hint",
    "is_solution",
    "is_unique",
    "make_backend",
    "nth_step",
    "open_records",
    "parse",
    "rate",
    "solve",
    "walk",
    "write_puzzles",
]
