"""The generator: every puzzle is unique by an independent count, keeps its symmetry, meets its size, and is
minimal when asked; the same seed gives the same puzzles whatever the number of jobs."""

from __future__ import annotations

import json
import random
import time

import pytest

from sudoku_cp import Puzzle, Rules, UsageError, count_solutions, generate, rate
from sudoku_cp.generate import (
    SYMMETRIES,
    GenerationError,
    UniquenessOracle,
    block_size,
    has_symmetry,
    orbits,
)
from sudoku_cp.generate.oracle import random_isomorph
from sudoku_cp.rate import LEVELS
from sudoku_cp.verify import is_solution, solution_problems


def unique(puzzle: Puzzle) -> bool:
    """Exactly one solution, by two counts that must agree: the dfs backend (the band search on classic
    9x9) and the sat backend, so that a puzzle proved by either way is checked by the other."""
    counts = {count_solutions(puzzle, 2, backend=backend) for backend in ("dfs", "sat")}
    assert len(counts) == 1, f"dfs and sat count {puzzle} differently"
    return counts == {1}


def without(puzzle: Puzzle, cells: tuple[int, ...] | list[int]) -> Puzzle:
    return puzzle.with_cells((c, 0) for c in cells)


def assert_sound(item, rules: Rules) -> None:
    """The puzzle is unique, its solution solves it, and the record says what it is."""
    assert item.puzzle.rules == rules
    assert not solution_problems(item.puzzle, item.solution)
    assert item.solution.is_complete()
    assert unique(item.puzzle), item.puzzle
    assert item.unique is True and (item.proved_by == "dfs" or item.proved_by.startswith("sat:"))
    assert item.clues == len(item.puzzle.givens)


#: Each symmetry as explicit maps of (row, col), written independently of the generator's orbits.
MAPS = {
    "none": [],
    "rot180": [lambda r, c, n: (n - 1 - r, n - 1 - c)],
    "rot90": [lambda r, c, n: (c, n - 1 - r)],
    "mirror": [lambda r, c, n: (r, n - 1 - c)],
    "flip": [lambda r, c, n: (n - 1 - r, c)],
    "diagonal": [lambda r, c, n: (c, r)],
    "antidiagonal": [lambda r, c, n: (n - 1 - c, n - 1 - r)],
    "biaxial": [lambda r, c, n: (r, n - 1 - c), lambda r, c, n: (n - 1 - r, c)],
    "bidiagonal": [lambda r, c, n: (c, r), lambda r, c, n: (n - 1 - c, n - 1 - r)],
    "dihedral": [lambda r, c, n: (c, n - 1 - r), lambda r, c, n: (r, n - 1 - c)],
}


def pattern_keeps(puzzle: Puzzle, symmetry: str) -> bool:
    n, cells = puzzle.n, puzzle.cells
    return all(
        bool(cells[r * n + c]) == bool(cells[f(r, c, n)[0] * n + f(r, c, n)[1]])
        for f in MAPS[symmetry]
        for r in range(n)
        for c in range(n)
    )


def test_every_symmetry_is_tested() -> None:
    assert set(MAPS) == set(SYMMETRIES)


@pytest.mark.parametrize(
    "rules",
    [Rules.classic(2, 2), Rules.classic(2, 3), Rules.classic(3, 2), Rules.classic(2, 4), Rules.classic(3, 3)],
    ids=str,
)
def test_minimal_puzzles_are_unique_and_lose_uniqueness_without_any_clue(rules: Rules) -> None:
    count = 12 if rules.n < 9 else 6
    for item in generate(count, rules, seed=f"minimal-{rules}", rate=False):
        assert_sound(item, rules)
        for cell, _ in item.puzzle.givens:
            assert not unique(without(item.puzzle, [cell])), f"{item.puzzle}: {rules.name(cell)} can go"


