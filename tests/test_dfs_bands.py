"""The band search (``dfs_bands``): the compiled dfs engine's default (heuristic ``auto``) on classic 9x9.

It explores its own search tree, so it is held to the reference search's answers rather than its path:
the same number of solutions to each limit, the same completeness, and the very same solutions whenever
the reference lists them all (one for a unique puzzle, every one within the limit otherwise); every
solution is checked by the verifier. Both entry points of the band search (the batch kernel and the
per-puzzle search) take the same tree, so they agree on order and statistics too. The reference is the
pure-Python engine on small samples and, on larger ones, the compiled engine's ``mrv`` (which explores the
reference's very tree, as test_dfs_data checks). Full data sets are marked slow.
"""

from __future__ import annotations

import importlib.util
import time

import numpy as np
import pytest
from cases import HARD_9X9, TWO_SOLUTIONS, blanked, full_grid
from conftest import assert_solves, shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle, Rules, Status, count_solutions, datasets, solve
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.result import Enumeration

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="numba is not installed: the compiled engine is off"
)
CLASSIC = Rules.classic(3, 3)
#: Arto Inkala's puzzle of 2012, one of the hardest for human methods: the band search guesses on it.
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
STATS = ("guesses", "backtracks", "nodes")


def _batch(puzzles: list[Puzzle], limit: int, **kwargs):
    from sudoku_cp.backends.dfs_compiled import solve_array

    return solve_array(np.array([p.cells for p in puzzles], np.uint8), CLASSIC, limit, "auto", **kwargs)


def assert_agree(puzzles: list[Puzzle], limit: int, reference: DfsBackend) -> list[Enumeration]:
    """The band search (batch and per puzzle) against ``reference`` on every puzzle; its answers."""
    from sudoku_cp.backends.dfs_compiled import EXHAUSTED, LIMIT_REACHED

    bands = DfsBackend()  # the defaults: compiled engine, heuristic auto
    batch = _batch(puzzles, limit)
    answers = []
    for i, puzzle in enumerate(puzzles):
        expected = reference.enumerate(puzzle, limit=limit)
        found = bands.enumerate(puzzle, limit=limit)
        where = f"#{i}: {puzzle.to_string()}"
        assert len(found.solutions) == len(expected.solutions), where
        assert found.complete == expected.complete and not found.timed_out, where
        assert len(set(found.solutions)) == len(found.solutions), where
        if expected.complete:
            assert set(found.solutions) == set(expected.solutions), where
        for solution in found.solutions:
            assert_solves(puzzle, solution)
        assert found.stats["nodes"] == found.stats["guesses"] + 1 >= found.stats["backtracks"] + 1
        # the batch kernel takes the same tree as the per-puzzle search
        assert batch.counts[i] == len(found.solutions), where
        assert batch.status[i] == (EXHAUSTED if found.complete else LIMIT_REACHED), where
        for row, solution in zip((batch.solutions[i], batch.second[i]), found.solutions, strict=False):
            assert tuple(row) == solution.cells, where
        if not found.solutions:
            assert not batch.solutions[i].any()
        assert [batch.guesses[i], batch.backtracks[i], batch.nodes[i]] == [found.stats[k] for k in STATS]
        answers.append(found)
    return answers


#: (file, default sample, limit): every shared 9x9 set; the slow test takes each whole.
SETS = [
    ("17_clue.txt", 400, 2),
    ("top1465.txt", 300, 2),
    ("forum_hardest_11plus.txt", 150, 2),
    ("forum_hardest_1106.txt", 100, 2),
    ("norvig_easy50.txt", None, 2),
    ("norvig_hardest.txt", None, 2),
    ("norvig_top95.txt", None, 2),
    ("serg_multi_solution.txt", 300, 2),
]


def _check_promise(name: str, answers: list[Enumeration]) -> None:
    """Each set's promise: one solution each, but serg's, which have several."""
    for found in answers:
        if name == "serg_multi_solution.txt":
            assert len(found.solutions) == 2 and not found.complete
        else:
            assert len(found.solutions) == 1 and found.complete


@pytest.mark.data
@pytest.mark.parametrize(("name", "sample", "limit"), SETS)
def test_the_band_search_agrees_with_the_reference_on_samples(
    name: str, sample: int | None, limit: int
) -> None:
    puzzles = shared(name, sample=sample, seed=5)
    _check_promise(name, assert_agree(puzzles, limit, DfsBackend(heuristic="mrv")))


