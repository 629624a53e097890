"""``sudoku-cp hint``, ``steps`` and ``rate --scale se`` from the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import run_cli

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MANY = "1" + "." * 80  # many solutions: logic gets stuck at once


def _input(tmp_path: Path) -> Path:
    path = tmp_path / "in.txt"
    path.write_text("\n".join([EASY, "bad line", NORVIG, MANY]) + "\n")
    return path


def test_hint_gives_one_line_per_puzzle(tmp_path: Path) -> None:
    proc = run_cli("hint", str(_input(tmp_path)))
    assert proc.returncode == 1  # a bad line and a stuck puzzle
    lines = proc.stdout.splitlines()
    assert lines == [
        "Hidden single: r2c2=6 (only place for 6 in box 1)",
        "error",
        "Hidden single: r6c2=4 (only place for 4 in box 4)",
        "stuck",
    ]
    assert (
        "line 2, puzzle 2" in proc.stderr
        and "hinted 4 puzzles (2 with a step, 1 stuck, 1 error)" in proc.stderr
    )


def test_hint_jsonl_names_the_pattern(tmp_path: Path) -> None:
    proc = run_cli("hint", "--output-format", "jsonl", "-p", EASY, "-p", EASY.replace("0", "1", 1))
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert first == {
        "index": 1,
        "puzzle": EASY.replace("0", "."),
        "status": "step",
        "step": 1,
        "technique": "Hidden single",
        "difficulty": 1.2,
        "placements": ["r2c2=6"],
        "eliminations": [],
        "pattern": {"cells": ["r2c2"], "digits": [6], "houses": ["box 1"], "links": []},
        "text": "Hidden single: r2c2=6 (only place for 6 in box 1)",
    }
    assert second["index"] == 2 and second["status"] in ("contradiction", "error")


def test_steps_walk_to_the_end_with_the_rating(tmp_path: Path) -> None:
    proc = run_cli("steps", "-j", "1", str(_input(tmp_path)))
    blocks = proc.stdout.split("\n\n")
    assert blocks[0].splitlines()[-1] == "solved 1.2/1.2/1.2"
    assert blocks[1] == "error"
    assert blocks[2].splitlines()[-1].startswith("solved ")
    assert blocks[3].splitlines() == ["stuck 0.0/0.0/0.0"]
    placed = sum(line.count("=") for line in blocks[0].splitlines()[:-1])
    assert placed == EASY.count("0")  # every open cell placed once
    assert proc.returncode == 1 and "worked through 4 puzzles (2 solved, 1 stuck, 1 error)" in proc.stderr


def test_steps_jsonl_ends_each_puzzle_with_its_result(tmp_path: Path) -> None:
    proc = run_cli("steps", "--output-format", "jsonl", str(_input(tmp_path)))
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    ends = [r for r in records if "status" in r]
    assert [(r["index"], r["status"]) for r in ends] == [
        (1, "solved"),
        (2, "error"),
        (3, "solved"),
        (4, "stuck"),
    ]
    assert [r["puzzle"] for r in ends[::2]] == [EASY.replace("0", "."), NORVIG]
    steps = [r for r in records if r["index"] == 3 and "step" in r]
    assert all(set(r) == {"index", "step", *STEP_FIELDS} for r in steps)
    assert [r["step"] for r in steps] == list(range(1, len(steps) + 1))
    assert ends[2]["rating"] == max(r["difficulty"] for r in steps)
    assert len(ends[3]["candidates"]) == 729  # where it got stuck, in the pencilmark layout


STEP_FIELDS = ("technique", "difficulty", "placements", "eliminations", "pattern", "text")


def test_hint_steps_and_explain_jsonl_are_keyed_as_every_commands(tmp_path: Path) -> None:
    """steps and hint wrote ``{"puzzle": 3, "result": "solved"}`` where solve, count and rate write
    ``{"index": 3, "puzzle": "<the puzzle>", "status": ...}``, and ``"result": "error"`` where the README
    says every jsonl has ``"status": "error"`` (issue 33's audit): now each puzzle's record has the same
    ``index``, ``puzzle`` and ``status`` as count's, and an unreadable one the same record everywhere."""
    path = _input(tmp_path)
    per_puzzle = {}
    for command in ("count", "rate", "hint", "steps"):
        proc = run_cli(command, "-q", "--output-format", "jsonl", str(path))
        records = [json.loads(line) for line in proc.stdout.splitlines()]
        per_puzzle[command] = [r for r in records if "status" in r]  # steps: its steps have none
        assert [r["index"] for r in per_puzzle[command]] == [1, 2, 3, 4], command
    keys = [(r["index"], r["puzzle"]) for r in per_puzzle["count"]]
    for command, records in per_puzzle.items():
        assert [(r["index"], r["puzzle"]) for r in records] == keys, command
        assert records[1] == per_puzzle["count"][1], command  # the bad line's error record
    assert [r["status"] for r in per_puzzle["hint"]] == ["step", "error", "step", "stuck"]
    assert [r["status"] for r in per_puzzle["steps"]] == ["solved", "error", "solved", "stuck"]
    small = tmp_path / "small.txt"  # explain of a near-empty 9x9 grid takes seconds: 4x4 puzzles here
    small.write_text("12343412214343..\nbad line\n11..............\n1...............\n")
    counted, records = (
        [
            json.loads(line)
            for line in run_cli(command, "--output-format", "jsonl", str(small)).stdout.splitlines()
        ]
        for command in ("count", "explain")
    )
    assert [(r["index"], r["puzzle"]) for r in records] == [(r["index"], r["puzzle"]) for r in counted]
    assert records[1] == counted[1]  # unreadable: the same record
    assert [r["status"] for r in records] == ["solved", "error", "no_solution", "multiple"]
    variant = run_cli("generate", "--rules", "x", "-n", "1", "--seed", "2", "-q").stdout
    for command in ("hint", "steps", "explain"):
        proc = run_cli(command, "--output-format", "jsonl", stdin=variant)
        assert json.loads(proc.stdout.splitlines()[-1])["rules"] == "x", command  # as count's records


def test_rate_on_the_se_scale(tmp_path: Path) -> None:
    proc = run_cli("rate", "--scale", "se", str(_input(tmp_path)))
    lines = proc.stdout.splitlines()
    assert lines[0] == "1.2/1.2/1.2" and lines[1] == "- error" and lines[3] == "stuck"
    er, ep, ed = (float(x) for x in lines[2].split("/"))
    assert er >= ep >= ed >= 1.0
    proc = run_cli("rate", "--scale", "se", "--output-format", "jsonl", "-p", EASY, "-p", "bad")
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert second["status"] == "error"  # every record keyed alike: a valid puzzle's said "result"
    assert first == {
        "index": 1,
        "puzzle": EASY.replace("0", "."),
        "status": "solved",
        "er": 1.2,
        "ep": 1.2,
        "ed": 1.2,
    }


#: One of the forum's hardest (ER 11.8): a walk of seconds for each of its first steps.
HARDEST = "6.......2.9.4...5...1...7...5..84.......2.......3.5.4.2.....6...3...9.8...7.....1"
#: How a walk or hint cut short ends its text.
CUT = re.compile(r"unknown: the time limit \(1 s\) was reached (after \d+ steps?|before the first step)")


def test_a_time_limit_leaves_a_puzzle_unknown_and_the_others_done() -> None:
    """``--time-limit`` is per puzzle: the hardest is cut short (its steps so far, then ``unknown``), the
    next is worked through as without it; exit status 1, as for a puzzle stuck."""
    proc = run_cli("steps", "-j", "1", "--time-limit", "1", "-p", HARDEST, "-p", NORVIG)
    first, second = proc.stdout.split("\n\n")[:2]
    assert proc.returncode == 1 and CUT.fullmatch(first.splitlines()[-1])
    assert second.splitlines()[-1] == "solved 2.6/1.2/1.2" and "(1 solved, 1 unknown)" in proc.stderr
    proc = run_cli("hint", "-j", "1", "--time-limit", "0.001", "--output-format", "jsonl", "-p", HARDEST)
    [record] = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 1 and record["status"] == "unknown"
    assert record["why"] == "the time limit (0.001 s) was reached before the first step"


def test_rate_past_its_time_limit_is_unknown_on_both_scales() -> None:
    proc = run_cli(
        "rate", "-j", "1", "--time-limit", "1", "--output-format", "jsonl", "-p", HARDEST, "-p", NORVIG
    )
    cut, done = (json.loads(line) for line in proc.stdout.splitlines())
    assert proc.returncode == 1 and "(1 medium, 1 unknown)" in proc.stderr
    assert cut["status"] == "unknown" and cut["level"] is None and cut["timed_out"] is True
    assert done["level"] == "medium" and "timed_out" not in done
    proc = run_cli("rate", "--scale", "se", "-j", "1", "--time-limit", "1", "-p", HARDEST, "-p", NORVIG)
    assert proc.returncode == 1 and proc.stdout.splitlines() == ["unknown", "2.6/1.2/1.2"]
    proc = run_cli(
        "rate", "--scale", "se", "--output-format", "csv", "-j", "1", "--time-limit", "1", "-p", HARDEST
    )
    assert proc.stdout.splitlines()[1].endswith(",unknown,,,")
