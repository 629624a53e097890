"""``sudoku-cp rate``: the difficulty of each puzzle, from the rules it needs and the search it costs.

Levels easy, medium, hard, expert, extreme; the rule is written out in docs/rating.md. Puzzles without
exactly one solution get no level (exit status 1), and a puzzle that cannot be read is ``error`` (the
reason on standard error, with its file, line and number). Puzzles are rated by ``--jobs`` worker processes,
the output in input order; a summary line ends the run.
"""

from __future__ import annotations

import argparse
import csv
import json
from typing import TYPE_CHECKING, TextIO

from ..rate import LEVELS
from . import exit_codes
from .cluster import add_cluster_option
from .common import add_input_options
from .options import BASE_FORMATS, EMPTY_INPUT, add_resume_option, add_run_options

if TYPE_CHECKING:
    from ..formats import Record
    from ..rate import Rating

__all__ = ["OUTPUT_FORMATS", "register", "run"]

#: ``line``: puzzle, level, technique and the effort figures separated by spaces; ``csv`` a header and a
#: row per puzzle; ``jsonl`` an object per puzzle; ``pretty`` the puzzle's grid under its rating.
OUTPUT_FORMATS = (*BASE_FORMATS, "csv")
_FIELDS = ("level", "technique", "eliminations", "guesses", "backtracks", "conflicts", "solutions")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rate",
        help="rate the difficulty of puzzles",
        description=__doc__,
        epilog=exit_codes("every puzzle rated", "some puzzle unrated (not exactly one solution, or invalid)")
        + EMPTY_INPUT,
    )
    add_input_options(p)
    add_run_options(p, formats=OUTPUT_FORMATS, time_limit=False)
    add_resume_option(p, "rate the puzzles")
    add_cluster_option(p)
    p.set_defaults(run=run)


def _status(rating: Rating) -> str:
    """The rating as a status of ``solve --unique``: ``solved`` when rated, else why not."""
    if rating.level is not None:
        return "solved"
    return "no_solution" if rating.solutions == 0 else "multiple"


def outcome(rating: Rating) -> str:
    """The summary's word for a rating: its level, or why it has none."""
    return rating.level or _status(rating)


def run(args: argparse.Namespace) -> int:
    from ..batch.solver import SolverConfig
    from .perpuzzle import EachCommand, run_each

    command = EachCommand(
        kind="rate",
        payload=lambda puzzles: puzzles,
        config=SolverConfig("dfs"),  # the backend rate() counts guesses with, loaded once per process
        verb="rated",
        outcomes=[*LEVELS, "multiple", "no_solution"],
        outcome=outcome,
        ok=frozenset(LEVELS),
        writer=lambda out: _Writer(out, args.output_format),
    )
    return run_each(args, command)


class _Writer:
    """One output record per input puzzle, in order."""

    def __init__(self, out: TextIO, fmt: str) -> None:
        self.out, self.fmt = out, fmt
        self.csv = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        if self.csv is not None:
            self.csv.writerow(("index", "puzzle", *_FIELDS))

    def result(self, record: Record, rating: Rating) -> None:
        assert record.puzzle is not None
        index, puzzle = record.index, record.puzzle.to_string()
        values = rating.to_dict()
        if self.fmt == "jsonl":
            fields = {"index": index, "puzzle": puzzle, "status": _status(rating), **values}
            self.out.write(json.dumps(fields) + "\n")
        elif self.csv is not None:
            self.csv.writerow((index, puzzle, *("" if values[k] is None else values[k] for k in _FIELDS)))
        else:
            head = rating.level or _status(rating)
            figures = " ".join(f"{k}={values[k]}" for k in _FIELDS[2:6])
            if self.fmt == "pretty":
                from ..formats.writing import pretty_text

                technique = f", {rating.technique}" if rating.technique else ""
                self.out.write(f"Puzzle {index} (line {record.line}): {head}{technique}; {figures}\n")
                self.out.write(pretty_text(record.puzzle) + "\n\n")
            else:
                self.out.write(f"{puzzle} {head} {rating.technique or '-'} {figures}\n")

    def error(self, record: Record) -> None:
        reason = record.error.reason if record.error is not None else "unreadable"
        if self.fmt == "jsonl":
            fields = {"index": record.index, "puzzle": record.text, "status": "error", "error": reason}
            self.out.write(json.dumps(fields) + "\n")
        elif self.csv is not None:
            self.csv.writerow((record.index, record.text, "error", *([""] * (len(_FIELDS) - 1))))
        elif self.fmt == "pretty":
            self.out.write(f"Puzzle {record.index} (line {record.line}): error\n{reason}\n\n")
        else:
            self.out.write("- error\n")

    def close(self) -> None:
        pass
