"""The sat backend on small inputs: solver choice, both solving modes, blocking, time limits, statistics."""

from __future__ import annotations

import itertools
import random

import pytest

from sudoku_cp import count_solutions, is_unique, solve
from sudoku_cp.backends import make_backend
from sudoku_cp.backends import sat as sat_module
from sudoku_cp.backends.sat import DEFAULT_SOLVER, PROOF_SOLVERS, SOLVERS, SatBackend
from sudoku_cp.errors import UnknownBackendError, UsageError
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.result import Status
from sudoku_cp.verify import is_solution

CLASSIC = Puzzle.from_string(
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
)
CLASSIC_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
EMPTY_4X4 = Puzzle.empty(Rules.classic(2, 2))
MODES = [None, True, False]


def full_grid(rules: Rules, seed: int) -> list[int]:
    """A random-looking full grid of any box shape: the shifted-rows pattern, relabelled and shuffled."""
    rng = random.Random(seed)
    r, c, n = rules.box_rows, rules.box_cols, rules.n
    relabel = rng.sample(range(1, n + 1), n)
    rows = [band * r + i for band in rng.sample(range(c), c) for i in rng.sample(range(r), r)]
    cols = [stack * c + j for stack in rng.sample(range(r), r) for j in rng.sample(range(c), c)]
    return [relabel[(c * (row % r) + row // r + col) % n] for row in rows for col in cols]


def blanked(rules: Rules, givens: float, seed: int) -> Puzzle:
    """A puzzle keeping a fraction of a full grid's cells (it has one solution or more)."""
    grid = full_grid(rules, seed)
    keep = set(random.Random(seed).sample(range(rules.ncells), int(givens * rules.ncells)))
    return Puzzle(rules, tuple(d if i in keep else 0 for i, d in enumerate(grid)))


def test_registry_names_the_solvers_and_the_default_logs_proofs() -> None:
    assert make_backend("sat").spec == "sat"
    assert make_backend("sat:g4").spec == "sat:glucose4"  # python-sat's aliases are accepted
    assert make_backend("sat:CD19").spec == "sat:cadical195"
    assert DEFAULT_SOLVER in PROOF_SOLVERS and "minisat22" not in PROOF_SOLVERS
    assert set(SatBackend.variants) == set(SOLVERS)


def test_an_unknown_solver_or_option_is_a_clear_error() -> None:
    with pytest.raises(UnknownBackendError, match=r"no solver 'chaff'.*glucose4.*minisat22"):
        make_backend("sat:chaff")
    with pytest.raises(UsageError, match="valid: minimal, extended, reduced"):
        SatBackend(encoding="compact")
    with pytest.raises(UsageError, match="unknown at-most-one scheme"):
        SatBackend(amo="commander")
    with pytest.raises(UsageError, match="cannot be incremental"):
        SatBackend(encoding="reduced", incremental=True)
    with pytest.raises(UsageError, match="cannot be incremental"):
        SatBackend("kissat", incremental=True)
    with pytest.raises(UsageError, match="auto, true or false"):
        SatBackend(incremental="sometimes")


def test_options_written_as_text_are_read() -> None:
    assert SatBackend(incremental="false").incremental is False
    assert SatBackend(incremental="true").incremental is True
    assert SatBackend(incremental="auto").incremental is None
    assert SatBackend(incremental=1).incremental is True


@pytest.mark.parametrize(
    ("encoding", "incremental"),
    [(e, m) for e in ("minimal", "extended") for m in MODES] + [("reduced", None), ("reduced", False)],
)
def test_the_empty_4x4_grid_has_288_solutions_and_they_are_all_different(encoding, incremental) -> None:
    backend = SatBackend(encoding=encoding, incremental=incremental)
    for _ in range(2):  # the second run proves the first one's blocking clauses were retired
        found = backend.enumerate(EMPTY_4X4, limit=1000)
        assert found.complete and len(found.solutions) == 288
        assert len({s.cells for s in found.solutions}) == 288
        assert all(is_solution(EMPTY_4X4, s) for s in found.solutions)


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22", "lingeling", "kissat404"])
def test_each_kind_of_solver_counts_and_proves_uniqueness(solver: str) -> None:
    backend = make_backend(f"sat:{solver}")
    first_row = Puzzle.from_string("1234" + "." * 12)  # 288 / 4! grids
    assert len(backend.enumerate(first_row, limit=100).solutions) == 12
    found = backend.enumerate(CLASSIC, limit=2)
    assert found.complete and [s.to_string() for s in found.solutions] == [CLASSIC_SOLUTION]


@pytest.mark.parametrize("incremental", MODES)
def test_a_classic_puzzle_is_solved_and_unique(incremental) -> None:
    backend = SatBackend(incremental=incremental)
    result = solve(CLASSIC, backend, unique=True)
    assert result.status is Status.SOLVED and result.unique
    assert result.solution is not None and result.solution.to_string() == CLASSIC_SOLUTION


def test_services_work_through_the_backend_interface() -> None:
    assert count_solutions(EMPTY_4X4, limit=300, backend="sat") == 288
    assert is_unique(CLASSIC, backend="sat:glucose4")
    several = Puzzle.from_string("12..34.." + "." * 8)
    result = solve(several, "sat", unique=True)
    assert result.status is Status.MULTIPLE and result.unique is False
    assert len(result.solutions) == 2 and result.solutions[0] != result.solutions[1]
    assert all(is_solution(several, s) for s in result.solutions)


@pytest.mark.parametrize("incremental", MODES)
def test_contradictory_givens_have_no_solution(incremental) -> None:
    clash = CLASSIC.with_cells([(1, 4)])  # a second 4 in row 1
    found = SatBackend(incremental=incremental).enumerate(clash, limit=2)
    assert found.complete and found.solutions == ()
    assert solve(clash, "sat", unique=True).status is Status.NO_SOLUTION


def test_a_puzzle_with_no_candidate_for_a_cell_has_no_solution() -> None:
    puzzle = Puzzle.from_string("12345678." + "........9" + "." * 63)
    for incremental in MODES:
        assert SatBackend(incremental=incremental).enumerate(puzzle, 2).solutions == ()


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_a_time_limit_stops_the_search_without_a_wrong_answer(solver: str) -> None:
    backend = SatBackend(solver, incremental=True)
    empty = Puzzle.empty(Rules.classic(3, 3))
    found = backend.enumerate(empty, limit=10**9, time_limit=0.3)
    assert found.timed_out and not found.complete
    assert 0 < len(found.solutions) < 10**9
    sample = random.Random(0).sample(found.solutions, min(50, len(found.solutions)))
    assert all(is_solution(empty, s) for s in sample)
    assert found.stats["time"] < 5
    # the interrupted solver serves the next puzzle correctly
    assert [s.to_string() for s in backend.enumerate(CLASSIC, 2, time_limit=30).solutions] == [
        CLASSIC_SOLUTION
    ]


def test_a_time_limit_stops_a_formula_per_puzzle_on_its_default_solver() -> None:
    backend = SatBackend(incremental=False)  # 9x9: PER_PUZZLE_SOLVER, stopped by a timer
    found = backend.enumerate(Puzzle.empty(Rules.classic(3, 3)), limit=10**9, time_limit=0.3)
    assert found.timed_out and not found.complete and found.solutions and found.stats["time"] < 5
    assert all(is_solution(Puzzle.empty(Rules.classic(3, 3)), s) for s in found.solutions[:50])
    assert backend.enumerate(CLASSIC, 2, time_limit=30).solutions[0].to_string() == CLASSIC_SOLUTION


def test_solvers_that_cannot_stop_refuse_a_time_limit() -> None:
    for solver in ("lingeling", "kissat"):
        with pytest.raises(UsageError, match="no time limit"):
            make_backend(f"sat:{solver}").enumerate(CLASSIC, 1, time_limit=1.0)


def test_the_incremental_solver_is_rebuilt_and_stays_correct(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sat_module, "REBUILD_AFTER", 3)
    backend = SatBackend(incremental=True)
    puzzles = [blanked(Rules.classic(2, 2), 0.3, seed) for seed in range(12)]
    expected = [count_solutions(p, 300, "dfs") for p in puzzles]
    builds = 0
    for puzzle, count in zip(puzzles, expected, strict=True):
        found = backend.enumerate(puzzle, 300)
        builds += found.stats["build_time"] > 0
        assert len(found.solutions) == count and found.complete
    assert builds >= 3


def test_statistics_per_puzzle() -> None:
    backend = SatBackend(incremental=True)
    first = backend.enumerate(CLASSIC, 2).stats
    second = backend.enumerate(CLASSIC, 2).stats
    for stats in (first, second):
        assert stats["variables"] == 729 and stats["clauses"] == 11_988
        assert {"decisions", "conflicts", "propagations", "time", "build_time"} <= set(stats)
        assert stats["incremental"] == 1
    assert first["build_time"] > 0 and second["build_time"] == 0
    per_puzzle = SatBackend(incremental=False).enumerate(CLASSIC, 2).stats
    assert per_puzzle["incremental"] == 0 and per_puzzle["clauses"] < 4_000 and per_puzzle["build_time"] > 0


def test_without_propagation_a_shape_builds_the_incremental_solver_once_it_pays_then_measures_both_ways() -> (
    None
):
    backend = SatBackend(propagate=False)  # the choice of ways before the propagated one is ready
    modes = [
        backend.enumerate(blanked(Rules.classic(3, 3), 0.4, seed), 2).stats["incremental"]
        for seed in range(40)
    ]
    built = modes.index(1)
    assert built > 0 and modes[:built] == [0] * built  # per puzzle until the time spent pays for a build
    assert modes[built : built + sat_module.EXPLORE_RUN] == [1] * sat_module.EXPLORE_RUN  # a first trial
    state = backend._rules[Rules.classic(3, 3)]
    assert state.samples[True] >= sat_module.EXPLORE_RUN // 2 and state.samples[False] >= built - 1


def _simulate(state: sat_module._RulesState, cost: dict[bool, float], puzzles: int) -> list[bool]:
    """The ways ``state`` chooses for puzzles that take ``cost[way]`` seconds each."""
    ways = []
    for _ in range(puzzles):
        way = state.choose()
        state.observe(way, cost[way])
        ways.append(way)
    return ways


def _trials(ways: list[bool], slower: bool) -> list[int]:
    """The lengths of the runs of the slower way."""
    runs = [len(list(group)) for way, group in itertools.groupby(ways) if way == slower]
    return runs


def test_the_faster_way_is_chosen_and_the_slower_one_tried_in_short_runs_at_a_bounded_cost() -> None:
    state = sat_module._RulesState()
    ways = _simulate(state, {True: 1.0, False: 2.0}, 8000)
    assert ways[: sat_module.EXPLORE_RUN] == [True] * sat_module.EXPLORE_RUN  # never measured: tried first
    runs = _trials(ways, slower=False)
    assert all(run == sat_module.EXPLORE_RUN for run in runs)
    extra = sum(runs) * (2.0 - 1.0) / (len(ways) * 1.0)
    assert extra <= 2 * sat_module.EXPLORE_SHARE  # the trials cost about EXPLORE_SHARE more time
    close = sat_module._RulesState()
    ways = _simulate(close, {True: 1.0, False: 1.05}, 2000)
    assert len(_trials(ways, slower=False)) >= 2000 // (sat_module.EXPLORE_MIN + sat_module.EXPLORE_RUN) - 2


def test_a_change_in_the_puzzles_moves_the_choice() -> None:
    state = sat_module._RulesState()
    _simulate(state, {True: 1.0, False: 2.0}, 500)
    ways = _simulate(state, {True: 1.0, False: 0.4}, 6000)  # per puzzle becomes the faster way
    assert ways[-1] is False and ways[-1000:].count(False) > 950


def test_the_first_puzzle_of_a_way_and_the_first_after_a_change_are_left_out() -> None:
    state = sat_module._RulesState()
    state.observe(False, 100.0)  # the process warms up
    for seconds in (1.0, 2.0, 3.0):
        state.observe(False, seconds)
    assert state.cost[False] == pytest.approx(2.0) and state.samples[False] == 3
    state.observe(True, 100.0)  # warm-up of the other way
    state.observe(True, 1.0)
    state.observe(False, 50.0)  # pays for the change back: left out
    state.observe(False, 2.0)
    assert state.cost == pytest.approx({False: 2.0, True: 1.0})


EASY = Puzzle.from_string("003020600900305001001806400008102900700000008006708200002609500800203009005010300")


def test_a_puzzle_that_singles_solve_is_proved_unique_by_unit_propagation_alone() -> None:
    backend = SatBackend(incremental=True)
    found = backend.enumerate(EASY, 2)
    assert found.complete and len(found.solutions) == 1 and is_solution(EASY, found.solutions[0])
    assert found.stats["forced"] == 1 and found.stats["decisions"] == 0 and found.stats["conflicts"] == 0
    hard = backend.enumerate(CLASSIC, 2)  # needs search: the second call proves it unique
    assert hard.complete and len(hard.solutions) == 1 and hard.stats["forced"] == 0
    several = backend.enumerate(Puzzle.from_string("." * 81), 2)
    assert len(several.solutions) == 2 and several.stats["forced"] == 0
    glucose = SatBackend("glucose4", incremental=True).enumerate(EASY, 2)  # no such proof: two calls
    assert glucose.complete and glucose.stats["forced"] == 0


def test_a_9x9_formula_per_puzzle_goes_to_the_measured_solver(solvers_built: list[str]) -> None:
    built = solvers_built
    per_puzzle = SatBackend(incremental=False, propagate=False)
    assert per_puzzle.enumerate(CLASSIC, 2).solutions[0].to_string() == CLASSIC_SOLUTION
    assert SatBackend("cadical153", incremental=False, propagate=False).enumerate(CLASSIC, 2).solutions
    assert SatBackend(incremental=True).enumerate(CLASSIC, 2).solutions
    assert built == [sat_module.PER_PUZZLE_SOLVER[9], "cadical153", DEFAULT_SOLVER]


@pytest.mark.parametrize("name", sorted(sat_module._ADD_CLAUSE))
def test_clauses_go_in_through_python_sats_c_function(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast way in for the default solvers still matches python-sat: append_formula is not needed."""
    from pysat.solvers import Solver

    solver = Solver(name=name)
    monkeypatch.setattr(solver, "append_formula", lambda clauses: pytest.fail("fell back to append_formula"))
    sat_module.add_clauses(solver, name, [[1, 2], [-1], [-2, 3]])
    assert solver.solve() and solver.get_model()[:3] == [-1, 2, 3]
    sat_module.add_clauses(solver, name, [[-3]])
    assert not solver.solve()
    solver.delete()


def test_large_grids_stay_per_puzzle_and_solve() -> None:
    backend = SatBackend()
    for rules, seed in [(Rules.classic(4, 4), 1), (Rules.classic(5, 5), 2), (Rules.classic(3, 4), 3)]:
        puzzle = blanked(rules, 0.45, seed)
        found = backend.enumerate(puzzle, 2)
        assert found.solutions and all(is_solution(puzzle, s) for s in found.solutions)
        if rules.n > 16:
            assert found.stats["incremental"] == 0


def test_a_unique_16x16_puzzle_is_proved_unique() -> None:
    rules = Rules.classic(4, 4)
    grid = full_grid(rules, 7)
    puzzle = Puzzle(rules, tuple(d if i % 5 else 0 for i, d in enumerate(grid)))  # 80% givens
    found = SatBackend().enumerate(puzzle, 2)
    assert found.complete and [s.cells for s in found.solutions] == [tuple(grid)]


def test_failed_givens_name_a_clash() -> None:
    backend = SatBackend()
    assert backend.failed_givens(CLASSIC) is None
    core = backend.failed_givens(CLASSIC.with_cells([(1, 4)]))
    assert core == [(0, 4), (1, 4)]


@pytest.mark.parametrize("backend", ["dfs", "sat", "cpsat"])
def test_is_unique_cut_short_by_its_time_limit_raises_instead_of_guessing(backend: str) -> None:
    """A search stopped after one solution knows nothing of a second: ``is_unique`` says so by
    ``TimeoutError``, never True (it said True for puzzles of the forum's multi-solution set, ten
    solutions and more, under a millisecond's limit)."""
    from sudoku_cp.result import Enumeration

    several = "1" + "." * 80
    assert is_unique(several, backend=backend, time_limit=60) is False
    assert is_unique(CLASSIC, backend=backend, time_limit=600) is True
    engine = make_backend(backend)

    class CutShort(type(engine)):  # type: ignore[misc]
        """The backend's own first solution, then stopped as a time limit stops it."""

        def enumerate(self, puzzle, limit=1, time_limit=None):  # type: ignore[no-untyped-def]
            found = super().enumerate(puzzle, 1, time_limit)
            return Enumeration(found.solutions, complete=False, timed_out=True)

    with pytest.raises(TimeoutError, match="before it knew whether the puzzle is unique"):
        is_unique(CLASSIC, backend=CutShort(), time_limit=1)
