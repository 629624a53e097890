"""The comparison API and ``sudoku-cp compare``: every configuration solves every puzzle, rows and columns
as documented, the configuration syntax, and wrong answers caught by the verifier."""

from __future__ import annotations

import csv
import doctest
import functools
import io
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import assert_solves, run_cli, shared

from sudoku_cp import Puzzle
from sudoku_cp import compare as compare_module
from sudoku_cp.backends import Backend, backend_class, backend_names, missing_packages
from sudoku_cp.cli import main
from sudoku_cp.compare import (
    COLUMNS,
    SUMMARY_COLUMNS,
    Config,
    MissingPackageError,
    WrongAnswerError,
    compare,
    format_summary,
    parse_config,
    parse_configs,
    summarize,
)
from sudoku_cp.errors import BackendUnavailableError, UnknownBackendError, UsageError
from sudoku_cp.result import Enumeration
from sudoku_cp.solving import solve

pd = pytest.importorskip("pandas", reason="the comparison needs pandas: pip install -e '.[notebooks]'")

#: Puzzles of several shapes with exactly one solution each (found by removing clues while unique).
UNIQUE = {
    "4x4": "12343412214343..",
    "6x6": "3..1......4..5.6......1.5.2...63..2.",
    "9x9 easy": "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
    "9x9 17 clues": "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "12x12": "8.19.74B.......5.......C6.A.23.......2....6.B.....C..5.12......67..39.4..........97...5....."
    "A.C1.1.C.4.....54.3...2..A..7..2B..9.61.....4...8.3.",
}
#: A 9x9 puzzle with many solutions (the easy one without its first row's givens).
MULTIPLE = "." * 9 + UNIQUE["9x9 easy"][9:]


def _available(name: str) -> bool:
    return name in backend_names() and not missing_packages(name)


def _runs(config: str) -> bool:
    """Whether a configuration can run here (python-sat builds lack some solvers, such as cryptosat)."""
    try:
        parse_config(config).make().enumerate(Puzzle.from_string(UNIQUE["4x4"]))
    except BackendUnavailableError:
        return False
    return True


@functools.cache
def configurations() -> tuple[str, ...]:
    """Every installed backend, each of its variants, and the options that change how it searches."""
    configs = []
    for name in backend_names():
        if missing_packages(name):
            continue
        configs.append(name)
        configs += [f"{name}:{variant}" for variant in backend_class(name).variants]
    if _available("dfs"):
        from sudoku_cp.backends.dfs_reference import HEURISTICS

        configs += [f"dfs[heuristic={h}]" for h in HEURISTICS if h != "mrv"]
    if _available("sat"):
        from sudoku_cp.encode.cnf import ENCODINGS

        configs += [
            f"sat[encoding={e},amo={a}]" for e in ENCODINGS for a in ("pairwise", "seqcounter", "ladder")
        ]
    return tuple(c for c in configs if _runs(c))


# ----------------------------------------------------------------------------------------------------
# the configuration syntax


def test_parse_config_reads_names_variants_and_options() -> None:
    assert parse_config("dfs") == Config("dfs")
    assert parse_config(" sat:glucose4 ") == Config("sat:glucose4")
    config = parse_config("sat:glucose4[encoding=reduced, amo = ladder]")
    assert config.backend == "sat:glucose4"
    assert config.options == (("encoding", "reduced"), ("amo", "ladder"))
    assert config.label == "sat:glucose4[encoding=reduced,amo=ladder]"
    assert parse_config(config.label) == config  # the label reads back
    assert parse_config("cpsat[workers=2,presolve=false,x=0.5]").options == (
        ("workers", 2),
        ("presolve", False),
        ("x", 0.5),
    )
    assert parse_config("dfs[]") == Config("dfs")
    assert parse_config("x[a=inf,b=1e3,c=-2,d=2x2]").options == (
        ("a", "inf"),
        ("b", 1000.0),
        ("c", -2),
        ("d", "2x2"),
    )


def test_parse_config_from_dicts_and_configs() -> None:
    config = parse_config({"backend": "sat", "encoding": "reduced", "amo": "seqcounter"})
    assert config == Config("sat", (("encoding", "reduced"), ("amo", "seqcounter")))
    assert config.label == "sat[encoding=reduced,amo=seqcounter]"
    labelled = parse_config({"backend": "dfs", "heuristic": "weighted", "label": "weighted dfs"})
    assert labelled.label == "weighted dfs" and labelled.options == (("heuristic", "weighted"),)
    assert parse_config(labelled) is labelled


