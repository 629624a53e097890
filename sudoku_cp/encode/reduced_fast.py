"""The reduced encoding of a puzzle cut out of arrays of its shape's full encoding, for a solver per puzzle.

``clause_families(puzzle, "reduced")`` builds Kwon and Jain's formula group by group in Python, about
1.3 ms for a 9x9 puzzle: as long as the SAT search itself on the hardest puzzles. ``ReducedTemplate``
holds the empty grid's at-least-one groups and pairwise at-most-one pairs as arrays, once per shape; a
puzzle's formula is then the groups and pairs whose variables its givens leave open, selected with numpy
(about 0.18 ms). The clauses are those of ``clause_families(puzzle, "reduced", "pairwise")`` in the same
order, except that a pair repeated by two units (two cells sharing a row and a box) comes only once.

>>> from sudoku_cp.grid import Puzzle
>>> puzzle = Puzzle.from_string("1234341221434...")  # r4c2, r4c3, r4c4 blank: variables 55, 58, 61
>>> clauses, free = ReducedTemplate.of(puzzle.rules).clauses(puzzle)
>>> clauses[:3], len(clauses)
([[55], [58], [61]], 12)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

import numpy as np

from ..grid import Puzzle, Rules
from ..rules import RULES_KEPT

__all__ = ["ReducedTemplate"]


class ReducedTemplate:
    """The full pairwise encoding of one shape as arrays, from which each puzzle's reduced formula is cut."""

    def __init__(self, rules: Rules) -> None:
        n, ncells = rules.n, rules.ncells
        self.rules = rules
        var = np.arange(1, ncells * n + 1, dtype=np.int64).reshape(ncells, n)  # var[cell, digit - 1]
        self.units = np.array(rules.houses, dtype=np.intp)  # (3n, n) cells
        self.cell_units = np.array(rules.houses_of, dtype=np.intp)  # (ncells, 3)
        self.cell_vars = var  # the at-least-one group of each cell
        self.unit_vars = var[self.units].transpose(0, 2, 1).reshape(-1, n)  # group (unit, digit): unit-major
        first, second = np.triu_indices(n, 1)  # the pairs of a group in python-sat's pairwise order
        cell_pairs = np.stack([var[:, first], var[:, second]])  # (2, pairs): the two ends of each pair
        unit_pairs = np.stack([self.unit_vars[:, first], self.unit_vars[:, second]])
        _, keep = np.unique(unit_pairs[0] * (var.size + 1) + unit_pairs[1], return_index=True)  # first ones
        self._cell_ends = cell_pairs.reshape(2, -1)
        self._unit_ends = unit_pairs.reshape(2, -1)[:, np.sort(keep)]  # in their order
        # the binary clauses as ready-made lists, shared by every formula cut from them (no solver alters a
        # clause it is given): building ~1,000 small lists per puzzle would cost more than selecting them
        self._cell_clauses = (-self._cell_ends.T).tolist()
        self._unit_clauses = (-self._unit_ends.T).tolist()

    @staticmethod
    def of(rules: Rules) -> ReducedTemplate:
        """The template of ``shape``, built once per process."""
        return _template(rules)

    def open_variables(self, puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray] | None:
        """``(free, placed)``: ``free[v]`` when variable v is a candidate (a blank cell, a digit no peer is
        given), ``placed[g]`` when group g (unit, digit) holds the digit among the givens; None when two
        givens clash (a digit twice in a unit)."""
        n = self.rules.n
        grid = np.asarray(puzzle.cells, dtype=np.intp)
        holds = np.zeros((grid.size, n + 1), dtype=bool)
        holds[np.arange(grid.size), grid] = True
        in_unit = holds[self.units][:, :, 1:].sum(axis=1)  # (3n, n): givens of each digit in each unit
        if (in_unit > 1).any():
            return None
        placed = in_unit > 0
        taken = placed[self.cell_units].any(axis=1)  # (ncells, n): a peer holds the digit
        free = ~taken & (grid == 0)[:, None]
        return np.concatenate([[False], free.ravel()]), placed.ravel()

    def clauses(self, puzzle: Puzzle) -> tuple[list[list[int]], np.ndarray] | None:
        """The puzzle's reduced formula and its ``free`` variables (``open_variables``); None on a clash.

        A unit-digit group not placed and without a candidate left is an empty clause: no solution. The
        binary clauses are lists shared with the template and every other formula cut from it: read them,
        never change them.
        """
        cut = self.open_variables(puzzle)
        if cut is None:
            return None
        free, placed = cut
        blank = np.asarray(puzzle.cells) == 0
        clauses = _groups(self.cell_vars[blank], free)
        clauses += _pairs(self._cell_ends, self._cell_clauses, free)
        clauses += _groups(self.unit_vars[~placed], free)
        clauses += _pairs(self._unit_ends, self._unit_clauses, free)
        return clauses, free

    def decode(self, model: list[int], puzzle: Puzzle, free: np.ndarray) -> tuple[Puzzle, list[int]]:
        """The grid a model of the puzzle's formula assigns, and the clause that blocks it (the negated
        digits of the blank cells). Variables outside the formula are ignored, whatever their value.
        ``ValueError`` unless every blank cell gets exactly one digit."""
        n, ncells = self.rules.n, self.rules.ncells
        values = np.array(model[: ncells * n], dtype=np.int64)
        true = np.flatnonzero((values > 0) & free[1 : values.size + 1])  # variable - 1
        cells, digits = np.divmod(true, n)
        grid = np.array(puzzle.cells, dtype=np.int64)
        if not np.array_equal(np.bincount(cells, minlength=ncells), grid == 0):
            raise ValueError("the model does not give every blank cell exactly one digit")
        grid[cells] = digits + 1
        return Puzzle(self.rules, tuple(grid.tolist())), (-(true + 1)).tolist()


def _groups(groups: np.ndarray, free: np.ndarray) -> list[list[int]]:
    """Each group's free variables (an at-least-one clause each, empty when none is free)."""
    mask = free[groups]
    flat = groups[mask].tolist()
    ends = np.cumsum(mask.sum(axis=1)).tolist()
    return [flat[start:end] for start, end in pairwise([0, *ends])]


def _pairs(ends: np.ndarray, clauses: list[list[int]], free: np.ndarray) -> list[list[int]]:
    """The clauses of the pairs (``ends[0][k]``, ``ends[1][k]``) whose two variables are both free."""
    keep = np.flatnonzero(free.take(ends[0]) & free.take(ends[1])).tolist()
    return list(map(clauses.__getitem__, keep))


@lru_cache(maxsize=RULES_KEPT)
def _template(rules: Rules) -> ReducedTemplate:
    return ReducedTemplate(rules)
