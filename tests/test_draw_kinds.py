"""Pictures of the constraint kinds (``rules.kinds``, the built-in ones included): every kind but those
stated in words is drawn from its own marks, with no line of drawing code for it; clues outside the grid
widen the picture; pictures without them are as they were before the kinds were drawn."""

from __future__ import annotations

import hashlib
import json
import random
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import ClassVar

import pytest
from cases import kind_entry
from conftest import run_cli

from sudoku_cp import Puzzle, Rules
from sudoku_cp.backends import make_backend
from sudoku_cp.formats.fpuzzles import to_fpuzzles
from sudoku_cp.rules import Arrow, Cage, Pair, Thermo
from sudoku_cp.rules.kinds import BY_KEY, KINDS, Mark, Variant
from sudoku_cp.rules.kinds.lines import Renban

pytest.importorskip("drawsvg", reason="the draw extra is not installed: pip install -e '.[draw]'")

from sudoku_cp.draw import draw
from sudoku_cp.draw.picture import cell_size

SVG = "{http://www.w3.org/2000/svg}"
NINE = Rules.classic(3, 3)
GRID = make_backend("dfs").enumerate(Puzzle.empty(NINE), limit=1).solutions[0].cells
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def one(key: str, seed: int = 0) -> Variant:
    """A constraint of the kind ``key`` on the 9x9 grid (entropic lines need a 6x6 or 9x9 one)."""
    rng = random.Random(seed)
    for _ in range(50):
        found = BY_KEY[key].read(kind_entry(key, 9, GRID, rng), NINE)
        if found:
            return found[0]
    raise AssertionError(f"no {key} entry read to a constraint")


def svg_of(*variants: Variant) -> str:
    return draw(Puzzle.empty(NINE.with_(variants=variants))).as_svg()


