"""Certificates of puzzles with the constraint kinds of ``rules.kinds`` (docs/certificates.md, "Variants").

The claim states each variant by its kind's name and data; the checker has its own meaning of each kind
(pairs, groups, sums, or an automaton whose layered graph it encodes as the sums' graphs) and imports
nothing from the solving code. Held here: the checker's meaning to each kind's ``Variant.holds`` on random
lines; a graph's clauses to one model for each assignment that keeps it; a small puzzle of each kind
proven and checked; tampered claims and formulas refused."""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
from pathlib import Path

import pytest
from cases import kind_entry, models_per_assignment
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle, Rules, count_solutions, solve
from sudoku_cp.certify import checker, drat, drat_compiled
from sudoku_cp.certify.prover import prove, rules_field, write_folder
from sudoku_cp.errors import UnsupportedRuleError
from sudoku_cp.rules.kinds import BY_KEY, KINDS
from sudoku_cp.rules.kinds.lines import BetweenLine, Renban
from sudoku_cp.rules.kinds.outside import Sandwich

FOUR, SIX = Rules.classic(2, 2), Rules.classic(2, 3)
#: The kinds a certificate states by name (``variants``); the built-in ones it states as houses, groups,
#: pairs, thermometers, cages and arrows.
KEYS = [kind.key for kind in KINDS if kind.field == "variants"]
#: The kinds proven and checked on a puzzle of their own (a negative rule is grid-wide: no clue drawn
#: from a grid keeps it; its pairs are stated as the named rules' are).
PROVEN = [kind.key for kind in KINDS if not kind.worded]


def _rules(key: str) -> Rules:
    return SIX if key == "entropicline" else FOUR


def _solution(rules: Rules, seed: int = 0) -> list[int]:
    """A solution of the empty grid, the digits relabelled at random."""
    found = solve(Puzzle.empty(rules), "sat").solution
    assert found is not None
    relabel = random.Random(seed).sample(range(1, rules.n + 1), rules.n)
    return [relabel[d - 1] for d in found.cells]


def _variants(
    key: str, rules: Rules, grid: list[int], rng: random.Random, count: int = 1, keep: bool = False
) -> list:
    """``count`` constraints of the kind from random entries (``keep``: only those ``grid`` keeps)."""
    out: list = []
    for _ in range(10_000):
        made = BY_KEY[key].read(kind_entry(key, rules.n, tuple(grid), rng), rules)
        out += [v for v in made if not keep or v.holds_in(grid, rules)]
        if len(out) >= count:
            return out[:count]
    raise AssertionError(f"no {key} that the grid keeps")


def test_every_kind_has_an_entry_in_the_checker() -> None:
    """A kind added to ``rules.kinds`` without a meaning in the checker fails here (and ``prove`` refuses
    it by name)."""
    assert sorted(BY_KEY[key].kind for key in KEYS) == sorted(checker.KINDS)


# --- the checker's meaning against the kinds' -----------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(KEYS), st.integers(0, 10**6), st.data())
def test_the_checkers_meaning_of_each_kind_is_the_kinds(key: str, seed: int, data: st.DataObject) -> None:
    """On random lines (any digits, repeats allowed), the checker's reading of the claim's entry keeps
    exactly the digits ``Variant.holds`` keeps."""
    rules = _rules(key)
    n = rules.n
    rng = random.Random(seed)
    [variant] = _variants(key, rules, _solution(rules, seed), rng)[:1]
    field = rules_field(rules.with_(variants=(variant,)))
    assert field is not None
    [entry] = field["variants"]
    assert entry["kind"] == variant.kind
    stated = checker.read_variant(json.loads(json.dumps(entry)), n)
    read = list(dict.fromkeys(variant.cells))  # a line may come back to a cell: one digit per cell
    drawn = data.draw(st.lists(st.integers(1, n), min_size=len(read), max_size=len(read)))
    cells = [0] * (n * n)  # (cells the variant does not read stay 0: the checker must not read them)
    for c, d in zip(read, drawn, strict=True):
        cells[c] = d
    digits = [cells[c] for c in variant.cells]
    assert stated.holds(cells) == variant.holds(digits, n), (entry, digits)


