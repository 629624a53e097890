"""The run of a command that answers each puzzle on its own (``count``, ``rate``): one driver for all.

The command says what to ask of each puzzle (a task kind of ``sudoku_cp.batch.tasks``), how to write an
answer and what became of the puzzle; the driver does the rest the same way ``solve`` does: the inputs
read in chunks whose size follows the measured speed, answered by ``--jobs`` worker processes of the
batch engine (``run_ordered``) in input order, malformed puzzles reported on standard error with their
file, line and number and written as ``error``, a progress line on a terminal, Ctrl-C and SIGTERM
stopping between whole records (``-o FILE`` keeps them in ``FILE.partial``), the summary line, and the
exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from ..formats import Record
from ..formats.writing import nothing_answered, resume_overrun
from ..grid import Puzzle
from . import EXIT_FAILED, EXIT_FAULT, EXIT_OK, EXIT_USAGE
from .cluster import cluster_client, cluster_note
from .common import output_stream
from .common import warn as warn_user
from .inputs import Inputs
from .options import progress_for, resume_skip

if TYPE_CHECKING:
    from ..batch.chunks import ChunkSizer
    from ..batch.solver import SolverConfig

__all__ = ["EachCommand", "RecordWriter", "Writer", "run_each"]

#: No answer (yet) for a record.
_NONE: Any = object()

#: The outcome of a puzzle that could not be read, in every command's summary and output.
ERROR = "error"


class Writer(Protocol):
    """Writes one output record per input puzzle, in order."""

    def result(self, record: Record, answer: Any) -> None:
        """The answer for a puzzle that was read."""

    def error(self, record: Record) -> None:
        """A puzzle that could not be read (``record.error`` says why)."""

    def close(self) -> None:
        """After the last record (a closing line, a flush)."""


class RecordWriter:
    """The part of a ``Writer`` every per-puzzle command shares: the ``error`` record in each layout
    (``line``: the word ``error``; ``jsonl``: index, text, status and reason; ``pretty``: a header and the
    reason) and ``close``. A command's writer adds ``result``."""

    def __init__(self, out: TextIO, fmt: str) -> None:
        self.out, self.fmt = out, fmt

    def error(self, record: Record) -> None:
        reason = record.error.reason if record.error is not None else "unreadable"
        if self.fmt == "jsonl":
            fields = {"index": record.index, "puzzle": record.text, "status": ERROR, "error": reason}
            self.out.write(json.dumps(fields) + "\n")
        elif self.fmt == "pretty":
            self.out.write(f"Puzzle {record.index} (line {record.line}): error\n{reason}\n\n")
        else:
            self.out.write("error\n")

    def close(self) -> None:
        """Nothing to finish: one record per line or block."""


@dataclass
class EachCommand:
    """What a per-puzzle command asks and how it reports it.

    ``kind`` and ``payload(puzzles)``: the task of a chunk (see ``sudoku_cp.batch.tasks``); ``config``:
    the backend each process keeps; ``verb``: the summary's first word; ``outcomes``: the summary's
    outcomes in order (``error`` is added), ``words`` how it says those that are not their own word;
    ``outcome(answer)``: the outcome of one answer; ``ok``: the outcomes of a success (exit status 0 when
    every puzzle has one); ``writer(out)``: the output layout. ``of``: outcomes the summary counts as
    done (``proved 5 of 10 puzzles``), where some outcomes are no answer at all; ``remark(counts)``: a
    line after the summary that says why some puzzles failed (None for nothing to say).
    """

    kind: str
    payload: Callable[[list[Puzzle]], Any]
    config: SolverConfig
    verb: str
    outcomes: list[str]
    outcome: Callable[[Any], str]
    ok: frozenset[str]
    writer: Callable[[TextIO], Writer]
    words: dict[str, str] = field(default_factory=dict)
    validate: bool = True
    #: the task takes a pencilmark grid's ``Candidates`` where the input gives one (see ``Inputs``)
    pencilmarks: bool = False
    of: frozenset[str] | None = None
    remark: Callable[[dict[str, int]], str | None] | None = None


@dataclass
class _Unit:
    """A chunk of records and its task (the records' valid puzzles)."""

    records: list[Record]
    task: tuple[str, Any] | None = field(default=None)
    position: int | None = None  # lines of the inputs up to the last record (with their total known)

    def take_task(self) -> tuple[str, Any]:
        task, self.task = self.task, None
        assert task is not None
        return task


def _units(
    inputs: Inputs, totals: list[int] | None, sizer: ChunkSizer, command: EachCommand, skip: int
) -> Iterator[_Unit]:
    """The records after the first ``skip`` in chunks of ``sizer.next_size()``, each with the task of its
    valid puzzles. ``UsageError`` when the inputs hold fewer than ``skip`` records: the partial file that
    said so is not theirs."""
    records = iter(inputs)
    skipped = sum(1 for _ in itertools.islice(records, skip))
    if skipped < skip:
        raise resume_overrun(skip, skipped)
    while True:
        chunk = []
        for record in records:
            chunk.append(record)
            if len(chunk) >= sizer.next_size():
                break
        if not chunk:
            return
        puzzles = [
            r.candidates if r.candidates is not None and command.pencilmarks else r.puzzle
            for r in chunk
            if r.error is None and r.puzzle is not None
        ]
        position = inputs.position(chunk[-1], totals) if totals else None
        yield _Unit(chunk, (command.kind, command.payload(puzzles)), position)


