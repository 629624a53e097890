"""``sudoku-cp count``: the number of solutions of each puzzle, counted up to a limit, one record per puzzle.

A line holds the count; ``2+`` means the search stopped at ``--limit 2`` (two or more solutions), ``1?`` that
the time limit stopped it after one (a lower bound), ``error`` that the puzzle could not be read (the reason
is on standard error, with the puzzle's file, line and number). Puzzles are counted by ``--jobs`` worker
processes, the output in input order; a summary line ends the run. Counting runs on the backend interface,
so every backend can count.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..backends import DEFAULT_BACKEND
from ..formats.writing import with_rules_field
from ..wording import plural
from . import SUMMARIES, exit_codes
from .cluster import add_cluster_option
from .common import add_backend_options, add_input_options, backend_options
from .options import EMPTY_INPUT, add_resume_option, add_run_options, positive_int
from .perpuzzle import RecordWriter

if TYPE_CHECKING:
    from ..batch.tasks import Count
    from ..formats import Record

__all__ = ["outcome", "register", "run"]

EPILOG = exit_codes("every puzzle has exactly one solution", "otherwise") + EMPTY_INPUT


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "count",
        help=SUMMARIES["count"],
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    add_run_options(p)
    add_backend_options(p, default=DEFAULT_BACKEND, time_limit=False)
    p.add_argument(
        "--limit", type=positive_int, default=2, metavar="K", help="stop counting at K solutions (default 2)"
    )
    add_resume_option(p, "count the puzzles")
    add_cluster_option(p)
    p.set_defaults(run=run)


def outcome(count: Count) -> str:
    """A count as a status of ``solve --unique``: ``solved`` (exactly one solution: the summary says
    ``unique``), ``multiple``, ``no_solution``, or ``unknown`` (the time limit, or ``--limit 1``, stopped it
    before one could tell)."""
    if count.solutions >= 2:
        return "multiple"
    if count.timed_out or not count.complete:
        return "unknown"
    return "solved" if count.solutions == 1 else "no_solution"


class _Writer(RecordWriter):
    """Counts as ``line`` (the count alone), ``jsonl`` or ``pretty`` (the puzzle under a header)."""

    def result(self, record: Record, count: Count) -> None:
        assert record.puzzle is not None
        if self.fmt == "jsonl":
            fields: dict[str, Any] = {
                "index": record.index,
                "puzzle": record.puzzle.to_string(),
                "status": outcome(count),
                "solutions": count.solutions,
                "complete": count.complete,
                "text": count.text,
            }
            self.out.write(json.dumps(with_rules_field(fields, record.puzzle.rules)) + "\n")
        elif self.fmt == "pretty":
            from ..formats.writing import pretty_text, rules_note

            words = f"{count.text} {plural(count.solutions if count.complete else 2, 'solution')}"
            note = rules_note(record.puzzle.rules)
            self.out.write(f"Puzzle {record.index} (line {record.line}){note}: {words}\n")
            self.out.write(pretty_text(record.puzzle) + "\n\n")
        else:
            self.out.write(count.text + "\n")


def run(args: argparse.Namespace) -> int:
    from ..backends import backend_class
    from ..batch.solver import SolverConfig
    from .perpuzzle import EachCommand, run_each

    config = SolverConfig(args.backend, backend_options(args), False, args.time_limit)
    limit = args.limit
    command = EachCommand(
        kind="count",
        payload=lambda puzzles: (limit, puzzles),
        config=config,
        verb="counted",
        outcomes=["solved", "multiple", "no_solution", "unknown"],
        outcome=outcome,
        ok=frozenset({"solved"}),
        words={"solved": "unique"},
        writer=lambda out: _Writer(out, args.output_format),
        pencilmarks=backend_class(args.backend.partition(":")[0]).takes_candidates,
    )
    return run_each(args, command)
