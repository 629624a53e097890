"""The cpsat backend against the dfs backend and the verifier on the shared data sets (skipped where missing).

Both models serve a whole data set from one backend instance, so these runs also check that one puzzle's
givens and blocking constraints never reach the next.
"""

from __future__ import annotations

import pytest
from conftest import assert_solves, shared

from sudoku_cp.backends import make_backend
from sudoku_cp.backends.base import Backend
from sudoku_cp.grid import Puzzle
from sudoku_cp.result import Status
from sudoku_cp.solving import solve

pytest.importorskip("ortools")

pytestmark = pytest.mark.data

MODELS = ["cpsat", "cpsat:bool"]


@pytest.fixture(scope="module")
def reference() -> Backend:
    """The dfs backend, the reference answers come from."""
    return make_backend("dfs")


def _reference_sample(reference: Backend, full: int) -> int | None:
    """All puzzles with the compiled dfs engine; a sample where only its plain-Python engine is there."""
    return None if getattr(reference, "engine", "compiled") == "compiled" else min(full, 200)


def _same_answers_as_dfs(spec: str, puzzles: list[Puzzle], reference: Backend) -> None:
    backend = make_backend(spec)
    for puzzle in puzzles:
        expected = solve(puzzle, reference, unique=True)
        got = solve(puzzle, backend, unique=True)
        assert expected.status is Status.SOLVED, puzzle
        assert got.status is Status.SOLVED and got.unique is True, puzzle
        assert got.solution == expected.solution, puzzle
        assert_solves(puzzle, got.solution)


@pytest.mark.slow
@pytest.mark.parametrize("spec", MODELS)
def test_top1465_same_answers_as_dfs(spec: str, reference: Backend) -> None:
    """All 1,465 puzzles, solved and proved unique (a few seconds per model)."""
    puzzles = shared("top1465.txt", sample=_reference_sample(reference, 1465), seed=1)
    _same_answers_as_dfs(spec, puzzles, reference)


@pytest.mark.parametrize("spec", MODELS)
def test_17_clue_sample_same_answers_as_dfs(spec: str, reference: Backend) -> None:
    _same_answers_as_dfs(spec, shared("17_clue.txt", sample=400, seed=4), reference)


@pytest.mark.parametrize("spec", MODELS)
def test_serg_multi_solution_sample_counted_as_two_or_more(spec: str, reference: Backend) -> None:
    backend = make_backend(spec)
    for puzzle in shared("serg_multi_solution.txt", sample=300, seed=5):
        result = solve(puzzle, backend, unique=True)
        assert result.status is Status.MULTIPLE and result.unique is False, puzzle
        first, second = result.solutions
        assert first != second, puzzle
        assert_solves(puzzle, first)
        assert_solves(puzzle, second)
        assert solve(puzzle, reference, unique=True).status is Status.MULTIPLE, puzzle
