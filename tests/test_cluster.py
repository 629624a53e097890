"""The batch engine on a Dask cluster: the same answers in the same order as local runs, nothing lost."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

from sudoku_cp.batch import count_many, rate_many, solve_many

distributed = pytest.importorskip(
    "distributed", reason="the dask extra is not installed: pip install -e '.[dask]'"
)

from sudoku_cp.batch.cluster import ClusterError, ClusterPool, ClusterWatch  # noqa: E402 - after the skip when distributed is missing

PUZZLES = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
]


def slow_square(x: int) -> int:
    """A task that takes long enough for a worker to be killed while others are in flight."""
    time.sleep(0.02)
    return x * x


def time_out(x: int) -> int:
    """A task whose own error is one a lost connection raises too."""
    raise TimeoutError(f"task {x} timed out")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster, set_as_default=False) as c:
        yield c
    cluster.close()


def test_answers_come_in_input_order_with_a_bounded_window(client: Any) -> None:
    with ClusterPool(client, slow_square, ahead=4) as pool:
        assert list(pool.map(range(40))) == [x * x for x in range(40)]


def test_answers_that_come_just_after_a_wait_timed_out_are_answers(client: Any, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The pool waits for an answer in short slices, looking between them whether the scheduler is still
    there. Waited with ``Future.result``'s timeout, a task done just after a slice ended was taken for a
    timeout (a CI run's ``steps --cluster`` failed so), and millisecond slices failed inside Dask. With
    millisecond slices, hundreds of them end while tasks finish: every answer arrives."""
    from sudoku_cp.batch import cluster

    monkeypatch.setattr(cluster, "POLL_SECONDS", 0.001)
    with ClusterPool(client, slow_square, ahead=4) as pool:
        assert list(pool.map(range(60))) == [x * x for x in range(60)]


def test_a_task_s_own_timeout_is_its_error_not_a_lost_scheduler(client: Any) -> None:
    with pytest.raises(TimeoutError, match="task 7 timed out"):
        list(ClusterPool(client, time_out).map([7]))


def test_a_worker_killed_mid_run_loses_and_repeats_nothing(client: Any) -> None:
    watch = ClusterWatch(client)
    with distributed.Client(client.scheduler.address, set_as_default=False) as other:
        bystander = ClusterWatch(other)  # a client of the same cluster that runs nothing
        with ClusterPool(client, slow_square) as pool:
            answers = pool.map(range(300))
            got = [next(answers) for _ in range(30)]
            os.kill(next(iter(client.run(os.getpid).values())), signal.SIGKILL)
            got += list(answers)
        assert got == [x * x for x in range(300)]
        deadline = time.monotonic() + 10  # the scheduler's events may trail the last answer
        while not (watch.tasks_retried and bystander.workers_lost) and time.monotonic() < deadline:
            time.sleep(0.05)
        watch.close()
        bystander.close()
    assert watch.workers_lost == 1 and 1 <= watch.tasks_retried <= 300
    assert bystander.workers_lost == 1 and bystander.tasks_retried == 0  # only its own tasks count


def test_solve_many_on_a_cluster_gives_the_local_results(client: Any) -> None:
    items = [*PUZZLES, "123", PUZZLES[0], "1234341221434321", "11.." * 4] * 5
    local = [(r.status, r.solution) for r in solve_many(items, "sat", jobs=1, unique=True)]
    remote = [
        (r.status, r.solution) for r in solve_many(items, "sat", unique=True, client=client, chunk_size=3)
    ]
    assert remote == local


def test_count_many_and_rate_many_on_a_cluster_give_the_local_answers(client: Any) -> None:
    items = [*PUZZLES, "1234341221434321", "." * 16] * 3
    assert list(count_many(items, "sat", client=client, chunk_size=2)) == list(count_many(items, "sat"))
    here = [r.to_dict() for r in rate_many(items)]
    assert [r.to_dict() for r in rate_many(items, client=client, chunk_size=2)] == here


def test_solve_on_a_local_cluster_writes_what_jobs_writes(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join([*PUZZLES, "bad line", *PUZZLES[::-1], "123", *PUZZLES]) + "\n")
    jobs = run_cli("solve", "--unique", "--jobs", "2", str(path))
    cluster = run_cli("solve", "--unique", "--cluster", "local:2", str(path))
    assert cluster.returncode == jobs.returncode == 1
    assert cluster.stdout == jobs.stdout and cluster.stdout.count("\n") == 14
    assert cluster.stderr.count("error") == jobs.stderr.count("error")


