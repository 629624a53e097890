"""The batch targets, through the real ``sudoku-cp solve`` command, reading and writing included.

Makes its inputs in a temporary folder and prints one table row per case:

- ``empty``: 1,000,000 empty 9x9 grids in the spaced layout (target: under 15 s on a 2-core machine);
- ``complete``: 1,000,000 complete grids in the spaced layout (target: under 10 s);
- ``17clue``: 1,000,000 lines made by repeating ``../shared/data/17_clue.txt``, with ``--unique``
  (target: at least 50,000 puzzles/s per core, and peak memory under 300 MB);
- ``hardest``: ``../shared/data/forum_hardest_11plus.txt`` with ``--unique`` (at least 2,000/s per core).

    python benchmarks/bench_batch.py                   # every case, 1,000,000 puzzles
    python benchmarks/bench_batch.py --quick           # 100,000 puzzles
    python benchmarks/bench_batch.py --size 250000 --cases empty complete --jobs 2

Columns: wall seconds of the whole command (start-up included); puzzles per second, and the same per job
(worker process), which is what the per-core targets mean; CPU seconds of the command and its workers
and puzzles per CPU second (the fairer per-core figure on a machine shared with other work); peak memory,
the largest sum over the command and its workers of their proportional set sizes (shared pages split
among the processes sharing them), and the largest resident size of one process, both sampled every
20 ms from /proc; ``kernel/s``, the compiled search alone on one core (``solve_array`` on a sample of
20,000, no I/O), to tell the search's cost from the pipeline's. Cases that need the shared data are
skipped where it is missing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sudoku_cp import datasets
from sudoku_cp.grid import Rules


@dataclass
class Case:
    name: str
    args: list[str]
    target: str
    check: object  # (wall, rate per job, peak MB) -> bool


def spaced(grids: np.ndarray) -> bytes:
    """9x9 grids (m, 81) of digits in the spaced layout, puzzles separated by an empty line."""
    m = len(grids)
    out = np.full((m, 163), ord(" "), np.uint8)
    rows = out[:, :162].reshape(m, 9, 18)
    rows[:, :, 0:18:2] = grids.reshape(m, 9, 9) + ord("0")
    rows[:, :, 17] = ord("\n")
    out[:, 162] = ord("\n")
    return out.tobytes()[:-1]


def complete_grids(count: int, seed: int = 0) -> np.ndarray:
    """Distinct valid complete grids: a pattern grid under random digit, row, band and transposition
    changes."""
    rng = np.random.default_rng(seed)
    base = np.array([[(3 * (r % 3) + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)], np.uint8)
    digits = np.argsort(rng.random((count, 9)), axis=1).astype(np.uint8) + 1
    digits = np.concatenate([np.zeros((count, 1), np.uint8), digits], axis=1)
    bands = np.argsort(rng.random((count, 3)), axis=1)
    inner = np.argsort(rng.random((count, 3, 3)), axis=2)
    rows = (3 * bands[:, :, None] + inner).reshape(count, 9)
    grids = base[rows]  # (count, 9, 9)
    flip = rng.random(count) < 0.5
    grids[flip] = grids[flip].transpose(0, 2, 1)
    grids = np.take_along_axis(digits, grids.reshape(count, 81).astype(np.int64), axis=1)
    return grids.astype(np.uint8)


def lines_of(name: str, count: int | None) -> bytes | None:
    """``count`` lines made by repeating a shared collection (all of it once when None); None if missing."""
    path = datasets.data_path(name)
    if path is None:
        return None
    lines = [
        line.strip() + b"\n" for line in path.read_bytes().splitlines() if line.strip() and line[:1] != b"#"
    ]
    if count is None:
        return b"".join(lines)
    reps = -(-count // len(lines))
    return b"".join((lines * reps)[:count])


def command() -> list[str]:
    """The installed ``sudoku-cp`` script, or ``python -m sudoku_cp`` where it is not on the PATH."""
    script = shutil.which("sudoku-cp")
    return [script] if script else [sys.executable, "-m", "sudoku_cp"]


def _tree(root: int) -> list[int]:
    """``root`` and all its descendants, from /proc (empty where /proc is missing)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _sample(pid: int) -> tuple[int, int, float] | None:
    """One process's proportional set size and resident size (bytes) and its CPU seconds so far.

    The proportional set size splits pages shared between processes (such as the compiled kernel the
    workers inherit from the fork server) among them, so the sum over processes is the memory the whole
    command holds; a sum of resident sizes would count shared pages once per process.
    """
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            sizes = {
                k: int(v.split()[0]) * 1024 for k, v in (line.split(":", 1) for line in f if ":" in line)
            }
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, ValueError):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return sizes.get("Pss", 0), sizes.get("Rss", 0), (int(fields[11]) + int(fields[12])) / ticks


