"""The batch engine as a library: ``solve_many`` against sequential ``solve``, the ordered pool, the raw
text fast path against the ``formats`` readers and writer, chunking, and the complete-grid shortcut."""

from __future__ import annotations

import io
import itertools
import operator
import os
import signal
from pathlib import Path

import numpy as np
import pytest
from conftest import assert_solves, shared

from sudoku_cp.backends import backend_names, missing_packages
from sudoku_cp.batch import OrderedPool, WorkerError, solve_many
from sudoku_cp.batch.arrays import valid_complete
from sudoku_cp.batch.chunks import ChunkSizer
from sudoku_cp.batch.progress import Progress, Tally
from sudoku_cp.batch.rawchunks import RawTask, split_chunks
from sudoku_cp.batch.rawio import run_raw_task
from sudoku_cp.batch.solver import Solver, SolverConfig
from sudoku_cp.batch.stream import solve_stream
from sudoku_cp.formats import ResultWriter, format_puzzle, iter_records
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.result import SolveResult, Status
from sudoku_cp.solving import solve

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
NO_SOLUTION = ".12345678" + "9........" + "." * 63  # r1c1 can hold no digit


def _mixed(n_clue: int = 120, n_multi: int = 20) -> list[object]:
    """Unique, multiple, unsolvable, other-shape and unreadable items, interleaved."""
    items: list[object] = list(shared("17_clue.txt", sample=n_clue, seed=1))
    multi = shared("serg_multi_solution.txt", sample=n_multi, seed=2)
    for k, p in enumerate(multi):
        items.insert(5 * k + 3, p)
    items[7:7] = [Puzzle.from_string(NO_SOLUTION), "not a puzzle", Puzzle.from_string("." * 16), EASY]
    return items


def _key(result: SolveResult) -> tuple:
    return result.status, result.solutions, result.unique, result.error is not None


def _sequential(items: list[object], backend: str, unique: bool) -> list[tuple]:
    keys = []
    for item in items:
        try:
            puzzle = item if isinstance(item, Puzzle) else Puzzle.from_string(str(item))
        except ValueError:
            keys.append((Status.ERROR, (), None, True))
            continue
        keys.append(_key(solve(puzzle, backend, unique=unique)))
    return keys


@pytest.mark.data
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("unique", [False, True])
def test_solve_many_agrees_with_solve_in_order_with_dfs(jobs: int, unique: bool) -> None:
    items = _mixed()
    got = list(solve_many(items, "dfs", jobs=jobs, unique=unique, chunk_size=16))
    assert [_key(r) for r in got] == _sequential(items, "dfs", unique)
    for item, result in zip(items, got, strict=True):
        if result.status is Status.SOLVED:
            assert result.puzzle == (item if isinstance(item, Puzzle) else Puzzle.from_string(str(item)))
            assert_solves(result.puzzle, result.solution)
    statuses = {r.status for r in got}
    assert {Status.SOLVED, Status.ERROR, Status.NO_SOLUTION} <= statuses
    assert (Status.MULTIPLE in statuses) is unique


@pytest.mark.data
@pytest.mark.parametrize("backend", [b for b in backend_names() if b != "dfs"])
def test_solve_many_agrees_with_solve_for_other_backends(backend: str) -> None:
    if missing := missing_packages(backend):
        pytest.skip(f"backend {backend} needs {', '.join(missing)}")
    items = _mixed(n_clue=24, n_multi=6)
    got = list(solve_many(items, backend, jobs=2, unique=True, chunk_size=8))
    expected = _sequential(items, backend, True)
    assert [k[0] for k in map(_key, got)] == [k[0] for k in expected]
    for result in got:
        if result.status in (Status.SOLVED, Status.MULTIPLE):
            assert result.backend.startswith(backend)
            for solution in result.solutions:
                assert_solves(result.puzzle, solution)  # type: ignore[arg-type]


