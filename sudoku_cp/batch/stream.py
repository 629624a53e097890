"""``solve_stream``: input files to one output stream, in chunks, in order, through one pool of workers.

The command line's engine. Every input file is read in chunks and each chunk becomes a task: a ``raw`` task
(text bytes in, text bytes out: ``rawio``) where both layouts allow it, else a ``grids`` task built from the
``formats`` records (csv input, or csv, jsonl and pretty output), written back with ``ResultWriter``. An
input known to be a puzzle or two takes the records path too: the raw path needs numpy, whose import takes
longer than solving them, and the records path with a backend that searches puzzle by puzzle does not. The
tasks of all files flow through one ``OrderedPool`` (or run in this process with one job, or when the
whole input is one chunk), so the workers start once and the output keeps the input's order. Chunk sizes
follow the measured speed (``ChunkSizer``); the pool keeps a bounded number in flight, so memory stays
bounded whatever the input's size.

Output is written one whole chunk at a time inside ``InterruptGuard.deferred``: a signal never cuts a record,
and what was written when the batch stops is a valid prefix of the results. That needs writes that write
everything: under ``python -u`` or ``PYTHONUNBUFFERED`` the standard output has no buffer, and a raw write
cut by a signal writes only part of its bytes, so ``whole_writes`` writes the rest.
"""

from __future__ import annotations

import contextlib
import io
import select
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from ..candidates import Candidates
from ..errors import UsageError
from ..formats import Record, ResultWriter, iter_records, with_named_rules
from ..formats.alphabet import Alphabet
from ..formats.detect import MAX_LINE, classify
from ..formats.header import has_header, is_header
from ..formats.pencilmarks import starts_with_pencilmarks, with_pencilmarks
from ..formats.sources import Input, known_size, open_input
from ..formats.writing import RESUMABLE_OUTPUTS, resume_overrun, rules_line
from ..grid import Rules
from ..result import SolveResult, Status
from .chunks import ChunkSizer
from .engine import run_ordered
from .interrupt import InterruptGuard
from .progress import Progress, Tally
from .rawchunks import RAW_INPUTS, RAW_OUTPUTS, RawAnswer, RawTask, split_chunks
from .solver import STATUSES, EachAnswer, SolverConfig, takes_candidates

if TYPE_CHECKING:
    from .arrays import ChunkAnswer

__all__ = ["SMALL_INPUT_BYTES", "StreamResult", "small_input", "solve_stream", "whole_writes"]

#: Seconds of work a chunk aims at: on local workers, and on a Dask cluster (measured in bench_cluster).
LOCAL_CHUNK_SECONDS, CLUSTER_CHUNK_SECONDS = 0.15, 0.5
#: Inputs of at most this many bytes, known before reading (a 9x9 or 12x12 puzzle, or two 9x9), are read
#: record by record, without numpy (see the module's note).
SMALL_INPUT_BYTES = 256
#: Bytes read to detect an input's layout (about 800 lines of 9x9 puzzles, the 36 rows of a 36x36 grid).
HEAD_BYTES = 1 << 16


@dataclass
class StreamResult:
    """What a batch did: puzzles by status (with the rate) and the inputs that could not be read."""

    tally: Tally = field(default_factory=Tally)
    unreadable: list[str] = field(default_factory=list)


@dataclass
class _Source:
    """One input file while it is being read: its name for messages and how far its answers have come."""

    label: str | None  # the name in error messages (``<stdin>`` for standard input)
    index: int = 0  # records answered so far
    line: int = 0  # lines answered so far
    consumed: int = 0  # bytes answered so far
    #: lines put before the rest of the file when the records path took it over from the raw path (a
    #: ``# rules:`` line met on the way): its records are numbered from there, and moved by ``offset``,
    #: the records and lines answered when the first of them is written; None: numbered from the start
    prepended: int | None = None
    offset: tuple[int, int] | None = None


@dataclass
class _Unit:
    """A task and what the parent needs to finish it: the source, and the records of a ``grids`` task."""

    source: _Source
    task: tuple[str, Any] | None
    nbytes: int = 0
    records: list[Record] | None = None

    def take_task(self) -> tuple[str, Any]:
        """The task, dropped from the unit: its text need not stay in memory while a worker has it."""
        task, self.task = self.task, None
        assert task is not None
        return task


