"""Does the rating agree with people? Levels of ``sudoku_cp.rate`` on collections graded by their authors,
and on what ``generate`` makes.

Rates the Sudoku Exchange puzzle bank (graded easy, medium, hard, hard1, hard2, diabolical), then the
magictour top 1465 and the forum's hardest 1106 for reference, and prints a Markdown table: the share of
each level (bands of Sudoku Explainer's ER, docs/rating.md) per grade, the mean level (0 easy .. 4
extreme), the median ER and the time a puzzle takes. A second table gives the levels of puzzles that
``generate`` draws with no difficulty asked (random grids, so a sample of what each request gives).
docs/rating.md shows both.

    python benchmarks/rate_graded.py --sample 100   # a few minutes
    python benchmarks/rate_graded.py                # every puzzle of the graded bank (3,000)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterable

from sudoku_cp import Puzzle, Rules, datasets, generate
from sudoku_cp.rate import LEVELS, rate

GRADED = ("easy", "medium", "hard", "hard1", "hard2", "diabolical")
REFERENCE = {"top1465": "top1465.txt", "forum hardest 1106": "forum_hardest_1106.txt"}
#: The generate requests of the second table: label -> (count, keyword arguments).
REQUESTS = {
    "9x9 minimal": (300, {}),
    "9x9 minimal, rot180": (200, {"symmetry": "rot180"}),
    "9x9, 30 clues": (200, {"clues": 30}),
    "9x9, few blanks": (200, {"blanks": "few"}),
    "6x6 minimal": (200, {"rules": Rules.classic(2, 3)}),
}


def row(label: str, puzzles: Iterable[Puzzle]) -> str:
    """One table row: the levels' shares, the mean level, the median ER, ms a puzzle."""
    start = time.perf_counter()
    ratings = [rate(p) for p in puzzles]
    ms = 1000 * (time.perf_counter() - start) / len(ratings)
    shares = [100 * sum(r.level == level for r in ratings) / len(ratings) for level in LEVELS]
    cells = [f"{s:.0f}%" if s >= 1 else f"{s:.1f}%" if s else "" for s in shares]
    mean = statistics.mean(r.rank for r in ratings)
    er = statistics.median(r.er if r.er is not None else 99.0 for r in ratings)
    return f"| {label} | {len(ratings)} | {' | '.join(cells)} | {mean:.2f} | {er:.1f} | {ms:.0f} |"


def header(first: str) -> str:
    return (
        f"| {first} | puzzles | {' | '.join(LEVELS)} | mean level | median ER | ms/puzzle |\n"
        + "|---|---:|"
        + "---:|" * len(LEVELS)
        + "---:|---:|---:|"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sample", type=int, help="puzzles per collection (default: all of the graded bank)")
    parser.add_argument("--generated", action="store_true", help="only the table of generated puzzles")
    parser.add_argument(
        "--hardest",
        type=int,
        default=10,
        help="puzzles of the forum's hardest (default 10: SE's nested chains take a minute each)",
    )
    args = parser.parse_args()
    if not args.generated:
        if datasets.data_dir() is None:
            sys.exit(datasets.MISSING_MESSAGE)
        print(header("grade"))
        for grade in GRADED:
            name = f"sudoku_exchange/{grade}_puzzle_and_solution.txt"
            print(row(grade, datasets.load(name, sample=args.sample, seed=1)), flush=True)
        for label, name in REFERENCE.items():
            size = args.hardest if "forum" in label else args.sample or 200
            print(row(label, datasets.load(name, sample=size, seed=1)), flush=True)
        print()
    print(header("request"))
    for label, (count, kwargs) in REQUESTS.items():
        made = [g.puzzle for g in generate(count, seed=label, rate=False, **kwargs)]  # type: ignore[arg-type]
        print(row(label, made), flush=True)


if __name__ == "__main__":
    main()
