"""Benchmark of the cpsat backend: model (int/bool) x reuse or rebuild x workers x data set, and large grids.

Prints Markdown tables: first each model with and without propagation before CP-SAT (``propagate``), in
CPU time per puzzle with uniqueness, the configurations alternating in chunks of puzzles so that a shared
machine's load falls on all alike; then puzzles per second for solving alone and for solving with the
uniqueness proof on samples of 17_clue and top1465 (as the backend comes); callback against
solve-block-solve enumeration; seconds per puzzle on 16x16 and 25x25 grids (full grids made by a pattern,
55% of their cells blanked) and an empty 36x36 grid. Every answer is checked by the verifier and against
the data set's promise (one solution each). The compiled kernels of the propagation are loaded before any
timing (``encode.propagated.warm_up``), as a long batch would have them.

    python benchmarks/bench_cpsat.py --quick        # a minute or so
    python benchmarks/bench_cpsat.py                # the full tables (several minutes)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudoku_cp import datasets
from sudoku_cp.backends.cpsat import CpSatBackend
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.samples import blanked, pattern_grid
from sudoku_cp.verify import is_solution


@dataclass
class Run:
    """The outcome of one configuration on one set of puzzles."""

    seconds: float
    cpu_seconds: float
    puzzles: int
    branches: float
    solver_ms: float
    build_ms: float
    wrong: int
    timed_out: int

    @property
    def rate(self) -> float:
        """Puzzles per second of wall time."""
        return self.puzzles / self.seconds if self.seconds > 0 else float("inf")

    @property
    def cpu_rate(self) -> float:
        """Puzzles per second of this process's CPU time: steadier than wall time on a shared machine."""
        return self.puzzles / self.cpu_seconds if self.cpu_seconds > 0 else float("inf")


def run(backend: CpSatBackend, puzzles: Sequence[Puzzle], limit: int, expect: Callable[[int], bool]) -> Run:
    """Enumerate each puzzle up to ``limit`` solutions; ``expect(count)`` says whether a count is right."""
    branches = solver = build = 0.0
    wrong = timed_out = 0
    start, cpu = time.perf_counter(), time.process_time()
    for puzzle in puzzles:
        found = backend.enumerate(puzzle, limit=limit, time_limit=120)
        branches += found.stats["branches"]
        solver += found.stats["wall_time"]
        build += found.stats["build_time"]
        timed_out += found.timed_out
        if not expect(len(found.solutions)) or not all(is_solution(puzzle, s) for s in found.solutions):
            wrong += 1
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    k = max(1, len(puzzles))
    return Run(seconds, cpu, len(puzzles), branches / k, solver / k * 1e3, build / k * 1e3, wrong, timed_out)


def _check(r: Run) -> str:
    notes = []
    if r.wrong:
        notes.append(f"{r.wrong} WRONG")
    if r.timed_out:
        notes.append(f"{r.timed_out} timed out")
    return ", ".join(notes) or "ok"


def table_9x9(sets: dict[str, list[Puzzle]], models: list[str], workers: list[int], parallel: int) -> None:
    print("\n## 9x9: puzzles per second (solve; solve + uniqueness proof, also per CPU second)\n")
    print(
        "| data set | model | model per puzzle | workers | puzzles | solve/s | unique/s | unique/CPU s | "
        "branches | solver ms | build ms | check |"
    )
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, puzzles in sets.items():
        for model in models:
            for reuse in (True, False):
                for w in workers:
                    sample = puzzles if w == 1 else puzzles[:parallel]
                    backend = CpSatBackend(model, workers=w, reuse=reuse)
                    backend.enumerate(sample[0])  # import ortools and build the model outside the timing
                    solved = run(backend, sample, 1, lambda k: k == 1)
                    unique = run(backend, sample, 2, lambda k: k == 1)
                    print(
                        f"| {name} | {model} | {'reuse' if reuse else 'rebuild'} | {w} | {len(sample)} | "
                        f"{solved.rate:,.0f} | {unique.rate:,.0f} | {unique.cpu_rate:,.0f} | "
                        f"{unique.branches:,.0f} | {unique.solver_ms:.2f} | {unique.build_ms:.2f} | "
                        f"{_check(solved)}, {_check(unique)} |",
                        flush=True,
                    )


CHUNK = 50


def table_propagation(sets: dict[str, list[Puzzle]], models: list[str]) -> None:
    print("\n## Propagation first or not (1 worker, solve + uniqueness, per CPU second)\n")
    print("| data set | puzzles | model | propagate | puzzles/CPU s | against no propagation | check |")
    print("|---|---:|---|---|---:|---:|---|")
    for name, puzzles in sets.items():
        backends = {(m, p): CpSatBackend(m, propagate=p) for m in models for p in (False, True)}
        cpu = dict.fromkeys(backends, 0.0)
        wrong = dict.fromkeys(backends, 0)
        for backend in backends.values():
            backend.enumerate(puzzles[0])
        for start in range(0, len(puzzles), CHUNK):
            chunk = puzzles[start : start + CHUNK]
            order = list(backends) if start // CHUNK % 2 == 0 else list(backends)[::-1]
            for key in order:
                began = time.process_time()
                answers = [backends[key].enumerate(puzzle, 2) for puzzle in chunk]
                cpu[key] += time.process_time() - began
                wrong[key] += sum(
                    not (f.complete and len(f.solutions) == 1 and is_solution(p, f.solutions[0]))
                    for p, f in zip(chunk, answers, strict=True)
                )
        for (model, propagate), seconds in cpu.items():
            check = "ok" if not wrong[model, propagate] else f"{wrong[model, propagate]} WRONG"
            print(
                f"| {name} | {len(puzzles)} | {model} | {'yes' if propagate else 'no'} | "
                f"{len(puzzles) / seconds:,.0f} | {cpu[model, False] / seconds:.2f}x | {check} |",
                flush=True,
            )


