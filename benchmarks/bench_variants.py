"""Benchmark of every backend on variant Sudoku: puzzles per second with uniqueness, per rule, on 9x9
puzzles the project generates (seeded, so every run measures the same puzzles) and on 16x16 X and
windoku, a row per constraint kind that ``generate --constraints`` draws (renban, whispers, little
killers, sandwiches, X-sums, skyscrapers), and the time to a first solution of an empty killer grid
(cages with sums, no givens).

One process, one backend instance per row (as a batch uses it), wall time around the whole row; every
answer is checked unique and valid after the clock stops. A backend slower than ``--budget`` seconds on a
row is stopped there and reported with the puzzles it finished.

    python benchmarks/bench_variants.py --quick     # 6 puzzles per rule, about two minutes
    python benchmarks/bench_variants.py             # 20 per rule
    python benchmarks/bench_variants.py --quick --only sandwich,renban   # some rows
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from sudoku_cp import Puzzle, generate
from sudoku_cp.backends import Backend, make_backend
from sudoku_cp.compare import parse_config, parse_configs
from sudoku_cp.generate import generate_killer
from sudoku_cp.generate.drawn import generate_clued
from sudoku_cp.rules import Arrow, Rules, Thermo
from sudoku_cp.rules.kinds import KINDS, drawable

BACKENDS = ("dfs", "sat", "cpsat")
NINE = Rules.classic(3, 3)


def puzzle_sets(count: int) -> dict[str, Callable[[], list[Puzzle]]]:
    """Each row's proven-unique 9x9 puzzles (seeded), made when called: named rules through ``generate``,
    killers through ``generate_killer``, thermometers and arrows on minimal puzzles of a grid that keeps
    them, the kinds' clues through ``generate_clued``."""
    sets: dict[str, Callable[[], list[Puzzle]]] = {}

    def named(rules: Rules, seed: str, k: int = count) -> Callable[[], list[Puzzle]]:
        return lambda: [g.puzzle for g in generate(k, rules, seed=seed, rate=False)]

    sets["classic"] = named(NINE, "bench-classic")
    for names in ("x", "anti-knight", "anti-king", "windoku", "disjoint", "non-consecutive"):
        sets[names] = named(NINE.with_named(names), f"bench-{names}")
    sixteen = Rules.classic(4, 4)
    for names in ("x", "windoku"):  # 16x16: where the search sweeps locked candidates
        sets[f"16x16 {names}"] = named(sixteen.with_named(names), f"bench-16-{names}", max(2, count // 3))
    sets["killer"] = lambda: [g.puzzle for g in generate_killer(count, seed="bench-killer")]
    sets["thermo+arrow"] = lambda: _lines(count)
    for kind in KINDS:  # a row per kind that generate draws clues for (``generate --constraints``)
        if drawable(kind):
            key = kind.key
            sets[kind.kind] = lambda key=key: [  # type: ignore[misc]
                g.puzzle for g in generate_clued(count, [key], NINE, seed=f"bench-{key}")
            ]
    return sets


def _lines(count: int) -> list[Puzzle]:
    """Minimal puzzles under two thermometers and two arrows laid along a classic solution."""
    out = []
    for g in generate(count, NINE, seed="bench-lines", rate=False):
        s = g.solution.cells
        row = sorted(range(9), key=lambda c: s[c])[:4]  # first row, the four smallest digits in order
        col = sorted((r * 9 + 8 for r in range(9)), key=lambda c: s[c])[:3]
        thermos = [Thermo(tuple(row)), Thermo(tuple(col))]
        arrows = []
        for start in (30, 48):  # r4c4 and r6c4: a circle with the two cells right of it when they fit
            line = (start + 1, start + 2)
            if sum(s[c] for c in line) == s[start]:
                arrows.append(Arrow((start,), line))
        rules = NINE.with_(thermos=thermos, arrows=arrows)
        [made] = generate(1, rules, seed=f"bench-lines-{g.index}", rate=False)
        out.append(made.puzzle)
    return out


def backend(config: str) -> Backend:
    """A backend by name, or a configuration with options: ``dfs[heuristic=conflicts]``."""
    parsed = parse_config(config)
    return make_backend(parsed.backend, **dict(parsed.options))


def measure(config: str, puzzles: list[Puzzle], budget: float) -> tuple[int, float, int]:
    """(puzzles answered, seconds, wrong answers) for one backend on one set, stopping after ``budget``."""
    engine = backend(config)
    answers = []
    start = time.perf_counter()
    for puzzle in puzzles:
        answers.append((puzzle, engine.enumerate(puzzle, limit=2)))
        if time.perf_counter() - start > budget:
            break
    seconds = time.perf_counter() - start
    wrong = sum(
        not (found.complete and len(found.solutions) == 1 and p.rules.is_valid(found.solutions[0].cells))
        for p, found in answers
    )
    return len(answers), seconds, wrong


def empty_killer(budget: float, configs: list[str]) -> list[str]:
    """Time to a first solution of an empty grid of 9x9 cages with sums (no givens), per backend."""
    [g] = generate_killer(1, seed="bench-empty-killer")
    empty = Puzzle.empty(g.puzzle.rules)
    rows = []
    for config in configs:
        start = time.perf_counter()
        found = backend(config).enumerate(empty, limit=1, time_limit=budget)
        seconds = time.perf_counter() - start
        ok = bool(found.solutions) and empty.rules.is_valid(found.solutions[0].cells)
        rows.append(f"| {config} | {seconds:.3f} | {'yes' if ok else 'timed out'} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="6 puzzles per rule instead of 20")
    parser.add_argument(
        "--budget", type=float, default=20.0, help="seconds per backend and rule (default 20)"
    )
    parser.add_argument("--only", help="comma-separated rows to run (their names, as the table prints them)")
    parser.add_argument(
        "--backends",
        default=",".join(BACKENDS),
        help="comma-separated backends, options in brackets: dfs,dfs[heuristic=conflicts] (default: "
        + ",".join(BACKENDS)
        + ")",
    )
    args = parser.parse_args()
    configs = [c.label for c in parse_configs(args.backends)]
    count = 6 if args.quick else 20
    makers = puzzle_sets(count)
    wanted = {w.strip() for w in args.only.split(",")} if args.only else set(makers)
    unknown = wanted - set(makers)
    if unknown:
        parser.error(f"no row {sorted(unknown)[0]!r} (rows: {', '.join(makers)})")
    sets = {rule: make() for rule, make in makers.items() if rule in wanted or rule == "classic"}
    for config in configs:  # load each backend's machinery (numba kernels, OR-tools) before any clock
        backend(config).enumerate(sets["classic"][0], limit=2)
    print("| rule | puzzles | " + " | ".join(f"{c} /s" for c in configs) + " | wrong |")
    print("|---|---:|" + "---:|" * len(configs) + "---:|")
    for rule, puzzles in sets.items():
        cells, wrong = [], 0
        for config in configs:
            done, seconds, bad = measure(config, puzzles, args.budget)
            wrong += bad
            cells.append(f"{done / seconds:,.1f}" + ("" if done == len(puzzles) else f" ({done} done)"))
        print(f"| {rule} | {len(puzzles)} | " + " | ".join(cells) + f" | {wrong} |")
    print()
    print("Empty 9x9 killer grid (cages with sums, no givens), time to a first solution:")
    print("| backend | seconds | found |")
    print("|---|---:|---|")
    for row in empty_killer(args.budget, configs):
        print(row)


if __name__ == "__main__":
    main()
