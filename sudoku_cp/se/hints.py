"""A hint: what one of Sudoku Explainer's techniques found, and how applying it changes the grid.

Applying removes the hint's candidates first, then places its value when it has one (SE's indirect hints);
SE's direct techniques (direct pointing and claiming, direct hidden pairs and triplets) place their single
only, without the eliminations that justify it, and singles place. A hint "places" exactly when it has a
cell: what EP counts up to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .grid import Grid, bits

if TYPE_CHECKING:
    from .grid import Geometry

__all__ = ["Hint"]


@dataclass(eq=False)
class Hint:
    """One finding: ``name`` and ``difficulty`` as SE gives them, ``removable`` (cell -> mask, in the order
    SE fills it), and the placement ``cell``/``value`` (cell None: no placement).

    ``base`` and ``cover`` (region references ``(type, index)``), ``cells`` and ``digits`` describe the
    pattern of the basic techniques; the chaining techniques read them when the hint is used inside a
    chain (``parents``)."""

    name: str
    difficulty: float
    removable: dict[int, int] = field(default_factory=dict)
    cell: int | None = None
    value: int = 0
    kind: str = ""  # locking (pointing, claiming, fish), hidden (hidden set), naked (naked set)
    regions: tuple[tuple[int, int], ...] = ()  # locking: base1, cover1, base2, cover2, ...
    cells: tuple[int, ...] = ()
    digits: int = 0  # mask

    def apply(self, grid: Grid) -> None:
        for c, mask in self.removable.items():
            grid.cands[c] &= ~mask
        if self.cell is not None:
            grid.place(self.cell, self.value)

    def eliminations(self) -> list[tuple[int, int]]:
        """``(cell, digit)`` pairs removed, in the order SE holds them."""
        return [(c, d) for c, mask in self.removable.items() for d in bits(mask)]

    def parents(self, source: Grid, grid: Grid) -> list[tuple[int, int]]:
        """The candidates ``(cell, digit)`` removed since ``source`` that this hint rests on (what a chain
        that uses it as a step counts as its parents: SE's ``getRuleParents``)."""
        geo: Geometry = grid.geo
        out: dict[tuple[int, int], None] = {}
        if self.kind == "locking":
            digit = self.digits.bit_length()
            bit = 1 << (digit - 1)
            covers = [geo.regions[t][i] for t, i in self.regions[1::2]]
            covered = set().union(*covers) if covers else set()
            for t, i in self.regions[0::2]:
                for c in geo.regions[t][i]:
                    if source.cands[c] & bit and not grid.cands[c] & bit and c not in covered:
                        out.setdefault((c, digit))
        elif self.kind == "hidden":
            (t, i) = self.regions[0]
            for c in geo.regions[t][i]:
                if not grid.cands[c] & self.digits:
                    for d in bits(source.cands[c] & self.digits):
                        out.setdefault((c, d))
        elif self.kind == "naked":
            for c in self.cells:
                for d in bits(source.cands[c] & ~grid.cands[c] & ~self.digits):
                    out.setdefault((c, d))
        return list(out)
