"""Every text layout read and written, detection, robustness and error reporting (sudoku_cp.formats)."""

from __future__ import annotations

import io
import itertools
import json
import sys
from pathlib import Path

import pytest
from conftest import assert_solves, shared

from sudoku_cp import datasets
from sudoku_cp.errors import InvalidPuzzleError, ParseError, UsageError
from sudoku_cp.formats import (
    INPUT_FORMATS,
    OUTPUT_FORMATS,
    Record,
    ResultWriter,
    detect_format,
    format_puzzle,
    iter_records,
    open_records,
    parse,
    write_puzzles,
)
from sudoku_cp.formats.codec import codec
from sudoku_cp.formats.detect import MAX_LINE
from sudoku_cp.formats.reading import _record
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.result import SolveResult, Status

CLASSIC_LINE = "5....7..6.6....5.4.834........182.4...1...9...7.369........543.1.5....9.7..2....1"
CLASSIC_SOLUTION = "514927386967831524283456179659182743321574968478369215892615437135748692746293851"
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVED_4X4 = "1234341221434321"
PUZZLE_4X4 = "12..3..2.1.3...1"


def records(text: str, **kwargs) -> list[Record]:
    return list(iter_records(text.splitlines(keepends=True), **kwargs))


def read_file(tmp_path: Path, data: bytes, **kwargs) -> list[Record]:
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    return list(open_records(path, **kwargs))


def solved(line: str) -> SolveResult:
    solution = Puzzle.from_string(line)
    return SolveResult(solution, Status.SOLVED, (solution,), backend="dfs", stats={"guesses": 0})


def written(format: str, *results: SolveResult, records: list[Record | None] | None = None) -> str:
    out = io.StringIO()
    writer = ResultWriter(out, format)
    for i, result in enumerate(results, start=1):
        writer.write(i, result, records[i - 1] if records else None)
    writer.close()
    return out.getvalue()


# -- the classic exercise ----------------------------------------------------------------------------------


def test_classic_grid_reads_exactly(classic_grid_text: str) -> None:
    [record] = records(classic_grid_text)
    assert record.ok and (record.index, record.line, record.format) == (1, 1, "grid")
    assert record.puzzle == Puzzle.from_string(CLASSIC_LINE)
    assert record.text == classic_grid_text.rstrip("\n")
    assert detect_format(classic_grid_text.splitlines()) == "grid"


def test_classic_solution_is_written_as_exactly_nine_lines(classic_grid_solution: str) -> None:
    puzzle = Puzzle.from_string(CLASSIC_LINE)
    solution = Puzzle.from_string(classic_grid_solution)
    assert_solves(puzzle, solution)
    result = SolveResult(puzzle, Status.SOLVED, (solution,))
    assert written("grid", result) == classic_grid_solution
    assert written("grid", result, result) == classic_grid_solution + "\n" + classic_grid_solution


# -- reading every layout ----------------------------------------------------------------------------------


def test_line_layout_skips_comments_and_empty_lines() -> None:
    got = records(f"# a comment\n\n{CLASSIC_LINE}\n   \n#{EASY}\n{EASY.replace('.', '0')}\n")
    assert [(r.index, r.line) for r in got] == [(1, 3), (2, 6)]
    assert got[1].puzzle == Puzzle.from_string(EASY)
    assert got[0].text == CLASSIC_LINE and got[0].solution is None


@pytest.mark.parametrize("blank", list(".0?_-"))
def test_every_blank_symbol(blank: str) -> None:
    [record] = records(CLASSIC_LINE.replace(".", blank))
    assert record.puzzle == Puzzle.from_string(CLASSIC_LINE)


def test_puzzle_solution_lines_keep_the_known_solution() -> None:
    [record] = records(f"{CLASSIC_LINE.replace('.', '0')} {CLASSIC_SOLUTION}\n")
    assert record.puzzle == Puzzle.from_string(CLASSIC_LINE)
    assert record.solution == Puzzle.from_string(CLASSIC_SOLUTION)
    assert record.text == CLASSIC_LINE.replace(".", "0")


