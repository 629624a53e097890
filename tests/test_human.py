"""The human-style step engine: each technique on a hand-made grid with its exact finding, and soundness:
no step ever places or removes a digit against a solution (checked against the solvers)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest
from conftest import shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp.candidates import Candidates
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.human import FAMILIES, TECHNIQUES, Board, Step, family, next_step, nth_step, walk
from sudoku_cp.human.board import cells_of, house_name
from sudoku_cp.human.chains import aic, length_bonus, x_chain, xy_chain
from sudoku_cp.human.colouring import simple_colouring
from sudoku_cp.human.engine import apply
from sudoku_cp.human.fish import basic_fish, finned_fish
from sudoku_cp.human.intersections import (
    claiming,
    direct_claiming,
    direct_pointing,
    locked_candidates,
    pointing,
)
from sudoku_cp.human.singles import full_house, hidden_single_box, hidden_single_line, naked_single
from sudoku_cp.human.subsets import hidden_subset, naked_subset
from sudoku_cp.human.uniqueness import unique_rectangle, unique_rectangle_more
from sudoku_cp.human.wings import xy_wing, xyz_wing
from sudoku_cp.solving import true_candidates

CLASSIC = Rules.classic(3, 3)
EASY_CLASSIC = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
ALL = (1 << 9) - 1


def cell(name: str) -> int:
    """``r1c2`` -> 1."""
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def board_with(marks: dict[str, str] | None = None, remove: dict[str, str] | None = None) -> Board:
    """An empty 9x9 board with every candidate, except cells given their candidates (``marks``) and digits
    taken from cells (``remove``); names may be ranges like ``r1c3-9``."""
    masks = [ALL] * 81
    for spec, digits in (marks or {}).items():
        for c in _cells(spec):
            masks[c] = sum(1 << (int(d) - 1) for d in digits)
    for spec, digits in (remove or {}).items():
        for c in _cells(spec):
            for d in digits:
                masks[c] &= ~(1 << (int(d) - 1))
    return Board(Candidates(Puzzle(CLASSIC, (0,) * 81), tuple(masks)))


def _cells(spec: str) -> list[int]:
    row, col = spec[1:].split("c")
    rows = _span(row)
    cols = _span(col)
    return [(r - 1) * 9 + c - 1 for r in rows for c in cols]


def _span(text: str) -> list[int]:
    """``1-3,7`` -> [1, 2, 3, 7]."""
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def names(step: Step) -> tuple[list[str], list[str]]:
    return step.placement_names(), step.elimination_names()


def test_full_house_takes_the_missing_digit() -> None:
    board = Board.of(Puzzle.from_string("12345678." + "." * 72))
    step = full_house(board)
    assert step is not None and step.text == "Full house: r1c9=9 (last open cell of row 1)"
    assert step.difficulty == 1.0 and step.to_dict()["pattern"]["houses"] == ["row 1"]


def test_hidden_singles_in_a_box_before_a_line() -> None:
    board = board_with(remove={"r1c1-3": "7", "r2c1,3": "7", "r3c1-3": "7"})  # 7 only in r2c2 of box 1
    step = hidden_single_box(board)
    assert step is not None and names(step) == (["r2c2=7"], [])
    assert step.reason == "only place for 7 in box 1" and step.difficulty == 1.2
    board = board_with(remove={"r4c1-8": "3"})
    step = hidden_single_line(board)
    assert step is not None and step.text == "Hidden single: r4c9=3 (only place for 3 in row 4)"
    assert step.difficulty == 1.5


def test_naked_single() -> None:
    step = naked_single(board_with(marks={"r5c5": "4"}))
    assert step is not None and names(step) == (["r5c5=4"], []) and step.difficulty == 2.3


def test_pointing_and_claiming() -> None:
    step = pointing(board_with(remove={"r2-3c1-3": "5"}))
    assert step is not None and step.technique == "Pointing" and step.difficulty == 2.6
    assert names(step) == ([], [f"r1c{c}<>5" for c in range(4, 10)])
    assert step.reason == "the places of 5 in box 1 lie in row 1"
    step = claiming(board_with(remove={"r1c4-9": "5"}))
    assert step is not None and step.technique == "Claiming" and step.difficulty == 2.8
    assert names(step) == ([], [f"r{r}c{c}<>5" for r in (2, 3) for c in (1, 2, 3)])


def test_locked_candidates_on_a_diagonal_inside_one_box() -> None:
    rules = CLASSIC.with_named(["x"])
    masks = [ALL] * 81
    for i in range(3, 9):  # 6 leaves the diagonal outside box 1
        masks[i * 10] &= ~(1 << 5)
    board = Board(Candidates(Puzzle(rules, (0,) * 81), tuple(masks)))
    assert pointing(board) is None and claiming(board) is None
    step = locked_candidates(board)
    assert step is not None and step.technique == "Locked candidates"
    assert step.reason == "the places of 6 in the diagonal lie in box 1"
    assert names(step)[1] == [f"r{r}c{c}<>6" for r in (1, 2, 3) for c in (1, 2, 3) if r != c]


def test_direct_techniques_place_the_hidden_single_they_leave_as_sudoku_explainer_does() -> None:
    # box 1 holds 1 in row 1 only: it leaves r1c4-9, and box 2 keeps only r2c5
    board = board_with(remove={"r1c3": "1", "r2-3c1-3": "1", "r1c5-6": "1", "r2c4,6": "1", "r3c4-6": "1"})
    step = direct_pointing(board)
    assert step is not None and step.technique == "Direct pointing" and step.difficulty == 1.7
    assert names(step) == (["r2c5=1"], ["r1c4<>1", "r1c7<>1", "r1c8<>1", "r1c9<>1"])
    assert step.reason.endswith("so 1 has one place left in box 2")
    # row 1 holds 1 in box 1 only: it leaves the rest of box 1, and row 2 keeps only r2c7
    board = board_with(remove={"r1c3-9": "1", "r2c1-2,4-6,8-9": "1"})
    step = direct_claiming(board)
    assert step is not None and step.technique == "Direct claiming" and step.difficulty == 1.9
    assert names(step)[0] == ["r2c7=1"] and "r2c3<>1" in names(step)[1]
    # 1 and 2 only in r1c1 and r1c2: 3 leaves them, and keeps r1c5 alone in row 1
    board = board_with(marks={"r1c1-2": "123"}, remove={"r1c3-9": "12", "r1c3-4,6-9": "3"})
    step = hidden_subset(2, direct=True)(board)
    assert step is not None and step.technique == "Direct hidden pair" and step.difficulty == 2.0
    assert names(step) == (["r1c5=3"], ["r1c1<>3", "r1c2<>3"])
    # a pointing whose single would lie in a line is not direct (SE: another box only)
    board = board_with(remove={"r1c3": "1", "r2-3c1-3": "1", "r3-9c4": "1"})  # column 4 would keep r2c4
    assert pointing(board) is not None and direct_pointing(board) is None


def test_naked_and_hidden_pairs_triples_quads() -> None:
    step = naked_subset(2)(board_with(marks={"r1c1": "12", "r1c2": "12"}))
    assert step is not None and step.technique == "Naked pair" and step.difficulty == 3.0
    assert names(step)[1] == [f"r1c{c}<>{d}" for c in range(3, 10) for d in (1, 2)]
    step = naked_subset(3)(board_with(marks={"r2c1": "12", "r2c5": "23", "r2c9": "13"}))
    assert step is not None and step.technique == "Naked triple" and step.cells == (9, 13, 17)
    assert len(step.eliminations) == 6 * 3
    step = naked_subset(4)(board_with(marks={"r3c1": "12", "r3c2": "34", "r3c3": "13", "r3c4": "24"}))
    assert step is not None and step.technique == "Naked quad" and step.difficulty == 5.0
    step = hidden_subset(2)(board_with(remove={"r1c3-9": "12"}))
    assert step is not None and step.technique == "Hidden pair" and step.difficulty == 3.4
    assert names(step)[1] == [f"r1c{c}<>{d}" for c in (1, 2) for d in range(3, 10)]
    step = hidden_subset(3)(board_with(remove={"r1c4-9": "123"}))
    assert step is not None and step.technique == "Hidden triple" and step.digits == (1, 2, 3)
    step = hidden_subset(4)(board_with(remove={"r1c5-9": "1234"}))
    assert step is not None and step.technique == "Hidden quad" and len(step.eliminations) == 4 * 5


def test_fish_of_every_size() -> None:
    step = basic_fish(2)(board_with(remove={"r1c2-4,6-9": "1", "r5c2-4,6-9": "1"}))
    assert step is not None and step.technique == "X-wing" and step.difficulty == 3.2
    assert names(step)[1] == [f"r{r}c{c}<>1" for r in range(1, 10) if r not in (1, 5) for c in (1, 5)]
    board = board_with(remove={"r1c2-4,6-9": "2", "r5c1-4,6-8": "2", "r9c2-8": "2"})
    step = basic_fish(3)(board)
    assert step is not None and step.technique == "Swordfish" and step.difficulty == 3.8
    assert {c % 9 for c, _ in step.eliminations} == {0, 4, 8} and len(step.eliminations) == 18
    board = board_with(remove={f"r{r}c1,3,5,7,9": "3" for r in (1, 3, 5, 7)})
    step = basic_fish(4)(board)
    assert step is not None and step.technique == "Jellyfish" and len(step.eliminations) == 20


def test_finned_fish_eliminate_in_the_fins_box() -> None:
    board = board_with(remove={"r1c1,3-6,8-9": "1", "r5c1,3-6,9": "1"})  # r5c8: a fin in box 6
    assert basic_fish(2)(board) is None
    step = finned_fish(2)(board)
    assert step is not None and step.technique == "Finned X-wing" and step.difficulty == 6.6
    assert names(step) == ([], ["r4c7<>1", "r6c7<>1"])
    assert step.reason == "1 in row 1, row 5 lies in column 2, column 7 but for r5c8 in box 6"
    sashimi = finned_fish(2)(board_with(remove={"r1c1,3-6,8-9": "1", "r5c1-6,9": "1"}))  # r5: c7 and c8 only
    assert sashimi is not None and names(sashimi)[1] == ["r4c7<>1", "r6c7<>1"]
    # rows 1, 5 and 8 hold 1 in columns 2, 5 and 7 but for r8c8 (box 9)
    board = board_with(remove={"r1c1,3-4,6-9": "1", "r5c1-4,6,8-9": "1", "r8c1,3-6,9": "1"})
    assert basic_fish(3)(board) is None
    step = finned_fish(3)(board)
    assert step is not None and step.technique == "Finned swordfish" and step.difficulty == 6.8
    assert names(step)[1] == ["r7c7<>1", "r9c7<>1"]


def test_simple_colouring_wraps_and_traps() -> None:
    # conjugate pairs on 1: r1c1-r1c5 (row 1), r1c5-r5c5 (column 5), r5c5-r5c2 (row 5), r5c2-r2c2 (column 2):
    # r1c1, r5c5 and r2c2 share a colour, and r1c1 sees r2c2
    board = board_with(
        remove={"r1c2-4,6-9": "1", "r2-4,6-9c5": "1", "r5c1,3-4,6-9": "1", "r1,3-4,6-9c2": "1"}
    )
    step = simple_colouring(board)
    assert step is not None and step.technique == "Simple colouring"
    assert names(step) == ([], ["r1c1<>1", "r2c2<>1", "r5c5<>1"])
    assert step.reason.startswith("colour wrap on 1: r1c1 and r2c2 have one colour and see each other")
    assert len(step.links) == 4 and all(strong for *_, strong in step.links)
    # r1c1-r1c5, r1c5-r5c5, r5c5-r5c1: r1c1 and r5c1 differ in colour, so column 1's other cells lose 1
    board = board_with(remove={"r1c2-4,6-9": "1", "r2-4,6-9c5": "1", "r5c2-4,6-9": "1"})
    step = simple_colouring(board)
    assert step is not None and step.reason.startswith("colour trap on 1")
    assert names(step)[1] == [f"r{r}c1<>1" for r in (2, 3, 4, 6, 7, 8, 9)]
    assert simple_colouring(board_with()) is None


def test_xy_wing_and_xyz_wing() -> None:
    step = xy_wing(board_with(marks={"r1c1": "12", "r1c5": "13", "r5c1": "23"}))
    assert step is not None and step.technique == "XY-wing" and step.difficulty == 4.2
    assert names(step) == ([], ["r5c5<>3"]) and step.cells == (0, 4, 36)
    step = xyz_wing(board_with(marks={"r1c1": "123", "r1c5": "13", "r2c2": "23"}))
    assert step is not None and step.technique == "XYZ-wing" and step.difficulty == 4.4
    assert names(step) == ([], ["r1c2<>3", "r1c3<>3"])


def test_x_chain_and_xy_chain() -> None:
    board = board_with(remove={"r1c2-4,6-9": "1", "r4c1,3-4,6-9": "1"})
    step = x_chain(board)
    assert step is not None and step.technique == "Skyscraper" and step.difficulty == 6.5  # a named X-chain
    assert names(step)[1] == ["r2c2<>1", "r3c2<>1", "r5c1<>1", "r6c1<>1"]
    assert step.reason.startswith("an X-chain of 4 candidates: r1c1=1 or r4c2=1 is true")
    # the links alternate strong and weak from the chain's first node to its last, joined end to end
    assert step.links[0][2] and [strong for *_, strong in step.links] == [
        k % 2 == 0 for k in range(len(step.links))
    ]
    assert [b for _, b, _ in step.links[:-1]] == [a for a, _, _ in step.links[1:]]
    assert (
        step.link_names()[0].startswith("r1c1:1=") and step.to_dict()["pattern"]["links"] == step.link_names()
    )
    step = xy_chain(board_with(marks={"r1c1": "12", "r1c5": "23", "r5c5": "31"}))
    assert step is not None and step.technique == "XY-chain" and ("r5c1<>1") in names(step)[1]
    assert aic(board_with()) is None


def test_short_chains_carry_their_pattern_names_and_the_chains_rating() -> None:
    sky = x_chain(board_with(remove={"r1c2-3,5-9": "1", "r5c2-5,7-9": "1"}))
    assert sky is not None and sky.technique == "Skyscraper" and sky.difficulty == 6.5
    assert names(sky)[1] == ["r2c6<>1", "r3c6<>1", "r4c4<>1", "r6c4<>1"]
    assert [house_name(sky.rules, h) for h in sky.houses] == ["row 1", "row 5"]
    assert sky.reason.startswith("an X-chain of 4 candidates: ")
    kite = x_chain(board_with(remove={"r1c1,3-6,8-9": "1", "r2,4-7,9c1": "1"}))
    assert kite is not None and kite.technique == "Two-string kite" and names(kite)[1] == ["r8c7<>1"]
    turbot = x_chain(board_with(remove={"r1c2-3": "1", "r2c1-3": "1", "r3c1-2": "1", "r1-2,4-7,9c7": "1"}))
    assert turbot is not None and turbot.technique == "Turbot fish"
    assert names(turbot)[1] == ["r8c1<>1"]  # r1c7 sees both ends too, but holds no 1
    wing = aic(board_with(marks={"r1c1": "12", "r9c9": "12"}, remove={"r5c2-8": "2"}))
    assert wing is not None and wing.technique == "W-wing" and wing.difficulty == 7.0 + length_bonus(6)
    assert names(wing)[1] == ["r1c9<>1", "r9c1<>1"] and [house_name(wing.rules, h) for h in wing.houses] == [
        "row 5"
    ]
    pair = xy_chain(
        board_with(
            marks={"r1c1": "12", "r1c5": "12", "r4c5": "12", "r4c2": "12"},
            remove={"r1c2-4,6-9": "12", "r2-3,5-9c5": "12", "r4c1,3-4,6-9": "12"},
        )
    )
    assert pair is not None and pair.technique == "Remote pair" and len(pair.links) == 7
    assert names(pair)[1] == ["r2c2<>1", "r3c2<>1", "r5c1<>1", "r6c1<>1"]  # they see r1c1 and r4c2
    assert {"Skyscraper", "Two-string kite", "Turbot fish", "Remote pair", "W-wing"} <= FAMILIES["chains"]


def test_chain_length_adds_to_the_difficulty_as_sudoku_explainer_counts_it() -> None:
    nodes = (4, 6, 7, 8, 10, 11, 14, 18, 30)
    assert [length_bonus(k) for k in nodes] == [0, 0, 0.1, 0.1, 0.2, 0.3, 0.3, 0.4, 0.6]


def test_contradiction_and_forcing_nets_on_a_hard_puzzle() -> None:
    hard = Puzzle.from_string(
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    )  # Arto Inkala's 2012 puzzle
    w = walk(hard, explainer=False)  # sudoku-cp's own walk: Sudoku Explainer's needs nested chains here
    assert w.result == "solved" and w.rating.er >= 8.2
    assert {"Contradiction net", "Cell forcing net"} & {s.technique for s in w.steps}
    truth = true_candidates(hard, "dfs")
    assert truth is not None and "".join(map(str, w.board.values)) == "".join(
        str(m.bit_length()) for m in truth.masks
    )


def _rectangle_board(rules: Rules = CLASSIC) -> tuple[Board, tuple[int, int, int, int], int, int, int]:
    """EASY's solution as single candidates, but for a rectangle r1c1/r1cX/r2c1/r2cX over two boxes whose
    corners hold a, b, b, x: three corners get {a,b}, the fourth {a,b,x}; the one solution stays."""
    solution = walk(Puzzle.from_string(EASY_CLASSIC)).board.values
    masks = [1 << (d - 1) for d in solution]
    for c2 in range(3, 9):
        a, b, b2, x = solution[0], solution[c2], solution[9], solution[9 + c2]
        if b == b2 and x not in (a, b):
            break
    corners = (0, c2, 9, 9 + c2)
    for c in corners[:3]:
        masks[c] = 1 << (a - 1) | 1 << (b - 1)
    masks[corners[3]] = 1 << (a - 1) | 1 << (b - 1) | 1 << (x - 1)
    return Board(Candidates(Puzzle(rules, (0,) * 81), tuple(masks))), corners, a, b, x


def test_unique_rectangle_only_on_a_puzzle_of_one_solution_and_classic_rules() -> None:
    board, corners, a, b, _ = _rectangle_board()
    step = unique_rectangle(board)
    assert step is not None and step.technique == "Unique rectangle" and step.difficulty == 4.5
    assert sorted(step.eliminations) == sorted([(corners[3], a), (corners[3], b)])
    assert "checked by the SAT solver" in step.reason
    open_board = board_with(marks={"r1c1": "12", "r1c4": "12", "r2c1": "12", "r2c4": "123"})
    assert unique_rectangle(open_board) is None  # many solutions: the argument does not hold
    extra = CLASSIC.with_(extra_regions=[tuple(range(36, 45))])  # row 5 again: the solution keeps it
    extra_board, *_ = _rectangle_board(extra)
    assert extra_board.broken() is None
    assert unique_rectangle(extra_board) is None  # beyond rows, columns and boxes a swap may break a rule


def test_unique_rectangles_of_types_2_and_4() -> None:
    """From EASY's solution as single candidates: a floor r1c1/r1cX of {a, b} and a roof below it."""
    solution = walk(Puzzle.from_string(EASY_CLASSIC)).board.values
    bit = lambda *digits: sum(1 << (d - 1) for d in set(digits))  # noqa: E731 - a short local helper
    a = solution[0]
    # type 2: the roof r2c1 (b in the solution) and r2cX (x) both hold {a, b, x}; r2c5 gets x as well
    c2 = next(c for c in range(3, 9) if solution[9] == solution[c] and solution[9 + c] != a and c != 4)
    b, x = solution[c2], solution[9 + c2]
    masks = [1 << (d - 1) for d in solution]
    masks[0] = masks[c2] = bit(a, b)
    masks[9] = masks[9 + c2] = bit(a, b, x)
    masks[13] = bit(solution[13], x)
    board = Board(Candidates(Puzzle(CLASSIC, (0,) * 81), tuple(masks)))
    assert unique_rectangle(board) is None
    step = unique_rectangle_more(board)
    assert step is not None and step.technique == "Unique rectangle type 2" and step.difficulty == 4.6
    assert names(step) == ([], [f"r2c5<>{x}"]) and "checked by the SAT solver" in step.reason
    # type 4: a's only places in row 2 are the roof (a at r2cX in the solution): b leaves the roof
    c2 = next(c for c in range(3, 9) if solution[9 + c] == a)
    b, y = solution[c2], solution[9]
    masks = [1 << (d - 1) for d in solution]
    masks[0] = masks[c2] = bit(a, b)
    masks[9] = masks[9 + c2] = bit(a, b, y)
    board = Board(Candidates(Puzzle(CLASSIC, (0,) * 81), tuple(masks)))
    step = unique_rectangle_more(board)
    assert step is not None and step.technique == "Unique rectangle type 4"
    assert names(step) == ([], [f"r2c1<>{b}", f"r2c{c2 + 1}<>{b}"])
    assert [house_name(CLASSIC, h) for h in step.houses] == ["row 2"]
    assert (
        unique_rectangle_more(board_with(marks={"r1c1": "12", "r1c4": "12", "r2c1": "123", "r2c4": "123"}))
        is None
    )


