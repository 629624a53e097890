"""Sudoku Explainer's chains (cycles, forcing chains, Nishio, multiple, dynamic, dynamic (+)) against
serate's ratings and step traces, and the walk of ``steps`` that is SE's on classic puzzles.

The expected ratings are serate 1.2.1.3's output (commit 729c00e3 of github.com/1to9only/SudokuExplainer,
OpenJDK 17), on puzzles of SE's own generator, Sudoku Exchange's bank and magictour's top 1465; the trace is
the same build's applied hints, replayed step by step; the nested chains' puzzles are from the forum's
hardest list (forum_hardest_1106).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_cp import Puzzle, Rules, generate, solve
from sudoku_cp.human import hint, se_walks, walk
from sudoku_cp.se import rate_se, se_walk
from sudoku_cp.se.chaining import ChainHint, Tokens, length_difficulty
from sudoku_cp.se.grid import bits
from sudoku_cp.se.propagation import ADVANCED_CAUSE

# serate 1.2.1.3: puzzle -> ER/EP/ED, and the family of the hardest step
RATED = {
    "43.6........518..4.12.3.....4...97.....2....6.2...38...64.7.......491..879.3.....": "6.6/1.2/1.2",
    "...2.4...97.....56.4.....1.481...695...4.9..............3...7.....1.8...2.87.63.1": "6.7/1.2/1.2",
    "...1.4.....6..21....3.6..7..1.6...83.9..8.5..7....1..9.74...69...1.26......8.....": "7.1/1.2/1.2",
    "91.3..6..3..6.815...........3..7.5.1.....4....8..3.9.2.........1..4.932.27.5..8..": "7.2/1.2/1.2",
    "6...7...5.231.......8.93........74..96.4..2.8.4..2..5.......56....58..2.2...6...1": "7.7/1.2/1.2",
    ".2.....9.8.......7.67...23...37.49....8.3.6...7.6.8.1....9.5...9...7...81..342..9": "7.8/1.2/1.2",
    "..9..5..32..6...5.6....37........9.6...28....1...6..7..4......2..5......8..3..61.": "8.4/1.2/1.2",
    ".3....4......8.2..1.4....9..7.....2..156.7........2....93...81....1....7...85..6.": "8.2/1.2/1.2",
    "58........4...52.8...9.2...9....3.65...49..2.....5...1...36.....54...7..6........": "8.5/1.2/1.2",
}
# nested levels (forum_hardest_1106): dynamic chains that run pointing, pairs and X-wings (level 1, "(+)"),
# forcing chains (2) or multiple forcing chains (3) each time a propagation stalls
NESTED = {
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3": "10.3/1.2/1.2",
    ".234.......6.8....7....35....4....7....8...9.9....7..53....1.5....2....3.6....9.1": "11.0/11.0/11.0",
}

TRACED = ".3.9.6.8...67.82..1...3...6.1.....6.3.2.9.5.8...4.3....49...81.7...4...5.5.....2."
# serate's first 35 hints on TRACED: difficulty, p where it places, and a chain's complexity
TRACE = (
    "1.2 p;1.5 p;2.3 p;2.6;3.4;4.2;6.6 6;7.1 8;7.2 10;7.2 10;2.6;7.1 8;7.1 p 8;7.2 10;7.2 10;7.3 12;"
    "2.6;1.5 p;7.3 12;3.2;3.4;3.4;2.0 p;2.3 p;3.4;4.2;1.5 p;1.2 p;1.2 p;1.2 p;1.0 p;1.2 p;1.5 p;6.6 6;6.6 6"
)


@pytest.mark.parametrize("puzzle", list(RATED))
def test_serates_ratings_of_chain_puzzles(puzzle: str) -> None:
    assert str(rate_se(puzzle)) == RATED[puzzle]


@pytest.mark.parametrize("puzzle", list(NESTED))
def test_serates_ratings_of_nested_chains(puzzle: str) -> None:
    assert str(rate_se(puzzle)) == NESTED[puzzle]


def test_the_walk_follows_serates_trace_hint_by_hint() -> None:
    hints, stuck = se_walk(Puzzle.from_string(TRACED))
    assert not stuck and str(rate_se(TRACED)) == "7.3/1.2/1.2"
    got = []
    for h in hints[:35]:
        words = [f"{h.difficulty:.1f}"] + ["p"] * (h.cell is not None)
        if isinstance(h, ChainHint):
            words.append(str(h.complexity))
        got.append(" ".join(words))
    assert ";".join(got) == TRACE


def test_length_bonus_follows_ses_ceilings() -> None:
    # complexity - 2 passes the ceilings 4, 6, 8, 12, 16, 24, 32, 48, ... one tenth each
    steps = {6: 0.0, 7: 0.1, 8: 0.1, 9: 0.2, 10: 0.2, 11: 0.3, 14: 0.3, 15: 0.4, 18: 0.4, 19: 0.5, 26: 0.5}
    steps |= {27: 0.6, 34: 0.6, 35: 0.7, 50: 0.7, 51: 0.8, 66: 0.8, 67: 0.9, 98: 0.9, 99: 1.0}
    for complexity, bonus in steps.items():
        assert round(length_difficulty(complexity), 10) == bonus, complexity
    assert 7.0 + length_difficulty(11) == 7.3  # the double arithmetic SE prints as 7.3


def test_every_step_keeps_the_solution() -> None:
    for puzzle in list(RATED)[:5]:
        solution = solve(puzzle, backend="dfs").solution
        assert solution is not None
        for step in walk(Puzzle.from_string(puzzle)).steps:
            for cell, digit in step.placements:
                assert solution.cells[cell] == digit, step.text
            for cell, digit in step.eliminations:
                assert solution.cells[cell] != digit, step.text


# a top1465 puzzle whose walk takes an aligned triplet exclusion (7.5) at its 37th hint; serate 1.2.1.3
TRIPLET = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


def test_an_aligned_triplet_exclusion_keeps_the_solution_and_the_rating() -> None:
    hints, stuck = se_walk(Puzzle.from_string(TRIPLET))
    assert not stuck and str(rate_se(TRIPLET)) == "8.3/1.2/1.2"
    solution = solve(TRIPLET, backend="dfs").solution
    assert solution is not None
    used = [h for h in hints if h.name == "Aligned Triplet Exclusion"]
    assert [hints.index(h) for h in used] == [36]
    # R4C7, R5C4 and R4C8: R4C8 cannot be 8
    assert (used[0].difficulty, used[0].cells, used[0].eliminations()) == (7.5, (33, 39, 34), [(34, 8)])
    assert solution.cells[34] != 8


def test_steps_and_hint_are_ses_walk_on_classic_puzzles() -> None:
    puzzle = Puzzle.from_string(TRACED)
    assert se_walks(puzzle)
    done = walk(puzzle)
    assert str(done.rating) == "7.3/1.2/1.2" and done.result == "solved"
    names = [s.technique for s in done.steps]
    assert names[:7] == [
        "Hidden single", "Hidden single", "Naked single", "Pointing", "Hidden pair", "XY-wing", "Turbot fish"
    ]  # fmt: skip
    assert names[7] == "Forcing chain" and done.steps[7].links and done.steps[7].reason.startswith("r8c4=6")
    assert hint(puzzle).step == done.steps[0]
    # sudoku-cp's own walk, on request: its chains are its own
    assert walk(puzzle, explainer=False).steps[6].technique != "Turbot fish"


def test_other_puzzles_keep_sudoku_cps_walk() -> None:
    x = next(generate(1, Rules.classic(3, 3).with_named("x"), seed=3, rate=False)).puzzle
    several = Puzzle.from_string("12..............")
    big = next(generate(1, Rules.classic(4, 4), blanks=30, seed=1, rate=False)).puzzle
    for puzzle in (x, several, big):
        assert not se_walks(puzzle)
    assert se_walks(next(generate(1, Rules.classic(2, 3), seed=2, rate=False)).puzzle)  # 6x6 is classic


def _chain_hints(puzzle: str, multiple: bool) -> list[tuple]:
    """Every hint SE's dynamic forcing chains (8.5+; else its cycles and forcing chains, 6.5+) find on a
    puzzle's first grid, in the order given."""
    from sudoku_cp.se.chaining import Chaining
    from sudoku_cp.se.grid import Grid

    producer = Chaining(multiple=multiple, dynamic=multiple, nishio=False, level=0)
    found = producer(Grid.of(Puzzle.from_string(puzzle)))
    return [
        (h.name, h.difficulty, h.complexity, h.sort_key, tuple(h.removable.items()), h.cell) for h in found
    ]


