"""``sudoku-cp hint``: the next logical step of each puzzle, in one line.

The easiest technique that applies (as Sudoku Explainer chooses), what it places or eliminates and why:
``Hidden single: r4c5=7 (only place for 7 in box 5)``. A solved grid says ``solved``, a grid where no
technique applies ``stuck``, one without a solution ``contradiction: ...``, one where ``--time-limit`` came
first ``unknown: ...``. ``--output-format jsonl`` gives one object per puzzle keyed as every command's jsonl
is (``index``, ``puzzle``, ``status``: ``step``, ``solved``, ``stuck``, ``contradiction``, ``unknown`` or
``error``), with the step's fields as ``steps`` writes them (``step``, technique, difficulty, placements,
eliminations, pattern, text) or the ``why`` of a contradiction.
"""

from __future__ import annotations

import argparse
import functools
import json
from typing import TYPE_CHECKING

from . import SUMMARIES, exit_codes
from .cluster import add_cluster_option
from .common import add_input_options
from .options import EMPTY_INPUT, add_resume_option, add_run_options
from .steps import HumanWriter, human_command, puzzle_record, step_record

if TYPE_CHECKING:
    from ..formats import Record
    from ..human import Hint

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hint",
        help=SUMMARIES["hint"],
        description=__doc__,
        epilog=exit_codes(
            "every puzzle has a next step or is solved",
            "some puzzle stuck, contradictory, over the time limit or unreadable",
        )
        + EMPTY_INPUT,
    )
    add_input_options(p)
    add_run_options(p)
    add_resume_option(p, "give the hints")
    add_cluster_option(p)
    p.set_defaults(run=run)


def _text(hint: Hint) -> str:
    if hint.step is not None:
        return hint.step.text
    return f"{hint.result}: {hint.why}" if hint.why else hint.result


class _Writer(HumanWriter):
    def result(self, record: Record, hint: Hint) -> None:
        if self.fmt == "jsonl":
            if hint.step is not None:
                step = step_record(record.index, 1, hint.step)
                fields = puzzle_record(record, "step", {k: v for k, v in step.items() if k != "index"})
            else:
                fields = puzzle_record(record, hint.result, {"why": hint.why} if hint.why else {})
            self.out.write(json.dumps(fields) + "\n")
        elif self.fmt == "pretty":
            self.out.write(f"Puzzle {record.index} (line {record.line}): {_text(hint)}\n")
        else:
            self.out.write(_text(hint) + "\n")


def run(args: argparse.Namespace) -> int:
    from .perpuzzle import run_each

    outcomes = ["step", "solved", "stuck", "contradiction", "unknown"]
    writer = functools.partial(_Writer, fmt=args.output_format)
    ok = frozenset({"step", "solved"})
    command = human_command("hint", "hinted", outcomes, ok, writer, {"step": "with a step"}, args.time_limit)
    return run_each(args, command)