class _WholeWriter(io.BufferedIOBase):
    """A raw file seen as one whose ``write`` always writes every byte; closing it leaves the file open."""

    def __init__(self, raw: io.RawIOBase) -> None:
        super().__init__()
        self.raw = raw

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.raw.fileno()

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        while view:
            written = self.raw.write(view)
            if written is None:  # a non-blocking file that is full: wait until it takes more
                select.select([], [self.raw], [])
                written = 0
            view = view[written:]
        return total

    def close(self) -> None:
        """Nothing to close: the raw file is its owner's."""


@contextlib.contextmanager
def whole_writes(stream: TextIO) -> Iterator[TextIO]:
    """``stream``, or over an unbuffered one a view of it whose writes always write every byte.

    A raw file's ``write`` may write part of its bytes (a signal, a full pipe) and say so only by its return
    value, which ``TextIOWrapper`` ignores: that is the standard output under ``python -u``.
    """
    raw = getattr(stream, "buffer", None)
    if not isinstance(raw, io.RawIOBase):
        yield stream
        return
    stream.flush()
    yield io.TextIOWrapper(
        _WholeWriter(raw), encoding=stream.encoding, errors=stream.errors, write_through=True
    )


class _Output:
    """The output stream as seen by both paths: raw bytes, or results through one ``ResultWriter``."""

    def __init__(
        self, stream: TextIO, layout: str | None, rules: Rules | None, symbols: Alphabet | None = None
    ) -> None:
        self.stream = stream
        self.symbols = symbols
        self.layout = layout
        self.rules = rules
        self.written = 0  # output records so far
        self.header: str | None = None  # what the ``# rules:`` line in force in the output says
        self._writer: ResultWriter | None = None
        self._binary: BinaryIO | None = getattr(stream, "buffer", None)

    def raw(self, data: bytes, records: int) -> None:
        if not records:
            return
        assert self.layout is not None
        self.header, line = rules_line(self.rules, self.header, self.layout)  # --box of another shape
        if self.layout == "line":
            data = line.encode() + data
        elif self.written == 0:
            data = line.encode() + data[1:]  # no empty line before the first record
        elif line:
            data = data[:1] + line.encode() + data[1:]
        if self._binary is not None:
            self.stream.flush()
            self._binary.write(data)
        else:
            self.stream.write(data.decode())
        self.written += records

    def result(self, index: int, result: SolveResult, record: Record) -> None:
        if self._writer is None:
            assert self.layout is not None
            self._writer = ResultWriter(self.stream, self.layout, self.rules, self.symbols)
        self._writer.count = self.written  # records the fast path wrote count for the separators
        self._writer.header = self.header
        self._writer.write(index, result, record)
        self.header = self._writer.header
        self.written += 1

    def flush(self) -> None:
        self.stream.flush()
        if self._binary is not None:
            self._binary.flush()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.count = self.written
            self._writer.close()
        elif self._binary is not None:
            self._binary.flush()
        self.stream.flush()


