"""Records per second of sudoku_cp.formats: reading and writing large files in the line and spaced layouts.

The inputs are made in a temporary folder from ``../shared/data/17_clue.txt`` repeated (or, where the shared
data is missing, from generated puzzles):

    python benchmarks/bench_formats.py            # 1,000,000 puzzles per layout
    python benchmarks/bench_formats.py --quick    # 100,000
    python benchmarks/bench_formats.py --count 250000

Each row is one pass over a file: reading through ``open_records`` (with and without the check that no
digit is given twice), or writing solved results through ``ResultWriter``.
"""

from __future__ import annotations

import argparse
import io
import itertools
import random
import resource
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000, help="puzzles per layout (default 1,000,000)")
    parser.add_argument("--quick", action="store_true", help="100,000 puzzles per layout")
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
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:,.0f} MB")


if __name__ == "__main__":
    main()
