"""Thermometers (f-puzzles ``thermometer``: ``{"lines": [[bulb, ...], ...]}``, one thermometer a line):
digits strictly increase from the bulb.

``Rules.thermos`` holds them: the backends read them natively (the thermometer kernel in dfs, ``<`` in
CP-SAT, order clauses in CNF).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..constraints import Pair, cell_name
from . import entries
from .base import Forms, Mark, Variant
from .lines import grown_lines

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["Thermo"]

#: The colour of a thermometer's bulb and line.
GREY = "#c8c8c8"


@dataclass(frozen=True)
class Thermo(Variant):
    """A thermometer: digits strictly increase from the bulb, ``cells[0]``."""

    cells: tuple[int, ...]
    kind: ClassVar[str] = "thermometer"
    label: ClassVar[str] = "thermo"
    key: ClassVar[str] = "thermometer"
    field: ClassVar[str] = "thermos"

    def holds(self, digits: Sequence[int], n: int = 0) -> bool:
        return all(a < b for a, b in itertools.pairwise(digits))

    def consistent(self, digits: Sequence[int], n: int = 0) -> bool:
        """Filled digits k places apart along the line must be at least k apart in value."""
        filled = [(i, d) for i, d in enumerate(digits) if d]
        return all(d2 - d1 >= i2 - i1 for (i1, d1), (i2, d2) in itertools.pairwise(filled))

    def forms(self, n: int) -> Forms:
        return Forms(
            pairs=tuple(Pair(a, b, "less", source=self.kind) for a, b in itertools.pairwise(self.cells))
        )

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """About n / 2 thermometers of 3 to 6 cells, each grown from its bulb over king's steps to ever
        higher digits of the grid."""
        n = rules.n

        def keeps(digits: list[int]) -> bool:  # every growing prefix still rises
            return all(a < b for a, b in itertools.pairwise(digits))

        return [cls(line) for line in grown_lines(grid, n, rng, keeps, max(1, n // 2), min(6, n), shortest=3)]

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        lines = entries.listed(entry.get("lines"), "thermometer's lines")
        return [cls(entries.cell_list(line, rules.n, "thermometer")) for line in lines]

    def write(self, n: int) -> dict[str, Any]:
        return {"lines": [[entries.name(c, n) for c in self.cells]]}

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("bulb", self.cells, GREY, width=0.3, radius=0.36),)

    def describe(self, n: int) -> str:
        return f"thermometer from {cell_name(self.cells[0], n)}"
