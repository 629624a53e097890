"""``generate``: puzzles with a proved unique solution, minimal or with a clue target, symmetric, rated.

Each puzzle starts from a random full grid drawn by the ``UniquenessOracle``; clues are then removed by
``reduce_clues`` while the solver proves the rest unique. Minimal classic 9x9 puzzles (no clue target) take
the compiled band search instead (``bands.minimal_puzzle``, solver ``dfs``), several times faster. With a
difficulty, grids are drawn until the puzzle's rating (``sudoku_cp.rate``) has that level.

Reproducibility: puzzle ``i`` of a run draws every random choice from ``random.Random`` seeded with the
run's seed and ``i`` (no global state, no clock), and the puzzles of one block (``block_size``, fixed per
shape) share one fresh solver, so the output is a function of the seed and the options only, whatever
``jobs`` runs the blocks in parallel.

>>> four = Rules.classic(2, 2)
>>> [g.clues for g in generate(2, four, seed=7)] == [g.clues for g in generate(2, four, seed=7)]
True
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..errors import SudokuError, UsageError
from ..grid import Puzzle, Rules
from ..rate import LEVELS, Rating
from ..rate import rate as rate_puzzle
from ..signals import held_import
from .oracle import DEFAULT_SOLVER, SOLVERS, UniquenessOracle
from .reduce import reduce_clues
from .symmetry import SYMMETRIES, orbits, pattern_sizes

__all__ = [
    "BLANK_LEVELS",
    "KNOWN_MINIMUM_CLUES",
    "Generated",
    "GenerationError",
    "block_size",
    "generate",
]

#: The classic levels by blank count of a 9x9 puzzle; other grids scale them by their cell count.
BLANK_LEVELS: dict[str, tuple[int, int]] = {"few": (33, 35), "some": (36, 38), "many": (39, 41)}

#: The fewest clues a uniquely solvable puzzle can have, where proved: 9x9 by McGuire, Tugemann and
#: Civario (There is no 16-clue Sudoku, Experimental Mathematics 2014); 4x4 and 6x6 by exhaustive search.
#: Any grid needs at least n - 1 clues (with two digits absent, swapping them gives a second solution).
KNOWN_MINIMUM_CLUES: dict[Rules, int] = {
    Rules.classic(2, 2): 4,
    Rules.classic(2, 3): 8,
    Rules.classic(3, 2): 8,
    Rules.classic(3, 3): 17,
}

#: Grids tried per puzzle before giving up on a clue target or a difficulty.
MAX_ATTEMPTS = 1000

#: The solver name of the compiled band search: minimal classic 9x9 puzzles only (the default for them).
BAND_SEARCH = "dfs"


class GenerationError(SudokuError):
    """No puzzle meets the request: the clue target or the difficulty was not reached in the attempts."""


@dataclass(frozen=True)
class Generated:
    """One generated puzzle, its solution, its rating and the proof of its uniqueness.

    ``unique`` is True by construction; ``proved_by`` names the solver whose unsatisfiable answer proved it
    (``sat:cadical153``), or ``dfs`` for the band search's complete count. ``index`` numbers the puzzles of
    a run from 1; the ``seed`` and the options give the run again. ``attempts`` counts the grids drawn for
    this puzzle.
    """

    puzzle: Puzzle
    solution: Puzzle
    rating: Rating | None
    unique: bool
    proved_by: str
    symmetry: str
    seed: int | str
    index: int
    attempts: int

    @property
    def clues(self) -> int:
        return len(self.puzzle.givens)

    def to_dict(self) -> dict[str, Any]:
        """The JSON record of ``sudoku-cp generate --output-format jsonl``."""
        return {
            "index": self.index,
            "puzzle": self.puzzle.to_string(),
            "solution": self.solution.to_string(),
            "shape": str(self.puzzle.rules),
            "clues": self.clues,
            "symmetry": self.symmetry,
            "rating": self.rating.to_dict() if self.rating else None,
            "unique": self.unique,
            "proved_by": self.proved_by,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class _Request:
    """The options of a run, checked; what each worker process receives."""

    rules: Rules
    targets: tuple[int, ...] | None  # clue counts to draw from; None: as few as a minimal set has
    minimal: bool
    difficulty: str | None
    symmetry: str
    solver: str
    rate: bool
    max_attempts: int


def block_size(rules: Rules) -> int:
    """Puzzles that share one solver: enough to repay its build on small grids, 1 where puzzles cost more."""
    if rules.n <= 9:
        return 32
    return 4 if rules.n <= 12 else 1


def generate(
    count: int = 1,
    rules: Rules | None = None,
    *,
    clues: int | None = None,
    blanks: int | str | None = None,
    difficulty: str | None = None,
    symmetry: str = "none",
    minimal: bool = False,
    seed: int | str | None = None,
    jobs: int = 1,
    rate: bool = True,
    solver: str | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    client: Any | None = None,
    start: int = 0,
) -> Iterator[Generated]:
    """Generate ``count`` puzzles with a proved unique solution, in order, lazily.

    - ``shape``: the box shape (default 3x3, the 9x9 grid).
    - ``clues`` or ``blanks``: the exact number of givens or of empty cells; ``blanks`` may name a level
      of ``BLANK_LEVELS`` (a count drawn per puzzle from its range). Neither: the puzzles are minimal.
    - ``minimal``: no clue (no orbit, with a symmetry) can be removed keeping the solution unique; with a
      target as well, minimal puzzles of exactly that size.
    - ``difficulty``: a level of ``sudoku_cp.rate.LEVELS``; grids are drawn until the rating matches. Without
      a target, easy puzzles take the clue counts of the blank level easy, the others are minimal.
    - ``symmetry``: a name of ``SYMMETRIES``; the pattern of givens keeps it.
    - ``seed``: the same seed and options give the same puzzles (None: a fresh seed, kept in each answer).
    - ``jobs``: worker processes; the output does not depend on it.
    - ``rate``: rate every puzzle (always done with ``difficulty``).
    - ``solver``: what proves uniqueness: a python-sat name of ``SOLVERS``, or ``"dfs"``, the compiled band
      search, for minimal classic 9x9 puzzles without a clue target (the default there; elsewhere
      ``DEFAULT_SOLVER``).
    - ``client``: a ``distributed.Client``: the blocks go to that Dask cluster's workers instead (same
      puzzles, same order).
    - ``start``: skip the first ``start`` puzzles of the run: the rest are those of the whole run (the
      puzzles depend on the seed, the options and their place), so a stopped run continues where it stopped.

    ``UsageError`` (at the call) for impossible or contradictory options; ``GenerationError`` (while
    iterating) when ``max_attempts`` grids give no puzzle that meets the target or the difficulty.
    """
    if count < 1:
        raise UsageError(f"count must be at least 1, not {count}")
    if jobs < 1:
        raise UsageError(f"jobs must be at least 1, not {jobs}")
    if not 0 <= start < count:
        raise UsageError(f"start must be from 0 to count - 1 ({count - 1}), not {start}")
    rules = rules or Rules.classic(3, 3)
    request = _request(rules, clues, blanks, difficulty, symmetry, minimal, solver, rate, max_attempts)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    step = block_size(rules)
    base = start - start % step  # a puzzle depends on the ones before it in its block: redo that block
    blocks = [(first, min(first + step, count)) for first in range(base, count, step)]
    return itertools.islice(_run(request, seed, blocks, jobs, client), start - base, None)


def _run(
    request: _Request, seed: int | str, blocks: list[tuple[int, int]], jobs: int, client: Any | None
) -> Iterator[Generated]:
    """The puzzles of every block in order: here, from ``jobs`` worker processes of the batch engine's
    ordered pool (a dead worker is its ``WorkerError``; leaving early stops the workers), or from the
    workers of a Dask ``client`` (a lost scheduler is a ``ClusterError``)."""
    tasks = ((request, seed, first, stop) for first, stop in blocks)
    if client is not None:
        from ..batch.cluster import ClusterPool

        with ClusterPool(client, _run_block) as cluster:
            for puzzles in cluster.map(tasks):
                yield from puzzles
        return
    if jobs == 1 or len(blocks) == 1:
        for first, stop in blocks:
            yield from _block(request, seed, first, stop)
        return
    from ..batch.pool import OrderedPool

    with OrderedPool(min(jobs, len(blocks)), _run_block, preload=(__name__,)) as pool:
        for puzzles in pool.map(tasks, local=_run_block):
            yield from puzzles


def _request(
    rules: Rules,
    clues: int | None,
    blanks: int | str | None,
    difficulty: str | None,
    symmetry: str,
    minimal: bool,
    solver: str,
    rate: bool,
    max_attempts: int,
) -> _Request:
    """Check the options and turn them into the clue counts to aim at."""
    if symmetry not in SYMMETRIES:
        raise UsageError(f"unknown symmetry {symmetry!r}; valid: {', '.join(SYMMETRIES)}")
    if difficulty is not None and difficulty not in LEVELS:
        raise UsageError(f"unknown difficulty {difficulty!r}; valid: {', '.join(LEVELS)}")
    if clues is not None and blanks is not None:
        raise UsageError("give a number of clues or of blanks, not both")
    if solver is not None and solver not in (*SOLVERS, BAND_SEARCH):
        raise UsageError(
            f"the generator cannot use solver {solver!r}; valid: {BAND_SEARCH}, {', '.join(SOLVERS)}"
        )
    if max_attempts < 1:
        raise UsageError(f"max_attempts must be at least 1, not {max_attempts}")
    ncells = rules.ncells
    sizes = pattern_sizes(rules, symmetry)
    targets: tuple[int, ...] | None
    if isinstance(blanks, str):
        targets = _level_targets(rules, blanks, sizes)
    elif blanks is not None:
        if not 0 <= blanks <= ncells:
            raise UsageError(
                f"a {rules.n}x{rules.n} grid has {ncells} cells, so 0 to {ncells} blanks, not {blanks}"
            )
        targets = (ncells - blanks,)
    elif clues is not None:
        targets = (clues,)
    elif difficulty == "easy" and not minimal:  # easy puzzles are not minimal: draw them with few blanks
        targets = _level_targets(rules, "few", sizes)
    else:
        targets = None
    if targets is not None and len(targets) == 1:
        _check_target(rules, targets[0], symmetry, sizes)
    bands_serve = rules == Rules.classic(3, 3) and targets is None
    if solver == BAND_SEARCH and not bands_serve:
        raise UsageError(
            f"solver {BAND_SEARCH} (the band search) makes minimal classic 9x9 puzzles only, without a "
            f"number of clues or blanks (nor difficulty easy, which has a blank level); this request needs "
            f"a SAT solver such as {DEFAULT_SOLVER}"
        )
    if solver is None:
        solver = BAND_SEARCH if bands_serve else DEFAULT_SOLVER
    return _Request(
        rules, targets, minimal, difficulty, symmetry, solver, rate or bool(difficulty), max_attempts
    )


def _level_targets(rules: Rules, level: str, sizes: frozenset[int]) -> tuple[int, ...]:
    """The clue counts of a named blank level, scaled to the grid and kept to what the symmetry allows."""
    if level in LEVELS:  # a difficulty is a promise that rate() keeps, not a number of blanks
        raise UsageError(
            f"{level!r} is a difficulty, not a number of blanks: ask for difficulty={level!r} (--difficulty "
            f"{level}), or for blanks as a count or one of {', '.join(BLANK_LEVELS)}"
        )
    if level not in BLANK_LEVELS:
        raise UsageError(f"unknown blank level {level!r}; valid: {', '.join(BLANK_LEVELS)} or a number")
    ncells = rules.ncells
    low, high = (round(b * ncells / 81) for b in BLANK_LEVELS[level])
    counts = tuple(ncells - b for b in range(low, high + 1) if ncells - b in sizes)
    if not counts:  # the symmetry allows none: the nearest allowed count
        middle = ncells - (low + high) // 2
        counts = (min(sizes, key=lambda k: (abs(k - middle), k)),)
    return counts


def _check_target(rules: Rules, target: int, symmetry: str, sizes: frozenset[int]) -> None:
    """``UsageError`` for a clue count no unique puzzle (with this symmetry) can have."""
    n, ncells = rules.n, rules.ncells
    if not 0 <= target <= ncells:
        raise UsageError(f"a {n}x{n} grid has {ncells} cells, so 0 to {ncells} clues, not {target}")
    fewest = KNOWN_MINIMUM_CLUES.get(rules, n - 1)
    if target < fewest:
        why = (
            "the proved minimum" if rules in KNOWN_MINIMUM_CLUES else "two digits missing would allow a swap"
        )
        raise UsageError(
            f"no {n}x{n} puzzle with {target} clues has a unique solution: it needs at least {fewest} ({why})"
        )
    if target not in sizes:
        allowed = sorted(k for k in sizes if abs(k - target) <= 4)
        raise UsageError(
            f"a clue pattern with {symmetry} symmetry cannot have {target} clues in a {n}x{n} grid "
            f"(nearby counts it can have: {', '.join(map(str, allowed))})"
        )


def _run_block(task: tuple[_Request, int | str, int, int]) -> list[Generated]:
    """A worker process's task: one block ``(request, seed, start, stop)``, as a list."""
    return list(_block(*task))