def test_sudoku_exchange_puzzle_solution_file() -> None:
    name = "sudoku_exchange/hard_puzzle_and_solution.txt"
    shared(name, limit=1)  # skips where the shared data is missing
    pairs = datasets.load_with_solutions(name)
    got = list(open_records(datasets.data_path(name)))
    assert len(got) == len(pairs) == 500
    assert [(r.puzzle, r.solution) for r in got] == pairs
    for record in got[:50]:
        assert record.puzzle is not None
        assert_solves(record.puzzle, record.solution)


def test_a_real_collection_reads_like_the_loader() -> None:
    expected = shared("top1465.txt")
    got = list(open_records(datasets.data_path("top1465.txt")))
    assert all(r.ok for r in got)
    assert [r.puzzle for r in got] == expected
    assert got[0].line == 3  # two comment lines first


@pytest.mark.parametrize(
    ("rules", "line"),
    [
        (Rules.classic(2, 2), SOLVED_4X4),
        (Rules.classic(2, 3), "123456456123231564564231312645645312"),
        (Rules.classic(3, 4), "1" + "." * 143),
        (Rules.classic(4, 4), "G" + "." * 254 + "a"),
        (Rules.classic(5, 5), "P" + "." * 624),
    ],
)
def test_line_layout_of_every_size(rules: Rules, line: str) -> None:
    [record] = records(line + "\n")
    assert record.ok and record.puzzle is not None
    assert record.puzzle.rules == rules
    assert record.puzzle.cells[0] == rules.n if line[0] != "1" else 1


def test_explicit_shape_for_non_default_boxes() -> None:
    line = "123456789ABC" + "." * 132
    [record] = records(line, rules=Rules.classic(2, 6))
    assert record.puzzle is not None and record.puzzle.rules == Rules.classic(2, 6)
    [default] = records(line)
    assert default.puzzle is not None and default.puzzle.rules == Rules.classic(3, 4)
    # 1x5: a 5x5 grid has no default shape
    [bad] = records("12345" + "." * 20)
    assert bad.error is not None and "1x5" in bad.error.reason
    [good] = records("12345" + "." * 20, rules=Rules.classic(1, 5))
    assert good.puzzle is not None and good.puzzle.rules == Rules.classic(1, 5)
    rows = "12345\n23451\n.....\n.....\n.....\n"
    assert detect_format(rows.splitlines(), rules=Rules.classic(1, 5)) == "grid"
    [grid] = records(rows, rules=Rules.classic(1, 5))
    assert grid.puzzle is not None and grid.puzzle.cells[5:10] == (2, 3, 4, 5, 1)


def test_grid_layout_many_puzzles_separated_by_empty_lines(classic_grid_text: str) -> None:
    text = "\n\n" + classic_grid_text + "\n\n\n# next one\n" + classic_grid_text.replace("?", ".")
    got = records(text)
    assert [(r.index, r.line, r.ok) for r in got] == [(1, 3, True), (2, 16, True)]
    assert got[0].puzzle == got[1].puzzle


def test_grid_with_box_separators() -> None:
    text = (
        "5 . . | . . 7 | . . 6\n. 6 . | . . . | 5 . 4\n. 8 3 | 4 . . | . . .\n"
        "------+-------+------\n"
        ". . . | 1 8 2 | . 4 .\n. . 1 | . . . | 9 . .\n. 7 . | 3 6 9 | . . .\n"
        "------+-------+------\n"
        ". . . | . . 5 | 4 3 .\n1 . 5 | . . . | . 9 .\n7 . . | 2 . . | . . 1\n"
    )
    assert detect_format(text.splitlines()) == "grid"
    [record] = records(text)
    assert record.ok and record.puzzle == Puzzle.from_string(CLASSIC_LINE)
    compact = "5..|..7|..6\n.6.|...|5.4\n.83|4..|...\n---+---+---\n...|182|.4.\n..1|...|9..\n"
    compact += ".7.|369|...\n-----------\n...|..5|43.\n1.5|...|.9.\n7..|2..|..1\n"
    [record] = records(compact)
    assert record.ok and record.puzzle == Puzzle.from_string(CLASSIC_LINE)


def test_pretty_output_reads_back_as_a_grid() -> None:
    puzzle = Puzzle.from_string(CLASSIC_LINE)
    assert parse(format_puzzle(puzzle, "pretty")) == [puzzle]


