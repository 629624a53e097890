"""``sudoku-cp rate``: the difficulty of each puzzle, Sudoku Explainer's ER/EP/ED and the level they fall in.

Levels easy, medium, hard, expert, extreme are bands of ER, the hardest step of the walk of ``sudoku-cp
steps`` (docs/rating.md); the search effort is reported beside them. Puzzles without
exactly one solution get no level (exit status 1), and a puzzle that cannot be read is ``error`` (the
reason on standard error, with its file, line and number). Puzzles are rated by ``--jobs`` worker processes,
the output in input order; a summary line ends the run.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
from typing import TYPE_CHECKING, TextIO

from ..formats.writing import rules_line, with_rules_field
from ..rate import LEVELS
from . import SUMMARIES, exit_codes
from .cluster import add_cluster_option
from .common import add_input_options
from .options import BASE_FORMATS, EMPTY_INPUT, add_resume_option, add_run_options

if TYPE_CHECKING:
    from ..formats import Record
    from ..human import Walkthrough
    from ..rate import Rating

__all__ = ["OUTPUT_FORMATS", "register", "run"]

#: ``line``: puzzle, level, ER/EP/ED, the effort figures and (in brackets) the hardest technique; ``csv`` a
#: header and a row per puzzle; ``jsonl`` an object per puzzle; ``pretty`` the puzzle's grid under its rating.
OUTPUT_FORMATS = (*BASE_FORMATS, "csv")
_FIELDS = ("level", "er", "ep", "ed", "technique", "guesses", "backtracks", "conflicts", "solutions")
#: The csv columns of ``_FIELDS``: the count of solutions is ``solution_count``, since a csv column named
#: ``solution`` or ``solutions`` holds solution grids to every reader (the Kaggle sets' ``quizzes,
#: solutions``), and a rating's csv must read back as its puzzles.
_COLUMNS = tuple("solution_count" if f == "solutions" else f for f in _FIELDS)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rate",
        help=SUMMARIES["rate"],
        description=__doc__,
        epilog=exit_codes(
            "every puzzle rated",
            "some puzzle unrated (not exactly one solution, over the time limit, or invalid)",
        )
        + EMPTY_INPUT,
    )
    add_input_options(p)
    add_run_options(p, formats=OUTPUT_FORMATS)
    p.add_argument(
        "--scale",
        choices=("level", "se"),
        default="level",
        help="level: the level (easy to extreme, bands of ER), ER/EP/ED and the search effort (default); "
        "se: Sudoku Explainer's ER/EP/ED alone, as its batch rater prints them (stuck where no technique "
        "applies)",
    )
    add_resume_option(p, "rate the puzzles")
    add_cluster_option(p)
    p.set_defaults(run=run)


def _status(rating: Rating) -> str:
    """The rating as a status of ``solve --unique``: ``solved`` when rated, else why not (``unknown``: the
    time limit came first)."""
    if rating.level is not None:
        return "solved"
    if rating.timed_out:
        return "unknown"
    return "no_solution" if rating.solutions == 0 else "multiple"


def outcome(rating: Rating) -> str:
    """The summary's word for a rating: its level, or why it has none."""
    return rating.level or _status(rating)


def run(args: argparse.Namespace) -> int:
    from ..batch.solver import SolverConfig
    from .perpuzzle import EachCommand, run_each

    if args.scale == "se":
        from .steps import human_command

        outcomes = ["solved", "stuck", "contradiction", "unknown"]
        writer = functools.partial(_SEWriter, fmt=args.output_format)
        words = {"solved": "rated"}
        ok = frozenset({"solved"})
        command = human_command("walk", "rated", outcomes, ok, writer, words, args.time_limit)
        return run_each(args, command)
    command = EachCommand(
        kind="rate",
        payload=lambda puzzles: puzzles,
        # the backend rate() counts guesses with, loaded once per process
        config=SolverConfig("dfs", time_limit=args.time_limit),
        verb="rated",
        outcomes=[*LEVELS, "multiple", "no_solution", "unknown"],
        outcome=outcome,
        ok=frozenset(LEVELS),
        writer=lambda out: _Writer(out, args.output_format),
    )
    return run_each(args, command)


