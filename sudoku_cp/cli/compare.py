"""sudoku-cp compare: run several backend configurations on the same puzzles and print a summary table.

A configuration is NAME[:VARIANT][[KEY=VALUE,...]], and --backends takes a comma-separated list of them,
such as dfs,sat:glucose4[encoding=reduced,amo=ladder],cpsat (commas inside brackets separate options).
Times per puzzle leave out each configuration's one-time start-up (imports, compiled kernels, the first
model of each grid size: --warmup), shown in its own column, start-up ms, as a long batch would see them.
Every answer is checked by an independent verifier; a wrong one is reported as ERROR and makes the exit
status 1. Exit status: 0 when every configuration solved every puzzle, 1 otherwise, 2 for a bad
configuration or an unreadable file.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..backends import backend_names, missing_packages
from ..compare import WARMUPS, compare, format_summary, parse_configs, summarize
from ..grid import Puzzle
from ..result import Status
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, SUMMARIES, exit_codes
from .common import _positive_int, add_input_options, output_stream, warn
from .inputs import Inputs
from .options import EMPTY_INPUT, time_limit_option


def _available() -> str:
    return ",".join(name for name in backend_names() if not missing_packages(name))


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare",
        help=SUMMARIES["compare"],
        description=__doc__,
        epilog=exit_codes("every configuration solved every puzzle", "some answer was not solved")
        + EMPTY_INPUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    p.add_argument(
        "--backends",
        metavar="LIST",
        help="comma-separated configurations, such as dfs,dfs[heuristic=first],sat:glucose4[encoding=reduced]"
        " (default: every installed backend)",
    )
    p.add_argument("--first", type=_positive_int, metavar="N", help="only the first N puzzles of the inputs")
    p.add_argument("--limit", type=_positive_int, dest="first", action=_OldLimit, help=argparse.SUPPRESS)
    p.add_argument("--unique", action="store_true", help="also prove each solution unique")
    p.add_argument(
        "--time-limit",
        type=time_limit_option,
        metavar="SECONDS",
        help="per puzzle; over it a puzzle is unknown",
    )
    p.add_argument("--csv", metavar="FILE", help="write every row (puzzle x configuration) to FILE as CSV")
    p.add_argument(
        "--warmup",
        choices=WARMUPS,
        default="shape",
        help="solved untimed by each configuration before its clock starts, its time shown as 'start-up ms' "
        "and left out of the others: shape (a 4x4 puzzle and the first puzzle of each grid size: imports, "
        "compilation, model building, what a long batch pays once; the default), process (the 4x4 puzzle "
        "only), none (the first rows carry it all)",
    )
    p.add_argument("--by-file", action="store_true", help="one summary line per input file and configuration")
    p.set_defaults(run=run)


class _OldLimit(argparse.Action):
    """``--limit N``, the old spelling of ``--first N``: it still works, with a message, since ``--limit``
    means a number of solutions elsewhere (``count --limit``, ``count_solutions(limit=)``)."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, *_: Any
    ) -> None:
        warn("compare --limit N is now --first N (--limit counts solutions, as in count); --limit will go")
        setattr(namespace, self.dest, values)


def _read(args: argparse.Namespace) -> tuple[dict[str, list[Puzzle]], int, bool]:
    """Puzzles per input file (``--first`` in all), the number of invalid ones skipped, any unreadable?"""
    datasets: dict[str, list[Puzzle]] = {}
    skipped, total, unreadable = 0, 0, False
    for path in args.files or ["-"]:
        inputs = Inputs(argparse.Namespace(**{**vars(args), "files": [path]}))
        label = "<stdin>" if path == "-" else path
        for record in inputs:
            if args.first is not None and total >= args.first:
                break
            if record.error is not None:
                warn(f"skipped: {record.error}")
                skipped += 1
                continue
            datasets.setdefault(label, []).append(record.puzzle)
            total += 1
        unreadable = unreadable or bool(inputs.unreadable)
        if args.first is not None and total >= args.first:
            break
    return datasets, skipped, unreadable


def run(args: argparse.Namespace) -> int:
    configs = parse_configs(args.backends or _available())
    for config in configs:  # a misspelt backend or option fails here, before any input is read
        config.make().close()
    datasets, skipped, unreadable = _read(args)
    if not datasets:
        warn("no puzzles to compare")
        return EXIT_USAGE if unreadable else EXIT_OK
    df = compare(datasets, configs, unique=args.unique, time_limit=args.time_limit, warmup=args.warmup)
    if args.csv:
        with output_stream(args.csv) as out:
            df.to_csv(out, index=False)
    summary = summarize(df, ["dataset", "config"] if args.by_file else "config")
    print(format_summary(summary, unique=args.unique))
    sys.stdout.flush()
    for row in df[df["status"] == Status.ERROR.value].itertuples():
        warn(f"ERROR: {row.config} on {row.dataset}, puzzle {row.puzzle} (0-based, as in --csv): {row.error}")
    if unreadable:
        return EXIT_USAGE
    return EXIT_OK if not skipped and (df["status"] == Status.SOLVED.value).all() else EXIT_FAILED
