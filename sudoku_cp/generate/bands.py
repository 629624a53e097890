"""Minimal classic 9x9 puzzles in one compiled call each, uniqueness proved by the band search.

The generator's fast path (solver ``dfs``): no SAT solver, no Python per uniqueness check. A call

1. draws a full grid: up to 24 random cells get a random digit each, kept only where propagation finds no
   clash, and the band search (``backends.dfs_bands``) completes them (a rare dead end: the caller draws
   again);
2. removes the clues orbit by orbit in a random order: an orbit goes when the band search, counting to
   two, still finds one solution, and comes back otherwise. An orbit that had to stay could not go later
   either (fewer clues never make a puzzle unique again), so one pass leaves a minimal set, and its last
   successful removal is a complete search that proved the puzzle unique.

Every random choice comes from the caller's ``random.Random``; the kernel itself is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from numba import njit

from ..backends.dfs_bands import LEVELS, WORDS, run, start
from ..backends.dfs_compiled import _COUNT, _DONE, _NCTR, _STATE
from ..signals import compiling

__all__ = ["SEEDED", "minimal_puzzle"]

#: Cells of a grid's random start (each kept only where propagation allows its digit).
SEEDED = 24


@njit(cache=True)
def _count(puzzle, states, branch, untried, ctr, found, limit):
    """Solutions of ``puzzle`` (81 digits, 0 empty) up to ``limit``, by the band search; the first in
    ``found[0]``."""
    start(puzzle, states, ctr)
    run(states, branch, untried, ctr, found, False, limit, 0)
    return ctr[_COUNT]


@njit(cache=True)
def _minimal(cells, digits, offsets, order, orbit_cells, orbit_start, puzzle, grid):
    """Steps 1 and 2 of the module docstring into ``grid`` (the solution) and ``puzzle`` (its clues);
    False at a dead end. ``cells``/``offsets``: the seeded cells and where each starts in ``digits`` (a
    permutation of 1-9); ``order``: the orbits' removal order; orbit k is ``orbit_cells[orbit_start[k]:
    orbit_start[k + 1]]``."""
    states = np.empty((LEVELS, WORDS), np.int64)
    branch = np.zeros(LEVELS, np.int64)
    untried = np.zeros(LEVELS, np.int64)
    ctr = np.zeros(_NCTR, np.int64)
    found = np.zeros((2, 81), np.uint8)
    puzzle[:] = 0
    for k in range(cells.shape[0]):
        cell = cells[k]
        for j in range(9):
            puzzle[cell] = digits[(offsets[k] + j) % 9]
            start(puzzle, states, ctr)
            if ctr[_STATE] != _DONE:  # propagation found no clash
                break
        else:
            puzzle[cell] = 0
    if _count(puzzle, states, branch, untried, ctr, found, 1) == 0:
        return False
    grid[:] = found[0]
    puzzle[:] = grid
    for k in order:
        for i in range(orbit_start[k], orbit_start[k + 1]):
            puzzle[orbit_cells[i]] = 0
        if _count(puzzle, states, branch, untried, ctr, found, 2) != 1:
            for i in range(orbit_start[k], orbit_start[k + 1]):
                puzzle[orbit_cells[i]] = grid[orbit_cells[i]]
    return True


_LOADED = False


def _load() -> None:
    """Compile the kernel, or load it from numba's cache, once per process, with Ctrl-C held."""
    global _LOADED
    if not _LOADED:
        with compiling("the generator's band search", 30):
            one, digits = np.zeros(1, np.int64), np.arange(1, 10, dtype=np.uint8)  # the real call's types
            _minimal(
                one,
                digits,
                one,
                one,
                one,
                np.zeros(2, np.int64),
                np.zeros(81, np.uint8),
                np.zeros(81, np.uint8),
            )
        _LOADED = True


def minimal_puzzle(rng: random.Random, orbits: Sequence[Sequence[int]]) -> tuple[list[int], list[int]] | None:
    """A random full 9x9 grid and a minimal unique clue set of it made of whole ``orbits`` (cells of the
    grid as digits, clues as cells), or None at a dead end (draw again)."""
    _load()
    cells = np.array(rng.sample(range(81), SEEDED), np.int64)
    digits = np.array(rng.sample(range(1, 10), 9), np.uint8)
    offsets = np.array([rng.randrange(9) for _ in range(SEEDED)], np.int64)
    order = np.array(rng.sample(range(len(orbits)), len(orbits)), np.int64)
    orbit_cells = np.array([c for orbit in orbits for c in orbit], np.int64)
    orbit_start = np.cumsum([0, *map(len, orbits)], dtype=np.int64)
    puzzle = np.zeros(81, np.uint8)
    grid = np.zeros(81, np.uint8)
    if not _minimal(cells, digits, offsets, order, orbit_cells, orbit_start, puzzle, grid):
        return None
    return grid.tolist(), np.flatnonzero(puzzle).tolist()
