"""Benchmark of ``--cluster`` against ``--jobs``: the same batch on local processes and on Dask workers.

Starts a ``dask scheduler`` and W ``dask worker`` processes (one thread each) on this machine, as a user
would, then times whole ``sudoku-cp solve --unique`` runs on N lines of 17_clue (repeated to N; generated
puzzles where the shared data is missing): ``--jobs W`` and ``--cluster tcp://...``, each checked to write
the same bytes, with the peak memory of the ``sudoku-cp`` process (the client, flat whatever N). A second
table measures the scheduler's overhead: tasks per second that do no work, through the same
``ClusterPool`` the batch engine uses.

    python benchmarks/bench_cluster.py                     # 1e6 lines, 2 workers
    python benchmarks/bench_cluster.py --lines 100000 --workers 1 2
"""

from __future__ import annotations

import argparse
import filecmp
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudoku_cp import datasets, generate


def write_input(path: Path, lines: int) -> str:
    """N puzzle lines: 17_clue repeated, or generated puzzles where it is missing."""
    source = datasets.data_path("17_clue.txt")
    if source is not None:
        base = [line for line in source.read_text().splitlines() if line and not line.startswith("#")]
        name = "17_clue"
    else:
        base = [g.puzzle.to_string() for g in generate(1000, seed="bench-cluster", rate=False)]
        name = "generated"
    with path.open("w") as f:
        for i in range(lines):
            f.write(base[i % len(base)] + "\n")
    return name


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dask(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("dask")), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def timed_solve(args: list[str], src: Path, out: Path) -> tuple[float, float]:
    """Seconds and the peak memory (MiB) of one whole ``sudoku-cp solve`` process (the client)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", "solve", "--unique", "-q", *args, "-o", str(out), str(src)]
    )
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped by wait4
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def overhead(address: str, tasks: int) -> float:
    """Tasks per second through ClusterPool when a task does nothing."""
    import distributed

    from sudoku_cp.batch.cluster import ClusterPool

    with distributed.Client(address, set_as_default=False) as client, ClusterPool(client, abs) as pool:
        list(pool.map(range(200)))  # warm up
        start = time.perf_counter()
        list(pool.map(range(tasks)))
        return tasks / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", type=int, default=1_000_000, help="puzzle lines (default 1e6)")
    parser.add_argument("--workers", type=int, nargs="+", default=[2], help="worker counts (default 2)")
    parser.add_argument("--backend", default="dfs", help="backend (default dfs)")
    parser.add_argument("--tasks", type=int, default=5000, help="empty tasks for the overhead row")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.txt"
        name = write_input(src, args.lines)
        print(f"{args.lines:,} lines of {name}, backend {args.backend}, --unique, {os.cpu_count()} CPUs")
        print(
            "| workers | --jobs s | --cluster s | jobs puzzles/s | cluster puzzles/s | cluster/jobs "
            "| jobs MiB | cluster MiB | same |"
        )
        print("|--:|--:|--:|--:|--:|--:|--:|--:|---|")
        rates = []
        for w in args.workers:
            port = free_port()
            address = f"tcp://127.0.0.1:{port}"
            scheduler = dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
            workers = [dask("worker", address, "--nthreads", "1", "--no-dashboard") for _ in range(w)]
            try:
                time.sleep(3)  # the scheduler and workers start
                local_out, cluster_out = Path(tmp) / "jobs.txt", Path(tmp) / "cluster.txt"
                jobs, jobs_mib = timed_solve(["--jobs", str(w), "--backend", args.backend], src, local_out)
                cluster, cluster_mib = timed_solve(
                    ["--cluster", address, "--backend", args.backend], src, cluster_out
                )
                same = filecmp.cmp(local_out, cluster_out, shallow=False)
                rate_jobs, rate_cluster = args.lines / jobs, args.lines / cluster
                print(
                    f"| {w} | {jobs:.1f} | {cluster:.1f} | {rate_jobs:,.0f} | {rate_cluster:,.0f} "
                    f"| {jobs / cluster:.0%} | {jobs_mib:.0f} | {cluster_mib:.0f} "
                    f"| {'yes' if same else 'NO'} |"
                )
                rates.append((w, overhead(address, args.tasks)))
            finally:
                for proc in (scheduler, *workers):
                    proc.terminate()
                for proc in (scheduler, *workers):
                    proc.wait()
        print()
        print("| workers | empty tasks/s through the scheduler |")
        print("|--:|--:|")
        for w, rate in rates:
            print(f"| {w} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
