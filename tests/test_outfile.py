"""``-o FILE`` never destroys what it writes onto, never leaves a torn record, and cleans up after itself."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp.cli import COMMANDS, EXIT_FAULT, main
from sudoku_cp.cli.outfile import OutputError, output_stream

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
MEDIUM = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture
def easy(tmp_path: Path) -> Path:
    path = tmp_path / "in.txt"
    path.write_text(EASY + "\n")
    return path


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path, easy: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    proc = run_cli("solve", "-q", "-o", str(link), str(easy))
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and link.resolve() == target
    assert target.read_text() == SOLVED + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "link.txt", "real.txt"]


def test_a_fifo_gets_the_output_and_stays_a_fifo(tmp_path: Path, easy: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    proc = run_cli("solve", "-q", "-o", str(fifo), str(easy))
    reader.join(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert received == [(SOLVED + "\n").encode()]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_is_written_straight_to() -> None:
    proc = run_cli("solve", "-q", "-o", "/dev/null", "-", stdin=EASY + "\n")
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_device_is_a_fault_naming_it_and_stays_a_device() -> None:
    proc = run_cli("solve", "-q", "-o", "/dev/full", "-", stdin=EASY + "\n")
    assert proc.returncode == EXIT_FAULT, proc.stderr
    assert "cannot write /dev/full" in proc.stderr and "space" in proc.stderr.lower()
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_full_standard_output_is_a_fault(command: str, easy: Path) -> None:
    with open("/dev/full", "wb") as full:
        proc = _cli(command, str(easy), stdout=full, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == EXIT_FAULT, proc.stderr
    assert "cannot write the standard output: No space left on device" in proc.stderr


@pytest.mark.parametrize(
    ("target", "message"),
    [("/missing-folder/x.txt", "no folder /missing-folder"), ("/proc/version", "cannot write /proc/version")],
)
def test_what_cannot_be_written_is_refused_before_any_work_naming_the_users_path(
    target: str, message: str
) -> None:
    if not Path(target).parent.exists() and "missing" not in target:
        pytest.skip(f"{target} does not exist here")
    proc = run_cli("solve", "-q", "-o", target, "-", stdin=EASY + "\n")
    assert proc.returncode == 2
    assert message in proc.stderr
    assert ".tmp" not in proc.stderr and "sudoku-cp-" not in proc.stderr
    assert proc.stdout == ""


def test_a_folder_is_refused(tmp_path: Path, easy: Path) -> None:
    proc = run_cli("solve", "-q", "-o", str(tmp_path), str(easy))
    assert proc.returncode == 2 and "is a folder" in proc.stderr


def test_a_full_disk_keeps_whole_records_only(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(OutputError, match=f"cannot write {target}"), output_stream(str(target)) as out:
        out.write("record one\n")
        out.write("record two\n")
        out.flush()  # two whole records are safe
        out.write("record thr")  # a record cut by the full disk
        raise OSError(errno.ENOSPC, "No space left on device")
    assert not target.exists()
    assert (tmp_path / "out.txt.partial").read_text() == "record one\nrecord two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt.partial"]


def test_without_flushes_a_stopped_run_is_cut_back_to_its_last_whole_record(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(KeyboardInterrupt), output_stream(str(target)) as out:
        out.write("1\n")
        out.write("2a\n2b\n")  # a record of two lines
        out.write("3a\n3")  # cut in its second line
        raise KeyboardInterrupt
    assert (tmp_path / "out.txt.partial").read_text() == "1\n2a\n2b\n"


def test_a_long_run_without_flushes_keeps_every_whole_record(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    records = [f"{k}{'é' if k % 7 else ''}\n" for k in range(100_000)]  # past the ends kept in memory
    with pytest.raises(KeyboardInterrupt), output_stream(str(target)) as out:
        for record in records:
            out.write(record)
        out.write("torn")
        raise KeyboardInterrupt
    assert (tmp_path / "out.txt.partial").read_text(encoding="utf-8") == "".join(records)


def test_a_file_that_can_grow_no_more_keeps_whole_grids(tmp_path: Path) -> None:
    """Records of several lines (grids) are kept whole too, by a command that writes without flushing."""
    import resource

    out = tmp_path / "out.txt"
    command = ["generate", "--box", "2x2", "-n", "500", "--seed", "1", "--output-format", "grid", "-q"]
    whole = _cli(*command, capture_output=True, text=True)
    assert whole.returncode == 0, whole.stderr
    grids = whole.stdout.split("\n\n")
    assert len(grids) == 500 and all(len(g.rstrip("\n").split("\n")) == 4 for g in grids)
    limit = 1001  # inside the 48th grid of 21 bytes each

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = _cli(*command, "-o", str(out), preexec_fn=small_files, capture_output=True, text=True)
    assert proc.returncode == EXIT_FAULT, proc.stderr
    assert f"cannot write {out}: File too large" in proc.stderr
    kept = (tmp_path / "out.txt.partial").read_text()
    assert kept == "\n\n".join(grids[:47]) + "\n"


def test_a_dead_runs_temporary_is_kept_and_a_stale_partial_removed(tmp_path: Path, easy: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    pid = dead.stdout.strip()
    stale = tmp_path / f".out.txt.sudoku-cp-{pid}.tmp"
    stale.write_text("left by a killed run\ntorn")
    (tmp_path / "out.txt.partial").write_text("an earlier run's records\n")
    other = tmp_path / ".other.txt.sudoku-cp-1.tmp"  # another target's: not ours to touch
    other.write_text("x\n")
    proc = run_cli("solve", "-q", "-o", str(tmp_path / "out.txt"), str(easy))
    assert proc.returncode == 0, proc.stderr
    kept = f"out.txt.{pid}.partial"  # out.txt.partial was taken: the killed run's work is kept beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".other.txt.sudoku-cp-1.tmp",
        "in.txt",
        "out.txt",
        kept,
    ]
    assert (tmp_path / kept).read_text() == "left by a killed run\n"  # its whole lines
    assert f"(process {pid}) left 1 whole lines: kept in {tmp_path / kept}" in proc.stderr


def _wait_for_output(folder: Path, name: str, size: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        temps = [p for p in folder.iterdir() if p.name.startswith(f".{name}.sudoku-cp-")]
        if temps and temps[0].stat().st_size > size:
            return
        time.sleep(0.02)
    pytest.fail("the run wrote no output in time")


@pytest.fixture(scope="module")
def long_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About ten seconds of work for one process: a medium puzzle with a uniqueness proof, 20,000 times."""
    path = tmp_path_factory.mktemp("long") / "long.txt"
    path.write_text((MEDIUM + "\n") * 20_000)
    return path


