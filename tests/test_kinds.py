"""The constraint kinds (``rules.kinds``), the built-in ones (cages, thermometers, arrows, dots, extra
regions, negative rules) included: the registry is complete, each kind's check, f-puzzles entry and forms
agree, the check of a grid (``Rules.violations``) is the kinds' own, and every backend finds exactly the
grids the kind allows (brute force on 4x4 and 6x6), also where a backend reads a kind natively."""

from __future__ import annotations

import inspect
import itertools
import random
from dataclasses import fields

import pytest
from cases import kind_entry
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle
from sudoku_cp.backends import make_backend
from sudoku_cp.formats.fpuzzles import from_fpuzzles, parse_fpuzzles, to_fpuzzles, to_link
from sudoku_cp.rules import Rules
from sudoku_cp.rules.kinds import BY_KEY, KINDS, Forms, Mark, Variant, drawable

BACKENDS = ("dfs", "dfs:python", "sat", "cpsat", "cpsat:bool")
FOUR = Rules.classic(2, 2)
SIX = Rules.classic(2, 3)
ALL_FOUR = tuple(s.cells for s in make_backend("dfs").enumerate(Puzzle.empty(FOUR), limit=300).solutions)
#: The kinds whose rule needs a grid whose size is a multiple of 3.
THIRDS = {"entropicline"}


def variants(key: str, rules: Rules, grid: tuple[int, ...], seed: int, count: int) -> list[Variant]:
    rng = random.Random(seed)
    return [v for _ in range(count) for v in BY_KEY[key].read(kind_entry(key, rules.n, grid, rng), rules)]


def holds(rules: Rules, grid: tuple[int, ...]) -> bool:
    """Whether every constraint of ``rules`` keeps the complete ``grid``, by each kind's own check."""
    return all(v.holds_in(grid, rules) for v in rules.declared)


# --- the registry -----------------------------------------------------------------------------------


def test_every_kind_is_whole_and_registered_once() -> None:
    assert len(BY_KEY) == len(KINDS)
    for kind in KINDS:
        assert not inspect.isabstract(kind), f"{kind.__name__} leaves a part of a kind undefined"
        assert kind.kind and kind.key
        assert issubclass(kind, Variant)
        assert kind.field in {f.name for f in fields(Rules)}, f"{kind.__name__}: no field {kind.field}"


def test_every_kind_is_read_written_named_and_drawn_through_the_registry() -> None:
    """One constraint of each kind in one puzzle: the f-puzzles writer writes every key and reads them
    back, ``Rules.kinds`` names every kind, ``declared`` holds each constraint once (the pictures:
    ``test_draw_kinds``)."""
    square = tuple((r + c) % 9 + 1 for r in range(9) for c in range(9))
    nine = Rules.classic(3, 3)
    one_each = [BY_KEY[k.key].read(kind_entry(k.key, 9, square, random.Random(3)), nine)[0] for k in KINDS]
    rules = nine.with_(variants=one_each)
    assert sorted(map(repr, rules.declared)) == sorted(map(repr, one_each))
    assert set(rules.kinds) >= {k.kind for k in KINDS}
    assert set(to_fpuzzles(Puzzle.empty(rules))) >= set(BY_KEY)
    assert from_fpuzzles(to_fpuzzles(Puzzle.empty(rules))).rules == rules


@pytest.mark.parametrize("key", sorted(BY_KEY))
def test_each_kind_has_forms_a_picture_and_an_entry_that_reads_back(key: str) -> None:
    rules = SIX if key in THIRDS else FOUR
    grid = ALL_SIX_GRID if key in THIRDS else ALL_FOUR[7]
    for seed in range(20):
        for v in variants(key, rules, grid, seed, 1):
            assert isinstance(v.forms(rules.n), Forms)
            marks = v.marks(rules.n)
            assert bool(marks) != v.worded and all(isinstance(m, Mark) for m in marks)
            assert isinstance(v.checked, bool)
            assert BY_KEY[key].read(v.write(rules.n), rules) == [v]
            assert v.describe(rules.n)


# --- brute force ------------------------------------------------------------------------------------


def test_the_brute_force_runs_every_backend() -> None:
    """A backend added to the registry joins the kinds' brute force (``auto`` runs the others)."""
    from sudoku_cp.backends import backend_names

    assert {spec.partition(":")[0] for spec in BACKENDS} == set(backend_names()) - {"auto"}


