"""The cpsat backend with propagation first (``propagate``): the same answers as dfs, on every rule kind."""

from __future__ import annotations

import random

import pytest
from cases import CLASSIC, HARD, VARIANTS, variant_rules
from conftest import shared

from sudoku_cp import Puzzle, is_solution
from sudoku_cp.backends import make_backend
from sudoku_cp.backends.cpsat import CpSatBackend
from sudoku_cp.candidates import Candidates
from sudoku_cp.errors import UsageError
from sudoku_cp.formats.fpuzzles import from_fpuzzles
from sudoku_cp.rules import Rules
from sudoku_cp.samples import blanked, pattern_grid

KINDS = ["int", "bool"]


@pytest.fixture(scope="module")
def dfs():
    return make_backend("dfs")


def agree(puzzle: Puzzle, cpsat: CpSatBackend, dfs, limit: int = 30) -> None:
    mine, reference = cpsat.enumerate(puzzle, limit), dfs.enumerate(puzzle, limit)
    assert mine.complete == reference.complete and len(mine.solutions) == len(reference.solutions)
    assert all(is_solution(puzzle, s) for s in mine.solutions)
    if reference.complete:
        assert sorted(s.cells for s in mine.solutions) == sorted(s.cells for s in reference.solutions)


def test_propagate_is_read_like_the_other_options() -> None:
    assert CpSatBackend(propagate="true")._rental.asked and not CpSatBackend(propagate=False)._rental.allowed
    with pytest.raises(UsageError, match="propagate must be"):
        CpSatBackend(propagate="maybe")
    # a propagated int model searches without presolve, unless presolve is set
    assert not CpSatBackend().presolve_for("int", propagated=True) and CpSatBackend().presolve_for("int")
    assert CpSatBackend(presolve=True).presolve_for("int", propagated=True)


@pytest.mark.parametrize("kind", KINDS)
def test_propagation_decides_easy_puzzles_and_contradictions_without_cp_sat(kind: str) -> None:
    backend = CpSatBackend(kind, propagate=True)
    found = backend.enumerate(CLASSIC, 2)
    assert found.complete and len(found.solutions) == 1 and found.stats["solves"] == 0
    assert found.stats["forced"] == 1
    clash = backend.enumerate(CLASSIC.with_cells([(1, 4)]), 2)
    assert clash.complete and clash.solutions == () and clash.stats["solves"] == 0
    hard = backend.enumerate(HARD, 2)
    assert hard.complete and len(hard.solutions) == 1 and hard.stats["solves"] == 1


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (4, 4)])
def test_generated_classic_puzzles_agree_with_dfs(kind: str, box: tuple[int, int], dfs) -> None:
    rules = Rules.classic(*box)
    backend = CpSatBackend(kind, propagate=True)
    rng = random.Random(sum(box))
    for seed in range(8 if rules.n <= 9 else 3):
        agree(blanked(pattern_grid(rules, seed), rng.uniform(0.35, 0.7), seed), backend, dfs)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rules", variant_rules(), ids=str)
def test_generated_variant_puzzles_agree_with_dfs(kind: str, rules: Rules, dfs) -> None:
    backend = CpSatBackend(kind, propagate=True)
    for seed, grid in enumerate(dfs.enumerate(Puzzle.empty(rules), 2).solutions):
        for fraction in (0.55, 0.3):
            agree(blanked(grid, fraction, seed), backend, dfs, limit=20)


@pytest.mark.parametrize("item", VARIANTS, ids=[v["name"] for v in VARIANTS])
def test_published_variants_are_unique(item: dict) -> None:
    puzzle = from_fpuzzles(item["fpuzzles"])
    found = CpSatBackend(propagate=True).enumerate(puzzle, 2, time_limit=60)
    assert found.complete and [s.to_string() for s in found.solutions] == [item["solution"]]


@pytest.mark.parametrize("kind", KINDS)
def test_candidates_agree_with_the_unpropagated_model(kind: str) -> None:
    mine, reference = CpSatBackend(kind, propagate=True), CpSatBackend(kind, propagate=False)
    rng = random.Random(7)
    for seed in range(5):
        puzzle = blanked(pattern_grid(Rules.classic(3, 3), seed), 0.45, seed)
        masks = list(Candidates.of(puzzle).masks)
        for cell in rng.sample(range(81), 20):
            if bin(masks[cell]).count("1") > 1:
                masks[cell] &= masks[cell] - 1  # drop the smallest candidate
        candidates = Candidates(puzzle, tuple(masks))
        a, b = mine.enumerate_candidates(candidates, 30), reference.enumerate_candidates(candidates, 30)
        assert a.complete == b.complete and len(a.solutions) == len(b.solutions)
        if b.complete:
            assert sorted(s.cells for s in a.solutions) == sorted(s.cells for s in b.solutions)


@pytest.mark.data
@pytest.mark.parametrize(
    ("name", "sample", "count"),
    [("17_clue.txt", 150, 1), ("top1465.txt", 60, 1), ("serg_multi_solution.txt", 60, 2)],
)
def test_shared_sets_agree_with_dfs(name: str, sample: int, count: int, dfs) -> None:
    backend = CpSatBackend(propagate=True)
    for puzzle in shared(name, sample=sample, seed=8):
        found = backend.enumerate(puzzle, 2)
        assert len(found.solutions) == count and (found.complete or count == 2)
        if count == 1:
            assert found.solutions == dfs.enumerate(puzzle, 1).solutions
        else:
            assert all(is_solution(puzzle, s) for s in found.solutions)