@st.composite
def graphs(draw: st.DrawFn) -> checker.Stated:
    """A variant the checker reads as graphs, on a 4x4 grid (6x6 for an entropic line)."""
    key = draw(st.sampled_from(["betweenline", "entropicline", "modularline", "sandwichsum", "xsum"]))
    key = draw(st.sampled_from([key, "skyscraper", "odd", "even", "quadruple"]))
    rules = _rules(key)
    rng = random.Random(draw(st.integers(0, 10**6)))
    [variant] = _variants(key, rules, _solution(rules, rng.randrange(99)), rng)[:1]
    field = rules_field(rules.with_(variants=(variant,)))
    return checker.read_variant(field["variants"][0], rules.n)


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_a_graphs_clauses_have_one_model_for_each_assignment_that_keeps_it(stated: checker.Stated) -> None:
    """With the digits of its cells fixed, a graph's clauses have one model (its path) when the
    automaton accepts the digits, none when it does not: the sums' property, for the kinds' graphs."""
    for graph in stated.graphs:
        n = graph.n
        if len(graph.cells) > 4 and n > 4:
            continue  # (6^5 assignments: the 4x4 lines cover the same encoding)
        first = n**3 + 1
        clauses, used = checker.graph_clauses_of(graph, n, first)
        assert all(0 < abs(x) < first + used for clause in clauses for x in clause)
        for digits, models in models_per_assignment(clauses, first, used, graph.cells, n):
            assert models == graph.holds(digits), (graph.kind, digits, models)


#: docs/certificates.md's worked example of a graph: the odd cell r1c1 on a 4x4 grid (x(0, d) = d):
#: one state, edges E(0, (), 1) = 65 and E(0, (), 3) = 66, its clauses in order.
ODD_EXAMPLE = "-65 1 | -2 | -66 3 | -4 | -1 65 | -2 | -3 66 | -4"


def test_the_worked_example_of_a_graph() -> None:
    stated = checker.read_variant({"kind": "odd", "cell": 0}, 4)
    [graph] = stated.graphs
    assert graph.layers == [[()], [checker.ACCEPT]]
    clauses, used = checker.graph_clauses_of(graph, 4, 65)
    assert used == 2
    assert clauses == [tuple(map(int, c.split())) for c in ODD_EXAMPLE.split("|")]
    doc = (Path(__file__).parent.parent / "docs" / "certificates.md").read_text()
    assert ODD_EXAMPLE in doc


def test_the_layers_of_a_sandwich() -> None:
    """A sandwich of 4 on a 4x4 row: 1 and 4 at the two ends, 2 and 3 between, in either order."""
    stated = checker.read_variant({"kind": "sandwich", "clue": [0, -1], "total": 5}, 4)
    [graph] = stated.graphs
    assert graph.cells == (0, 1, 2, 3)
    assert graph.layers == [[(0,)], [(1, 1, 0), (1, 4, 0)], [(1, 1, 2), (1, 1, 3), (1, 4, 2), (1, 4, 3)],
                            [(1, 1, 5), (1, 4, 5)], [checker.ACCEPT]]  # fmt: skip


# --- proven and checked ------------------------------------------------------------------------------


def _puzzles(key: str, seed: int = 5) -> list[Puzzle]:
    """A unique puzzle of the kind (givens of a solution added until it is), and the grid without
    givens."""
    rules = _rules(key)
    rng = random.Random(seed)
    solution = _solution(rules, seed)
    ruled = rules.with_(variants=tuple(_variants(key, rules, solution, rng, count=3, keep=True)))
    assert ruled.is_valid(solution)
    unique = Puzzle.empty(ruled)
    order = rng.sample(range(ruled.ncells), ruled.ncells)
    while count_solutions(unique, 2) != 1:
        cell = order.pop()
        unique = unique.with_cells([(cell, solution[cell])])
    return [unique, Puzzle.empty(ruled)]