ALL_SIX_GRID = make_backend("dfs").enumerate(Puzzle.empty(SIX), limit=1).solutions[0].cells


@pytest.mark.parametrize("key", sorted(set(BY_KEY) - THIRDS))
def test_every_backend_finds_exactly_the_4x4_grids_the_kind_allows(key: str) -> None:
    for seed in range(6):
        grid = ALL_FOUR[(seed * 37) % len(ALL_FOUR)]
        rules = FOUR.with_(variants=variants(key, FOUR, grid, seed, 1 + seed % 3))
        expected = sorted(g for g in ALL_FOUR if holds(rules, g))
        assert all(rules.is_valid(g) for g in expected)
        assert not any(rules.is_valid(g) for g in ALL_FOUR if not holds(rules, g))
        for spec in BACKENDS:
            found = make_backend(spec).enumerate(Puzzle.empty(rules), limit=len(expected) + 1)
            assert sorted(s.cells for s in found.solutions) == expected, (key, seed, spec, str(rules))


@pytest.mark.parametrize("key", sorted(BY_KEY))
def test_every_backend_finds_exactly_the_6x6_grids_the_kind_allows(key: str) -> None:
    from cases import blanked, full_grid

    for seed in range(3):
        full = full_grid(SIX, seed)
        givens = blanked(full, 0.45, seed).cells
        rules = SIX.with_(variants=variants(key, SIX, full.cells, seed, 2 + seed))
        classic = make_backend("dfs").enumerate(Puzzle(SIX, givens), limit=50_000)
        assert len(classic.solutions) < 50_000
        expected = sorted(s.cells for s in classic.solutions if holds(rules, s.cells))
        for spec in BACKENDS:
            found = make_backend(spec).enumerate(Puzzle(rules, givens), limit=len(expected) + 1)
            assert sorted(s.cells for s in found.solutions) == expected, (key, seed, spec, str(rules))


# --- the automata and the check -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(BY_KEY)), st.integers(0, 10_000))
def test_the_forms_keep_exactly_the_digits_the_check_keeps(key: str, seed: int) -> None:
    """On the cells of one constraint, the automata, sums and pairs of its forms allow a complete line
    of digits exactly when ``holds`` does (the grid's houses aside)."""
    import itertools

    rules = SIX if key in THIRDS else FOUR
    grid = ALL_SIX_GRID if key in THIRDS else ALL_FOUR[seed % len(ALL_FOUR)]
    for v in variants(key, rules, grid, seed, 1):
        if not v.all_cells or len(v.all_cells) > 5:
            continue  # a negative rule has no cells of its own: the brute force holds it
        forms = v.forms(rules.n)
        distinct = list(dict.fromkeys(v.all_cells))  # a loop names a cell again: one digit a cell
        for values in itertools.product(range(1, rules.n + 1), repeat=len(distinct)):
            of = dict(zip(distinct, values, strict=True))
            digits = [of[c] for c in v.all_cells]
            by_forms = (
                all(len({of[c] for c in g}) == len(g) for g in forms.groups)
                and all(p.allows(of[p.a], of[p.b]) for p in forms.pairs)
                and all(tuple(sorted(of[c] for c in cells)) in sets for cells, sets in forms.sets)
                and all(
                    sum(w * of[c] for c, w in zip(cells, ws, strict=True)) == total
                    for cells, ws, total in forms.sums
                )
                and all(a.holds([of[c] for c in a.cells]) for a in forms.automata)
            )
            assert by_forms == v.holds(digits, rules.n), (key, v, digits)
            if by_forms:
                assert v.consistent(digits, rules.n)
                blank = list(digits)
                blank[seed % len(blank)] = 0
                assert v.consistent(blank, rules.n), (key, v, blank)


@pytest.mark.parametrize("key", ["sandwichsum", "xsum", "skyscraper"])
def test_an_automaton_over_a_house_keeps_the_same_permutations_with_distinct_digits(key: str) -> None:
    """``Automaton.distinct`` (what the dfs engines reason on where the cells all see each other)
    accepts exactly the lines of distinct digits the automaton accepts, and no line with a repeat."""
    import itertools

    grid = ALL_SIX_GRID
    for seed in range(6):
        for v in variants(key, SIX, grid, seed, 2):
            for a in v.forms(6).automata:
                both = a.distinct(6)
                assert both is not None and both.cells == a.cells
                for digits in itertools.permutations(range(1, 7)):
                    assert both.holds(digits) == a.holds(digits), (v, digits)
                assert not both.holds([1, 1, 2, 3, 4, 5]) and not both.holds([6, 5, 4, 3, 2, 2])


