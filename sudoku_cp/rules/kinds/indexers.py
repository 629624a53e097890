"""Indexing cells (f-puzzles ``rowindexer``, ``columnindexer``, ``boxindexer``: ``{"cells": [...]}``, each
cell listed an indexer): the digit in an indexing cell says where, in a house through it, its own index
stands.

- column indexer: a digit v in row r, column c says that row r holds c in column v;
- row indexer: a digit v in row r, column c says that column c holds r in row v;
- box indexer: a digit v at position p of its box (or region; positions in reading order) says that the
  box holds p at position v.

Each is the house through the cell (``house``: the row, the column or the box, in order) and the cell's
index in it; digit v in the cell and any digit but the index at ``house[v - 1]`` are barred together:
pairs of a ``table`` relation.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..constraints import Pair
from . import entries
from .base import Forms, Mark, Variant

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["BoxIndexer", "ColumnIndexer", "RowIndexer"]


class _Indexer(Variant):
    """``cells``: the indexing cell, then the rest of ``house``; the cell's index is its place in
    ``house`` plus one."""

    cell: int
    house: tuple[int, ...]

    @property
    def cells(self) -> tuple[int, ...]:  # type: ignore[override]
        return self.house

    @property
    def index(self) -> int:
        return self.house.index(self.cell) + 1

    @classmethod
    @abstractmethod
    def through(cls, cell: int, rules: Rules) -> tuple[int, ...]:
        """The house through ``cell`` that its digit indexes, in order."""

    def holds(self, digits: Sequence[int], n: int) -> bool:
        v = digits[self.index - 1]
        return 1 <= v <= len(self.house) and digits[v - 1] == self.index

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        v = digits[self.index - 1]
        return not v or not digits[v - 1] or digits[v - 1] == self.index

    def forms(self, n: int) -> Forms:
        index = self.index
        pairs = []
        for v, target in enumerate(self.house, start=1):
            if target != self.cell:
                table = frozenset(
                    (x, y) for x in range(1, n + 1) for y in range(1, n + 1) if x != v or y == index
                )
                pairs.append(Pair(self.cell, target, "table", source=self.kind, table=table))
        return Forms(pairs=tuple(pairs))

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        cells = entries.cell_list(entry.get("cells"), rules.n, cls.kind)
        return [cls(cell, cls.through(cell, rules)) for cell in cells]  # type: ignore[call-arg]

    def write(self, n: int) -> dict[str, Any]:
        return {"cells": [entries.name(self.cell, n)]}

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("shade", (self.cell,), "#ffc0c0"),)

    def claim(self, n: int) -> dict[str, Any]:
        return {"cell": self.cell}

    def describe(self, n: int) -> str:
        return f"{self.kind} at {entries.name(self.cell, n)}"


@dataclass(frozen=True)
class ColumnIndexer(_Indexer):
    cell: int
    house: tuple[int, ...]
    kind: ClassVar[str] = "column indexer"
    key: ClassVar[str] = "columnindexer"

    @classmethod
    def through(cls, cell: int, rules: Rules) -> tuple[int, ...]:
        row = cell // rules.n
        return tuple(row * rules.n + c for c in range(rules.n))


@dataclass(frozen=True)
class RowIndexer(_Indexer):
    cell: int
    house: tuple[int, ...]
    kind: ClassVar[str] = "row indexer"
    key: ClassVar[str] = "rowindexer"

    @classmethod
    def through(cls, cell: int, rules: Rules) -> tuple[int, ...]:
        col = cell % rules.n
        return tuple(r * rules.n + col for r in range(rules.n))


@dataclass(frozen=True)
class BoxIndexer(_Indexer):
    cell: int
    house: tuple[int, ...]
    kind: ClassVar[str] = "box indexer"
    key: ClassVar[str] = "boxindexer"

    @classmethod
    def through(cls, cell: int, rules: Rules) -> tuple[int, ...]:
        return tuple(sorted(rules.regions[rules.region_of[cell]]))

    def claim(self, n: int) -> dict[str, Any]:
        return {"cell": self.cell, "house": list(self.house)}
