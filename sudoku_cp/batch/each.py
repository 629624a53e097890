"""``count_many`` and ``rate_many``: the per-puzzle questions of ``sudoku-cp count`` and ``rate`` from Python.

They run the same tasks (``sudoku_cp.batch.tasks``) through the same engine as ``solve_many``: lazily, in
chunks, here or in ``jobs`` worker processes or on a Dask ``client``'s workers, answers in input order.
An item is a ``Puzzle`` or a puzzle string; a string that is no puzzle raises ``ParseError`` naming its
1-based position, after the answers of the items before it (``solve_many`` instead answers it with an
``error`` result: a ``Count`` or a ``Rating`` has no such state).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .. import deadline
from ..backends import DEFAULT_BACKEND
from ..errors import ParseError
from ..grid import Puzzle
from ..rate import Rating
from .engine import check_backend, refuse_one_text, resolve_jobs, run_ordered
from .solver import SolverConfig
from .tasks import Count

__all__ = ["count_many", "rate_many"]

#: Puzzles per task unless told: a few milliseconds to a second of work on 9x9.
CHUNK_SIZE = 64


def count_many(
    puzzles: Iterable[Puzzle | str],
    backend: str = DEFAULT_BACKEND,
    limit: int = 2,
    jobs: int | None = 1,
    time_limit: float | None = None,
    chunk_size: int = CHUNK_SIZE,
    client: Any | None = None,
    **options: Any,
) -> Iterator[Count]:
    """Count each puzzle's solutions up to ``limit`` with ``backend`` (a name and its options), in order.

    >>> [c.text for c in count_many(["12343412214343..", "1..4" * 4], limit=3)]
    ['1', '0']
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    config = SolverConfig(backend, {k: v for k, v in options.items() if v is not None}, False, time_limit)
    check_backend(config)  # a bad name or option fails here, at once
    return _each("count", lambda chunk: (limit, chunk), puzzles, config, jobs, chunk_size, client)


def rate_many(
    puzzles: Iterable[Puzzle | str],
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    client: Any | None = None,
    time_limit: float | None = None,
) -> Iterator[Rating]:
    """Rate each puzzle (``sudoku_cp.rate.rate``, ``time_limit`` each), in order.

    >>> [r.level for r in rate_many(["12343412214343.."])]
    ['easy']
    """
    config = SolverConfig(time_limit=deadline.seconds(time_limit))
    return _each("rate", lambda chunk: chunk, puzzles, config, jobs, chunk_size, client)


def _each(
    kind: str,
    payload: Callable[[list[Puzzle]], Any],
    puzzles: Iterable[Puzzle | str],
    config: SolverConfig,
    jobs: int | None,
    chunk_size: int,
    client: Any | None,
) -> Iterator[Any]:
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, not {chunk_size}")
    refuse_one_text(puzzles)
    units = _chunks(iter(puzzles), chunk_size)
    ordered = run_ordered(units, _task(kind, payload), config, resolve_jobs(jobs), client=client)
    for (_, error), (answers, _seconds) in ordered:
        yield from answers
        if error is not None:
            raise error


def _task(kind: str, payload: Callable[[list[Puzzle]], Any]) -> Callable[[_Unit], tuple[str, Any]]:
    return lambda unit: (kind, payload(unit[0]))


#: A chunk's puzzles, and the error of the item that ended the input early (raised after their answers).
_Unit = tuple[list[Puzzle], Exception | None]


def _chunks(source: Iterator[Puzzle | str], size: int) -> Iterator[_Unit]:
    """Lists of ``size`` puzzles; a bad item ends the last one, with its error."""
    position = 0
    while True:
        chunk: list[Puzzle] = []
        for item in itertools.islice(source, size):
            position += 1
            try:
                chunk.append(_puzzle(item, position))
            except (ParseError, TypeError) as exc:
                yield chunk, exc
                return
        if not chunk:
            return
        yield chunk, None


def _puzzle(item: Puzzle | str, position: int) -> Puzzle:
    if isinstance(item, Puzzle):
        return item
    if isinstance(item, str):
        try:
            return Puzzle.from_string(item)
        except ParseError as exc:
            raise ParseError(exc.reason, index=position) from None
    raise TypeError(f"item {position}: a Puzzle or a puzzle string, not {type(item).__name__}")
