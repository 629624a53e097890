"""Every constraint kind beyond the built-in rules, one module each (lines, outside clues, cell marks),
and the registry: adding a kind is its module and one line in ``KINDS``.

``tests/test_kinds.py`` enumerates ``KINDS`` and fails for a kind without a check, an f-puzzles entry read
and written back, forms every backend knows, or a picture.
"""

from __future__ import annotations

from .base import Forms, Mark, Variant, drawable
from .cells import Clone, Even, Maximum, Minimum, Odd, Quadruple
from .indexers import BoxIndexer, ColumnIndexer, RowIndexer
from .lines import BetweenLine, EntropicLine, ModularLine, Palindrome, RegionSumLine, Renban, Whispers
from .outside import LittleKiller, Sandwich, Skyscraper, XSum

__all__ = ["BY_KEY", "KINDS", "Forms", "Mark", "Variant", "drawable"]

#: The registry, in the order f-puzzles writes the keys.
KINDS: tuple[type[Variant], ...] = (
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
