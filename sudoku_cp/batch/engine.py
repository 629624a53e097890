"""``solve_many``: any number of puzzles through any backend, in parallel, answers in input order.

The input is read lazily in chunks; a chunk's puzzles are grouped by shape as rows of digits and handed to a
worker process that keeps one backend for its whole life (``worker``); answers come back in order through
``OrderedPool``, which keeps a bounded number of chunks in flight, so memory stays bounded whatever the
input's size. With ``jobs=1``, or when the whole input is fewer than ``SMALL_INPUT`` chunks, everything
runs in this process and no worker is started; while the workers start, this process solves chunks too.
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from ..backends import DEFAULT_BACKEND, Backend, backend_class, make_backend
from ..errors import ParseError, UsageError
from ..grid import Puzzle, Rules
from ..result import SolveResult, Status
from . import worker
from .chunks import ChunkSizer
from .pool import OrderedPool, default_jobs
from .solver import EachAnswer, Solver, SolverConfig

if TYPE_CHECKING:
    from .arrays import ChunkAnswer

__all__ = ["SMALL_INPUT", "check_backend", "resolve_jobs", "run_ordered", "solve_many"]

U = TypeVar("U")

#: A chunk: each item's puzzle, or its result when it is an input error; and the task for a worker.
_Chunk = tuple[list[Puzzle | SolveResult], tuple[str, list[tuple[Rules, list[tuple[int, ...]]]]]]


def resolve_jobs(jobs: int | None) -> int:
    """``None`` or 0 mean every CPU this process may use; otherwise at least 1."""
    if jobs is None or jobs == 0:
        return default_jobs()
    if jobs < 0:
        raise UsageError(f"jobs must be positive (or 0 for every CPU), not {jobs}")
    return jobs


def refuse_one_text(puzzles: object) -> None:
    """``TypeError`` for a single string where many puzzles are expected: iterated, its characters were 81
    puzzles of one character each."""
    if isinstance(puzzles, str):
        raise TypeError("puzzles are an iterable of puzzles: one puzzle's text goes in a list, [text]")


def solve_many(
    puzzles: Iterable[Any],
    backend: str | Backend = DEFAULT_BACKEND,
    jobs: int | None = 1,
    unique: bool = False,
    time_limit: float | None = None,
    chunk_size: int | None = None,
    client: Any | None = None,
    **options: Any,
) -> Iterator[SolveResult]:
    """Solve every puzzle and yield one ``SolveResult`` per input item, in input order.

    ``puzzles``: Puzzles, puzzle strings, or records of ``sudoku_cp.formats`` (an item with an ``error``
    gives an ``error`` result). It is consumed lazily, a bounded number of chunks ahead of the answers.
    ``jobs``: worker processes (None or 0: every CPU); with 1 everything runs here. Each worker builds its
    backend once: a ``Backend`` instance can serve only ``jobs=1``, a name any number of jobs.
    ``chunk_size``: puzzles per task (default: adapted to the measured speed, about 0.15 s of work each).
    ``client``: a ``distributed.Client``: the chunks go to that Dask cluster's workers instead of local
    processes (``jobs`` is then unused), with the same results in the same order.
    The results are those of ``solving.solve(puzzle, backend, unique=, time_limit=, **options)``.

    >>> [r.solution.to_string() for r in solve_many(["12343412214343..", ".2.4..1221..4.2."])]
    ['1234341221434321', '1234341221434321']
    """
    jobs = resolve_jobs(jobs)
    refuse_one_text(puzzles)
    if isinstance(backend, Backend):
        if jobs > 1 or client is not None:
            raise UsageError(
                "a Backend instance serves one process: pass the backend's name with jobs > 1 or a client"
            )
        if options:
            raise UsageError("options go to make_backend, not to an already built Backend")
        config = SolverConfig(backend.spec, {}, unique, time_limit)
        engine = backend
    else:
        options = {k: v for k, v in options.items() if v is not None}
        config = SolverConfig(backend, options, unique, time_limit)
        engine = make_backend(config.backend, **config.options)  # a bad name or option fails here, at once
    return _solve_many(puzzles, config, engine, jobs, chunk_size, client)


def _solve_many(
    puzzles: Iterable[Any],
    config: SolverConfig,
    engine: Backend,
    jobs: int,
    chunk_size: int | None,
    client: Any | None,
) -> Iterator[SolveResult]:
    local = Solver(config, engine)
    fast = local.compiled
    sizer = ChunkSizer(
        first=64 if fast else 8, low=16 if fast else 1, high=8192 if fast else 512, fixed=chunk_size
    )
    chunks = _chunks(iter(puzzles), sizer)
    ordered = run_ordered(chunks, _task, config, jobs, local, client)
    for (items, _), (answers, seconds) in ordered:
        sizer.observe(len(items), seconds)
        yield from _results(items, answers)


def _task(chunk: _Chunk) -> tuple[str, list[tuple[Rules, list[tuple[int, ...]]]]]:
    return chunk[1]


#: An input of fewer units than this is solved in this process: starting workers would cost more.
SMALL_INPUT = 4


def run_ordered(
    units: Iterator[U],
    task_of: Callable[[U], Any],
    config: SolverConfig,
    jobs: int,
    local: Solver | None = None,
    client: Any | None = None,
) -> Iterator[tuple[U, Any]]:
    """Each unit with the answer to its task (``worker.handle``), in order, run here or by ``jobs`` workers.

    With ``jobs`` 1, or an input of fewer than ``SMALL_INPUT`` units, everything runs in this process
    (with ``local``, else a solver built from ``config``; a stop there that carries the ``answers`` of a
    task's first puzzles also carries its ``unit``). Otherwise a pool of workers answers; for the
    compiled dfs backend the fork server loads the kernel once before forking them (``warm``), so they
    share it, and this process never loads it. A ``local`` solver, when given, also works through tasks
    here while the workers start. Units are drawn lazily, a bounded number ahead of the answers.
    With a Dask ``client`` the cluster's workers answer every task instead (``cluster.ClusterPool``).
    """
    if client is not None:
        yield from _run_on_cluster(units, task_of, config, client)
        return
    head = list(itertools.islice(units, SMALL_INPUT))
    if jobs == 1 or len(head) < SMALL_INPUT:
        solver = (local or Solver(config)) if head else None
        for unit in itertools.chain(head, units):
            try:
                answer = worker.handle(task_of(unit), solver)
            except KeyboardInterrupt as exc:  # with the answers of the unit's first puzzles: for the caller
                if hasattr(exc, "answers"):
                    exc.unit = unit  # type: ignore[attr-defined]
                raise
            yield unit, answer
        return
    pending: deque[U] = deque()

    def tasks() -> Iterator[Any]:
        for unit in itertools.chain(head, units):
            pending.append(unit)
            yield task_of(unit)

    module = _backend_class(config).preload(_variant(config), dict(config.options))
    preload = (module,) if module else ()
    here = None if local is None else functools.partial(worker.handle, engine=local)
    with OrderedPool(jobs, worker.handle, worker.init, (config,), preload=preload) as pool:
        for answer in pool.map(tasks(), local=here):
            yield pending.popleft(), answer


def _run_on_cluster(
    units: Iterator[U], task_of: Callable[[U], Any], config: SolverConfig, client: Any
) -> Iterator[tuple[U, Any]]:
    """``run_ordered`` on a Dask cluster: the same tasks and answers, in the same order."""
    from .cluster import ClusterPool

    pending: deque[U] = deque()

    def tasks() -> Iterator[Any]:
        for unit in units:
            pending.append(unit)
            yield task_of(unit)

    with ClusterPool(client, worker.handle, worker.init, (config,)) as pool:
        for answer in pool.map(tasks()):
            yield pending.popleft(), answer


def _backend_class(config: SolverConfig) -> type[Backend]:
    return backend_class(config.backend.partition(":")[0])


def _variant(config: SolverConfig) -> str | None:
    return config.backend.partition(":")[2] or None


def check_backend(config: SolverConfig) -> None:
    """Build the configured backend once to report a bad name or option now, before any work starts
    (with the options its class checks cheaply: ``Backend.checking_options``)."""
    options = _backend_class(config).checking_options(_variant(config), dict(config.options))
    make_backend(config.backend, **options).close()


def _chunks(source: Iterator[Any], sizer: ChunkSizer) -> Iterator[_Chunk]:
    """Cut the input into chunks of ``sizer.next_size()`` items, valid puzzles grouped by shape."""
    while True:
        items = [_item(x) for x in itertools.islice(source, sizer.next_size())]
        if not items:
            return
        groups: dict[Rules, list[tuple[int, ...]]] = {}
        for item in items:
            if isinstance(item, Puzzle):
                groups.setdefault(item.rules, []).append(item.cells)
        yield items, ("grids", list(groups.items()))


def _item(x: Any) -> Puzzle | SolveResult:
    """A puzzle to solve, or the error result of an item that is none."""
    if isinstance(x, Puzzle):
        return x
    if isinstance(x, str):
        try:
            return Puzzle.from_string(x)
        except ParseError as exc:
            return SolveResult(None, Status.ERROR, error=exc.reason)
    error = getattr(x, "error", None)
    if error is not None:
        reason = getattr(error, "reason", str(error))
        return SolveResult(getattr(x, "puzzle", None), Status.ERROR, error=reason)
    puzzle = getattr(x, "puzzle", None)
    if isinstance(puzzle, Puzzle):
        return puzzle
    raise TypeError(f"solve_many takes Puzzles, strings or records, not {type(x).__name__}")


def _results(
    items: list[Puzzle | SolveResult], answers: list[ChunkAnswer | EachAnswer]
) -> Iterator[SolveResult]:
    """The chunk's results in input order: each shape group's answers taken in turn."""
    by_rules = {}
    order: list[Rules] = []
    for item in items:
        if isinstance(item, Puzzle) and item.rules not in by_rules:
            by_rules[item.rules] = None
            order.append(item.rules)
    cursor = dict.fromkeys(order, 0)
    answer_of = dict(zip(order, answers, strict=True))
    for item in items:
        if isinstance(item, SolveResult):
            yield item
            continue
        i = cursor[item.rules]
        cursor[item.rules] = i + 1
        yield answer_of[item.rules].result(i, item)
