"""The backend registry: a new backend is one module plus one line in ``REGISTRY``.

The CLI's ``--backend`` choices, ``sudoku-cp backends`` and the parametrized tests all follow from it.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from typing import Any

from ..errors import BackendUnavailableError, UnknownBackendError, UsageError
from .base import Backend

__all__ = [
    "DEFAULT_BACKEND",
    "REGISTRY",
    "VARIANT_REQUIRES",
    "Backend",
    "backend_class",
    "backend_names",
    "make_backend",
    "missing_packages",
    "sat_solver_name",
]

#: name -> "module:class"; modules import their heavy packages lazily.
REGISTRY: dict[str, str] = {
    "auto": "sudoku_cp.backends.auto:AutoBackend",
    "dfs": "sudoku_cp.backends.dfs:DfsBackend",
    "sat": "sudoku_cp.backends.sat:SatBackend",
    "cpsat": "sudoku_cp.backends.cpsat:CpSatBackend",
}

#: Variants that need a package beyond their backend's (``"name:variant"`` -> {module: pip name}), so that
#: ``sudoku-cp backends`` lists only what can run here.
VARIANT_REQUIRES: dict[str, dict[str, str]] = {
    "dfs:compiled": {"numba": "numba"},
    "sat:cryptosat": {"pycryptosat": "pycryptosat"},
}

#: The backend of every command and library function given none: ``auto``, the compiled dfs (on the
#: classic rules alone, measured: 20,000 17_clue puzzles in 2.1 s against sat's 6.3 s, 2,000
#: forum_hardest_11plus in 1.9 s against 5.4 s), with the SAT solver taking the variant puzzles on which
#: the dfs has not answered within a tenth of a second (``backends.auto``), so that every puzzle is answered.
DEFAULT_BACKEND = "auto"


def backend_names() -> list[str]:
    return list(REGISTRY)


def backend_class(name: str) -> type[Backend]:
    """The class registered under ``name`` (without any ``:variant``)."""
    try:
        target = REGISTRY[name]
    except KeyError:
        raise UnknownBackendError(f"unknown backend {name!r}; valid: {', '.join(REGISTRY)}") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def missing_packages(name: str) -> list[str]:
    """The pip names of the packages the backend (or ``name:variant``) needs that are not installed (empty
    when it can run here)."""
    needs = {**backend_class(name.partition(":")[0]).requires, **VARIANT_REQUIRES.get(name, {})}
    return [pip for module, pip in needs.items() if importlib.util.find_spec(module) is None]


def make_backend(spec: str | Backend, **options: Any) -> Backend:
    """A backend from ``"name"`` or ``"name:variant"`` (options set to None are left out).

    Passing a Backend returns it unchanged, so services accept either.
    """
    if isinstance(spec, Backend):
        return spec
    name, _, variant = spec.partition(":")
    cls = backend_class(name)
    if missing := missing_packages(name):
        raise BackendUnavailableError(
            f"backend {name} needs {', '.join(missing)}: pip install {' '.join(missing)}"
        )
    options = {k: v for k, v in options.items() if v is not None}
    try:
        inspect.signature(cls).bind(variant or None, **options)
    except TypeError:
        valid = [p for p in inspect.signature(cls).parameters if p not in ("variant", "options")]
        unknown = sorted(set(options) - set(valid))
        raise UsageError(
            f"backend {name} takes no option {', '.join(unknown)}; its options: {', '.join(valid) or 'none'}"
        ) from None
    return cls(variant or None, **options)


def sat_solver_name(name: str) -> str:
    """The python-sat solver a user names, as the sat backend reads it: ``sat:g4``, ``g4`` and ``glucose4``
    are all ``glucose4``. Every option that names a SAT solver goes through here, so each accepts the same
    names; an unknown name is an ``UnknownBackendError`` that lists the valid ones."""
    from .sat import canonical_solver

    backend, colon, solver = name.strip().partition(":")
    if colon and backend.strip().lower() != "sat":
        raise UnknownBackendError(f"{name!r} is not a SAT solver: write sat:NAME or NAME")
    return canonical_solver(solver if colon else backend)
