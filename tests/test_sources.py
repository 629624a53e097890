"""Batch inputs named by glob patterns and fsspec URLs, read as the files they name."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

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
