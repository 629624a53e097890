"""Marks on the edge between two cells, and the negative rules that read them (f-puzzles ``difference``,
``ratio``, ``xv``: ``{"cells": [a, b], "value": ...}``; ``negative``: a list of names).

- kropki white dot: the two digits are ``value`` apart (1 to n - 1; missing or empty: 1);
- kropki black dot: one digit is ``value`` times the other (2 to n; missing or empty: 2);
- X and V: the two digits add up to 10 and to 5;
- negative rules (``difference``, ``ratio``, ``xv``): every two neighbours without a mark of the family
  break it (for kropki, every value of the dots on the grid, or the default).

``Rules.dots`` holds the marks as ``Pair`` values and ``Rules.negative`` the names: the model reads them
as pairs, which every backend and the certificate know.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import ParseError, RulesError, UnsupportedRuleError
from ..constraints import Pair
from . import entries
from .base import Forms, Mark, Variant

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["NEGATIVE", "BlackDot", "Negative", "WhiteDot", "XVMark", "negative_pairs"]

#: The negative rules by name.
NEGATIVE = ("difference", "ratio", "xv")
#: The ink of the marks.
INK = "#000000"


class _Dot(Variant):
    """A mark on two cells, ``Pair(cells..., relation, value)`` in ``Rules.dots``."""

    cells: tuple[int, ...]
    value: int
    relation: ClassVar[str]
    field: ClassVar[str] = "dots"

    @property
    def checked(self) -> bool:
        return False  # a pair of the model

    def pair(self) -> Pair:
        a, b = self.cells
        return Pair(a, b, self.relation, self.value, source=self.source)

    @property
    def source(self) -> str:
        return self.kind

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return self.pair().allows(*digits)

    def forms(self, n: int) -> Forms:
        return Forms(pairs=(self.pair(),))

    @classmethod
    def stored(cls, rules: Rules) -> tuple[Variant, ...]:
        return tuple(cls(d.cells, d.value) for d in rules.dots if d.relation == cls.relation)  # type: ignore[call-arg]

    def stored_as(self) -> Any:
        return self.pair()

    def describe(self, n: int) -> str:
        return self.pair().describe(n)

    @staticmethod
    @abstractmethod
    def fitting(a: int, b: int) -> int | None:
        """The value of the mark of this family that digits ``a`` and ``b`` keep, or None (``drawn``)."""

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Up to n marks, at random, between orthogonal neighbours whose digits keep one (no negative
        rule: a neighbour without a mark says nothing)."""
        n = rules.n
        found: list[Variant] = []
        for a in range(rules.ncells):
            r, c = divmod(a, n)
            for b in (a + 1 if c + 1 < n else -1, a + n if r + 1 < n else -1):
                if b >= 0 and (value := cls.fitting(grid[a], grid[b])) is not None:
                    found.append(cls((a, b), value))  # type: ignore[call-arg]
        return sorted(rng.sample(found, min(len(found), n)), key=lambda v: v.cells)


class _Kropki(_Dot):
    default: ClassVar[int]
    low: ClassVar[int]  # the values from ``low`` to n + ``high``
    high: ClassVar[int]

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        n = rules.n
        cells = entries.cell_list(entry.get("cells"), n, cls.kind, count=2)
        value = entries.number(entry.get("value"), cls.kind, cls.default, cls.low, n + cls.high)
        return [cls(cells, value or cls.default)]  # type: ignore[call-arg]

    def write(self, n: int) -> dict[str, Any]:
        if not self.low <= self.value <= n + self.high:
            raise UnsupportedRuleError(
                f"a {self.kind} holds its value from {self.low} to {n + self.high} in f-puzzles"
            )
        return {"cells": [entries.name(c, n) for c in self.cells], "value": str(self.value)}


@dataclass(frozen=True)
class WhiteDot(_Kropki):
    cells: tuple[int, ...]
    value: int = 1
    kind: ClassVar[str] = "kropki white dot"
    label: ClassVar[str] = "dots"
    key: ClassVar[str] = "difference"
    relation: ClassVar[str] = "difference"
    default: ClassVar[int] = 1
    low: ClassVar[int] = 1
    high: ClassVar[int] = -1

    @staticmethod
    def fitting(a: int, b: int) -> int | None:
        return 1 if abs(a - b) == 1 else None  # the usual white dot

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("dot", self.cells, INK, filled=False),)


@dataclass(frozen=True)
class BlackDot(_Kropki):
    cells: tuple[int, ...]
    value: int = 2
    kind: ClassVar[str] = "kropki black dot"
    label: ClassVar[str] = "dots"
    key: ClassVar[str] = "ratio"
    relation: ClassVar[str] = "ratio"
    default: ClassVar[int] = 2
    low: ClassVar[int] = 2
    high: ClassVar[int] = 0

    @staticmethod
    def fitting(a: int, b: int) -> int | None:
        return 2 if a == 2 * b or b == 2 * a else None  # the usual black dot

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("dot", self.cells, INK),)


