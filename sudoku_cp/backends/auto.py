"""The ``auto`` backend, the default: the dfs search, and where it has not answered within a short budget, a
solver that learns from its conflicts (CP-SAT under sums, sat otherwise).

The compiled dfs answers the classic grids faster than any other backend here and most variant puzzles in
milliseconds, but a search without learning can stall where a few wrong early choices hide a contradiction
deep down (thermometers, long sums, mixed constraints), and a solver that learns can stall where the dfs's
sum reasoning cuts at once (little killers whose combined sums leave no room). So on any rules beyond the
classic ones the portfolio takes turns: the dfs for ``DFS_SECONDS``, then ``cpsat`` (rules with sums) or
``sat`` for ``LEARNER_SECONDS``, then the dfs again for twice its last turn, the learner for three times
its last, and so on until one answers or the time limit is spent. The compiled dfs goes on from where its
last turn stopped, and so does sat on a propagated puzzle (its solver kept); CP-SAT starts afresh each
turn (its growing turns keep what is repeated a fraction of the whole). On a puzzle or two (a command's),
the dfs's first turn has ``sat`` beside it on a helper thread (``_light_beside``; under sums only after the
dfs's first second): both search with the GIL released, so on two cores whichever is quicker answers.
The classic rules go to the dfs alone, whose batch path (one compiled call per chunk) stays as it is.
Named backends keep their meaning: ``--backend dfs`` is the dfs search and nothing else.

The compiled dfs's kernels are built ahead of time once a machine (``dfs_aot``) and then load in
milliseconds. Where they are not (numba's JIT kernels instead: ``SUDOKU_CP_KERNELS=jit``, or no C
compiler), loading them takes about a second, far longer than most puzzles' search. So in a process that
has not loaded them yet and cannot load them quickly (``dfs_compiled.loads_quickly``), a chunk of at most
``QUICK_PUZZLES`` puzzles (a command on a puzzle or two) first gets ``QUICK_SECONDS`` a puzzle on the dfs's
reference engine, then ``LIGHT_SECONDS`` on ``sat`` from that engine's candidates before any guess, and
only what those leave loads the compiled search (a one-puzzle ``count`` of a published killer: 1.5 s ->
0.5 s, the whole process; of a published pill arrow puzzle that the reference engine does not answer
quickly, 2.3 s -> 0.6 s).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..grid import Puzzle
from ..result import Enumeration
from ..signals import Stop, held_import
from .base import Backend, Searching
from .batch_result import EXHAUSTED, LIMIT_REACHED, OUT_OF_NODES
from .dfs import DfsBackend
from .dfs_reference import AUTO

if TYPE_CHECKING:
    import numpy as np

    from ..rules import Rules
    from .batch_result import BatchResult

__all__ = ["DFS_GROWTH", "DFS_SECONDS", "LEARNER_GROWTH", "LEARNER_SECONDS", "AutoBackend"]

#: The dfs search's first turn on a variant puzzle before a solver that learns takes it: most published
#: variant puzzles that the dfs answers at all, it answers within a few milliseconds, and all but a few of
#: the rest within 0.2 s (benchmarks/bench_published.py). Its later turns double, each going on from the
#: last (the compiled search pauses), so a puzzle only it answers costs it at most about twice its time.
DFS_SECONDS = 0.2
DFS_GROWTH = 2.0
#: The first turn of the solver that learns, as long as the dfs's; its later turns grow threefold, faster
#: than the dfs's since CP-SAT starts afresh each turn (sat keeps a propagated puzzle's solver). Chosen on
#: the published puzzles' times per backend (``benchmarks/bench_published.py``; the sum over the variant
#: puzzles within 10% of the best of 72 schedules tried on them), and measured in one process against the
#: earlier 0.2 s / 2 s turns growing 2x / 4x, each afresh: the sixteen slowest published puzzles 97 s ->
#: 52 s in all, geometric mean 2.6 -> 1.8 s (Sandwich snipe 18 13.8 -> 0.9 s, Wecoc #1 [mod B] 28 -> 5 s;
#: CP-SAT's restarts cost Arrow, slow 0.8-1.0 -> 1.9-2.2 s and Wecoc #1 [mod A] 9 -> 12 s).
LEARNER_SECONDS = 0.2
LEARNER_GROWTH = 3.0
#: In a process that has not loaded the compiled dfs yet (a command on one puzzle), each puzzle of a
#: chunk of at most ``QUICK_PUZZLES`` first gets ``QUICK_SECONDS`` on the dfs's reference engine: most
#: puzzles are answered in that time, sooner than numba's import and kernels load (1.1-1.3 s on a quiet
#: test machine). Of the 93 published puzzles of ``bench_published.py``, the reference engine answers 49
#: within 0.1 s, 55 within 0.3 s and 59 within 0.5 s; with sat's light turn after it (below), 0.1 s
#: brings more of them under a second as a whole process than 0.3 s (69 against 65 of 93, measured).
QUICK_SECONDS = 0.1
QUICK_PUZZLES = 4
#: What the quick turn leaves goes next, still before numba loads, to ``sat`` for up to ``LIGHT_SECONDS``
#: (with the kernels at hand, what the dfs's first turn leaves: ``take_turns``'s ``light``) on the shape's
#: formula with the reference engine's candidates before any guess (its propagation, the
#: sums' exclusion groups included, as assumptions): python-sat loads in milliseconds and most published
#: variant puzzles are answered by it in a tenth of a second so (``_light``). Grids above ``LIGHT_UP_TO``
#: and rules whose sums' graphs (``sums.graph_size`` times the digits) exceed ``LIGHT_WORK`` skip it:
#: their formula takes longer to build than a turn, and the build does not stop at the turn's end (the
#: published pills over 32 cells, 18,000, build in 0.2 s; a three-digit pill over 78 cells, 111,000, in
#: over 4 s).
LIGHT_SECONDS = 0.5
#: With the kernels at hand, sat's light turn runs beside the dfs's first turn on a helper thread
#: (``_light_beside``), from ``LIGHT_ALONE`` on and for up to ``BESIDE_SECONDS``: both release the GIL
#: while they search, so on two cores the puzzle is answered by whichever is quicker, where the turns one
#: after the other cost the sum. Measured, whole process, best of three alternating with the turns in
#: sequence: I want to break free 0.83 -> 0.45 s, A kind of magic 0.81 -> 0.54, Anti-consecutive hard
#: 3.24 -> 1.11, Wecoc #1 1.50 -> 1.27, [mod A] 2.98 -> 1.37, Hard renban 1 4.33 -> 3.31, 2 2.47 -> 1.50;
#: but the puzzles the dfs answers in 0.2-0.35 s lose a little to the helper's formula build, whose C
#: calls hold the GIL (Sandwich snipe 18 0.56 -> 0.83 s, Hailstone 0.63 -> 0.82, 16x16 Sudoku X very hard
#: 0.64 -> 0.86): a later start (0.15 s, 0.25 s) measured no better over those and the former together.
#: The puzzles the dfs answers within ``LIGHT_ALONE`` (most) start no second search. The light turn lasts up
#: to 4 s, not 1 s (a race of the two on two cores, its CPU bounded): the published puzzles sat answers
#: and the dfs does not within a second are answered in 2-3 s (whole process, best of two: Hard renban 2
#: 4.27 -> 2.57 s, Zero solution: Renban 5.94 -> 2.01 s; the other slowest seven the same).
LIGHT_ALONE = 0.05
BESIDE_SECONDS = 4.0
#: Under sums (the learner CP-SAT), sat's light turn starts after the dfs's first ``SUMS_ALONE`` seconds
#: and lasts ``SUMS_BESIDE``: on no published puzzle with sums did it answer before the dfs, which answers
#: them all within 0.6 s (benchmarks/bench_published.py), so from 0.05 s on it cost their CPU alone
#: (Wecoc #1 [mod B] 0.75 s of wall time, 1.39 s of CPU), and a longer turn would put off CP-SAT's.
SUMS_ALONE = 1.0
SUMS_BESIDE = 1.0
#: Where sat's formula would not build within a light turn (``_light_fits``), the dfs's first turn is
#: this many times ``DFS_SECONDS`` (its next turn is as long), the learner's first turn after it.
LIGHT_AFTER = 2.0
#: The dfs's steps beside the light turn, between which the main thread reads whether that has answered.
BESIDE_STEP = 0.02
#: Python's switch interval meanwhile (5 ms by default): the main thread, back from a dfs slice, waits this
#: long at most for the GIL while the helper builds its formula in Python, where it waited 5 ms a slice.
BESIDE_SWITCH = 0.0005
#: The longest the main thread waits for the light turn's thread to stop once it has its answer: a solver
#: call stops at once, a formula's build (up to 0.2 s within ``LIGHT_WORK``) runs on after (waiting for it
#: cost the puzzles the dfs answers in 0.2-0.4 s up to a quarter of a second).
CLOSE_WAIT = 0.02
LIGHT_UP_TO = 16
LIGHT_WORK = 50_000


class AutoBackend(Backend):
    """The dfs search; on rules beyond the classic ones the dfs and ``cpsat`` or ``sat`` in turns
    (``take_turns``).

    Statistics are those of the backend that answered, with ``time`` the whole and ``answered_by`` naming it.
    """

    name = "auto"
    description = "the default: dfs; on variant rules sat beside it, then it and cpsat or sat in turns"
    #: ``auto:python`` runs the dfs's reference engine first (a puzzle or two need not load numba).
    variants = ("python",)
    #: The dfs's heuristic, which the batch engine passes to the chunk kernel.
    heuristic = AUTO

    def __init__(self, variant: str | None = None) -> None:
        super().__init__(variant)
        self._dfs_backend: DfsBackend | None = None  # made on first use: checking options loads nothing
        self._learners: dict[str, Backend] = {}

    @property
    def _dfs(self) -> DfsBackend:
        if self._dfs_backend is None:
            self._dfs_backend = DfsBackend(engine=self.variant or "auto")
        return self._dfs_backend

    def _learning(self, rules: Rules) -> Backend:
        """The solver that learns for ``rules``: CP-SAT under sums (cage totals, arrows), whose linear
        constraints and the implied sums of the houses it reasons on as such (published hard killers: 3 s
        against sat's 6 to 9), else sat (thermometers, dots: sat 24 to 50 ms against CP-SAT's 84 to 195).
        Made on first use, imported with the signals held (a Ctrl-C in the middle of an import would leave
        it broken for the process)."""
        name = "cpsat" if rules.has_sums else "sat"
        backend = self._learners.get(name)
        if backend is None:
            module = held_import(f"sudoku_cp.backends.{name}")
            backend = self._learners[name] = module.CpSatBackend() if rules.has_sums else module.SatBackend()
        return backend

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        started = time.perf_counter()
        if puzzle.rules.is_classic:
            return _answered(self._dfs.enumerate(puzzle, limit, time_limit), "dfs", started)
        return self.take_turns(puzzle, limit, time_limit, started, dfs_first=True, light=True)

    def take_turns(
        self,
        puzzle: Puzzle,
        limit: int,
        time_limit: float | None,
        started: float,
        dfs_first: bool,
        light: bool = False,
    ) -> Enumeration:
        """The dfs and the solver that learns in turns (``DFS_SECONDS`` doubling, ``LEARNER_SECONDS``
        growing threefold) from ``dfs_first``'s, until one answers or ``time_limit`` (seconds since
        ``started``) is spent: then the last turn's answer, timed out (unknown). Each backend's search goes
        on from its last turn where it can pause (the compiled dfs, sat on a propagated puzzle), else
        starts afresh (CP-SAT). With ``light``, the turns begin with the dfs's first turn beside sat's light
        turn (``_light_beside``) and go on with the dfs's next; where sat's formula would not build within a
        light turn (``_light_fits``), the dfs's first turn is ``LIGHT_AFTER`` times as long instead."""
        turns = {"dfs": DFS_SECONDS, "learner": LEARNER_SECONDS}
        growth = {"dfs": DFS_GROWTH, "learner": LEARNER_GROWTH}
        searches: dict[str, Searching] = {}
        turn = "dfs" if dfs_first or light else "learner"
        stretch = LIGHT_AFTER if light else 1.0  # the dfs's first turn's
        try:
            if light and _light_fits(puzzle.rules):
                searches["dfs"] = self._dfs.searching(puzzle, limit)
                found, by = _light_beside(searches["dfs"], puzzle, limit, time_limit, started)
                if not found.timed_out or _left(time_limit, started) == 0.0:
                    return _answered(found, by, started)
                turns["dfs"] *= growth["dfs"]
                stretch = 1.0
            while True:
                left = _left(time_limit, started)
                asked = turns[turn] * (stretch if turn == "dfs" else 1.0)
                budget = asked if left is None else min(asked, left)
                backend = self._dfs if turn == "dfs" else self._learning(puzzle.rules)
                if turn not in searches:
                    searches[turn] = backend.searching(puzzle, limit)
                found = searches[turn].advance(budget)
                if not found.timed_out or (left is not None and budget >= left):
                    return _answered(found, backend.name, started)
                if turn == "dfs":
                    stretch = 1.0
                turns[turn] *= growth[turn]
                turn = "learner" if turn == "dfs" else "dfs"
        finally:
            for search in searches.values():
                search.close()

    @classmethod
    def preload(cls, variant: str | None, options: dict[str, Any]) -> str | None:
        """The dfs's (the compiled kernels), unless its reference engine is asked for."""
        return DfsBackend.preload(variant, {})

    def chunk_kernel(self) -> Any | None:
        """The dfs's chunk kernel for the classic rules; on others, the same with the puzzles it has not
        answered within ``DFS_SECONDS`` each handed to a solver that learns. In a process that has not
        loaded the compiled engine yet, a chunk of a few puzzles is first given to its reference engine
        (``QUICK_SECONDS`` each): the kernel is loaded only for what that leaves, which goes to the turns
        at once, the dfs's first (``_Portfolio``)."""
        if self.variant is not None or _compiled_module_loaded():
            kernel = self._dfs.chunk_kernel()
            return None if kernel is None else _Portfolio(self, kernel)
        return _Portfolio(self, None)

    def close(self) -> None:
        for backend in (self._dfs_backend, *self._learners.values()):
            if backend is not None:
                backend.close()


