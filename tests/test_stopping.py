"""Every backend stops within a second of Ctrl-C or SIGTERM, in one process and in a pool, and a time limit
holds in one process too (a 49x49 search the compiled dfs once ran for 13 minutes, deaf to signals)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_cp import Rules
from sudoku_cp.backends.auto import LIGHT_SECONDS, QUICK_SECONDS
from sudoku_cp.samples import blanked, pattern_grid

#: Seconds after the start before the signal: the command is solving by then (start-up takes about one).
STARTED = 3.0
#: How soon after the signal the command must have ended.
PROMPT = 1.5


@pytest.fixture(scope="module")
def hard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 49x49 grid with 60% of its cells blank: dfs and CP-SAT do not answer it within 40 s (sat does in
    about 4 s: see ``hard_for_sat``)."""
    return _blanked_file(tmp_path_factory, Rules.classic(7, 7), 0.6)


@pytest.fixture(scope="module")
def hard_for_sat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 56x56 grid with 65% of its cells blank: sat and dfs do not answer it within 30 s (CP-SAT does in
    about 5 s). The 49x49 grid, which sat answers in about 4 s, let a signal at 3.8 s come too late."""
    return _blanked_file(tmp_path_factory, Rules.classic(7, 8), 0.65)


def _blanked_file(tmp_path_factory: pytest.TempPathFactory, rules: Rules, blank: float) -> Path:
    """A file of one puzzle: a grid of ``rules`` with the share ``blank`` of its cells blank (seed 1)."""
    path = tmp_path_factory.mktemp("hard") / f"hard{rules.n}.txt"
    path.write_text(blanked(pattern_grid(rules, seed=1), blank, seed=1).to_string() + "\n")
    return path


def _signalled(args: list[str], sig: signal.Signals, later: float = 0.0) -> tuple[int, float, str, str]:
    """Start ``sudoku-cp ARGS``, signal it once it is working (``STARTED`` seconds, and ``later``), and
    return its status, reaction time, standard output and standard error."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    time.sleep(STARTED + later)
    assert proc.poll() is None, "the run ended before the signal: the test puzzle is too easy"
    signalled = time.monotonic()
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, time.monotonic() - signalled, out, err


def _run_and_signal(
    backend: str, jobs: int, sig: signal.Signals, path: Path, later: float = 0.0
) -> tuple[int, float, str]:
    """Start ``solve``, signal it once it is searching, and return its status, reaction time and stderr."""
    args = ["solve", "--unique", "-j", str(jobs), "--backend", backend, str(path)]
    status, seconds, _, err = _signalled(args, sig, later)
    return status, seconds, err


@pytest.mark.parametrize(
    ("backend", "jobs", "sig"),
    [
        ("dfs", 1, signal.SIGINT),
        ("dfs", 2, signal.SIGTERM),
        ("dfs:python", 1, signal.SIGTERM),
        ("sat", 1, signal.SIGINT),
        pytest.param("cpsat", 2, signal.SIGINT, marks=pytest.mark.slow),
    ],
)
def test_a_long_search_stops_promptly_on_a_signal(
    backend: str, jobs: int, sig: signal.Signals, hard: Path, hard_for_sat: Path
) -> None:
    status, seconds, err = _run_and_signal(backend, jobs, sig, hard_for_sat if backend == "sat" else hard)
    assert status == 128 + sig, err
    assert seconds < PROMPT, f"{backend} took {seconds:.2f} s to stop"
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].endswith(f"interrupted by {sig.name}")


def test_a_time_limit_holds_in_one_process(hard: Path) -> None:
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", "solve", "-j", "1", "--unique", "--time-limit", "1", str(hard)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert proc.stdout.strip() == "unknown"
    assert "1 unknown" in proc.stderr
    assert time.monotonic() - started < 10  # 1.25 s of search, plus start-up


