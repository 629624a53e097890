"""Extra regions (f-puzzles ``extraregion``: ``{"cells": [...]}``): the cells hold different digits; a
region of n cells is one more house, holding every digit once.

``Rules.extra_regions`` holds each region's cells: the model reads the regions of n cells as houses and the
others as groups, so every backend and the certificate know them natively.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from . import entries
from .base import Forms, Mark, Variant

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["ExtraRegion"]

#: The shade of an extra house, as of windoku's windows.
SHADE = "#e6e6e6"


@dataclass(frozen=True)
class ExtraRegion(Variant):
    """An extra region: its ``cells`` hold different digits."""

    cells: tuple[int, ...]
    kind: ClassVar[str] = "extra region"
    key: ClassVar[str] = "extraregion"
    field: ClassVar[str] = "extra_regions"
    as_houses: ClassVar[bool] = True
    label: ClassVar[str] = "extra-regions"

    @property
    def checked(self) -> bool:
        return False  # a house or a group of the model

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return len(set(digits)) == len(digits)

    def forms(self, n: int) -> Forms:
        return Forms(groups=(self.cells,) if len(self.cells) > 1 else ())

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        return [cls(entries.cell_list(entry.get("cells"), rules.n, "extra region"))]

    def write(self, n: int) -> dict[str, Any]:
        return {"cells": [entries.name(c, n) for c in self.cells]}

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("shade", self.cells, SHADE),)

    @classmethod
    def stored(cls, rules: Rules) -> tuple[Variant, ...]:
        return tuple(cls(region) for region in rules.extra_regions)

    def stored_as(self) -> Any:
        return self.cells
