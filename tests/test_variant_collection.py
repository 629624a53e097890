"""Published variant puzzles with their published solutions: each is read from f-puzzles JSON, counted
unique and solved to the published grid by every backend.

``tests/data/published_variants.jsonl`` holds nine puzzles of the example set of the Interactive Sudoku
Solver (github.com/sigh/Interactive-Sudoku-Solver, ``data/example_puzzles.js``), each with the source the
setter published it at, transcribed into f-puzzles JSON: thermometers, a killer of 29 cages, arrows, a
givenless pill-arrow puzzle, anti-knight with non-consecutive, X, XV with kropki dots, a jigsaw and
X-windoku (its windows as extra regions).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp import Puzzle, is_solution
from sudoku_cp.backends import make_backend
from sudoku_cp.formats.fpuzzles import from_fpuzzles

DATA = Path(__file__).parent / "data" / "published_variants.jsonl"
PUZZLES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def test_the_collection_covers_the_variants() -> None:
    kinds = set()
    for item in PUZZLES:
        kinds.update(from_fpuzzles(item["fpuzzles"]).rules.kinds)
    expected = {"thermometer", "killer cage", "arrow", "anti-knight", "non-consecutive", "diagonal+", "XV"}
    assert expected | {"jigsaw", "kropki black dot", "kropki white dot", "extra region"} <= kinds


@pytest.mark.parametrize("item", PUZZLES, ids=[p["name"] for p in PUZZLES])
def test_the_published_solution_keeps_every_rule(item: dict) -> None:
    puzzle = from_fpuzzles(item["fpuzzles"])
    solution = Puzzle(puzzle.rules, tuple(int(ch) for ch in item["solution"]))
    assert is_solution(puzzle, solution)


@pytest.mark.parametrize("backend", ["sat", "cpsat", "dfs"])
@pytest.mark.parametrize("item", PUZZLES, ids=[p["name"] for p in PUZZLES])
def test_every_backend_finds_the_published_solution_and_only_it(item: dict, backend: str) -> None:
    puzzle = from_fpuzzles(item["fpuzzles"])
    found = make_backend(backend).enumerate(puzzle, limit=2, time_limit=60)
    assert found.complete, f"{backend} did not finish {item['name']}"
    assert [s.to_string() for s in found.solutions] == [item["solution"]]