def solve_stream(
    paths: list[Input],
    out: TextIO,
    config: SolverConfig,
    *,
    jobs: int = 1,
    input_format: str | None = None,
    output_format: str | None = None,
    rules: Rules | None = None,
    guard: InterruptGuard | None = None,
    progress: Progress | None = None,
    warn: Callable[[str], None] = lambda message: print(message, file=sys.stderr),
    result: StreamResult | None = None,
    chunk_bytes: int | None = None,
    client: Any | None = None,
    skip: int = 0,
    named: tuple[str, ...] = (),
    symbols: Alphabet | None = None,
    header: str | None = None,
) -> StreamResult:
    """Solve every puzzle of ``paths`` (``-``: standard input) and write one output record per puzzle to
    ``out``, in input order; bad puzzles and unreadable files are reported through ``warn``.

    ``output_format`` defaults to the first input's layout. ``result`` (created if not given) is filled in as
    the batch goes, so a caller that catches an interruption still has the counts so far. With a Dask
    ``client`` the chunks are answered by that cluster's workers (``jobs`` unused), the output the same.
    ``skip`` puzzles at the start are read past and not answered (``--resume`` after an earlier run wrote
    their records); the output layout must then be one record per line. ``named`` grid-wide rules
    (``("diagonal-", "anti-knight")``) are added to every puzzle (``with_named_rules``). ``symbols`` is the
    alphabet of input and output (``--symbols 0-F``; such inputs take the records path, not the raw one).
    ``header`` is what the ``# rules:`` line in force at the end of the output so far says (``--resume``).
    """
    result = result or StreamResult()
    guard = guard or InterruptGuard()
    # a task on a cluster costs a few network messages through the scheduler: give it more work
    target = CLUSTER_CHUNK_SECONDS if client is not None else LOCAL_CHUNK_SECONDS
    raw_sizer = ChunkSizer(first=1 << 15, low=1 << 13, high=1 << 22, target=target, fixed=chunk_bytes)
    record_sizer = ChunkSizer(first=64, low=1, high=4096, target=target)
    progress = progress or Progress(enabled=False)
    total = known_size(paths)
    progress.total = total
    done_bytes = 0

    with whole_writes(out) as whole:
        output = _Output(whole, output_format, rules, symbols)
        output.header = header
        units = _units(
            paths or ["-"],
            config,
            input_format,
            rules,
            output,
            raw_sizer,
            record_sizer,
            result,
            warn,
            skipping := _Skip(skip),
            named,
            symbols,
            small=total is not None and total <= SMALL_INPUT_BYTES,
        )
        # closing: on an exception (an interruption, a closed pipe) the workers stop now, not when the
        # traceback that holds this frame is released
        with contextlib.closing(run_ordered(units, _Unit.take_task, config, jobs, client=client)) as ordered:
            for unit, (answer, seconds) in ordered:
                source = unit.source
                with guard.deferred():
                    if isinstance(answer, RawAnswer):
                        raw_sizer.observe(unit.nbytes, seconds)
                        _report_raw(answer, source, warn)
                        output.raw(answer.out, answer.records)
                        for code, count in enumerate(answer.counts):
                            result.tally.add(STATUSES[code], count)
                    else:
                        assert unit.records is not None
                        record_sizer.observe(len(unit.records), seconds)
                        _write_records(unit.records, answer, output, result.tally, source, warn)
                    output.flush()  # a reader of the output sees each chunk as soon as it is done
                done_bytes += unit.nbytes
                progress.update(result.tally.total, done_bytes if total else None)
        if skipping.left:  # the partial output held more records than the input: another input's
            raise resume_overrun(skip, skip - skipping.left)
        with guard.deferred():
            output.close()
    return result


class _Skip:
    """The puzzles still to read past before solving starts again (``--resume``)."""

    def __init__(self, count: int) -> None:
        self.left = count

    def lines(self, head: bytes, stream: BinaryIO, source: _Source) -> tuple[BinaryIO, bytes, bytes]:
        """Read past puzzles of the line layout (a puzzle is a line that is not empty or a ``#`` comment);
        the rest of the input as a stream, its new head, and the last ``# rules:`` line read past (empty
        if none: one rules the puzzles after it too)."""
        reader = io.BufferedReader(_Prefixed(head, stream))  # type: ignore[arg-type]
        header = b""
        while self.left:
            line = reader.readline(MAX_LINE)
            if not line:
                break
            while not line.endswith(b"\n") and (more := reader.readline(MAX_LINE)):
                line = more  # an over-long line is one puzzle (an error record) all the same
            source.line += 1
            text = line.strip().removeprefix(b"\xef\xbb\xbf").strip()
            if text and not text.startswith(b"#"):
                self.left -= 1
                source.index += 1
            elif text.startswith(b"#") and is_header(text.decode("utf-8", "replace")):
                header = text
        return reader, reader.read(HEAD_BYTES), header  # type: ignore[return-value]

    def records(self, records: Iterator[Record]) -> Iterator[Record]:
        """``records`` without the first ``left`` of them."""
        for record in records:
            if self.left:
                self.left -= 1
                continue
            yield record


