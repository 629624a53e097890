"""Killer cages (f-puzzles ``killercage``: ``{"cells": [...], "value": "15"}``): the cage's digits all
differ, and add up to its ``value`` when it has one (1 to n(n+1)/2; missing or empty: no sum).

``Rules.cages`` holds them: the model reads each cage as a group, and the backends reason on a sum by its
digit sets and the sums the houses imply (``rules.sums``), the compiled cage kernel in dfs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import RulesError, UnsupportedRuleError
from ..constraints import cell_name
from . import entries
from .base import Forms, Mark, Variant

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["MAX_CAGE", "Cage", "random_cages"]

#: The colour of a cage's outline and sum.
INK = "#303030"
#: The largest cage drawn by default (setters' cages are mostly 2 to 5 cells).
MAX_CAGE = 5


def _top(n: int) -> int:
    """The largest sum a cage of an n x n grid states in f-puzzles."""
    return n * (n + 1) // 2


@dataclass(frozen=True)
class Cage(Variant):
    """A killer cage: its digits all differ, and add up to ``total`` when one is given."""

    cells: tuple[int, ...]
    total: int | None = None
    kind: ClassVar[str] = "killer cage"
    key: ClassVar[str] = "killercage"
    field: ClassVar[str] = "cages"
    label: ClassVar[str] = "killer"

    def __post_init__(self) -> None:
        total = self.total
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
            raise RulesError(f"a killer cage's total is a whole number or None, not {total!r}")

    @property
    def checked(self) -> bool:
        return self.total is not None  # without a sum, the model's group is the whole rule

    def holds(self, digits: Sequence[int], n: int = 0) -> bool:
        return len(set(digits)) == len(digits) and (self.total is None or sum(digits) == self.total)

    def consistent(self, digits: Sequence[int], n: int = 0) -> bool:
        """False when the filled digits (0 for blank) already break the cage."""
        filled = [d for d in digits if d]
        if len(set(filled)) != len(filled):
            return False
        if self.total is None:
            return True
        if len(filled) == len(digits):
            return sum(filled) == self.total
        return sum(filled) < self.total

    def linear(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The cage as a sum (``rules.sums``): its cells, each with coefficient 1, and its total."""
        assert self.total is not None
        return self.cells, (1,) * len(self.cells), self.total

    def forms(self, n: int) -> Forms:
        return Forms(
            groups=(self.cells,) if len(self.cells) > 1 else (),
            sums=(self.linear(),) if self.total is not None else (),
        )

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        n = rules.n
        cells = entries.cell_list(entry.get("cells"), n, "killer cage")
        return [cls(cells, entries.number(entry.get("value"), "killer cage", None, 1, _top(n)))]

    def write(self, n: int) -> dict[str, Any]:
        if self.total is not None and not 1 <= self.total <= _top(n):
            raise UnsupportedRuleError(f"a killer cage of an f-puzzles {n}x{n} grid sums to 1 to {_top(n)}")
        value = {"value": str(self.total)} if self.total is not None else {}
        return {"cells": [entries.name(c, n) for c in self.cells], **value}

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Cages covering the grid (``random_cages``), each with the sum of its digits."""
        return [cls(cage, sum(grid[c] for c in cage)) for cage in random_cages(grid, rules, rng)]

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("cage", self.cells, INK, text="" if self.total is None else str(self.total)),)

    def describe(self, n: int) -> str:
        where = cell_name(self.cells[0], n)
        return f"killer cage at {where}" + (f" (sum {self.total})" if self.total is not None else "")


def random_cages(
    grid: Sequence[int], rules: Rules, rng: random.Random, max_cage: int = MAX_CAGE
) -> list[tuple[int, ...]]:
    """Cages covering every cell, each grown from a random cell over orthogonal neighbours to a random size
    of 2 to ``max_cage`` or n (smaller where no neighbour fits), with no digit of ``grid`` twice in one
    cage."""
    n = rules.n
    max_cage = min(max_cage, n)  # a cage of distinct digits holds n cells at most
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
