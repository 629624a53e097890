"""Explanations: minimal conflicting givens, two solutions and a splitting clue, uniqueness; dfs checks."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import shared

from sudoku_cp.backends import make_backend
from sudoku_cp.explain import (
    COUNT_LIMIT,
    Explanation,
    explain,
    minimal_conflict,
    render_givens,
    smallest_unique_clues,
)
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.result import Status
from sudoku_cp.verify import is_solution

CLASSIC = Puzzle.from_string(
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
)


@pytest.fixture(scope="module")
def dfs():
    return make_backend("dfs")


def assert_minimal_conflict(puzzle: Puzzle, conflict: tuple[tuple[int, int], ...], dfs) -> None:
    """The givens are the puzzle's, cannot all hold, and each one is needed (checked by dfs, not sat)."""
    assert conflict and set(conflict) <= set(puzzle.givens)
    empty = Puzzle.empty(puzzle.rules)
    assert not dfs.enumerate(empty.with_cells(conflict), 1).solutions
    for dropped in conflict:
        rest = [g for g in conflict if g != dropped]
        assert dfs.enumerate(empty.with_cells(rest), 1).solutions, f"{dropped} is not needed"


def wrong_clue_puzzles(count: int, seed: int) -> list[Puzzle]:
    """Unique puzzles with one more clue that clashes with no given but differs from the solution."""
    rng = random.Random(seed)
    dfs = make_backend("dfs")
    out = []
    for puzzle in shared("top1465.txt", sample=count, seed=seed):
        solution = dfs.enumerate(puzzle, 1).solutions[0]
        options = [
            (cell, d)
            for cell in range(81)
            if not puzzle.cells[cell]
            for d in range(1, 10)
            if d != solution.cells[cell] and all(puzzle.cells[p] != d for p in puzzle.rules.peers[cell])
        ]
        out.append(puzzle.with_cells([rng.choice(options)]))
    return out


def test_clashing_givens_are_their_own_explanation(dfs) -> None:
    clash = CLASSIC.with_cells([(80, 4)])  # a second 4 in row 9 (r9c3 is 4)
    explanation = explain(clash)
    assert explanation.status is Status.NO_SOLUTION
    assert explanation.conflict == ((74, 4), (80, 4))
    assert explanation.summary() == "no solution: r9c3=4 r9c9=4 cannot all hold"
    assert_minimal_conflict(clash, explanation.conflict, dfs)


@pytest.mark.data
def test_conflicts_are_minimal_on_puzzles_without_a_clash(dfs) -> None:
    for puzzle in wrong_clue_puzzles(25, seed=2):
        assert not puzzle.conflicts()
        explanation = explain(puzzle)
        assert explanation.status is Status.NO_SOLUTION
        assert_minimal_conflict(puzzle, explanation.conflict, dfs)


@pytest.mark.data
def test_other_backends_explain_through_the_interface(dfs) -> None:
    for puzzle in wrong_clue_puzzles(3, seed=9):
        for backend in ("dfs", "sat:glucose4", "sat:kissat"):
            conflict = minimal_conflict(puzzle, backend)
            assert conflict is not None
            assert_minimal_conflict(puzzle, conflict, dfs)


@pytest.mark.data
def test_several_solutions_come_with_a_smallest_set_of_clues_that_makes_them_unique(dfs) -> None:
    for puzzle in shared("serg_multi_solution.txt", sample=6, seed=4):
        explanation = explain(puzzle)
        assert explanation.status is Status.MULTIPLE and explanation.count >= 2
        first, second = explanation.solutions
        assert is_solution(puzzle, first) and is_solution(puzzle, second) and first != second
        assert explanation.differences == tuple(c for c in range(81) if first.cells[c] != second.cells[c])
        assert explanation.unique_with and explanation.minimum
        assert all(first.cells[c] == d for c, d in explanation.unique_with)
        found = dfs.enumerate(puzzle.with_cells(explanation.unique_with), 2)
        assert found.solutions == (first,) and found.complete  # unique, checked by another backend
        counted = dfs.enumerate(puzzle, COUNT_LIMIT)
        assert explanation.count == len(counted.solutions) and explanation.capped == (not counted.complete)