def test_parse_configs_splits_on_commas_outside_brackets() -> None:
    configs = parse_configs("dfs, sat[encoding=reduced,amo=ladder],cpsat:bool,dfs[heuristic=first]")
    assert [c.label for c in configs] == [
        "dfs",
        "sat[encoding=reduced,amo=ladder]",
        "cpsat:bool",
        "dfs[heuristic=first]",
    ]


@pytest.mark.parametrize(
    "text",
    ["", "dfs,", ",dfs", "dfs[", "dfs]", "dfs[heuristic]", "dfs[=mrv]", "dfs[a=1]x", "1dfs", "dfs[a=1,a=2]"],
)
def test_bad_configuration_text_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match=r"configuration|option|unbalanced|backend spec"):
        parse_configs(text)


def test_bad_configurations_fail_before_any_puzzle_runs() -> None:
    with pytest.raises(UnknownBackendError, match="valid: "):
        compare([UNIQUE["4x4"]], ["dfs", "nosuchbackend"])
    with pytest.raises(UsageError, match="heuristic"):
        compare([UNIQUE["4x4"]], ["dfs[heuristic=nonsense]"])
    with pytest.raises(UsageError, match=r"dfs takes no option colour; its options: .*heuristic"):
        compare([UNIQUE["4x4"]], ["dfs[colour=blue]"])
    with pytest.raises(UsageError, match="backend"):
        parse_config({"encoding": "reduced"})
    with pytest.raises(UsageError, match="share a label"):
        compare([UNIQUE["4x4"]], ["dfs", "dfs"])
    with pytest.raises(UsageError, match="single puzzle"):
        compare(UNIQUE["4x4"], ["dfs"])


def test_a_configuration_that_cannot_run_as_asked_stops_the_comparison() -> None:
    class Picky(Backend):
        name = "picky"

        def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
            if time_limit is not None:
                raise UsageError("picky takes no time limit")
            raise BackendUnavailableError("picky needs a package")

    with pytest.raises(UsageError, match="no time limit"):
        compare([UNIQUE["4x4"]], [Picky()], time_limit=1.0)
    with pytest.raises(BackendUnavailableError, match="needs a package"):
        compare([UNIQUE["4x4"]], [Picky()], warmup=False)


# ----------------------------------------------------------------------------------------------------
# compare: rows, columns, answers


def _frame_checks(df: pd.DataFrame, configs: Sequence[str], datasets: dict[str, list[str]]) -> None:
    """Rows and columns as documented: configuration-major, puzzles in order within each."""
    assert tuple(df.columns[: len(COLUMNS)]) == COLUMNS
    total = sum(len(v) for v in datasets.values())
    assert len(df) == len(configs) * total
    labels = [parse_config(c).label for c in configs]
    assert list(df["config"]) == [label for label in labels for _ in range(total)]
    expected = [(name, i) for name, group in datasets.items() for i in range(len(group))]
    for label in labels:
        part = df[df["config"] == label]
        assert list(zip(part["dataset"], part["puzzle"], strict=True)) == expected
    assert (df["time"] > 0).all()
    assert df["error"].isna().all(), df["error"].dropna().tolist()


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_every_configuration_solves_every_puzzle() -> None:
    configs = configurations()
    datasets = {
        "small": [UNIQUE["4x4"], UNIQUE["12x12"]],
        "9x9": [UNIQUE["9x9 easy"], UNIQUE["9x9 17 clues"]],
    }
    df = compare(datasets, configs)
    _frame_checks(df, configs, datasets)
    bad = df[df["status"] != "solved"]
    assert bad.empty, bad[["config", "dataset", "puzzle", "status", "error"]].to_string()
    assert df["unique"].isna().all()  # not asked
    puzzles = {
        (name, i): Puzzle.from_string(p) for name, group in datasets.items() for i, p in enumerate(group)
    }
    for row in df.itertuples():
        puzzle = puzzles[(row.dataset, row.puzzle)]
        assert (row.n, row.givens) == (puzzle.rules.n, len(puzzle.givens))
        assert_solves(puzzle, Puzzle.from_string(row.solution))
    # each backend reports its own effort in its own columns, never a fake 0 for the others, and the
    # common ones (result.COMMON_STATS: time, decisions, conflicts) under their common names
    if _available("dfs"):
        dfs = df[df["backend"] == "dfs"]
        assert dfs["guesses"].notna().all() and dfs["variables"].isna().all()
        assert (dfs["decisions"] == dfs["guesses"]).all() and (dfs["conflicts"] == dfs["backtracks"]).all()
    if _available("sat"):
        sat = df[df["config"] == "sat"]
        assert sat["variables"].notna().all() and sat["clauses"].notna().all()
        assert sat["decisions"].notna().all()


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_uniqueness_is_proved_or_refuted_by_every_configuration() -> None:
    configs = configurations()
    puzzles = [UNIQUE["9x9 17 clues"], MULTIPLE, UNIQUE["6x6"]]
    df = compare(puzzles, configs, unique=True)
    assert df["dataset"].isna().all()
    statuses = df.groupby("puzzle")["status"].unique().to_dict()
    assert {k: list(v) for k, v in statuses.items()} == {0: ["solved"], 1: ["multiple"], 2: ["solved"]}, df[
        ["config", "puzzle", "status", "error"]
    ].to_string()
    assert df.loc[df["puzzle"] != 1, "unique"].eq(True).all()
    assert df.loc[df["puzzle"] == 1, "unique"].eq(False).all()


