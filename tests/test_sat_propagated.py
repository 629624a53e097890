"""The propagated way of the sat backend: the formula after propagation, loaded natively, against dfs.

Every answer is compared with the dfs backend's (the reference search): the same solutions, the same
completeness, on classic grids from 4x4 to 25x25, on every kind of variant rule, on candidates, and on
givens that contradict each other. The public collections are in ``test_sat_data.py``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from cases import CLASSIC, HARD, VARIANTS, variant_rules

from sudoku_cp import Puzzle, is_solution
from sudoku_cp.backends import make_backend, sat_native
from sudoku_cp.backends.sat import SatBackend
from sudoku_cp.candidates import Candidates
from sudoku_cp.encode.propagated import PropagatedEncoder, ready, warm_up
from sudoku_cp.errors import UsageError
from sudoku_cp.formats.fpuzzles import from_fpuzzles
from sudoku_cp.rules import Rules
from sudoku_cp.samples import blanked, pattern_grid


@pytest.fixture(scope="module")
def dfs():
    return make_backend("dfs")


def solutions(found) -> list[tuple[int, ...]]:
    return sorted(s.cells for s in found.solutions)


def agree(puzzle: Puzzle, sat: SatBackend, dfs, limit: int = 30) -> None:
    """sat finds what dfs finds: the same grids when both finish, valid grids and the same count always."""
    mine, reference = sat.enumerate(puzzle, limit), dfs.enumerate(puzzle, limit)
    assert mine.complete == reference.complete, puzzle.to_string()
    assert len(mine.solutions) == len(reference.solutions), puzzle.to_string()
    assert all(is_solution(puzzle, s) for s in mine.solutions)
    assert len(set(solutions(mine))) == len(mine.solutions)
    if reference.complete:
        assert solutions(mine) == solutions(reference), puzzle.to_string()


def test_propagate_is_an_option_that_fits_the_default_encoding_only() -> None:
    assert SatBackend().propagate and SatBackend(incremental=False).propagate
    assert SatBackend(amo="pairwise", propagate="true").propagate
    assert not SatBackend(incremental=True).propagate and not SatBackend(encoding="reduced").propagate
    assert not SatBackend(amo="seqcounter").propagate and not SatBackend(propagate="false").propagate
    with pytest.raises(UsageError, match="propagate needs"):
        SatBackend(encoding="minimal", propagate=True)
    with pytest.raises(UsageError, match="propagate must be auto, true or false"):
        SatBackend(propagate="often")
    assert make_backend("sat", propagate="false").propagate is False


def test_the_formula_keeps_only_the_open_candidates_and_decodes_to_the_solution() -> None:
    encoder = PropagatedEncoder(HARD.rules)
    formula = encoder.encode(HARD.cells)
    assert formula.status == "open" and formula.variables == formula.primary
    cells = formula.clause_lists()
    used = {abs(lit) for clause in cells for lit in clause}
    assert used == set(range(1, formula.primary + 1))  # renumbered: every variable occurs, none beyond
    assert len(cells) == formula.clauses and sum(map(len, cells)) == formula.literals
    assert formula.primary < 300 and formula.clauses < 2000  # against 729 and 11,988 for the full grid
    from pysat.solvers import Solver

    with Solver(name="glucose4", bootstrap_with=cells) as solver:
        assert solver.solve()
        grid, block = formula.decode(solver.get_model())
        assert is_solution(HARD, Puzzle(HARD.rules, grid))
        solver.add_clause(block)
        assert not solver.solve()  # the puzzle is unique


def test_propagation_alone_decides_easy_puzzles_and_contradictions() -> None:
    assert ready() or warm_up() > 0
    encoder = PropagatedEncoder(CLASSIC.rules)
    solved = encoder.encode(CLASSIC.cells)  # locked candidates finish this one
    assert solved.status == "solved" and solved.clauses == 0
    assert is_solution(CLASSIC, Puzzle(CLASSIC.rules, solved.solution()))
    assert encoder.encode(CLASSIC.with_cells([(1, 4)]).cells).status == "contradiction"  # a second 4
    no_place = Puzzle.from_string("12345678." + "........9" + "." * 63)  # r1c9 has no candidate
    assert encoder.encode(no_place.cells).status == "contradiction"
    found = SatBackend(propagate=True).enumerate(CLASSIC, 2)
    assert found.complete and found.stats["forced"] == 1 and found.stats["conflicts"] == 0


@pytest.mark.parametrize("solver", ["glucose4", "minisat22", "glucose3", "cadical153", "cadical195"])
def test_each_natively_loaded_solver_agrees_with_dfs(solver: str, dfs) -> None:
    assert sat_native.Direct.available(solver)
    sat = SatBackend(solver, propagate=True)
    for seed in range(12):
        agree(blanked(pattern_grid(Rules.classic(3, 3), seed), 0.6 + seed / 100, seed), sat, dfs)
    agree(HARD, sat, dfs)


@pytest.mark.parametrize("solver", ["maplesat", "lingeling", "kissat404"])
def test_solvers_without_a_native_loader_take_the_clauses_as_lists(solver: str, dfs) -> None:
    sat = SatBackend(solver, propagate=True)
    for seed in range(4):
        agree(blanked(pattern_grid(Rules.classic(2, 3), seed), 0.6, seed), sat, dfs, limit=50)
    agree(HARD, sat, dfs)


def test_a_loader_that_is_not_available_falls_back_to_lists(monkeypatch: pytest.MonkeyPatch, dfs) -> None:
    monkeypatch.setattr(sat_native, "_loader", lambda name: None)
    sat = SatBackend("glucose4", propagate=True)
    agree(HARD, sat, dfs)
    agree(blanked(pattern_grid(Rules.classic(3, 3), 5), 0.65, 5), sat, dfs)


def test_the_native_loaders_pass_their_self_test() -> None:
    for name in sat_native.NATIVE:
        loader = sat_native._loader(name)
        assert loader is not None and sat_native._works(name, loader)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_generated_classic_puzzles_of_every_size_agree_with_dfs(box: tuple[int, int], dfs) -> None:
    rules = Rules.classic(*box)
    sat = SatBackend(propagate=True)
    rng = random.Random(sum(box))
    for seed in range(10 if rules.n <= 9 else 4):
        fraction = rng.uniform(0.35, 0.7)  # from unique puzzles to many solutions
        agree(blanked(pattern_grid(rules, seed), fraction, seed), sat, dfs)


def test_a_25x25_puzzle_is_solved_and_its_uniqueness_decided() -> None:
    rules = Rules.classic(5, 5)
    grid = pattern_grid(rules, 3)
    unique = Puzzle(rules, tuple(d if i % 4 else 0 for i, d in enumerate(grid.cells)))  # 75% givens
    found = SatBackend(propagate=True).enumerate(unique, 2)
    assert found.complete and [s.cells for s in found.solutions] == [grid.cells]
    several = blanked(grid, 0.5, 3)
    found = SatBackend(propagate=True).enumerate(several, 2)
    assert len(found.solutions) == 2 and all(is_solution(several, s) for s in found.solutions)


def test_contradictory_givens_have_no_solution_on_every_size() -> None:
    sat = SatBackend(propagate=True)
    for box in [(2, 2), (3, 3), (4, 4)]:
        rules = Rules.classic(*box)
        grid = list(pattern_grid(rules, 1).cells)
        clash = [0] * rules.ncells
        clash[0] = clash[1] = grid[0]  # the same digit twice in row 1
        found = sat.enumerate(Puzzle(rules, tuple(clash)), 2)
        assert found.complete and found.solutions == ()
        wrong = list(grid)
        wrong[0], wrong[1] = wrong[1], wrong[0]  # a full grid with two digits swapped in row 1
        found = sat.enumerate(Puzzle(rules, tuple(wrong)), 2)
        assert found.complete and found.solutions == ()


@pytest.mark.parametrize("item", VARIANTS, ids=[v["name"] for v in VARIANTS])
def test_published_variants_and_their_thinned_versions_agree_with_dfs(item: dict, dfs) -> None:
    puzzle = from_fpuzzles(item["fpuzzles"])
    sat = SatBackend(propagate=True)
    found = sat.enumerate(puzzle, 2)
    assert found.complete and [s.to_string() for s in found.solutions] == [item["solution"]]
    solution = [int(ch) for ch in item["solution"]]
    rng = random.Random(len(item["name"]))
    for keep in (0.5, 0.35):  # givens from the solution: one solution or a few
        cells = [d if rng.random() < keep else 0 for d in solution]
        agree(Puzzle(puzzle.rules, tuple(cells)), sat, dfs, limit=40)


@pytest.mark.parametrize("rules", variant_rules(), ids=str)
def test_generated_variant_puzzles_agree_with_dfs(rules: Rules, dfs) -> None:
    sat = SatBackend(propagate=True)
    grids = dfs.enumerate(Puzzle.empty(rules), 3).solutions  # full grids that keep every rule
    assert grids
    for seed, grid in enumerate(grids):
        for fraction in (0.55, 0.4, 0.25):
            agree(blanked(grid, fraction, seed), sat, dfs, limit=40)
        wrong = list(grid.cells)
        wrong[0] = wrong[0] % rules.n + 1  # a full grid broken in one cell: no solution
        agree(Puzzle(rules, tuple(wrong)), sat, dfs)


def test_candidates_go_the_propagated_way_and_agree_with_the_incremental_solver() -> None:
    sat = SatBackend(propagate=True)
    incremental = SatBackend(incremental=True)  # dfs starts from givens only
    rng = random.Random(4)
    for seed in range(6):
        puzzle = blanked(pattern_grid(Rules.classic(3, 3), seed), 0.45, seed)
        masks = list(Candidates.of(puzzle).masks)
        for cell in rng.sample(range(81), 20):  # drop candidates, never a cell's last one
            if bin(masks[cell]).count("1") > 1:
                masks[cell] &= ~(masks[cell] & -masks[cell])
        candidates = Candidates(puzzle, tuple(masks))
        mine = sat.enumerate_candidates(candidates, 30)
        reference = incremental.enumerate_candidates(candidates, 30)
        assert mine.complete == reference.complete and len(mine.solutions) == len(reference.solutions)
        if reference.complete:
            assert solutions(mine) == solutions(reference)


def test_a_conflict_budget_stops_the_search_at_the_same_point_on_every_call() -> None:
    """``conflicts`` bounds a search from candidates as a time limit does, but the same way each time: the
    propagated way builds a solver per call, so no call learns from an earlier one."""
    warm_up()
    backend = SatBackend()
    candidates = Candidates.of(HARD)
    whole = backend.enumerate_candidates(candidates, 2)
    needed = whole.stats["conflicts"]
    assert whole.complete and len(whole.solutions) == 1 and needed > 20
    cut = [backend.enumerate_candidates(candidates, 2, conflicts=needed // 2) for _ in range(3)]
    assert all(c.timed_out and not c.complete for c in cut)
    assert len({(len(c.solutions), c.stats["conflicts"]) for c in cut}) == 1
    assert needed // 2 <= cut[0].stats["conflicts"] < needed
    again = backend.enumerate_candidates(candidates, 2, conflicts=needed)
    assert again.complete and solutions(again) == solutions(whole)


def test_a_time_limit_stops_the_propagated_search_without_a_wrong_answer() -> None:
    backend = SatBackend(propagate=True)  # a time limit drives the solver through python-sat's Solver
    empty = Puzzle.empty(Rules.classic(3, 3))
    found = backend.enumerate(empty, limit=10**9, time_limit=0.3)
    assert found.timed_out and not found.complete and found.solutions
    assert all(is_solution(empty, s) for s in found.solutions[:50])
    assert backend.enumerate(CLASSIC, 2, time_limit=30).complete


def test_by_default_the_compiled_start_up_is_rented_until_paid(monkeypatch: pytest.MonkeyPatch) -> None:
    import sudoku_cp.encode.propagated as propagated
    from sudoku_cp.backends import propagation

    monkeypatch.setattr(propagated, "_READY", False)  # as in a fresh process
    backend = SatBackend()
    first = backend.enumerate(HARD, 2)
    assert first.stats["incremental"] == 0 and "forced" not in first.stats  # the old per-puzzle way
    assert not backend._rental.propagating() and backend._rental.waited > 0
    monkeypatch.setattr(propagation, "STARTUP_SECONDS", backend._rental.waited)
    assert backend._rental.propagating()  # paid for
    assert backend.enumerate(HARD, 2).stats["forced"] == 0  # the propagated way (it has a "forced" count)
    monkeypatch.setattr(propagation, "STARTUP_SECONDS", 1e9)
    monkeypatch.setattr(propagated, "_READY", False)  # (the propagated way loaded the kernels)
    assert not SatBackend()._rental.propagating()
    monkeypatch.setattr(propagated, "_READY", True)  # the kernels are loaded: nothing to rent
    assert SatBackend()._rental.propagating() and not SatBackend(propagate=False)._rental.propagating()
    assert SatBackend(propagate=True, incremental=False)._rental.asked


def test_grids_beyond_25x25_go_to_cadical(solvers_built: list[str]) -> None:
    from sudoku_cp.backends import sat as sat_module

    built = solvers_built
    backend = SatBackend(propagate=True)
    for box, blank in [((4, 4), 0.6), ((6, 6), 0.4)]:  # both leave candidates open (36x36: 134)
        built.append("-")
        puzzle = blanked(pattern_grid(Rules.classic(*box), 2), blank, 2)
        found = backend.enumerate(puzzle, 2)
        assert found.solutions and all(is_solution(puzzle, s) for s in found.solutions)
    # grids of 16 digits and more go through python-sat's Solver (they stop on a signal at once)
    assert built == ["-", sat_module.propagated_solver(16), "-", sat_module.DEFAULT_SOLVER]
    assert [sat_module.propagated_solver(n) for n in (9, 16, 25, 36)] == [
        "minisat22",
        "minisat22",
        "glucose4",
        sat_module.DEFAULT_SOLVER,
    ]


def test_a_clause_longer_than_the_loaders_buffer_goes_in_whole() -> None:
    from pysat.solvers import Solver

    lits = np.array([*range(1, 101), *range(-1, -100, -1)], np.int32)  # one of 1..100, and none of 1..99
    ends = np.array([100, *range(101, 200)], np.int32)
    for name in sat_native.NATIVE:
        with Solver(name=name) as solver:
            assert sat_native.load(solver, name, 100, lits, ends)
            assert solver.solve() and solver.get_model()[99] == 100
