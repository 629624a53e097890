"""The dfs backend: both engines, every heuristic, any box shape, limits, time limits and the batch kernel.

Every solution is checked by the independent verifier; the two engines must explore the same search tree
(same solutions in the same order, same statistics).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from cases import HARD_9X9, TWO_SOLUTIONS, assert_same_tree, blanked, full_grid, variant_rules
from conftest import assert_solves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle, Rules, Status, UsageError, make_backend, solve
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.backends.dfs_reference import (
    COMPILED_ONLY,
    HEURISTICS,
    SHARED_HEURISTICS,
    _geometry,
    choose_cell,
    propagate,
    search,
)
from sudoku_cp.result import COMMON_STATS, Enumeration
from sudoku_cp.rules import Pair
from sudoku_cp.verify import solution_problems

HAS_NUMBA = importlib.util.find_spec("numba") is not None
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed: the compiled engine is off")
ENGINES = ["python", pytest.param("compiled", marks=needs_numba)]
SEARCH_STATS = ("guesses", "backtracks", "nodes")


def unsat_16x16() -> Puzzle:
    """A 16x16 without a solution that propagation cannot see: r16c14, r16c15 and r16c16 can only hold 1
    or 2 (their row holds 9-14, their box 3-8, each of their columns 15 and 16), yet no digit has a single
    place in any unit. Branching on one of those cells refutes it at once; branching row by row from r1c1
    (``first``) faces the whole rest of the grid, far beyond any time limit a test sets."""
    n = 16
    cells = [0] * n * n
    for k, d in enumerate(range(3, 9)):
        cells[(12 + k // 4) * n + 12 + k % 4] = d
    for k, d in enumerate(range(9, 15)):
        cells[15 * n + k] = d
    for r, c, d in ((0, 13, 15), (0, 15, 16), (4, 13, 16), (4, 14, 15), (8, 14, 16), (8, 15, 15)):
        cells[r * n + c] = d
    return Puzzle(Rules.classic(4, 4), tuple(cells)).validate()


def search_tree(found: Enumeration) -> tuple:
    """What must be equal between the engines: solutions in order, completeness and search statistics."""
    return found.solutions, found.complete, found.timed_out, tuple(found.stats[k] for k in SEARCH_STATS)


def test_full_grid_helper_makes_valid_grids() -> None:
    for rules in (Rules.classic(2, 3), Rules.classic(3, 4), Rules.classic(4, 3), Rules.classic(5, 5)):
        grid = full_grid(rules, 1)
        assert not solution_problems(grid, grid)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_empty_4x4_has_exactly_288_solutions(engine: str, heuristic: str) -> None:
    empty = Puzzle.empty(Rules.classic(2, 2))
    if engine == "python" and heuristic in COMPILED_ONLY:
        with pytest.raises(UsageError, match=f"heuristic {heuristic} runs on the compiled dfs engine only"):
            DfsBackend(heuristic=heuristic, engine=engine)
        return
    found = DfsBackend(heuristic=heuristic, engine=engine).enumerate(empty, limit=1000)
    assert found.complete and not found.timed_out
    assert len(found.solutions) == 288
    assert len(set(found.solutions)) == 288
    for solution in found.solutions:
        assert_solves(empty, solution)
    assert found.stats["nodes"] == found.stats["guesses"] + 1
    assert set(found.stats) == {*SEARCH_STATS, *COMMON_STATS}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_limit_stops_the_enumeration(engine: str) -> None:
    found = DfsBackend(engine=engine).enumerate(Puzzle.empty(Rules.classic(2, 2)), limit=5)
    assert len(found.solutions) == 5 and not found.complete and not found.timed_out
    two = DfsBackend(engine=engine).enumerate(Puzzle.from_string(TWO_SOLUTIONS), limit=10)
    assert len(two.solutions) == 2 and two.complete
    for solution in two.solutions:
        assert_solves(Puzzle.from_string(TWO_SOLUTIONS), solution)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("rows", "cols", "keep"),
    [(2, 3, 0.45), (3, 2, 0.45), (3, 4, 0.45), (4, 3, 0.45), (4, 4, 0.45), (5, 5, 0.6)],
)
def test_puzzles_of_every_shape_solve(engine: str, rows: int, cols: int, keep: float) -> None:
    """25x25 keeps 60% of the cells: near 45% random 25x25 puzzles sit at the hardness peak of a
    search without learning (see benchmarks/bench_dfs.py --shapes)."""
    rules = Rules.classic(rows, cols)
    for seed in range(3):
        full = full_grid(rules, seed)
        puzzle = blanked(full, keep, seed)
        for heuristic in HEURISTICS if engine != "python" else SHARED_HEURISTICS:
            found = DfsBackend(heuristic=heuristic, engine=engine).enumerate(puzzle, limit=2, time_limit=20)
            assert found.solutions and not found.timed_out, (rules, seed, heuristic)
            for solution in found.solutions:
                assert_solves(puzzle, solution)
            assert found.complete or len(found.solutions) == 2
            if found.complete and len(found.solutions) == 1:
                assert found.solutions[0] == full


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rules", [Rules.classic(3, 4), Rules.classic(4, 4)])
def test_an_empty_grid_is_filled(engine: str, rules: Rules) -> None:
    empty = Puzzle.empty(rules)
    found = DfsBackend(engine=engine).enumerate(empty, limit=1)
    assert len(found.solutions) == 1 and not found.complete
    assert_solves(empty, found.solutions[0])


@needs_numba
def test_an_empty_25x25_grid_is_filled_by_the_compiled_engine() -> None:
    empty = Puzzle.empty(Rules.classic(5, 5))
    found = DfsBackend(engine="compiled").enumerate(empty, limit=1, time_limit=20)
    assert_solves(empty, found.solutions[0])


@needs_numba
@pytest.mark.parametrize(("rows", "cols", "keep"), [(3, 4, 0.4), (4, 4, 0.5), (5, 5, 0.8)])
def test_pairs_on_wide_grids_search_the_same_tree_in_both_engines(rows: int, cols: int, keep: float) -> None:
    """The compiled pair rule reads a mask's supports a chunk of bits at a time (two chunks on 12x12 and
    16x16, four on 25x25, where 9x9 and smaller take one or two): kropki dots, X/V-like sums and their
    negations drawn from a full grid give the same search as the reference engine's digit by digit."""
    rules = Rules.classic(rows, cols)
    n = rules.n
    for seed in range(2):
        full = full_grid(rules, seed)
        pairs = []
        for a in range(rules.ncells):
            for b in (a + 1, a + n):
                if (b == a + 1 and b % n == 0) or b >= rules.ncells:
                    continue
                x, y = full.cells[a], full.cells[b]
                if abs(x - y) == 1:
                    pairs.append(Pair(a, b, "difference", 1))
                elif x == 2 * y or y == 2 * x:
                    pairs.append(Pair(a, b, "ratio", 2))
                elif x + y == n + 1:
                    pairs.append(Pair(a, b, "sum", n + 1))
                elif (a + seed) % 3 == 0:
                    pairs.append(Pair(a, b, "difference", 1, negated=True))
        puzzle = Puzzle(rules.with_(dots=tuple(pairs)), blanked(full, keep, seed).cells)
        assert_same_tree(puzzle, 2)


