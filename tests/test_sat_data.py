"""The sat backend on the public collections: verified, unique, and the same grids as the dfs backend."""

from __future__ import annotations

import pytest
from conftest import shared

from sudoku_cp.backends import make_backend
from sudoku_cp.backends.sat import SatBackend
from sudoku_cp.verify import solution_problems

pytestmark = pytest.mark.data

UNIQUE_SETS = [
    ("top1465.txt", None),
    ("17_clue.txt", 400),
    ("forum_hardest_11plus.txt", 200),
]


@pytest.fixture(scope="module")
def dfs():
    return make_backend("dfs")


@pytest.mark.parametrize(("name", "sample"), UNIQUE_SETS)
def test_unique_sets_are_solved_unique_and_agree_with_dfs(name: str, sample: int | None, dfs) -> None:
    puzzles = shared(name, sample=sample, seed=11)
    sat = SatBackend(propagate=True)
    forced = 0
    for puzzle in puzzles:
        found = sat.enumerate(puzzle, limit=2)
        forced += found.stats["forced"]
        assert found.complete and len(found.solutions) == 1, f"{name}: {puzzle} is not unique for sat"
        solution = found.solutions[0]
        assert not (problems := solution_problems(puzzle, solution)), f"{puzzle}: {problems}"
        assert dfs.enumerate(puzzle, limit=1).solutions[0] == solution, f"{puzzle}: sat and dfs differ"
    if name == "17_clue.txt":  # most are solved by propagation: unique without a solver, checked by dfs above
        assert forced > len(puzzles) // 2


@pytest.mark.parametrize(("name", "sample"), UNIQUE_SETS)
def test_without_propagation_both_ways_are_measured_and_agree_with_dfs(
    name: str, sample: int | None, dfs
) -> None:
    puzzles = shared(name, sample=min(sample or 300, 300), seed=12)
    sat = SatBackend(propagate=False)
    ways, forced = [], 0
    for puzzle in puzzles:
        found = sat.enumerate(puzzle, limit=2)
        ways.append(found.stats["incremental"])
        forced += found.stats.get("forced", 0)
        assert found.complete and len(found.solutions) == 1, f"{name}: {puzzle} is not unique for sat"
        assert dfs.enumerate(puzzle, limit=1).solutions[0] == found.solutions[0], (
            f"{puzzle}: sat and dfs differ"
        )
    assert set(ways) == {0, 1}  # both ways were measured: the incremental solver and a solver per puzzle
    if name == "17_clue.txt":  # many are solved by singles: unique by unit propagation, checked by dfs above
        assert forced > 0


@pytest.mark.parametrize("solver", ["minisat22", "cadical153"])
def test_other_natively_loaded_solvers_agree_on_a_sample(solver: str, dfs) -> None:
    sat = SatBackend(solver, propagate=True)
    for puzzle in shared("forum_hardest_11plus.txt", sample=60, seed=4):
        found = sat.enumerate(puzzle, limit=2)
        assert found.complete and found.solutions == dfs.enumerate(puzzle, limit=2).solutions


@pytest.mark.parametrize("encoding", ["minimal", "reduced"])
def test_other_encodings_agree_on_a_sample(encoding: str, dfs) -> None:
    sat = SatBackend("glucose4", encoding=encoding)
    for puzzle in shared("top1465.txt", sample=60, seed=3):
        found = sat.enumerate(puzzle, limit=2)
        assert found.complete and found.solutions == dfs.enumerate(puzzle, limit=2).solutions


@pytest.mark.parametrize("propagate", [True, False])
def test_multi_solution_puzzles_have_two_verified_different_solutions(propagate: bool, dfs) -> None:
    sat = SatBackend(propagate=propagate)
    for puzzle in shared("serg_multi_solution.txt", sample=300, seed=5):
        found = sat.enumerate(puzzle, limit=2)
        assert len(found.solutions) == 2, f"{puzzle}: counted {len(found.solutions)}"
        first, second = found.solutions
        assert first != second
        assert not solution_problems(puzzle, first) and not solution_problems(puzzle, second)
        if propagate:  # a puzzle with several solutions agrees with dfs on how many there are, up to 3
            assert len(sat.enumerate(puzzle, 3).solutions) == len(dfs.enumerate(puzzle, 3).solutions)