@pytest.mark.parametrize("multiple", [True, False])
def test_chain_hints_come_in_ses_order_and_the_same_on_every_call(multiple: bool) -> None:
    """Hints are made when read, in SE's order (difficulty, complexity, kind; one per set of removals),
    and a search leaves nothing behind for the next one: the same grid gives the same hints after another
    grid was searched."""
    first, other = list(RATED)[-1], list(RATED)[-2]
    hints = _chain_hints(first, multiple)
    assert len(hints) > 5
    assert [h[1:4] for h in hints] == sorted(h[1:4] for h in hints)
    assert len({tuple(sorted(h[4])) for h in hints}) == len(hints)
    assert all(h[4] for h in hints)
    assert _chain_hints(other, multiple) != hints
    assert _chain_hints(first, multiple) == hints


def test_chain_hints_read_later_are_those_of_the_grid_searched() -> None:
    """A producer's hints are made when read, from the grid as it was searched: changing the grid after
    the search (here, to its solution) does not change the hints read after that."""
    from sudoku_cp.se.chaining import Chaining
    from sudoku_cp.se.grid import Grid

    puzzle = Puzzle.from_string(list(RATED)[-1])

    def described(hints: list) -> list[tuple]:
        return [(h.name, h.difficulty, tuple(h.removable.items()), h.cell, h.value) for h in hints]

    every = described(list(Chaining(False, False, False, 0)(Grid.of(puzzle))))
    grid = Grid.of(puzzle)
    found = Chaining(False, False, False, 0)(grid)
    solution = solve(puzzle, backend="dfs").solution
    assert solution is not None
    grid.cands[:] = [1 << (d - 1) for d in solution.cells]
    assert len(every) > 5 and described(list(found)) == every


def _grids_along_walks() -> list[list[int]]:
    """Candidates of the grids SE's walk meets on the chain puzzles, and of each with a few candidates
    struck at random (more cells with two candidates, more digits with two places: more chains)."""
    import random

    from sudoku_cp.se.grid import Grid

    rng = random.Random(7)
    grids = []
    for text in list(RATED)[::2]:
        grid = Grid.of(Puzzle.from_string(text))
        hints, _ = se_walk(Puzzle.from_string(text))
        for h in hints[:40:4]:
            grids.append(list(grid.cands))
            struck = list(grid.cands)
            for _ in range(12):
                c = rng.randrange(len(struck))
                if struck[c].bit_count() > 2:
                    struck[c] &= ~(1 << (rng.choice([d for d in range(9) if struck[c] >> d & 1])))
            grids.append(struck)
            h.apply(grid)
    return grids


