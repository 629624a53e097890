"""Start-up: the whole ``sudoku-cp`` process for one puzzle, and for ``--help``, against the targets.

Each case runs ``--runs`` times (after one run not counted, which fills the disk cache) as its own process
through the installed console script; the table gives the median and the lowest wall time and the median
CPU time of the process (user + system, its children included). Targets: ``sudoku-cp --help`` at most
0.15 s, ``sudoku-cp solve`` of one puzzle with the default backend at most 0.3 s. The interpreter alone
(``python -c pass``) and ``import numpy`` are there to read the rest against.

    python benchmarks/bench_startup.py              # 15 runs a case
    python benchmarks/bench_startup.py --runs 5 --cases help solve
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time

#: A 17-clue puzzle: hard enough to need a search, quick for every backend.
PUZZLE = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"


def cases(script: str) -> dict[str, tuple[list[str], float | None]]:
    """Name: (command, target seconds or None)."""
    return {
        "python": ([sys.executable, "-c", "pass"], None),
        "numpy": ([sys.executable, "-c", "import numpy"], None),
        "help": ([script, "--help"], 0.15),
        "solve": ([script, "solve", "-p", PUZZLE], 0.3),
        "unique": ([script, "solve", "--unique", "-p", PUZZLE], None),
        "sat": ([script, "solve", "--unique", "--backend", "sat", "-p", PUZZLE], None),
        "cpsat": ([script, "solve", "--unique", "--backend", "cpsat", "-p", PUZZLE], None),
        "compiled": ([script, "solve", "--unique", "--backend", "dfs:compiled", "-p", PUZZLE], None),
    }


def run_once(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` (its output and messages thrown away); a failure
    stops the benchmark."""
    started = time.perf_counter()
    pid = os.posix_spawn(
        command[0],
        command,
        os.environ,
        file_actions=[(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)],
    )
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=15, help="counted runs per case (default 15)")
    parser.add_argument("--cases", nargs="+", help="the cases to run (default: all)")
    args = parser.parse_args()
    script = shutil.which("sudoku-cp") or os.path.join(os.path.dirname(sys.executable), "sudoku-cp")
    table = cases(script)
    unknown = set(args.cases or ()) - set(table)
    if unknown:
        parser.error(f"unknown cases: {', '.join(sorted(unknown))}; known: {', '.join(table)}")
    print("| case | command | wall s (median) | wall s (lowest) | CPU s (median) | target |")
    print("|---|---|---:|---:|---:|---|")
    for name in args.cases or table:
        command, target = table[name]
        run_once(command)
        walls, cpus = zip(*(run_once(command) for _ in range(args.runs)), strict=True)
        wall = statistics.median(walls)
        verdict = "" if target is None else f"{target} s: {'met' if wall <= target else 'not met'}"
        shown = " ".join(["sudoku-cp" if c == script else os.path.basename(c) for c in command[:1]])
        shown += " " + " ".join(command[1:])
        print(
            f"| {name} | `{shown.replace(PUZZLE, 'PUZZLE')}` | {wall:.3f} | {min(walls):.3f} "
            f"| {statistics.median(cpus):.3f} | {verdict} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