def test_a_signal_while_kernels_compile_waits_for_them_and_ends_cleanly() -> None:
    """A signal inside numba's compiling would be lost and break it: it is held until the kernel is ready
    (here a small one), then delivered; a slow first compile says so."""
    code = (
        "import os, signal, sys, time\n"
        "import numba\n"
        "from sudoku_cp import signals\n"
        "signal.signal(signal.SIGTERM, lambda s, f: sys.exit(143))\n"
        "signals.NOTICE_AFTER = 0\n"
        "@numba.njit\n"
        "def total(values):\n"
        "    out = 0\n"
        "    for v in values:\n"
        "        out += v\n"
        "    return out\n"
        "with signals.compiling('a test kernel', 1):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(0.2)\n"
        "    print('compiled', total(numba.typed.List([1, 2, 3])), flush=True)\n"
        "print('not stopped')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 143, proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert "compiling a test kernel for this machine" in proc.stderr
    assert proc.stdout == "compiled 6\n"  # the compile ended, then the signal stopped the run


def test_a_first_compile_of_the_dfs_search_is_announced_and_a_warm_one_is_silent(tmp_path: Path) -> None:
    """The dfs search compiles its kernels under ``signals.compiling``: in an empty cache the notice comes
    (the run is then killed, not waited for: the hold itself is tested above); with the kernels cached,
    nothing is said."""
    code = (
        "import numpy as np\n"
        "from sudoku_cp.backends import dfs_compiled\n"
        "from sudoku_cp.rules import Rules\n"
        "dfs_compiled.solve_array(np.zeros((1, 16), np.uint8), Rules.classic(2, 2))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # an empty cache: the kernels are compiled
    cold = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True, env=env)
    try:
        said = next((line for line in cold.stderr if "compiling" in line), "")
    finally:
        cold.kill()
        cold.wait()
    assert "compiling the dfs search for this machine" in said
    for _ in range(2):  # in the usual cache: the first run may compile, the second loads
        warm = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert warm.returncode == 0 and "compiling" not in warm.stderr, warm.stderr


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_sat_stops_cleanly_wherever_the_signal_lands(sig: signal.Signals, hard_for_sat: Path) -> None:
    """python-sat's own Ctrl-C handling jumped out of the solver from the signal handler: one run in two
    then crashed (``free(): invalid pointer``) or hung for good, depending on where the signal landed;
    SIGTERM waited for the end of a slice of conflicts (seconds). Signals at several moments of the search."""
    for delay in (0.15, 0.8):
        status, seconds, err = _run_and_signal("sat", 1, sig, hard_for_sat, delay)
        assert status == 128 + sig, err
        assert seconds < PROMPT, f"sat took {seconds:.2f} s to stop"
        assert "Traceback" not in err and "free()" not in err


@pytest.mark.slow
def test_explain_stops_cleanly_inside_its_hitting_set_search() -> None:
    """Explaining the empty grid alternates searches and CP-SAT hitting-set models, most of its time in the
    latter; CP-SAT used to catch Ctrl-C itself and end its model early, which came out as a RuntimeError
    traceback (at 4 s, as at 7 s and 10 s)."""
    status, _, _, err = _signalled(["explain", "-p", "." * 81], signal.SIGINT, later=1)
    assert status == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].endswith("interrupted by SIGINT")


#: Run in a child process: Ctrl-C a few milliseconds into a backend's first puzzle, while it imports numba
#: and loads its kernels, then the same puzzle again: it must be solved (numba, interrupted half-way through
#: its import, used to stay broken: "module 'numba' has no attribute 'core'").
FIRST_PUZZLE_INTERRUPTED = """
import os, signal, sys, threading, time
from sudoku_cp.backends import make_backend
from sudoku_cp.grid import Puzzle
backend = make_backend(sys.argv[1], propagate=True) if sys.argv[1] != "dfs" else make_backend("dfs")
puzzle = Puzzle.from_string("1234341221434...")
threading.Timer(float(sys.argv[2]), os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    backend.enumerate(puzzle)
    time.sleep(5)
except KeyboardInterrupt:
    pass
print(backend.enumerate(puzzle).solutions[0].to_string())
"""


@pytest.mark.parametrize("backend", ["sat", "cpsat", "dfs"])
@pytest.mark.parametrize("delay", [0.02, 0.15])
def test_a_backend_interrupted_in_its_first_imports_keeps_working(backend: str, delay: float) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", FIRST_PUZZLE_INTERRUPTED, backend, str(delay)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "1234341221434321", proc.stderr[-800:]


