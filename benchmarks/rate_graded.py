"""Does the rating agree with people? Levels of ``sudoku_cp.rate`` on collections graded by their authors.

Rates the Sudoku Exchange puzzle bank (graded easy, medium, hard, hard1, hard2, diabolical), then the
magictour top 1465 and the forum's hardest 1106 for reference, and prints a Markdown table: the share of
each level per grade, the mean level (0 easy .. 4 extreme) and median effort figures. The levels should
rise with the grades; docs/rating.md shows the table.

    python benchmarks/rate_graded.py --sample 100   # a minute or so
    python benchmarks/rate_graded.py                # every puzzle of the graded bank (3,000)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from sudoku_cp import datasets
from sudoku_cp.rate import LEVELS, rate

GRADED = ("easy", "medium", "hard", "hard1", "hard2", "diabolical")
REFERENCE = {"top1465": "top1465.txt", "forum hardest 1106": "forum_hardest_1106.txt"}


def row(label: str, name: str, sample: int | None) -> str:
    puzzles = datasets.load(name, sample=sample, seed=1)
    start = time.perf_counter()
    ratings = [rate(p) for p in puzzles]
    ms = 1000 * (time.perf_counter() - start) / len(puzzles)
    shares = [100 * sum(r.level == level for r in ratings) / len(ratings) for level in LEVELS]
    mean = statistics.mean(r.rank for r in ratings)

    def median(field: str) -> float:
        return statistics.median(getattr(r, field) for r in ratings)

    cells = [f"{s:.0f}%" if s else "" for s in shares]
    figures = f"{median('eliminations'):g} | {median('backtracks'):g} | {median('conflicts'):g}"
    return f"| {label} | {len(puzzles)} | {' | '.join(cells)} | {mean:.2f} | {figures} | {ms:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sample", type=int, help="puzzles per collection (default: all of the graded bank)")
    args = parser.parse_args()
    if datasets.data_dir() is None:
        sys.exit(datasets.MISSING_MESSAGE)
    head = " | ".join(LEVELS)
    print(f"| grade | puzzles | {head} | mean level | eliminations | backtracks | conflicts | ms/puzzle |")
    print("|---|---:|" + "---:|" * len(LEVELS) + "---:|---:|---:|---:|---:|")
    for grade in GRADED:
        print(row(grade, f"sudoku_exchange/{grade}_puzzle_and_solution.txt", args.sample), flush=True)
    for label, name in REFERENCE.items():
        print(row(label, name, args.sample or 200), flush=True)


if __name__ == "__main__":
    main()
