"""Per-puzzle statistics: every backend, in one process and through the compiled batch path, reports the
same common fields (``COMMON_STATS``: time, decisions, conflicts) beside its own."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from sudoku_cp import Puzzle
from sudoku_cp.backends import make_backend
from sudoku_cp.result import COMMON_STATS
from sudoku_cp.rules import Rules

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("backend", ["dfs", "dfs:python", "sat", "cpsat", "cpsat:bool"])
def test_every_backend_reports_the_common_statistics(backend: str) -> None:
    found = make_backend(backend).enumerate(Puzzle.from_string(HARD), limit=2)
    assert set(COMMON_STATS) <= set(found.stats)
    assert found.stats["time"] > 0 and found.stats["decisions"] >= 0 and found.stats["conflicts"] >= 0


def test_the_general_dfs_path_reports_them_too() -> None:
    found = make_backend("dfs").enumerate(Puzzle.empty(Rules.classic(2, 2).with_named("x")), limit=5)
    assert set(COMMON_STATS) <= set(found.stats) and found.stats["time"] > 0


@pytest.mark.parametrize("backend", ["dfs", "sat", "cpsat"])
def test_jsonl_records_carry_them_for_every_backend_in_a_batch(backend: str) -> None:
    proc = run_cli(
        "solve", "--unique", "-j", "1", "-q", "--backend", backend, "--output-format", "jsonl", HARD, HARD
    )
    assert proc.returncode == 0, proc.stderr
    for line in proc.stdout.splitlines():
        stats = json.loads(line)["stats"]
        assert set(COMMON_STATS) <= set(stats), (backend, stats)
        assert isinstance(stats["time"], float) and 0 < stats["time"] < 60
        # CP-SAT's presolve may need no branch, nor the propagation that sat runs first once its kernels
        # are loaded (``forced``: no solver was called)
        assert stats["decisions"] > 0 or backend == "cpsat" or stats.get("forced"), stats
