"""``sudoku-cp encode``: write puzzles (or an empty grid) as CNF formulas that any SAT solver reads.

One puzzle goes to standard output or ``-o FILE``; with ``-o DIR/`` every puzzle of the input gets its own
file, ``DIR/k.cnf`` for the k-th. ``sudoku-cp decode`` turns a solver's model back into the grid.

The DIMACS output maps each primary variable to its cell and digit in ``c`` comments
(``c var 12 = r1c2=3``); encodings/README.md explains the numbering and the encodings.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ..dimacs import to_dimacs
from ..encode.amo import AMO_SCHEMES
from ..encode.cnf import ENCODINGS
from ..errors import UsageError
from ..grid import Puzzle, Rules
from ..wording import plural
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, SUMMARIES, exit_codes
from .common import add_input_options, output_stream, warn
from .inputs import Inputs
from .options import EMPTY_INPUT, add_run_options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "encode",
        help=SUMMARIES["encode"],
        description=__doc__,
        epilog=exit_codes("every formula written", "some puzzle could not be read") + EMPTY_INPUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    p.add_argument("--to", choices=["dimacs"], default="dimacs", help="the output format (default dimacs)")
    p.add_argument(
        "--encoding", choices=ENCODINGS, default="extended", help="the CNF encoding (default extended)"
    )
    p.add_argument(
        "--amo",
        choices=AMO_SCHEMES,
        help="at-most-one scheme (default: pairwise for groups up to 16 literals, else seqcounter)",
    )
    p.add_argument(
        "--empty",
        action="store_true",
        help="encode the empty grid of --box (default 3x3) instead of a puzzle",
    )
    p.add_argument("--no-comments", action="store_true", help="leave out the c lines (the variable map)")
    add_run_options(
        p,
        formats=None,
        jobs=False,
        time_limit=False,
        output_metavar="FILE|DIR/",
        output_help="write here instead of standard output; a folder (existing, or a name ending in /) gets "
        "one file per puzzle of the input: DIR/1.cnf, DIR/2.cnf, ...",
    )
    p.set_defaults(run=run)


def _the_puzzle(args: argparse.Namespace) -> tuple[Puzzle | None, int]:
    """The one puzzle of the input, or None after reporting why there is none, with the exit status
    then: 0 for an input without a puzzle, 1 for one that cannot be read as a puzzle, 2 unreadable."""
    inputs = Inputs(args, validate=False)
    records = iter(inputs)
    record = next(records, None)
    if record is None:
        if inputs.unreadable:
            return None, EXIT_USAGE
        warn(f"no puzzles in {inputs.names()}")
        return None, EXIT_OK
    if next(records, None) is not None:
        raise UsageError("the input holds several puzzles: give -o DIR/ to write one file each")
    if record.puzzle is None:
        warn(f"{record.error}")
    return record.puzzle, EXIT_FAILED


def _folder(output: str | None) -> Path | None:
    """The folder ``-o`` names (an existing one, or a name ending in a separator), else None."""
    if output is None or output == "-":
        return None
    if output.endswith(("/", os.sep)) or Path(output).is_dir():
        return Path(output)
    return None


def _encode_each(args: argparse.Namespace, folder: Path) -> int:
    """Every puzzle of the input to ``folder/k.cnf``, k its number in the input (from 1)."""
    folder.mkdir(parents=True, exist_ok=True)
    inputs = Inputs(args, validate=False)
    started = time.perf_counter()
    written = failed = 0
    for k, record in enumerate(inputs, start=1):
        if record.puzzle is None:
            warn(f"{record.error}")
            failed += 1
            continue
        with output_stream(str(folder / f"{k}.cnf")) as out:
            out.write(to_dimacs(record.puzzle, args.encoding, args.amo, comments=not args.no_comments))
        written += 1
    if not written and not failed and not inputs.unreadable:
        warn(f"no puzzles in {inputs.names()}")
    elif not args.quiet:
        seconds = time.perf_counter() - started
        errors = f" ({failed:,} {plural(failed, 'error')})" if failed else ""
        print(
            f"encoded {written:,} {plural(written, 'puzzle')}{errors} in {seconds:.2f} s into {folder}",
            file=sys.stderr,
        )
    if inputs.unreadable:
        return EXIT_USAGE
    return EXIT_FAILED if failed else EXIT_OK


def run(args: argparse.Namespace) -> int:
    folder = _folder(args.output)
    if folder is not None and not args.empty:
        return _encode_each(args, folder)
    if args.empty:
        if args.files:
            raise UsageError("--empty takes no input file")
        puzzle: Puzzle | Rules | None = args.box or Rules.classic(3, 3)
        if args.rules:
            puzzle = puzzle.with_named(args.rules)
    else:
        puzzle, status = _the_puzzle(args)
        if puzzle is None:
            return status
    text = to_dimacs(puzzle, args.encoding, args.amo, comments=not args.no_comments)
    with output_stream(args.output) as out:
        out.write(text)
    return EXIT_OK
