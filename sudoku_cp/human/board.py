"""The state a human solver works on: the digits placed so far and every other cell's candidates.

Candidates are bit masks (bit ``d - 1`` for digit ``d``), as in ``sudoku_cp.candidates``. Placing a digit
removes it from the cell's peers (every rule of ``Rules.peers``: houses, groups, differ pairs), the
bookkeeping every technique takes for granted. Techniques read houses from ``Rules.houses`` (rows,
columns, boxes or regions, then extra houses such as diagonals and windows), so they work on variants.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from ..candidates import Candidates
from ..grid import Puzzle, Rules, symbol
from ..rules import NAMED, RULES_KEPT
from ..rules.constraints import cell_name
from ..signals import held_import

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Board",
    "Geometry",
    "cells_of",
    "compiled",
    "digits_of",
    "geometry",
    "house_name",
    "plain_layout",
    "rule_arrays",
]

_T = TypeVar("_T")


class Board:
    """Placed digits and candidates of one puzzle, changed in place by steps (``apply``)."""

    def __init__(self, candidates: Candidates) -> None:
        puzzle = candidates.puzzle
        self.rules: Rules = puzzle.rules
        self.n = puzzle.n
        self.values = list(puzzle.cells)
        self.masks = list(candidates.masks)
        #: What techniques keep between steps of one walk (a solver, links); ``probe.release`` empties it.
        self.memo: dict[str, Any] = {}
        #: Changes so far: what a technique keeps in ``memo`` for one state of the board is keyed by it.
        self.version = 0
        #: Rules beyond "peers differ" (sums, orders, dots): placed digits are checked against them.
        self._more = bool(self.rules.constraints) or any(
            p.relation != "differ" or p.negated for p in self.rules.pairs
        )
        self._houses_of = self.rules.houses_of
        #: Per house (index in ``Rules.houses``), how often one of its cells has changed: what a technique
        #: keeps about one house (such as "no subset here") holds while the count stays.
        self.house_changes = [0] * len(self.rules.houses)
        for cell, digit in enumerate(self.values):
            if digit:
                self._clear_peers(cell, 1 << (digit - 1))
        self.geometry = geometry(self.rules)
        #: Per digit d (at d - 1): the open cells holding it as a candidate, and the cells it is placed in,
        #: as bit sets (bit ``cell``): what a technique asks of a house is then an ``&`` with its bits.
        self.candidate_cells = [0] * self.n
        self.placed_cells = [0] * self.n
        #: The open cells, as a bit set.
        self.open_bits = 0
        for cell, (mask, digit) in enumerate(zip(self.masks, self.values, strict=True)):
            if digit:
                self.placed_cells[digit - 1] |= 1 << cell
                continue
            self.open_bits |= 1 << cell
            for d in digits_of(mask):
                self.candidate_cells[d - 1] |= 1 << cell

    @classmethod
    def of(cls, start: Puzzle | Candidates) -> Board:
        """A board from a puzzle (its first pencilmarks) or from given candidates (pencilmark input)."""
        return cls(start if isinstance(start, Candidates) else Candidates.of(start))

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` in ``cell`` and take it from the cell's peers."""
        bit = 1 << (digit - 1)
        here = ~(1 << cell)
        if not self.values[cell]:
            for d in digits_of(self.masks[cell]):
                self.candidate_cells[d - 1] &= here
        self.values[cell] = digit
        self.masks[cell] = bit
        self._changed(cell)
        self.placed_cells[digit - 1] |= 1 << cell
        self.open_bits &= here
        self._clear_peers(cell, bit)
        self.candidate_cells[digit - 1] &= ~self.geometry.peer_bits[cell]
        self.version += 1

    def _clear_peers(self, cell: int, bit: int) -> None:
        masks = self.masks
        for peer in self.rules.peers[cell]:
            if masks[peer] & bit:
                masks[peer] &= ~bit
                self._changed(peer)

    def _changed(self, cell: int) -> None:
        changes = self.house_changes
        for h in self._houses_of[cell]:
            changes[h] += 1

    def eliminate(self, cell: int, digit: int) -> None:
        self.masks[cell] &= ~(1 << (digit - 1))
        self._changed(cell)
        if not self.values[cell]:
            self.candidate_cells[digit - 1] &= ~(1 << cell)
        self.version += 1

    def open_cells(self) -> list[int]:
        """The cells without a digit yet, in order."""
        return [cell for cell, v in enumerate(self.values) if not v]

    def places(self, house: tuple[int, ...], digit: int) -> list[int]:
        """The open cells of ``house`` where ``digit`` is still a candidate (empty if it is placed there)."""
        bit = 1 << (digit - 1)
        values, masks = self.values, self.masks
        return [cell for cell in house if not values[cell] and masks[cell] & bit]

    def kept(self, name: str, key: Hashable, stamp: int, make: Callable[[Board, Any], _T]) -> _T:
        """``make(self, key)``, kept in ``memo[name]`` while ``stamp`` stays the same: what the answer
        depends on, such as a digit's candidate cells or a house's change count."""
        cache = self.memo.setdefault(name, {})
        found = cache.get(key)
        if found is None or found[0] != stamp:
            found = cache[key] = (stamp, make(self, key))
        return found[1]

    def open_masks(self) -> np.ndarray:
        """Each cell's candidates, 0 for a placed cell, as the compiled searches take them (kept for the
        state of the board)."""
        return self.kept("open masks", None, self.version, _open_masks)

    def places_in(self, h: int, digit: int) -> int:
        """The open cells of house ``h`` holding ``digit`` as a candidate, as a bit set."""
        return self.candidate_cells[digit - 1] & self.geometry.house_bits[h]

    def open_digits(self, h: int) -> list[tuple[int, tuple[int, ...]]]:
        """Each digit not placed in house ``h`` yet, with its places there (cells in increasing order), in
        digit order (kept until the board changes: most techniques ask it of every house)."""
        cache = self.memo.get("open digits")
        if cache is None or cache[0] != self.version:
            cache = self.memo["open digits"] = (self.version, {})
        found = cache[1].get(h)
        if found is None:
            bits = self.geometry.house_bits[h]
            placed, where = self.placed_cells, self.candidate_cells
            found = cache[1][h] = [
                (d + 1, cells_of(where[d] & bits)) for d in range(self.n) if not placed[d] & bits
            ]
        return found

    def single_after(self, digit: int, gone: int, houses: Iterable[int]) -> tuple[int, int] | None:
        """The first of ``houses`` where ``digit`` would have one place left, from more, if it left the
        cells of bit set ``gone``: ``(house, cell)``, or None (what SE's direct techniques place)."""
        placed, where = self.placed_cells[digit - 1], self.candidate_cells[digit - 1]
        house_bits = self.geometry.house_bits
        for h in houses:
            bits = house_bits[h]
            if not gone & bits or placed & bits:
                continue
            places = where & ~gone & bits
            if places and not places & (places - 1):
                return h, places.bit_length() - 1
        return None

    def placed_in(self, house: tuple[int, ...]) -> int:
        """The mask of the digits placed in ``house``."""
        out = 0
        for cell in house:
            if d := self.values[cell]:
                out |= 1 << (d - 1)
        return out

    @property
    def solved(self) -> bool:
        return all(self.values)

    def broken(self) -> str | None:
        """Why the board has no solution (an open cell without candidates, a house that cannot hold a
        digit, a rule broken by the digits placed), or None."""
        rules, n, masks = self.rules, self.n, self.masks
        if not all(masks):
            return f"{cell_name(masks.index(0), n)} has no candidate left"
        full = (1 << n) - 1
        for h, house in enumerate(rules.houses):
            seen = 0
            for cell in house:
                seen |= masks[cell]  # a placed cell's mask is its digit
            if seen != full:
                missing = next(d for d in range(1, n + 1) if not seen >> (d - 1) & 1)
                return f"{symbol(missing)} has no place in {house_name(rules, h)}"
        if self._more and not rules.is_valid(self.values):  # peers cannot clash: placing clears them
            return "the digits placed break a rule"
        return None

    def candidates(self) -> Candidates:
        """The board as a ``Candidates`` value of the puzzle of its placed digits."""
        return Candidates(Puzzle(self.rules, tuple(self.values)), tuple(self.masks))


