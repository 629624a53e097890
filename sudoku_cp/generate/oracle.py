"""The SAT uniqueness oracle of the generator: one incremental solver per shape, one blocking clause per grid.

The solver is a ``backends.grid_solver.GridSolver``: the empty grid's CNF (primary variables ``var(cell,
digit) = cell * n + digit``), each question as assumptions. For a fixed full grid G the clause "some cell
differs from G", guarded by an activation literal, is added once; then a clue set (a subset of G's cells)
is unique exactly when solving under those clues as assumptions is unsatisfiable. An unsatisfiable call's
core over the clue assumptions is itself a unique clue set, usually much smaller; a satisfiable call's
model is a second solution, whose differences from G form an unavoidable set (every unique clue set must
hit it).

The solver also draws the full grids: random phases make its search land on a random grid, and a random
isomorphism of that grid (digits relabelled, rows within bands, bands, columns within stacks, stacks,
and a transposition when boxes are square) mixes it further. Every random choice comes from the caller's
``random.Random``; the solver is deterministic, so the same calls give the same answers on any machine.

>>> import random
>>> from sudoku_cp.rules import Rules
>>> with UniquenessOracle(Rules.classic(2, 2)) as oracle:
...     grid = oracle.full_grid(random.Random(1))
...     oracle.fix(grid)
...     unique, cells = oracle.check(range(16))
>>> unique, len(grid)
(True, 16)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import SudokuError, UsageError
from ..grid import Rules

if TYPE_CHECKING:
    from ..backends.grid_solver import GridSolver

__all__ = ["DEFAULT_SOLVER", "SOLVERS", "UniquenessOracle", "random_isomorph"]

#: The python-sat solver of the generator: CaDiCaL 1.5.3 answers the many small assumption calls of clue
#: removal about twice as fast as Glucose 4 or MiniSat 2.2 (measured: 9x9 minimal puzzles 390/s against
#: 170/s and 200/s, same calls) and gives cores over assumptions.
DEFAULT_SOLVER = "cadical153"
#: python-sat solvers that take assumptions, give cores and accept preferred phases: those the oracle can
#: use (CaDiCaL 1.0.3 and Kissat refuse phases; CryptoMiniSat needs an extra package).
SOLVERS = (
    "cadical153", "cadical195", "cadical300", "ergo", "gluecard3", "gluecard4", "glucose3", "glucose4",
    "glucose42", "lingeling", "maplechrono", "maplecm", "maplesat", "mergesat3", "minicard", "minisat22",
    "minisatep",
)  # fmt: skip


def random_isomorph(grid: tuple[int, ...], rules: Rules, rng: random.Random) -> tuple[int, ...]:
    """A random grid equivalent to ``grid``: digits relabelled, bands, rows in bands, stacks and columns in
    stacks permuted, and transposed (when boxes are square) with probability 1/2. Valid grids stay valid.

    Those moves keep only the classic rules (a diagonal, a cage or a thermometer does not move with the
    rows): other rules get ``grid`` itself, its randomness from the solver's random phases."""
    if not rules.is_classic:
        return grid
    n, br, bc = rules.n, rules.box_rows, rules.box_cols
    bands = list(range(bc))  # bc bands of br rows each
    rng.shuffle(bands)
    rows = []
    for band in bands:
        inner = list(range(br))
        rng.shuffle(inner)
        rows += [band * br + r for r in inner]
    stacks = list(range(br))  # br stacks of bc columns each
    rng.shuffle(stacks)
    cols = []
    for stack in stacks:
        inner = list(range(bc))
        rng.shuffle(inner)
        cols += [stack * bc + c for c in inner]
    relabel = [0, *rng.sample(range(1, n + 1), n)]
    out = [relabel[grid[rows[r] * n + cols[c]]] for r in range(n) for c in range(n)]
    if br == bc and rng.random() < 0.5:
        out = [out[c * n + r] for r in range(n) for c in range(n)]
    return tuple(out)


