"""numba's on-disk cache of the compiled kernels, dropped whenever a kernel's source changed.

numba keys a cached kernel on its own file's time stamp only, but a kernel that calls kernels of other
modules (``se.advanced`` those of ``se.set_kernels``, ``se.unary`` the propagation's) carries their machine
code, and module constants are frozen into it: after a change there, the cache would run the old code, a
wrong answer with nothing to show for it. So at import the package compares its kernel sources with those
the caches were written from (``STAMP``, in the package's ``__pycache__``), and where they differ deletes
every cached kernel of the package (``*.nbi``, ``*.nbc``; numba compiles them again on first use).

The check is a look at the sources' sizes and times (a millisecond); only when one changed are the
kernel sources read and hashed, so that a change elsewhere (a docstring of the command line) keeps the
caches. The dfs's module built ahead of time has its own key (``backends.dfs_aot``).
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

__all__ = ["STAMP", "drop_stale"]

#: The file that records the sources the caches were written from: their digest on the first line, then
#: a line per source (size, time in nanoseconds, path).
STAMP = "kernel-sources.txt"
_HERE = Path(__file__).resolve().parent
#: A kernel's decorator at the start of a line; a relative import (its dots, the module after them).
_KERNEL = re.compile(r"^\s*@(numba\.)?njit\b", re.MULTILINE)
_IMPORT = re.compile(r"^\s*from (\.+)([\w.]*) import", re.MULTILINE)


def _sources(root: Path, modules: list[Path]) -> list[Path]:
    """Of the package's ``modules``, those that hold kernels (an ``@njit`` at the start of a line) and
    those they import from (whose constants their kernels freeze, whose kernels they call)."""
    found: set[Path] = set()
    for p in modules:
        text = p.read_text(encoding="utf-8")
        if not _KERNEL.search(text):
            continue
        found.add(p)
        for dots, name in _IMPORT.findall(text):
            base = p.parent
            for _ in range(len(dots) - 1):
                base = base.parent
            target = base.joinpath(*name.split(".")) if name else base
            for candidate in (target.with_suffix(".py"), target / "__init__.py"):
                if candidate.is_file() and candidate.resolve().is_relative_to(root.resolve()):
                    found.add(candidate)
    return sorted(found)


def _looks(paths: list[Path], root: Path) -> list[str]:
    looks = []
    for p in paths:
        st = p.stat()
        looks.append(f"{st.st_size} {st.st_mtime_ns} {p.relative_to(root).as_posix()}")
    return looks


def _digest(paths: list[Path]) -> str:
    import hashlib  # here, not at import: the usual check reads no source

    digest = hashlib.sha256()
    for p in paths:
        digest.update(p.name.encode() + b"\0" + p.read_bytes())
    return digest.hexdigest()


def _cache_folders(folder: Path) -> list[Path]:
    """Where numba keeps the cache of ``folder``'s kernels: its ``__pycache__``, and under
    ``NUMBA_CACHE_DIR`` when set (numba's name for it there: the folder's name and a hash of its path)."""
    places = [folder / "__pycache__"]
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        import hashlib

        path = os.path.abspath(folder)
        places.append(Path(user) / f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}")
    return places


def drop_stale(root: Path = _HERE) -> bool:
    """Delete the cached kernels of the package at ``root`` when its kernel sources are not those the
    caches were written from (``STAMP``), or where no record of them can be read; True when it deleted.
    Nothing happens where the package's folder cannot be written (an installed copy: numba caches
    elsewhere, and an installation replaces every source at once)."""
    stamp = root / "__pycache__" / STAMP
    recorded_digest, recorded = "", []
    with contextlib.suppress(OSError):
        recorded_digest, *recorded = stamp.read_text(encoding="utf-8").splitlines()
    with contextlib.suppress(OSError, ValueError):
        if recorded and _looks([root / line.split(" ", 2)[2] for line in recorded], root) == recorded:
            return False  # not one source file touched (the usual case)
    if not os.access(root, os.W_OK):
        return False
    try:
        modules = list(root.rglob("*.py"))
        sources = _sources(root, modules)
        digest = _digest(sources)
        dropped = False
        if digest != recorded_digest:
            for folder in {p.parent for p in modules}:
                for cache in _cache_folders(folder):
                    for pattern in ("*.nbi", "*.nbc"):
                        for old in cache.glob(pattern):
                            with contextlib.suppress(OSError):  # another process dropped it first
                                old.unlink()
                                dropped = True
    except OSError:  # a source unreadable: nothing to compare
        return False
    with contextlib.suppress(OSError):  # no record kept: the next check takes the caches for stale
        stamp.parent.mkdir(exist_ok=True)
        temporary = stamp.with_name(f"{STAMP}.{os.getpid()}")
        temporary.write_text("\n".join([digest, *_looks(sources, root)]) + "\n", encoding="utf-8")
        temporary.replace(stamp)  # whole, for a process that reads it meanwhile
    return dropped
