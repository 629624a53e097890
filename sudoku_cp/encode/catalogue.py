"""The generated parts of the ``encodings/`` catalogue, rebuilt from the encoders so they cannot drift.

- ``counts.csv``: variables, clauses, literals and clauses per family of every encoding and at-most-one
  scheme, for the empty 4x4, 9x9, 16x16 and 25x25 grids and for one 9x9 puzzle (``SAMPLE``);
- ``empty_4x4_extended.cnf``, ``empty_4x4_minimal.cnf``, ``sample_9x9_reduced.cnf``: small DIMACS files;
- the count tables inside each encoding's card (``minimal.md``, ...), between the markers
  ``<!-- generated: begin -->`` and ``<!-- generated: end -->``; the prose around them is written by hand.

Run ``python -m sudoku_cp.encode.catalogue`` to write them, ``--check`` to list what differs (exit 1).
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections.abc import Sequence
from itertools import chain
from pathlib import Path

from ..dimacs import to_dimacs
from ..grid import Puzzle, Rules
from .amo import AMO_SCHEMES
from .cnf import ENCODINGS, clause_families

__all__ = ["FAMILIES", "GRIDS", "SAMPLE", "build", "count_rows", "counts_csv", "main"]

#: The empty grids the counts cover.
GRIDS: tuple[Rules, ...] = (
    Rules.classic(2, 2),
    Rules.classic(3, 3),
    Rules.classic(4, 4),
    Rules.classic(5, 5),
)
#: The 9x9 puzzle of the sample rows and of sample_9x9_reduced.cnf (17 givens, one solution).
SAMPLE = Puzzle.from_string(
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
)
#: Clause families, in the order the encoders emit them.
FAMILIES = ("cell_at_least_one", "cell_at_most_one", "unit_at_least_one", "unit_at_most_one", "givens")
COLUMNS = (
    "grid",
    "puzzle",
    "encoding",
    "amo",
    "variables",
    "used_variables",
    "clauses",
    "literals",
    *FAMILIES,
)
BEGIN, END = "<!-- generated: begin -->", "<!-- generated: end -->"


def _row(puzzle: Puzzle, name: str, encoding: str, amo: str) -> dict[str, str | int]:
    import numpy as np

    families, nv = clause_families(puzzle, encoding, amo)
    clauses = list(chain.from_iterable(families.values()))
    lits = np.fromiter(chain.from_iterable(clauses), dtype=np.int64)
    used = np.zeros(nv + 1, dtype=bool)
    used[np.abs(lits)] = True
    return {
        "grid": f"{puzzle.n}x{puzzle.n}",
        "puzzle": name,
        "encoding": encoding,
        "amo": amo,
        "variables": nv,
        "used_variables": int(used.sum()),
        "clauses": len(clauses),
        "literals": len(lits),
        **{family: len(families.get(family, ())) for family in FAMILIES},
    }


def count_rows(grids: Sequence[Rules] = GRIDS) -> list[dict[str, str | int]]:
    """One row per grid x encoding x scheme (empty grids, then the sample puzzle)."""
    rows = [
        _row(Puzzle.empty(rules), "empty", encoding, amo)
        for rules in grids
        for encoding in ENCODINGS
        for amo in AMO_SCHEMES
    ]
    rows += [_row(SAMPLE, "sample", encoding, amo) for encoding in ENCODINGS for amo in AMO_SCHEMES]
    return rows


def counts_csv(rows: list[dict[str, str | int]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _card_table(rows: list[dict[str, str | int]], encoding: str) -> str:
    """The card's table: clauses (and variables) of each scheme on the empty grids and the sample."""
    shown = [r for r in rows if r["encoding"] == encoding]
    grids = [f"{s.n}x{s.n}" for s in GRIDS]
    head = "| amo | " + " | ".join(f"{g} empty" for g in grids) + " | 9x9 sample |"
    lines = [head, "|---" * (len(grids) + 2) + "|"]
    for amo in AMO_SCHEMES:
        cells = []
        for grid, puzzle in [(g, "empty") for g in grids] + [("9x9", "sample")]:
            (r,) = [r for r in shown if r["amo"] == amo and r["grid"] == grid and r["puzzle"] == puzzle]
            cells.append(f"{r['clauses']:,} / {r['used_variables']:,}")
        lines.append(f"| {amo} | " + " | ".join(cells) + " |")
    return "Clauses / variables used (from `counts.csv`):\n\n" + "\n".join(lines) + "\n"


def _fill(card: str, table: str) -> str:
    if BEGIN not in card or END not in card:
        raise ValueError(f"the card has no {BEGIN} ... {END} section")
    head, rest = card.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table}{END}{tail}"


def build(
    directory: Path, grids: Sequence[Rules] = GRIDS, rows: list[dict[str, str | int]] | None = None
) -> dict[str, str]:
    """The generated files by name (cards filled from their current text in ``directory``); ``rows``
    (``count_rows(grids)`` by default) are the counts they show."""
    rows = count_rows(grids) if rows is None else rows
    files = {
        "counts.csv": counts_csv(rows),
        "empty_4x4_extended.cnf": to_dimacs(Rules.classic(2, 2), "extended", "pairwise"),
        "empty_4x4_minimal.cnf": to_dimacs(Rules.classic(2, 2), "minimal", "pairwise"),
        "sample_9x9_reduced.cnf": to_dimacs(SAMPLE, "reduced", "pairwise"),
    }
    for encoding in ENCODINGS:
        card = directory / f"{encoding}.md"
        files[card.name] = _fill(card.read_text(encoding="utf-8"), _card_table(rows, encoding))
    return files


def default_directory() -> Path:
    """``encodings/`` at the project's root (beside the ``sudoku_cp`` package)."""
    return Path(__file__).resolve().parents[2] / "encodings"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sudoku_cp.encode.catalogue", description=__doc__)
    parser.add_argument("directory", nargs="?", type=Path, default=default_directory())
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file differs")
    args = parser.parse_args(argv)
    differ = []
    for name, text in build(args.directory).items():
        path = args.directory / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        differ.append(name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    verb = "differ" if args.check else "written"
    print(f"{len(differ)} file(s) {verb}: {', '.join(differ) or 'none'}")
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
