"""Human-style solving: named techniques, one logical step at a time, rated on Sudoku Explainer's scale.

``walk(puzzle)`` gives the whole logical solution (``Walkthrough``: steps, result, ``SERating``);
``hint(puzzle)`` the next step only. One module per family of techniques:
``singles``, ``intersections``, ``subsets``, ``fish``, ``wings``.
"""

from __future__ import annotations

from .board import Board
from .engine import TECHNIQUES, Hint, SERating, Walkthrough, hint, next_step, solve_steps, walk
from .step import Step

__all__ = [
    "TECHNIQUES",
    "Board",
    "Hint",
    "SERating",
    "Step",
    "Walkthrough",
    "hint",
    "next_step",
    "solve_steps",
    "walk",
]
