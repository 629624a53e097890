"""``sudoku-cp solve`` on inputs of many chunks through worker processes: order, alignment with bad lines,
time limits, ``--unique`` with every backend, the summary, interruption by SIGINT and SIGTERM, ``-o``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import assert_solves, run_cli, shared

from sudoku_cp.backends import backend_names, missing_packages
from sudoku_cp.formats import format_puzzle
from sudoku_cp.grid import Puzzle

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
NO_SOLUTION = ".12345678" + "9........" + "." * 63


def _puzzles(count: int) -> list[str]:
    return [p.to_string() for p in shared("17_clue.txt", limit=count)]


def _with_bad_lines(puzzles: list[str]) -> tuple[list[str], dict[int, str]]:
    """The puzzles with a bad line every few hundred; the 1-based positions of the bad ones."""
    lines: list[str] = []
    bad: dict[int, str] = {}
    junk = [EASY[:80], "x" + EASY[1:], "33" + EASY[2:], EASY + "9"]
    for k, puzzle in enumerate(puzzles):
        if k % 397 == 5:
            lines.append(junk[len(bad) % len(junk)])
            bad[len(lines)] = lines[-1]
        lines.append(puzzle)
    return lines, bad


@pytest.mark.data
def test_order_and_alignment_with_bad_lines_through_workers(tmp_path: Path) -> None:
    lines, bad = _with_bad_lines(_puzzles(3000))  # over 200 kB: many chunks, two workers
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    proc = run_cli("solve", "--jobs", "2", str(path))
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout.splitlines()
    assert len(out) == len(lines)
    for number, (line, answer) in enumerate(zip(lines, out, strict=True), start=1):
        if number in bad:
            assert answer == "error"
            assert f"line {number}, puzzle {number}:" in proc.stderr
        else:
            assert_solves(Puzzle.from_string(line), Puzzle.from_string(answer))
    assert f"solved {len(lines) - len(bad):,} of {len(lines):,} puzzles ({len(bad)} error)" in proc.stderr
    assert "Traceback" not in proc.stderr and "\r" not in proc.stderr  # no progress line off a terminal


@pytest.mark.data
def test_spaced_layout_in_and_out_through_workers(tmp_path: Path) -> None:
    puzzles = [Puzzle.from_string(p) for p in _puzzles(1200)]
    blocks = [format_puzzle(p, "spaced") for p in puzzles]
    blocks[7] = blocks[7].replace("0", "x", 1)
    path = tmp_path / "in.txt"
    path.write_text("\n\n".join(blocks) + "\n")
    proc = run_cli("solve", "-j", "2", "--unique", str(path))
    assert proc.returncode == 1, proc.stderr
    answers = proc.stdout.split("\n\n")
    assert len(answers) == len(puzzles) and answers[7] == "error"
    assert "line 71, puzzle 8:" in proc.stderr  # 8th block starts on line 7 * 10 + 1
    for k, (puzzle, answer) in enumerate(zip(puzzles, answers, strict=True)):
        if k != 7:
            assert_solves(puzzle, Puzzle.from_string(answer))


@pytest.mark.data
def test_jsonl_output_from_many_chunks_keeps_indices(tmp_path: Path) -> None:
    lines, bad = _with_bad_lines(_puzzles(900))
    path = tmp_path / "in.txt"
    path.write_text("# a comment line first\n" + "\n".join(lines) + "\n")
    proc = run_cli("solve", "-j", "2", "-q", "--output-format", "jsonl", str(path))
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["index"] for r in records] == list(range(1, len(lines) + 1))
    assert [k for k, r in enumerate(records, start=1) if r["status"] == "error"] == sorted(bad)
    assert proc.stderr.count("sudoku-cp:") == len(bad)  # one message per bad line, no summary with -q


def test_time_limit_gives_unknown_and_the_rest_is_solved() -> None:
    hard = shared("forum_hardest_1106.txt", limit=1)[0].to_string()
    proc = run_cli(
        "solve", "--time-limit", "1e-9", "--output-format", "jsonl", stdin=f"{EASY}\n{hard}\n{EASY}\n"
    )
    assert proc.returncode == 1, proc.stderr
    assert [json.loads(line)["status"] for line in proc.stdout.splitlines()] == [
        "solved",
        "unknown",
        "solved",
    ]
    assert "1 unknown" in proc.stderr


@pytest.mark.data
@pytest.mark.parametrize("backend", [b for b in backend_names() if b != "dfs"])
def test_unique_with_other_backends_through_workers(backend: str, tmp_path: Path) -> None:
    if missing := missing_packages(backend):
        pytest.skip(f"backend {backend} needs {', '.join(missing)}")
    multi = [p.to_string() for p in shared("serg_multi_solution.txt", limit=3)]
    lines = _puzzles(40) + multi + [NO_SOLUTION]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    proc = run_cli("solve", "--backend", backend, "--unique", "-j", "2", "--output-format", "csv", str(path))
    assert proc.returncode == 1, proc.stderr
    statuses = [row.rsplit(",", 1)[1] for row in proc.stdout.splitlines()[1:]]
    assert statuses == ["solved"] * 40 + ["multiple"] * 3 + ["no_solution"]


def _start(args: list[str], unbuffered: bool = False, **kwargs: object) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONIOENCODING"] = "utf-8"
    if unbuffered:  # standard output is then a raw file, whose writes a signal can cut short
        env["PYTHONUNBUFFERED"] = "1"
    return subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", "solve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def big_input(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Enough work for tens of seconds: 17-clue puzzles with uniqueness proofs, 300,000 lines."""
    puzzles = _puzzles(3000)
    path = tmp_path_factory.mktemp("big") / "big.txt"
    path.write_text("\n".join(puzzles * 100) + "\n")
    return path, puzzles


