"""Clue removal: from a full grid to a unique clue set that is minimal or has a target size.

Clues are kept or removed by whole orbits of a symmetry (single cells without one). The steps, each a SAT
call of the ``UniquenessOracle``:

1. Find some unique clue set: start from a random part of the grid; while a second solution exists, add an
   orbit where it differs from the grid (its differences are an unavoidable set, remembered as a witness).
   The core of the first unsatisfiable call is the unique set.
2. Deletion pass: try removing each orbit in a random order. A removal that stays unique replaces the set
   by the call's core (a smaller unique set, often many clues fewer); one that does not marks the orbit
   necessary, for good, since a subset of a non-unique set is not unique either. A witness of step 1 that
   the reduced set would miss marks an orbit necessary without a call.
3. With a target size, the pass stops once the set is no larger, and random removed orbits are put back to
   reach the target exactly (a superset of a unique set is unique). Without one the pass runs to the end, so
   no orbit can be removed: the clue set is minimal.

The final clue set is confirmed by one more unsatisfiable call, so every puzzle's uniqueness is proved by a
direct solver answer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import SudokuError
from .oracle import UniquenessOracle

__all__ = ["START_FRACTION", "reduce_clues"]

#: Share of the cells the first clue set takes; minimal 9x9 puzzles keep about 30% of them.
START_FRACTION = 0.4


def reduce_clues(
    oracle: UniquenessOracle,
    orbits: Sequence[Sequence[int]],
    rng: random.Random,
    *,
    minimal: bool,
    target: int | None = None,
) -> list[int] | None:
    """The cells of a unique clue set of the oracle's fixed grid, made of whole ``orbits``.

    ``minimal``: no orbit can be removed (with ``target`` as well, the minimal set must have exactly
    ``target`` cells). ``target`` alone: exactly ``target`` cells. None when this grid and order cannot meet
    the target (the caller tries another grid).
    """
    ncells = sum(len(o) for o in orbits)
    size = [len(o) for o in orbits]
    order = list(range(len(orbits)))
    rng.shuffle(order)
    orbit_of = [0] * ncells
    for k, orbit in enumerate(orbits):
        for cell in orbit:
            orbit_of[cell] = k

    def cells_of(chosen: int) -> list[int]:
        return [c for k in order if chosen >> k & 1 for c in orbits[k]]

    def count(chosen: int) -> int:
        return sum(size[k] for k in order if chosen >> k & 1)

    def orbits_of(cells: Sequence[int]) -> int:
        mask = 0
        for c in cells:
            mask |= 1 << orbit_of[c]
        return mask

    witnesses: list[int] = []  # orbit masks of unavoidable sets: a unique set intersects each
    start = round(START_FRACTION * ncells) if target is None or minimal else min(target, ncells)
    chosen, taken = 0, 0
    for k in order:
        if taken >= start:
            break
        chosen |= 1 << k
        taken += size[k]

    while True:  # step 1: grow until unique, then take the core
        unique, cells = oracle.check(cells_of(chosen))
        if unique:
            chosen = orbits_of(cells)
            break
        differ = orbits_of(cells)
        witnesses.append(differ)
        options = [k for k in range(len(orbits)) if differ >> k & 1]
        chosen |= 1 << rng.choice(options)

    necessary = 0
    for k in order:  # step 2: the deletion pass
        if target is not None and not minimal and count(chosen) <= target:
            break
        bit = 1 << k
        if not chosen & bit or necessary & bit:
            continue
        rest = chosen & ~bit
        if any(not w & rest for w in witnesses):
            necessary |= bit
            continue
        unique, cells = oracle.check(cells_of(rest), differ=False)
        if unique:
            chosen = orbits_of(cells) & rest
        else:  # this orbit stays in the set for good, so its own witness would never spare a call
            necessary |= bit

    if target is not None:  # step 3: meet the target
        have = count(chosen)
        if have > target or (minimal and have != target):
            return None
        if have < target:
            extra = _pad([k for k in order if not chosen >> k & 1], size, target - have, rng)
            if extra is None:
                return None
            for k in extra:
                chosen |= 1 << k
    clues = sorted(cells_of(chosen))
    if not oracle.check(clues)[0]:
        raise SudokuError(f"{oracle.proved_by} found a second solution to a clue set it proved unique")
    return clues


def _pad(free: list[int], size: list[int], gap: int, rng: random.Random) -> list[int] | None:
    """Orbits among ``free``, chosen at random, whose sizes add up to exactly ``gap``; None if none do."""
    rng.shuffle(free)
    reach = [0] * (len(free) + 1)  # reach[i]: bit s set when some orbits of free[i:] add up to s
    reach[-1] = 1
    for i in range(len(free) - 1, -1, -1):
        reach[i] = reach[i + 1] | (reach[i + 1] << size[free[i]])
    if not reach[0] >> gap & 1:
        return None
    picked = []
    for i, k in enumerate(free):
        if gap == 0:
            break
        if size[k] <= gap and reach[i + 1] >> (gap - size[k]) & 1:
            picked.append(k)
            gap -= size[k]
    return picked
