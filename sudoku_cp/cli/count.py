"""``sudoku-cp count``: the number of solutions of each puzzle, counted up to a limit, one line per puzzle.

A line holds the count; ``2+`` means the search stopped at ``--limit 2`` (two or more solutions), ``1?`` that
the time limit stopped it after one (a lower bound), ``error: ...`` that the puzzle could not be read.
Counting runs on the backend interface, so every backend can count.
"""

from __future__ import annotations

import argparse

from ..backends import make_backend
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_codes
from .common import (
    _positive_int,
    add_backend_options,
    add_input_options,
    backend_options,
    output_stream,
    warn,
)
from .inputs import Inputs

EPILOG = exit_codes("every puzzle has exactly one solution", "otherwise")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "count",
        help="count each puzzle's solutions up to a limit",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    add_backend_options(p, default="sat")
    p.add_argument(
        "--limit", type=_positive_int, default=2, metavar="K", help="stop counting at K solutions (default 2)"
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = make_backend(args.backend, **backend_options(args))
    inputs = Inputs(args)  # clashing givens are reported as solve reports them (explain says why)
    all_unique = True
    with output_stream(args.output) as out:
        for record in inputs:
            if record.puzzle is None:
                warn(f"{record.error}")
                out.write(f"error: {record.error.reason if record.error else 'unreadable'}\n")
                all_unique = False
                continue
            found = backend.enumerate(record.puzzle, limit=args.limit, time_limit=args.time_limit)
            count = len(found.solutions)
            mark = "?" if found.timed_out else "" if found.complete else "+"
            out.write(f"{count}{mark}\n")
            all_unique = all_unique and count == 1 and found.complete
    if inputs.unreadable:
        return EXIT_USAGE
    if inputs.layout is None:
        warn(f"no puzzles in {inputs.names()}")
    return EXIT_OK if all_unique else EXIT_FAILED
