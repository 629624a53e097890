"""Every constraint kind, one module each: the built-in ones (extra regions, killer cages, thermometers,
arrows, kropki and XV marks with the negative rules), lines, outside clues, cell marks; and the registry:
adding a kind is its module and one line in ``KINDS``.

``tests/test_kinds.py`` enumerates ``KINDS`` and fails for a kind without a check, an f-puzzles entry read
and written back, forms every backend knows (each backend finds exactly the grids the kind allows), or a
picture. A built-in kind keeps its constraints in a field of ``Rules`` of its own (``Variant.field``),
which the backends read natively; the registry test holds them all the same.
"""

from __future__ import annotations

from .arrows import Arrow
from .base import Forms, Mark, Variant, drawable
from .cages import Cage
from .cells import Clone, Even, Maximum, Minimum, Odd, Quadruple
from .dots import BlackDot, Negative, WhiteDot, XVMark
from .indexers import BoxIndexer, ColumnIndexer, RowIndexer
from .lines import BetweenLine, EntropicLine, ModularLine, Palindrome, RegionSumLine, Renban, Whispers
from .outside import LittleKiller, Sandwich, Skyscraper, XSum
from .regions import ExtraRegion
from .thermos import Thermo

__all__ = [
    "BY_KEY",
    "KINDS",
    "Arrow",
    "Cage",
    "Constraint",
    "Forms",
    "Mark",
    "Thermo",
    "Variant",
    "drawable",
]

#: The registry, in the order f-puzzles writes the keys (and ``Rules.kinds`` names them).
KINDS: tuple[type[Variant], ...] = (
    ExtraRegion,
    Cage,
    Thermo,
    Arrow,
    WhiteDot,
    BlackDot,
    XVMark,
    Negative,
    Renban,
    Whispers,
    Palindrome,
    BetweenLine,
    RegionSumLine,
    EntropicLine,
    ModularLine,
    LittleKiller,
    Sandwich,
    XSum,
    Skyscraper,
    Odd,
    Even,
    Minimum,
    Maximum,
    Quadruple,
    Clone,
    RowIndexer,
    ColumnIndexer,
    BoxIndexer,
)
#: Each kind by its f-puzzles key.
BY_KEY: dict[str, type[Variant]] = {kind.key: kind for kind in KINDS}
#: The sum and order constraints the backends read natively, by their older common name.
Constraint = Cage | Thermo | Arrow
