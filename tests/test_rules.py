"""The ``Rules`` model: derived houses and peers, the one check of a grid, each rule on a valid and an
invalid grid, and every backend agreeing with that check on every rule."""

from __future__ import annotations

import pytest
from cases import assert_same_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle, is_solution
from sudoku_cp.backends import make_backend
from sudoku_cp.rules import NAMED, Arrow, Cage, Pair, Rules, Thermo, expand_names

NINE = Rules.classic(3, 3)
FOUR = Rules.classic(2, 2)
#: A 9x9 solution whose two diagonals also hold 1-9 (found by the sat backend, checked below).
X_SOLUTION = "218546793479138265536279148762415839143982576895763412654321987321897654987654321"
#: Two 4x4 solutions: the second has 3 4 (r1c1, r1c2), the third 1 3.
VALID_4 = "1234341221434321"
OTHER_4 = "3412123443212143"
APART_4 = "1324241331424231"


def cells_of(text: str) -> tuple[int, ...]:
    return tuple(int(ch) if ch != "." else 0 for ch in text)


def all_classic(rules: Rules) -> list[tuple[int, ...]]:
    """Every solution of the empty classic grid of ``rules``' size (288 for 4x4)."""
    found = make_backend("dfs").enumerate(Puzzle.empty(Rules.classic(*rules.box)), limit=10_000)
    assert found.complete
    return [s.cells for s in found.solutions]


FOUR_SOLUTIONS = all_classic(FOUR)


# --- the model -----------------------------------------------------------------------------------------


def test_the_fixtures_are_what_they_say() -> None:
    assert NINE.with_named("x").violations(cells_of(X_SOLUTION)) == []
    assert all(FOUR.violations(cells_of(g)) == [] for g in (VALID_4, OTHER_4, APART_4))


def test_classic_rules_are_one_value_of_the_model() -> None:
    assert NINE.is_classic and NINE == Rules.from_n(9) == Rules.parse("3x3")
    assert len(NINE.houses) == 27 and {len(p) for p in NINE.peers} == {20}
    assert {len(h) for h in NINE.houses_of} == {3}
    assert repr(NINE) == "Rules.classic(3, 3)" and str(NINE) == "3x3"


def test_named_rules_add_houses_and_peers_of_any_count() -> None:
    x = NINE.with_named("x")
    assert x.named == ("diagonal-", "diagonal+") and not x.is_classic
    assert len(x.houses) == 29
    assert len(x.houses_of[40]) == 5  # the centre is on both diagonals
    assert len(x.houses_of[1]) == 3
    knight = NINE.with_named("anti-knight")
    assert len(knight.peers[40]) == 20 + 8  # no knight move from the centre stays in a row, column or box
    king = NINE.with_named("anti-king")
    assert len(king.peers[40]) == 20  # the diagonal neighbours are in the centre box
    assert len(king.peers[2]) == 20 + 1  # r1c3 touches r2c4 across a box border
    windoku = NINE.with_named("windoku")
    assert len(windoku.houses) == 31 and windoku.houses[27] == (10, 11, 12, 19, 20, 21, 28, 29, 30)
    disjoint = NINE.with_named("disjoint")
    assert disjoint.houses[27] == (0, 3, 6, 27, 30, 33, 54, 57, 60)
    nc = FOUR.with_named("non-consecutive")
    assert len(nc.pairs) == 24 and all(p.negated and p.relation == "difference" for p in nc.pairs)


def test_rule_names_expand_and_unknown_ones_are_refused() -> None:
    assert expand_names("x, anti-knight") == ("anti-knight", "diagonal+", "diagonal-")
    assert expand_names(["antiking", "disjointgroups"]) == ("anti-king", "disjoint")
    with pytest.raises(ValueError, match=r"unknown rule 'sandwich'.*anti-knight"):
        expand_names("x,sandwich")


