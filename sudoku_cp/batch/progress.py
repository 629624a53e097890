"""What a batch reports to its user: a live progress line on a terminal, and a summary line at the end.

The progress line (puzzles done, rate, share of the input read, time left) is drawn on standard error only
when that is a terminal, redrawn at most a few times a second, and erased at the end, so logs and pipes stay
clean. The summary follows Norvig's one-line batch report: what became of the puzzles and how fast.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..result import Status
from ..wording import plural

__all__ = ["Progress", "Tally"]

#: Seconds without a new answer after which the progress line says how long it has waited.
STALLED = 1.0


@dataclass
class Tally:
    """Puzzles counted by outcome, and the time since the batch started.

    The outcomes are ``Status`` values for ``solve``; another command counts its own words (``unique``,
    ``multiple`` for ``count``; the levels for ``rate``), listed in ``counts`` in the order the summary
    names them. Every command's summary is the same sentence: ``summary()``.
    """

    counts: dict[Any, int] = field(default_factory=lambda: dict.fromkeys(Status, 0))
    started: float = field(default_factory=time.perf_counter)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def add(self, outcome: Any, count: int = 1) -> None:
        self.counts[outcome] = self.counts.get(outcome, 0) + count

    def summary(
        self,
        interrupted: str | None = None,
        verb: str = "solved",
        of: Any = Status.SOLVED,
        words: Mapping[Any, str] | None = None,
        kind: str = "",
        notes: Sequence[str] = (),
    ) -> str:
        """The run in one line, the same sentence for every command: what became of the puzzles, how fast.

        With ``of`` (an outcome): ``solved 95 of 100 puzzles (2 no solution, 1 multiple, 2 error) in
        0.52 s, 192 puzzles/s``; with ``of`` a frozenset of outcomes, their sum, each still named:
        ``proved 5 of 10 puzzles (5 multiple, 5 refused)``; with ``of`` None: ``counted 1,000 puzzles
        (998 unique, 2 multiple) in 1.23 s, 813 puzzles/s``. ``interrupted`` says why the run stopped
        early, after a semicolon; ``words`` names outcomes otherwise than their own word (``solved`` as
        ``unique``); an outcome named as the verb is not repeated. ``kind`` goes before ``puzzles``
        (``9x9``), ``notes`` after the outcomes in the parentheses (``seed 5``).
        """
        counts, total, elapsed = self.counts, self.total, self.elapsed
        words = words or {}
        several = isinstance(of, frozenset)
        named = [
            (k, words.get(outcome) or _word(outcome))
            for outcome, k in counts.items()
            if several or outcome != of
        ]
        parts = [f"{k:,} {word}" for k, word in named if k and word != verb] + list(notes)
        rate = total / elapsed if elapsed > 0 else 0.0
        rest = f" ({', '.join(parts)})" if parts else ""
        stop = f"; {interrupted}" if interrupted else ""
        done = sum(counts.get(o, 0) for o in of) if several else counts.get(of, 0)
        head = f"{done:,} of {total:,}" if of is not None else f"{total:,}"
        kind = f" {kind}" if kind else ""
        if interrupted and not total:  # stopped before the first answer: no "0 of 0 puzzles"
            return f"{verb} no{kind} puzzle{rest} in {elapsed:.2f} s{stop}"
        return (
            f"{verb} {head}{kind} {plural(total, 'puzzle')}{rest} in {elapsed:.2f} s, "
            f"{rate:,.{0 if rate >= 10 else 2}f} puzzles/s{stop}"  # a first run's 0.19/s, not 0/s
        )


def _word(outcome: Any) -> str:
    """An outcome as the summary says it: ``no solution`` for ``Status.NO_SOLUTION``."""
    return str(getattr(outcome, "value", outcome)).replace("_", " ")


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """A single status line on ``stream`` (standard error), shown only when it is a terminal.

    ``update(done, position)`` is cheap to call often: it redraws at most every ``interval`` seconds.
    ``total`` is the input's size when known (regular files: bytes for ``solve``, lines for ``count`` and
    ``rate``; the puzzles asked of ``generate``), with ``position`` the amount done in the same unit: then
    the line shows the share done and the time left, else puzzles and rate only. Inside ``ticking()`` the
    line is redrawn every second even when no answer comes, and says how long the run has waited for one
    (``still working (0:12)``): a puzzle that takes long (``explain`` of an empty grid) shows the run alive.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        total: int | None = None,
        interval: float = 0.2,
        window: float = 5.0,
    ) -> None:
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.total = total
        self.interval = interval
        self.started = time.perf_counter()
        self._next = self.started + interval
        self.window = window
        self._recent: deque[tuple[float, int, int]] = deque()  # (time, done, position) of recent redraws
        self._shown = False
        self._done, self._position = 0, None  # the last update's
        self._answered = self.started  # when ``done`` last grew
        self._lock = threading.Lock()  # the ticking thread draws too

    def update(self, done: int, position: int | None = None) -> None:
        """Redraw the line if it is time: ``done`` puzzles answered, ``position`` bytes of input consumed."""
        if not self.enabled:
            return
        now = time.perf_counter()
        with self._lock:
            if done != self._done:
                self._answered = now
            self._done, self._position = done, position
            if now >= self._next:
                self._draw(now)

    def _draw(self, now: float) -> None:
        """Write the line of the last update (the lock held)."""
        self._next = now + self.interval
        done, position = self._done, self._position
        self._recent.append((now, done, position or 0))
        while now - self._recent[0][0] > self.window and len(self._recent) > 2:
            self._recent.popleft()
        text = self.line(done, position, now - self.started)
        if now - self._answered >= STALLED:
            text += f", still working ({_clock(now - self._answered)})"
        self.stream.write("\r" + text + "\x1b[K")
        self.stream.flush()
        self._shown = True

    @contextlib.contextmanager
    def ticking(self, every: float = 1.0) -> Iterator[None]:
        """Inside, a thread redraws the line every ``every`` seconds, answers or not (see the class)."""
        if not self.enabled:
            yield
            return
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(every):
                with self._lock:
                    now = time.perf_counter()
                    if now >= self._next:
                        self._draw(now)

        thread = threading.Thread(target=tick, name="sudoku-cp progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()

    def line(self, done: int, position: int | None, elapsed: float) -> str:
        """The text of the progress line (without the terminal's control characters).

        The rate and the time left follow the last ``window`` seconds, so start-up does not skew them.
        """
        rate = done / elapsed if elapsed > 0 else 0.0
        speed = None  # bytes per second lately
        if len(self._recent) >= 2:
            (t0, done0, pos0), (t1, done1, pos1) = self._recent[0], self._recent[-1]
            if t1 > t0:
                rate = (done1 - done0) / (t1 - t0)
                speed = (pos1 - pos0) / (t1 - t0)
        text = f"{done:,} {plural(done, 'puzzle')}, {rate:,.0f} puzzles/s"
        if self.total and position is not None and 0 < position <= self.total:
            share = position / self.total
            text += f", {100 * share:.0f}%"
            if speed:
                text += f", {_clock((self.total - position) / speed)} left"
        return text

    def close(self) -> None:
        """Erase the line, so what follows starts on a clean line."""
        with self._lock:
            if self._shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self._shown = False
