"""The cpsat backend on small and large grids: counts, uniqueness, bad givens, time limits, options, the CLI.

The answers are checked by the independent verifier; runs on the shared data sets are in test_cpsat_data.py.
"""

from __future__ import annotations

import pytest
from conftest import assert_solves, run_cli

from sudoku_cp.backends import make_backend
from sudoku_cp.backends.cpsat import CpSatBackend
from sudoku_cp.encode.cpsat_model import add_blocking, build_model, decode, given_domains, read_cells
from sudoku_cp.errors import SudokuError, UsageError
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.result import Status
from sudoku_cp.rules import Arrow, Cage
from sudoku_cp.samples import blanked, pattern_grid
from sudoku_cp.solving import count_solutions, solve
from sudoku_cp.verify import is_solution

pytest.importorskip("ortools")

#: Every model with every way of finding more than one solution.
CONFIGS = [
    pytest.param("cpsat", {}, id="int"),
    pytest.param("cpsat:bool", {}, id="bool"),
    pytest.param("cpsat", {"enumeration": "block"}, id="int-block"),
    pytest.param("cpsat:bool", {"enumeration": "block"}, id="bool-block"),
    pytest.param("cpsat", {"reuse": False}, id="int-rebuild"),
]
#: With two workers each solve costs about 50 ms: only the tests that solve a few times take it.
WITH_WORKERS = [*CONFIGS, pytest.param("cpsat:bool", {"workers": 2}, id="bool-2-workers")]

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
#: A 4x4 puzzle with exactly one solution; without its given 3 it has more.
UNIQUE_4X4 = "..3..2.441......"


# -- the models ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "variables", "constraints"), [("int", 81, 27), ("bool", 729, 324)])
def test_model_sizes_for_9x9(kind: str, variables: int, constraints: int) -> None:
    model = build_model(Rules.classic(3, 3), kind)
    assert (model.variables, model.constraints) == (variables, constraints)
    assert len(model.model.proto.variables) == variables
    assert len(model.model.proto.constraints) == constraints


def test_given_domains_and_decode_agree() -> None:
    grid = Puzzle.from_string(EASY_SOLUTION)
    assert decode(list(grid.cells), grid.rules, "int") == grid.cells
    one_hot = [0] * (81 * 9)
    for index, value in given_domains(grid, "bool"):
        one_hot[index] = value
    assert decode(one_hot, grid.rules, "bool") == grid.cells
    with pytest.raises(ValueError, match="unknown CP-SAT model"):
        build_model(Rules.classic(2, 2), "sat")