def _answered(found: Enumeration, by: str, started: float) -> Enumeration:
    stats = {**found.stats, "time": time.perf_counter() - started, "answered_by": by}
    return Enumeration(found.solutions, found.complete, found.timed_out, stats)


def _left(time_limit: float | None, started: float) -> float | None:
    """What ``time_limit`` (seconds since ``started``) leaves, never below 0; None without one."""
    return None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - started))


def _light_beside(
    dfs: Searching, puzzle: Puzzle, limit: int, time_limit: float | None, started: float
) -> tuple[Enumeration, str]:
    """The dfs's first turn, with sat's light turn beside it on a helper thread (``_Beside``) from
    ``LIGHT_ALONE`` on for ``BESIDE_SECONDS`` (under sums ``SUMS_ALONE``, ``SUMS_BESIDE``), and the answer
    of the first to answer with who gave it (the dfs's, timed out, when neither did). The dfs searches in
    steps of ``BESIDE_STEP``, reading between them whether the light turn has answered."""
    sums = puzzle.rules.has_sums
    alone = SUMS_ALONE if sums else LIGHT_ALONE
    left = _left(time_limit, started)
    found = dfs.advance(alone if left is None else min(alone, left))
    if not found.timed_out or _left(time_limit, started) == 0.0:
        return found, "dfs"
    seconds = SUMS_BESIDE if sums else BESIDE_SECONDS
    with _switching_often():
        return _beside(dfs, _Beside(puzzle, limit, _left(time_limit, started), seconds), time_limit, started)


