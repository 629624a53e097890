"""A time limit over long Python work (a logical walk), checked where the work can stop cleanly.

A search in a solver's C code takes its time limit as an argument; the step engine's work is Python that
calls many short kernels, and a step alone may take seconds (SE's nested chains, nested forcing nets). A
block run ``within(seconds)`` sets a deadline for this thread; the engine's loops call ``check`` (about
a tenth of a microsecond) at points where stopping leaves nothing half-made, and ``check`` raises
``TimeoutError`` once the deadline has passed. Nested blocks keep the earlier deadline.

>>> import time
>>> with within(0.01):
...     time.sleep(0.02)
...     try:
...         check()
...     except TimeoutError as exc:
...         print(exc)
the time limit was reached
>>> check()  # outside any block: no deadline
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

__all__ = ["check", "left", "seconds", "within"]

_LOCAL = threading.local()


def seconds(time_limit: object) -> float | None:
    """A time limit given to the library: None, or a number of seconds above 0 (``TypeError`` for what is
    no number, ``UsageError`` for 0, a negative number or NaN; the command line refuses them too)."""
    from .errors import UsageError

    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise TypeError(f"a time limit is a number of seconds, not {type(time_limit).__name__}")
    if not time_limit > 0:
        raise UsageError(f"a time limit is a number of seconds above 0, not {time_limit}")
    return float(time_limit)


@contextlib.contextmanager
def within(seconds: float | None) -> Iterator[None]:
    """Run the block with a deadline ``seconds`` from now for this thread (None: no deadline of its own)."""
    previous: float | None = getattr(_LOCAL, "deadline", None)
    deadline = previous
    if seconds is not None:
        mine = time.perf_counter() + seconds
        deadline = mine if previous is None else min(previous, mine)
    _LOCAL.deadline = deadline
    try:
        yield
    finally:
        _LOCAL.deadline = previous


def left() -> float | None:
    """Seconds to the thread's deadline (0 once passed), or None where there is none."""
    deadline: float | None = getattr(_LOCAL, "deadline", None)
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def check() -> None:
    """Raise ``TimeoutError`` once the thread's deadline has passed."""
    deadline: float | None = getattr(_LOCAL, "deadline", None)
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeoutError("the time limit was reached")
