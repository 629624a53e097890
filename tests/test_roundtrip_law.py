"""The law of the formats (issue 33, item 3): a puzzle written in any layout and read back is the same puzzle,
the same givens under the same ``Rules`` value, for every rule the project knows; a layout that cannot carry
a rule refuses to write it, naming it, and never writes a puzzle that reads back as another.

The rules are drawn part by part from ``PARTS``, one strategy per field of ``Rules``, and the test fails for
a field without one, for a named rule the strategy cannot draw and for an f-puzzles key the reader accepts
that no writer writes: a new kind of rule must come with its writer and its strategy here.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import random
from collections.abc import Callable, Iterable

import pytest
from cases import kind_entry
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle, count_solutions, generate, parse
from sudoku_cp.errors import UnsupportedRuleError
from sudoku_cp.formats import ResultWriter, format_puzzle, iter_records, write_puzzles
from sudoku_cp.formats.fpuzzles import RULE_KEYS, from_fpuzzles, to_fpuzzles
from sudoku_cp.formats.header import header_words
from sudoku_cp.generate import generate_killer
from sudoku_cp.result import SolveResult, Status
from sudoku_cp.rules import NAMED, Arrow, Cage, Pair, Rules, Thermo
from sudoku_cp.rules.kinds import BY_KEY

#: The grids drawn: default and explicit box shapes, and jigsaws (drawn by ``_jigsaw``).
SHAPES = [
    Rules.classic(2, 2),
    Rules.classic(2, 3),
    Rules.classic(3, 3),
    Rules.classic(1, 4),
    Rules.classic(4, 3),
]
#: Every layout a puzzle is written in; those of digits carry rules by a '# rules:' line only.
LAYOUTS = ("line", "grid", "spaced", "csv", "pretty", "jsonl", "fpuzzles", "link")
DIGIT_LAYOUTS = ("line", "grid", "spaced", "csv", "pretty")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _cells(draw: st.DrawFn, n: int, low: int, high: int, avoid: tuple[int, ...] = ()) -> tuple[int, ...]:
    free = st.integers(0, n * n - 1).filter(lambda c: c not in avoid)
    return tuple(draw(st.lists(free, min_size=low, max_size=high, unique=True)))


@st.composite
def _jigsaw(draw: st.DrawFn) -> Rules:
    """Irregular regions of a 4x4 grid: the rows' cells dealt in shifted columns, then relabelled."""
    shift = draw(st.integers(1, 3))
    regions = [[r * 4 + (c + r * shift) % 4 for r in range(4)] for c in range(4)]
    order = draw(st.permutations(range(4)))
    return Rules.jigsaw([regions[i] for i in order])


def _named(draw: st.DrawFn, base: Rules) -> tuple[str, ...]:
    names = draw(st.lists(st.sampled_from(sorted(NAMED)), max_size=3, unique=True))
    fits = []
    for name in names:
        try:
            base.with_named(name)
        except ValueError:  # windoku on oblong boxes, disjoint on a jigsaw
            continue
        fits.append(name)
    return tuple(fits)


def _dot(draw: st.DrawFn, n: int) -> Pair:
    a, b = _cells(draw, n, 2, 2)
    kind = draw(st.sampled_from(["difference", "ratio", "sum"]))
    if kind == "difference":
        return Pair(a, b, kind, draw(st.integers(1, n - 1)), source="kropki white dot")
    if kind == "ratio":
        return Pair(a, b, kind, draw(st.integers(2, n)), source="kropki black dot")
    total = draw(st.sampled_from([5, 10]))
    return Pair(a, b, "sum", total, source="X" if total == 10 else "V")


def _arrow(draw: st.DrawFn, n: int) -> Arrow:
    circle = tuple(sorted(_cells(draw, n, 1, 2)))  # a pill is read left to right, then downwards
    return Arrow(circle, _cells(draw, n, 1, 3, avoid=circle))


