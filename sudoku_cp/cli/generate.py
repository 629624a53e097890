"""``sudoku-cp generate``: new puzzles whose unique solution a SAT solver proved, minimal or sized, rated.

Without ``--clues``/``--blanks`` the puzzles are minimal (no clue can go). The same ``--seed`` and options
give the same puzzles, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Iterator
from typing import TextIO

from ..generate import BLANK_LEVELS, SYMMETRIES, Generated, GenerationError, generate
from ..generate.oracle import DEFAULT_SOLVER, SOLVERS
from ..grid import Shape
from ..rate import LEVELS
from . import EXIT_FAILED, EXIT_OK, exit_codes
from .common import add_output_options, output_stream, warn

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


def _shape(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate",
        help="generate puzzles with a proved unique solution",
        description=__doc__,
        epilog=exit_codes("every puzzle generated", "some puzzle could not be generated"),
    )
    p.add_argument("-n", "--count", type=_count, default=1, metavar="N", help="puzzles to make (default 1)")
    p.add_argument("--box", type=_shape, metavar="RxC", help="box shape (default 3x3, the 9x9 grid)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--clues", type=_clues, metavar="C", help="exactly C givens")
    size.add_argument(
        "--blanks",
        type=_blanks,
        metavar="B",
        help="exactly B empty cells, or a level: easy (33-35 of 81), medium (36-38), hard (39-41)",
    )
    p.add_argument(
        "--difficulty", choices=LEVELS, help="only puzzles rated at this level (see `sudoku-cp rate`)"
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
    p.add_argument("-j", "--jobs", type=_count, default=1, metavar="N", help="worker processes (default 1)")
    p.add_argument(
        "--solver",
        choices=SOLVERS,
        default=DEFAULT_SOLVER,
        metavar="NAME",
        help=f"python-sat solver proving uniqueness (default {DEFAULT_SOLVER})",
    )
    p.add_argument(
        "--max-attempts",
        type=_count,
        default=1000,
        metavar="N",
        help="grids drawn per puzzle before giving up on a size or difficulty (default 1000)",
    )
    add_output_options(p, default="line")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary or progress on standard error")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    shape = args.box or Shape(3, 3)
    fmt = args.output_format
    puzzles = generate(
        args.count,
        shape,
        clues=args.clues,
        blanks=args.blanks,
        difficulty=args.difficulty,
        symmetry=args.symmetry,
        minimal=args.minimal,
        seed=args.seed,
        jobs=args.jobs,
        rate=fmt == "jsonl",
        solver=args.solver,
        max_attempts=args.max_attempts,
    )
    progress = _Progress(args.count, enabled=not args.quiet and sys.stderr.isatty())
    made: list[Generated] = []  # the first one, for the summary's seed
    start = time.perf_counter()
    try:
        with output_stream(args.output) as out:
            _write(out, progress.track(puzzles, made), fmt)
    except GenerationError as exc:
        progress.clear()
        warn(f"error: {exc}")
        return EXIT_FAILED
    progress.clear()
    if not args.quiet:
        elapsed = time.perf_counter() - start
        seed = f" (seed {made[0].seed})" if made else ""
        rate = progress.done / elapsed if elapsed > 0 else float("inf")
        what = f"{progress.done} {shape.n}x{shape.n} puzzles{seed}"
        print(f"generated {what} in {elapsed:.2f} s, {rate:,.1f} puzzles/s", file=sys.stderr)
    return EXIT_OK


def _write(out: TextIO, puzzles: Iterator[Generated], fmt: str) -> None:
    """Stream the puzzles in one layout: jsonl and csv carry the solution (jsonl also rating and proof)."""
    if fmt == "jsonl":
        for item in puzzles:
            out.write(json.dumps(item.to_dict()) + "\n")
    elif fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("puzzle", "solution", "clues"))
        for item in puzzles:
            writer.writerow((item.puzzle.to_string(), item.solution.to_string(), item.clues))
    else:
        from ..formats import write_puzzles

        write_puzzles(out, (item.puzzle for item in puzzles), fmt)


class _Progress:
    """``generated i of N`` on standard error, redrawn at most five times a second, for terminals only."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.done = total, enabled, 0
        self._shown = 0.0
        self._drawn = False

    def track(self, puzzles: Iterator[Generated], made: list[Generated]) -> Iterator[Generated]:
        for item in puzzles:
            if not made:
                made.append(item)
            self.done += 1
            now = time.monotonic()
            if self.enabled and now - self._shown >= 0.2:
                self._shown = now
                self._drawn = True
                print(f"\rgenerated {self.done} of {self.total}", end="", file=sys.stderr, flush=True)
            yield item

    def clear(self) -> None:
        if self._drawn:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
            self._drawn = False
