"""Held-out comparison of the step engine's rating with Sudoku Explainer's (SE 1.2.1, ER/EP/ED).

The reference ratings are never part of this project: produce them with SE's batch rater (``serate``,
for instance from Sukaku Explainer with SE 1.2.1's techniques) on puzzles of your choice, and point this
script at its output. One line per puzzle, ``PUZZLE ED=ER/EP/ED`` (serate's ``--format="%g ED=%r/%p/%d"``);
other lines are skipped. The script walks each puzzle (``sudoku_cp.human.walk``) and prints, per file and
for all of them: Spearman's rank correlation of ER (and of EP and ED), the share of puzzles rated within
0.2 and exactly, the median difference, and the puzzles' split by how far apart the two ERs are.

    java -cp SukakuExplainer.jar diuf.sudoku.test.serate --format="%g ED=%r/%p/%d" \\
        --techs=1111111111010111011011011011000010100010111111 --input=puzzles.txt --output=puzzles.se.txt
    python benchmarks/compare_se.py puzzles.se.txt [more.se.txt ...]

(The ``--techs`` string keeps SE 1.2.1's techniques: it drops Sukaku Explainer's later additions.)
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

from sudoku_cp import Puzzle
from sudoku_cp.human import walk

LINE = re.compile(r"^\s*(\S{81})\s+ED=(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)")


def read(path: Path) -> list[tuple[Puzzle, tuple[float, float, float]]]:
    """The rated puzzles of one serate output file."""
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        found = LINE.match(line)
        if found:
            puzzle = Puzzle.from_string(found.group(1))
            out.append((puzzle, (float(found.group(2)), float(found.group(3)), float(found.group(4)))))
    return out


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank (as Spearman's correlation needs)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rho: Pearson's correlation of the ranks (nan when either side is constant)."""
    ra, rb = ranks(a), ranks(b)
    if len(set(ra)) < 2 or len(set(rb)) < 2:
        return float("nan")
    return statistics.correlation(ra, rb)


def row(name: str, pairs: list[tuple[tuple[float, float, float], tuple[float, float, float]]]) -> str:
    theirs = [p[0] for p in pairs]
    ours = [p[1] for p in pairs]
    diff = [o[0] - t[0] for t, o in zip(theirs, ours, strict=True)]
    within = sum(abs(d) <= 0.2 + 1e-9 for d in diff) / len(diff)
    exact = sum(abs(d) < 1e-9 for d in diff) / len(diff)
    rho = [spearman([t[k] for t in theirs], [o[k] for o in ours]) for k in range(3)]
    lower = sum(d < -0.2 - 1e-9 for d in diff) / len(diff)
    higher = sum(d > 0.2 + 1e-9 for d in diff) / len(diff)
    return (
        f"| {name} | {len(pairs)} | {rho[0]:.3f} | {rho[1]:.3f} | {rho[2]:.3f} | {100 * within:.0f}% | "
        f"{100 * exact:.0f}% | {statistics.median(diff):+.1f} | {100 * lower:.0f}% | {100 * higher:.0f}% |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="+", type=Path, help="serate output files (PUZZLE ED=ER/EP/ED lines)")
    args = parser.parse_args(argv)
    print("| reference | puzzles | rho ER | rho EP | rho ED | ER within 0.2 | ER equal | median ours - SE | "
          "ours lower | ours higher |")  # fmt: skip
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    everything = []
    for path in args.files:
        rated = read(path)
        if not rated:
            print(f"{path}: no `PUZZLE ED=ER/EP/ED` lines", file=sys.stderr)
            continue
        pairs = []
        for puzzle, theirs in rated:
            w = walk(puzzle)
            pairs.append((theirs, (w.rating.er, w.rating.ep, w.rating.ed)))
        everything += pairs
        print(row(path.name, pairs))
    if len(args.files) > 1 and everything:
        print(row("all", everything))
    return 0 if everything else 1


if __name__ == "__main__":
    sys.exit(main())