def test_a_solution_is_read_over_the_candidates_only() -> None:
    grid = Puzzle.from_string(EASY_SOLUTION)
    one_hot = [0] * (81 * 9)
    for index, value in given_domains(grid, "bool"):
        one_hot[index] = value
    looked: list[int] = []

    def value(index: int) -> int:
        looked.append(index)
        return one_hot[index]

    assert read_cells(grid.cells.__getitem__, grid.rules, "int") == grid.cells  # int: a cell's variable
    assert read_cells(value, grid.rules, "bool") == grid.cells  # every digit of every cell may be looked at
    masks = [1 << (d - 1) if cell % 2 else (1 << (d - 1)) | 1 << (d % 9) for cell, d in enumerate(grid.cells)]
    looked.clear()
    assert read_cells(value, grid.rules, "bool", masks) == grid.cells
    even_cells = set(range(0, 81, 2))  # the odd cells have one candidate: taken without a lookup
    assert looked and {index // 9 for index in looked} <= even_cells
    assert all(masks[index // 9] >> (index % 9) & 1 for index in looked)
    wrong = [
        m if cell else 1 << (grid.cells[0] % 9) | 1 << ((grid.cells[0] + 1) % 9)
        for cell, m in enumerate(masks)
    ]
    with pytest.raises(SudokuError, match="no digit of r1c1"):
        read_cells(value, grid.rules, "bool", wrong)


@pytest.mark.parametrize("kind", ["int", "bool"])
def test_blocking_a_full_grid_leaves_no_solution(kind: str) -> None:
    from ortools.sat.python import cp_model

    grid = pattern_grid(Rules.classic(2, 2), seed=1)
    model = build_model(grid.rules, kind)
    add_blocking(model, Puzzle.empty(grid.rules), grid.cells)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    assert solver.solve(model.model) == cp_model.OPTIMAL  # 287 others remain
    for index, value in given_domains(grid, kind):
        domain = model.model.proto.variables[index].domain
        domain[0] = domain[1] = value
    assert solver.solve(model.model) == cp_model.INFEASIBLE


# -- counting --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "options"), CONFIGS)
def test_empty_4x4_has_288_solutions(spec: str, options: dict) -> None:
    backend = make_backend(spec, **options)
    empty = Puzzle.empty(Rules.classic(2, 2))
    found = backend.enumerate(empty, limit=1000)
    assert len(found.solutions) == 288
    assert len(set(found.solutions)) == 288
    assert found.complete and not found.timed_out
    assert all(is_solution(empty, s) for s in found.solutions)


@pytest.mark.parametrize(("spec", "options"), WITH_WORKERS)
def test_counting_stops_at_the_limit(spec: str, options: dict) -> None:
    backend = make_backend(spec, **options)
    found = backend.enumerate(Puzzle.empty(Rules.classic(2, 3)), limit=3)
    assert len(set(found.solutions)) == 3
    assert not found.complete and not found.timed_out


@pytest.mark.parametrize(("spec", "options"), WITH_WORKERS)
def test_unique_puzzle_and_multiple_solutions(spec: str, options: dict) -> None:
    backend = make_backend(spec, **options)
    result = solve(EASY, backend, unique=True)
    assert result.status is Status.SOLVED and result.unique is True
    assert result.solution == Puzzle.from_string(EASY_SOLUTION)
    puzzle = Puzzle.from_string(UNIQUE_4X4)
    assert solve(puzzle, backend, unique=True).unique is True
    opened = puzzle.with_cells([(2, 0)])  # without the given 3 of r1c3
    result = solve(opened, backend, unique=True)
    assert result.status is Status.MULTIPLE and result.unique is False
    first, second = result.solutions
    assert first != second
    assert_solves(opened, first)
    assert_solves(opened, second)


@pytest.mark.parametrize(("spec", "options"), WITH_WORKERS)
def test_a_full_grid_is_its_own_unique_solution(spec: str, options: dict) -> None:
    grid = Puzzle.from_string(EASY_SOLUTION)
    found = make_backend(spec, **options).enumerate(grid, limit=2)
    assert found.solutions == (grid,) and found.complete


# -- bad givens ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "options"), WITH_WORKERS)
def test_contradictory_givens_have_no_solution(spec: str, options: dict) -> None:
    backend = make_backend(spec, **options)
    clash = Puzzle.from_string("55" + EASY[2:])  # 5 twice in row 1
    # No digit twice in a unit, but r1c4 sees 1, 2 and 3 in its row and 4 in its column.
    hidden = Puzzle.from_string("123....4........")
    for puzzle in (clash, hidden):
        found = backend.enumerate(puzzle, limit=2)
        assert found.solutions == () and found.complete and not found.timed_out
        assert solve(puzzle, backend, unique=True).status is Status.NO_SOLUTION
    # The next puzzle of the shape is not disturbed by the contradiction before it.
    assert solve(EASY, backend).solution == Puzzle.from_string(EASY_SOLUTION)


# -- one model serves many puzzles -----------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "options"), CONFIGS)
def test_givens_and_blocking_do_not_leak_into_the_next_puzzle(spec: str, options: dict) -> None:
    backend = make_backend(spec, **options)
    rules = Rules.classic(2, 2)
    first = backend.enumerate(Puzzle.from_string(UNIQUE_4X4), limit=2)
    (solution,) = first.solutions
    # The empty grid after it: all 288 again, including the solution found (and blocked) before.
    everything = backend.enumerate(Puzzle.empty(rules), limit=1000)
    assert len(set(everything.solutions)) == 288 and solution in everything.solutions
    # Every solution given in full is found again, though the previous search excluded it.
    for grid in everything.solutions[:5]:
        assert backend.enumerate(grid, limit=2).solutions == (grid,)
    assert backend.enumerate(Puzzle.from_string(UNIQUE_4X4), limit=2).solutions == (solution,)


def test_one_backend_serves_several_shapes() -> None:
    backend = CpSatBackend()
    for rules in (
        Rules.classic(2, 2),
        Rules.classic(2, 3),
        Rules.classic(3, 3),
        Rules.classic(2, 2),
        Rules.classic(3, 2),
    ):
        grid = pattern_grid(rules, seed=rules.n)
        puzzle = blanked(grid, 0.5, seed=3)
        assert_solves(puzzle, backend.enumerate(puzzle).solutions[0])


# -- large grids -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["int", "bool"])
@pytest.mark.parametrize("rules", [Rules.classic(4, 4), Rules.classic(5, 5), Rules.classic(3, 4)], ids=str)
def test_large_grids_solve(kind: str, rules: Rules) -> None:
    backend = CpSatBackend(kind)
    for seed in range(2):
        puzzle = blanked(pattern_grid(rules, seed), 0.55, seed)
        result = solve(puzzle, backend, unique=rules.n < 25)
        assert_solves(puzzle, result.solution)
        if rules.n < 25:
            assert result.status in (Status.SOLVED, Status.MULTIPLE)
            for other in result.solutions:
                assert_solves(puzzle, other)


# -- time limits -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["int", "bool"])
def test_time_limit_gives_unknown(kind: str) -> None:
    """An empty 36x36 grid takes CP-SAT about 2 s (int) or 0.2 s (bool): 10 ms of search are far too few."""
    backend = CpSatBackend(kind)
    empty = Puzzle.empty(Rules.classic(6, 6))
    backend.enumerate(pattern_grid(Rules.classic(6, 6), 0))  # builds the model: only the search is timed
    found = backend.enumerate(empty, limit=1, time_limit=0.01)
    assert found.timed_out and not found.complete and found.solutions == ()
    result = solve(empty, backend, unique=True, time_limit=0.01)
    assert result.status is Status.UNKNOWN and result.unique is None
    # With no time at all nothing is searched, and the next puzzle is solved as usual.
    assert backend.enumerate(empty, limit=1, time_limit=0).timed_out
    blocked = CpSatBackend(kind, enumeration="block")
    assert blocked.enumerate(Puzzle.empty(Rules.classic(2, 2)), limit=2, time_limit=0).timed_out
    easy = blanked(pattern_grid(Rules.classic(6, 6), 1), 0.3, seed=1)
    assert_solves(easy, backend.enumerate(easy, time_limit=60).solutions[0])


# -- options, statistics, registry -----------------------------------------------------------------------


def test_statistics() -> None:
    found = CpSatBackend("bool", propagate=False).enumerate(Puzzle.from_string(EASY), limit=2)
    stats = found.stats
    for key in ("branches", "conflicts", "wall_time", "time", "build_time", "variables", "constraints"):
        assert key in stats, key
    assert stats["variables"] == 729 and stats["constraints"] == 324 and stats["solves"] == 1
    assert stats["wall_time"] > 0 and stats["time"] >= stats["wall_time"] * 0.5 and stats["build_time"] > 0


def test_options_are_checked() -> None:
    assert make_backend("cpsat").spec == "cpsat" and make_backend("cpsat:bool").spec == "cpsat:bool"
    assert make_backend("cpsat", workers=3).workers_for(Rules.classic(3, 3)) == 3
    assert make_backend("cpsat").workers_for(Rules.classic(5, 5)) == 1
    assert CpSatBackend().presolve_for("int") and not CpSatBackend().presolve_for("bool")
    assert CpSatBackend("bool", presolve=True).presolve_for("bool")
    bad_options = [{"workers": 0}, {"workers": "2"}, {"presolve": "yes"}, {"reuse": "no"}]
    for bad in [*bad_options, {"enumeration": "dfs"}, {"amo": "ladder"}]:
        with pytest.raises(UsageError):
            make_backend("cpsat", **bad)
    with pytest.raises(UsageError, match="no variant"):
        make_backend("cpsat:float")
    with pytest.raises(UsageError, match="limit"):
        CpSatBackend().enumerate(Puzzle.from_string(EASY), limit=0)


def test_presolve_setting_does_not_change_answers() -> None:
    puzzle = Puzzle.from_string(EASY)
    for kind in ("int", "bool"):
        for presolve in (True, False):
            backend = CpSatBackend(kind, presolve=presolve)
            assert count_solutions(Puzzle.empty(Rules.classic(2, 2)), 1000, backend) == 288
            assert solve(puzzle, backend, unique=True).unique is True


def test_close_keeps_the_backend_usable() -> None:
    backend = CpSatBackend()
    assert backend.enumerate(Puzzle.from_string(EASY)).solutions[0].to_string() == EASY_SOLUTION
    backend.close()
    assert backend.enumerate(Puzzle.from_string(EASY)).solutions[0].to_string() == EASY_SOLUTION


def test_cli_solves_with_cpsat_and_unique() -> None:
    opened = Puzzle.from_string(UNIQUE_4X4).with_cells([(2, 0)]).to_string()
    proc = run_cli("solve", "--backend", "cpsat:bool", "--unique", stdin=f"{EASY}\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == EASY_SOLUTION
    proc = run_cli("solve", "--backend", "cpsat", "--workers", "2", "--unique", stdin=f"{opened}\n")
    assert proc.returncode == 1, proc.stderr


#: Run in a child process: Ctrl-C during a search that cannot end in seconds (an empty 49x49 grid), then
#: Ctrl-C while Python sleeps after CP-SAT solves (CP-SAT's own SIGINT catching would leave SIG_DFL there,
#: and that second Ctrl-C would kill the process instead of raising KeyboardInterrupt). ortools is imported
#: and the 49x49 model built (by solving a full grid) before the first signal, so that it hits the search.
CTRL_C_SCRIPT = """
import os, signal, threading, time
from sudoku_cp.backends.cpsat import CpSatBackend
from sudoku_cp.grid import Puzzle, Rules

backend = CpSatBackend()
cells = tuple((7 * (r % 7) + r // 7 + c) % 49 + 1 for r in range(49) for c in range(49))
full = Puzzle(Rules.classic(7, 7), cells)
assert backend.enumerate(full).solutions == (full,)
timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
start = time.perf_counter()
timer.start()
try:
    backend.enumerate(Puzzle.empty(Rules.classic(7, 7)), time_limit=60)
    print("search not interrupted")
except KeyboardInterrupt:
    print(f"search interrupted after {time.perf_counter() - start:.1f} s")
backend.enumerate(Puzzle.empty(Rules.classic(3, 3)))
threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    time.sleep(30)
except KeyboardInterrupt:
    print("sleep interrupted")
"""


def test_ctrl_c_stops_a_long_search_and_keeps_working_afterwards() -> None:
    import signal
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", CTRL_C_SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even when run in the background
    )
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.split("\n")[:2]
    # The time limit is 60 s; CP-SAT's presolve heeds the stop within about 1.5 s (several under load).
    assert first.startswith("search interrupted after") and float(first.split()[-2]) < 30, proc.stdout
    assert second == "sleep interrupted", proc.stdout


def test_the_model_is_chosen_per_rules_unless_a_variant_names_it() -> None:
    nine = Rules.classic(3, 3)
    arrows = nine.with_(arrows=(Arrow((0,), (1, 2)),))
    killer, groups = nine.with_(cages=(Cage((0, 1), 3),)), nine.with_(cages=(Cage((0, 1)),))
    chosen = [CpSatBackend().kind_for(r) for r in (nine, Rules.classic(5, 5), arrows, killer, groups)]
    assert chosen == ["bool", "bool", "int", "int", "bool"]  # sums (arrows, cage totals): the int model
    assert CpSatBackend("int").kind_for(nine) == "int" and CpSatBackend("bool").kind_for(arrows) == "bool"
    backend = CpSatBackend()
    for rules in (nine, arrows, killer):  # valid answers, whichever model
        puzzle = Puzzle.empty(rules)
        found = backend.enumerate(puzzle, limit=2)
        assert len(found.solutions) == 2 and all(is_solution(puzzle, s) for s in found.solutions)
