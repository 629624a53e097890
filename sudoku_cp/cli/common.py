"""Options and plumbing the commands share: input files, layouts, backend options, safe output files."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ..backends import backend_names
from ..errors import UsageError
from ..grid import Shape

__all__ = [
    "add_backend_options",
    "add_input_options",
    "add_output_options",
    "backend_options",
    "output_stream",
    "shape_of",
    "warn",
]


def warn(message: str) -> None:
    """A message for the user on standard error, prefixed with the program's name."""
    print(f"sudoku-cp: {message}", file=sys.stderr, flush=True)


def _shape(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """FILE... (standard input when none or ``-``), ``--input-format`` and ``--box``."""
    from ..formats import INPUT_FORMATS

    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="puzzle files; standard input when none or -"
    )
    parser.add_argument(
        "--input-format", choices=INPUT_FORMATS, help="the input layout (default: detected from the input)"
    )
    parser.add_argument(
        "--box", type=_shape, metavar="RxC", help="box shape, such as 2x3 (default: from the puzzle size)"
    )


def add_output_options(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    """``--output-format`` and ``-o FILE``."""
    from ..formats import OUTPUT_FORMATS

    parser.add_argument(
        "--output-format",
        choices=OUTPUT_FORMATS,
        default=default,
        help=f"the output layout (default: {default or 'the input layout'})",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write here (complete files only: renamed into place at the end)",
    )


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def add_backend_options(parser: argparse.ArgumentParser, default: str = "dfs") -> None:
    """``--backend NAME[:VARIANT]`` and the options each backend takes; unset options are not passed."""
    group = parser.add_argument_group("backend")
    group.add_argument(
        "--backend",
        default=default,
        metavar="NAME[:VARIANT]",
        help=f"{', '.join(backend_names())} (default: {default}); `sudoku-cp backends` lists them",
    )
    group.add_argument("--heuristic", help="dfs: branch cell choice: mrv (default), first, weighted")
    group.add_argument("--encoding", help="sat: CNF encoding: minimal, extended (default), reduced")
    group.add_argument("--amo", help="sat: at-most-one scheme, such as pairwise, seqcounter, ladder, bitwise")
    group.add_argument("--workers", type=_positive_int, help="cpsat: search workers")
    group.add_argument(
        "--time-limit",
        type=_positive_float,
        metavar="SECONDS",
        help="per puzzle; a puzzle over it is unknown",
    )


#: CLI option -> backend keyword, for the options of add_backend_options.
_BACKEND_OPTIONS = ("heuristic", "encoding", "amo", "workers")


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """The backend keywords the user set (those left unset are not passed, so defaults stay the backend's)."""
    return {k: getattr(args, k) for k in _BACKEND_OPTIONS if getattr(args, k, None) is not None}


def shape_of(args: argparse.Namespace) -> Shape | None:
    return getattr(args, "box", None)


@contextlib.contextmanager
def output_stream(path: str | None) -> Iterator[TextIO]:
    """Standard output, or a file that appears under ``path`` only when complete.

    The text goes to a temporary file beside ``path`` that is renamed into place at the end; when the work
    stops early (an error, Ctrl-C) the records written so far are kept as ``path.partial`` instead.
    """
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{path} is a folder, not a file")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    mask = os.umask(0)
    os.umask(mask)
    os.fchmod(fd, 0o666 & ~mask)  # mkstemp makes the file private; the result gets the usual permissions
    stream = os.fdopen(fd, "w", encoding="utf-8", newline="")
    try:
        yield stream
    except BaseException:
        stream.close()
        partial = target.with_name(target.name + ".partial")
        os.replace(tmp, partial)
        warn(f"stopped early: the results written so far are in {partial}")
        raise
    stream.close()
    os.replace(tmp, target)
