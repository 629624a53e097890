"""Certificates of puzzles with sums: killer cages, arrows and pills (docs/certificates.md, "Sums").

The checker keeps its own definitions of a sum's terms and clauses (it imports nothing from the solving
code): they are held here to ``rules.sums``. Killer, arrow and pill puzzles are proven, checked by
``check`` (both DRAT checkers) and by an independent DRAT checker, and tampered certificates refused."""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
from pathlib import Path

import pytest
from cases import models_per_assignment
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp import Puzzle, Rules, count_solutions, solve
from sudoku_cp.certify import checker, drat, drat_compiled
from sudoku_cp.certify.prover import prove, rules_field, write_folder
from sudoku_cp.generate import generate_killer
from sudoku_cp.rules import Arrow, Cage
from sudoku_cp.rules.sums import LinearSum

FOUR, SIX, NINE = Rules.classic(2, 2), Rules.classic(2, 3), Rules.classic(3, 3)
REFUTERS = pytest.mark.parametrize(
    "refute", [drat.check_refutation, drat_compiled.check_refutation], ids=["reference", "compiled"]
)


# --- the checker's sums against the package's ------------------------------------------------------


@st.composite
def sums(draw: st.DrawFn) -> tuple[int, list[int], list[int], int]:
    """A small sum: its n, cells, weights (a cage's, an arrow's line and circle, a pill's tens) and
    total, near the range its terms can reach."""
    n = draw(st.sampled_from([3, 4, 6]))
    m = draw(st.integers(1, 4))
    cells = draw(st.lists(st.integers(0, n * n - 1), min_size=m, max_size=m, unique=True))
    weights = draw(st.lists(st.sampled_from([1, 1, -1, -1, 10, -10, 100]), min_size=m, max_size=m))
    least = sum(min(w, w * n) for w in weights)
    most = sum(max(w, w * n) for w in weights)
    return n, cells, weights, draw(st.integers(least - 2, most + 2))


@settings(max_examples=150, deadline=None)
@given(sums())
def test_a_sums_clauses_have_one_model_for_each_assignment_that_keeps_it(
    drawn: tuple[int, list[int], list[int], int],
) -> None:
    """The checker's terms come in the package's order, and its clauses, with every digit of the sum's
    cells fixed, have exactly one model (the path of the digits through the graph) when ``LinearSum``
    holds, none when it does not."""
    n, cells, weights, total = drawn
    rule = checker.sum_of("cage", cells, weights, total)
    form = LinearSum.of(cells, weights, total, n)
    assert (rule.cells, rule.weights, rule.total) == (form.cells, form.coefficients, form.total)
    assert (checker.sum_work(rule, n) <= checker.SUM_WORK) == form.exact
    first = n**3 + 1
    clauses, used = checker.sum_clauses(rule, n, first)
    assert all(0 < abs(x) < first + used for clause in clauses for x in clause)
    for digits, models in models_per_assignment(clauses, first, used, rule.cells, n):
        assert models == form.holds(digits), (digits, models)


def test_a_sum_that_cannot_be_kept_has_no_nodes_and_rules_out_every_digit() -> None:
    rule = checker.sum_of("cage", [0, 1], [1, 1], 9)  # two digits of 1-4 never make 9
    assert checker.sum_layers(rule, 4) == [[], [], []]
    clauses, used = checker.sum_clauses(rule, 4, 65)
    assert used == 0 and sorted(set(clauses)) == sorted((-(c * 4 + d),) for c in (0, 1) for d in range(1, 5))


