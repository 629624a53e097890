"""Minimal classic 9x9 puzzles in one compiled call each, uniqueness proved by the band search.

The generator's fast path (solver ``dfs``): no SAT solver, no Python per uniqueness check. A call

1. draws a full grid: up to 24 random cells get a random digit each, kept only where propagation finds no
   clash, the band search (``backends.dfs_bands``) completes them (a rare dead end: the caller draws
   again), and the digits of the grid are relabelled at random;
2. removes the clues orbit by orbit in a random order: an orbit goes when the band search, counting to
   two, still finds one solution, and comes back otherwise. An orbit that had to stay could not go later
   either (fewer clues never make a puzzle unique again), so one pass leaves a minimal set, and its last
   successful removal is a complete search that proved the puzzle unique.

Every random choice comes from the caller's ``random.Random``: it seeds the kernel's own generator
(SplitMix64, integer arithmetic), which draws the seeded cells, their digits and the removal order.
"""

from __future__ import annotations

import functools
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
def _below(state, n):
    """A random integer in ``0..n-1`` from SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
    number generators", OOPSLA 2014) on ``state[0]``: integer arithmetic, the same on every machine."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return np.int64(z % np.uint64(n))


@njit(cache=True)
def _shuffle(values, state):
    """Fisher-Yates, in place."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = _below(state, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True)
def _minimal(state, orbit_cells, orbit_start, puzzle, grid):
    """Steps 1 and 2 of the module docstring into ``grid`` (the solution) and ``puzzle`` (its clues), every
    choice drawn from the generator ``state``; False at a dead end. Orbit k is ``orbit_cells[orbit_start[k]:
    orbit_start[k + 1]]``."""
    states = np.empty((LEVELS, WORDS), np.int64)
    branch = np.zeros(LEVELS, np.int64)
    untried = np.zeros(LEVELS, np.int64)
    ctr = np.zeros(_NCTR, np.int64)
    found = np.zeros((2, 81), np.uint8)
    cells = np.arange(81)
    _shuffle(cells, state)
    digits = np.arange(1, 10).astype(np.uint8)
    _shuffle(digits, state)
    puzzle[:] = 0
    for k in range(SEEDED):
        cell = cells[k]
        first = _below(state, 9)
        for j in range(9):
            puzzle[cell] = digits[(first + j) % 9]
            start(puzzle, states, ctr)
            if ctr[_STATE] != _DONE:  # propagation found no clash
                break
        else:
            puzzle[cell] = 0
    if _count(puzzle, states, branch, untried, ctr, found, 1) == 0:
        return False
    _shuffle(digits, state)  # relabelled: the search's habit of trying small digits first leaves no trace
    for cell in range(81):
        grid[cell] = digits[found[0, cell] - 1]
    puzzle[:] = grid
    order = np.arange(orbit_start.shape[0] - 1)
    _shuffle(order, state)
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
            orbits = np.arange(82, dtype=np.int64)  # the real call's types: 81 orbits of one cell
            _minimal(
                np.zeros(1, np.uint64), orbits[:81], orbits, np.zeros(81, np.uint8), np.zeros(81, np.uint8)
            )
        _LOADED = True


@functools.cache
def _orbit_arrays(orbits: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """The orbits' cells end to end, and where each orbit starts (one more entry: the end)."""
    cells = np.array([c for orbit in orbits for c in orbit], np.int64)
    return cells, np.cumsum([0, *map(len, orbits)], dtype=np.int64)


def minimal_puzzle(rng: random.Random, orbits: Sequence[Sequence[int]]) -> tuple[list[int], list[int]] | None:
    """A random full 9x9 grid and a minimal unique clue set of it made of whole ``orbits`` (cells of the
    grid as digits, clues as cells), or None at a dead end (draw again)."""
    _load()
    orbit_cells, orbit_start = _orbit_arrays(tuple(map(tuple, orbits)))
    puzzle = np.zeros(81, np.uint8)
    grid = np.zeros(81, np.uint8)
    state = np.array([rng.getrandbits(64)], np.uint64)
    if not _minimal(state, orbit_cells, orbit_start, puzzle, grid):
        return None
    return grid.tolist(), np.flatnonzero(puzzle).tolist()