def test_blocks_of_separators_only_are_skipped() -> None:
    got = records("+--+--+\n+--+--+\n\n1234\n3412\n2143\n4321\n")
    assert [(r.index, r.line, r.ok) for r in got] == [(1, 4, True)]


def test_a_known_solution_must_be_complete() -> None:
    [record] = records(f"{CLASSIC_LINE} {CLASSIC_LINE}\n")
    assert str(record.error) == "line 1, puzzle 1: the solution given with the puzzle has 53 empty cells"


def test_dash_rows_are_blanks_when_they_have_a_full_row_of_dashes() -> None:
    [record] = records("----\n12-4\n----\n----\n")
    assert record.ok and record.puzzle is not None
    assert record.puzzle.cells == (0, 0, 0, 0, 1, 2, 0, 4) + (0,) * 8


@pytest.mark.parametrize("extra", [" 11.9", " # the hardest", "\t" + CLASSIC_LINE + " x"])
def test_a_first_puzzle_with_more_text_keeps_the_line_layout(extra: str) -> None:
    """A rating or a comment after the first puzzle made the whole input one spaced grid (every puzzle lost):
    it is the line layout, that line an error naming it, the others read."""
    lines = [CLASSIC_LINE + extra, CLASSIC_LINE, CLASSIC_LINE]
    assert detect_format(lines) == "line"
    got = records("\n".join(lines) + "\n")
    assert [(r.index, r.line, r.ok) for r in got] == [(1, 1, False), (2, 2, True), (3, 3, True)]


def test_spaced_layout() -> None:
    text = "\n".join(
        " ".join("0" if ch == "." else ch for ch in CLASSIC_LINE[r * 9 : r * 9 + 9]) for r in range(9)
    )
    got = records(text + "\n\n" + text)  # no final newline
    assert detect_format(text.splitlines()) == "spaced"
    assert [(r.index, r.line, r.format) for r in got] == [(1, 1, "spaced"), (2, 11, "spaced")]
    assert got[0].puzzle == got[1].puzzle == Puzzle.from_string(CLASSIC_LINE)