@pytest.fixture(scope="module")
def killer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty 9x9 grid under three killer cages: counting its solutions to a limit far beyond reach is
    one long search on every backend (CP-SAT enumerates them in one call, which only a watcher can stop)."""
    cages = [{"cells": ["R1C1", "R1C2", "R2C1"], "value": "7"}, {"cells": ["R5C5", "R5C6"], "value": "17"}]
    cages.append({"cells": ["R9C7", "R9C8", "R9C9", "R8C9"], "value": "12"})
    grid = [[{} for _ in range(9)] for _ in range(9)]
    path = tmp_path_factory.mktemp("killer") / "killer.json"
    path.write_text(json.dumps({"size": 9, "grid": grid, "killercage": cages}))
    return path


@pytest.mark.parametrize("backend", ["auto", "dfs", "sat", "cpsat"])
def test_a_long_search_under_variant_rules_stops_promptly_on_a_signal(backend: str, killer: Path) -> None:
    """Under variant rules every backend runs where a signal stops it at once (``base.interruptible``): a
    killer's count on CP-SAT went on for over 10 s after Ctrl-C, the issue's long sums for minutes."""
    # auto hands the count on to CP-SAT after its quick turn on the reference search, sat's light turn
    # and 0.2 s of the compiled one: a signal while it loads numba or imports OR-tools waits for them
    # (held: one cut short leaves them broken), so both get the time to be searching
    turns = QUICK_SECONDS + LIGHT_SECONDS if backend == "auto" else 0.0
    later = (2.0 if backend in ("auto", "cpsat") else 0.0) + turns
    args = ["count", "-j", "1", "--limit", "100000000", "--backend", backend, str(killer)]
    status, seconds, _, err = _signalled(args, signal.SIGINT, later)
    assert status == 130, err
    assert seconds < PROMPT, f"{backend} took too long to stop"
    assert "Traceback" not in err


def test_solver_calls_under_variant_rules_run_where_a_signal_stops_them() -> None:
    """One call of a solver's C code on a variant can take seconds (a hard killer on CP-SAT went on for over
    10 s after Ctrl-C), so it runs under a watcher whatever the grid's size; classic 9x9 calls, which end
    within milliseconds, spare the watcher's thread."""
    from sudoku_cp.backends.base import interruptible

    nine = Rules.classic(3, 3)
    assert not interruptible(nine, 16) and interruptible(Rules.classic(4, 4), 16)
    assert interruptible(nine.with_named("x"), 16)


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_a_helper_thread_search_stops_at_once_when_its_stop_is_set(backend: str) -> None:
    """A search on a helper thread, where no signal arrives, runs under a ``signals.Stop``: setting it from
    another thread stops the solver call running (CP-SAT's enumeration of every grid here is one call) and
    any later one, and the search answers unknown (the portfolio's light turn beside the dfs)."""
    import threading

    from sudoku_cp import Puzzle
    from sudoku_cp.backends import make_backend
    from sudoku_cp.signals import Stop, stop_requested

    empty = Puzzle(Rules.classic(3, 3).with_named("x"), (0,) * 81)  # more grids than any search ends
    stop = Stop()
    found: list = []

    def search() -> None:
        with stop.running():
            found.append(make_backend(backend).enumerate(empty, limit=10**9))

    helper = threading.Thread(target=search, daemon=True)  # (a failure must not hang the run)
    helper.start()
    time.sleep(1.0 if backend == "sat" else 2.0)  # (OR-tools's import first)
    assert helper.is_alive() and not stop_requested()  # (the main thread runs under no stop)
    stopped = time.monotonic()
    stop.set()
    helper.join(PROMPT)
    assert not helper.is_alive() and time.monotonic() - stopped < PROMPT
    assert found[0].timed_out and not found[0].complete and found[0].solutions


@pytest.fixture(scope="module")
def triple_digits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A published puzzle whose certificate takes the proof solver half a minute ("Triple digits")."""
    data = Path(__file__).parent / "data" / "published_kinds.jsonl"
    [entry] = [e for e in map(json.loads, data.read_text().splitlines()) if e["name"] == "Triple digits"]
    path = tmp_path_factory.mktemp("prove") / "triple.json"
    path.write_text(json.dumps(entry["fpuzzles"]))
    return path


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_prove_stops_promptly_inside_its_proof_solver(
    sig: signal.Signals, triple_digits: Path, tmp_path: Path
) -> None:
    """The proof solver runs where a signal stops it at once: Ctrl-C came out of python-sat's own call as a
    traceback, and SIGTERM waited half a minute for the search's end."""
    args = ["prove", "-j", "1", "-o", str(tmp_path / "out"), str(triple_digits)]
    status, seconds, _, err = _signalled(args, sig)
    assert status == 128 + sig, err
    assert seconds < PROMPT, "prove took too long to stop"
    assert "Traceback" not in err and err.strip().splitlines()[-1].endswith(f"interrupted by {sig.name}")


