"""f-puzzles JSON and links: read into ``Rules``, written back, refused when a rule is unknown; and the
command line on variant puzzles (``--rules``, f-puzzles input and output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp import ParseError, Puzzle, is_solution, parse
from sudoku_cp.backends import make_backend
from sudoku_cp.formats.fpuzzles import from_fpuzzles, parse_fpuzzles, to_fpuzzles, to_link
from sudoku_cp.rules import Rules

X_SOLUTION = "218546793479138265536279148762415839143982576895763412654321987321897654987654321"


def grid(n: int, givens: dict[str, int] | None = None) -> list[list[dict]]:
    rows: list[list[dict]] = [[{} for _ in range(n)] for _ in range(n)]
    for name, value in (givens or {}).items():
        r, c = (int(x) for x in name[1:].split("C"))
        rows[r - 1][c - 1] = {"value": value, "given": True}
    return rows


def every_rule() -> dict:
    """One object with every supported key (its rules need not have a solution)."""
    return {
        "size": 9,
        "title": "every key",
        "author": "tests",
        "grid": grid(9, {"R1C1": 5}),
        "diagonal+": True,
        "diagonal-": False,
        "antiknight": True,
        "antiking": True,
        "disjointgroups": True,
        "nonconsecutive": True,
        "extraregion": [{"cells": ["R2C2", "R2C3", "R3C2"]}],
        "killercage": [{"cells": ["R1C2", "R1C3"], "value": "3"}, {"cells": ["R9C9", "R8C9"]}],
        "thermometer": [{"lines": [["R4C1", "R4C2", "R4C3"]]}],
        "arrow": [{"cells": ["R6C6", "R6C7"], "lines": [["R6C7", "R7C7", "R8C7"]]}],
        "difference": [{"cells": ["R5C1", "R5C2"]}],
        "ratio": [{"cells": ["R5C5", "R5C6"], "value": "3"}],
        "xv": [{"cells": ["R9C1", "R9C2"], "value": "X"}, {"cells": ["R9C3", "R9C4"], "value": "v"}],
        "negative": ["ratio", "xv"],
        "cage": [{"cells": ["R1C1"], "value": "cosmetic"}],
        "line": [{"lines": [["R1C1", "R2C2"]]}],
    }


def test_every_supported_key_is_read_into_the_model() -> None:
    puzzle = from_fpuzzles(every_rule())
    rules = puzzle.rules
    assert puzzle.cells[0] == 5 and sum(1 for d in puzzle.cells if d) == 1
    assert rules.named == ("diagonal+", "anti-knight", "anti-king", "disjoint", "non-consecutive")
    assert rules.extra_regions == ((10, 11, 19),) and rules.groups[0] == (10, 11, 19)
    assert [(c.cells, c.total) for c in rules.cages] == [((1, 2), 3), ((80, 71), None)]
    assert rules.thermos[0].cells == (27, 28, 29)
    assert rules.arrows[0].circle == (50, 51) and rules.arrows[0].cells == (60, 69)  # a pill of two cells
    assert {(d.relation, d.value) for d in rules.dots} == {
        ("difference", 1),
        ("ratio", 3),
        ("sum", 10),
        ("sum", 5),
    }
    assert rules.negative == ("ratio", "xv")
    assert "negative kropki (black)" in {p.source for p in rules.pairs}


def test_json_and_link_round_trips_keep_the_puzzle() -> None:
    puzzle = from_fpuzzles(every_rule())
    assert from_fpuzzles(json.loads(json.dumps(to_fpuzzles(puzzle)))) == puzzle
    link = to_link(puzzle)
    assert link.startswith("https://www.f-puzzles.com/?load=N4Ig")
    assert parse_fpuzzles(link) == puzzle
    assert parse_fpuzzles(link.split("load=")[1]) == puzzle  # the compressed form alone
    jigsaw = Rules.jigsaw([[0, 1, 4, 8], [2, 3, 6, 7], [5, 9, 12, 13], [10, 11, 14, 15]])
    four = Puzzle(jigsaw, (1,) + (0,) * 15)
    assert parse_fpuzzles(to_link(four)) == four


def test_regions_make_a_jigsaw_and_default_regions_stay_boxes() -> None:
    data = {"size": 4, "grid": grid(4)}
    regions = [[0, 0, 1, 1], [0, 2, 1, 1], [0, 2, 3, 3], [2, 2, 3, 3]]
    for r, row in enumerate(regions):
        for c, region in enumerate(row):
            data["grid"][r][c]["region"] = region
    rules = from_fpuzzles(data).rules
    assert rules.box is None and rules.regions[0] == (0, 1, 4, 8)
    boxes = {"size": 4, "grid": grid(4)}
    for r in range(4):
        for c in range(4):
            boxes["grid"][r][c]["region"] = (r // 2) * 2 + c // 2
    assert from_fpuzzles(boxes).rules == Rules.classic(2, 2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sandwichsum": [{"cell": "R0C1", "value": "3"}]}, "unsupported f-puzzles constraint 'sandwichsum'"),
        ({"littlekillersum": [{"cell": "R0C1"}]}, "'littlekillersum'"),
        ({"size": 40}, "size must be a whole number"),
        ({"killercage": [{"cells": ["R1C10"], "value": "3"}]}, "bad f-puzzles cell 'R1C10'"),
        ({"killercage": [{"cells": ["R1C1"], "value": "x"}]}, "not a number"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "W"}]}, "must be X or V"),
        ({"negative": ["whispers"]}, "unknown negative rule 'whispers'"),
        ({"grid": [[{}] * 9] * 8}, "9 rows of 9 cells"),
    ],
)
def test_what_cannot_be_read_is_refused_by_name(change: dict, message: str) -> None:
    with pytest.raises(ParseError, match=message.replace("(", r"\(")):
        from_fpuzzles({"size": 9, "grid": grid(9), **change})


def test_cell_keys_that_state_rules_are_refused() -> None:
    data = {"size": 4, "grid": grid(4)}
    data["grid"][0][0] = {"givenPencilMarks": [1, 2]}
    with pytest.raises(ParseError, match="cell key 'givenPencilMarks' at R1C1"):
        from_fpuzzles(data)


@pytest.mark.parametrize("text", ["not json {", "N4IgXXXX", "https://www.f-puzzles.com/?id=abc"])
def test_text_that_is_no_puzzle_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_fpuzzles(text)


def test_files_of_objects_links_and_one_spread_object_are_read(tmp_path: Path) -> None:
    x_puzzle = {"size": 9, "grid": grid(9, {"R1C1": 2, "R5C5": 8}), "diagonal+": True, "diagonal-": True}
    lines = [json.dumps(x_puzzle), "# a comment", "", to_link(from_fpuzzles(x_puzzle)), "{not json}"]
    records = list(parse_records("\n".join(lines)))
    assert [r.line for r in records] == [1, 4, 5]
    assert records[0].puzzle == records[1].puzzle and records[0].format == "fpuzzles"
    assert records[2].error is not None and "line 5, puzzle 3" in str(records[2].error)
    spread = json.dumps(x_puzzle, indent=2)
    assert parse(spread) == [records[0].puzzle]
    clash = {"size": 4, "grid": grid(4, {"R1C1": 1, "R2C2": 1}), "diagonal-": True}
    [bad] = parse_records(json.dumps(clash))
    assert "digit 1 is given twice in one house, at r1c1 and r2c2" in str(bad.error)


def parse_records(text: str) -> list:
    from sudoku_cp.formats import iter_records

    return list(iter_records(text.splitlines()))


# --- the command line -------------------------------------------------------------------------------------


def test_solve_with_rules_names_keeps_them_and_refuses_unknown_names() -> None:
    puzzle = "".join(d if i % 7 != 0 else "." for i, d in enumerate(X_SOLUTION))
    proc = run_cli("solve", "--rules", "x", "--unique", "--backend", "sat", "-o", "-", puzzle)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.split()
    rules = Rules.classic(3, 3).with_named("x")
    assert is_solution(Puzzle.from_string(puzzle, rules), Puzzle.from_string(line, rules))
    bad = run_cli("solve", "--rules", "x,sandwich", puzzle)
    assert bad.returncode == 2 and "unknown rule 'sandwich'" in bad.stderr
    # givens that break an added rule are an error naming the puzzle and the rule
    clash = "1" + "." * 9 + "1" + "." * 70
    proc = run_cli("count", "--rules", "x", clash)
    assert "puzzle 1" in proc.stderr and "given twice in one house, at r1c1 and r2c2" in proc.stderr


def test_fpuzzles_in_and_fpuzzles_out_on_every_backend(tmp_path: Path) -> None:
    source = tmp_path / "x.jsonl"
    givens = {f"R{i // 9 + 1}C{i % 9 + 1}": int(d) for i, d in enumerate(X_SOLUTION) if i % 7 != 0}
    x_puzzle = {"size": 9, "grid": grid(9, givens), "diagonal+": True, "diagonal-": True}
    source.write_text(json.dumps(x_puzzle) + "\n")
    for backend in ("dfs", "sat", "cpsat"):
        proc = run_cli("solve", "--unique", "--backend", backend, "-j", "1", str(source))
        assert proc.returncode == 0, proc.stderr
        [out] = [json.loads(line) for line in proc.stdout.splitlines()]
        assert out["status"] == "solved" and out["diagonal+"] and out["diagonal-"]
        assert "".join(map(str, out["solution"])) == X_SOLUTION
        back = from_fpuzzles(out)  # our own output reads back (index and status are ours)
        assert back.rules == Rules.classic(3, 3).with_named("x")
    proc = run_cli("solve", "--backend", "sat", "--output-format", "line", str(source))
    assert proc.stdout.strip() == X_SOLUTION


def test_count_and_encode_read_variants() -> None:
    puzzle = to_link(Puzzle.empty(Rules.classic(2, 2).with_named("x")))
    proc = run_cli("count", "--limit", "100", puzzle)
    assert proc.returncode == 1 and proc.stdout.split()[0] == "48", proc.stdout + proc.stderr  # 1: not unique
    solver = make_backend("sat")
    assert len(solver.enumerate(parse_fpuzzles(puzzle), limit=100).solutions) == 48
    dimacs = run_cli("encode", puzzle)
    assert dimacs.returncode == 0 and dimacs.stdout.startswith("c "), dimacs.stderr