def _block(request: _Request, seed: int | str, start: int, stop: int) -> Iterator[Generated]:
    """Puzzles ``start + 1`` to ``stop`` (numbered from 1) of a run, from one fresh solver."""
    if request.solver == BAND_SEARCH:
        oracle = contextlib.nullcontext(None)
    else:
        oracle = UniquenessOracle(request.rules, request.solver)
    with oracle as solver:
        for index in range(start + 1, stop + 1):
            yield _one(solver, request, seed, index)


@functools.cache
def _bands() -> ModuleType:
    """The band search's module, imported at its first use (numba) and once (``held_import`` sets and
    restores signal handlers: 38 us a call, 7% of a minimal puzzle)."""
    return held_import("sudoku_cp.generate.bands")


def _one(oracle: UniquenessOracle | None, request: _Request, seed: int | str, index: int) -> Generated:
    """Puzzle ``index``: draw grids until one meets the request (``oracle`` None: by the band search)."""
    rng = random.Random(f"sudoku-cp:{seed}:{index}")
    rules = request.rules
    cell_orbits = orbits(rules, request.symmetry)
    bands = _bands() if oracle is None else None
    for attempt in range(1, request.max_attempts + 1):
        if bands is not None:
            drawn = bands.minimal_puzzle(rng, cell_orbits)
            if drawn is None:
                continue
            grid, kept = drawn
        else:
            target = rng.choice(request.targets) if request.targets else None
            grid = oracle.full_grid(rng)
            oracle.fix(grid)
            kept = reduce_clues(oracle, cell_orbits, rng, minimal=request.minimal, target=target)
            if kept is None:
                continue
        cells = [0] * rules.ncells
        for cell in kept:
            cells[cell] = grid[cell]
        puzzle = Puzzle(rules, tuple(cells))
        rating = rate_puzzle(puzzle) if request.rate else None
        if request.difficulty and (rating is None or rating.level != request.difficulty):
            continue
        if oracle is not None:
            oracle.release()
        return Generated(
            puzzle,
            Puzzle(rules, tuple(grid)),
            rating,
            True,
            BAND_SEARCH if oracle is None else oracle.proved_by,
            request.symmetry,
            seed,
            index,
            attempt,
        )
    if oracle is not None:
        oracle.release()
    raise GenerationError(_failure(request))


def _failure(request: _Request) -> str:
    """Why no puzzle came out of the attempts."""
    tries = f"{request.max_attempts} grids"
    targets = request.targets or ()
    with_clues = ""
    if targets:
        what = f"{targets[0]}" if len(targets) == 1 else f"{min(targets)}-{max(targets)}"
        with_clues = f" with {what} clues"
    if request.difficulty:
        return f"no {request.difficulty} puzzle{with_clues} found in {tries}; try another clue target"
    if request.minimal:
        return f"no minimal puzzle{with_clues} found in {tries}: random minimal puzzles rarely have that size"
    return f"no unique puzzle{with_clues} found in {tries}: clue removal rarely gets that low on random grids"
