"""``benchmarks/bench_published.py``'s child runs: OpenBLAS kept to one thread (its busy threads' CPU is not
the search's), and a run's warm-up and count with a published solution and without one."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_published.py"


@pytest.fixture(scope="module")
def bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_published", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_published"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules["bench_published"]


def test_a_child_keeps_openblas_to_one_thread_unless_told(bench, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert bench.child_env()["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    assert bench.child_env()["OPENBLAS_NUM_THREADS"] == "4"


@pytest.mark.parametrize(
    ("puzzle", "solution", "count"),
    [
        ("12....3.........", None, "0"),  # no solution: its rules warm up on their empty grid
        ("12.....1.1.....4", "1243342141322314", "1"),
    ],
)
def test_a_child_run_counts_with_or_without_a_published_solution(  # type: ignore[no-untyped-def]
    bench, tmp_path, puzzle, solution, count
) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text(puzzle + "\n")
    run = bench.run_backend("dfs", path, solution, timeout=60.0, repeat=2)
    assert (run.error, run.killed, run.count, run.problems) == (None, False, count, [])
    assert run.seconds is not None and run.seconds < 5.0
