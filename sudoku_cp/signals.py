"""Ctrl-C and SIGTERM over blocks where Python cannot act on them at once: held, or turned into a stop.

Python runs a signal handler between two bytecodes of the main thread, wherever that is. Inside a ctypes
callback, as when numba compiles a kernel or loads it from its cache, an exception the handler raises is
printed as "Exception ignored" and lost, and numba is left half-way (its next call fails). Such a block
runs with the signals held (``signals_held``): a signal that arrives is recorded, and raised again, to the
handler that was in place before, as soon as the block ends.

A long call into a solver's C code (CP-SAT, CaDiCaL) runs no Python at all until it returns, so a handler
would wait for the end of the search. When the call releases the GIL, ``stopping(stop)`` has a helper
thread call ``stop`` (the solver's own "stop searching") as soon as a signal arrives; the call returns
within milliseconds and the signal is then delivered as above.

A helper thread's solver calls are stopped the same way from another thread: the helper runs them under a
``Stop`` (``Stop.running``), whose ``set`` calls the stop of the call running (``stopping``'s block) and
keeps any later one from starting (``stop_requested``).
"""

from __future__ import annotations

import _thread
import contextlib
import importlib
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from types import FrameType, ModuleType

__all__ = [
    "HELD",
    "NOTICE_AFTER",
    "Stop",
    "announced",
    "compiling",
    "held_compiles",
    "held_import",
    "in_numba",
    "interrupts_outside_numba",
    "signals_held",
    "stop_requested",
    "stopping",
]

#: The signals held.
HELD = (signal.SIGINT, signal.SIGTERM)


#: A signal that arrived inside numba's own Python code is raised after this long, when that code is done.
INSIDE_NUMBA_SECONDS = 0.01


