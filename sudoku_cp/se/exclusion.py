"""Sudoku Explainer's aligned pair (6.2) and aligned triplet (7.5) exclusion.

As Sudoku Explainer 1.2.1 (N. Juillerat) searches them: base cells (two candidates or more, row-major) and
their excluders (house cells, in SE's house order, with two candidates, or two or three for triplets);
a cell seeing a naked single is no base cell. Pairs of base cells come in SE's ``Permutations`` order
(co-lexicographic), the triplet's third cell from the first two's excluders. A combination of digits is
excluded when two cells that see each other would share a digit, or when a common excluder would be left
without a candidate; a digit of a base cell that no allowed combination uses is removed. Hints that remove
something are yielded lazily, since the rating uses the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from .grid import Grid, bits
from .hints import Hint
from .subsets import permutations

__all__ = ["aligned_pair_exclusion", "aligned_triplet_exclusion"]


def _base_cells(grid: Grid, most: int) -> tuple[list[int], dict[int, list[int]]]:
    """SE's base cells and, for each, its excluders (house cells with 2..``most`` candidates)."""
    geo = grid.geo
    cands = grid.cands
    counts = [m.bit_count() for m in cands]
    base: list[int] = []
    excluders: dict[int, list[int]] = {}
    for c, count in enumerate(counts):
        if count < 2:
            continue
        ex = []
        single = False
        for h in geo.house_cells[c]:
            k = counts[h]
            if k == 1:
                single = True
                break
            if 2 <= k <= most:
                ex.append(h)
        if not single and ex:
            base.append(c)
            excluders[c] = ex
    return base, excluders


def aligned_pair_exclusion(grid: Grid) -> Iterator[Hint]:
    """SE's ``AlignedPairExclusion``, 6.2."""
    cands = grid.cands
    house_sets = grid.geo.house_sets
    base, excluders = _base_cells(grid, 2)
    if len(base) < 2:
        return
    ex_sets = {c: set(ex) for c, ex in excluders.items()}
    for i, j in permutations(2, len(base)):
        a, b = base[i], base[j]
        b_set = ex_sets[b]
        common = [cands[e] for e in excluders[a] if e in b_set]
        if len(common) < 2:
            continue
        see = b in house_sets[a]
        ma, mb = cands[a], cands[b]
        allowed_a = allowed_b = 0
        for p in bits(ma):
            pb = 1 << (p - 1)
            for q in bits(mb):
                if p == q and see:
                    continue
                u = pb | 1 << (q - 1)
                if any(not e & ~u for e in common):
                    continue
                allowed_a |= pb
                allowed_b |= 1 << (q - 1)
        removable = {}
        if ma & ~allowed_a:
            removable[a] = ma & ~allowed_a
        if mb & ~allowed_b:
            removable[b] = mb & ~allowed_b
        if removable:
            yield Hint("Aligned Pair Exclusion", 6.2, removable=removable, cells=(a, b))


@cache
def _single_bits(mask: int) -> tuple[int, ...]:
    """The bits of a mask, lowest first, each as a mask."""
    return tuple(1 << i for i in range(mask.bit_length()) if mask >> i & 1)


def _allowed3(
    ma: int, mb: int, mt: int, see_ab: bool, see_at: bool, see_bt: bool, common: list[int]
) -> tuple[int, int, int]:
    """The digits of each of three cells that some allowed combination uses (stops once all are)."""
    allowed_a = allowed_b = allowed_t = 0
    for pb in _single_bits(ma):
        for qb in _single_bits(mb):
            if pb == qb and see_ab:
                continue
            pq = pb | qb
            for rb in _single_bits(mt):
                if (rb == pb and see_at) or (rb == qb and see_bt):
                    continue
                u = pq | rb
                if any(not e & ~u for e in common):
                    continue
                allowed_a |= pb
                allowed_b |= qb
                allowed_t |= rb
                if allowed_a == ma and allowed_b == mb and allowed_t == mt:
                    return allowed_a, allowed_b, allowed_t
    return allowed_a, allowed_b, allowed_t


def aligned_triplet_exclusion(grid: Grid) -> Iterator[Hint]:
    """SE's ``AlignedExclusion(3)``, 7.5."""
    cands = grid.cands
    house_sets = grid.geo.house_sets
    base, excluders = _base_cells(grid, 3)
    if len(base) < 3:
        return
    base_set = set(base)
    ex_sets = {c: set(ex) for c, ex in excluders.items()}
    for i, j in permutations(2, len(base)):
        a, b = base[i], base[j]
        b_set = ex_sets[b]
        ab_common = [e for e in excluders[a] if e in b_set]
        if len(ab_common) < 2:
            continue  # the triplet's common excluders are among these
        twin = dict.fromkeys(excluders[a])
        twin.update(dict.fromkeys(excluders[b]))
        tails = [t for t in twin if t in base_set and t != a and t != b]
        ma, mb = cands[a], cands[b]
        see_ab = b in house_sets[a]
        for t in tails:
            t_set = ex_sets[t]
            common = [cands[e] for e in ab_common if e in t_set]
            if len(common) < 2:
                continue
            mt = cands[t]
            allowed_a, allowed_b, allowed_t = _allowed3(
                ma, mb, mt, see_ab, t in house_sets[a], t in house_sets[b], common
            )
            removable = {}
            for c, m, allowed in ((a, ma, allowed_a), (b, mb, allowed_b), (t, mt, allowed_t)):
                if m & ~allowed:
                    removable[c] = m & ~allowed
            if removable:
                yield Hint("Aligned Triplet Exclusion", 7.5, removable=removable, cells=(a, b, t))
