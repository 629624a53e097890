"""Arrows (f-puzzles ``arrow``: ``{"cells": [circle...], "lines": [[circle's last cell, line...]]}``): the
digits along the line add up to the number in the circle (one cell, or a pill of several read left to
right and downwards). Digits may repeat along an arrow.

``Rules.arrows`` holds them: the backends read each as a weighted sum (``linear``, ``rules.sums``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import ParseError, UnsupportedRuleError
from ..constraints import cell_name
from . import entries
from .base import Forms, Mark, Variant
from .lines import searched_lines

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["Arrow", "pill_value"]

#: The colour of an arrow's circle and line.
INK = "#8c8c8c"


def pill_value(digits: Sequence[int]) -> int:
    """The number a circle or pill shows: its digits read in order as a decimal number."""
    value = 0
    for d in digits:
        value = value * 10 + d
    return value


@dataclass(frozen=True)
class Arrow(Variant):
    """An arrow: the digits along ``cells`` add up to the number in ``circle`` (one cell, or a pill of
    several read left to right and downwards). Digits may repeat along an arrow. An f-puzzles entry of
    several lines from one circle is as many arrows: each line adds up to the circle (as f-puzzles' own
    solver reads it, and as setters mean it)."""

    circle: tuple[int, ...]
    cells: tuple[int, ...]
    kind: ClassVar[str] = "arrow"
    key: ClassVar[str] = "arrow"
    field: ClassVar[str] = "arrows"

    @property
    def all_cells(self) -> tuple[int, ...]:
        return self.circle + self.cells

    def holds(self, digits: Sequence[int], n: int = 0) -> bool:
        k = len(self.circle)
        return pill_value(digits[:k]) == sum(digits[k:])

    def consistent(self, digits: Sequence[int], n: int = 0) -> bool:
        k = len(self.circle)
        if all(digits):
            return self.holds(digits)
        circle, line = digits[:k], digits[k:]
        if all(circle):  # the line's blanks hold at least 1 each
            return sum(d or 1 for d in line) <= pill_value(circle)
        return True

    def linear(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The arrow as a sum (``rules.sums``): the circle's digits weighted as a decimal number (the
        first of k cells by 10**(k-1), which ``pill_value`` computes for digits above 9 too) minus the
        line's, equal to 0."""
        k = len(self.circle)
        weights = tuple(10 ** (k - 1 - j) for j in range(k)) + (-1,) * len(self.cells)
        return self.all_cells, weights, 0

    def forms(self, n: int) -> Forms:
        return Forms(sums=(self.linear(),))

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        n = rules.n
        circle = tuple(sorted(entries.cell_list(entry.get("cells"), n, "arrow circle")))  # read left to right
        arrows: list[Variant] = []
        for part in entries.listed(entry.get("lines"), "arrow's lines"):
            line: list[int] = []
            for c in entries.cell_list(part, n, "arrow line"):
                if c not in circle and c not in line:
                    line.append(c)
            if line:
                arrows.append(cls(circle, tuple(line)))
        if not arrows:
            raise ParseError("an f-puzzles arrow needs a line beyond its circle")
        return arrows

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """About n / 2 arrows that share no cell (``searched_lines``): a circle and a line of one to four
        king's steps from it whose digits add up to the circle's."""

        def fits(line: tuple[int, ...]) -> bool:
            return len(line) > 1 and sum(grid[c] for c in line[1:]) == grid[line[0]]

        def grows(line: tuple[int, ...]) -> bool:
            return sum(grid[c] for c in line[1:]) < grid[line[0]]

        return [cls(line[:1], line[1:]) for line in searched_lines(rules.n, rng, fits, grows, 5)]

    def write(self, n: int) -> dict[str, Any]:
        if list(self.circle) != sorted(self.circle):
            raise UnsupportedRuleError(
                f"the {self.describe(n)}: f-puzzles reads a pill's digits left to right and downwards, "
                "not in the order of this one"
            )
        names = [entries.name(c, n) for c in self.all_cells]
        k = len(self.circle)
        return {"cells": names[:k], "lines": [names[k - 1 :]]}

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("pill", self.all_cells, INK, size=len(self.circle)),)

    def describe(self, n: int) -> str:
        return f"arrow from {cell_name(self.circle[0], n)}"
