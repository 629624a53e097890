"""``sudoku-cp explain``: why each puzzle has no solution or several, or that it has exactly one.

For no solution: a minimal set of givens that cannot all hold (``r1c3=5 r1c8=5``). For several: how many
(counted up to 10, ``10+`` beyond), where two of them differ, both of them, and a smallest set of clues
from the first that makes the puzzle unique (proven unique). For one: the solution.
``--output-format jsonl`` gives one object per puzzle keyed as every command's jsonl is (``index``,
``puzzle``, ``status``), then ``solutions`` (a number, or ``"10+"``), ``unique_with`` (clues such as
``"r1c4=1"``), ``conflict``, ``differences`` and ``grids``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ..backends import DEFAULT_BACKEND
from ..explain import Explanation, render_givens
from ..formats import Record
from ..result import Status
from . import SUMMARIES, exit_codes
from .common import add_backend_options, add_input_options, backend_options
from .options import EMPTY_INPUT, add_run_options
from .steps import error_record, puzzle_record

EPILOG = exit_codes("every puzzle has exactly one solution", "otherwise") + EMPTY_INPUT


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help=SUMMARIES["explain"],
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    add_run_options(p)
    add_backend_options(p, default=DEFAULT_BACKEND, time_limit=False)
    p.set_defaults(run=run)


class _Writer:
    """Explanations as ``line`` (a header line and indented details), ``pretty`` (the same) or ``jsonl``."""

    def __init__(self, out: TextIO, fmt: str) -> None:
        self.out, self.fmt = out, fmt

    def result(self, record: Record, explanation: Explanation) -> None:
        if self.fmt == "jsonl":
            fields = _fields(explanation)
            record_fields = puzzle_record(record, fields.pop("status"), fields)
            self.out.write(json.dumps(record_fields) + "\n")
            return
        first, *rest = explanation.lines()
        self.out.write(f"puzzle {record.index}: {first}\n")
        self.out.writelines(f"  {line}\n" for line in rest)

    def error(self, record: Record) -> None:
        reason = record.error.reason if record.error else "unreadable"
        if self.fmt == "jsonl":
            self.out.write(json.dumps(error_record(record)) + "\n")
        else:
            self.out.write(f"puzzle {record.index}: error: {reason}\n")

    def close(self) -> None:
        pass


def run(args: argparse.Namespace) -> int:
    from ..batch.solver import SolverConfig
    from .perpuzzle import EachCommand, run_each

    command = EachCommand(
        kind="explain",
        payload=lambda puzzles: puzzles,
        config=SolverConfig(args.backend, backend_options(args), False, args.time_limit),
        verb="explained",
        outcomes=["solved", "multiple", "no_solution", "unknown"],
        outcome=lambda explanation: explanation.status.value,
        ok=frozenset({"solved"}),
        words={"solved": "unique"},
        writer=lambda out: _Writer(out, args.output_format),
        validate=False,  # clashing givens are what explain is for
    )
    return run_each(args, command)


def _fields(explanation: Explanation) -> dict[str, Any]:
    """The jsonl object of one explanation (without the puzzle number)."""
    puzzle, status = explanation.puzzle, explanation.status
    fields: dict[str, Any] = {"status": status.value}
    if status is Status.NO_SOLUTION:
        fields["solutions"] = 0
        fields["conflict"] = render_givens(puzzle, explanation.conflict).split()
    elif status is Status.SOLVED:
        fields["solutions"] = 1
        fields["grids"] = [explanation.solutions[0].to_string()]
    elif status is Status.MULTIPLE:
        fields["solutions"] = explanation.solutions_text if explanation.capped else explanation.count
        fields["differences"] = [puzzle.rules.name(c) for c in explanation.differences]
        fields["grids"] = [s.to_string() for s in explanation.solutions]
        fields["unique_with"] = render_givens(puzzle, explanation.unique_with).split()
        fields["unique_with_is_smallest"] = explanation.minimum
    return fields
