"""The options every command that writes results shares, spelt and meaning the same everywhere.

``add_run_options`` gives a command ``-j/--jobs``, ``-q/--quiet``, ``-o/--output``, ``--output-format``
(``line``, ``pretty`` and ``jsonl`` at least, plus the command's own layouts) and ``--time-limit``; a user
who learnt them on one command knows them on every other. ``progress_for`` and ``summary_line`` give the
same progress line on a terminal and the same one-line summary at the end.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..formats.writing import RESUMABLE_OUTPUTS

if TYPE_CHECKING:
    from pathlib import Path

    from ..batch.progress import Progress

__all__ = [
    "BASE_FORMATS",
    "EMPTY_INPUT",
    "add_resume_option",
    "add_run_options",
    "jobs_option",
    "positive_int",
    "progress_for",
    "resume_skip",
    "time_limit_option",
]

#: What an input without any puzzle means, for the exit-status line of each command that reads puzzles:
#: nothing failed, so status 0 (as ``grep -c`` or ``wc`` on an empty file), and a warning names the input.
EMPTY_INPUT = "; an input without any puzzle: 0, as no puzzle failed (a warning says `no puzzles in FILE`)"

#: The output layouts of every command that writes results; a command may add its own.
BASE_FORMATS: tuple[str, ...] = ("line", "pretty", "jsonl")


def add_resume_option(parser: argparse.ArgumentParser, answers: str = "answer the puzzles") -> None:
    """``--resume``: continue the ``FILE.partial`` a stopped run with ``-o FILE`` left."""
    parser.add_argument(
        "--resume",
        action="store_true",
        help=f"continue a stopped run: keep the records in FILE.partial (-o FILE) and {answers} after them "
        f"({' or '.join(RESUMABLE_OUTPUTS)} output)",
    )


def resume_skip(args: argparse.Namespace, what: str = "puzzle", total: int | None = None) -> int:
    """With ``--resume``: the whole records in the ``FILE.partial`` of ``-o FILE``, to skip (said on
    standard error); 0 without it. ``UsageError`` without ``-o FILE``, with a layout of several lines
    per record (an ``--output-format`` that is None, the input's own, is checked by the caller), or when
    the partial file holds the run's ``total`` records already."""
    if not getattr(args, "resume", False):
        return 0
    from ..errors import UsageError
    from ..wording import plural
    from .common import warn
    from .outfile import count_records, keep_killed_runs, partial_path

    if args.output in (None, "-"):
        raise UsageError("--resume continues the FILE.partial of -o FILE: give -o FILE")
    keep_killed_runs(args.output)  # a run killed with kill -9 left its work in a temporary file
    layout = getattr(args, "output_format", None)
    if layout is not None and layout not in RESUMABLE_OUTPUTS:
        choices = " or ".join(RESUMABLE_OUTPUTS)
        raise UsageError(f"--resume needs one record per output line: --output-format {choices}")
    partial = partial_path(args.output)
    skip = count_records(partial)
    if skip and _holds_json(partial) != (layout == "jsonl"):  # a record of one kind after the other's
        written = "jsonl" if layout != "jsonl" else "line"
        raise UsageError(f"{partial} holds {written} records: resume with --output-format {written}")
    if total is not None and skip >= total:
        raise UsageError(f"{partial} holds {skip:,} {plural(skip, what)}: nothing is left of {total:,}")
    if skip:
        warn(f"resuming after the {skip:,} {plural(skip, what)} in {partial}")
    return skip


def _holds_json(path: Path) -> bool:
    """Whether the records of a partial output file are JSON objects (``jsonl``), from its first byte."""
    with open(path, "rb") as f:
        return f.read(1) == b"{"


def jobs_option(text: str) -> int:
    """``-j N``: 0 means one worker per CPU, 1 runs in this process."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (every CPU) or more, not {text}")
    return value


#: A time limit from this many seconds up (about 30 years), ``inf`` included, is no time limit.
NO_TIME_LIMIT = 1e9


def time_limit_option(text: str) -> float | None:
    """``--time-limit SECONDS``: a number above 0; one that no run reaches (``NO_TIME_LIMIT``, ``inf``) is
    none (None), not a clock or timer set that far (which would overflow)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return None if value >= NO_TIME_LIMIT else value


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def add_run_options(
    parser: argparse.ArgumentParser,
    *,
    formats: Sequence[str] | None = BASE_FORMATS,
    default_format: str | None = "line",
    jobs: bool = True,
    time_limit: bool = True,
    output_metavar: str = "FILE",
    output_help: str = "write here instead of standard output (renamed into place when complete)",
    default_help: str | None = None,
) -> None:
    """Add the shared options: ``-j/--jobs N`` (default: every CPU), ``-q/--quiet``, ``-o/--output FILE``,
    ``--output-format`` (``formats``, which must include ``BASE_FORMATS``; ``default_format`` None: the
    input's layout, or what ``default_help`` says for a command that reads no input) and
    ``--time-limit SECONDS`` (per puzzle).

    ``jobs`` and ``time_limit`` False leave those out for a command where they mean nothing, and
    ``formats`` None leaves out ``--output-format`` for one whose output is no record per puzzle (the
    DIMACS formulas of ``encode``).
    """
    missing = [f for f in BASE_FORMATS if f not in (formats or BASE_FORMATS)]
    if missing:
        raise ValueError(f"every command writes {', '.join(BASE_FORMATS)}; missing: {', '.join(missing)}")
    group = parser.add_argument_group("run")
    if jobs:
        group.add_argument(
            "-j",
            "--jobs",
            type=jobs_option,
            default=0,
            metavar="N",
            help="worker processes (default 0: one per CPU); 1 runs in this process. The output is the "
            "same whatever N",
        )
    group.add_argument(
        "-q", "--quiet", action="store_true", help="no progress line and no summary line on standard error"
    )
    group.add_argument("-o", "--output", metavar=output_metavar, help=output_help)
    if formats is not None:
        group.add_argument(
            "--output-format",
            choices=list(formats),
            default=default_format,
            help=f"the output layout (default: {default_format or default_help or 'the input layout'})",
        )
    if time_limit:
        group.add_argument(
            "--time-limit",
            type=time_limit_option,
            metavar="SECONDS",
            help="per puzzle; a puzzle over it is unknown",
        )


def progress_for(args: argparse.Namespace, total: int | None = None) -> Progress:
    """The progress line of a run: on standard error when it is a terminal, unless ``-q`` or the results
    themselves scroll by on that terminal (standard output is one, and no ``-o``)."""
    from ..batch.progress import Progress  # the batch package loads numpy: only when a run starts

    to_screen = getattr(args, "output", None) in (None, "-") and sys.stdout.isatty()
    return Progress(enabled=False if getattr(args, "quiet", False) or to_screen else None, total=total)
