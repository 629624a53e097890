"""Killer puzzles with a proved unique solution: cages with sums cover the grid, and givens only where the
cages alone leave a choice.

For each puzzle: a random full grid; random cages grown over orthogonal neighbours (no digit twice in a
cage, sizes up to ``max_cage``: ``kinds.cages.random_cages``, what ``Cage.drawn`` draws for ``generate
--constraints killercage``), each given the sum of its digits; the givens then as for every puzzle whose
rules are drawn from its solution (``drawn.generate_drawn``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..errors import UsageError
from ..rules import Cage, Rules
from ..rules.kinds.cages import MAX_CAGE, random_cages
from .drawn import generate_drawn
from .generator import Generated
from .oracle import DEFAULT_SOLVER

__all__ = ["MAX_CAGE", "generate_killer", "random_cages"]


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
    if rules.cages:
        raise UsageError("the rules already have killer cages: give rules without them")

    def draw(grid: tuple[int, ...], rng: random.Random) -> Rules:
        cages = random_cages(grid, rules, rng, max_cage)
        return rules.with_(cages=[Cage(c, sum(grid[x] for x in c)) for c in cages])

    return generate_drawn(count, rules, draw, seed=seed, solver=solver)