@pytest.mark.data
def test_norvig_easy50_first_ten_with_every_configuration() -> None:
    puzzles = shared("norvig_easy50.txt", limit=10)
    configs = configurations()
    df = compare({"norvig_easy50": puzzles}, configs, unique=True)
    _frame_checks(df, configs, {"norvig_easy50": puzzles})
    assert (df["status"] == "solved").all() and df["unique"].eq(True).all()
    for row in df.itertuples():
        assert_solves(puzzles[row.puzzle], Puzzle.from_string(row.solution))


# ----------------------------------------------------------------------------------------------------
# wrong answers, exceptions, time limits: fake backends that misbehave on purpose


class _Lying(Backend):
    """Answers with the true solution where two digits of the first row are swapped."""

    name = "lying"

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        cells = list(solve(puzzle, "dfs").solution.cells)
        cells[0], cells[1] = cells[1], cells[0]
        return Enumeration((Puzzle(puzzle.rules, tuple(cells)),), complete=False)


class _Hopeless(Backend):
    """Claims every puzzle has no solution, or says it ran out of time."""

    name = "hopeless"
    variants = ("timeout",)

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        timed_out = self.variant == "timeout"
        return Enumeration((), complete=not timed_out, timed_out=timed_out, stats={"decisions": 7})


class _Crashing(Backend):
    name = "crashing"

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        raise RuntimeError("solver exploded")


class _Repeating(Backend):
    """Returns the same solution twice, as if it were two."""

    name = "repeating"

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        solution = solve(puzzle, "dfs").solution
        return Enumeration((solution,) * min(limit, 2), complete=True)


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_wrong_answers_become_error_rows() -> None:
    puzzles = [UNIQUE["9x9 easy"]]
    df = compare(puzzles, ["dfs", _Lying(), _Hopeless(), _Hopeless("timeout"), _Crashing()], unique=True)
    by = df.set_index("config")
    assert by.loc["dfs", "status"] == "solved" and by.loc["dfs", "unique"] is True
    assert by.loc["lying", "status"] == "error" and "wrong answer" in by.loc["lying", "error"]
    assert by.loc["lying", "solution"] is None or pd.isna(by.loc["lying", "solution"])
    assert by.loc["hopeless", "status"] == "error"
    assert "no_solution, but dfs found one" in by.loc["hopeless", "error"]
    assert by.loc["hopeless:timeout", "status"] == "unknown" and by.loc["hopeless:timeout", "decisions"] == 7
    assert by.loc["crashing", "error"] == "RuntimeError: solver exploded"
    summary = summarize(df).set_index("config")
    assert summary.loc["lying", "errors"] == 1 and summary.loc["dfs", "errors"] == 0
    assert summary.loc["hopeless:timeout", "unknown"] == 1
    dup = compare(puzzles, [_Repeating()], unique=True)
    assert dup.loc[0, "status"] == "error" and "twice" in dup.loc[0, "error"]


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_strict_raises_at_the_first_wrong_answer() -> None:
    with pytest.raises(WrongAnswerError, match=r"lying.*wrong answer"):
        compare([UNIQUE["4x4"]], [_Lying()], strict=True)
    with pytest.raises(WrongAnswerError, match="no_solution, but dfs"):
        compare([UNIQUE["4x4"]], ["dfs", _Hopeless()], strict=True)
    with pytest.raises(RuntimeError, match="exploded"):
        compare([UNIQUE["4x4"]], [_Crashing()], strict=True)


