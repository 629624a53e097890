"""The dfs backend on the shared data sets (skipped where ../shared/data is missing).

The reference search solves all of top1465 and norvig_top95 and 2,000 puzzles of 17_clue with each
heuristic and proves each solution unique; the compiled engine must agree with it puzzle by puzzle
(solutions, counts and search statistics) on samples of every shared set, through both of its entry points.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from conftest import FULL, assert_solves, shared

from sudoku_cp import Puzzle, Rules, datasets
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.backends.dfs_reference import SHARED_HEURISTICS

pytestmark = pytest.mark.data

needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="numba is not installed: the compiled engine is off"
)
SHAPE = Rules.classic(3, 3)
STATS = ("guesses", "backtracks", "nodes")
EXCHANGE = [
    f"sudoku_exchange/{grade}_puzzle_and_solution.txt"
    for grade in ("easy", "medium", "hard", "hard1", "hard2", "diabolical")
]


def _batch(puzzles: list[Puzzle], limit: int, heuristic: str):
    """The compiled engine's batch answer for the puzzles, or None without numba."""
    if importlib.util.find_spec("numba") is None:
        return None
    from sudoku_cp.backends.dfs_compiled import solve_array

    return solve_array(np.array([p.cells for p in puzzles], np.uint8), SHAPE, limit, heuristic)


@pytest.mark.parametrize("heuristic", SHARED_HEURISTICS)
@pytest.mark.parametrize(
    ("name", "sample"),
    [
        ("top1465.txt", 400 if FULL else 150),
        ("norvig_top95.txt", None),
        ("17_clue.txt", 2000 if FULL else 500),
    ],
)
def test_the_reference_search_proves_every_solution_unique(
    name: str, sample: int | None, heuristic: str
) -> None:
    puzzles = shared(name, sample=sample, seed=1)
    reference = DfsBackend(heuristic=heuristic, engine="python")
    batch = _batch(puzzles, 2, heuristic)
    for i, puzzle in enumerate(puzzles):
        found = reference.enumerate(puzzle, limit=2)
        assert len(found.solutions) == 1 and found.complete, f"{name} #{i}: {puzzle}"
        assert_solves(puzzle, found.solutions[0])
        if batch is not None:  # the compiled kernel took the very same path
            assert batch.counts[i] == 1 and batch.status[i] == 0
            assert tuple(batch.solutions[i]) == found.solutions[0].cells
            assert [batch.guesses[i], batch.backtracks[i], batch.nodes[i]] == [found.stats[k] for k in STATS]


@needs_numba
@pytest.mark.parametrize(
    ("name", "sample", "limit"),
    [
        ("forum_hardest_11plus.txt", 60, 2),
        ("forum_hardest_1106.txt", 40, 2),
        ("norvig_easy50.txt", None, 2),
        ("norvig_hardest.txt", None, 2),
        ("17_clue.txt", 300, 2),
        ("serg_multi_solution.txt", 300, 10),
    ],
)
def test_the_compiled_engine_agrees_with_the_reference(name: str, sample: int | None, limit: int) -> None:
    """Same solutions in the same order, same counts and same statistics, per puzzle and in a batch."""
    puzzles = shared(name, sample=sample, seed=2)
    for heuristic in SHARED_HEURISTICS:
        reference = DfsBackend(heuristic=heuristic, engine="python")
        compiled = DfsBackend(heuristic=heuristic, engine="compiled")
        batch = _batch(puzzles, limit, heuristic)
        for i, puzzle in enumerate(puzzles):
            expected = reference.enumerate(puzzle, limit=limit)
            found = compiled.enumerate(puzzle, limit=limit)
            assert found.solutions == expected.solutions, f"{name} #{i} {heuristic}: {puzzle}"
            assert found.complete == expected.complete
            assert [found.stats[k] for k in STATS] == [expected.stats[k] for k in STATS]
            assert batch.counts[i] == len(expected.solutions)
            assert batch.status[i] == (0 if expected.complete else 1)
            batch_stats = [batch.guesses[i], batch.backtracks[i], batch.nodes[i]]
            assert batch_stats == [expected.stats[k] for k in STATS]
            for row, solution in zip((batch.solutions[i], batch.second[i]), expected.solutions, strict=False):
                assert tuple(row) == solution.cells
            for solution in expected.solutions:
                assert_solves(puzzle, solution)
            if name == "serg_multi_solution.txt":
                assert len(expected.solutions) >= 2, f"{name} #{i} has one solution: {puzzle}"
            else:
                assert len(expected.solutions) == 1 and expected.complete


@pytest.mark.parametrize("name", EXCHANGE)
def test_sudoku_exchange_solutions_are_the_given_ones(name: str) -> None:
    if datasets.data_path(name) is None:
        pytest.skip(f"{name}: {datasets.MISSING_MESSAGE}")
    pairs = datasets.load_with_solutions(name, sample=100, seed=3)
    engines = ["python"] + (["compiled"] if importlib.util.find_spec("numba") else [])
    for engine in engines:
        backend = DfsBackend(engine=engine)
        for puzzle, solution in pairs:
            found = backend.enumerate(puzzle, limit=2)
            assert found.solutions == (solution,) and found.complete, f"{name}: {puzzle}"
            assert_solves(puzzle, found.solutions[0])


@needs_numba
def test_every_17_clue_puzzle_is_unique_in_one_batch() -> None:
    """All 49,158 puzzles of 17_clue.txt through solve_array with uniqueness: one solution each."""
    puzzles = shared("17_clue.txt")
    batch = _batch(puzzles, 2, "mrv")
    assert (batch.counts == 1).all() and (batch.status == 0).all()
    assert not batch.second.any()
    for i, puzzle in enumerate(puzzles):
        assert_solves(puzzle, Puzzle(SHAPE, tuple(batch.solutions[i].tolist())))


@needs_numba
def test_serg_puzzles_have_several_solutions_in_one_batch() -> None:
    puzzles = shared("serg_multi_solution.txt")
    batch = _batch(puzzles, 2, "mrv")
    assert (batch.counts == 2).all() and (batch.status == 1).all()
    assert (batch.solutions != batch.second).any(axis=1).all()
    for i in range(0, len(puzzles), 50):
        for row in (batch.solutions[i], batch.second[i]):
            assert_solves(puzzles[i], Puzzle(SHAPE, tuple(row.tolist())))
