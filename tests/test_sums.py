"""Sums as one primitive (``rules.sums``): the digit sets of a cage, the exact and the bounds reasoning of a
weighted sum against brute force, and every backend against the classic engine filtered by the rules'
own check on 6x6 grids with pills, long arrows and long cages."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from cases import assert_same_tree
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle
from sudoku_cp.backends import make_backend
from sudoku_cp.rules import Arrow, Cage, Pair, Rules
from sudoku_cp.rules.sums import MAX_SETS, LinearSum, digit_sets

SIX = Rules.classic(2, 3)
BACKENDS = ("dfs", "dfs:python", "sat", "cpsat", "cpsat:bool")


@pytest.mark.parametrize("n", [4, 6, 9])
def test_digit_sets_are_every_set_of_distinct_digits_with_the_total(n: int) -> None:
    for size in range(n + 2):
        for total in range(n * n + 2):
            expected = tuple(c for c in itertools.combinations(range(1, n + 1), size) if sum(c) == total)
            assert digit_sets(size, total, n) == expected, (size, total)


def test_a_cage_with_too_many_digit_sets_has_none_and_is_a_sum() -> None:
    assert digit_sets(12, 156, 25) is None  # hundreds of thousands of sets
    assert len(digit_sets(8, 68, 16) or ()) <= MAX_SETS


def _supports(form: LinearSum, masks: list[int]) -> list[int] | None:
    """The digits of each term that take part in some assignment keeping the sum, by enumeration."""
    options = [[d for d in range(1, 64) if mask >> (d - 1) & 1] for mask in masks]
    keep = [0] * len(masks)
    for digits in itertools.product(*options):
        if form.holds(digits):
            for i, d in enumerate(digits):
                keep[i] |= 1 << (d - 1)
    return keep if any(keep) else None


@st.composite
def sums(draw: st.DrawFn) -> tuple[LinearSum, list[int], int]:
    n = draw(st.sampled_from([4, 6, 9]))
    m = draw(st.integers(1, 5))
    weights = draw(st.lists(st.sampled_from([1, 1, -1, -1, 2, -3, 10, 100]), min_size=m, max_size=m))
    masks = draw(st.lists(st.integers(1, (1 << n) - 1), min_size=m, max_size=m))
    least = sum(min(w, w * n) for w in weights)
    most = sum(max(w, w * n) for w in weights)
    total = draw(st.integers(least - 2, most + 2))
    return LinearSum.of(range(m), weights, total, n), masks, n


@settings(max_examples=400, deadline=None)
@given(case=sums())
def test_the_exact_reasoning_keeps_exactly_the_digits_of_some_assignment(case) -> None:
    form, masks, _ = case
    assert form.exact
    assert form.narrow(masks) == _supports(form, masks)


@settings(max_examples=300, deadline=None)
@given(case=sums())
def test_the_bounds_reasoning_keeps_every_digit_of_some_assignment(case) -> None:
    form, masks, _ = case
    bounds = LinearSum(form.cells, form.coefficients, form.total, exact=False)
    exact = _supports(form, masks)
    kept = bounds.narrow(masks)
    if exact is None:
        return  # bounds may or may not see it
    assert kept is not None
    for keep, mask, needed in zip(kept, masks, exact, strict=True):
        assert keep & ~mask == 0 and needed & ~keep == 0


def test_a_long_sum_on_a_large_grid_is_reasoned_on_bounds() -> None:
    line = tuple(range(3, 203))
    form = LinearSum.of(*Arrow((0, 1, 2), line).linear(), 36)
    assert not form.exact
    assert LinearSum.of(*Arrow((0,), (1, 2, 3, 4, 5, 6, 7, 8)).linear(), 9).exact


# --- every backend on 6x6 grids with long sums ---------------------------------------------------------

_CLASSIC_SIX = [
    s.cells for s in make_backend("dfs").enumerate(Puzzle.empty(SIX), limit=30, time_limit=None).solutions
]


def _six_case(seed: int) -> tuple[Rules, tuple[int, ...]]:
    """Random sums built around a 6x6 solution (so most cases have solutions), with some of its digits
    given: pills (two-cell circles) with long lines, long cages, plain arrows."""
    rng = random.Random(seed)
    solution = rng.choice(_CLASSIC_SIX)
    cells = list(range(36))
    arrows, cages = [], []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["pill", "arrow", "cage"])
        rng.shuffle(cells)
        if kind in ("pill", "arrow"):
            circle = tuple(cells[:2]) if kind == "pill" else (cells[0],)
            value = int("".join(str(solution[c]) for c in circle))
            line, total = [], 0
            for c in cells[len(circle) :]:
                if total + solution[c] <= value:
                    line.append(c)
                    total += solution[c]
            if total == value:
                arrows.append(Arrow(circle, tuple(line)))
        else:
            picked, seen = [], set()
            for c in cells:
                if solution[c] not in seen and len(picked) < rng.randint(2, 6):
                    picked.append(c)
                    seen.add(solution[c])
            cages.append(Cage(tuple(picked), sum(solution[c] for c in picked) + rng.choice([0, 0, 0, 1])))
    try:
        rules = SIX.with_(arrows=arrows, cages=cages)
    except ValueError:  # two constraints on one cell twice, and the like
        rules = SIX.with_(cages=cages[:1]) if cages else SIX
    keep = rng.randint(8, 16)
    givens = [0] * 36
    for c in rng.sample(range(36), keep):
        givens[c] = solution[c]
    return rules, tuple(givens)


@pytest.mark.parametrize("seed", range(24))
def test_every_backend_finds_exactly_the_grids_the_sums_allow_on_6x6(seed: int) -> None:
    rules, givens = _six_case(seed)
    classic = make_backend("dfs").enumerate(Puzzle(SIX, givens), limit=20_000)
    assert classic.complete
    expected = {s.cells for s in classic.solutions if rules.is_valid(s.cells)}
    for spec in BACKENDS:
        found = make_backend(spec).enumerate(Puzzle(rules, givens), limit=len(expected) + 1)
        assert found.complete, spec
        assert {s.cells for s in found.solutions} == expected, (spec, str(rules))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_both_dfs_engines_explore_the_same_tree_on_sums(seed: int) -> None:
    rules, givens = _six_case(seed)
    puzzle = Puzzle(rules, givens)
    assert_same_tree(puzzle, limit=20)


@pytest.mark.parametrize("spec", ["dfs", "dfs:python", "sat", "cpsat"])
def test_a_pill_of_nine_cells_on_an_empty_grid_has_no_solution_at_once(spec: str) -> None:
    """All of row 2 as one pill pointing at one cell: the smallest number it shows, 111,111,111, is far
    above any digit (this search ran for minutes, and did not stop when asked)."""
    rules = Rules.classic(3, 3).with_(arrows=[Arrow(tuple(range(9, 18)), (26,))])
    found = make_backend(spec).enumerate(Puzzle.empty(rules), limit=2, time_limit=20)
    assert found.complete and not found.solutions


@pytest.mark.parametrize("seed", [2, 4, 20, 21, 22, 23])
def test_the_sum_clauses_have_one_model_per_solution(seed: int) -> None:
    """Every node and edge variable of a sum's graph is a function of the digits: blocking whole models,
    auxiliaries included, counts the solutions, no more."""
    from pysat.solvers import Solver

    from sudoku_cp.encode.cnf import encode

    rules, givens = _six_case(seed)
    assert rules.arrows
    expected = make_backend("dfs").enumerate(Puzzle(rules, givens), limit=200)
    assert expected.complete
    models = 0
    with Solver(name="cadical195", bootstrap_with=encode(Puzzle(rules, givens)).clauses) as solver:
        while models <= 200 and solver.solve():
            models += 1
            solver.add_clause([-lit for lit in solver.get_model()])
    assert models == len(expected.solutions)


@st.composite
def grouped_sums(draw: st.DrawFn) -> tuple[LinearSum, list[int], list[int]]:
    """A sum whose terms fall into cliques of peers (the cells of a clique see each other)."""
    n = draw(st.sampled_from([4, 6, 9]))
    m = draw(st.integers(1, 6))
    weights = draw(st.lists(st.sampled_from([1, 1, 1, -1, 10]), min_size=m, max_size=m))
    clique = draw(st.lists(st.integers(0, 2), min_size=m, max_size=m))
    peers = [[j for j in range(m) if j != i and clique[j] == clique[i]] for i in range(m)]
    masks = draw(st.lists(st.integers(1, (1 << n) - 1), min_size=m, max_size=m))
    least = sum(min(w, w * n) for w in weights)
    most = sum(max(w, w * n) for w in weights)
    total = draw(st.integers(least, most))
    return LinearSum.of(range(m), weights, total, n, peers), masks, clique


@settings(max_examples=400, deadline=None)
@given(case=grouped_sums())
def test_the_reasoning_with_exclusion_groups_keeps_every_digit_of_some_solution(case) -> None:
    """Sound: every digit of an assignment that keeps the sum with distinct digits among peers stays."""
    form, masks, clique = case
    options = [[d for d in range(1, 10) if mask >> (d - 1) & 1] for mask in masks]
    needed = [0] * len(masks)
    for digits in itertools.product(*options):
        ordered = [digits[c] for c in form.cells]
        distinct = all(
            digits[i] != digits[j] or clique[i] != clique[j] for i in range(len(digits)) for j in range(i)
        )
        if distinct and form.holds(ordered):
            for i, d in enumerate(digits):
                needed[i] |= 1 << (d - 1)
    kept = form.narrow([masks[c] for c in form.cells])
    if not any(needed):
        return
    assert kept is not None
    for term, cell in enumerate(form.cells):
        assert kept[term] & ~masks[cell] == 0 and needed[cell] & ~kept[term] == 0


@settings(max_examples=300, deadline=None)
@given(case=grouped_sums())
def test_a_sum_with_few_open_terms_keeps_exactly_the_digits_of_some_solution(case) -> None:
    """With at most ``FEW_OPEN`` terms of more than one digit, a digit stays exactly where an assignment
    keeps the sum with distinct digits among the terms of a group (an arrow's last cells in one row)."""
    from sudoku_cp.rules.sums import FEW_OPEN

    form, masks, _ = case
    assume(sum(1 for mask in masks if mask & (mask - 1)) <= FEW_OPEN)
    groups = {cell: form.groups[term] for term, cell in enumerate(form.cells)}
    options = [[d for d in range(1, 10) if mask >> (d - 1) & 1] for mask in masks]
    needed = [0] * len(masks)
    for digits in itertools.product(*options):
        distinct = all(
            digits[i] != digits[j] or groups[i] != groups[j] for i in range(len(digits)) for j in range(i)
        )
        if distinct and form.holds([digits[c] for c in form.cells]):
            for i, d in enumerate(digits):
                needed[i] |= 1 << (d - 1)
    kept = form.narrow([masks[c] for c in form.cells])
    assert (kept is None) == (not any(needed))
    if kept is not None:
        assert [kept[term] for term in range(len(form.cells))] == [needed[c] for c in form.cells]


def test_an_arrow_whose_line_is_in_one_house_does_not_repeat_a_digit() -> None:
    """A circle of 8 over two cells of one row: 4 + 4 is no answer, so both cells lose 4, on both engines
    alike (the python one's propagation here; their trees are compared on sums elsewhere)."""
    from sudoku_cp.backends.dfs_rules import _plan, propagate

    rules = Rules.classic(3, 3).with_(arrows=(Arrow((20,), (0, 1)),))
    plan = _plan(rules)
    cands = [1 << 7 if c == 20 else plan.full for c in range(81)]
    assert propagate(cands, [20], plan, set(range(len(plan.propagators))))
    assert cands[0] == cands[1] == 0b1110111  # 1, 2, 3, 5, 6, 7


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_a_sum_without_its_houses_differs_from_it_by_a_constant_on_every_grid(seed: int) -> None:
    """``without_houses`` rewrites the terms that weigh most of a house alike by the house's total: on a
    grid whose houses hold every digit, the two sums less their totals are equal, with fewer terms."""
    from cases import full_grid

    from sudoku_cp.rules.sums import without_houses

    rng = random.Random(seed)
    nine = Rules.classic(3, 3)
    houses = rng.sample(nine.houses, rng.randint(0, 4))
    cells = sorted({c for h in houses for c in h} | set(rng.sample(range(81), rng.randint(1, 12))))
    weights = [rng.choice([1, 1, -1, 10]) for _ in cells]
    total = rng.randint(-50, 200)
    short = without_houses(cells, weights, total, nine)
    assert 0 < len(short[0]) <= len(cells) and len(short[0]) == len(short[1])
    for k in range(3):
        grid = full_grid(nine, seed + k).cells
        value = sum(w * grid[c] for c, w in zip(cells, weights, strict=True)) - total
        assert value == sum(w * grid[c] for c, w in zip(*short[:2], strict=True)) - short[2]


def test_a_pill_over_the_rest_of_the_grid_is_a_sum_of_three_cells() -> None:
    """A three-digit pill in r1c1-r1c3 whose line runs through every other cell (a published puzzle's):
    100a + 10b + c = 405 - a - b - c, that is 101a + 11b + 2c = 405."""
    from sudoku_cp.rules.sums import without_houses

    nine = Rules.classic(3, 3)
    line = tuple(range(3, 81))
    short = without_houses((0, 1, 2, *line), (100, 10, 1, *[-1] * 78), 0, nine)
    assert short == ((0, 1, 2), (101, 11, 2), 405)


def test_an_exclusion_group_bounds_the_sum_by_distinct_digits() -> None:
    """Three cells of a row adding up to 6 are 1, 2 and 3; with digits free to repeat 4 would fit."""
    row = [[1, 2], [0, 2], [0, 1]]
    form = LinearSum.of(range(3), (1, 1, 1), 6, 9, row)
    assert form.narrow([511] * 3) == [0b111] * 3
    assert LinearSum.of(range(3), (1, 1, 1), 6, 9).narrow([511] * 3) == [0b1111] * 3


def test_an_exclusion_group_bounds_each_term_by_its_own_least_and_most() -> None:
    """Two cells that see each other, one 1 or 2 and the other 8 or 9, make at least 9, not 3 (the two
    smallest digits of their union): with two more cells adding up to 12, those two are 1 or 2. A group
    is never weaker than its terms taken apart. The bounds pass alone: no exact graph, four open terms."""
    digits = [0b11, 0b110000000, 511, 511]
    grouped = LinearSum((0, 1, 2, 3), (1, 1, 1, 1), 12, False, (0, 0, 1, 2)).narrow(digits)
    apart = LinearSum((0, 1, 2, 3), (1, 1, 1, 1), 12, False, (0, 1, 2, 3)).narrow(digits)
    assert grouped == apart == [0b11, 0b110000000, 0b11, 0b11]


def test_the_sums_the_cages_imply_hold_on_every_solution() -> None:
    """The rule of 45: hidden cages, innies and outies of bands, the cells outside every cage. Each derived
    sum holds on the published killer's solution, and a band's innies are found."""
    from cases import VARIANTS

    from sudoku_cp.formats.fpuzzles import from_fpuzzles
    from sudoku_cp.rules.sums import implied_sums

    item = next(v for v in VARIANTS if v["name"] == "Killer sudoku")
    puzzle = from_fpuzzles(item["fpuzzles"])
    solution = [int(ch) for ch in item["solution"]]
    implied = implied_sums(puzzle.rules)
    assert len(implied) > 10
    for cells, weights, total in implied:
        assert sum(w * solution[c] for c, w in zip(cells, weights, strict=True)) == total
    # one cage filling r1c1-r1c8: the ninth cell of the row is 45 less the total
    row = Rules.classic(3, 3).with_(cages=[Cage(tuple(range(8)), 36)])
    assert ((8,), (1,), 9) in implied_sums(row)


@pytest.mark.parametrize(
    ("circle", "line", "counts"),
    [((0,), (1, 2, 3), (91, 465, 1102)), ((0, 1), tuple(range(9, 17)), (2391, 9601, 26880))],
)
def test_the_sum_clauses_of_the_catalogue_examples(circle, line, counts) -> None:
    """The sizes encodings/sums.md quotes, as the code makes them."""
    from pysat.formula import IDPool

    from sudoku_cp.encode.rules_cnf import sum_clauses

    pool = IDPool(start_from=9**3 + 1)
    clauses = sum_clauses("k", LinearSum.of(*Arrow(circle, line).linear(), 9), 9, pool)
    assert (pool.top - 9**3, len(clauses), sum(map(len, clauses))) == counts
    cage = sum_clauses("c", LinearSum.of(*Cage((0, 1, 2, 3), 20).linear(), 9), 9, IDPool(start_from=730))
    assert (len(cage), sum(map(len, cage))) == (943, 2464)
    text = (Path(__file__).parent.parent / "encodings" / "sums.md").read_text(encoding="utf-8")
    assert f"{counts[1]:,} | {counts[2]:,}" in text


def _diagonals(n: int) -> list[tuple[int, ...]]:
    """Every diagonal of at least two cells of an n x n grid, both directions."""
    out = []
    for d in range(-(n - 2), n - 1):
        out.append(tuple(r * n + r - d for r in range(n) if 0 <= r - d < n))
        out.append(tuple(r * n + (n - 1 - r + d) for r in range(n) if 0 <= n - 1 - r + d < n))
    return out


def test_parallel_little_killers_close_to_their_most_combine() -> None:
    """Five anti-diagonals (9, 8, 8, 7 and 7 cells) each adding up to 49, near the most their exclusion
    groups allow: some of them taken together make one sum of 49 per diagonal over their union, which the
    engines then bound as a whole."""
    from sudoku_cp.rules.sums import combined_sums

    nine = Rules.classic(3, 3)
    anti = {k: tuple(r * 9 + k - r for r in range(9) if 0 <= k - r < 9) for k in (6, 7, 8, 9, 10)}
    combined = combined_sums(9, [(cells, 49) for cells in anti.values()], nine.peer_sets)
    assert combined
    for cells, total in combined:
        parts = [k for k, diagonal in anti.items() if set(diagonal) <= set(cells)]
        assert len(parts) >= 2 and sorted(cells) == sorted(c for k in parts for c in anti[k])
        assert total == 49 * len(parts)
    # sums too small to be related are left alone
    assert combined_sums(9, [((0, 1), 17), ((79, 80), 17)], nine.peer_sets) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), clues=st.integers(2, 8))