@pytest.mark.data
@pytest.mark.parametrize("name", [name for name, _, _ in SETS])
def test_the_band_search_agrees_with_the_pure_python_reference(name: str) -> None:
    puzzles = shared(name, sample=25, seed=6)
    _check_promise(name, assert_agree(puzzles, 2, DfsBackend(engine="python")))


@pytest.mark.data
def test_serg_puzzles_give_every_solution_of_the_reference() -> None:
    """With a limit of 1,000 the searches list all solutions of most of serg's puzzles: the same sets."""
    puzzles = shared("serg_multi_solution.txt", sample=60, seed=7)
    answers = assert_agree(puzzles, 1000, DfsBackend(heuristic="mrv"))
    assert sum(found.complete for found in answers) >= 50
    assert all(len(found.solutions) >= 2 for found in answers)


@pytest.mark.data
@pytest.mark.slow
@pytest.mark.parametrize(("name", "sample", "limit"), SETS)
def test_the_band_search_agrees_with_the_reference_on_whole_sets(
    name: str, sample: int | None, limit: int
) -> None:
    """Whole sets in one batch each: the answer each set promises (one solution proved unique, or two
    for serg's), every solution a valid grid that keeps the givens (the sampled tests compare with the
    reference and run the verifier)."""
    from sudoku_cp.batch.arrays import valid_complete

    puzzles = shared(name)
    grids = np.array([p.cells for p in puzzles], np.uint8)
    found = _batch(puzzles, limit)
    several = name == "serg_multi_solution.txt"
    assert (found.counts == (2 if several else 1)).all() and (found.status == (1 if several else 0)).all()
    for rows in (found.solutions, found.second) if several else (found.solutions,):
        assert valid_complete(rows, CLASSIC).all()
        assert ((rows == grids) | (grids == 0)).all()
    if several:
        assert (found.solutions != found.second).any(axis=1).all()


@pytest.mark.data
@pytest.mark.parametrize("grade", ["easy", "hard", "diabolical"])
def test_sudoku_exchange_solutions_are_found(grade: str) -> None:
    name = f"sudoku_exchange/{grade}_puzzle_and_solution.txt"
    if datasets.data_path(name) is None:
        pytest.skip(f"{name}: {datasets.MISSING_MESSAGE}")
    pairs = datasets.load_with_solutions(name, sample=200, seed=8)
    found = _batch([p for p, _ in pairs], 2)
    for i, (_, solution) in enumerate(pairs):
        assert found.counts[i] == 1 and found.status[i] == 0
        assert tuple(found.solutions[i]) == solution.cells


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), keep=st.floats(0.0, 0.6), limit=st.sampled_from([1, 2, 3, 40]))
def test_generated_puzzles_agree_with_the_reference(seed: int, keep: float, limit: int) -> None:
    full = full_grid(CLASSIC, seed)
    puzzle = blanked(full, keep, seed + 1)
    (found,) = assert_agree([puzzle], limit, DfsBackend(engine="python"))
    if found.complete:
        assert full in found.solutions


def test_known_puzzles_and_the_default_heuristic() -> None:
    hard = Puzzle.from_string(HARD_9X9)
    (found,) = assert_agree([hard], 2, DfsBackend(engine="python"))
    assert found.complete and len(found.solutions) == 1
    two = Puzzle.from_string(TWO_SOLUTIONS)
    assert_agree([two], 10, DfsBackend(engine="python"))
    assert solve(hard, "dfs", unique=True).status is Status.SOLVED
    assert solve(TWO_SOLUTIONS, "dfs", unique=True).status is Status.MULTIPLE
    assert count_solutions(TWO_SOLUTIONS, limit=10) == 2
    assert DfsBackend().heuristic == "auto"


def test_contradictions_give_no_solution() -> None:
    givens = {
        "a clash in a row": {0: 5, 8: 5},
        "a clash in a column": {4: 7, 76: 7},
        "a clash in a box": {30: 2, 50: 2},
        "a cell without a digit": {**{i: i + 1 for i in range(8)}, 80: 9},  # r1c9: 1-8 in its row, 9 below
        # box 1 has no place for a 1 (rows 1-2 and columns 1-2 hold one, r3c3 a 5), every cell a digit
        "a digit without a place in a box": {4: 1, 16: 1, 27: 1, 55: 1, 20: 5},
    }
    for why, cells in givens.items():
        grid = [0] * 81
        for cell, digit in cells.items():
            grid[cell] = digit
        puzzle = Puzzle(CLASSIC, tuple(grid))
        (found,) = assert_agree([puzzle], 2, DfsBackend(engine="python"))
        assert found.solutions == () and found.complete, why
        assert found.stats["guesses"] == 0, why
    assert solve(Puzzle(CLASSIC, (1, 1) + (0,) * 79), "dfs").status is Status.NO_SOLUTION


