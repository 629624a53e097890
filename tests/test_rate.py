"""The rating: one vocabulary, the level is the band of Sudoku Explainer's ER that the walk of ``steps``
gives; puzzles that singles solve are rated lowest, the forum's hardest highest, and the levels rise with the
grades of a graded collection."""

from __future__ import annotations

import pytest
from conftest import shared

from sudoku_cp import Puzzle, Rules, generate, rate
from sudoku_cp.human import walk
from sudoku_cp.rate import BANDS, LEVELS, SEARCH, Rating, level_of


def solved_by_hidden_singles(puzzle: Puzzle) -> bool:
    """An independent check: place any digit that has one place left in a house, until stuck or full."""
    cells = list(puzzle.cells)
    rules = puzzle.rules
    progress = True
    while progress:
        progress = False
        for house in rules.houses:
            for digit in range(1, puzzle.n + 1):
                if digit in (cells[c] for c in house):
                    continue
                places = [
                    c for c in house if not cells[c] and digit not in {cells[p] for p in rules.peers[c]}
                ]
                if len(places) == 1:
                    cells[places[0]] = digit
                    progress = True
    return all(cells)


def test_levels_are_bands_of_er() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert", "extreme") and BANDS == (2.0, 3.4, 5.0, 7.0)
    for er, level in [(1.0, "easy"), (1.5, "easy"), (2.0, "easy"), (2.3, "medium"), (2.6, "medium"),
                      (3.4, "medium"), (3.6, "hard"), (4.2, "hard"), (5.0, "hard"), (5.2, "expert"),
                      (7.0, "expert"), (7.1, "extreme"), (11.9, "extreme"), (None, "extreme")]:  # fmt: skip
        assert level_of(er) == level, er
    assert level_of(2.0000000001) == "easy"  # ER is read to one decimal, as SE prints it


def test_the_level_is_the_band_of_the_walks_er() -> None:
    # the puzzle: singles and locked candidates solve it, SE rates it 2.6/1.2/1.2
    rating = rate("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    assert (rating.level, rating.se, rating.technique) == ("medium", "2.6/1.2/1.2", "Pointing")
    for item in generate(6, seed=11, rate=False):
        rating, done = rate(item.puzzle), walk(item.puzzle)
        assert (rating.er, rating.ep, rating.ed) == (done.rating.er, done.rating.ep, done.rating.ed)
        assert rating.level == level_of(done.rating.er)
        hardest = [s.technique for s in done.steps if s.difficulty == rating.er]
        assert rating.technique == hardest[0]


def test_hidden_singles_puzzles_are_rated_easy() -> None:
    puzzles = [g.puzzle for g in generate(6, blanks="few", seed=1, rate=False)]
    puzzles += [Puzzle.from_string("12343412214343.."), Puzzle.from_string("1.3.3.1.2.4.4.2.")]
    puzzles = [p for p in puzzles if solved_by_hidden_singles(p)]
    assert len(puzzles) >= 5
    for puzzle in puzzles:
        rating = rate(puzzle)
        assert rating.level == "easy" and rating.rank == 0 and rating.solutions == 1, puzzle
        assert rating.er is not None and rating.er <= 1.5


@pytest.mark.data
def test_graded_easy_puzzles_are_rated_lowest() -> None:
    puzzles = shared("sudoku_exchange/easy_puzzle_and_solution.txt", sample=30, seed=3)
    singles = [p for p in puzzles if solved_by_hidden_singles(p)]
    assert singles
    assert {rate(p).level for p in singles} == {"easy"}


def test_puzzles_that_need_forcing_chains_are_rated_extreme() -> None:
    # a top1465 puzzle: Sudoku Explainer's serate 1.2.1.3 rates it 8.5/1.2/1.2 (multiple forcing chains)
    rating = rate("58........4...52.8...9.2...9....3.65...49..2.....5...1...36.....54...7..6........")
    assert (rating.level, rating.se) == (LEVELS[-1], "8.5/1.2/1.2") and rating.technique != SEARCH
    assert rating.technique is not None and rating.technique.endswith("forcing chains")
    assert rating.backtracks > 0 and rating.conflicts > 0


@pytest.mark.data
def test_levels_rise_with_the_graded_collection() -> None:
    def mean_rank(grade: str) -> float:
        puzzles = shared(f"sudoku_exchange/{grade}_puzzle_and_solution.txt", sample=10, seed=5)
        return sum(rate(p).rank for p in puzzles) / len(puzzles)

    easy, medium, diabolical = mean_rank("easy"), mean_rank("medium"), mean_rank("diabolical")
    assert easy < medium < diabolical, (easy, medium, diabolical)


def test_puzzles_without_one_solution_get_no_level() -> None:
    several = rate("12..............")
    assert (several.level, several.er, several.technique, several.solutions, several.rank) == (
        None, None, None, 2, -1)  # fmt: skip
    assert several.se is None
    # no clash among the givens, yet r1c4 has no digit left
    none = rate(Puzzle.from_string("123....4........"))
    assert none.level is None and none.solutions == 0


def test_ratings_of_other_shapes_and_their_fields() -> None:
    for item in generate(4, Rules.classic(2, 3), seed=2, rate=False):
        rating = rate(item.puzzle)
        assert rating.level in LEVELS and rating.er is not None and rating.technique
    rating = rate(Puzzle.from_string("12343412214343.."))
    assert isinstance(rating, Rating) and rating.se == "1.0/1.0/1.0"
    assert set(rating.to_dict()) == {
        "level", "er", "ep", "ed", "technique", "solutions", "guesses", "backtracks", "conflicts"
    }  # fmt: skip
    full = rate("1234341221434321")  # a full grid takes no step
    assert (full.level, full.er, full.technique) == ("easy", 0.0, None)


def test_variant_puzzles_are_rated_by_the_same_walk() -> None:
    # an X-sudoku: the diagonals are houses the techniques read
    for item in generate(2, Rules.classic(3, 3).with_named("x"), seed=4, rate=False):
        rating, done = rate(item.puzzle), walk(item.puzzle)
        assert done.result == "solved" and rating.er == done.rating.er and rating.level == level_of(rating.er)
