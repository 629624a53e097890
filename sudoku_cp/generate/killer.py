"""Killer puzzles with a proved unique solution: cages with sums cover the grid, and givens only where the
cages alone leave a choice.

For each puzzle: a random full grid; random cages grown over orthogonal neighbours (no digit twice in a
cage, sizes up to ``max_cage``), each given the sum of its digits; the givens then as for every puzzle
whose rules are drawn from its solution (``drawn.generate_drawn``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..errors import UsageError
from ..rules import Cage, Rules
from .drawn import generate_drawn
from .generator import Generated
from .oracle import DEFAULT_SOLVER

__all__ = ["MAX_CAGE", "generate_killer", "random_cages"]

#: The largest cage drawn by default (setters' cages are mostly 2 to 5 cells).
MAX_CAGE = 5


def random_cages(
    grid: tuple[int, ...], rules: Rules, rng: random.Random, max_cage: int = MAX_CAGE
) -> list[tuple[int, ...]]:
    """Cages covering every cell, each grown from a random cell over orthogonal neighbours to a random size
    of 2 to ``max_cage`` (smaller where no neighbour fits), with no digit of ``grid`` twice in one cage."""
    n = rules.n
    free = set(range(rules.ncells))
    order = list(free)
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        cage, digits = [start], {grid[start]}
        free.discard(start)
        size = rng.randint(2, max(2, max_cage))
        while len(cage) < size:
            options = sorted(
                {nb for cell in cage for nb in _neighbours(cell, n) if nb in free and grid[nb] not in digits}
            )
            if not options:
                break
            pick = rng.choice(options)
            cage.append(pick)
            digits.add(grid[pick])
            free.discard(pick)
        cages.append(tuple(sorted(cage)))
    return cages


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [
        rr * n + cc
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < n and 0 <= cc < n
    ]


def generate_killer(
    count: int,
    rules: Rules | None = None,
    *,
    seed: int | str | None = None,
    max_cage: int = MAX_CAGE,
    solver: str = DEFAULT_SOLVER,
) -> Iterator[Generated]:
    """``count`` killer puzzles over ``rules`` (default classic 9x9; other rules are kept), each proved
    unique by an unsatisfiable SAT call; the same ``seed`` gives the same puzzles.

    >>> [k] = generate_killer(1, Rules.classic(2, 2), seed=3)
    >>> k.unique, len(k.puzzle.rules.cages) > 1, k.puzzle.rules.violations(k.solution.cells)
    (True, True, [])
    """
    rules = rules or Rules.classic(3, 3)
    if max_cage < 2:
        raise UsageError(f"cages hold at least 2 cells, not up to {max_cage}")
    max_cage = min(max_cage, rules.n)  # a cage of distinct digits holds n cells at most
    if rules.cages:
        raise UsageError("the rules already have killer cages: give rules without them")

    def draw(grid: tuple[int, ...], rng: random.Random) -> Rules:
        cages = random_cages(grid, rules, rng, max_cage)
        return rules.with_(cages=[Cage(c, sum(grid[x] for x in c)) for c in cages])

    return generate_drawn(count, rules, draw, seed=seed, solver=solver)