def test_every_implied_sum_holds_on_a_grid_that_keeps_the_sums(seed: int, clues: int) -> None:
    """Little killers, cages and X/V pairs with totals read off a valid grid: every sum ``implied_sums``
    adds (the rule of 45, the combined sums, the sums across a house) holds on that grid, so none can
    cut a solution."""
    from cases import full_grid

    from sudoku_cp.rules.kinds.outside import LittleKiller
    from sudoku_cp.rules.sums import implied_sums

    nine = Rules.classic(3, 3)
    grid = full_grid(nine, seed).cells
    rng = random.Random(seed)
    diagonals = rng.sample(_diagonals(9), clues)
    killers = tuple(LittleKiller((0, 0), "DR", cells, sum(grid[c] for c in cells)) for cells in diagonals)
    cages = tuple(
        Cage(cells, sum(grid[c] for c in cells)) for cells in [(0, 1, 2), (30, 31, 39, 40), (70, 71, 79, 80)]
    )
    xv = tuple(  # X and V pairs where the grid's neighbours add up to 10 or 5
        Pair(c, c + 1, "sum", grid[c] + grid[c + 1])
        for c in range(81)
        if c % 9 < 8 and grid[c] + grid[c + 1] in (5, 10)
    )
    rules = nine.with_(variants=killers, cages=cages if seed % 2 else (), dots=xv if seed % 3 else ())
    assert rules.is_valid(grid)
    for cells, weights, total in implied_sums(rules):
        assert sum(w * grid[c] for c, w in zip(cells, weights, strict=True)) == total


