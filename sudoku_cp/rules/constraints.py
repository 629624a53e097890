"""The pairwise rules of the ``Rules`` model (``Pair``), the form every backend reads pairs in, and the
user-facing names of cells. The sum and order constraints (``Cage``, ``Thermo``, ``Arrow``) are kinds of
``rules.kinds``, one module each, still importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..errors import RulesError

__all__ = ["Pair", "cell_name"]

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
            raise RulesError(f"unknown pair relation {self.relation!r} (known: {', '.join(RELATIONS)})")
        if self.a == self.b:
            raise RulesError(f"a {self.source or self.relation} rule needs two different cells")
        if (self.table is None) != (self.relation != "table"):
            raise RulesError("a pair has a table exactly when its relation is 'table'")

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


def __getattr__(name: str) -> object:
    """The sum and order constraints, which live with their kinds now (``rules.kinds``), by their old
    names here."""
    if name in ("Arrow", "Cage", "Constraint", "Thermo", "pill_value"):
        from . import kinds
        from .kinds import arrows

        return getattr(arrows if name == "pill_value" else kinds, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