@pytest.mark.parametrize("key", PROVEN)
def test_a_puzzle_of_each_kind_is_proven_and_checked(key: str, tmp_path: Path) -> None:
    puzzles = _puzzles(key)
    certificates = write_folder(puzzles, tmp_path)
    expected = {0: "none", 1: "unique"}
    claims = [expected.get(count_solutions(p, 2), "multiple") for p in puzzles]
    assert [c.claim for c in certificates] == claims and claims[0] == "unique"
    for refute in (drat.check_refutation, drat_compiled.check_refutation):
        results = list(checker.check_dir(tmp_path, refute=refute))
        assert [m for _, m, _ in results] == [f"{k} verified {c}" for k, c in enumerate(claims, 1)]
    record = json.loads((tmp_path / "claims.jsonl").read_text().splitlines()[0])
    kinds = {entry["kind"] for entry in record["rules"].get("variants", [])}
    assert kinds == ({BY_KEY[key].kind} if key in KEYS else set())
    assert not any(
        p[2] in ("less", "apart", "near", "equal", "table") for p in record["rules"].get("pairs", [])
    )


def test_a_puzzle_of_every_kind_at_once_needs_a_proof_and_is_checked(tmp_path: Path) -> None:
    """All the kinds on one 6x6 grid, a unique puzzle that propagation does not settle: the formula holds
    every kind's clauses, its auxiliaries numbered past the sums', and the proof refutes it (an
    independent DRAT checker agrees)."""
    rng = random.Random(2)
    solution = _solution(SIX, 2)
    variants: list = []
    for key in PROVEN:
        variants += _variants(key, SIX, solution, rng, keep=True)
    ruled = SIX.with_(variants=tuple(variants))
    order = rng.sample(range(36), 36)
    unique = Puzzle.empty(ruled)
    while count_solutions(unique, 2) != 1:
        cell = order.pop()
        unique = unique.with_cells([(cell, solution[cell])])
    cert = prove(unique)
    assert cert.claim == "unique" and cert.cnf is not None and cert.proof is not None
    write_folder([unique], tmp_path)
    assert [m for _, m, _ in checker.check_dir(tmp_path)] == ["1 verified unique"]
    assert int(cert.cnf.split()[2]) > 6**3  # the graphs' auxiliaries are counted in the header
    dratify = pytest.importorskip("dratify", reason="the independent checker: pip install -e '.[test]'")
    assert dratify.check_proof(dratify.parse_dimacs(cert.cnf), cert.proof).ok


# --- refused and tampered ------------------------------------------------------------------------------


