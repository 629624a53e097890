"""Difficulty: Sudoku Explainer's rating of a puzzle's logical solution, and its bands (docs/rating.md).

One vocabulary: a puzzle's level is the band its ER falls in, ER being the hardest step of the walk of
``sudoku-cp steps`` (``sudoku_cp.human.walk``: the easiest technique that applies, one step at a time, with
Sudoku Explainer 1.2.1's difficulties). ``rate``, ``rate --scale se`` and ``generate --difficulty`` all read
the same walk, so a level that ``generate`` promises is the level ``rate`` gives.

| level | ER | what it takes, by SE's scale |
|---|---|---|
| easy | up to 2.0 | hidden singles, direct pointing and claiming, direct hidden pairs |
| medium | 2.1 to 3.4 | naked singles, locked candidates, pairs, X-wings |
| hard | 3.5 to 5.0 | triples, swordfish, XY- and XYZ-wings, unique rectangles, naked quads |
| expert | 5.1 to 7.0 | jellyfish, hidden quads, BUG, chains, finned fish |
| extreme | above 7.0 | forcing chains and nets, nested nets; or a walk the techniques cannot finish |

On rules beyond the classic ones the walk is SE-style: the same techniques on the houses of the ``Rules``,
and the forcing nets read every other rule through its clauses (``human.engine.nets_only``). A walk that
gets stuck needs search: its level is extreme and its ER unknown (None).

The search effort is reported beside the rating: guesses and backtracks of the ``dfs`` backend (mrv) asked
for two solutions, so it explores the whole tree and proves uniqueness, and conflicts of the ``sat``
backend on the reduced encoding, a fresh solver per puzzle.

>>> r = rate("12343412214343..")
>>> r.level, r.er, r.technique
('easy', 1.0, 'Full house')
"""

from __future__ import annotations

import atexit
import bisect
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from . import deadline
from .grid import Puzzle, as_puzzle

__all__ = ["BANDS", "LEVELS", "SEARCH", "Rating", "level_of", "rate"]

#: The named levels, easiest first.
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
#: The highest ER of each level but the last (ER is given to one decimal): easy up to 2.0, and so on.
BANDS = (2.0, 3.4, 5.0, 7.0)
#: The technique of a walk the techniques cannot finish: the puzzle needs search.
SEARCH = "search"
#: The solver that counts conflicts: the sat backend on the reduced encoding, fresh per puzzle.
CONFLICT_SOLVER = "sat"


def level_of(er: float | None) -> str:
    """The level of an ER (None: the walk got stuck, so search is needed and the level is extreme).

    >>> level_of(1.5), level_of(2.3), level_of(3.4), level_of(4.2), level_of(6.6), level_of(8.3)
    ('easy', 'medium', 'medium', 'hard', 'expert', 'extreme')
    """
    if er is None:
        return LEVELS[-1]
    return LEVELS[bisect.bisect_left(BANDS, round(er, 1))]


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is: its level, Sudoku Explainer's three numbers, the hardest technique, and what
    search costs on it.

    ``er`` is the hardest step of the walk, ``ep`` the hardest up to the first placement, ``ed`` the first
    step's. ``technique`` names the hardest step (the first of them; None for a full grid, which takes no
    step), or is ``search`` when the walk gets stuck (``er``, ``ep`` and ``ed`` are then None). Everything
    but ``solutions`` and the effort figures is None unless the puzzle has exactly one solution
    (``solutions`` counts up to 2, meaning two or more). ``timed_out``: the time limit stopped the count
    or the walk first, so nothing is rated.
    """

    level: str | None
    er: float | None
    ep: float | None
    ed: float | None
    technique: str | None
    solutions: int
    guesses: int
    backtracks: int
    conflicts: int
    timed_out: bool = False

    @property
    def rank(self) -> int:
        """The level's index in ``LEVELS`` (0 for easy), -1 when the puzzle is not rated."""
        return LEVELS.index(self.level) if self.level else -1

    @property
    def se(self) -> str | None:
        """``ER/EP/ED`` as Sudoku Explainer prints them (``8.3/1.2/1.2``), None when there are none."""
        if self.er is None or self.ep is None or self.ed is None:
            return None
        return f"{self.er:.1f}/{self.ep:.1f}/{self.ed:.1f}"

    def to_dict(self) -> dict[str, Any]:
        """The fields (``timed_out`` only when true: a rating cut short is rare)."""
        out = asdict(self)
        if not self.timed_out:
            del out["timed_out"]
        return out


def rate(puzzle: Puzzle | str, *, time_limit: float | None = None) -> Rating:
    """Rate one puzzle: the walk's ER/EP/ED and level, the hardest technique, the search effort. Past
    ``time_limit`` seconds (the counts and the walk together) nothing is rated (``timed_out``)."""
    from .human import walk
    from .human.engine import UNKNOWN

    puzzle = as_puzzle(puzzle)
    time_limit = deadline.seconds(time_limit)
    effort = (0, 0, 0, 0)
    try:
        with deadline.within(time_limit):
            found = _dfs().enumerate(puzzle, limit=2, time_limit=deadline.left())
            solutions = len(found.solutions)
            guesses, backtracks = int(found.stats.get("guesses", 0)), int(found.stats.get("backtracks", 0))
            effort = (solutions, guesses, backtracks, 0)
            if found.timed_out:
                raise TimeoutError
            deadline.check()
            counted = _sat().enumerate(puzzle, limit=2, time_limit=deadline.left())
            effort = (solutions, guesses, backtracks, int(counted.stats.get("conflicts", 0)))
            if counted.timed_out:
                raise TimeoutError
            if solutions != 1:
                return Rating(None, None, None, None, None, *effort)
            deadline.check()
            done = walk(puzzle)  # within this deadline
            if done.result == UNKNOWN:
                raise TimeoutError
    except TimeoutError:
        return Rating(None, None, None, None, None, *effort, timed_out=True)
    if done.result != "solved":  # stuck: search is needed (a unique puzzle has no contradiction to meet)
        return Rating(level_of(None), None, None, None, SEARCH, *effort)
    assert done.rating is not None  # a walk that ended solved
    er, ep, ed = done.rating.er, done.rating.ep, done.rating.ed
    hardest = next((step.technique for step in done.steps if step.difficulty == er), None)  # None: no step
    return Rating(level_of(er), er, ep, ed, hardest, *effort)


@cache
def _dfs() -> Any:
    from .backends import make_backend

    # mrv, named: its counts are shared by both dfs engines (the default takes the compiled engine's band
    # search on 9x9, whose counts are its own)
    return make_backend("dfs", heuristic="mrv")


@cache
def _sat() -> Any:
    from .backends import make_backend

    return make_backend(CONFLICT_SOLVER, encoding="reduced")


@atexit.register
def _release_solvers() -> None:
    """Free the cached solvers while python-sat is still loaded: at interpreter exit it may be gone."""
    for cached in (_sat, _dfs):
        cached.cache_clear()
