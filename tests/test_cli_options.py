"""One command line: the same options, defaults, names, wording and error handling in every command."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli, shared

from sudoku_cp.backends import DEFAULT_BACKEND, backend_class, backend_names, missing_packages
from sudoku_cp.result import Status
from sudoku_cp.solving import solve

MEDIUM = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MEDIUM_SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
CLASH = MEDIUM[:-1] + "4"  # a second 4 in row 9
TWO_WAYS = "..343412..434321"  # 4x4: 1 and 2 swap


def _lines(puzzles: list) -> str:
    return "".join(p.to_string() + "\n" for p in puzzles)


# 1. the same options everywhere ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "count", "rate", "generate", "explain"])
def test_every_command_that_writes_results_has_the_run_options(command: str) -> None:
    text = run_cli(command, "--help").stdout
    for option in ("-j N, --jobs N", "-q, --quiet", "-o FILE, --output FILE", "--output-format"):
        assert option in text, option
    assert "default 0: one per CPU" in text  # every command defaults to every core
    formats = re.search(r"--output-format \{([a-z,]+)\}", text)
    assert formats is not None and {"line", "pretty", "jsonl"} <= set(formats.group(1).split(","))


@pytest.mark.parametrize("command", ["solve", "count", "explain"])
def test_the_commands_that_search_take_a_time_limit(command: str) -> None:
    assert "--time-limit SECONDS" in run_cli(command, "--help").stdout


@pytest.mark.slow
@pytest.mark.parametrize("command", ["count", "rate"])
def test_count_and_rate_run_in_parallel_with_the_same_output(command: str, tmp_path: Path) -> None:
    puzzles = shared("17_clue.txt", limit=60)
    path = tmp_path / "puzzles.txt"
    path.write_text(_lines(puzzles[:30]) + CLASH + "\n" + TWO_WAYS + "\n" + _lines(puzzles[30:]))
    one = run_cli(command, "-j", "1", "--output-format", "jsonl", str(path))
    two = run_cli(command, "--jobs", "2", "--output-format", "jsonl", str(path))
    assert one.returncode == two.returncode == 1  # the clash and the puzzle with two solutions
    assert one.stdout == two.stdout
    records = [json.loads(line) for line in two.stdout.splitlines()]
    assert [r["index"] for r in records] == list(range(1, 63))
    assert records[30]["status"] == "error" and records[31]["status"] == "multiple"
    assert {r["status"] for r in records[:30] + records[32:]} == {"solved"}
    verb = {"count": "counted 62 puzzles (60 unique, 1 multiple", "rate": "rated 62 puzzles ("}[command]
    assert verb in two.stderr and "1 error" in two.stderr and "puzzles/s" in two.stderr


def test_count_writes_line_pretty_and_jsonl() -> None:
    line = run_cli("count", "-q", "-p", MEDIUM, "-p", TWO_WAYS)
    assert line.stdout == "1\n2+\n" and line.stderr == ""
    pretty = run_cli("count", "-q", "--output-format", "pretty", "-p", TWO_WAYS)
    assert pretty.stdout.startswith("Puzzle 1 (line 1): 2+ solutions\n+-----+-----+\n| . . | 3 4 |")
    jsonl = run_cli("count", "-q", "--output-format", "jsonl", "--limit", "5", "-p", TWO_WAYS)
    assert json.loads(jsonl.stdout) == {
        "index": 1,
        "puzzle": TWO_WAYS,
        "status": "multiple",
        "solutions": 2,
        "complete": True,
        "text": "2",
    }


def test_rate_writes_pretty_too() -> None:
    proc = run_cli("rate", "-q", "--output-format", "pretty", "-p", "12343412214343..")
    assert proc.stdout.startswith("Puzzle 1 (line 1): easy 1.0/1.0/1.0, Full house; guesses=0")
    assert "| 1 2 | 3 4 |" in proc.stdout


def test_count_writes_to_a_file_with_o(tmp_path: Path) -> None:
    target = tmp_path / "counts.txt"
    proc = run_cli("count", "-p", MEDIUM, "-o", str(target))
    assert proc.returncode == 0 and proc.stdout == "" and target.read_text() == "1\n"


def test_the_time_limit_is_a_run_option_of_count() -> None:
    proc = run_cli("count", "-q", "--limit", "100000000", "--time-limit", "0.2", "-p", "." * 81)
    assert proc.returncode == 1 and proc.stdout.endswith("?\n")


@pytest.mark.parametrize("backend", ["dfs", "sat", "cpsat"])
def test_limits_beyond_any_run_mean_none(backend: str) -> None:
    """``--time-limit inf`` (or 1e308) and a count limit past 64 bits are no limits, not an overflow."""
    if missing_packages(backend):
        pytest.skip(f"{backend} is not installed")
    huge = "9" * 30
    for seconds in ("inf", "1e308"):
        proc = run_cli(
            "count", "-q", "--backend", backend, "--time-limit", seconds, "--limit", huge, stdin=MEDIUM
        )
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "1\n", "")
    assert solve(MEDIUM, backend, unique=True, time_limit=1e308).status is Status.SOLVED


def _on_a_terminal(*args: str) -> str:
    """Run the command with its standard error on a pseudo-terminal; what the terminal showed."""
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the terminal closed: the process ended
            break
        if not data:
            break
        shown += data
    os.close(master)
    assert proc.wait(timeout=120) in (0, 1)
    return shown.decode()


@pytest.mark.slow
def test_the_same_progress_line_and_summary_on_a_terminal(tmp_path: Path) -> None:
    hard = shared("forum_hardest_11plus.txt", limit=400)
    path = tmp_path / "hard.txt"
    path.write_text(_lines(hard[:400]))
    few = tmp_path / "few.txt"  # rated: puzzles whose Sudoku Explainer walks are short (17 clues, few chains)
    few.write_text(_lines(shared("17_clue.txt", limit=40)))
    runs = {
        "solved": ("solve", "-j", "1", "--backend", "sat", str(path)),
        "counted": ("count", "-j", "1", "--backend", "sat", str(path)),
        "rated": ("rate", "-j", "1", str(few)),
        "generated": ("generate", "-n", "64", "-j", "1", "--seed", "1"),
    }
    for verb, args in runs.items():
        shown = _on_a_terminal(*args)
        assert re.search(r"\r[\d,]+ puzzles?, [\d,]+ puzzles/s, \d+%", shown), (verb, shown)
        assert re.search(rf"\n?{verb} [\d, of]+ (9x9 )?puzzles.* in [\d.]+ s, [\d,.]+ puzzles/s", shown), (
            shown
        )


# 2. one default backend -----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "count"])
def test_one_default_backend_for_every_command(command: str) -> None:
    assert f"(default: {DEFAULT_BACKEND})" in run_cli(command, "--help").stdout


def test_the_library_defaults_to_the_same_backend() -> None:
    from sudoku_cp import solving
    from sudoku_cp.batch import solve_many

    for function in (solving.solve, solving.count_solutions, solving.is_unique, solve_many):
        assert inspect.signature(function).parameters["backend"].default == DEFAULT_BACKEND


def test_count_answers_with_the_default_backend() -> None:
    proc = run_cli("count", "--output-format", "jsonl", "-p", MEDIUM)
    assert proc.returncode == 0 and json.loads(proc.stdout)["solutions"] == 1


# 3. the same solver names everywhere ---------------------------------------------------------------------


def test_generate_takes_the_solver_names_of_the_sat_backend() -> None:
    args = ("generate", "-n", "2", "--box", "2x2", "--seed", "3", "-q")
    plain = run_cli(*args, "--solver", "glucose4")
    assert plain.returncode == 0, plain.stderr
    for name in ("sat:g4", "g4", "sat:glucose4", "Glucose4"):
        assert run_cli(*args, "--solver", name).stdout == plain.stdout, name
    assert run_cli("solve", "--backend", "sat:g4", "-p", MEDIUM).stdout == MEDIUM_SOLVED + "\n"


def test_an_unknown_solver_is_refused_alike_everywhere() -> None:
    generated = run_cli("generate", "--solver", "sat:chaff")
    solved = run_cli("solve", "--backend", "sat:chaff", "-p", MEDIUM)
    assert generated.returncode == solved.returncode == 2
    message = "backend sat has no solver 'chaff'; valid:"
    assert message in generated.stderr and message in solved.stderr


def test_generate_refuses_a_solver_it_cannot_use_by_name() -> None:
    proc = run_cli("generate", "--solver", "sat:kissat")  # an alias of kissat404, which takes no assumptions
    assert proc.returncode == 2 and "kissat404" in proc.stderr


# 4. puzzles on the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "count", "rate", "explain"])
def test_a_puzzle_in_place_of_a_file_in_every_command(command: str, tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text("12343412214343..\n")
    proc = run_cli(command, "-q", MEDIUM, str(path)) if command != "explain" else run_cli(command, MEDIUM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    missing = run_cli(command, "no-such-file.txt")
    assert missing.returncode == 2 and "cannot read no-such-file.txt" in missing.stderr


@pytest.mark.parametrize("command", ["count", "rate"])
def test_p_puzzles_come_first_then_the_files(command: str, tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(TWO_WAYS + "\n")
    proc = run_cli(
        command, "-q", "--output-format", "jsonl", "-p", MEDIUM, "-p", "12343412214343..", str(path)
    )
    assert [json.loads(line)["puzzle"] for line in proc.stdout.splitlines()] == [
        MEDIUM,
        "12343412214343..",
        TWO_WAYS,
    ]


# 5. backends: what runs here, what to install ------------------------------------------------------------


def test_backends_lists_only_what_runs_here() -> None:
    lines = run_cli("backends").stdout.splitlines()
    listed = [line.split()[0] for line in lines if line[:1].strip() and not line.startswith("not installed")]
    assert listed == [name for name in backend_names() if not missing_packages(name)]
    for line in lines:
        if line.strip().startswith("variants:"):
            for variant in line.split(":", 1)[1].replace(" ", "").split(","):
                assert not missing_packages(variant), variant
    for name in listed:
        proc = run_cli("solve", "-q", "-j", "1", "--backend", name, "-p", "12343412214343..")
        assert proc.stdout == "1234341221434321\n", (name, proc.stderr)


def test_a_variant_needing_a_missing_package_is_named_with_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['numba'] = None\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", "backends"], capture_output=True, text=True, env=env, timeout=60
    )
    lines = proc.stdout.splitlines()
    assert "dfs:compiled" not in "\n".join(lines[:-1])
    assert lines[-1].startswith("not installed: ") and "dfs:compiled (pip install numba)" in lines[-1]
    assert backend_class("dfs").variants == ("compiled", "python")


# 6. wording -----------------------------------------------------------------------------------------------


def test_summaries_say_one_puzzle_and_use_thousands_separators(tmp_path: Path) -> None:
    one = run_cli("count", "-p", MEDIUM)
    assert re.search(r"^counted 1 puzzle \(1 unique\) in [\d.]+ s, [\d,.]+ puzzles/s$", one.stderr.strip())
    rated = run_cli("rate", "-p", "12343412214343..", "-p", TWO_WAYS)
    assert re.search(r"^rated 2 puzzles \(1 easy, 1 multiple\) in", rated.stderr.strip())
    path = tmp_path / "many.txt"
    path.write_text(("12343412214343..\n" * 1200) + (".2.4..1221..4.2.\n" * 34))
    many = run_cli("count", "-j", "1", str(path))
    assert "counted 1,234 puzzles (1,234 unique) in" in many.stderr
    solved = run_cli("solve", "-j", "1", str(path))
    assert "solved 1,234 of 1,234 puzzles in" in solved.stderr
    compared = run_cli("compare", "--backends", "dfs", "--unique", str(path))
    assert compared.stdout.splitlines()[1].split()[1:3] == ["1,234/1,234", "1,234"]


# 7. an empty input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "count", "rate", "explain"])
def test_an_empty_input_says_so_and_exits_0(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing but a comment\n")
    proc = run_cli(command, str(empty))
    assert proc.returncode == 0 and proc.stdout == ""
    assert proc.stderr == f"sudoku-cp: no puzzles in {empty}\n"
    assert "an input without any puzzle: 0" in " ".join(run_cli(command, "--help").stdout.split())
    stdin = run_cli(command, stdin="")
    assert stdin.returncode == 0 and "no puzzles in the standard input" in stdin.stderr


# 8. malformed puzzles behave the same in every command ----------------------------------------------------


def test_a_malformed_puzzle_is_reported_alike_by_every_command(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text(f"{MEDIUM}\n{CLASH}\n{MEDIUM[:80]}\n")
    expected = {"solve": f"{MEDIUM_SOLVED}\nerror\nerror\n", "count": "1\nerror\nerror\n"}
    messages = None
    for command in ("solve", "count", "rate"):
        proc = run_cli(command, "-q", str(path))
        assert proc.returncode == 1, command
        if command in expected:
            assert proc.stdout == expected[command]
        else:
            assert proc.stdout.splitlines()[1:] == ["- error", "- error"]
        assert f"{path}, line 2, puzzle 2: digit 4 is given twice" in proc.stderr
        assert f"{path}, line 3, puzzle 3: 80 symbols" in proc.stderr
        messages = messages or proc.stderr
        assert proc.stderr == messages  # the same words, whatever the command
        jsonl = run_cli(command, "-q", "--output-format", "jsonl", str(path))
        records = [json.loads(line) for line in jsonl.stdout.splitlines()]
        assert [r["status"] for r in records] == ["solved", "error", "error"], command
        assert records[1]["error"].startswith("digit 4 is given twice")


def test_the_run_options_are_one_call_for_any_command() -> None:
    import argparse

    from sudoku_cp.cli.options import add_run_options

    parser = argparse.ArgumentParser()
    add_run_options(parser, formats=("line", "pretty", "jsonl", "csv"))
    args = parser.parse_args(
        ["-j", "3", "-q", "-o", "out.txt", "--output-format", "csv", "--time-limit", "2"]
    )
    assert (args.jobs, args.quiet, args.output, args.output_format, args.time_limit) == (
        3,
        True,
        "out.txt",
        "csv",
        2,
    )
    assert parser.parse_args([]).jobs == 0  # every CPU
    formulas = argparse.ArgumentParser()  # a command whose output is no record per puzzle (encode)
    add_run_options(formulas, formats=None, time_limit=False)
    assert vars(formulas.parse_args(["-q"])) == {"jobs": 0, "quiet": True, "output": None}
    with pytest.raises(ValueError, match="missing: pretty"):
        add_run_options(argparse.ArgumentParser(), formats=("line", "jsonl"))


@pytest.mark.slow
@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_parallel_count_stops_on_a_signal_keeping_whole_records(signum: str, tmp_path: Path) -> None:
    import signal
    import time

    path = tmp_path / "mixed.txt"
    path.write_text("12343412214343..\n" * 100 + ("." * 81 + "\n") * 40)
    target = tmp_path / "counts.txt"
    args = ("count", "-j", "2", "--limit", "100000000", str(path), "-o", str(target))
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even when run in the background
    )
    partial = Path(f"{target}.partial")
    time.sleep(4)  # the 4x4 puzzles are counted, the empty 9x9 grids keep both workers busy
    proc.send_signal(getattr(signal, signum))
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 128 + getattr(signal, signum)
    assert f"interrupted by {signum}" in err.decode() and not target.exists()
    lines = partial.read_text().splitlines()
    assert len(lines) >= 32 and set(lines) == {"1"}  # whole records only


@pytest.mark.slow
def test_per_puzzle_commands_run_on_a_dask_cluster_with_the_same_output(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed: pip install -e '.[dask]'")
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{MEDIUM}\n{CLASH}\n{TWO_WAYS}\n" + "12343412214343..\n" * 40)
    for command in ("count", "rate", "steps"):
        here = run_cli(command, "-j", "1", str(path))
        cluster = run_cli(command, "--cluster", "local:1", str(path))
        assert cluster.returncode == here.returncode == 1
        assert cluster.stdout == here.stdout and "on 1 Dask worker" in cluster.stderr


def test_encode_takes_the_shared_output_options(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text("12343412214343..\n123\n")  # the second is no puzzle (a clash would be encoded)
    proc = run_cli("encode", str(path), "-o", str(tmp_path / "cnf") + "/")
    assert proc.returncode == 1 and "encoded 1 puzzle (1 error) in" in proc.stderr
    assert sorted(p.name for p in (tmp_path / "cnf").iterdir()) == ["1.cnf"]
    quiet = run_cli("encode", "-q", str(path), "-o", str(tmp_path / "again") + "/")
    assert "encoded" not in quiet.stderr
    assert "-q, --quiet" in run_cli("encode", "--help").stdout
