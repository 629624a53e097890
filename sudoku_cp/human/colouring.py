"""Simple colouring (single's chains): one digit's conjugate pairs, the houses where it has exactly two
places, joined into clusters and coloured in two colours, so that one colour holds the digit wherever
the other does not.

- Colour wrap: two cells of one colour see each other, so that colour cannot be true: the digit leaves
  all its cells.
- Colour trap: a cell outside the cluster sees a cell of each colour; one of them holds the digit, so
  the cell does not.

Sudoku Explainer has no colouring: a trap is one of its X-chains, a wrap an X-chain that contradicts
itself. So colouring runs after the X-chains (which find most traps) and is rated as an X-chain as long as
its cluster (6.5 plus SE's length modifier).
"""

from __future__ import annotations

from ..grid import symbol
from ..rules.constraints import cell_name
from ..wording import listing
from .board import Board, cells_of
from .chains import length_bonus
from .step import Step

__all__ = ["simple_colouring"]


def simple_colouring(board: Board) -> Step | None:
    """The first colour wrap, else the first colour trap, of the digits in order."""
    n = board.n
    house_bits, peer_bits = board.geometry.house_bits, board.geometry.peer_bits
    barren = board.memo.setdefault("no colouring", {})
    for digit in range(1, n + 1):
        where = board.candidate_cells[digit - 1]
        if barren.get(digit) == where:
            continue  # nothing found with these candidate cells already
        partner: dict[int, list[int]] = {}
        for bits in house_bits:
            places = where & bits
            if places.bit_count() == 2:
                a, b = cells_of(places)
                partner.setdefault(a, []).append(b)
                partner.setdefault(b, []).append(a)
        seen: set[int] = set()
        for first in sorted(partner):
            if first in seen:
                continue
            colour = {first: 0}
            order = [first]
            for cell in order:  # breadth first over the conjugate pairs: alternate colours
                for other in partner[cell]:
                    if other not in colour:
                        colour[other] = 1 - colour[cell]
                        order.append(other)
            seen.update(order)
            step = _wrap(board, digit, colour) or _trap(board, digit, colour, where, peer_bits)
            if step is not None:
                return step
        barren[digit] = where
    return None


def _step(board: Board, digit: int, colour: dict[int, int], eliminated: list[int], reason: str) -> Step:
    rules = board.rules
    cells = tuple(sorted(colour))
    links = tuple(
        ((a, digit), (b, digit), True)
        for a in cells
        for b in cells
        if a < b and any(board.places_in(h, digit) == (1 << a | 1 << b) for h in rules.houses_of[a])
    )
    difficulty = round(6.5 + length_bonus(len(cells)), 1)
    eliminations = tuple((c, digit) for c in sorted(eliminated))
    return Step("Simple colouring", difficulty, rules, (), eliminations, cells, (digit,), (), reason, links)


def _wrap(board: Board, digit: int, colour: dict[int, int]) -> Step | None:
    n, peers = board.n, board.geometry.peer_bits
    for side in (0, 1):
        cells = [c for c, k in sorted(colour.items()) if k == side]
        bits = sum(1 << c for c in cells)
        for cell in cells:
            if peers[cell] & bits:
                other = (peers[cell] & bits).bit_length() - 1
                pair = f"{cell_name(cell, n)} and {cell_name(other, n)}"
                named = listing([cell_name(c, n) for c in cells])
                reason = (
                    f"colour wrap on {symbol(digit)}: {pair} have one colour and see each other, so that "
                    f"colour ({named}) is false"
                )
                return _step(board, digit, colour, cells, reason)
    return None


def _trap(
    board: Board, digit: int, colour: dict[int, int], where: int, peer_bits: tuple[int, ...]
) -> Step | None:
    n = board.n
    sides = [sum(1 << c for c, k in colour.items() if k == side) for side in (0, 1)]
    outside = where & ~(sides[0] | sides[1])
    gone = [c for c in cells_of(outside) if peer_bits[c] & sides[0] and peer_bits[c] & sides[1]]
    if not gone:
        return None
    one, two = ((peer_bits[gone[0]] & side).bit_length() - 1 for side in sides)
    reason = (
        f"colour trap on {symbol(digit)}: {cell_name(one, n)} or {cell_name(two, n)}, of the two colours, "
        f"holds it, and {listing([cell_name(c, n) for c in gone])} see{'s' if len(gone) == 1 else ''} both"
    )
    return _step(board, digit, colour, gone, reason)