@pytest.mark.parametrize("engine", ENGINES)
def test_contradictions_give_no_solution(engine: str) -> None:
    backend = DfsBackend(engine=engine)
    clash = Puzzle.from_string("11" + "." * 79)  # two givens that clash: found at the root
    found = backend.enumerate(clash, limit=2)
    assert found.solutions == () and found.complete and found.stats["nodes"] == 1
    # no clash, but r1c9 has no candidate left (its row holds 1-8, its column 9)
    no_place = Puzzle.from_string("12345678." + "." * 71 + "9")
    found = backend.enumerate(no_place, limit=2)
    assert found.solutions == () and found.complete and found.stats["guesses"] == 0
    assert solve(no_place, backend).status is Status.NO_SOLUTION
    # no contradiction at the root: the search has to prove it
    found = backend.enumerate(unsat_16x16(), limit=1)
    assert found.solutions == () and found.complete and found.stats["guesses"] > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_time_limit_gives_unknown_never_a_hang(engine: str) -> None:
    puzzle = unsat_16x16()
    backend = DfsBackend(heuristic="first", engine=engine)
    started = time.perf_counter()
    found = backend.enumerate(puzzle, limit=2, time_limit=0.3)
    assert time.perf_counter() - started < 2.5
    assert found.timed_out and not found.complete and found.solutions == ()
    assert found.stats["nodes"] > 1
    assert solve(puzzle, backend, time_limit=0.2).status is Status.UNKNOWN
    assert solve(puzzle, backend, unique=True, time_limit=0.2).status is Status.UNKNOWN
    # the fewest-candidates cell choice refutes it in a few nodes
    assert solve(puzzle, DfsBackend(engine=engine), time_limit=5).status is Status.NO_SOLUTION