def _open_masks(board: Board, _: None) -> np.ndarray:
    import numpy as np  # (imported where needed: hints on easy puzzles never do)

    return np.array([0 if v else m for m, v in zip(board.masks, board.values, strict=True)], np.int64)


@cache
def compiled(name: str) -> ModuleType:
    """The module ``name`` of compiled searches (numba) of this package, imported and its kernels loaded
    (``warm_up``) once a process, with Ctrl-C held."""
    module = held_import(f"{__package__}.{name}")
    module.warm_up()
    return module


@lru_cache(maxsize=RULES_KEPT)
def rule_arrays(rules: Rules) -> tuple[np.ndarray, ...]:
    """The peers, houses and houses of each cell of ``rules`` as the compiled searches take them: for each,
    where each one's members start (one more entry: the end), then its members end to end, in order."""
    import numpy as np

    arrays: list[np.ndarray] = []
    for lists in (tuple(map(sorted, rules.peers)), tuple(map(sorted, rules.houses)), rules.houses_of):
        sizes = np.fromiter(map(len, lists), np.int64, count=len(lists))
        starts = np.zeros(len(lists) + 1, np.int64)
        np.cumsum(sizes, out=starts[1:])
        arrays += [starts, np.array([m for members in lists for m in members], np.int64)]
    return tuple(arrays)