def test_chain_searches_skipped_by_reachability_would_have_found_nothing() -> None:
    """The unary search (cycles, forcing chains) and the static multiple chains skip the searches whose
    start cannot reach what they look for: on grids along SE's walks and struck at random, they find the
    same paths (byte for byte) and the same hints as the searches that run everywhere."""
    import numpy as np

    from sudoku_cp.se import multiple, unary
    from sudoku_cp.se.propagation import tables

    regions, block_of, where = tables(3, 3)
    grids = _grids_along_walks()
    assert len(grids) > 40
    found_any = 0
    for cands in grids:
        source = np.array(cands, dtype=np.int64)
        pruned, every = (unary.search(source, regions, block_of, where, 9, prune) for prune in (True, False))
        assert all(np.array_equal(a, b) for a, b in zip(pruned, every, strict=True))
        hints = []
        for prune in (True, False):
            found, refs, rows, _ = multiple.search(source, regions, where, 9, False, True, False, prune)
            ends = [
                rows[0][refs[f[multiple.FIRST] : f[multiple.FIRST] + f[multiple.COUNT]]].tolist()
                for f in found
            ]
            hints.append((found[:, : multiple.FLAT + 1].tolist(), ends))
        assert hints[0] == hints[1]
        found_any += bool(len(pruned[0])) + bool(hints[0][0])
    assert found_any > 10


def test_an_aligned_triplet_exclusion_is_found_with_one_combination_a_digit_as_with_all() -> None:
    """Aligned triplet exclusion looks, for each digit of a triplet's cells, for one combination that
    allows it: on grids along SE's walks and struck at random, the same rows (cells and the digits each
    keeps), in the same order, as trying every combination of the three cells' digits."""
    import random

    import numpy as np

    from sudoku_cp.se import exclusion

    rng = random.Random(5)
    grids = _grids_along_walks()
    for cands in list(grids):
        struck = list(cands)
        for _ in range(25):  # fewer candidates: more excluders, more exclusions
            c = rng.randrange(len(struck))
            if struck[c].bit_count() > 2:
                struck[c] &= ~(1 << rng.choice([d for d in range(9) if struck[c] >> d & 1]))
        grids.append(struck)
    found = 0
    for cands in grids:
        source = np.array(cands, dtype=np.int64)
        rows = exclusion.search(source, 3, 3, 3)
        assert np.array_equal(rows, exclusion.search(source, 3, 3, 3, every=True))
        found += len(rows) > 0
    assert found > 20