@pytest.mark.parametrize(
    ("engine", "seconds"), [("python", 0.3), pytest.param("compiled", 0.01, marks=needs_numba)]
)
def test_a_timed_out_enumeration_keeps_the_solutions_found(engine: str, seconds: float) -> None:
    """The empty 6x6 grid has 28,200,960 solutions: far more than either engine lists in the time given
    (the limit bounds the memory should a machine be a hundred times faster)."""
    empty = Puzzle.empty(Rules.classic(2, 3))
    found = DfsBackend(engine=engine).enumerate(empty, limit=10**6, time_limit=seconds)
    assert found.timed_out and not found.complete
    assert 1 <= len(found.solutions) < 10**6
    assert len(set(found.solutions)) == len(found.solutions)
    for solution in found.solutions[:100]:
        assert_solves(empty, solution)


@needs_numba
@pytest.mark.parametrize("heuristic", SHARED_HEURISTICS)
def test_both_engines_explore_the_same_search_tree(heuristic: str) -> None:
    puzzles = [
        Puzzle.from_string(HARD_9X9),
        Puzzle.from_string(TWO_SOLUTIONS),
        Puzzle.empty(Rules.classic(2, 3)),
        unsat_16x16() if heuristic != "first" else Puzzle.empty(Rules.classic(3, 3)),
        *(blanked(full_grid(Rules.classic(3, 3), seed), 0.3, seed) for seed in range(5)),
    ]
    python, compiled = DfsBackend(heuristic=heuristic, engine="python"), DfsBackend(heuristic=heuristic)
    for puzzle in puzzles:
        for limit in (1, 3):
            expected = search_tree(python.enumerate(puzzle, limit))
            assert search_tree(compiled.enumerate(puzzle, limit)) == expected


def test_statistics_count_guesses_and_dead_ends() -> None:
    """A puzzle that propagation solves takes no guess; a search's nodes are the root plus its guesses."""
    solution = full_grid(Rules.classic(3, 3), 5)
    easy = Puzzle(solution.rules, (0, *solution.cells[1:]))
    found = DfsBackend(engine="python").enumerate(easy, limit=2)
    assert found.solutions == (solution,) and found.complete
    assert (found.stats["guesses"], found.stats["backtracks"], found.stats["nodes"]) == (0, 0, 1)
    hard = DfsBackend(engine="python").enumerate(Puzzle.from_string(HARD_9X9), limit=2)
    assert hard.stats["guesses"] > hard.stats["backtracks"] > 0
    assert hard.stats["nodes"] == hard.stats["guesses"] + 1


def _weight(cands: list[int], cell: int, rules: Rules) -> Fraction:
    """The weighted heuristic's score of a cell, computed from its definition with exact fractions."""
    total = Fraction(0)
    for u in rules.houses_of[cell]:
        total += sum(Fraction(1, cands[c].bit_count()) for c in rules.houses[u])
    return total + Fraction(10, cands[cell].bit_count())