def test_puzzles_without_a_solution_that_need_a_search() -> None:
    """A hard puzzle (Arto Inkala's, 2012) with a wrong digit in one of its first blank cells, where no
    given forbids it: no solution, and most of them take a search to show it."""
    hard = Puzzle.from_string(INKALA)
    solution = DfsBackend().enumerate(hard, 2).solutions[0].cells
    cells = list(hard.cells)
    wrong = [
        Puzzle(CLASSIC, (*cells[:c], d, *cells[c + 1 :]))
        for c in [c for c in range(81) if not cells[c]][:3]
        for d in range(1, 10)
        if d != solution[c] and d not in {cells[p] for p in CLASSIC.peers[c]}
    ]
    answers = assert_agree(wrong, 2, DfsBackend(engine="python"))
    assert all(found.solutions == () and found.complete for found in answers)
    assert sum(found.stats["guesses"] > 0 for found in answers) >= len(wrong) // 2


def test_empty_and_complete_grids() -> None:
    from sudoku_cp.backends.dfs_compiled import LIMIT_REACHED

    empty = Puzzle.empty(CLASSIC)
    found = DfsBackend().enumerate(empty, limit=600)  # beyond the 256-row buffer: the search resumes
    assert len(set(found.solutions)) == 600 and not found.complete
    for solution in found.solutions[::37]:
        assert_solves(empty, solution)
    batch = _batch([empty], 600)
    assert batch.counts[0] == 600 and batch.status[0] == LIMIT_REACHED
    assert tuple(batch.solutions[0]) == found.solutions[0].cells
    assert tuple(batch.second[0]) == found.solutions[1].cells
    full = full_grid(CLASSIC, 11)
    (found,) = assert_agree([full], 2, DfsBackend(engine="python"))
    assert found.solutions == (full,) and found.complete
    assert [found.stats[k] for k in STATS] == [0, 0, 1]
    one_blank = Puzzle(CLASSIC, (0, *full.cells[1:]))
    swapped = Puzzle(CLASSIC, (full.cells[1], full.cells[0], *full.cells[2:]))  # a full grid, but wrong
    first, second = assert_agree([one_blank, swapped], 2, DfsBackend(engine="python"))
    assert first.solutions == (full,) and second.solutions == () and second.complete


def test_auto_is_mrv_on_other_rules() -> None:
    from sudoku_cp.backends.dfs_compiled import solve_array

    for rules in (Rules.classic(2, 2), Rules.classic(2, 3)):
        empty = Puzzle.empty(rules)
        auto = DfsBackend(heuristic="auto").enumerate(empty, limit=30)
        mrv = DfsBackend(heuristic="mrv", engine="python").enumerate(empty, limit=30)
        assert auto.solutions == mrv.solutions and auto.stats["nodes"] == mrv.stats["nodes"]
        grids = np.zeros((1, rules.ncells), np.uint8)
        a, m = solve_array(grids, rules, 5, "auto"), solve_array(grids, rules, 5, "mrv")
        assert (a.solutions == m.solutions).all() and (a.nodes == m.nodes).all()
    hard = Puzzle.from_string(HARD_9X9)  # the python engine has no band search: auto is mrv there
    auto, mrv = (DfsBackend(heuristic=h, engine="python").enumerate(hard, 2) for h in ("auto", "mrv"))
    assert auto.solutions == mrv.solutions and [auto.stats[k] for k in STATS] == [mrv.stats[k] for k in STATS]


def test_budgets_and_time_limits_give_unknown() -> None:
    from sudoku_cp.backends.dfs_compiled import OUT_OF_NODES

    empty = Puzzle.empty(CLASSIC)
    found = _batch([empty, Puzzle.from_string(HARD_9X9)], 10**5, max_nodes=50)
    assert list(found.status) == [OUT_OF_NODES, 0] and found.nodes[0] == 51 and found.counts[1] == 1
    started = time.perf_counter()
    found = _batch([empty], 10**7, time_limit=0.1)  # far more solutions than 0.1 s lists
    assert time.perf_counter() - started < 5
    assert found.status[0] == OUT_OF_NODES and found.counts[0] > 0
    timed = DfsBackend().enumerate(empty, limit=10**7, time_limit=0.05)
    assert timed.timed_out and not timed.complete and len(set(timed.solutions)) == len(timed.solutions) > 0
    assert solve(empty, "dfs", unique=True, time_limit=5).status is Status.MULTIPLE
