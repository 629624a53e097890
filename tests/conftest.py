"""Shared fixtures: the public collections in ../shared/data (skipped with a message where missing)."""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp import datasets
from sudoku_cp.grid import Puzzle
from sudoku_cp.verify import solution_problems


def shared(name: str, **kwargs) -> list[Puzzle]:
    """Load a shared collection, or skip the test saying why."""
    if datasets.data_path(name) is None:
        pytest.skip(f"{name}: {datasets.MISSING_MESSAGE}")
    return datasets.load(name, **kwargs)


def assert_solves(puzzle: Puzzle, solution: Puzzle | None) -> None:
    """Fail with the verifier's reasons unless ``solution`` solves ``puzzle``."""
    assert solution is not None, f"no solution for {puzzle}"
    assert not (problems := solution_problems(puzzle, solution)), f"{puzzle}: {problems}"


#: Larger samples of the data-set tests: SUDOKU_CP_FULL_TESTS=1 (the default sizes keep the suite short).
FULL = bool(os.environ.get("SUDOKU_CP_FULL_TESTS"))


#: The package's compiled kernels, in two groups of about equal compile time on a machine without numba's
#: cache of them (a fresh clone: about two minutes each here), each group loaded by one warm-up process:
#: the dfs's module built ahead of time, and its JIT kernels, which some tests compare with it.
KERNELS = (
    "import os, subprocess, sys\n"
    "from sudoku_cp.backends import dfs_compiled; dfs_compiled.warm_up()\n"  # built ahead of time
    "code = 'from sudoku_cp.backends import dfs_compiled; dfs_compiled.warm_up()'\n"  # and numba's JIT
    "subprocess.run([sys.executable, '-c', code], env={**os.environ, 'SUDOKU_CP_KERNELS': 'jit'})\n"
    "from sudoku_cp.encode import propagated; propagated.warm_up()\n"
    "from sudoku_cp.certify import drat_compiled; drat_compiled.warm_up()",
    "from sudoku_cp.human import chains_compiled, fish_compiled, forcing_compiled\n"
    "chains_compiled.warm_up(); forcing_compiled.warm_up(); fish_compiled.warm_up()\n"
    "from sudoku_cp.se.rater import rate_se\n"
    "rate_se('........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3')",
)


#: A module of each group whose cache index says the group has been compiled here.
COMPILED = (("backends", "dfs_kernels"), ("se", "propagation"), ("human", "chains_compiled"))


def pytest_configure(config: pytest.Config) -> None:
    """Before the test workers start (in the process that starts them), compile the kernels for this
    machine, the groups of ``KERNELS`` side by side: each worker would otherwise compile every kernel it
    meets itself, the same work on every core (on a fresh clone, a third of the suite's time). With
    numba's cache warm (its index files beside the modules: ``COMPILED``) nothing is done."""
    if hasattr(config, "workerinput") or (os.cpu_count() or 1) < 2:
        return
    package = Path(sudoku_cp.__file__).parent
    if all(any((package / folder / "__pycache__").glob(f"{name}.*.nbi")) for folder, name in COMPILED):
        return
    warming = [subprocess.Popen([sys.executable, "-c", code]) for code in KERNELS]
    for process in warming:
        process.wait()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the package's modules to bytecode once: where PYTHONDONTWRITEBYTECODE is set (as on the CI
    machine) every ``sudoku-cp`` subprocess of the tests would otherwise compile them again (0.1 s each)."""
    compileall.compile_dir(Path(sudoku_cp.__file__).parent, quiet=2)


def run_cli(
    *args: str, stdin: str | bytes | None = None, cwd: Path | None = None, process: bool = False
) -> subprocess.CompletedProcess:
    """Run ``sudoku-cp`` with ``args`` as a user would, capturing its output.

    In this process (``cli.main`` with the standard streams redirected at the file-descriptor level, as
    the commands write through them), so that the start-up (Python, numpy, the kernels) is paid once per
    test worker, not once per command: that halved the suite's time. ``process`` (a test of the process
    itself: its file descriptors, its exit) and a cluster run ``python -m sudoku_cp`` in a process of its
    own; the tests of signals and of the process's end start their own."""
    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    if process or not _in_process(args):
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        proc = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", *args],
            input=data,
            capture_output=True,
            cwd=cwd,
            env=env,
            timeout=120,
        )
        return subprocess.CompletedProcess(
            proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
        )
    return _run_here(list(args), data, cwd)


def _in_process(args: Sequence[str]) -> bool:
    """Whether ``args`` can run in this process: anything but a Dask cluster."""
    return not any(word.startswith("--cluster") for word in args)


def _run_here(args: list[str], data: bytes, cwd: Path | None) -> subprocess.CompletedProcess:
    """``cli.main(args)`` with files in place of file descriptors 0, 1 and 2 and of ``sys.std*``, the
    working directory, the environment and the signal handlers put back afterwards."""
    import contextlib
    import signal
    import tempfile
    import traceback

    from sudoku_cp import cli

    saved_fds = [os.dup(fd) for fd in (0, 1, 2)]
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_signals = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    with (
        tempfile.TemporaryDirectory() as folder,
        tempfile.TemporaryFile() as fout,
        tempfile.TemporaryFile() as ferr,
    ):
        (Path(folder) / "stdin").write_bytes(data)
        with open(Path(folder) / "stdin", "rb") as fin:  # read-only, as a pipe's reading end
            for fd, f in zip((0, 1, 2), (fin, fout, ferr), strict=True):
                os.dup2(f.fileno(), fd)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 (put back below)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False, buffering=1)  # noqa: SIM115
        try:
            if cwd is not None:
                os.chdir(cwd)
            try:
                code = cli.main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Exception:  # as the interpreter does: the traceback on standard error, status 1
                traceback.print_exc()
                code = 1
        finally:
            for stream in (sys.stdin, sys.stdout, sys.stderr):
                with contextlib.suppress(OSError, ValueError):
                    stream.close()  # (closefd=False: the descriptor stays, until put back below)
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
            for sig, handler in saved_signals.items():
                signal.signal(sig, handler)
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            for fd, saved in zip((0, 1, 2), saved_fds, strict=True):
                os.dup2(saved, fd)
                os.close(saved)
        fout.seek(0)
        ferr.seek(0)
        out, err = fout.read().decode(), ferr.read().decode()
    return subprocess.CompletedProcess(["sudoku-cp", *args], code, out, err)


@pytest.fixture
def classic_grid_text() -> str:
    """The classic exercise input: a 9x9 grid of 9 lines with ? for blanks."""
    return (
        "5????7??6\n?6????5?4\n?834?????\n???182?4?\n??1???9??\n?7?369???\n?????543?\n1?5????9?\n7??2????1\n"
    )


@pytest.fixture
def classic_grid_solution() -> str:
    return (
        "514927386\n967831524\n283456179\n659182743\n321574968\n478369215\n892615437\n135748692\n746293851\n"
    )


@pytest.fixture
def solvers_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the python-sat solvers the sat backend builds (``sat.new_solver``), in order."""
    from sudoku_cp.backends import sat

    built: list[str] = []
    original = sat.new_solver
    monkeypatch.setattr(
        sat, "new_solver", lambda name, clauses, **kw: built.append(name) or original(name, clauses, **kw)
    )
    return built