def words(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def colours(svg: str) -> set[str]:
    return {e.get(a, "").lower() for e in ET.fromstring(svg).iter() for a in ("fill", "stroke") if e.get(a)}


def outside(mark: Mark) -> bool:
    return mark.at is not None and not all(0 <= a < 9 for a in mark.at)


def canonical(svg: str) -> str:
    """A digest of the picture's elements, their attributes and text, whatever the spacing or the order
    of the attributes the SVG is written in."""
    parts = [
        json.dumps([e.tag, sorted(e.attrib.items()), (e.text or "").strip()])
        for e in ET.fromstring(svg).iter()
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


PLAIN = svg_of()


@pytest.mark.parametrize("key", [kind.key for kind in KINDS if not kind.worded])
def test_every_kind_is_drawn_from_its_marks(key: str) -> None:
    for seed in range(3):
        variant = one(key, seed)
        marks = variant.marks(9)
        svg = svg_of(variant)
        assert svg != PLAIN, f"{variant.describe(9)} left no mark on the picture"
        shown = words(svg)
        for mark in marks:
            if mark.text:  # its clue or note, each word of it (a quadruple's digits)
                for word in mark.text.split():
                    assert word in shown, f"{variant.describe(9)}: {word!r} not written"
            else:
                assert mark.colour.lower() in colours(svg), f"{variant.describe(9)}: no {mark.colour}"


@pytest.mark.parametrize("key", [kind.key for kind in KINDS])
def test_clues_outside_the_grid_widen_the_picture_by_a_cell_each_side(key: str) -> None:
    plain = draw(Puzzle.empty(NINE))
    variant = one(key)
    picture = draw(Puzzle.empty(NINE.with_(variants=[variant])))
    wide = any(outside(m) for m in variant.marks(9))
    assert picture.width == picture.height == plain.width + (2 * cell_size(9) if wide else 0)
    if wide:  # the clue is written in the margin, inside the picture and beside the grid
        m = (picture.width - 9 * cell_size(9)) / 2
        grid = 9 * cell_size(9)
        places = [
            (float(t.get("x", 0)), float(t.get("y", 0)))
            for t in ET.fromstring(picture.as_svg()).iter(f"{SVG}text")
        ]
        assert places and all(0 < x < picture.width and 0 < y < picture.height for x, y in places)
        assert any(not (m < x < m + grid and m < y < m + grid) for x, y in places)


def test_the_outside_clues_are_the_ones_that_widen() -> None:
    wide = {key for key in BY_KEY if any(outside(m) for m in one(key).marks(9))}
    assert {"littlekillersum", "sandwichsum", "xsum", "skyscraper"} <= wide
    assert "renban" not in wide and "quadruple" not in wide


def test_a_little_killer_has_its_arrow_and_a_between_line_its_open_end_circles() -> None:
    def count(svg: str, tag: str) -> int:
        return sum(1 for _ in ET.fromstring(svg).iter(f"{SVG}{tag}"))

    killer = svg_of(one("littlekillersum"))
    assert count(killer, "path") == count(PLAIN, "path") + 1 and count(killer, "text") == 1
    between = ET.fromstring(svg_of(one("betweenline")))
    [ends] = [g for g in between.iter(f"{SVG}g") if any(c.tag == f"{SVG}circle" for c in g)]
    assert len(ends) == 2 and ends.get("fill") == "white" and ends.get("stroke")


#: The pictures of a classic puzzle and of one with every built-in rule, as drawn before the kinds
#: were (digests of ``canonical``): no variant of ``rules.variants``, no change.
BEFORE = {
    "classic": "4c54c5fd2ca3646d212c44a377234566ff623129fd8054a8622c76690b395fd7",
    "built-in": "1f049d67112313ce070e14e1c6b7f11b29b7f20e0b08b60e060c2b2718b4b6ce",
}


def built_in() -> Puzzle:
    rules = (
        Rules.classic(3, 3)
        .with_(
            thermos=[Thermo((0, 1, 2))],
            arrows=[Arrow((40,), (41, 42))],
            dots=[
                Pair(9, 10, "difference", 1, source="kropki white dot"),
                Pair(27, 28, "sum", 10, source="X"),
            ],
            cages=[Cage((70, 71, 79), 12)],
        )
        .with_named("x,windoku")
    )
    return Puzzle.empty(rules)


def test_pictures_without_the_kinds_are_as_before() -> None:
    assert canonical(draw(Puzzle.from_string(PUZZLE)).as_svg()) == BEFORE["classic"]
    assert canonical(draw(built_in()).as_svg()) == BEFORE["built-in"]


def test_a_new_kind_is_drawn_with_no_drawing_code_of_its_own() -> None:
    @dataclass(frozen=True)
    class Striped(Renban):
        kind: ClassVar[str] = "striped"
        key: ClassVar[str] = "striped"

        def marks(self, n: int) -> tuple[Mark, ...]:
            return (
                Mark("line", self.cells, "#123456"),
                Mark("text", text="42", at=(n + 0.5, 0.5), colour="#654321"),
            )

    picture = draw(Puzzle.empty(NINE.with_(variants=[Striped((0, 1, 2))])))
    svg = picture.as_svg()
    assert {"#123456", "#654321"} <= colours(svg) and "42" in words(svg)
    assert picture.width == draw(Puzzle.empty(NINE)).width + 2 * cell_size(9)


def test_a_mark_of_a_shape_the_drawing_does_not_know_is_an_error() -> None:
    @dataclass(frozen=True)
    class Starred(Renban):
        kind: ClassVar[str] = "starred"
        key: ClassVar[str] = "starred"

        def marks(self, n: int) -> tuple[Mark, ...]:
            return (Mark("star", self.cells),)

    with pytest.raises(ValueError, match="starred mark of unknown shape 'star'"):
        draw(Puzzle.empty(NINE.with_(variants=[Starred((0, 1))])))


def test_a_step_is_drawn_on_the_widened_grid_of_a_puzzle_with_outside_clues() -> None:
    from sudoku_cp.human import hint

    sandwich = one("sandwichsum")
    puzzle = Puzzle.empty(NINE.with_(variants=[sandwich])).with_cells((c, GRID[c]) for c in range(0, 81, 2))
    found = hint(puzzle)
    if found.step is None:
        pytest.skip("no logical step on this puzzle")
    svg = found._repr_svg_()
    assert svg is not None and str(sandwich.total) in words(svg)
    assert float(ET.fromstring(svg).get("width", 0)) == draw(puzzle).width


def test_render_draws_an_fpuzzles_sandwich() -> None:
    sandwich = one("sandwichsum")
    data = to_fpuzzles(Puzzle.empty(NINE.with_(variants=[sandwich])))
    proc = run_cli("render", "--input-format", "fpuzzles", "-", stdin=json.dumps(data))
    assert proc.returncode == 0, proc.stderr
    assert str(sandwich.total) in words(proc.stdout)


def test_outside_clues_of_several_kinds_at_one_place_are_all_readable() -> None:
    """A sandwich's and an X-sum's number at the same place outside the grid were drawn one over the other;
    they share it, one above the other and smaller, each at its own height."""
    sandwich, xsum = BY_KEY["sandwichsum"], BY_KEY["xsum"]
    data = [
        sandwich.read({"cell": "R3C0", "value": "14"}, NINE),
        xsum.read({"cell": "R3C0", "value": "35"}, NINE),
    ]
    alone = [t for t in ET.fromstring(svg_of(data[0][0])).iter(f"{SVG}text") if t.text == "14"]
    both = {t.text: t for t in ET.fromstring(svg_of(data[0][0], data[1][0])).iter(f"{SVG}text")}
    assert both["14"].get("x") == both["35"].get("x") == alone[0].get("x")
    assert float(both["14"].get("y")) < float(alone[0].get("y")) < float(both["35"].get("y"))
    assert float(both["14"].get("font-size")) < float(alone[0].get("font-size"))


def test_generated_outside_clues_of_several_kinds_never_share_a_place() -> None:
    from sudoku_cp.generate.drawn import generate_clued

    for made in generate_clued(2, ["sandwichsum", "xsum", "skyscraper"], Rules.classic(2, 3), seed=3):
        places = [m.at for v in made.puzzle.rules.variants for m in v.marks(6) if m.shape == "text"]
        assert places and len(places) == len(set(places)), places