def _by_kind(dots: Iterable[Pair]) -> tuple[Pair, ...]:
    """Marks in the order f-puzzles keeps them, one key per kind (white, black, XV); within a kind as drawn.
    (``Rules`` compares its marks in order: a value whose kinds alternate reads back in this order.)"""
    order = {"difference": 0, "ratio": 1, "sum": 2}
    return tuple(sorted(dots, key=lambda d: order[d.relation]))


def _total(draw: st.DrawFn, n: int) -> int | None:
    return draw(st.none() | st.integers(1, n * (n + 1) // 2))


#: One strategy per part of ``Rules`` beyond its grid, each drawing that part for a base of n digits.
PARTS: dict[str, Callable[[st.DrawFn, Rules], tuple]] = {
    "named": _named,
    "extra_regions": lambda draw, base: tuple(
        _cells(draw, base.n, 1, base.n) for _ in range(draw(st.integers(0, 2)))
    ),
    "cages": lambda draw, base: tuple(
        Cage(_cells(draw, base.n, 1, 4), _total(draw, base.n)) for _ in range(draw(st.integers(0, 2)))
    ),
    "thermos": lambda draw, base: tuple(
        Thermo(_cells(draw, base.n, 1, 4)) for _ in range(draw(st.integers(0, 2)))
    ),
    "arrows": lambda draw, base: tuple(_arrow(draw, base.n) for _ in range(draw(st.integers(0, 2)))),
    "dots": lambda draw, base: _by_kind(_dot(draw, base.n) for _ in range(draw(st.integers(0, 3)))),
    "negative": lambda draw, base: tuple(
        sorted(draw(st.sets(st.sampled_from(["difference", "ratio", "xv"]))))
    ),
    "variants": lambda draw, base: _variants(draw, base),
}


def _variants(draw: st.DrawFn, base: Rules) -> tuple:
    """Constraints of the kinds (``rules.kinds``), read from random f-puzzles entries; their clues from a
    Latin square (rows and columns each a permutation), so that every clue is one the reader takes."""
    n = base.n
    square = tuple((r + c) % n + 1 for r in range(n) for c in range(n))
    keys = [  # the built-in kinds' fields have parts of their own above
        k
        for k, kind in sorted(BY_KEY.items())
        if kind.field == "variants" and (n % 3 == 0 or k != "entropicline")
    ]
    rng = random.Random(draw(st.integers(0, 2**32)))
    chosen = draw(st.lists(st.sampled_from(keys), max_size=3))
    return tuple(v for key in chosen for v in BY_KEY[key].read(kind_entry(key, n, square, rng), base))


#: The fields that make the grid itself, drawn as a shape or a jigsaw.
GRID_FIELDS = {"n", "regions", "box"}


@st.composite
def rules_values(draw: st.DrawFn) -> Rules:
    """Any rules: a grid, then each part present or not (most often a few of them)."""
    base = draw(st.sampled_from(SHAPES) | _jigsaw())
    parts = {}
    for name, part in PARTS.items():
        if draw(st.integers(0, 2)) == 0:
            value = part(draw, base)
            if value:
                parts[name] = value
    names = parts.pop("named", ())
    return dataclasses.replace(base.with_named(names) if names else base, **parts)


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    """A puzzle of any rules; its givens need not keep them (it is read back without the check)."""
    rules = draw(rules_values())
    n = rules.n
    cells = draw(st.lists(st.integers(0, n) | st.just(0), min_size=n * n, max_size=n * n))
    return Puzzle(rules, tuple(cells))


def _written(puzzle: Puzzle, layout: str) -> list[str]:
    """The texts the writers of puzzles make of ``puzzle`` in ``layout``: ``format_puzzle`` and
    ``write_puzzles`` (``pretty``: a listing for people, with titles, is not read back)."""
    texts = [format_puzzle(puzzle, layout)]
    if layout != "pretty":
        out = io.StringIO()
        write_puzzles(out, [puzzle], layout)
        texts.append(out.getvalue())
    return texts


def _result(puzzle: Puzzle, solution: Puzzle, layout: str) -> str:
    """What ``ResultWriter`` (``solve``'s output) writes of a solved puzzle."""
    out = io.StringIO()
    writer = ResultWriter(out, layout)
    writer.write(1, SolveResult(puzzle, Status.SOLVED, (solution,)))
    writer.close()
    return out.getvalue()


def _read(text: str, layout: str) -> list[Puzzle]:
    """The puzzles of ``text`` read in ``layout``, which detection finds too (the givens unchecked)."""
    as_layout = {"pretty": "grid", "jsonl": "fpuzzles", "link": "fpuzzles"}.get(layout, layout)
    records = list(iter_records(text.splitlines(), as_layout, validate=False))
    assert all(r.ok for r in records), [str(r.error) for r in records]
    assert parse(text, validate=False) == [r.puzzle for r in records]
    return [r.puzzle for r in records]  # type: ignore[misc]


def test_every_part_of_rules_has_a_strategy_and_every_name_and_key_a_writer() -> None:
    fields = {f.name for f in dataclasses.fields(Rules) if f.init}
    assert fields == set(PARTS) | GRID_FIELDS, (
        "a new part of Rules needs its strategy in PARTS and its writers"
    )
    every = Rules.classic(3, 3).with_named(list(NAMED))
    written = set(to_fpuzzles(Puzzle.empty(every)))
    kinds = Rules.classic(3, 3).with_(
        extra_regions=[(0, 1)],
        cages=[Cage((2, 3), 5)],
        thermos=[Thermo((4, 5))],
        arrows=[Arrow((6,), (7,))],
        dots=[Pair(9, 10, "difference", 1), Pair(11, 12, "ratio", 2), Pair(13, 14, "sum", 10)],
        negative=["difference", "ratio", "xv"],
    )
    written |= set(to_fpuzzles(Puzzle.empty(kinds)))
    square = tuple((r + c) % 9 + 1 for r in range(9) for c in range(9))
    nine = Rules.classic(3, 3)
    one_each = [
        v
        for key, kind in BY_KEY.items()
        for v in kind.read(kind_entry(key, 9, square, random.Random(1)), nine)
    ]
    written |= set(to_fpuzzles(Puzzle.empty(nine.with_(variants=one_each))))
    assert set(RULE_KEYS) <= written, f"f-puzzles keys read but never written: {set(RULE_KEYS) - written}"
    for name in NAMED:  # every named rule has a header's word that reads back
        rules = Rules.classic(3, 3).with_named(name)
        assert parse(format_puzzle(Puzzle.empty(rules)))[0].rules == rules


@SETTINGS
@given(puzzles(), st.sampled_from(LAYOUTS))
def test_a_puzzle_written_and_read_back_is_the_same_puzzle(puzzle: Puzzle, layout: str) -> None:
    if layout in DIGIT_LAYOUTS:
        try:
            header_words(puzzle.rules)
        except UnsupportedRuleError as refusal:
            with pytest.raises(UnsupportedRuleError, match=str(refusal).split(": this puzzle's ")[1][:20]):
                format_puzzle(puzzle, layout)
            return
    for text in _written(puzzle, layout):
        assert _read(text, layout) == [puzzle], text
    if layout == "fpuzzles":
        assert from_fpuzzles(json.loads(json.dumps(to_fpuzzles(puzzle)))) == puzzle


@settings(SETTINGS, max_examples=50)
@given(st.lists(puzzles(), min_size=2, max_size=4))
def test_puzzles_of_several_rules_read_back_in_one_stream(items: list[Puzzle]) -> None:
    for layout in ("line", "grid", "jsonl", "fpuzzles"):
        out = io.StringIO()
        try:
            write_puzzles(out, items, layout)
        except UnsupportedRuleError:
            assert layout in DIGIT_LAYOUTS
            continue
        assert _read(out.getvalue(), layout) == items


@pytest.mark.parametrize(
    "pair",
    [Pair(0, 1, "difference", 0), Pair(0, 1, "ratio", 1), Pair(0, 1, "sum", 7), Pair(0, 1, "difference", 9)],
)
def test_a_mark_f_puzzles_cannot_state_is_refused_not_changed(pair: Pair) -> None:
    with pytest.raises(UnsupportedRuleError):
        to_fpuzzles(Puzzle.empty(Rules.classic(3, 3).with_(dots=[pair])))
    with pytest.raises(UnsupportedRuleError, match="pill"):
        to_fpuzzles(Puzzle.empty(Rules.classic(3, 3).with_(arrows=[Arrow((10, 9), (0,))])))
    for total in (0, 46):
        with pytest.raises(UnsupportedRuleError, match="sums to 1 to 45"):
            to_fpuzzles(Puzzle.empty(Rules.classic(3, 3).with_(cages=[Cage((0, 1), total)])))


@functools.cache
def _generated() -> list[tuple[Puzzle, Puzzle]]:
    """Unique puzzles of several rules and their solutions, made by the project's generators (small
    grids: fast)."""
    made = [
        *generate(1, Rules.classic(2, 2).with_named("x"), seed=1),
        *generate(1, Rules.classic(2, 3).with_named("anti-king"), seed=2),
        *generate(1, Rules.classic(2, 2).with_named("windoku,disjoint"), seed=3),
        *generate_killer(1, Rules.classic(2, 3), seed=4),
    ]
    assert all(count_solutions(g.puzzle, limit=2) == 1 for g in made)
    return [(g.puzzle, g.solution) for g in made]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_generated_unique_puzzles_and_their_solutions_stay_so_through_every_layout(layout: str) -> None:
    for puzzle, solution in _generated():
        try:
            texts = _written(puzzle, layout)
            answer = _result(puzzle, solution, layout)
        except UnsupportedRuleError:
            assert layout in DIGIT_LAYOUTS and puzzle.rules.cages  # only the killer cannot be said by a line
            continue
        for text in texts:
            [back] = _read(text, layout)
            assert back == puzzle and count_solutions(back, limit=2) == 1
        if layout == "pretty":  # a report for people: "Puzzle 1: solved ..." above the grid
            continue
        [back] = _read(answer, layout)  # solve's output: the solution, or the puzzle with its solution
        assert back == (solution if layout in ("line", "grid", "spaced") else puzzle)


def _lower_cell_first(a: int, b: int, barred: frozenset) -> tuple:
    """A pair rule with its lower cell first (the digit pairs turned with it): "r5c1 is above r3c1" and
    "r3c1 is below r5c1" are one rule."""
    return (a, b, barred) if a < b else (b, a, frozenset((y, x) for x, y in barred))


@settings(SETTINGS, max_examples=80)
@given(rules_values())
def test_the_certificates_rules_field_states_the_same_rules(rules: Rules) -> None:
    """A certificate's claim holds its rules as houses, groups, pair tables and sums (``rules_field``),
    read by the independent checker (``grid_of``), not as a ``Rules`` value: the law there is that they
    state the same constraints, after a JSON round trip."""
    from sudoku_cp.certify.checker import grid_of
    from sudoku_cp.certify.prover import rules_field

    try:
        field = rules_field(rules)
    except UnsupportedRuleError:
        return  # refused by name (a sum too large for a certificate)
    grid = grid_of(rules.n, json.loads(json.dumps(field)))
    assert sorted(grid.houses) == sorted(rules.houses)
    assert {frozenset(g) for g in grid.groups} == {frozenset(g) for g in rules.groups}
    n = rules.n
    every = frozenset((x, y) for x in range(1, n + 1) for y in range(1, n + 1))
    pairs = {(p.a, p.b, every - p.allowed(n)) for p in rules.pairs}
    pairs |= {
        (a, b, frozenset((x, y) for x, y in every if x >= y))
        for t in rules.thermos
        for a, b in zip(t.cells, t.cells[1:], strict=False)
    }
    stated = {_lower_cell_first(*p) for p in grid.pairs if p[2]}  # a pair that bars nothing states nothing
    assert stated == {_lower_cell_first(*p) for p in pairs if p[2]}
