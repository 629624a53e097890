"""``sudoku-cp check``: verify the certificates ``sudoku-cp prove`` wrote, one line per claim.

``k verified unique`` (``none``, ``multiple``; with ``, minimal`` or ``, not minimal`` when the claim
says), or ``k FAILED: why``. The checking is ``sudoku_cp.certify.checker``, which imports nothing but the
standard library: it re-encodes each puzzle, compares the formula clause by clause, checks the solutions
against the rules and the DRAT proof. The same runs as ``python -m sudoku_cp.certify.checker DIR``.

The DRAT proofs are checked by ``certify/drat.py`` (standard library only, the reference) or by its
compiled twin ``certify/drat_compiled.py`` (the same algorithm and verdicts, on arrays with numba: about
15 times as fast a proof, after a compilation of about 10 s once per machine and half a second of loading
per run); ``--drat auto`` takes the twin from 50 proofs on, or from 256 KiB of proofs, where it pays for
its loading.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, SUMMARIES, exit_codes
from .options import jobs_option

if TYPE_CHECKING:
    from ..certify.checker import Refute

__all__ = ["COMPILED_FROM", "COMPILED_FROM_BYTES", "DRAT_CHECKERS", "drat_checker", "register", "run"]

#: ``--drat`` choices, and the number of proofs, or of their bytes in all, from which ``auto`` takes the
#: compiled checker. One proof of 480 KB took the reference 1.1 s and the compiled one 0.66 s, loading
#: included; one of 186 KB 0.43 s and 0.69 s. A killer's proof of 255 MB would take the reference about an
#: hour (the compiled one took 4 minutes).
DRAT_CHECKERS = ("auto", "compiled", "reference")
COMPILED_FROM = 50
COMPILED_FROM_BYTES = 256 << 10


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
    p.add_argument(
        "--drat",
        choices=DRAT_CHECKERS,
        default="auto",
        help="the DRAT checker: drat.py, standard library only (reference), or its compiled twin with the "
        f"same verdicts (compiled); auto (the default): compiled from {COMPILED_FROM} proofs or "
        f"{COMPILED_FROM_BYTES >> 10} KiB of proofs on",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line on standard error")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..batch import resolve_jobs
    from ..batch.interrupt import Interrupted, InterruptGuard
    from ..certify.checker import UnreadableFolder, check_dir
    from .common import warn

    jobs = resolve_jobs(args.jobs)
    refute = drat_checker(args.drat, args.folders)
    verified = failed = unreadable = 0
    stopped: Interrupted | None = None
    with InterruptGuard() as guard:
        try:
            for folder in args.folders:
                try:
                    for _, message, ok in check_dir(folder, jobs=jobs, refute=refute):
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


def drat_checker(choice: str, folders: list[str]) -> Refute:
    """The DRAT checker ``--drat`` names; for ``auto``, the compiled one when the folders' claims name
    ``COMPILED_FROM`` proofs or more (counted in their claims.jsonl; an unreadable one counts none), or
    their proofs (``*.drat``) hold ``COMPILED_FROM_BYTES`` or more."""
    from ..certify.checker import check_refutation, read_text

    if choice == "auto":
        proofs = size = 0
        for folder in folders:
            try:
                proofs += read_text(Path(folder) / "claims.jsonl").count('"proof":')
                size += sum(path.stat().st_size for path in Path(folder).glob("*.drat"))
            except OSError:
                continue  # check_dir reports it
        choice = "compiled" if proofs >= COMPILED_FROM or size >= COMPILED_FROM_BYTES else "reference"
    if choice == "reference":
        return check_refutation
    from ..signals import compiling, held_import

    drat_compiled = held_import("sudoku_cp.certify.drat_compiled")
    with compiling("the DRAT checker", 10):
        drat_compiled.warm_up()
    return drat_compiled.check_refutation
