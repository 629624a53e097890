"""Pictures: the SVG is well-formed XML and holds every digit, candidate and region border it should."""

from __future__ import annotations

import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp import Puzzle, Rules, solve
from sudoku_cp.candidates import Candidates
from sudoku_cp.grid import symbol

pytest.importorskip("drawsvg", reason="the draw extra is not installed: pip install -e '.[draw]'")

from sudoku_cp.draw import draw, save

SVG = "{http://www.w3.org/2000/svg}"
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def texts(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{SVG}text"))


def glyphs(svg: str) -> Counter[str]:
    return Counter("".join(t.text or "" for t in texts(svg)))


def thick_runs(svg: str) -> int:
    """The straight runs of the region-border path (the thick one inside the grid)."""
    paths = [p for p in ET.fromstring(svg).iter(f"{SVG}path") if p.get("stroke") == "#000000"]
    assert len(paths) == 1
    return paths[0].get("d", "").count("M")


def test_givens_are_the_only_text_of_a_puzzle() -> None:
    puzzle = Puzzle.from_string(PUZZLE)
    svg = draw(puzzle).as_svg()
    assert glyphs(svg) == Counter(symbol(d) for d in puzzle.cells if d)


def test_a_solution_adds_its_other_digits() -> None:
    puzzle = Puzzle.from_string(PUZZLE)
    solution = solve(puzzle, "sat").solution
    assert solution is not None
    svg = draw(puzzle, solution).as_svg()
    assert glyphs(svg) == Counter(symbol(d) for d in solution.cells)
    placed = [t for t in texts(svg) if t.text and t.get("font-weight") is None]
    assert len(placed) == 81  # one element per digit


def test_every_candidate_is_drawn_once_at_its_own_place() -> None:
    puzzle = Puzzle.from_string(PUZZLE)
    candidates = Candidates.of(puzzle)
    svg = draw(puzzle, candidates=candidates).as_svg()
    expected = Counter(
        symbol(d) for cell in range(81) if not puzzle.cells[cell] for d in candidates.digits(cell)
    )
    expected.update(symbol(d) for d in puzzle.cells if d)
    assert glyphs(svg) == expected
    for t in texts(svg):
        xs = (t.get("x") or "").split()
        assert len(xs) == len(t.text or ""), "each candidate glyph has its own x"


def test_candidates_of_a_puzzle_leave_out_its_peers_givens() -> None:
    c = Candidates.of(Puzzle.from_string("1.....1..1.....1"))
    assert c.digits(1) == (2, 3, 4)
    assert c.digits(0) == (1,)
    with pytest.raises(ValueError, match="r1c1"):
        Candidates(c.puzzle, (2, *c.masks[1:]))


@pytest.mark.parametrize(
    ("rules", "runs"), [(Rules.classic(3, 3), 4), (Rules.classic(2, 3), 3), (Rules.classic(4, 4), 6)]
)
def test_thick_lines_run_along_the_box_borders(rules: Rules, runs: int) -> None:
    assert thick_runs(draw(Puzzle.empty(rules)).as_svg()) == runs


def test_jigsaw_regions_are_drawn_as_their_shapes() -> None:
    # four irregular regions of four cells; their borders, counted by hand, are 10 straight runs:
    # between rows 2, 1 and 2 runs, between columns 2, 1 and 2 runs
    regions = (0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3)
    svg = draw(Puzzle.empty(Rules.classic(2, 2)), regions=regions).as_svg()
    assert thick_runs(svg) == 10


@pytest.mark.parametrize("box", [Rules.classic(4, 4), Rules.classic(5, 5)])
def test_big_grids_use_letters(box: Rules) -> None:
    puzzle = Puzzle.empty(box).with_cells([(0, box.n), (box.n + 1, 10)])
    svg = draw(puzzle, candidates=Candidates.of(puzzle)).as_svg()
    assert symbol(box.n) in glyphs(svg) and "A" in glyphs(svg)


@pytest.mark.parametrize("box", [Rules.classic(3, 3), Rules.classic(4, 4), Rules.classic(5, 5)])
def test_candidates_are_drawn_large_enough_to_read_on_every_grid(box: Rules) -> None:
    """Issue 33: a 25x25 grid's candidates were 4.8 pixels high, specks in its PNG."""
    puzzle = Puzzle.empty(box).with_cells([(0, 1)])
    picture = draw(puzzle, candidates=Candidates.of(puzzle))
    [group] = [g for g in ET.fromstring(picture.as_svg()).iter(f"{SVG}g") if g.get("fill") == "#6b6b6b"]
    assert float(group.get("font-size", 0)) >= 9.0
    assert picture.width <= 1500  # 1,435 pixels for 25x25
    if box.n == 9:  # wide enough already: as without candidates
        assert picture.width == draw(puzzle).width


def test_png_has_the_pictures_size(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="PNG needs cairosvg (the draw extra)")
    picture = draw(Puzzle.from_string(PUZZLE))
    path = save(picture, tmp_path / "p.png")
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert (width, height) == (round(picture.width), round(picture.height)) == (404, 404)


def test_jupyter_shows_puzzles_results_and_candidates_as_svg() -> None:
    puzzle = Puzzle.from_string(PUZZLE)
    for shown in (puzzle, solve(puzzle, "sat"), Candidates.of(puzzle)):
        svg = shown._repr_svg_()
        assert svg is not None and ET.fromstring(svg).tag == f"{SVG}svg"


def test_render_writes_one_file_per_puzzle(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text(PUZZLE + "\n" + "1234341221434321\n")
    out = tmp_path / "pictures"
    proc = run_cli("render", str(src), "-o", str(out), "--solution")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["1.svg", "2.svg"]
    assert glyphs((out / "2.svg").read_text()) == Counter("1234341221434321")


def test_render_png_files(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="PNG needs cairosvg (the draw extra)")
    src = tmp_path / "in.txt"
    src.write_text(PUZZLE + "\n")
    proc = run_cli("render", str(src), "-o", str(tmp_path / "out"), "--format", "png", "--candidates")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "1.png").read_bytes()[:4] == b"\x89PNG"


def test_render_one_puzzle_to_standard_output() -> None:
    proc = run_cli("render", "-", stdin=PUZZLE + "\n")
    assert proc.returncode == 0, proc.stderr
    assert glyphs(proc.stdout) == Counter(c for c in PUZZLE if c != ".")


def test_render_refuses_several_puzzles_on_standard_output() -> None:
    proc = run_cli("render", "-", stdin=PUZZLE + "\n" + PUZZLE + "\n")
    assert proc.returncode == 2
    assert "-o DIR" in proc.stderr and proc.stdout == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_render_says_an_output_it_cannot_write_is_a_fault_as_every_command_does(tmp_path: Path) -> None:
    """Exit status 3 and the words of every other command, not a raw errno with the usage status."""
    source = tmp_path / "one.txt"
    source.write_text(PUZZLE + "\n")
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", "render", str(source)], stdout=full, stderr=subprocess.PIPE,
            text=True, check=False,
        )  # fmt: skip
    assert proc.returncode == 3 and "cannot write the standard output: No space left on device" in proc.stderr
    blocked = tmp_path / "file"
    blocked.write_text("")
    proc = run_cli("render", str(source), "-o", str(blocked / "pictures"))
    assert proc.returncode == 3 and f"cannot make the folder {blocked / 'pictures'}: " in proc.stderr
    assert "Errno" not in proc.stderr


