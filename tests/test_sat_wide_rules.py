"""sat where 10x10 and larger grids differ from 9x9: a pill showing a digit of 10 or more, and formulas whose
long clauses (a killer cage's digit sets) outgrow the native loader's buffer more than once."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pysat.solvers import Solver

from sudoku_cp import Puzzle, is_solution
from sudoku_cp.backends import make_backend
from sudoku_cp.backends.sat_native import load
from sudoku_cp.rules import Arrow, Rules
from sudoku_cp.rules.constraints import pill_value
from sudoku_cp.samples import pattern_grid


def _pill_puzzle() -> tuple[Puzzle, Puzzle]:
    """A 10x10 puzzle whose blank pill shows (digit, 10), its arrow's cells given; and its solution."""
    base = Rules.classic(2, 5)
    n = base.n
    for seed in range(200):
        grid = pattern_grid(base, seed).cells
        pill = next((c for c in range(n - 1) if grid[c + 1] == 10 and grid[c] <= 5), None)
        if pill is None:
            continue
        rng = random.Random(seed)
        target = pill_value((grid[pill], grid[pill + 1]))
        for _ in range(20000):
            line = tuple(rng.sample(range(n, n * n), rng.randint(3, 8)))
            if sum(grid[c] for c in line) == target:
                rules = base.with_(arrows=(Arrow((pill, pill + 1), line),))
                cells = list(grid)
                cells[pill] = cells[pill + 1] = 0
                return Puzzle(rules, tuple(cells)), Puzzle(rules, grid)
    raise AssertionError("no 10x10 grid with such a pill")


@pytest.mark.parametrize("propagate", [True, False])
def test_a_pill_showing_ten_or_more_is_encoded_as_it_is_read(propagate: bool) -> None:
    """The CNF read a pill's value as its decimal text, so a pill of (1, 10) = 20 had no way to show: sat
    answered "no solution" where dfs and cpsat found the grid."""
    puzzle, solution = _pill_puzzle()
    assert is_solution(puzzle, solution)
    found = make_backend("sat", propagate=propagate).enumerate(puzzle, limit=2)
    assert found.complete and found.solutions == (solution,)
    assert make_backend("dfs:python").enumerate(puzzle, limit=2).solutions == (solution,)


@pytest.mark.parametrize("name", ["glucose4", "minisat22", "glucose3"])
def test_the_native_loader_takes_long_clauses_growing_along_the_formula(name: str) -> None:
    """Clauses of 70, then 130, then 200 literals: the buffer grew once, to the first, and the formula was
    then reported unsatisfiable."""
    sizes, variables = (3, 70, 130, 200), 200
    clauses = [list(range(1, size + 1)) for size in sizes] + [[-1], [-2]]  # satisfiable: 3 true
    lits = np.array([x for clause in clauses for x in clause], np.int32)
    ends = np.cumsum([len(clause) for clause in clauses]).astype(np.int32)
    with Solver(name=name) as solver:
        assert load(solver, name, variables, lits, ends)
        assert solver.solve()
        model = set(solver.get_model())
        assert all(any(x in model for x in clause) for clause in clauses)
