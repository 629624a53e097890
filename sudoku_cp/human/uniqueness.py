"""Uniqueness techniques: steps that hold only because the puzzle has exactly one solution.

- Unique rectangle, type 1 (4.5 on Sudoku Explainer's scale): four open cells on two rows, two columns
  and two boxes, three of them holding only {a, b}: were the fourth a or b too, a and b could be swapped
  in all four and the puzzle would have two solutions; so the fourth loses a and b.
- Unique rectangle, types 2 and 4 (4.6): two corners (the floor, on one line) hold only {a, b}, the other
  two (the roof) more. Type 2: the roof holds one more digit x, the same in both; were x in neither, the
  rectangle would be deadly, so x is in one of them and leaves every cell that sees both. Type 4: a or
  b has no other place in a house holding the roof; then the other digit would make the rectangle deadly,
  and leaves the roof.
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
from ..wording import listing
from .board import Board, cells_of, digits_of, house_name, plain_layout
from .probe import unique_board
from .step import Step

__all__ = ["bug_plus_one", "unique_rectangle", "unique_rectangle_more"]

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
        f"{listing([cell_name(c, n) for c in sorted(pairs)])} hold only {a} and {b}; {cell_name(last, n)} "
        f"as {a} or {b} would let {a} and {b} swap: two solutions, but {CHECKED}"
    )
    cells = tuple(sorted(corners))
    return Step(
        "Unique rectangle", 4.5, board.rules, (), eliminations, cells, tuple(digits_of(ab)), (), reason
    )


def unique_rectangle_more(board: Board) -> Step | None:
    """Unique rectangles of types 2 and 4: a floor of two {a,b} cells on one line, a roof with more."""
    rules, n = board.rules, board.n
    masks, values, region = board.masks, board.values, rules.region_of
    bivalue = [not v and m.bit_count() == 2 for m, v in zip(masks, values, strict=True)]
    for across in (True, False):  # floors on a row (roofs on another row), then on a column
        for line in range(n):
            cells = [line * n + k if across else k * n + line for k in range(n)]
            floor_cells = [c for c in cells if bivalue[c]]
            for x, y in combinations(floor_cells, 2):
                ab = masks[x]
                if masks[y] != ab:
                    continue
                for other in range(n):
                    if other == line:
                        continue
                    shift = (other - line) * (n if across else 1)
                    p, q = x + shift, y + shift
                    if values[p] or values[q] or len({region[x], region[y], region[p], region[q]}) != 2:
                        continue
                    if masks[p] & ab != ab or masks[q] & ab != ab or masks[p] == ab or masks[q] == ab:
                        continue  # not a roof over the floor (a type 1 has three floor cells)
                    corners = tuple(sorted((x, y, p, q)))
                    step = _type_2(board, corners, (p, q), ab) or _type_4(board, corners, (p, q), ab)
                    if step is not None:
                        return step if _applies(board) else None
    return None


def _type_2(board: Board, corners: tuple[int, ...], roof: tuple[int, ...], ab: int) -> Step | None:
    masks, n = board.masks, board.n
    extra = masks[roof[0]] & ~ab
    if masks[roof[1]] != masks[roof[0]] or extra.bit_count() != 1:
        return None
    x = extra.bit_length()
    seen = board.geometry.peer_bits[roof[0]] & board.geometry.peer_bits[roof[1]]
    targets = cells_of(board.candidate_cells[x - 1] & seen)
    if not targets:
        return None
    a, b = (symbol(d) for d in digits_of(ab))
    reason = (
        f"{listing([cell_name(c, n) for c in corners if c not in roof])} hold only {a} and {b}; without "
        f"{symbol(x)} in {cell_name(roof[0], n)} or {cell_name(roof[1], n)} {a} and {b} could swap: two "
        f"solutions, but {CHECKED}"
    )
    eliminations = tuple((c, x) for c in targets)
    digits = (*digits_of(ab), x)
    return Step("Unique rectangle type 2", 4.6, board.rules, (), eliminations, corners, digits, (), reason)


def _type_4(board: Board, corners: tuple[int, ...], roof: tuple[int, ...], ab: int) -> Step | None:
    rules, n = board.rules, board.n
    pair = (1 << roof[0]) | (1 << roof[1])
    shared = sorted(set(rules.houses_of[roof[0]]) & set(rules.houses_of[roof[1]]))
    for h in shared:
        for u, v in (digits_of(ab), digits_of(ab)[::-1]):
            if board.places_in(h, u) != pair:
                continue
            eliminations = tuple((c, v) for c in roof)
            reason = (
                f"{listing([cell_name(c, n) for c in corners if c not in roof])} hold only {symbol(u)} and "
                f"{symbol(v)}; {symbol(u)} has no other place in {house_name(rules, h)} than "
                f"{cell_name(roof[0], n)} and {cell_name(roof[1], n)}, so {symbol(v)} there would let "
                f"{symbol(u)} and {symbol(v)} swap: two solutions, but {CHECKED}"
            )
            return Step(
                "Unique rectangle type 4", 4.6, rules, (), eliminations, corners, (u, v), (h,), reason
            )
    return None


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