def test_a_puzzle_with_two_solutions_is_made_unique_by_one_clue() -> None:
    # 1 and 2 swap places in r1c1 r1c2 r3c1 r3c2: a deadly rectangle with two ways to fill it
    puzzle = Puzzle.from_string("..343412..434321")
    explanation = explain(puzzle)
    assert explanation.status is Status.MULTIPLE and explanation.differences == (0, 1, 8, 9)
    assert (explanation.count, explanation.capped, explanation.minimum) == (2, False, True)
    [(cell, digit)] = explanation.unique_with
    assert cell in explanation.differences and digit == explanation.solutions[0].cells[cell]
    assert explanation.summary().startswith("2 solutions: two differ at r1c1 r1c2 r3c1 r3c2; unique with ")
    assert explanation.summary().endswith("(a smallest set, proven unique)")


def test_many_solutions_are_counted_to_the_limit_and_the_clue_set_is_a_minimum(dfs) -> None:
    puzzle = Puzzle.from_string("1" + "." * 15)
    explanation = explain(puzzle)
    assert explanation.capped and explanation.count == COUNT_LIMIT and explanation.solutions_text == "10+"
    first = explanation.solutions[0]
    size = len(explanation.unique_with)
    assert dfs.enumerate(puzzle.with_cells(explanation.unique_with), 2).solutions == (first,)
    free = [c for c in range(16) if not puzzle.cells[c]]
    for k in range(size):  # no smaller set of the first solution's digits makes the puzzle unique
        for cells in itertools.combinations(free, k):
            clues = [(c, first.cells[c]) for c in cells]
            assert len(dfs.enumerate(puzzle.with_cells(clues), 2).solutions) == 2


def test_the_clue_search_settles_for_a_small_set_when_its_rounds_run_out(dfs) -> None:
    puzzle = Puzzle.from_string("1" + "." * 15)
    first, second = dfs.enumerate(puzzle, 2).solutions
    clues, minimum = smallest_unique_clues(puzzle, first, [second], "sat", rounds=1)
    assert not minimum
    assert dfs.enumerate(puzzle.with_cells(clues), 2).solutions == (first,)


def test_a_unique_puzzle_says_so() -> None:
    explanation = explain(CLASSIC, "sat")
    assert explanation.status is Status.SOLVED and explanation.summary() == "unique: exactly one solution"
    assert explanation.lines()[1].startswith("solution: 417369825")
    assert minimal_conflict(CLASSIC) is None


def test_a_time_limit_makes_the_explanation_unknown() -> None:
    explanation = explain(Puzzle.empty(Rules.classic(3, 3)), time_limit=1e-9)
    assert explanation.status is Status.UNKNOWN and "time limit" in explanation.summary()


def test_rendering() -> None:
    assert render_givens(CLASSIC, [(2, 5), (7, 5)]) == "r1c3=5 r1c8=5"
    big = Puzzle.empty(Rules.classic(4, 4))
    assert render_givens(big, [(255, 16)]) == "r16c16=16"
    text = str(
        Explanation(CLASSIC, Status.MULTIPLE, solutions=(CLASSIC, CLASSIC), differences=(0, 1), count=2)
    )
    assert text.splitlines()[0] == "2 solutions: two differ at r1c1 r1c2"
    assert len(text.splitlines()) == 3


@pytest.mark.parametrize("backend", ["dfs", "sat", "cpsat"])
def test_a_digit_given_twice_in_a_house_is_the_explanation_from_every_backend(backend: str) -> None:
    # the puzzle of issue 33: r1c1 and r1c2 both 1; other givens clash less directly
    puzzle = Puzzle.from_string(
        "11..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    )
    explanation = explain(puzzle, backend)
    assert explanation.conflict == ((0, 1), (1, 1))
    assert explanation.summary() == "no solution: r1c1=1 r1c2=1 cannot all hold"
    assert puzzle.conflicts()[0].cells == (0, 1)  # the cells solve names


def test_a_digit_given_three_times_is_explained_by_two_of_them(dfs) -> None:
    puzzle = Puzzle.from_string("1.11............")
    conflict = minimal_conflict(puzzle, "dfs")
    assert conflict is not None and len(conflict) == 2 and {d for _, d in conflict} == {1}
    assert_minimal_conflict(puzzle, conflict, dfs)


def test_rules_that_break_each_other_without_givens_are_said_to() -> None:
    from sudoku_cp.formats.fpuzzles import from_fpuzzles

    grid = [[{} for _ in range(4)] for _ in range(4)]
    clues = [{"cell": "R0C1", "value": "5"}, {"cell": "R5C1", "value": "0"}]  # one column, read both ways
    puzzle = from_fpuzzles({"size": 4, "grid": grid, "sandwichsum": clues})
    summary = explain(puzzle).summary()
    assert summary == "no solution: the rules themselves (2x2 sandwich(2)) cannot all hold, with no given"