def _beside(
    dfs: Searching, helper: _Beside, time_limit: float | None, started: float
) -> tuple[Enumeration, str]:
    """The dfs's steps while ``helper`` searches, until one answers (``_light_beside``)."""
    try:
        while True:
            left = _left(time_limit, started)
            found = dfs.advance(BESIDE_STEP if left is None else min(BESIDE_STEP, left))
            if not found.timed_out or _left(time_limit, started) == 0.0:
                return found, "dfs"
            if helper.done():
                answer = helper.answer()
                return (answer, "sat") if answer is not None and not answer.timed_out else (found, "dfs")
    finally:
        helper.close()


_SWITCHING = threading.Lock()
_SWITCHING_DEPTH = [0, 0.0]  # the blocks open, and the interval before the first


@contextlib.contextmanager
def _switching_often() -> Iterator[None]:
    """Python's switch interval at ``BESIDE_SWITCH`` in the block, the one before restored when the last
    block open (of any thread) ends."""
    with _SWITCHING:
        if _SWITCHING_DEPTH[0] == 0:
            _SWITCHING_DEPTH[1] = sys.getswitchinterval()
            sys.setswitchinterval(BESIDE_SWITCH)
        _SWITCHING_DEPTH[0] += 1
    try:
        yield
    finally:
        with _SWITCHING:
            _SWITCHING_DEPTH[0] -= 1
            if _SWITCHING_DEPTH[0] == 0:
                sys.setswitchinterval(_SWITCHING_DEPTH[1])


