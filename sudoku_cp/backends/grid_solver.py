"""One incremental SAT solver over the empty grid of some rules: the one place that holds such a solver.

The solver is loaded once with the CNF of the empty grid (``encode.cnf.clause_families``, primary
variables ``var(cell, digit) = cell * n + digit``); each question then comes as assumptions (a puzzle's
givens, a clue set). A found grid is excluded by a blocking clause guarded by a fresh activation literal:
assumed while the question lasts, falsified for good after it (the solver then drops the clause). This
is the technique of incremental SAT under assumptions (Eén and Sörensson, "Temporal induction by
incremental SAT solving", BMC 2003), here in three roles: the ``sat`` backend's solver per grid shape
(uniqueness of a puzzle: block its solution, solve again), the generator's uniqueness oracle (block one
full grid, then ask which clue sets force it) and the rater's failed-literal probe (unit propagation
under assumptions, no search).

Every call runs through ``sat.solve_call``: python-sat's own Ctrl-C handler is never installed, grids of
16x16 and up stop at once on Ctrl-C or SIGTERM, and a deadline interrupts the search.

>>> from sudoku_cp.rules import Rules
>>> with GridSolver(Rules.classic(2, 2)) as grid:
...     grid.solve(grid.givens((1, 2, 3, 4) + (0,) * 12))
...     grid.solution()[:4]
True
(1, 2, 3, 4)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..encode.cnf import clause_families
from ..rules import Rules
from . import sat
from .sat import DEFAULT_SOLVER, counters, solve_call, stoppable

__all__ = ["GridSolver", "empty_grid_clauses"]


@lru_cache(maxsize=8)
def empty_grid_clauses(rules: Rules, encoding: str = "extended", amo: str | None = None) -> tuple[list, int]:
    """The empty grid's clauses and variable count, kept per process: encoding a 16x16 grid takes a
    quarter of a second, loading the clauses into a solver a sixth of that. Callers must not change them."""
    families, nv = clause_families(rules, encoding, amo)
    return [c for group in families.values() for c in group], nv


class GridSolver:
    """A python-sat solver (``solver``, python-sat's name) holding the empty grid of ``rules`` under
    ``encoding`` and ``amo`` (as ``encode.cnf.clause_families`` takes them)."""

    def __init__(
        self, rules: Rules, solver: str = DEFAULT_SOLVER, encoding: str = "extended", amo: str | None = None
    ) -> None:
        start = time.perf_counter()
        self.rules = rules
        self.name = solver
        self.clauses, self.nv = empty_grid_clauses(rules, encoding, amo)
        self.primary = rules.n**3
        self.stoppable = stoppable(rules)
        self.solver: Any = sat.new_solver(solver, self.clauses, incremental=True)
        self.top = self.nv
        #: Activation literals handed out since the solver was built (each is a slot of every model).
        self.guards = 0
        #: SAT calls made (``solve`` and ``propagate``).
        self.calls = 0
        #: Seconds the last build took, and whether no question has been asked since.
        self.build_time = time.perf_counter() - start
        self.fresh = True

    def var(self, cell: int, digit: int) -> int:
        """The primary variable "``cell`` holds ``digit``"."""
        return cell * self.rules.n + digit

    def givens(self, cells: Sequence[int]) -> list[int]:
        """The assumptions that put the digits of ``cells`` (digits per cell, 0 blank) in the grid."""
        n = self.rules.n
        return [cell * n + d for cell, d in enumerate(cells) if d]

    def solve(
        self, assumptions: list[int], deadline: float | None = None, conflicts: int | None = None
    ) -> bool | None:
        """Whether the grid has a solution under ``assumptions``; None when ``deadline`` passed first or
        the search met ``conflicts`` conflicts (``sat.solve_call``)."""
        self.calls += 1
        self.fresh = False
        return solve_call(self.solver, self.name, assumptions, deadline, self.stoppable, conflicts)

    def solution(self) -> tuple[int, ...]:
        """The digits per cell of the last satisfiable call's model."""
        n = self.rules.n
        true = [lit for lit in self.solver.get_model()[: self.primary] if lit > 0]
        if len(true) != self.rules.ncells:  # every encoding forces exactly one digit per cell
            raise RuntimeError(f"sat:{self.name} returned a model without one digit per cell")
        return tuple((lit - 1) % n + 1 for lit in true)

    def core(self) -> list[int]:
        """The assumptions the last unsatisfiable call's proof used (a subset, not always minimal)."""
        return list(self.solver.get_core() or ())

    def propagate(self, assumptions: list[int]) -> tuple[bool, list[int]]:
        """Unit propagation alone under ``assumptions``: whether it meets no conflict, and the literals
        it assigns. The solver learns nothing from it."""
        self.calls += 1
        self.fresh = False
        return self.solver.propagate(assumptions=assumptions)

    def set_phases(self, literals: list[int]) -> None:
        """The values the search tries first for these variables (a random full grid comes from them)."""
        self.solver.set_phases(literals)

    def guard(self) -> int:
        """A fresh activation literal: clauses guarded by it hold while it is assumed."""
        self.top += 1
        self.guards += 1
        return self.top

    def block(self, grid: Sequence[int], guard: int, fixed: Sequence[int] | None = None) -> None:
        """While ``guard`` is assumed, exclude ``grid`` (digits per cell): some cell must hold another
        digit. Cells given in ``fixed`` (digits per cell, 0 blank), which the assumptions fix anyway, are
        left out of the clause."""
        n = self.rules.n
        if fixed is None:
            clause = [-(cell * n + d) for cell, d in enumerate(grid)]
        else:
            clause = [-(cell * n + d) for cell, (d, f) in enumerate(zip(grid, fixed, strict=True)) if not f]
        clause.append(-guard)
        self.solver.add_clause(clause)

    def retire(self, guard: int) -> None:
        """Falsify ``guard`` for good: the clauses it guarded are gone."""
        self.solver.add_clause([-guard])

    def counters(self) -> dict[str, int]:
        """The solver's cumulative decisions, conflicts and propagations (empty where it keeps none)."""
        return counters(self.solver)

    def renew(self) -> None:
        """A new solver on the same clauses, shedding activation literals and learnt clauses."""
        start = time.perf_counter()
        self.solver.delete()
        self.solver = sat.new_solver(self.name, self.clauses, incremental=True)
        self.top, self.guards, self.fresh = self.nv, 0, True
        self.build_time = time.perf_counter() - start

    def close(self) -> None:
        """Free the solver."""
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def __enter__(self) -> GridSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
