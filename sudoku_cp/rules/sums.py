"""Sums as one primitive: a constraint that adds digits becomes ``sum(coefficient * digit) == total``.

A killer cage is its cells with coefficient 1; an arrow is its circle or pill read as a number (the first
of k cells weighs 10**(k-1)) minus its line, equal to 0. Every backend reasons over this one form:

- ``digit_sets`` lists the sets of distinct digits that fill a cage (the killer solvers' combination
  tables), up to ``MAX_SETS``: a cage with more (a long cage on a large grid) is reasoned on as a sum;
- ``LinearSum`` orders the terms by weight and says whether the exact reasoning fits: the partial sums of
  the terms in that order, kept only where the terms left can still reach the total, form a layered graph
  (a multi-valued decision diagram of the equation) whose paths are exactly the assignments that keep the
  sum. A digit on no path is removed, which is generalised arc consistency for the sum (Trick, *A dynamic
  programming approach for consistency and propagation for knapsack constraints*, 2003). Where the graph
  would exceed ``EXACT_WORK`` (long sums on large grids), the reasoning is on bounds only: sound, weaker,
  and never a hang;
- before the graph, bounds by exclusion groups (``exclusion_groups``): terms whose cells see each other
  hold distinct digits, so a long arrow across rows adds up to at least their smallest distinct digits;
- ``implied_sums``: the sums the houses and the cage totals imply (the rule of 45), and the sums of
  neighbouring sums taken together (``combined_sums``), added as redundant constraints.

Both ``dfs`` engines and the CNF encoding (the same graph as clauses) read these, and CP-SAT takes the same
sums as linear constraints, so a sum means the same thing everywhere; the certificate checker states
them in its own words (it imports nothing from here), held to these by its tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from .model import RULES_KEPT

if TYPE_CHECKING:
    from .model import Rules

__all__ = [
    "EXACT_WORK",
    "FEW_OPEN",
    "MAX_SETS",
    "LinearSum",
    "combined_sums",
    "crossing_sums",
    "derived_sums",
    "digit_sets",
    "exclusion_groups",
    "graph_size",
    "implied_sums",
    "layer_bounds",
    "without_houses",
]

#: Most digit sets a cage is reasoned on by its combinations: on 9x9 a cage has at most 12, on 16x16 a
#: few hundred; a long cage of a 25x25 grid can have hundreds of thousands (then it is a sum).
MAX_SETS = 1024
#: The largest exact graph (its partial sums times the digits): a 9x9 arrow of 8 cells is about 6,000; a
#: 36x36 arrow of 200 cells from a three-cell pill tens of millions (bounds then).
EXACT_WORK = 1 << 20
#: A sum with at most this many terms left open is reasoned on by trying their digits (the last one
#: follows from the others), distinct within an exclusion group: exact, and cheaper than its graph, as
#: the Interactive Sudoku Solver does a sum's last two or three cells.
FEW_OPEN = 3


@cache
def digit_sets(
    size: int, total: int, n: int, low: int = 1, most: int = MAX_SETS
) -> tuple[tuple[int, ...], ...] | None:
    """Every set of ``size`` distinct digits ``low``..n adding up to ``total``, ascending; None when there
    are more than ``most`` (the search prunes by the smallest and largest sums still reachable, so even a
    36x36 cage of 18 cells costs only the sets it yields)."""
    found: list[tuple[int, ...]] = []
    for digits in _sets(size, total, low, n):
        found.append(digits)
        if len(found) > most:
            return None
    return tuple(found)


def _sets(size: int, total: int, low: int, n: int) -> Iterator[tuple[int, ...]]:
    if size == 0:
        if total == 0:
            yield ()
        return
    for d in range(low, n + 1):
        rest = size - 1
        least = rest * (2 * d + 1 + rest) // 2  # d+1, d+2, ... (rest of them)
        most = rest * (2 * n - rest + 1) // 2  # n, n-1, ... (rest of them)
        if d + least > total:
            return
        if d + most < total:
            continue
        for tail in _sets(rest, total - d, d + 1, n):
            yield (d, *tail)


@dataclass(frozen=True)
class LinearSum:
    """``sum(coefficients[i] * digit(cells[i])) == total``, terms ordered by the size of their coefficient
    (the graph of partial sums stays narrow when the heavy terms, a pill's tens, come last); ``exact``
    when its graph fits ``EXACT_WORK`` at the start of a search, so that the exact reasoning runs.

    ``groups[i]`` numbers the exclusion group of term i: terms of one coefficient whose cells all see each
    other (a house, a cage, any peers), so their digits differ. The bounds of a group are those of distinct
    digits: a long arrow across three rows cannot add up to less than the smallest distinct digits of each
    row, where digits free to repeat could (the reasoning of the Interactive Sudoku Solver's sum handler).
    """

    cells: tuple[int, ...]
    coefficients: tuple[int, ...]
    total: int
    exact: bool
    groups: tuple[int, ...] = ()

    @classmethod
    def of(
        cls,
        cells: Sequence[int],
        coefficients: Sequence[int],
        total: int,
        n: int,
        peers: Sequence[Sequence[int]] | None = None,
    ) -> LinearSum:
        """The sum with its terms ordered, its exact reasoning chosen, and, given each cell's ``peers``
        (``Rules.peers``), its exclusion groups (``exclusion_groups``; without peers, a group per term)."""
        terms = sorted(zip(cells, coefficients, strict=True), key=lambda t: abs(t[1]))
        ordered = tuple(c for c, _ in terms)
        weights = tuple(w for _, w in terms)
        group_of: dict[int, int] = {}
        for w in dict.fromkeys(weights):
            same = [c for c, x in terms if x == w]
            for group in exclusion_groups(same, peers) if peers is not None else [[c] for c in same]:
                number = len(dict.fromkeys(group_of.values()))
                group_of.update((c, number) for c in group)
        first = {}  # the groups numbered in the order of their first term
        groups = tuple(first.setdefault(group_of[c], len(first)) for c in ordered)
        return cls(ordered, weights, total, graph_size(weights, total, n) * n <= EXACT_WORK, groups)

    def narrow(self, masks: Sequence[int]) -> list[int] | None:
        """The digits each term keeps (bit d-1 for digit d) given its candidates ``masks`` (in ``cells``
        order); None when the sum cannot be kept. The readable form of what the compiled search computes
        (``dfs_kernels._sum_rule``), in two passes:

        - bounds: a digit stays where, with the other terms of its group on distinct digits of the group's
          candidates and every other group between its least and its most, the total is still reachable;
        - exact (where ``exact``): of those, the digits on a path of the graph of partial sums from 0 to the
          total (forward, the partial sums each layer can make; backward, those that still reach the
          total), which ignores the groups and is exact for the sum alone;
        - or, with at most ``FEW_OPEN`` terms of more than one digit left, the digits of an assignment of
          theirs that keeps the sum with the terms of a group on digits no other term of it holds
          (``_placed``): exact for the sum and its groups together. Where that many are open from the
          start it runs alone: it keeps no more than the bounds would.
        """
        if not all(masks):
            return None
        if _open(masks) > FEW_OPEN:  # (fewer: ``_placed`` keeps no more than the bounds would)
            masks = self._bounds(masks)
            if masks is None:
                return None
        if _open(masks) <= FEW_OPEN:
            return self._placed(masks)
        if not self.exact:
            return masks
        m = len(masks)
        weights, total = self.coefficients, self.total
        lows = [(mask & -mask).bit_length() for mask in masks]
        highs = [mask.bit_length() for mask in masks]
        lo, hi = layer_bounds(weights, lows, highs, total)
        if lo[m] > hi[m]:  # the narrowed terms' own bounds no longer reach the total
            return None
        keep = [0] * m
        layers = [1]  # layer i: bit s - lo[i] for each partial sum s that the first i terms can make
        for i in range(m):
            step = 0
            for d in _digits(masks[i]):
                step |= _shift(layers[i], weights[i] * d + lo[i] - lo[i + 1])
            layers.append(step & ((1 << (hi[i + 1] - lo[i + 1] + 1)) - 1))
        back = layers[m]  # the last layer's one sum, the total, if it is reached
        if not back:
            return None
        for i in range(m - 1, -1, -1):
            before = 0
            for d in _digits(masks[i]):
                reached = _shift(back, -(weights[i] * d + lo[i] - lo[i + 1])) & layers[i]
                if reached:
                    keep[i] |= 1 << (d - 1)
                    before |= reached
            back = before
        return keep

    def _bounds(self, masks: Sequence[int]) -> list[int] | None:
        """The bounds pass of ``narrow``: each group's least and most over distinct digits (``_group_span``),
        and for each digit of a term, those of the union of its group without it (``_union_span``)."""
        weights, total = self.coefficients, self.total
        groups = self.groups or tuple(range(len(masks)))
        count = max(groups) + 1
        union, weight = [0] * count, [0] * count
        members: list[list[int]] = [[] for _ in range(count)]
        for i, g in enumerate(groups):
            union[g] |= masks[i]
            weight[g] = weights[i]
            members[g].append(i)
        spans = []
        for g in range(count):
            span = _group_span([masks[i] for i in members[g]], union[g], weight[g])
            if span is None:
                return None
            spans.append(span)
        least = sum(a for a, _ in spans)
        most = sum(b for _, b in spans)
        if not least <= total <= most:
            return None
        keep = []
        for i, g in enumerate(groups):
            w, (a, b) = weight[g], spans[g]
            kept = 0
            for d in _digits(masks[i]):
                rest = _union_span(union[g] & ~(1 << (d - 1)), len(members[g]) - 1, w)
                if rest is not None and least - a + rest[0] + w * d <= total <= most - b + rest[1] + w * d:
                    kept |= 1 << (d - 1)
            if not kept:
                return None
            keep.append(kept)
        return keep

    def _placed(self, masks: Sequence[int]) -> list[int] | None:
        """``narrow``'s pass over a sum with few open terms: the fixed terms leave the rest of the total
        (and their digits, which the open terms of their group cannot take); each digit of the open terms
        but the last is tried, the last's follows."""
        weights = self.coefficients
        groups = self.groups or tuple(range(len(masks)))
        rest = self.total
        open_terms = []
        taken = [0] * len(masks)  # each group's fixed digits
        for i, mask in enumerate(masks):
            if mask & (mask - 1):
                open_terms.append(i)
            elif taken[groups[i]] & mask:  # two fixed terms of a group on one digit
                return None
            else:
                taken[groups[i]] |= mask
                rest -= weights[i] * mask.bit_length()
        options = [list(_digits(masks[i] & ~taken[groups[i]])) for i in open_terms]
        keep = [0 if mask & (mask - 1) else mask for mask in masks]
        if not open_terms:
            return keep if rest == 0 else None
        found = False
        *first, last = open_terms
        for digits in itertools.product(*options[:-1]):
            left = rest - sum(weights[i] * d for i, d in zip(first, digits, strict=True))
            d, r = divmod(left, weights[last])
            if r or not 1 <= d <= 63 or d not in options[-1]:
                continue
            chosen = (*digits, d)
            terms = (*first, last)
            if any(
                groups[terms[a]] == groups[terms[b]] and chosen[a] == chosen[b]
                for a in range(len(terms))
                for b in range(a)
            ):
                continue
            found = True
            for i, digit in zip(terms, chosen, strict=True):
                keep[i] |= 1 << (digit - 1)
        return keep if found else None

    def holds(self, digits: Sequence[int]) -> bool:
        """Whether ``digits`` (one per cell, in ``cells`` order) keep the sum."""
        return sum(w * d for w, d in zip(self.coefficients, digits, strict=True)) == self.total


def exclusion_groups(cells: Sequence[int], peers: Sequence[Sequence[int]]) -> list[list[int]]:
    """``cells`` split into cliques of peers, few and large (the larger the groups, the tighter the bounds
    of distinct digits): each grown one at a time, taking the first cell left that sees every cell of the
    group so far, in the cells' order, in grid order, or taking the cell that sees the most cells left; the
    split with the largest sum of squared sizes wins (the Interactive Sudoku Solver's heuristic)."""
    seen = _seen(cells, peers)
    best: list[list[int]] = []
    for pick in ("given", "grid", "most"):
        split = _split(cells, seen, pick)
        if sum(len(g) ** 2 for g in split) > sum(len(g) ** 2 for g in best):
            best = split
    return best


def _seen(cells: Sequence[int], peers: Sequence[Sequence[int]]) -> dict[int, set[int] | frozenset[int]]:
    """Each cell's peers as a set, for membership tests."""
    return {c: peers[c] if isinstance(peers[c], (set, frozenset)) else set(peers[c]) for c in cells}


def _split(cells: Sequence[int], seen: dict[int, set[int] | frozenset[int]], pick: str) -> list[list[int]]:
    """``cells`` split into cliques, each grown one cell at a time from the cells left that see every
    cell of it so far: the first of them in the cells' order (``given``), the first in grid order
    (``grid``), or the one that sees most of them (``most``)."""
    left = list(cells)
    split = []
    while left:
        group: list[int] = []
        fits = list(left)  # in the cells' order, as ``left`` is
        while fits:
            if pick == "most":
                cell = max(fits, key=lambda c: (len(seen[c].intersection(fits)), -c))
            else:
                cell = fits[0] if pick == "given" else min(fits)
            group.append(cell)
            fits = [c for c in fits if c != cell and c in seen[cell]]
        split.append(group)
        left = [c for c in left if c not in group]
    return split


def _union_span(union: int, k: int, w: int) -> tuple[int, int] | None:
    """The least and the most of ``w`` times the sum of ``k`` distinct digits of ``union``; None when it
    holds fewer than k digits."""
    digits = _digits(union)
    if len(digits) < k:
        return None
    low, high = sum(digits[:k]), sum(digits[len(digits) - k :])
    return (w * low, w * high) if w > 0 else (w * high, w * low)


def _group_span(masks: Sequence[int], union: int, w: int) -> tuple[int, int] | None:
    """The least and the most of ``w`` times the sum of distinct digits, one for each of ``masks`` (an
    exclusion group, ``union`` their union): None when there are none. Two bounds, the tighter kept: the
    k smallest (largest) digits of the union (``_union_span``), and the digits that the terms take in
    turn, each the smallest (largest) free digit at least its least (at most its most) candidate
    (``_parked``, as the Interactive Sudoku Solver bounds its sums): cells of 1-2 and 8-9 make at least 9,
    not 3."""
    span = _union_span(union, len(masks), 1)
    if span is None:
        return None
    low, high = span
    parked_low, parked_high = _parked(masks, union, True), _parked(masks, union, False)
    if parked_low is None or parked_high is None:
        return None
    low, high = max(low, parked_low), min(high, parked_high)
    if low > high:
        return None
    return (w * low, w * high) if w > 0 else (w * high, w * low)


def _parked(masks: Sequence[int], union: int, low: bool) -> int | None:
    """The sum of the digits the terms ``masks`` take in turn, each the smallest digit not taken before
    (within ``union``'s range) at least its own least candidate (``low``), or the largest at most its own
    most; None when a term finds none. The set taken is the same in any order (cars parking in a street),
    and its sum is the least (most) that distinct digits within those ranges make."""
    top = (1 << union.bit_length()) - 1
    bottom = (union & -union) - 1
    taken = total = 0
    for mask in masks:
        if low:
            free = top & ~taken & ~((mask & -mask) - 1)
            bit = free & -free
        else:
            free = top & ~bottom & ~taken & ((1 << mask.bit_length()) - 1)
            bit = 1 << (free.bit_length() - 1) if free else 0
        if not bit:
            return None
        taken |= bit
        total += bit.bit_length()
    return total


def _digits(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length())
        mask ^= bit
    return out


def _shift(layer: int, by: int) -> int:
    return layer << by if by >= 0 else layer >> -by


def graph_size(weights: Sequence[int], total: int, n: int) -> int:
    """The partial sums of a sum's graph over all its layers with every digit 1..n possible: the most a
    search ever holds of it (narrowed digits only shrink the windows)."""
    m = len(weights)
    lo, hi = layer_bounds(weights, [1] * m, [n] * m, total)
    return sum(max(0, b - a + 1) for a, b in zip(lo, hi, strict=True))


def layer_bounds(
    weights: Sequence[int], lows: Sequence[int], highs: Sequence[int], total: int
) -> tuple[list[int], list[int]]:
    """The window of each layer of the graph: after i terms (i = 0..m), the partial sums that the terms
    so far can make and the terms left can still bring to ``total``, each digit i between ``lows[i]`` and
    ``highs[i]``. A window with low > high means the sum cannot be kept."""
    m = len(weights)
    least = [0] * (m + 1)
    most = [0] * (m + 1)
    for i, w in enumerate(weights):
        a, b = w * lows[i], w * highs[i]
        least[i + 1] = least[i] + min(a, b)
        most[i + 1] = most[i] + max(a, b)
    lo = [max(least[i], total - (most[m] - most[i])) for i in range(m + 1)]
    hi = [min(most[i], total - (least[m] - least[i])) for i in range(m + 1)]
    return lo, hi


def derived_sums(
    n: int,
    houses: Sequence[Sequence[int]],
    bands: Sequence[Sequence[Sequence[int]]],
    cages: Sequence[tuple[Sequence[int], int]],
) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Sums that the houses and the cage totals imply, as ``(cells, coefficients, total)``: what a killer
    solver reads as innies and outies (the rule of 45).

    - a house less the cages inside it adds up to the house's total less theirs (a hidden cage);
    - k consecutive houses of a band (``bands``: rows top down and bottom up, columns both ways, the
      regions) together add up to k times a house's total: the cells they hold outside the cages mostly
      inside them, less the cells of those cages outside, add up to that less the cages' totals, kept
      where at most n cells differ and one side has at most 2 (as the Interactive Sudoku Solver does);
    - the cells of the grid outside every cage, when fewer than n, add up to what the cages leave.

    ``cages`` are (cells, total) of cages that do not overlap. Every derived sum is implied by the rules,
    so adding it changes no solution; it lets the bounds of distinct digits reason over a whole band."""
    full = n * (n + 1) // 2
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

    def add(plus: set[int], minus: set[int], total: int) -> None:
        if not plus and not minus:
            return
        if not plus or (minus and min(minus) < min(plus)):  # a sum and its negation are one: one sign
            plus, minus, total = minus, plus, -total
        terms = sorted((c, 1) for c in plus) + sorted((c, -1) for c in minus)
        key = (tuple(c for c, _ in terms), tuple(w for _, w in terms))
        found.setdefault(key, total)

    pieces = [(frozenset(cells), total) for cells, total in cages]
    for house in houses:
        if len(house) != n:
            continue
        inside = [(p, t) for p, t in pieces if p <= set(house)]
        if inside:
            rest = set(house).difference(*(p for p, _ in inside))
            if rest and len(rest) < n - 1:  # a house less one cell says no more than the house
                add(rest, set(), full - sum(t for _, t in inside))
    for band in bands:
        region: set[int] = set()
        covered: set[int] = set()
        used = 0
        left = list(pieces)
        for k, house in enumerate(band[:-1], start=1):
            region.update(house)
            for piece in list(left):
                if 2 * len(piece[0] & region) > len(piece[0]):
                    left.remove(piece)
                    covered |= piece[0]
                    used += piece[1]
            if k == 1:
                continue  # the hidden cages above hold it
            plus, minus = region - covered, covered - region
            if len(plus) + len(minus) <= n and min(len(plus), len(minus)) <= 2:
                add(plus, minus, k * full - used)
    outside = set(range(n * n)).difference(*(p for p, _ in pieces))
    if pieces and 0 < len(outside) < n:
        add(outside, set(), n * full - sum(t for _, t in pieces))
    return [(cells, weights, total) for (cells, weights), total in found.items()]


#: Cells of the smaller of two sums that must see the other for ``combined_sums`` to join them.
RELATED_CELLS = 6
#: The most cells a combined sum holds, in houses' worth (four diagonals of a 9x9 make 32): the work of
#: scoring a union grows with the square of its cells, and 36x36 grids hold sums of hundreds.
MOST_COMBINED = 4


@dataclass(frozen=True)
class _Record:
    """A sum in ``combined_sums``: its cells (sorted), total, score, and whether a rule states it."""

    cells: tuple[int, ...]
    total: int
    score: int
    original: bool


def _record(
    cells: tuple[int, ...], total: int, n: int, peers: Sequence[Sequence[int]], original: bool
) -> _Record | None:
    """A sum's record, scored as the JS solver scores it: its exclusion groups (``exclusion_groups``)
    bound it to [least, most]; its freedom ``dof`` is its distance to the nearer bound; each group of k
    cells scores k * (n - k) - dof (many cells close to a bound: few ways to fill them). None when the
    total is out of the bounds (the sum's own propagator finds that)."""
    groups = _scoring_groups(cells, peers)
    least, most = _group_bounds(groups, n)
    if not least <= total <= most:
        return None
    dof = min(total - least, most - total)
    return _Record(cells, total, sum(len(g) * (n - len(g)) - dof for g in groups), original)


def combined_sums(
    n: int, sums: Sequence[tuple[Sequence[int], int]], peers: Sequence[Sequence[int]]
) -> list[tuple[tuple[int, ...], int]]:
    """New sums from sums that do not overlap, taken together: two sums whose cells see each other
    (``RELATED_CELLS`` of the smaller see the other) add up to the sum of their totals, and over their
    union the exclusion groups can be larger, so the bounds of distinct digits bind tighter (two parallel
    little killers of 49 close to the largest digits they can hold: a combined 196 over 32 cells two
    away from its most). Greedy and bounded, after the Interactive Sudoku Solver's optimizer: each pair
    whose union scores higher than both (or than the two together) is a candidate; the best candidate
    replaces its two sums and new candidates pair it with the rest; repeat. Returns the (cells, total)
    of the unions that remain with a positive score (the rules' own sums are not repeated)."""
    active: dict[tuple[int, ...], _Record] = {}
    for cells, total in sums:
        key = tuple(sorted(cells))
        if len(set(key)) == len(key) <= n and key not in active:  # a sum longer than a house: left out
            record = _record(key, total, n, peers, True)
            if record is not None:
                active[key] = record
    sees = [frozenset(p) for p in peers]

    def related(a: _Record, b: _Record) -> bool:
        small, big = (a, b) if len(a.cells) <= len(b.cells) else (b, a)
        if len(small.cells) < RELATED_CELLS or not set(small.cells).isdisjoint(big.cells):
            return False
        return sum(not sees[c].isdisjoint(big.cells) for c in small.cells) >= RELATED_CELLS

    candidates: list[tuple[_Record, _Record, _Record]] = []

    def pair(a: _Record, b: _Record) -> None:
        if not related(a, b):
            return
        cells = tuple(sorted(a.cells + b.cells))
        if cells in active or len(cells) > MOST_COMBINED * n:
            return
        union = _record(cells, a.total + b.total, n, peers, False)
        if union is None or (min(a.score, b.score) >= union.score and union.score <= a.score + b.score):
            return
        candidates.append((union, a, b))

    records = list(active.values())
    for i, a in enumerate(records):
        for b in records[i + 1 :]:
            pair(a, b)
    while True:
        live = [
            c
            for c in candidates
            if active.get(c[1].cells) is c[1] and active.get(c[2].cells) is c[2] and c[0].cells not in active
        ]
        if not live:
            break
        union, a, b = max(live, key=lambda c: (c[0].score, c[0].cells))
        candidates = [c for c in live if c[0] is not union]
        del active[a.cells], active[b.cells]
        active[union.cells] = union
        for other in list(active.values()):
            if other is not union:
                pair(union, other)
    return [(r.cells, r.total) for r in active.values() if not r.original and r.score > 0]


#: The most cells ``_scoring_groups`` splits as ``exclusion_groups`` does (its best of three greedy
#: orders, cubic in the cells); beyond, one greedy pass (quadratic): 36x36 grids hold sums of hundreds.
EXACT_GROUPS = 40


def _scoring_groups(cells: Sequence[int], peers: Sequence[Sequence[int]]) -> list[list[int]]:
    """The exclusion groups a combined sum is scored by: ``exclusion_groups`` up to ``EXACT_GROUPS``
    cells, else one greedy pass in the cells' order (``_split``), the JS solver's estimate."""
    if len(cells) <= EXACT_GROUPS:
        return exclusion_groups(cells, peers)
    return _split(cells, _seen(cells, peers), "given")


def _group_bounds(groups: Sequence[Sequence[int]], n: int) -> tuple[int, int]:
    """The least and the most a sum over these exclusion groups can add up to (distinct digits 1..n in
    each group)."""
    least = sum(len(g) * (len(g) + 1) // 2 for g in groups)
    most = sum(len(g) * n - len(g) * (len(g) - 1) // 2 for g in groups)
    return least, most


def crossing_sums(
    n: int,
    houses: Sequence[Sequence[int]],
    sums: Sequence[tuple[Sequence[int], int]],
    peers: Sequence[Sequence[int]],
) -> list[tuple[tuple[int, ...], int]]:
    """Sums across a house: when sums that do not overlap cover a house of n cells (of ``sums`` that
    cross it, those that overlap fewest of the others first, each that overlaps none taken before), with
    any gap filled by other houses that meet it only there, their cells outside the house add up to their
    totals and those houses' less the house's; houses wholly among those cells come off too. Kept where
    that is tight: its bounds by exclusion groups span more than four times its distance to the nearer
    one (the Interactive Sudoku Solver's sum intersections: a diagonal crossed by little killers and
    cages)."""
    full = n * (n + 1) // 2
    whole = [frozenset(h) for h in houses if len(h) == n]
    pieces = [(frozenset(cells), total) for cells, total in sums]
    found: dict[tuple[int, ...], int] = {}
    for house in whole:
        used: set[int] = set()
        total = 0
        crossing = [(cells, t) for cells, t in pieces if cells & house]
        fewest = sorted(crossing, key=lambda piece: sum(1 for other, _ in crossing if other & piece[0]))
        for cells, t in fewest:
            if used.isdisjoint(cells):
                used |= cells
                total += t
        if not used:
            continue
        for other in whole:
            uncovered = house - used
            if not uncovered:
                break
            meet = other & house
            if other is not house and len(meet) > 1 and meet <= uncovered and used.isdisjoint(other):
                used |= other
                total += full
        if not house <= used:
            continue
        outside = used - house
        total -= full
        for other in sorted(whole, key=len):
            if other <= outside:
                outside -= other
                total -= full
        if not outside:
            continue
        cells = tuple(sorted(outside))
        least, most = _group_bounds(_split(cells, _seen(cells, peers), "given"), n)
        if least <= total <= most and most - least > 4 * min(total - least, most - total):
            found.setdefault(cells, total)
    return list(found.items())


def without_houses(
    cells: Sequence[int], weights: Sequence[int], total: int, rules: Rules
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The same sum on a grid of ``rules`` with fewer terms: where it weighs most cells of a house alike
    (w on more than half of them), those terms become w times the house's total less the house's other
    cells (a pill minus a line through eight whole rows is a sum of the pill and the rest of its row).
    Every solution keeps the two alike; the dfs reasons on the shorter, whose graph is a fraction of the
    long one. A sum that would lose every term is kept as it is."""
    terms = dict(zip(cells, weights, strict=True))
    whole = rules.n * (rules.n + 1) // 2
    changed = True
    while changed:
        changed = False
        for house in rules.houses:
            counts: dict[int, int] = {}
            for c in house:
                if c in terms:
                    counts[terms[c]] = counts.get(terms[c], 0) + 1
            w, count = max(counts.items(), key=lambda kv: kv[1], default=(0, 0))
            if 2 * count <= len(house):
                continue
            rest = {c: terms.get(c, 0) - w for c in house if terms.get(c) != w}
            shorter = {c: x for c, x in terms.items() if c not in house}
            shorter.update((c, x) for c, x in rest.items() if x)
            if not shorter or len(shorter) >= len(terms):  # fewer terms each time: it ends
                continue
            terms, total, changed = shorter, total - w * whole, True
    return tuple(terms), tuple(terms.values()), total


@lru_cache(maxsize=RULES_KEPT)
def implied_sums(rules: Rules) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """The sums that the houses and the sums of the rules imply (``derived_sums``: hidden cages, innies
    and outies of bands of rows, of columns and of regions), from the cages with totals and the other
    sums of unit coefficients (little killers, region sum segments, X and V pairs...) that overlap none
    taken before them; then the unions of neighbouring sums (``combined_sums``) and the sums across a
    house (``crossing_sums``)."""
    unit = [(cells, total) for cells, weights, total in rules.linear_sums if set(weights) == {1}]
    unit += [(p.cells, p.value) for p in rules.pairs if p.relation == "sum" and not p.negated]  # X, V
    taken: list[tuple[tuple[int, ...], int]] = []
    seen: set[int] = set()
    for cells, total in [(c.cells, c.total) for c in rules.cages if c.total is not None] + unit:
        if seen.isdisjoint(cells) and len(set(cells)) == len(cells):
            taken.append((tuple(cells), total))
            seen.update(cells)
    if not taken:
        return []
    n = rules.n
    rows = [rules.houses[r] for r in range(n)]
    cols = [rules.houses[n + c] for c in range(n)]
    bands = [rows, rows[::-1], cols, cols[::-1], list(rules.regions)]
    out = derived_sums(n, rules.houses, bands, taken)
    for cells, total in combined_sums(n, taken + unit, rules.peer_sets):
        out.append((cells, (1,) * len(cells), total))
    every = [(c.cells, c.total) for c in rules.cages if c.total is not None] + unit
    for cells, total in crossing_sums(n, rules.houses, every, rules.peer_sets):
        out.append((cells, (1,) * len(cells), total))
    return out


def _open(masks: Sequence[int]) -> int:
    """How many of ``masks`` hold more than one digit."""
    return sum(1 for mask in masks if mask & (mask - 1))
