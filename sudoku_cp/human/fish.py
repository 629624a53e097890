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


@lru_cache(maxsize=RULES_KEPT)
def _cell_bits(rules: Rules, base_first: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per cell, for rows as the base (``base_first`` 0) or columns: the bit of its crossing line (bit
    ``column`` for a row base, ``row`` otherwise), and the bit of its base line (as a house index)."""
    n = rules.n
    if base_first == 0:
        return tuple(1 << c % n for c in range(rules.ncells)), tuple(1 << c // n for c in range(rules.ncells))
    return tuple(1 << c // n for c in range(rules.ncells)), tuple(1 << n + c % n for c in range(rules.ncells))


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
        barren = board.memo.setdefault(f"no {name}", {})
        for digit in range(1, n + 1):
            where = board.candidate_cells[digit - 1]
            if barren.get(digit) == where:
                continue
            for base_first in (0, n):
                found = _first_finned(board, digit, base_first, size)
                if found is None:
                    continue
                _, box, body, (base, covers, fins, eliminations) = found
                fin_names = listing([cell_name(c, n) for c in cells_of(fins)])
                reason = (
                    f"{symbol(digit)} in {', '.join(house_name(rules, b) for b in base)} lies in "
                    f"{', '.join(house_name(rules, c) for c in covers)} but for {fin_names} in "
                    f"{house_name(rules, 2 * n + box)}"
                )
                houses = (*base, *covers, 2 * n + box)
                return Step(
                    name, difficulty, rules, (), eliminations, cells_of(body), (digit,), houses, reason
                )
            barren[digit] = where
        return None

    find.__name__ = name.lower().replace("-", "_").replace(" ", "_")
    find.__doc__ = f"{name}: {size} lines whose places of a digit lie in {size} crossing lines, but for fins."
    return find


def _base_lines(board: Board, digit: int, base_first: int) -> list[tuple[int, int, dict[int, int], int]]:
    """The lines (rows from ``base_first`` 0, columns from n) holding ``digit`` twice or more: each with its
    places, per box holding some of them the crossing lines of its places outside that box (for any other
    box: all of its crossing lines), and all its crossing lines. Kept while the digit's candidate cells
    stay: basic and finned fish of every size ask the same."""
    return board.kept("fish lines", (digit, base_first), board.candidate_cells[digit - 1], _make_base_lines)


def _make_base_lines(board: Board, key: tuple[int, int]) -> list[tuple[int, int, dict[int, int], int]]:
    digit, base_first = key
    n, rules = board.n, board.rules
    house_bits, where = board.geometry.house_bits, board.candidate_cells[digit - 1]
    lines = []
    cross, region_of = _cell_bits(rules, base_first)[0], rules.region_of
    for line in range(base_first, base_first + n):
        places = where & house_bits[line]
        if places.bit_count() >= 2:
            across, inside = 0, {}  # the crossing lines of all places, and of those in each box
            for cell in cells_of(places):
                bit = cross[cell]
                across |= bit
                box = region_of[cell]
                inside[box] = inside.get(box, 0) | bit
            outside = {box: across & ~bits for box, bits in inside.items()}  # other boxes: all of them
            lines.append((line, places, outside, across))
    return lines


def _first_finned(
    board: Board, digit: int, base_first: int, size: int
) -> tuple[tuple[int, ...], int, int, tuple] | None:
    """The first finned fish of ``digit`` with ``size`` base lines (rows from ``base_first`` 0, columns
    from n): its base lines the first in ``combinations`` order, then its fin box the first:
    ``(base lines, box, places, _finned's answer)``, or None.

    Searched box by box, among the lines whose places outside the box lie in ``size`` crossing lines or
    fewer (only those can be base lines with their fins in that box), which is far fewer sets of lines
    than all of them."""
    targets = _fin_boxes(board, digit, base_first)
    if not targets:
        return None
    lines = _base_lines(board, digit, base_first)
    best: tuple[tuple[int, ...], int, int, tuple] | None = None
    for box, spanned in targets.items():
        fit = [line for line in lines if line[2].get(box, line[3]).bit_count() <= size]
        if len(fit) < size or not any(box in line[2] for line in fit):
            continue  # too few lines, or none with a fin in the box
        outer = [line[2].get(box, line[3]) for line in fit]
        stack: list[tuple[int, tuple[int, ...], int]] = [(0, (), 0)]  # depth first, in combinations order
        while stack:
            start, picked, needed = stack.pop()
            if len(picked) < size:
                for i in range(len(fit) - size + len(picked), start - 1, -1):  # pushed last first
                    grown = needed | outer[i]
                    if grown.bit_count() <= size:  # else no cover holds them: not extended
                        stack.append((i + 1, (*picked, i), grown))
                continue
            chosen = tuple(fit[i] for i in picked)
            base = tuple(line[0] for line in chosen)
            if best is not None and base >= best[0]:
                break  # later sets of this box come after the one found
            body = used = 0
            for line, places, *_ in chosen:
                body |= places
                used |= 1 << line
            if not spanned & ~used or not any(box in line[2] for line in chosen):
                continue  # nothing in the box off the base lines, or no fin in it
            found = _finned(board, digit, chosen, base_first, size, 2 * board.n + box, needed, body)
            if found is not None:
                best = (base, box, body, found)
                break
    return best


def _fin_boxes(board: Board, digit: int, base_first: int) -> dict[int, int]:
    """The boxes where a finned fish of ``digit`` (rows as the base from ``base_first`` 0, columns from n)
    could eliminate: those whose places lie in two base lines or more (one for a fin, one off the base for
    the elimination), each with the bit set of those lines (bit ``line``, as house indices). Kept as
    ``_base_lines``."""
    return board.kept("fin boxes", (digit, base_first), board.candidate_cells[digit - 1], _make_fin_boxes)


def _make_fin_boxes(board: Board, key: tuple[int, int]) -> dict[int, int]:
    digit, base_first = key
    n, rules = board.n, board.rules
    house_bits, where = board.geometry.house_bits, board.candidate_cells[digit - 1]
    found, line_bit = {}, _cell_bits(rules, base_first)[1]
    for box in range(len(rules.regions)):
        spanned = 0
        for cell in cells_of(where & house_bits[2 * n + box]):
            spanned |= line_bit[cell]
        if spanned.bit_count() >= 2:
            found[box] = spanned
    return found


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
    optional, cross = 0, _cell_bits(board.rules, base_first)[0]
    for cell in cells_of(body & house_bits[box]):
        optional |= cross[cell]
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
