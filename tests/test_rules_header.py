"""The ``# rules:`` line (issue 33, item 2): the layouts that hold digits only say the rules by it, every
reader honours it, and rules it cannot name are refused by every writer of those layouts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp import Puzzle, generate, parse
from sudoku_cp.errors import UnsupportedRuleError
from sudoku_cp.formats import ResultWriter, format_puzzle, iter_records, write_puzzles
from sudoku_cp.result import SolveResult, Status
from sudoku_cp.rules import Cage, Rules

NINE = Rules.classic(3, 3)
X_RULES = NINE.with_named("x,anti-king")
KILLER = NINE.with_(cages=[Cage((0, 1), 3)])


@pytest.mark.parametrize(
    ("rule", "layout"),
    [
        ("x", "line"),
        *(("windoku", layout) for layout in ("grid", "csv", "jsonl", "fpuzzles", "link")),
    ],
)
def test_generated_puzzles_stay_unique_through_every_layout(rule: str, layout: str) -> None:
    """The issue's reports: ``generate --rules x`` wrote plain lines and the f-puzzles writers left windoku
    out, and ``count`` of what they wrote gave 2+; ``solve``'s output of them lost the rules the same way."""
    made = run_cli(
        "generate", "--rules", rule, "-n", "2", "--seed", "3", "-j", "1", "-q", "--output-format", layout
    )
    assert made.returncode == 0, made.stderr
    counted = run_cli("count", "-", stdin=made.stdout)
    assert counted.stdout.split() == ["1", "1"], made.stdout + counted.stderr
    solved = run_cli("solve", "--output-format", layout, "-", stdin=made.stdout)
    assert run_cli("count", "-", stdin=solved.stdout).stdout.split() == ["1", "1"], solved.stdout


@pytest.mark.parametrize("layout", ["line", "grid", "spaced", "csv"])
def test_written_and_read_the_rules_change_where_the_header_says(layout: str) -> None:
    puzzles = [
        Puzzle(X_RULES, (1,) + (0,) * 80),
        Puzzle(X_RULES, (0, 2) + (0,) * 79),
        Puzzle(NINE, (3,) + (0,) * 80),
        Puzzle(Rules.classic(2, 6), (0,) * 144),
        Puzzle(Rules.classic(2, 2).with_named("windoku"), (0,) * 16),
    ]
    out = io.StringIO()
    write_puzzles(out, puzzles, layout)
    text = out.getvalue()
    lines = [line for line in text.splitlines() if line.startswith("#")]
    assert lines == ["# rules: x,anti-king", "# rules: classic", "# rules: 2x6", "# rules: windoku"]
    assert parse(text) == puzzles


@pytest.mark.parametrize("layout", ["line", "csv", "jsonl"])
def test_an_eight_by_eight_puzzle_is_written_with_its_shape_and_read_back(layout: str) -> None:
    """A line of 64 digits is also a 4x4 pencilmark grid, which the readers take it for unless told: the
    writers say ``# rules: 2x4`` (the default shape) before it, and ``generate``'s lines read back."""
    puzzle = Puzzle(Rules.classic(2, 4), (1, 2) + (0,) * 62)
    text = format_puzzle(puzzle, layout)
    assert "2x4" in text.splitlines()[0]
    assert parse(text) == [puzzle]
    made = run_cli(
        "generate", "--box", "2x4", "-n", "2", "--seed", "5", "-j", "1", "-q", "--output-format", layout
    )
    assert made.returncode == 0, made.stderr
    assert run_cli("count", "-", stdin=made.stdout).stdout.split() == ["1", "1"], made.stdout


