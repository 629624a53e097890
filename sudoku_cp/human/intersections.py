"""Locked candidates: a digit's places in a house all see some other cells, which cannot hold it.

On the classic layout that is pointing (the places in a box share a row or column: 2.6 on Sudoku
Explainer's scale) and claiming (the places in a row or column share a box: 2.8). Here any house and any
peers count (a diagonal's places inside one box, a box's places all seen by one anti-knight cell): such
steps are named ``Locked candidates`` and rated as claiming.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import reduce

from ..grid import symbol
from .board import Board, cells_of, house_name, plain_layout
from .step import Step

__all__ = [
    "claiming",
    "direct_claiming",
    "direct_pointing",
    "locked_candidates",
    "pointing",
]


def _locked(board: Board, kind: str) -> Step | None:
    if kind == "other":
        return _locked_other(board)
    return next(_pointing_or_claiming(board, kind, f"no {kind}"), None)


def _pointing_or_claiming(board: Board, kind: str, memo: str, direct: bool = False) -> Iterator[Step]:
    """Every pointing (places of a digit in a box on one line) or claiming (in a line, inside one box)
    step, in house then digit order; with ``direct`` only those that leave a hidden single (in another box
    for a pointing, another line of its kind for a claiming, as SE's direct intersections), as placements.

    A digit's steps depend on its candidate cells alone: a digit with none is skipped until they change
    (``memo`` names the record of such digits)."""
    rules, n = board.rules, board.n
    house_bits, region_of = board.geometry.house_bits, rules.region_of
    placed, where = board.placed_cells, board.candidate_cells
    barren = board.memo.setdefault(memo, {})
    digits = [d for d in range(n) if barren.get(d) != where[d]]
    for h in range(2 * n, 3 * n) if kind == "pointing" else range(2 * n):
        bits = house_bits[h]
        for d in digits:
            places = where[d] & bits
            if not places or not places & (places - 1) or placed[d] & bits:
                continue  # fewer than two places
            # the first house other than h holding every place: for a box its row, else its column; for a
            # row or column its box (a line's places share no other line; extra houses come after boxes)
            first = places.bit_length() - 1
            row, col = divmod(first, n)
            lines = (row, n + col) if kind == "pointing" else (2 * n + region_of[first],)
            shared = next((g for g in lines if not places & ~house_bits[g]), None)
            if shared is None:
                continue
            gone = where[d] & house_bits[shared] & ~places
            if not gone:
                continue
            # SE: a pointing's single is in another box, a claiming's in another line of the same kind
            others = range(2 * n, 3 * n) if kind == "pointing" else range(h // n * n, h // n * n + n)
            single = board.single_after(d + 1, gone, (g for g in others if g != h)) if direct else None
            if direct and single is None:
                continue
            yield _step(board, kind, d + 1, h, shared, cells_of(places), cells_of(gone), single)
    for d in digits:
        barren[d] = where[d]


def _locked_other(board: Board) -> Step | None:
    """Locked candidates beyond pointing and claiming: any house whose places of a digit all see the
    same other cells (on rules beyond rows, columns and regions)."""
    rules = board.rules
    peers = rules.peers
    if plain_layout(rules):
        return None  # houses are rows, columns and regions, peers come from them: pointing and claiming
    for h in range(len(rules.houses)):
        for digit, places in board.open_digits(h):
            if len(places) < 2:
                continue
            shared = _shared_house(board, places, h)
            seen = reduce(set.intersection, (set(peers[cell]) for cell in places)) - set(places)
            targets = board.places(sorted(seen), digit)
            if targets:
                return _step(board, "other", digit, h, shared, places, targets)
    return None


def _step(
    board: Board,
    kind: str,
    digit: int,
    h: int,
    shared: int | None,
    places: Sequence[int],
    targets: Sequence[int],
    single: tuple[int, int] | None = None,
) -> Step:
    rules = board.rules
    places_of = f"the places of {symbol(digit)} in {house_name(rules, h)}"
    reason = (
        f"{places_of} lie in {house_name(rules, shared)}"
        if shared is not None
        else f"{places_of} all see the cells it leaves"
    )
    name = {"pointing": "Pointing", "claiming": "Claiming"}.get(kind, "Locked candidates")
    eliminations = tuple((c, digit) for c in targets)
    houses = (h,) if shared is None else (h, shared)
    difficulty = 2.6 if kind == "pointing" else 2.8
    placements: tuple[tuple[int, int], ...] = ()
    if single is not None:  # SE's direct pointing (1.7) and claiming (1.9): the hidden single it leaves
        where, cell = single
        name, difficulty = f"Direct {name.lower()}", 1.7 if kind == "pointing" else 1.9
        placements = ((cell, digit),)
        reason += f", so {symbol(digit)} has one place left in {house_name(rules, where)}"
        houses += (where,)
    return Step(name, difficulty, rules, placements, eliminations, tuple(places), (digit,), houses, reason)


def _shared_house(board: Board, places: list[int], h: int) -> int | None:
    """A house other than ``h`` holding every place, if any (the first in ``Rules.houses`` order)."""
    houses_of = board.rules.houses_of
    common = set(houses_of[places[0]])
    common.discard(h)
    for cell in places[1:]:
        if not common:
            return None
        common.intersection_update(houses_of[cell])
    return min(common) if common else None


def direct_pointing(board: Board) -> Step | None:
    """A pointing that leaves a digit one place in a house: the elimination and that hidden single."""
    return next(_pointing_or_claiming(board, "pointing", "no direct pointing", direct=True), None)


def direct_claiming(board: Board) -> Step | None:
    """A claiming that leaves a digit one place in a house: the elimination and that hidden single."""
    return next(_pointing_or_claiming(board, "claiming", "no direct claiming", direct=True), None)


def pointing(board: Board) -> Step | None:
    """A digit's places in a box lie in one row or column: it leaves the rest of that line."""
    return _locked(board, "pointing")


def claiming(board: Board) -> Step | None:
    """A digit's places in a row or column lie in one box: it leaves the rest of that box."""
    return _locked(board, "claiming")


def locked_candidates(board: Board) -> Step | None:
    """Any other house whose places of a digit all see the same cells (extra houses, variant peers)."""
    return _locked(board, "other")
