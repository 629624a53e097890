"""The rating: puzzles that singles solve are rated lowest, the forum's hardest highest, and the levels rise
with the grades of a graded collection."""

from __future__ import annotations

import pytest
from conftest import shared

from sudoku_cp import Puzzle, Rules, generate, rate
from sudoku_cp.rate import LEVELS, TECHNIQUES, Rating, level_of


def solved_by_naked_singles(puzzle: Puzzle) -> bool:
    """An independent check: fill any cell whose peers leave one digit, until stuck or full."""
    cells = list(puzzle.cells)
    digits = set(range(1, puzzle.n + 1))
    progress = True
    while progress:
        progress = False
        for cell in range(len(cells)):
            if not cells[cell]:
                left = digits - {cells[p] for p in puzzle.rules.peers[cell]}
                if len(left) == 1:
                    cells[cell] = left.pop()
                    progress = True
    return all(cells)


def test_level_rule() -> None:
    assert level_of("naked_singles", 0, 0) == "easy"
    assert level_of("hidden_singles", 0, 3) == "medium"
    assert level_of("failed_literals", 3, 9) == "hard"
    assert level_of("failed_literals", 4, 0) == "expert"
    assert level_of("failed_literals", 1, 10) == "expert"
    assert level_of("failed_literals", 15, 0) == "extreme"
    assert level_of("search", 0, 0) == "extreme"


def test_singles_puzzles_are_rated_lowest() -> None:
    puzzles = [g.puzzle for g in generate(6, blanks="few", seed=1, rate=False)]
    puzzles += [Puzzle.from_string("12343412214343.."), Puzzle.from_string("1.3.3.1.2.4.4.2.")]
    puzzles = [p for p in puzzles if solved_by_naked_singles(p)]
    assert len(puzzles) >= 5
    for puzzle in puzzles:
        rating = rate(puzzle)
        assert (rating.level, rating.technique, rating.rank) == ("easy", "naked_singles", 0), puzzle
        assert rating.eliminations == 0 and rating.solutions == 1


@pytest.mark.data
def test_graded_singles_puzzles_are_rated_lowest() -> None:
    puzzles = shared("sudoku_exchange/easy_puzzle_and_solution.txt", sample=30, seed=3)
    singles = [p for p in puzzles if solved_by_naked_singles(p)]
    assert singles
    assert {rate(p).level for p in singles} == {"easy"}


@pytest.mark.data
def test_forum_hardest_puzzles_are_rated_highest() -> None:
    for puzzle in shared("forum_hardest_1106.txt", sample=12, seed=4):
        rating = rate(puzzle)
        assert rating.level == LEVELS[-1] == "extreme", puzzle
        assert rating.technique == "search"
        assert rating.backtracks > 0 and rating.conflicts > 0


@pytest.mark.data
def test_levels_rise_with_the_graded_collection() -> None:
    def mean_rank(grade: str) -> float:
        puzzles = shared(f"sudoku_exchange/{grade}_puzzle_and_solution.txt", sample=40, seed=5)
        return sum(rate(p).rank for p in puzzles) / len(puzzles)

    easy, medium, diabolical = mean_rank("easy"), mean_rank("medium"), mean_rank("diabolical")
    assert easy < medium < diabolical, (easy, medium, diabolical)


def test_puzzles_without_one_solution_get_no_level() -> None:
    several = rate("12..............")
    assert (several.level, several.technique, several.solutions, several.rank) == (None, None, 2, -1)
    # no clash among the givens, yet r1c4 has no digit left
    none = rate(Puzzle.from_string("123....4........"))
    assert none.level is None and none.solutions == 0


def test_ratings_of_other_shapes_and_their_fields() -> None:
    for item in generate(4, Rules.classic(2, 3), seed=2, rate=False):
        rating = rate(item.puzzle)
        assert rating.level in LEVELS and rating.technique in TECHNIQUES
    rating = rate(Puzzle.from_string("12343412214343.."))
    assert isinstance(rating, Rating)
    assert set(rating.to_dict()) == {
        "level",
        "technique",
        "solutions",
        "eliminations",
        "guesses",
        "backtracks",
        "conflicts",
    }


def test_failed_literals_solve_what_singles_cannot() -> None:
    # an expert puzzle of the generator: singles stall, failed literals finish it without search
    rating = rate("53....94......6..8.2...7.......1..3.6...9.18..4.73...5.6...........75..18..2.....")
    assert rating.technique == "failed_literals" and rating.eliminations == 4
    assert rating.level == "expert"
