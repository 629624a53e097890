"""``sudoku-cp generate`` and ``sudoku-cp rate`` through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp import Puzzle, Rules, count_solutions, generate
from sudoku_cp.errors import UsageError
from sudoku_cp.generate import has_symmetry
from sudoku_cp.generate.drawn import generate_clued
from sudoku_cp.verify import is_solution


def test_generate_lines_match_the_library_and_are_unique() -> None:
    proc = run_cli("generate", "-n", "4", "--seed", "5")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines == [g.puzzle.to_string() for g in generate(4, seed=5, rate=False)]
    assert all(count_solutions(Puzzle.from_string(line), 2) == 1 for line in lines)
    assert "generated 4 9x9 puzzles (seed 5)" in proc.stderr


def test_generate_jsonl_carries_solution_rating_and_proof_and_jobs_do_not_change_it() -> None:
    args = ("generate", "-n", "3", "--box", "2x3", "--seed", "7", "--symmetry", "rot180")
    proc = run_cli(*args, "--output-format", "jsonl", "-q")
    assert proc.returncode == 0 and proc.stderr == ""
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["index"] for r in records] == [1, 2, 3]
    for r in records:
        puzzle, solution = Puzzle.from_string(r["puzzle"]), Puzzle.from_string(r["solution"])
        assert puzzle.rules == Rules.classic(2, 3) and is_solution(puzzle, solution)
        assert has_symmetry(puzzle, "rot180") and count_solutions(puzzle, 2) == 1
        assert r["clues"] == len(puzzle.givens)
        assert r["unique"] is True and r["proved_by"].startswith("sat:")
        assert r["rating"]["level"] in ("easy", "medium", "hard", "expert", "extreme")
    parallel = run_cli(*args, "--output-format", "jsonl", "-q", "--jobs", "2")
    assert parallel.stdout == proc.stdout


def test_generate_proves_minimal_9x9_puzzles_with_the_band_search_unless_told() -> None:
    args = ("generate", "-n", "2", "--seed", "5", "--output-format", "jsonl", "-q")
    by_dfs, by_sat = run_cli(*args), run_cli(*args, "--solver", "sat:cd15")
    assert by_dfs.returncode == by_sat.returncode == 0, by_dfs.stderr + by_sat.stderr
    assert {json.loads(line)["proved_by"] for line in by_dfs.stdout.splitlines()} == {"dfs"}
    assert {json.loads(line)["proved_by"] for line in by_sat.stdout.splitlines()} == {"sat:cadical153"}
    refused = run_cli("generate", "--solver", "dfs", "--clues", "30")
    assert refused.returncode == 2 and "minimal classic 9x9 puzzles only" in refused.stderr
    killer = run_cli("generate", "--killer", "--solver", "dfs")
    assert killer.returncode == 2 and "killer puzzles need a SAT solver" in killer.stderr


def test_generate_sizes_layouts_and_files(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    proc = run_cli("generate", "-n", "2", "--clues", "30", "--output-format", "grid", "-o", str(target))
    assert proc.returncode == 0, proc.stderr
    grids = target.read_text().split("\n\n")
    assert len(grids) == 2
    for text in grids:
        puzzle = Puzzle.from_string(text)
        assert len(puzzle.givens) == 30 and count_solutions(puzzle, 2) == 1


def test_generate_errors() -> None:
    proc = run_cli("generate", "--clues", "10")
    assert proc.returncode == 2 and "at least 17" in proc.stderr
    proc = run_cli("generate", "--clues", "18", "--max-attempts", "2", "--seed", "1")
    assert proc.returncode == 1 and "no unique puzzle with 18 clues" in proc.stderr
    proc = run_cli("generate", "--blanks", "lots")
    assert proc.returncode == 2 and "few, some, many" in proc.stderr
    # one difficulty vocabulary: a level is a promise of --difficulty, never a number of blanks
    proc = run_cli("generate", "--blanks", "hard")
    assert proc.returncode == 2 and "use --difficulty hard" in proc.stderr
    for level in ("medium", "extreme"):
        proc = run_cli(
            "generate", "-n", "2", "--difficulty", level, "--seed", "3", "--output-format", "jsonl", "-q"
        )
        assert proc.returncode == 0, proc.stderr
        made = [json.loads(line) for line in proc.stdout.splitlines()]
        assert [m["rating"]["level"] for m in made] == [level, level]
        rated = run_cli("rate", "--output-format", "jsonl", "-q", *[m["puzzle"] for m in made])
        assert [json.loads(line)["level"] for line in rated.stdout.splitlines()] == [level, level]
        ers = [json.loads(line)["er"] for line in rated.stdout.splitlines()]
        assert ers == [m["rating"]["er"] for m in made]


def test_rate_lines_csv_and_exit_status(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(
        "1234341221434321\n"  # complete: naked singles trivially
        "53....94......6..8.2...7.......1..3.6...9.18..4.73...5.6...........75..18..2.....\n"
    )
    proc = run_cli("rate", str(path))
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert first.split()[:3] == ["1234341221434321", "easy", "0.0/0.0/0.0"]  # a full grid: no step
    assert second.split()[1:3] == ["easy", "2.0/1.2/1.2"] and "conflicts=" in second
    assert second.endswith("(Direct hidden pair)")
    assert "rated 2 puzzles (2 easy)" in proc.stderr

    proc = run_cli("rate", "--output-format", "jsonl", stdin="12..............\n11..............\n")
    assert proc.returncode == 1
    several, clash = (json.loads(line) for line in proc.stdout.splitlines())
    assert several["level"] is None and several["solutions"] == 2
    assert "error" in clash

    proc = run_cli("rate", "--output-format", "csv", "-q", stdin="1234341221434321\n")
    assert proc.stdout.splitlines()[0].startswith("index,puzzle,level,er,ep,ed,technique,")
    assert proc.stdout.splitlines()[0].endswith(",conflicts,solution_count")
    assert proc.stdout.splitlines()[1].startswith("1,1234341221434321,easy,0.0,0.0,0.0,,")
    # the rating read back as its puzzles, by every command (a ``solutions`` column was taken as a grid)
    (tmp_path / "rated.csv").write_text(proc.stdout)
    again = run_cli("rate", "--output-format", "csv", "-q", str(tmp_path / "rated.csv"))
    assert again.returncode == 0 and again.stdout == proc.stdout


def test_help_lists_both_commands() -> None:
    text = run_cli("--help").stdout
    assert "generate" in text and "rate" in text
    assert "--symmetry" in run_cli("generate", "--help").stdout


def test_generate_help_names_its_own_default_layout() -> None:
    """generate reads no input: its output layout's default is not "the input layout" (issue 33)."""
    text = " ".join(run_cli("generate", "--help").stdout.split())
    assert "the output layout (default: line, or fpuzzles with --killer)" in text
    assert "input layout" not in text
    killer = run_cli("generate", "--killer", "-n", "1", "--seed", "1", "-q")
    assert killer.returncode == 0 and json.loads(killer.stdout)["killercage"]  # the default it names