class _Beside:
    """sat's light turn (``_light_answer``) on a helper thread, stopped at once by ``close``
    (``signals.Stop``: its solver calls end within milliseconds; its formula's build, at most a few
    hundredths of a second with ``LIGHT_WORK``, runs to its end)."""

    def __init__(self, puzzle: Puzzle, limit: int, time_limit: float | None, seconds: float) -> None:
        self._stop = Stop()
        self._answer: Enumeration | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run,
            args=(puzzle, limit, time_limit, seconds),
            name="sudoku-cp light turn",
            daemon=True,
        )
        self._thread.start()

    def _run(self, puzzle: Puzzle, limit: int, time_limit: float | None, seconds: float) -> None:
        try:
            with self._stop.running():
                self._answer = _light_answer(puzzle, limit, time_limit, seconds)
        except BaseException as exc:  # raised again on the thread that reads the answer
            self._error = exc

    def done(self) -> bool:
        return not self._thread.is_alive()

    def answer(self) -> Enumeration | None:
        """The light turn's answer (None where its formula would not build): call once it is ``done``."""
        if self._error is not None:
            raise self._error
        return self._answer

    def close(self) -> None:
        """Stop the light turn; wait ``CLOSE_WAIT`` at most for its thread (a solver call ends at once), and
        where that is still building its formula in Python, which no stop ends, let it end by itself: a
        thread of its own asks the stop again until it has (one asked as a call was starting may be lost
        by the solver)."""
        self._stop.set()
        self._thread.join(CLOSE_WAIT)
        if self._thread.is_alive():
            threading.Thread(target=self._insist, name="sudoku-cp light turn's stop", daemon=True).start()

    def _insist(self) -> None:
        while self._thread.is_alive():
            self._stop.set()
            self._thread.join(0.02)


