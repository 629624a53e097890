"""Grids made on the spot, of any box shape, for tests, benchmarks and notebooks where no data set fits."""

from __future__ import annotations

import random

from .grid import Puzzle, Rules

__all__ = ["blanked", "pattern_grid"]


def pattern_grid(rules: Rules, seed: int) -> Puzzle:
    """A full grid of any box shape by the shifted-rows pattern, its digits relabelled at random.

    >>> pattern_grid(Rules.classic(2, 2), seed=0).to_string()
    '3124243112434312'
    """
    r, c, n = rules.box_rows, rules.box_cols, rules.n
    relabel = list(range(1, n + 1))
    random.Random(seed).shuffle(relabel)
    return Puzzle(
        rules, tuple(relabel[(c * (row % r) + row // r + col) % n] for row in range(n) for col in range(n))
    )


def blanked(grid: Puzzle, fraction: float, seed: int) -> Puzzle:
    """``grid`` with a seeded random ``fraction`` of its cells emptied (one solution or more)."""
    cells = list(grid.cells)
    for cell in random.Random(seed).sample(range(len(cells)), int(fraction * len(cells))):
        cells[cell] = 0
    return Puzzle(grid.rules, tuple(cells))
