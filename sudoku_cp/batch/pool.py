"""An ordered process pool with a bounded number of tasks in flight.

Why not ``multiprocessing.Pool.imap``: its feeder thread drains the whole input iterator (unbounded memory
on a large file), a dead worker leaves it waiting forever, and one shared pipe pair can deadlock when large
results fill it while the parent is blocked sending. Here each worker has its own duplex pipe and holds one
task at a time, the parent sends a task only to an idle worker (so a send never waits on a worker that is
itself blocked sending), results are put back in input order, and no task is handed out more than
``ahead`` positions past the oldest unfinished one, so memory stays bounded whatever the input size.

Workers are started with ``forkserver`` where available (``spawn`` elsewhere), never ``fork``: nothing of
the parent's state (threads, open solvers) leaks into them. ``preload`` names modules the fork server
imports once before it forks the workers, which then share what they loaded. A worker ignores SIGINT (the
parent decides what an interruption means), builds its state once with ``initializer(*initargs)``, says
it is ready, and keeps its state for every task; a worker that dies is
reported as an error, never waited for. A worker that finds itself running the parent's main script again
(a script without an ``if __name__ == "__main__":`` guard) leaves quietly, and the parent raises a
``UsageError`` saying to add the guard. Until the first worker is ready (starting one costs a second or
more: imports, compiled code), a ``local`` handler lets the parent work through tasks itself, so a small
input is done before the workers would have been.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from ..errors import UsageError

__all__ = ["MAIN_GUARD", "MAIN_ON_STDIN", "OrderedPool", "WorkerError", "default_jobs", "start_method"]

_READY = -1  # the sequence number of a worker's "ready" message


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
    """A worker's life: set up once, say so, then answer one task at a time until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    setup_error: BaseException | None = None
    setup_trace = ""
    try:
        if initializer is not None:
            initializer(*initargs)
    except BaseException as exc:  # reported with every task: the parent is waiting on results
        setup_error, setup_trace = exc, traceback.format_exc()
    try:
        conn.send((_READY, True, None))
    except OSError:
        return
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
        preload: tuple[str, ...] = (),
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        if _rerunning_main():
            _leave_quietly()
        if _main_cannot_be_rerun():
            raise UsageError(MAIN_ON_STDIN)
        self.jobs = jobs
        self.ahead = max(jobs, ahead if ahead is not None else 2 * jobs)
        method = method or start_method()
        ctx = multiprocessing.get_context(method)
        if preload and method == "forkserver":
            ctx.set_forkserver_preload(list(preload))  # no effect once this process's fork server runs
        self._conns: list[Connection] = []
        self._procs: list[multiprocessing.process.BaseProcess] = []
        self._busy: dict[Connection, int] = {}  # worker pipe -> the task number it is working on
        self._ready: set[Connection] = set()
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

    def map(self, tasks: Iterable[Any], local: Callable[[Any], Any] | None = None) -> Iterator[Any]:
        """Yield ``handler(task)`` for every task, in the order of ``tasks``; at most ``ahead`` in flight.

        A task's exception is raised here, in order, after the results before it. Tasks are drawn from the
        iterable only when a worker (or ``local``) is free to take one; ``local(task)``, if given, runs tasks
        in this process until the first worker is ready. Leaving the loop early stops the workers.
        """
        source = iter(tasks)
        exhausted = False
        next_seq = 0  # the next task's number
        next_out = 0  # the number of the next result to yield
        done: dict[int, tuple[bool, Any]] = {}
        idle = [conn for conn in self._conns if conn in self._ready and conn not in self._busy]

        def draw() -> Any:
            nonlocal exhausted
            if exhausted or next_seq - next_out >= self.ahead:
                return _NOTHING
            task = next(source, _NOTHING)
            exhausted = task is _NOTHING
            return task

        try:
            while True:
                while idle and (task := draw()) is not _NOTHING:
                    conn = idle.pop()
                    try:
                        conn.send((next_seq, task))
                    except OSError:  # an idle worker that died: not standard output's broken pipe
                        raise self._death(conn) from None
                    self._busy[conn] = next_seq
                    next_seq += 1
                if next_out in done:
                    ok, value = done.pop(next_out)
                    next_out += 1
                    if not ok:
                        exc, trace = value
                        raise exc from WorkerError(f"in a worker process:\n{trace}")
                    yield value
                elif local is not None and not self._ready and (task := draw()) is not _NOTHING:
                    try:
                        done[next_seq] = (True, local(task))
                    except Exception as exc:
                        done[next_seq] = (False, (exc, traceback.format_exc()))
                    next_seq += 1
                    self._collect(idle, done, timeout=0)
                elif self._busy or (not exhausted and len(self._ready) < len(self._conns)):
                    self._collect(idle, done)
                elif exhausted or not self._conns:
                    return  # every task handed out has been answered and the input is exhausted
                else:
                    raise WorkerError("no worker is left to take the remaining tasks")
        finally:
            if self._busy or done:
                self.terminate()  # stopped early: results still on their way would confuse a next map

    def _collect(
        self, idle: list[Connection], done: dict[int, tuple[bool, Any]], timeout: float | None = None
    ) -> None:
        """Take the answers and ready messages that arrive (waiting for one unless ``timeout`` is 0).

        A busy or starting worker that died is an error.
        """
        waiting = [c for c in self._conns if c in self._busy or c not in self._ready]
        deaths = {p.sentinel: c for p, c in zip(self._procs, self._conns, strict=True) if c in waiting}
        ready = wait([*waiting, *deaths], timeout)
        conns = {deaths.get(item, item) for item in ready}  # a worker that ended: read what it sent first
        for conn in conns:
            try:
                while conn.poll():
                    seq, ok, value = conn.recv()
                    if seq == _READY:
                        self._ready.add(conn)
                    else:
                        del self._busy[conn]
                        done[seq] = (ok, value)
                    idle.append(conn)
            except (EOFError, OSError):
                raise self._death(conn) from None

    def _death(self, conn: Connection) -> Exception:
        """The error to raise for the worker behind ``conn``, which died: a ``WorkerError`` with its exit
        code, or the ``MAIN_GUARD`` usage error for one that died starting, running the main script again."""
        proc = self._procs[self._conns.index(conn)]
        proc.join(1.0)
        if conn not in self._ready and proc.exitcode == _RERUN_EXIT:
            return UsageError(MAIN_GUARD)
        return WorkerError(f"a worker process died (exit code {proc.exitcode})")

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
        self._ready.clear()
        self._procs.clear()
        self._conns.clear()

    def __enter__(self) -> OrderedPool:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.terminate()


