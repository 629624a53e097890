"""One table of exit statuses: the constants, every command's ``--help`` and the README say the same."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_cp.batch.interrupt import Interrupted
from sudoku_cp.cli import (
    COMMANDS,
    EXIT_FAILED,
    EXIT_FAULT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PIPE,
    EXIT_USAGE,
    exit_codes,
    main,
)

ROOT = Path(__file__).resolve().parent.parent


def _listed(text: str) -> list[int]:
    """The statuses a text lists, as ``N what``, in its order."""
    return [int(n) for n in re.findall(r"(?:^|[:;,] )(\d+) [a-z]", " ".join(text.split()))]


def test_the_table_has_one_status_per_outcome() -> None:
    statuses = [EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_FAULT, EXIT_INTERRUPTED]
    assert statuses == [0, 1, 2, 3, 130]
    assert Interrupted(signal.SIGINT).status == EXIT_INTERRUPTED
    assert Interrupted(signal.SIGTERM).status == 128 + signal.SIGTERM == 143
    assert _listed(exit_codes()) == [0, 1, 2, 3, 130, 141, 143]
    assert _listed(exit_codes("every formula written", None)) == [0, 2, 3, 130, 141, 143]


@pytest.mark.parametrize("argv", [["solve"], ["solve", "-j", "2"], ["count"], ["rate"]])
def test_a_reader_that_closes_the_pipe_stops_the_command_quietly_with_141(
    argv: list[str], tmp_path: Path
) -> None:
    """``sudoku-cp solve big.txt | head -1`` exited 1, the status of an unsolved puzzle (issue 33's audit): a
    closed pipe is 128 + SIGPIPE, as a shell reports for ``cat``, and nothing on standard error."""
    assert EXIT_PIPE == 128 + signal.SIGPIPE == 141
    big = tmp_path / "big.txt"
    big.write_text(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n" * 3000
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", *argv, str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()  # as head does after its line
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == EXIT_PIPE, stderr
    assert stderr == ""


def test_the_readme_lists_the_same_statuses() -> None:
    readme = (ROOT / "README.md").read_text()
    (paragraph,) = re.findall(r"Exit status, the same for every command.*?\n\n", readme, flags=re.S)
    assert _listed(paragraph) == _listed(exit_codes())
    assert "3 a fault" in " ".join(paragraph.split())


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_lists_the_statuses(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == EXIT_OK
    text = capsys.readouterr().out
    assert "exit status: 0 " in text, f"{command} --help has no exit status list"
    listed = _listed(text.split("exit status:", 1)[1])
    assert listed in ([0, 1, 2, 3, 130, 141, 143], [0, 2, 3, 130, 141, 143]), listed


#: Every command reading puzzles, with what it needs beside the input.
_READERS = {
    "solve": [],
    "count": [],
    "rate": [],
    "explain": [],
    "hint": [],
    "steps": [],
    "render": [],
    "encode": [],
    "compare": ["--backends", "dfs"],
    "prove": ["-o", "{tmp}/certs"],
}


@pytest.mark.parametrize("command", sorted(_READERS))
def test_an_input_without_puzzles_exits_0_with_a_warning(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("\n# a comment, no puzzle\n")
    extra = [arg.format(tmp=tmp_path) for arg in _READERS[command]]
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", command, str(empty), *extra], capture_output=True, text=True
    )
    assert proc.returncode == EXIT_OK, proc.stderr
    assert "no puzzles" in proc.stderr


def test_encode_of_one_unreadable_puzzle_exits_1_as_with_a_folder(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("123\n")
    for output in ([], ["-o", f"{tmp_path}/cnf/"]):
        proc = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", "encode", str(bad), *output], capture_output=True, text=True
        )
        assert proc.returncode == EXIT_FAILED, proc.stderr
        assert "line 1, puzzle 1" in proc.stderr


def _workers(pid: int) -> list[int]:
    """The spawned worker processes of ``pid`` (Linux: from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or f"PPid:\t{pid}\n" not in (entry / "status").read_text():
                continue
            if b"spawn_main" in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:  # the process ended meanwhile
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="finds the workers through /proc")
def test_a_killed_worker_of_generate_is_a_fault(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    command = [sys.executable, "-m", "sudoku_cp", "generate", "-n", "20000", "-j", "2", "-q", "-o", str(out)]
    env = {**os.environ, "SUDOKU_CP_START_METHOD": "spawn"}  # workers are then children of the command
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while not (workers := _workers(proc.pid)) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert workers, "no worker started"
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_FAULT, err
    assert "sudoku-cp: error: a worker process died" in err and "Traceback" not in err
    partial = tmp_path / "out.txt.partial"  # kept when it holds a puzzle, and said so
    assert partial.exists() == ("written so far are in" in err), err
    kept = partial.read_text() if partial.exists() else ""
    assert all(len(line) == 81 for line in kept.splitlines())  # whole puzzles only