@pytest.mark.parametrize("seed", range(4))
def test_branch_cells_follow_the_heuristics_definitions(seed: int) -> None:
    rules = Rules.classic(3, 3)
    puzzle = blanked(full_grid(rules, seed), 0.25, seed)
    found = search(puzzle.cells, rules, limit=1)
    assert found.solutions
    # a propagated state: the root of the search, with candidates as the reference computes them
    geo = _geometry(rules)
    cands = [1 << (d - 1) if d else geo.full for d in puzzle.cells]
    assert propagate(cands, [c for c, d in enumerate(puzzle.cells) if d], geo)
    empty = [c for c in range(rules.ncells) if cands[c].bit_count() > 1]
    assert empty
    assert choose_cell(cands, "first", geo) == empty[0]
    fewest = min(cands[c].bit_count() for c in empty)
    assert choose_cell(cands, "mrv", geo) == next(c for c in empty if cands[c].bit_count() == fewest)
    weights = {c: _weight(cands, c, rules) for c in empty}
    best = max(weights.values())
    assert choose_cell(cands, "weighted", geo) == next(c for c in empty if weights[c] == best)


def test_options_are_checked() -> None:
    with pytest.raises(UsageError, match="mrv, first, weighted"):
        DfsBackend(heuristic="random")
    with pytest.raises(UsageError, match="auto, compiled, python"):
        DfsBackend(engine="fortran")
    with pytest.raises(UsageError, match="contradicts"):
        DfsBackend("python", engine="compiled")
    with pytest.raises(UsageError, match="variant"):
        make_backend("dfs:gpu")
    with pytest.raises(UsageError, match="limit"):
        DfsBackend(engine="python").enumerate(Puzzle.empty(Rules.classic(2, 2)), limit=0)


def test_variants_name_the_engine() -> None:
    assert make_backend("dfs:python").engine == "python"
    assert make_backend("dfs", engine="python").spec == "dfs:python"
    assert make_backend("dfs", heuristic="first").heuristic == "first"
    auto = make_backend("dfs")
    assert auto.spec == "dfs" and auto.engine == ("compiled" if HAS_NUMBA else "python")
    assert solve(TWO_SOLUTIONS, "dfs:python", unique=True).status is Status.MULTIPLE


def test_without_numba_the_backend_falls_back_to_the_reference() -> None:
    script = (
        "import sys; sys.modules['numba'] = None\n"
        "from sudoku_cp import solve, BackendUnavailableError\n"
        "from sudoku_cp.backends.dfs import DfsBackend\n"
        "b = DfsBackend(); assert b.engine == 'python', b.engine\n"
        "assert solve('12343412214343..', b, unique=True).solution.to_string() == '1234341221434321'\n"
        "try:\n    DfsBackend(engine='compiled')\n"
        "except BackendUnavailableError as e:\n    print('refused:', e)\n"
    )
    env = {**os.environ, "SUDOKU_CP_KERNELS": "jit"}  # no module built ahead of time to fall back on
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert "refused: the compiled dfs engine needs numba" in done.stdout


