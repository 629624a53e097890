"""The step engine: the easiest technique that applies, one step at a time, as Sudoku Explainer does.

Each step is the first finding of the technique of lowest difficulty that finds anything; the step is
applied and the search starts again from the easiest. The walk ends ``solved``, ``stuck`` (no technique
applies) or ``contradiction`` (the candidates show the puzzle has no solution). Every technique derives
only what every solution must satisfy (from houses and peers, the rules they read), so a step is sound on
any puzzle, unique or not, under any ``Rules``; where the rules hold more (sums, thermometers, kropki), the
techniques read less and the walk may end stuck.

The rating follows Sudoku Explainer's three numbers: ER, the hardest step of the walk; EP, the hardest
step up to the first placement; ED, the difficulty of the first step.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..candidates import Candidates
from ..grid import Puzzle
from .board import Board
from .chains import aic, x_chain, xy_chain
from .fish import basic_fish
from .forcing import contradiction_net, forcing_net, release
from .intersections import claiming, locked_candidates, pointing
from .singles import full_house, hidden_single_box, hidden_single_line, naked_single
from .step import Step, Technique
from .subsets import hidden_subset, naked_subset
from .uniqueness import bug_plus_one, unique_rectangle
from .wings import xy_wing, xyz_wing

__all__ = [
    "FAMILIES",
    "TECHNIQUES",
    "Hint",
    "SERating",
    "Walkthrough",
    "family",
    "hint",
    "next_step",
    "solve_steps",
    "walk",
]

#: Every technique, easiest first (Sudoku Explainer 1.2.1 difficulties).
TECHNIQUES: tuple[Technique, ...] = (
    full_house,  # 1.0
    hidden_single_box,  # 1.2
    hidden_single_line,  # 1.5
    naked_single,  # 2.3
    pointing,  # 2.6
    claiming,  # 2.8
    locked_candidates,  # 2.8
    naked_subset(2),  # 3.0
    basic_fish(2),  # 3.2
    hidden_subset(2),  # 3.4
    naked_subset(3),  # 3.6
    basic_fish(3),  # 3.8
    hidden_subset(3),  # 4.0
    xy_wing,  # 4.2
    xyz_wing,  # 4.4
    unique_rectangle,  # 4.5, on a puzzle of one solution
    naked_subset(4),  # 5.0
    basic_fish(4),  # 5.2
    hidden_subset(4),  # 5.4
    bug_plus_one,  # 5.6, on a puzzle of one solution
    x_chain,  # 6.5+
    xy_chain,  # 6.6+
    aic,  # 7.0+
    forcing_net,  # 8.2+
    contradiction_net(1),  # 8.8+
    contradiction_net(2),  # 9.9+
    contradiction_net(3),  # 11.0+
)


#: The families of techniques, easiest first, by the names their steps carry: what a coverage table counts.
FAMILIES: dict[str, frozenset[str]] = {
    "singles": frozenset({"Full house", "Hidden single", "Naked single"}),
    "subsets": frozenset(
        {"Pointing", "Claiming", "Locked candidates"}
        | {f"{kind} {size}" for kind in ("Naked", "Hidden") for size in ("pair", "triple", "quad")}
    ),
    "fish+wings": frozenset(
        {"X-wing", "Swordfish", "Jellyfish", "XY-wing", "XYZ-wing", "Unique rectangle", "BUG+1"}
    ),
    "chains": frozenset({"X-chain", "XY-chain", "AIC"}),
    "nets": frozenset(
        {"Cell forcing net", "Region forcing net", "Contradiction net", "Nested contradiction net"}
        | {"Deep contradiction net"}
    ),
}


def family(technique: str) -> str:
    """The family (a key of ``FAMILIES``) of a step's technique name."""
    for name, members in FAMILIES.items():
        if technique in members:
            return name
    raise KeyError(f"no family holds the technique {technique!r}")


