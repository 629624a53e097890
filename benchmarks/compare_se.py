"""Comparison of the step engine's rating with Sudoku Explainer's (SE 1.2.1, ER/EP/ED), puzzle by puzzle.

The reference ratings are never part of this project: produce them with SE 1.2.1's batch rater
``serate`` (Glenn Fowler's 1.2.1.3, commit 729c00e3 of github.com/1to9only/SudokuExplainer, built with
``javac -sourcepath src src/diuf/sudoku/test/serate.java``) on puzzles of your choice, and point this
script at its output: one line per puzzle, ``PUZZLE ED=ER/EP/ED``; other lines are skipped.

    java -cp serate.jar diuf.sudoku.test.serate --format='%g ED=%r/%p/%d' PUZZLE ... > puzzles.se.txt
    python benchmarks/compare_se.py puzzles.se.txt [more.se.txt ...]
    python benchmarks/compare_se.py --engine sudoku-cp puzzles.se.txt   # sudoku-cp's own walk instead

The script walks each puzzle (``sudoku_cp.human.walk``: on classic puzzles with one solution, SE's own walk
reproduced; ``--engine sudoku-cp``: the SE-style walk of sudoku-cp's techniques and nets) and prints, per
file and for all of them: Spearman's rank correlation of ER (and of EP and ED), the share of puzzles whose
ER is within 0.2 and equal, whose ER, EP and ED are all equal, the median difference, the split by how far
apart the two ERs are, and the CPU seconds a puzzle took.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
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


def row(
    name: str, pairs: list[tuple[tuple[float, float, float], tuple[float, float, float]]], seconds: float
) -> str:
    theirs = [p[0] for p in pairs]
    ours = [p[1] for p in pairs]
    diff = [o[0] - t[0] for t, o in zip(theirs, ours, strict=True)]
    within = sum(abs(d) <= 0.2 + 1e-9 for d in diff) / len(diff)
    exact = sum(abs(d) < 1e-9 for d in diff) / len(diff)
    same = sum(all(abs(a - b) < 1e-9 for a, b in zip(t, o, strict=True)) for t, o in pairs) / len(pairs)
    rho = [spearman([t[k] for t in theirs], [o[k] for o in ours]) for k in range(3)]
    lower = sum(d < -0.2 - 1e-9 for d in diff) / len(diff)
    higher = sum(d > 0.2 + 1e-9 for d in diff) / len(diff)
    return (
        f"| {name} | {len(pairs)} | {rho[0]:.3f} | {rho[1]:.3f} | {rho[2]:.3f} | {100 * within:.0f}% | "
        f"{100 * exact:.0f}% | {100 * same:.0f}% | {statistics.median(diff):+.1f} | {100 * lower:.0f}% | "
        f"{100 * higher:.0f}% | {seconds / len(pairs):.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="+", type=Path, help="serate output files (PUZZLE ED=ER/EP/ED lines)")
    parser.add_argument(
        "--engine",
        choices=("explainer", "sudoku-cp"),
        default="explainer",
        help="explainer: the walk as `steps` takes it, SE's own on classic puzzles (default); sudoku-cp: "
        "sudoku-cp's SE-style walk (walk(..., explainer=False))",
    )
    args = parser.parse_args(argv)
    explainer = args.engine == "explainer"
    print("| reference | puzzles | rho ER | rho EP | rho ED | ER within 0.2 | ER equal | ER/EP/ED equal | "
          "median ours - SE | ours lower | ours higher | CPU s/puzzle |")  # fmt: skip
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    everything, total = [], 0.0
    for path in args.files:
        rated = read(path)
        if not rated:
            print(f"{path}: no `PUZZLE ED=ER/EP/ED` lines", file=sys.stderr)
            continue
        pairs = []
        start = time.process_time()
        for puzzle, theirs in rated:
            w = walk(puzzle, explainer=explainer)
            pairs.append((theirs, (w.rating.er, w.rating.ep, w.rating.ed)))
        seconds = time.process_time() - start
        total += seconds
        everything += pairs
        print(row(path.name, pairs, seconds), flush=True)
    if len(args.files) > 1 and everything:
        print(row("all", everything, total))
    return 0 if everything else 1


if __name__ == "__main__":
    sys.exit(main())
