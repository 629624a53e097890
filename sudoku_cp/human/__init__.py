"""Human-style solving: named techniques, one logical step at a time, rated on Sudoku Explainer's scale.

``walk(puzzle)`` gives the whole logical solution (``Walkthrough``: steps, result, ``SERating``);
``hint(puzzle)`` the next step only, ``nth_step(puzzle, k)`` the k-th; a hint and a walk's step draw
themselves on their candidates (``Hint.draw``, ``Walkthrough.draw(k)``, the ``draw`` extra). One module
per family of techniques: ``singles``, ``intersections``, ``subsets``, ``fish``, ``wings``, ``uniqueness``,
``chains``, ``forcing``. On classic puzzles up to 9x9 with one solution the walk is Sudoku Explainer's own
(``sudoku_cp.se``; ``se_walks`` tells, ``explainer=False`` asks for sudoku-cp's).
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
    nth_step,
    se_walks,
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
    "nth_step",
    "se_walks",
    "solve_steps",
    "walk",
]
