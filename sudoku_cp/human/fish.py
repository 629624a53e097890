"""Basic fish: for one digit, k rows (the base) whose places lie in k columns (the cover) between them;
each cover column's digit is in one of the base rows, so it leaves the columns' other cells. The same
with rows and columns swapped. X-wing (k = 2, 3.2 on Sudoku Explainer's scale), swordfish (3, 3.8),
jellyfish (4, 5.2). Rows and columns are houses under every ``Rules``, so fish work on variants too.

Finned fish: the same, but for some places (the fins) inside one box; what sees every fin and lies in
the cover lines goes (HoDoKu's finned and sashimi fish; rated beside the X-chains, see ``FINNED``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from ..grid import Rules, symbol
from ..rules import RULES_KEPT
from ..rules.constraints import cell_name
from ..wording import listing
from .board import Board, cells_of, compiled, house_name
from .step import Step, Technique

if TYPE_CHECKING:
    import numpy as np

__all__ = ["FINNED", "FISH", "basic_fish", "finned_fish"]

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
                lines = [  # the lines with 2 to size places, and the lines crossing them
                    (line, places, across)
                    for line, places, across in _base_lines(board, digit, base_first)
                    if places.bit_count() <= size
                ]
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
                    base = tuple(line for line, *_ in chosen)
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


@lru_cache(maxsize=RULES_KEPT)
def _crossings(rules: Rules, base_first: int) -> tuple[int, ...]:
    """Per cell, the bit of its crossing line: bit ``column`` for rows as the base (``base_first`` 0),
    bit ``row`` for columns."""
    n = rules.n
    return tuple(1 << (c % n if base_first == 0 else c // n) for c in range(rules.ncells))


#: Size -> (name, difficulty) of the finned fish. Sudoku Explainer has none: its nearest are the X-chains
#: (6.5 and up) that a fin's box turns the fish into, so they are rated just above them, by size.
FINNED = {2: ("Finned X-wing", 6.6), 3: ("Finned swordfish", 6.8), 4: ("Finned jellyfish", 7.0)}


def finned_fish(size: int) -> Technique:
    """The technique finding finned fish of ``size`` base lines: the base lines' places lie in ``size``
    cover lines but for some (the fins) inside one box. Either the fish holds, and the digit leaves the
    cover lines, or a fin is true: a cell of the cover lines inside the fins' box loses the digit both
    ways (sashimi fish, whose base lines keep one place outside the fins, are among them). The search is
    compiled (``fish_compiled``, which says which fish comes first); the step is read back here."""
    name, difficulty = FINNED[size]

    def find(board: Board) -> Step | None:
        import numpy as np

        rules, n = board.rules, board.n
        found = np.zeros(5, np.int64)
        search = compiled("fish_compiled")
        if not search.first_finned(board.open_masks(), _region_array(rules), n, size, found):
            return None
        digit, across, box, base_bits, cover_bits = found.tolist()
        base_first = n * across
        base = tuple(base_first + k for k in range(n) if base_bits >> k & 1)
        covers = tuple(n - base_first + k for k in range(n) if cover_bits >> k & 1)
        house_bits, where = board.geometry.house_bits, board.candidate_cells[digit - 1]
        base_cells = cover_cells = 0
        for line in base:
            base_cells |= house_bits[line]
        for line in covers:
            cover_cells |= house_bits[line]
        body = where & base_cells
        gone = where & cover_cells & house_bits[2 * n + box] & ~base_cells
        fin_names = listing([cell_name(c, n) for c in cells_of(body & ~cover_cells)])
        reason = (
            f"{symbol(digit)} in {', '.join(house_name(rules, b) for b in base)} lies in "
            f"{', '.join(house_name(rules, c) for c in covers)} but for {fin_names} in "
            f"{house_name(rules, 2 * n + box)}"
        )
        eliminations = tuple((cell, digit) for cell in cells_of(gone))
        houses = (*base, *covers, 2 * n + box)
        return Step(name, difficulty, rules, (), eliminations, cells_of(body), (digit,), houses, reason)

    find.__name__ = name.lower().replace("-", "_").replace(" ", "_")
    find.__doc__ = f"{name}: {size} lines whose places of a digit lie in {size} crossing lines, but for fins."
    return find


@lru_cache(maxsize=RULES_KEPT)
def _region_array(rules: Rules) -> np.ndarray:
    """``Rules.region_of`` as the compiled search takes it."""
    import numpy as np

    return np.array(rules.region_of, np.int64)


def _base_lines(board: Board, digit: int, base_first: int) -> list[tuple[int, int, int]]:
    """The lines (rows from ``base_first`` 0, columns from n) holding ``digit`` twice or more: each with its
    places and their crossing lines (bit ``column`` of a row). Kept while the digit's candidate cells
    stay: fish of every size ask the same."""
    return board.kept("fish lines", (digit, base_first), board.candidate_cells[digit - 1], _make_base_lines)


def _make_base_lines(board: Board, key: tuple[int, int]) -> list[tuple[int, int, int]]:
    digit, base_first = key
    house_bits, where = board.geometry.house_bits, board.candidate_cells[digit - 1]
    cross = _crossings(board.rules, base_first)
    lines = []
    for line in range(base_first, base_first + board.n):
        places = where & house_bits[line]
        if places.bit_count() >= 2:
            across = 0
            for cell in cells_of(places):
                across |= cross[cell]
            lines.append((line, places, across))
    return lines
