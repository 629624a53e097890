"""Records per second of sudoku_cp.formats: reading and writing large files in the line and spaced layouts.

The inputs are made in a temporary folder from ``../shared/data/17_clue.txt`` repeated (or, where the shared
data is missing, from generated puzzles):

    python benchmarks/bench_formats.py            # 1,000,000 puzzles per layout
    python benchmarks/bench_formats.py --quick    # 100,000
    python benchmarks/bench_formats.py --count 250000
    python benchmarks/bench_formats.py --quick --before /tmp/old   # f-puzzles read by an older checkout too

Each row is one pass over a file: reading through ``open_records`` (with and without the check that no
digit is given twice), or writing solved results through ``ResultWriter``. The last rows read one f-puzzles
object of 2 MB written over many lines (``indent=2``, many cosmetic ``text`` entries), in a fresh process
each: how fast a string grows depends on the state of the heap, and a fresh process is what a user runs.
``--before DIR`` times the same with the ``sudoku_cp`` package of DIR (a checkout of an older version), in
turn with this one, so that both figures come from one run on the same machine.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from sudoku_cp import datasets
from sudoku_cp.formats import ResultWriter, open_records, write_puzzles
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.result import SolveResult, Status


def source_puzzles() -> list[Puzzle]:
    """The 17-clue collection, or 1,000 generated puzzles where the shared data is missing."""
    if datasets.data_path("17_clue.txt") is not None:
        return datasets.load("17_clue.txt")
    rng = random.Random(0)
    rules = Rules.classic(3, 3)
    return [
        Puzzle(
            rules,
            tuple(
                ((3 * (r % 3) + r // 3 + c) % 9 + 1) * (rng.random() < 0.25)
                for r in range(9)
                for c in range(9)
            ),
        )
        for _ in range(1000)
    ]


def repeated(puzzles: list[Puzzle], count: int) -> Iterator[Puzzle]:
    return itertools.islice(itertools.cycle(puzzles), count)


def timed(label: str, count: int, run) -> None:
    """One row: wall time, and CPU time of this process (the fairer figure on a shared machine)."""
    start, cpu = time.perf_counter(), time.process_time()
    done = run()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert done == count, (label, done, count)
    rates = f"{count / seconds:>12,.0f} | {count / cpu:>12,.0f}"
    print(f"| {label:<34} | {count:>10,} | {seconds:8.2f} | {rates} |", flush=True)


def read_all(path: Path, validate: bool) -> int:
    count = 0
    for record in open_records(path, validate=validate):
        if record.error is not None:
            raise SystemExit(f"unexpected bad record: {record.error}")
        count += 1
    return count


def write_all(layout: str, puzzles: list[Puzzle], count: int) -> int:
    """Write ``count`` solved results (the puzzles stand in for their solutions) to an in-memory sink."""
    results = [SolveResult(p, Status.SOLVED, (p,)) for p in puzzles[:1000]]
    sink = io.StringIO()
    writer = ResultWriter(sink, layout)
    for i, result in enumerate(itertools.islice(itertools.cycle(results), count), start=1):
        writer.write(i, result)
        if i % 10_000 == 0:
            sink.seek(0)
            sink.truncate()
    writer.close()
    return count


def indented_fpuzzles(path: Path, size: int) -> None:
    """One f-puzzles object of at least ``size`` characters over many lines, its bulk cosmetic text."""
    grid: list[list[dict]] = [[{} for _ in range(9)] for _ in range(9)]
    grid[0][0] = {"value": 5, "given": True}
    note = {"cells": ["R1C1"], "value": "a note", "fontC": "#000000", "size": 1}
    count = size // 120 + 1  # an indented note takes about 120 characters
    path.write_text(json.dumps({"size": 9, "grid": grid, "text": [note] * count}, indent=2) + "\n")


def timed_process(label: str, path: Path, code: Path | None) -> None:
    """One row: reading ``path`` in a fresh process (with the package in ``code``, or this one; run
    beside ``path``, so that the current folder puts no other package first)."""
    read = (
        "import sys\nfrom sudoku_cp.formats import open_records\n"
        "assert all(r.ok for r in open_records(sys.argv[1]))"
    )
    env = None if code is None else {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", read, str(path)], check=True, env=env, cwd=path.parent)
    seconds = time.perf_counter() - start
    print(f"| {label:<34} | {1:>10,} | {seconds:8.2f} | {1 / seconds:>12,.2f} | {'':>12} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000, help="puzzles per layout (default 1,000,000)")
    parser.add_argument("--quick", action="store_true", help="100,000 puzzles per layout")
    parser.add_argument("--before", type=Path, metavar="DIR", help="also read f-puzzles with DIR's sudoku_cp")
    args = parser.parse_args()
    count = 100_000 if args.quick else args.count
    puzzles = source_puzzles()
    print(f"| {'pass':<34} | {'records':>10} | {'seconds':>8} | {'records/s':>12} | {'per CPU s':>12} |")
    print(f"|{'-' * 36}|{'-' * 12}|{'-' * 10}|{'-' * 14}|{'-' * 14}|")
    with tempfile.TemporaryDirectory() as tmp:
        for layout in ("line", "spaced"):
            path = Path(tmp) / f"puzzles.{layout}"
            with path.open("w", encoding="utf-8") as f:
                write_puzzles(f, repeated(puzzles, count), layout)
            timed(f"read {layout}", count, lambda path=path: read_all(path, True))
            timed(f"read {layout}, no duplicate check", count, lambda path=path: read_all(path, False))
            path.unlink()
        for layout in ("line", "spaced", "csv", "jsonl"):
            timed(f"write {layout}", count, lambda layout=layout: write_all(layout, puzzles, count))
        path = Path(tmp) / "indented.json"
        indented_fpuzzles(path, 2_000_000)
        megabytes = path.stat().st_size / 1e6
        timed_process(f"read fpuzzles, {megabytes:.1f} MB indented", path, None)
        if args.before is not None:
            timed_process(f"  the same, {args.before}", path, args.before)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:,.0f} MB")


if __name__ == "__main__":
    main()