def small_input(paths: list[Input]) -> bool:
    """True when ``paths`` are known to hold at most ``SMALL_INPUT_BYTES`` (``known_size``)."""
    size = known_size(paths)
    return size is not None and size <= SMALL_INPUT_BYTES


def _report_raw(answer: RawAnswer, source: _Source, warn: Callable[[str], None]) -> None:
    """Warn about the chunk's bad puzzles with their numbers in the whole file; move the file's offsets on."""
    for cls, reason, index, line in answer.errors:
        error = cls(reason, index=source.index + index, line=None if line is None else source.line + line)
        warn(str(error.located(source=source.label) if source.label else error))
    source.index += answer.records
    source.line += answer.lines


def _write_records(
    records: list[Record],
    answers: list[ChunkAnswer | EachAnswer],
    output: _Output,
    tally: Tally,
    source: _Source,
    warn: Callable[[str], None],
) -> None:
    """Write a ``grids`` task's results in record order (its valid puzzles were solved grouped by shape)."""
    if source.prepended is not None:  # the rest of a file after the raw path: numbered from its start
        if source.offset is None:
            source.offset = (source.index, source.line - source.prepended)
        records = [record.moved(*source.offset) for record in records]
    grids: list[Rules] = []  # the groups in task order: puzzles by shape, then pencilmark grids by shape
    marked: list[Rules] = []
    for record in records:
        if record.puzzle is not None:
            group = marked if record.candidates is not None else grids
            if record.puzzle.rules not in group:
                group.append(record.puzzle.rules)
    keys = [(r, False) for r in grids] + [(r, True) for r in marked]
    answer_of = dict(zip(keys, answers, strict=True))
    cursor = dict.fromkeys(keys, 0)
    for record in records:
        if record.error is not None:
            warn(str(record.error))
            result = SolveResult(None, Status.ERROR, error=record.error.reason)
        else:
            assert record.puzzle is not None
            key = (record.puzzle.rules, record.candidates is not None)
            result = answer_of[key].result(cursor[key], record.puzzle)
            cursor[key] += 1
        output.result(record.index, result, record)
        tally.add(result.status)
    source.index = records[-1].index if records else source.index


def _units(
    paths: list[Input],
    config: SolverConfig,
    input_format: str | None,
    rules: Rules | None,
    output: _Output,
    raw_sizer: ChunkSizer,
    record_sizer: ChunkSizer,
    result: StreamResult,
    warn: Callable[[str], None],
    skip: _Skip,
    named: tuple[str, ...] = (),
    symbols: Alphabet | None = None,
    small: bool = False,
) -> Iterator[_Unit]:
    """The tasks of every input file in turn, drawn lazily as workers become free; the first ``skip.left``
    puzzles (answered by an earlier run, ``--resume``) are read past, not solved. A ``small`` input takes
    the records path."""
    for path in paths:
        name = "<stdin>" if path == "-" else str(path)
        source = _Source(name)  # standard input named as a file is: "<stdin>, line 3, puzzle 3: ..."
        try:
            stream: BinaryIO = open_input(path)
        except OSError as exc:
            warn(f"cannot read {name}: {exc.strerror or exc}")
            result.unreadable.append(name)
            continue
        try:
            head = stream.read(HEAD_BYTES)
            layout = input_format or _detect(head, rules)
            if output.layout is None and head.strip(b"\xef\xbb\xbf \t\r\n"):
                output.layout = layout
            if skip.left and output.layout not in RESUMABLE_OUTPUTS:
                choices = " or ".join(RESUMABLE_OUTPUTS)
                raise UsageError(f"--resume needs one record per output line: --output-format {choices}")
            marks = takes_candidates(config) and starts_with_pencilmarks(head, rules)
            raw = (
                layout in RAW_INPUTS
                and output.layout in RAW_OUTPUTS
                and not _lone_cr(head)
                and not named
                and symbols is None
                and not marks
                and not small
                and not has_header(head)  # rules beyond the classic ones: record by record
            )
            rest: BinaryIO | None = None  # what the records path reads after the raw path stopped
            if skip.left and raw and layout == "line":
                stream, head, header = skip.lines(head, stream, source)  # type: ignore[assignment]
                if header:  # the rest is ruled by a header read past: record by record, behind it
                    rest, source.prepended = _Prefixed(header + b"\n" + head, stream), 1  # type: ignore[assignment]
            if rest is None and raw and not (skip.left and layout != "line"):
                chunks = split_chunks(stream, layout, raw_sizer.next_size, head)
                for data in chunks:
                    if has_header(data):  # a '# rules:' line: the rest of the file record by record
                        rest, source.prepended = _Prefixed(data, _Joined(chunks)), 0  # type: ignore[assignment]
                        break
                    task = RawTask(data, layout, rules, output.layout)  # type: ignore[arg-type]
                    yield _Unit(source, ("raw", task), len(data))
                else:
                    continue
            text = io.TextIOWrapper(
                io.BufferedReader(rest or _Prefixed(head, stream)),  # type: ignore[arg-type]
                encoding="utf-8-sig",
                errors="surrogateescape",
                newline=None,
            )
            records = iter_records(text, layout, rules, source=source.label, symbols=symbols)
            if marks:  # before --rules, which then rules the candidates too
                records = with_pencilmarks(records, rules)
            if named:
                records = with_named_rules(records, named, True, source.label)
            records = skip.records(records)
            yield from _record_units(records, source, record_sizer)
        except (OSError, UnicodeError) as exc:
            warn(f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}")
            result.unreadable.append(name)
        finally:
            if path != "-":
                stream.close()  # an Inline's bytes, a file, a URL