def _check_prefix(text: str, puzzles: list[str], total: int) -> int:
    """The output is whole records, each the solution of its input line, fewer than the input's."""
    assert text.endswith("\n")
    answers = text.splitlines()
    assert 0 < len(answers) < total
    for k, answer in enumerate(answers):
        assert_solves(Puzzle.from_string(puzzles[k % len(puzzles)]), Puzzle.from_string(answer))
    return len(answers)


@pytest.mark.data
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_sigint_leaves_a_valid_prefix_and_exit_status_130(
    big_input: tuple[Path, list[str]], unbuffered: bool
) -> None:
    path, puzzles = big_input
    proc = _start(["--unique", "-j", "2", str(path)], unbuffered)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # results are flowing
    proc.send_signal(signal.SIGINT)
    rest = proc.stdout.read()  # not communicate(): it would skip what readline has buffered
    assert proc.stderr is not None
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert proc.returncode == 130, err
    done = _check_prefix(first.decode() + rest.decode(), puzzles, 300_000)
    summary = err.decode().strip().splitlines()[-1]
    assert summary.startswith(f"solved {done:,} of {done:,} puzzles") and summary.endswith(
        "interrupted by SIGINT"
    )


@pytest.mark.data
def test_sigterm_with_output_file_keeps_a_partial_file_only(
    big_input: tuple[Path, list[str]], tmp_path: Path
) -> None:
    path, puzzles = big_input
    target = tmp_path / "out.txt"
    proc = _start(["--unique", "-j", "2", "-o", str(target), str(path)])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until the temporary output has some results
        temps = [p for p in tmp_path.iterdir() if p.name.startswith(".out.txt.")]
        if temps and temps[0].stat().st_size > 10_000:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert not target.exists()  # never a half-written file under the final name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt.partial"]
    _check_prefix((tmp_path / "out.txt.partial").read_text(), puzzles, 300_000)
    assert "out.txt.partial" in err.decode() and "interrupted by SIGTERM" in err.decode()


def test_output_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    from sudoku_cp.cli import main

    source = tmp_path / "in.txt"
    source.write_text(EASY + "\n")
    out = tmp_path / "out.txt"
    assert main(["solve", "-q", "-o", str(out), str(source)]) == 0
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # not the private mode of a temporary file


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


@pytest.mark.data
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="finds the workers through /proc")
def test_a_killed_worker_stops_the_batch_with_a_message_not_a_traceback(
    big_input: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, puzzles = big_input
    monkeypatch.setenv("SUDOKU_CP_START_METHOD", "spawn")  # workers are then children of the command
    proc = _start(["--unique", "-j", "2", str(path)])
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()  # results are flowing
    deadline = time.monotonic() + 60
    while len(workers := _workers(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) == 2
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    rest = proc.stdout.read()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert proc.returncode == 3, err  # a fault, not "some puzzle unsolved"
    assert "Traceback" not in err
    assert "sudoku-cp: error: a worker process died (exit code -9); the batch stopped" in err
    done = _check_prefix(first.decode() + rest.decode(), puzzles, 300_000)
    assert err.strip().splitlines()[-1].startswith(f"solved {done:,} of {done:,} puzzles")
