"""The public collections are found where SUDOKU_CP_DATA points, and their absence is said, not hidden."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_cp import datasets


def test_sudoku_cp_data_points_at_the_collections(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "17_clue.txt").write_text("# a comment\n" + "1234341221434321\n" * 3)
    monkeypatch.setenv("SUDOKU_CP_DATA", str(tmp_path))
    assert datasets.data_dir() == tmp_path
    assert [p.to_string() for p in datasets.load("17_clue.txt", limit=2)] == ["1234341221434321"] * 2


def test_a_missing_folder_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_CP_DATA", str(tmp_path / "nowhere"))
    assert datasets.data_dir() is None and datasets.data_path("17_clue.txt") is None
    with pytest.raises(FileNotFoundError, match="SUDOKU_CP_DATA"):
        datasets.load("17_clue.txt")
