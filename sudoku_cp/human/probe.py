"""The forcing nets' propagation probe, and whether a walk's puzzle has one solution.

The probe is a SAT solver holding the extended encoding of the rules simplified by the board's facts at
the time it is built (clauses a placement satisfies dropped, eliminated candidates' literals removed), so
it loads a few thousand clauses instead of the twelve thousand of the empty 9x9 grid: the build, not the
propagation, was its cost. Unit propagation in it is that of the whole formula with the facts as unit
clauses; later facts are added as unit clauses. Uniqueness is asked of one incremental ``sat`` backend
per thread, kept across walks (a solver built per walk cost as much as the rest of a short walk).
"""

from __future__ import annotations

import atexit
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..rules import RULES_KEPT, Rules
from .board import Board, cells_of, digits_of

if TYPE_CHECKING:
    import numpy as np

__all__ = ["PROBE_SOLVER", "Probe", "probe_of", "release", "unique_board"]

#: The solver whose ``propagate`` runs the nets (Glucose supports it).
PROBE_SOLVER = "glucose4"


class Probe:
    """A solver of the board's rules holding the board's facts (see the module's docstring)."""

    def __init__(self, board: Board) -> None:
        from ..backends.sat import new_solver

        self.n = board.n
        self.solver: Any = new_solver(PROBE_SOLVER, _simplified(board), incremental=True)
        #: Each cell's candidates and digit when its facts were last given to the solver.
        self._masks, self._values = list(board.masks), list(board.values)
        #: One literal's propagation, kept for the board state it was asked in (``Board.version``):
        #: the forcing nets and the first contradiction nets ask the same ones.
        self._single: dict[int, tuple[bool, list[int]]] = {}
        self._version = -1
        self._candidates: list[int] = []
        #: The literals that eliminate an open candidate (kept with the candidates per board state).
        self.eliminated: frozenset[int] = frozenset()

    def update(self, board: Board) -> list[int]:
        """Give the solver the board's new facts; the open candidates' variables, cells in order (once per
        board state, as ``eliminated``, the negative literals of those variables)."""
        if board.version == self._version:
            return self._candidates
        self._single.clear()
        self._version = board.version
        n, solver = self.n, self.solver
        masks, values, known_masks, known_values = board.masks, board.values, self._masks, self._values
        # a digit placed where it was the last candidate changes no mask: its cell's clause is then a unit
        for cell in [c for c, (a, b) in enumerate(zip(masks, known_masks, strict=True)) if a != b]:
            base, mask, value = cell * n, masks[cell], values[cell]
            old_mask, old_value = known_masks[cell], known_values[cell]
            known_masks[cell], known_values[cell] = mask, value
            if value and not old_value:
                solver.add_clause([base + value])
            for d in digits_of(old_mask & ~(1 << (value - 1) if value else mask)):
                solver.add_clause([-(base + d)])
        candidates = [var for cell in cells_of(board.open_bits) for var in _variables(cell * n, masks[cell])]
        self._candidates = candidates
        self.eliminated = frozenset(-var for var in candidates)
        return candidates

    def propagate(self, assumptions: list[int]) -> tuple[bool, list[int]]:
        """Unit propagation alone under ``assumptions``: whether it meets no conflict, and the literals it
        assigns (the assumptions first; the board's facts are not among them)."""
        return self.solver.propagate(assumptions=assumptions)

    def single(self, var: int) -> tuple[bool, list[int]]:
        """``propagate([var])`` on the board's facts, once per board state."""
        found = self._single.get(var)
        if found is None:
            found = self._single[var] = self.propagate([var])
        return found

    def close(self) -> None:
        self.solver.delete()


@lru_cache(maxsize=1 << 14)
def _variables(base: int, mask: int) -> tuple[int, ...]:
    """The variables ``base + d`` of the digits d of ``mask``."""
    return tuple(base + d for d in digits_of(mask))


