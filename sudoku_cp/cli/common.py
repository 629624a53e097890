"""Options and plumbing the commands share: input files, layouts, backend options, safe output files.

The run options (``-j``, ``-q``, ``-o``, ``--output-format``, ``--time-limit``) are in ``options``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..backends import DEFAULT_BACKEND, backend_names
from ..formats.alphabet import Alphabet, parse_alphabet
from ..grid import Rules
from ..rules import NAMED, expand_names
from .options import add_run_options, time_limit_option
from .options import positive_int as _positive_int
from .outfile import output_stream

__all__ = [
    "add_backend_options",
    "add_input_options",
    "add_run_options",
    "alphabet_option",
    "backend_options",
    "input_names",
    "output_stream",
    "rule_names",
    "rules_of",
    "warn",
]


def input_names(inputs: list[Any]) -> str:
    """The inputs named on the command line, for messages: ``a.txt, b.txt``, ``the standard input``."""
    names = ["the standard input" if p == "-" else str(p) for p in inputs or ["-"]]
    return ", ".join(names)


def warn(message: str) -> None:
    """A message for the user on standard error, prefixed with the program's name."""
    print(f"sudoku-cp: {message}", file=sys.stderr, flush=True)


def alphabet_option(text: str) -> Alphabet:
    """``--symbols 0-F``: the alphabet, or a usage error saying what is wrong with it."""
    try:
        return parse_alphabet(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def rule_names(text: str) -> tuple[str, ...]:
    """``--rules x,anti-knight``: the canonical names, or a usage error listing the known ones."""
    try:
        return expand_names(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _rules_key(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """FILE... (standard input when none or ``-``), ``-p TEXT``, ``--input-format`` and ``--box``."""
    from ..formats import INPUT_FORMATS

    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="puzzle files (quoted glob patterns and URLs too), or puzzles written in place of a file; "
        "standard input when none or -",
    )
    parser.add_argument(
        "-p",
        "--puzzle",
        dest="puzzles",
        action="append",
        metavar="TEXT",
        help="a puzzle on one line (repeatable)",
    )
    parser.add_argument(
        "--input-format", choices=INPUT_FORMATS, help="the input layout (default: detected from the input)"
    )
    parser.add_argument(
        "--box", type=_rules_key, metavar="RxC", help="box shape, such as 2x3 (default: from the puzzle size)"
    )
    parser.add_argument(
        "--symbols",
        type=alphabet_option,
        metavar="ALPHABET",
        help="the digits' symbols, read and written: 0-F, A-P, 1-9A-G (the default for 16x16) or an explicit "
        "string of n characters; . is always a blank",
    )
    parser.add_argument(
        "--rules",
        type=rule_names,
        metavar="NAMES",
        help=f"variant rules added to every puzzle, comma-separated: {', '.join(['x', *NAMED])}",
    )


def add_backend_options(
    parser: argparse.ArgumentParser, default: str = DEFAULT_BACKEND, time_limit: bool = True
) -> None:
    """``--backend NAME[:VARIANT]`` and the options each backend takes; unset options are not passed.

    ``time_limit`` False leaves ``--time-limit`` to ``options.add_run_options``, which the commands that
    call it give it.
    """
    group = parser.add_argument_group("backend")
    group.add_argument(
        "--backend",
        default=default,
        metavar="NAME[:VARIANT]",
        help=f"{', '.join(backend_names())} (default: {default}); `sudoku-cp backends` lists them",
    )
    group.add_argument(
        "--heuristic",
        help="dfs: search: auto (default: the band search on classic 9x9, mrv on other classic grids, "
        "wdeg beyond the classic rules; conflicts on the python engine), mrv, first, weighted, conflicts, "
        "wdeg (the compiled engine's)",
    )
    group.add_argument("--encoding", help="sat: CNF encoding: minimal, extended (default), reduced")
    group.add_argument("--amo", help="sat: at-most-one scheme, such as pairwise, seqcounter, ladder, bitwise")
    group.add_argument("--workers", type=_positive_int, help="cpsat: search workers")
    if time_limit:
        group.add_argument(
            "--time-limit",
            type=time_limit_option,
            metavar="SECONDS",
            help="per puzzle; a puzzle over it is unknown",
        )


#: CLI option -> backend keyword, for the options of add_backend_options.
_BACKEND_OPTIONS = ("heuristic", "encoding", "amo", "workers")


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """The backend keywords the user set (those left unset are not passed, so defaults stay the backend's)."""
    return {k: getattr(args, k) for k in _BACKEND_OPTIONS if getattr(args, k, None) is not None}


def rules_of(args: argparse.Namespace) -> Rules | None:
    return getattr(args, "box", None)
