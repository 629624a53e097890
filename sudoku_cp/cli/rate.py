"""``sudoku-cp rate``: the difficulty of each puzzle, from the rules it needs and the search it costs.

Levels easy, medium, hard, expert, extreme; the rule is written out in docs/rating.md. Puzzles without
exactly one solution get no level (exit status 1).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from typing import TextIO

from ..rate import LEVELS, Rating, rate
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_codes
from .common import add_input_options, output_stream, warn
from .inputs import Inputs

__all__ = ["OUTPUT_FORMATS", "register", "run"]

#: ``line``: puzzle, level, technique and the effort figures separated by spaces.
OUTPUT_FORMATS = ("line", "csv", "jsonl")
_FIELDS = ("level", "technique", "eliminations", "guesses", "backtracks", "conflicts", "solutions")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rate",
        help="rate the difficulty of puzzles",
        description=__doc__,
        epilog=exit_codes("every puzzle rated", "some puzzle unrated (not exactly one solution, or invalid)"),
    )
    add_input_options(p)
    p.add_argument("--output-format", choices=OUTPUT_FORMATS, default="line", help="default: line")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (renamed into place at the end)")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line on standard error")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    inputs = Inputs(args)
    counts = dict.fromkeys(LEVELS, 0)
    unrated = 0
    start = time.perf_counter()
    with output_stream(args.output) as out:
        writer = _Writer(out, args.output_format)
        for record in inputs:
            if record.error is not None:
                warn(str(record.error))
                writer.error(record.index, record.text, str(record.error.reason))
                unrated += 1
                continue
            rating = rate(record.puzzle)
            if rating.level is None:
                unrated += 1
            else:
                counts[rating.level] += 1
            writer.write(record.index, record.puzzle.to_string(), rating)
    total = sum(counts.values()) + unrated
    if not args.quiet and total:
        elapsed = time.perf_counter() - start
        levels = ", ".join(f"{level} {k}" for level, k in counts.items() if k)
        if unrated:
            levels += f"{', ' if levels else ''}unrated {unrated}"
        print(f"rated {total} puzzles ({levels}) in {elapsed:.2f} s", file=sys.stderr)
    if inputs.unreadable:
        return EXIT_USAGE
    return EXIT_FAILED if unrated else EXIT_OK


class _Writer:
    """One output record per input puzzle, in order."""

    def __init__(self, out: TextIO, fmt: str) -> None:
        self.out, self.fmt = out, fmt
        self.csv = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        if self.csv is not None:
            self.csv.writerow(("index", "puzzle", *_FIELDS))

    def write(self, index: int, puzzle: str, rating: Rating) -> None:
        values = rating.to_dict()
        if self.fmt == "jsonl":
            self.out.write(json.dumps({"index": index, "puzzle": puzzle, **values}) + "\n")
        elif self.csv is not None:
            self.csv.writerow((index, puzzle, *("" if values[k] is None else values[k] for k in _FIELDS)))
        else:
            head = rating.level or ("no_solution" if rating.solutions == 0 else "multiple")
            figures = " ".join(f"{k}={values[k]}" for k in _FIELDS[2:6])
            self.out.write(f"{puzzle} {head} {rating.technique or '-'} {figures}\n")

    def error(self, index: int, text: str, reason: str) -> None:
        if self.fmt == "jsonl":
            self.out.write(json.dumps({"index": index, "puzzle": text, "error": reason}) + "\n")
        elif self.csv is not None:
            self.csv.writerow((index, text, *([""] * len(_FIELDS))))
        else:
            self.out.write(f"- error {reason}\n")
