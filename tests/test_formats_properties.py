"""Property tests of sudoku_cp.formats: round trips in every layout and shape, and junk never crashes."""

from __future__ import annotations

import io
import itertools
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp.errors import ParseError
from sudoku_cp.formats import (
    INPUT_FORMATS,
    Record,
    ResultWriter,
    format_puzzle,
    iter_records,
    open_records,
    parse,
    write_puzzles,
)
from sudoku_cp.formats.codec import codec
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.result import SolveResult, Status

DEFAULT_SHAPES = [
    Rules.classic(2, 2),
    Rules.classic(2, 3),
    Rules.classic(3, 3),
    Rules.classic(3, 4),
    Rules.classic(4, 4),
    Rules.classic(5, 5),
]
#: shapes that must be given explicitly (not the default box shape of their size)
EXPLICIT_SHAPES = [
    Rules.classic(4, 3),
    Rules.classic(2, 6),
    Rules.classic(1, 5),
    Rules.classic(1, 4),
    Rules.classic(2, 4),
]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def solved_grid(rules: Rules, rng: random.Random) -> list[int]:
    """A random complete grid: the standard pattern, digits relabelled, rows shuffled within bands."""
    n, br, bc = rules.n, rules.box_rows, rules.box_cols
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    rows = []
    for band in range(bc):
        within = [band * br + i for i in range(br)]
        rng.shuffle(within)
        rows += within
    return [labels[(bc * (r % br) + r // br + c) % n] for r in rows for c in range(n)]


@st.composite
def puzzles(draw: st.DrawFn, rules_list: list[Rules] = DEFAULT_SHAPES) -> Puzzle:
    """A partial grid with no digit twice in a unit (the givens of a complete grid)."""
    rules = draw(st.sampled_from(rules_list))
    rng = random.Random(draw(st.integers(0, 2**32)))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    full = solved_grid(rules, rng)
    return Puzzle(rules, tuple(d if rng.random() < density else 0 for d in full))


@st.composite
def random_grids(draw: st.DrawFn) -> Puzzle:
    """Any digits anywhere, duplicates likely."""
    rules = draw(st.sampled_from(DEFAULT_SHAPES + EXPLICIT_SHAPES))
    rng = random.Random(draw(st.integers(0, 2**32)))
    density = draw(st.sampled_from([0.05, 0.2, 0.6]))
    return Puzzle(
        rules, tuple(rng.randint(1, rules.n) if rng.random() < density else 0 for _ in range(rules.ncells))
    )


def check_records(got: list[Record]) -> None:
    """Every record holds a puzzle or a located ParseError; numbers run 1, 2, ...; lines increase."""
    assert [r.index for r in got] == list(range(1, len(got) + 1))
    assert all(a.line < b.line for a, b in itertools.pairwise(got))
    for r in got:
        assert (r.puzzle is None) != (r.error is None)
        if r.error is not None:
            assert isinstance(r.error, ParseError)
            assert r.error.index == r.index and r.error.line is not None and r.error.line >= r.line
            str(r.error)  # the message can be built


# -- round trips -------------------------------------------------------------------------------------------


@SETTINGS
@given(puzzles(DEFAULT_SHAPES + EXPLICIT_SHAPES), st.sampled_from([*INPUT_FORMATS, "pretty"]))
def test_parse_inverts_format(puzzle: Puzzle, format: str) -> None:
    text = format_puzzle(puzzle, format)
    explicit = puzzle.rules not in DEFAULT_SHAPES
    layout = "grid" if format == "pretty" else format
    assert parse(text, layout, rules=puzzle.rules) == [puzzle]
    if not explicit:
        assert parse(text) == [puzzle]  # detected layout and shape
        assert parse(text + "\n", layout) == [puzzle]


@SETTINGS
@given(st.lists(puzzles(), min_size=0, max_size=4), st.sampled_from(INPUT_FORMATS))
def test_write_puzzles_reads_back(items: list[Puzzle], format: str) -> None:
    out = io.StringIO()
    assert write_puzzles(out, items, format) == len(items)
    assert parse(out.getvalue(), format) == items
    if len({p.rules for p in items}) <= 1:
        assert parse(out.getvalue()) == items


@SETTINGS
@given(st.lists(puzzles(), min_size=1, max_size=4), st.sampled_from(INPUT_FORMATS))
def test_results_read_back_as_their_solutions(items: list[Puzzle], format: str) -> None:
    grids = [Puzzle(p.rules, tuple(solved_grid(p.rules, random.Random(i)))) for i, p in enumerate(items)]
    out = io.StringIO()
    writer = ResultWriter(out, format)
    for i, grid in enumerate(grids, start=1):
        writer.write(i, SolveResult(grid, Status.SOLVED, (grid,)))
    writer.close()
    got = list(iter_records(out.getvalue().splitlines(), format))
    if format == "csv":  # the csv output holds the puzzle and its solution
        assert [(r.puzzle, r.solution) for r in got] == [(g, g) for g in grids]
    else:
        assert [r.puzzle for r in got] == grids


# -- the fast consistency check agrees with the plain one -------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(random_grids())
def test_fast_check_agrees_with_conflicts(puzzle: Puzzle) -> None:
    c = codec(puzzle.rules)
    assert c.consistent(bytes(puzzle.cells)) == (not puzzle.conflicts())
    [record] = iter_records(format_puzzle(puzzle).splitlines(), "line", rules=puzzle.rules)
    assert (record.error is None) == (not puzzle.conflicts())
    lines = format_puzzle(puzzle).splitlines()
    [lenient] = iter_records(lines, "line", rules=puzzle.rules, validate=False)
    assert lenient.puzzle == puzzle


# -- junk never crashes ------------------------------------------------------------------------------------

JUNK_CHARS = st.sampled_from(list('123456789ABCDEFG.0?_-#|+=,;" \t\r\n\x00\x0b\ufeffé\u2028'))
junk_text = st.one_of(st.text(JUNK_CHARS, max_size=400), st.text(max_size=200))


@settings(max_examples=200, deadline=None)
@given(junk_text, st.sampled_from([None, *INPUT_FORMATS]))
def test_junk_text_gives_only_records(text: str, format: str | None) -> None:
    check_records(list(iter_records(text.splitlines(keepends=True), format)))
    check_records(list(iter_records(text.split("\n"), format)))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=600), st.sampled_from([None, *INPUT_FORMATS]))
def test_junk_bytes_give_only_records(data: bytes, format: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "junk"
        path.write_bytes(data)
        check_records(list(open_records(path, format)))


@SETTINGS
@given(
    st.lists(
        st.one_of(puzzles(), st.text(JUNK_CHARS, max_size=90).map(lambda s: s.replace("\n", ""))), max_size=8
    )
)
def test_good_lines_keep_their_numbers_among_bad_ones(items: list[Puzzle | str]) -> None:
    lines = [format_puzzle(x) if isinstance(x, Puzzle) else x for x in items]
    got = list(iter_records(lines, "line"))
    check_records(got)
    # byte order marks that open a line (the text's, or files joined by cat) are the reader's to drop
    texts = [line.strip() for line in lines]
    for i, text in enumerate(texts):
        while text.startswith("\ufeff"):
            text = texts[i] = text[1:].lstrip()
    content = [(i + 1, x) for i, (x, text) in enumerate(zip(items, texts, strict=True))
               if text.strip() and not text.strip().startswith("#")]  # fmt: skip
    assert len(got) == len(content)
    for record, (line, item) in zip(got, content, strict=True):
        assert record.line == line
        if isinstance(item, Puzzle):
            assert record.puzzle == item
