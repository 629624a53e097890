"""The grid model: shapes, units, peers, symbols and the puzzle value."""

from __future__ import annotations

import pytest

from sudoku_cp import InvalidPuzzleError, ParseError, Puzzle, Rules, is_solution
from sudoku_cp.grid import digit_of, symbol
from sudoku_cp.verify import solution_problems


def test_9x9_has_27_houses_and_20_peers_per_cell() -> None:
    rules = Rules.classic(3, 3)
    assert len(rules.houses) == 27
    assert all(len(unit) == 9 for unit in rules.houses)
    assert {len(p) for p in rules.peers} == {20}
    assert rules.peers[0][:8] == (1, 2, 3, 4, 5, 6, 7, 8)


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (2, 6), (4, 4), (5, 5)])
def test_every_unit_is_a_permutation_of_the_cells(rows: int, cols: int) -> None:
    rules = Rules.classic(rows, cols)
    n = rules.n
    assert len(rules.houses) == 3 * n
    for family in range(3):
        units = rules.houses[family * n : (family + 1) * n]
        assert sorted(c for unit in units for c in unit) == list(range(n * n))
    # peers: row + column + box, less the overlaps and the cell itself
    assert {len(p) for p in rules.peers} == {2 * (n - 1) + (rows - 1) * (cols - 1)}
    for cell in range(n * n):
        assert rules.region_of[cell] == rules.houses_of[cell][2] - 2 * n


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (4, Rules.classic(2, 2)),
        (6, Rules.classic(2, 3)),
        (9, Rules.classic(3, 3)),
        (12, Rules.classic(3, 4)),
        (16, Rules.classic(4, 4)),
        (25, Rules.classic(5, 5)),
    ],
)
def test_shape_from_n_is_the_most_square(n: int, expected: Rules) -> None:
    assert Rules.from_n(n) == expected
    assert Rules.parse(str(n)) == expected
    assert Rules.parse(str(expected)) == expected


@pytest.mark.parametrize("bad", ["7", "3x", "0x3", "x", "abc", "1", "axb", "3x3x3", "-3x3"])
def test_bad_shapes_are_value_errors(bad: str) -> None:
    with pytest.raises(ValueError, match=f"bad box shape '{bad}': ") as error:
        Rules.parse(bad)
    assert "int()" not in str(error.value)  # said in the user's words, not Python's


def test_symbols() -> None:
    assert [symbol(d) for d in (0, 1, 9, 10, 16, 25)] == [".", "1", "9", "A", "G", "P"]
    assert digit_of("g", 16) == 16 and digit_of("?", 16) == 0 and digit_of("0", 9) == 0
    with pytest.raises(ValueError, match="unknown symbol"):
        digit_of("A", 9)
    with pytest.raises(ValueError):
        digit_of("x", 9)


def test_puzzle_from_string_and_back() -> None:
    text = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    p = Puzzle.from_string(text)
    assert p.rules == Rules.classic(3, 3) and p.to_string() == text and str(p) == text
    assert len(p.givens) == 30 and p.givens[0] == (0, 5)
    assert Puzzle.from_rows(p.rows) == p


def test_puzzle_errors_name_the_problem() -> None:
    with pytest.raises(ParseError, match="80 symbols"):
        Puzzle.from_string("1" * 80)
    with pytest.raises(ParseError, match="unknown symbol"):
        Puzzle.from_string("x" + "." * 80)
    with pytest.raises(InvalidPuzzleError, match="r1c1 and r1c2"):
        Puzzle.from_string("55" + "." * 79).validate()


def test_conflicts_lists_each_clash() -> None:
    p = Puzzle.from_string("1.1.....1.......")
    clashes = p.conflicts()
    assert {(v.rule, v.cells) for v in clashes} == {("house", (0, 2)), ("house", (0, 8))}


def test_verifier_catches_each_kind_of_fault() -> None:
    puzzle = Puzzle.from_string("12343412214343..")
    good = Puzzle.from_string("1234341221434321")
    assert is_solution(puzzle, good)
    assert not is_solution(puzzle, puzzle)  # incomplete
    swapped = Puzzle.from_string("2134341221434321")  # breaks the given and the columns
    problems = solution_problems(puzzle, swapped)
    assert any("given" in p for p in problems) and any("house" in p for p in problems)
    assert not is_solution(puzzle, Puzzle.empty(Rules.classic(2, 3)))


def test_a_count_of_one_symbol_is_said_in_the_singular() -> None:
    with pytest.raises(ParseError, match=r"^1 symbol is not the length of any grid"):
        Puzzle.from_string("1")
    with pytest.raises(ParseError, match=r"^2 symbols is not the length of any grid"):
        Puzzle.from_string("12")