@pytest.mark.parametrize(("paths", "keys"), [(1, 1024), (64, 4)], ids=["paths short", "keys short"])
def test_unary_paths_found_in_a_fresh_room_are_those_found_in_a_grown_one(paths, keys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The unary search runs in arrays it keeps between calls, its marks told apart by stamps that go on
    from call to call; a process's first calls run out of room for paths, grow it and start over. From a
    fresh room, from a grown one, and with the stamps reset (the marks zeroed) at every call, it finds
    the same paths (each as many as SE's search finds)."""
    import numpy as np

    from sudoku_cp.se import unary
    from sudoku_cp.se.propagation import tables

    regions, block_of, where = tables(3, 3)
    grids = [np.array(cands, dtype=np.int64) for cands in _grids_along_walks()]

    def searched() -> list[tuple[np.ndarray, np.ndarray]]:
        return [unary.search(g, regions, block_of, where, 9) for g in grids]

    monkeypatch.setattr(unary, "_ROOMS", {})
    monkeypatch.setattr(unary._Room, "FOUND", paths)  # too little room: the first searches grow it
    monkeypatch.setattr(unary._Room, "PATH", keys)
    fresh = searched()
    assert sum(len(found) for found, _ in fresh) > 100
    grown = searched()
    monkeypatch.setattr(unary._Room, "STAMP_LIMIT", 50)
    reset = searched()
    for a, b, c in zip(fresh, grown, reset, strict=True):
        assert all(np.array_equal(x, y) and np.array_equal(x, z) for x, y, z in zip(a, b, c, strict=True))


def test_level_zero_chains_found_in_a_fresh_room_are_those_found_in_a_grown_one(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The compiled level-0 search runs in arrays it keeps between calls; a process's first calls run out
    of room for rows, hints and branches, grow it and start over. From a fresh room (as a new process has
    it), every producer finds the same rows, ends and arena as once the room has grown."""
    import numpy as np

    from sudoku_cp.se import multiple
    from sudoku_cp.se.propagation import tables

    regions, _, where = tables(3, 3)
    grids = [np.array(cands, dtype=np.int64) for cands in _grids_along_walks()[:12]]
    modes = [(False, True, True), (True, False, True), (False, True, False), (False, False, True)]

    def searched() -> list[list[np.ndarray]]:
        return [list(multiple.search(g, regions, where, 9, *mode)) for g in grids for mode in modes]

    monkeypatch.setattr(multiple, "_ROOMS", {})
    fresh = searched()
    grown = searched()
    assert sum(len(found) for found, *_ in grown) > 100
    for a, b in zip(fresh, grown, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_level_four_resuming_level_one_finds_what_it_finds_afresh() -> None:
    """Level 4's inner techniques begin with level 1's (pointing, pairs, X-wings; then dynamic chains), so
    it resumes level 1's propagations of the same grid where they stalled for good: the same hints, in
    the same order, as level 4 propagating every assumption itself."""
    from sudoku_cp.se.chaining import Chaining
    from sudoku_cp.se.grid import Grid
    from sudoku_cp.se.hints import Hint

    grid = Grid.of(Puzzle.from_string(next(iter(NESTED))))

    def described(hints: list[Hint]) -> list[tuple[str, float, list[tuple[int, int]]]]:
        return [(h.name, round(h.difficulty, 4), sorted(h.removable.items())) for h in hints]

    ends: dict = {}  # type: ignore[type-arg]
    for level in (1, 2, 3):
        list(Chaining(True, True, False, level, ends=ends)(grid))
    resumed = described(list(Chaining(True, True, False, 4, ends=ends)(grid)))
    assert len(resumed) > 10
    assert resumed == described(list(Chaining(True, True, False, 4)(grid)))


@pytest.mark.parametrize("level", [2, 3])
def test_a_nested_level_gives_its_hints_in_se_order_read_in_full_or_the_first_alone(level: int) -> None:
    """A nested level's hints are finished (their inner hints' complexity read) lazily, in the order of a
    lower bound of their sort key (``sorted_lazily``): read in full they are sorted by difficulty,
    complexity and kind, one per set of removals, and the first read alone is the first of the whole."""
    from sudoku_cp.se.chaining import Chaining
    from sudoku_cp.se.grid import Grid

    grid = Grid.of(Puzzle.from_string(next(iter(NESTED))))
    every = list(Chaining(True, True, False, level)(grid))
    keys = [(h.difficulty, h.complexity, h.sort_key) for h in every]
    assert len(every) > 10 and len({k[1] for k in keys}) > 5
    assert keys == sorted(keys)
    removals = [tuple(sorted(h.removable.items())) for h in every]
    assert len(set(removals)) == len(removals)
    first = next(iter(Chaining(True, True, False, level)(grid)))
    assert (first.name, first.difficulty) == (every[0].name, every[0].difficulty)
    assert first.removable == every[0].removable


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=40), st.integers(0, 5))
def test_sorted_lazily_is_a_stable_sort_that_computes_only_the_keys_it_needs(
    pairs: list[tuple[int, int]], read: int
) -> None:
    """Items of a bound and an excess (the exact key their sum, costly to compute): all read, the stable
    sort by the exact key; the first ``read`` read, exact keys computed once each and only for items
    whose bound is below the last exact key given (keys compared with the items' places, which break
    ties)."""
    from sudoku_cp.se.chaining import sorted_lazily

    computed: list[int] = []

    def exact(i: int) -> int:
        computed.append(i)
        return sum(pairs[i])

    items = list(range(len(pairs)))
    everything = list(sorted_lazily(items, lambda i: pairs[i][0], exact))
    assert everything == sorted(items, key=lambda i: sum(pairs[i]))
    computed.clear()
    given_ = list(itertools.islice(sorted_lazily(items, lambda i: pairs[i][0], exact), read))
    assert len(set(computed)) == len(computed)
    if given_:
        last = (sum(pairs[given_[-1]]), given_[-1])
        assert all((pairs[i][0], i) < last for i in computed if i not in given_)


def test_chains_read_off_the_rows_are_the_chains_of_the_potentials() -> None:
    """Nested levels read a hint's chains (its identity, the struck candidates it rests on, its inner
    hints) off the propagation's rows, making no potential (``Rows.chain``): the same rows in the same
    order as ``chain_of`` walks the potentials, and the same parents and identity as the hint held as
    potentials, on the hints levels 2 and 3 find on a forum puzzle's first grids and on every hint
    nested in them."""
    import dataclasses

    from sudoku_cp.se.chaining import Chaining, chain_of
    from sudoku_cp.se.grid import Grid

    puzzle = Puzzle.from_string(list(NESTED)[1])
    hints, _ = se_walk(puzzle)
    first, second = Grid.of(puzzle), Grid.of(puzzle)
    for h in hints[:1]:
        h.apply(second)
    later = Grid.of(puzzle)
    for h in hints[:4]:
        h.apply(later)
    todo = [(h, first) for h in Chaining(True, True, False, 3, ends={})(first)]
    todo += [(h, second) for h in Chaining(True, True, False, 2, ends={})(second)]
    checked = nested = deferred = 0
    while todo:
        h, source = todo.pop()
        if not (isinstance(h, ChainHint) and h.rows):
            continue
        from_rows = h.parents(source, later)
        for store, row in h.rows:
            for inner in store.nested.values():  # an inner hint held as its place (made when read)
                made = inner.made()
                assert (inner.complexity, inner.identity()) == (made.complexity, made.identity())
                deferred += inner is not made
            chain = store.chain(row).tolist()
            potentials = chain_of(store.potential(row))
            assert [p.key for p in potentials] == store.pkey[chain].tolist()
            assert all(
                p.nested is (store.nested[r].made() if r in store.nested else None)
                for p, r in zip(potentials, chain, strict=True)
            )
            inner = [p.nested for p in potentials if p.nested is not None]
            nested += len(inner)
            todo += [(x, source) for x in inner]
        by_potentials = dataclasses.replace(h, rows=(), ends=h.targets)  # the same chains, as potentials
        assert by_potentials.parents(source, later) == from_rows
        assert by_potentials.identity() == h.identity()
        tokens = Tokens()  # the same identity, the same number
        assert by_potentials.token(tokens) == h.token(tokens) == tokens.number(h.identity())
        checked += 1
    assert checked > 10 and nested > 10 and deferred > 10, (checked, nested, deferred)


def _forum_grid():  # type: ignore[no-untyped-def]
    """A forum puzzle's first grid, with its regions' table and its candidates, values and places as
    arrays (what the propagations of a nested level read)."""
    import numpy as np

    from sudoku_cp.se.grid import Grid
    from sudoku_cp.se.propagation import places_of, tables

    grid = Grid.of(Puzzle.from_string(list(NESTED)[1]))
    regions, _, where = tables(grid.geo.box_rows, grid.geo.box_cols)
    before = np.array(grid.cands, dtype=np.int64)
    values = np.array(grid.values, dtype=np.int64)
    return grid, regions, before, values, places_of(before, where, grid.geo.n)


def _stalled_offs(grid, before, places):  # type: ignore[no-untyped-def]
    """The propagations of each candidate of ``grid`` being off (``before``, ``places``: its arrays)
    that stall without a contradiction, as a nested level's inner techniques meet them."""
    from sudoku_cp.se.propagation import Store

    for cell in range(grid.geo.ncells):
        for digit in bits(grid.cands[cell]):
            store = Store(grid.geo, before, places, True, True, cell, digit, False)
            if store.run() is None:
                yield store


def test_the_struck_candidates_of_all_hints_at_once_are_each_hints() -> None:
    """A nested level reads what every hint of a level-0 producer rests on in one kernel call
    (``CompiledHints.struck``): for each hint the same keys, in the same order, as the hint's own
    ``struck``, on grids reduced by a propagation from each of a forum puzzle's first candidates."""

    from sudoku_cp.se.chaining import Chaining, CompiledHints
    from sudoku_cp.se.grid import Grid

    grid, regions, before, values, places = _forum_grid()
    geo = grid.geo
    compared = struck = 0
    for store in _stalled_offs(grid, before, places):
        after = store.cands.copy()
        reduced = Grid(geo, grid.values, after.tolist())
        for multiple, dynamic in ((True, True), (True, False)):
            hints = Chaining(multiple, dynamic, False, 0).hints(reduced, values, after)
            assert isinstance(hints, CompiledHints)
            keys, starts = hints.struck(before, after, regions, geo.n)
            for i, found in enumerate(hints):
                one = found.struck(before, after, regions, geo.n).tolist()
                assert keys[starts[i] : starts[i + 1]].tolist() == one
                compared += 1
                struck += bool(one)
    assert compared > 100 and struck > 20, (compared, struck)


@pytest.mark.parametrize("how", ["room", "shared", "no room"])
def test_the_strikes_of_all_hints_added_at_once_are_those_added_one_by_one(how: str) -> None:
    """A nested level adds the strikes of a level-0 producer's hints in one kernel call
    (``Store.add_struck``): the same rows (keys, causes, parents in order), queue and counters as
    ``Store.add_off`` for each digit of each hint that rests on something, in order, and the same count of
    such hints. On a forum puzzle's propagations, stalled, reduced by each candidate's "off" and searched
    by the dynamic producer; ``shared``: the store is a copy (``Store.copy``), whose arrays are made its
    own first; ``no room``: room for one more parent, so that the arrays grow."""
    import numpy as np

    from sudoku_cp.se.chaining import Chaining, CompiledHints
    from sudoku_cp.se.grid import Grid

    grid, regions, before, values, places = _forum_grid()
    geo = grid.geo
    placed = next(c for c in range(81) if grid.values[c])
    added = resting_seen = 0
    for at_once in _stalled_offs(grid, before, places):
        if how == "no room":
            room = len(at_once.par) - int(at_once.cnt[1]) - 1
            at_once.add_off(placed, grid.values[placed], [0] * room, ADVANCED_CAUSE, None)
        one_by_one = at_once.copy()
        if how == "shared":
            at_once, one_by_one = one_by_one, at_once
        else:
            at_once.own()
        after = at_once.cands.copy()
        reduced = Grid(geo, grid.values, after.tolist())
        hints = Chaining(True, True, False, 0).hints(reduced, values, after)
        assert isinstance(hints, CompiledHints)
        keys, starts = hints.struck(before, after, regions, geo.n)
        cells, masks = hints.removals()
        resting, new = at_once.add_struck(keys, starts, cells, masks, ADVANCED_CAUSE)
        expected, count = [], 0
        for i in range(len(cells)):
            rows = one_by_one.index_of[keys[starts[i] : starts[i + 1]]].tolist()
            count += bool(rows)
            for d in bits(int(masks[i])) if rows else ():
                if one_by_one.add_off(int(cells[i]), d, rows, ADVANCED_CAUSE, None):
                    expected.append([int(one_by_one.cnt[0]) - 1, i])
        assert (resting, new) == (count, expected)
        made = int(at_once.cnt[0])
        for name in ("pkey", "pcause", "pstart", "pnpar", "qoff"):
            assert np.array_equal(getattr(at_once, name)[:made], getattr(one_by_one, name)[:made])
        assert np.array_equal(at_once.par[: at_once.cnt[1]], one_by_one.par[: one_by_one.cnt[1]])
        assert np.array_equal(at_once.cnt, one_by_one.cnt)
        assert np.array_equal(at_once.index_of, one_by_one.index_of)
        added += len(new)
        resting_seen += resting > 0
    assert added > 100 and resting_seen > 20, (added, resting_seen)


def _inner_by_hints(store, grid) -> int:  # type: ignore[no-untyped-def]
    """What SE's first four inner techniques add to a stalled ``store``, as their hint producers find it
    (``subsets``: pointing and claiming, hidden and naked pairs, X-wings) with each hint's parents
    (``Hint.parents``): the reference the compiled ``advanced.run_inner`` is held to."""
    from sudoku_cp.se import advanced, subsets
    from sudoku_cp.se.grid import Grid

    reduced = Grid(grid.geo, grid.values, store.cands.tolist())
    for rule in (subsets.locking, subsets.hidden_set(2), subsets.naked_set(2), subsets.fish(2)):
        found = []
        for h in rule(reduced):
            rows = [store.row(c, d, False) for c, d in h.parents(grid, reduced)]
            if rows:
                found += [(c, d, rows) for c, mask in h.removable.items() for d in bits(mask)]
        if found:
            added = [store.add_off(c, d, rows, ADVANCED_CAUSE, None) for c, d, rows in found]
            return advanced.ADDED if any(added) else advanced.NOTHING_NEW
    return advanced.NOTHING


# grids where each of the four techniques is the first productive one at tens of stalls or more: a
# forum puzzle's first grid (33 X-wings), another's first (pointing whose crossing holds a strike) and
# its grid after 28 steps (121 naked pairs)
GRIDS = ((next(iter(NESTED)), 0), (list(NESTED)[1], 0), (list(NESTED)[1], 28))


def _walked_grids():  # type: ignore[no-untyped-def]
    """The grids of ``GRIDS`` (a puzzle after so many steps of SE's walk), each with its candidates,
    values and places as arrays, and a placed cell."""
    import numpy as np

    from sudoku_cp.se.grid import Grid
    from sudoku_cp.se.propagation import places_of, tables

    for line, steps in GRIDS:
        puzzle = Puzzle.from_string(line)
        hints, _ = se_walk(puzzle)
        grid = Grid.of(puzzle)
        for h in hints[:steps]:
            h.apply(grid)
        source = np.array(grid.cands, dtype=np.int64)
        places = places_of(source, tables(3, 3)[2], 9)
        placed = next(c for c in range(81) if grid.values[c])
        yield grid, source, np.array(grid.values, dtype=np.int64), places, placed


@pytest.mark.parametrize("tight", [False, True], ids=["room", "no room"])
def test_the_compiled_inner_techniques_add_what_their_hints_add(tight: bool) -> None:
    """Each time a nested level's propagation stalls, pointing and claiming, hidden and naked pairs and
    X-wings run on the reduced grid, and the first that finds hints resting on the assumption adds their
    strikes (``advanced.run_inner``, one kernel call): the same outcome and the same rows (keys, causes,
    parents in order) as the hints of ``subsets`` with their parents, on every assumption of a forum
    puzzle's grids, from each stall to the next until the propagation ends. ``tight``: at each first
    stall the propagation's room for parents is filled up to one (an "off" of a placed cell's digit with
    that many parents, added to both) so that the strikes need the room to grow, and the check ends there."""
    import numpy as np

    from sudoku_cp.se import advanced
    from sudoku_cp.se.propagation import Store

    outcomes = {advanced.ADDED: 0, advanced.NOTHING_NEW: 0, advanced.NOTHING: 0}
    for grid, source, values, places, placed in _walked_grids():
        for cell in range(81):
            for digit in bits(grid.cands[cell]):
                for on in (True, False):
                    compiled = Store(grid.geo, source, places, True, True, cell, digit, on)
                    by_hints = Store(grid.geo, source, places, True, True, cell, digit, on)
                    while compiled.run() is None and by_hints.run() is None:
                        if tight:
                            for store in (compiled, by_hints):
                                room = len(store.par) - int(store.cnt[1]) - 1
                                store.add_off(placed, grid.values[placed], [0] * room, ADVANCED_CAUSE, None)
                        outcome = advanced.run_inner(compiled, values, 0, ADVANCED_CAUSE)
                        assert outcome == _inner_by_hints(by_hints, grid)
                        rows = int(compiled.cnt[0])
                        for name in ("pkey", "pcause", "pstart", "pnpar"):
                            assert np.array_equal(
                                getattr(compiled, name)[:rows], getattr(by_hints, name)[:rows]
                            )
                        assert np.array_equal(
                            compiled.par[: compiled.cnt[1]], by_hints.par[: by_hints.cnt[1]]
                        )
                        assert np.array_equal(compiled.cnt, by_hints.cnt)
                        outcomes[outcome] += 1
                        if outcome != advanced.ADDED or tight:
                            break
    # (at a stall every strike known is struck, so a dynamic propagation never meets NOTHING_NEW)
    assert outcomes[advanced.ADDED] > 100 and outcomes[advanced.NOTHING] > 100, outcomes


@pytest.mark.parametrize(("skip", "tight"), [(0, False), (2, False), (0, True)])
def test_settling_a_propagation_is_running_it_and_its_inner_techniques_in_turn(
    skip: int, tight: bool
) -> None:
    """``advanced.settle`` (one kernel call) propagates and runs the four inner techniques at each
    stall until they add nothing: the same rows, counters, candidates and outcome as ``Store.run`` and
    ``advanced.run_inner`` called in turn, on every assumption of a forum puzzle's grids; the first stall
    from the ``skip``-th technique. Stores made with room for one row and one parent grow for the
    propagation on the way; ``tight``: at the first stall both stores' room for parents is filled up to
    one (as in the test above, the filler's "off" taken as done), so that the strikes need room to grow."""
    import numpy as np

    from sudoku_cp.se import advanced
    from sudoku_cp.se.propagation import OFF_HEAD, OFF_TAIL, Store

    ends = {"absurd": 0, advanced.NOTHING: 0, advanced.NOTHING_NEW: 0}
    for grid, source, values, places, placed in _walked_grids():
        for cell in range(81):
            for digit in bits(grid.cands[cell]):
                for on in (True, False):
                    settled = Store(grid.geo, source, places, True, True, cell, digit, on)
                    if cell % 2 and not tight:  # no room to start with
                        for name in ("pkey", "pcause", "pstart", "pnpar", "qon", "qoff"):
                            setattr(settled, name, getattr(settled, name)[:1].copy())
                        settled.par = settled.par[:1].copy()
                    in_turn = Store(grid.geo, source, places, True, True, cell, digit, on)
                    if tight:
                        if settled.run() is not None or in_turn.run() is not None:
                            continue
                        for store in (settled, in_turn):
                            room = len(store.par) - int(store.cnt[1]) - 1
                            store.add_off(placed, grid.values[placed], [0] * room, ADVANCED_CAUSE, None)
                            store.cnt[OFF_HEAD] = store.cnt[OFF_TAIL]
                    absurd, outcome = advanced.settle(settled, values, skip, ADVANCED_CAUSE)
                    first = skip
                    while (expected := in_turn.run()) is None:
                        inner = advanced.run_inner(in_turn, values, first, ADVANCED_CAUSE)
                        first = 0
                        if inner != advanced.ADDED:
                            break
                    assert absurd == expected
                    if absurd is None:
                        assert outcome == inner
                    rows, npar = int(in_turn.cnt[0]), int(in_turn.cnt[1])
                    for name in ("pkey", "pcause", "pstart", "pnpar"):
                        assert np.array_equal(getattr(settled, name)[:rows], getattr(in_turn, name)[:rows])
                    assert np.array_equal(settled.par[:npar], in_turn.par[:npar])
                    assert np.array_equal(settled.cnt, in_turn.cnt)
                    assert np.array_equal(settled.cands, in_turn.cands)
                    assert np.array_equal(settled.keys(False), in_turn.keys(False))
                    ends["absurd" if absurd is not None else outcome] += 1
    assert ends["absurd"] > (0 if tight else 50) and ends[advanced.NOTHING] > 1000, ends


def test_a_level_0_producers_hints_held_as_deferred_hints_are_freed_without_the_collector() -> None:
    """A nested level keeps the hints behind its strikes as ``Deferred``, which refer to their producer's
    result (``CompiledHints``, with its arena): no reference cycle may run through it, since a walk's
    step runs with the cycle collector paused, and every inner call's arena would be kept to the step's
    end (a forum walk's peak memory went 1.0 -> 2.5 GB). Once the deferred hints and the producer (which
    keeps its last grids' hints) are dropped, the result is freed by reference counts alone, with every
    hint made, numbered and read."""
    import gc
    import weakref

    from sudoku_cp.se.chaining import Chaining, CompiledHints, Tokens

    grid, source, values, _, _ = next(_walked_grids())
    collecting = gc.isenabled()
    gc.disable()
    try:
        producer = Chaining(True, True, False, 0)
        found = producer.hints(grid, values, source)
        assert isinstance(found, CompiledHints)
        deferred = [found.deferred(i) for i, _ in enumerate(found)]
        tokens = Tokens()
        assert len(deferred) > 5 and all(d.token(tokens) == d.made().token(tokens) for d in deferred)
        result = weakref.ref(found)
        del found, deferred
        assert result() is not None  # kept by the producer, for the grid met again
        del producer
        assert result() is None
    finally:
        if collecting:
            gc.enable()


def test_a_copied_propagation_and_its_copy_go_on_apart() -> None:
    """A nested level resumes the propagations of the level below from copies (``Store.copy``), which
    share the arrays until one of the two changes: after the copy adds strikes and propagates them (or
    the original does), the other holds exactly what it held before, and both go on as fresh stores."""
    import numpy as np

    from sudoku_cp.se import advanced
    from sudoku_cp.se.propagation import Store

    def state(store: Store) -> list[object]:
        rows, npar = int(store.cnt[0]), int(store.cnt[1])
        return [
            *(a.copy() for a in (store.index_of, store.cnt, store.cands, store.places, store.par[:npar])),
            *(getattr(store, name)[:rows].copy() for name in ("pkey", "pcause", "pstart", "pnpar")),
            dict(store.nested),
            store.keys(False).copy(),
        ]

    def same(a: list[object], b: list[object]) -> bool:
        return all(
            np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a, b, strict=True)
        )

    checked = 0
    for grid, source, values, places, _ in _walked_grids():
        for cell in range(0, 81, 3):
            for digit in bits(grid.cands[cell]):
                original = Store(grid.geo, source, places, True, True, cell, digit, False)
                if advanced.settle(original, values, 0, ADVANCED_CAUSE)[0] is not None:
                    continue
                struck = [(c, d) for c in range(81) for d in bits(int(original.cands[c]))][:3]
                before = state(original)
                for changed, kept in ((0, 1), (1, 0)):
                    stores = [original, original.copy()]
                    for c, d in struck:
                        stores[changed].add_off(c, d, [0], ADVANCED_CAUSE, None)
                    outcome = advanced.settle(stores[changed], values, 0, ADVANCED_CAUSE)
                    assert same(state(stores[kept]), before)
                    fresh = Store(grid.geo, source, places, True, True, cell, digit, False)
                    advanced.settle(fresh, values, 0, ADVANCED_CAUSE)
                    for c, d in struck:
                        fresh.add_off(c, d, [0], ADVANCED_CAUSE, None)
                    assert advanced.settle(fresh, values, 0, ADVANCED_CAUSE) == outcome
                    assert same(state(fresh), state(stores[changed]))
                    original = stores[kept]
                    checked += 1
    assert checked > 50, checked