def _loads_quickly() -> bool:
    """Whether the compiled dfs's kernels are loaded or load in milliseconds (built ahead of time)."""
    from . import dfs_compiled

    return dfs_compiled.loads_quickly()


def _compiled_module_loaded() -> bool:
    """Whether this process has loaded the compiled dfs's kernels already."""
    from . import dfs_compiled

    return dfs_compiled.loaded()


class _Portfolio:
    """``dfs_compiled``'s chunk interface (``solve_array`` and its status codes) with the portfolio's rule,
    and, before the kernel is loaded, the reference engine's quick turn on a small chunk."""

    EXHAUSTED = EXHAUSTED
    LIMIT_REACHED = LIMIT_REACHED
    OUT_OF_NODES = OUT_OF_NODES

    def __init__(self, backend: AutoBackend, kernel: Any | None) -> None:
        self._backend = backend
        self._kernel = kernel  # None until a chunk needs it

    def solve_array(
        self,
        grids: np.ndarray,
        rules: Rules,
        limit: int = 1,
        heuristic: str = AUTO,
        time_limit: float | None = None,
    ) -> Any:
        try:
            return self._solve_array(grids, rules, limit, heuristic, time_limit)
        except KeyboardInterrupt as exc:
            # the answers a stopped ``dfs_compiled.solve_array`` carries (``batch``) are in the order of the
            # grids it was given: those of a call on some of these grids are no prefix of them
            batch = getattr(exc, "batch", None)
            if batch is not None and len(batch[0].counts) != len(grids):
                del exc.batch  # type: ignore[attr-defined]
            raise

    def _solve_array(
        self, grids: np.ndarray, rules: Rules, limit: int, heuristic: str, time_limit: float | None
    ) -> Any:
        fast = self._kernel is not None or _loads_quickly()
        if fast and len(grids) <= QUICK_PUZZLES and not rules.is_classic:
            # a puzzle or two: each to the turns at once, the dfs's first, then sat's light turn
            from .batch_result import BatchResult

            found = BatchResult.zeros(*grids.shape)
            self._take_turns(found, grids, range(len(grids)), rules, limit, time_limit, True, light=True)
            return found
        if not fast and len(grids) <= QUICK_PUZZLES:
            found, spent = _quick(grids, rules, limit, time_limit)
            rest = (found.status == OUT_OF_NODES).nonzero()[0]
            if len(rest) and _light_fits(rules) and (time_limit is None or spent < time_limit):
                spent += _light(
                    found, grids, rest, rules, limit, None if time_limit is None else time_limit - spent
                )
                rest = (found.status == OUT_OF_NODES).nonzero()[0]
            if len(rest) == 0 or (time_limit is not None and time_limit <= spent):
                return found
            kernel = self._load()
            if not rules.is_classic:  # a puzzle or two: to the turns at once, where the dfs's search goes on
                self._take_turns(found, grids, rest, rules, limit, time_limit, dfs_first=True)
                return found
            left = None if time_limit is None else time_limit - spent
            more = kernel.solve_array(grids[rest], rules, limit, heuristic, time_limit=left)
            for name, values in zip(found._fields, more, strict=True):
                getattr(found, name)[rest] = values
            found.seconds[rest] += spent
            return found
        kernel = self._load()
        if rules.is_classic:
            return kernel.solve_array(grids, rules, limit, heuristic, time_limit=time_limit)
        first = DFS_SECONDS if time_limit is None else min(DFS_SECONDS, time_limit)
        found = kernel.solve_array(grids, rules, limit, heuristic, time_limit=first)
        if time_limit is not None and time_limit <= first:
            return found
        rest = (found.status == kernel.OUT_OF_NODES).nonzero()[0]
        self._take_turns(found, grids, rest, rules, limit, time_limit, dfs_first=False)
        return found

    def _take_turns(
        self,
        found: BatchResult,
        grids: np.ndarray,
        rows: Iterable[int],
        rules: Rules,
        limit: int,
        time_limit: float | None,
        dfs_first: bool,
        light: bool = False,
    ) -> None:
        """Each of ``rows`` to the portfolio's turns (``take_turns``) within what its ``time_limit`` leaves
        after ``found.seconds``, its answer written into ``found``."""
        for i in rows:
            started = time.perf_counter()
            left = None if time_limit is None else max(0.0, time_limit - float(found.seconds[i]))
            puzzle = Puzzle(rules, tuple(grids[i].tolist()))
            _put(found, i, self._backend.take_turns(puzzle, limit, left, started, dfs_first, light))
            found.seconds[i] += time.perf_counter() - started

    def _load(self) -> Any:
        """The dfs's chunk kernel, loaded on first use."""
        if self._kernel is None:
            self._kernel = self._backend._dfs.chunk_kernel()
        return self._kernel


