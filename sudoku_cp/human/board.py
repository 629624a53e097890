"""The state a human solver works on: the digits placed so far and every other cell's candidates.

Candidates are bit masks (bit ``d - 1`` for digit ``d``), as in ``sudoku_cp.candidates``. Placing a digit
removes it from the cell's peers (every rule of ``Rules.peers``: houses, groups, differ pairs), the
bookkeeping every technique takes for granted. Techniques read houses from ``Rules.houses`` (rows,
columns, boxes or regions, then extra houses such as diagonals and windows), so they work on variants.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..candidates import Candidates
from ..grid import Puzzle, Rules, symbol
from ..rules import NAMED
from ..rules.constraints import cell_name

__all__ = ["Board", "digits_of", "house_name"]


class Board:
    """Placed digits and candidates of one puzzle, changed in place by steps (``apply``)."""

    def __init__(self, candidates: Candidates) -> None:
        puzzle = candidates.puzzle
        self.rules: Rules = puzzle.rules
        self.n = puzzle.n
        self.values = list(puzzle.cells)
        self.masks = list(candidates.masks)
        #: What techniques keep between steps of one walk (a solver); ``forcing.release`` empties it.
        self.memo: dict[str, Any] = {}
        for cell, digit in enumerate(self.values):
            if digit:
                self._clear_peers(cell, 1 << (digit - 1))

    @classmethod
    def of(cls, start: Puzzle | Candidates) -> Board:
        """A board from a puzzle (its first pencilmarks) or from given candidates (pencilmark input)."""
        return cls(start if isinstance(start, Candidates) else Candidates.of(start))

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` in ``cell`` and take it from the cell's peers."""
        bit = 1 << (digit - 1)
        self.values[cell] = digit
        self.masks[cell] = bit
        self._clear_peers(cell, bit)

    def _clear_peers(self, cell: int, bit: int) -> None:
        masks = self.masks
        for peer in self.rules.peers[cell]:
            masks[peer] &= ~bit

    def eliminate(self, cell: int, digit: int) -> None:
        self.masks[cell] &= ~(1 << (digit - 1))

    def open_cells(self) -> list[int]:
        """The cells without a digit yet, in order."""
        return [cell for cell, v in enumerate(self.values) if not v]

    def places(self, house: tuple[int, ...], digit: int) -> list[int]:
        """The open cells of ``house`` where ``digit`` is still a candidate (empty if it is placed there)."""
        bit = 1 << (digit - 1)
        values, masks = self.values, self.masks
        return [cell for cell in house if not values[cell] and masks[cell] & bit]

    def open_digits(self, house: tuple[int, ...]) -> list[tuple[int, list[int]]]:
        """Each digit not placed in ``house`` yet, with its places there (``places``), in digit order."""
        placed = self.placed_in(house)
        return [(d, self.places(house, d)) for d in range(1, self.n + 1) if not placed >> (d - 1) & 1]

    def placed_in(self, house: tuple[int, ...]) -> int:
        """The mask of the digits placed in ``house``."""
        out = 0
        for cell in house:
            if d := self.values[cell]:
                out |= 1 << (d - 1)
        return out

    @property
    def solved(self) -> bool:
        return all(self.values)

    def broken(self) -> str | None:
        """Why the board has no solution (an open cell without candidates, a house that cannot hold a
        digit, a rule broken by the digits placed), or None."""
        rules, n = self.rules, self.n
        for cell, v in enumerate(self.values):
            if not v and not self.masks[cell]:
                return f"{cell_name(cell, n)} has no candidate left"
        for h, house in enumerate(rules.houses):
            seen = self.placed_in(house)
            for cell in house:
                if not self.values[cell]:
                    seen |= self.masks[cell]
            if seen != (1 << n) - 1:
                missing = next(d for d in range(1, n + 1) if not seen >> (d - 1) & 1)
                return f"{symbol(missing)} has no place in {house_name(rules, h)}"
        if not rules.is_valid(self.values):
            return "the digits placed break a rule"
        return None

    def candidates(self) -> Candidates:
        """The board as a ``Candidates`` value of the puzzle of its placed digits."""
        return Candidates(Puzzle(self.rules, tuple(self.values)), tuple(self.masks))


def digits_of(mask: int) -> list[int]:
    """The digits of a candidate mask, increasing."""
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out


def house_name(rules: Rules, h: int) -> str:
    """``row 1``, ``column 3``, ``box 5`` (``region 5`` on a jigsaw), ``the diagonal``, ``window 2``..."""
    return _house_names(rules)[h]


@cache
def _house_names(rules: Rules) -> tuple[str, ...]:
    n = rules.n
    names = [f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
    region = "box" if rules.box is not None else "region"
    names += [f"{region} {i + 1}" for i in range(len(rules.regions))]
    for rule in rules.named:  # in the order of Rules.houses
        houses, _ = NAMED[rule](n, rules.box)
        if len(houses) == 1:
            names.append({"diagonal-": "the diagonal", "diagonal+": "the anti-diagonal"}.get(rule, rule))
            continue
        word = {"windoku": "window", "disjoint": "disjoint group"}.get(rule, f"{rule} house")
        names += [f"{word} {i + 1}" for i in range(len(houses))]
    while len(names) < len(rules.houses):
        names.append(f"extra region {len(names) - 3 * n + 1}")
    return tuple(names)