def table_enumeration(sets: dict[str, list[Puzzle]], models: list[str], multi: list[Puzzle]) -> None:
    print("\n## Counting to 2: one solve with a callback, or solve, block, solve (1 worker)\n")
    print("| data set | model | enumeration | puzzles | puzzles/s | per CPU s | solves/puzzle | check |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for name, puzzles, expect in [
        *((n, p, lambda k: k == 1) for n, p in sets.items()),
        ("serg_multi_solution", multi, lambda k: k == 2),
    ]:
        for model in models:
            for method in ("callback", "block"):
                backend = CpSatBackend(model, enumeration=method)
                backend.enumerate(puzzles[0])
                r = run(backend, puzzles, 2, expect)
                solves = 1 if method == "callback" else (3 if name == "serg_multi_solution" else 2)
                print(
                    f"| {name} | {model} | {method} | {r.puzzles} | {r.rate:,.0f} | {r.cpu_rate:,.0f} | "
                    f"{solves} | {_check(r)} |",
                    flush=True,
                )


def table_large(count: int, models: list[str], workers: list[int], huge: bool) -> None:
    print(f"\n## Large grids: seconds per puzzle ({count} per size; 55% of a pattern grid blanked)\n")
    print("| grid | model | workers | solve s | unique s | branches (unique) | check |")
    print("|---|---|---|---:|---:|---:|---|")
    sizes = [(Rules.classic(4, 4), 0.55), (Rules.classic(5, 5), 0.55)]
    if huge:
        sizes.append((Rules.classic(6, 6), 1.0))
    for rules, fraction in sizes:
        seeds = range(count if fraction < 1 else 1)
        puzzles = [blanked(pattern_grid(rules, seed), fraction, seed) for seed in seeds]
        label = f"{rules.n}x{rules.n}" + (" empty" if fraction == 1 else "")
        for model in models:
            for w in workers:
                backend = CpSatBackend(model, workers=w)
                backend.enumerate(pattern_grid(rules, 0))  # build the model outside the timing
                solved = run(backend, puzzles, 1, lambda k: k == 1)
                u_time = u_branches = u_check = "-"
                if fraction < 1:  # the empty grid has countless solutions: solving it is the test
                    unique = run(backend, puzzles, 2, lambda k: k >= 1)
                    u_time = f"{unique.seconds / unique.puzzles:.3f}"
                    u_branches, u_check = f"{unique.branches:,.0f}", _check(unique)
                print(
                    f"| {label} | {model} | {w} | {solved.seconds / solved.puzzles:.3f} | {u_time} | "
                    f"{u_branches} | {_check(solved)}, {u_check} |",
                    flush=True,
                )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples, no 36x36 grid")
    parser.add_argument("--sample", type=int, help="puzzles per 9x9 data set (default 2000, quick 200)")
    parser.add_argument("--parallel", type=int, help="9x9 puzzles for workers > 1 (default 100, quick 20)")
    parser.add_argument("--large", type=int, help="puzzles per large grid size (default 5, quick 2)")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare (default 1,2)")
    parser.add_argument("--models", default="int,bool", help="models to compare (default int,bool)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--skip", default="", help="tables to skip, comma separated: propagation, 9x9, enumeration, large"
    )
    args = parser.parse_args(argv)
    sample = args.sample or (200 if args.quick else 2000)
    parallel = args.parallel or (20 if args.quick else 100)
    large = args.large or (2 if args.quick else 5)
    models = args.models.split(",")
    workers = [int(w) for w in args.workers.split(",")]
    skip = set(filter(None, args.skip.split(",")))

    if datasets.data_dir() is None:
        print(f"bench_cpsat: {datasets.MISSING_MESSAGE}", file=sys.stderr)
        return 2
    sets = {
        "17_clue": datasets.load("17_clue.txt", sample=sample, seed=args.seed),
        "top1465": datasets.load("top1465.txt", sample=min(sample, 1465), seed=args.seed),
    }
    multi = datasets.load("serg_multi_solution.txt", sample=min(sample, 500), seed=args.seed)
    print(f"# cpsat benchmark (samples of {sample} puzzles, seed {args.seed}; every answer verified)")
    from sudoku_cp.encode.propagated import warm_up

    print(f"\n(compiled kernels loaded in {warm_up():.2f} s, before any timing)")
    if "propagation" not in skip:
        table_propagation(sets, models)
    if "9x9" not in skip:
        table_9x9(sets, models, workers, parallel)
    if "enumeration" not in skip:
        table_enumeration(sets, models, multi)
    if "large" not in skip:
        table_large(large, models, workers, huge=not args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