def run_each(args: argparse.Namespace, command: EachCommand, skip: int | None = None) -> int:
    """Answer every puzzle of the inputs as ``command`` says; the exit status (see ``sudoku_cp.cli``).
    ``skip``: input records a stopped run answered already (default: ``--resume``'s count of lines)."""
    from ..batch import check_backend, resolve_jobs  # numpy and the batch machinery load only when needed
    from ..batch.chunks import ChunkSizer
    from ..batch.engine import run_ordered
    from ..batch.interrupt import Interrupted, InterruptGuard
    from ..batch.pool import WorkerError
    from ..batch.progress import Tally
    from ..errors import ClusterError  # not the cluster module: it loads asyncio

    check_backend(command.config)  # a bad backend or option is a usage error before any work
    jobs = resolve_jobs(args.jobs)
    skip = resume_skip(args) if skip is None else skip
    progress = progress_for(args)

    def warn(message: str) -> None:
        progress.close()  # a message starts on a clean line; the progress line comes back on its next update
        warn_user(message)

    inputs = Inputs(args, validate=command.validate, warn=warn, pencilmarks=command.pencilmarks)
    totals = inputs.line_totals() if progress.enabled else None
    progress.total = sum(totals) if totals else None
    tally = Tally(counts=dict.fromkeys([*command.outcomes, ERROR], 0))
    sizer = ChunkSizer(first=8, low=1, high=512)
    interrupted: Interrupted | None = None
    failed: Exception | None = None
    all_ok = True

    def write(unit: _Unit, answers: list[Any], writer: Writer, stopped: bool = False) -> None:
        """The unit's records in order; of a unit ``stopped`` part of the way (a stop that carries the
        ``answers`` of its first puzzles), up to the first valid one without an answer."""
        nonlocal all_ok
        answer = iter(answers)
        for record in unit.records:
            if record.error is not None or record.puzzle is None:
                warn(str(record.error))
                writer.error(record)
                outcome = ERROR
            else:
                value = next(answer, _NONE)
                if value is _NONE:
                    if stopped:
                        return
                    raise AssertionError(f"a {command.kind} task answered fewer puzzles than it was given")
                writer.result(record, value)
                outcome = command.outcome(value)
            tally.add(outcome)
            all_ok = all_ok and outcome in command.ok

    with InterruptGuard() as guard, cluster_client(args) as client:
        try:
            with (
                output_stream(args.output, resume=getattr(args, "resume", False)) as out,
                progress.ticking(),  # a puzzle that takes long (explain, steps) shows the run alive
            ):
                writer = command.writer(out)
                units = _units(inputs, totals, sizer, command, skip)
                ordered_units = run_ordered(units, _Unit.take_task, command.config, jobs, client=client)
                with contextlib.closing(ordered_units) as ordered:
                    try:
                        for unit, (answers, seconds) in ordered:
                            sizer.observe(len(unit.records), seconds)
                            with guard.deferred():  # whole records only, whatever signal arrives
                                write(unit, answers, writer)
                                out.flush()
                            progress.update(tally.total, unit.position)
                    except KeyboardInterrupt as stop:  # in this process: keep what the chunk answered
                        unit = getattr(stop, "unit", None)
                        if unit is not None:
                            guard.handled()
                            with guard.deferred():
                                write(unit, stop.answers, writer, stopped=True)  # type: ignore[attr-defined]
                                out.flush()
                        raise
                with guard.deferred():
                    writer.close()
        except KeyboardInterrupt as exc:  # python-sat raises its own on Ctrl-C during a search
            guard.handled()
            interrupted = exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)
        except (WorkerError, ClusterError) as exc:  # a worker killed (out of memory, kill -9), a lost cluster
            failed = exc
            warn_user(f"error: {str(exc).splitlines()[0]}; the run stopped")
        finally:
            progress.close()
            where = cluster_note(client)
    if not (tally.total or interrupted or failed or inputs.unreadable):
        warn_user(nothing_answered(inputs.names(), skip))
    if not args.quiet and (tally.total or interrupted or failed):
        stop = (
            f"interrupted by {interrupted.name}" if interrupted else "stopped by an error" if failed else None
        )
        line = tally.summary(stop, verb=command.verb, of=command.of, words=command.words)
        print(line + where, file=sys.stderr, flush=True)
        if command.remark is not None and (remark := command.remark(tally.counts)):
            warn_user(remark)
    if interrupted is not None:
        return interrupted.status
    if failed is not None:
        return EXIT_FAULT
    if inputs.unreadable:
        return EXIT_USAGE
    return EXIT_OK if all_ok else EXIT_FAILED
