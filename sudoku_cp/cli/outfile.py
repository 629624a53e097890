"""``-o FILE`` that never destroys what it writes onto, and never leaves a torn record.

A regular file (or a new one) is written to a temporary file beside it and renamed into place only when the
work is complete; a symbolic link is followed, so its target is replaced and the link stays a link; a
device, FIFO or socket is written straight to (renaming over it would replace the node by a regular file,
and a FIFO's reader would get nothing); a name of one of this process's open files (``/dev/stdout``,
``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``) is written through that descriptor, at its offset, as
the shell opened it (``>>`` appends), never renamed over. A file replaced keeps its permission bits (and,
where allowed, its owner). Everything that would make the write fail is checked before any work starts,
and the error names the path the user gave.

When the work stops early (an error, Ctrl-C, a full disk) the whole records written so far are kept as
``FILE.partial``: the file is cut back to the end of its last whole record (the batch engine flushes after
each whole chunk; the other commands write one record per call). Temporary files are named
``.FILE.sudoku-cp-PID.tmp``. One whose process is gone (``kill -9``, a power cut) holds that run's work:
the next run to the same target (or ``--resume``) cuts it back to its last whole line and keeps it as
``FILE.partial``, as a stopped run's, or as ``FILE.PID.partial`` when a ``FILE.partial`` is there already,
and says so. A complete run removes a stale ``FILE.partial`` of an earlier one.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from ..errors import SudokuError, UsageError

__all__ = [
    "OutputError",
    "count_records",
    "keep_killed_runs",
    "output_stream",
    "partial_path",
    "refuse_inputs",
]

_TAG = ".sudoku-cp-"
#: Errors only a write gives: no room left (a full disk or device, a quota, a file size limit).
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


class OutputError(SudokuError, OSError):
    """The output could not be written (a full disk, a device that refuses data): a fault, not misuse."""


def partial_path(path: str | os.PathLike[str]) -> Path:
    """Where the records of a run that stopped early are kept: ``FILE.partial`` beside the real target."""
    target = _follow(str(path))
    if isinstance(target, int):  # an open descriptor keeps no partial file
        target = Path(os.path.abspath(path))
    return target.with_name(target.name + ".partial")


#: A name of an open file descriptor once the folders are resolved (/dev/fd is /proc/self/fd).
_DESCRIPTOR = re.compile(r"/proc/(\d+)(?:/task/\d+)?/fd/(\d+)")
#: Symbolic links followed at most (as the kernel's MAXSYMLINKS).
_MAX_LINKS = 40


def _follow(shown: str) -> Path | int:
    """The file a path names once symbolic links are followed (a dangling link names its missing target),
    or the number of this process's open file descriptor that it names.

    The links are followed one at a time, because ``/dev/stdout`` and ``/proc/self/fd/N`` are "magic" links
    whose text (``pipe:[123]``, a deleted file) is no path to write to.
    """
    if not shown:
        raise UsageError("cannot write a file with an empty name")
    path = Path(os.path.abspath(shown))
    for _ in range(_MAX_LINKS):
        path = Path(os.path.realpath(path.parent)) / path.name
        found = _DESCRIPTOR.fullmatch(str(path))
        if found and int(found[1]) == os.getpid():
            return int(found[2])
        if not path.is_symlink():
            return path
        path = path.parent / os.readlink(path)
    raise UsageError(f"cannot write {shown}: too many levels of symbolic links")


def _describe(exc: OSError) -> str:
    return exc.strerror or str(exc)


class _Committing(io.TextIOWrapper):
    """A text file that remembers where its whole records end, to cut a stopped run's file back to one.

    A record ends at each ``flush()`` (the batch engine flushes after each whole chunk) and after each
    ``write()`` of text that ends a line (the commands write one record per call, a grid of several lines
    too). Only the ends past what the operating system already holds are kept, so memory stays bounded.
    """

    def __init__(self, raw: io.FileIO) -> None:
        super().__init__(io.BufferedWriter(raw), encoding="utf-8", newline="")
        self.committed = raw.tell()  # a whole-record end the file already holds
        self._size = self.committed  # bytes handed to this stream so far
        self._ends: list[int] = []  # record ends past ``committed``
        self._abandoned = False

    def write(self, text: str) -> int:
        written = super().write(text)
        self._size += len(text) if text.isascii() else len(text.encode("utf-8"))
        if text.endswith("\n"):
            self._ends.append(self._size)
            if len(self._ends) >= _MAX_ENDS:
                self._settle(self.buffer.raw.tell())  # type: ignore[attr-defined]
        return written

    def flush(self) -> None:
        super().flush()
        if not self._abandoned:
            self.committed = self._size = self.buffer.tell()  # bytes written straight to the buffer too
            self._ends.clear()

    def _settle(self, held: int) -> None:
        """Forget the record ends below ``held`` bytes, the last of them becoming ``committed``."""
        kept = [end for end in self._ends if end > held]
        if len(kept) < len(self._ends):
            self.committed = self._ends[len(self._ends) - len(kept) - 1]
        self._ends = kept

    def abandon(self, path: Path) -> int:
        """Stop early: put out what the buffer holds (a full disk may refuse it), close, and return the end
        of the last whole record that the file at ``path`` holds."""
        self._abandoned = True  # a flush now ends no record: the last write may have been cut
        with contextlib.suppress(Exception):
            self.close()
        self._settle(path.stat().st_size)
        return self.committed


#: Record ends kept before those the operating system holds are forgotten (a buffer's worth stays).
_MAX_ENDS = 1 << 15


def count_records(path: Path) -> int:
    """The whole records of a ``FILE.partial`` written one line per record (0 when there is none): its
    whole lines but the ``# rules:`` lines the line layout writes between them (``formats.header``)."""
    if not path.exists():
        return 0
    lines = headers = 0
    tail = b"\n"  # the end of what came before: a header line may start the file, or straddle two reads
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            lines += chunk.count(b"\n")
            headers += (tail + chunk).count(b"\n" + _HEADER)
            tail = (tail + chunk)[-len(_HEADER) :]
    return lines - headers