def test_spaced_16x16_with_numbers_or_letters() -> None:
    rows = [[(r * 4 + r // 4 + c) % 16 + 1 for c in range(16)] for r in range(16)]
    puzzle = Puzzle.from_rows(rows)
    as_numbers = "\n".join(" ".join(str(d) for d in row) for row in rows)
    as_letters = "\n".join(
        " ".join("0" if d == 0 else "123456789ABCDEFG"[d - 1] for d in row) for row in rows
    )
    assert format_puzzle(puzzle, "spaced") == as_numbers
    for text in (as_numbers, as_letters, as_numbers.replace(" 1 ", " 0 ")):
        [record] = records(text)
        assert record.ok and record.format == "spaced", record.error
        assert record.puzzle is not None and record.puzzle.rules == Rules.classic(4, 4)
    assert records(as_numbers)[0].puzzle == puzzle


@pytest.mark.parametrize("column", ["quizzes", "Puzzle", "PUZZLES"])
def test_csv_layout(column: str) -> None:
    text = f"id,{column},Solutions\n1,{CLASSIC_LINE},{CLASSIC_SOLUTION}\n\n2,{EASY},\n"
    assert detect_format(text.splitlines()) == "csv"
    got = records(text)
    assert [(r.index, r.line, r.format) for r in got] == [(1, 2, "csv"), (2, 4, "csv")]
    assert got[0].puzzle == Puzzle.from_string(CLASSIC_LINE)
    assert got[0].solution == Puzzle.from_string(CLASSIC_SOLUTION)
    assert got[1].puzzle == Puzzle.from_string(EASY) and got[1].solution is None


def test_csv_with_semicolons_quotes_and_a_single_column() -> None:
    got = records(f'"puzzle";"note"\n"{CLASSIC_LINE}";"a; b"\n')
    assert [r.puzzle for r in got] == [Puzzle.from_string(CLASSIC_LINE)]
    assert [r.puzzle for r in records(f"puzzle\n{EASY}\n")] == [Puzzle.from_string(EASY)]


# -- writing every layout ----------------------------------------------------------------------------------


def _results() -> list[SolveResult]:
    puzzle = Puzzle.from_string(PUZZLE_4X4)
    solution = Puzzle.from_string(SOLVED_4X4)
    other = Puzzle.from_string("1234341221434312".replace("4312", "4321"))
    return [
        SolveResult(puzzle, Status.SOLVED, (solution,), backend="dfs", stats={"guesses": 1}),
        SolveResult(puzzle, Status.NO_SOLUTION, backend="sat"),
        SolveResult(puzzle, Status.MULTIPLE, (solution, other), unique=False, backend="dfs"),
        SolveResult(puzzle, Status.UNKNOWN, backend="dfs"),
        SolveResult(None, Status.ERROR, error="17 symbols is not the length of a puzzle"),
    ]


def test_line_output_keeps_one_line_per_puzzle() -> None:
    assert written("line", *_results()) == f"{SOLVED_4X4}\nno_solution\nmultiple\nunknown\nerror\n"


@pytest.mark.parametrize("format", ["grid", "spaced"])
def test_block_output_separates_records_by_one_empty_line(format: str) -> None:
    text = written(format, *_results())
    blocks = text.split("\n\n")
    assert blocks[1:] == ["no_solution", "multiple", "unknown", "error\n"]
    assert blocks[0] == format_puzzle(Puzzle.from_string(SOLVED_4X4), format)
    assert not text.startswith("\n") and text.endswith("\n") and not text.endswith("\n\n")


def test_csv_output() -> None:
    bad = Record(5, 9, None, ParseError("bad"), text="12x")
    text = written("csv", *_results(), records=[None, None, None, None, bad])
    assert text.splitlines() == [
        "index,puzzle,solution,status",
        f"1,{PUZZLE_4X4},{SOLVED_4X4},solved",
        f"2,{PUZZLE_4X4},,no_solution",
        f"3,{PUZZLE_4X4},,multiple",
        f"4,{PUZZLE_4X4},,unknown",
        "5,12x,,error",
    ]
    assert written("csv") == "index,puzzle,solution,status\n"
    # the csv output reads back: puzzle and known solution
    back = records(text)
    assert back[0].puzzle == Puzzle.from_string(PUZZLE_4X4) and back[0].solution == Puzzle.from_string(
        SOLVED_4X4
    )
    assert back[4].error is not None and back[4].index == 5


def test_jsonl_output() -> None:
    lines = [json.loads(line) for line in written("jsonl", *_results()).splitlines()]
    assert [item["index"] for item in lines] == [1, 2, 3, 4, 5]
    assert lines[0] == {
        "index": 1,
        "status": "solved",
        "puzzle": PUZZLE_4X4,
        "solution": SOLVED_4X4,
        "backend": "dfs",
        "stats": {"guesses": 1},
    }
    assert lines[1]["status"] == "no_solution" and lines[1]["solution"] is None
    assert lines[2]["solutions"] == [SOLVED_4X4, "1234341221434321"] and lines[2]["unique"] is False
    assert lines[4]["error"] == "17 symbols is not the length of a puzzle" and lines[4]["puzzle"] == ""


def test_pretty_output() -> None:
    text = written("pretty", solved(CLASSIC_SOLUTION), *_results()[1:])
    lines = text.splitlines()
    assert lines[0] == "Puzzle 1: solved by dfs"
    assert lines[1] == lines[5] == lines[13] == "+-------+-------+-------+"
    assert lines[2] == "| 5 1 4 | 9 2 7 | 3 8 6 |"
    assert "Puzzle 2: no solution by sat" in lines
    assert "Puzzle 5: error" in lines and "17 symbols is not the length of a puzzle" in lines
    small = format_puzzle(Puzzle.from_string(PUZZLE_4X4), "pretty").splitlines()
    assert small == ["+-----+-----+", "| 1 2 | . . |", "| 3 . | . 2 |", "+-----+-----+",
                     "| . 1 | . 3 |", "| . . | . 1 |", "+-----+-----+"]  # fmt: skip


def test_format_puzzle_and_write_puzzles() -> None:
    puzzle = Puzzle.from_string(PUZZLE_4X4)
    assert format_puzzle(puzzle) == PUZZLE_4X4
    assert format_puzzle(puzzle, "grid") == "12..\n3..2\n.1.3\n...1"
    assert format_puzzle(puzzle, "spaced") == "1 2 0 0\n3 0 0 2\n0 1 0 3\n0 0 0 1"
    assert format_puzzle(puzzle, "csv") == f"puzzle\n{PUZZLE_4X4}"
    assert json.loads(format_puzzle(puzzle, "jsonl")) == {"puzzle": PUZZLE_4X4}
    for format in OUTPUT_FORMATS:
        out = io.StringIO()
        assert write_puzzles(out, [puzzle, puzzle], format) == 2
        if format in INPUT_FORMATS:
            assert parse(out.getvalue(), format) == parse(out.getvalue()) == [puzzle, puzzle]
    out = io.StringIO()
    write_puzzles(out, [puzzle] * 2, "jsonl")
    assert [json.loads(x)["index"] for x in out.getvalue().splitlines()] == [1, 2]


def test_binary_lines_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="lines must be text, not bytes"):
        list(iter_records([CLASSIC_LINE.encode()]))


def test_unknown_formats_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="unknown input format 'jsonl'"):
        iter_records([], format="jsonl")
    with pytest.raises(UsageError, match="unknown output format"):
        ResultWriter(io.StringIO(), "xml")
    with pytest.raises(UsageError):
        format_puzzle(Puzzle.from_string(SOLVED_4X4), "xml")


# -- errors: each names its puzzle and line, and the next puzzles are still read -----------------------


def _single_error(text: str, **kwargs) -> ParseError:
    got = records(text, **kwargs)
    bad = [r for r in got if r.error is not None]
    assert len(bad) == 1, got
    return bad[0].error  # type: ignore[return-value]


def test_line_errors_name_puzzle_and_line_and_the_rest_is_read() -> None:
    text = f"# head\n{CLASSIC_LINE}\n{CLASSIC_LINE[:-1]}\n{CLASSIC_LINE[:-1]}x\n\n{CLASSIC_LINE}\n"
    text += f"55{CLASSIC_LINE[2:]}\n{CLASSIC_LINE} {CLASSIC_LINE} extra\n"
    text += f"{CLASSIC_LINE} {CLASSIC_SOLUTION[1:]}\n{EASY}\n"
    got = records(text)
    assert [(r.index, r.line, r.ok) for r in got] == [
        (1, 2, True), (2, 3, False), (3, 4, False), (4, 6, True), (5, 7, False), (6, 8, False), (7, 9, False),
        (8, 10, True),
    ]  # fmt: skip
    errors = [r.error for r in got if r.error is not None]
    assert all(e.index is not None and e.line is not None for e in errors)
    assert str(errors[0]) == "line 3, puzzle 2: 80 symbols is not the length of a puzzle " + (
        "(16 for 4x4, 36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 for 25x25)"
    )
    assert "unknown symbol 'x' at r9c9" in str(errors[1]) and "puzzle 3" in str(errors[1])
    assert isinstance(errors[2], InvalidPuzzleError)
    assert str(errors[2]) == "line 7, puzzle 5: digit 5 is given twice in one house, at r1c1 and r1c2"
    assert "3 fields" in errors[3].reason
    assert "the solution given with the puzzle: 80 symbols" in errors[4].reason
    assert got[1].text == CLASSIC_LINE[:-1]


def test_digit_twice_in_a_column_or_box() -> None:
    column = "5" + "." * 8 + "5" + "." * 71
    assert "r1c1 and r2c1" in _single_error(column).reason
    box = "5" + "." * 9 + "5" + "." * 70
    assert "r1c1 and r2c2" in _single_error(box).reason
    [record] = records(box, validate=False)
    assert record.ok


def test_explicit_shape_mismatch() -> None:
    error = _single_error(SOLVED_4X4 + "\n", rules=Rules.classic(3, 3), format="line")
    assert error.reason == "16 symbols, a 9x9 grid has 81"


def test_grid_errors(classic_grid_text: str) -> None:
    rows = classic_grid_text.splitlines()
    ragged = "\n".join([*rows[:2], rows[2][:-1], *rows[3:]])
    text = classic_grid_text + "\n" + ragged + "\n\n\n" + "\n".join(rows[:8]) + "\n\n" + classic_grid_text
    got = records(text, format="grid")
    assert [(r.index, r.line, r.ok) for r in got] == [
        (1, 1, True),
        (2, 11, False),
        (3, 22, False),
        (4, 31, True),
    ]
    assert str(got[1].error) == "line 13, puzzle 2: row 3 has 8 symbols, a 9x9 grid has 9"
    assert (
        str(got[2].error)
        == "line 22, puzzle 3: 8 rows of 9 symbols: a grid has as many rows as symbols in a row"
    )
    bad_symbol = classic_grid_text.replace("?834", "?8x4")
    assert str(_single_error(bad_symbol)).startswith("line 3, puzzle 1: unknown symbol 'x' at r3c3")
    twice = classic_grid_text.replace("5????7??6", "5????7??5")
    assert isinstance(_single_error(twice), InvalidPuzzleError)
    error = _single_error("12\n21\n", format="grid")
    assert "a 2x2 grid" in error.reason


def test_spaced_errors() -> None:
    rows = [" ".join("123456789"[(r * 3 + r // 3 + c) % 9] for c in range(9)) for r in range(9)]
    good = "\n".join(rows)
    bad_number = "\n".join([rows[0].replace("9", "10"), *rows[1:]])
    short = "\n".join([rows[0][:-2], *rows[1:]])
    got = records("\n\n".join([good, bad_number, short, good]), format="spaced")
    assert [(r.index, r.line, r.ok) for r in got] == [
        (1, 1, True),
        (2, 11, False),
        (3, 21, False),
        (4, 31, True),
    ]
    assert "unknown symbol '10' at r1c" in str(got[1].error) and "line 11" in str(got[1].error)
    assert "row 1 has 8 symbols" in str(got[2].error) or "9 rows of 8" in str(got[2].error)


def test_csv_errors() -> None:
    got = records(f"id,puzzle\n1,{CLASSIC_LINE}\n2,{CLASSIC_LINE[:-3]}\n3,\n4,{EASY}\n")
    assert [(r.index, r.line, r.ok) for r in got] == [
        (1, 2, True),
        (2, 3, False),
        (3, 4, False),
        (4, 5, True),
    ]
    assert "78 symbols" in str(got[1].error)
    assert str(got[2].error) == "line 4, puzzle 3: no puzzle in column 2 (puzzle)"


def test_csv_without_a_puzzle_column_reports_every_row() -> None:
    got = records(f"id,grid\n1,{CLASSIC_LINE}\n\n2,{EASY}\n")
    assert [(r.index, r.line, r.ok) for r in got] == [(1, 2, False), (2, 4, False)]
    assert str(got[0].error) == (
        "line 2, puzzle 1: the csv header (line 1) has no puzzle column "
        "(quizzes, puzzle or puzzles): id, grid"
    )


def test_errors_carry_the_source(tmp_path: Path) -> None:
    [record] = read_file(tmp_path, b"123\n")
    assert record.error is not None and record.error.source == str(tmp_path / "input.txt")
    assert str(record.error).startswith(f"{tmp_path / 'input.txt'}, line 1, puzzle 1: ")
    [named] = read_file(tmp_path, b"123\n", source="puzzles")
    assert str(named.error).startswith("puzzles, line 1, puzzle 1")


def test_parse_raises_the_first_error() -> None:
    assert parse(f"{CLASSIC_LINE}\n{EASY}\n") == [Puzzle.from_string(CLASSIC_LINE), Puzzle.from_string(EASY)]
    with pytest.raises(ParseError, match="line 2, puzzle 2: 5 symbols"):
        parse(f"{CLASSIC_LINE}\n12345\n{EASY}\n")
    assert parse("") == []


# -- robustness ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        f"{CLASSIC_LINE}\r\n{EASY}\r\n".encode(),
        f"{CLASSIC_LINE}\r{EASY}\r".encode(),
        f"\ufeff{CLASSIC_LINE}\n{EASY}".encode(),
        f"{CLASSIC_LINE} \t\n\t{EASY}  ".encode(),
        f"\ufeff{CLASSIC_LINE}\r\n\r\n{EASY}\t \r".encode(),
    ],
    ids=["crlf", "lone-cr", "bom-no-final-newline", "trailing-spaces", "all-at-once"],
)
def test_awkward_line_ends_and_white_space(tmp_path: Path, data: bytes) -> None:
    expected = [Puzzle.from_string(CLASSIC_LINE), Puzzle.from_string(EASY)]
    assert [r.puzzle for r in read_file(tmp_path, data)] == expected
    assert [r.puzzle for r in records(data.decode())] == expected
    assert parse(data.decode()) == expected


def test_awkward_grid_and_csv_files(tmp_path: Path, classic_grid_text: str) -> None:
    expected = Puzzle.from_string(CLASSIC_LINE)
    crlf = (
        "\ufeff" + classic_grid_text.replace("\n", " \r\n") + "\r\n" + classic_grid_text.rstrip()
    ).encode()
    assert [r.puzzle for r in read_file(tmp_path, crlf)] == [expected, expected]
    lone_cr = ("\ufeffquizzes\r" + CLASSIC_LINE + "\r" + CLASSIC_LINE).encode()
    got = read_file(tmp_path, lone_cr)
    assert [(r.puzzle, r.line) for r in got] == [(expected, 2), (expected, 3)]


@pytest.mark.parametrize("format", [None, *INPUT_FORMATS])
def test_empty_input_has_no_records(tmp_path: Path, format: str | None) -> None:
    for data in (b"", b"\n\n", b"\xef\xbb\xbf", b"# only a comment\n", b"  \r\n\t\n"):
        assert read_file(tmp_path, data, format=format) == []
    assert list(iter_records([], format=format)) == []


def test_not_utf8_bytes_are_an_error_record(tmp_path: Path) -> None:
    data = (
        CLASSIC_LINE.encode() + b"\n" + CLASSIC_LINE[:40].encode() + b"\xff\xfe" + CLASSIC_LINE[42:].encode()
    )
    got = read_file(tmp_path, data + b"\n" + EASY.encode())
    assert [(r.index, r.ok) for r in got] == [(1, True), (2, False), (3, True)]
    assert (
        str(got[1].error)
        == f"{tmp_path / 'input.txt'}, line 2, puzzle 2: byte 0xff at r5c5 is not UTF-8 text"
    )
    assert "\ufffd" in got[1].text
    latin1 = b"id,puzzle\n" + "1,é".encode("latin-1") + b"\n"
    [record] = read_file(tmp_path, latin1)
    assert "byte 0xe9" in str(record.error)


@pytest.mark.parametrize("format", [None, *INPUT_FORMATS])
def test_a_huge_line_is_an_error_not_a_hang(tmp_path: Path, format: str | None) -> None:
    header = "puzzle\n" if format == "csv" else ""
    first, last = CLASSIC_LINE, EASY
    if format == "fpuzzles":
        first, last = (format_puzzle(Puzzle.from_string(t), "fpuzzles") for t in (first, last))
    data = (header + first + "\n").encode() + b"5" * (10 * 1024 * 1024) + f"\n\n{last}\n".encode()
    if format in ("grid", "spaced"):
        data = data.replace(b"\n", b"\n\n")
    got = read_file(tmp_path, data, format=format)
    assert [r.ok for r in got] == [format not in ("grid", "spaced"), False, format not in ("grid", "spaced")]
    assert "a line of 10,485,760 characters" in str(got[1].error)
    assert got[1].index == 2 and got[2].index == 3
    assert len(got[1].text) < 10_000
    # the same from lines in memory
    lines = [header + CLASSIC_LINE, "5" * (MAX_LINE + 1), "", EASY]
    got = list(iter_records(lines, format=format if format in ("line", "csv") else None))
    assert [r.ok for r in got][1] is False


def test_standard_input_is_read_as_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO(b"\xef\xbb\xbf" + CLASSIC_LINE.encode() + b"\r\n\xff\n")
    stdin = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr(sys, "stdin", stdin)
    got = list(open_records("-"))
    assert got[0].puzzle == Puzzle.from_string(CLASSIC_LINE)
    assert got[1].error is not None and str(got[1].error).startswith("<stdin>, line 2, puzzle 2: byte 0xff")
    assert not raw.closed  # the caller's standard input stays usable
    unused = open_records(None)
    del unused  # never iterated: must not close standard input either
    assert not raw.closed
    monkeypatch.setattr(sys, "stdin", io.StringIO(EASY + "\n"))  # no binary buffer: read as text
    assert [r.puzzle for r in open_records(None)] == [Puzzle.from_string(EASY)]


def test_missing_file_raises_oserror_at_once(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        open_records(tmp_path / "missing.txt")
    with pytest.raises(IsADirectoryError):
        open_records(tmp_path)


def test_reading_is_lazy_and_streaming() -> None:
    consumed = []

    def lines():
        for i in itertools.count(1):
            consumed.append(i)
            yield CLASSIC_LINE if i % 2 else EASY

    it = iter_records(lines())
    assert consumed == []  # nothing read before the first record is asked for
    first = list(itertools.islice(it, 3))
    assert [r.index for r in first] == [1, 2, 3] and len(consumed) <= 4


# -- detection ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([CLASSIC_LINE], "line"),
        (["# comment", "", f"{CLASSIC_LINE} {CLASSIC_SOLUTION}"], "line"),
        (["5????7??6", "?6????5?4"], "grid"),
        (["+-------+-------+", "| 5 . . | . . 7 |"], "grid"),
        (["5 3 . | . 7 . | . . ."], "grid"),
        (["5 3 0 0 7 0 0 0 0"], "spaced"),
        (["16 0 0 1 2 3 4 5 6 7 8 9 10 11 12 13"], "spaced"),
        (["id,quizzes,solutions"], "csv"),
        (["PUZZLE"], "csv"),
        (["a,b"], "csv"),
        ([], "line"),
        (["# nothing but comments"], "line"),
        (["???"], "line"),
        ([SOLVED_4X4, SOLVED_4X4], "line"),
        ([SOLVED_4X4] * 16 + ["", SOLVED_4X4], "grid"),
        ([SOLVED_4X4] * 16, "grid"),
        ([SOLVED_4X4] * 17, "line"),
        (["1" * 36] * 36 + [""], "grid"),
        (["1" * 36] * 35 + [""], "line"),
    ],
)
def test_detect_format(lines: list[str], expected: str) -> None:
    assert detect_format(lines) == expected


def test_detection_reads_ahead_only_as_needed(classic_grid_text: str) -> None:
    grid16 = "\n".join(["123456789ABCDEFG"] * 16)
    lines_4x4 = "\n".join([SOLVED_4X4] * 20)
    assert [r.format for r in records(grid16)] == ["grid"]
    assert [r.format for r in records(lines_4x4)] == ["line"] * 20
    assert not records(grid16, format="line")[0].ok  # read as 16 4x4 puzzles, which they are not


# -- internals that the speed depends on ------------------------------------------------------------------


def test_fast_record_equals_the_dataclass() -> None:
    puzzle = Puzzle.from_string(SOLVED_4X4)
    fast = _record(3, 4, puzzle, None, puzzle, "text", "grid")
    assert fast == Record(3, 4, puzzle, None, puzzle, "text", "grid")
    assert (
        type(fast) is Record
        and fast.ok
        and hash(fast) == hash(Record(3, 4, puzzle, None, puzzle, "text", "grid"))
    )
    with pytest.raises(AttributeError):
        fast.index = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "rules",
    [Rules.classic(2, 2), Rules.classic(3, 3), Rules.classic(4, 4), Rules.classic(1, 5), Rules.classic(5, 5)],
)
def test_codec_tables(rules: Rules) -> None:
    c = codec(rules)
    assert c.digits("." * rules.ncells) == bytes(rules.ncells)
    assert c.digits("é") is None and c.digits("\x01") is None
    full = bytes((r * rules.box_cols + r // rules.box_rows + col) % rules.n + 1 for r in range(rules.n)
                 for col in range(rules.n))  # fmt: skip
    assert c.consistent(full)
    assert Puzzle(rules, tuple(full)).conflicts() == []
    assert c.digits(c.symbols(tuple(full))) == full
