"""``solve --true-candidates``: for each cell of each puzzle, the digits it holds in at least one solution.

Written one puzzle per line in the pencilmark layout (n*n*n characters, cell by cell: the digit where it is
a candidate, else ``.``), or ``pretty`` (a candidate grid), or ``jsonl``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..candidates import Candidates
from ..formats import Record
from ..formats.pencilmarks import candidate_grid, pencilmarks
from ..formats.writing import rules_line, with_rules_field
from .common import backend_options
from .perpuzzle import RecordWriter

__all__ = ["run"]


def outcome(candidates: Candidates | None) -> str:
    """``solved`` when every cell has one candidate (a unique solution), else ``multiple``, or
    ``no_solution``."""
    if candidates is None:
        return "no_solution"
    return "solved" if all(m & (m - 1) == 0 for m in candidates.masks) else "multiple"


class _Writer(RecordWriter):
    #: The words of the ``# rules:`` line in force in the line layout (None: the classic rules).
    rules: str | None = None

    def result(self, record: Record, candidates: Candidates | None) -> None:
        assert record.puzzle is not None
        text = pencilmarks(candidates) if candidates is not None else "no_solution"
        if self.fmt == "jsonl":
            fields: dict[str, Any] = {
                "index": record.index,
                "puzzle": record.puzzle.to_string(),
                "status": outcome(candidates),
                "candidates": text if candidates is not None else None,
            }
            self.out.write(json.dumps(with_rules_field(fields, record.puzzle.rules)) + "\n")
        elif self.fmt == "pretty":
            body = candidate_grid(candidates) if candidates is not None else "no solution"
            self.out.write(f"Puzzle {record.index} (line {record.line}): {outcome(candidates)}\n{body}\n\n")
        else:  # under a '# rules:' line for rules beyond the classic ones, as every layout of digits is
            self.rules, line = rules_line(record.puzzle.rules, self.rules, "line")
            self.out.write(line + text + "\n")


def run(args: argparse.Namespace) -> int:
    from ..batch.solver import SolverConfig
    from .perpuzzle import EachCommand, run_each

    fmt = args.output_format or "line"
    if fmt not in ("line", "jsonl", "pretty"):
        from ..errors import UsageError

        raise UsageError("--true-candidates writes line (pencilmarks), jsonl or pretty output")
    config = SolverConfig(args.backend, backend_options(args), False, args.time_limit)
    command = EachCommand(
        kind="candidates",
        payload=lambda puzzles: puzzles,
        config=config,
        verb="solved",
        outcomes=["solved", "multiple", "no_solution"],
        outcome=outcome,
        ok=frozenset({"solved", "multiple"}),
        words={"solved": "unique"},
        writer=lambda out: _Writer(out, fmt),
    )
    return run_each(args, command)
