"""Batch inputs named by glob patterns and fsspec URLs, read as the files they name."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp.batch.stream import SMALL_INPUT_BYTES, small_input
from sudoku_cp.formats.sources import Inline, known_size

PUZZLES = ["1234341221434321", "12343412214343..", ".2.4..1221..4.2.", "4321214334121234"]


def parts(tmp_path: Path) -> Path:
    folder = tmp_path / "parts"
    folder.mkdir()
    for i, puzzle in enumerate(PUZZLES):
        (folder / f"{i}.txt").write_text(puzzle + "\n")
    return folder


def test_a_quoted_glob_pattern_reads_the_files_it_matches_in_order(tmp_path: Path) -> None:
    folder = parts(tmp_path)
    whole = run_cli("solve", *(str(folder / f"{i}.txt") for i in range(len(PUZZLES))))
    pattern = run_cli("solve", str(folder / "*.txt"))
    assert whole.returncode == pattern.returncode == 0, pattern.stderr
    assert pattern.stdout == whole.stdout and whole.stdout.count("\n") == len(PUZZLES)


def test_a_pattern_that_matches_nothing_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli("solve", str(tmp_path / "none*.txt"))
    assert proc.returncode == 2 and "no input matches" in proc.stderr


def test_urls_are_read_through_fsspec(tmp_path: Path) -> None:
    pytest.importorskip("fsspec", reason="URLs need fsspec (the dask extra)")
    folder = parts(tmp_path)
    whole = run_cli("solve", str(folder / "*.txt"))
    url = run_cli("solve", f"file://{folder}/*.txt")
    single = run_cli("solve", f"file://{folder}/0.txt")
    assert url.returncode == single.returncode == 0, url.stderr
    assert url.stdout == whole.stdout
    assert single.stdout == whole.stdout.splitlines(keepends=True)[0]


@pytest.mark.parametrize("command", ["count", "rate", "steps"])
def test_the_per_puzzle_commands_read_urls_too(tmp_path: Path, command: str) -> None:
    """The README says inputs may be fsspec URLs; count, rate, steps and the other per-puzzle commands
    opened them as local paths ('cannot read file:///...: No such file or directory')."""
    pytest.importorskip("fsspec", reason="URLs need fsspec (the dask extra)")
    folder = parts(tmp_path)
    local = run_cli(command, str(folder / "*.txt"))
    url = run_cli(command, f"file://{folder}/*.txt")
    single = run_cli(command, f"file://{folder}/0.txt")
    assert url.returncode == local.returncode and single.returncode == 0, url.stderr
    assert url.stdout == local.stdout and single.stdout and local.stdout.startswith(single.stdout)
    missing = run_cli(command, f"file://{folder}/none.txt")
    assert missing.returncode == 2 and f"cannot read file://{folder}/none.txt" in missing.stderr


@pytest.mark.parametrize(
    ("url", "package", "extra"),
    [("https://example.invalid/p.txt", "aiohttp", "http"), ("s3://bucket/parts/*.txt", "s3fs", "s3")],
)
@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_url_whose_protocol_lacks_its_package_says_what_to_install(
    url: str, package: str, extra: str, command: str
) -> None:
    """fsspec's own words ('HTTPFileSystem requires "requests" and "aiohttp" to be installed') say what is
    missing, not how to get it (issue 33's audit): the message names the extra of fsspec that installs it."""
    pytest.importorskip("fsspec", reason="URLs need fsspec (the dask extra)")
    if importlib.util.find_spec(package) is not None:
        pytest.skip(f"{package} is installed: the URL would be read")
    proc = run_cli(command, url)
    assert proc.returncode == 2
    assert f"sudoku-cp: error: cannot read {url}: " in proc.stderr
    assert f"(pip install 'fsspec[{extra}]')" in proc.stderr


def test_known_size_counts_command_line_puzzles_and_regular_files_only(tmp_path: Path) -> None:
    """The size that decides whether an input is small (``solve``'s reference search and records path):
    known for puzzles on the command line and regular files, never for standard input, a pipe or a URL."""
    path = tmp_path / "one.txt"
    path.write_text(PUZZLES[0] + "\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    inline = Inline(PUZZLES[1] + "\n")
    assert known_size([inline, str(path)]) == 34
    assert known_size([]) is None and known_size(["-"]) is None and known_size([inline, "-"]) is None
    assert known_size([str(fifo)]) is None and known_size(["memory://x.txt"]) is None
    assert known_size([str(tmp_path / "missing.txt")]) is None
    assert small_input([Inline("." * 81 + "\n")] * 3) and not small_input([Inline("." * 81 + "\n")] * 4)


@pytest.mark.parametrize("output", ["line", "grid", "spaced"])
def test_a_small_file_is_answered_as_standard_input_is(tmp_path: Path, output: str) -> None:
    """A small file takes the records path, standard input (size unknown) the raw path: the same output
    and the same messages, bad lines, clashing givens, a puzzle of two solutions and a byte order mark
    inside the input included."""
    lines = ["12343412214343..", "# a comment", "1234", "11..............", ".2.4..1221..4.2.", "....  " * 3]
    lines.append("\ufeff \ufeff1234341221434321")  # byte order marks inside: files joined by cat
    path = tmp_path / "small.txt"
    path.write_text("\n".join(lines) + "\n")
    assert path.stat().st_size <= SMALL_INPUT_BYTES
    for backend in ("dfs", "sat"):
        args = ("solve", "--unique", "--backend", backend, "--output-format", output)
        small = run_cli(*args, str(path))
        stream = run_cli(*args, stdin=path.read_text())
        assert small.returncode == stream.returncode == 1
        assert small.stdout == stream.stdout and small.stdout.count("error") == 3
        messages = small.stderr.replace(f"{path}, ", "").splitlines()  # the last, the summary, has a rate
        streamed = stream.stderr.replace("<stdin>, ", "").splitlines()  # each input named where it is
        assert messages[:-1] == streamed[:-1] and len(messages) == 4
