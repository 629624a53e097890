"""The code base stays ruff-clean (the configuration, with each ignore explained, is in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> str:
    """The virtual environment's ruff (found beside its python even when not on PATH), else PATH's."""
    beside = Path(sys.executable).with_name("ruff")
    ruff = str(beside) if beside.exists() else shutil.which("ruff")
    if ruff is None:
        pytest.skip(f"ruff is in neither {beside.parent} nor PATH: pip install -e '.[test]'")
    return ruff


def test_ruff_check_passes() -> None:
    proc = subprocess.run(
        [_ruff(), "check", "sudoku_cp", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_leaves_the_code_as_it_is() -> None:
    proc = subprocess.run(
        [_ruff(), "format", "--check", "sudoku_cp", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
