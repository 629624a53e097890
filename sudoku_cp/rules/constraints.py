"""The constraint values of the ``Rules`` model: pairwise rules and the sum and order constraints.

Each is a small frozen value that knows which cells it reads, whether digits satisfy it and how to name
itself in a message, so the check of a grid (``Rules.violations``) and every backend read the same data.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

__all__ = ["Arrow", "Cage", "Constraint", "Pair", "Thermo", "cell_name", "pill_value"]

#: Pairwise relations: ``differ`` (not the same digit), ``difference`` (digits ``value`` apart), ``ratio``
#: (one is ``value`` times the other), ``sum`` (the two add up to ``value``), ``less`` (the first cell's
#: digit is below the second's), ``apart`` (at least ``value`` apart), ``near`` (at most ``value`` apart),
#: ``equal`` (the same digit), and ``table`` (the digit pairs of ``table``, for rules no name states).
RELATIONS = ("differ", "difference", "ratio", "sum", "less", "apart", "near", "equal", "table")


def cell_name(cell: int, n: int) -> str:
    """The user-facing name of a cell, ``r1c1`` for cell 0."""
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


@dataclass(frozen=True)
class Pair:
    """A rule between two cells: ``relation`` with ``value`` must hold, or, ``negated``, must not.

    Anti-knight and anti-king are ``differ``; non-consecutive is ``difference 1`` negated; a white kropki
    dot is ``difference 1``, a black one ``ratio 2``; X and V are ``sum 10`` and ``sum 5``.
    ``source`` names the rule the pair comes from, for messages.
    """

    a: int
    b: int
    relation: str
    value: int = 0
    negated: bool = False
    source: str = ""
    table: frozenset[tuple[int, int]] | None = None

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(f"unknown pair relation {self.relation!r} (known: {', '.join(RELATIONS)})")
        if self.a == self.b:
            raise ValueError(f"a {self.source or self.relation} rule needs two different cells")
        if (self.table is None) != (self.relation != "table"):
            raise ValueError("a pair has a table exactly when its relation is 'table'")

    @property
    def cells(self) -> tuple[int, int]:
        return (self.a, self.b)

    def allows(self, x: int, y: int) -> bool:
        """True when digits ``x`` in ``a`` and ``y`` in ``b`` keep the rule."""
        if self.table is not None:
            return ((x, y) in self.table) != self.negated
        return _holds(self.relation, self.value, x, y) != self.negated

    def allowed(self, n: int) -> frozenset[tuple[int, int]]:
        """Every pair of digits 1..n the rule allows (the table CNF and CP-SAT encodings read)."""
        if self.table is not None:
            digits = range(1, n + 1)
            return frozenset((x, y) for x in digits for y in digits if self.allows(x, y))
        return _allowed(self.relation, self.value, self.negated, n)

    def describe(self, n: int) -> str:
        return f"{self.source or self.relation} {cell_name(self.a, n)}-{cell_name(self.b, n)}"


def _holds(relation: str, value: int, x: int, y: int) -> bool:
    if relation == "differ":
        return x != y
    if relation == "difference":
        return abs(x - y) == value
    if relation == "ratio":
        return x == value * y or y == value * x
    if relation == "sum":
        return x + y == value
    if relation == "less":
        return x < y
    if relation == "apart":
        return abs(x - y) >= value
    if relation == "near":
        return abs(x - y) <= value
    return x == y  # equal


@cache
def _allowed(relation: str, value: int, negated: bool, n: int) -> frozenset[tuple[int, int]]:
    digits = range(1, n + 1)
    return frozenset((x, y) for x in digits for y in digits if _holds(relation, value, x, y) != negated)


@dataclass(frozen=True)
class Cage:
    """A killer cage: its digits all differ, and add up to ``total`` when one is given."""

    cells: tuple[int, ...]
    total: int | None = None

    kind = "killer cage"

    def holds(self, digits: Sequence[int]) -> bool:
        return len(set(digits)) == len(digits) and (self.total is None or sum(digits) == self.total)

    def consistent(self, digits: Sequence[int]) -> bool:
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

    def describe(self, n: int) -> str:
        where = cell_name(self.cells[0], n)
        return f"killer cage at {where}" + (f" (sum {self.total})" if self.total is not None else "")


@dataclass(frozen=True)
class Thermo:
    """A thermometer: digits strictly increase from the bulb, ``cells[0]``."""

    cells: tuple[int, ...]

    kind = "thermometer"

    def holds(self, digits: Sequence[int]) -> bool:
        return all(a < b for a, b in itertools.pairwise(digits))

    def consistent(self, digits: Sequence[int]) -> bool:
        """Filled digits k places apart along the line must be at least k apart in value."""
        filled = [(i, d) for i, d in enumerate(digits) if d]
        return all(d2 - d1 >= i2 - i1 for (i1, d1), (i2, d2) in itertools.pairwise(filled))

    def describe(self, n: int) -> str:
        return f"thermometer from {cell_name(self.cells[0], n)}"


def pill_value(digits: Sequence[int]) -> int:
    """The number a circle or pill shows: its digits read in order as a decimal number."""
    value = 0
    for d in digits:
        value = value * 10 + d
    return value


@dataclass(frozen=True)
class Arrow:
    """An arrow: the digits along ``cells`` add up to the number in ``circle`` (one cell, or a pill of
    several read left to right and downwards). Digits may repeat along an arrow."""

    circle: tuple[int, ...]
    cells: tuple[int, ...]

    kind = "arrow"

    @property
    def all_cells(self) -> tuple[int, ...]:
        return self.circle + self.cells

    def holds(self, digits: Sequence[int]) -> bool:
        k = len(self.circle)
        return pill_value(digits[:k]) == sum(digits[k:])

    def consistent(self, digits: Sequence[int]) -> bool:
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

    def describe(self, n: int) -> str:
        return f"arrow from {cell_name(self.circle[0], n)}"


Constraint = Cage | Thermo | Arrow
