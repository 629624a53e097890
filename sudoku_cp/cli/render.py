"""``sudoku-cp render``: draw each puzzle as a picture, ``DIR/k.svg`` (or ``.png``) for the k-th puzzle read.

With ``--solution`` the solution's digits are drawn in blue over the givens; with ``--candidates`` each
empty cell shows the digits its peers leave open. A single puzzle drawn as SVG without ``-o`` goes to
standard output. Needs the ``draw`` extra: ``pip install 'sudoku-cp[draw]'``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

from ..errors import UsageError
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_codes
from .common import add_backend_options, add_input_options, backend_options, warn
from .inputs import Inputs

__all__ = ["register", "run"]

EPILOG = exit_codes("every puzzle drawn", "some puzzle unreadable or unsolved")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render",
        help="draw puzzles as SVG or PNG pictures",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    p.add_argument("-o", "--output", metavar="DIR", help="write DIR/1.svg, DIR/2.svg, ... (made if missing)")
    p.add_argument("--format", choices=("svg", "png"), default="svg", help="picture format (default svg)")
    p.add_argument("--solution", action="store_true", help="draw the solution's digits over the givens")
    p.add_argument("--candidates", action="store_true", help="draw the candidates of the empty cells")
    add_backend_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..candidates import Candidates
    from ..draw import draw, drawsvg_module, save
    from ..solving import solve

    drawsvg_module()  # a missing extra is reported before any work
    to_stdout = args.output in (None, "-")
    if to_stdout and args.format != "svg":
        raise UsageError("a PNG picture needs -o DIR")
    folder = None if to_stdout else Path(args.output)
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{folder} is not a folder")
        folder.mkdir(parents=True, exist_ok=True)
    inputs = Inputs(args, validate=True)
    records = iter(inputs)
    if folder is None:  # standard output takes one picture: know that there is one before drawing it
        head = list(itertools.islice(records, 2))
        if len(head) > 1:
            raise UsageError("the input holds several puzzles: give -o DIR to draw one file each")
        records = iter(head)
    failed = drawn = 0
    for k, record in enumerate(records, start=1):
        if record.puzzle is None:
            warn(str(record.error))
            failed += 1
            continue
        puzzle = record.puzzle
        solution = None
        if args.solution:
            result = solve(puzzle, args.backend, time_limit=args.time_limit, **backend_options(args))
            solution = result.solution
            if solution is None:
                status = result.status.value.replace("_", " ")
                warn(f"puzzle {record.index}: {status}; drawn without a solution")
                failed += 1
        picture = draw(puzzle, solution, Candidates.of(puzzle) if args.candidates else None)
        if folder is None:
            sys.stdout.write(picture.as_svg() + "\n")
        else:
            save(picture, folder / f"{k}.{args.format}", args.format)
        drawn += 1
    if inputs.unreadable:
        return EXIT_USAGE
    if not drawn and not failed:
        warn("no puzzles in the input")
        return EXIT_FAILED
    return EXIT_FAILED if failed else EXIT_OK
