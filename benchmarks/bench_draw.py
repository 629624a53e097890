"""Benchmark of ``sudoku_cp.draw`` on one core: pictures per second, SVG text included.

Rows: 9x9 puzzles alone, with their candidates (the target: 1,000 in under 5 s), with a solution, a
solving step on its candidates (the first step that eliminates, else the first); a 16x16 and a 25x25
candidate grid (patterned grids, 60% blank); a 16x16 killer (random cages of 2 to 5 cells over a
patterned grid, their sums, no givens: the target is under 50 ms). The 9x9 puzzles are the first of
``17_clue`` from the shared data when it is there, else puzzles of the generator (seeded). Wall and CPU
seconds are shown.

    python benchmarks/bench_draw.py              # 1,000 9x9 pictures per row
    python benchmarks/bench_draw.py --count 200
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from sudoku_cp import Puzzle, Rules, datasets, generate, make_backend, solve
from sudoku_cp.candidates import Candidates
from sudoku_cp.draw import draw, draw_step
from sudoku_cp.generate.killer import random_cages
from sudoku_cp.human import Step, walk
from sudoku_cp.rules import Cage
from sudoku_cp.samples import blanked, pattern_grid


def puzzles(count: int) -> tuple[list[Puzzle], str]:
    if datasets.data_path("17_clue.txt") is not None:
        return datasets.load("17_clue.txt", limit=count), "17_clue"
    return [g.puzzle for g in generate(count, seed="bench-draw", rate=False)], "generated"


def timed(label: str, count: int, picture: Callable[[int], str]) -> str:
    start, cpu = time.perf_counter(), time.process_time()
    size = sum(len(picture(i)) for i in range(count))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    each = f"{1000 * wall / count:.2f} | {size / count / 1024:.1f}"
    return f"| {label} | {count:,} | {wall:.2f} | {cpu:.2f} | {each} |"


def killer_16x16() -> Puzzle:
    """Cages over a patterned 16x16 grid, with their sums and no givens."""
    rules = Rules.classic(4, 4)
    grid = pattern_grid(rules, seed=16).cells
    cages = random_cages(grid, rules, random.Random(16))
    return Puzzle.empty(rules.with_(cages=[Cage(c, sum(grid[x] for x in c)) for c in cages]))


def first_steps(grids: list[Puzzle]) -> list[tuple[Step, Candidates, Puzzle]]:
    """Per puzzle: the first step of its walk that eliminates (else its first), and its candidates."""
    out = []
    for puzzle in grids:
        w = walk(puzzle)
        k = next((i for i, s in enumerate(w.steps, start=1) if s.eliminations), 1)
        out.append((w.steps[k - 1], w.before(k), puzzle))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=1000, help="9x9 pictures per row (default 1000)")
    args = parser.parse_args()
    grids, source = puzzles(args.count)
    with make_backend("sat") as sat:
        solutions = [solve(p, sat).solution for p in grids]
    big = {n: blanked(pattern_grid(Rules.classic(b, b), seed=n), 0.6, seed=n) for n, b in ((16, 4), (25, 5))}
    print(f"9x9 puzzles: {source}")
    print("| picture | count | wall s | CPU s | ms each | KiB each |")
    print("|---|--:|--:|--:|--:|--:|")
    print(timed("9x9 puzzle", len(grids), lambda i: draw(grids[i]).as_svg()))
    print(
        timed(
            "9x9 with candidates",
            len(grids),
            lambda i: draw(grids[i], candidates=Candidates.of(grids[i])).as_svg(),
        )
    )
    print(timed("9x9 with its solution", len(grids), lambda i: draw(grids[i], solutions[i]).as_svg()))
    steps = first_steps(grids)
    print(timed("9x9 step on its candidates", len(steps), lambda i: draw_step(*steps[i]).as_svg()))
    for n, puzzle in big.items():
        print(
            timed(
                f"{n}x{n} with candidates",
                20,
                lambda _, p=puzzle: draw(p, candidates=Candidates.of(p)).as_svg(),
            )
        )
    killer = killer_16x16()
    print(timed(f"16x16 killer ({len(killer.rules.cages)} cages)", 20, lambda _: draw(killer).as_svg()))


if __name__ == "__main__":
    main()