def test_a_refuted_uniqueness_proof_is_an_error() -> None:
    class Overconfident(Backend):
        name = "overconfident"

        def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
            return Enumeration((solve(puzzle, "dfs").solution,), complete=True)

    df = compare([MULTIPLE], ["dfs", Overconfident()], unique=True)
    assert list(df["status"]) == ["multiple", "error"]
    assert "proved unique, but 2 solutions were found (by dfs)" in df.loc[1, "error"]


def test_passed_backends_are_left_open_and_reused() -> None:
    class Counting(_Repeating):
        name = "counting"
        calls = 0
        closed = False

        def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
            self.calls += 1
            return Enumeration((solve(puzzle, "dfs").solution,), complete=True)

        def close(self) -> None:
            self.closed = True

    engine = Counting()
    df = compare([UNIQUE["4x4"], UNIQUE["6x6"]], [engine], warmup=False, time_limit=5)
    assert engine.calls == 2 and not engine.closed
    assert list(df["status"]) == ["solved", "solved"]
    compare([UNIQUE["4x4"]], [engine], warmup="process")
    assert engine.calls == 4  # one warm-up, one puzzle


def test_warmup_modes_solve_untimed_puzzles_first() -> None:
    seen: list[str] = []

    class Recording(_Repeating):
        name = "recording"

        def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
            seen.append(puzzle.to_string())
            return Enumeration((solve(puzzle, "dfs").solution,), complete=True)

    puzzles = [UNIQUE["9x9 easy"], UNIQUE["6x6"], UNIQUE["9x9 17 clues"]]
    expected_rows = [Puzzle.from_string(p).to_string() for p in puzzles]
    four = Puzzle.from_string(UNIQUE["4x4"]).to_string()
    for mode, first in [
        ("none", []),
        (False, []),
        ("process", [four]),
        (True, [four]),
        ("shape", [four, expected_rows[0], expected_rows[1]]),
    ]:
        seen.clear()
        df = compare(puzzles, [Recording()], warmup=mode)
        assert seen == first + expected_rows, mode
        assert len(df) == len(puzzles)
    with pytest.raises(UsageError, match="warmup"):
        compare(puzzles, [Recording()], warmup="always")


def test_the_default_warms_each_configuration_up_and_reports_it_apart() -> None:
    """On a few puzzles the one-time start-up (a backend's compiled kernels: about a second for dfs) made the
    default look slowest (issue 33): by default each configuration solves a 4x4 puzzle and the first puzzle of
    each shape before its clock, and that time is its own column, never in the per-puzzle times."""
    seen: list[str] = []
    loaded: set[int] = set()  # the shapes this process has built a model of

    class Loading(_Repeating):
        name = "loading"

        def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
            seen.append(puzzle.to_string())
            if puzzle.rules.n not in loaded:  # the model of a new shape: slow once
                loaded.add(puzzle.rules.n)
                time.sleep(0.3)
            return Enumeration((solve(puzzle, "dfs").solution,), complete=True)

    puzzles = [UNIQUE["9x9 easy"], UNIQUE["9x9 17 clues"]]
    df = compare(puzzles, [Loading()])
    assert seen[:2] == [
        Puzzle.from_string(UNIQUE["4x4"]).to_string(),
        Puzzle.from_string(puzzles[0]).to_string(),
    ]
    assert df["time"].max() < 0.2
    assert (df["startup_time"] >= 0.6).all()
    summary = summarize(df)
    assert summary.loc[0, "startup_time"] == pytest.approx(df.loc[0, "startup_time"])
    assert summary.loc[0, "puzzles_per_s"] > 10
    table = format_summary(summary).splitlines()
    assert table[0].split()[-2:] == ["start-up", "ms"] and float(table[1].split()[-1]) >= 600
    none = compare(puzzles, [Loading()], warmup="none")
    assert none["startup_time"].isna().all() and "start-up" not in format_summary(summarize(none))