#: Two puzzles answered at once, then one that takes minutes, all in one chunk.
EASY_THEN_ENDLESS = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
]


@pytest.mark.parametrize(
    ("command", "last", "answers"),
    [
        (["count", "--backend", "dfs", "--limit", "100000000"], "." * 81, ["1", "1"]),
        (["count", "--backend", "sat", "--limit", "100000000"], "." * 81, ["1", "1"]),
        (
            ["steps"],
            "6.......2.9.4...5...1...7...5..84.......2.......3.5.4.2.....6...3...9.8...7.....1",
            None,
        ),
    ],
)
def test_a_stop_keeps_the_answers_of_the_chunk_in_progress(
    command: list[str], last: str, answers: list[str] | None, tmp_path: Path
) -> None:
    """Answers were written a chunk at a time, and a stop lost those of the chunk in progress, answered or
    not: two easy puzzles before a long one came out as nothing. In one process the chunk's first answers
    are written before the run stops."""
    path = tmp_path / "in.txt"
    path.write_text("\n".join([*EASY_THEN_ENDLESS, last]) + "\n")
    later = 2.0 if command == ["steps"] else 0.0  # the walks load SE's kernels first; the last takes 13 s
    status, _, out, err = _signalled([*command, "-j", "1", str(path)], signal.SIGINT, later)
    assert status == 130 and "Traceback" not in err, err
    assert "(2 " in err.strip().splitlines()[-1], err  # two puzzles answered: "counted 2 puzzles (2 unique)"
    if answers is not None:
        assert out.splitlines() == answers
    else:  # two whole walks, each ending solved
        assert [block.splitlines()[-1].split()[0] for block in out.strip().split("\n\n")] == ["solved"] * 2


def test_a_kernel_s_first_call_runs_with_the_signals_held_once_the_se_engine_is_loaded(monkeypatch) -> None:
    """SE's kernels compile (or load from numba's cache) at the first step that needs each; a Ctrl-C that
    landed inside numba's callbacks left numba half-way ("no compiled object yet", a traceback). Every
    first call of a kernel now runs inside ``signals.signals_held``, and later calls do not pay for it."""
    import contextlib

    from numba import njit

    import sudoku_cp.se  # noqa: F401 - installs the hold
    from sudoku_cp import signals

    entered: list[bool] = []

    @contextlib.contextmanager
    def recording():  # type: ignore[no-untyped-def]
        entered.append(True)
        yield

    monkeypatch.setattr(signals, "signals_held", recording)

    @njit
    def twice(x: int) -> int:
        return 2 * x

    assert twice(21) == 42 and entered == [True]
    assert twice(4) == 8 and entered == [True]  # compiled: no second hold


@pytest.mark.parametrize("handled_by", ["guard", "plain"])
def test_a_signal_inside_numba_s_callback_comes_out_as_itself(handled_by: str) -> None:
    """A kernel that returns arrays calls back into numba's Python code (``_numba_unpickle``) each time; a
    Ctrl-C raised there came out of the kernel as a ``SystemError`` (a traceback and status 1 from a
    ``steps`` run in CI, about one signal in three in this loop). It is raised once numba is done, under
    the batch's guard and under the plain handler every command runs with (``interrupts_outside_numba``)."""
    import _thread
    import threading

    import numpy as np
    from numba import njit

    from sudoku_cp.batch.interrupt import Interrupted, InterruptGuard
    from sudoku_cp.signals import interrupts_outside_numba

    @njit
    def arrays(n: int):  # type: ignore[no-untyped-def]
        return np.zeros(n, dtype=np.int32), np.ones(n, dtype=np.int64)

    arrays(3)
    caught: list[type] = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a command's process
    try:
        for trial in range(40):
            with InterruptGuard() if handled_by == "guard" else interrupts_outside_numba() as guard:
                timer = threading.Timer(0.001 + trial * 1e-5, _thread.interrupt_main, (signal.SIGINT,))
                try:
                    timer.start()
                    while True:
                        arrays(3)
                except (KeyboardInterrupt, SystemError) as exc:
                    if guard is not None:
                        guard.handled()
                    caught.append(type(exc))
                timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert caught == [Interrupted if handled_by == "guard" else KeyboardInterrupt] * 40