@pytest.mark.parametrize("collecting", [True, False], ids=["collector on", "collector off"])
def test_a_walk_pauses_the_cycle_collector_and_leaves_it_as_it_was(collecting: bool) -> None:
    """SE's walk runs with the cycle collector off (its passes over what a step makes and keeps cost a
    tenth of a walk and more): the whole walk where nothing else runs between its steps (``se_walk``,
    ``human.walk``), so no pass runs until it ends; it leaves the collector as it found it."""
    import gc

    from sudoku_cp.human import walk as human_walk

    passes: list[int] = []

    def count(phase: str, info: dict) -> None:  # type: ignore[type-arg]
        if phase == "start":
            passes.append(info["generation"])

    was = gc.isenabled()
    gc.callbacks.append(count)
    try:
        (gc.enable if collecting else gc.disable)()
        puzzle = Puzzle.from_string(TRACED)
        gc.collect()  # the young generation's count starts from nothing
        passes.clear()
        hints, _ = se_walk(puzzle)
        assert gc.isenabled() == collecting
        assert len(passes) <= 1  # the one after the walk (paused a step at a time: 5)
        steps = human_walk(puzzle).steps
        assert gc.isenabled() == collecting
    finally:
        gc.callbacks.remove(count)
        (gc.enable if was else gc.disable)()
    assert len(hints) > 30 and len(steps) > 30