def next_step(board: Board, techniques: tuple[Technique, ...] = TECHNIQUES) -> Step | None:
    """The easiest step on ``board`` (not applied), or None when no technique applies."""
    for technique in techniques:
        step = technique(board)
        if step is not None:
            return step
    return None


def apply(board: Board, step: Step) -> None:
    """Make ``step``'s placements and eliminations on ``board``."""
    for cell, digit in step.eliminations:
        board.eliminate(cell, digit)
    for cell, digit in step.placements:
        board.place(cell, digit)


@dataclass(frozen=True)
class SERating:
    """Sudoku Explainer's rating: ``er`` the hardest step, ``ep`` the hardest up to the first placement,
    ``ed`` the first step's; ``str`` gives ``8.3/1.2/1.2``. Zero where the walk had no such step."""

    er: float
    ep: float
    ed: float

    def __str__(self) -> str:
        return f"{self.er:.1f}/{self.ep:.1f}/{self.ed:.1f}"

    @classmethod
    def of(cls, steps: list[Step]) -> SERating:
        if not steps:
            return cls(0.0, 0.0, 0.0)
        er = max(s.difficulty for s in steps)
        ep = 0.0
        for s in steps:
            ep = max(ep, s.difficulty)
            if s.placements:
                break
        return cls(er, ep, steps[0].difficulty)


@dataclass
class Walkthrough:
    """A puzzle's logical solution: its steps, how it ended, the rating, and the final candidates."""

    steps: list[Step]
    result: str  # solved, stuck or contradiction
    board: Board
    why: str = ""  # for a contradiction: what is broken
    rating: SERating = field(init=False)

    def __post_init__(self) -> None:
        self.rating = SERating.of(self.steps)

    def to_dict(self) -> dict[str, Any]:
        """The last record of ``sudoku-cp steps --output-format jsonl`` for the puzzle."""
        out: dict[str, Any] = {"result": self.result, "rating": self.rating.er, "se": str(self.rating)}
        if self.why:
            out["why"] = self.why
        return out


def solve_steps(
    start: Puzzle | Candidates | Board, techniques: tuple[Technique, ...] = TECHNIQUES
) -> Iterator[Step]:
    """The steps of the walk from ``start``, lazily (each applied before the next is looked for)."""
    board = start if isinstance(start, Board) else Board.of(start)
    while not board.solved and board.broken() is None:
        step = next_step(board, techniques)
        if step is None:
            return
        apply(board, step)
        yield step


def walk(start: Puzzle | Candidates, techniques: tuple[Technique, ...] = TECHNIQUES) -> Walkthrough:
    """The whole logical solution of ``start``.

    >>> w = walk(Puzzle.from_string("12343412214343.."))
    >>> w.result, [s.text for s in w.steps][:1], str(w.rating)
    ('solved', ['Full house: r4c3=2 (last open cell of column 3)'], '1.0/1.0/1.0')
    """
    board = Board.of(start)
    try:
        steps = list(solve_steps(board, techniques))
    finally:
        release(board)
    why = board.broken() or ""
    result = "contradiction" if why else "solved" if board.solved else "stuck"
    return Walkthrough(steps, result, board, why)


@dataclass(frozen=True)
class Hint:
    """The next step of a puzzle (``step``), or why there is none: ``result`` is ``step``, ``solved``,
    ``stuck`` or ``contradiction`` (``why`` says what is broken)."""

    result: str
    step: Step | None = None
    why: str = ""


def hint(start: Puzzle | Candidates, techniques: tuple[Technique, ...] = TECHNIQUES) -> Hint:
    """The easiest next step from ``start``.

    >>> hint(Puzzle.from_string("12343412214343..")).step.text
    'Full house: r4c3=2 (last open cell of column 3)'
    """
    board = Board.of(start)
    if board.solved:
        return Hint("solved")
    if why := board.broken():
        return Hint("contradiction", why=why)
    try:
        step = next_step(board, techniques)
    finally:
        release(board)
    return Hint("stuck") if step is None else Hint("step", step)
