"""Issue #17's comparison, side by side on this machine: the C++ solvers in tdoku's own harness, and ours.

For each set the same puzzles (17_clue and top1465 whole, a 10,000-puzzle sample of forum_hardest_11plus;
``--quick``: 2,000 of each) go, in one run, first to tdoku's ``run_benchmark`` (its wall-clock rate,
counting to two solutions, puzzles in file order, not permuted) for tdoku, JSolve, fsss and MiniSat with the
complete encoding, then to ours through the batch path (``batch.solver.Solver``, as ``sudoku-cp solve
--unique`` runs a chunk, its start-up paid first): the compiled ``dfs`` on each set's whole array per
call, and ``sat`` puzzle by puzzle; each repeated for ``--seconds``, wall clock. The table gives the
rates, and our rates against the targets: ``dfs`` at least a third of tdoku, ``sat`` at least 1.2 times
MiniSat (complete encoding). ``--rounds`` repeats the whole comparison (a shared machine's load moves
between runs: compare within a round).

tdoku's harness is not part of this project: build it once, with MiniSat as a shared library (linked
statically, tdoku's MiniSat solvers, global objects, may be built before MiniSat's global options are, and
then answer "no solution"; GCC 12 also needs the default argument of the friend ``mkLit`` in
``minisat/core/SolverTypes.h`` moved to its definition), and give its path::

    git clone https://github.com/niklasso/minisat && cd minisat && mkdir build && cd build
    cmake .. -DCMAKE_BUILD_TYPE=Release && make minisat-lib-shared
    # copy the libminisat.so files to PREFIX/lib and the minisat/ source folder to PREFIX/include
    git clone https://github.com/t-dillon/tdoku && cd tdoku && mkdir build && cd build
    CXXFLAGS="-IPREFIX/include" LDFLAGS="-LPREFIX/lib -Wl,-rpath,PREFIX/lib" \\
        cmake .. -DMINISAT=ON -DJSOLVE=ON -DFSSS=ON && make run_benchmark

    python benchmarks/bench_reference.py --tdoku path/to/run_benchmark          # 10 s a measurement
    python benchmarks/bench_reference.py --tdoku path/to/run_benchmark --quick  # 3 s, 2,000 puzzles
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudoku_cp import Puzzle, datasets
from sudoku_cp.backends.dfs_compiled import warm_up as warm_dfs
from sudoku_cp.batch.arrays import as_grids
from sudoku_cp.batch.solver import Solver, SolverConfig
from sudoku_cp.encode.propagated import warm_up as warm_propagation
from sudoku_cp.result import Status

SETS = {"17_clue": "17_clue.txt", "top1465": "top1465.txt", "11+": "forum_hardest_11plus.txt"}
CPP = ("tdoku", "jsolve", "fsss", "minisat_complete")


def cpp_rates(harness: str, path: Path, count: int, seconds: float) -> dict[str, float]:
    """Puzzles per second of each C++ solver in ``CPP`` on the file's puzzles, from tdoku's harness."""
    warm = max(1.0, seconds / 5)
    command = [harness, "-c", "1", "-r", "0", "-n", str(count), "-t", str(seconds), "-w", str(warm)]
    command += ["-s", ",".join(CPP), str(path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rates = {}
    for line in out.splitlines():
        fields = line.split(",")
        if len(fields) > 5 and fields[-5] in CPP:
            rates[fields[-5]] = float(fields[-4])
    return rates


def our_rate(backend: str, puzzles: list[Puzzle], seconds: float) -> float:
    """Puzzles per second, wall clock, of ``backend`` answering the chunk of ``puzzles`` with uniqueness
    (the compiled dfs takes it as one array, as the batch does; sat goes puzzle by puzzle)."""
    solver = Solver(SolverConfig(backend, unique=True))
    rules = puzzles[0].rules
    rows = [p.cells for p in puzzles]
    chunk = as_grids(rows, rules) if solver.compiled else rows
    solver.solve(chunk[:64], rules)  # the first call loads what it needs
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        answer = solver.solve(chunk, rules)
        done += len(rows)
    elapsed = time.perf_counter() - start
    if any(answer.result(i, p).status is not Status.SOLVED for i, p in enumerate(puzzles)):
        sys.exit(f"{backend}: a puzzle was not proved unique")
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tdoku", default=os.environ.get("SUDOKU_CP_TDOKU"), help="tdoku's run_benchmark")
    parser.add_argument("--quick", action="store_true", help="2,000 puzzles a set, 3 s a measurement")
    parser.add_argument("--seconds", type=float, help="seconds a measurement (default 10, quick 3)")
    parser.add_argument("--rounds", type=int, default=1, help="times to run the whole comparison")
    args = parser.parse_args()
    if not args.tdoku or not os.access(args.tdoku, os.X_OK):
        sys.exit("tdoku's run_benchmark is needed: --tdoku PATH or SUDOKU_CP_TDOKU (see --help to build it)")
    seconds = args.seconds or (3.0 if args.quick else 10.0)
    warm_dfs()
    warm_propagation()
    print(
        "| round | set | puzzles | tdoku | JSolve | fsss | MiniSat complete | dfs "
        "| dfs / tdoku (target 0.33) | sat | sat / MiniSat (target 1.2) |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(1, args.rounds + 1):
            for label, name in SETS.items():
                limit = 2000 if args.quick else None if label != "11+" else 10_000
                puzzles = datasets.load(name, sample=limit, seed=1) if limit else datasets.load(name)
                path = Path(folder) / f"{label}.txt"
                path.write_text("".join(p.to_string() + "\n" for p in puzzles))
                cpp = cpp_rates(args.tdoku, path, len(puzzles), seconds)
                dfs, sat = our_rate("dfs", puzzles, seconds), our_rate("sat", puzzles, seconds)
                print(
                    f"| {round_} | {label} | {len(puzzles):,} | {cpp['tdoku']:,.0f} | {cpp['jsolve']:,.0f} "
                    f"| {cpp['fsss']:,.0f} | {cpp['minisat_complete']:,.0f} | {dfs:,.0f} "
                    f"| {dfs / cpp['tdoku']:.2f} | {sat:,.0f} | {sat / cpp['minisat_complete']:.2f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
