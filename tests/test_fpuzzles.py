"""f-puzzles JSON and links: read into ``Rules``, written back, refused when a rule is unknown; and the
command line on variant puzzles (``--rules``, f-puzzles input and output)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp import ParseError, Puzzle, is_solution, parse
from sudoku_cp.backends import make_backend
from sudoku_cp.formats.fpuzzles import RULE_KEYS, from_fpuzzles, parse_fpuzzles, to_fpuzzles, to_link
from sudoku_cp.rules import NAMED, Rules

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
        ({"lockout": [{"lines": [["R1C1", "R1C2"]]}]}, "unsupported f-puzzles constraint 'lockout'"),
        ({"littlekillersum": [{"cell": "R0C1"}]}, "little killer's direction must be DR, DL, UR or UL"),
        ({"sandwichsum": [{"cell": "R1C1", "value": "3"}]}, "sandwich stands outside the grid"),
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


@pytest.mark.parametrize("spread", [False, True], ids=["a line each", "indented"])
@pytest.mark.parametrize("where", [0, 1])
def test_an_object_that_never_ends_loses_no_puzzle_after_it(spread: bool, where: int) -> None:
    """A cut object (a truncated line, or the first lines of an indented one) is an error at its first
    line, and every object after it is read: it ends where a line starts another object."""
    puzzle = {"size": 4, "grid": grid(4, {"R4C4": 1})}
    whole = json.dumps(puzzle, indent=2 if spread else None).splitlines()
    cut = whole[:5] if spread else [whole[0][:40]]
    blocks = [whole, whole]
    blocks.insert(where, cut)
    records = parse_records("\n".join(line for block in blocks for line in block))
    starts = [1 + sum(len(b) for b in blocks[:i]) for i in range(3)]
    assert [r.line for r in records] == starts
    assert [r.error is None for r in records] == [i != where for i in range(3)]
    assert "never ends" in str(records[where].error) and f"line {starts[where]}," in str(records[where].error)
    assert all(r.puzzle == from_fpuzzles(puzzle) for i, r in enumerate(records) if i != where)


def parse_records(text: str) -> list:
    from sudoku_cp.formats import iter_records

    return list(iter_records(text.splitlines()))


# --- the command line -------------------------------------------------------------------------------------


def test_solve_with_rules_names_keeps_them_and_refuses_unknown_names() -> None:
    puzzle = "".join(d if i % 7 != 0 else "." for i, d in enumerate(X_SOLUTION))
    proc = run_cli("solve", "--rules", "x", "--unique", "--backend", "sat", "-o", "-", puzzle)
    assert proc.returncode == 0, proc.stderr
    header, line = proc.stdout.splitlines()  # the line layout says the rules by a header line
    rules = Rules.classic(3, 3).with_named("x")
    assert header == "# rules: x" and parse(proc.stdout) == [Puzzle.from_string(line, rules)]
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
    assert proc.stdout.splitlines() == ["# rules: x", X_SOLUTION]


def test_count_and_encode_read_variants() -> None:
    puzzle = to_link(Puzzle.empty(Rules.classic(2, 2).with_named("x")))
    proc = run_cli("count", "--limit", "100", puzzle)
    assert proc.returncode == 1 and proc.stdout.split()[0] == "48", proc.stdout + proc.stderr  # 1: not unique
    solver = make_backend("sat")
    assert len(solver.enumerate(parse_fpuzzles(puzzle), limit=100).solutions) == 48
    dimacs = run_cli("encode", puzzle)
    assert dimacs.returncode == 0 and dimacs.stdout.startswith("c "), dimacs.stderr


# --- hostile input: a located ParseError, never a traceback (issue 33, items 11, 12 and 16) ---------------


def _hostile_inputs() -> dict[str, tuple[str, str]]:
    """Inputs of the adversarial run, each with what its message must say."""
    empty = grid(9)
    big_value = json.dumps({"size": 9, "grid": grid(9, {"R1C1": 1})}).replace(
        '"value": 1', '"value": ' + "7" * 5000
    )
    big_string = big_value.replace('"value": 7', '"value": "7').replace('7, "given"', '7", "given"')
    far_cell = {"cells": ["R" + "1" * 5000 + "C1", "R1C2"], "value": "X"}

    def rules(**keys: object) -> str:
        return json.dumps({"size": 9, "grid": empty, **keys})

    return {
        "deep nesting": ('{"size": 9, "grid": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        "5,000-digit size": ('{"size": ' + "9" * 5000 + ', "grid": []}', "a number with thousands of digits"),
        "5,000-digit cell value": (big_value, "a number with thousands of digits"),
        "5,000-digit string value": (
            big_string,
            "given at R1C1 has a value that is not a number: a long string",
        ),
        "kropki dot of one cell": (rules(ratio=[{"cells": ["R1C1"]}]), "black dot joins 2 cells, not 1"),
        "kropki dot of three cells": (
            rules(difference=[{"cells": ["R1C1", "R1C2", "R1C3"]}]),
            "joins 2 cells, not 3",
        ),
        "a JSON list": ("[1,2,3]", "must be an object with size and grid, not a list"),
        "a 5,000-digit cell name": (rules(xv=[far_cell]), "bad f-puzzles cell a long string"),
        "a rule switched on by a string": (
            rules(antiknight="no"),
            "'antiknight' must be true or false, not 'no'",
        ),
        "negative as a number": (rules(negative=5), "negative rule list must be a list, not 5"),
        "thermometer lines as a number": (rules(thermometer=[{"lines": 3}]), "lines must be a list, not 3"),
    }


@pytest.mark.parametrize("name", sorted(_hostile_inputs()))
def test_hostile_fpuzzles_input_is_a_located_error(name: str, tmp_path: Path) -> None:
    text, message = _hostile_inputs()[name]
    source = tmp_path / "hostile.json"
    source.write_text(text + "\n")
    proc = run_cli("count", str(source))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1, proc.stderr  # an unreadable puzzle, as a line of the wrong length
    assert f"{source}, line 1, puzzle 1: " in proc.stderr and message in proc.stderr, proc.stderr
    assert proc.stdout.split() == ["error"]
    assert len(proc.stderr) < 400  # the message names the fault, never the whole value


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("difference", None, 1),
        ("difference", "", 1),
        ("difference", "2", 2),
        ("difference", 8, 8),
        ("ratio", None, 2),
        ("ratio", "", 2),
        ("ratio", "3", 3),
        ("ratio", "9", 9),
    ],
)
def test_kropki_values_and_their_defaults(key: str, value: object, expected: int) -> None:
    dot: dict = {"cells": ["R1C1", "R1C2"]} | ({} if value is None else {"value": value})
    [pair] = from_fpuzzles({"size": 9, "grid": grid(9), key: [dot]}).rules.dots
    assert (pair.relation, pair.value) == (key, expected)


@pytest.mark.parametrize(
    ("key", "value"),
    [("difference", "0"), ("difference", 0), ("difference", "-1"), ("difference", "9"), ("ratio", "0"),
     ("ratio", "1"), ("ratio", "10"), ("ratio", "2.5"), ("ratio", True)],
)  # fmt: skip
def test_kropki_values_without_a_meaning_are_refused(key: str, value: object) -> None:
    dot = {"cells": ["R1C1", "R1C2"], "value": value}
    with pytest.raises(ParseError, match=r"kropki (white|black) dot"):
        from_fpuzzles({"size": 9, "grid": grid(9), key: [dot]})


@pytest.mark.parametrize(
    ("key", "value", "kept"),
    [("xsum", "0", False), ("xsum", "1", True), ("skyscraper", "0", False), ("skyscraper", "1", True),
     ("skyscraper", "10", False), ("sandwichsum", "0", True)],
)  # fmt: skip
def test_outside_clues_that_can_never_hold_are_refused(key: str, value: str, kept: bool) -> None:
    """An X-sum counts at least one digit and a skyscraper is always seen: 0 can never hold (a sandwich of
    1 and 9 side by side sums to 0), nor a skyscraper count beyond its line."""
    data = {"size": 9, "grid": grid(9), key: [{"cell": "R0C1", "value": value}]}
    if kept:
        assert len(from_fpuzzles(data).rules.variants) == 1
    else:
        with pytest.raises(ParseError, match=r"value must be from 1 to"):
            from_fpuzzles(data)


def test_an_indented_object_of_a_megabyte_reads_in_linear_time(tmp_path: Path) -> None:
    """Each line of a multi-line object was added to a string, copying all before it: 1 MB took 20 s in a
    fresh process (in a process whose heap lets the string grow in place, as in a test worker, it did not
    show: hence a process of its own)."""
    texts = [{"cells": ["R1C1"], "value": "a note", "fontC": "#000000", "size": 1}] * 9000
    source = tmp_path / "indented.json"
    source.write_text(json.dumps({"size": 9, "grid": grid(9, {"R1C1": 5}), "text": texts}, indent=2))
    assert source.stat().st_size > 1_000_000
    read = f"from sudoku_cp.formats import open_records; print([r.ok for r in open_records({str(source)!r})])"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", read], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "[True]", proc.stderr
    assert time.perf_counter() - start < 8  # 0.5 s on this project's 2-core machine; 20-25 s before


def _fuzz_base() -> dict:
    """A 4x4 object with every rule key, each entry holding the fields its key reads."""
    return {
        "size": 4,
        "grid": grid(4, {"R1C1": 1}),
        "diagonal+": True,
        "antiknight": False,
        "windoku": False,
        "extraregion": [{"cells": ["R1C1", "R2C2"]}],
        "killercage": [{"cells": ["R3C3", "R3C4"], "value": "5"}],
        "thermometer": [{"lines": [["R4C1", "R4C2"]]}],
        "arrow": [{"cells": ["R1C4"], "lines": [["R1C4", "R2C4"]]}],
        "difference": [{"cells": ["R2C1", "R2C2"], "value": "1"}],
        "ratio": [{"cells": ["R3C1", "R3C2"]}],
        "xv": [{"cells": ["R4C3", "R4C4"], "value": "V"}],
        "negative": ["xv"],
    }


#: Where a value goes: every key, and every field of the first cell and of each key's first entry.
_FIELDS = [
    ("size",),
    ("grid",),
    ("grid", 0),
    ("grid", 0, 0),
    *(("grid", 0, 0, k) for k in ("value", "given", "region")),
    ("negative",),
    ("negative", 0),
    *((key,) for key in RULE_KEYS),
    *(
        path
        for key in ("extraregion", "killercage", "thermometer", "arrow", "difference", "ratio", "xv")
        for path in ((key, 0), (key, 0, "cells"), (key, 0, "cells", 0), (key, 0, "value"), (key, 0, "lines"))
    ),
    ("thermometer", 0, "lines", 0),
    ("thermometer", 0, "lines", 0, 0),
    ("arrow", 0, "lines", 0),
]
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**20, max_value=10**4000)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["R1C1", "R0C1", "R4C4", "R5C1", "r2c2", "R1C1R1C2", "0", "-1", "X", "v", "3", " 7 "])
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
)


def _holds(target: Any, step: str | int) -> bool:
    """Whether ``target`` is a dict with key ``step`` or a list with index ``step``."""
    if isinstance(target, dict):
        return step in target
    return isinstance(target, list) and isinstance(step, int) and step < len(target)


def _put(data: dict, path: tuple, value: object) -> None:
    """Set the field at ``path`` to ``value``, where an earlier change left that path in place."""
    target: Any = data
    for step in path[:-1]:
        if not _holds(target, step):
            return
        target = target[step]
    if isinstance(target, dict) or _holds(target, path[-1]):
        target[path[-1]] = value


@settings(max_examples=250, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_FIELDS), _JSON), min_size=1, max_size=3))
def test_any_json_value_in_any_field_gives_a_puzzle_or_a_parse_error(changes: list) -> None:
    data = _fuzz_base()
    for path, value in changes:
        _put(data, path, value)
    text = json.dumps(data)
    try:
        puzzle = parse_fpuzzles(text)
    except ParseError as exc:
        assert len(str(exc)) < 300, str(exc)
    else:
        assert isinstance(puzzle, Puzzle)
    [record] = parse_records(text)  # the reader never raises: an error is a located record
    assert (record.puzzle is None) != (record.error is None)
    if record.error is not None:
        assert (record.error.index, record.error.line) == (1, 1)


# --- windoku and every named rule through f-puzzles JSON and links (issue 33, item 1) ------------------


@pytest.mark.parametrize("name", sorted(NAMED))
def test_every_named_rule_round_trips_through_json_and_links(name: str) -> None:
    rules = Rules.classic(3, 3).with_named(name)
    puzzle = Puzzle(rules, (5,) + (0,) * 80)
    assert from_fpuzzles(json.loads(json.dumps(to_fpuzzles(puzzle)))) == puzzle
    assert parse_fpuzzles(to_link(puzzle)) == puzzle


def test_windoku_is_written_as_the_apps_extra_regions_and_read_back_as_windoku() -> None:
    rules = Rules.classic(3, 3).with_named("windoku,x").with_(extra_regions=[(0, 1, 2)])
    data = to_fpuzzles(Puzzle.empty(rules))
    assert data["windoku"] is True and data["diagonal+"] is True
    windows = [region["cells"] for region in data["extraregion"]]
    assert windows[0] == ["R2C2", "R2C3", "R2C4", "R3C2", "R3C3", "R3C4", "R4C2", "R4C3", "R4C4"]
    assert len(windows) == 5 and windows[4] == ["R1C1", "R1C2", "R1C3"]  # the windows first, then the rest
    assert from_fpuzzles(data).rules == rules
    # another setter's extra regions stay extra regions, even where they are the windows
    data.pop("windoku")
    assert from_fpuzzles(data).rules.named == ("diagonal-", "diagonal+")
    assert len(from_fpuzzles(data).rules.extra_regions) == 5


def test_sudokupad_links_with_fpuzzles_data_are_read() -> None:
    """SudokuPad opens f-puzzles data as ``fpuzzles`` (or ``fpuz``) and the compressed JSON, in a path or
    a ``puzzleid`` parameter; each form reads back the puzzle, variants included."""
    from sudoku_cp.formats import parse
    from sudoku_cp.formats.fpuzzles import looks_like_fpuzzles, to_link

    data = {
        "size": 9,
        "grid": [[{} for _ in range(9)] for _ in range(9)],
        "renban": [{"lines": [["R1C1", "R1C2", "R2C3"]]}],
        "littlekillersum": [{"cell": "R0C1", "direction": "DR", "value": "45"}],
    }
    puzzle = from_fpuzzles(data)
    payload = to_link(puzzle).split("load=", 1)[1]
    for link in (
        f"https://sudokupad.app/fpuzzles{payload}",
        f"https://sudokupad.app/fpuz{payload}",
        f"https://sudokupad.app/?puzzleid=fpuzzles{payload}",
        f"https://app.crackingthecryptic.com/sudoku/fpuzzles{payload.replace('+', '%2B')}",
        f"fpuzzles{payload}",
    ):
        assert looks_like_fpuzzles(link)
        assert parse(link)[0] == puzzle, link


def test_an_arrow_of_several_lines_is_an_arrow_per_line() -> None:
    """f-puzzles lets an arrow run several lines from its circle: each line adds up to the circle, as
    f-puzzles' own solver reads it (they were read as one arrow, their cells together adding up to it, a
    different puzzle). Written back, each is an entry of its own, read back the same; each is drawn."""
    lines = [["R1C1", "R2C3"], ["R1C1", "R3C2"]]
    empty = [[{} for _ in range(4)] for _ in range(4)]
    one_entry = from_fpuzzles({"size": 4, "grid": empty, "arrow": [{"cells": ["R1C1"], "lines": lines}]})
    two_entries = from_fpuzzles(
        {"size": 4, "grid": empty, "arrow": [{"cells": ["R1C1"], "lines": [line]} for line in lines]}
    )
    assert one_entry.rules == two_entries.rules and len(one_entry.rules.arrows) == 2
    assert from_fpuzzles(to_fpuzzles(one_entry)).rules == one_entry.rules
    found = make_backend("sat").enumerate(one_entry, limit=300)
    assert found.complete and found.solutions  # (read as one arrow, r2c3 + r3c2 = r1c1: other grids)
    assert all(s.cells[0] == s.cells[6] == s.cells[9] for s in found.solutions)  # each line equals r1c1


def test_a_box_option_that_differs_from_an_f_puzzles_grid_is_refused_not_ignored(tmp_path: Path) -> None:
    """f-puzzles JSON states its regions: ``--box 3x2`` on a 6x6 object (boxes of 2x3) was ignored without
    a word, so the count was that of other rules than asked. The same box shape is accepted."""
    path = tmp_path / "six.json"
    path.write_text(json.dumps({"size": 6, "grid": grid(6, {"R1C1": 1})}) + "\n")
    refused = run_cli("count", "-q", "-j", "1", "--box", "3x2", str(path))
    assert refused.returncode == 1 and "--box 3x2: this 6x6 puzzle has boxes of 2x3" in refused.stderr
    same = run_cli("count", "-q", "-j", "1", "--box", "2x3", str(path))
    assert same.returncode == 1 and same.stdout.split() == ["2+"]  # several solutions, counted