def test_rules_that_do_not_fit_the_grid_are_refused() -> None:
    with pytest.raises(ValueError, match="windoku needs square boxes"):
        Rules.classic(2, 3).with_named("windoku")
    assert Rules.jigsaw([[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]]) == FOUR  # boxes
    jigsaw = Rules.jigsaw([[0, 1, 2, 4], [3, 6, 7, 11], [5, 8, 9, 12], [10, 13, 14, 15]])
    assert jigsaw.box is None and jigsaw.kinds[0] == "jigsaw"
    with pytest.raises(ValueError, match="disjoint rule needs a grid of boxes"):
        jigsaw.with_named("disjoint")
    with pytest.raises(ValueError, match="regions of a 4x4 grid"):
        Rules.jigsaw([[0, 1, 2, 3], [0, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]])
    with pytest.raises(ValueError, match="outside the 4x4 grid"):
        FOUR.with_(cages=[Cage((15, 16), 3)])
    with pytest.raises(ValueError, match="names one cell twice"):
        FOUR.with_(thermos=[Thermo((0, 1, 0))])
    with pytest.raises(ValueError, match="not the boxes of 2x2"):
        Rules(4, ((0, 1, 2, 4), (3, 6, 7, 11), (5, 8, 9, 12), (10, 13, 14, 15)), box=(2, 2))
    with pytest.raises(ValueError, match="unknown rule 'sandwich'"):
        Rules(4, FOUR.regions, box=(2, 2), named=("sandwich",))


def test_a_jigsaw_equal_to_the_boxes_is_the_classic_value_and_others_are_not() -> None:
    regions = [[0, 1, 2, 4], [3, 6, 7, 11], [5, 8, 9, 12], [10, 13, 14, 15]]
    jigsaw = Rules.jigsaw(regions)
    assert jigsaw != FOUR and hash(jigsaw) != hash(FOUR)
    assert jigsaw.region_of[3] == 1 and not jigsaw.is_classic


# --- the one check of a grid: each rule on a valid and an invalid grid ----------------------------------

SOLVED_4 = cells_of("1234341221434321")


@pytest.mark.parametrize(
    ("rules", "valid", "invalid", "rule"),
    [
        (NINE.with_named("x"), X_SOLUTION, "123456789" * 9, "house"),
        (NINE.with_named("diagonal-"), X_SOLUTION, None, "house"),
        (FOUR.with_named("anti-king"), None, "1234341221434321", "anti-king"),
        (FOUR.with_named("non-consecutive"), None, "1234341221434321", "non-consecutive"),
        (FOUR.with_(cages=[Cage((0, 1), 3)]), VALID_4, OTHER_4, "killer cage"),
        (FOUR.with_(cages=[Cage((0, 4))]), "1234341221434321", None, "group"),
        (FOUR.with_(thermos=[Thermo((0, 1, 2, 3))]), VALID_4, OTHER_4, "thermometer"),
        (FOUR.with_(arrows=[Arrow((3,), (0, 4))]), VALID_4, OTHER_4, "arrow"),
        (
            FOUR.with_(dots=[Pair(0, 1, "ratio", 2, source="kropki black dot")]),
            VALID_4,
            APART_4,
            "kropki black dot",
        ),
        (
            FOUR.with_(dots=[Pair(0, 1, "difference", 1, source="kropki white dot")]),
            VALID_4,
            APART_4,
            "kropki white dot",
        ),
        (FOUR.with_(dots=[Pair(2, 3, "sum", 7, source="X")]), "1234341221434321", None, "X"),
        (FOUR.with_(dots=[Pair(0, 1, "sum", 5, source="V")]), None, "1234341221434321", "V"),
        (FOUR.with_(negative=("ratio",)), None, "1234341221434321", "negative kropki (black)"),
        (FOUR.with_(negative=("xv",)), None, "1234341221434321", "negative XV"),
    ],
)
def test_each_rule_on_a_valid_and_an_invalid_grid(
    rules: Rules, valid: str | None, invalid: str | None, rule: str
) -> None:
    if valid is not None:
        assert rules.violations(cells_of(valid)) == []
        assert is_solution(Puzzle(rules, (0,) * rules.ncells), Puzzle(rules, cells_of(valid)))
    if invalid is not None:
        broken = rules.violations(cells_of(invalid))
        assert broken and rule in {v.rule for v in broken}
        assert not is_solution(Puzzle(rules, (0,) * rules.ncells), Puzzle(rules, cells_of(invalid)))


