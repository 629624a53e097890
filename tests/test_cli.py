"""The command line through its real entry point: exact outputs, error reports and exit codes."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp import Puzzle
from sudoku_cp.cli import COMMANDS, main
from sudoku_cp.verify import is_solution

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def test_classic_grid_example_prints_exactly_its_solution(
    tmp_path: Path, classic_grid_text: str, classic_grid_solution: str
) -> None:
    path = tmp_path / "classic.txt"
    path.write_text(classic_grid_text)
    proc = run_cli("solve", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == classic_grid_solution


def test_standard_input_and_dash(classic_grid_text: str, classic_grid_solution: str) -> None:
    assert run_cli("solve", stdin=classic_grid_text).stdout == classic_grid_solution
    assert run_cli("solve", "-", stdin=classic_grid_text).stdout == classic_grid_solution


_SHORT = (f"{EASY}\n12\n", "2 symbols is not the length of a puzzle")
_BROKEN_X = (f"{EASY}\n1234341221434321\n", "digit 1 is given twice in one house, at r1c1 and r4c4")


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["solve"], _SHORT),
        (["solve", "-"], _SHORT),
        (["solve", "-j", "2", "-"], _SHORT),
        (["count", "-"], _SHORT),
        (["steps"], _SHORT),
        (["hint", "-"], _SHORT),
        (["count", "--rules", "x", "-"], _BROKEN_X),
    ],
)
def test_errors_in_standard_input_name_it_as_a_file_is_named(
    argv: list[str], bad: tuple[str, str], tmp_path: Path
) -> None:
    """A bad puzzle read from a file is reported as ``FILE, line 2, puzzle 2``; from standard input it was
    ``line 2, puzzle 2`` alone in solve and under --rules (issue 33's audit): now ``<stdin>, line 2,
    puzzle 2``, as a file would be."""
    text, message = bad
    proc = run_cli(*argv, stdin=text)
    assert proc.returncode == 1
    assert f"sudoku-cp: <stdin>, line 2, puzzle 2: {message}" in proc.stderr
    path = tmp_path / "bad.txt"
    path.write_text(text)
    named = run_cli(*[a for a in argv if a != "-"], str(path))
    assert f"sudoku-cp: {path}, line 2, puzzle 2: {message}" in named.stderr


def test_version_and_help() -> None:
    from sudoku_cp import __version__

    assert run_cli("--version").stdout.strip() == f"sudoku-cp {__version__}"
    help_text = run_cli("--help").stdout
    for command in ("solve", "backends"):
        assert command in help_text


@pytest.mark.parametrize("command", COMMANDS)
def test_command_help_shows_docstring_literals_plainly(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    assert f"sudoku-cp {command}" in text and "``" not in text


def test_backends_lists_every_registered_backend() -> None:
    from sudoku_cp.backends import backend_names

    proc = run_cli("backends")
    assert proc.returncode == 0
    for name in backend_names():  # all of them run here: the test extra installs every package
        assert any(line.startswith(name + " ") for line in proc.stdout.splitlines())
    for line in proc.stdout.splitlines():  # only a variant may need another package (sat:cryptosat)
        if line.startswith("not installed: "):
            assert all(":" in item.split()[0] for item in line.removeprefix("not installed: ").split(", "))


def test_backends_leaves_out_what_cannot_run_and_says_what_to_install() -> None:
    code = "import sys; sys.modules['ortools'] = None\nfrom sudoku_cp.cli import main\nmain(['backends'])\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    assert not any(line.startswith("cpsat") for line in lines)
    assert lines[-1].startswith("not installed: cpsat (pip install ortools)")


def test_bad_puzzles_are_reported_and_the_rest_still_solved(capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        EASY,
        EASY[:80],  # too short
        "x" + EASY[1:],  # unknown symbol
        "33" + EASY[2:],  # 3 twice in row 1
        EASY,
    ]
    proc = run_cli("solve", "--output-format", "jsonl", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 1
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["index"] for r in records] == [1, 2, 3, 4, 5]
    assert [r["status"] for r in records] == ["solved", "error", "error", "error", "solved"]
    assert records[0]["solution"] == records[4]["solution"] == EASY_SOLUTION
    err = proc.stderr
    for index, line in ((2, 2), (3, 3), (4, 4)):
        assert f"line {line}" in err and f"puzzle {index}" in err
    assert "Traceback" not in err


def test_line_output_keeps_one_record_per_puzzle_in_order() -> None:
    proc = run_cli("solve", stdin=f"{EASY}\n{EASY[:10]}\n{EASY}\n")
    out = proc.stdout.splitlines()
    assert out == [EASY_SOLUTION, "error", EASY_SOLUTION]
    assert proc.returncode == 1


def test_a_puzzle_without_solution_is_reported() -> None:
    # r1c1 can hold nothing: 1-8 are in its row, 9 in its column
    puzzle = ".12345678" + "9........" + "." * 63
    proc = run_cli("solve", "--output-format", "jsonl", stdin=puzzle + "\n")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["status"] == "no_solution"


def test_unique_reports_multiple_with_two_witnesses() -> None:
    proc = run_cli("solve", "--unique", "--output-format", "jsonl", stdin="." * 16 + "\n")
    record = json.loads(proc.stdout)
    assert proc.returncode == 1 and record["status"] == "multiple"
    empty = Puzzle.from_string("." * 16)
    a, b = (Puzzle.from_string(s) for s in record["solutions"])
    assert a != b and is_solution(empty, a) and is_solution(empty, b)


def test_output_file_is_written_complete(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    proc = run_cli("solve", "-o", str(out), "-q", stdin=EASY + "\n")
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
    assert out.read_text() == EASY_SOLUTION + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--backend", "nosuch"],
        ["solve", "--heuristic", "nosuch"],
        ["solve", "--backend", "dfs", "--encoding", "reduced"],  # an option of another backend
        ["solve", "--input-format", "nosuch"],
        ["nosuch"],
        [],
    ],
)
def test_usage_errors_exit_2_without_traceback(args: list[str]) -> None:
    proc = run_cli(*args, stdin=EASY + "\n")
    assert proc.returncode == 2, proc
    assert "Traceback" not in proc.stderr and proc.stderr.strip()


def test_unreadable_file_exits_2_after_solving_the_others(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(EASY + "\n")
    proc = run_cli("solve", str(tmp_path / "missing.txt"), str(good))
    assert proc.returncode == 2
    assert "missing.txt" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout.splitlines() == [EASY_SOLUTION]


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + EASY.encode() + b"\r\n",  # BOM and a Windows line end
        EASY.encode() + b"   \t",  # trailing space, no final newline
        EASY.encode() + b"\r",  # a lone CR
    ],
)
def test_awkward_bytes_are_read(data: bytes) -> None:
    proc = run_cli("solve", "-q", stdin=data)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == EASY_SOLUTION + "\n"


def test_empty_input_is_no_error() -> None:
    proc = run_cli("solve", stdin=b"")
    assert proc.returncode == 0 and proc.stdout == ""


def test_main_in_process_returns_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(EASY + "\n")
    assert main(["solve", "-q", str(path)]) == 0
    assert capsys.readouterr().out == EASY_SOLUTION + "\n"
    assert main(["solve", str(tmp_path / "none.txt")]) == 2


@pytest.mark.parametrize("layout", ["line", "grid", "spaced", "csv", "jsonl", "pretty"])
def test_every_output_layout(layout: str) -> None:
    proc = run_cli("solve", "-q", "--output-format", layout, stdin=EASY + "\n")
    assert proc.returncode == 0, proc.stderr
    digits = "".join(ch for ch in proc.stdout if ch.isdigit())
    assert EASY_SOLUTION in digits


def test_count_reports_a_clash_as_solve_does() -> None:
    clash = "33" + EASY[2:]
    solved = run_cli("solve", "-", stdin=clash + "\n")
    counted = run_cli("count", "-", stdin=clash + "\n")
    assert solved.returncode == counted.returncode == 1
    message = "line 1, puzzle 1: digit 3 is given twice"
    assert message in solved.stderr and message in counted.stderr
    assert solved.stdout == counted.stdout == "error\n"


@pytest.mark.parametrize("command", ["solve", "count"])
def test_an_empty_input_says_so(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# only a comment\n\n")
    proc = run_cli(command, str(empty))
    assert proc.returncode == 0 and proc.stdout == ""
    assert f"no puzzles in {empty}" in proc.stderr


MEDIUM = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MEDIUM_SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def test_a_puzzle_may_be_given_in_place_of_a_file() -> None:
    proc = run_cli("solve", MEDIUM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == MEDIUM_SOLVED + "\n"


def test_puzzles_given_with_p_come_first_then_the_files(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(EASY + "\n")
    proc = run_cli("solve", "-p", "12343412214343..", "-p", MEDIUM, str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:2] == ["1234341221434321", MEDIUM_SOLVED]
    assert len(proc.stdout.splitlines()) == 3


@pytest.mark.parametrize("command", ["count", "explain", "rate"])
def test_every_command_that_reads_puzzles_takes_them_on_the_command_line(command: str) -> None:
    proc = run_cli(command, "-p", MEDIUM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


def test_a_bad_puzzle_on_the_command_line_is_named_as_such() -> None:
    proc = run_cli("solve", "-p", "1" * 80)
    assert proc.returncode == 1
    assert "the command line, line 1, puzzle 1" in proc.stderr


def test_a_missing_file_is_not_taken_for_a_puzzle() -> None:
    proc = run_cli("solve", "no-such-file.txt")
    assert proc.returncode == 2 and "cannot read no-such-file.txt" in proc.stderr


def test_the_summary_counts_in_words_that_agree() -> None:
    one = run_cli("solve", "-p", "1234341221434321")
    assert "solved 1 of 1 puzzle in " in one.stderr
    two = run_cli("solve", "-p", "1234341221434321", "-p", "12343412214343..")
    assert "solved 2 of 2 puzzles in " in two.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_explain_shows_a_progress_line_on_a_terminal_while_a_puzzle_takes_long() -> None:
    """Issue 33: explain of an empty grid (about 20 s) said nothing on a terminal until it was done."""
    master, slave = os.openpty()
    command = [sys.executable, "-m", "sudoku_cp", "explain", "-j", "1", "-p", "." * 81]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 15
    try:
        while b"still working" not in seen and time.monotonic() < deadline and proc.poll() is None:
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 4096)
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
    assert b"\r0 puzzles, 0 puzzles/s, still working (0:0" in seen, seen


def test_the_command_leaves_its_objects_to_the_exit_and_a_caller_keeps_its_collector(tmp_path: Path) -> None:
    path = tmp_path / "easy.txt"
    path.write_text(EASY + "\n")
    script = (
        "import gc, sys\n"
        "from sudoku_cp.cli import main\n"
        f"main(['count', {str(path)!r}])\n"
        "print(gc.get_freeze_count())\n"
        f"sys.argv = ['sudoku-cp', 'count', {str(path)!r}]\n"
        "main()\n"
        "print(gc.get_freeze_count() > 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "0", "1", "True"]