def test_records_with_errors_keep_their_place() -> None:
    records = list(iter_records([EASY, EASY[:40], "33" + EASY[2:], EASY]))
    got = list(solve_many(records))
    assert [r.status for r in got] == [Status.SOLVED, Status.ERROR, Status.ERROR, Status.SOLVED]
    assert "twice" in (got[2].error or "")


def test_time_limit_gives_unknown_and_the_batch_goes_on() -> None:
    hard = shared("forum_hardest_1106.txt", limit=1)[0]
    assert solve(hard).stats["nodes"] > 400  # too many nodes for the limit below
    items = [Puzzle.from_string(EASY), hard, Puzzle.from_string(EASY)]
    for jobs in (1, 2):
        got = list(solve_many(items, jobs=jobs, time_limit=1e-9, chunk_size=1))
        assert [r.status for r in got] == [Status.SOLVED, Status.UNKNOWN, Status.SOLVED]


def test_input_is_drawn_lazily_a_bounded_number_of_chunks_ahead() -> None:
    drawn = itertools.count()

    def endless():  # an input without end: solve_many must not try to read it all
        for _ in drawn:
            yield EASY

    chunk = 8
    results = list(itertools.islice(solve_many(endless(), jobs=2, chunk_size=chunk), 100))
    assert len(results) == 100 and all(r.ok for r in results)
    assert next(drawn) <= 100 + (2 * 2 + 3) * chunk  # the window of chunks ahead, plus the two peeked


def _slow_identity(x: int) -> int:
    import time

    time.sleep(0.02 * (x % 3))
    return x