@needs_numba
def test_the_kernels_built_ahead_of_time_search_without_numba() -> None:
    from sudoku_cp.backends import dfs_compiled

    dfs_compiled.warm_up()  # builds the module where this machine has none
    script = (
        "import sys; sys.modules['numba'] = None\n"
        "from sudoku_cp import solve\n"
        "from sudoku_cp.backends.dfs import DfsBackend\n"
        "from sudoku_cp.backends.dfs_compiled import kernels\n"
        "b = DfsBackend(); assert b.engine == 'compiled', b.engine\n"
        "print(solve('12343412214343..', b, unique=True).solution.to_string(), kernels().how)\n"
        f"print(solve({HARD_9X9!r}, b, unique=True).solution.to_string())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    small, hard = done.stdout.splitlines()
    assert small == "1234341221434321 aot"
    assert (
        hard == DfsBackend(engine="python").enumerate(Puzzle.from_string(HARD_9X9)).solutions[0].to_string()
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    keep=st.floats(0.0, 0.7),
    heuristic=st.sampled_from(SHARED_HEURISTICS),
    rows=st.sampled_from([(2, 2), (2, 3), (3, 3)]),
)
def test_random_partial_grids_are_solved_consistently(
    seed: int, keep: float, heuristic: str, rows: tuple[int, int]
) -> None:
    rules = Rules.classic(*rows)
    full = full_grid(rules, seed)
    puzzle = blanked(full, keep, seed + 1)
    python = DfsBackend(heuristic=heuristic, engine="python").enumerate(puzzle, limit=3)
    for solution in python.solutions:
        assert_solves(puzzle, solution)
    assert len(python.solutions) == 3 or python.complete
    if python.complete:
        assert full in python.solutions
    if HAS_NUMBA:
        compiled = DfsBackend(heuristic=heuristic, engine="compiled").enumerate(puzzle, limit=3)
        assert search_tree(compiled) == search_tree(python)


# ---- the batch entry point of the compiled engine -----------------------------------------------------


@needs_numba
def test_solve_array_matches_the_per_puzzle_search() -> None:
    from sudoku_cp.backends import dfs_compiled as dc

    rules = Rules.classic(3, 3)
    puzzles = [
        Puzzle.from_string(HARD_9X9),
        Puzzle.from_string(TWO_SOLUTIONS),
        Puzzle.from_string("11" + "." * 79),
        Puzzle.empty(rules),
        full_grid(rules, 3),
        *(blanked(full_grid(rules, s), 0.35, s) for s in range(20)),
    ]
    grids = np.array([p.cells for p in puzzles], np.uint8)
    for heuristic in SHARED_HEURISTICS:
        found = dc.solve_array(grids, rules, 2, heuristic)
        backend = DfsBackend(heuristic=heuristic, engine="python")
        for i, puzzle in enumerate(puzzles):
            one = backend.enumerate(puzzle, limit=2)
            assert found.counts[i] == len(one.solutions)
            expected = dc.EXHAUSTED if one.complete else dc.LIMIT_REACHED
            assert found.status[i] == expected
            sols = [found.solutions[i], found.second[i]]
            for k in range(2):
                if k < len(one.solutions):
                    assert tuple(sols[k]) == one.solutions[k].cells
                else:
                    assert not sols[k].any()
            assert [found.guesses[i], found.backtracks[i], found.nodes[i]] == [
                one.stats[k] for k in SEARCH_STATS
            ]
        assert list(found.complete) == [s == dc.EXHAUSTED for s in found.status]


@needs_numba
def test_solve_array_counts_to_its_limit() -> None:
    from sudoku_cp.backends.dfs_compiled import EXHAUSTED, LIMIT_REACHED, solve_array

    rules = Rules.classic(2, 2)
    grids = np.zeros((3, 16), np.uint8)
    grids[2, :2] = (1, 2)  # fixing two digits of the first row leaves 288 / 12 = 24 solutions
    found = solve_array(grids, rules, limit=1000)
    assert list(found.counts) == [288, 288, 24] and set(found.status) == {EXHAUSTED}
    found = solve_array(grids, rules, limit=30)
    assert list(found.counts) == [30, 30, 24]
    assert list(found.status) == [LIMIT_REACHED, LIMIT_REACHED, EXHAUSTED]
    empty = solve_array(np.zeros((0, 16), np.uint8), rules, 2)
    assert empty.counts.shape == (0,) and empty.solutions.shape == (0, 16)


@needs_numba
def test_solve_array_budgets_give_unknown() -> None:
    from sudoku_cp.backends.dfs_compiled import EXHAUSTED, OUT_OF_NODES, solve_array

    full = full_grid(Rules.classic(4, 4), 2)
    hard, easy = unsat_16x16(), Puzzle(full.rules, (0, 0, *full.cells[2:]))  # easy has one solution
    grids = np.array([hard.cells, easy.cells], np.uint8)
    found = solve_array(grids, hard.rules, 2, "first", max_nodes=500)
    assert list(found.status) == [OUT_OF_NODES, EXHAUSTED] and found.nodes[0] == 501
    assert list(found.unknown) == [True, False]
    assert found.counts[1] == 1
    assert_solves(easy, Puzzle(easy.rules, tuple(found.solutions[1])))
    started = time.perf_counter()
    found = solve_array(grids, hard.rules, 2, "first", time_limit=0.2)
    assert time.perf_counter() - started < 3
    assert list(found.status) == [OUT_OF_NODES, EXHAUSTED] and found.nodes[0] > 501
    found = solve_array(grids, hard.rules, 2, "mrv", time_limit=5)
    assert list(found.status) == [EXHAUSTED, EXHAUSTED] and list(found.counts) == [0, 1]


@needs_numba
def test_solve_array_rejects_bad_input() -> None:
    from sudoku_cp.backends.dfs_compiled import solve_array

    rules = Rules.classic(2, 2)
    with pytest.raises(ValueError, match=r"\(m, 16\)"):
        solve_array(np.zeros((2, 15), np.uint8), rules, 1)
    with pytest.raises(ValueError, match="above 4"):
        solve_array(np.full((1, 16), 5, np.uint8), rules, 1)
    with pytest.raises(ValueError, match="limit"):
        solve_array(np.zeros((1, 16), np.uint8), rules, 0)
    with pytest.raises(ValueError, match="mrv, first, weighted"):
        solve_array(np.zeros((1, 16), np.uint8), rules, 1, "dlx")


# ---- wdeg, the compiled engine's conflict-directed heuristic ----------------------------------------------


@needs_numba
@pytest.mark.parametrize("rules", variant_rules(), ids=str)
def test_wdeg_finds_every_solution_the_reference_finds(rules: Rules) -> None:
    """wdeg branches on digits' places in houses as well as on cells, in its own order: on partial grids
    of every variant kind it enumerates exactly the reference's solutions, all of them, whatever order
    it takes them in, and with a limit stops at that many distinct solutions."""
    reference = DfsBackend(heuristic="conflicts", engine="python")
    wdeg = DfsBackend(heuristic="wdeg", engine="compiled")
    for seed in range(4):
        full = next(
            (g for s in range(50) if rules.is_valid((g := full_grid(rules, seed * 50 + s)).cells)), None
        )
        puzzle = blanked(full, 0.25, seed) if full is not None else Puzzle.empty(rules)
        expected = reference.enumerate(puzzle, limit=500)
        found = wdeg.enumerate(puzzle, limit=500)
        assert found.complete == expected.complete
        if expected.complete:
            assert set(found.solutions) == set(expected.solutions)
        limited = wdeg.enumerate(puzzle, limit=3)
        assert len(set(limited.solutions)) == len(limited.solutions) == min(3, len(expected.solutions))
        assert all(rules.is_valid(s.cells) for s in limited.solutions)


@needs_numba
def test_auto_takes_wdeg_beyond_the_classic_rules_on_the_compiled_engine_only() -> None:
    from sudoku_cp.backends.dfs_reference import AUTO, resolved

    killer = Rules.classic(2, 3).with_named("x")
    assert resolved(AUTO, killer, compiled=True) == "wdeg"
    assert resolved(AUTO, killer) == "conflicts"
    assert resolved(AUTO, Rules.classic(2, 3), compiled=True) == "mrv"
    with pytest.raises(ValueError, match="compiled dfs engine only"):
        resolved("wdeg", killer)
    # the default search on variant rules is wdeg's: the same statistics as asking for it by name
    puzzle = blanked(full_grid(Rules.classic(3, 3), 4), 0.3, 4)
    x = Puzzle(Rules.classic(3, 3).with_named("anti-knight"), (0,) * 81)
    for p in (x, Puzzle(x.rules, tuple(d if i % 7 == 0 else 0 for i, d in enumerate(puzzle.cells)))):
        default = DfsBackend(engine="compiled").enumerate(p, limit=2)
        named = DfsBackend(heuristic="wdeg", engine="compiled").enumerate(p, limit=2)
        assert default.solutions == named.solutions
        assert [default.stats[k] for k in ("guesses", "backtracks")] == [
            named.stats[k] for k in ("guesses", "backtracks")
        ]


@needs_numba
def test_the_kernels_built_ahead_of_time_and_numbas_jit_search_the_same_trees() -> None:
    """``dfs_aot``'s module and numba's JIT compile the same functions: on published variant puzzles, a
    classic 9x9 (the band search) and a batch, the same solutions, guesses, backtracks and nodes."""
    script = (
        "import json, sys\n"
        "import numpy as np\n"
        "from cases import HARD_9X9, VARIANTS\n"
        "from sudoku_cp import Puzzle, Rules\n"
        "from sudoku_cp.backends import dfs_compiled, make_backend\n"
        "from sudoku_cp.formats.fpuzzles import from_fpuzzles\n"
        "out = []\n"
        "puzzles = [from_fpuzzles(v['fpuzzles']) for v in VARIANTS] + [Puzzle.from_string(HARD_9X9)]\n"
        "for heuristic in ('auto', 'mrv'):\n"
        "    backend = make_backend('dfs:compiled', heuristic=heuristic)\n"
        "    for p in puzzles:\n"
        "        found = backend.enumerate(p, limit=2)\n"
        "        out.append([[s.to_string() for s in found.solutions]]\n"
        "                   + [found.stats[k] for k in ('guesses', 'backtracks', 'nodes')])\n"
        "grids = np.array([list(Puzzle.from_string(HARD_9X9).cells)] * 2, np.uint8)\n"
        "for rules in (Rules.classic(3, 3), Rules.classic(2, 3)):\n"
        "    rows = grids if rules.n == 9 else grids[:, :36] * (grids[:, :36] <= 6)\n"
        "    r = dfs_compiled.solve_array(rows, rules, 2)\n"
        "    out.append([r.counts.tolist(), r.nodes.tolist(), r.solutions.tolist()])\n"
        "print(json.dumps([dfs_compiled.kernels().how, out]))\n"
    )
    runs = {}
    for how in ("aot", "jit"):
        env = {**os.environ, "SUDOKU_CP_KERNELS": how, "PYTHONPATH": str(Path(__file__).parent)}
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, env=env
        )
        assert done.returncode == 0, done.stderr
        made, runs[how] = json.loads(done.stdout)
        assert made == how
    assert runs["aot"] == runs["jit"]