#: docs/certificates.md's worked example: the cage r1c1 + r1c2 = 3 on a 4x4 grid, its clauses in order
#: (x(0, d) = d, x(1, d) = 4 + d; N(1, 1) = 65, N(1, 2) = 66; E(0, 0, 1) = 67, E(0, 0, 2) = 68,
#: E(1, 1, 2) = 69, E(1, 2, 1) = 70).
EXAMPLE = """
-67 1 | -67 65 | -1 65 | -68 2 | -68 66 | -2 66 | -3 | -4 | -1 67 | -2 68 | -3 | -4
-65 67 | -65 -5 | -69 6 | -69 65 | -65 -7 | -65 -8 | -65 69
-66 68 | -70 5 | -70 66 | -66 -6 | -66 -7 | -66 -8 | -66 70
-5 70 | -6 69 | -7 | -8
"""


def test_the_worked_example_of_the_document() -> None:
    rule = checker.sum_of("cage", [0, 1], [1, 1], 3)
    assert checker.sum_layers(rule, 4) == [[0], [1, 2], [3]]
    clauses, used = checker.sum_clauses(rule, 4, 65)
    assert used == 6
    expected = [tuple(map(int, c.split())) for c in EXAMPLE.replace("\n", " | ").split("|") if c.strip()]
    assert clauses == expected
    doc = (Path(__file__).parent.parent / "docs" / "certificates.md").read_text()
    for line in EXAMPLE.strip().splitlines():
        assert line in doc, line


# --- proven and checked ----------------------------------------------------------------------------


def _arrows(rules: Rules, solution: list[int], seed: int, pills: bool) -> Rules:
    """``rules`` with two arrows (or pills of two cells) that ``solution`` keeps, their lines cells whose
    digits add up to the circle's number."""
    n, rng = rules.n, random.Random(seed)
    arrows: list[Arrow] = []
    used: set[int] = set()
    while len(arrows) < 2:
        first = rng.randrange(n * n)
        if pills and first % n == n - 1:
            continue
        circle = (first, first + 1) if pills else (first,)
        value = int("".join(map(str, (solution[c] for c in circle))))
        line, total = [], 0
        for c in rng.sample(range(n * n), n * n):
            if c not in used and c not in circle and total + solution[c] <= value:
                line.append(c)
                total += solution[c]
        if total == value and not used & set(circle) and len(line) <= 3 * n:
            arrows.append(Arrow(circle, tuple(line)))
            used |= {*circle, *line}
    return rules.with_(arrows=arrows)


def _kinds(rules: Rules, solution: list[int]) -> list[Puzzle]:
    """A minimal unique puzzle (givens of ``solution`` added until it is, then each dropped where it
    stays so), the puzzle without givens, and one
    without solution (a given that breaks no rule with the others but no solution keeps)."""
    rng = random.Random(3)
    unique = Puzzle(rules, tuple(d if rng.random() < 0.1 else 0 for d in solution))
    while count_solutions(unique) != 1:
        cell = rng.choice([c for c, d in enumerate(unique.cells) if not d])
        unique = unique.with_cells([(cell, solution[cell])])
    for cell in rng.sample(range(rules.ncells), rules.ncells):  # then minimal: each given needed
        if unique.cells[cell] and count_solutions(fewer := unique.with_cells([(cell, 0)])) == 1:
            unique = fewer
    for cell, d in itertools.product(range(rules.ncells), range(1, rules.n + 1)):
        if not unique.cells[cell] and d != solution[cell]:
            candidate = unique.with_cells([(cell, d)])
            if not candidate.conflicts():  # (unique: any other digit leaves no solution)
                return [unique, Puzzle.empty(rules), candidate]
    raise AssertionError("no given without solution")


def _solution(rules: Rules) -> list[int]:
    found = solve(Puzzle.empty(rules), "dfs").solution  # the same grid whatever ran before
    assert found is not None
    return list(found.cells)


def _case(name: str, seed: int = 4) -> list[Puzzle]:
    if name.endswith("killer"):
        made = next(generate_killer(1, SIX if name.startswith("6x6") else NINE, seed=seed))
        return _kinds(made.puzzle.rules, list(made.solution.cells))
    rules = SIX if name.startswith("6x6") else NINE
    solution = _solution(rules)
    return _kinds(_arrows(rules, solution, seed, pills="pill" in name), solution)