def _quick(
    grids: np.ndarray, rules: Rules, limit: int, time_limit: float | None
) -> tuple[BatchResult, float]:
    """The reference engine's turn of ``QUICK_SECONDS`` (or ``time_limit``, if shorter) on each row of
    ``grids``, answered as the chunk kernel answers (a row it did not answer is OUT_OF_NODES), and that
    turn's length."""
    from .batch_result import BatchResult

    engine = DfsBackend(engine="python")
    found = BatchResult.zeros(*grids.shape)
    budget = QUICK_SECONDS if time_limit is None else min(QUICK_SECONDS, time_limit)
    for i, row in enumerate(grids.tolist()):
        answer = engine.enumerate(Puzzle(rules, tuple(row)), limit, budget)
        _put(found, i, answer)
        found.guesses[i] = answer.stats.get("guesses", 0)
        found.backtracks[i] = answer.stats.get("backtracks", 0)
        found.nodes[i] = answer.stats.get("nodes", 0)
        found.seconds[i] = answer.stats.get("time", 0.0)
    return found, budget


def _light_fits(rules: Rules) -> bool:
    """Whether sat's formula of ``rules`` builds within a light turn (``LIGHT_UP_TO``, ``LIGHT_WORK``)."""
    from ..rules.sums import LinearSum, graph_size

    if rules.n > LIGHT_UP_TO:
        return False
    work = 0
    for cells, weights, total in rules.linear_sums:
        form = LinearSum.of(cells, weights, total, rules.n)
        work += graph_size(form.coefficients, form.total, rules.n) * rules.n
    return work <= LIGHT_WORK


