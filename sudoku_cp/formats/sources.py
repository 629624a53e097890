"""Where a batch's input comes from: files, standard input, glob patterns, fsspec URLs, the command line.

A large batch is rarely one file: ``"parts/*.txt"`` expands here (the shell may not have done it, as when
the pattern was quoted or names remote files), and a URL such as ``s3://bucket/puzzles/*.txt`` or
``https://host/p.txt`` is opened with ``fsspec`` when it is installed (Dask installs it; the remote
protocols need their own package, such as ``s3fs``). Everything is opened as bytes, read in chunks.
"""

from __future__ import annotations

import glob
import io
import math
import os
import stat
import sys
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..errors import UsageError
from ..grid import BLANKS, SYMBOLS
from ..optional import optional_import
from .fpuzzles import looks_like_fpuzzles

__all__ = ["Inline", "Input", "expand_inputs", "is_url", "known_size", "looks_like_a_puzzle", "open_input"]

_MAGIC = frozenset("*?[")


@dataclass(frozen=True)
class Inline:
    """Puzzles given on the command line (``-p TEXT``, or a puzzle where a file name would be), one a line."""

    text: str

    def __str__(self) -> str:
        return "the command line"


#: An input: a path, ``-`` for standard input, a URL, or puzzles from the command line.
Input = str | Inline


def looks_like_a_puzzle(arg: str) -> bool:
    """True for a command-line argument that is no file but a puzzle: as many characters as an n x n grid
    of 4x4 or more has cells, each a symbol of that grid or a blank (``4...3.......`` and the like), or an
    f-puzzles link or object, or a SudokuPad link (which names a puzzle, not a file to fetch)."""
    link = "load=" in arg or "sudokupad" in arg
    if looks_like_fpuzzles(arg) and not os.path.exists(arg) and ("://" not in arg or link):
        return True
    n = math.isqrt(len(arg))
    if n < 4 or n * n != len(arg) or os.path.exists(arg):
        return False
    symbols = SYMBOLS[:n] if n > 35 else SYMBOLS[:n] + SYMBOLS[:n].lower()
    return set(arg) <= set(symbols + BLANKS)


def is_url(path: str) -> bool:
    """True for ``protocol://...`` names (read through fsspec)."""
    return "://" in path and not os.path.exists(path)


def _fsspec() -> Any:
    return optional_import("fsspec", "reading URLs", "dask")


#: Protocols whose fsspec extra has another name (``pip install 'fsspec[http]'`` serves https too).
_FSSPEC_EXTRA = {"https": "http", "s3a": "s3", "az": "abfs", "gs": "gcs"}


def _unreadable_url(path: str, exc: ImportError) -> UsageError:
    """The error for a URL whose protocol lacks its package: fsspec's own words say what is missing, not
    how to get it, so the extra of fsspec that installs it is named when there is one
    (``pip install 'fsspec[http]'`` for https: aiohttp)."""
    protocol = path.split("://", 1)[0].lower()
    extra = _FSSPEC_EXTRA.get(protocol, protocol)
    try:
        from importlib.metadata import PackageNotFoundError, metadata

        extras = set(metadata("fsspec").get_all("Provides-Extra") or ())
    except (ImportError, PackageNotFoundError):
        extras = set()
    hint = f" (pip install 'fsspec[{extra}]')" if extra in extras else ""
    return UsageError(f"cannot read {path}: {exc}{hint}")


def expand_inputs(paths: list[str], puzzles: list[str] | None = None) -> list[Input]:
    """The inputs named on the command line: ``puzzles`` (``-p``) first, then ``paths`` in order, glob
    patterns expanded (sorted), an argument that is a puzzle rather than a file read as one.

    A name that exists is never a pattern or a puzzle; a pattern that matches nothing is a ``UsageError``.
    """
    expanded: list[Input] = [Inline("\n".join(puzzles) + "\n")] if puzzles else []
    for path in paths:
        if looks_like_a_puzzle(path):
            expanded.append(Inline(path + "\n"))
            continue
        if path == "-" or os.path.exists(path) or not _MAGIC & set(path):
            expanded.append(path)
            continue
        if is_url(path):
            try:
                fs, pattern = _fsspec().core.url_to_fs(path)  # type: ignore[attr-defined]
            except ImportError as exc:  # fsspec names the package its protocol needs
                raise _unreadable_url(path, exc) from None
            matches = sorted(fs.unstrip_protocol(p) for p in fs.glob(pattern))
        else:
            matches = sorted(glob.glob(path))
        if not matches:
            raise UsageError(f"no input matches {path}")
        expanded.extend(matches)
    return expanded


def known_size(paths: list[Input]) -> int | None:
    """The inputs' size in bytes when it is known before reading them: puzzles from the command line and
    regular files. None for standard input (also when there are no paths), a URL, a pipe, a missing file."""
    if not paths:
        return None
    total = 0
    for path in paths:
        if isinstance(path, Inline):
            total += len(path.text.encode())
            continue
        if path == "-" or is_url(path):
            return None
        try:
            info = os.stat(path)
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        total += info.st_size
    return total


def open_input(path: Input) -> BinaryIO:
    """The input as a binary stream: standard input for ``-``, a URL through fsspec, else the file."""
    if isinstance(path, Inline):
        return io.BytesIO(path.text.encode())
    if path == "-":
        return sys.stdin.buffer
    if is_url(path):
        try:
            return _fsspec().open(path, "rb").open()  # type: ignore[attr-defined, no-any-return]
        except ImportError as exc:  # fsspec names the package its protocol needs
            raise _unreadable_url(path, exc) from None
    return open(path, "rb")