def test_a_digit_a_cage_needs_leaves_the_cells_that_see_every_place_it_can_take() -> None:
    """A cage of 17 on r1c3 and r2c4 (no house holds both) is 8 and 9: each digit is in one of the two
    cells, so the cells that see both (r1c4-r1c6 and r2c1-r2c3) lose 8 and 9 before any guess, as the
    Interactive Sudoku Solver's required-value exclusions remove them. Both engines reason alike (their
    trees are compared on cages elsewhere), here the python one's propagation."""
    from sudoku_cp.backends.dfs_rules import _plan, propagate

    rules = Rules.classic(3, 3).with_(cages=(Cage((2, 12), 17),))
    plan = _plan(rules)
    cands = [plan.full] * 81
    assert propagate(cands, [], plan, set(range(len(plan.propagators))))
    high = 0b110000000  # 8 and 9
    assert cands[2] == cands[12] == high
    assert [c for c in range(81) if c not in (2, 12) and not cands[c] & high] == [3, 4, 5, 9, 10, 11]
    assert all(cands[c] == plan.full & ~high for c in (3, 4, 5, 9, 10, 11))


def test_a_cage_inside_a_house_leaves_the_rest_of_the_house_its_other_digits() -> None:
    """Row 1 holds cages of 12 (r1c1-r1c2), 14 (r1c3-r1c4) and 16 (r1c5-r1c7); with 7 and 4 given in
    r3c3 and r3c4 and 9 in r4c3, the middle cage is 6 and 8 or 5 and 9, and each set of a cage fits only
    if the rest of the row can hold the digits it leaves: r1c5-r1c7 lose 8 and 9 before any guess (the
    Interactive Sudoku Solver's complement cells); and r1c7 loses 5, which would leave 11 to r1c5 and
    r1c6 and no digits of theirs to make it (the cage's placements, ``MATCHED_CELLS``)."""
    from sudoku_cp.backends.dfs_rules import _plan, propagate

    cages = (Cage((0, 1), 12), Cage((2, 3), 14), Cage((4, 5, 6), 16))
    rules = Rules.classic(3, 3).with_(cages=cages)
    givens = {20: 7, 21: 4, 29: 9}
    plan = _plan(rules)
    cands = [1 << (givens[c] - 1) if c in givens else plan.full for c in range(81)]
    assert propagate(cands, list(givens), plan, set(range(len(plan.propagators))))
    digits = [[d for d in range(1, 10) if cands[c] >> (d - 1) & 1] for c in (4, 5, 6)]
    assert digits == [[3, 5, 6, 7], [3, 5, 6, 7], [3, 4, 6, 7]]
    solved = make_backend("dfs").enumerate(Puzzle(rules, tuple(givens.get(c, 0) for c in range(81))), limit=1)
    assert solved.solutions and rules.is_valid(solved.solutions[0].cells)


