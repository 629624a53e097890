"""Human-style solving: named techniques, one logical step at a time, rated on Sudoku Explainer's scale.

``walk(puzzle)`` gives the whole logical solution (``Walkthrough``: steps, result, ``SERating``);
``next_step(Board.of(puzzle))`` the next step only (a hint). One module per family of techniques:
``singles``, ``intersections``, ``subsets``, ``fish``, ``wings``.
"""

from __future__ import annotations

from .board import Board
from .engine import TECHNIQUES, SERating, Walkthrough, next_step, solve_steps, walk
from .step import Step

__all__ = ["TECHNIQUES", "Board", "SERating", "Step", "Walkthrough", "next_step", "solve_steps", "walk"]