@pytest.mark.slow
def test_kill_9_of_the_main_process_leaves_work_that_resume_continues(tmp_path: Path) -> None:
    """Issue 33: ``solve -j 2 -o FILE`` killed by SIGKILL left its records in a temporary file that
    ``--resume`` deleted, starting from zero."""
    source = tmp_path / "in.txt"
    source.write_text((MEDIUM + "\n") * 1500)  # seconds of the pure Python search on two workers
    out = tmp_path / "out.txt"
    command = [
        sys.executable,
        "-m",
        "sudoku_cp",
        "solve",
        "-j",
        "2",
        "--backend",
        "dfs:python",
        "-o",
        str(out),
    ]
    proc = subprocess.Popen([*command, str(source)], stderr=subprocess.DEVNULL)
    _wait_for_output(tmp_path, "out.txt", 1000, proc)
    proc.kill()
    proc.wait()
    (left,) = (p for p in tmp_path.iterdir() if p.name.startswith(".out.txt.sudoku-cp-"))
    done = left.read_bytes().count(b"\n")
    assert 0 < done < 1500, done
    resumed = subprocess.run([*command, "--resume", str(source)], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"(process {proc.pid}) left {done:,} whole lines: kept in {out}.partial" in resumed.stderr
    assert f"resuming after the {done:,} puzzles" in resumed.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 1500 and set(lines) == {lines[0]} and len(lines[0]) == 81
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.txt"]


@pytest.mark.slow
def test_resume_continues_an_interrupted_run_to_the_same_output(tmp_path: Path, long_input: Path) -> None:
    out = tmp_path / "out.txt"
    command = [sys.executable, "-m", "sudoku_cp", "solve", "-q", "-j", "1", "--unique", "-o", str(out)]
    proc = subprocess.Popen([*command, str(long_input)], stderr=subprocess.PIPE)
    _wait_for_output(tmp_path, "out.txt", 50_000, proc)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    partial = tmp_path / "out.txt.partial"
    done = partial.read_text().count("\n")
    assert 0 < done < 20_000
    resumed = subprocess.run(
        [*command, "--resume", str(long_input)], capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming after the {done:,} puzzles" in resumed.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 20_000 and set(lines) == {lines[0]} and len(lines[0]) == 81
    assert not partial.exists()


def test_resume_drops_a_torn_last_line_of_the_partial_file(tmp_path: Path) -> None:
    """A partial file cut inside a line (edited, or a crash) keeps its whole lines; the torn one's puzzle
    is solved again instead of being glued to the next record."""
    source = tmp_path / "in.txt"
    source.write_text(f"{MEDIUM}\n{EASY}\n{MEDIUM}\n")
    whole = run_cli("solve", "-q", str(source))
    first = whole.stdout.splitlines()[0]
    out = tmp_path / "out.txt"
    (tmp_path / "out.txt.partial").write_text(first + "\n" + SOLVED[:2])
    proc = run_cli("solve", "-q", "-o", str(out), "--resume", str(source))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == whole.stdout and whole.stdout.splitlines()[1] == SOLVED


def test_resume_in_another_layout_than_the_partial_files_is_refused(tmp_path: Path, easy: Path) -> None:
    """jsonl records followed by plain lines (or the other way round) would make one file of two layouts."""
    out = tmp_path / "out.txt"
    for written, asked in (('{"index": 1}\n', ()), (SOLVED + "\n", ("--output-format", "jsonl"))):
        (tmp_path / "out.txt.partial").write_text(written)
        proc = run_cli("solve", "-o", str(out), "--resume", *asked, str(easy), str(easy))
        other = "line" if asked else "jsonl"
        assert proc.returncode == 2 and f"resume with --output-format {other}" in proc.stderr, proc.stderr
        assert not out.exists()


def test_resume_needs_an_output_file_and_a_line_layout(tmp_path: Path, easy: Path) -> None:
    proc = run_cli("solve", "--resume", str(easy))
    assert proc.returncode == 2 and "-o FILE" in proc.stderr
    (tmp_path / "out.txt.partial").write_text("x\n")
    proc = run_cli(
        "solve", "--resume", "--output-format", "pretty", "-o", str(tmp_path / "out.txt"), str(easy)
    )
    assert proc.returncode == 2 and "--output-format line or jsonl" in proc.stderr
    assert (tmp_path / "out.txt.partial").read_text() == "x\n"  # kept for a resume that fits


@pytest.mark.parametrize(
    "command", [("count", "--backend", "sat"), ("rate", "--output-format", "jsonl"), ("count", "-j", "2")]
)
def test_count_and_rate_resume_a_partial_run_to_the_whole_output(tmp_path: Path, command: tuple) -> None:
    source = tmp_path / "in.txt"
    source.write_text("\n".join([EASY, "bad line", EASY[::-1], EASY.replace("5", ".", 3)] * 3) + "\n")
    whole = run_cli(*command, "-o", str(tmp_path / "whole.txt"), str(source))
    expected = (tmp_path / "whole.txt").read_text().splitlines(keepends=True)
    assert len(expected) == 12
    out = tmp_path / "out.txt"
    (tmp_path / "out.txt.partial").write_text("".join(expected[:5]))  # a stopped run's prefix
    resumed = run_cli(*command, "--resume", "-o", str(out), str(source))
    assert resumed.returncode == whole.returncode, resumed.stderr
    assert "resuming after the 5 puzzles" in resumed.stderr
    assert out.read_text() == "".join(expected)


def test_generate_resumes_a_partial_run_of_the_same_seed(tmp_path: Path) -> None:
    whole = tmp_path / "whole.txt"
    assert run_cli("generate", "-n", "40", "--seed", "11", "-j", "1", "-o", str(whole)).returncode == 0
    expected = whole.read_text().splitlines(keepends=True)
    out = tmp_path / "out.txt"
    for done in (7, 33):  # inside the first block of 32 puzzles, and past it
        (tmp_path / "out.txt.partial").write_text("".join(expected[:done]))
        proc = run_cli("generate", "-n", "40", "--seed", "11", "-j", "2", "--resume", "-o", str(out))
        assert proc.returncode == 0, proc.stderr
        assert out.read_text() == "".join(expected) and f"generated {40 - done} 9x9" in proc.stderr


def test_generate_resume_says_what_it_needs(tmp_path: Path) -> None:
    out = str(tmp_path / "out.txt")
    proc = run_cli("generate", "-n", "3", "--resume", "-o", out)
    assert proc.returncode == 2 and "--seed of that run" in proc.stderr
    (tmp_path / "out.txt.partial").write_text(EASY + "\n" + EASY + "\n")
    proc = run_cli("generate", "-n", "2", "--seed", "1", "--resume", "-o", out)
    assert proc.returncode == 2 and "nothing is left of 2" in proc.stderr
    for option in (["--resume"], ["--cluster", "local:1"]):
        proc = run_cli("generate", "--killer", "--seed", "1", *option)
        assert proc.returncode == 2 and f"without {option[0]}" in proc.stderr, proc.stderr
    assert (tmp_path / "out.txt.partial").exists()  # refused before anything was touched


@pytest.mark.parametrize("command", [name for name in COMMANDS if name != "backends"])
def test_every_command_lists_the_exit_statuses_in_its_help(
    command: str, capsys: pytest.CaptureFixture
) -> None:
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "3 fault" in text and "130 interrupted" in text and "2 usage error" in text


def _cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess:
    """``python -m sudoku_cp`` with the caller's standard streams (``stdout=``, ``preexec_fn=``...)."""
    return subprocess.run([sys.executable, "-m", "sudoku_cp", *args], timeout=120, **kwargs)  # type: ignore[call-overload]


def test_dev_stdout_is_written_through_the_descriptor_keeping_what_the_shell_wrote(
    tmp_path: Path, easy: Path
) -> None:
    log = tmp_path / "log.txt"
    log.write_text("header\n")
    inode = log.stat().st_ino
    with log.open("ab") as appending:  # as the shell's `>> log.txt`
        proc = _cli("solve", "-q", "-o", "/dev/stdout", str(easy), stdout=appending, stderr=subprocess.PIPE)
    assert proc.returncode == 0, proc.stderr
    assert log.read_text() == "header\n" + SOLVED + "\n"
    assert log.stat().st_ino == inode  # the same file, not one renamed over it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "log.txt"]


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_names_of_the_standard_output_reach_a_pipe(name: str, easy: Path) -> None:
    if not Path(name).exists():
        pytest.skip(f"no {name} here")
    proc = run_cli("solve", "-q", "-o", name, str(easy))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == SOLVED + "\n"


@pytest.mark.parametrize(
    ("name", "message"),
    [("/dev/stdin", "open for reading only"), ("/dev/fd/9", "cannot write /dev/fd/9: Bad file descriptor")],
)
def test_a_descriptor_that_cannot_be_written_is_refused(name: str, message: str, easy: Path) -> None:
    if not Path("/dev/fd").exists():
        pytest.skip("no /dev/fd here")
    proc = run_cli("solve", "-q", "-o", name, str(easy), stdin="", process=True)  # a fresh process's fds
    assert proc.returncode == 2 and message in proc.stderr


def test_a_symlink_loop_and_an_empty_name_are_refused(tmp_path: Path, easy: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    proc = run_cli("solve", "-q", "-o", str(loop), str(easy))
    assert proc.returncode == 2 and f"cannot write {loop}: too many levels of symbolic links" in proc.stderr
    proc = run_cli("solve", "-q", "-o", "", str(easy))
    assert proc.returncode == 2 and "empty name" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path, easy: Path) -> None:
    private = tmp_path / "private.txt"
    private.write_text("old\n")
    private.chmod(0o600)
    proc = run_cli("solve", "-q", "-o", str(private), str(easy))
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text() == SOLVED + "\n"
    mask = os.umask(0)
    os.umask(mask)
    fresh = tmp_path / "fresh.txt"
    assert run_cli("solve", "-q", "-o", str(fresh), str(easy)).returncode == 0
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask


def test_a_file_that_can_grow_no_more_keeps_whole_records_and_is_a_fault(tmp_path: Path) -> None:
    """A file size limit (``ulimit -f``) fails the writes as a full disk does, in the middle of a chunk."""
    import resource

    puzzles = tmp_path / "many.txt"
    puzzles.write_text((EASY + "\n") * 3000)  # 246,000 bytes of output, written in several chunks
    out = tmp_path / "out.txt"
    limit = 100_001  # not a whole number of 82-byte records

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = _cli(
        "solve", "-q", "-j", "1", "-o", str(out), str(puzzles),
        preexec_fn=small_files, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == EXIT_FAULT, proc.stderr
    assert f"cannot write {out}: File too large" in proc.stderr
    assert "Traceback" not in proc.stderr
    kept = (tmp_path / "out.txt.partial").read_bytes()
    assert 0 < len(kept) <= limit
    assert kept == (SOLVED + "\n").encode() * (len(kept) // 82)  # whole records only
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.txt", "out.txt.partial"]


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "{input}"),
        ("count", "{input}"),
        ("rate", "{input}"),
        ("solve", "{folder}/*.txt"),  # a quoted pattern that matches the output
        ("compare", "--backends", "dfs", "{input}", "--csv"),
    ],
)
def test_an_output_that_is_an_input_is_refused(tmp_path: Path, easy: Path, args: tuple) -> None:
    """The results would replace the puzzles they answer: refused, the input left as it was."""
    words = [word.format(input=easy, folder=tmp_path) for word in args]
    option = [] if words[-1] == "--csv" else ["-o"]
    proc = run_cli(*words, *option, str(easy))
    assert proc.returncode == 2 and "which the results would replace" in proc.stderr, proc.stderr
    assert easy.read_text() == EASY + "\n" and list(tmp_path.iterdir()) == [easy]


def test_an_output_that_is_the_redirected_standard_input_is_refused(easy: Path) -> None:
    with easy.open("rb") as stdin:
        proc = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", "solve", "-o", str(easy)], stdin=stdin, capture_output=True
        )
    assert proc.returncode == 2 and b"it is the standard input" in proc.stderr, proc.stderr
    assert easy.read_text() == EASY + "\n"


