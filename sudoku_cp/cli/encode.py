"""``sudoku-cp encode``: write a puzzle (or an empty grid) as a CNF formula that any SAT solver reads.

The DIMACS output maps each primary variable to its cell and digit in ``c`` comments
(``c var 12 = r1c2=3``); encodings/README.md explains the numbering and the encodings.
"""

from __future__ import annotations

import argparse

from ..dimacs import to_dimacs
from ..encode.amo import AMO_SCHEMES
from ..encode.cnf import ENCODINGS
from ..errors import UsageError
from ..grid import Puzzle, Shape
from . import EXIT_OK, EXIT_USAGE, exit_codes
from .common import add_input_options, output_stream, warn
from .inputs import Inputs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "encode",
        help="write a puzzle as a DIMACS CNF formula",
        description=__doc__,
        epilog=exit_codes("the formula written", None),
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
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(run=run)


def _the_puzzle(args: argparse.Namespace) -> Puzzle | None:
    """The one puzzle of the input, or None after reporting why there is none."""
    if len(args.files) > 1:
        raise UsageError("encode takes one input file")
    inputs = Inputs(args, validate=False)
    records = iter(inputs)
    record = next(records, None)
    if record is None:
        if not inputs.unreadable:
            warn("no puzzle in the input")
        return None
    if next(records, None) is not None:
        raise UsageError("encode takes one puzzle; the input holds more (split it, or use --empty)")
    if record.puzzle is None:
        warn(f"{record.error}")
    return record.puzzle


def run(args: argparse.Namespace) -> int:
    if args.empty:
        if args.files:
            raise UsageError("--empty takes no input file")
        puzzle: Puzzle | Shape | None = args.box or Shape(3, 3)
    else:
        puzzle = _the_puzzle(args)
    if puzzle is None:
        return EXIT_USAGE
    text = to_dimacs(puzzle, args.encoding, args.amo, comments=not args.no_comments)
    with output_stream(args.output) as out:
        out.write(text)
    return EXIT_OK
