"""Where a batch's input comes from: files, standard input, glob patterns and fsspec URLs.

A large batch is rarely one file: ``"parts/*.txt"`` expands here (the shell may not have done it, as when
the pattern was quoted or names remote files), and a URL such as ``s3://bucket/puzzles/*.txt`` or
``https://host/p.txt`` is opened with ``fsspec`` when it is installed (Dask installs it; the remote
protocols need their own package, such as ``s3fs``). Everything is opened as bytes, read in chunks.
"""

from __future__ import annotations

import glob
import os
import sys
from typing import BinaryIO

from ..errors import MissingPackageError, UsageError

__all__ = ["expand_inputs", "is_url", "open_input"]

_MAGIC = frozenset("*?[")


def is_url(path: str) -> bool:
    """True for ``protocol://...`` names (read through fsspec)."""
    return "://" in path and not os.path.exists(path)


def _fsspec() -> object:
    try:
        import fsspec
    except ImportError:
        raise MissingPackageError(
            "reading URLs needs fsspec: pip install 'sudoku-cp[dask]' (or pip install fsspec)"
        ) from None
    return fsspec


def expand_inputs(paths: list[str]) -> list[str]:
    """The inputs named on the command line, glob patterns expanded (sorted); ``-`` and plain names kept.

    A name that exists is never a pattern; a pattern that matches nothing is a ``UsageError`` naming it.
    """
    expanded: list[str] = []
    for path in paths:
        if path == "-" or os.path.exists(path) or not _MAGIC & set(path):
            expanded.append(path)
            continue
        if is_url(path):
            fs, pattern = _fsspec().core.url_to_fs(path)  # type: ignore[attr-defined]
            matches = sorted(fs.unstrip_protocol(p) for p in fs.glob(pattern))
        else:
            matches = sorted(glob.glob(path))
        if not matches:
            raise UsageError(f"no input matches {path}")
        expanded.extend(matches)
    return expanded


def open_input(path: str) -> BinaryIO:
    """The input as a binary stream: standard input for ``-``, a URL through fsspec, else the file."""
    if path == "-":
        return sys.stdin.buffer
    if is_url(path):
        return _fsspec().open(path, "rb").open()  # type: ignore[attr-defined, no-any-return]
    return open(path, "rb")