def test_missing_pandas_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingPackageError, match=r"pip install 'sudoku-cp\[notebooks\]'"):
        compare([UNIQUE["4x4"]], ["dfs"])


def test_the_module_examples_run() -> None:
    result = doctest.testmod(compare_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 3 and result.failed == 0


# ----------------------------------------------------------------------------------------------------
# summaries


def test_summarize_counts_and_times() -> None:
    rows = [
        {"config": "a", "dataset": "x", "status": "solved", "unique": True, "time": t}
        for t in (0.001, 0.002, 0.003, 0.004)
    ]
    rows += [
        {"config": "b", "dataset": "x", "status": "unknown", "unique": None, "time": 2.0},
        {"config": "b", "dataset": "y", "status": "multiple", "unique": False, "time": 1.0},
        {"config": "b", "dataset": "y", "status": "error", "unique": None, "time": 1.0},
    ]
    summary = summarize(pd.DataFrame(rows))
    assert list(summary.columns) == ["config", *SUMMARY_COLUMNS]
    a, b = summary.to_dict("records")
    assert (a["config"], a["puzzles"], a["solved"], a["unique_proved"], a["errors"]) == ("a", 4, 4, 4, 0)
    assert a["median_time"] == pytest.approx(0.0025)
    assert a["p95_time"] == pytest.approx(0.00385)
    assert a["puzzles_per_s"] == pytest.approx(4 / 0.01)
    assert (b["solved"], b["unknown"], b["multiple"], b["errors"], b["max_time"]) == (0, 1, 1, 1, 2.0)
    per_file = summarize(pd.DataFrame(rows), ["dataset", "config"])
    assert list(zip(per_file["dataset"], per_file["config"], per_file["puzzles"], strict=True)) == [
        ("x", "a", 4),
        ("x", "b", 1),
        ("y", "b", 2),
    ]
    table = format_summary(summary, unique=True).splitlines()
    header = " ".join(table[0].split())
    assert header == "config solved unique multiple unknown errors median ms p95 ms max ms puzzles/s"
    assert table[1].split()[:3] == ["a", "4/4", "4"] and table[1].split()[-1] == "400"
    assert len({len(line) for line in table}) == 1  # numbers right-aligned under their headers


# ----------------------------------------------------------------------------------------------------
# the command


class Ran(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join([UNIQUE["9x9 easy"], UNIQUE["9x9 17 clues"], UNIQUE["9x9 easy"]]) + "\n")
    return path


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_compare_command_prints_a_summary_and_writes_every_row(puzzle_file: Path, tmp_path: Path) -> None:
    configs = [
        *[c for c in configurations() if c.startswith(("dfs", "cpsat", "sat"))][:3],
        "dfs[heuristic=first]",
    ]
    out = tmp_path / "rows.csv"
    proc = run_cli(
        "compare",
        str(puzzle_file),
        "--backends",
        ",".join(configs),
        "--first",
        "2",
        "--unique",
        "--csv",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split()[:3] == ["config", "solved", "unique"]
    assert [line.split()[0] for line in lines[1:]] == [parse_config(c).label for c in configs]
    assert all(line.split()[1:3] == ["2/2", "2"] for line in lines[1:])
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == 2 * len(configs)
    assert tuple(rows[0])[: len(COLUMNS)] == COLUMNS
    assert {r["dataset"] for r in rows} == {str(puzzle_file)}
    assert {r["status"] for r in rows} == {"solved"} and {r["unique"] for r in rows} == {"True"}


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    """``sudoku-cp`` in this process (faster than a subprocess: numba's kernels stay loaded)."""

    def run(*args: str, stdin: str | None = None) -> Ran:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        return Ran(code, out, err)

    return run


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_compare_command_reads_standard_input_and_reports_per_file(puzzle_file: Path, cli: Callable) -> None:
    proc = cli("compare", "--backends", "dfs", stdin=puzzle_file.read_text())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1].split()[:2] == ["dfs", "3/3"]
    other = puzzle_file.with_name("four.txt")
    other.write_text(UNIQUE["4x4"] + "\n")
    proc = cli("compare", str(puzzle_file), str(other), "--backends", "dfs", "--by-file", "--first", "4")
    assert proc.returncode == 0, proc.stderr
    body = [line.split()[:3] for line in proc.stdout.splitlines()[1:]]
    assert body == [[str(puzzle_file), "dfs", "3/3"], [str(other), "dfs", "1/1"]]


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_compare_takes_the_first_n_puzzles_and_its_old_limit_still_works(
    puzzle_file: Path, cli: Callable
) -> None:
    """--limit meant solutions in count and puzzles in compare (issue 33): compare's is --first now."""
    first = cli("compare", str(puzzle_file), "--backends", "dfs", "--first", "2")
    assert first.returncode == 0 and first.stdout.splitlines()[1].split()[:2] == ["dfs", "2/2"], first
    assert first.stderr == ""
    assert first.stdout.splitlines()[0].endswith("start-up ms")  # the default warm-up, in its own column
    old = cli("compare", str(puzzle_file), "--backends", "dfs", "--limit", "2")
    assert old.returncode == 0 and old.stdout.splitlines()[1].split()[:2] == ["dfs", "2/2"], old
    assert "compare --limit N is now --first N" in old.stderr
    assert "--first N" in cli("compare", "--help").stdout and "--limit" not in cli("compare", "--help").stdout


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
@pytest.mark.parametrize(
    ("backends", "message"),
    [
        ("dfs,nosuchbackend", "unknown backend 'nosuchbackend'"),
        ("dfs[heuristic=nonsense]", "heuristic"),
        ("dfs[colour=blue]", "colour"),
        ("dfs[heuristic", "unbalanced"),
        ("dfs,,dfs", "empty configuration"),
    ],
)
def test_compare_command_rejects_bad_configurations(
    puzzle_file: Path, backends: str, message: str, cli: Callable
) -> None:
    proc = cli("compare", str(puzzle_file), "--backends", backends)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stdout == ""


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_compare_command_exit_status_follows_the_answers(tmp_path: Path, cli: Callable) -> None:
    multiple = tmp_path / "multiple.txt"
    multiple.write_text(MULTIPLE + "\n")
    proc = cli("compare", str(multiple), "--backends", "dfs", "--unique")
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0].split()[:4] == ["config", "solved", "unique", "multiple"]
    bad = tmp_path / "bad.txt"
    bad.write_text(UNIQUE["9x9 easy"] + "\n" + "33" + UNIQUE["9x9 easy"][2:] + "\n")
    proc = cli("compare", str(bad), "--backends", "dfs")
    assert proc.returncode == 1 and "skipped" in proc.stderr
    assert proc.stdout.splitlines()[1].split()[:2] == ["dfs", "1/1"]
    proc = cli("compare", str(tmp_path / "missing.txt"), "--backends", "dfs")
    assert proc.returncode == 2 and "missing.txt" in proc.stderr