def test_a_cage_with_few_open_cells_keeps_the_digits_of_a_placement() -> None:
    """A cage of 10 on r1c1 and r2c1 with 1 given in r1c7: r1c1 cannot be 1, so r2c1 cannot be 9 (the
    set 1 and 9 would need the 1 in r1c1), though 9 is in a set that fits the cage's candidates; the
    cage's last few cells are placed exactly (``MATCHED_CELLS``) before any guess, on both engines (their
    trees are compared on cages elsewhere), here the python one's propagation."""
    from sudoku_cp.backends.dfs_rules import _plan, propagate

    rules = Rules.classic(3, 3).with_(cages=(Cage((0, 9), 10),))
    plan = _plan(rules)
    cands = [1 if c == 6 else plan.full for c in range(81)]
    assert propagate(cands, [6], plan, set(range(len(plan.propagators))))
    digits = [[d for d in range(1, 10) if cands[c] >> (d - 1) & 1] for c in (0, 9)]
    assert digits == [[2, 3, 4, 6, 7, 8, 9], [1, 2, 3, 4, 6, 7, 8]]
    puzzle = Puzzle(rules, tuple(1 if c == 6 else 0 for c in range(81)))
    for engine in ("python", "compiled"):
        found = make_backend(f"dfs:{engine}").enumerate(puzzle, limit=1).solutions[0].cells
        assert found[0] + found[9] == 10 and rules.is_valid(found)