#: How the header lines of the line layout start (``formats.header.PREFIX``).
_HEADER = b"# rules:"


def rules_in_force(path: Path) -> str | None:
    """What the last ``# rules:`` line of a ``FILE.partial`` says (None: it has none, or it says
    ``classic``): the rules its records end under, which the run that continues it starts from."""
    last = b""
    if path.exists():
        with path.open("rb") as f:
            for line in f:
                if line.startswith(_HEADER):
                    last = line
    words = last[len(_HEADER) :].strip().decode("utf-8", "replace")
    return None if words in ("", "classic") else words


def _last_line_end(path: Path) -> int:
    """The offset just past the last line end of the file (0 when it has none): where its whole records
    end, as ``count_records`` counts them."""
    with path.open("rb") as f:
        end = f.seek(0, os.SEEK_END)
        while end > 0:
            start = max(0, end - (1 << 16))
            f.seek(start)
            found = f.read(end - start).rfind(b"\n")
            if found >= 0:
                return start + found + 1
            end = start
    return 0


def keep_killed_runs(path: str | os.PathLike[str]) -> list[Path]:
    """Keep the work of runs killed while writing ``path`` (see the module docstring): each temporary file
    whose process is gone becomes ``FILE.partial`` (``FILE.PID.partial`` when that is taken), cut back to
    its last whole line, and a message names it. The files kept, in that order."""
    target = _follow(str(path))
    if isinstance(target, int):
        return []
    from .common import warn

    kept = []
    for tmp, pid in _stale_temporaries(target):
        partial = target.with_name(target.name + ".partial")
        if partial.exists():
            partial = target.with_name(f"{target.name}.{pid}.partial")
        try:
            end = _last_line_end(tmp)
            if not end:  # killed before its first whole line: nothing to keep
                tmp.unlink()
                continue
            os.truncate(tmp, end)  # a record the kill cut short is none
            os.replace(tmp, partial)
        except OSError:
            continue  # another run took it meanwhile, or the folder is read-only: left as it is
        lines = count_records(partial)
        warn(
            f"a run killed while writing {path} (process {pid}) left {lines:,} whole lines: kept in {partial}"
        )
        kept.append(partial)
    return kept


def _stale_temporaries(target: Path) -> list[tuple[Path, int]]:
    """The ``.FILE.sudoku-cp-PID.tmp`` files beside ``target`` whose process no longer runs, with the PID."""
    prefix = f".{target.name}{_TAG}"
    found = []
    with contextlib.suppress(OSError):
        for entry in sorted(target.parent.iterdir()):
            name = entry.name
            if not (name.startswith(prefix) and name.endswith(".tmp")):
                continue
            pid = name[len(prefix) : -len(".tmp")]
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                found.append((entry, int(pid)))
            except PermissionError:
                pass  # another user's live process
    return found


def _check_writable(shown: str, target: Path) -> None:
    """Refuse, before any work, a target that cannot be written, naming the path the user gave."""
    folder = target.parent
    if target.is_dir():
        raise UsageError(f"cannot write {shown}: it is a folder")
    if not folder.is_dir():
        raise UsageError(f"cannot write {shown}: no folder {folder}")
    if target.exists():
        try:
            with target.open("ab"):
                pass
        except OSError as exc:
            raise UsageError(f"cannot write {shown}: {_describe(exc)}") from None
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write {shown}: the folder {folder} is not writable")


def refuse_inputs(output: str | None, inputs: list[str]) -> None:
    """A ``UsageError`` when the file ``output`` names is one of ``inputs`` (paths, ``-`` for standard input):
    the results would replace the puzzles they answer. Checked before any work starts."""
    if output is None or output == "-":
        return
    target = _follow(output)
    try:
        written = os.stat(target) if isinstance(target, Path) else os.fstat(target)
    except OSError:
        return  # a new file: no input is it
    if not stat.S_ISREG(written.st_mode):
        return  # a device, a pipe: writing to it replaces no file
    for name in inputs:
        try:
            read = os.fstat(sys.stdin.fileno()) if name == "-" else os.stat(name)
        except (OSError, ValueError):  # no such file (a puzzle, a URL), or no standard input
            continue
        if (read.st_dev, read.st_ino) == (written.st_dev, written.st_ino):
            shown = "the standard input" if name == "-" else f"the input {name}"
            raise UsageError(f"cannot write {output}: it is {shown}, which the results would replace")