@pytest.mark.parametrize("name", ["6x6 killer", "9x9 killer", "6x6 arrows", "9x9 pills"])
def test_sum_puzzles_are_proven_and_checked_by_both_checkers_and_an_independent_one(
    name: str, tmp_path: Path
) -> None:
    dratify = pytest.importorskip("dratify", reason="the independent checker: pip install -e '.[test]'")
    puzzles = _case(name)
    certificates = write_folder(puzzles, tmp_path)
    expected = {0: "none", 1: "unique"}
    claims = [expected.get(count_solutions(p, 2), "multiple") for p in puzzles]
    assert [c.claim for c in certificates] == claims and claims[0] == "unique" and claims[2] == "none"
    assert certificates[0].solutions[0] == solve(puzzles[0]).solution.to_string()
    for cert, puzzle in zip(certificates, puzzles, strict=True):
        for line in cert.solutions:  # every solution keeps the sums: the library's check
            cells = [checker.SYMBOLS.index(ch) + 1 for ch in line]
            assert puzzle.rules.is_valid(cells)
    for refute in (drat.check_refutation, drat_compiled.check_refutation):
        results = list(checker.check_dir(tmp_path, refute=refute))
        assert [m for _, m, _ in results] == [f"{k} verified {c}" for k, c in enumerate(claims, 1)]
    claims = [json.loads(line) for line in (tmp_path / "claims.jsonl").read_text().splitlines()]
    assert ("cages" if "killer" in name else "arrows") in claims[0]["rules"]
    for claim in claims:
        if "proof" in claim:
            text = (tmp_path / claim["cnf"]).read_text()
            variables = int(text.split()[2])
            assert variables > puzzles[0].n ** 3  # the sums' auxiliaries are counted in the header
            formula = dratify.parse_dimacs(text)
            assert dratify.check_proof(formula, (tmp_path / claim["proof"]).read_text()).ok, claim["index"]


def test_the_rules_field_of_cages_and_arrows() -> None:
    rules = FOUR.with_(
        cages=[Cage((0, 1), 3), Cage((2, 3)), Cage((4,), 2)], arrows=[Arrow((8, 9), (10, 11, 12, 13))]
    )
    field = rules_field(rules)
    assert field == {
        "size": 4,
        "box": [2, 2],
        "groups": [[2, 3]],  # a cage without a total; those with one are groups in the checker already
        "cages": [[3, [0, 1]], [2, [4]]],
        "arrows": [[[8, 9], [10, 11, 12, 13]]],
    }
    grid = checker.grid_of(4, field)
    assert sorted(grid.groups) == [(0, 1), (2, 3)]
    assert [(s.kind, s.cells, s.weights, s.total) for s in grid.sums] == [
        ("cage", (0, 1), (1, 1), 3),
        ("cage", (4,), (1,), 2),
        ("arrow", (9, 10, 11, 12, 13, 8), (1, -1, -1, -1, -1, 10), 0),  # by weight, ties as listed
    ]


@pytest.mark.parametrize(
    ("field", "why"),
    [
        ({"cages": [[3, []]]}, "a cage is not"),
        ({"cages": [["3", [0, 1]]]}, "a cage is not"),
        ({"cages": [[True, [0, 1]]]}, "a cage is not"),
        ({"cages": [[3, [0, 0]]]}, "needs distinct"),
        ({"cages": [[3, [0, 16]]]}, "not a list of cells"),
        ({"cages": {"3": [0, 1]}}, "cages is not a list"),
        ({"arrows": [[[], [1, 2]]]}, "an arrow is not"),
        ({"arrows": [[[0], 1]]}, "not a list of cells"),
        ({"arrows": [[[0], [1, 0]]]}, "needs distinct"),
        ({"arrows": [[0, [1]]]}, "an arrow is not"),
    ],
)
def test_a_malformed_sum_in_the_rules_field_is_refused(field: dict, why: str) -> None:
    with pytest.raises(checker.CertificateError, match=why):
        checker.grid_of(4, {"size": 4, "box": [2, 2], **field})


