"""Benchmark of ``sudoku_cp.generate`` on one core: puzzles per second for each kind of request.

Rows: 9x9 minimal by the band search, the default (the target: at least 1,500/s), and by the SAT way, 9x9
with a clue target, 9x9 minimal with rot180 symmetry, 9x9 minimal and rated, 16x16 minimal and with the hard
blank level (the target: a unique 16x16 puzzle in under a second), 9x9 little killers drawn from the
solution under the X and the anti-king rules (``generate --constraints littlekillersum``, whose sums leave
the SAT oracle hard questions), a row per kind ``generate --constraints`` draws (9x9, no other rule), and
without ``--quick`` a 25x25 puzzle with 60% of its cells given. Wall and CPU seconds are both shown (CPU
time is steadier on a shared machine); every puzzle is checked unique by the dfs backend after the clock
stops.

    python benchmarks/bench_generate.py --quick     # about half a minute
    python benchmarks/bench_generate.py             # larger counts and the 25x25 row
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from sudoku_cp import Rules, count_solutions, generate
from sudoku_cp.generate.drawn import generate_clued
from sudoku_cp.rules.kinds import KINDS, drawable


@dataclass
class Row:
    """One request and how fast it ran."""

    label: str
    count: int
    options: dict[str, Any]

    def run(self) -> str:
        start, cpu = time.perf_counter(), time.process_time()
        seed = f"bench-{self.label}"
        if "kinds" in self.options:  # clues drawn from the solution (``generate --constraints``)
            options = dict(self.options)
            items = list(generate_clued(self.count, options.pop("kinds"), seed=seed, **options))
        else:
            items = list(generate(self.count, seed=seed, **self.options))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        wrong = sum(count_solutions(item.puzzle, 2) != 1 for item in items)
        clues = sum(item.clues for item in items) / len(items)
        rates = f"{self.count / wall:,.1f} | {self.count / cpu:,.1f} | {1000 * wall / self.count:,.1f}"
        return f"| {self.label} | {self.count} | {clues:.1f} | {rates} | {wrong} |"


NINE = Rules.classic(3, 3)
X_RULE, ANTI_KING = NINE.with_named("x"), NINE.with_named("anti-king")


def rows(quick: bool) -> list[Row]:
    small = 300 if quick else 2000
    big = 3 if quick else 20
    table = [
        Row("9x9 minimal (band search)", small * 4, {"rate": False}),
        Row("9x9 minimal, SAT", small, {"rate": False, "solver": "cadical153"}),
        Row("9x9, 30 clues", small, {"clues": 30, "rate": False}),
        Row("9x9, many blanks (39-41)", small, {"blanks": "many", "rate": False}),
        Row("9x9 minimal, rot180", small, {"symmetry": "rot180", "rate": False}),
        Row("9x9 minimal, rated", small // 3, {"rate": True}),
        Row("16x16 minimal", big, {"rules": Rules.classic(4, 4), "rate": False}),
        Row("16x16, many blanks", big, {"rules": Rules.classic(4, 4), "blanks": "many", "rate": False}),
        Row("9x9 little killers, X", big, {"kinds": ["littlekillersum"], "rules": X_RULE}),
        Row("9x9 little killers, anti-king", big, {"kinds": ["littlekillersum"], "rules": ANTI_KING}),
    ]
    table += [Row(f"9x9 {kind.kind}", big, {"kinds": [kind.key]}) for kind in KINDS if drawable(kind)]
    if not quick:
        table.append(Row("25x25, 375 clues", 2, {"rules": Rules.classic(5, 5), "clues": 375, "rate": False}))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small counts, no 25x25 row")
    args = parser.parse_args()
    from sudoku_cp.backends.dfs_compiled import warm_up

    warm_up()  # load the dfs kernels used by the checks and the ratings before any clock starts
    print(
        "| request | puzzles | clues (mean) | puzzles/s (wall) | puzzles/s (CPU) | ms/puzzle (wall) "
        "| not unique |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows(args.quick):
        print(row.run(), flush=True)


if __name__ == "__main__":
    main()
