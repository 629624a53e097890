"""Difficulty rating from the inference a puzzle needs, and the search effort it costs (docs/rating.md).

Rules, each tried only when the simpler ones stall:

1. naked singles: a cell with one candidate left takes it;
2. hidden singles: a digit with one place left in a unit goes there;
3. failed literals: candidates are tried one at a time by SAT unit propagation over the extended encoding
   (which derives exactly naked and hidden singles); a trial that ends in a conflict removes the candidate.
   Trials go round the candidates in a fixed cycle (cells row by row, digits ascending), each from the state
   the previous eliminations left; the count of eliminations the puzzle needs measures how often the
   singles got stuck;
4. search: a full cycle of trials removes nothing while the grid is not solved: guessing is needed.

The effort of search is measured on every puzzle: guesses and backtracks of the ``dfs`` backend exploring
the whole tree (asked for two solutions, so it also proves uniqueness), and conflicts of the ``sat``
backend on the reduced encoding (a fresh solver per puzzle, so the count is the puzzle's own).

>>> r = rate("12343412214343..")
>>> r.level, r.technique
('easy', 'naked_singles')
"""

from __future__ import annotations

import atexit
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from .grid import Puzzle, Rules

__all__ = [
    "BACKTRACKS_EXPERT",
    "ELIMINATIONS_EXTREME",
    "ELIMINATIONS_HARD",
    "LEVELS",
    "TECHNIQUES",
    "Rating",
    "level_of",
    "rate",
]

#: The named levels, easiest first.
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
#: The rules, simplest first (``search``: none of the others solves the puzzle).
TECHNIQUES = ("naked_singles", "hidden_singles", "failed_literals", "search")
#: A puzzle the failed literals solve is ``hard`` with at most this many eliminations ...
ELIMINATIONS_HARD = 3
#: ... and fewer dfs backtracks than this; otherwise ``expert``, ...
BACKTRACKS_EXPERT = 10
#: ... or ``extreme`` from this many eliminations on (as is any puzzle that needs search).
ELIMINATIONS_EXTREME = 15
#: The solver that counts conflicts: the sat backend on the reduced encoding, fresh per puzzle.
CONFLICT_SOLVER = "sat"
#: The solver for failed-literal trials (python-sat's ``propagate``, which Glucose supports).
PROBE_SOLVER = "glucose4"


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is: its level, the strongest rule it needs and the search effort it costs.

    ``level`` and ``technique`` are None unless the puzzle has exactly one solution (``solutions`` counts
    up to 2, meaning two or more). ``eliminations``: candidates the failed literals removed (0 when singles
    suffice; for ``search``, those removed before the trials got stuck).
    """

    level: str | None
    technique: str | None
    solutions: int
    eliminations: int
    guesses: int
    backtracks: int
    conflicts: int

    @property
    def rank(self) -> int:
        """The level's index in ``LEVELS`` (0 for easy), -1 when the puzzle is not rated."""
        return LEVELS.index(self.level) if self.level else -1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def level_of(technique: str, eliminations: int, backtracks: int) -> str:
    """The named level of a uniquely solvable puzzle (the rule written out in docs/rating.md)."""
    if technique == "naked_singles":
        return "easy"
    if technique == "hidden_singles":
        return "medium"
    if technique == "search" or eliminations >= ELIMINATIONS_EXTREME:
        return "extreme"
    if eliminations <= ELIMINATIONS_HARD and backtracks < BACKTRACKS_EXPERT:
        return "hard"
    return "expert"


def rate(puzzle: Puzzle | str) -> Rating:
    """Rate one puzzle: the rules that solve it without guessing, the search effort, the named level."""
    if isinstance(puzzle, str):
        puzzle = Puzzle.from_string(puzzle)
    found = _dfs().enumerate(puzzle, limit=2)
    solutions = len(found.solutions)
    guesses, backtracks = int(found.stats.get("guesses", 0)), int(found.stats.get("backtracks", 0))
    conflicts = int(_sat().enumerate(puzzle, limit=2).stats.get("conflicts", 0))
    if solutions != 1:
        return Rating(None, None, solutions, 0, guesses, backtracks, conflicts)
    technique, eliminated = _logic(puzzle)
    level = level_of(technique, eliminated, backtracks)
    return Rating(level, technique, 1, eliminated, guesses, backtracks, conflicts)


@cache
def _dfs() -> Any:
    from .backends import make_backend

    # mrv, named: the levels' thresholds were set on its counts, which both dfs engines share (the default,
    # auto, takes the compiled engine's band search on 9x9, whose counts are its own)
    return make_backend("dfs", heuristic="mrv")


@cache
def _sat() -> Any:
    from .backends import make_backend

    return make_backend(CONFLICT_SOLVER, encoding="reduced")


@atexit.register
def _release_solvers() -> None:
    """Free the cached solvers while python-sat is still loaded: at interpreter exit it may be gone."""
    for cached in (_probe_solver, _sat, _dfs):
        cached.cache_clear()


def _logic(puzzle: Puzzle) -> tuple[str, int]:
    """The simplest rule set that solves the puzzle, and the failed-literal eliminations it took."""
    rules, cells = puzzle.rules, puzzle.cells
    if _solved(_singles(cells, rules, hidden=False)):
        return "naked_singles", 0
    if _solved(_singles(cells, rules, hidden=True)):
        return "hidden_singles", 0
    return _probe(puzzle)


def _solved(cands: list[int] | None) -> bool:
    return cands is not None and all(m & (m - 1) == 0 for m in cands)


def _singles(cells: tuple[int, ...], rules: Rules, hidden: bool) -> list[int] | None:
    """Candidate bitmasks (bit d-1: digit d) after naked (and ``hidden``) singles; None on a clash."""
    from .backends.dfs_reference import geometry, propagate

    geo = geometry(rules)
    cands = [1 << (d - 1) if d else geo.full for d in cells]
    return cands if propagate(cands, [c for c, d in enumerate(cells) if d], geo, hidden) else None


@cache
def _probe_solver(rules: Rules) -> Any:
    """A solver holding the empty grid's extended encoding; ``propagate`` learns nothing, so it is shared."""
    from .backends.grid_solver import GridSolver

    return GridSolver(rules, PROBE_SOLVER)


def _probe(puzzle: Puzzle) -> tuple[str, int]:
    """Failed literals in a cycle after singles: ``("failed_literals" or "search", eliminations)``."""
    solver = _probe_solver(puzzle.rules)
    n, ncells = puzzle.rules.n, puzzle.rules.ncells
    primary = n**3
    known = [c * n + d for c, d in enumerate(puzzle.cells) if d]
    eliminated = 0
    trial = idle = 0  # the last variable tried; trials since the last elimination
    while True:
        ok, implied = solver.propagate(known)
        if not ok:  # rate() calls this for uniquely solvable puzzles only
            raise RuntimeError("failed literals removed a candidate of the solution")
        if sum(1 for lit in implied if 0 < lit <= primary) == ncells:
            return "failed_literals", eliminated
        assigned = {abs(lit) for lit in implied}
        while True:
            if idle == primary:
                return "search", eliminated
            trial = trial % primary + 1
            idle += 1
            if trial not in assigned and not solver.propagate([*known, trial])[0]:
                known.append(-trial)
                eliminated += 1
                idle = 0
                break
