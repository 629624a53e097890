"""``sudoku-cp solve``: solve every puzzle of the inputs, one output record per input puzzle, in order.

Inputs of any size stream through in chunks, solved by ``--jobs`` worker processes (default: every CPU);
the output keeps the input's order. On a terminal a progress line runs on standard error, and a summary
line ends the run (unless ``-q``). Ctrl-C or SIGTERM stops the batch cleanly: the results written so far
are whole records (with ``-o FILE``, kept as ``FILE.partial``), the summary says how far it came, and the
exit status is 130 (SIGINT) or 143 (SIGTERM).
"""

from __future__ import annotations

import argparse
import signal
import sys

from ..formats.sources import expand_inputs
from ..formats.writing import nothing_answered
from ..result import Status
from . import EXIT_FAILED, EXIT_FAULT, EXIT_OK, EXIT_USAGE, SUMMARIES, exit_codes
from .cluster import add_cluster_option, cluster_client, cluster_note
from .common import add_backend_options, add_input_options, backend_options, input_names, output_stream
from .common import warn as warn_user
from .options import EMPTY_INPUT, add_resume_option, add_run_options, progress_for, resume_skip

EPILOG = exit_codes("every puzzle solved", "some puzzle unsolved, multiple, unknown or invalid") + EMPTY_INPUT


def register(sub: argparse._SubParsersAction) -> None:
    from ..formats import OUTPUT_FORMATS

    p = sub.add_parser("solve", help=SUMMARIES["solve"], description=__doc__, epilog=EPILOG)
    add_input_options(p)
    add_run_options(p, formats=OUTPUT_FORMATS, default_format=None)
    add_backend_options(p, time_limit=False)
    p.add_argument(
        "--unique", action="store_true", help="prove each solution unique; report `multiple` otherwise"
    )
    add_resume_option(p, "solve the puzzles")
    p.add_argument(
        "--true-candidates",
        action="store_true",
        help="for each cell, the digits it holds in some solution: one line per puzzle in the pencilmark "
        "layout (n*n*n characters, the digit or .), or --output-format pretty or jsonl",
    )
    add_cluster_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.true_candidates:
        from .truecands import run as run_true_candidates

        return run_true_candidates(args)
    from ..batch import check_backend, resolve_jobs  # numpy and the batch machinery load only when needed
    from ..batch.interrupt import Interrupted, InterruptGuard
    from ..batch.pool import WorkerError
    from ..batch.solver import SolverConfig
    from ..batch.stream import StreamResult, small_input, solve_stream
    from ..errors import ClusterError  # not the cluster module: it loads asyncio

    paths = expand_inputs(args.files, args.puzzles)
    backend = args.backend
    if backend in ("auto", "dfs") and small_input(paths):  # a puzzle or two take the reference search:
        backend += ":python"  # loading the compiled kernels takes 0.8 s, the search milliseconds
    config = SolverConfig(backend, backend_options(args), args.unique, args.time_limit)
    check_backend(config)  # a bad backend or option is a usage error before any work
    progress = progress_for(args)

    def warn(message: str) -> None:
        progress.close()  # a message starts on a clean line; the progress line comes back on its next update
        warn_user(message)

    skip = resume_skip(args)
    header = None
    if skip:  # the records kept end under the rules their last '# rules:' line says
        from .outfile import partial_path, rules_in_force

        header = rules_in_force(partial_path(args.output))
    result = StreamResult()
    interrupted = None
    failed = None
    with InterruptGuard() as guard, cluster_client(args) as client:
        try:
            with output_stream(args.output, resume=args.resume) as out:
                solve_stream(
                    paths,
                    out,
                    config,
                    jobs=resolve_jobs(args.jobs),
                    input_format=args.input_format,
                    output_format=args.output_format,
                    rules=args.box,
                    guard=guard,
                    progress=progress,
                    warn=warn,
                    result=result,
                    client=client,
                    skip=skip,
                    named=args.rules or (),
                    symbols=args.symbols,
                    header=header,
                )
        except KeyboardInterrupt as exc:  # python-sat raises its own on Ctrl-C during a search
            guard.handled()
            interrupted = exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)
        except (WorkerError, ClusterError) as exc:  # a worker killed (out of memory, kill -9), a lost cluster
            failed = exc
            warn_user(f"error: {str(exc).splitlines()[0]}; the batch stopped")
        finally:
            progress.close()
            where = cluster_note(client)
    tally = result.tally
    if not (tally.total or interrupted or failed or result.unreadable):
        warn_user(nothing_answered(input_names(paths), skip))
    if not args.quiet and (tally.total or interrupted or failed):
        stop = (
            f"interrupted by {interrupted.name}" if interrupted else "stopped by an error" if failed else None
        )
        print(tally.summary(stop) + where, file=sys.stderr, flush=True)
    if interrupted is not None:
        return interrupted.status
    if failed is not None:
        return EXIT_FAULT
    if result.unreadable:
        return EXIT_USAGE
    return EXIT_OK if tally.counts[Status.SOLVED] == tally.total else EXIT_FAILED
