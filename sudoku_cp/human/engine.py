"""The step engine: the easiest technique that applies, one step at a time, as Sudoku Explainer does.

On a classic puzzle (rows, columns, boxes; up to 9x9) with exactly one solution, the walk is Sudoku
Explainer's own (``sudoku_cp.se``: its techniques, its order, its choice of step, so ER, EP and ED are
SE's). Elsewhere (variants, larger grids, pencilmarks, puzzles without one solution) it is sudoku-cp's
SE-style walk below, whose techniques read the houses of any ``Rules`` and whose forcing nets read every
other rule.

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

from .. import deadline
from ..candidates import Candidates, as_start
from ..grid import Puzzle, Rules
from .board import Board
from .chains import PATTERNS, aic, x_chain, xy_chain
from .colouring import simple_colouring
from .fish import FINNED, basic_fish, finned_fish
from .forcing import contradiction_net, forcing_net
from .intersections import claiming, direct_claiming, direct_pointing, locked_candidates, pointing
from .probe import release, unique_board
from .singles import full_house, hidden_single_box, hidden_single_line, naked_single
from .step import Step, Technique
from .subsets import hidden_subset, naked_subset
from .uniqueness import bug_plus_one, unique_rectangle, unique_rectangle_more
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
    "nth_step",
    "solve_steps",
    "walk",
]

#: Every technique, easiest first (Sudoku Explainer 1.2.1 difficulties).
TECHNIQUES: tuple[Technique, ...] = (
    full_house,  # 1.0
    hidden_single_box,  # 1.2
    hidden_single_line,  # 1.5
    direct_pointing,  # 1.7
    direct_claiming,  # 1.9
    hidden_subset(2, direct=True),  # 2.0
    naked_single,  # 2.3
    hidden_subset(3, direct=True),  # 2.5
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
    unique_rectangle_more,  # 4.6, types 2 and 4, on a puzzle of one solution
    naked_subset(4),  # 5.0
    basic_fish(4),  # 5.2
    hidden_subset(4),  # 5.4
    bug_plus_one,  # 5.6, on a puzzle of one solution
    x_chain,  # 6.5+
    simple_colouring,  # 6.5+ (SE has none: rated as an X-chain over its cluster)
    finned_fish(2),  # 6.6
    xy_chain,  # 6.6+
    finned_fish(3),  # 6.8
    finned_fish(4),  # 7.0
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
        {"Pointing", "Claiming", "Locked candidates", "Direct pointing", "Direct claiming"}
        | {"Direct hidden pair", "Direct hidden triple"}
        | {f"{kind} {size}" for kind in ("Naked", "Hidden") for size in ("pair", "triple", "quad")}
    ),
    "fish+wings": frozenset(
        {"X-wing", "Swordfish", "Jellyfish", "XY-wing", "XYZ-wing", "Unique rectangle", "BUG+1"}
        | {"Unique rectangle type 2", "Unique rectangle type 4"}
        | {f"Unique {shape} type {k}" for shape in ("rectangle", "loop") for k in (1, 2, 3, 4)}
        | {f"Unique loop {size} type {k}" for size in range(8, 82, 2) for k in (1, 2, 3, 4)}
        | {f"BUG type {k}" for k in (1, 2, 3, 4)}
        | {"Aligned pair exclusion", "Aligned triple exclusion"}
        | {name for name, _ in FINNED.values()}
    ),
    "chains": frozenset(
        {"X-chain", "XY-chain", "AIC", "Simple colouring", *PATTERNS}
        | {"Bidirectional X-cycle", "Bidirectional Y-cycle", "Bidirectional cycle", "Turbot fish"}
        | {"Forcing X-chain", "Forcing Y-chain", "Forcing chain"}
    ),
    "nets": frozenset(
        {"Cell forcing net", "Region forcing net", "Contradiction net", "Nested contradiction net"}
        | {"Deep contradiction net"}
    ),
}


def family(technique: str) -> str:
    """The family (a key of ``FAMILIES``) of a step's technique name (Sudoku Explainer's forcing chains of
    every kind and nesting level are nets)."""
    for name, members in FAMILIES.items():
        if technique in members:
            return name
    if technique.endswith(" forcing chains") or " forcing chains (" in technique:
        return "nets"
    raise KeyError(f"no family holds the technique {technique!r}")


def next_step(board: Board, techniques: tuple[Technique, ...] = TECHNIQUES) -> Step | None:
    """The easiest step on ``board`` (not applied), or None when no technique applies (``TimeoutError``
    past the thread's ``deadline``)."""
    for technique in techniques:
        deadline.check()
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
    """A puzzle's logical solution: its steps, how it ended, the rating, and the final candidates;
    ``start`` is what the walk started from (a puzzle's first pencilmarks, or the candidates given)."""

    steps: list[Step]
    result: str  # solved, stuck, contradiction, or unknown (the time limit came first)
    board: Board
    why: str = ""  # for a contradiction: what is broken; for unknown: the time limit
    start: Candidates | None = None
    #: None for a walk the time limit cut short: its steps so far rate no walk.
    rating: SERating | None = field(init=False)

    def __post_init__(self) -> None:
        self.rating = None if self.result == UNKNOWN else SERating.of(self.steps)

    def before(self, k: int) -> Candidates:
        """The candidates the ``k``-th step (from 1) was found on: the start with the steps before it made."""
        if self.start is None:
            raise ValueError("this walk does not know its start")
        if not 1 <= k <= len(self.steps):
            raise IndexError(f"step {k} of a walk of {len(self.steps)} steps")
        board = Board(self.start)
        for step in self.steps[: k - 1]:
            apply(board, step)
        return board.candidates()

    def draw(self, k: int, *, size: float | None = None) -> Any:
        """The picture of the ``k``-th step on the candidates it was found on (``sudoku_cp.draw.draw_step``;
        needs the ``draw`` extra)."""
        from ..draw import draw_step

        return draw_step(self.steps[k - 1], self.before(k), self._givens(), size=size)

    def _givens(self) -> Puzzle | None:
        return self.start.puzzle if self.start is not None else None

    @property
    def note(self) -> str:
        """What the walk says of its rules: the kinds only the forcing nets read (empty when none)."""
        kinds = nets_only(self.board.rules)
        if not kinds:
            return ""
        return f"{', '.join(kinds)}: read by the forcing nets alone (no other technique knows these rules)"

    def to_dict(self) -> dict[str, Any]:
        """The last record of ``sudoku-cp steps --output-format jsonl`` for the puzzle."""
        rating = self.rating
        out: dict[str, Any] = {
            "result": self.result,
            "rating": None if rating is None else rating.er,
            "se": None if rating is None else str(rating),
        }
        if self.why:
            out["why"] = self.why
        if self.note:
            out["note"] = self.note
        return out


def nets_only(rules: Rules) -> tuple[str, ...]:
    """The kinds of ``rules`` that no technique but the forcing and contradiction nets reads (they
    propagate every rule through its clauses): sums, orders, marks, lines, outside clues."""
    return tuple(kind for kind in rules.kinds if kind not in rules.house_kinds)


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


def se_walks(start: Puzzle | Candidates | Board) -> bool:
    """Whether the walk from ``start`` is Sudoku Explainer's: a classic puzzle up to 9x9 (not pencilmarks)
    with exactly one solution (SE's uniqueness techniques assume one)."""
    if not isinstance(start, Puzzle) or start.n > 9:
        return False
    from ..se.grid import box_shape

    try:
        box_shape(start.rules)
    except ValueError:
        return False
    board = Board.of(start)
    try:
        return board.broken() is None and unique_board(board)
    finally:
        release(board)


def _se_steps(puzzle: Puzzle) -> Iterator[Step]:
    """Sudoku Explainer's walk of ``puzzle``, step by step (each applied before the next is found)."""
    from ..se.grid import Grid
    from ..se.rater import producers, walk_grid
    from ..se.steps import to_step

    grid = Grid.of(puzzle)
    for found in walk_grid(grid, producers()):
        yield to_step(found, puzzle.rules, grid.geo)


def walk(
    start: Puzzle | Candidates | str,
    techniques: tuple[Technique, ...] = TECHNIQUES,
    *,
    explainer: bool = True,
    time_limit: float | None = None,
) -> Walkthrough:
    """The whole logical solution of ``start``: Sudoku Explainer's own walk where ``se_walks`` (unless
    ``explainer`` is False or other ``techniques`` are asked for), else sudoku-cp's SE-style walk. Past
    ``time_limit`` seconds the walk ends ``unknown``, with the steps found by then.

    >>> w = walk(Puzzle.from_string("12343412214343.."))
    >>> w.result, [s.text for s in w.steps][:1], str(w.rating)
    ('solved', ['Full house: r4c3=2 (last open cell of column 3)'], '1.0/1.0/1.0')
    """
    time_limit = deadline.seconds(time_limit)
    start = as_start(start)
    first = start if isinstance(start, Candidates) else Candidates.of(start)
    board = Board(first)
    steps: list[Step] = []
    try:
        with deadline.within(time_limit):
            if explainer and techniques is TECHNIQUES and se_walks(start):
                from ..se.rater import uncollected

                with uncollected():  # nothing else runs between the walk's steps
                    steps.extend(_se_steps(first.puzzle))
                for step in steps:
                    apply(board, step)
                return Walkthrough(steps, "solved" if board.solved else "stuck", board, "", first)
            try:
                steps.extend(solve_steps(board, techniques))  # each step made on ``board`` as it comes
            finally:
                release(board)
    except TimeoutError:
        board = Board(first)
        for step in steps:
            apply(board, step)
        release(board)
        return Walkthrough(steps, UNKNOWN, board, _late(time_limit, len(steps)), first)
    why = board.broken() or ""
    result = "contradiction" if why else "solved" if board.solved else "stuck"
    return Walkthrough(steps, result, board, why, first)


#: How a walk or hint cut short by its time limit ends.
UNKNOWN = "unknown"


def _late(time_limit: float | None, done: int) -> str:
    """Why a walk ended ``unknown``: its time limit, and the steps it had found by then."""
    limit = "a time limit" if time_limit is None else f"the time limit ({time_limit:g} s)"
    return f"{limit} was reached {_sooner(done) or 'before the first step'}"


@dataclass(frozen=True)
class Hint:
    """The next step of a puzzle (``step``), or why there is none: ``result`` is ``step``, ``solved``,
    ``stuck``, ``contradiction`` (``why`` says what is broken) or ``unknown`` (the time limit came first).
    ``candidates`` is the board the step was looked for on and ``givens`` the puzzle's givens: what the
    hint's picture shows (``draw``)."""

    result: str
    step: Step | None = None
    why: str = ""
    candidates: Candidates | None = None
    givens: Puzzle | None = None

    def draw(self, *, size: float | None = None) -> Any:
        """The picture of the step on its candidates, or of the candidates alone when there is no step
        (needs the ``draw`` extra)."""
        from ..draw import compose, draw_step

        if self.candidates is None:
            raise ValueError("this hint does not know the candidates it was looked for on")
        if self.step is None:
            board = self.candidates.puzzle
            return compose(self.givens or board, board, self.candidates, size=size)
        return draw_step(self.step, self.candidates, self.givens, size=size)

    def _repr_svg_(self) -> str | None:
        """Jupyter shows a hint as its picture (text when the ``draw`` extra is missing)."""
        from ..errors import MissingPackageError

        try:
            return self.draw().as_svg() if self.candidates is not None else None
        except MissingPackageError:
            return None


def hint(
    start: Puzzle | Candidates | str,
    techniques: tuple[Technique, ...] = TECHNIQUES,
    *,
    explainer: bool = True,
    time_limit: float | None = None,
) -> Hint:
    """The next step from ``start`` (Sudoku Explainer's where ``se_walks``, as ``walk`` chooses).

    >>> hint(Puzzle.from_string("12343412214343..")).step.text
    'Full house: r4c3=2 (last open cell of column 3)'
    """
    return nth_step(start, 1, techniques, explainer=explainer, time_limit=time_limit)


def nth_step(
    start: Puzzle | Candidates | str,
    k: int,
    techniques: tuple[Technique, ...] = TECHNIQUES,
    *,
    explainer: bool = True,
    time_limit: float | None = None,
) -> Hint:
    """The ``k``-th step (from 1) of the walk from ``start``, as a hint on the board after the steps before
    it; ``solved``, ``stuck`` or ``contradiction`` where the walk ends sooner (``why`` then says after
    how many steps, or for a contradiction what is broken; a broken board has no candidates to show);
    ``unknown`` when ``time_limit`` seconds pass first.

    >>> nth_step(Puzzle.from_string("12343412214343.."), 2).step.text
    'Full house: r4c4=1 (last open cell of box 4)'
    """
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"a step's number is a whole number, not {type(k).__name__}")
    if k < 1:
        raise ValueError(f"steps count from 1, not {k}")
    time_limit = deadline.seconds(time_limit)
    start = as_start(start)
    givens = start.puzzle if isinstance(start, Candidates) else start
    done = [0]
    try:
        with deadline.within(time_limit):
            return _nth_step(start, k, techniques, explainer, givens, done)
    except TimeoutError:
        return Hint(UNKNOWN, why=_late(time_limit, done[0]), givens=givens)