# ----------------------------------------------------------------------------------------------------
# the README's section stays in step with the code


def _readme_section() -> str:
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    start = text.index("## Comparing backends")
    return text[start : text.index("\n## ", start + 1)]


def test_readme_lists_every_column() -> None:
    section = _readme_section()
    documented = [
        name
        for line in section.splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`(\w+)`", line.split("|")[1])
    ]
    assert documented == list(COLUMNS)


def test_readme_compare_commands_parse() -> None:
    from sudoku_cp.cli import build_parser

    parser = build_parser()
    block = re.search(r"```sh\n(.*?)```", _readme_section(), flags=re.S)
    assert block is not None
    commands = [shlex.split(line) for line in block[1].splitlines() if line.strip()]
    assert commands and all(words[:2] == ["sudoku-cp", "compare"] for words in commands)
    for words in commands:
        args = parser.parse_args(words[1:])
        assert parse_configs(args.backends)


@pytest.mark.skipif(not _available("dfs"), reason="the dfs backend is not registered")
def test_compare_command_reports_wrong_answers_loudly(
    puzzle_file: Path, cli: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sudoku_cp.backends import REGISTRY

    monkeypatch.setitem(REGISTRY, "lying", f"{__name__}:_Lying")
    proc = cli("compare", str(puzzle_file), "--backends", "dfs,lying")
    assert proc.returncode == 1
    body = {line.split()[0]: line.split()[1:3] for line in proc.stdout.splitlines()[1:]}
    assert body == {"dfs": ["3/3", "0"], "lying": ["0/3", "3"]}
    assert proc.stderr.count("ERROR: lying") == 3 and "wrong answer" in proc.stderr