def test_sums_that_cover_a_house_bound_their_cells_outside_it() -> None:
    """Two cages cover row 1 and stick out into row 2 by one cell each (r2c1, r2c9): those two add up to
    the cages' totals less 45, kept when that is close to a bound of two distinct digits (3 to 17)."""
    from sudoku_cp.rules.sums import crossing_sums

    nine = Rules.classic(3, 3)
    left, right = (0, 1, 2, 3, 4, 9), (5, 6, 7, 8, 17)
    assert crossing_sums(9, nine.houses, [(left, 30), (right, 19)], nine.peer_sets) == [((9, 17), 4)]
    assert crossing_sums(9, nine.houses, [(left, 30), (right, 25)], nine.peer_sets) == []  # 10: loose
    assert crossing_sums(9, nine.houses, [(left[:-1], 30)], nine.peer_sets) == []  # the row is not covered


def test_the_sums_across_a_house_are_those_that_overlap_fewest_others() -> None:
    """A short sum over r1c5, r1c6 and r2c5, listed first, overlaps both cages that cover row 1 between
    them; taking it would leave the row uncovered. The two cages are taken instead (as the Interactive
    Sudoku Solver picks them): r3c1 and r3c9 add up to 16 + 33 - 45 = 4."""
    from sudoku_cp.rules.sums import crossing_sums

    nine = Rules.classic(3, 3)
    sums = [((4, 5, 13), 20), ((0, 1, 2, 3, 4, 18), 16), ((5, 6, 7, 8, 26), 33)]
    assert crossing_sums(9, nine.houses, sums, nine.peer_sets) == [((18, 26), 4)]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_a_shortened_sum_keeps_the_bounds_of_its_long_form(seed: int) -> None:
    """A pill whose line covers most of some houses is reasoned on the houses' totals (``without_houses``);
    the long form's bounds see its exclusion groups whole, which the shorter cannot: propagation before
    any guess keeps no digit that they remove (a published pill over a 32-cell line: 616 -> 462
    candidates, 559 -> 66 guesses on dfs, and sat and cpsat answer it in a fraction of a second, where
    they found nothing in 30 s)."""
    from dataclasses import replace

    from sudoku_cp.backends.dfs_rules import _plan, propagate
    from sudoku_cp.rules.sums import without_houses

    rng = random.Random(seed)
    nine = Rules.classic(3, 3).with_named("disjoint") if seed % 2 else Rules.classic(3, 3)
    pill = (0, 1)
    line = [9]  # a walk from r2c1 through neighbouring cells, each at most once
    for _ in range(rng.randint(8, 24)):
        r, c = divmod(line[-1], 9)
        steps = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
        free = [y * 9 + x for y, x in steps if 0 <= y < 9 and 0 <= x < 9 and y * 9 + x not in (*pill, *line)]
        if not free:
            break
        line.append(rng.choice(free))
    rules = nine.with_(arrows=(Arrow(pill, tuple(line)),))
    form = rules.linear_sums[0]
    assume(without_houses(*form, rules)[0] != form[0])
    plan = _plan(rules)
    cands = [plan.full] * 81
    if not propagate(cands, [], plan, set(range(len(plan.propagators)))):
        return
    bounds = replace(LinearSum.of(*form, 9, rules.peer_sets), exact=False)
    kept = bounds.narrow([cands[c] for c in bounds.cells])
    assert kept is not None
    assert all(cands[c] & ~kept[i] == 0 for i, c in enumerate(bounds.cells))