def test_a_skyscraper_of_one_over_a_house_puts_n_first_where_the_rule_alone_does_not() -> None:
    """Seen alone, one visible skyscraper says no later cell is taller than the first (any digit fits
    there: 1, 1, 1, 1 sees one); with the row's distinct digits it is the tallest, 4: what the dfs
    reasons on."""
    [sky] = BY_KEY["skyscraper"].read({"cell": "R1C0", "value": "1"}, FOUR)
    [alone] = sky.forms(4).automata
    full = [0b1111] * 4
    assert alone.narrow(full)[0] == 0b1111
    rules = FOUR.with_(variants=(sky,))
    [in_house] = rules.automata_in_houses
    assert in_house.narrow(full)[0] == 0b1000
    assert make_backend("dfs").enumerate(Puzzle.empty(rules), limit=1).solutions[0].cells[0] == 4


@pytest.mark.parametrize(
    ("key", "box", "keep", "clues", "seeds"),
    [
        ("sandwichsum", (3, 3), 0.3, 18, 3),
        ("sandwichsum", (4, 4), 0.6, 6, 1),
        ("skyscraper", (3, 3), 0.45, 18, 3),
        ("skyscraper", (4, 4), 0.6, 12, 1),
    ],
)
def test_sandwiches_and_skyscrapers_over_whole_rows_find_what_their_graphs_find(
    key: str, box: tuple[int, int], keep: float, clues: int, seeds: int
) -> None:
    """The compiled dfs reasons on a sandwich or a skyscraper over a house by its own kernel (the ends'
    places and the digit sets between them; the states of how many are seen and the tallest), not the
    clue's graph: on 9x9 and 16x16 puzzles of many clues drawn from a grid, it finds the solutions the CNF
    of the graphs finds."""
    from cases import blanked, full_grid

    rules = Rules.classic(*box)
    for seed in range(seeds):
        full = full_grid(rules, seed)
        clued = rules.with_(variants=tuple(variants(key, rules, full.cells, seed, clues)))
        puzzle = Puzzle(clued, blanked(full, keep, seed).cells)
        found = {spec: make_backend(spec).enumerate(puzzle, limit=500) for spec in ("dfs", "sat")}
        assert found["dfs"].complete and found["sat"].complete
        dfs, sat = ({s.cells for s in f.solutions} for f in found.values())
        assert full.cells in dfs and dfs == sat, (seed, len(dfs), len(sat))


def test_an_automaton_too_large_with_its_houses_digits_is_kept_as_it_is() -> None:
    """On 16x16 the digits read so far are 2^16 states: the rule alone is reasoned on, not refused."""
    rules = Rules.classic(4, 4)
    [sandwich] = BY_KEY["sandwichsum"].read({"cell": "R0C1", "value": "40"}, rules)
    [a] = sandwich.forms(16).automata
    assert a.distinct(16) is None
    assert rules.with_(variants=(sandwich,)).automata_in_houses == (a,)


# --- reading and writing -------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(BY_KEY))
def test_a_puzzle_of_each_kind_round_trips_through_fpuzzles_json_and_links(key: str) -> None:
    rules = SIX if key in THIRDS else FOUR
    grid = ALL_SIX_GRID if key in THIRDS else ALL_FOUR[3]
    puzzle = Puzzle(
        rules.with_(variants=variants(key, rules, grid, 11, 3)), (grid[0],) + (0,) * (rules.ncells - 1)
    )
    assert from_fpuzzles(to_fpuzzles(puzzle)) == puzzle
    assert parse_fpuzzles(to_link(puzzle)) == puzzle


