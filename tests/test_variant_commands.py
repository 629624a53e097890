"""Variant puzzles through the services: generation (``--rules``, ``--killer``), true candidates, explain,
rate, and the compiled search on any rules."""

from __future__ import annotations

import json

import numpy as np
from conftest import run_cli

from sudoku_cp import Puzzle, generate, is_solution, parse
from sudoku_cp.backends import make_backend
from sudoku_cp.backends.dfs_compiled import CompiledSearch, solve_array
from sudoku_cp.explain import explain
from sudoku_cp.formats.fpuzzles import from_fpuzzles
from sudoku_cp.generate import generate_killer
from sudoku_cp.rate import LEVELS, rate
from sudoku_cp.rules import Cage, Rules
from sudoku_cp.solving import true_candidates

NINE = Rules.classic(3, 3)


def test_generated_variant_puzzles_keep_their_rules_and_are_unique() -> None:
    rules = NINE.with_named("x,anti-knight")
    made = list(generate(3, rules, seed=5, rate=False))
    assert len(made) == 3
    for g in made:
        assert g.puzzle.rules == rules and rules.violations(g.solution.cells) == []
        found = make_backend("cpsat").enumerate(g.puzzle, limit=2)  # another backend than the prover's
        assert found.complete and found.solutions == (g.solution,)


def test_killer_puzzles_are_cages_covering_the_grid_and_unique() -> None:
    made = list(generate_killer(3, seed=11))
    assert [g.index for g in made] == [1, 2, 3]
    for g in made:
        rules = g.puzzle.rules
        covered = sorted(c for cage in rules.cages for c in cage.cells)
        assert covered == list(range(81)) and all(c.total is not None for c in rules.cages)
        assert all(len(c.cells) <= 5 for c in rules.cages)
        assert is_solution(g.puzzle, g.solution)
        found = make_backend("sat").enumerate(g.puzzle, limit=2)
        assert found.complete and found.solutions == (g.solution,)
        # every given is needed: without any one of them the cages leave a choice
        for cell, _ in g.puzzle.givens:
            fewer = g.puzzle.with_cells([(cell, 0)])
            assert len(make_backend("sat").enumerate(fewer, limit=2).solutions) == 2
    assert [g.puzzle for g in generate_killer(3, seed=11)] == [g.puzzle for g in made]


def test_generate_command_writes_killers_as_fpuzzles_and_takes_rules() -> None:
    proc = run_cli("generate", "--killer", "-n", "2", "--seed", "4", "-q")
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(objects) == 2 and all("killercage" in o and len(o["solution"]) == 81 for o in objects)
    for o in objects:
        puzzle = from_fpuzzles(o)
        assert is_solution(puzzle, Puzzle(puzzle.rules, tuple(o["solution"])))
    proc = run_cli("generate", "--rules", "anti-king", "-n", "2", "--seed", "4", "-q")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# rules: anti-king\n")  # the line layout says the rules
    for puzzle in parse(proc.stdout):
        assert puzzle.rules == NINE.with_named("anti-king")
        assert len(make_backend("sat").enumerate(puzzle, limit=2).solutions) == 1
    refused = run_cli("generate", "--killer", "--clues", "20")
    assert refused.returncode == 2 and "--killer chooses its own givens" in refused.stderr
    refused = run_cli("generate", "--box", "2x3", "--rules", "windoku")
    assert refused.returncode == 2 and "windoku needs square boxes" in refused.stderr


def test_true_candidates_are_the_digits_of_some_solution() -> None:
    rules = Rules.classic(2, 2).with_(cages=[Cage((0, 1), 3)])
    puzzle = Puzzle.empty(rules)
    every = make_backend("sat").enumerate(puzzle, limit=1000).solutions
    expected = [sorted({s.cells[c] for s in every}) for c in range(16)]
    for backend in ("sat", "cpsat", "dfs"):
        found = true_candidates(puzzle, backend)
        assert found is not None and [list(found.digits(c)) for c in range(16)] == expected, backend
    assert true_candidates(Puzzle.from_string("11.............."), "sat") is None


def test_true_candidates_command_writes_pencilmarks() -> None:
    proc = run_cli(
        "solve", "--true-candidates", "-j", "1", "12..34..........", "1234341221434321", "11.............."
    )
    lines = proc.stdout.split()
    assert len(lines) == 3 and len(lines[0]) == 64 and lines[0].startswith("1....2....34..34")
    assert lines[1] == "".join("." * (d - 1) + str(d) + "." * (4 - d) for d in map(int, "1234341221434321"))
    assert lines[2] == "error" and proc.returncode == 1
    jsonl = run_cli("solve", "--true-candidates", "--output-format", "jsonl", "1234341221434321")
    assert json.loads(jsonl.stdout)["status"] == "solved"


def test_explain_and_rate_read_the_rules() -> None:
    rules = NINE.with_named("x")
    [g] = generate(1, rules, seed=2, rate=False)
    told = explain(g.puzzle, "sat")
    assert told.status.value == "solved" and told.solutions == (g.solution,)
    clash = g.puzzle.with_cells([(0, g.solution.cells[40])])  # r1c1 takes the centre's digit: a diagonal
    if clash.cells[0] != g.solution.cells[0]:
        assert explain(clash, "sat").status.value == "no_solution"
    assert rate(g.puzzle).level in LEVELS


def test_the_compiled_kernels_serve_any_rules_in_batches_and_one_by_one() -> None:
    knights = [g.puzzle for g in generate(3, NINE.with_named("anti-knight"), seed=4, rate=False)]
    [killer] = [g.puzzle for g in generate_killer(1, seed=4)]
    for puzzles in (knights, [killer, killer]):
        rules = puzzles[0].rules
        for p in puzzles:
            one = CompiledSearch(rules).search(p.cells, 2)
            assert one.complete and len(one.solutions) == 1 and rules.is_valid(one.solutions[0])
        batch = solve_array(np.array([p.cells for p in puzzles], np.uint8), rules, 2)  # one call
        assert list(batch.counts) == [1] * len(puzzles) and batch.complete.all()
        assert all(rules.is_valid(tuple(row)) for row in batch.solutions)
    impossible = Rules.classic(2, 2).with_(cages=[Cage((0, 1), 2)])  # no two different digits make 2
    assert make_backend("dfs:compiled").enumerate(Puzzle.empty(impossible), limit=2).solutions == ()
