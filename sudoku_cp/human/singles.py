"""Singles: the steps that place a digit. Difficulties from Sudoku Explainer 1.2.1: full house (the last
open cell of a house) 1.0, hidden single in a box 1.2, in any other house 1.5, naked single 2.3."""

from __future__ import annotations

from collections.abc import Iterable

from ..grid import symbol
from ..rules.constraints import cell_name
from .board import Board, digits_of, house_name
from .step import Step

__all__ = ["full_house", "hidden_single_box", "hidden_single_line", "naked_single"]


def full_house(board: Board) -> Step | None:
    """The one open cell of a house takes the digit the house lacks."""
    rules, open_bits = board.rules, board.open_bits
    for h, bits in enumerate(board.geometry.house_bits):
        left = open_bits & bits
        if not left or left & (left - 1):
            continue
        cell = left.bit_length() - 1
        missing = ((1 << board.n) - 1) & ~board.placed_in(rules.houses[h])
        if missing & (missing - 1) or not missing & board.masks[cell]:
            continue  # a broken board: left to the contradiction check
        (digit,) = digits_of(missing)
        reason = f"last open cell of {house_name(rules, h)}"
        return Step("Full house", 1.0, rules, ((cell, digit),), (), (cell,), (digit,), (h,), reason)
    return None


def _hidden_single(board: Board, houses: Iterable[int], difficulty: float) -> Step | None:
    rules, house_bits = board.rules, board.geometry.house_bits
    placed, where = board.placed_cells, board.candidate_cells
    for h in houses:
        bits = house_bits[h]
        for d in range(board.n):
            places = where[d] & bits
            if not places or places & (places - 1) or placed[d] & bits:
                continue
            cell, digit = places.bit_length() - 1, d + 1
            reason = f"only place for {symbol(digit)} in {house_name(rules, h)}"
            return Step(
                "Hidden single", difficulty, rules, ((cell, digit),), (), (cell,), (digit,), (h,), reason
            )
    return None


def hidden_single_box(board: Board) -> Step | None:
    """A digit with one place left in a box (or jigsaw region)."""
    n = board.n
    return _hidden_single(board, range(2 * n, 3 * n), 1.2)


def hidden_single_line(board: Board) -> Step | None:
    """A digit with one place left in a row, a column or an extra house (a diagonal, a window...)."""
    n = board.n
    houses = [*range(2 * n), *range(3 * n, len(board.rules.houses))]
    return _hidden_single(board, houses, 1.5)


def naked_single(board: Board) -> Step | None:
    """An open cell with one candidate left."""
    rules = board.rules
    for cell in board.open_cells():
        mask = board.masks[cell]
        if mask and not mask & (mask - 1):
            digit = mask.bit_length()
            reason = f"the only candidate left in {cell_name(cell, rules.n)}"
            return Step("Naked single", 2.3, rules, ((cell, digit),), (), (cell,), (digit,), (), reason)
    return None
