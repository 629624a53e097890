"""``sudoku-cp solve``: solve every puzzle of the inputs, one output record per input puzzle, in order."""

from __future__ import annotations

import argparse
import sys
import time

from ..backends import make_backend
from ..formats import ResultWriter
from ..result import SolveResult, Status
from ..solving import solve
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from .common import add_backend_options, add_input_options, add_output_options, backend_options, output_stream
from .common import warn as warn_user
from .inputs import Inputs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="solve puzzles", description=__doc__)
    add_input_options(p)
    add_output_options(p)
    add_backend_options(p)
    p.add_argument(
        "--unique", action="store_true", help="prove each solution unique; report `multiple` otherwise"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line on standard error")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = make_backend(args.backend, **backend_options(args))
    inputs = Inputs(args)
    counts = dict.fromkeys(Status, 0)
    start = time.perf_counter()
    with output_stream(args.output) as out:
        writer: ResultWriter | None = None
        for record in inputs:
            if writer is None:
                writer = ResultWriter(out, args.output_format or record.format)
            if record.error is not None:
                warn_user(f"{record.error}")
                result = SolveResult(None, Status.ERROR, error=record.error.reason)
            else:
                result = solve(record.puzzle, backend, unique=args.unique, time_limit=args.time_limit)
            counts[result.status] += 1
            writer.write(record.index, result, record)
        if writer is not None:
            writer.close()
    total = sum(counts.values())
    if not args.quiet and total:
        elapsed = time.perf_counter() - start
        print(_summary(counts, total, elapsed), file=sys.stderr)
    if inputs.unreadable:
        return EXIT_USAGE
    return EXIT_OK if counts[Status.SOLVED] == total else EXIT_FAILED


def _summary(counts: dict[Status, int], total: int, elapsed: float) -> str:
    parts = [
        f"{counts[s]} {s.value.replace('_', ' ')}" for s in Status if counts[s] and s is not Status.SOLVED
    ]
    rate = total / elapsed if elapsed > 0 else float("inf")
    rest = f" ({', '.join(parts)})" if parts else ""
    return (
        f"solved {counts[Status.SOLVED]} of {total} puzzles{rest} in {elapsed:.2f} s, {rate:,.0f} puzzles/s"
    )
