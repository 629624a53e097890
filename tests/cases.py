"""Puzzles and helpers that several test modules share."""

from __future__ import annotations

import json
import random
from pathlib import Path

from sudoku_cp import Puzzle, Rules
from sudoku_cp.rules import Arrow, Cage, Pair, Thermo

#: Norvig's "hardest" example: propagation alone does not solve it.
HARD_9X9 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: A 9x9 with exactly two solutions: r1c1, r1c2, r4c1 and r4c2 can hold 1 and 2 either way round.
TWO_SOLUTIONS = "..3456789456789123789123456..4365897365897214897214365531642978648971532972538641"

VARIANTS = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "published_variants.jsonl").read_text().splitlines()
    if line.strip()
]
CLASSIC = Puzzle.from_string(HARD_9X9)
HARD = Puzzle.from_string(  # the first of forum_hardest_11plus: propagation leaves 218 candidates open
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"
)


def full_grid(rules: Rules, seed: int) -> Puzzle:
    """A complete grid: the shifted-rows pattern, with digits, rows in bands, bands, columns in stacks
    and stacks permuted at random (each keeps every unit a permutation)."""
    rng = random.Random(seed)
    br, bc, n = rules.box_rows, rules.box_cols, rules.n
    digits = rng.sample(range(1, n + 1), n)
    rows = [b * br + r for b in rng.sample(range(bc), bc) for r in rng.sample(range(br), br)]
    cols = [s * bc + c for s in rng.sample(range(br), br) for c in rng.sample(range(bc), bc)]
    return Puzzle(rules, tuple(digits[((r % br) * bc + r // br + c) % n] for r in rows for c in cols))


def blanked(full: Puzzle, keep: float, seed: int) -> Puzzle:
    """``full`` with each cell kept as a given with probability ``keep``."""
    rng = random.Random(seed)
    return Puzzle(full.rules, tuple(d if rng.random() < keep else 0 for d in full.cells))


def variant_rules() -> list[Rules]:
    base = Rules.classic(2, 3)
    return [
        base.with_named("anti-knight"),
        base.with_named("non-consecutive"),
        base.with_named("x"),
        base.with_(cages=(Cage((0, 1, 6), 12), Cage((10, 11), 3), Cage((20, 21, 27)))),
        base.with_(thermos=(Thermo((0, 1, 2, 8)), Thermo((30, 24, 18)))),
        base.with_(arrows=(Arrow((14,), (8, 9)), Arrow((35,), (29, 28, 27)))),
        base.with_(dots=(Pair(0, 1, "difference", 1), Pair(6, 12, "ratio", 2), Pair(20, 21, "sum", 5))),
        base.with_(extra_regions=((0, 7, 14, 21),)),
        Rules.classic(3, 3).with_named("windoku"),
    ]


def assert_same_tree(puzzle: Puzzle, limit: int) -> None:
    """Both dfs engines find the same solutions by the same search: the same guesses, backtracks, nodes."""
    from sudoku_cp.backends import make_backend

    compiled, python = (
        make_backend(spec).enumerate(puzzle, limit=limit) for spec in ("dfs:compiled", "dfs:python")
    )
    assert compiled.solutions == python.solutions and compiled.complete == python.complete
    for stat in ("guesses", "backtracks", "nodes"):
        assert compiled.stats[stat] == python.stats[stat], stat