def _light(
    found: BatchResult,
    grids: np.ndarray,
    rows: np.ndarray,
    rules: Rules,
    limit: int,
    time_limit: float | None,
) -> float:
    """``sat``'s turn of ``LIGHT_SECONDS`` (or ``time_limit``, if shorter) on each of ``rows``, from the
    reference engine's candidates before any guess, its answers written into ``found`` where it has one;
    the longest turn taken. Loads python-sat, not numba."""
    longest = 0.0
    for i in rows:
        started = time.perf_counter()
        answer = _light_answer(Puzzle(rules, tuple(grids[i].tolist())), limit, time_limit)
        spent = time.perf_counter() - started
        found.seconds[i] += spent
        longest = max(longest, spent)
        if answer is not None and not answer.timed_out:
            _put(found, i, answer)
    return longest


def _light_answer(
    puzzle: Puzzle, limit: int, time_limit: float | None, seconds: float = LIGHT_SECONDS
) -> Enumeration | None:
    """``sat``'s turn of ``seconds`` (or ``time_limit``, if shorter) on ``puzzle`` from the reference
    engine's candidates before any guess; None where its formula would not build within a turn
    (``_light_fits``). Loads python-sat, not numba nor OR-tools."""
    from ..candidates import Candidates
    from .dfs_rules import root_candidates

    if not _light_fits(puzzle.rules):
        return None
    masks = root_candidates(puzzle.cells, puzzle.rules)
    if masks is None:  # no solution
        return Enumeration((), True, False, {})
    budget = seconds if time_limit is None else max(0.0, min(seconds, time_limit))
    sat = held_import("sudoku_cp.backends.sat").SatBackend(propagate=False)
    try:
        return sat.enumerate_candidates(Candidates(puzzle, tuple(masks)), limit, budget)
    finally:
        sat.close()


def _put(found: BatchResult, i: int, answer: Enumeration) -> None:
    """Row i of a chunk answer from a backend's answer: its first two solutions (zeros where there is
    none, over what a search that stopped short left), its count and the kernel's status code."""
    found.solutions[i] = found.second[i] = 0
    for row, solution in zip((found.solutions, found.second), answer.solutions, strict=False):
        row[i] = solution.cells
    found.counts[i] = len(answer.solutions)
    found.status[i] = EXHAUSTED if answer.complete else OUT_OF_NODES if answer.timed_out else LIMIT_REACHED