def test_partial_grids_are_checked_for_what_their_filled_cells_break() -> None:
    thermo = FOUR.with_(thermos=[Thermo((0, 1, 2, 3))])
    assert thermo.is_valid(cells_of("1..4" + "." * 12))
    assert not thermo.is_valid(cells_of("2..4" + "." * 12))  # three steps up from 2 need 5
    cage = FOUR.with_(cages=[Cage((0, 1, 4), 6)])
    assert cage.is_valid(cells_of("1...2..." + "." * 8))
    assert not cage.is_valid(cells_of("4...2..." + "." * 8))  # 6 reached with a cell still empty
    arrow = FOUR.with_(arrows=[Arrow((0,), (1, 2))])
    assert arrow.is_valid(cells_of("3..." + "." * 12))
    assert not arrow.is_valid(cells_of("2.2." + "." * 12))  # the line's blank adds at least 1
    with pytest.raises(Exception, match="killer cage at r1c1 \\(sum 6\\) is broken"):
        Puzzle(cage, cells_of("4...2..." + "." * 8)).validate()


def test_a_white_dot_overrides_non_consecutive_on_its_pair_only() -> None:
    rules = FOUR.with_named("non-consecutive").with_(
        dots=[Pair(0, 1, "difference", 1, source="kropki white dot")]
    )
    sources = {(p.a, p.b): p.source for p in rules.pairs}
    assert sources[(0, 1)] == "kropki white dot" and sources[(1, 2)] == "non-consecutive"


def test_a_pill_reads_its_digits_as_a_number() -> None:
    pill = Arrow((0, 1), (2, 3, 4, 5, 6))
    assert pill.holds((1, 5, 3, 3, 3, 3, 3)) and not pill.holds((5, 1, 3, 3, 3, 3, 3))


# --- every backend agrees with the check, on every rule --------------------------------------------------

BACKENDS = ("dfs", "dfs:python", "sat", "cpsat", "cpsat:bool")


