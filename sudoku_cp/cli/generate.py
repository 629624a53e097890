"""``sudoku-cp generate``: new puzzles whose unique solution a solver proved, minimal or sized, rated.

Without ``--clues``/``--blanks`` the puzzles are minimal (no clue can go); minimal classic 9x9 puzzles are
made and proved by the compiled band search unless ``--solver`` names a SAT solver. The same ``--seed`` and
options give the same puzzles, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import csv
import json
import signal
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from ..backends import sat_solver_name
from ..errors import UsageError
from ..formats.fpuzzles import rules_field, to_fpuzzles
from ..formats.header import header_words
from ..formats.writing import OUTPUT_FORMATS, rules_line
from ..generate import BLANK_LEVELS, SYMMETRIES, Generated, GenerationError, generate, generate_killer
from ..generate.drawn import generate_clued
from ..generate.generator import BAND_SEARCH
from ..generate.oracle import DEFAULT_SOLVER
from ..grid import Rules
from ..rate import LEVELS
from ..rules import NAMED, Cage
from ..rules.kinds import BY_KEY, KINDS, drawable
from . import EXIT_FAILED, EXIT_FAULT, EXIT_OK, SUMMARIES, exit_codes
from .cluster import add_cluster_option, cluster_client, cluster_note
from .common import output_stream, rule_names, warn
from .options import add_resume_option, add_run_options, progress_for, resume_skip

if TYPE_CHECKING:
    from ..batch.progress import Progress, Tally

__all__ = ["register", "run"]


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def _clues(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _blanks(text: str) -> int | str:
    if text in BLANK_LEVELS:
        return text
    if text in LEVELS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is a difficulty, not a number of blanks: use --difficulty {text} (checked by rate), "
            f"or --blanks with a count or one of {', '.join(BLANK_LEVELS)}"
        )
    try:
        return _clues(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a number or one of {', '.join(BLANK_LEVELS)}, not {text!r}"
        ) from None


def _seed(text: str) -> int | str:
    """An integer seed when the text is one (so ``7`` and ``07`` agree), else the text itself."""
    try:
        return int(text)
    except ValueError:
        return text


def _rules_key(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate",
        help=SUMMARIES["generate"],
        description=__doc__,
        epilog=exit_codes("every puzzle generated", "some puzzle could not be generated"),
    )
    p.add_argument("-n", "--count", type=_count, default=1, metavar="N", help="puzzles to make (default 1)")
    p.add_argument("--box", type=_rules_key, metavar="RxC", help="box shape (default 3x3, the 9x9 grid)")
    p.add_argument(
        "--rules",
        type=rule_names,
        metavar="NAMES",
        help=f"variant rules of every puzzle, comma-separated: {', '.join(['x', *NAMED])}",
    )
    p.add_argument(
        "--killer",
        action="store_true",
        help="killer puzzles: cages with sums covering the grid, givens only where needed "
        "(written as f-puzzles JSON unless --output-format says otherwise)",
    )
    p.add_argument(
        "--constraints",
        type=_constraint_keys,
        metavar="KINDS",
        help="clues of these kinds drawn from each solution, comma-separated f-puzzles keys: "
        f"{', '.join(k.key for k in KINDS if drawable(k))}; givens only where needed (written as "
        "f-puzzles JSON unless --output-format says otherwise)",
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument("--clues", type=_clues, metavar="C", help="exactly C givens")
    size.add_argument(
        "--blanks",
        type=_blanks,
        metavar="B",
        help="exactly B empty cells, or a range: few (33-35 of 81), some (36-38), many (39-41) "
        "(how many, not how hard: that is --difficulty)",
    )
    p.add_argument(
        "--difficulty",
        choices=LEVELS,
        help="only puzzles `sudoku-cp rate` rates at this level (a promise: each is rated)",
    )
    p.add_argument(
        "--symmetry",
        choices=list(SYMMETRIES),
        default="none",
        help="symmetry of the pattern of givens (default none)",
    )
    p.add_argument(
        "--minimal", action="store_true", help="no given can be removed (the default without a size)"
    )
    p.add_argument("--seed", type=_seed, help="same seed, same puzzles (default: a fresh one, reported)")
    p.add_argument(
        "--solver",
        metavar="NAME",
        help=f"what proves uniqueness: {BAND_SEARCH}, the compiled band search (minimal classic 9x9 puzzles "
        f"without --clues or --blanks, where it is the default), or a SAT solver named as for --backend "
        f"sat:NAME (sat:g4, glucose4, ...; default {DEFAULT_SOLVER}) that takes assumptions and gives cores",
    )
    p.add_argument(
        "--max-attempts",
        type=_count,
        default=1000,
        metavar="N",
        help="grids drawn per puzzle before giving up on a size or difficulty (default 1000)",
    )
    add_run_options(
        p,
        formats=OUTPUT_FORMATS,
        default_format=None,  # chosen in run: fpuzzles for --killer (only it says the cages), else line
        default_help="line, or fpuzzles with --killer",
        time_limit=False,
    )
    add_resume_option(p, "make the puzzles of the same --seed")
    add_cluster_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..batch.interrupt import Interrupted, InterruptGuard
    from ..batch.pool import WorkerError
    from ..batch.progress import Tally
    from ..errors import ClusterError  # not the cluster module: it loads asyncio

    rules = args.box or Rules.classic(3, 3)
    if args.rules:
        try:
            rules = rules.with_named(args.rules)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if args.killer and args.constraints:
        raise UsageError("--killer and --constraints: give one of them")
    drawn = "--killer" if args.killer else "--constraints" if args.constraints else None
    fmt = args.output_format or ("fpuzzles" if drawn else "line")
    if fmt in ("line", "grid", "spaced", "csv"):  # refused before any work where those cannot say the rules
        if args.constraints:
            raise UsageError(f"--constraints puzzles need a layout that states their rules, not {fmt}: "
                             "fpuzzles, jsonl or link")  # fmt: skip
        header_words(rules.with_(cages=[Cage((0, 1), 3)]) if args.killer else rules, fmt)
    if drawn and (args.cluster or args.resume):
        raise UsageError(
            f"{drawn} draws each puzzle from the one before: it runs in this process, without "
            f"{'--cluster' if args.cluster else '--resume'}"
        )
    if args.resume and args.seed is None:
        raise UsageError("--resume makes the rest of a run's puzzles: give the --seed of that run")
    skip = resume_skip(args, "puzzle", total=args.count)
    if drawn:
        chosen = [
            o
            for o, v in (
                ("--clues", args.clues),
                ("--blanks", args.blanks),
                ("--difficulty", args.difficulty),
            )
            if v
        ]
        if chosen or args.minimal or args.symmetry != "none":
            raise UsageError(
                f"{drawn} chooses its own givens: drop {', '.join(chosen) or '--minimal/--symmetry'}"
            )
    progress = progress_for(args, total=args.count - skip)
    made: list[Generated] = []  # the first one, for the summary's seed
    tally = Tally(counts={"generated": 0})
    status = EXIT_OK
    stop = None
    with InterruptGuard() as guard, cluster_client(args) as client:
        try:
            puzzles = _puzzles(args, rules, fmt, client, skip)
            with output_stream(args.output, resume=args.resume) as out:
                _write(out, _track(puzzles, made, tally, progress), fmt)
        except (GenerationError, WorkerError, ClusterError) as exc:
            progress.close()
            warn(f"error: {str(exc).splitlines()[0]}")
            status, stop = (
                EXIT_FAILED if isinstance(exc, GenerationError) else EXIT_FAULT,
                "stopped by an error",
            )
        except KeyboardInterrupt as exc:
            guard.handled()
            interrupted = exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)
            status, stop = interrupted.status, f"interrupted by {interrupted.name}"
        finally:
            progress.close()
            where = cluster_note(client)
    if not args.quiet and (tally.total or stop):
        seed = [f"seed {made[0].seed}"] if made else []
        line = tally.summary(stop, verb="generated", of=None, kind=f"{rules.n}x{rules.n}", notes=seed)
        print(line + where, file=sys.stderr, flush=True)
    return status


def _constraint_keys(text: str) -> list[str]:
    """``--constraints``: f-puzzles keys of kinds that draw clues from a solution."""
    keys = [k.strip() for k in text.split(",") if k.strip()]
    can = [k.key for k in KINDS if drawable(k)]
    for key in keys:
        if key not in can:
            known = "unknown constraint kind" if key not in BY_KEY else "no clues are drawn for"
            raise argparse.ArgumentTypeError(f"{known} {key!r} (--constraints takes: {', '.join(can)})")
        if keys.count(key) > 1:
            raise argparse.ArgumentTypeError(f"{key!r} is named {keys.count(key)} times: name each kind once")
    if not keys:
        raise argparse.ArgumentTypeError(f"name at least one kind: {', '.join(can)}")
    return keys


def _puzzles(
    args: argparse.Namespace, rules: Rules, fmt: str, client: Any | None, skip: int
) -> Iterator[Generated]:
    """The puzzles the options ask for, after the first ``skip``: generated here, by ``--jobs`` worker
    processes or on a Dask cluster."""
    from ..batch import resolve_jobs

    solver = None if args.solver in (None, BAND_SEARCH) else sat_solver_name(args.solver)
    if args.killer:
        if args.solver == BAND_SEARCH:
            raise UsageError(f"killer puzzles need a SAT solver, not {BAND_SEARCH}: leave --solver out")
        return generate_killer(args.count, rules, seed=args.seed, solver=solver or DEFAULT_SOLVER)
    if args.constraints:
        if args.solver == BAND_SEARCH:
            raise UsageError(
                f"--constraints puzzles need a SAT solver, not {BAND_SEARCH}: leave --solver out"
            )
        return generate_clued(
            args.count, args.constraints, rules, seed=args.seed, solver=solver or DEFAULT_SOLVER
        )
    return generate(
        args.count,
        rules,
        clues=args.clues,
        blanks=args.blanks,
        difficulty=args.difficulty,
        symmetry=args.symmetry,
        minimal=args.minimal,
        seed=args.seed,
        jobs=resolve_jobs(args.jobs),
        rate=fmt == "jsonl",
        solver=args.solver if solver is None else solver,
        max_attempts=args.max_attempts,
        client=client,
        start=skip,
    )


def _track(
    puzzles: Iterator[Generated], made: list[Generated], tally: Tally, progress: Progress
) -> Iterator[Generated]:
    """The puzzles, counted as they pass (the first kept, for its seed), with the progress line."""
    for item in puzzles:
        if not made:
            made.append(item)
        yield item
        tally.add("generated")
        progress.update(tally.total, tally.total)


def _write(out: TextIO, puzzles: Iterator[Generated], fmt: str) -> None:
    """Stream the puzzles in one layout: jsonl and csv carry the solution (jsonl also rating and proof),
    and the rules as every writer of those layouts does (a ``rules`` field, a ``# rules:`` line)."""
    if fmt == "jsonl":
        for item in puzzles:
            field = rules_field(item.puzzle.rules)
            out.write(json.dumps(item.to_dict() | ({} if field is None else {"rules": field})) + "\n")
    elif fmt == "fpuzzles":  # the rules too, and the solution as f-puzzles keeps it
        for item in puzzles:
            out.write(json.dumps(to_fpuzzles(item.puzzle, item.solution), separators=(",", ":")) + "\n")
    elif fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        header: str | None = None
        started = False  # the column header written (after the first rules line, which goes first)
        for item in puzzles:
            header, line = rules_line(item.puzzle.rules, header, fmt)
            out.write(line)
            if not started:
                writer.writerow(("puzzle", "solution", "clues"))
                started = True
            writer.writerow((item.puzzle.to_string(), item.solution.to_string(), item.clues))
        if not started:
            writer.writerow(("puzzle", "solution", "clues"))
    else:
        from ..formats import write_puzzles

        write_puzzles(out, (item.puzzle for item in puzzles), fmt)
