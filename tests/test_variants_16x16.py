"""16x16 X and windoku: the hard cases of the general search (locked candidates from 16x16 up).

The puzzles are the project's own, made by ``sudoku-cp generate --box 4x4 --rules x --seed 3`` (and
``windoku``): proven unique by the SAT oracle when made, and counted again here on every backend.
"""

from __future__ import annotations

import pytest

from sudoku_cp import Puzzle
from sudoku_cp.backends import make_backend
from sudoku_cp.rules import Rules

SIXTEEN = Rules.classic(4, 4)

X = (
    "..2..5.AD1...F..5..4.1...........7........F69....AD......9..1...3....7DC.6G.....7..C...G...F69...49..."
    "B....A.D..F.E.69....1B5.G.B....3..FC.9E...43.....E..A........F.A...52....C....9.......72.F2.5...4....."
    "CA6.EB.3.....7..G...C86..B..E432............1......."
)
X_SOLUTION = (
    "9C2B75GAD1E43F865GF4216978B3ACED173ED4C82AF69B5G8AD63FEB59CG17423281A7DC96G5BEF475BC182G4EDF69A3649G5E"
    "BF837A2DC1FDEA6934C21B58G7B6754312FC89EGDA4312CGFEBDA78695D9GFBA87652E431CAEC8965D3G4172BF2157ED43GF98"
    "CA6BEB43FC91A76DG528C86DGBA5E432F179GFA982761B5CD43E"
)
WINDOKU = (
    "..C..6.GE....7..E....79....6..3..8......A..4.....6......BF...........G.3.24.....C...........3E....6..."
    "B..9.D.G..F.B.2.E....1..4.7.......4C......2E.....D..A...B8.....3...8..........G.......C6....9........."
    "5....C......D3....G..DA...F...CB.1..........9......."
)
WINDOKU_SOLUTION = (
    "19CA365GED28B7F4E42FB798C516GD3AB875CFD1AG3492E6D63GA24EBF97158C81DE9G73624CFBA5C254D816FABG3E973A67F4"
    "B589ED2GC1FGB92CEA3751684D731D8B2F4C69EA5G2E4C596DG1A37FB8ABG6E3C728F5D41995F8G1A47BDEC62347926AGC1E8F"
    "53DB6CEB1582D37A49GFGDA34EF956CB81725F817D3B94G2AC6E"
)
CASES = {"x": (X, X_SOLUTION), "windoku": (WINDOKU, WINDOKU_SOLUTION)}


def _puzzle(name: str, text: str) -> Puzzle:
    return Puzzle.from_string(text, SIXTEEN.with_named(name))


@pytest.mark.parametrize("spec", ["dfs", "sat", "cpsat"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_16x16_x_and_windoku_are_unique_on_every_backend(name: str, spec: str) -> None:
    text, solution = CASES[name]
    puzzle = _puzzle(name, text)
    found = make_backend(spec).enumerate(puzzle, limit=2, time_limit=120)
    assert found.complete, f"{spec} did not finish the 16x16 {name}"
    assert [s.to_string() for s in found.solutions] == [solution]
    assert puzzle.rules.is_valid(found.solutions[0].cells)


@pytest.mark.parametrize(("name", "extra", "most"), [("x", 0, 200), ("windoku", 10, 200)])
def test_locked_candidates_cut_the_search_alike_in_both_dfs_engines(name: str, extra: int, most: int) -> None:
    text, solution = CASES[name]
    cells = list(_puzzle(name, text).cells)
    blanks = [c for c, d in enumerate(cells) if not d]
    for c in blanks[:: max(1, len(blanks) // extra)][:extra] if extra else []:
        cells[c] = _puzzle(name, solution).cells[c]  # a few more givens: the python engine stays quick
    puzzle = Puzzle(SIXTEEN.with_named(name), tuple(cells))
    engines = ("dfs:compiled", "dfs:python")  # conflicts: both engines take it (wdeg is the compiled one's)
    compiled, python = (make_backend(s, heuristic="conflicts").enumerate(puzzle, limit=2) for s in engines)
    assert compiled.solutions == python.solutions and [s.to_string() for s in python.solutions] == [solution]
    for stat in ("guesses", "backtracks", "nodes"):
        assert compiled.stats[stat] == python.stats[stat], stat
    # singles alone search tens of thousands of nodes here (62,639 on the x puzzle)
    assert python.stats["nodes"] <= most


def test_locked_candidates_keep_every_solution_of_a_16x16_windoku() -> None:
    cells = [d if i % 3 == 0 else 0 for i, d in enumerate(_puzzle("windoku", WINDOKU_SOLUTION).cells)]
    puzzle = Puzzle(SIXTEEN.with_named("windoku"), tuple(cells))
    found = {}
    for spec in ("dfs", "sat"):
        answer = make_backend(spec).enumerate(puzzle, limit=500)
        assert answer.complete, spec
        found[spec] = {s.cells for s in answer.solutions}
    assert found["dfs"] == found["sat"] and len(found["dfs"]) > 1
