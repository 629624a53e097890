"""The reduced formula cut from a shape's template: the clauses of ``clause_families`` (with each repeated
pair once), clashing givens left to ``clause_families``, and decoding of its models."""

from __future__ import annotations

import random

import pytest
from conftest import FULL
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_cp.encode.cnf import clause_families
from sudoku_cp.encode.reduced_fast import ReducedTemplate
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.samples import blanked, pattern_grid
from sudoku_cp.verify import is_solution

SHAPES = [
    Rules.classic(2, 2),
    Rules.classic(2, 3),
    Rules.classic(3, 3),
    Rules.classic(3, 4),
    Rules.classic(4, 4),
]


def _expected(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """``clause_families(puzzle, "reduced", "pairwise")`` in order, the unit pairs without repeats."""
    families, _ = clause_families(puzzle, "reduced", "pairwise")
    groups = ("cell_at_least_one", "cell_at_most_one", "unit_at_least_one")
    clauses = [tuple(c) for name in groups for c in families[name]]
    return clauses + list(dict.fromkeys(tuple(c) for c in families["unit_at_most_one"]))


def _random_puzzle(rules: Rules, rng: random.Random, share: float) -> Puzzle:
    """Givens at random: often clashing, sometimes leaving a cell or a unit-digit without a place."""
    cells = [0] * rules.ncells
    for cell in rng.sample(range(rules.ncells), int(share * rules.ncells)):
        cells[cell] = rng.randint(1, rules.n)
    return Puzzle(rules, tuple(cells))


@settings(max_examples=150 if FULL else 50, deadline=None)
@given(st.sampled_from(SHAPES), st.randoms(use_true_random=False), st.floats(0.0, 0.5))
def test_the_cut_is_the_reduced_encoding_or_none_on_a_clash(
    rules: Rules, rng: random.Random, share: float
) -> None:
    puzzle = _random_puzzle(rules, rng, share)
    cut = ReducedTemplate.of(rules).clauses(puzzle)
    if puzzle.conflicts():
        assert cut is None
        return
    assert cut is not None
    clauses, free = cut
    assert [tuple(c) for c in clauses] == _expected(puzzle)
    assert free.sum() == sum(len(c) for c in clause_families(puzzle, "reduced")[0]["cell_at_least_one"])


@pytest.mark.parametrize("rules", SHAPES)
def test_models_of_the_cut_decode_to_solutions_and_block_them(rules: Rules) -> None:
    puzzle = blanked(pattern_grid(rules, seed=rules.n), 0.6, seed=rules.n)
    template = ReducedTemplate.of(rules)
    cut = template.clauses(puzzle)
    assert cut is not None
    clauses, free = cut
    solver = Solver(name="glucose4", bootstrap_with=clauses)
    seen = []
    while len(seen) < 3 and solver.solve():
        solution, block = template.decode(solver.get_model(), puzzle, free)
        assert is_solution(puzzle, solution) and solution not in seen
        assert len(block) == puzzle.cells.count(0) and all(lit < 0 for lit in block)
        seen.append(solution)
        solver.add_clause(block)
    assert seen
    solver.delete()


def test_decode_ignores_variables_outside_the_formula_and_rejects_a_cell_without_a_digit() -> None:
    puzzle = Puzzle.from_string("1234341221434...")
    template = ReducedTemplate.of(puzzle.rules)
    _, free = template.clauses(puzzle)
    model = list(range(1, 65))  # every variable true: only the three candidates count
    solution, block = template.decode(model, puzzle, free)
    assert solution.to_string() == "1234341221434321" and block == [-55, -58, -61]
    model[54] = -55  # the blank r4c2 (variable 55: cell 13, digit 3) gets no digit
    with pytest.raises(ValueError, match="exactly one digit"):
        template.decode(model, puzzle, free)


def test_an_empty_clause_stands_for_a_digit_with_no_place() -> None:
    # row 1 needs a 4, but both its blanks share a box with the 4 given in row 2
    puzzle = Puzzle.from_string("12....4.........")
    cut = ReducedTemplate.of(puzzle.rules).clauses(puzzle)
    assert cut is not None and [] in cut[0]
