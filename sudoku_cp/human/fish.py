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

from ..grid import Rules, symbol
from ..rules import RULES_KEPT
from ..rules.constraints import cell_name
from ..wording import listing
from .board import Board, cells_of, house_name
from .step import Step, Technique

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
                    for line, places, _, across in _base_lines(board, digit, base_first)
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


def _cross(cell: int, n: int, base_first: int) -> int:
    """The index of the crossing line through ``cell``: its column for a row base, its row otherwise."""
    return cell % n if base_first == 0 else cell // n


#: Size -> (name, difficulty) of the finned fish. Sudoku Explainer has none: its nearest are the X-chains
#: (6.5 and up) that a fin's box turns the fish into, so they are rated just above them, by size.
FINNED = {2: ("Finned X-wing", 6.6), 3: ("Finned swordfish", 6.8), 4: ("Finned jellyfish", 7.0)}


def finned_fish(size: int) -> Technique:
    """The technique finding finned fish of ``size`` base lines: the base lines' places lie in ``size``
    cover lines but for some (the fins) inside one box. Either the fish holds, and the digit leaves the
    cover lines, or a fin is true: a cell of the cover lines inside the fins' box loses the digit both
    ways (sashimi fish, whose base lines keep one place outside the fins, are among them)."""
    name, difficulty = FINNED[size]

    def find(board: Board) -> Step | None:
        rules, n = board.rules, board.n
        width = max(rules.box) if rules.box is not None else n  # the most lines one box's fins can cross
        barren = board.memo.setdefault(f"no {name}", {})
        for digit in range(1, n + 1):
            where = board.candidate_cells[digit - 1]
            if barren.get(digit) == where:
                continue
            for base_first in (0, n):
                lines = _base_lines(board, digit, base_first)
                spans = _box_spans(rules, base_first)
                for chosen in combinations(lines, size):
                    body = crossing = 0
                    for _, places, _, across in chosen:
                        body |= places
                        crossing |= across
                    if crossing.bit_count() > size + width:
                        continue  # more crossing lines than a cover and one box's fins can span
                    for box in sorted({box for _, _, outside, _ in chosen for box in outside}):
                        if (crossing & ~spans[box]).bit_count() > size:
                            continue  # the places off the box's crossing lines alone need too many
                        needed = 0  # a fin box holds some place: the crossing lines of those outside it
                        for _, _, outside, across in chosen:
                            needed |= outside.get(box, across)
                        if needed.bit_count() > size:
                            continue  # the places outside the box need more cover lines than there are
                        found = _finned(board, digit, chosen, base_first, size, 2 * n + box, needed, body)
                        if found is None:
                            continue
                        base, covers, fins, eliminations = found
                        fin_names = listing([cell_name(c, n) for c in cells_of(fins)])
                        reason = (
                            f"{symbol(digit)} in {', '.join(house_name(rules, b) for b in base)} lies in "
                            f"{', '.join(house_name(rules, c) for c in covers)} but for {fin_names} in "
                            f"{house_name(rules, 2 * n + box)}"
                        )
                        houses = (*base, *covers, 2 * n + box)
                        cells = cells_of(body)
                        return Step(
                            name, difficulty, rules, (), eliminations, cells, (digit,), houses, reason
                        )
            barren[digit] = where
        return None

    find.__name__ = name.lower().replace("-", "_").replace(" ", "_")
    find.__doc__ = f"{name}: {size} lines whose places of a digit lie in {size} crossing lines, but for fins."
    return find


@lru_cache(maxsize=RULES_KEPT)
def _box_spans(rules: Rules, base_first: int) -> tuple[int, ...]:
    """Per box (region), the crossing lines through its cells: columns for rows as the base (``base_first``
    0), rows for columns."""
    n = rules.n
    spans = [0] * len(rules.regions)
    for box, cells in enumerate(rules.regions):
        for cell in cells:
            spans[box] |= 1 << _cross(cell, n, base_first)
    return tuple(spans)


def _base_lines(board: Board, digit: int, base_first: int) -> list[tuple[int, int, dict[int, int], int]]:
    """The lines (rows from ``base_first`` 0, columns from n) holding ``digit`` twice or more: each with its
    places, per box holding some of them the crossing lines of its places outside that box (for any other
    box: all of its crossing lines), and all its crossing lines. Kept per board state: basic and finned
    fish of every size ask the same."""
    cache = board.memo.get("finned lines")
    if cache is None or cache[0] != board.version:
        cache = board.memo["finned lines"] = (board.version, {})
    found = cache[1].get((digit, base_first))
    if found is not None:
        return found
    n, rules = board.n, board.rules
    house_bits, where = board.geometry.house_bits, board.candidate_cells[digit - 1]
    lines = []
    for line in range(base_first, base_first + n):
        places = where & house_bits[line]
        if places.bit_count() >= 2:
            across, inside = 0, {}  # the crossing lines of all places, and of those in each box
            for cell in cells_of(places):
                bit = 1 << _cross(cell, n, base_first)
                across |= bit
                box = rules.region_of[cell]
                inside[box] = inside.get(box, 0) | bit
            outside = {box: across & ~bits for box, bits in inside.items()}  # other boxes: all of them
            lines.append((line, places, outside, across))
    cache[1][(digit, base_first)] = lines
    return lines


def _finned(
    board: Board,
    digit: int,
    chosen: tuple[tuple[int, int, dict[int, int], int], ...],
    base_first: int,
    size: int,
    box: int,
    needed: int,
    body: int,
) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple[tuple[int, int], ...]] | None:
    """The first cover of ``size`` lines, the ``needed`` ones and some crossing the places in house ``box``,
    that leaves fins (places outside it, all in ``box``) and something to eliminate: what sees every fin in
    the cover lines and off the base lines. (base, covers, fins, eliminations), or None."""
    n = board.n
    house_bits, where = board.geometry.house_bits, board.candidate_cells[digit - 1]
    cover_first = n - base_first
    base_bits = 0
    for line, *_ in chosen:
        base_bits |= house_bits[line]
    optional = 0
    for cell in cells_of(body & house_bits[box]):
        optional |= 1 << _cross(cell, n, base_first)
    spare = [k for k in range(n) if (optional & ~needed) >> k & 1]
    for extra in combinations(spare, size - needed.bit_count()):
        cover = needed
        for k in extra:
            cover |= 1 << k
        cover_bits = 0
        for k in range(n):
            if cover >> k & 1:
                cover_bits |= house_bits[cover_first + k]
        fins = body & ~cover_bits
        if not fins:
            continue  # a basic fish: that technique's
        gone = where & cover_bits & house_bits[box] & ~base_bits
        if gone:
            base = tuple(line for line, *_ in chosen)
            covers = tuple(cover_first + k for k in range(n) if cover >> k & 1)
            return base, covers, fins, tuple((cell, digit) for cell in cells_of(gone))
    return None
