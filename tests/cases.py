"""Puzzles and helpers that several test modules share."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from sudoku_cp import Puzzle, Rules
from sudoku_cp.rules import Arrow, Cage, Pair, Thermo
from sudoku_cp.rules.kinds import BY_KEY
from sudoku_cp.rules.kinds.outside import DIRECTIONS, line_from

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
    """Both dfs engines find the same solutions by the same search (``conflicts``, the heuristic both take
    beyond the classic rules): the same guesses, backtracks, nodes."""
    from sudoku_cp.backends import make_backend

    compiled, python = (
        make_backend(spec, heuristic="conflicts").enumerate(puzzle, limit=limit)
        for spec in ("dfs:compiled", "dfs:python")
    )
    assert compiled.solutions == python.solutions and compiled.complete == python.complete
    for stat in ("guesses", "backtracks", "nodes"):
        assert compiled.stats[stat] == python.stats[stat], stat


# --- random constraints of the kinds (``rules.kinds``), as f-puzzles entries --------------------------

LINE_KEYS = (
    "renban",
    "whispers",
    "palindrome",
    "betweenline",
    "regionsumline",
    "entropicline",
    "modularline",
)


def _name(cell: int, n: int) -> str:
    return f"R{cell // n + 1}C{cell % n + 1}"


def _path(rng: random.Random, n: int, length: int, diagonal: bool = True) -> list[int]:
    """A line of at most ``length`` distinct cells, each a king's (or rook's) step from the one before."""
    cells = [rng.randrange(n * n)]
    steps = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0) and (diagonal or not a * b)]
    while len(cells) < length:
        r, c = divmod(cells[-1], n)
        options = [
            (r + a) * n + c + b
            for a, b in steps
            if 0 <= r + a < n and 0 <= c + b < n and (r + a) * n + c + b not in cells
        ]
        if not options:
            break
        cells.append(rng.choice(options))
    return cells


def _cell_of(name: str) -> tuple[int, int]:
    row, col = name[1:].split("C")
    return int(row), int(col)


def _outside(rng: random.Random, n: int) -> tuple[int, int]:
    side = rng.randrange(4)
    k = rng.randint(1, n)
    return [(0, k), (n + 1, k), (k, 0), (k, n + 1)][side]


def kind_entry(key: str, n: int, grid: tuple[int, ...], rng: random.Random) -> Any:
    """A random f-puzzles entry of the kind ``key``, its clue taken from ``grid`` where it has one (so
    that the constraint has solutions, though others may break it)."""
    names = lambda cells: [_name(c, n) for c in cells]  # noqa: E731
    if key in BUILT_IN_KEYS:
        return _built_in_entry(key, n, grid, rng)
    if key in LINE_KEYS:
        shortest = 1 if key in ("renban", "regionsumline") else 2
        e: dict[str, Any] = {"lines": [names(_path(rng, n, rng.randint(shortest, min(n, 5))))]}
        if len(e["lines"][0]) < shortest:
            e["lines"][0] = names(_path(rng, n, 2))
        if key == "whispers" and rng.random() < 0.3:
            e["value"] = str(rng.randint(1, n - 1))
        line = e["lines"][0]
        if key == "whispers" and len(line) >= 3 and rng.random() < 0.3:  # closed into a loop where it can be
            (r0, c0), (r1, c1) = (_cell_of(line[0]), _cell_of(line[-1]))
            if max(abs(r0 - r1), abs(c0 - c1)) == 1:
                line.append(line[0])
        return e
    if key == "littlekillersum":
        while True:
            corner = (rng.choice((0, n + 1)), rng.choice((0, n + 1)))
            clue = corner if rng.random() < 0.15 else _outside(rng, n)
            direction = rng.choice(list(DIRECTIONS))
            cells = line_from(clue, n, DIRECTIONS[direction])
            if cells:
                total = sum(grid[c] for c in cells)
                total += total < n * len(cells) and rng.random() < 0.2  # at times a clue no grid keeps
                return {"cell": f"R{clue[0]}C{clue[1]}", "direction": direction, "value": str(total)}
    if key in ("sandwichsum", "xsum", "skyscraper"):
        clue = _outside(rng, n)
        digits = [grid[c] for c in line_from(clue, n)]
        kind = BY_KEY[key]
        value = next(v for v in range(kind.high(n, n) + 1) if kind(clue, (), v).holds(digits, n))
        return {"cell": f"R{clue[0]}C{clue[1]}", "value": str(value)}
    if key in ("odd", "even", "minimum", "maximum"):
        return {"cell": _name(rng.randrange(n * n), n)}
    if key in ("rowindexer", "columnindexer", "boxindexer"):
        return {"cells": names(rng.sample(range(n * n), rng.randint(1, 2)))}
    if key == "quadruple":
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        cells = [r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1]
        values = rng.sample([grid[x] for x in cells], rng.randint(1, 3))
        return {"cells": names(cells), "values": values}
    if key == "clone":
        size = rng.randint(1, 3)
        shape = _path(rng, n, size, diagonal=False)
        for _ in range(50):
            dr, dc = rng.randint(-n + 1, n - 1), rng.randint(-n + 1, n - 1)
            moved = [(x // n + dr, x % n + dc) for x in shape]
            copy = [r * n + c for r, c in moved if 0 <= r < n and 0 <= c < n]
            if len(copy) == len(shape) and not set(copy) & set(shape):
                return {"cells": names(shape), "cloneCells": names(copy)}
        return {"cells": names([0]), "cloneCells": names([n * n - 1])}
    raise AssertionError(f"no generator for {key}")


#: The keys of the kinds that ``Rules`` holds in fields of their own.
BUILT_IN_KEYS = ("extraregion", "killercage", "thermometer", "arrow", "difference", "ratio", "xv", "negative")


def _distinct(cells: Sequence[int], grid: tuple[int, ...]) -> list[int]:
    """``cells`` but those whose digit in ``grid`` an earlier one holds."""
    seen: dict[int, int] = {}
    for c in cells:
        seen.setdefault(grid[c], c)
    return list(seen.values())


def _neighbours(rng: random.Random, n: int) -> tuple[int, int]:
    """Two cells side by side or one above the other."""
    r, c = rng.randrange(n), rng.randrange(n - 1)
    return (r * n + c, r * n + c + 1) if rng.random() < 0.5 else (c * n + r, (c + 1) * n + r)


def _built_in_entry(key: str, n: int, grid: tuple[int, ...], rng: random.Random) -> Any:
    """A random entry of a built-in kind (a negative rule's: its name), kept by ``grid`` most times."""
    names = lambda cells: [_name(c, n) for c in cells]  # noqa: E731
    wrong = rng.random() < 0.15  # at times a clue no grid keeps
    if key == "negative":
        return rng.choice(["difference", "ratio", "xv"])
    if key == "extraregion":
        return {"cells": names(_distinct(rng.sample(range(n * n), rng.randint(1, n)), grid))}
    if key == "killercage":
        cells = _distinct(_path(rng, n, rng.randint(1, 4), diagonal=False), grid)
        if rng.random() < 0.25:
            return {"cells": names(cells)}
        total = sum(grid[c] for c in cells) + wrong
        return {"cells": names(cells), "value": str(min(total, n * (n + 1) // 2))}
    if key == "thermometer":
        cells = sorted(_distinct(rng.sample(range(n * n), rng.randint(1, 4)), grid), key=lambda c: grid[c])
        return {"lines": [names(cells[::-1] if wrong else cells)]}
    if key == "arrow":
        circle = [rng.randrange(n * n)]
        if rng.random() < 0.1 and circle[0] % n < n - 1:  # a pill of two cells
            circle.append(circle[0] + 1)
        others = [c for c in range(n * n) if c not in circle]
        value = int("".join(str(grid[c]) for c in circle)) if n < 10 else grid[circle[0]]
        line = rng.sample(others, rng.randint(1, 3))
        for _ in range(50):
            if sum(grid[c] for c in line) == value or wrong:
                break
            line = rng.sample(others, rng.randint(1, 3))
        return {"cells": names(circle), "lines": [names([circle[-1], *line])]}
    a, b = _neighbours(rng, n)
    x, y = sorted((grid[a], grid[b]))
    cells = names((a, b))
    if key == "difference":
        return {"cells": cells, "value": str(y - x if not wrong else rng.randint(1, n - 1))}
    if key == "ratio":
        return {"cells": cells, "value": str(y // x if y % x == 0 and not wrong else rng.randint(2, n))}
    mark = {10: "X", 5: "V"}.get(x + y) if not wrong else None
    return {"cells": cells, "value": mark or rng.choice("XV")}


def models_per_assignment(
    clauses: list[list[int]], first: int, used: int, cells: Sequence[int], n: int
) -> Iterator[tuple[tuple[int, ...], int]]:
    """For every assignment of digits to ``cells``, how many models the clauses have with it fixed (0, 1,
    or 2 for "more than one"), told apart by the auxiliaries ``first`` to ``first + used - 1``: a fresh
    variable per assignment guards the clause that blocks its first model."""
    from pysat.solvers import Solver

    guard = first + used
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        for digits in itertools.product(range(1, n + 1), repeat=len(cells)):
            fixed = [
                (c * n + d) * (1 if d == digits[i] else -1)
                for i, c in enumerate(cells)
                for d in range(1, n + 1)
            ]
            models = 0
            if solver.solve(assumptions=fixed):
                guard += 1
                solver.add_clause(
                    [-guard, *(-x for x in solver.get_model() if first <= abs(x) < first + used)]
                )
                models = 1 + solver.solve(assumptions=[*fixed, guard])
            yield digits, models