def test_the_rule_of_45_states_each_sum_once_and_no_house_less_one_cell() -> None:
    """Bands of rows taken from the top and from the bottom meet in the same sum with opposite signs, and a
    house less a cage of one cell holds the house's other digits anyway: each sum is derived once, in one
    sign, and no hidden cage of eight cells around a one-cell cage is derived (every sum is reasoned on at
    every node of a search). Five negated pairs and three such cages were derived on a published killer."""
    from cases import full_grid

    from sudoku_cp.rules.sums import derived_sums

    nine = Rules.classic(3, 3)
    grid = full_grid(nine, 7).cells
    rows = [nine.houses[r] for r in range(9)]
    triples = [tuple(range(c, c + 3)) for c in range(0, 81, 3) if c not in (33, 42, 75)]
    # rows 4 and 5 meet in two cages that cross them; r9c1 is a cage of its own
    shapes = [*triples, (33, 34, 44), (35, 42, 43), (72,), (73, 74), (75, 76, 77)]
    cages = [(cells, sum(grid[c] for c in cells)) for cells in shapes]
    sums = derived_sums(9, nine.houses, [rows, rows[::-1]], cages)
    keys = {(cells, weights) for cells, weights, _ in sums}
    assert len(keys) == len(sums)
    assert ((35, 44), (1, -1)) in keys  # rows 1-4 less their cages' cells, plus theirs beyond: once
    assert not any((cells, tuple(-w for w in weights)) in keys for cells, weights in keys)
    assert not any(len(cells) == 8 for cells, _, _ in sums)
    for cells, weights, total in sums:
        assert sum(w * grid[c] for c, w in zip(cells, weights, strict=True)) == total


