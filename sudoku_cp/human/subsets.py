"""Naked and hidden subsets in a house: k open cells holding only k digits between them (naked: those digits
leave the house's other cells), or k digits with only k places (hidden: the cells keep only those digits).

Sudoku Explainer 1.2.1's difficulties: naked pair 3.0, hidden pair 3.4, naked triple 3.6, hidden triple
4.0, naked quad 5.0, hidden quad 5.4.
"""

from __future__ import annotations

from itertools import combinations

from ..grid import symbol
from ..rules.constraints import cell_name
from ..wording import listing
from .board import Board, cells_of, digits_of, house_name
from .step import Step, Technique

__all__ = ["SUBSETS", "hidden_subset", "naked_subset"]

_NAMES = {2: "pair", 3: "triple", 4: "quad"}
#: (size, naked?) -> difficulty.
SUBSETS = {(2, True): 3.0, (2, False): 3.4, (3, True): 3.6, (3, False): 4.0, (4, True): 5.0, (4, False): 5.4}
#: Size -> difficulty of SE's direct hidden subsets (a hidden single follows at once).
DIRECT = {2: 2.0, 3: 2.5}


def naked_subset(size: int) -> Technique:
    """The technique finding naked subsets of ``size`` cells."""

    def find(board: Board) -> Step | None:
        rules = board.rules
        barren = board.memo.setdefault(f"no naked {size}", {})
        for h, house in enumerate(rules.houses):
            key = board.house_changes[h]  # a subset depends on the house's candidates alone
            if barren.get(h) == key:
                continue
            open_ = [c for c in house if not board.values[c]]
            if len(open_) <= size:
                continue
            small = [c for c in open_ if board.masks[c].bit_count() <= size]
            for cells in combinations(small, size):
                union = 0
                for c in cells:
                    union |= board.masks[c]
                if union.bit_count() != size:
                    continue
                eliminations = tuple(
                    (c, d) for c in open_ if c not in cells for d in digits_of(board.masks[c] & union)
                )
                if not eliminations:
                    continue
                digits = tuple(digits_of(union))
                reason = (
                    f"{listing([cell_name(c, rules.n) for c in cells])} hold only "
                    f"{listing([symbol(d) for d in digits])} in {house_name(rules, h)}"
                )
                name = f"Naked {_NAMES[size]}"
                return Step(name, SUBSETS[size, True], rules, (), eliminations, cells, digits, (h,), reason)
            barren[h] = key
        return None

    find.__name__ = f"naked_{_NAMES[size]}"
    find.__doc__ = f"Naked {_NAMES[size]}: {size} cells of a house with {size} candidates between them."
    return find


def hidden_subset(size: int, direct: bool = False) -> Technique:
    """The technique finding hidden subsets of ``size`` digits; with ``direct``, only those whose
    eliminations leave a hidden single, which they place (SE's direct hidden pair 2.0 and triple 2.5)."""

    def find(board: Board) -> Step | None:
        rules = board.rules
        # a house's subsets, and the singles they leave there, depend on that house alone
        barren = board.memo.setdefault(f"no {'direct ' if direct else ''}hidden {size}", {})
        for h in range(len(rules.houses)):
            key = board.house_changes[h]  # a subset depends on the house's candidates alone
            if barren.get(h) == key:
                continue
            places = _places(board, h)
            if len(places) > size:
                few = [d for d, cells in places.items() if 2 <= cells.bit_count() <= size]
            else:
                few = []
            for digits in combinations(few, size):
                union = 0
                for d in digits:
                    union |= places[d]
                if union.bit_count() != size:
                    continue
                cells = cells_of(union)
                keep = sum(1 << (d - 1) for d in digits)
                eliminations = tuple((c, d) for c in cells for d in digits_of(board.masks[c] & ~keep))
                if not eliminations:
                    continue
                reason = (
                    f"{listing([symbol(d) for d in digits])} have only "
                    f"{listing([cell_name(c, rules.n) for c in cells])} in {house_name(rules, h)}"
                )
                name, difficulty, houses = f"Hidden {_NAMES[size]}", SUBSETS[size, False], (h,)
                placements: tuple[tuple[int, int], ...] = ()
                if direct:  # SE's direct hidden subsets: a hidden single in the same house
                    single = _single_left(board, eliminations, h)
                    if single is None:
                        continue
                    where_h, cell, digit = single
                    name, difficulty = f"Direct hidden {_NAMES[size]}", DIRECT[size]
                    placements, houses = ((cell, digit),), (h, where_h)
                    reason += f", so {symbol(digit)} has one place left in {house_name(rules, where_h)}"
                return Step(name, difficulty, rules, placements, eliminations, cells, digits, houses, reason)
            barren[h] = key
        return None

    find.__name__ = f"{'direct_' if direct else ''}hidden_{_NAMES[size]}"
    find.__doc__ = f"Hidden {_NAMES[size]}: {size} digits of a house with {size} places between them."
    return find


def _places(board: Board, h: int) -> dict[int, int]:
    """Each digit not placed in house ``h``, with its places there as a bit set: kept while the house's
    cells stay (every hidden subset technique asks it)."""
    return board.kept("house places", h, board.house_changes[h], _make_places)


def _make_places(board: Board, h: int) -> dict[int, int]:
    bits, placed, where = board.geometry.house_bits[h], board.placed_cells, board.candidate_cells
    return {d + 1: where[d] & bits for d in range(board.n) if not placed[d] & bits}


def _single_left(
    board: Board, eliminations: tuple[tuple[int, int], ...], h: int
) -> tuple[int, int, int] | None:
    """The first hidden single the eliminations leave in house ``h``, digit by digit: (house, cell,
    digit), or None."""
    gone: dict[int, int] = {}
    for cell, digit in eliminations:
        gone[digit] = gone.get(digit, 0) | 1 << cell
    for digit in sorted(gone):
        single = board.single_after(digit, gone[digit], (h,))
        if single is not None:
            return single[0], single[1], digit
    return None