def test_a_header_rules_the_puzzles_after_it_in_every_reader() -> None:
    blank = "." * 81
    grid = "\n".join(blank[i : i + 9] for i in range(0, 81, 9))
    for text in (
        f"{blank}\n# rules: x, Anti-King\n{blank}\n#rules:classic\n{blank}",
        f"{grid}\n\n# rules: x,anti-king\n{grid}\n\n# rules: classic\n{grid}",
        f"puzzle\n{blank}\n# rules: anti-king,x\n{blank}\n# rules: classic\n{blank}",
    ):
        assert [p.rules for p in parse(text)] == [NINE, X_RULES, NINE], text
    # a header inside a grid's block rules the blocks after it
    inside = f"{grid[:19]}\n# rules: x\n{grid[20:]}\n\n{grid}"
    assert [p.rules for p in parse(inside)] == [NINE, NINE.with_named("x")]


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("# rules: sandwich", "the '# rules:' line 1 cannot be read: unknown rule 'sandwich'"),
        ("# rules: 2x3,3x2", "two box shapes"),
        ("# rules: windoku", "the '# rules:' line 1: windoku needs square boxes, not 2x3"),
    ],
)
def test_a_header_that_cannot_be_read_makes_the_puzzles_after_it_errors(header: str, message: str) -> None:
    records = list(iter_records([header, "." * 36, "# rules: classic", "." * 36]))
    assert records[0].error is not None and message in str(records[0].error)
    assert "line 2, puzzle 1" in str(records[0].error)
    assert records[1].ok and records[1].puzzle.rules == Rules.classic(2, 3)


def test_a_header_and_box_disagreeing_is_an_error_naming_both() -> None:
    [record] = iter_records(["# rules: 3x4", "." * 144], rules=Rules.classic(2, 6))
    assert "boxes of 3x4, where --box says 2x6" in str(record.error)


def test_fpuzzles_input_refuses_a_header() -> None:
    [record] = iter_records(["# rules: x", '{"size": 4, "grid": ' + json.dumps([[{}] * 4] * 4) + "}"])
    assert "state their own rules" in str(record.error)


@pytest.mark.parametrize("layout", ["line", "grid", "spaced", "csv", "pretty"])
def test_rules_no_header_can_name_are_refused_by_name(layout: str) -> None:
    with pytest.raises(
        UnsupportedRuleError, match=f"the {layout} layout .* killer cage .* fpuzzles, link or jsonl"
    ):
        format_puzzle(Puzzle.empty(KILLER), layout)
    if layout != "pretty":  # a listing for people names the rules in its titles
        with pytest.raises(UnsupportedRuleError, match="killer cage"):
            write_puzzles(io.StringIO(), [Puzzle.empty(KILLER)], layout)
        with pytest.raises(UnsupportedRuleError, match="killer cage"):
            ResultWriter(io.StringIO(), layout).write(1, SolveResult(Puzzle.empty(KILLER), Status.MULTIPLE))


def test_every_command_refuses_a_killer_puzzle_in_a_layout_of_digits(tmp_path: Path) -> None:
    made = run_cli("generate", "--killer", "-n", "1", "--seed", "1", "-q")
    source = tmp_path / "killer.jsonl"
    source.write_text(made.stdout)
    for args in (
        ["solve", str(source), "--output-format", "line"],
        ["solve", str(source), "--output-format", "csv"],
        ["generate", "--killer", "-n", "1", "--output-format", "grid"],
    ):
        proc = run_cli(*args)
        assert proc.returncode == 2 and "killer cage would be lost" in proc.stderr, (args, proc.stderr)
    for layout in ("jsonl", "fpuzzles", "link"):  # these carry the cages: what they write reads back
        out = run_cli("solve", str(source), "--output-format", layout, "-q")
        counted = run_cli("count", "-", stdin=out.stdout)
        assert counted.stdout.split() == ["1"], (layout, out.stdout, counted.stderr)


