"""Task kinds that answer each puzzle on its own: counting solutions and rating, for the batch engine.

Like ``solve``'s tasks they run in the worker processes of ``run_ordered`` (or in this process with one
job), with the backend each process keeps, so ``count`` and ``rate`` get ``--jobs``, ordered output and
the same progress and summary as ``solve``. A task is ``(kind, payload)`` with plain picklable values:

- ``("count", (limit, puzzles))``: a ``Count`` per puzzle (or pencilmark grid's ``Candidates``, for a
  backend that takes them), solutions counted up to ``limit`` with the configured backend (the compiled
  dfs counts a whole shape group in one call);
- ``("rate", puzzles)``: a ``sudoku_cp.rate.Rating`` per puzzle;
- ``("explain", puzzles)``: a ``sudoku_cp.explain.Explanation`` per puzzle, from the configured backend
  and time limit;
- ``("candidates", puzzles)``: the true candidates of each puzzle (a ``Candidates``, or None without a
  solution);
- ``("walk", puzzles)``: the logical solution of each puzzle (``sudoku_cp.human.walk``: steps, result,
  Sudoku Explainer rating);
- ``("hint", puzzles)``: the next logical step of each puzzle (``sudoku_cp.human.hint``);
- ``("prove", (minimal, puzzles))``: a ``sudoku_cp.certify.prover.Certificate`` per puzzle, or the
  ``UnsupportedRuleError`` that refuses it (the other puzzles go on).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

from ..grid import Puzzle, Rules
from .solver import Solver

__all__ = ["TASK_KINDS", "Count", "run_task"]

_T = TypeVar("_T")
_A = TypeVar("_A")


def _each(items: Iterable[_T], answer: Callable[[_T], _A]) -> list[_A]:
    """``[answer(item) for item in items]``; a Ctrl-C or SIGTERM that stops it carries the answers of the
    first items (``answers``), which the command writes before it stops when it runs in this process
    (``perpuzzle.run_each``), instead of losing the whole chunk."""
    answers: list[_A] = []
    try:
        for item in items:
            answers.append(answer(item))
    except KeyboardInterrupt as exc:
        exc.answers = answers  # type: ignore[attr-defined]
        raise
    return answers


class Count(NamedTuple):
    """The solutions of one puzzle counted up to a limit.

    ``complete``: the search space was exhausted (the count is exact); ``timed_out``: the time limit
    stopped the search (the count is a lower bound). Neither: the count reached the limit.
    """

    solutions: int
    complete: bool
    timed_out: bool = False

    @property
    def text(self) -> str:
        """``1``; ``2+`` when the count stopped at the limit; ``1?`` when the time limit stopped it."""
        return f"{self.solutions}{'?' if self.timed_out else '' if self.complete else '+'}"


def count_each(limit: int, puzzles: list[Puzzle], engine: Solver) -> list[Count]:
    """Count each puzzle's solutions up to ``limit``, in order."""
    time_limit = engine.config.time_limit
    if engine.compiled:
        return _count_compiled(limit, puzzles, engine)
    from ..solving import enumerate_from  # a pencilmark grid's Candidates go to enumerate_candidates

    def count(puzzle: Puzzle) -> Count:
        found = enumerate_from(engine.backend, puzzle, limit, time_limit)
        return Count(len(found.solutions), found.complete, found.timed_out)

    return _each(puzzles, count)


def _count_compiled(limit: int, puzzles: list[Puzzle], engine: Solver) -> list[Count]:
    """The backend's chunk kernel (the compiled dfs): one call per shape among the puzzles, no Python work
    per search."""
    from .arrays import as_grids  # numpy, which only the compiled path needs

    kernel = engine.kernel

    groups: dict[Rules, list[int]] = {}
    for i, puzzle in enumerate(puzzles):
        groups.setdefault(puzzle.rules, []).append(i)
    counts: list[Count | None] = [None] * len(puzzles)

    def keep(members: list[int], found: Any) -> None:
        for i, k, status in zip(members, found.counts.tolist(), found.status.tolist(), strict=False):
            counts[i] = Count(k, status == kernel.EXHAUSTED, status == kernel.OUT_OF_NODES)

    for rules, members in groups.items():
        grids = as_grids([puzzles[i].cells for i in members], rules)
        try:
            found = kernel.solve_array(
                grids, rules, limit, engine.backend.heuristic, time_limit=engine.config.time_limit
            )
        except KeyboardInterrupt as exc:  # the answers before the stop, as far as they run in order
            batch = getattr(exc, "batch", None)
            if batch is not None:
                keep(members[: batch[1]], batch[0])
            exc.answers = list(itertools.takewhile(lambda c: c is not None, counts))  # type: ignore[attr-defined]
            raise
        keep(members, found)
    return counts  # type: ignore[return-value]  # every index belongs to one group


def rate_each(puzzles: list[Puzzle], engine: Solver) -> list[Any]:
    """Rate each puzzle (``sudoku_cp.rate.rate``), in order."""
    from ..rate import rate

    return _each(puzzles, lambda puzzle: rate(puzzle, time_limit=engine.config.time_limit))


def explain_each(puzzles: list[Puzzle], engine: Solver) -> list[Any]:
    """Explain each puzzle (``sudoku_cp.explain.explain``) with the configured backend, in order."""
    from ..explain import explain

    return _each(puzzles, lambda puzzle: explain(puzzle, engine.backend, time_limit=engine.config.time_limit))


def candidates_each(puzzles: list[Puzzle], engine: Solver) -> list[Any]:
    """The true candidates of each puzzle (``sudoku_cp.solving.true_candidates``) with the configured
    backend, or None where a puzzle has no solution."""
    from ..solving import true_candidates

    time_limit = engine.config.time_limit
    return _each(puzzles, lambda puzzle: true_candidates(puzzle, engine.backend, time_limit=time_limit))


def _count(payload: tuple[int, list[Puzzle]], engine: Solver) -> list[Count]:
    limit, puzzles = payload
    return count_each(limit, puzzles, engine)


def walk_each(puzzles: list[Any], engine: Solver) -> list[Any]:
    """The logical solution of each puzzle or candidate grid (``sudoku_cp.human.walk``)."""
    from ..human import walk

    return _each(puzzles, lambda puzzle: walk(puzzle, time_limit=engine.config.time_limit))


def hint_each(puzzles: list[Any], engine: Solver) -> list[Any]:
    """The next logical step of each puzzle or candidate grid (``sudoku_cp.human.hint``)."""
    from ..human import hint

    return _each(puzzles, lambda puzzle: hint(puzzle, time_limit=engine.config.time_limit))


def prove_each(payload: tuple[bool, list[Puzzle]], engine: Solver) -> list[Any]:
    """A certificate of each puzzle (``sudoku_cp.certify.prover.prove``), or why it has none."""
    from ..certify.prover import prove
    from ..errors import UnsupportedRuleError

    minimal, puzzles = payload

    def certificate(puzzle: Puzzle) -> Any:
        try:
            return prove(puzzle, minimal=minimal)
        except UnsupportedRuleError as exc:
            return exc

    return _each(puzzles, certificate)


#: Task kind -> what answers it.
TASK_KINDS = {
    "count": _count,
    "rate": rate_each,
    "explain": explain_each,
    "candidates": candidates_each,
    "prove": prove_each,
    "walk": walk_each,
    "hint": hint_each,
}


def run_task(kind: str, payload: Any, engine: Solver) -> Any:
    """The answer to a task of one of ``TASK_KINDS``; any other kind is a ``ValueError``."""
    try:
        handler = TASK_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown task kind {kind!r}") from None
    return handler(payload, engine)
