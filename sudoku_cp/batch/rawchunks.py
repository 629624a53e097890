"""The raw path in the parent: the layouts it takes, its task and answer, cutting the input into chunks.

``split_chunks`` cuts a byte stream into chunks at record boundaries (a line end for ``line``, an empty line
for ``grid`` and ``spaced``); each chunk becomes a ``RawTask`` that a worker answers with a ``RawAnswer``
(``rawio``). Nothing here needs numpy, so a run that never takes the raw path does not load it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..errors import ParseError
from ..grid import Rules

__all__ = ["RAW_INPUTS", "RAW_OUTPUTS", "RawAnswer", "RawTask", "count_lines", "split_chunks"]

#: Layouts the fast path reads and writes (csv, jsonl and pretty go through ``formats`` record by record).
RAW_INPUTS = ("line", "grid", "spaced")
RAW_OUTPUTS = ("line", "grid", "spaced")


@dataclass(frozen=True)
class RawTask:
    """Whole records of one input as bytes (a UTF-8 byte order mark already removed)."""

    data: bytes
    layout: str  # the input layout, one of RAW_INPUTS
    rules: Rules | None  # the box shape given by the user; None: each puzzle's size gives it
    output: str  # the output layout, one of RAW_OUTPUTS


@dataclass(frozen=True)
class RawAnswer:
    """A chunk's output text and what the parent needs to report it.

    ``out``: every record's output; in ``grid`` and ``spaced`` each record starts with the empty line that
    separates it from the one before, which the parent drops for the very first record of the output.
    ``errors``: ``(error class, reason, record number, line)`` of each bad puzzle, numbered from 1 within the
    chunk; ``lines``: line ends in the chunk; ``counts``: puzzles by status code.
    """

    out: bytes
    records: int
    lines: int
    counts: tuple[int, ...]
    errors: list[tuple[type[ParseError], str, int, int | None]]


def count_lines(data: bytes) -> int:
    """Line ends in ``data`` as universal newlines count them (``\\n``, ``\\r\\n`` and a lone ``\\r``)."""
    lines = data.count(b"\n")
    if b"\r" in data:
        lines += data.count(b"\r") - data.count(b"\r\n")
    return lines


# -- cutting a stream into chunks ------------------------------------------------------------------------


def _line_cut(buffer: bytes | bytearray) -> int:
    """The end of the last whole line in ``buffer`` (0 if none)."""
    return buffer.rfind(b"\n") + 1


def _block_cut(buffer: bytes | bytearray) -> int:
    """The end of the last empty line in ``buffer`` (0 if none): blocks never straddle it."""
    lf = buffer.rfind(b"\n\n")
    crlf = buffer.rfind(b"\n\r\n")
    return max(lf + 2 if lf >= 0 else 0, crlf + 3 if crlf >= 0 else 0)


def split_chunks(
    stream: BinaryIO, layout: str, size: Callable[[], int], head: bytes = b""
) -> Iterator[bytes]:
    """Chunks of ``stream`` (after ``head``, bytes already read from it) that end at record boundaries.

    ``size()`` gives the wanted size of the next chunk; a chunk can be longer when a record is (a block of
    lines without an empty line). The first chunk loses a UTF-8 byte order mark.
    """
    cut = _line_cut if layout == "line" else _block_cut
    buffer = bytearray(head)
    eof = False
    first = True
    while True:
        want = size()
        while not eof and len(buffer) < want:
            more = stream.read(want - len(buffer))
            if not more:
                eof = True
            else:
                buffer += more
        if first:
            first = False
            if buffer.startswith(b"\xef\xbb\xbf"):
                del buffer[:3]
        if eof:
            if buffer:
                yield bytes(buffer)
            return
        end = cut(buffer)
        while end == 0:  # no boundary yet: read on until one comes or the input ends
            more = stream.read(max(want, len(buffer)))
            if not more:
                eof = True
                break
            start = max(0, len(buffer) - 2)
            buffer += more
            end = cut(buffer[start:])
            end = start + end if end else 0
        if eof and end == 0:
            continue
        yield bytes(buffer[:end])
        del buffer[:end]
