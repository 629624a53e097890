"""The rating loop of Sudoku Explainer 1.2.1 (``Solver.getDifficulty`` with ``serate``'s EP and ED).

At each step the producers are asked in ``producers()`` order and the first hint of the first one that finds
anything is applied, whatever its difficulty (the order is SE's, not sorted: a naked single, 2.3, comes
after the direct techniques of 1.7 to 2.0, and SE's unary chains, which long chains make worth 8 or more,
before aligned triplet exclusion, 7.5). ER is the hardest hint of the walk, ED the first hint's, EP the
hardest up to and including the first hint that places a digit. A walk no producer can go on with ends
with ER 20.0, as in SE.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from .. import deadline
from ..grid import Puzzle
from .grid import Grid
from .hints import Hint

__all__ = ["Producer", "SERating", "producers", "rate_se", "se_walk", "uncollected", "walk_grid"]

#: A technique: its hints on a grid, in the order SE emits them (only the first is used).
Producer = Callable[[Grid], Iterator[Hint]]

#: The ER of a walk that gets stuck, as SE prints it.
STUCK = 20.0


def producers() -> tuple[Producer, ...]:
    """SE's producers in its order, made fresh for a walk (the chaining producers keep caches)."""
    from . import chaining, exclusion, singles, subsets, uniqueness, wings

    ends: chaining.Ends = {}  # the nested levels' propagations, resumed by the level above
    chaining.new_numbering()
    return (
        singles.hidden_single,  # 1.0, 1.2, 1.5
        singles.direct_locking,  # 1.7, 1.9
        singles.direct_hidden_set(2),  # 2.0
        singles.naked_single,  # 2.3
        singles.direct_hidden_set(3),  # 2.5
        subsets.locking,  # 2.6, 2.8
        subsets.naked_set(2),  # 3.0
        subsets.fish(2),  # 3.2
        subsets.hidden_set(2),  # 3.4
        subsets.naked_set(3),  # 3.6
        subsets.fish(3),  # 3.8
        subsets.hidden_set(3),  # 4.0
        wings.xy_wing,  # 4.2
        wings.xyz_wing,  # 4.4
        uniqueness.unique_loops,  # 4.5+
        subsets.naked_set(4),  # 5.0
        subsets.fish(4),  # 5.2
        subsets.hidden_set(4),  # 5.4
        uniqueness.bug,  # 5.6+
        exclusion.aligned_pair_exclusion,  # 6.2
        chaining.Chaining(multiple=False, dynamic=False, nishio=False, level=0),  # 6.5+
        exclusion.aligned_triplet_exclusion,  # 7.5
        chaining.Chaining(multiple=False, dynamic=True, nishio=True, level=0),  # 7.5+
        chaining.Chaining(multiple=True, dynamic=False, nishio=False, level=0),  # 8.0+
        chaining.Chaining(multiple=True, dynamic=True, nishio=False, level=0),  # 8.5+
        chaining.Chaining(multiple=True, dynamic=True, nishio=False, level=1, ends=ends),  # 9.0+
        chaining.Chaining(multiple=True, dynamic=True, nishio=False, level=2, ends=ends),  # 9.5+
        chaining.Chaining(multiple=True, dynamic=True, nishio=False, level=3, ends=ends),  # 10.0+
        chaining.Chaining(multiple=True, dynamic=True, nishio=False, level=4, ends=ends),  # 10.5+
        chaining.Chaining(multiple=True, dynamic=True, nishio=False, level=5, ends=ends),  # 11.0+
    )


@dataclass(frozen=True)
class SERating:
    """``er``, ``ep``, ``ed`` as SE computes them; ``str`` prints them as ``serate`` does."""

    er: float
    ep: float
    ed: float

    def __str__(self) -> str:
        return "/".join(_se_format(x) for x in (self.er, self.ep, self.ed))


def _se_format(value: float) -> str:
    """SE's printing: ``(int)((d + 0.05) * 10)`` tenths, truncated toward zero."""
    tenths = int((value + 0.05) * 10)
    return f"{tenths // 10}.{tenths % 10}"


def walk_grid(grid: Grid, producers: Sequence[Producer]) -> Iterator[Hint]:
    """The hints of SE's walk from ``grid``, each applied before the next is looked for; stops when the
    grid is full or no producer finds anything (``TimeoutError`` past the thread's ``deadline``)."""
    while not grid.solved:
        hint = None
        with uncollected():
            for producer in producers:
                deadline.check()
                hint = next(iter(producer(grid)), None)
                if hint is not None:
                    break
        if hint is None:
            return
        yield hint
        hint.apply(grid)


@contextmanager
def uncollected() -> Iterator[None]:
    """No cycle collection in the block (``walk_grid`` a step at a time, not across its yields; a whole
    walk where nothing else runs between its steps: ``se_walk``, ``human.walk``). The chaining producers
    make hundreds of thousands of small objects a step (hints, their keys and tuples, dicts of rows), and
    the collector's passes over them took a tenth of a forum-hardest walk (ER 11.7: 18.9 -> 17.0 s); its
    pass at each step's end over what the step kept, 8% more (23.5 -> 21.6 s on one of ER 11.8, the same
    peak memory: the walks leave few cycles). Nested blocks keep it off until the outermost ends."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def rating_of(hints: Sequence[Hint], stuck: bool) -> SERating:
    """ER, EP and ED of a walk's hints, by SE's bookkeeping (ER 20.0 when the walk got stuck)."""
    er, ep, ed = float("-inf"), 0.0, 0.0
    for hint in hints:
        er = max(er, hint.difficulty)
        if ep == 0.0:
            if ed == 0.0:
                ed = er
            if hint.cell is not None:
                ep = er
    if stuck:
        er = STUCK
    return SERating(er if hints or stuck else 0.0, ep, ed)


def se_walk(puzzle: Puzzle) -> tuple[list[Hint], bool]:
    """SE's walk of ``puzzle``: its hints, and whether it got stuck before the grid was full."""
    grid = Grid.of(puzzle)
    with uncollected():
        hints = list(walk_grid(grid, producers()))
    return hints, not grid.solved


def rate_se(puzzle: Puzzle | str) -> SERating:
    """Sudoku Explainer's ER/EP/ED of a classic puzzle.

    >>> str(rate_se("...8.3....5.....9..72...18...4.3.9..3...9...55...6...4.8..4..2.4..2.1..9..7...5.."))
    '4.5/1.2/1.2'
    """
    if isinstance(puzzle, str):
        puzzle = Puzzle.from_string(puzzle)
    hints, stuck = se_walk(puzzle)
    return rating_of(hints, stuck)
