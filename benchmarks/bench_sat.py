"""Benchmark of the sat backend: propagation, solver x encoding x at-most-one scheme x data set, modes, grids.

Prints Markdown tables of puzzles per second, single core: first the default way (each puzzle propagated,
then its propagated formula on a solver of its own) against the backend without propagation, in CPU time
per puzzle with uniqueness, the configurations alternating in chunks of puzzles so that a shared
machine's load falls on all alike; then solving alone and with the uniqueness proof (a second SAT call
under the blocking clause) for every solver on the incremental way, on samples of 17_clue, top1465 and
forum_hardest_11plus; then the incremental solver against a reduced formula per puzzle (9x9, 16x16); then
seconds per 16x16, 25x25 and 36x36 puzzle with about 45% givens. Rates are given in wall time and in
process CPU time (steadier on a shared machine). Every answer is checked by the verifier and against the
data set's promise (one solution each), outside the timed loop. The compiled kernels are loaded before
any timing (``encode.propagated.warm_up``), as a long batch would have them.

    python benchmarks/bench_sat.py --quick          # a couple of minutes
    python benchmarks/bench_sat.py                  # the tables of encodings/README.md
    python benchmarks/bench_sat.py --full           # every solver x encoding x scheme (long)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_cp import datasets
from sudoku_cp.backends.sat import DEFAULT_SOLVER, PROOF_SOLVERS, SatBackend, propagated_solver
from sudoku_cp.encode.amo import AMO_SCHEMES
from sudoku_cp.encode.cnf import ENCODINGS
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.verify import is_solution

warnings.simplefilter("ignore", RuntimeWarning)  # python-sat warns that Kissat ignores assumptions

SETS = {"17_clue": "17_clue.txt", "top1465": "top1465.txt", "hardest": "forum_hardest_11plus.txt"}
#: The configurations of the propagation table: label -> SatBackend arguments; the first is the reference.
PROPAGATION_ROWS: dict[str, dict] = {
    "without propagation (sat as before: auto)": {"propagate": False},
    f"propagated, {propagated_solver(9)} (sat as it comes)": {},
    "propagated, glucose4": {"variant": "glucose4"},
    "propagated, glucose3": {"variant": "glucose3"},
    "propagated, cadical153": {"variant": "cadical153"},
}
CHUNK = 50


@dataclass
class Run:
    """One configuration on one list of puzzles."""

    wall: float
    cpu: float
    puzzles: int
    conflicts: float
    wrong: int
    timed_out: int

    def rate(self, cpu: bool = False) -> float:
        seconds = self.cpu if cpu else self.wall
        return self.puzzles / seconds if seconds > 0 else float("inf")


def run(backend: SatBackend, puzzles: Sequence[Puzzle], limit: int, expect_one: bool = True) -> Run:
    """Enumerate each puzzle to ``limit``; warm-up first (the shape's solver is built outside the timing)."""
    for puzzle in puzzles[:5]:
        backend.enumerate(puzzle, limit)
    answers, conflicts = [], 0
    wall, cpu = time.perf_counter(), time.process_time()
    for puzzle in puzzles:
        found = backend.enumerate(puzzle, limit)
        answers.append(found)
        conflicts += found.stats.get("conflicts", 0)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    wrong = timed_out = 0
    for puzzle, found in zip(puzzles, answers, strict=True):
        timed_out += found.timed_out
        ok = all(is_solution(puzzle, s) for s in found.solutions) and len(set(found.solutions)) == len(
            found.solutions
        )
        if expect_one:
            ok = ok and len(found.solutions) == 1 and (found.complete or limit == 1)
        wrong += not ok
    return Run(wall, cpu, len(puzzles), conflicts / max(1, len(puzzles)), wrong, timed_out)


def table_propagation(sets: dict[str, list[Puzzle]]) -> None:
    print("\n## Propagated formulas against the backend without propagation (unique, per CPU second)\n")
    print("| set | n | configuration | puzzles/CPU s | against the first | decided by propagation | check |")
    print("|---|---:|---|---:|---:|---:|---|")
    for name, puzzles in sets.items():
        backends = {label: SatBackend(**kwargs) for label, kwargs in PROPAGATION_ROWS.items()}
        cpu = dict.fromkeys(backends, 0.0)
        wrong = dict.fromkeys(backends, 0)
        forced = dict.fromkeys(backends, 0)
        for backend in backends.values():  # the way without propagation builds its incremental solver
            for puzzle in puzzles[:40]:
                backend.enumerate(puzzle, 2)
        for start in range(0, len(puzzles), CHUNK):
            chunk = puzzles[start : start + CHUNK]
            order = list(backends) if start // CHUNK % 2 == 0 else list(backends)[::-1]
            for label in order:
                backend = backends[label]
                began = time.process_time()
                answers = [backend.enumerate(puzzle, 2) for puzzle in chunk]
                cpu[label] += time.process_time() - began
                for puzzle, found in zip(chunk, answers, strict=True):
                    forced[label] += found.stats.get("forced", 0) if "propagated" in label else 0
                    one = found.complete and len(found.solutions) == 1
                    wrong[label] += not (one and is_solution(puzzle, found.solutions[0]))
        first = cpu[next(iter(cpu))]
        for label in backends:
            share = f"{forced[label] / len(puzzles):.0%}" if "propagated" in label else ""
            check = "ok" if not wrong[label] else f"{wrong[label]} WRONG"
            print(
                f"| {name} | {len(puzzles)} | {label} | {len(puzzles) / cpu[label]:,.0f} | "
                f"{first / cpu[label]:.2f}x | {share} | {check} |",
                flush=True,
            )


def _check(*runs: Run) -> str:
    wrong, late = sum(r.wrong for r in runs), sum(r.timed_out for r in runs)
    return "ok" if not wrong and not late else f"{wrong} WRONG, {late} timed out"


def configurations(full: bool, quick: bool) -> list[tuple[str, str, str]]:
    """(solver, encoding, amo) rows: every solver, scheme and encoding against the default, or everything."""
    if full:
        return [(s, e, a) for s in (*PROOF_SOLVERS, "minisat22") for e in ENCODINGS for a in AMO_SCHEMES]
    solvers = (
        ("cadical195", "cadical153", "glucose4", "minisat22") if quick else (*PROOF_SOLVERS, "minisat22")
    )
    rows = [("default", "extended", "pairwise")]  # plain `sat`: the faster of its two ways, as measured
    rows += [(s, "extended", "pairwise") for s in solvers]
    rows += [(DEFAULT_SOLVER, "extended", a) for a in AMO_SCHEMES if a != "pairwise"]
    rows += [(DEFAULT_SOLVER, e, "pairwise") for e in ENCODINGS if e != "extended"]
    if quick:
        rows = [r for r in rows if r[2] in ("pairwise", "seqcounter", "bitwise")]
    return rows


def table_9x9(
    sets: dict[str, list[Puzzle]], rows: list[tuple[str, str, str]], incremental: bool | None
) -> None:
    mode = {None: "auto", True: "incremental", False: "per puzzle"}[incremental]
    print(f"\n## 9x9: puzzles per second, one core (default: plain sat, auto; others {mode}; wall, CPU)\n")
    print("| solver | encoding | amo | set | solve | solve + unique | conflicts (unique) | check |")
    print("|---|---|---|---|---:|---:|---:|---|")
    for solver, encoding, amo in rows:
        for name, puzzles in sets.items():
            inc = False if encoding == "reduced" else None if solver == "default" else incremental
            variant = None if solver == "default" else solver
            solved = run(SatBackend(variant, encoding, amo, inc), puzzles, 1)
            unique = run(SatBackend(variant, encoding, amo, inc), puzzles, 2)
            print(
                f"| {solver} | {encoding} | {amo} | {name} | "
                f"{solved.rate():,.0f} ({solved.rate(True):,.0f}) | "
                f"{unique.rate():,.0f} ({unique.rate(True):,.0f}) | {unique.conflicts:,.1f} | "
                f"{_check(solved, unique)} |",
                flush=True,
            )


def full_grid(rules: Rules, rng: random.Random) -> list[int]:
    """A random-looking full grid: the shifted-rows pattern relabelled, bands, stacks, rows, cols shuffled."""
    r, c, n = rules.box_rows, rules.box_cols, rules.n
    relabel = rng.sample(range(1, n + 1), n)
    rows = [band * r + i for band in rng.sample(range(c), c) for i in rng.sample(range(r), r)]
    cols = [stack * c + j for stack in rng.sample(range(r), r) for j in rng.sample(range(c), c)]
    return [relabel[(c * (row % r) + row // r + col) % n] for row in rows for col in cols]


def with_givens(rules: Rules, fraction: float, seed: int) -> Puzzle:
    """A puzzle keeping ``fraction`` of a full grid's cells at random (one solution or more)."""
    rng = random.Random(seed)
    grid = full_grid(rules, rng)
    keep = set(rng.sample(range(rules.ncells), round(fraction * rules.ncells)))
    return Puzzle(rules, tuple(d if i in keep else 0 for i, d in enumerate(grid)))


def table_modes(sets: dict[str, list[Puzzle]], count16: int) -> None:
    print("\n## Incremental solver or a reduced formula per puzzle (default solver, unique; wall and CPU)\n")
    print("| grid | set | mode | puzzles | first puzzle ms | puzzles/s | check |")
    print("|---|---|---|---:|---:|---:|---|")
    big = [with_givens(Rules.classic(4, 4), 0.45, seed) for seed in range(count16)]
    cases = [("9x9", name, puzzles) for name, puzzles in sets.items()] + [("16x16", "45% givens", big)]
    for grid, name, puzzles in cases:
        for label, incremental in (("incremental", True), ("per puzzle", False), ("auto", None)):
            backend = SatBackend(incremental=incremental)
            start = time.perf_counter()
            backend.enumerate(puzzles[0], 2)
            first = (time.perf_counter() - start) * 1e3
            result = run_cold(backend, puzzles[1:])
            print(
                f"| {grid} | {name} | {label} | {len(puzzles)} | {first:,.1f} | "
                f"{result.rate():,.0f} ({result.rate(True):,.0f}) | {_check(result)} |",
                flush=True,
            )


def run_cold(backend: SatBackend, puzzles: Sequence[Puzzle]) -> Run:
    """Like ``run`` with limit 2 but without warm-up, for puzzles that may have several solutions."""
    wall, cpu = time.perf_counter(), time.process_time()
    answers = [backend.enumerate(p, 2) for p in puzzles]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    wrong = sum(
        not f.solutions or not all(is_solution(p, s) for s in f.solutions)
        for p, f in zip(puzzles, answers, strict=True)
    )
    return Run(wall, cpu, len(puzzles), 0.0, wrong, sum(f.timed_out for f in answers))


def table_large(count: int, huge: bool, solvers: Sequence[str]) -> None:
    print(f"\n## Large grids with 45% givens: seconds per puzzle, cold (a new backend each; {count} each)\n")
    print("| grid | solver | amo | solve s | solve + unique s | max (unique) s | clauses | check |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    sizes = [Rules.classic(4, 4), Rules.classic(5, 5)] + ([Rules.classic(6, 6)] if huge else [])
    for rules in sizes:
        puzzles = [with_givens(rules, 0.45, 100 + seed) for seed in range(count if rules.n < 36 else 1)]
        for solver in solvers:
            for amo in (None, "seqcounter") if rules.n < 36 else (None,):
                timings = {1: [], 2: []}
                runs = []
                clauses = 0
                for limit in (1, 2):
                    for puzzle in puzzles:
                        backend = SatBackend(solver, amo=amo)
                        start = time.perf_counter()
                        found = backend.enumerate(puzzle, limit)
                        timings[limit].append(time.perf_counter() - start)
                        clauses = int(found.stats["clauses"])
                        ok = found.solutions and all(is_solution(puzzle, s) for s in found.solutions)
                        runs.append(Run(0, 0, 1, 0, int(not ok), int(found.timed_out)))
                mean = {k: sum(v) / len(v) for k, v in timings.items()}
                print(
                    f"| {rules.n}x{rules.n} | {solver} | {amo or 'default'} | {mean[1]:.3f} | "
                    f"{mean[2]:.3f} | {max(timings[2]):.3f} | {clauses:,} | {_check(*runs)} |",
                    flush=True,
                )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples, fewer rows, no 36x36 grid")
    parser.add_argument(
        "--full", action="store_true", help="every solver x encoding x scheme in the 9x9 table"
    )
    parser.add_argument("--sample", type=int, help="puzzles per 9x9 data set (default 2000, quick 300)")
    parser.add_argument("--large", type=int, help="puzzles per large grid size (default 5, quick 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--skip", default="", help="tables to skip, comma separated: propagation, 9x9, modes, large"
    )
    args = parser.parse_args(argv)
    sample = args.sample or (300 if args.quick else 2000)
    large = args.large or (2 if args.quick else 5)
    skip = set(filter(None, args.skip.split(",")))
    if datasets.data_dir() is None:
        print(f"bench_sat: {datasets.MISSING_MESSAGE}", file=sys.stderr)
        return 2
    sets = {name: datasets.load(file, sample=sample, seed=args.seed) for name, file in SETS.items()}
    print(f"# sat benchmark (samples of {sample} puzzles, seed {args.seed}; every answer verified)")
    from sudoku_cp.encode.propagated import warm_up

    print(f"\n(compiled kernels loaded in {warm_up():.2f} s, before any timing)")
    if "propagation" not in skip:
        table_propagation(sets)
    if "9x9" not in skip:
        table_9x9(sets, configurations(args.full, args.quick), incremental=True)
    if "modes" not in skip:
        table_modes(sets, 10 if args.quick else 40)
    if "large" not in skip:
        table_large(large, huge=not args.quick, solvers=(DEFAULT_SOLVER, "glucose4"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