def _record_units(records: Iterator[Record], source: _Source, sizer: ChunkSizer) -> Iterator[_Unit]:
    """Chunks of records as ``grids`` tasks: the valid puzzles of each shape as rows of digits."""
    while True:
        chunk: list[Record] = []
        for record in records:
            chunk.append(record)
            if len(chunk) >= sizer.next_size():
                break
        if not chunk:
            return
        groups: dict[Rules, list[tuple[int, ...]]] = {}
        marked: dict[Rules, list[Candidates]] = {}  # pencilmark grids, solved from their candidates
        for record in chunk:
            if record.candidates is not None:
                marked.setdefault(record.candidates.puzzle.rules, []).append(record.candidates)
            elif record.puzzle is not None:
                groups.setdefault(record.puzzle.rules, []).append(record.puzzle.cells)
        task: list[tuple[Rules, Any]] = [*groups.items(), *marked.items()]
        yield _Unit(source, ("grids", task), sum(len(r.text) + 1 for r in chunk), chunk)


def _detect(head: bytes, rules: Rules | None) -> str:
    """The layout of an input that begins with ``head``, as ``formats`` detects it."""
    text = head.decode("utf-8", "surrogateescape").lstrip("\ufeff")
    lines = io.StringIO(text, newline=None).readlines()
    if len(head) == HEAD_BYTES and lines and not lines[-1].endswith("\n"):
        lines.pop()  # a line cut by the end of the head
    decided = classify(lines, rules, final=len(head) < HEAD_BYTES)
    return decided or classify(lines, rules, final=True) or "line"


def _lone_cr(head: bytes) -> bool:
    """True when lines end with a lone CR (old Mac text): then ``formats`` reads it, universal newlines."""
    return head.count(b"\r") != head.count(b"\r\n")


class _Joined:
    """Chunks of bytes read as one stream (``read(size)``), drawn from their iterator as they are read."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._left = memoryview(b"")

    def read(self, size: int) -> bytes:
        if not self._left:
            self._left = memoryview(next(self._chunks, b""))
        piece, self._left = self._left[:size], self._left[size:]
        return bytes(piece)


class _Prefixed(io.RawIOBase):
    """A binary stream that replays bytes already read (the head) before the rest of ``stream``."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        self._head = memoryview(head)
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if len(self._head):
            k = min(len(buffer), len(self._head))
            buffer[:k] = self._head[:k]
            self._head = self._head[k:]
            return k
        data = self._stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)
