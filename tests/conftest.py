"""Shared fixtures: the public collections in ../shared/data (skipped with a message where missing)."""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp import datasets
from sudoku_cp.grid import Puzzle
from sudoku_cp.verify import solution_problems


def shared(name: str, **kwargs) -> list[Puzzle]:
    """Load a shared collection, or skip the test saying why."""
    if datasets.data_path(name) is None:
        pytest.skip(f"{name}: {datasets.MISSING_MESSAGE}")
    return datasets.load(name, **kwargs)


def assert_solves(puzzle: Puzzle, solution: Puzzle | None) -> None:
    """Fail with the verifier's reasons unless ``solution`` solves ``puzzle``."""
    assert solution is not None, f"no solution for {puzzle}"
    assert not (problems := solution_problems(puzzle, solution)), f"{puzzle}: {problems}"


#: Larger samples of the data-set tests: SUDOKU_CP_FULL_TESTS=1 (the default sizes keep the suite short).
FULL = bool(os.environ.get("SUDOKU_CP_FULL_TESTS"))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the package's modules to bytecode once: where PYTHONDONTWRITEBYTECODE is set (as on the CI
    machine) every ``sudoku-cp`` subprocess of the tests would otherwise compile them again (0.1 s each)."""
    compileall.compile_dir(Path(sudoku_cp.__file__).parent, quiet=2)


def run_cli(
    *args: str, stdin: str | bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    """Run ``python -m sudoku_cp`` as a user would, capturing its output."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", *args],
        input=data,
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


@pytest.fixture
def classic_grid_text() -> str:
    """The classic exercise input: a 9x9 grid of 9 lines with ? for blanks."""
    return (
        "5????7??6\n?6????5?4\n?834?????\n???182?4?\n??1???9??\n?7?369???\n?????543?\n1?5????9?\n7??2????1\n"
    )


@pytest.fixture
def classic_grid_solution() -> str:
    return (
        "514927386\n967831524\n283456179\n659182743\n321574968\n478369215\n892615437\n135748692\n746293851\n"
    )


@pytest.fixture
def solvers_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the python-sat solvers the sat backend builds (``sat.new_solver``), in order."""
    from sudoku_cp.backends import sat

    built: list[str] = []
    original = sat.new_solver
    monkeypatch.setattr(
        sat, "new_solver", lambda name, clauses, **kw: built.append(name) or original(name, clauses, **kw)
    )
    return built