def test_generate_constraints_draws_clues_of_each_kind_and_proves_the_puzzles_unique() -> None:
    from sudoku_cp.formats.fpuzzles import from_fpuzzles

    out = run_cli(
        "generate", "--constraints", "sandwichsum,renban", "--box", "2x3", "-n", "2", "--seed", "5", "-q"
    )
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 2
    for record in records:
        assert record["sandwichsum"] and record["renban"]
        puzzle = from_fpuzzles(record)
        assert count_solutions(puzzle, limit=2, backend="sat") == 1
    again = run_cli(
        "generate", "--constraints", "sandwichsum,renban", "--box", "2x3", "-n", "2", "--seed", "5", "-q"
    )
    assert again.stdout == out.stdout  # the same seed, the same puzzles


def test_generate_constraints_draws_thermometers_and_dots_read_back_from_their_json() -> None:
    from sudoku_cp.formats.fpuzzles import from_fpuzzles

    out = run_cli(
        "generate", "--constraints", "thermometer,difference", "--box", "2x3", "-n", "2", "--seed", "3", "-q"
    )
    assert out.returncode == 0, out.stderr
    for record in map(json.loads, out.stdout.splitlines()):
        assert record["thermometer"] and record["difference"]
        puzzle = from_fpuzzles(record)
        assert puzzle.rules.thermos and puzzle.rules.dots
        assert count_solutions(puzzle, limit=2, backend="sat") == 1


def test_rules_that_no_grid_keeps_are_a_usage_error_not_a_broken_solver(tmp_path: Path) -> None:
    for extra in ([], ["--constraints", "thermometer"]):
        out = run_cli("generate", "--box", "2x2", "--rules", "anti-king", "-n", "1", *extra)
        assert out.returncode == 2 and "no grid keeps the rules (2x2 anti-king" in out.stderr, out.stderr
        assert "broken" not in out.stderr
    # into a file: no empty FILE.partial is left, nor said to hold results
    target = tmp_path / "made.txt"
    out = run_cli("generate", "--box", "2x2", "--rules", "anti-king", "-n", "2", "-o", str(target))
    assert out.returncode == 2 and "written so far" not in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_generate_constraints_refuses_what_it_cannot_do_by_name() -> None:
    clone = run_cli("generate", "--constraints", "clone")
    assert clone.returncode == 2 and "no clues are drawn for 'clone'" in clone.stderr
    thirds = run_cli("generate", "--constraints", "entropicline", "--box", "2x2", "-n", "1")
    assert thirds.returncode == 2 and "size is a multiple of 3, not 4x4" in thirds.stderr
    unknown = run_cli("generate", "--constraints", "lockout")
    assert unknown.returncode == 2 and "unknown constraint kind 'lockout'" in unknown.stderr
    line = run_cli("generate", "--constraints", "renban", "--output-format", "line")
    assert line.returncode == 2 and "need a layout that states their rules" in line.stderr
    both = run_cli("generate", "--constraints", "renban", "--killer")
    assert both.returncode == 2 and "give one of them" in both.stderr
    sized = run_cli("generate", "--constraints", "renban", "--clues", "30")
    assert sized.returncode == 2 and "--constraints chooses its own givens" in sized.stderr
    twice = run_cli("generate", "--constraints", "killercage,renban,killercage")
    assert twice.returncode == 2 and "'killercage' is named 2 times" in twice.stderr  # its cages drawn twice
    with pytest.raises(UsageError, match="'sandwichsum' is named 2 times"):
        next(generate_clued(1, ["sandwichsum", "sandwichsum"], Rules.classic(2, 2), seed=1))


def test_rate_csv_writes_nothing_before_it_refuses_rules_the_layout_cannot_state(tmp_path: Path) -> None:
    """The csv header came out before the refusal of a first puzzle whose arrow no csv line can state."""
    arrow = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    arrow["arrow"] = [{"cells": ["R1C1"], "lines": [["R1C1", "R2C3"]]}]
    path = tmp_path / "arrow.json"
    path.write_text(json.dumps(arrow))
    proc = run_cli("rate", "-q", "-j", "1", "--output-format", "csv", str(path))
    assert proc.returncode == 2 and proc.stdout == "" and "arrow would be lost" in proc.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert run_cli("rate", "-q", "-j", "1", "--output-format", "csv", str(empty)).stdout.startswith(
        "index,puzzle,"
    )
