"""The dfs search's kernels compiled ahead of time: one extension module, built once a machine with
``numba.pycc`` and loaded in milliseconds without numba.

A process that loads numba's JIT kernels pays numba's import and its first dispatch (its typing
registries): 1.1 s on this machine before any search, more than most one-puzzle commands take in all.
The module built here holds the same machine code for the entry points (``ENTRY_POINTS``: the general
search's start, resumable run and batch, the band search's three), compiled from the same functions with
the argument types the driver passes (``dfs_compiled``: ``_Tables``, ``_Work``, ``BatchResult`` of fixed
dtypes), so both give the same trees, solutions and statistics. Its name carries a digest of the
kernels' sources and of the versions of Python, numpy and numba (``key``): an edited kernel or an upgrade
builds anew, never loads stale code. It is written where numba's cache is (``NUMBA_CACHE_DIR``, else the
package's ``__pycache__``), or in the user's cache folder where that is read-only, through a temporary
name and an atomic rename, so processes that build at once do not see each other's halves.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np

__all__ = ["ENTRY_POINTS", "build", "built", "failed", "key", "load", "location"]

#: The functions of the built module, in the order of ``dfs_compiled.Kernels``.
ENTRY_POINTS = ("start", "run", "solve_batch", "band_start", "band_run", "band_solve_batch")
_HERE = Path(__file__).resolve().parent
#: The sources whose code the module holds (the driver's constants are frozen into the kernels).
_SOURCES = (
    "dfs_aot.py",
    "dfs_kernels.py",
    "dfs_bands.py",
    "dfs_compiled.py",
    "batch_result.py",
    "dfs_rules.py",
    "dfs_reference.py",
    "../rules/sums.py",
)


@functools.cache
def key() -> str:
    """A digest of the kernels' sources and of the versions that compile them: the built module's name."""
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((_HERE / name).read_bytes())
    try:
        from importlib.metadata import version

        numba_version = version("numba")
    except Exception:  # numba not installed: no module can be built, and none matches
        numba_version = "none"
    digest.update(f"{sys.version}|{np.__version__}|{numba_version}|{platform.machine()}".encode())
    return digest.hexdigest()[:16]


def _folders() -> list[Path]:
    """Where a built module may be, as numba's cache: ``NUMBA_CACHE_DIR`` when set, else the package's
    ``__pycache__``; then the user's cache folder."""
    numba_cache = os.environ.get("NUMBA_CACHE_DIR")
    folders = [Path(numba_cache) if numba_cache else _HERE / "__pycache__"]
    with contextlib.suppress(RuntimeError):  # no home folder to be found
        folders.append(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sudoku-cp")
    return folders


def _name() -> str:
    return f"_dfs_kernels_{key()}"


def location() -> Path | None:
    """The built module's file, None when this machine has not built it."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for folder in _folders():
        path = folder / f"{_name()}{suffix}"
        if path.is_file():
            return path
    return None


def built() -> bool:
    """Whether the module is built for these sources and versions and was not found unusable (a look at
    files: no import)."""
    return location() is not None and failed() is None


def failed() -> str | None:
    """Why building the module failed on this machine for these sources and versions (a note ``build``
    leaves, so that later processes go to numba's JIT at once instead of compiling in vain; deleting the
    ``.failed`` file beside where the module would be tries again), or None."""
    for folder in _folders():
        note = folder / f"{_name()}.failed"
        if note.is_file():
            with contextlib.suppress(OSError):
                return note.read_text().strip() or "it failed before"
    return None


def _note_failure(reason: str) -> None:
    """Leave ``failed``'s note in the first folder that takes it."""
    for folder in _folders():
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{_name()}.failed").write_text(reason + "\n")
            return


def load() -> ModuleType | None:
    """The built module, imported; None when there is none, or when it does not import here (then a note
    says why: ``failed``)."""
    path = location()
    if path is None or failed() is not None:
        return None
    try:
        spec = importlib.util.spec_from_file_location(_name(), path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as exc:  # a damaged file, a library this interpreter lacks
        reason = f"{path} does not load: {type(exc).__name__}: {exc}"
        _note_failure(reason)
        print(f"sudoku-cp: the dfs search runs on numba's JIT instead ({reason})", file=sys.stderr)
        return None
    return module


def build() -> ModuleType:
    """Compile the module (about 80 s here on a fresh install) into the first folder of ``_folders`` that
    can be written, and load it. Raises what stops it (numba or its ``pycc`` missing, no C compiler, no
    folder), leaving a note of it (``failed``)."""
    try:
        return _build()
    except Exception as exc:
        _note_failure(f"{type(exc).__name__}: {exc}")
        raise


@contextlib.contextmanager
def _releasing_the_gil() -> Iterator[None]:
    """Entry points compiled in the block release the GIL while they run, as numba's ``nogil=True`` makes
    the JIT's do: pycc takes no such option, so its compiler's flags are given ``release_gil`` meanwhile.
    The kernels touch no Python object, and another thread (sat's light turn beside the dfs, ``auto``)
    then runs while the dfs searches instead of waiting for each of its slices to end."""
    from numba.pycc import compiler

    flags = compiler.Flags

    class Releasing(flags):  # type: ignore[misc,valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    compiler.Flags = Releasing
    try:
        yield
    finally:
        compiler.Flags = flags


def _build() -> ModuleType:
    import warnings

    from numba import typeof, types

    with warnings.catch_warnings():  # pycc's pending deprecation: the JIT path stays the fallback
        warnings.simplefilter("ignore")
        from numba.pycc import CC

    from .dfs_compiled import jit_kernels, sample_calls

    dispatchers = jit_kernels()
    exports = {}  # name: (the function, its signature: the types of the driver's arguments)
    for part in ("general", "bands"):
        for name, args in sample_calls(part).items():
            returns = types.int64 if name in ("run", "band_run") else types.none  # (statuses, or nothing)
            exports[name] = (getattr(dispatchers, name), returns(*(typeof(a) for a in args)))
    errors = []
    for folder in _folders():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=folder, prefix=".building-") as building:
                cc = CC(_name())
                cc.output_dir = building
                cc.verbose = False
                cc.target_cpu = "host"  # this machine's instructions, as numba's JIT uses them
                for name in ENTRY_POINTS:
                    function, signature = exports[name]
                    cc.export(name, signature)(function.py_func)
                with warnings.catch_warnings(), _releasing_the_gil():
                    warnings.simplefilter("ignore")
                    cc.compile()
                made = next(Path(building).iterdir())
                os.replace(made, folder / made.name)
            for stale in folder.glob("_dfs_kernels_*"):  # modules of earlier sources or versions
                if stale.name != made.name:
                    with contextlib.suppress(OSError):  # (one in use where files in use stay)
                        stale.unlink()
            break
        except OSError as exc:  # a folder we may not write: the next one
            errors.append(f"{folder}: {exc}")
    else:
        raise OSError("; ".join(errors))
    module = load()
    assert module is not None
    return module