class UniquenessOracle:
    """An incremental SAT solver over the empty grid of ``shape`` that proves clue sets of one grid unique.

    Use: ``grid = full_grid(rng)``, ``fix(grid)``, any number of ``check(cells)``, then ``release()``
    (``fix`` of the next grid releases the previous one). The answers of a fresh oracle depend only on the
    sequence of calls made to it (learnt clauses carry over), so callers that need reproducible output
    start a fresh oracle for each fixed batch of work.
    """

    def __init__(self, rules: Rules, solver: str = DEFAULT_SOLVER) -> None:
        from ..backends.grid_solver import GridSolver
        from ..errors import BackendUnavailableError

        self.rules = rules
        self.solver_name = solver
        try:
            self._grid_solver: GridSolver | None = GridSolver(rules, solver)
        except BackendUnavailableError:
            raise SudokuError(f"python-sat has no solver {solver!r}") from None
        self._grid: tuple[int, ...] | None = None
        self._lits: list[int] = []
        self._active = 0

    @property
    def _solver(self) -> GridSolver:
        if self._grid_solver is None:
            raise SudokuError("the oracle is closed")
        return self._grid_solver

    @property
    def calls(self) -> int:
        """SAT calls made (each ``check`` and ``full_grid`` is one)."""
        return self._solver.calls

    @property
    def proved_by(self) -> str:
        """The backend spec that proves the verdicts, such as ``sat:cadical153``."""
        return f"sat:{self.solver_name}"

    def full_grid(self, rng: random.Random) -> tuple[int, ...]:
        """A random complete grid (a solution of the empty grid), as digits per cell."""
        self.release()
        n, rules = self.rules.n, self.rules
        phases = []
        for cell in range(rules.ncells):
            pick = rng.randrange(n)
            base = cell * n
            phases += [base + d + 1 if d == pick else -(base + d + 1) for d in range(n)]
        self._solver.set_phases(phases)
        if not self._solver.solve([]):  # rules no grid keeps (anti-king on 4x4): no puzzle to make
            raise UsageError(f"no grid keeps the rules ({rules}: the empty grid has no solution): no puzzle")
        return random_isomorph(self._solver.solution(), rules, rng)

    def fix(self, grid: tuple[int, ...]) -> None:
        """Make ``grid`` the reference: add the guarded clause "some cell differs from it"."""
        self.release()
        solver = self._solver
        self._grid = grid
        self._lits = solver.givens(grid)
        self._active = solver.guard()
        solver.block(grid, self._active)

    def check(
        self, cells: Iterable[int], differ: bool = True, conflicts: int | None = None
    ) -> tuple[bool | None, list[int]]:
        """Whether the grid's digits on ``cells`` determine it: ``(True, core)`` or ``(False, differ)``;
        ``(None, [])`` when the search met ``conflicts`` conflicts first (no answer: a bound that gives the
        same answers on any machine).

        ``core`` lists the cells whose clues the unsatisfiability proof used (a unique clue set within
        ``cells``); ``differ`` the cells where a second solution, agreeing on ``cells``, differs from the grid
        (left empty with ``differ=False``, which spares reading the model).
        """
        if self._grid is None:
            raise SudokuError("no grid fixed: call fix(grid) first")
        cells = list(cells)
        lits = self._lits
        found = self._solver.solve([self._active, *(lits[c] for c in cells)], conflicts=conflicts)
        if found is None:
            if conflicts is None:  # no bound, so a stop (``signals.Stop``): no answer is no proof
                raise SudokuError(f"{self.proved_by} was stopped before it answered")
            return None, []
        if found:
            if not differ:
                return False, []
            other = self._solver.solution()
            return False, [c for c, (a, b) in enumerate(zip(self._grid, other, strict=True)) if a != b]
        core = set(self._solver.core())
        return True, [c for c in cells if lits[c] in core]

    def release(self) -> None:
        """Retire the current grid's blocking clause for good (the solver then drops it)."""
        if self._active:
            self._solver.retire(self._active)
            self._active = 0
            self._grid = None

    def close(self) -> None:
        """Free the solver."""
        if self._grid_solver is not None:
            self._grid_solver.close()
            self._grid_solver = None

    def __enter__(self) -> UniquenessOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