@lru_cache(maxsize=1 << 16)
def cells_of(bits: int) -> tuple[int, ...]:
    """The cells of a bit set, increasing (kept: a walk asks the same few thousand sets again and again)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return tuple(out)


@dataclass(frozen=True)
class Geometry:
    """A grid's houses and peers as bit sets (bit ``cell``), for the ``&`` of a board's digit bits."""

    house_bits: tuple[int, ...]
    peer_bits: tuple[int, ...]


@lru_cache(maxsize=RULES_KEPT)
def geometry(rules: Rules) -> Geometry:
    """The bit sets of ``rules`` (kept for a few rules values: a killer batch brings one per puzzle)."""
    bits = lambda cells: sum(1 << c for c in cells)  # noqa: E731 - a short local helper
    return Geometry(tuple(map(bits, rules.houses)), tuple(map(bits, rules.peers)))


def digits_of(mask: int) -> list[int]:
    """The digits of a candidate mask, increasing."""
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out


def plain_layout(rules: Rules) -> bool:
    """Rows, columns and boxes or jigsaw regions only: every house and every peer comes from them."""
    return set(rules.kinds) <= {"boxes", "jigsaw"}


def house_name(rules: Rules, h: int) -> str:
    """``row 1``, ``column 3``, ``box 5`` (``region 5`` on a jigsaw), ``the diagonal``, ``window 2``..."""
    return _house_names(rules)[h]


@cache
def _house_names(rules: Rules) -> tuple[str, ...]:
    n = rules.n
    names = [f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
    region = "box" if rules.box is not None else "region"
    names += [f"{region} {i + 1}" for i in range(len(rules.regions))]
    for rule in rules.named:  # in the order of Rules.houses
        houses, _ = NAMED[rule](n, rules.box)
        if len(houses) == 1:
            names.append({"diagonal-": "the diagonal", "diagonal+": "the anti-diagonal"}.get(rule, rule))
            continue
        word = {"windoku": "window", "disjoint": "disjoint group"}.get(rule, f"{rule} house")
        names += [f"{word} {i + 1}" for i in range(len(houses))]
    while len(names) < len(rules.houses):
        names.append(f"extra region {len(names) - 3 * n + 1}")
    return tuple(names)
