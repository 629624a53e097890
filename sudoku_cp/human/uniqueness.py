"""Uniqueness techniques: steps that hold only because the puzzle has exactly one solution.

- Unique rectangle, type 1 (4.5 on Sudoku Explainer's scale): four open cells on two rows, two columns
  and two boxes, three of them holding only {a, b}: were the fourth a or b too, a and b could be swapped
  in all four and the puzzle would have two solutions; so the fourth loses a and b.
- BUG+1 (bivalue universal grave, 5.6): every open cell has two candidates but one, which has three; were
  that cell's odd digit gone, each house would hold each digit twice, a pattern of two solutions; so the
  cell takes the digit its row, column and box hold three times.

Both read the classic layout's argument (swapping digits keeps every rule); on rules with more than rows,
columns and boxes or regions (diagonals, anti-knight, cages, dots...) a swap may break a rule, so they are
skipped there. They run only on a puzzle whose one solution the SAT solver has checked, and say so.
"""

from __future__ import annotations

from itertools import combinations

from ..grid import symbol
from ..rules.constraints import cell_name
from .board import Board, digits_of, plain_layout
from .forcing import unique_board
from .step import Step

__all__ = ["bug_plus_one", "unique_rectangle"]

#: Why a uniqueness step may be taken, in every such step's reason.
CHECKED = "the puzzle has one solution (checked by the SAT solver)"


def _applies(board: Board) -> bool:
    """Plain rows, columns and boxes or regions, and a puzzle of one solution."""
    return plain_layout(board.rules) and unique_board(board)


def unique_rectangle(board: Board) -> Step | None:
    """Unique rectangle type 1: the fourth corner of an {a,b} rectangle over two boxes loses a and b."""
    rules, n = board.rules, board.n
    masks, values = board.masks, board.values
    region = rules.region_of
    bivalue = [not v and bin(m).count("1") == 2 for m, v in zip(masks, values, strict=True)]
    for r1 in range(n):  # any three corners include two bivalue ones on one row
        row = [c for c in range(r1 * n, r1 * n + n) if bivalue[c]]
        for x, y in combinations(row, 2):
            ab = masks[x]
            if masks[y] != ab:
                continue
            c1, c2 = x % n, y % n
            for r2 in range(n):
                if r2 == r1:
                    continue
                p, q = r2 * n + c1, r2 * n + c2
                if values[p] or values[q] or len({region[x], region[y], region[p], region[q]}) != 2:
                    continue
                if bivalue[p] and masks[p] == ab and masks[q] & ab == ab and masks[q] != ab:
                    last = q
                elif bivalue[q] and masks[q] == ab and masks[p] & ab == ab and masks[p] != ab:
                    last = p
                else:
                    continue
                if not _applies(board):
                    return None
                return _rectangle_step(board, (x, y, p, q), last, ab)
    return None


def _rectangle_step(board: Board, corners: tuple[int, ...], last: int, ab: int) -> Step:
    n = board.n
    pairs = [c for c in corners if c != last]
    eliminations = tuple((last, d) for d in digits_of(ab))
    a, b = (symbol(d) for d in digits_of(ab))
    reason = (
        f"{', '.join(cell_name(c, n) for c in sorted(pairs))} hold only {a}{b}; {cell_name(last, n)} "
        f"as {a} or {b} would let {a} and {b} swap: two solutions, but {CHECKED}"
    )
    cells = tuple(sorted(corners))
    return Step(
        "Unique rectangle", 4.5, board.rules, (), eliminations, cells, tuple(digits_of(ab)), (), reason
    )


def bug_plus_one(board: Board) -> Step | None:
    """BUG+1: all open cells bivalue but one trivalue cell, which takes its thrice-seen digit."""
    rules, n = board.rules, board.n
    masks, values = board.masks, board.values
    open_ = board.open_cells()
    wide = [c for c in open_ if bin(masks[c]).count("1") != 2]
    if len(wide) != 1 or bin(masks[wide[0]]).count("1") != 3:
        return None
    (cell,) = wide
    odd = None
    for house in rules.houses:
        counts = [sum(1 for c in house if not values[c] and masks[c] >> (d - 1) & 1) for d in range(1, n + 1)]
        extra = [d + 1 for d, k in enumerate(counts) if k not in (0, 2)]
        if cell not in house:
            if extra:
                return None  # not a BUG pattern
            continue
        if len(extra) != 1 or counts[extra[0] - 1] != 3 or (odd is not None and odd != extra[0]):
            return None
        odd = extra[0]
    if odd is None or not masks[cell] >> (odd - 1) & 1 or not _applies(board):
        return None
    reason = (
        f"every other open cell has two candidates; without {symbol(odd)} in {cell_name(cell, n)} each "
        f"house would hold each digit twice, a pattern of two solutions, but {CHECKED}"
    )
    houses = rules.houses_of[cell]
    return Step("BUG+1", 5.6, rules, ((cell, odd),), (), (cell,), (odd,), houses, reason)