@st.composite
def four_by_four_rules(draw: st.DrawFn) -> Rules:
    """Random 4x4 rules, built around a random classic solution so that most have solutions."""
    solution = draw(st.sampled_from(FOUR_SOLUTIONS))
    names = draw(st.lists(st.sampled_from(["x", "diagonal+", "anti-king", "non-consecutive"]), max_size=1))
    rules = FOUR.with_named(names) if names else FOUR
    cells = list(range(16))
    parts: dict[str, list] = {"cages": [], "thermos": [], "arrows": [], "dots": []}
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["cage", "thermo", "arrow", "dot", "xv"]))
        picked = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=4, unique=True))
        digits = [solution[c] for c in picked]
        if kind == "cage" and len(set(digits)) == len(digits):
            total = sum(digits) + draw(st.sampled_from([0, 0, 1]))  # now and then a cage nothing fits
            parts["cages"].append(Cage(tuple(picked), total))
        elif kind == "thermo":
            parts["thermos"].append(Thermo(tuple(sorted(picked, key=lambda c: solution[c]))))
        elif kind == "arrow":
            circle, line = picked[0], tuple(picked[1:])
            parts["arrows"].append(Arrow((circle,), line))
        elif kind == "dot":
            a, b = picked[:2]
            relation = draw(st.sampled_from(["difference", "ratio"]))
            parts["dots"].append(Pair(a, b, relation, 1 if relation == "difference" else 2, source=relation))
        elif kind == "xv":
            a, b = picked[:2]
            parts["dots"].append(Pair(a, b, "sum", solution[a] + solution[b], source="xv"))
    negative = tuple(draw(st.lists(st.sampled_from(["difference", "ratio", "xv"]), max_size=1, unique=True)))
    try:
        return rules.with_(negative=negative, **{k: v for k, v in parts.items() if v})
    except ValueError:  # two dots on one pair of cells, and the like: plain rules then
        return rules


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=four_by_four_rules(), keep=st.integers(0, 4))
def test_every_backend_finds_exactly_the_grids_the_rules_allow(rules: Rules, keep: int) -> None:
    expected = {g for g in FOUR_SOLUTIONS if rules.is_valid(g)}
    givens = [0] * 16
    if expected and keep:
        first = min(expected)
        for cell in range(0, 16, 16 // keep):
            givens[cell] = first[cell]
        expected = {g for g in expected if all(d == 0 or g[c] == d for c, d in enumerate(givens))}
    puzzle = Puzzle(rules, tuple(givens))
    for spec in BACKENDS:
        found = make_backend(spec).enumerate(puzzle, limit=300)
        assert found.complete, spec
        assert {s.cells for s in found.solutions} == expected, (spec, str(rules))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=four_by_four_rules(), keep=st.integers(0, 3))
def test_both_dfs_engines_explore_the_same_tree_on_any_rules(rules: Rules, keep: int) -> None:
    givens = tuple(FOUR_SOLUTIONS[0][c] if keep and c % (5 - keep) == 0 else 0 for c in range(16))
    puzzle = Puzzle(rules, givens)
    assert_same_tree(puzzle, limit=50)


@pytest.mark.parametrize("names", [*NAMED, "x"])
def test_every_named_rule_counts_alike_on_every_backend_at_6x6_and_9x9(names: str) -> None:
    rules = (Rules.classic(3, 3) if names == "windoku" else Rules.classic(2, 3)).with_named(names)
    first = [d if i % 7 == 0 else 0 for i, d in enumerate(cells_of(X_SOLUTION))] if rules.n == 9 else None
    puzzle = Puzzle(rules, tuple(first)) if first else Puzzle.empty(rules)
    counts = set()
    for spec in ("sat", "cpsat", "dfs"):
        found = make_backend(spec).enumerate(puzzle, limit=25)
        counts.add((len(found.solutions), found.complete))
        assert all(rules.is_valid(s.cells) for s in found.solutions), spec
    assert len(counts) == 1, (names, counts)


def test_an_impossible_cage_has_no_solution_on_any_backend() -> None:
    rules = FOUR.with_(cages=[Cage((0, 1), 8)])  # two different digits of 1-4 never make 8
    for spec in BACKENDS:
        found = make_backend(spec).enumerate(Puzzle.empty(rules), limit=2)
        assert found.complete and not found.solutions, spec


def test_an_extra_region_larger_than_the_grid_side_is_kept_and_has_no_solution(tmp_path) -> None:
    """Its digits must all differ, which n digits cannot do for more than n cells: every backend and the
    prover say "no solution" (the region used to be dropped, and the puzzle called unique)."""
    from sudoku_cp.certify.checker import check_dir
    from sudoku_cp.certify.prover import write_folder
    from sudoku_cp.solving import solve

    rules = Rules.classic(2, 2).with_(extra_regions=[tuple(range(5))])
    puzzle = Puzzle(rules, (0,) * 16)  # no given clashes: 5 cells cannot take 4 digits once each
    assert tuple(range(5)) in rules.groups
    for backend in ("dfs", "dfs:python", "sat", "cpsat"):
        assert solve(puzzle, backend, unique=True).status.value == "no_solution", backend
    write_folder([puzzle], tmp_path)
    assert [message for _, message, _ in check_dir(tmp_path)] == ["1 verified none"]


