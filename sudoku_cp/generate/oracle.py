"""The SAT uniqueness oracle of the generator: one incremental solver per shape, one blocking clause per grid.

The solver holds the empty grid's CNF (``sudoku_cp.encode.cnf.encode_shape``, primary variables
``var(cell, digit) = cell * n + digit``). For a fixed full grid G the clause "some cell differs from G",
guarded by an activation literal, is added once; then a clue set (a subset of G's cells) is unique
exactly when solving under those clues as assumptions is unsatisfiable. An unsatisfiable call's core over
the clue assumptions is itself a unique clue set, usually much smaller; a satisfiable call's model is a
second solution, whose differences from G form an unavoidable set (every unique clue set must hit it).

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
from functools import cache
from typing import Any

from ..errors import SudokuError
from ..grid import Rules

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


@cache
def _empty_grid(rules: Rules) -> tuple[list[list[int]], int]:
    """The empty grid's clauses and variable count, kept per process: encoding a 16x16 grid takes a
    quarter of a second, loading the clauses into a solver a sixth of that."""
    from ..encode.cnf import encode_rules

    cnf = encode_rules(rules)
    return cnf.clauses, cnf.nv


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
        from pysat.solvers import NoSuchSolverError, Solver

        self.rules = rules
        self.solver_name = solver
        clauses, nv = _empty_grid(rules)
        try:
            self._solver: Any = Solver(name=solver, bootstrap_with=clauses)
        except NoSuchSolverError:
            raise SudokuError(f"python-sat has no solver {solver!r}") from None
        self._top = nv
        self._primary = rules.n**3
        self._grid: tuple[int, ...] | None = None
        self._lits: list[int] = []
        self._active = 0
        #: SAT calls made (each ``check`` and ``full_grid`` is one).
        self.calls = 0

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
        self.calls += 1
        if not self._solver.solve():
            raise SudokuError(f"the empty {rules} grid has no solution: the solver is broken")
        grid = [0] * rules.ncells
        for lit in self._solver.get_model()[: self._primary]:
            if lit > 0:
                cell, d = divmod(lit - 1, n)
                grid[cell] = d + 1
        return random_isomorph(tuple(grid), rules, rng)

    def fix(self, grid: tuple[int, ...]) -> None:
        """Make ``grid`` the reference: add the guarded clause "some cell differs from it"."""
        self.release()
        n = self.rules.n
        self._grid = grid
        self._lits = [cell * n + d for cell, d in enumerate(grid)]
        self._top += 1
        self._active = self._top
        self._solver.add_clause([-self._active, *(-lit for lit in self._lits)])

    def check(self, cells: Iterable[int], differ: bool = True) -> tuple[bool, list[int]]:
        """Whether the grid's digits on ``cells`` determine it: ``(True, core)`` or ``(False, differ)``.

        ``core`` lists the cells whose clues the unsatisfiability proof used (a unique clue set within
        ``cells``); ``differ`` the cells where a second solution, agreeing on ``cells``, differs from the grid
        (left empty with ``differ=False``, which spares reading the model).
        """
        if self._grid is None:
            raise SudokuError("no grid fixed: call fix(grid) first")
        cells = list(cells)
        lits = self._lits
        self.calls += 1
        if self._solver.solve(assumptions=[self._active, *(lits[c] for c in cells)]):
            if not differ:
                return False, []
            model = self._solver.get_model()
            return False, [c for c, lit in enumerate(lits) if model[lit - 1] < 0]
        core = set(self._solver.get_core() or ())
        return True, [c for c in cells if lits[c] in core]

    def release(self) -> None:
        """Retire the current grid's blocking clause for good (the solver then drops it)."""
        if self._active:
            self._solver.add_clause([-self._active])
            self._active = 0
            self._grid = None

    def close(self) -> None:
        """Free the solver."""
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def __enter__(self) -> UniquenessOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