@dataclass(frozen=True)
class XVMark(_Dot):
    """X (the two digits add up to 10) or V (to 5)."""

    cells: tuple[int, ...]
    value: int = 10
    kind: ClassVar[str] = "XV"
    label: ClassVar[str] = "dots"
    key: ClassVar[str] = "xv"
    relation: ClassVar[str] = "sum"

    @property
    def source(self) -> str:
        return {10: "X", 5: "V"}.get(self.value, self.kind)

    @staticmethod
    def fitting(a: int, b: int) -> int | None:
        return a + b if a + b in (5, 10) else None

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        cells = entries.cell_list(entry.get("cells"), rules.n, "XV mark", count=2)
        mark = entry.get("value")
        if not isinstance(mark, str) or mark.upper() not in ("X", "V"):
            raise ParseError(f"an f-puzzles xv mark must be X or V, not {entries.shown(mark)}")
        return [cls(cells, 10 if mark.upper() == "X" else 5)]

    def write(self, n: int) -> dict[str, Any]:
        if self.value not in (5, 10):
            raise UnsupportedRuleError("f-puzzles marks sums of two cells as X (10) or V (5) only")
        return {"cells": [entries.name(c, n) for c in self.cells], "value": self.source}

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("dot", self.cells, INK, text=self.source if self.value in (5, 10) else str(self.value)),)


@dataclass(frozen=True)
class Negative(Variant):
    """A negative rule by name (``difference``, ``ratio``, ``xv``): it has no cells of its own, its pairs
    are the grid's unmarked neighbours (``forms_in``), and its check is theirs (``holds_in``)."""

    name: str
    cells: tuple[int, ...] = ()
    kind: ClassVar[str] = "negative"
    key: ClassVar[str] = "negative"
    field: ClassVar[str] = "negative"
    worded: ClassVar[bool] = True
    counted: ClassVar[bool] = False

    @property
    def tag(self) -> str:
        return f"negative-{self.name}"

    def __post_init__(self) -> None:
        if self.name not in NEGATIVE:
            raise RulesError(f"unknown negative rule {self.name!r} (known: {', '.join(NEGATIVE)})")

    @property
    def checked(self) -> bool:
        return False  # pairs of the model

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return True  # no cells of its own: ``holds_in`` reads the grid

    def holds_in(self, grid: Sequence[int], rules: Rules) -> bool:
        return all(p.allows(grid[p.a], grid[p.b]) for p in self.forms_in(rules).pairs)

    def forms(self, n: int) -> Forms:
        return Forms(pairs=negative_pairs(n, (), (self.name,)))

    def forms_in(self, rules: Rules) -> Forms:
        return Forms(pairs=negative_pairs(rules.n, rules.dots, (self.name,)))

    @classmethod
    def read_key(cls, value: Any, rules: Rules) -> list[Variant]:
        names = entries.listed(value, "negative rule list")
        if not all(isinstance(k, str) for k in names):
            raise ParseError("f-puzzles key 'negative' must be a list of names (difference, ratio, xv)")
        return [cls(name) for name in sorted(set(names))]

    @classmethod
    def read(cls, entry: Any, rules: Rules) -> list[Variant]:
        """The rule one name states."""
        return cls.read_key([entry], rules)

    def write(self, n: int) -> Any:
        return self.name

    def marks(self, n: int) -> tuple[Mark, ...]:
        return ()

    @classmethod
    def stored(cls, rules: Rules) -> tuple[Variant, ...]:
        return tuple(cls(name) for name in rules.negative)

    def stored_as(self) -> Any:
        return self.name

    def describe(self, n: int) -> str:
        return f"negative rule ({self.name})"


def negative_pairs(n: int, dots: Sequence[Pair], negative: Sequence[str]) -> tuple[Pair, ...]:
    """The pairs the ``negative`` rules forbid: every two neighbours without a mark of its own family (a
    kropki dot for negative kropki, an X or a V for negative XV). A mark of the other family exempts
    nothing: under negative XV, a white dot's pair still may not add up to 5 or 10."""
    if not negative:
        return ()
    kropki = {frozenset(d.cells) for d in dots if d.relation in ("difference", "ratio")}
    xv = {frozenset(d.cells) for d in dots if d.relation == "sum"}
    values: dict[str, set[int]] = {"difference": set(), "ratio": set(), "sum": set()}
    for d in dots:
        if d.relation in values:
            values[d.relation].add(d.value)
    kinds = []
    if "difference" in negative:
        kinds += [
            ("difference", v, "negative kropki (white)", kropki) for v in sorted(values["difference"] or {1})
        ]
    if "ratio" in negative:
        kinds += [("ratio", v, "negative kropki (black)", kropki) for v in sorted(values["ratio"] or {2})]
    if "xv" in negative:
        kinds += [("sum", v, "negative XV", xv) for v in (5, 10)]
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        for other in ((cell + 1) if c + 1 < n else None, (cell + n) if r + 1 < n else None):
            if other is None:
                continue
            pair = frozenset((cell, other))
            out += [
                Pair(cell, other, rel, v, negated=True, source=src)
                for rel, v, src, marked in kinds
                if pair not in marked
            ]
    return tuple(out)
