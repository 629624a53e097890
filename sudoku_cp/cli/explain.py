"""``sudoku-cp explain``: why each puzzle has no solution or several, or that it has exactly one.

For no solution: a minimal set of givens that cannot all hold (``r1c3=5 r1c8=5``). For several: how many
(counted up to 10, ``10+`` beyond), where two of them differ, both of them, and a smallest set of clues
from the first that makes the puzzle unique (proven unique). For one: the solution.
``--output-format jsonl`` gives one object per puzzle: ``status``, ``solutions`` (a number, or ``"10+"``),
``unique_with`` (clues such as ``"r1c4=1"``), ``conflict``, ``differences`` and ``grids``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..backends import make_backend
from ..explain import Explanation, explain, render_givens
from ..result import Status
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_codes
from .common import add_backend_options, add_input_options, backend_options, output_stream, warn
from .inputs import Inputs

EPILOG = exit_codes("every puzzle has exactly one solution", "otherwise")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="explain puzzles with no solution or several",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    p.add_argument(
        "--output-format", choices=("line", "jsonl"), default="line", help="line (text, the default) or jsonl"
    )
    add_backend_options(p, default="sat")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = make_backend(args.backend, **backend_options(args))
    inputs = Inputs(args, validate=False)  # clashing givens are what explain is for
    all_unique = True
    with output_stream(args.output) as out:
        for record in inputs:
            if record.puzzle is None:
                warn(f"{record.error}")
                reason = record.error.reason if record.error else "?"
                if args.output_format == "jsonl":
                    out.write(json.dumps({"puzzle": record.index, "status": "error", "error": reason}) + "\n")
                else:
                    out.write(f"puzzle {record.index}: error: {reason}\n")
                all_unique = False
                continue
            explanation = explain(record.puzzle, backend, time_limit=args.time_limit)
            if args.output_format == "jsonl":
                out.write(json.dumps({"puzzle": record.index, **_fields(explanation)}) + "\n")
            else:
                first, *rest = explanation.lines()
                out.write(f"puzzle {record.index}: {first}\n")
                out.writelines(f"  {line}\n" for line in rest)
            all_unique = all_unique and explanation.status is Status.SOLVED
    if inputs.unreadable:
        return EXIT_USAGE
    return EXIT_OK if all_unique else EXIT_FAILED


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