def test_a_grid_that_breaks_a_sum_is_named_by_the_checker() -> None:
    field = {"size": 4, "box": [2, 2], "cages": [[3, [0, 1]]], "arrows": [[[4, 5], [6, 7, 8, 9]]]}
    sums = checker.grid_of(4, field).sums
    grid = checker.Grid(4, (), (), (), sums)  # the sums alone
    cells = [1, 2, 4, 4, 1, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4]  # 1 + 2 = 3; the pill 12 = 3 + 3 + 3 + 3
    assert grid.violation(cells) is None
    assert grid.violation([2, *cells[1:]]) == "the cage at r1c1 adds up to 4, not 3"
    assert grid.violation([*cells[:5], 3, *cells[6:]]) == (
        "the arrow from r2c1: its line adds up to 12, its circle shows 13"
    )


def test_propagation_settles_a_sum_puzzle_without_files(tmp_path: Path) -> None:
    """The sums' clauses take part in propagation (it keeps each sum arc consistent): a 4x4 whose cages
    of one cell name every digit is settled with no files, and an impossible cage is a clash."""
    solution = _solution(FOUR)
    every = FOUR.with_(cages=[Cage((c,), d) for c, d in enumerate(solution)])
    impossible = FOUR.with_(cages=[Cage((0, 1), 8)])
    certificates = write_folder([Puzzle.empty(every), Puzzle.empty(impossible)], tmp_path)
    assert [(c.claim, c.cnf) for c in certificates] == [("unique", None), ("none", None)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["claims.jsonl"]
    assert [m for _, m, _ in checker.check_dir(tmp_path)] == ["1 verified unique", "2 verified none"]


def test_a_unique_claim_settled_by_propagation_must_keep_the_sums(tmp_path: Path) -> None:
    """A claim without files needs propagation to put the claimed digit in every cell, and the solution
    must keep every rule: a solution of the houses that breaks a cage fails on the cage."""
    solution = _solution(FOUR)
    every = FOUR.with_(cages=[Cage((c,), d) for c, d in enumerate(solution)])
    write_folder([Puzzle.empty(every)], tmp_path)
    claim = json.loads((tmp_path / "claims.jsonl").read_text())
    other = solve(Puzzle(FOUR, (0,) * 16).with_cells([(0, solution[1])])).solution.to_string()
    claim["solution"] = other
    (tmp_path / "claims.jsonl").write_text(json.dumps(claim) + "\n")
    [(_, message, ok)] = list(checker.check_dir(tmp_path))
    assert not ok and re.search(r"breaks the rules: the cage at r\d+c\d+ adds up to \d+, not \d+", message)


# --- tampering ---------------------------------------------------------------------------------------


def _needs_proof(puzzle: Puzzle) -> bool:
    return prove(puzzle).cnf is not None


@pytest.fixture(scope="module")
def proven(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A killer puzzle as ``generate --killer`` makes it (1, unique), an arrow puzzle with pills (2,
    unique) and the killer with a given too many (3, no solution), each with its formula and proof (the
    first seeds whose puzzles propagation alone does not settle)."""
    folder = tmp_path_factory.mktemp("sums")
    for seed in itertools.count(7):
        made = next(generate_killer(1, SIX, seed=seed))
        killer, solution = made.puzzle, made.solution.cells
        if not _needs_proof(killer):
            continue
        candidates = (
            killer.with_cells([(cell, d)])
            for cell, d in itertools.product(range(36), range(1, 7))
            if not killer.cells[cell] and d != solution[cell]
        )
        none = next((c for c in candidates if not c.conflicts() and _needs_proof(c)), None)
        if none is not None:
            break
    pills = next(p for seed in itertools.count(4) if _needs_proof(p := _case("9x9 pills", seed)[0]))
    write_folder([killer, pills, none], folder)
    claims = [json.loads(line) for line in (folder / "claims.jsonl").read_text().splitlines()]
    assert [c["claim"] for c in claims] == ["unique", "unique", "none"]
    assert all("proof" in c for c in claims)
    return folder


def _copy(proven: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "copy"
    shutil.copytree(proven, folder)
    return folder


def _failed(folder: Path, refute=drat.check_refutation) -> list[str]:
    return [m for _, m, ok in checker.check_dir(folder, refute=refute) if not ok]


def _lines(path: Path) -> tuple[list[str], list[str]]:
    header, *clauses = path.read_text().splitlines()
    return header.split(), clauses


def _write(path: Path, header: list[str], clauses: list[str]) -> None:
    path.write_text(" ".join([*header[:3], str(len(clauses))]) + "\n" + "\n".join(clauses) + "\n")


def _auxiliary(line: str, top: int) -> bool:
    return any(abs(int(x)) > top for x in line.split()[:-1])


@REFUTERS
def test_the_untouched_folder_verifies(proven: Path, refute) -> None:
    assert _failed(proven, refute) == []


@REFUTERS
@pytest.mark.parametrize("k", [1, 2])
def test_a_dropped_sum_clause_fails(proven: Path, tmp_path: Path, k: int, refute) -> None:
    folder = _copy(proven, tmp_path)
    header, clauses = _lines(folder / f"{k}.cnf")
    top = {1: 6**3, 2: 9**3}[k]
    i = next(i for i, line in enumerate(clauses) if _auxiliary(line, top) and len(line.split()) > 3)
    del clauses[i]
    _write(folder / f"{k}.cnf", header, clauses)
    [message] = _failed(folder, refute)
    assert message.startswith(f"{k} FAILED: {k}.cnf: clause ") and "of the formula is missing" in message


@REFUTERS
def test_renumbered_auxiliaries_fail(proven: Path, tmp_path: Path, refute) -> None:
    """Two auxiliary variables swapped throughout: the same formula up to naming, but not the canonical
    one (a checker compares names, so the numbering must be the document's)."""
    folder = _copy(proven, tmp_path)
    header, clauses = _lines(folder / "1.cnf")
    a, b = 6**3 + 1, 6**3 + 2
    swap = {a: b, b: a, -a: -b, -b: -a}
    clauses = [" ".join(str(swap.get(int(x), int(x))) for x in line.split()) for line in clauses]
    _write(folder / "1.cnf", header, clauses)
    [message] = _failed(folder, refute)
    assert message.startswith("1 FAILED: 1.cnf: clause ")


def test_a_header_without_the_auxiliaries_fails(proven: Path, tmp_path: Path) -> None:
    folder = _copy(proven, tmp_path)
    header, clauses = _lines(folder / "1.cnf")
    _write(folder / "1.cnf", [*header[:2], str(6**3)], clauses)
    [message] = _failed(folder)
    assert "a literal beyond the header's 216 variables" in message


def _edit_claim(folder: Path, k: int, edit) -> None:
    claims = [json.loads(line) for line in (folder / "claims.jsonl").read_text().splitlines()]
    edit(claims[k - 1])
    (folder / "claims.jsonl").write_text("".join(json.dumps(c) + "\n" for c in claims))


def _add_to_first_cage(c: dict) -> None:
    c["rules"]["cages"][0][0] += 1


def _pill_of_one(c: dict) -> None:
    pill = next(a for a in c["rules"]["arrows"] if len(a[0]) == 2)
    pill[0] = pill[0][:1]


#: A formula without its sums' clauses is another one, and far smaller: the file fails the comparison,
#: or is larger than the claim allows it to be read.
LEFT_OUT = "(is not in the formula|of the formula is missing|larger than .* bytes)"


@pytest.mark.parametrize(
    ("k", "edit", "why"),
    [
        (1, _add_to_first_cage, "breaks the rules: the cage at r\\d+c\\d+ adds up to \\d+, not \\d+"),
        (3, _add_to_first_cage, "3.cnf: clause .* (is not in the formula|of the formula is missing)"),
        (2, _pill_of_one, "breaks the rules: the arrow from r\\d+c\\d+"),
        (1, lambda c: c["rules"].pop("cages"), LEFT_OUT),
        (2, lambda c: c["rules"].update(arrows=[]), LEFT_OUT),
    ],
    ids=["cage total", "cage total of a none claim", "pill cut short", "cages left out", "arrows left out"],
)
def test_a_tampered_sum_in_the_claim_fails(proven: Path, tmp_path: Path, k: int, edit, why: str) -> None:
    folder = _copy(proven, tmp_path)
    _edit_claim(folder, k, edit)
    [message] = _failed(folder)
    assert message.startswith(f"{k} FAILED"), message
    assert re.search(why, message), message


# --- the commands --------------------------------------------------------------------------------------


def test_generated_killer_puzzles_are_proven_and_checked_through_the_commands(tmp_path: Path) -> None:
    dratify = pytest.importorskip("dratify", reason="the independent checker: pip install -e '.[test]'")
    source = tmp_path / "killers.jsonl"
    made = run_cli("generate", "--killer", "-n", "3", "--seed", "11", "-j", "1", "-q", "-o", str(source))
    assert made.returncode == 0, made.stderr
    out = tmp_path / "certs"
    proved = run_cli("prove", str(source), "-o", str(out), "-j", "1")
    assert proved.returncode == 0, proved.stderr
    assert "proved 3 of 3 puzzles (3 unique)" in proved.stderr
    check = run_cli("check", str(out), "-j", "1")
    assert check.returncode == 0 and check.stdout.splitlines() == [f"{k} verified unique" for k in (1, 2, 3)]
    assert checker.main([str(out)]) == 0  # the standalone checker, as python -m sudoku_cp.certify.checker
    for line in (out / "claims.jsonl").read_text().splitlines():
        claim = json.loads(line)
        assert len(claim["rules"]["cages"]) > 10 and "groups" not in claim["rules"]
        if "proof" in claim:
            formula = dratify.parse_dimacs((out / claim["cnf"]).read_text())
            assert dratify.check_proof(formula, (out / claim["proof"]).read_text()).ok


def test_prove_takes_killer_and_arrow_puzzles_from_fpuzzles(tmp_path: Path) -> None:
    """The summary no longer refuses sums: a 4x4 killer and an arrow puzzle in f-puzzles JSON."""
    killer = {"size": 4, "grid": [[{}] * 4] * 4, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}
    arrow = {
        "size": 4,
        "grid": [[{}] * 4] * 4,
        "arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C3"]]}],
    }
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(killer) + "\n" + json.dumps(arrow) + "\n")
    proc = run_cli("prove", str(source), "-o", str(tmp_path / "c"), "-j", "1")
    assert proc.returncode == 0, proc.stderr
    assert "proved 2 of 2 puzzles (2 multiple)" in proc.stderr and "refused" not in proc.stderr
    assert run_cli("check", str(tmp_path / "c")).returncode == 0


def test_the_prover_refuses_nothing_the_checker_takes() -> None:
    """A puzzle's rules field goes through the checker's reading: the prover and the checker agree on
    what a rules field of sums means (here, a cage and an arrow on one grid)."""
    rules = NINE.with_(cages=[Cage((0, 1, 2), 24)], arrows=[Arrow((40,), (41, 42))])
    field = rules_field(rules)
    grid = checker.grid_of(9, field)
    cert = prove(Puzzle.empty(rules))
    assert cert.claim == "multiple"
    for line in cert.solutions:
        assert grid.violation([checker.SYMBOLS.index(ch) + 1 for ch in line]) is None