@pytest.mark.parametrize("symmetry", list(SYMMETRIES))
def test_symmetric_puzzles_keep_the_pattern_and_are_minimal_by_orbits(symmetry: str) -> None:
    for rules in (Rules.classic(3, 3), Rules.classic(2, 3)):
        for item in generate(3, rules, symmetry=symmetry, seed=symmetry, rate=False):
            assert_sound(item, rules)
            assert pattern_keeps(item.puzzle, symmetry), (symmetry, item.puzzle)
            assert has_symmetry(item.puzzle, symmetry)
            assert item.symmetry == symmetry
            for orbit in orbits(rules, symmetry):
                if item.puzzle.cells[orbit[0]]:
                    assert not unique(without(item.puzzle, orbit)), (symmetry, orbit, item.puzzle)


@pytest.mark.parametrize("solver", ["dfs", "cadical153"])
def test_minimal_9x9_puzzles_by_the_band_search_or_a_sat_solver(solver: str) -> None:
    """The band search is the default for minimal 9x9 puzzles; both ways give unique minimal puzzles, each
    with its own ``proved_by``, and the same seed gives the same puzzles."""
    rules = Rules.classic(3, 3)
    items = list(generate(8, seed="both", solver=solver, rate=False))
    for item in items:
        assert_sound(item, rules)
        assert item.proved_by == ("dfs" if solver == "dfs" else "sat:cadical153")
        for cell, _ in item.puzzle.givens:
            assert not unique(without(item.puzzle, [cell])), f"{item.puzzle}: {rules.name(cell)} can go"
    assert len({item.solution for item in items}) == len(items)  # a fresh grid each time
    again = generate(8, seed="both", solver=solver, rate=False)
    assert [i.puzzle for i in items] == [i.puzzle for i in again]
    if solver == "dfs":
        assert [i.to_dict() for i in items] == [i.to_dict() for i in generate(8, seed="both", rate=False)]


def test_orbits_partition_the_grid() -> None:
    for symmetry in SYMMETRIES:
        cells = sorted(c for orbit in orbits(Rules.classic(3, 3), symmetry) for c in orbit)
        assert cells == list(range(81))
    assert {len(o) for o in orbits(Rules.classic(3, 3), "rot90")} == {1, 4}
    assert {len(o) for o in orbits(Rules.classic(2, 2), "dihedral")} == {4, 8}


def test_clue_and_blank_targets_are_met_exactly() -> None:
    rules = Rules.classic(3, 3)
    for item in generate(4, clues=30, seed=1, rate=False):
        assert item.clues == 30
        assert_sound(item, rules)
    for item in generate(3, blanks=50, seed=2, rate=False):
        assert item.clues == 31 and unique(item.puzzle)
    for level, (low, high) in {"few": (33, 35), "some": (36, 38), "many": (39, 41)}.items():
        for item in generate(4, blanks=level, seed=level, rate=False):
            assert low <= 81 - item.clues <= high
            assert unique(item.puzzle)
    for item in generate(3, clues=33, symmetry="rot90", seed=3, rate=False):
        assert item.clues == 33 and pattern_keeps(item.puzzle, "rot90") and unique(item.puzzle)
    for item in generate(3, Rules.classic(2, 3), clues=14, seed=4, rate=False):
        assert item.clues == 14 and unique(item.puzzle)


