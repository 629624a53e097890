"""Basic fish: for one digit, k rows (the base) whose places lie in k columns (the cover) between them;
each cover column's digit is in one of the base rows, so it leaves the columns' other cells. The same
with rows and columns swapped. X-wing (k = 2, 3.2 on Sudoku Explainer's scale), swordfish (3, 3.8),
jellyfish (4, 5.2). Rows and columns are houses under every ``Rules``, so fish work on variants too.
"""

from __future__ import annotations

from itertools import combinations

from ..grid import symbol
from .board import Board, cells_of, house_name
from .step import Step, Technique

__all__ = ["FISH", "basic_fish"]

#: Size -> (name, difficulty).
FISH = {2: ("X-wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def basic_fish(size: int) -> Technique:
    """The technique finding fish of ``size`` base lines."""
    name, difficulty = FISH[size]

    def find(board: Board) -> Step | None:
        rules, n = board.rules, board.n
        house_bits = board.geometry.house_bits
        # a digit's fish depend on its candidate cells alone: a digit without one is not searched again
        # until they change
        barren = board.memo.setdefault(f"no {name}", {})
        for digit in range(1, n + 1):
            where = board.candidate_cells[digit - 1]
            if barren.get(digit) == where:
                continue
            for base_first in (0, n):  # rows as the base, then columns
                cover_first = n - base_first
                lines = []
                for line in range(base_first, base_first + n):
                    places = where & house_bits[line]
                    if 2 <= places.bit_count() <= size:
                        cover = 0
                        for cell in cells_of(places):
                            cover |= 1 << _cross(cell, n, base_first)
                        lines.append((line, places, cover))
                for chosen in combinations(lines, size):
                    cover = body = 0
                    for _, places, crossing in chosen:
                        cover |= crossing
                        body |= places
                    if cover.bit_count() != size:
                        continue
                    covers = tuple(cover_first + k for k in range(n) if cover >> k & 1)
                    eliminations = tuple(
                        (cell, digit) for c in covers for cell in cells_of(where & house_bits[c] & ~body)
                    )
                    if not eliminations:
                        continue
                    base = tuple(line for line, _, _ in chosen)
                    reason = (
                        f"{symbol(digit)} in {', '.join(house_name(rules, b) for b in base)} lies in "
                        f"{', '.join(house_name(rules, c) for c in covers)}"
                    )
                    cells = tuple(cells_of(body))
                    return Step(
                        name, difficulty, rules, (), eliminations, cells, (digit,), base + covers, reason
                    )
            barren[digit] = where
        return None

    find.__name__ = name.lower().replace("-", "_")
    find.__doc__ = f"{name}: {size} lines whose places of a digit lie in {size} crossing lines."
    return find


def _cross(cell: int, n: int, base_first: int) -> int:
    """The index of the crossing line through ``cell``: its column for a row base, its row otherwise."""
    return cell % n if base_first == 0 else cell // n
