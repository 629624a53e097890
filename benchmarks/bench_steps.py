"""Benchmark of the step engine (``sudoku-cp steps``): time per set, and how far each family of techniques
gets on the shared collections.

For each set: puzzles walked, wall and CPU time on one core (one process, ``human.walk`` per puzzle, as a
batch worker runs it), puzzles per second, how many the walk solved, and the share of puzzles whose hardest
step belongs to each family: singles (full house, hidden and naked singles), subsets (locked candidates, naked
and hidden pairs to quads), fish and wings (X-wing to jellyfish, XY- and XYZ-wing), chains (X-chains,
XY-chains, AICs, SE's cycles and forcing chains), nets (forcing and contradiction nets, SE's Nishio,
multiple, dynamic and nested forcing chains). Also the median ER and the sudoku_exchange grades against the
ER of their puzzles. The walk is SE's own on the classic sets unless ``--engine sudoku-cp``.

    python benchmarks/bench_steps.py --quick --set top1465   # 200 puzzles
    python benchmarks/bench_steps.py --sample 100            # 100 puzzles a set
    python benchmarks/bench_steps.py --whole --set top1465   # all of it (the target: within 60 s a core)
    python benchmarks/bench_steps.py --engine sudoku-cp      # sudoku-cp's own walk, to compare
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from sudoku_cp import datasets
from sudoku_cp.human import FAMILIES, family, walk

ORDER = list(FAMILIES)
SETS = {
    "17_clue": "17_clue.txt",
    "top1465": "top1465.txt",
    "forum_hardest_11plus": "forum_hardest_11plus.txt",
    "forum_hardest_1106": "forum_hardest_1106.txt",
    "norvig_top95": "norvig_top95.txt",
}
GRADES = ("easy", "medium", "hard", "hard1", "hard2", "diabolical")


def run_set(puzzles: list, explainer: bool = True) -> dict:
    """Walk every puzzle (SE's own walk on classic puzzles unless ``explainer`` is False); the figures of
    one table row."""
    hardest = dict.fromkeys(ORDER, 0)
    ratings = []
    solved = 0
    start, cpu = time.perf_counter(), time.process_time()
    for puzzle in puzzles:
        w = walk(puzzle, explainer=explainer)
        solved += w.result == "solved"
        ratings.append(w.rating.er)
        top = max(w.steps, key=lambda s: ORDER.index(family(s.technique)), default=None)
        if top is not None:
            hardest[family(top.technique)] += 1
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "count": len(puzzles),
        "seconds": seconds,
        "cpu": cpu,
        "solved": solved,
        "hardest": hardest,
        "ratings": ratings,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="200 puzzles a set")
    parser.add_argument("--sample", type=int, default=1000, help="puzzles of the large sets (default 1000)")
    parser.add_argument(
        "--set", action="append", choices=list(SETS), help="only this set (repeatable; default all)"
    )
    parser.add_argument(
        "--engine",
        choices=("explainer", "sudoku-cp"),
        default="explainer",
        help="explainer: the walk of `steps`, Sudoku Explainer's own on classic puzzles (default); "
        "sudoku-cp: sudoku-cp's SE-style walk of its own techniques and nets",
    )
    parser.add_argument("--whole", action="store_true", help="all of top1465 and forum_hardest_1106")
    args = parser.parse_args()
    explainer = args.engine == "explainer"
    size = 200 if args.quick else args.sample
    if datasets.data_dir() is None:
        print(f"skipped: {datasets.MISSING_MESSAGE}", file=sys.stderr)
        return 0
    print("| set | puzzles | seconds | CPU s | puzzles/s | solved | " + " | ".join(ORDER) + " | median ER |")
    print("|---|--:|--:|--:|--:|--:|" + "--:|" * len(ORDER) + "--:|")
    for label, name in SETS.items():
        if args.set and label not in args.set:
            continue
        whole = label in ("top1465", "forum_hardest_1106") and args.whole
        puzzles = datasets.load(name) if whole else datasets.load(name, sample=size, seed=1)
        row = run_set(puzzles, explainer)
        shares = " | ".join(f"{100 * row['hardest'][f] / row['count']:.0f}%" for f in ORDER)
        print(
            f"| {label} | {row['count']:,} | {row['seconds']:.1f} | {row['cpu']:.1f} | "
            f"{row['count'] / row['seconds']:,.1f} | "
            f"{row['solved']:,} | {shares} | {statistics.median(row['ratings']):.1f} |",
            flush=True,
        )
    if args.set:
        return 0  # the grades' table only with every set
    print()
    print("| sudoku_exchange grade | puzzles | median ER | mean ER | max ER | solved by singles |")
    print("|---|--:|--:|--:|--:|--:|")
    for grade in GRADES:
        pairs = datasets.load_with_solutions(
            f"sudoku_exchange/{grade}_puzzle_and_solution.txt", sample=size, seed=1
        )
        row = run_set([p for p, _ in pairs], explainer)
        ratings = row["ratings"]
        median, mean = statistics.median(ratings), statistics.mean(ratings)
        print(
            f"| {grade} | {row['count']:,} | {median:.1f} | {mean:.2f} | "
            f"{max(ratings):.1f} | {100 * row['hardest']['singles'] / row['count']:.0f}% |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
