"""Ctrl-C and SIGTERM as an exception the batch can clean up after, never in the middle of a write.

A signal that arrives while output is being written is held until the write is complete, so what was written
is always whole records: a valid prefix of the results. The exit status then says which signal stopped the
batch: 128 + its number (130 for SIGINT, 143 for SIGTERM), as shells report a process killed by it.
"""

from __future__ import annotations

import _thread
import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

from ..signals import INSIDE_NUMBA_SECONDS, in_numba

__all__ = ["AGAIN_SECONDS", "InterruptGuard", "Interrupted"]

#: A signal the guard raised is raised again after this long while the guard is still active.
AGAIN_SECONDS = 0.5


class Interrupted(KeyboardInterrupt):
    """The batch was stopped by a signal; ``status`` is the exit status that says so."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(f"interrupted by {self.name}")

    @property
    def status(self) -> int:
        return 128 + self.signum


class InterruptGuard:
    """While active, SIGINT and SIGTERM raise ``Interrupted``, held back inside ``deferred()`` blocks.

    Installs its handlers only in the main thread (elsewhere Python allows none; it then does nothing), and
    restores the previous handlers on exit.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self._depth = 0
        self._pending: int | None = None
        self._previous: dict[int, Any] = {}
        self._again: threading.Timer | None = None

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if self._depth > 0:
            self._pending = signum
            return
        if in_numba(frame):  # raised there, it would come out as a SystemError: raised once numba is done
            self._raise_again_later(signum, INSIDE_NUMBA_SECONDS)
            return
        self._raise_again_later(signum)
        raise Interrupted(signum)

    def _raise_again_later(self, signum: int, seconds: float = AGAIN_SECONDS) -> None:
        """Deliver the signal once more in ``AGAIN_SECONDS`` unless it was ``handled`` or the guard ended.

        An exception raised where Python cannot pass it on is lost: inside a ctypes callback, as when numba
        compiles, it is printed as "Exception ignored" and the work goes on. So until the batch has
        stopped, the signal is raised again, and a lost one costs half a second, not the whole run.
        """
        if self._again is not None:
            self._again.cancel()
        self._again = threading.Timer(seconds, _thread.interrupt_main, (signum,))
        self._again.daemon = True
        self._again.start()

    def __enter__(self) -> InterruptGuard:
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._previous[sig] = signal.signal(sig, self._handler)
        return self

    def handled(self) -> None:
        """Say that the ``Interrupted`` raised was caught: the signal is not raised again."""
        if self._again is not None:
            self._again.cancel()
            self._again = None

    def __exit__(self, *exc: object) -> None:
        self.handled()
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        self._previous.clear()

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """A block that a signal does not cut short: it is raised when the block ends."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0 and self._pending is not None:
                signum, self._pending = self._pending, None
                raise Interrupted(signum)
