"""Benchmark of the dfs backend: engine x heuristic x data set, solving alone and with the uniqueness proof.

Prints a Markdown table of puzzles per second on one core for each heuristic (``auto``, the default, is
the compiled engine's band search on these 9x9 sets; the named ones explore the reference's tree) on the
per-puzzle path (``Backend.enumerate``, both engines) and the compiled engine's batch path
(``dfs_compiled.solve_array``, one call for the whole list), each for solving (limit 1) and for solving
plus proving uniqueness (limit 2). Rates are in process CPU time, which stays steady on a shared
machine, with the wall-clock rate beside it. Every answer is checked outside the timed loop by the
verifier and against the data set's promise (exactly one solution). ``--shapes`` adds large grids: how
often a 16x16 or 25x25 with a given share of random givens is answered within a time limit.

    python benchmarks/bench_dfs.py --quick           # about a minute
    python benchmarks/bench_dfs.py                   # the full table (several minutes)
    python benchmarks/bench_dfs.py --shapes          # also 16x16 and 25x25 by share of givens
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from sudoku_cp import datasets
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.backends.dfs_reference import AUTO, HEURISTICS
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.verify import is_solution

#: name in the table -> file, and whether the sample size applies (else the whole file is used).
SETS = {
    "top1465": ("top1465.txt", False),
    "norvig_top95": ("norvig_top95.txt", False),
    "17_clue": ("17_clue.txt", True),
    "forum_hardest_11plus": ("forum_hardest_11plus.txt", True),
    "forum_hardest_1106": ("forum_hardest_1106.txt", False),
}


@dataclass
class Timing:
    """One path over one list of puzzles: wall and CPU seconds, nodes searched, answers that were wrong."""

    wall: float
    cpu: float
    puzzles: int
    nodes: float
    wrong: int

    def rate(self, cpu: bool = True) -> float:
        seconds = self.cpu if cpu else self.wall
        return self.puzzles / seconds if seconds > 0 else float("inf")


#: Runs of each timing, the fastest kept (``--repeat``): other work on a shared machine only slows a run.
REPEAT = 1


def _timed(work: Callable[[], object]) -> tuple[object, float, float]:
    """Run ``work`` ``REPEAT`` times with the garbage collector off (as timeit does: the answers kept for
    checking would otherwise make later collections slower and slower); the answer and the wall and CPU
    seconds of the run with the least CPU time."""
    best = (None, float("inf"), float("inf"))
    for _ in range(REPEAT):
        gc.collect()
        gc.disable()
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            answer = work()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        finally:
            gc.enable()
        if cpu < best[2]:
            best = (answer, wall, cpu)
    return best


def per_puzzle(backend: DfsBackend, puzzles: Sequence[Puzzle], limit: int) -> Timing:
    """``Backend.enumerate`` on each puzzle in turn (Puzzle in, Puzzles out: the library's path)."""
    for puzzle in puzzles[:3]:
        backend.enumerate(puzzle, limit)
    answers, wall, cpu = _timed(lambda: [backend.enumerate(p, limit) for p in puzzles])
    wrong, nodes = 0, 0
    for puzzle, found in zip(puzzles, answers, strict=True):  # type: ignore[call-overload]
        nodes += found.stats["nodes"]
        ok = len(found.solutions) == 1 and is_solution(puzzle, found.solutions[0])
        wrong += not (ok and (found.complete or limit == 1))
    return Timing(wall, cpu, len(puzzles), nodes / len(puzzles), wrong)


def batch(puzzles: Sequence[Puzzle], limit: int, heuristic: str) -> Timing:
    """One ``solve_array`` call for the whole list (the batch engine's path, no Python per puzzle)."""
    from sudoku_cp.backends.dfs_compiled import EXHAUSTED, solve_array

    rules = puzzles[0].rules
    grids = np.array([p.cells for p in puzzles], np.uint8)
    solve_array(grids[:3], rules, limit, heuristic)
    found, wall, cpu = _timed(lambda: solve_array(grids, rules, limit, heuristic))
    wrong = 0
    for i, puzzle in enumerate(puzzles):
        solution = Puzzle(rules, tuple(found.solutions[i].tolist()))  # type: ignore[attr-defined]
        ok = found.counts[i] == 1 and is_solution(puzzle, solution)  # type: ignore[attr-defined]
        wrong += not (ok and (found.status[i] == EXHAUSTED or limit == 1))  # type: ignore[attr-defined]
    return Timing(wall, cpu, len(puzzles), float(found.nodes.mean()), wrong)  # type: ignore[attr-defined]


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def data_table(args: argparse.Namespace, engines: list[str]) -> None:
    print(
        _row(
            [
                "data set",
                "puzzles",
                "engine",
                "path",
                "heuristic",
                "solve/s",
                "unique/s",
                "nodes (unique)",
                "wall unique/s",
                "check",
            ]
        )
    )
    print(_row(["---"] * 2 + [":--"] * 3 + ["--:"] * 4 + [":--"]))
    for name in args.sets:
        file, sampled = SETS[name]
        if datasets.data_path(file) is None:
            print(f"<!-- {name}: {file} is missing ({datasets.MISSING_MESSAGE}); skipped -->")
            continue
        everything = datasets.load(file, sample=args.sample if sampled else None, seed=args.seed)
        for engine in engines:
            count = len(everything) if engine == "compiled" else min(len(everything), args.python_sample)
            puzzles = everything[:count]
            for heuristic in args.heuristics:
                if heuristic == AUTO and engine == "python":
                    continue  # auto is mrv on the python engine: the mrv row
                paths = ["enumerate", "solve_array"] if engine == "compiled" else ["enumerate"]
                for path in paths:
                    solve, unique = (
                        per_puzzle(DfsBackend(heuristic=heuristic, engine=engine), puzzles, limit)
                        if path == "enumerate"
                        else batch(puzzles, limit, heuristic)
                        for limit in (1, 2)
                    )
                    wrong = solve.wrong + unique.wrong
                    print(
                        _row(
                            [
                                name,
                                str(len(puzzles)),
                                engine,
                                path,
                                heuristic,
                                f"{solve.rate():,.0f}",
                                f"{unique.rate():,.0f}",
                                f"{unique.nodes:.1f}",
                                f"{unique.rate(cpu=False):,.0f}",
                                f"{wrong} WRONG" if wrong else "ok",
                            ]
                        ),
                        flush=True,
                    )


def full_grid(rules: Rules, rng: random.Random) -> Puzzle:
    """A random complete grid: the shifted-rows pattern with digits, rows, bands, columns, stacks permuted."""
    br, bc, n = rules.box_rows, rules.box_cols, rules.n
    digits = rng.sample(range(1, n + 1), n)
    rows = [b * br + r for b in rng.sample(range(bc), bc) for r in rng.sample(range(br), br)]
    cols = [s * bc + c for s in rng.sample(range(br), br) for c in rng.sample(range(bc), bc)]
    return Puzzle(rules, tuple(digits[((r % br) * bc + r // br + c) % n] for r in rows for c in cols))


def shapes_table(args: argparse.Namespace) -> None:
    """Large grids made by keeping a share of a random full grid's cells: answered within the time limit?"""
    print()
    print(
        f"Large grids, compiled engine, mrv, first solution, {args.grids} grids per row, "
        f"time limit {args.time_limit:g} s each"
    )
    print()
    print(_row(["grid", "givens", "answered", "median s", "max s (answered)", "median nodes"]))
    print(_row(["---", "--:", "--:", "--:", "--:", "--:"]))
    backend = DfsBackend(engine="compiled")
    for rules in (Rules.classic(4, 4), Rules.classic(5, 5)):
        for keep in args.keep:
            seconds, nodes, answered = [], [], 0
            for seed in range(args.grids):
                rng = random.Random(seed)
                full = full_grid(rules, rng)
                puzzle = Puzzle(rules, tuple(d if rng.random() < keep else 0 for d in full.cells))
                found = backend.enumerate(puzzle, limit=1, time_limit=args.time_limit)
                if found.solutions:
                    assert is_solution(puzzle, found.solutions[0])
                    answered += 1
                    seconds.append(found.stats["time"])
                nodes.append(found.stats["nodes"])
            print(
                _row(
                    [
                        f"{rules.n}x{rules.n}",
                        f"{keep:.0%}",
                        f"{answered}/{args.grids}",
                        f"{statistics.median(seconds):.3f}" if seconds else "-",
                        f"{max(seconds):.3f}" if seconds else "-",
                        f"{statistics.median(nodes):,.0f}",
                    ]
                ),
                flush=True,
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples (about a minute)")
    parser.add_argument("--sample", type=int, default=5000, help="puzzles sampled from the large sets")
    parser.add_argument(
        "--python-sample",
        type=int,
        default=300,
        help="at most this many puzzles per set for the pure-Python engine",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each timing; the fastest is kept")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    heuristics = [AUTO, *HEURISTICS]  # auto: the band search on 9x9 (compiled engine), mrv elsewhere
    parser.add_argument("--heuristics", nargs="+", choices=heuristics, default=heuristics)
    engines = ["python", "compiled"]
    parser.add_argument("--engines", nargs="+", choices=engines, default=engines, help="engines to measure")
    parser.add_argument("--shapes", action="store_true", help="also 16x16 and 25x25 grids by share of givens")
    parser.add_argument(
        "--keep", nargs="+", type=float, default=[0.45, 0.5, 0.55, 0.6], help="shares of givens for --shapes"
    )
    parser.add_argument("--grids", type=int, default=20, help="grids per row of --shapes")
    parser.add_argument("--time-limit", type=float, default=2.0, help="seconds per grid in --shapes")
    args = parser.parse_args(argv)
    global REPEAT
    REPEAT = max(1, args.repeat)
    if args.quick:
        args.sample, args.python_sample = min(args.sample, 1000), min(args.python_sample, 60)
        args.grids = min(args.grids, 8)

    engines = list(args.engines)
    if "compiled" in engines:
        if importlib.util.find_spec("numba") is None:
            print("numba is not installed: the compiled engine is left out", file=sys.stderr)
            engines.remove("compiled")
        else:
            started = time.perf_counter()
            from sudoku_cp.backends.dfs_compiled import warm_up

            seconds = warm_up()
            print(
                f"compiled engine ready in {time.perf_counter() - started:.2f} s (warm_up {seconds:.2f} s: "
                "it compiles on the first run on a machine, then loads numba's cache)"
            )
            print()
    print(
        f"dfs backend, one core, puzzles/second in CPU time (wall time beside); python engine on at most "
        f"{args.python_sample} puzzles per set, sampled sets {args.sample} puzzles (seed {args.seed})"
    )
    print()
    data_table(args, engines)
    if args.shapes and "compiled" in engines:
        shapes_table(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