def test_decode_refuses_to_write_over_its_formula_or_model(tmp_path: Path, easy: Path) -> None:
    formula, model = tmp_path / "f.cnf", tmp_path / "model.txt"
    assert run_cli("encode", str(easy), "-o", str(formula)).returncode == 0
    model.write_text("s SATISFIABLE\nv 1 0\n")
    for target in (formula, model):
        before = target.read_text()
        proc = run_cli("decode", str(formula), str(model), "-o", str(target))
        assert proc.returncode == 2 and f"the input {target}" in proc.stderr, proc.stderr
        assert target.read_text() == before


@pytest.mark.parametrize("command", ["solve", "rate"])
def test_resume_says_a_partial_output_that_holds_every_record_or_more_for_what_it_is(
    command: str, tmp_path: Path
) -> None:
    """A partial output holding every record of the input said "no puzzles in FILE"; one holding more
    records than the input (another input's) became the output without a word."""
    source = tmp_path / "in.txt"
    source.write_text(f"{MEDIUM}\n{EASY}\n")
    whole = run_cli(command, "-q", "-j", "1", str(source))
    out = tmp_path / "out.txt"
    (tmp_path / "out.txt.partial").write_text(whole.stdout)
    done = run_cli(command, "-j", "1", "-o", str(out), "--resume", str(source))
    assert done.returncode == 0 and "was answered already; the output is complete" in done.stderr
    assert out.read_text() == whole.stdout and "no puzzles" not in done.stderr
    (tmp_path / "more.txt.partial").write_text(whole.stdout * 3)
    more = run_cli(command, "-j", "1", "-o", str(tmp_path / "more.txt"), "--resume", str(source))
    assert more.returncode == 2 and "holds 6 records, more than the 2 of the input" in more.stderr
    assert not (tmp_path / "more.txt").exists()
