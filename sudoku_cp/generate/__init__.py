"""Puzzle generation with SAT-proved uniqueness: minimal or sized clue sets, symmetric patterns, rated.

``generate`` is the entry point, ``generate_killer`` for killer puzzles; ``UniquenessOracle`` (the
incremental SAT solver that proves clue sets unique), ``reduce_clues`` (the core-guided clue removal) and
the ``symmetry`` module are its parts.
"""

from __future__ import annotations

from .generator import BLANK_LEVELS, KNOWN_MINIMUM_CLUES, Generated, GenerationError, block_size, generate
from .killer import generate_killer
from .oracle import DEFAULT_SOLVER, UniquenessOracle
from .reduce import reduce_clues
from .symmetry import SYMMETRIES, has_symmetry, orbits

__all__ = [
    "BLANK_LEVELS",
    "DEFAULT_SOLVER",
    "KNOWN_MINIMUM_CLUES",
    "SYMMETRIES",
    "Generated",
    "GenerationError",
    "UniquenessOracle",
    "block_size",
    "generate",
    "generate_killer",
    "has_symmetry",
    "orbits",
    "reduce_clues",
]
