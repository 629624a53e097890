"""An ordered process pool with a bounded number of tasks in flight.

Why not ``multiprocessing.Pool.imap``: its feeder thread drains the whole input iterator (unbounded memory
on a large file), a dead worker leaves it waiting forever, and one shared pipe pair can deadlock when large
results fill it while the parent is blocked sending. Here each worker has its own duplex pipe and holds one
task at a time, the parent sends a task only to an idle worker (so a send never waits on a worker that is
itself blocked sending), results are put back in input order, and no task is handed out more than
``ahead`` positions past the oldest unfinished one, so memory stays bounded whatever the input size.

Workers are started with ``forkserver`` where available (``spawn`` elsewhere), never ``fork``: nothing of
the parent's state (threads, open solvers) leaks into them. A worker ignores SIGINT (the parent decides
what an interruption means), builds its state once with ``initializer(*initargs)`` and keeps it for every
task; a worker that dies is reported as an error, never waited for.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

__all__ = ["OrderedPool", "WorkerError", "default_jobs", "start_method"]


class WorkerError(RuntimeError):
    """A worker process raised an exception it could not send back, or died."""


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def start_method() -> str:
    """``forkserver`` where the platform has it, else ``spawn``; ``SUDOKU_CP_START_METHOD`` overrides."""
    wanted = os.environ.get("SUDOKU_CP_START_METHOD")
    methods = multiprocessing.get_all_start_methods()
    if wanted:
        if wanted not in methods:
            raise ValueError(f"start method {wanted!r} is not available here; valid: {', '.join(methods)}")
        return wanted
    return "forkserver" if "forkserver" in methods else "spawn"


def _worker_main(
    conn: Connection, initializer: Callable[..., Any] | None, initargs: tuple, handler: Callable[[Any], Any]
) -> None:
    """A worker's life: set up once, then answer one task at a time until the parent says stop or leaves."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        if initializer is not None:
            initializer(*initargs)
    except BaseException as exc:  # reported with the first task: the parent is waiting on a result
        setup_error: BaseException | None = exc
        setup_trace = traceback.format_exc()
    else:
        setup_error, setup_trace = None, ""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if task is None:
            return
        seq, payload = task
        try:
            if setup_error is not None:
                raise setup_error
            reply = (seq, True, handler(payload))
        except BaseException as exc:
            reply = (seq, False, (exc, setup_trace or traceback.format_exc()))
        try:
            conn.send(reply)
        except (BrokenPipeError, EOFError, OSError):
            return
        except Exception:  # the exception or result does not pickle: send its text instead
            seq, ok, value = reply
            message = value[1] if not ok else traceback.format_exc()
            conn.send((seq, False, (WorkerError(message), message)))


class OrderedPool:
    """``jobs`` worker processes mapping ``handler`` over tasks, results yielded in input order.

    >>> with OrderedPool(2, abs) as pool:  # doctest: +SKIP
    ...     list(pool.map([-1, -2, -3]))
    [1, 2, 3]

    ``handler``, ``initializer`` and ``initargs`` must pickle (module-level functions, plain values):
    workers are started by ``forkserver`` or ``spawn``. ``ahead`` bounds how far the handed-out tasks may
    run past the oldest unfinished one (default ``2 * jobs``): results waiting for an earlier one are kept
    in memory, at most that many. Use as a context manager, or call ``close()``/``terminate()``.
    """

    def __init__(
        self,
        jobs: int,
        handler: Callable[[Any], Any],
        initializer: Callable[..., Any] | None = None,
        initargs: tuple = (),
        *,
        ahead: int | None = None,
        method: str | None = None,
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self.ahead = max(jobs, ahead if ahead is not None else 2 * jobs)
        ctx = multiprocessing.get_context(method or start_method())
        self._conns: list[Connection] = []
        self._procs: list[multiprocessing.process.BaseProcess] = []
        self._busy: dict[Connection, int] = {}  # worker pipe -> the task number it is working on
        try:
            for _ in range(jobs):
                parent, child = ctx.Pipe(duplex=True)
                proc = ctx.Process(
                    target=_worker_main, args=(child, initializer, initargs, handler), daemon=True
                )
                proc.start()
                child.close()
                self._conns.append(parent)
                self._procs.append(proc)
        except BaseException:
            self.terminate()
            raise

    def map(self, tasks: Iterable[Any]) -> Iterator[Any]:
        """Yield ``handler(task)`` for every task, in the order of ``tasks``; at most ``ahead`` in flight.

        A task's exception is raised here, in order, after the results before it. Tasks are drawn from the
        iterable only when a worker is free to take one. Leaving the loop early stops the workers.
        """
        source = iter(tasks)
        exhausted = False
        next_seq = 0  # the next task's number
        next_out = 0  # the number of the next result to yield
        done: dict[int, tuple[bool, Any]] = {}
        idle = [conn for conn in self._conns if conn not in self._busy]
        try:
            while True:
                while idle and not exhausted and next_seq - next_out < self.ahead:
                    try:
                        task = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    conn = idle.pop()
                    conn.send((next_seq, task))
                    self._busy[conn] = next_seq
                    next_seq += 1
                if next_out in done:
                    ok, value = done.pop(next_out)
                    next_out += 1
                    if not ok:
                        exc, trace = value
                        raise exc from WorkerError(f"in a worker process:\n{trace}")
                    yield value
                elif self._busy:
                    self._collect(idle, done)
                else:
                    return  # every task handed out has been answered and the input is exhausted
        finally:
            if self._busy or done:
                self.terminate()  # stopped early: results still on their way would confuse a next map

    def _collect(self, idle: list[Connection], done: dict[int, tuple[bool, Any]]) -> None:
        """Wait until at least one busy worker answers; a worker that died is an error."""
        busy = self._busy
        deaths = {proc.sentinel: conn for proc, conn in zip(self._procs, self._conns, strict=True)}
        ready = wait([*busy, *(s for s, c in deaths.items() if c in busy)])
        for item in ready:
            if isinstance(item, Connection):
                try:
                    seq, ok, value = item.recv()
                except (EOFError, OSError):
                    continue  # its sentinel reports the death
                del busy[item]
                idle.append(item)
                done[seq] = (ok, value)
        for item in ready:
            if not isinstance(item, Connection) and deaths[item] in busy and not deaths[item].poll():
                proc = self._procs[self._conns.index(deaths[item])]
                proc.join(0.1)
                raise WorkerError(f"a worker process died (exit code {proc.exitcode})")

    def close(self) -> None:
        """Ask the workers to stop and wait for them briefly; kill those that do not."""
        if self._busy:
            self.terminate()
            return
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for proc in self._procs:
            proc.join(2.0)
        self.terminate()

    def terminate(self) -> None:
        """Stop every worker now (work in progress is lost) and release the pipes."""
        for proc in self._procs:
            if proc.exitcode is None:
                proc.terminate()
        for proc in self._procs:
            proc.join(1.0)
            if proc.exitcode is None:
                proc.kill()
                proc.join()
        for conn in self._conns:
            conn.close()
        self._busy.clear()
        self._procs.clear()
        self._conns.clear()

    def __enter__(self) -> OrderedPool:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.terminate()
