"""Optional packages: imported when a feature needs them, with one message naming the extra to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingPackageError

__all__ = ["optional_import"]


def optional_import(module: str, feature: str, extra: str, pip: str | None = None) -> ModuleType:
    """``module`` imported, or ``MissingPackageError``: "``feature`` needs ``pip``: pip install
    'sudoku-cp[extra]' (or pip install ``pip``)"; ``pip`` defaults to the module's top-level name."""
    try:
        return importlib.import_module(module)
    except ImportError:
        package = pip or module.split(".")[0]
        raise MissingPackageError(
            f"{feature} needs {package}: pip install 'sudoku-cp[{extra}]' (or pip install {package})"
        ) from None
