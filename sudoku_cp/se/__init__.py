"""Sudoku Explainer's rating, reproduced: the techniques of SE 1.2.1 in its order, with its choice of step.

Sudoku Explainer (Nicolas Juillerat, 2006-2007; version 1.2.1 with Glenn Fowler's batch rater ``serate``)
rates a puzzle by solving it one step at a time: at each step, the first hint of the first technique (in
its fixed order, ``rater.producers``) that finds anything is applied. ER is the hardest step, EP the hardest
up to the first placement, ED the first step's. The hardest-puzzle community ranks its lists by this ER, so
the facts of SE's walk are reproduced here (the order of its searches, its chain propagation, its
difficulty arithmetic), written anew from a reading of its public source.

Classic rules only (rows, columns and boxes of any shape); ``human.walk`` rates every other rule.
"""

from __future__ import annotations

from ..signals import held_compiles

held_compiles()  # SE's kernels load at the first step that needs each: a signal there must wait

from .rater import SERating, rate_se, se_walk  # noqa: E402 - after the hold is in place

__all__ = ["SERating", "rate_se", "se_walk"]
