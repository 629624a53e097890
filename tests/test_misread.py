"""Input that can be read two ways is refused, never guessed: 16x16 in 0-F notation, two-layout lengths."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp import ParseError, Rules, parse
from sudoku_cp.samples import blanked, pattern_grid

HEX = "0123456789ABCDEF"


def hex_puzzle(seed: int = 3) -> str:
    """A 16x16 puzzle in 0-F notation (0 is a digit, . a blank), as many tools write it."""
    puzzle = blanked(pattern_grid(Rules.classic(4, 4), seed=seed), 0.5, seed=seed)
    text = "".join("." if d == 0 else HEX[d - 1] for d in puzzle.cells)
    assert "0" in text and "F" in text
    return text


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_16x16_line_with_0_and_f_and_no_g_is_refused_not_solved(tmp_path: Path, jobs: str) -> None:
    path = tmp_path / "hex.txt"
    path.write_text((hex_puzzle() + "\n") * 6)  # several chunks' worth through workers with -j 2
    proc = run_cli("solve", "-j", jobs, str(path))
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == ["error"] * 6
    assert proc.stderr.count("0-F notation") == 6 and "line 6, puzzle 6" in proc.stderr


def test_the_library_refuses_it_too_and_reads_1_to_g_puzzles_as_before() -> None:
    with pytest.raises(ParseError, match="0 and F but no G"):
        parse(hex_puzzle())
    ordinary = hex_puzzle().translate(str.maketrans(HEX, "123456789ABCDEFG"))
    assert parse(ordinary)[0].rules == Rules.classic(4, 4)
    with_blanks_as_zero = ordinary.replace(".", "0")  # 0 as a blank and a G: 1-9A-G, unambiguous
    assert parse(with_blanks_as_zero)[0].cells == parse(ordinary)[0].cells


def test_a_16x16_grid_block_in_0_f_is_refused() -> None:
    text = hex_puzzle()
    block = "\n".join(text[r * 16 : (r + 1) * 16] for r in range(16)) + "\n"
    proc = run_cli("solve", "-", stdin=block)
    assert proc.returncode == 1 and "0-F notation" in proc.stderr and "line 1" in proc.stderr


@pytest.mark.parametrize(("length", "marks", "box"), [(729, "9x9", "3x9"), (64, "4x4", "2x4")])
def test_a_length_of_two_layouts_is_refused_naming_both(length: int, marks: str, box: str) -> None:
    proc = run_cli("solve", "-", stdin="." * length + "\n")
    assert proc.returncode == 1
    assert f"a {marks} pencilmark grid" in proc.stderr and f"--box {box}" in proc.stderr
    assert proc.stdout == "error\n"


def test_box_chooses_the_puzzle_reading() -> None:
    proc = run_cli("solve", "--box", "2x4", "-", stdin="12345678" + "." * 56 + "\n")
    assert proc.returncode == 0, proc.stderr
    header, line = proc.stdout.splitlines()  # a line of 64 digits is said to be an 8x8 puzzle
    assert header == "# rules: 2x4" and len(line) == 64 and "." not in line
    assert run_cli("count", "-", stdin=proc.stdout).stdout.split() == ["1"]
