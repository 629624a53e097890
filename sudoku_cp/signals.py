"""Holding Ctrl-C and SIGTERM over a block where an exception must not be raised, delivering them after.

Python runs a signal handler between two bytecodes of the main thread, wherever that is. Inside a ctypes
callback, as when numba compiles a kernel or loads it from its cache, an exception the handler raises is
printed as "Exception ignored" and lost, and numba is left half-way (its next call fails). Such a block
runs with the signals held: a signal that arrives is recorded, and raised again, to the handler that was
in place before, as soon as the block ends.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = ["HELD", "signals_held"]

#: The signals held.
HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Run the block with SIGINT and SIGTERM held; those that arrived are delivered when it ends.

    Outside the main thread (where Python runs no signal handler) it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    previous = {sig: signal.signal(sig, hold) for sig in HELD}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(received):
            signal.raise_signal(sig)
