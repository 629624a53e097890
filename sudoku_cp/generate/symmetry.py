"""Symmetries of a clue pattern: which cell maps of the square grid the givens must be invariant under.

A symmetric puzzle's givens are a union of orbits (the classes of cells the symmetry group maps onto
each other), so the generator removes and keeps whole orbits. Only the pattern of filled cells is
symmetric, not the digits, as in published puzzles.

>>> from sudoku_cp.rules import Rules
>>> [len(o) for o in orbits(Rules.classic(2, 2), "rot90")]
[4, 4, 4, 4]
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..grid import Puzzle, Rules

__all__ = ["SYMMETRIES", "check_symmetry", "has_symmetry", "orbits", "pattern_sizes"]

#: A map of (row, col) in an n x n grid.
CellMap = Callable[[int, int, int], tuple[int, int]]

_MAPS: dict[str, CellMap] = {
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "mirror": lambda r, c, n: (r, n - 1 - c),
    "flip": lambda r, c, n: (n - 1 - r, c),
    "diagonal": lambda r, c, n: (c, r),
    "antidiagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
}

#: Symmetry name -> (what it keeps, the generators of its group).
SYMMETRIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "none": ("no symmetry", ()),
    "rot180": ("half-turn rotation about the centre (the classic newspaper pattern)", ("rot180",)),
    "rot90": ("quarter-turn rotation about the centre", ("rot90",)),
    "mirror": ("reflection in the vertical axis (left-right)", ("mirror",)),
    "flip": ("reflection in the horizontal axis (top-bottom)", ("flip",)),
    "diagonal": ("reflection in the main diagonal (r1c1 to rNcN)", ("diagonal",)),
    "antidiagonal": ("reflection in the anti-diagonal (r1cN to rNc1)", ("antidiagonal",)),
    "biaxial": ("both axis reflections (so also the half turn)", ("mirror", "flip")),
    "bidiagonal": ("both diagonal reflections (so also the half turn)", ("diagonal", "antidiagonal")),
    "dihedral": ("all eight symmetries of the square", ("rot90", "mirror")),
}


def check_symmetry(name: str) -> str:
    """``name`` itself, or ``ValueError`` naming the valid symmetries."""
    if name not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {name!r}; valid: {', '.join(SYMMETRIES)}")
    return name


@cache
def orbits(rules: Rules, name: str = "none") -> tuple[tuple[int, ...], ...]:
    """The orbits of the cells under the symmetry ``name``: sorted cell tuples, by their first cell."""
    n = rules.n
    maps = [_MAPS[g] for g in SYMMETRIES[check_symmetry(name)][1]]
    seen: set[int] = set()
    found = []
    for start in range(rules.ncells):
        if start in seen:
            continue
        orbit, todo = {start}, [start]
        while todo:
            r, c = divmod(todo.pop(), n)
            for f in maps:
                rr, cc = f(r, c, n)
                image = rr * n + cc
                if image not in orbit:
                    orbit.add(image)
                    todo.append(image)
        seen |= orbit
        found.append(tuple(sorted(orbit)))
    return tuple(found)


@cache
def pattern_sizes(rules: Rules, name: str = "none") -> frozenset[int]:
    """Every clue count a pattern with this symmetry can have (the sums of orbit sizes)."""
    reachable = 1  # bit k set: k clues reachable
    for orbit in orbits(rules, name):
        reachable |= reachable << len(orbit)
    return frozenset(k for k in range(rules.ncells + 1) if reachable >> k & 1)


def has_symmetry(puzzle: Puzzle, name: str) -> bool:
    """True when the puzzle's filled cells are a union of the symmetry's orbits."""
    cells = puzzle.cells
    return all(len({bool(cells[c]) for c in orbit}) == 1 for orbit in orbits(puzzle.rules, name))