def test_bug_plus_one() -> None:
    puzzle = Puzzle.from_string(
        ".76..94.....8.1..73.......961.3.7.8.....9.....2.1.8.345.......69..2.4.....16..79."
    )  # Sudoku Exchange, diabolical
    truth = true_candidates(puzzle, "dfs")
    assert truth is not None
    steps = assert_sound(puzzle, truth)
    assert {family(s.technique) for s in steps} <= set(FAMILIES)
    (bug,) = [s for s in steps if s.technique == "BUG+1"]
    assert (
        names(bug) == (["r3c5=6"], []) and bug.difficulty == 5.6 and "checked by the SAT solver" in bug.reason
    )


def test_a_walk_ends_solved_stuck_or_in_a_contradiction() -> None:
    w = walk(
        Puzzle.from_string(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        )
    )
    assert w.result in ("solved", "stuck") and all(s.difficulty >= 1.0 for s in w.steps)
    w = walk(Puzzle.from_string("11.............."))
    assert w.result == "contradiction" and w.steps == []
    w = walk(Puzzle.from_string("1..............."))
    assert w.result == "stuck"  # many solutions: no step holds in all of them


def test_the_kth_step_is_the_walks_kth_on_the_candidates_before_it() -> None:
    puzzle = Puzzle.from_string(EASY_CLASSIC)
    w = walk(puzzle)
    for k in (1, 2, len(w.steps) // 2, len(w.steps)):
        found = nth_step(puzzle, k)
        assert found.result == "step" and found.step == w.steps[k - 1]
        assert found.candidates == w.before(k) and found.givens == puzzle
    assert w.before(1) == Candidates.of(puzzle)
    beyond = nth_step(puzzle, len(w.steps) + 1)
    assert (beyond.result, beyond.step, beyond.why) == ("solved", None, f"after {len(w.steps)} steps")
    assert beyond.candidates is not None and all(beyond.candidates.puzzle.cells)
    assert nth_step(Puzzle.from_string("1..............."), 1).result == "stuck"
    assert nth_step(Puzzle.from_string("11.............."), 3).result == "contradiction"
    assert nth_step(Puzzle.from_string("1234" * 4), 1).result == "contradiction"  # full, but columns clash
    with pytest.raises(IndexError):
        w.before(len(w.steps) + 1)
    with pytest.raises(ValueError):
        nth_step(puzzle, 0)


def test_the_rating_reads_the_walk() -> None:
    w = walk(
        Puzzle.from_string(
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
        )
    )
    assert w.result == "solved"
    er = max(s.difficulty for s in w.steps)
    assert (w.rating.er, w.rating.ed) == (er, w.steps[0].difficulty) and str(w.rating).count("/") == 2


def assert_sound(start: Puzzle | Candidates, truth: Candidates) -> list[Step]:
    """Walk from ``start``; every placement must be the only digit and every elimination a digit that no
    solution has in that cell (``truth``: the true candidates)."""
    board = Board.of(start)
    steps = []
    while not board.solved and board.broken() is None:
        step = next_step(board)
        if step is None:
            break
        for c, d in step.placements:
            assert truth.masks[c] == 1 << (d - 1), step.text
        for c, d in step.eliminations:
            assert not truth.masks[c] >> (d - 1) & 1, step.text
        apply(board, step)
        steps.append(step)
    return steps


@pytest.mark.parametrize(
    "name, count",
    [
        ("top1465.txt", 40),
        ("sudoku_exchange/diabolical_puzzle_and_solution.txt", 30),
        ("forum_hardest_1106.txt", 3),
    ],
)
def test_every_step_holds_on_shared_puzzles(name: str, count: int) -> None:
    used = set()
    for puzzle in shared(name, limit=count):
        truth = true_candidates(puzzle, "dfs")
        assert truth is not None
        steps = assert_sound(puzzle, truth)
        used |= {s.technique for s in steps}
        assert sum(len(s.placements) for s in steps) == puzzle.cells.count(0)  # solved, without guessing
    assert all(family(t) in FAMILIES for t in used)  # every technique counts in a coverage table
    assert {"Hidden single", "Pointing", "Naked pair"} <= used


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_step_holds_on_random_small_puzzles_of_any_solution_count(data: st.DataObject) -> None:
    box = data.draw(st.sampled_from([(2, 2), (2, 3), (3, 2)]))
    rules = Rules.classic(*box)
    named = data.draw(st.sampled_from([(), ("x",), ("anti-king",)]))
    if named:
        rules = rules.with_named(list(named))
    solution = _a_solution(rules, data)
    if solution is None:
        return
    keep = data.draw(st.lists(st.booleans(), min_size=rules.ncells, max_size=rules.ncells))
    puzzle = Puzzle(rules, tuple(d if k else 0 for d, k in zip(solution, keep, strict=True)))
    truth = true_candidates(puzzle, "sat")
    assert truth is not None
    assert_sound(puzzle, truth)


def _a_solution(rules: Rules, data: st.DataObject) -> tuple[int, ...] | None:
    from sudoku_cp.solving import solve

    seed = data.draw(st.integers(0, rules.n - 1))
    cells = [0] * rules.ncells
    cells[0] = seed + 1
    found = solve(Puzzle(rules, tuple(cells)), "sat")
    return found.solution.cells if found.solution is not None else None


def test_every_technique_is_listed_easiest_first() -> None:
    board = board_with()
    assert all(t(board) is None for t in TECHNIQUES)  # nothing to find with every candidate open


def test_the_sudoku_explainer_comparison_reads_serate_lines_and_scores_them(tmp_path) -> None:
    """benchmarks/compare_se.py on a made-up reference: the engine's own ratings (rho 1, all within 0.2),
    then the same puzzles with ER shifted by 1 on one of them."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "compare_se.py"
    puzzles = [
        EASY_CLASSIC,
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    ]
    walks = [walk(Puzzle.from_string(p)).rating for p in puzzles]
    lines = [f"{p} ED={r.er}/{r.ep}/{r.ed}" for p, r in zip(puzzles, walks, strict=True)]
    same, off = tmp_path / "same.txt", tmp_path / "off.txt"
    same.write_text("\n".join(["# serate output", *lines]) + "\n")
    off.write_text(lines[0] + "\n" + lines[1].replace(f"ED={walks[1].er}", f"ED={walks[1].er + 1}") + "\n")
    proc = subprocess.run([sys.executable, str(script), str(same), str(off)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    rows = {line.split("|")[1].strip(): line.split("|")[2:-1] for line in proc.stdout.splitlines()[2:]}
    same_row = [c.strip() for c in rows["same.txt"]]
    assert same_row[:2] == ["2", "1.000"] and same_row[4:-1] == ["100%", "100%", "100%", "+0.0", "0%", "0%"]
    assert [c.strip() for c in rows["off.txt"]][4:-1] == ["50%", "50%", "50%", "-0.5", "50%", "0%"]
    assert float(same_row[-1]) >= 0  # CPU seconds a puzzle


def _first_finned_by_definition(board: Board, size: int) -> tuple | None:
    """The first finned fish as ``fish_compiled`` defines it, by brute force: the least digit, rows before
    columns, base lines, box, cover lines, such that the base lines (each holding the digit twice or
    more) have their places outside the box in the cover lines, each cover line crosses a place of the
    base lines, and there is a fin and something to eliminate. (digit, houses, eliminated cells)."""
    n, bits = board.n, board.geometry.house_bits
    union = lambda houses: sum(bits[h] for h in houses)  # noqa: E731 - houses of one orientation are disjoint
    for digit in range(1, n + 1):
        where = board.candidate_cells[digit - 1]
        for first in (0, n):
            lines = [h for h in range(first, first + n) if (where & bits[h]).bit_count() >= 2]
            crossing = range(n - first, 2 * n - first)
            for base in combinations(lines, size):
                body = where & union(base)
                for box in range(2 * n, 3 * n):
                    options = [h for h in crossing if body & bits[h]]
                    for covers in combinations(options, size):
                        cover = union(covers)
                        if body & ~bits[box] & ~cover:
                            continue
                        gone = where & cover & bits[box] & ~union(base)
                        if body & ~cover and gone:
                            return digit, (*base, *covers, box), cells_of(gone)
    return None


def _jigsaw_9x9() -> Rules:
    """The 9x9 boxes with r1c3 and r1c4, and r5c5 and r6c7, swapped between their boxes."""
    regions = [list(r) for r in CLASSIC.regions]
    for a, b in ((2, 3), (40, 51)):
        ra, rb = CLASSIC.region_of[a], CLASSIC.region_of[b]
        regions[ra][regions[ra].index(a)], regions[rb][regions[rb].index(b)] = b, a
    return Rules.jigsaw(regions)


def _sparse_board(data: st.DataObject, rules: Rules, low: int, high: int) -> Board:
    """A board of no digits whose cells hold each digit with one chance in 100 of ``low`` to ``high`` (a
    cell left with none holds 1)."""
    n, ncells = rules.n, rules.ncells
    keep = data.draw(st.lists(st.integers(0, 99), min_size=ncells * n, max_size=ncells * n))
    density = data.draw(st.integers(low, high))
    masks = [sum(1 << d for d in range(n) if keep[c * n + d] < density) or 1 for c in range(ncells)]
    return Board(Candidates(Puzzle(rules, (0,) * ncells), tuple(masks)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_finned_fish_find_the_first_fish_of_their_definition(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from([CLASSIC, _jigsaw_9x9(), Rules.classic(2, 3), Rules.classic(2, 2)]))
    size = data.draw(st.sampled_from([2, 3, 4] if rules.n > 4 else [2]))
    board = _sparse_board(data, rules, 15, 45)  # fish need lines with few places
    expected = _first_finned_by_definition(board, size)
    step = finned_fish(size)(board)
    if expected is None:
        assert step is None
        return
    assert step is not None
    digit, houses, gone = expected
    assert (step.digits, step.houses, [c for c, _ in step.eliminations]) == ((digit,), houses, list(gone))


def _shortest_chain_by_definition(board: Board, kind: str) -> tuple[int, int] | None:
    """(nodes, start node) of the shortest chain of ``kind`` as ``chains_compiled`` defines it, by a plain
    breadth-first search from every start: strong links (``x``: a digit's two places in a house; ``xy``:
    a bivalue cell's two candidates; ``aic``: both), weak links to nodes with a strong link, the first
    node reached by a strong link that is the start or sees what the start sees closes the chain; the
    fewest nodes (20 at most) win, then the lower start node (``cell * n + digit - 1``)."""
    rules, n = board.rules, board.n
    masks = [0 if v else m for m, v in zip(board.masks, board.values, strict=True)]
    node = lambda c, d: c * n + d - 1  # noqa: E731

    @cache
    def strong(c: int, d: int) -> list[tuple[int, int]]:
        out = []
        if kind != "x" and masks[c].bit_count() == 2:
            out.append((c, (masks[c] & ~(1 << (d - 1))).bit_length()))
        if kind != "xy":
            for house in rules.houses:
                places = [x for x in house if masks[x] >> (d - 1) & 1]
                if c in house and len(places) == 2:
                    out += [(x, d) for x in places if x != c]
        return out

    @cache
    def sees(c: int, d: int) -> set[tuple[int, int]]:
        out = {(p, d) for p in rules.peers[c] if masks[p] >> (d - 1) & 1}
        return out | (
            {(c, e) for e in range(1, n + 1) if e != d and masks[c] >> (e - 1) & 1} if kind != "x" else set()
        )

    starts = sorted(
        (
            (c, d)
            for c in range(rules.ncells)
            for d in range(1, n + 1)
            if masks[c] >> (d - 1) & 1 and strong(c, d)
        ),
        key=lambda cd: node(*cd),
    )
    best = None
    for start in starts:
        linked = [s for s in starts if kind != "x" or s[1] == start[1]]
        reached_off, reached_on, frontier = {start}, set(), [start]
        for size in range(1, 20):
            if size % 2:
                frontier = [y for x in frontier for y in strong(*x) if y not in reached_on]
                reached_on |= set(frontier)
                if start in frontier or any(sees(*y) & sees(*start) for y in frontier):
                    found = (size + 1, node(*start))
                    best = found if best is None else min(best, found)
                    break
            else:
                frontier = [y for x in frontier for y in sees(*x) if y in linked and y not in reached_off]
                reached_off |= set(frontier)
    return best


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_chains_are_the_shortest_of_their_definition_and_eliminate_what_sees_both_ends(
    data: st.DataObject,
) -> None:
    rules = data.draw(
        st.sampled_from(
            [
                CLASSIC,
                _jigsaw_9x9(),
                CLASSIC.with_named(["anti-knight"]),
                Rules.classic(2, 3).with_named(["x"]),
            ]
        )
    )
    kind, technique = data.draw(st.sampled_from([("x", x_chain), ("xy", xy_chain), ("aic", aic)]))
    board = _sparse_board(data, rules, 12, 40)  # chains need bivalue cells and houses
    expected = _shortest_chain_by_definition(board, kind)
    step = technique(board)
    assert (step is None) == (expected is None)
    if step is None:
        return
    nodes = [step.links[0][0]] + [b for _, b, _ in step.links]
    n = rules.n
    assert (len(nodes), nodes[0][0] * n + nodes[0][1] - 1) == expected
    first, last = nodes[0], nodes[-1]
    if step.placements:
        assert first == last and step.placements == (first,) and not step.eliminations
    else:
        both = {
            (c, d)
            for c in range(rules.ncells)
            for d in range(1, n + 1)
            if board.masks[c] >> (d - 1) & 1
            and (c, d) not in (first, last)
            and all(_sees(rules, (c, d), end, kind) for end in (first, last))
        }
        assert set(step.eliminations) == both


def _sees(rules: Rules, a: tuple[int, int], b: tuple[int, int], kind: str) -> bool:
    """Whether candidates ``a`` and ``b`` are weakly linked (an X-chain's: same digit only)."""
    (ca, da), (cb, db) = a, b
    if ca == cb:
        return da != db and kind != "x"
    return da == db and cb in rules.peers[ca]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_nets_propagation_reaches_the_sat_solvers_fixpoint(data: st.DataObject) -> None:
    """Where propagation meets no conflict, the literals it assigns are the fixpoint of the formula with
    the assumption, whatever the order: the same as python-sat's ``propagate`` on the same clauses."""
    from sudoku_cp.backends.grid_solver import empty_grid_clauses
    from sudoku_cp.backends.sat import new_solver
    from sudoku_cp.human.probe import Probe

    rules = data.draw(st.sampled_from([CLASSIC, CLASSIC.with_named(["anti-knight"]), Rules.classic(2, 3)]))
    board = _sparse_board(data, rules, 55, 95)
    n = rules.n
    clauses, _ = empty_grid_clauses(rules, "extended")
    solver = new_solver("glucose4", clauses, incremental=True)
    for cell, mask in enumerate(board.masks):
        for d in range(1, n + 1):
            if not mask >> (d - 1) & 1:
                solver.add_clause([-(cell * n + d)])
    probe = Probe(board)
    candidates = probe.update(board)
    try:
        for var in data.draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=20)):
            ok, assigned = probe.propagate([var])
            expected_ok, expected = solver.propagate(assumptions=[var])
            assert ok == expected_ok and probe.single(var) == (ok, len(assigned))
            if ok:
                assert sorted(assigned) == sorted(expected)
    finally:
        solver.delete()


def test_a_walk_says_which_rules_only_the_nets_read() -> None:
    """Lines and outside clues (and sums, orders, marks) are read by the forcing nets alone: the walk says
    so; houses and peers (a diagonal, anti-knight) are every technique's."""
    from sudoku_cp.formats.fpuzzles import from_fpuzzles
    from sudoku_cp.human.engine import nets_only

    grid = [[{} for _ in range(4)] for _ in range(4)]
    puzzle = from_fpuzzles(
        {"size": 4, "grid": grid, "diagonal+": True, "renban": [{"lines": [["R1C1", "R2C2"]]}]}
    )
    assert nets_only(puzzle.rules) == ("renban",)
    w = walk(puzzle)
    assert w.note.startswith("renban: read by the forcing nets alone") and w.to_dict()["note"] == w.note
    assert walk(Puzzle.from_string("12343412214343..")).note == ""


def test_the_kinds_every_technique_reads_are_the_house_and_peer_rules() -> None:
    """``Rules.house_kinds``: boxes, the named rules that are houses or cells that must differ, and the
    kinds that say so (extra regions); non-consecutive (a relation, not a difference) and lines are not."""
    from sudoku_cp.human.engine import nets_only
    from sudoku_cp.rules import Rules
    from sudoku_cp.rules.kinds import BY_KEY

    rules = Rules.classic(3, 3).with_named("anti-knight,non-consecutive,x")
    rules = rules.with_(extra_regions=[(0, 10, 20)], variants=[BY_KEY["renban"]((30, 31))])
    assert rules.house_kinds == ("boxes", "diagonal-", "diagonal+", "anti-knight", "extra region")
    assert nets_only(rules) == ("non-consecutive", "renban")


def test_uniqueness_is_asked_within_a_conflict_budget_and_unknown_counts_as_not_unique(monkeypatch) -> None:
    """The nested nets and uniqueness techniques ask once whether the puzzle has one solution; the solver
    gets ``UNIQUE_CONFLICTS`` conflicts (a published little killer puzzle without solution kept it busy for
    minutes; conflicts, not seconds, so that the walk is the same under any load), and an answer it did
    not finish is no uniqueness."""
    from sudoku_cp.backends.sat import SatBackend
    from sudoku_cp.human import probe
    from sudoku_cp.result import Enumeration

    asked: list[tuple[float | None, int | None]] = []

    class Stalled(SatBackend):
        def enumerate_candidates(self, candidates, limit=1, time_limit=None, conflicts=None):  # type: ignore[no-untyped-def]
            asked.append((time_limit, conflicts))
            found = super().enumerate_candidates(candidates, limit, time_limit, conflicts)
            return Enumeration(found.solutions, complete=False, timed_out=True)

    puzzle = Puzzle.from_string(EASY_CLASSIC)
    assert probe.unique_board(Board.of(puzzle))
    monkeypatch.setattr(probe, "_uniqueness_backend", Stalled)
    assert not probe.unique_board(Board.of(puzzle)) and asked == [(None, probe.UNIQUE_CONFLICTS)]


@pytest.mark.parametrize("which", ["hard classic", "6x6 killer"])
def test_the_nested_nets_compiled_count_what_their_reference_counts(which: str) -> None:
    """A contradiction net nested once (``forcing._fails`` at level 1) runs compiled and incremental: for
    every candidate tried, the same verdict and size as the Python loop that propagates each trial from the
    facts, on states of a walk of a hard classic puzzle and of a 6x6 killer."""
    from sudoku_cp.human import forcing
    from sudoku_cp.human.probe import probe_of
    from sudoku_cp.rules import Cage

    if which == "hard classic":
        puzzle = Puzzle.from_string(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
        )
        stride = 5
    else:
        cages = [Cage((0, 1), 3), Cage((2, 3, 9), 12), Cage((12, 18, 24), 6), Cage((28, 29), 11)]
        puzzle = Puzzle(Rules.classic(2, 3).with_(cages=cages), (0,) * 36)
        stride = 1
    board = Board.of(puzzle)
    tried = failed = 0
    for _ in range(3):
        probe = probe_of(board)
        candidates = probe.update(board)
        for var in candidates[::stride]:
            expected = forcing._fails(probe, [var], 1, candidates, compiled=False)
            assert forcing._fails(probe, [var], 1, candidates) == expected, var
            tried += 1
            failed += expected > 0
        step = next_step(board, TECHNIQUES)
        if step is None:
            break
        apply(board, step)
    assert tried > 40 and failed > 3, (tried, failed)


#: One of the forum's hardest (ER 11.8): its walk takes seconds for each of its first steps' chains.
HARDEST = "6.......2.9.4...5...1...7...5..84.......2.......3.5.4.2.....6...3...9.8...7.....1"


def test_a_time_limit_cuts_a_walk_short_with_the_steps_found_by_then() -> None:
    """A walk past its time limit ends ``unknown`` within a fraction of a second (the engine checks the
    deadline between its propagations), with steps that begin the same walk as a longer limit's."""
    import time

    from sudoku_cp.human.engine import UNKNOWN

    puzzle = Puzzle.from_string(HARDEST)
    # every kernel the timed walk can reach loaded first (a first load, or a compile after a rebuild, holds
    # the deadline, as documented): what follows times the walk alone
    walk(puzzle, time_limit=1.5)
    started = time.perf_counter()
    short = walk(puzzle, time_limit=0.5)
    elapsed = time.perf_counter() - started
    longer = walk(puzzle, time_limit=1.5)
    assert short.result == longer.result == UNKNOWN and elapsed < 0.5 + 1.0
    assert short.why.startswith("the time limit (0.5 s) was reached")
    assert [s.text for s in short.steps] == [s.text for s in longer.steps[: len(short.steps)]]
    assert short.rating is None and short.to_dict()["rating"] is None and short.to_dict()["se"] is None
    board = Board.of(puzzle)
    for step in short.steps:
        apply(board, step)
    assert short.board.candidates() == board.candidates()


def _six_killer() -> Puzzle:
    """An empty 6x6 grid with four killer cages: sudoku-cp's own walk, not SE's."""
    from sudoku_cp.rules import Cage

    cages = [Cage((0, 1), 3), Cage((2, 3, 9), 12), Cage((12, 18, 24), 6), Cage((28, 29), 11)]
    return Puzzle(Rules.classic(2, 3).with_(cages=cages), (0,) * 36)


def test_a_time_limit_cuts_the_variant_walk_and_the_hint_short_too() -> None:
    """sudoku-cp's own walk (a variant: a 6x6 killer) and a hint stop at their deadline as SE's walk does;
    with time to spare they are the walk and hint without a limit."""
    from sudoku_cp.human import hint

    killer = _six_killer()
    assert walk(killer, time_limit=1e-9).result == "unknown"
    assert walk(killer, time_limit=1e-9).why == "the time limit (1e-09 s) was reached before the first step"
    assert hint(Puzzle.from_string(HARDEST), time_limit=1e-9).result == "unknown"
    whole, limited = walk(killer), walk(killer, time_limit=600)
    assert [s.text for s in limited.steps] == [s.text for s in whole.steps] and limited.result == whole.result
    assert hint(killer, time_limit=600) == hint(killer)


def test_a_rating_past_its_time_limit_is_unknown() -> None:
    from sudoku_cp.rate import rate

    cut = rate(HARDEST, time_limit=0.5)
    assert cut.timed_out and cut.level is None and cut.er is None and cut.to_dict()["timed_out"] is True
    easy = rate(EASY_CLASSIC, time_limit=600)
    assert not easy.timed_out and easy.level == "easy" and "timed_out" not in easy.to_dict()


def test_the_walk_takes_a_puzzle_s_text_and_names_a_time_limit_that_is_none() -> None:
    """``walk``, ``hint``, ``nth_step`` and ``rate`` take text as ``solve`` does, and refuse a time limit
    of 0, a negative one, NaN or text (0 and -1 ended the walk at once, NaN never; "2" a bare TypeError)."""
    from sudoku_cp.errors import UsageError
    from sudoku_cp.human import hint
    from sudoku_cp.rate import rate

    text = "12343412214343.."
    assert (
        walk(text).result == "solved" and hint(text).result == "step" and nth_step(text, 2).result == "step"
    )
    for wrong in (0, -1, float("nan")):
        for call in (
            lambda t: walk(text, time_limit=t),
            lambda t: hint(text, time_limit=t),
            lambda t: rate(text, time_limit=t),
        ):
            with pytest.raises(UsageError, match="a time limit is a number of seconds above 0"):
                call(wrong)
    with pytest.raises(TypeError, match="a time limit is a number of seconds, not str"):
        walk(text, time_limit="2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a step's number is a whole number, not float"):
        nth_step(text, 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a puzzle is a Puzzle or its text, not NoneType"):
        rate(None)  # type: ignore[arg-type]


#: Classic puzzles whose own walks (``explainer=False``) take cell and region forcing nets.
FORCING_NET_PUZZLES = (
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    "..9..5..32..6...5.6....37........9.6...28....1...6..7..4......2..5......8..3..61.",
    "58........4...52.8...9.2...9....3.65...49..2.....5...1...36.....54...7..6........",
)


def test_forcing_nets_searched_in_slices_find_what_one_search_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The forcing nets' compiled search stops once its work is spent, so that a time limit and Ctrl-C are
    heard between its calls (one call took 3.5 s on a pill over most of the grid), and the next call goes
    on from what the state keeps: with room for one propagation a call, every walk is the same."""
    from sudoku_cp.human import probe

    whole = [walk(text, explainer=False) for text in FORCING_NET_PUZZLES]
    nets = {"Cell forcing net", "Region forcing net"}
    assert all(nets <= {s.technique for s in w.steps} for w in whole)
    monkeypatch.setattr(probe, "FORCING_WORK", 1)
    sliced = [walk(text, explainer=False) for text in FORCING_NET_PUZZLES]
    assert [[s.text for s in w.steps] for w in sliced] == [[s.text for s in w.steps] for w in whole]


def test_a_passed_time_limit_stops_the_clauses_of_a_long_sum() -> None:
    """A pill read as a number and equal to the sum of all the other cells of the grid is a sum of 81
    terms, whose clauses take about a second to write: a time limit that has passed stops them between
    the sum's terms (the walk that asked for them reports the puzzle unknown), not after them (1.2 s)."""
    import json
    import time

    from pysat.formula import IDPool

    from sudoku_cp import deadline, parse
    from sudoku_cp.encode.rules_cnf import rule_families

    name = lambda c: f"R{c // 9 + 1}C{c % 9 + 1}"  # noqa: E731
    snake = [r * 9 + (c if r % 2 == 0 else 8 - c) for r in range(9) for c in range(9)]
    pill = {"cells": [name(0), name(1), name(2)], "lines": [[name(2), *map(name, snake[3:])]]}
    [puzzle] = parse(json.dumps({"size": 9, "grid": [[{}] * 9] * 9, "arrow": [pill]}))
    started = time.perf_counter()
    with deadline.within(0.05), pytest.raises(TimeoutError):
        dict(rule_families(puzzle.rules, None, IDPool(start_from=10**4)))
    assert time.perf_counter() - started < 0.5