def _sandwich_case() -> list[Puzzle]:
    """A 6x6 sandwich puzzle (clues on three rows) that needs a proof: a unique one (givens of a solution
    added in random order until it is), and one without solution (a given more)."""
    for seed in itertools.count(1):
        solution = _solution(SIX, seed)
        clues = []
        for r in range(3):
            row = solution[r * 6 : r * 6 + 6]
            a, b = sorted((row.index(1), row.index(6)))
            clues.append(Sandwich((r + 1, 0), tuple(range(r * 6, r * 6 + 6)), sum(row[a + 1 : b])))
        rng = random.Random(seed)
        unique = Puzzle.empty(SIX.with_(variants=tuple(clues)))
        order = rng.sample(range(36), 36)
        while count_solutions(unique, 2) != 1:
            cell = order.pop()
            unique = unique.with_cells([(cell, solution[cell])])
        if prove(unique).cnf is None:
            continue
        for cell, d in itertools.product(order, range(1, 7)):
            if d != solution[cell]:
                none = unique.with_cells([(cell, d)])
                if not none.conflicts() and prove(none).cnf is not None:
                    return [unique, none]
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def proven(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("kinds")
    puzzles = _sandwich_case()
    write_folder(puzzles, folder)
    claims = [json.loads(line) for line in (folder / "claims.jsonl").read_text().splitlines()]
    assert [c["claim"] for c in claims] == ["unique", "none"] and all("proof" in c for c in claims)
    return folder


def _copy(proven: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "copy"
    shutil.copytree(proven, folder)
    return folder


def _failed(folder: Path, refute=drat.check_refutation) -> list[str]:
    return [m for _, m, ok in checker.check_dir(folder, refute=refute) if not ok]


def _edit_claim(folder: Path, k: int, edit) -> None:
    claims = [json.loads(line) for line in (folder / "claims.jsonl").read_text().splitlines()]
    edit(claims[k - 1])
    (folder / "claims.jsonl").write_text("".join(json.dumps(c) + "\n" for c in claims))


def test_the_untouched_folder_verifies(proven: Path) -> None:
    assert _failed(proven) == [] and _failed(proven, drat_compiled.check_refutation) == []


def _first_clue(c: dict) -> None:
    c["rules"]["variants"][0]["total"] += 1


def _renamed(c: dict) -> None:
    c["rules"]["variants"][0]["kind"] = "sandwich sum"


def _extra_key(c: dict) -> None:
    c["rules"]["variants"][0]["direction"] = "DR"


def _turned(c: dict) -> None:
    entry = c["rules"]["variants"][0]
    entry["clue"] = [entry["clue"][0], 6]  # read from the other side: the same clue means another rule


LEFT_OUT = "(is not in the formula|of the formula is missing|larger than .* bytes)"


@pytest.mark.parametrize(
    ("k", "edit", "why"),
    [
        (1, _first_clue, r"breaks the rules: the sandwich \d+ at \(row \d+, column -1\) is broken"),
        (2, _first_clue, r"2\.cnf: clause .* (is not in the formula|of the formula is missing)"),
        (1, _turned, r"(breaks the rules: the sandwich|1\.cnf: clause)"),
        (1, lambda c: c["rules"]["variants"].pop(), LEFT_OUT),
        (1, lambda c: c["rules"].pop("variants"), LEFT_OUT),
        (1, _renamed, "unknown variant 'sandwich sum'"),
        (1, _extra_key, "a sandwich takes clue, total, not clue, direction, total"),
    ],
    ids=["clue", "clue of a none claim", "clue turned", "one dropped", "all dropped", "renamed", "extra key"],
)
def test_a_tampered_variant_in_the_claim_fails(proven: Path, tmp_path: Path, k: int, edit, why: str) -> None:
    folder = _copy(proven, tmp_path)
    _edit_claim(folder, k, edit)
    [message] = _failed(folder)
    assert message.startswith(f"{k} FAILED"), message
    assert re.search(why, message), message


@pytest.mark.parametrize("k", [1, 2])
def test_a_dropped_graph_clause_fails(proven: Path, tmp_path: Path, k: int) -> None:
    folder = _copy(proven, tmp_path)
    header, *clauses = (folder / f"{k}.cnf").read_text().splitlines()
    i = next(
        i
        for i, line in enumerate(clauses)
        if any(abs(int(x)) > 6**3 for x in line.split()) and line.count(" ") > 2
    )
    del clauses[i]
    fields = header.split()
    (folder / f"{k}.cnf").write_text(
        " ".join([*fields[:3], str(len(clauses))]) + "\n" + "\n".join(clauses) + "\n"
    )
    for refute in (drat.check_refutation, drat_compiled.check_refutation):
        [message] = _failed(folder, refute)
        assert message.startswith(f"{k} FAILED: {k}.cnf: clause ") and "of the formula is missing" in message


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ({"kind": "odd"}, "takes cell, not "),
        ({"kind": "odd", "cell": 16}, "cell is not one of 0..15"),
        ({"kind": "renban", "cells": [0, 0]}, "needs distinct"),
        ({"kind": "whispers", "cells": [0, 1], "apart": "2"}, "apart is not an integer"),
        ({"kind": "sandwich", "clue": [1, 1], "total": 3}, "is not a place beside a row or column"),
        ({"kind": "sandwich", "clue": [-1, -1], "total": 3}, "is not a place beside a row or column"),
        (
            {"kind": "little killer", "clue": [-1, 3], "direction": "UR", "total": 3},
            "points away from the grid",
        ),
        ({"kind": "little killer", "clue": [-1, 0], "direction": "D", "total": 3}, "direction is not"),
        ({"kind": "quadruple", "cells": [0, 1, 4, 5], "values": [5]}, "values are not digits 1..4"),
        ({"kind": "clone", "cells": [0, 1], "clone": [2]}, "differ in length"),
        ({"kind": "clone", "cells": [0, 1], "clone": [1, 2]}, "needs distinct"),
        ({"kind": "entropic line", "cells": [0, 1]}, "size divisible by 3, not 4"),
        ({"kind": "box indexer", "cell": 0, "house": [1, 2, 3, 4]}, "cell is not in its house"),
        ({"kind": "region sum line", "segments": [[0, 1], [1, 2]]}, "needs distinct"),
        ("renban", "unknown variant 'renban'"),
    ],
)
def test_a_malformed_variant_is_refused(entry: object, why: str) -> None:
    with pytest.raises(checker.CertificateError, match=re.escape(why)):
        checker.grid_of(4, {"size": 4, "box": [2, 2], "variants": [entry]})