def test_a_kind_refuses_what_it_cannot_read_by_name() -> None:
    from sudoku_cp.errors import ParseError

    base = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    for key, bad, words in (
        ("littlekillersum", {"cell": "R0C1", "direction": "UP", "value": "5"}, "direction"),
        ("littlekillersum", {"cell": "R0C1", "direction": "UL", "value": "5"}, "away from the grid"),
        ("sandwichsum", {"cell": "R2C2", "value": "5"}, "outside the grid"),
        ("renban", {"lines": [["R1C1", "R9C9"]]}, "R9C9"),
        ("quadruple", {"cells": ["R1C1"], "values": [1, 2]}, "2 digits for 1 cells"),
        ("clone", {"cells": ["R1C1", "R1C2"], "cloneCells": ["R2C1"]}, "joins 2 cells"),
    ):
        with pytest.raises(ParseError, match=words):
            from_fpuzzles({**base, key: [bad]})
    corner = {"cell": "R0C0", "direction": "DR", "value": "10"}
    assert from_fpuzzles({**base, "littlekillersum": [corner]}).rules.variants[0].cells == (0, 5, 10, 15)
    with pytest.raises(ParseError, match="entropic line needs a grid whose size is a multiple of 3"):
        from_fpuzzles({**base, "entropicline": [{"lines": [["R1C1", "R1C2"]]}]})


# --- generation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(k.key for k in KINDS if drawable(k)))
def test_the_clues_drawn_from_a_grid_hold_of_it(key: str) -> None:
    from cases import full_grid

    for rules in (SIX, Rules.classic(3, 3)):
        for seed in range(4):
            grid = full_grid(rules, seed).cells
            drawn = BY_KEY[key].drawn(grid, rules, random.Random(seed))
            assert drawn, (key, seed)
            assert all(v.holds([grid[c] for c in v.all_cells], rules.n) for v in drawn)
            assert rules.with_(variants=drawn).is_valid(grid)


LINE_KEYS = ("thermometer", "arrow", "renban", "whispers", "palindrome", "betweenline", "entropicline",
             "modularline", "regionsumline")  # fmt: skip


@pytest.mark.parametrize("key", LINE_KEYS)
def test_drawn_lines_go_by_kings_steps_and_never_cross(key: str) -> None:
    """Each drawn line is a path of king's steps, and no diagonal step crosses another (of any line)."""
    from cases import full_grid

    assert drawable(BY_KEY[key])
    for rules in (SIX, Rules.classic(3, 3)):
        n = rules.n
        for seed in range(6):
            drawn = BY_KEY[key].drawn(full_grid(rules, seed).cells, rules, random.Random(seed))
            diagonals = []
            for v in drawn:
                for a, b in itertools.pairwise(v.all_cells):
                    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
                    assert max(abs(ra - rb), abs(ca - cb)) == 1, (key, v)
                    if ra != rb and ca != cb:
                        diagonals.append(((ra + rb) / 2, (ca + cb) / 2))
            assert len(diagonals) == len(set(diagonals)), (key, seed, drawn)


@pytest.mark.parametrize("key", sorted(k.key for k in KINDS if drawable(k)))
def test_generated_puzzles_of_each_drawn_kind_are_unique(key: str) -> None:
    from sudoku_cp.generate.drawn import generate_clued

    for made in generate_clued(2, [key], SIX, seed=7):
        rules = made.puzzle.rules
        assert BY_KEY[key].kind in rules.kinds and made.unique
        assert rules.violations(made.solution.cells) == []
        for spec in ("dfs", "sat"):
            found = make_backend(spec).enumerate(made.puzzle, limit=2)
            assert [s.cells for s in found.solutions] == [made.solution.cells], (key, spec)


def test_killer_puzzles_are_the_cage_kind_drawn() -> None:
    """``generate --killer`` draws its cages as the kind does (``Cage.drawn``): the same seed gives the
    same puzzles through either door."""
    from sudoku_cp.generate import generate_killer
    from sudoku_cp.generate.drawn import generate_clued

    by_kind = [g.puzzle for g in generate_clued(2, ["killercage"], FOUR, seed=11)]
    assert by_kind == [g.puzzle for g in generate_killer(2, FOUR, seed=11)]
    assert all(p.rules.cages and not p.rules.variants for p in by_kind)


def test_a_kind_that_draws_no_clues_is_refused_by_name() -> None:
    from sudoku_cp.errors import UnsupportedRuleError
    from sudoku_cp.generate.drawn import generate_clued

    assert not drawable(BY_KEY["clone"])
    with pytest.raises(UnsupportedRuleError, match="generate draws no clone clues"):
        generate_clued(1, ["clone"], SIX)