def probe_of(board: Board) -> Probe:
    """The walk's probe, built on first use and kept in ``board.memo``, updated to the board."""
    probe = board.memo.get("probe")
    if probe is None:
        probe = board.memo["probe"] = Probe(board)
    probe.update(board)
    return probe


def unique_board(board: Board) -> bool:
    """Whether ``board`` has exactly one solution. Sound steps keep every solution, so this holds for the
    whole walk and is asked once."""
    unique = board.memo.get("unique")
    if unique is None:
        found = _uniqueness_backend().enumerate_candidates(board.candidates(), limit=2)
        unique = board.memo["unique"] = len(found.solutions) == 1
    return unique


def release(board: Board) -> None:
    """Drop what the walk kept (its solver, links, caches): a board kept or sent elsewhere holds none."""
    probe = board.memo.pop("probe", None)
    if probe is not None:
        probe.close()
    board.memo.clear()


_LOCAL = threading.local()


def _uniqueness_backend() -> Any:
    """This thread's ``sat`` backend (its incremental solver per rules serves every walk), closed at exit:
    python-sat's solvers cannot delete themselves once the interpreter is being torn down."""
    backend = getattr(_LOCAL, "backend", None)
    if backend is None:
        from ..backends import make_backend

        backend = _LOCAL.backend = make_backend("sat")
        atexit.register(backend.close)
    return backend


def _simplified(board: Board) -> list[list[int]]:
    """The extended encoding of the board's rules simplified by its facts: the clauses no fact satisfies,
    without the literals a fact falsifies (one left with a single literal stays, a unit; with none, the
    empty clause). The longer clauses first, then the binary ones, each in the encoding's order (Glucose
    watches the two kinds apart, so their propagation order is the whole formula's)."""
    import numpy as np

    n = board.n
    long, binary, nv = _clause_arrays(board.rules)
    value = np.zeros(nv + 1, dtype=np.int8)  # per variable: 1 true, -1 false, 0 open (and 0 for padding)
    masks = np.array(board.masks, dtype=np.int64)
    values = np.array(board.values, dtype=np.int64)
    placed = values > 0
    primary = np.where((masks[:, None] >> np.arange(n)) & 1 == 1, 0, -1).astype(np.int8)
    primary[placed] = -1
    primary[placed, values[placed] - 1] = 1
    value[1 : primary.size + 1] = primary.ravel()
    state = value[np.abs(long)] * np.sign(long)  # 1 a true literal, -1 a false one, 0 open or padding
    keep = ~(state == 1).any(axis=1)
    kept = np.where(state[keep] == 0, long[keep], 0)
    clauses = [list(filter(None, row)) for row in kept.tolist()]
    state = value[np.abs(binary)] * np.sign(binary)
    live = ~(state == 1).any(axis=1)
    open_ends = (state == 0).sum(axis=1)
    clauses += binary[live & (open_ends == 2)].tolist()
    if (live & (open_ends < 2)).any():  # a fact falsifies an end: the other alone, or nothing
        cut = np.where(state == 0, binary, 0)[live & (open_ends < 2)]
        clauses += [list(filter(None, row)) for row in cut.tolist()]
    return clauses


@lru_cache(maxsize=RULES_KEPT)
def _clause_arrays(rules: Rules) -> tuple[np.ndarray, np.ndarray, int]:
    """The empty grid's extended encoding as two arrays, a clause a row: the longer clauses (and any
    unit) padded with 0, and the binary ones; and the variable count."""
    import numpy as np

    from ..backends.grid_solver import empty_grid_clauses

    clauses, nv = empty_grid_clauses(rules, "extended")
    longer = [c for c in clauses if len(c) != 2]
    width = max((len(c) for c in longer), default=0)
    long = np.array([c + [0] * (width - len(c)) for c in longer], dtype=np.int64).reshape(len(longer), width)
    binary = np.array([c for c in clauses if len(c) == 2], dtype=np.int64).reshape(-1, 2)
    return long, binary, nv
