"""The per-puzzle task kinds of the batch engine (count, rate, explain), here and in worker processes."""

from __future__ import annotations

import itertools

import pytest

from sudoku_cp.batch import count_many, rate_many
from sudoku_cp.batch.engine import run_ordered
from sudoku_cp.batch.solver import Solver, SolverConfig
from sudoku_cp.batch.tasks import TASK_KINDS, Count, run_task
from sudoku_cp.errors import ParseError, UnknownBackendError
from sudoku_cp.grid import Puzzle
from sudoku_cp.rate import rate
from sudoku_cp.result import Status

PUZZLES = [
    Puzzle.from_string("12343412214343.."),  # one solution
    Puzzle.from_string("..343412..434321"),  # two
    Puzzle.from_string("11.............."),  # 1 twice in row 1: no solution
    Puzzle.from_string("." * 16),  # 288
]


def _answers(kind: str, config: SolverConfig, jobs: int, payload=lambda unit: unit) -> list:
    units = [[p] for p in PUZZLES] * 2  # 8 units: enough for a pool of workers
    ordered = run_ordered(iter(units), lambda unit: (kind, payload(unit)), config, jobs)
    return [answer for _, (answers, _) in ordered for answer in answers]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["dfs", "sat"])
def test_count_task_counts_alike_here_and_in_workers(backend: str) -> None:
    config = SolverConfig(backend)
    here = _answers("count", config, 1, lambda unit: (300, unit))
    assert here[:4] == [Count(1, True), Count(2, True), Count(0, True), Count(288, True)]
    assert _answers("count", config, 2, lambda unit: (300, unit)) == here


@pytest.mark.slow
def test_explain_task_explains_in_workers_as_here() -> None:
    config = SolverConfig("dfs")  # the sat backend's incremental solver picks solutions by its history
    here = _answers("explain", config, 1)
    assert [e.status for e in here[:4]] == [
        Status.SOLVED,
        Status.MULTIPLE,
        Status.NO_SOLUTION,
        Status.MULTIPLE,
    ]
    assert [e.lines() for e in _answers("explain", config, 2)] == [e.lines() for e in here]


def test_an_unknown_task_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown task kind 'divine'"):
        run_task("divine", [], Solver(SolverConfig("dfs:python")))
    assert set(TASK_KINDS) == {"count", "rate", "explain", "candidates", "prove", "walk", "hint"}


def test_count_text_marks_limits_and_time_limits() -> None:
    assert [Count(1, True).text, Count(2, False).text, Count(1, False, True).text] == ["1", "2+", "1?"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_count_many_and_rate_many_answer_in_order_as_one_at_a_time(jobs: int) -> None:
    items = [*PUZZLES, PUZZLES[1].to_string(), "1..4" * 4] * 3
    counts = list(count_many(items, "sat", limit=3, jobs=jobs, chunk_size=2))
    assert [c.text for c in counts] == [c.text for c in (_count_one(p) for p in items)]
    ratings = list(rate_many(items, jobs=jobs, chunk_size=2))
    assert [r.to_dict() for r in ratings] == [rate(p).to_dict() for p in items]


def _count_one(item: Puzzle | str) -> Count:
    puzzle = Puzzle.from_string(item) if isinstance(item, str) else item
    (count,) = run_task("count", (3, [puzzle]), Solver(SolverConfig("sat")))
    return count


def test_count_many_raises_a_bad_item_after_the_answers_before_it() -> None:
    answers = count_many([*PUZZLES, "12x", PUZZLES[0]], chunk_size=1)
    assert [c.text for c in itertools.islice(answers, len(PUZZLES))] == ["1", "2+", "0", "2+"]
    with pytest.raises(ParseError) as caught:
        next(answers)
    assert caught.value.index == len(PUZZLES) + 1
    with pytest.raises(UnknownBackendError, match="nope"):
        count_many(PUZZLES, "nope")  # at the call, before any work
