"""``sudoku-cp steps``: the whole logical solution of each puzzle, one named step per line, and its rating.

Each step is the easiest that applies (as Sudoku Explainer chooses): the technique, what it places
(``r1c2=5``) or eliminates (``r3c4<>7``) and why. The walk ends ``solved``, ``stuck`` (no technique of
sudoku-cp applies: the candidates left are shown), ``contradiction`` (the puzzle has no solution) or
``unknown`` (``--time-limit`` came first; the steps found by then are shown), with the rating ``ER/EP/ED`` on
Sudoku Explainer's scale: the hardest step, the hardest before the first placement, the first step's.
``--output-format jsonl`` gives one object per step (``index``, ``step``, the step's fields) and one per
puzzle's end, keyed as every command's jsonl is (``index``, ``puzzle``, ``status``: ``solved``, ``stuck``,
``contradiction``, ``unknown`` or ``error``; then ``rating`` and ``se``).
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from . import SUMMARIES, exit_codes
from .cluster import add_cluster_option
from .common import add_input_options
from .options import EMPTY_INPUT, add_run_options
from .perpuzzle import ERROR

if TYPE_CHECKING:
    from ..formats import Record
    from ..human import Walkthrough
    from .perpuzzle import EachCommand, Writer

__all__ = ["HumanWriter", "error_record", "human_command", "puzzle_record", "register", "run", "step_record"]

RESULTS = ["solved", "stuck", "contradiction", "unknown"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "steps",
        help=SUMMARIES["steps"],
        description=__doc__,
        epilog=exit_codes(
            "every puzzle solved by logic",
            "some puzzle stuck, contradictory, over the time limit or unreadable",
        )
        + EMPTY_INPUT,
    )
    add_input_options(p)
    add_run_options(p)
    add_cluster_option(p)
    p.set_defaults(run=run)


def step_record(index: int, number: int, step: Any) -> dict[str, Any]:
    """The jsonl object of step ``number`` of puzzle ``index``: ``index`` as in every command's jsonl."""
    return {"index": index, "step": number, **step.to_dict()}


def puzzle_record(record: Record, status: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A puzzle's jsonl object keyed as ``solve``'s, ``count``'s and ``rate``'s are: ``index`` (its number),
    ``puzzle`` (its text, its candidates when it was given as pencilmarks), ``status``, then ``fields``
    and its ``rules`` where they are not the classic ones."""
    from ..formats.writing import with_rules_field

    assert record.puzzle is not None
    puzzle = record.text if record.candidates is not None else record.puzzle.to_string()
    item = {"index": record.index, "puzzle": puzzle, "status": status, **fields}
    return with_rules_field(item, record.puzzle.rules)


def error_record(record: Record) -> dict[str, Any]:
    """An unreadable puzzle's jsonl object, the same as every per-puzzle command's."""
    reason = record.error.reason if record.error is not None else "unreadable"
    return {"index": record.index, "puzzle": record.text, "status": ERROR, "error": reason}


def end_line(result: str, rating: str, why: str = "") -> str:
    """``solved 4.2/1.2/1.2``; ``contradiction: why``."""
    return f"{result}: {why}" if why else f"{result} {rating}"


class HumanWriter:
    """What the writers of ``hint`` and ``steps`` share: an unreadable puzzle's record, and nothing to close.
    ``gap``: what ends a puzzle's text (an empty line after the several lines of ``steps``)."""

    gap = ""

    def __init__(self, out: TextIO, fmt: str) -> None:
        self.out, self.fmt = out, fmt

    def error(self, record: Record) -> None:
        if self.fmt == "jsonl":
            self.out.write(json.dumps(error_record(record)) + "\n")
        elif self.fmt == "pretty":
            reason = record.error.reason if record.error is not None else "unreadable"
            self.out.write(f"Puzzle {record.index} (line {record.line}): error\n{reason}\n{self.gap}")
        else:
            self.out.write(f"error\n{self.gap}")

    def close(self) -> None:
        pass


class _Writer(HumanWriter):
    gap = "\n"

    def result(self, record: Record, walk: Walkthrough) -> None:
        out = self.out
        if self.fmt == "jsonl":
            for i, step in enumerate(walk.steps, start=1):
                out.write(json.dumps(step_record(record.index, i, step)) + "\n")
            fields = walk.to_dict()
            status = fields.pop("result")
            if walk.result == "stuck":
                from ..formats.pencilmarks import pencilmarks

                fields["candidates"] = pencilmarks(walk.board.candidates())
            out.write(json.dumps(puzzle_record(record, status, fields)) + "\n")
            return
        pretty = self.fmt == "pretty"
        if pretty:
            out.write(f"Puzzle {record.index} (line {record.line})\n")
            if walk.note:
                out.write(f"Note: {walk.note}\n")
        for i, step in enumerate(walk.steps, start=1):
            out.write(f"{i:>4}. {step.text}\n" if pretty else step.text + "\n")
        out.write(end_line(walk.result, str(walk.rating), walk.why) + "\n")
        if walk.result == "stuck" and pretty:
            from .truecands import candidate_grid

            out.write(candidate_grid(walk.board.candidates()) + "\n")
        out.write("\n")


def human_command(
    kind: str,
    verb: str,
    outcomes: list[str],
    ok: frozenset[str],
    writer: Callable[[TextIO], Writer],
    words: dict[str, str] | None = None,
    time_limit: float | None = None,
) -> EachCommand:
    """A per-puzzle command answered by the step engine (task kinds ``walk`` and ``hint``), whose answer's
    ``result`` is the outcome; it reads pencilmark lines as the candidates to start from. ``time_limit``:
    per puzzle, a walk cut short by it is ``unknown``."""
    from ..batch.solver import SolverConfig
    from .perpuzzle import EachCommand

    return EachCommand(
        kind=kind,
        payload=lambda puzzles: puzzles,
        config=SolverConfig("sat", time_limit=time_limit),  # the step engine reads the time limit alone
        verb=verb,
        outcomes=outcomes,
        outcome=lambda answer: answer.result,
        ok=ok,
        writer=writer,
        words=words or {},
        pencilmarks=True,
    )


def run(args: argparse.Namespace) -> int:
    from .perpuzzle import run_each

    writer = functools.partial(_Writer, fmt=args.output_format)
    command = human_command(
        "walk", "worked through", RESULTS, frozenset({"solved"}), writer, time_limit=args.time_limit
    )
    return run_each(args, command)