def test_a_local_cluster_keeps_quiet_when_the_dashboard_port_is_taken() -> None:
    taken = socket.socket()  # 8787, the scheduler's default HTTP port, held here or by another cluster
    try:
        with contextlib.suppress(OSError):  # held elsewhere already: as good
            taken.bind(("", 8787))
            taken.listen()
        proc = run_cli("solve", "--cluster", "local:1", "-", stdin=PUZZLES[0] + "\n")
    finally:
        taken.close()
    assert proc.returncode == 0
    assert "8787" not in proc.stderr and "warn" not in proc.stderr.lower()


def test_generate_on_a_local_cluster_makes_what_jobs_makes(tmp_path: Path) -> None:
    command = ("generate", "-n", "12", "--seed", "3", "--output-format", "jsonl")
    jobs = run_cli(*command, "--jobs", "2")
    cluster = run_cli(*command, "--cluster", "local:2")
    assert cluster.returncode == jobs.returncode == 0, cluster.stderr
    assert cluster.stdout == jobs.stdout and cluster.stdout.count("\n") == 12
    assert "generated 12 9x9 puzzles" in cluster.stderr and "on 2 Dask workers" in cluster.stderr


def test_cluster_without_distributed_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "from sudoku_cp.cli import main\n"
        "sys.exit(main(['solve', '--cluster', 'local:2', '-']))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], input=PUZZLES[0] + "\n", capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "pip install 'sudoku-cp[dask]'" in proc.stderr


def test_a_bad_cluster_address_is_a_clear_error() -> None:
    for address, message in (("local:0", "local:N"), ("tcp://127.0.0.1:9", "cannot reach")):
        proc = run_cli("solve", "--cluster", address, "-", stdin=PUZZLES[0] + "\n")
        assert proc.returncode != 0 and message in proc.stderr, proc.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail("the scheduler did not start")


