"""Published puzzles of the constraint kinds of ``sudoku_cp.rules.kinds``, with their published solutions:
each is read from f-puzzles JSON, counted unique and solved to the published grid by every backend.

``tests/data/published_kinds.jsonl`` holds puzzles of the example set of the Interactive Sudoku Solver
(github.com/sigh/Interactive-Sudoku-Solver, ``data/example_puzzles.js`` and ``data/collections.js``),
each with the source the setter published it at (``source``) and ISS's name for it (``name``),
converted from ISS's constraint string into f-puzzles JSON by ``benchmarks/bench_published.py``: renban,
whispers (German and of other differences, and a loop), palindrome, between, region sum and modular lines;
little killers, sandwiches, X-sums and skyscrapers; odd and even cells (ISS's pencilmarks), minimum and
maximum cells (ISS's GreaterThan), quadruples and clones (ISS's SameValues), on 9x9 and 6x6 grids. ISS's
collection has no entropic line puzzle that sudoku-cp reads (both sit beside ISS's arbitrary pair
relations), so entropic lines have none here.

The runs over a few seconds are marked ``slow``; ``dfs:python`` runs only where it finishes in time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp import Puzzle, is_solution
from sudoku_cp.backends import make_backend
from sudoku_cp.formats.fpuzzles import from_fpuzzles

DATA = Path(__file__).parent / "data" / "published_kinds.jsonl"
PUZZLES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
BACKENDS = ("dfs", "dfs:python", "sat", "cpsat")

#: (puzzle, backend) runs that take more than a second or two.
SLOW: set[tuple[str, str]] = {
    ("'Leven", "dfs"),
    ("Merry X/V-mas", "dfs"),
    ("X-Sum", "dfs"),
    ("Triple digits", "dfs"),
    ("Triple digits", "cpsat"),
    ("Renban skyscrapers", "dfs:python"),
}
#: (puzzle, backend) runs left out, measured over 10 s (2 shared cores; bench_published.py --kinds new
#: shows them): sat on Triple digits, dfs on region sum lines, dfs:python beyond the simple ones.
TOO_SLOW: set[tuple[str, str]] = {
    ("Triple digits", "sat"),
    ("Raw Spaghetti", "dfs"),
    ("Region sum lines, hard", "dfs"),
    *(
        (name, "dfs:python")
        for name in (
            "'Leven",
            "Merry X/V-mas",
            "Raw Spaghetti",
            "Region sum lines, hard",
            "Hailstone - little killer [easier]",
            "X-Sum",
            "Triple digits",
            "Doggo Experiment #8",
        )
    ),
}


def runs() -> list:
    out = []
    for item in PUZZLES:
        for backend in BACKENDS:
            key = (item["name"], backend)
            if key in TOO_SLOW:
                continue
            marks = [pytest.mark.slow] if key in SLOW else []
            out.append(pytest.param(item, backend, marks=marks, id=f"{item['name']}-{backend}"))
    return out


def test_the_collection_covers_the_kinds() -> None:
    kinds = set()
    for item in PUZZLES:
        kinds.update(from_fpuzzles(item["fpuzzles"]).rules.kinds)
    expected = {"renban", "whispers", "palindrome", "between line", "region sum line", "modular line"}
    expected |= {"little killer", "sandwich", "X-sum", "skyscraper"}
    expected |= {"odd", "even", "minimum", "maximum", "quadruple", "clone"}
    assert expected <= kinds


def test_every_puzzle_has_its_source() -> None:
    for item in PUZZLES:
        assert item["source"].startswith("https://"), item["name"]


@pytest.mark.parametrize("item", PUZZLES, ids=[p["name"] for p in PUZZLES])
def test_the_published_solution_keeps_every_rule(item: dict) -> None:
    puzzle = from_fpuzzles(item["fpuzzles"])
    solution = Puzzle(puzzle.rules, tuple(int(ch) for ch in item["solution"]))
    assert is_solution(puzzle, solution)


@pytest.mark.parametrize(("item", "backend"), runs())
def test_every_backend_finds_the_published_solution_and_only_it(item: dict, backend: str) -> None:
    puzzle = from_fpuzzles(item["fpuzzles"])
    found = make_backend(backend).enumerate(puzzle, limit=2, time_limit=120)
    assert found.complete, f"{backend} did not finish {item['name']}"
    assert [s.to_string() for s in found.solutions] == [item["solution"]]
