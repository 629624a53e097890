"""Basic fish: for one digit, k rows (the base) whose places lie in k columns (the cover) between them;
each cover column's digit is in one of the base rows, so it leaves the columns' other cells. The same
with rows and columns swapped. X-wing (k = 2, 3.2 on Sudoku Explainer's scale), swordfish (3, 3.8),
jellyfish (4, 5.2). Rows and columns are houses under every ``Rules``, so fish work on variants too.
"""

from __future__ import annotations

from itertools import combinations

from ..grid import symbol
from .board import Board, house_name
from .step import Step, Technique

__all__ = ["FISH", "basic_fish"]

#: Size -> (name, difficulty).
FISH = {2: ("X-wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def basic_fish(size: int) -> Technique:
    """The technique finding fish of ``size`` base lines."""
    name, difficulty = FISH[size]

    def find(board: Board) -> Step | None:
        rules, n = board.rules, board.n
        houses = rules.houses
        for digit in range(1, n + 1):
            for base_first in (0, n):  # rows as the base, then columns
                cover_first = n - base_first
                lines = []
                for line in range(base_first, base_first + n):
                    places = board.places(houses[line], digit)
                    if 2 <= len(places) <= size:
                        cover = {_cross(cell, n, base_first) for cell in places}
                        lines.append((line, places, cover))
                for chosen in combinations(lines, size):
                    cover = set().union(*(c for _, _, c in chosen))
                    if len(cover) != size:
                        continue
                    body = {cell for _, places, _ in chosen for cell in places}
                    eliminations = tuple(
                        (cell, digit)
                        for k in sorted(cover)
                        for cell in board.places(houses[cover_first + k], digit)
                        if cell not in body
                    )
                    if not eliminations:
                        continue
                    base = tuple(line for line, _, _ in chosen)
                    covers = tuple(cover_first + k for k in sorted(cover))
                    reason = (
                        f"{symbol(digit)} in {', '.join(house_name(rules, b) for b in base)} lies in "
                        f"{', '.join(house_name(rules, c) for c in covers)}"
                    )
                    cells = tuple(sorted(body))
                    return Step(
                        name, difficulty, rules, (), eliminations, cells, (digit,), base + covers, reason
                    )
        return None

    find.__name__ = name.lower().replace("-", "_")
    find.__doc__ = f"{name}: {size} lines whose places of a digit lie in {size} crossing lines."
    return find


def _cross(cell: int, n: int, base_first: int) -> int:
    """The index of the crossing line through ``cell``: its column for a row base, its row otherwise."""
    return cell % n if base_first == 0 else cell // n