def test_unit_propagation_drops_the_digit_sets_that_need_a_digit_no_cell_can_take() -> None:
    """Three all-different cells that hold a run of three consecutive digits (a renban's digit sets), none
    of which can take a 5: unit propagation alone rules out the three runs that need it, and no other
    (the pigeonhole the sets' digit clauses state; ``rules_cnf.set_clauses``)."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    from sudoku_cp.encode.amo import at_most_one
    from sudoku_cp.encode.rules_cnf import set_clauses

    n, cells = 9, (0, 1, 2)
    runs = tuple(tuple(range(low, low + 3)) for low in range(1, 8))
    pool = IDPool(start_from=n * n * n + 1)
    clauses = set_clauses("renban", cells, runs, n, pool)
    for cell in cells:  # a digit each
        clauses += [[cell * n + d for d in range(1, n + 1)]]
        clauses += at_most_one([cell * n + d for d in range(1, n + 1)], "pairwise", pool)
    for d in range(1, n + 1):  # all different
        clauses += at_most_one([cell * n + d for cell in cells], "pairwise", pool)
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        consistent, implied = solver.propagate(assumptions=[-(cell * n + 5) for cell in cells])
    assert consistent
    dropped = {k for k, run in enumerate(runs) if -pool.id(("renban", k)) in implied}
    assert dropped == {k for k, run in enumerate(runs) if 5 in run}