def test_each_walk_numbers_its_chain_identities_afresh() -> None:
    """The numbers of chain identities (nested complexity counts) begin anew with each walk: after two
    walks the thread holds the second walk's alone, as a thread that walked it alone does, and both
    ratings are serate's (kept across walks, they grew to some 130 MB)."""
    import threading

    from sudoku_cp.se.chaining import numbering

    first, second = NESTED
    alone: list[int] = []
    walker = threading.Thread(target=lambda: (rate_se(second), alone.append(len(numbering()))))
    walker.start()
    walker.join()
    assert str(rate_se(first)) == NESTED[first]
    assert len(numbering()) > 0
    assert str(rate_se(second)) == NESTED[second]
    assert len(numbering()) == alone[0] > 0


def test_a_level_0_producer_keeps_the_hints_of_the_grids_it_met_last() -> None:
    """Inside nested levels a level-0 producer meets the same reduced grids again (29% of the dynamic
    producer's calls over an ER 11.8 walk): the hints of the last 1,024 grids are kept and given again,
    the same object and the same hints as a fresh producer's, while a grid met longer ago is searched
    anew, as is the oldest grid kept once their arrays would hold more than ``Chaining.kept_bytes``. The
    kernel's arrays come back copied to their sizes, so that what is kept holds no call's room."""
    import itertools

    import numpy as np

    from sudoku_cp.se import multiple
    from sudoku_cp.se.chaining import Chaining
    from sudoku_cp.se.propagation import tables

    grid, source, values, _, _ = next(_walked_grids())
    producer = Chaining(True, False, False, 0)  # static chains: the quickest of the searched producers
    first = producer.hints(grid, values, source)

    def other(removals: tuple[int, ...]) -> np.ndarray:  # the grid with one candidate less in each cell
        cands = source.copy()
        for cell in removals:
            cands[cell] &= cands[cell] - 1
        return cands

    wide = [c for c in range(81) if int(source[c]).bit_count() > 2]
    others = itertools.chain(((c,) for c in wide), itertools.combinations(wide, 2))
    for removals in itertools.islice(others, 1023):
        producer.hints(grid, values, other(removals))
    assert producer.hints(grid, values, source.copy()) is first  # 1,024 grids met: it was the oldest
    for removals in itertools.islice(others, 1024):
        producer.hints(grid, values, other(removals))
    again = producer.hints(grid, values, source.copy())
    assert again is not first
    fresh = Chaining(True, False, False, 0).hints(grid, values, source)
    assert [(h.name, h.removable) for h in again] == [(h.name, h.removable) for h in fresh]
    assert [(h.name, h.removable) for h in first] == [(h.name, h.removable) for h in fresh] != []
    regions, _, where = tables(3, 3)
    arrays = multiple.search(source, regions, where, 9, False, True, True)
    assert all(a.base is None for a in arrays)
    # and as long as their arrays fit in ``kept_bytes`` (larger grids, larger propagations)
    tight = Chaining(True, False, False, 0)
    kept = tight.hints(grid, values, source)
    tight.kept_bytes = kept.nbytes  # room for this grid's alone
    assert tight.hints(grid, values, source.copy()) is kept
    tight.hints(grid, values, other((wide[0],)))
    assert tight.hints(grid, values, source.copy()) is not kept