def _in_an_empty_cache(script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """``script`` in a process whose numba cache (where the built module goes) is the empty ``tmp_path``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "user")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done


def test_a_failed_build_is_remembered_and_later_processes_go_to_the_jit_kernels(tmp_path: Path) -> None:
    """Where building the module failed (no C compiler: after the whole compile), its note spares the next
    processes the same vain compile; the kernels then do not count as quick to load."""
    done = _in_an_empty_cache(
        "from sudoku_cp.backends import dfs_aot, dfs_compiled\n"
        "print(dfs_aot.failed(), dfs_compiled.loads_quickly())\n"
        "(dfs_aot.location() is None) or print('a module found')\n"
        "import os  # the note where numba's cache is, as build leaves it\n"
        "note = f\"{os.environ['NUMBA_CACHE_DIR']}/_dfs_kernels_{dfs_aot.key()}.failed\"\n"
        "open(note, 'w').write('no compiler')\n"
        "print(dfs_aot.failed(), dfs_compiled.loads_quickly(), dfs_aot.built())\n",
        tmp_path,
    )
    assert done.stdout.splitlines() == ["None False", "no compiler False False"]


def test_a_module_that_does_not_load_is_set_aside_for_the_jit_kernels(tmp_path: Path) -> None:
    done = _in_an_empty_cache(
        "import importlib.machinery, os\n"
        "from sudoku_cp.backends import dfs_aot, dfs_compiled\n"
        "suffix = importlib.machinery.EXTENSION_SUFFIXES[0]\n"
        "path = f\"{os.environ['NUMBA_CACHE_DIR']}/_dfs_kernels_{dfs_aot.key()}{suffix}\"\n"
        "open(path, 'wb').write(b'not a shared library')\n"
        "print(dfs_aot.load(), dfs_compiled.loads_quickly(), 'does not load' in dfs_aot.failed())\n",
        tmp_path,
    )
    assert done.stdout.split() == ["None", "False", "True"]
    assert "runs on numba's JIT instead" in done.stderr