def test_minimal_with_a_target_is_both() -> None:
    for item in generate(2, clues=24, minimal=True, seed=5, rate=False):
        assert item.clues == 24
        assert all(not unique(without(item.puzzle, [cell])) for cell, _ in item.puzzle.givens)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"clues": 10}, "at least 17"),
        ({"clues": 82}, "0 to 81 clues"),
        ({"blanks": 90}, "0 to 81 blanks"),
        ({"blanks": "tricky"}, "unknown blank level"),
        ({"blanks": "hard"}, "'hard' is a difficulty, not a number of blanks"),
        ({"clues": 20, "blanks": 61}, "not both"),
        ({"clues": 34, "symmetry": "rot90"}, "cannot have 34 clues"),
        ({"symmetry": "spiral"}, "unknown symmetry"),
        ({"difficulty": "impossible"}, "unknown difficulty"),
        ({"rules": Rules.classic(2, 2), "clues": 3}, "at least 4"),
        ({"rules": Rules.classic(4, 4), "clues": 14}, "at least 15"),
        ({"count": 0}, "at least 1"),
        ({"jobs": 0}, "at least 1"),
        ({"solver": "kissat404"}, "cannot use solver"),
        ({"solver": "dfs", "clues": 30}, "band search"),
        ({"solver": "dfs", "rules": Rules.classic(2, 3)}, "minimal classic 9x9 puzzles only"),
        ({"solver": "dfs", "difficulty": "easy"}, "nor difficulty easy"),
    ],
)
def test_impossible_requests_fail_at_once_with_a_clear_message(options: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        next(generate(**options))


def test_unreachable_targets_fail_after_the_attempts() -> None:
    with pytest.raises(GenerationError, match="no unique puzzle with 18 clues found in 3 grids"):
        next(generate(clues=18, seed=1, max_attempts=3, rate=False))
    with pytest.raises(GenerationError, match="no extreme puzzle"):
        next(generate(rules=Rules.classic(2, 2), difficulty="extreme", seed=1, max_attempts=20))


def test_same_seed_same_puzzles_whatever_the_jobs() -> None:
    count = block_size(Rules.classic(3, 3)) + 8  # two blocks, so two processes share the work
    first = [g.to_dict() for g in generate(count, seed=42, rate=False)]
    assert first == [g.to_dict() for g in generate(count, seed=42, rate=False)]
    assert first == [g.to_dict() for g in generate(count, seed=42, rate=False, jobs=2)]
    assert [g.index for g in generate(3, seed=42, rate=False)] == [1, 2, 3]
    prefix = [g.puzzle for g in generate(5, seed=42, rate=False)]
    assert prefix == [Puzzle.from_string(d["puzzle"]) for d in first[:5]]
    other = [g.puzzle for g in generate(5, seed=43, rate=False)]
    assert other != prefix
    assert len({p.to_string() for p in prefix}) == 5


def test_string_seeds_and_fresh_seeds() -> None:
    assert [g.puzzle for g in generate(2, seed="abc", rate=False)] == [
        g.puzzle for g in generate(2, seed="abc", rate=False)
    ]
    fresh = next(generate(rate=False))
    again = next(generate(seed=fresh.seed, rate=False))
    assert fresh.puzzle == again.puzzle


def test_a_16x16_puzzle() -> None:
    rules = Rules.classic(4, 4)
    [item] = generate(1, rules, blanks="many", seed=16, rate=False)
    assert_sound(item, rules)
    assert 256 - 130 <= item.clues <= 256 - 123  # 39-41 blanks of 81, scaled to 256 cells


def test_difficulty_is_met_and_items_are_rated() -> None:
    for level in LEVELS:  # every band of ER on 9x9, a promise that rate() keeps
        for item in generate(1, difficulty=level, seed=level):
            assert item.rating is not None and item.rating.level == level
            assert rate(item.puzzle) == item.rating
            assert unique(item.puzzle)
    item = next(generate(seed=1))
    assert item.rating is not None and item.rating.solutions == 1
    assert next(generate(seed=1, rate=False)).rating is None


def test_records_are_json() -> None:
    record = json.loads(json.dumps(next(generate(1, Rules.classic(2, 3), seed=9)).to_dict()))
    assert set(record) >= {"puzzle", "solution", "clues", "rating", "unique", "proved_by", "seed", "index"}
    assert record["unique"] is True and record["proved_by"] == "sat:cadical153"
    assert is_solution(Puzzle.from_string(record["puzzle"]), Puzzle.from_string(record["solution"]))
    assert record["rating"]["level"] in ("easy", "medium", "hard", "expert", "extreme")


def test_random_isomorphs_stay_valid_grids() -> None:
    rng = random.Random(0)
    for rules in (Rules.classic(2, 3), Rules.classic(3, 3), Rules.classic(2, 4)):
        grid = next(generate(1, rules, seed=0, rate=False)).solution
        for _ in range(10):
            image = Puzzle(rules, random_isomorph(grid.cells, rules, rng))
            assert is_solution(Puzzle.empty(rules), image)


@pytest.mark.parametrize("solver", ["cadical153", "glucose4"])
def test_a_sat_call_within_a_conflict_budget_leaves_a_hard_question_open(solver: str) -> None:
    """A call bounded by conflicts returns None on a formula that needs more (the pigeonhole principle, 7
    pigeons in 6 holes), the same every time, and the solver answers the next call, a limited one (a
    deadline) without the bound: CaDiCaL's slices stop at the budget, the others' own budget holds for
    one call."""
    from pysat.examples.genhard import PHP

    from sudoku_cp.backends import sat

    solver_ = sat.new_solver(solver, PHP(6).clauses, incremental=True)
    try:
        assert sat.solve_call(solver_, solver, [], None, conflicts=50) is None
        assert sat.solve_call(solver_, solver, [], None, conflicts=50) is None
        assert sat.solve_call(solver_, solver, [], time.perf_counter() + 600) is False  # a limited call
    finally:
        solver_.delete()


def test_an_oracle_call_stopped_before_it_answered_raises_rather_than_claim_uniqueness() -> None:
    """A SAT call stopped (a helper thread's ``Stop``) has no answer: the oracle says so, where it once
    read the missing answer as a proof; outside the stop the same oracle answers."""
    from sudoku_cp.errors import SudokuError
    from sudoku_cp.signals import Stop

    stop = Stop()
    stop.set()
    with UniquenessOracle(Rules.classic(2, 2)) as oracle:
        oracle.fix(oracle.full_grid(random.Random(1)))
        with stop.running(), pytest.raises(SudokuError, match="stopped before it answered"):
            oracle.check([])
        assert oracle.check([])[0] is False  # outside the stop it answers: the empty 4x4 has other grids


def test_needed_givens_with_questions_left_open_still_ends_on_a_proof_of_uniqueness() -> None:
    """With every question bounded to one conflict, most are left open: a given is added anywhere for each,
    and one is dropped only where uniqueness is proved, so the givens still make the grid the only
    solution, and the same seed gives the same givens."""
    from sudoku_cp.generate.drawn import needed_givens

    rules = Rules.classic(3, 3)

    def givens(seed: int, conflicts: int | None) -> set[int]:
        with UniquenessOracle(rules) as oracle:
            grid = oracle.full_grid(random.Random(seed))
            oracle.fix(grid)
            found = needed_givens(oracle, random.Random(seed), conflicts=conflicts)
        puzzle = Puzzle(rules, tuple(grid[c] if c in found else 0 for c in range(81)))
        assert count_solutions(puzzle, 2, "dfs") == 1
        return found

    for seed in (1, 2):
        bounded = givens(seed, 1)
        assert bounded == givens(seed, 1)
        assert len(bounded) > len(givens(seed, None))  # open questions cost givens


def test_oracle_cores_are_unique_clue_sets_and_models_second_solutions() -> None:
    rules = Rules.classic(3, 3)
    with UniquenessOracle(rules) as oracle:
        grid = oracle.full_grid(random.Random(5))
        assert is_solution(Puzzle.empty(rules), Puzzle(rules, grid))
        oracle.fix(grid)
        cells = random.Random(6).sample(range(81), 45)
        is_unique, core = oracle.check(cells)
        assert is_unique and set(core) <= set(cells)
        assert unique(Puzzle(rules, tuple(grid[c] if c in core else 0 for c in range(81))))
        is_unique, differ = oracle.check(cells[:10])
        assert not is_unique and differ and not set(differ) & set(cells[:10])
        assert oracle.proved_by == "sat:cadical153"