def test_the_batch_honours_a_header_past_its_first_chunk_and_on_resume(tmp_path: Path) -> None:
    """The fast path reads line files in chunks of bytes: a header in a later chunk hands the rest of the
    file to the record reader, numbered on from where the chunks stopped; ``--resume`` past a header too."""
    classic = [g.puzzle.to_string() for g in generate(3, seed=1)]
    x_puzzles = [g.puzzle.to_string() for g in generate(2, NINE.with_named("x"), seed=2)]
    lines = classic * 300 + ["# rules: x", *x_puzzles, "bad"]  # 900 lines of 82 bytes: past the 64 KB head
    source = tmp_path / "mixed.txt"
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.txt"
    proc = run_cli("solve", str(source), "-j", "2", "-o", str(out))
    assert f"{source}, line 904, puzzle 903: 3 symbols" in proc.stderr
    written = out.read_text().splitlines()
    assert written[900:] == ["# rules: x", *written[901:903], "error"]
    assert run_cli("count", str(out), "-q").stdout.split() == ["1"] * 902 + ["error"]
    for kept in (900, 902):  # records kept before and after the header
        again = tmp_path / f"again{kept}.txt"
        (tmp_path / f"again{kept}.txt.partial").write_text("\n".join(written[:kept]) + "\n")
        proc = run_cli("solve", str(source), "-j", "2", "--resume", "-o", str(again))
        assert "line 904, puzzle 903: 3 symbols" in proc.stderr, proc.stderr
        assert parse(again.read_text().replace("error", "")) == parse(out.read_text().replace("error", ""))


def test_an_explicit_box_is_said_the_same_on_the_fast_path_and_record_by_record(tmp_path: Path) -> None:
    shape = Rules.classic(2, 6)
    puzzles = [g.puzzle.to_string() for g in generate(2, shape, seed=1, blanks="few")]
    big, small = tmp_path / "big.txt", tmp_path / "small.txt"
    big.write_text("\n".join(puzzles * 400) + "\n")
    small.write_text(puzzles[0] + "\n")
    fast = run_cli("solve", "--box", "2x6", str(big), "-j", "2", "-q").stdout.splitlines()
    one = run_cli("solve", "--box", "2x6", str(small), "-q").stdout.splitlines()
    assert fast[:2] == one == ["# rules: 2x6", fast[1]] and len(fast) == 801
    assert {p.rules for p in parse("\n".join(fast))} == {shape}


def test_rate_and_count_write_the_rules_of_the_puzzles_they_list() -> None:
    made = run_cli("generate", "--rules", "x", "-n", "2", "--seed", "1", "-j", "1", "-q").stdout
    rated = run_cli("rate", "-", "--output-format", "csv", "-q", stdin=made).stdout
    assert rated.splitlines()[1] == "# rules: x"  # (its "solutions" column, a count, is no solution to read)
    for command in ("rate", "count"):
        jsonl = run_cli(command, "-", "--output-format", "jsonl", "-q", stdin=made).stdout
        assert [json.loads(line)["rules"] for line in jsonl.splitlines()] == ["x", "x"]
        assert run_cli("count", "-", "-q", stdin=jsonl).stdout.split() == ["1", "1"]


def test_reports_for_people_name_the_rules_in_each_title() -> None:
    """``pretty`` is a listing for people, never read back: it names the rules, whatever they are."""
    made = run_cli("generate", "--rules", "x", "-n", "1", "--seed", "1", "-j", "1", "-q").stdout
    for args in (["solve"], ["count"], ["rate"], ["generate", "--rules", "x", "-n", "1", "--seed", "1"]):
        stdin = made if args[0] != "generate" else None
        proc = run_cli(*args, *(["-"] if stdin else []), "--output-format", "pretty", "-q", stdin=stdin)
        assert proc.stdout.startswith("Puzzle 1") and "(rules: x)" in proc.stdout.splitlines()[0], args
    killer = run_cli("generate", "--killer", "-n", "1", "--seed", "1", "-q", "--output-format", "pretty")
    assert "(rules: 3x3 killer(" in killer.stdout.splitlines()[0]