def _dask(*args: str) -> subprocess.Popen:
    """``dask scheduler`` or ``dask worker`` as a user starts them, from this environment."""
    dask = Path(sys.executable).with_name("dask")
    return subprocess.Popen([str(dask), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_a_task_submitted_while_the_scheduler_is_lost_is_not_waited_for() -> None:
    """A CI run waited 30 s for a lost scheduler: the client cancels the tasks it holds when the connection
    drops, but one submitted after that, before the pool noticed, was left pending until the client gave
    up reconnecting. Here the scheduler dies between two tasks, and the second is submitted only once the
    client knows: the pool says the scheduler was lost within seconds."""
    port = _free_port()
    scheduler = _dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
    worker = _dask("worker", f"tcp://127.0.0.1:{port}", "--nthreads", "1", "--no-dashboard")
    try:
        _wait_for_port(port)
        with distributed.Client(f"tcp://127.0.0.1:{port}", timeout=30, set_as_default=False) as c:
            c.wait_for_workers(1, timeout=30)

            def tasks() -> Iterator[int]:
                yield -2
                scheduler.kill()
                scheduler.wait()
                deadline = time.monotonic() + 20
                while c.status == "running" and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert c.status != "running", "the client did not notice the scheduler's loss"
                yield -3

            answers: list[int] = []
            start = time.monotonic()
            with pytest.raises(ClusterError, match="the Dask scheduler was lost"):
                for answer in ClusterPool(c, abs, ahead=1).map(tasks()):  # abs: the workers import it
                    answers.append(answer)
                    start = time.monotonic()
            assert answers == [2]
            assert time.monotonic() - start < 5, "the task submitted to a lost scheduler was waited for"
            c.close(timeout=1)
    finally:
        for proc in (scheduler, worker):
            proc.kill()
            proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("group", [False, True], ids=["SIGTERM", "Ctrl-C"])
def test_a_stop_ends_a_local_cluster_run_within_a_second_and_quietly(tmp_path: Path, group: bool) -> None:
    """``--cluster local:2`` took 5 s to stop on SIGTERM (each worker's running chunk was waited for) and
    printed Dask's 'ended with CancelledError' warnings under -q (issue 33): the workers are stopped at
    once and Dask's log lines stay off standard error. Ctrl-C (SIGINT to the whole process group, the
    workers too) made each worker print a KeyboardInterrupt traceback: they ignore SIGINT now."""
    src = tmp_path / "many.txt"
    src.write_text("\n".join(PUZZLES * 5000) + "\n")
    out = tmp_path / "out.txt"
    command = [
        "solve",
        "--backend",
        "sat",
        "--unique",
        "-q",
        "--cluster",
        "local:2",
        "-o",
        str(out),
        str(src),
    ]
    solve = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=group,
    )
    deadline = time.monotonic() + 90  # until the first answers are written: the workers are busy then
    while time.monotonic() < deadline and solve.poll() is None:
        if any(p.name.startswith(".out.txt") and p.stat().st_size > 0 for p in tmp_path.iterdir()):
            break
        time.sleep(0.05)
    time.sleep(0.5)  # chunks under way in both workers
    if group:
        os.killpg(solve.pid, signal.SIGINT)  # as a terminal's Ctrl-C: every process of the group
    else:
        solve.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    _, stderr = solve.communicate(timeout=60)
    stopped = time.monotonic() - sent
    assert solve.returncode == 128 + (signal.SIGINT if group else signal.SIGTERM), stderr
    assert [line for line in stderr.splitlines() if not line.startswith("sudoku-cp: stopped early")] == []
    assert stopped < 1.5, f"{stopped:.2f} s to stop"
    assert (tmp_path / "out.txt.partial").exists()


#: ``python -m sudoku_cp`` with faulthandler's stacks of every thread on SIGUSR1.
_WITH_STACKS_ON_SIGUSR1 = (
    "import faulthandler, signal, sys; faulthandler.register(signal.SIGUSR1, all_threads=True); "
    "from sudoku_cp.cli import main; sys.exit(main())"
)


@pytest.mark.slow
def test_a_lost_scheduler_ends_with_an_error_and_a_valid_prefix(tmp_path: Path) -> None:
    # the kernels of the sat backend's propagated way compiled first (a fresh clone compiles them once,
    # about 30 s, inside the worker after its first puzzles): the scheduler then dies while results stream
    from sudoku_cp import Puzzle
    from sudoku_cp.backends import make_backend

    warm = make_backend("sat", propagate=True)
    for line in PUZZLES:
        warm.enumerate(Puzzle.from_string(line), 2)
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
    worker = _dask("worker", address, "--nthreads", "1", "--no-dashboard")
    try:
        _wait_for_port(port)
        src = tmp_path / "many.txt"
        src.write_text("\n".join(PUZZLES * 3000) + "\n")
        out = tmp_path / "out.txt"
        command = ["solve", "--backend", "sat", "--unique", "--cluster", address, "-o", str(out), str(src)]
        # the command under faulthandler: should it still run 10 s after the kill, SIGUSR1 writes where
        # each of its threads waits to its standard error, which the failure shows (it did, once, in CI)
        solve = subprocess.Popen(
            [sys.executable, "-c", _WITH_STACKS_ON_SIGUSR1, *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60  # until the first results are written: then the scheduler dies
        while time.monotonic() < deadline and solve.poll() is None:
            if any(p.name.startswith(".out.txt") and p.stat().st_size > 0 for p in tmp_path.iterdir()):
                break
            time.sleep(0.05)
        scheduler.kill()
        killed = time.monotonic()
        try:
            _, stderr = solve.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            solve.send_signal(signal.SIGUSR1)
            _, stderr = solve.communicate(timeout=90)
            pytest.fail(f"the lost scheduler was waited for {time.monotonic() - killed:.0f} s:\n{stderr}")
    finally:
        for proc in (scheduler, worker):
            proc.kill()
            proc.wait()
    assert solve.returncode == 3, stderr  # a fault
    assert "sudoku-cp: error: the Dask scheduler was lost" in stderr
    assert "Traceback" not in stderr
    assert not out.exists()
    lines = (tmp_path / "out.txt.partial").read_text().splitlines()
    assert 0 < len(lines) < 4 * 3000
    assert all(len(line) == 81 and "." not in line for line in lines)
    solutions = [r.solution.to_string() for r in solve_many(PUZZLES, "sat", jobs=1)]
    assert lines == (solutions * 3000)[: len(lines)]
    resumed = run_cli(*command[:4], "-q", "--jobs", "2", "--resume", "-o", str(out), str(src))
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_text().splitlines() == solutions * 3000