_NOTHING = object()

#: Why workers die as they start when the main module is a script: each worker runs it again.
MAIN_GUARD = (
    "the worker processes died while starting: each one runs the script that started them again, and "
    "there the script starts workers of its own. Put the code that calls solve_many (or anything with "
    'jobs > 1) under `if __name__ == "__main__":` in a script file, or use jobs=1'
)
#: Why a script read from standard input cannot start workers: they load the main script from its file.
MAIN_ON_STDIN = (
    "a script read from standard input cannot start worker processes (each one loads the main script "
    "again, from its file): save it as a file, with the code that calls solve_many under `if __name__ == "
    '"__main__":`, or use jobs=1'
)
#: A worker's exit status when it finds itself running the main script again and reaching a new pool.
_RERUN_EXIT = 86


def _rerunning_main() -> bool:
    """True in a new worker process while it runs the parent's main script again, before its task.

    multiprocessing marks that phase (``_inheriting``) and refuses to start processes during it, with a
    long traceback from each worker; the worker leaves quietly instead and the parent says what to do.
    """
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def _leave_quietly() -> None:
    """End this worker, still starting, with the status that tells the parent why (see ``MAIN_GUARD``)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(_RERUN_EXIT)


def _main_cannot_be_rerun() -> bool:
    """True when ``__main__`` is a script with no file to load again (``python - < script.py``): every
    worker would die loading it. Package ``__main__`` modules (``python -m``), ``python -c`` and
    interactive sessions are not loaded again."""
    main = sys.modules.get("__main__")
    if getattr(main, "__spec__", None) is not None:
        return False
    path = getattr(main, "__file__", None)
    if path is None and sys.argv and sys.argv[0] not in ("", "-c"):
        path = sys.argv[0]  # what multiprocessing falls back to
    return path is not None and not os.path.isfile(path)
