"""The count, explain and encode commands, and solve with the sat backend, through the real entry point."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from pysat.formula import CNF
from pysat.solvers import Solver

from sudoku_cp.cli import main
from sudoku_cp.dimacs import model_of_solver_output, puzzle_of_dimacs
from sudoku_cp.encode.cnf import decode
from sudoku_cp.grid import Puzzle
from sudoku_cp.verify import is_solution

CLASSIC = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
CLASSIC_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
CLASH = CLASSIC[:-1] + "4"  # a second 4 in row 9
TWO_WAYS = "..343412..434321"  # 4x4: 1 and 2 swap in r1c1 r1c2 r3c1 r3c2


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{CLASSIC}\n{CLASH}\n{TWO_WAYS}\n")
    return path


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("backend", ["sat", "sat:glucose4", "dfs"])
def test_count_prints_one_line_per_puzzle(capsys, puzzles: Path, backend: str) -> None:
    status, out, err = cli(capsys, "count", str(puzzles), "--backend", backend)
    assert status == 1  # not every puzzle has exactly one solution
    first, clash, third = out.splitlines()
    assert (first, third) == ("1", "2+")
    assert clash == "error" and "puzzle 2: digit" in err  # a clash is reported, as solve does
    status, out, _ = cli(capsys, "count", str(puzzles), "--limit", "5", "--backend", backend)
    assert out.splitlines()[::2] == ["1", "2"]


def test_count_exits_0_when_every_puzzle_is_unique(capsys, tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(CLASSIC + "\n")
    args = ("--backend", "sat", "--encoding", "reduced", "--amo", "ladder", "-q")
    assert cli(capsys, "count", str(path), *args) == (0, "1\n", "")


def test_count_reports_unreadable_puzzles_and_goes_on(capsys, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"{CLASSIC[:80]}\n{CLASSIC}\n")
    status, out, err = cli(capsys, "count", str(path))
    assert status == 1
    assert out.splitlines()[0] == "error" and out.splitlines()[1] == "1"
    assert "80" in err


def test_count_marks_a_search_the_time_limit_stopped(capsys, tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("." * 81 + "\n")
    status, out, _ = cli(capsys, "count", str(path), "--limit", "100000000", "--time-limit", "0.2")
    assert status == 1 and out.strip().endswith("?")


def test_count_through_a_subprocess_and_standard_input() -> None:
    proc = run_cli("count", "--limit", "300", stdin="." * 16 + "\n")
    assert proc.returncode == 1 and proc.stdout == "288\n"


def test_explain_names_the_reason_for_each_puzzle(capsys, puzzles: Path) -> None:
    status, out, _ = cli(capsys, "explain", str(puzzles))
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == "puzzle 1: unique: exactly one solution"
    assert lines[1] == f"  solution: {CLASSIC_SOLUTION}"
    assert lines[2] == "puzzle 2: no solution: r9c3=4 r9c9=4 cannot all hold"
    assert lines[3].startswith("puzzle 3: 2 solutions: two differ at r1c1 r1c2 r3c1 r3c2; unique with r")
    assert lines[3].endswith("(a smallest set, proven unique)")
    assert {lines[4][-16:], lines[5][-16:]} == {"1234341221434321", "2134341212434321"}


def test_explain_works_with_another_backend(capsys, puzzles: Path) -> None:
    status, out, _ = cli(capsys, "explain", str(puzzles), "--backend", "dfs")
    assert status == 1
    assert "puzzle 2: no solution: r9c3=4 r9c9=4 cannot all hold" in out.splitlines()


def test_encode_writes_dimacs_that_a_solver_reads_back(capsys, tmp_path: Path) -> None:
    source = tmp_path / "p.txt"
    source.write_text(CLASSIC + "\n")
    for encoding in ("minimal", "extended", "reduced"):
        target = tmp_path / f"{encoding}.cnf"
        status, out, _ = cli(capsys, "encode", str(source), "--encoding", encoding, "-o", str(target))
        assert status == 0 and out == ""
        text = target.read_text()
        assert (
            f"c encoding {encoding}" in text and "c var 1 = r1c1=1" in text and "c var 729 = r9c9=9" in text
        )
        puzzle = puzzle_of_dimacs(text)
        assert puzzle == Puzzle.from_string(CLASSIC)
        cnf = CNF(from_string=text)
        with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
            assert solver.solve()
            solution = decode(solver.get_model(), puzzle)
        assert is_solution(puzzle, solution) and solution.to_string() == CLASSIC_SOLUTION


def test_encode_the_empty_grid_and_read_a_model_in_solver_output(capsys) -> None:
    status, out, _ = cli(capsys, "encode", "--empty", "--box", "2x2", "--amo", "seqcounter")
    assert status == 0
    cnf = CNF(from_string=out)
    assert out.count("\nc var ") == 64 and f"p cnf {cnf.nv} {len(cnf.clauses)}" in out
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        printed = "s SATISFIABLE\nv " + " ".join(map(str, solver.get_model())) + " 0\n"
    empty = puzzle_of_dimacs(out)
    assert is_solution(empty, decode(model_of_solver_output(printed, 64), empty))
    status, out, _ = cli(capsys, "encode", "--empty", "--box", "2x2", "--no-comments")
    assert out.startswith("p cnf 64 448\n")


def test_encode_refuses_more_than_one_puzzle(capsys, puzzles: Path) -> None:
    status, _, err = cli(capsys, "encode", str(puzzles))
    assert status == 2 and "several puzzles" in err and "-o DIR/" in err


def test_solve_unique_with_a_named_solver_encoding_and_scheme(capsys, puzzles: Path) -> None:
    args = ["solve", str(puzzles), "-j", "1", "--unique", "--output-format", "jsonl", "-q"]
    status, out, _ = cli(
        capsys, *args, "--backend", "sat:glucose4", "--encoding", "reduced", "--amo", "bitwise"
    )
    assert status == 1
    assert [line.split('"status": "')[1].split('"')[0] for line in out.splitlines()] == [
        "solved",
        "error",
        "multiple",
    ]


def test_an_unknown_solver_is_a_usage_error_listing_the_valid_ones() -> None:
    proc = run_cli("count", "--backend", "sat:chaff", stdin=CLASSIC + "\n")
    assert proc.returncode == 2
    assert "no solver 'chaff'" in proc.stderr and "cadical195" in proc.stderr and "glucose4" in proc.stderr


def test_ctrl_c_stops_a_long_count_cleanly(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    empty = tmp_path / "empty.txt"
    empty.write_text("." * 81 + "\n")
    started = time.perf_counter()  # how long the start-up takes on this machine now
    assert run_cli("count", stdin=CLASSIC + "\n").stdout == "1\n"
    startup = time.perf_counter() - started
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", "count", "--limit", "100000000", str(empty)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even when run in the background
    )
    time.sleep(startup + 1.5)  # well into the enumeration
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130 and b"interrupted" in err


def test_explain_jsonl_gives_the_count_and_the_clues(capsys, puzzles: Path) -> None:
    import json

    status, out, _ = cli(capsys, "explain", str(puzzles), "--output-format", "jsonl")
    assert status == 1
    unique, clash, several = (json.loads(line) for line in out.splitlines())
    assert unique["status"] == "solved" and unique["solutions"] == 1
    assert clash["solutions"] == 0 and clash["conflict"] == ["r9c3=4", "r9c9=4"]
    assert several["solutions"] == 2 and len(several["unique_with"]) == 1
    assert several["unique_with"][0].split("=")[0] in several["differences"]
    assert several["unique_with_is_smallest"] is True and len(several["grids"]) == 2


def test_explain_says_10_plus_when_the_count_is_capped() -> None:
    import json

    proc = run_cli("explain", "--output-format", "jsonl", "-", stdin="1" + "." * 15 + "\n")
    assert json.loads(proc.stdout)["solutions"] == "10+"
