"""Pencilmark input: the candidate layout read, written and round-tripped, and hint/steps starting from it."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp import count_solutions, make_backend, solve
from sudoku_cp.candidates import Candidates
from sudoku_cp.errors import ParseError, UnsupportedRuleError
from sudoku_cp.formats import iter_records
from sudoku_cp.formats.pencilmarks import (
    candidate_grid,
    parse_candidate_grid,
    parse_pencilmarks,
    pencilmark_size,
    pencilmarks,
    with_pencilmarks,
)
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.human import hint, walk

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3), (4, 4)]), st.data())
def test_pencilmarks_round_trip(box: tuple[int, int], data: st.DataObject) -> None:
    rules = Rules.classic(*box)
    full = (1 << rules.n) - 1
    masks = data.draw(st.lists(st.integers(1, full), min_size=rules.ncells, max_size=rules.ncells))
    candidates = Candidates(Puzzle(rules, (0,) * rules.ncells), tuple(masks))
    text = pencilmarks(candidates)
    assert len(text) == rules.n**3 and parse_pencilmarks(text, rules) == candidates


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3), (4, 4)]), st.data())
def test_candidate_grid_round_trip(box: tuple[int, int], data: st.DataObject) -> None:
    rules = Rules.classic(*box)
    full = (1 << rules.n) - 1
    masks = data.draw(st.lists(st.integers(1, full), min_size=rules.ncells, max_size=rules.ncells))
    candidates = Candidates(Puzzle(rules, (0,) * rules.ncells), tuple(masks))
    text = candidate_grid(candidates)
    assert parse_candidate_grid(text) == candidates
    # without box lines, and with HoDoKu's frame, it reads the same
    bare = "\n".join(line.replace("|", " ") for line in text.splitlines() if "+" not in line)
    assert parse_candidate_grid(bare, rules) == candidates
    framed = [".---.", *(f"| {line} |" for line in text.splitlines()), "'---'"]
    assert parse_candidate_grid("\n".join(framed), rules) == candidates


def test_candidate_grid_errors_name_the_cell() -> None:
    good = candidate_grid(Candidates.of(Puzzle.from_string(EASY))).splitlines()
    for lines, message in (
        (good[:-1], "a candidate grid of 8 rows of 9 cells: it needs n rows of n cells"),
        ([good[0] + " 12", *good[1:]], "9 rows of 10 cells"),
        ([*good[:-1], good[-1].replace("5", "5x", 1)], "r9c\\d: 'x' is no digit of a 9x9 grid"),
        ([good[0].replace("6", "66", 1), *good[1:]], "names '6' twice"),
        ([*good[:4], good[4] + " 1", *good[5:]], "row 4 \\(line 5 of the grid\\) has 10 cells, not 9"),
    ):
        with pytest.raises(ParseError, match=message):
            parse_candidate_grid("\n".join(lines))
    with pytest.raises(ParseError, match="a candidate grid of 9 rows is not one of 2x2"):
        parse_candidate_grid("\n".join(good), Rules.classic(2, 2))


def test_candidate_grids_in_a_file_are_read_by_hint_and_refused_by_solve(tmp_path) -> None:
    start = Candidates.of(Puzzle.from_string(EASY))
    bare = Candidates(Puzzle(start.puzzle.rules, (0,) * 81), start.masks)
    four = Candidates.of(Puzzle.from_string("1234............"))  # a first row of single digits
    four = Candidates(Puzzle(four.puzzle.rules, (0,) * 16), four.masks)
    src = tmp_path / "marks.txt"
    src.write_text(candidate_grid(bare) + "\n\n" + candidate_grid(four) + "\n\n" + pencilmarks(bare) + "\n")
    records = list(with_pencilmarks(iter_records(src.read_text().splitlines(keepends=True))))
    assert [(r.index, r.line, r.format) for r in records] == [
        (1, 1, "pencilmarks"),
        (2, 13, "pencilmarks"),
        (3, 19, "pencilmarks"),
    ]
    assert [r.candidates for r in records] == [bare, four, bare]
    proc = run_cli("hint", "--output-format", "jsonl", str(src))
    assert proc.returncode == 0, proc.stderr
    first, _, third = (json.loads(line) for line in proc.stdout.splitlines())
    assert first["text"] == third["text"] == hint(bare).step.text
    proc = run_cli("solve", str(src))
    assert proc.returncode != 0 and "line 1" in proc.stderr


def test_sizes_and_errors() -> None:
    assert [pencilmark_size(k) for k in (64, 216, 729, 4096, 81, 100)] == [4, 6, 9, 16, None, None]
    good = pencilmarks(Candidates.of(Puzzle.from_string(EASY)))
    for bad, message in (
        (good[:-1] + "x", "r9c9: 'x' is no digit"),
        ("." * 9 + good[9:], "r1c1 has no candidate"),
        ("2" + good[1:], "r1c1: place 1 holds '2'"),
        (good[:-9], "pencilmarks of an n x n grid take n*n*n"),
    ):
        with pytest.raises(ParseError, match=message):
            parse_pencilmarks(bad)
    with pytest.raises(ParseError, match="pencilmarks of a 9x9 grid, not of 2x2"):
        parse_pencilmarks(good, Rules.classic(2, 2))


def test_only_commands_that_ask_read_pencilmark_lines() -> None:
    line = pencilmarks(Candidates.of(Puzzle.from_string(EASY)))
    (plain,) = iter_records([line])
    assert plain.error is not None and "pencilmark grid" in plain.error.reason
    (record,) = with_pencilmarks(iter_records([line]))
    assert record.ok and record.format == "pencilmarks" and record.candidates is not None
    assert record.candidates.masks == Candidates.of(Puzzle.from_string(EASY)).masks
    (eight,) = with_pencilmarks(iter_records(["." * 64], rules=Rules.classic(2, 4)), Rules.classic(2, 4))
    assert eight.candidates is None and eight.ok  # --box 2x4 says it is an 8x8 puzzle


def test_hint_uses_only_the_candidates_given() -> None:
    start = Candidates.of(Puzzle.from_string(EASY))
    masks = list(start.masks)
    masks[10] = 1 << 3  # r2c2 keeps only 4: a naked single the givens alone do not make
    marked = Candidates(start.puzzle, tuple(masks))
    # r2c2 holds 6 in the solution: 4 alone there is a contradiction the walk must find, not a solution
    assert walk(marked).result == "contradiction"
    line = pencilmarks(Candidates(Puzzle(start.puzzle.rules, (0,) * 81), tuple(start.masks)))
    proc = run_cli("hint", "--output-format", "jsonl", "-p", line)
    step = json.loads(proc.stdout)
    (placed,) = step["placements"]
    cell, digit = placed.split("=")
    r, c = (int(x) for x in cell[1:].split("c"))
    assert start.masks[(r - 1) * 9 + c - 1] >> (int(digit) - 1) & 1  # from the candidates given
    later = hint(Candidates(Puzzle(start.puzzle.rules, (0,) * 81), tuple(masks)))
    assert later.result in ("step", "contradiction")


def test_steps_and_rate_read_pencilmark_lines_and_other_commands_refuse_them() -> None:
    line = pencilmarks(Candidates.of(Puzzle.from_string(EASY)))
    proc = run_cli("steps", "-p", line)
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("solved ")
    proc = run_cli("rate", "--scale", "se", "-p", line)
    assert proc.returncode == 0 and proc.stdout.count("/") == 2
    proc = run_cli("solve", "-p", line)
    assert (
        proc.returncode == 1
        and "read by hint, steps, rate --scale se, and solve and count with --backend sat" in proc.stderr
    )


# --- solving from candidates ----------------------------------------------------------------------------

FOUR = Rules.classic(2, 2)


def _all_4x4_grids() -> list[tuple[int, ...]]:
    found = make_backend("sat").enumerate(Puzzle.empty(FOUR), limit=1000)
    assert found.complete and len(found.solutions) == 288
    return [s.cells for s in found.solutions]


@pytest.mark.parametrize("backend", ["sat", "cpsat", "cpsat:bool"])
@settings(max_examples=25, deadline=None)
@given(st.data())
def test_solutions_within_candidates_are_exactly_the_grids_that_fit_them(
    backend: str, data: st.DataObject
) -> None:
    if not _GRIDS:
        _GRIDS.extend(_all_4x4_grids())
    grids = _GRIDS
    target = data.draw(st.sampled_from(grids))
    # candidates around a grid (or around nothing: some draws have no solution at all)
    masks = tuple(
        data.draw(st.integers(0, 15)) | (1 << (d - 1) if data.draw(st.booleans()) else 0) for d in target
    )
    candidates = Candidates(Puzzle(FOUR, (0,) * 16), masks)
    fitting = {g for g in grids if all(m >> (d - 1) & 1 for m, d in zip(masks, g, strict=True))}
    found = make_backend(backend).enumerate_candidates(candidates, limit=300)
    assert found.complete and {s.cells for s in found.solutions} == fitting


_GRIDS: list[tuple[int, ...]] = []


def test_solve_and_count_start_from_candidates_where_the_backend_can() -> None:
    puzzle = Puzzle.from_string(EASY)
    bare = Candidates(Puzzle(puzzle.rules, (0,) * 81), Candidates.of(puzzle).masks)
    answer = solve(puzzle, "sat").solution
    for backend in ("sat", "cpsat"):
        assert solve(bare, backend, unique=True).solution == answer
        assert count_solutions(bare, 5, backend) == 1
    cell = next(c for c, d in enumerate(puzzle.cells) if not d)
    masks = list(bare.masks)
    masks[cell] &= ~(1 << (answer.cells[cell] - 1))  # the solution's digit taken out: no solution left
    assert solve(Candidates(bare.puzzle, tuple(masks)), "sat").solution is None
    with pytest.raises(UnsupportedRuleError, match="the dfs backend starts from givens only"):
        solve(bare, "dfs")


def test_count_reads_pencilmarks_with_a_backend_that_takes_them(tmp_path) -> None:
    two = Candidates.of(Puzzle.from_string("12..34.........."))
    line, grid = tmp_path / "line.txt", tmp_path / "grid.txt"
    line.write_text(pencilmarks(Candidates(Puzzle(FOUR, (0,) * 16), two.masks)) + "\n")
    grid.write_text(candidate_grid(two) + "\n")
    for backend in ("sat", "cpsat"):
        proc = run_cli("count", "--backend", backend, "--limit", "100", str(line), str(grid))
        assert proc.returncode == 1 and proc.stdout.split() == ["12", "12"], (
            proc.stderr
        )  # box 1 fixed: 288 / 24
    proc = run_cli("count", str(line))  # dfs searches from givens: the pencilmarks are an error, named
    assert proc.returncode != 0 and "solve and count with --backend sat or cpsat" in proc.stderr


def test_solve_reads_a_file_of_pencilmarks_with_a_backend_that_takes_them(tmp_path) -> None:
    puzzle = Puzzle.from_string(EASY)
    start = Candidates.of(puzzle)
    bare = Candidates(Puzzle(puzzle.rules, (0,) * 81), start.masks)
    line, grid = tmp_path / "line.txt", tmp_path / "grid.txt"
    line.write_text(pencilmarks(bare) + "\n" + pencilmarks(bare) + "\n")
    grid.write_text(candidate_grid(start) + "\n")
    answer = solve(puzzle, "sat").solution.to_string()
    for backend in ("sat", "cpsat"):
        proc = run_cli("solve", "--unique", "--backend", backend, str(line), str(grid))
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.split() == [answer] * 3
    proc = run_cli("solve", "--backend", "sat", "--output-format", "jsonl", str(line))
    first = json.loads(proc.stdout.splitlines()[0])
    assert first["puzzle"] == pencilmarks(bare) and first["solution"] == answer


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_pencilmark_grids_are_ruled_by_the_rules_option_and_the_rules_line(backend: str, tmp_path) -> None:
    """A pencilmark grid came out under the classic rules whatever ``--rules`` or a ``# rules:`` line said:
    a count of the grids of the classic rules, solutions breaking the rule. Every open candidate of a
    4x4 grid under the X rule counts the X grids; its true candidates read back under the same rules."""
    full = "1234" * 16  # every digit a candidate of every cell
    under_x = str(count_solutions(Puzzle.empty(Rules.classic(2, 2).with_named("x")), 1000, "sat"))
    plain, headed = tmp_path / "plain.txt", tmp_path / "headed.txt"
    plain.write_text(full + "\n")
    headed.write_text("# rules: x\n" + full + "\n")
    for args in (["--rules", "x", str(plain)], [str(headed)]):
        count = run_cli("count", "-q", "-j", "1", "--limit", "1000", "--backend", backend, *args)
        assert count.stdout.split() == [under_x], args
        solved = run_cli("solve", "-q", "-j", "1", "--backend", backend, "--output-format", "jsonl", *args)
        record = json.loads(solved.stdout)
        assert record["rules"] == "x" and Rules.classic(2, 2).with_named("x").is_valid(
            Puzzle.from_string(record["solution"]).cells
        )
    true = run_cli("solve", "-q", "-j", "1", "--true-candidates", "--rules", "x", "-p", "1" + "." * 15)
    assert true.stdout.splitlines()[0] == "# rules: x"
    (tmp_path / "true.txt").write_text(true.stdout)
    again = run_cli(
        "count", "-q", "-j", "1", "--limit", "1000", "--backend", backend, str(tmp_path / "true.txt")
    )
    direct = run_cli("count", "-q", "-j", "1", "--limit", "1000", "--rules", "x", "-p", "1" + "." * 15)
    assert again.stdout == direct.stdout


def test_a_pencilmark_line_of_a_size_no_puzzle_shares_is_named_as_one() -> None:
    """A 6x6 pencilmark line (216 symbols) was "not the length of a puzzle" to a command or backend that
    does not read pencilmarks, where 64 and 729 symbols said what they are and who reads them."""
    proc = run_cli("count", "-q", "-j", "1", "--backend", "dfs", "-p", "123456" * 36)
    assert proc.returncode == 1 and "216 symbols: a 6x6 pencilmark grid" in proc.stderr
    assert "--backend sat or cpsat" in proc.stderr


def test_the_pretty_candidate_grids_of_true_candidates_read_back(tmp_path) -> None:
    """docs/steps.md says the layout ``solve --true-candidates --output-format pretty`` writes is read back:
    its title line (``Puzzle 1 (line 1): multiple``) broke every reader."""
    several = "1" + "." * 15
    pretty = run_cli(
        "solve", "-q", "-j", "1", "--true-candidates", "--output-format", "pretty", "-p", several
    )
    assert pretty.stdout.startswith("Puzzle 1 (line 1): multiple\n")
    (tmp_path / "pretty.txt").write_text(pretty.stdout)
    again = run_cli(
        "count", "-q", "-j", "1", "--limit", "1000", "--backend", "sat", str(tmp_path / "pretty.txt")
    )
    direct = run_cli("count", "-q", "-j", "1", "--limit", "1000", "-p", several)
    assert again.returncode == direct.returncode and again.stdout == direct.stdout