def _die(x: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return x


def test_ordered_pool_keeps_order_and_reports_errors_in_order() -> None:
    with OrderedPool(2, _slow_identity) as pool:
        assert list(pool.map(range(30))) == list(range(30))
    with OrderedPool(2, operator.neg) as pool:
        assert list(pool.map(range(5), local=operator.neg)) == [0, -1, -2, -3, -4]
    got = []
    with pytest.raises(ZeroDivisionError), OrderedPool(2, _inverse) as pool:
        for value in pool.map([1, 2, 0, 4]):
            got.append(value)
    assert got == [1.0, 0.5]


def _inverse(x: int) -> float:
    return 1 / x


def test_a_dead_worker_is_an_error_not_a_hang() -> None:
    with pytest.raises(WorkerError, match="died"), OrderedPool(1, _die) as pool:
        list(pool.map([1, 2]))


def test_split_chunks_cuts_at_record_boundaries() -> None:
    lines = b"".join(f"{i:081d}\n".encode() for i in range(500))
    sizes = iter(itertools.cycle([100, 1000, 3000]))
    chunks = list(split_chunks(io.BytesIO(lines), "line", lambda: next(sizes)))
    assert b"".join(chunks) == lines and len(chunks) > 10
    assert all(c.endswith(b"\n") for c in chunks)
    blocks = (b"1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n\n" * 300)[:-1]
    chunks = list(split_chunks(io.BytesIO(b"\xef\xbb\xbf" + blocks[:10]), "spaced", lambda: 64, head=b""))
    assert b"".join(chunks) == blocks[:10]  # the byte order mark goes
    chunks = list(split_chunks(io.BytesIO(blocks), "spaced", lambda: 100))
    assert b"".join(chunks) == blocks and len(chunks) > 20
    assert all(c.endswith(b"\n\n") for c in chunks[:-1])


def _reference(data: bytes, layout: str, output: str) -> tuple[str, list[tuple]]:
    """What the record-by-record path writes: ``formats`` reading, ``solve``, ``ResultWriter``."""
    out = io.StringIO()
    writer = ResultWriter(out, output)
    errors = []
    for r in iter_records(io.StringIO(data.decode("utf-8", "surrogateescape"), newline=None), layout):
        if r.error is not None:
            result = SolveResult(None, Status.ERROR, error=r.error.reason)
            errors.append((type(r.error), r.error.reason, r.index, r.error.line))
        else:
            result = solve(r.puzzle, unique=True)
        writer.write(r.index, result, r)
    return out.getvalue(), errors


def _line_inputs() -> list[bytes]:
    lines = [
        EASY,
        EASY[:80],
        "x" + EASY[1:],
        "33" + EASY[2:],
        "# comment",
        "",
        EASY + "   ",
        "." * 16,
        f"{EASY} {EASY}",
        NO_SOLUTION,
        "." * 81,
        EASY,
    ]
    regular = [EASY, NO_SOLUTION, "." * 81, "." * 81]
    return [
        ("\n".join(lines) + "\n").encode(),
        "\r\n".join(lines).encode(),
        "\r".join(lines).encode(),  # old Mac line ends
        ("\n".join(regular) + "\n").encode(),
        "\n".join(regular).encode(),  # no final newline
    ]


def _block_inputs(layout: str) -> list[bytes]:
    puzzles = [Puzzle.from_string(EASY), Puzzle.from_string(NO_SOLUTION), Puzzle.from_string("." * 81)]
    text = "\n\n".join(format_puzzle(p, layout) for p in puzzles) + "\n"
    bad = text.replace("0 0 3", "0 0 x", 1).replace("..3", "..x", 1)
    return [
        text.encode(),
        text.rstrip().encode(),
        text.replace("\n", "\r\n").encode(),
        bad.encode(),
        ("# first\n" + text + "\n\n\n").encode(),
    ]


@pytest.mark.parametrize(
    ("layout", "data"),
    [("line", d) for d in _line_inputs()]
    + [(lay, d) for lay in ("grid", "spaced") for d in _block_inputs(lay)],
)
@pytest.mark.parametrize("output", ["line", "grid", "spaced"])
def test_raw_path_writes_what_the_record_path_writes(layout: str, data: bytes, output: str) -> None:
    solver = Solver(SolverConfig(unique=True))
    answer = run_raw_task(RawTask(data, layout, None, output), solver)
    expected, errors = _reference(data, layout, output)
    got = answer.out.decode()
    assert (got if output == "line" else got[1:]) == expected
    assert answer.errors == errors
    written = expected.count("\n") if output == "line" else expected.count("\n\n") + bool(expected)
    assert answer.records == sum(answer.counts) == written


def test_raw_path_reads_other_shapes_and_a_given_box() -> None:
    solver = Solver(SolverConfig())
    answer = run_raw_task(RawTask(("." * 36 + "\n" + "." * 16 + "\n").encode(), "line", None, "line"), solver)
    first, second = answer.out.decode().splitlines()
    assert_solves(Puzzle.from_string("." * 36), Puzzle.from_string(first))
    assert_solves(Puzzle.from_string("." * 16), Puzzle.from_string(second))
    wide = run_raw_task(RawTask(("." * 36 + "\n").encode(), "line", Rules.classic(3, 2), "line"), solver)
    assert_solves(
        Puzzle(Rules.classic(3, 2), (0,) * 36),
        Puzzle.from_string(wide.out.decode().strip(), Rules.classic(3, 2)),
    )
    bad = run_raw_task(RawTask(b"1.....\n......\n", "line", None, "line"), solver)  # 6 symbols: no grid
    assert bad.out == b"error\nerror\n" and [e[2:] for e in bad.errors] == [(1, 1), (2, 2)]


def test_complete_grids_are_recognised_without_search() -> None:
    for rules in (Rules.classic(2, 2), Rules.classic(2, 3), Rules.classic(3, 3), Rules.classic(4, 4)):
        grid = solve(Puzzle.empty(rules)).solution
        assert grid is not None
        rows = np.array([grid.cells] * 4, np.uint8)
        rows[1, [0, 1]] = rows[1, [1, 0]]  # two digits swapped in a row: columns now clash
        rows[2, 5] = 0  # not complete
        assert valid_complete(rows, rules).tolist() == [True, False, False, True]
    solver = Solver(SolverConfig(unique=True))
    answer = solver.solve(rows, rules)
    assert [s.value for s in (Status(tuple(Status)[c]) for c in answer.status)] == [
        "solved",
        "no_solution",
        "solved",
        "solved",
    ]
    assert answer.stats_of(0) == {
        "guesses": 0,
        "backtracks": 0,
        "nodes": 1,
        "decisions": 0,
        "conflicts": 0,
        "time": 0.0,
    }


def test_chunk_sizer_follows_the_rate() -> None:
    sizer = ChunkSizer(first=10, low=5, high=1000, target=0.1)
    for _ in range(20):
        sizer.observe(sizer.next_size(), sizer.next_size() / 2000)  # 2000 per second
    assert 150 <= sizer.next_size() <= 250
    assert ChunkSizer(first=10, low=5, high=1000, fixed=7).next_size() == 7


def test_progress_line_and_summary() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term = Terminal()
    progress = Progress(term, total=1000, interval=0)
    progress.update(25, 250)
    progress.update(50, 500)
    progress.close()
    text = term.getvalue()
    assert text.startswith("\r25 puzzles, ") and text.endswith("\r\x1b[K")
    assert "\r50 puzzles, " in text and "50%" in text and "left" in text
    quiet = io.StringIO()
    Progress(quiet, interval=0).update(5)
    assert quiet.getvalue() == ""  # not a terminal: silent
    tally = Tally()
    tally.add(Status.SOLVED, 3)
    tally.add(Status.ERROR)
    line = tally.summary("interrupted by SIGINT")
    assert line.startswith("solved 3 of 4 puzzles (1 error) in ") and line.endswith("; interrupted by SIGINT")
    early = Tally().summary("interrupted by SIGTERM")  # stopped before the first answer
    assert early.startswith("solved no puzzle in ") and early.endswith("; interrupted by SIGTERM")


class _Trickle(io.RawIOBase):
    """A raw file that takes at most 50 bytes a write, as a pipe does when a signal cuts a write short."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: object) -> int:
        chunk = bytes(memoryview(b))[:50]  # type: ignore[arg-type]
        self.data += chunk
        return len(chunk)


@pytest.mark.parametrize("output", ["line", "csv"])
def test_short_writes_of_an_unbuffered_output_lose_nothing(output: str, tmp_path) -> None:
    """Under ``python -u`` standard output is a raw file whose writes may be partial: every byte still
    arrives, through the raw fast path (line) and the record writer (csv) alike, and the stream stays open."""
    puzzles = [p.to_string() for p in shared("17_clue.txt", limit=300)]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(puzzles) + "\n")
    raw = _Trickle()
    out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
    result = solve_stream([str(path)], out, SolverConfig("dfs"), output_format=output, chunk_bytes=4096)
    assert result.tally.total == 300
    lines = raw.data.decode().splitlines()
    answers = lines if output == "line" else [row.split(",")[2] for row in lines[1:]]
    assert len(answers) == 300
    for puzzle, answer in zip(puzzles, answers, strict=True):
        assert_solves(Puzzle.from_string(puzzle), Puzzle.from_string(answer))
    out.write("still open\n")
    assert raw.data.endswith(b"still open\n")


def _spawned() -> list[int]:
    """This process's spawned worker processes (Linux: from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if (
                not entry.isdigit()
                or f"PPid:\t{os.getpid()}\n" not in Path(f"/proc/{entry}/status").read_text()
            ):
                continue
            if b"spawn_main" in Path(f"/proc/{entry}/cmdline").read_bytes():  # (not the resource tracker)
                found.append(int(entry))
        except OSError:  # the process ended meanwhile
            continue
    return found


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="finds the worker through /proc")
def test_an_idle_worker_that_died_is_a_worker_error_not_a_broken_pipe() -> None:
    import time

    before = set(_spawned())
    with OrderedPool(1, operator.neg, method="spawn") as pool:
        assert list(pool.map([1, 2])) == [-1, -2]  # the worker is up, and idle now
        (worker,) = set(_spawned()) - before
        os.kill(worker, signal.SIGKILL)
        time.sleep(0.5)
        with pytest.raises(WorkerError, match=r"a worker process died \(exit code -9\)"):
            list(pool.map([3]))  # sending it a task met its closed pipe: a BrokenPipeError before
