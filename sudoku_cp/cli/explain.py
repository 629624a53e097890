"""``sudoku-cp explain``: why each puzzle has no solution or several, or that it has exactly one.

For no solution: a minimal set of givens that cannot all hold (``r1c3=5 r1c8=5``). For several: where
two solutions differ, a clue that removes the second, and both solutions. For one: the solution.
"""

from __future__ import annotations

import argparse

from ..backends import make_backend
from ..explain import explain
from ..result import Status
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_codes
from .common import add_backend_options, add_input_options, backend_options, output_stream, warn
from .inputs import Inputs

EPILOG = exit_codes("every puzzle has exactly one solution", "otherwise")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="explain puzzles with no solution or several",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    add_backend_options(p, default="sat")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = make_backend(args.backend, **backend_options(args))
    inputs = Inputs(args, validate=False)  # clashing givens are what explain is for
    all_unique = True
    with output_stream(args.output) as out:
        for record in inputs:
            if record.puzzle is None:
                warn(f"{record.error}")
                out.write(f"puzzle {record.index}: error: {record.error.reason if record.error else '?'}\n")
                all_unique = False
                continue
            explanation = explain(record.puzzle, backend, time_limit=args.time_limit)
            first, *rest = explanation.lines()
            out.write(f"puzzle {record.index}: {first}\n")
            out.writelines(f"  {line}\n" for line in rest)
            all_unique = all_unique and explanation.status is Status.SOLVED
    if inputs.unreadable:
        return EXIT_USAGE
    return EXIT_OK if all_unique else EXIT_FAILED
