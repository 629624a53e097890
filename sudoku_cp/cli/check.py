"""``sudoku-cp check``: verify the certificates ``sudoku-cp prove`` wrote, one line per claim.

``k verified unique`` (``none``, ``multiple``; with ``, minimal`` or ``, not minimal`` when the claim
says), or ``k FAILED: why``. The checking is ``sudoku_cp.certify.checker``, which imports nothing but the
standard library: it re-encodes each puzzle, compares the formula clause by clause, checks the solutions
against the rules and the DRAT proof. The same runs as ``python -m sudoku_cp.certify.checker DIR``.
"""

from __future__ import annotations

import argparse
import sys

from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, SUMMARIES, exit_codes
from .options import jobs_option

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help=SUMMARIES["check"],
        description=__doc__,
        epilog=exit_codes("every claim verified", "some claim failed"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("folders", nargs="+", metavar="DIR", help="folders of certificates (with claims.jsonl)")
    p.add_argument(
        "-j",
        "--jobs",
        type=jobs_option,
        default=0,
        metavar="N",
        help="worker processes (default 0: one per CPU); the output is the same whatever N",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line on standard error")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..batch import resolve_jobs
    from ..batch.interrupt import Interrupted, InterruptGuard
    from ..certify.checker import UnreadableFolder, check_dir
    from .common import warn

    jobs = resolve_jobs(args.jobs)
    verified = failed = unreadable = 0
    stopped: Interrupted | None = None
    with InterruptGuard() as guard:
        try:
            for folder in args.folders:
                try:
                    for _, message, ok in check_dir(folder, jobs=jobs):
                        with guard.deferred():  # whole lines only
                            print(message, flush=True)
                            verified += ok
                            failed += not ok
                except UnreadableFolder as exc:  # the other folders are checked all the same
                    warn(str(exc))
                    unreadable += 1
        except Interrupted as exc:  # the workers are ended with the pool
            guard.handled()
            stopped = exc
    if not args.quiet:
        where = f", interrupted by {stopped.name}" if stopped else ""
        print(f"{verified:,} verified, {failed:,} failed{where}", file=sys.stderr)
    if stopped is not None:
        return stopped.status
    if unreadable:
        return EXIT_USAGE
    return EXIT_OK if failed == 0 and verified else EXIT_FAILED
