"""One logical step: what a technique found, what it places or eliminates, and why, in words and as data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..grid import Rules, symbol
from ..rules.constraints import cell_name
from .board import house_name

if TYPE_CHECKING:
    from .board import Board

__all__ = ["Link", "Step", "Technique"]

#: A link of a chain between two candidates ``(cell, digit)``: strong (at least one is true) or weak.
Link = tuple[tuple[int, int], tuple[int, int], bool]


@dataclass(frozen=True)
class Step:
    """A technique's finding on a board of ``rules``.

    ``placements`` and ``eliminations`` are ``(cell, digit)`` pairs; ``cells``, ``digits`` and ``houses``
    (indices of ``Rules.houses``) are the pattern, for a front end to draw, with a chain's ``links`` in
    order; ``reason`` says why in words (``only place for 7 in box 5``). ``difficulty`` is on Sudoku
    Explainer's scale (1.0 to 11+).
    """

    technique: str
    difficulty: float
    rules: Rules
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    reason: str = ""
    links: tuple[Link, ...] = ()

    def placement_names(self) -> list[str]:
        """``["r1c2=5"]``."""
        return [f"{cell_name(c, self.rules.n)}={symbol(d)}" for c, d in self.placements]

    def elimination_names(self) -> list[str]:
        """``["r3c4<>7"]``, in cell order then digit order."""
        return [f"{cell_name(c, self.rules.n)}<>{symbol(d)}" for c, d in sorted(self.eliminations)]

    @property
    def text(self) -> str:
        """One line: ``Hidden single: r4c5=7 (only place for 7 in box 5)``."""
        what = ", ".join(self.placement_names() + self.elimination_names())
        return f"{self.technique}: {what}" + (f" ({self.reason})" if self.reason else "")

    def link_names(self) -> list[str]:
        """The links in Eureka notation, ``=`` strong and ``-`` weak: ``["r1c2:5=r1c8:5"]``."""
        n = self.rules.n
        name = lambda node: f"{cell_name(node[0], n)}:{symbol(node[1])}"  # noqa: E731 - a short local helper
        return [f"{name(a)}{'=' if strong else '-'}{name(b)}" for a, b, strong in self.links]

    def to_dict(self) -> dict[str, Any]:
        """The fields of ``sudoku-cp steps --output-format jsonl`` (without the puzzle and step numbers)."""
        return {
            "technique": self.technique,
            "difficulty": self.difficulty,
            "placements": self.placement_names(),
            "eliminations": self.elimination_names(),
            "pattern": {
                "cells": [cell_name(c, self.rules.n) for c in self.cells],
                "digits": list(self.digits),
                "houses": [house_name(self.rules, h) for h in self.houses],
                "links": self.link_names(),
            },
            "text": self.text,
        }


#: A technique: the first step it finds on a board, or None.
Technique = Callable[["Board"], Step | None]