@contextlib.contextmanager
def output_stream(path: str | None, *, resume: bool = False) -> Iterator[TextIO]:
    """Standard output, or ``path`` written safely (see the module docstring).

    With ``resume`` a ``FILE.partial`` left by an earlier run is continued: its records stay and the new
    ones are appended (the caller skips the puzzles they answer: ``count_records(partial_path(path))``).
    """
    if path is None or path == "-":
        try:
            yield sys.stdout
            sys.stdout.flush()
        except OSError as exc:
            if exc.errno not in _FULL or isinstance(exc, SudokuError):
                raise
            raise OutputError(f"cannot write the standard output: {_describe(exc)}") from None
        return
    target = _follow(path)
    if isinstance(target, int):
        if resume:
            raise UsageError(f"--resume needs a regular file, and {path} is not one")
        yield from _descriptor(path, target)
        return
    try:
        status: os.stat_result | None = target.stat()
    except OSError:
        status = None
    mode = status.st_mode if status is not None else None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        if resume:
            raise UsageError(f"--resume needs a regular file, and {path} is not one")
        yield from _straight(path, target)
        return
    _check_writable(path, target)
    keep_killed_runs(target)
    partial = target.with_name(target.name + ".partial")
    tmp = target.with_name(f".{target.name}{_TAG}{os.getpid()}.tmp")
    try:
        if resume and partial.exists():
            os.replace(partial, tmp)
            os.truncate(tmp, _last_line_end(tmp))  # a torn last line (an edit, a crash) is no record
            raw = open(tmp, "ab")  # noqa: SIM115 - closed below
        else:
            raw = open(tmp, "xb")  # noqa: SIM115 - closed below
            _take_over_mode(raw.fileno(), status)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {_describe(exc)}") from None
    stream = _Committing(raw)
    try:
        yield stream
        stream.flush()
    except BaseException as exc:
        if _keep_partial(stream, tmp, partial):
            from .common import warn

            warn(f"stopped early: the results written so far are in {partial}")
        if isinstance(exc, OSError) and not isinstance(exc, SudokuError):
            raise OutputError(f"cannot write {path}: {_describe(exc)}") from None
        raise
    stream.close()
    os.replace(tmp, target)
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()  # an earlier run's records: this run's file is complete


def _take_over_mode(fd: int, replaced: os.stat_result | None) -> None:
    """Give a new file the permission bits (and, where allowed, the owner) of the file it will replace;
    a file that replaces nothing gets the usual ``0o666`` less the umask."""
    if replaced is None:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        return
    ours = os.fstat(fd)
    if (ours.st_uid, ours.st_gid) != (replaced.st_uid, replaced.st_gid):
        with contextlib.suppress(OSError):  # only root may give a file away
            os.fchown(fd, replaced.st_uid, replaced.st_gid)
    os.fchmod(fd, stat.S_IMODE(replaced.st_mode))


def _keep_partial(stream: _Committing, tmp: Path, partial: Path) -> bool:
    """Cut the temporary file back to its last whole record and keep it as ``FILE.partial``; one that
    holds no record is removed (a run that stopped before its first: nothing to keep). Whether kept."""
    size = stream.abandon(tmp)
    if size == 0:
        tmp.unlink()
        return False
    os.truncate(tmp, size)
    os.replace(tmp, partial)
    return True


def _straight(shown: str, target: Path) -> Iterator[TextIO]:
    """A device, FIFO or socket: written straight to, never replaced."""
    try:
        stream = open(target, "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise UsageError(f"cannot write {shown}: {_describe(exc)}") from None
    try:
        yield stream
        stream.flush()
    except OSError as exc:
        if isinstance(exc, SudokuError):
            raise
        raise OutputError(f"cannot write {shown}: {_describe(exc)}") from None
    finally:
        with contextlib.suppress(OSError):
            stream.close()


def _descriptor(shown: str, fd: int) -> Iterator[TextIO]:
    """A name of one of this process's open files (``/dev/stdout``): written through a copy of that
    descriptor, so its offset and append mode stay the shell's; a closed pipe ends quietly as on stdout."""
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError as exc:
        raise UsageError(f"cannot write {shown}: {_describe(exc)}") from None
    if flags & os.O_ACCMODE == os.O_RDONLY:
        raise UsageError(f"cannot write {shown}: it is open for reading only")
    for std in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            std.flush()  # what this process wrote there before comes first
    stream = open(os.dup(fd), "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed below
    try:
        yield stream
        stream.flush()
    except OSError as exc:
        if isinstance(exc, (SudokuError, BrokenPipeError)):
            raise
        raise OutputError(f"cannot write {shown}: {_describe(exc)}") from None
    finally:
        with contextlib.suppress(OSError):
            stream.close()