class _Writer:
    """One output record per input puzzle, in order."""

    def __init__(
        self, out: TextIO, fmt: str, header: tuple[str, ...] = ("index", "puzzle", *_COLUMNS)
    ) -> None:
        self.out, self.fmt = out, fmt
        self.csv = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        self.width = len(header)
        self.rules: str | None = None  # what the ``# rules:`` line in force in the csv output says
        #: The csv header, written before the first row (or at the end of an input without any): not
        #: before a first puzzle whose rules the layout refuses, which ends the run with nothing written.
        self._header: tuple[str, ...] | None = header if self.csv is not None else None

    def _begin(self) -> None:
        if self._header is not None and self.csv is not None:
            self.csv.writerow(self._header)
            self._header = None

    def _rules_line(self, record: Record) -> None:
        """A ``# rules:`` line before a csv row whose puzzle's rules differ from those in force, as every
        writer of a layout that holds digits only writes (``formats.header``)."""
        assert record.puzzle is not None
        self.rules, line = rules_line(record.puzzle.rules, self.rules, "csv")
        self._begin()
        self.out.write(line)

    def result(self, record: Record, rating: Rating) -> None:
        assert record.puzzle is not None
        index, puzzle = record.index, record.puzzle.to_string()
        values = rating.to_dict()
        if self.fmt == "jsonl":
            fields = {"index": index, "puzzle": puzzle, "status": _status(rating), **values}
            self.out.write(json.dumps(with_rules_field(fields, record.puzzle.rules)) + "\n")
        elif self.csv is not None:
            self._rules_line(record)
            self.csv.writerow((index, puzzle, *("" if values[k] is None else values[k] for k in _FIELDS)))
        else:
            head = rating.level or _status(rating)
            figures = " ".join(f"{k}={values[k]}" for k in ("guesses", "backtracks", "conflicts"))
            se = rating.se or "-"
            if self.fmt == "pretty":
                from ..formats.writing import pretty_text, rules_note

                technique = f", {rating.technique}" if rating.technique else ""
                where = f"Puzzle {index} (line {record.line}){rules_note(record.puzzle.rules)}"
                self.out.write(f"{where}: {head} {se}{technique}; {figures}\n")
                self.out.write(pretty_text(record.puzzle) + "\n\n")
            else:
                technique = f" ({rating.technique})" if rating.technique else ""
                self.out.write(f"{puzzle} {head} {se} {figures}{technique}\n")

    def error(self, record: Record) -> None:
        reason = record.error.reason if record.error is not None else "unreadable"
        if self.fmt == "jsonl":
            fields = {"index": record.index, "puzzle": record.text, "status": "error", "error": reason}
            self.out.write(json.dumps(fields) + "\n")
        elif self.csv is not None:
            self._begin()
            self.csv.writerow((record.index, record.text, "error", *([""] * (self.width - 3))))
        elif self.fmt == "pretty":
            self.out.write(f"Puzzle {record.index} (line {record.line}): error\n{reason}\n\n")
        else:
            self.out.write("- error\n")

    def close(self) -> None:
        self._begin()


class _SEWriter(_Writer):
    """``--scale se``: ``ER/EP/ED`` per puzzle, or ``stuck`` or ``contradiction`` (no logical solution)."""

    def __init__(self, out: TextIO, fmt: str) -> None:
        super().__init__(out, fmt, ("index", "puzzle", "status", "er", "ep", "ed"))

    def result(self, record: Record, walk: Walkthrough) -> None:  # type: ignore[override]
        assert record.puzzle is not None
        rating = walk.rating
        puzzle = record.text if record.candidates is not None else record.puzzle.to_string()
        text = str(rating) if walk.result == "solved" else walk.result
        er, ep, ed = (None, None, None) if rating is None else (rating.er, rating.ep, rating.ed)
        if self.fmt == "jsonl":
            fields = {"index": record.index, "puzzle": puzzle, "status": walk.result}
            fields |= {"er": er, "ep": ep, "ed": ed}
            self.out.write(json.dumps(with_rules_field(fields, record.puzzle.rules)) + "\n")
        elif self.csv is not None:
            self._rules_line(record)
            figures = ("" if x is None else x for x in (er, ep, ed))
            self.csv.writerow((record.index, puzzle, walk.result, *figures))
        elif self.fmt == "pretty":
            from ..formats.writing import pretty_text, rules_note

            note = rules_note(record.puzzle.rules)
            self.out.write(f"Puzzle {record.index} (line {record.line}){note}: {text}\n")
            self.out.write(pretty_text(record.puzzle) + "\n\n")
        else:
            self.out.write(text + "\n")
