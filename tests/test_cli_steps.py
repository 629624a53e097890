"""``sudoku-cp hint``, ``steps`` and ``rate --scale se`` from the command line."""

from __future__ import annotations

import json
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
        "puzzle": 1,
        "step": 1,
        "technique": "Hidden single",
        "difficulty": 1.2,
        "placements": ["r2c2=6"],
        "eliminations": [],
        "pattern": {"cells": ["r2c2"], "digits": [6], "houses": ["box 1"], "links": []},
        "text": "Hidden single: r2c2=6 (only place for 6 in box 1)",
    }
    assert second["puzzle"] == 2 and second["result"] in ("contradiction", "error")


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
    ends = [r for r in records if "result" in r]
    assert [(r["puzzle"], r["result"]) for r in ends] == [
        (1, "solved"),
        (2, "error"),
        (3, "solved"),
        (4, "stuck"),
    ]
    steps = [r for r in records if r["puzzle"] == 3 and "step" in r]
    assert [r["step"] for r in steps] == list(range(1, len(steps) + 1))
    assert ends[2]["rating"] == max(r["difficulty"] for r in steps)
    assert len(ends[3]["candidates"]) == 729  # where it got stuck, in the pencilmark layout


def test_rate_on_the_se_scale(tmp_path: Path) -> None:
    proc = run_cli("rate", "--scale", "se", str(_input(tmp_path)))
    lines = proc.stdout.splitlines()
    assert lines[0] == "1.2/1.2/1.2" and lines[1] == "- error" and lines[3] == "stuck"
    er, ep, ed = (float(x) for x in lines[2].split("/"))
    assert er >= ep >= ed >= 1.0
    proc = run_cli("rate", "--scale", "se", "--output-format", "jsonl", "-p", EASY)
    assert json.loads(proc.stdout) == {
        "index": 1,
        "puzzle": EASY.replace("0", "."),
        "result": "solved",
        "er": 1.2,
        "ep": 1.2,
        "ed": 1.2,
    }