def in_numba(frame: FrameType | None) -> bool:
    """Whether ``frame`` or one of its callers is numba's own Python code. A compiled kernel calls back
    into it (``_numba_unpickle``, each time it returns an array); an exception raised there comes out of
    the kernel as ``SystemError: ... returned a result with an exception set``, not as itself."""
    while frame is not None:
        if str(frame.f_globals.get("__name__", "")).startswith("numba."):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def interrupts_outside_numba() -> Iterator[None]:
    """In the block, Ctrl-C raises ``KeyboardInterrupt`` as Python's own handler does, but never inside
    numba's Python code (``in_numba``): there it is raised again once numba is done. Where a handler other
    than Python's own is in place, or outside the main thread, it does nothing."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        if in_numba(frame):
            later = threading.Timer(INSIDE_NUMBA_SECONDS, _thread.interrupt_main, (signum,))
            later.daemon = True
            later.start()
            return
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: A first compile of kernels that takes longer than this is announced on standard error.
NOTICE_AFTER = 3.0


@contextlib.contextmanager
def announced(message: str) -> Iterator[None]:
    """Run the block; should it last longer than ``NOTICE_AFTER`` seconds, say ``message`` on standard error
    then (a first compile of kernels: tens of seconds once on a machine, a fraction of one from the cache)."""
    notice = threading.Timer(NOTICE_AFTER, lambda: print(message, file=sys.stderr, flush=True))
    notice.daemon = True
    notice.start()
    try:
        yield
    finally:
        notice.cancel()


@contextlib.contextmanager
def compiling(what: str, seconds: int) -> Iterator[None]:
    """Compile or load kernels in the block, with the signals held (``signals_held``) and a notice if it is
    slow (``announced``): ``what`` is compiled, which takes about ``seconds`` the first time."""
    message = (
        f"sudoku-cp: compiling {what} for this machine, once (about {seconds} s; Ctrl-C waits for it)..."
    )
    with announced(message), signals_held():
        yield


#: Said when a kernel's first call takes long (a compile: a first run on a machine, or after an upgrade).
_COMPILE_NOTICE = "sudoku-cp: compiling a kernel for this machine, once (Ctrl-C waits for it)..."


def held_compiles() -> None:
    """From now on, every first call of a numba kernel (its compile, or its load from numba's cache) runs
    with the signals held (``signals_held``), once a process. Kernels that load on their first call, as
    SE's do at whatever step first needs them, otherwise took a Ctrl-C inside numba's callbacks: printed
    as an ignored exception, numba left half-way ("no compiled object yet"), a traceback for an answer."""
    from numba.core.dispatcher import Dispatcher

    compile_for_args = Dispatcher._compile_for_args
    if getattr(compile_for_args, "held", False):
        return

    def held(self: Dispatcher, *args: object, **kws: object) -> object:
        with announced(_COMPILE_NOTICE), signals_held():
            return compile_for_args(self, *args, **kws)

    held.held = True  # type: ignore[attr-defined]
    Dispatcher._compile_for_args = held  # type: ignore[method-assign]


def held_import(name: str, package: str | None = None) -> ModuleType:
    """``importlib.import_module`` with the signals held: numba, interrupted half-way through its first
    import, stays unusable for the rest of the process (a RecursionError, or "module 'numba' has no
    attribute 'core'", at every later call), as a kernel interrupted while loading does."""
    with signals_held():
        return importlib.import_module(name, package)


@contextlib.contextmanager
def signals_held(signals: Iterable[int] = HELD) -> Iterator[None]:
    """Run the block with ``signals`` (SIGINT and SIGTERM) held; those that arrived are delivered when it
    ends.

    Outside the main thread (where Python runs no signal handler) it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    previous = {sig: signal.signal(sig, hold) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(received):
            signal.raise_signal(sig)


@contextlib.contextmanager
def stopping(stop: Callable[[], None]) -> Iterator[None]:
    """Run the block (a C call that releases the GIL) with SIGINT and SIGTERM calling ``stop`` at once.

    Python's C-level handler writes each signal's number to a wakeup socket even while the main thread is
    inside the call; a helper thread waiting on it calls ``stop``, so the call returns early. The signals
    are held meanwhile and delivered to the handlers in place before when the block ends, as in
    ``signals_held``. A signal this process ignores (a pool's worker ignores SIGINT: its parent decides)
    stays ignored and stops nothing. Outside the main thread, where no signal arrives, a ``Stop`` the
    thread runs under (``Stop.running``) calls ``stop`` when it is set; else the block only runs.
    """
    if threading.current_thread() is not threading.main_thread():
        request = Stop.current()
        if request is None:
            yield
            return
        with request._watching(stop):
            yield
        return
    watched = [sig for sig in HELD if signal.getsignal(sig) is not signal.SIG_IGN]
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    watcher = threading.Thread(target=_watch, args=(reader, stop, watched), name="stopping", daemon=True)
    watcher.start()
    with signals_held(watched):
        previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        try:
            yield
        finally:
            signal.set_wakeup_fd(previous_fd)
            writer.send(b"\0")
            watcher.join()
            reader.close()
            writer.close()


def _watch(reader: socket.socket, stop: Callable[[], None], signals: list[int]) -> None:
    """Call ``stop`` at each watched signal's byte on the wakeup socket, until the 0 byte that ends it."""
    while (data := reader.recv(1)) and data[0] != 0:
        if data[0] in signals:
            stop()


_THREAD = threading.local()


class Stop:
    """A stop of the solver calls a helper thread makes, asked from another thread: the helper runs them
    under it (``running``), ``set`` stops the call running at once (its ``stopping`` block's ``stop``, as a
    signal would) and ``stop_requested`` then tells the helper's later calls not to start."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stops: list[Callable[[], None]] = []
        self.is_set = False

    def set(self) -> None:
        """Stop the call running under this, and every later one. The stops are called under the lock that
        a call's block takes to end, so none reaches a solver once its call is over (it may be freed)."""
        with self._lock:
            self.is_set = True
            for stop in self._stops:
                stop()

    @staticmethod
    def current() -> Stop | None:
        """The stop this thread runs under, if any."""
        return getattr(_THREAD, "stop", None)

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """Run the block (on the helper thread) under this stop."""
        previous = getattr(_THREAD, "stop", None)
        _THREAD.stop = self
        try:
            yield
        finally:
            _THREAD.stop = previous

    @contextlib.contextmanager
    def _watching(self, stop: Callable[[], None]) -> Iterator[None]:
        with self._lock:
            self._stops.append(stop)
            stop_now = self.is_set
        if stop_now:  # set before the call began
            stop()
        try:
            yield
        finally:
            with self._lock:
                self._stops.remove(stop)


def stop_requested() -> bool:
    """Whether the ``Stop`` this thread runs under (``Stop.running``) was set: its next solver call would be
    stopped at once, so it need not start."""
    request = Stop.current()
    return request is not None and request.is_set
