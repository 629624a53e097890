"""The grid model: ``Rules`` (houses, groups, pairs, sums and orders) and its constraint values."""

from __future__ import annotations

from .constraints import Pair
from .kinds import Arrow, Cage, Constraint, Thermo
from .kinds.arrows import pill_value
from .model import MAX_N, RULES_KEPT, Rules, Violation, boxes_of
from .named import ALIASES, NAMED, expand_names

__all__ = [
    "ALIASES",
    "MAX_N",
    "NAMED",
    "RULES_KEPT",
    "Arrow",
    "Cage",
    "Constraint",
    "Pair",
    "Rules",
    "Thermo",
    "Violation",
    "boxes_of",
    "expand_names",
    "pill_value",
]