def _nth_step(
    start: Puzzle | Candidates,
    k: int,
    techniques: tuple[Technique, ...],
    explainer: bool,
    givens: Puzzle,
    counted: list[int],
) -> Hint:
    """``nth_step``'s walk, counting in ``counted[0]`` the steps made so far."""
    board = Board.of(start)
    if explainer and techniques is TECHNIQUES and se_walks(start):
        assert isinstance(start, Puzzle)
        done = 0
        for step in _se_steps(start):
            if done == k - 1:
                return Hint("step", step, candidates=board.candidates(), givens=givens)
            apply(board, step)
            done = counted[0] = done + 1
        word = "solved" if board.solved else "stuck"
        return Hint(word, why=_sooner(done), candidates=board.candidates(), givens=givens)
    try:
        for done in range(k):
            counted[0] = done
            if why := board.broken():  # before "solved": a full grid may break a rule
                return Hint("contradiction", why=why, givens=givens)
            found = board.candidates()
            if board.solved:
                return Hint("solved", why=_sooner(done), candidates=found, givens=givens)
            step = next_step(board, techniques)
            if step is None:
                return Hint("stuck", why=_sooner(done), candidates=found, givens=givens)
            if done == k - 1:
                return Hint("step", step, candidates=found, givens=givens)
            apply(board, step)
    finally:
        release(board)
    raise AssertionError("unreachable: the loop returns at its last pass")


def _sooner(done: int) -> str:
    return f"after {done} step{'s' if done != 1 else ''}" if done else ""