def test_render_reports_a_bad_puzzle_and_draws_the_rest(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("123\n" + PUZZLE + "\n")
    proc = run_cli("render", str(src), "-o", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "line 1" in proc.stderr
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["2.svg"]


def test_without_the_extra_render_names_it_and_jupyter_falls_back_to_text(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['drawsvg'] = None\n"
        "from sudoku_cp import Puzzle\n"
        "assert Puzzle.from_string('1234341221434321')._repr_svg_() is None\n"
        "from sudoku_cp.cli import main\n"
        "sys.exit(main(['render', '-']))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], input="1234341221434321\n", capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2, proc.stderr
    assert "pip install 'sudoku-cp[draw]'" in proc.stderr


# --- variant constraints -----------------------------------------------------------------------------------


def elements(svg: str, tag: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{SVG}{tag}"))


def test_killer_cages_are_dashed_outlines_with_their_sums() -> None:
    from sudoku_cp.rules import Cage

    rules = Rules.classic(2, 2).with_(cages=[Cage((0, 1, 4), 7), Cage((10, 11))])
    svg = draw(Puzzle.empty(rules)).as_svg()
    dashed = [p for p in elements(svg, "path") if p.get("stroke-dasharray")]
    assert len(dashed) == 2
    # the L of three cells has 8 cell sides on its outline, the domino 6: one straight segment each
    assert [p.get("d", "").count("M") for p in dashed] == [8, 6]
    assert glyphs(svg) == Counter("7")  # the sum; the cage without one shows none


def test_thermometers_arrows_dots_and_xv_have_their_marks() -> None:
    from sudoku_cp.rules import Arrow, Pair, Thermo

    rules = Rules.classic(3, 3).with_(
        thermos=[Thermo((0, 1, 2))],
        arrows=[Arrow((40,), (41, 42)), Arrow((60, 61), (62, 63))],
        dots=[
            Pair(9, 10, "difference", 1, source="kropki white dot"),
            Pair(18, 19, "ratio", 2, source="kropki black dot"),
            Pair(27, 28, "sum", 10, source="X"),
            Pair(36, 37, "sum", 5, source="V"),
        ],
    )
    svg = draw(Puzzle.empty(rules)).as_svg()
    circles = elements(svg, "circle")
    fills = sorted(c.get("fill", "") for c in circles)
    assert fills == ["#000000", "#c8c8c8", "white"]  # the black dot, the thermometer's bulb, the white dot
    rounded = [r for r in elements(svg, "rect") if r.get("rx")]
    assert len(rounded) == 2  # a circle and a two-cell pill
    assert float(rounded[1].get("width", 0)) > float(rounded[0].get("width", 0))
    assert glyphs(svg) == Counter("XV")


def test_diagonals_and_windows_are_drawn_and_word_rules_are_not() -> None:
    plain = draw(Puzzle.empty(Rules.classic(3, 3))).as_svg()
    x = draw(Puzzle.empty(Rules.classic(3, 3).with_named("x,windoku"))).as_svg()
    diagonals = [p for p in elements(x, "path") if p.get("stroke") == "#7fa7d9"]
    assert len(diagonals) == 2 and not [p for p in elements(plain, "path") if p.get("stroke") == "#7fa7d9"]
    assert len(elements(x, "rect")) == len(elements(plain, "rect")) + 36  # four windows of nine cells
    words = draw(Puzzle.empty(Rules.classic(3, 3).with_named("anti-knight,non-consecutive"))).as_svg()
    assert words == plain  # rules setters state in words have no mark


def test_a_published_variant_puzzle_draws_to_png(tmp_path: Path) -> None:
    import json

    pytest.importorskip("cairosvg", reason="PNG needs cairosvg: pip install -e '.[draw]'")
    from sudoku_cp.formats.fpuzzles import from_fpuzzles

    data = Path(__file__).parent / "data" / "published_variants.jsonl"
    item = json.loads(data.read_text().splitlines()[-1])  # the pill-arrow puzzle
    target = save(draw(from_fpuzzles(item["fpuzzles"])), tmp_path / "pill.png")
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- solving steps ---------------------------------------------------------------------------------------

#: A puzzle whose logical solution takes an X-chain at its 8th step.
CHAINED = ".2....5938..5..46.94..6...8..2.3.....6..8.73.7..2.........4.38..7....6..........5"


def fills(svg: str) -> Counter[str]:
    """How many discs of each colour the picture holds (a disc's colour is its group's fill)."""
    counted: Counter[str] = Counter()
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        counted[group.get("fill", "")] += sum(1 for child in group if child.tag == f"{SVG}circle")
    return counted


def test_a_chain_step_shows_its_links_pattern_and_eliminations() -> None:
    from sudoku_cp.draw.steps import ELIMINATED, LINK, PATTERN
    from sudoku_cp.human import walk

    w = walk(Puzzle.from_string(CHAINED))
    k = next(i for i, step in enumerate(w.steps, start=1) if step.links)
    step = w.steps[k - 1]
    svg = w.draw(k).as_svg()
    discs = fills(svg)
    assert discs[ELIMINATED] == len(step.eliminations) > 0
    # every candidate of the chain is drawn: struck where the step eliminates it, else as the pattern
    assert discs[PATTERN] == len({node for a, b, _ in step.links for node in (a, b)} - set(step.eliminations))
    links = [p for p in elements(svg, "path") if p.get("stroke") == LINK]
    strong = sum(1 for *_, s in step.links if s)
    assert [p.get("d", "").count("M") for p in links] == [strong, len(step.links) - strong]
    assert [p.get("stroke-dasharray") is not None for p in links] == [False, True]
    # the candidates drawn are those the step was found on: the eliminated ones are still there
    before = w.before(k)
    assert glyphs(svg) == glyphs(draw(Puzzle.from_string(CHAINED), before.puzzle, before).as_svg())


def test_a_placement_is_marked_and_its_house_shaded() -> None:
    from sudoku_cp.draw.steps import HOUSE, PLACED
    from sudoku_cp.human import hint

    found = hint(Puzzle.from_string(PUZZLE))
    assert found.step is not None and found.step.placements and found.step.houses
    svg = found._repr_svg_()
    assert svg is not None
    assert fills(svg)[PLACED] == len(found.step.placements)
    shaded = [p for p in elements(svg, "path") if p.get("fill") == HOUSE]
    house = found.step.rules.houses[found.step.houses[0]]
    assert len(shaded) == 1 and shaded[0].get("d", "").count("M") == len(set(house) - set(found.step.cells))


def test_a_step_that_does_not_fit_the_candidates_is_refused() -> None:
    from sudoku_cp.draw import draw_step
    from sudoku_cp.errors import UsageError
    from sudoku_cp.human import hint

    puzzle = Puzzle.from_string(PUZZLE)
    step = hint(puzzle).step
    assert step is not None
    placed = Candidates.of(puzzle.with_cells(step.placements))  # the step's cell is no longer open
    with pytest.raises(UsageError, match="not one of these candidates"):
        draw_step(step, placed)
    with pytest.raises(UsageError, match="givens do not fit"):
        draw_step(step, Candidates.of(puzzle), Puzzle.from_string(CHAINED))
    with pytest.raises(UsageError, match="cannot be drawn"):
        draw_step(step, Candidates.of(Puzzle.from_string("1234341221434321")))


def test_render_step_draws_the_kth_step_and_says_when_the_walk_ends_sooner(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text(CHAINED + "\n" + "1234341221434321\n")
    out = tmp_path / "steps"
    proc = run_cli("render", str(src), "-o", str(out), "--step", "8")
    assert proc.returncode == 1
    assert "puzzle 2: the logical solution ends solved" in proc.stderr
    assert [p.name for p in out.iterdir()] == ["1.svg"]
    from sudoku_cp.human import walk

    assert (out / "1.svg").read_text().strip() == walk(Puzzle.from_string(CHAINED)).draw(8).as_svg().strip()


# --- links ---------------------------------------------------------------------------------------------


def test_links_of_render_solve_and_generate_open_the_same_puzzles(tmp_path: Path) -> None:
    import json

    import lzstring

    from sudoku_cp.formats.fpuzzles import parse_fpuzzles

    src = tmp_path / "in.txt"
    src.write_text(PUZZLE + "\n" + CHAINED + "\n")
    rendered = run_cli("render", str(src), "--output-format", "link")
    solved = run_cli("solve", "-q", str(src), "--output-format", "link")
    for proc in (rendered, solved):
        assert proc.returncode == 0, proc.stderr
        links = proc.stdout.splitlines()
        assert [parse_fpuzzles(link) for link in links] == [
            Puzzle.from_string(PUZZLE),
            Puzzle.from_string(CHAINED),
        ]
    answers = [
        json.loads(lzstring.LZString().decompressFromBase64(link.split("load=")[1]))["solution"]
        for link in solved.stdout.splitlines()
    ]
    assert answers == [list(solve(Puzzle.from_string(p), "sat").solution.cells) for p in (PUZZLE, CHAINED)]
    back = run_cli("solve", "-q", "--output-format", "line", "-", stdin=solved.stdout)
    assert back.stdout.split() == [line_of(answer) for answer in answers]
    made = run_cli("generate", "-q", "--count", "2", "--seed", "5", "--box", "2x2", "--output-format", "link")
    assert made.returncode == 0, made.stderr
    plain = run_cli("generate", "-q", "--count", "2", "--seed", "5", "--box", "2x2")
    assert [parse_fpuzzles(link) for link in made.stdout.split()] == [
        Puzzle.from_string(line) for line in plain.stdout.split()
    ]


def line_of(cells: list[int]) -> str:
    return "".join(map(str, cells))


def test_a_gallery_shows_each_picture_under_its_caption() -> None:
    from sudoku_cp.draw import Gallery

    pictures = {"easy <1>": draw(Puzzle.from_string(PUZZLE)), "chained": draw(Puzzle.from_string(CHAINED))}
    page = Gallery(pictures)._repr_html_()
    root = ET.fromstring(page)  # the row is well-formed: no XML declarations inside it
    assert [f.find("figcaption").text for f in root.iter("figure")] == list(pictures)
    assert len(list(root.iter(f"{SVG}svg"))) == 2


def test_a_cage_sum_keeps_the_candidates_of_its_cell_below_it() -> None:
    """The sum in a cage's corner was drawn over candidate 1 (and over the strike of a step eliminating
    it): that cell's candidates sit on a mini grid below the sum, the other cells' as before."""
    from sudoku_cp.draw.picture import LABEL_ROOM, Frame
    from sudoku_cp.rules import Cage

    rules = Rules.classic(3, 3).with_(cages=[Cage((10, 11, 19), 17)])
    root = ET.fromstring(draw(Puzzle.empty(rules), candidates=Candidates.of(Puzzle.empty(rules))).as_svg())
    [total] = [t for t in root.iter(f"{SVG}text") if t.text == "17"]
    ones = [t for t in root.iter(f"{SVG}text") if t.text == "1"]  # the labelled cell's, drawn one by one
    assert len(ones) == 1 and float(ones[0].get("y")) > float(total.get("y")) + float(total.get("font-size"))
    frame = Frame(9, 40.0, 4.0, frozenset({10}))
    assert frame.candidate(10, 1)[1] >= frame.y(1 + LABEL_ROOM) and frame.candidate(10, 9)[1] < frame.y(2)
    assert frame.candidate(11, 1) == Frame(9, 40.0, 4.0).candidate(11, 1)


def test_a_picture_size_that_is_none_is_named() -> None:
    """``size=-5`` wrote an SVG of negative width, ``nan`` a bare ValueError."""
    from sudoku_cp.errors import UsageError

    for size in (-5, 0, float("nan"), "40"):
        with pytest.raises(UsageError, match="a picture's size is pixels per cell"):
            draw(PUZZLE, size=size)  # type: ignore[arg-type]
    assert draw(PUZZLE, size=30).as_svg().startswith("<?xml")