def run(args: list[str]) -> tuple[float, float, int, int, str]:
    """Wall seconds, CPU seconds of the process tree, its peak memory (sum of PSS), the largest resident
    size of one process (bytes), and the command's summary line."""
    start = time.perf_counter()
    proc = subprocess.Popen([*command(), "solve", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = largest = 0
    cpu: dict[int, float] = {}
    while proc.poll() is None:
        samples = {pid: s for pid in _tree(proc.pid) if (s := _sample(pid)) is not None}
        peak = max(peak, sum(s[0] for s in samples.values()))
        largest = max([largest, *(s[1] for s in samples.values())])
        cpu.update((pid, s[2]) for pid, s in samples.items())
        time.sleep(0.02)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode not in (0, 1):
        raise SystemExit(f"sudoku-cp solve {' '.join(args)} failed ({proc.returncode}):\n{err}")
    return wall, sum(cpu.values()), peak, largest, err.strip().splitlines()[-1] if err.strip() else ""


def kernel_rate(data: bytes, layout: str, unique: bool, sample: int = 20000) -> float | None:
    """Puzzles per second of the compiled search alone, one core, on the first ``sample`` puzzles."""
    try:
        from sudoku_cp.backends import dfs_compiled
    except ImportError:
        return None
    from sudoku_cp.batch.rawio import parse_chunk

    size = 82 if layout == "line" else 163
    parsed = parse_chunk(data[: sample * size], layout, None)
    grids = parsed.grids[0]
    rules = Rules.classic(3, 3)
    dfs_compiled.solve_array(grids[:10], rules, 2 if unique else 1)  # load the compiled code first
    start = time.perf_counter()
    dfs_compiled.solve_array(grids, rules, 2 if unique else 1)
    return len(grids) / (time.perf_counter() - start)


CASES = ("empty", "complete", "17clue", "hardest")
COLUMNS = (
    "case", "puzzles", "jobs", "wall s", "puzzles/s", "per job", "CPU s", "per CPU s", "peak MB",
    "largest MB", "kernel/s", "target", "met",
)  # fmt: skip


def make_case(name: str, size: int) -> tuple[bytes | None, str, bool, str, object]:
    """The input, its layout, whether uniqueness is asked, the target in words and its test."""
    scale = size / 1_000_000
    if name == "empty":
        return (
            spaced(np.zeros((size, 81), np.uint8)),
            "spaced",
            False,
            f"< {15 * scale:g} s",
            (lambda wall, per_job, mb: wall < 15 * scale),
        )
    if name == "complete":
        return (
            spaced(complete_grids(size)),
            "spaced",
            False,
            f"< {10 * scale:g} s",
            (lambda wall, per_job, mb: wall < 10 * scale),
        )
    if name == "17clue":
        return (
            lines_of("17_clue.txt", size),
            "line",
            True,
            ">= 50,000/s per core, < 300 MB",
            (lambda wall, per_job, mb: per_job >= 50_000 and mb < 300),
        )
    if name == "hardest":
        data = lines_of("forum_hardest_11plus.txt", None if size >= 48_766 else size)
        return data, "line", True, ">= 2,000/s per core", lambda wall, per_job, mb: per_job >= 2_000
    raise SystemExit(f"unknown case {name!r}; valid: {', '.join(CASES)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=1_000_000, help="puzzles per generated case")
    parser.add_argument("--quick", action="store_true", help="100,000 puzzles per case")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: every CPU)")
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES, help="cases to run")
    parser.add_argument("--no-kernel", action="store_true", help="skip the kernel-only column")
    opts = parser.parse_args()
    size = 100_000 if opts.quick else opts.size
    jobs = opts.jobs or len(os.sched_getaffinity(0))
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_batch_") as tmp:
        folder = Path(tmp)
        for name in opts.cases:
            data, layout, unique, target, ok = make_case(name, size)
            if data is None:
                print(f"{name}: skipped, {datasets.MISSING_MESSAGE}", file=sys.stderr)
                continue
            path = folder / f"{name}.txt"
            path.write_bytes(data)
            count = (
                data.count(b"\n") + (not data.endswith(b"\n"))
                if layout == "line"
                else data.count(b"\n\n") + 1
            )
            kernel = None if opts.no_kernel else kernel_rate(data, layout, unique)
            args = [str(path), "-o", str(folder / "out.txt"), "--jobs", str(jobs), *(["--unique"] * unique)]
            wall, cpu, peak, largest, summary = run(args)
            rate, mb = count / wall, peak / 2**20
            rows.append((
                name, f"{count:,}", jobs, f"{wall:.2f}", f"{rate:,.0f}", f"{rate / jobs:,.0f}", f"{cpu:.1f}",
                f"{count / cpu:,.0f}" if cpu else "-", f"{mb:.0f}", f"{largest / 2**20:.0f}",
                f"{kernel:,.0f}" if kernel else "-", target, "yes" if ok(wall, rate / jobs, mb) else "NO",  # type: ignore[operator]
            ))  # fmt: skip
            print(f"{name}: {summary}", file=sys.stderr)
            (folder / "out.txt").unlink(missing_ok=True)
            path.unlink()
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "|".join("---" for _ in COLUMNS) + "|")
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")


if __name__ == "__main__":
    main()
