"""Benchmark of certificates of uniqueness: prove and check rates per core, proof sizes, and a whole
collection proven and checked through the real commands with ``--jobs``.

One process for the per-core rates: ``write_folder`` (prove, with the files written) and ``check_dir``
(the standalone checker) on samples of 17_clue, top1465 and forum_hardest_11plus, process CPU time, after
one puzzle proven to load the prover's compiled kernels; every claim must come out ``unique`` and
verified. ``check_dir`` runs with each DRAT checker, the reference (``drat``, standard library only) and
its compiled twin (``drat_compiled``, loaded before any timing), twice each, alternating, and the faster
run of each counts. ``--whole`` also times ``sudoku-cp prove -j N`` and ``sudoku-cp check -j N`` on all
of 17_clue (about 49,000 puzzles). ``--killer N`` adds a row of N 9x9 killer puzzles as ``generate
--killer`` makes them (seed 1; the making is not timed): each has rules of its own, so its formula (the
cages' sums as graphs of partial sums) is built for it, by the prover and again by the checker.

    python benchmarks/bench_certificates.py --quick        # 200 puzzles a set, a minute
    python benchmarks/bench_certificates.py                # 1,000 a set
    python benchmarks/bench_certificates.py --whole        # and 17_clue whole with --jobs
    python benchmarks/bench_certificates.py --killer 200 --sets ""   # 200 killers alone
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudoku_cp import Puzzle, datasets
from sudoku_cp.certify import drat, drat_compiled
from sudoku_cp.certify.checker import check_dir
from sudoku_cp.certify.prover import write_folder

SETS = ("17_clue.txt", "top1465.txt", "forum_hardest_11plus.txt")
REFUTERS = {"reference": drat.check_refutation, "compiled": drat_compiled.check_refutation}
WARM_UP = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def measure(name: str, count: int, root: Path) -> list[str]:
    """A table row for one data set (``rates``)."""
    return rates(name, datasets.load(name, sample=count, seed=1), root)


def killers(count: int) -> list[Puzzle]:
    """``count`` 9x9 killer puzzles of ``generate --killer`` (seed 1)."""
    from sudoku_cp.generate import generate_killer

    return [made.puzzle for made in generate_killer(count, seed=1)]


def rates(name: str, puzzles: list[Puzzle], root: Path) -> list[str]:
    """A table row: prove/s, check/s with each DRAT checker, the share of claims settled by propagation
    alone (no formula nor proof), and of the others proof lines (median, max) and formula clauses."""
    folder = root / name
    start = time.process_time()
    certificates = write_folder(puzzles, folder)
    prove = time.process_time() - start
    claims = {c.claim for c in certificates}
    if claims != {"unique"}:
        raise SystemExit(f"{name}: claims {claims}")
    check = dict.fromkeys(REFUTERS, float("inf"))
    for _ in range(2):
        for checker, refute in REFUTERS.items():
            start = time.process_time()
            results = list(check_dir(folder, refute=refute))
            check[checker] = min(check[checker], time.process_time() - start)
            if failed := [m for _, m, ok in results if not ok]:
                raise SystemExit(f"{name} ({checker} DRAT checker): failed {failed[:3]}")
    proven = [c for c in certificates if c.cnf is not None]  # the others: settled by propagation
    lines = [len((c.proof or "").splitlines()) for c in proven] or [0]
    clauses = [len((c.cnf or "").splitlines()) - 1 for c in proven] or [0]
    return [
        name,
        f"{len(puzzles):,}",
        f"{len(puzzles) / prove:,.0f}",
        f"{len(puzzles) / check['reference']:,.0f}",
        f"{len(puzzles) / check['compiled']:,.0f}",
        f"{1 - len(proven) / len(puzzles):.0%}",
        f"{statistics.median(lines):,.0f}",
        f"{max(lines):,}",
        f"{statistics.median(clauses):,.0f}",
    ]


def whole(jobs: int, root: Path) -> None:
    """``sudoku-cp prove`` and ``check`` on all of 17_clue, wall time."""
    path = datasets.data_path("17_clue.txt")
    if path is None:
        print(f"17_clue: {datasets.MISSING_MESSAGE}")
        return
    folder = root / "whole"
    for command in (["prove", str(path), "-o", str(folder)], ["check", str(folder)]):
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", *command, "-j", str(jobs), "-q"],
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"{command[0]} failed ({proc.returncode}): {proc.stderr[-500:]}")
        count = sum(1 for _ in (folder / "claims.jsonl").open())
        rate = count / seconds
        print(f"{command[0]} 17_clue whole, -j {jobs}: {count:,} puzzles in {seconds:.1f} s, {rate:,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="200 puzzles a set")
    parser.add_argument("--count", type=int, default=1000, help="puzzles a set (default 1000)")
    parser.add_argument("--whole", action="store_true", help="also all of 17_clue through the commands")
    parser.add_argument("--jobs", type=int, default=2, help="for --whole (default 2)")
    parser.add_argument("--killer", type=int, default=0, metavar="N", help="a row of N generated killers")
    parser.add_argument(
        "--sets", default=",".join(SETS), help="the data sets, comma-separated (default: all three; '' none)"
    )
    args = parser.parse_args()
    count = 200 if args.quick else args.count
    root = Path(tempfile.mkdtemp(prefix="bench-certs-"))
    try:
        # the compiled kernels load once a process (about a third of a second each): not in the rates
        write_folder([Puzzle.from_string(WARM_UP)], root / "warm-up")
        drat_compiled.warm_up()
        print(
            "| data set | puzzles | prove /s | check /s (reference) | (compiled) | by propagation "
            "| proof lines (median) | (max) | clauses (median) |"
        )
        print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
        for name in filter(None, args.sets.split(",")):
            if datasets.data_path(name) is None:
                print(f"| {name} | {datasets.MISSING_MESSAGE} |")
                continue
            print("| " + " | ".join(measure(name, count, root)) + " |", flush=True)
        if args.killer:
            name = "generate --killer"
            print("| " + " | ".join(rates(name, killers(args.killer), root)) + " |", flush=True)
        if args.whole:
            whole(args.jobs, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
