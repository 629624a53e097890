"""Human-style solving: named techniques, one logical step at a time, rated on Sudoku Explainer's scale.

``walk(puzzle)`` gives the whole logical solution (``Walkthrough``: steps, result, ``SERating``);
``hint(puzzle)`` the next step only. One module per family of techniques:
``singles``, ``intersections``, ``subsets``, ``fish``, ``wings``.
"""

from __future__ import annotations

from .board import Board
from .engine import (
    FAMILIES,
    TECHNIQUES,
    Hint,
    SERating,
    Walkthrough,
    family,
    hint,
    next_step,
    solve_steps,
    walk,
)
from .step import Step

__all__ = [
    "FAMILIES",
    "TECHNIQUES",
    "Board",
    "Hint",
    "SERating",
    "Step",
    "Walkthrough",
    "family",
    "hint",
    "next_step",
    "solve_steps",
    "walk",
]