def test_a_negative_rule_spares_only_the_marks_of_its_own_family() -> None:
    """Under negative XV a white dot's pair still may not add up to 5; under negative kropki a V's pair
    still may not be consecutive (a mark of the other family used to exempt its pair from both)."""
    grid = (2, 3) + (0,) * 79
    white = NINE.with_(dots=[Pair(0, 1, "difference", 1, source="kropki")], negative=["xv"])
    assert [v.rule for v in white.violations(grid)] == ["negative XV"]
    v = NINE.with_(dots=[Pair(0, 1, "sum", 5, source="xv")], negative=["difference"])
    assert [v.rule for v in v.violations(grid)] == ["negative kropki (white)"]
    both = NINE.with_(dots=[Pair(0, 1, "sum", 5, source="xv")], negative=["xv"])
    assert both.violations(grid) == []


def test_rules_that_cannot_be_raise_a_typed_error_naming_why() -> None:
    """A library user catches ``SudokuError`` (or ``ValueError``, as before) for rules that cannot be."""
    from sudoku_cp.errors import RulesError, SudokuError
    from sudoku_cp.rules import Cage, Thermo

    for make, why in [
        (lambda: Rules.classic(3, 3).with_named("xyz"), "unknown rule 'xyz'"),
        (lambda: Rules.classic(3, 3).with_(cages=[Cage((0, 100), 5)]), "names a cell outside the 9x9 grid"),
        (lambda: Rules.classic(3, 3).with_(thermos=[Thermo((0, 1, 0))]), "names one cell twice"),
        (lambda: Rules.classic(2, 5).with_named("windoku"), "windoku needs square boxes"),
    ]:
        with pytest.raises(RulesError, match=why) as caught:
            make()
        assert isinstance(caught.value, SudokuError) and isinstance(caught.value, ValueError)


def test_the_services_take_puzzles_or_their_text_and_name_anything_else() -> None:
    from sudoku_cp import count_solutions, is_solution, solve
    from sudoku_cp.errors import UsageError

    assert is_solution("12343412214343..", "1234341221434321")
    assert not is_solution(Puzzle.from_string("12343412214343.."), "1234341221434312")
    for wrong in (12345, None):
        with pytest.raises(TypeError, match=f"a puzzle is a Puzzle or its text, not {type(wrong).__name__}"):
            solve(wrong)  # type: ignore[arg-type]
    for limit in (-1, 0, float("nan")):
        with pytest.raises(UsageError, match="a time limit is a number of seconds above 0"):
            count_solutions("12343412214343..", time_limit=limit)


def test_parts_of_rules_that_cannot_be_are_named_when_made() -> None:
    """An empty cage, a cage total given as text, an unknown part or a box side given as text failed later,
    far from the cause (a drawing's ``min() arg is an empty sequence``, a search's bare TypeError)."""
    from sudoku_cp.errors import RulesError

    with pytest.raises(RulesError, match="a killer cage names no cell"):
        Rules.classic(3, 3).with_(cages=[Cage((), 3)])
    with pytest.raises(RulesError, match="a killer cage's total is a whole number or None, not '3'"):
        Cage((0, 1), "3")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"rules have no part 'bogus' .*cages, thermos"):
        Rules.classic(3, 3).with_(bogus=[])
    with pytest.raises(TypeError, match="a box's sides are whole numbers, not str"):
        Rules.classic("3", "3")  # type: ignore[arg-type]


def test_the_batch_services_refuse_one_puzzle_s_text_for_many() -> None:
    from sudoku_cp.batch import solve_many
    from sudoku_cp.batch.each import count_many, rate_many

    for service in (solve_many, count_many, rate_many):
        with pytest.raises(TypeError, match="one puzzle's text goes in a list"):
            list(service("12343412214343.."))  # it was 16 puzzles of one character, each an error