def test_a_graph_too_large_is_refused_by_name() -> None:
    """The graphs' work is bounded as the sums' is, each and all together; ``prove`` refuses such rules
    by name, through the checker's reading. A between line along a 30x30 row: 28 graphs of about 838,000
    each, 23 million together."""
    n = 30
    rules = Rules.from_n(n).with_(variants=(Renban(tuple(range(n))),))
    assert rules_field(rules) is not None  # a group and pairs: no graph
    row = list(range(n))
    stated = checker.read_variant({"kind": "between line", "cells": row}, n)
    assert [checker.graph_work(g, n) for g in stated.graphs[:1]] == [n * (1 + n + n**2 + n**3)]
    with pytest.raises(
        checker.CertificateError, match=r"too large for a certificate \(the between line at r1c1"
    ):
        checker.grid_of(n, {"size": n, "box": [5, 6], "variants": [{"kind": "between line", "cells": row}]})
    with pytest.raises(UnsupportedRuleError, match="prove: rules: the sums are too large"):
        rules_field(Rules.from_n(n).with_(variants=(BetweenLine(tuple(row)),)))


def test_a_whispers_loop_is_certified_and_a_step_to_the_same_cell_refused() -> None:
    """A whispers line may close into a loop (its rule is its neighbours'): proved and checked; a line
    that steps from a cell to itself is refused."""
    from sudoku_cp.formats.fpuzzles import from_fpuzzles

    grid = [[{} for _ in range(4)] for _ in range(4)]
    loop = ["R1C1", "R1C2", "R2C3", "R2C2", "R1C1"]
    puzzle = from_fpuzzles({"size": 4, "grid": grid, "whispers": [{"lines": [loop], "value": "1"}]})
    field = rules_field(puzzle.rules)
    assert field["variants"][0]["cells"] == [0, 1, 6, 5, 0]
    stated = checker.read_variant(json.loads(json.dumps(field["variants"][0])), 4)
    assert len(stated.pairs) == 4
    with pytest.raises(checker.CertificateError, match="no cell twice in a row"):
        checker.read_variant({"kind": "whispers", "cells": [0, 0, 1], "apart": 2}, 4)
