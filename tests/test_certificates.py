"""Certificates of uniqueness: ``prove`` writes them, the standalone checker verifies them, and every kind
of tampering is caught (docs/certificates.md)."""

from __future__ import annotations

import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli
from hypothesis import HealthCheck, example, settings
from hypothesis import given as for_any
from hypothesis import strategies as st

from sudoku_cp import Puzzle, Rules, count_solutions, solve
from sudoku_cp.backends.sat import SatBackend
from sudoku_cp.certify import checker, drat, drat_compiled
from sudoku_cp.certify.prover import dimacs, prove, rules_field, write_folder
from sudoku_cp.errors import UnsupportedRuleError
from sudoku_cp.rules import Arrow, Cage, Pair, Thermo

NINE = Rules.classic(3, 3)
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."  # "Arto Inkala"


def _jigsaw9() -> Rules:
    """The boxes with a cell of box 1 traded for a cell of box 2 holding the same digit in a classic
    solution, so that the regions stay solvable (that solution solves them)."""
    s = solve(Puzzle.empty(NINE)).solution.cells
    boxes = [list(b) for b in NINE.regions]
    a, b = next((a, b) for a in boxes[0] for b in boxes[1] if s[a] == s[b])
    boxes[0][boxes[0].index(a)], boxes[1][boxes[1].index(b)] = b, a
    return Rules.jigsaw(boxes)


def _arrows9() -> Rules:
    """Classic 9x9 with arrows and pills that a classic solution keeps: circles of one cell and pills of
    two and three cells (read as decimal numbers), each with a line of cells whose digits add up to it."""
    s = solve(Puzzle.empty(NINE)).solution.cells
    rng = random.Random(5)
    used: set[int] = set()
    arrows = []
    for size, most in ((1, 9), (1, 9), (1, 9), (2, 40), (2, 40), (3, 140)):
        while True:
            row, col = rng.randrange(9), rng.randrange(10 - size)
            circle = tuple(row * 9 + col + j for j in range(size))
            value = int("".join(str(s[c]) for c in circle))
            if value > most or used & set(circle):
                continue
            line, total = [], 0
            for c in rng.sample(range(81), 81):
                if c not in used and c not in circle and total + s[c] <= value:
                    line.append(c)
                    total += s[c]
            if total == value:
                arrows.append(Arrow(circle, tuple(line)))
                used |= set(circle) | set(line)
                break
    return NINE.with_(arrows=arrows)


def _killer(rules: Rules, seed: int, marks: bool = False) -> Rules:
    """The cages (with their sums) of a killer puzzle that ``generate --killer`` makes over ``rules``;
    ``marks``: with a thermometer and a cage without a sum that its solution keeps too."""
    from sudoku_cp.generate import generate_killer

    [made] = generate_killer(1, rules, seed=seed)
    killer = made.puzzle.rules
    if not marks:
        return killer
    s, n = made.solution.cells, rules.n
    bulb = next(c for c in range(n * n) if c % n < n - 2 and s[c] < s[c + 1] < s[c + 2])
    return killer.with_(thermos=[Thermo((bulb, bulb + 1, bulb + 2))], cages=[Cage((bulb, bulb + n))])


CASES = {
    "4x4": Rules.classic(2, 2),
    "4x4 jigsaw": Rules.jigsaw([[0, 1, 4, 8], [2, 3, 6, 7], [5, 9, 12, 13], [10, 11, 14, 15]]),
    "6x6": Rules.classic(2, 3),
    "6x6 boxes of 3 rows": Rules.classic(3, 2),
    "9x9 x": NINE.with_named("x"),
    "9x9 anti-knight and anti-king": NINE.with_named("anti-knight,anti-king"),
    "9x9 non-consecutive": NINE.with_named("non-consecutive"),
    "9x9 windoku and disjoint": NINE.with_named("windoku,disjoint"),
    "9x9 jigsaw": _jigsaw9(),
    "9x9 marks": NINE.with_(
        thermos=[Thermo((0, 1, 2, 3))],
        dots=[Pair(9, 10, "difference", 1, source="kropki"), Pair(18, 19, "sum", 10, source="X")],
        cages=[Cage((40, 41, 49))],  # a cage without a sum is a group
    ),
    "16x16": Rules.classic(4, 4),
    "6x6 killer": _killer(Rules.classic(2, 3), 2),
    "9x9 killer and marks": _killer(NINE, 3, marks=True),
    "9x9 arrows and pills": _arrows9(),
}


def _puzzle(rules: Rules, keep: float, seed: int) -> Puzzle:
    """A solution of ``rules`` with about ``keep`` of its cells kept as givens."""
    solution = solve(Puzzle.empty(rules), "sat").solution  # (dfs wanders long on an empty jigsaw)
    assert solution is not None
    rng = random.Random(seed)
    return Puzzle(rules, tuple(d if rng.random() < keep else 0 for d in solution.cells))


def _none_of(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with a digit put into an empty cell that breaks no rule with the givens but is not the
    digit of any solution (so there is no solution, though the givens do not clash). Counted by one
    incremental SAT solver: dfs wanders long in a 16x16 with few givens."""
    sat = SatBackend(incremental=True)  # one solver, each candidate as assumptions
    for cell, given in enumerate(puzzle.cells):
        if given:
            continue
        for d in range(1, puzzle.n + 1):
            candidate = puzzle.with_cells([(cell, d)])
            if not candidate.conflicts() and count_solutions(candidate, 1, backend=sat) == 0:
                return candidate
    raise AssertionError("no such digit")


def _claims(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "claims.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("name", CASES)
def test_every_claim_kind_round_trips_and_agrees_with_the_solver(name: str, tmp_path: Path) -> None:
    rules = CASES[name]
    unique = _puzzle(rules, 0.9, 1)
    solution = solve(unique).solution.cells
    while count_solutions(unique) != 1:  # add givens of the solution until it is unique
        cell = unique.cells.index(0)
        unique = unique.with_cells([(cell, solution[cell])])
    sparse = _puzzle(rules, 0.25, 2)
    puzzles = [unique, sparse, _none_of(_puzzle(rules, 0.5, 3))]
    certificates = write_folder(puzzles, tmp_path)
    expected = {0: "none", 1: "unique"}
    assert [c.claim for c in certificates] == [expected.get(count_solutions(p), "multiple") for p in puzzles]
    assert certificates[0].claim == "unique" and certificates[2].claim == "none"
    results = list(checker.check_dir(tmp_path))
    assert all(ok for *_, ok in results), results
    assert [m.split(" ", 1)[1] for _, m, _ in results] == [f"verified {c.claim}" for c in certificates]
    claims = _claims(tmp_path)
    assert ("rules" in claims[0]) == (name not in ("4x4", "6x6", "16x16"))
    assert claims[0]["solution"] == solve(unique).solution.to_string()


@pytest.mark.parametrize("name", CASES)
def test_the_prover_writes_the_formula_text_the_checker_rebuilds(name: str) -> None:
    """The checker compares the formula file with the text it rebuilds before reading it clause by
    clause: the prover's own cut (numpy masks of a per-grid template) must give that very text."""
    rules = CASES[name]
    grid = checker.grid_of(rules.n, rules_field(rules))
    for keep, seed in ((0.9, 1), (0.5, 3), (0.3, 4)):
        puzzle = _puzzle(rules, keep, seed)
        for givens in (list(puzzle.cells), list(_none_of(puzzle).cells) if keep < 0.9 else None):
            if givens is None:
                continue
            cert = prove(Puzzle(rules, tuple(givens)))
            if cert.cnf is None:
                continue
            solution = [checker.SYMBOLS.index(ch) + 1 for ch in cert.solutions[0]] if cert.solutions else None
            lines = checker.certificate(grid, givens, solution)[1]
            assert cert.cnf == checker.dimacs_text(grid.canonical.variables, lines)


SEARCHED = "........1.......23..4..5.........6......2.....2..14......6..47..3.......5..8..9.."  # 17 clues


def test_a_small_search_writes_its_own_proof_that_both_checkers_accept(tmp_path: Path) -> None:
    """Past propagation, a search of a few leaves writes its refutation itself (one lemma a leaf, the
    empty clause last); the standalone checker and an independent DRAT checker both accept it, and a
    truncated or altered one fails."""
    dratify = pytest.importorskip("dratify", reason="the independent checker: pip install -e '.[test]'")
    puzzle = Puzzle.from_string(SEARCHED)
    [cert] = write_folder([puzzle], tmp_path / "a")
    assert cert.claim == "unique" and cert.cnf is not None
    steps = cert.proof.splitlines()
    assert steps[-1] == "0" and not any(line.startswith("d") for line in steps) and len(steps) > 1
    assert dratify.check_proof(dratify.parse_dimacs(cert.cnf), cert.proof).ok
    assert [m for _, m, _ in checker.check_dir(tmp_path / "a")] == ["1 verified unique"]
    edits = [lambda lines: lines[:-2], lambda lines: lines[-1:]]  # the empty clause alone, or cut short
    edits += [
        lambda lines, i=i: [*lines[:i], lines[i].replace("-", "", 1), *lines[i + 1 :]] for i in range(3)
    ]
    edits += [lambda lines, i=i: lines[:i] + lines[i + 1 :] for i in range(3)]
    for k, edit in enumerate(edits):
        folder = tmp_path / f"b{k}"
        shutil.copytree(tmp_path / "a", folder)
        _edit(folder / "1.drat", edit)
        [(_, message, ok)] = list(checker.check_dir(folder))
        theirs = dratify.check_proof(dratify.parse_dimacs(cert.cnf), (folder / "1.drat").read_text()).ok
        assert not ok or theirs, (k, message)  # what this checker accepts, the independent one accepts
        if k < 2:
            assert not ok and "1.drat" in message, message


def test_past_the_search_leaves_glucose_proves_every_kind_of_claim(tmp_path: Path, monkeypatch) -> None:
    from sudoku_cp.certify import prover

    monkeypatch.setattr(prover._Template, "MAX_LEAVES", 1)
    hard = Puzzle.from_string(HARD)
    puzzles = [hard, _puzzle(NINE, 0.3, 6), _none_of(hard)]
    certificates = write_folder(puzzles, tmp_path)
    assert [c.claim for c in certificates] == ["unique", "multiple", "none"]
    assert certificates[0].solutions[0] == solve(hard).solution.to_string()
    assert all(ok for *_, ok in checker.check_dir(tmp_path))


def test_the_rules_field_keeps_a_box_shape_that_is_not_the_usual_one() -> None:
    assert rules_field(Rules.classic(2, 3)) is None
    assert rules_field(Rules.classic(3, 2)) == {"size": 6, "box": [3, 2]}
    assert rules_field(NINE.with_named("x"))["houses"] == [list(range(0, 81, 10)), list(range(8, 73, 8))]


def test_what_a_certificate_cannot_hold_is_refused_by_name() -> None:
    """Grids beyond 35x35 (the puzzle line has no symbol past Z), and sums whose graph is too large."""
    with pytest.raises(UnsupportedRuleError, match="up to 35x35, not 36x36"):
        prove(Puzzle.empty(Rules.from_n(36)))
    big = Rules.from_n(35)
    pill = Arrow((0, 1, 2), tuple(range(35, 235)))  # a number up to 35 * 111 and a line of 200 cells
    with pytest.raises(
        UnsupportedRuleError, match=r"arrow from r1c1: its sum is too large .* at most 1,048,576"
    ):
        rules_field(big.with_(arrows=[pill]))
    cages = [Cage(tuple(range(35 * r, 35 * r + 35)), 630) for r in range(12)]  # 12 rows as cages: each fits
    with pytest.raises(UnsupportedRuleError, match="too large for a certificate together"):
        rules_field(big.with_(cages=cages))
    field = {"size": 35, "box": [5, 7], "arrows": [[[0, 1, 2], list(range(35, 235))]]}
    with pytest.raises(checker.CertificateError, match="the sums are too large for a certificate"):
        checker.grid_of(35, field)


def test_minimal_witnesses_show_each_given_needed_or_prove_it_redundant(tmp_path: Path) -> None:
    minimal = Puzzle.from_string(HARD)
    solution = solve(minimal).solution
    extra = minimal.with_cells([(1, solution.cells[1])])  # one given more than needed
    [a, b] = write_folder([minimal, extra], tmp_path, minimal=True)
    assert a.is_minimal is True and b.is_minimal is False
    assert [w.given for w in b.minimal if w.redundant] == ["r1c2"]  # only the added given is spare
    messages = [m for _, m, ok in checker.check_dir(tmp_path) if ok]
    assert messages == ["1 verified unique, minimal", "2 verified unique, not minimal (r1c2 redundant)"]


# --- tampering ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def proven(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with claims whose proofs take search: a unique classic puzzle (1, with its witnesses of
    minimality) and one without solution (2); and on X rules, a multiple puzzle (3) and a unique one (4)."""
    folder = tmp_path_factory.mktemp("certs")
    hard = Puzzle.from_string(HARD)
    rules = NINE.with_named("x")
    puzzles = [hard, _none_of(hard), _puzzle(rules, 0.2, 6), _puzzle(rules, 0.9, 4)]
    write_folder(puzzles, folder, minimal=True)
    assert [c["claim"] for c in _claims(folder)] == ["unique", "none", "multiple", "unique"]
    for k in (1, 2):  # their refutations take more than propagation: tampering with a proof shows
        _, clauses = checker.read_dimacs((folder / f"{k}.cnf").read_text(), f"{k}.cnf")
        assert not drat.check_refutation(list(clauses), "").ok
    return folder


#: The two DRAT checkers: the standard-library reference and its compiled twin, which must agree.
REFUTERS = pytest.mark.parametrize(
    "refute", [drat.check_refutation, drat_compiled.check_refutation], ids=["reference", "compiled"]
)


def _tampered(proven: Path, tmp_path: Path, change, refute=drat.check_refutation) -> str:
    """Check a copy of ``proven`` after ``change(folder)``; the message of the claim that fails."""
    folder = tmp_path / "copy"
    shutil.copytree(proven, folder)
    change(folder)
    failed = [m for _, m, ok in checker.check_dir(folder, refute=refute) if not ok]
    assert len(failed) == 1, failed
    return failed[0]


def _edit(path: Path, edit) -> None:
    lines = path.read_text().splitlines()
    path.write_text("\n".join(edit(lines)) + "\n")


def _edit_claim(folder: Path, k: int, edit) -> None:
    claims = _claims(folder)
    edit(claims[k - 1])
    (folder / "claims.jsonl").write_text("".join(json.dumps(c) + "\n" for c in claims))


@REFUTERS
def test_the_untouched_folder_verifies(proven: Path, refute) -> None:
    assert all(ok for *_, ok in checker.check_dir(proven, refute=refute))


def _flip(lines: list[str]) -> list[str]:
    i = next(i for i, line in enumerate(lines) if i and len(line.split()) > 3)  # 2+ literals
    first, rest = lines[i].split(" ", 1)
    lines[i] = f"{-int(first)} {rest}"
    return lines


def _drop(lines: list[str]) -> list[str]:
    header, clauses = lines[0].split(), lines[1:]
    del clauses[len(clauses) // 2]
    return [" ".join([*header[:3], str(len(clauses))]), *clauses]


def _add(lines: list[str]) -> list[str]:
    header, clauses = lines[0].split(), lines[1:]
    clauses.append("1 2 0")  # r1c1 holds 1 or 2: not a canonical clause
    return [" ".join([*header[:3], str(len(clauses))]), *clauses]


@pytest.mark.parametrize(
    ("file", "edit", "why"),
    [
        ("1.cnf", _flip, "is not in the formula"),
        ("1.cnf", _drop, "of the formula is missing"),
        ("1.cnf", _add, "is not in the formula"),
        ("1.cnf", lambda lines: lines[:-1], "the header counts"),
        ("1.drat", lambda lines: lines[: len(lines) // 2], "without deriving the empty clause|neither RUP"),
        ("2.drat", lambda lines: [], "without deriving the empty clause"),
        ("2.drat", lambda lines: ["1 x 0"], "not a clause"),
    ],
    ids=[
        "flipped literal",
        "missing clause",
        "extra clause",
        "wrong count",
        "truncated proof",
        "no proof",
        "bad proof line",
    ],
)
@REFUTERS
def test_a_tampered_formula_or_proof_fails(
    proven: Path, tmp_path: Path, file: str, edit, why: str, refute
) -> None:
    message = _tampered(proven, tmp_path, lambda folder: _edit(folder / file, edit), refute)
    assert message.startswith(file.split(".")[0] + " FAILED"), message
    assert re.search(why, message), message


def _swap_two(line: str) -> str:
    cells = list(line)
    cells[0], cells[1] = cells[1], cells[0]
    return "".join(cells)


@pytest.mark.parametrize(
    ("k", "edit", "why"),
    [
        (
            1,
            lambda c: c.update(solution=_swap_two(c["solution"])),
            "breaks the rules|does not keep the given",
        ),
        (1, lambda c: c.update(claim="none"), "is not in the formula"),
        (
            4,
            lambda c: c["rules"].update(
                pairs=[[0, c["solution"].index(c["solution"][0], 1), "differ", 0, False]]
            ),
            "breaks the rules",
        ),
        (1, lambda c: c["minimal"][0].update(solutions=[c["solution"], c["solution"]]), "are the same"),
        (1, lambda c: c.update(cnf="../1.cnf"), "names no formula"),
        (2, lambda c: c.update(claim="unique", solution=c["puzzle"].replace(".", "1")), "breaks the rules"),
        (3, lambda c: c.update(solutions=[c["solutions"][0]] * 2), "the same grid"),
        (3, lambda c: c["rules"].update(pairs=[[0, 1, "greater", 0, False]]), "a pair is not"),
        (3, lambda c: c["rules"].update(sandwiches=[]), "unknown key 'sandwiches'"),
        (3, lambda c: c["rules"].update(houses=5), "houses is not a list"),
    ],
    ids=[
        "wrong solution",
        "wrong claim",
        "a rule the solution breaks",
        "bad witness",
        "path outside",
        "none as unique",
        "same two solutions",
        "unknown relation",
        "unknown rule key",
        "rules not a list",
    ],
)
def test_a_tampered_claim_fails(proven: Path, tmp_path: Path, k: int, edit, why: str) -> None:
    message = _tampered(proven, tmp_path, lambda folder: _edit_claim(folder, k, edit))
    assert message.startswith(f"{k} FAILED"), message
    assert re.search(why, message), message


# --- the proof checker -------------------------------------------------------------------------------


def test_an_independent_drat_checker_accepts_the_proofs(proven: Path) -> None:
    dratify = pytest.importorskip("dratify", reason="the independent checker: pip install -e '.[test]'")
    for claim in _claims(proven):
        if "proof" in claim:
            formula = dratify.parse_dimacs((proven / claim["cnf"]).read_text())
            assert dratify.check_proof(formula, (proven / claim["proof"]).read_text()).ok, claim["index"]


def _pigeons(p: int, h: int) -> list[list[int]]:
    """p pigeons in h holes, each in one, no two sharing: unsatisfiable when p > h."""
    var = lambda i, j: i * h + j + 1  # noqa: E731
    out = [[var(i, j) for j in range(h)] for i in range(p)]
    for j in range(h):
        out += [[-var(a, j), -var(b, j)] for a in range(p) for b in range(a + 1, p)]
    return out


@REFUTERS
@pytest.mark.parametrize("solver", ["cadical153", "glucose4", "lingeling"])
def test_the_drat_checker_agrees_with_an_independent_one_on_mutated_proofs(solver: str, refute) -> None:
    dratify = pytest.importorskip("dratify", reason="the independent checker: pip install -e '.[test]'")
    from pysat.solvers import Solver

    formula = _pigeons(5, 4)
    with Solver(name=solver, with_proof=True, bootstrap_with=formula) as s:
        assert not s.solve()
        proof = s.get_proof()
    assert refute(formula, "\n".join(proof)).ok
    rng = random.Random(7)
    accepted = rejected = 0
    for _ in range(40):
        lines = list(proof)
        i = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[i]
        else:
            fields = lines[i].split()
            j = rng.randrange(len(fields) - 1)
            if fields[j] not in ("d", "0"):
                fields[j] = str(-int(fields[j]))
            lines[i] = " ".join(fields)
        ours = refute(formula, "\n".join(lines)).ok
        theirs = dratify.check_proof(dratify.parse_dimacs(_dimacs(formula)), "\n".join(lines)).ok
        assert not ours or theirs, lines  # what this checker accepts, the independent one accepts
        accepted += ours
        rejected += not ours
    assert rejected > 0  # the mutations do break proofs


def _dimacs(formula: list[list[int]]) -> str:
    top = max(abs(x) for c in formula for x in c)
    return f"p cnf {top} {len(formula)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in formula)


@REFUTERS
def test_the_drat_checker_honours_deletions_but_keeps_a_fixed_literals_reason(refute) -> None:
    xor = [[1, 2, 3], [-1, 2], [1, -2], [-1, -2]]  # unsatisfiable once 3 is false: 1 and 2 differ and agree
    assert refute([*xor, [-3]], "2 0\n0\n").ok
    # deleted, a clause no longer propagates: (1 2 3) gone, nothing forces 2 (1 and 2 false satisfy the rest)
    assert not refute([*xor, [-3]], "d 1 2 3 0\n2 0\n0\n").ok
    assert not refute([*xor, [-3]], "d 1 -2 0\n-1 0\n0\n").ok
    # the unit (-3) fixes 3 false at the top level: its deletion is ignored, as drat-trim ignores it, and so
    # is that of any clause a fixed literal satisfies
    assert refute([*xor, [-3]], "d -3 0\n2 0\n0\n").ok
    assert refute([*xor, [-3], [-3, 4, 5]], "d -3 4 5 0\nd -3 0\n2 0\n0\n").ok
    # a clause that repeats a literal, deleted, leaves no watch behind
    assert not refute([[1, 1, 2], *xor[1:]], "d 1 1 2 0\n2 0\n0\n").ok
    # and is read without its copies: (1 1) is the unit 1, and in (1 2 1), once 2 is false, 1 follows
    assert refute([[1, 1], [-1, 2], [-1, -2]], "").ok
    assert refute([[1, 2, 1], [-2], [-1, 3], [-1, -3]], "").ok


#: Lines of DRAT text (a deletion or not, literals, the closing 0 or not, how the line ends), and pieces
#: that only Python's reading takes or refuses (a plus sign, underscores, a vertical tab or a lone
#: carriage return that ends a line, a letter, a digit past int64, a comment).
_LINES = st.builds(
    lambda d, lits, zero, sep, end: d + sep.join([*lits, *zero]) + end,
    st.sampled_from(["", "d ", "d", "c "]),
    st.lists(st.sampled_from(["1", "-1", "2", "-2", "3", "-3", "007", "-0"]), max_size=3),
    st.sampled_from([["0"], ["0"], [], ["0", "1"]]),
    st.sampled_from([" ", " ", "\t", "  "]),
    st.sampled_from(["\n", "\n", "\r\n", "\r", "\x0b", "\x0c", ""]),
)
_ODD = st.sampled_from(["+1 0\n", "1_0 0\n", "é", "x", "c x\x0b2 0\n", "9" * 20 + " 0\n", "\x00", " "])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@for_any(st.lists(st.one_of(_LINES, _LINES, _LINES, _ODD), max_size=8))
@example(["1\r0\n"])  # two lines for str.splitlines, the first without its 0
@example(["-3 0\r\n", "d -3 0\r\n", "2 0\n0"])
@example(["c x\x0b2 0\n", "1\x0c0\n"])
@example(["+1 0\n", "1_0 0\n", "99999999999999999999 0\n"])
def test_the_compiled_drat_checker_reads_proof_text_as_the_reference_does(pieces: list[str]) -> None:
    """The compiled checker reads text DRAT with a compiled pass over its bytes, and leaves any text but
    what ``prove`` writes to the reference's reader: on any text, both give the same verdict, or refuse it
    with the same error."""
    text = "".join(pieces)
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2, 3], [-3]]
    outcomes = []
    for refute in (drat.check_refutation, drat_compiled.check_refutation):
        try:
            outcomes.append(refute(formula, text))
        except drat.ProofError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1], text


@REFUTERS
def test_the_drat_checker_rejects_a_binary_proof_and_a_line_without_its_zero(refute) -> None:
    with pytest.raises(drat.ProofError, match="binary"):
        refute([[1], [-1]], "a\x02\x00")
    with pytest.raises(drat.ProofError, match="exactly one 0"):
        refute([[1], [-1]], "1 2\n")
    assert refute([[1, 2], [-1, 2], [1, -2], [-1, -2]], "2 0\n0\n").ok
    assert not refute([[1, 2], [-1, 2], [1, -2]], "0\n").ok  # satisfiable: no refutation


@REFUTERS
def test_a_rat_lemma_is_accepted_and_a_wrong_one_rejected(refute) -> None:
    differ = [[1, 2], [-1, -2]]  # 1 and 2 differ: satisfiable, so no proof ends in the empty clause
    ends = "the proof ends without deriving the empty clause"
    # 3 is fresh: (3 1) is RAT on 3 (no clause holds -3), though not RUP; (-3 2) is RAT on -3: its one
    # resolvent, with (3 1), is (2 1), which is RUP; (-3 -1)'s is (-1 1), a tautology
    assert refute(differ, "3 1 0\n-3 2 0\n") == drat.Verdict(False, ends, 2, 0)
    assert refute(differ, "3 1 0\n-3 -1 0\n") == drat.Verdict(False, ends, 2, 0)
    # (-3) resolves with (3 1) to (1), which propagation does not show
    verdict = refute(differ, "3 1 0\n-3 0\n")
    assert not verdict.ok and verdict.reason == "proof step 2 (-3) is neither RUP nor RAT"
    # a fresh variable is a name: 10**12 is checked as 3 is, without a table that long
    big = 10**12
    assert refute(differ, f"{big} 1 0\n-{big} 2 0\n") == drat.Verdict(False, ends, 2, 0)
    assert refute(differ, f"{big} 1 0\n-{big} 0\n").reason == f"proof step 2 (-{big}) is neither RUP nor RAT"


@pytest.mark.parametrize("steps_a_call", [drat_compiled.STEPS_A_CALL, 1, 3])
def test_the_compiled_drat_checker_gives_the_references_verdicts_on_tampered_proofs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, steps_a_call: int
) -> None:
    """Also when the compiled checker checks a proof in slices of a step or three (a slice a call, so
    that a signal is heard inside a long proof): each call goes on from the state the last one left."""
    monkeypatch.setattr(drat_compiled, "STEPS_A_CALL", steps_a_call)
    puzzles = [Puzzle.from_string(HARD), *(_puzzle(NINE, 0.3, seed) for seed in range(3))]
    write_folder(puzzles, tmp_path)
    rng = random.Random(11)
    seen: set[bool] = set()
    for claim in _claims(tmp_path):
        if "proof" not in claim:
            continue
        formula = [
            [int(x) for x in line.split()[:-1]]
            for line in (tmp_path / claim["cnf"]).read_text().splitlines()[1:]
        ]
        steps = drat.parse_proof((tmp_path / claim["proof"]).read_text())
        for _ in range(25):
            tampered = [(d, list(c)) for d, c in steps]
            i = rng.randrange(len(tampered))
            if rng.random() < 0.4 or not tampered[i][1]:
                del tampered[i]
            else:
                literals = tampered[i][1]
                j = rng.randrange(len(literals))
                literals[j] = -literals[j]
            reference = drat.check_refutation(formula, tampered)
            assert drat_compiled.check_refutation(formula, tampered) == reference  # reason and counts too
            text = "".join(("d " if d else "") + " ".join(map(str, [*c, 0])) + "\n" for d, c in tampered)
            assert drat_compiled.check_refutation(formula, text) == reference  # read from its text
            seen.add(reference.ok)
    assert seen == {True, False}  # some tampering breaks a proof, some does not


@pytest.mark.parametrize(
    ("name", "allowed"), [("checker.py", ()), ("drat.py", ()), ("drat_compiled.py", ("numpy", "numba"))]
)
def test_the_checking_side_imports_only_the_standard_library(name: str, allowed: tuple[str, ...]) -> None:
    """The checker and the reference DRAT checker: the standard library only; the compiled twin: numpy
    and numba too. None of them imports the solving code."""
    tree = ast.parse((Path(checker.__file__).parent / name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: only the checking side's own modules
                assert node.module in ("drat",), f"{name} imports .{node.module}"
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        assert all(r in sys.stdlib_module_names or r in ("__future__", *allowed) for r in roots), (
            name,
            roots,
        )


# --- the commands --------------------------------------------------------------------------------------


def test_prove_and_check_from_the_command_line(tmp_path: Path) -> None:
    rules = NINE.with_named("anti-knight")
    lines = [HARD, "not a puzzle", _puzzle(rules, 0.3, 8).to_string()]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "certs"
    proc = run_cli("prove", str(source), "-o", str(out), "-j", "1")
    assert proc.returncode == 1, proc.stderr  # the unreadable line: reported, the rest proven
    assert "line 2" in proc.stderr and "proved 2 of 3 puzzles (1 unique, 1 multiple, 1 error)" in proc.stderr
    assert [c["index"] for c in _claims(out)] == [1, 3]
    check = run_cli("check", str(out), "-j", "2")
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.splitlines() == ["1 verified unique", "3 verified multiple"]
    again = run_cli("prove", str(source), "-o", str(out))
    assert again.returncode == 2 and "is not empty" in again.stderr
    (out / "1.drat").write_text("0\n")
    failed = run_cli("check", str(out))
    assert failed.returncode == 1 and failed.stdout.startswith("1 FAILED: 1.drat")


@REFUTERS
def test_a_header_counting_far_more_variables_is_read_as_the_clauses_are(
    proven: Path, tmp_path: Path, refute
) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(proven, folder)
    _edit(folder / "1.cnf", lambda lines: [f"p cnf {10**12} {lines[0].split()[3]}", *lines[1:]])
    assert all(ok for *_, ok in checker.check_dir(folder, refute=refute))


def test_check_gives_the_same_lines_with_either_drat_checker(tmp_path: Path) -> None:
    out = tmp_path / "certs"
    write_folder([Puzzle.from_string(HARD), *(_puzzle(NINE, 0.3, seed) for seed in range(4))], out)
    _edit(out / "1.drat", lambda lines: lines[: len(lines) // 2])  # cut short
    runs = {
        drat: run_cli("check", str(out), "-j", "1", "--drat", drat)
        for drat in ("reference", "compiled", "auto")
    }
    assert all(run.returncode == 1 for run in runs.values()), runs["compiled"].stderr
    assert runs["reference"].stdout == runs["compiled"].stdout == runs["auto"].stdout
    assert runs["compiled"].stdout.startswith("1 FAILED: 1.drat")
    assert run_cli("check", str(out), "--drat", "fast").returncode == 2  # not a choice


def test_auto_takes_the_compiled_drat_checker_from_enough_proofs(tmp_path: Path, monkeypatch) -> None:
    from sudoku_cp.cli import check

    (tmp_path / "claims.jsonl").write_text('{"proof": "1.drat"}\n' * (check.COMPILED_FROM - 1))
    assert check.drat_checker("auto", [str(tmp_path), str(tmp_path / "missing")]) is drat.check_refutation
    monkeypatch.setattr(check, "COMPILED_FROM", check.COMPILED_FROM - 1)
    assert check.drat_checker("auto", [str(tmp_path)]) is drat_compiled.check_refutation


def test_auto_takes_the_compiled_drat_checker_for_a_large_proof(tmp_path: Path) -> None:
    """One proof of a killer took 4 minutes with the compiled checker, about an hour with the reference:
    ``auto`` weighs the proofs' bytes too."""
    from sudoku_cp.cli import check

    (tmp_path / "claims.jsonl").write_text('{"proof": "1.drat"}\n')
    (tmp_path / "1.drat").write_text("c" * (check.COMPILED_FROM_BYTES - 2) + "\n")  # a byte short
    assert check.drat_checker("auto", [str(tmp_path)]) is drat.check_refutation
    (tmp_path / "2.drat").write_text("\n")
    assert check.drat_checker("auto", [str(tmp_path)]) is drat_compiled.check_refutation


def test_a_folder_without_readable_claims_is_an_input_error_the_others_are_checked(tmp_path: Path) -> None:
    good = tmp_path / "good"
    assert run_cli("prove", "-p", HARD, "-o", str(good), "-q").returncode == 0
    garbled = tmp_path / "garbled"
    garbled.mkdir()
    (garbled / "claims.jsonl").write_bytes(b"\xff\xfe" + bytes(range(256)))
    check = run_cli("check", str(tmp_path / "missing"), str(garbled), str(good), "-j", "1")
    assert check.returncode == 2 and check.stdout == "1 verified unique\n", check.stdout
    messages = check.stderr.splitlines()
    assert f"cannot read {tmp_path / 'missing' / 'claims.jsonl'}: No such file or directory" in messages[0]
    assert f"cannot read {garbled / 'claims.jsonl'}: not UTF-8 text" in messages[1]
    assert checker.main([str(garbled), str(good)]) == 2


def test_prove_refuses_a_grid_beyond_35x35_by_name_and_goes_on(tmp_path: Path) -> None:
    killer = {"size": 4, "grid": [[{}] * 4] * 4, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}
    big = {"size": 36, "grid": [[{}] * 36] * 36}
    plain = {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3}
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(p) + "\n" for p in (killer, big, plain)))
    proc = run_cli("prove", str(source), "-o", str(tmp_path / "c"), "-j", "1")
    assert proc.returncode == 1
    assert "puzzle 2" in proc.stderr and "certificates cover grids up to 35x35, not 36x36" in proc.stderr
    claims = _claims(tmp_path / "c")
    assert [c["claim"] for c in claims] == ["multiple", "multiple"]
    assert claims[0]["rules"] == {"size": 4, "box": [2, 2], "cages": [[3, [0, 1]]]}
    *_, summary, remark = proc.stderr.splitlines()  # not "proved 3 puzzles (...)": that read as success
    assert summary.startswith("proved 2 of 3 puzzles (2 multiple, 1 refused) in ")
    assert remark.startswith("sudoku-cp: 1 puzzle refused, without a certificate: no certificate holds their")
    assert "refused (its rules have no certificate" in run_cli("prove", "--help").stdout


def test_prove_resumes_a_stopped_run_in_its_folder(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    # puzzles that take a proof (a puzzle settled by propagation alone has no files)
    source.write_text("\n".join([HARD, "bad", _puzzle(NINE, 0.2, 5).to_string(), HARD]) + "\n")
    whole = run_cli("prove", str(source), "-o", str(tmp_path / "whole"))
    assert whole.returncode == 1  # the bad line
    claims = (tmp_path / "whole" / "claims.jsonl").read_text().splitlines(keepends=True)
    stopped = tmp_path / "stopped"  # what a run stopped after puzzle 1 leaves
    stopped.mkdir()
    (stopped / "claims.jsonl.partial").write_text(claims[0])
    for name in ("1.cnf", "1.drat"):
        (stopped / name).write_text((tmp_path / "whole" / name).read_text())
    resumed = run_cli("prove", str(source), "-o", str(stopped), "--resume")
    assert resumed.returncode == 1 and "resuming after puzzle 1" in resumed.stderr, resumed.stderr
    assert (stopped / "claims.jsonl").read_text() == "".join(claims)
    assert sorted(p.name for p in stopped.iterdir()) == sorted(p.name for p in (tmp_path / "whole").iterdir())
    proc = run_cli("prove", str(source), "-o", str(stopped), "--resume")
    assert proc.returncode == 2 and "nothing to resume" in proc.stderr
    (stopped / "claims.jsonl.partial").write_text(claims[0])
    proc = run_cli("prove", str(source), "-o", str(stopped), "--resume")  # 4.*: a killed run's files
    assert proc.returncode == 1, proc.stderr
    assert "last claim (puzzle 1), to write them again: 4.cnf, 4.drat" in proc.stderr
    assert (stopped / "claims.jsonl").read_text() == "".join(claims)


def test_prove_numbers_its_claims_across_several_inputs(tmp_path: Path) -> None:
    """Each file's records count from 1; the claims and their files go by the puzzle's place among all the
    inputs (the second file's puzzle is claim 3, after the unreadable line), and check verifies each."""
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(f"{HARD}\nbad\n")
    second.write_text(f"{HARD}\n")
    proc = run_cli("prove", "-j", "1", "-o", str(tmp_path / "out"), str(first), str(second))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr  # 1: the bad line
    claims = [json.loads(line) for line in (tmp_path / "out" / "claims.jsonl").read_text().splitlines()]
    assert [c["index"] for c in claims] == [1, 3]
    assert {c["proof"] for c in claims} == {"1.drat", "3.drat"}
    checked = run_cli("check", str(tmp_path / "out"))
    assert checked.returncode == 0 and checked.stdout.split("\n")[:2] == [
        "1 verified unique",
        "3 verified unique",
    ]


@pytest.mark.slow
def test_prove_killed_by_sigkill_is_resumed_from_its_claims(tmp_path: Path) -> None:
    """Issue 33: a prove run killed by SIGKILL left its claims in a temporary file; --resume said
    "nothing to resume" and a new run "not empty"."""
    source = tmp_path / "in.txt"
    source.write_text((HARD + "\n") * 100)  # a second or two on two workers
    folder = tmp_path / "c"
    command = [sys.executable, "-m", "sudoku_cp", "prove", "-q", "-j", "2", "-o", str(folder), str(source)]
    proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        temps = list(folder.glob(".claims.jsonl.sudoku-cp-*.tmp")) if folder.is_dir() else []
        if temps and temps[0].stat().st_size > 2000:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.kill()
    proc.wait()
    again = run_cli("prove", "-q", "-o", str(folder), str(source))
    assert again.returncode == 2 and "--resume continues it" in again.stderr, again.stderr
    done = len((folder / "claims.jsonl.partial").read_text().splitlines())
    assert f"(process {proc.pid}) left {done:,} whole lines" in again.stderr
    resumed = run_cli("prove", "-q", "-j", "2", "-o", str(folder), "--resume", str(source))
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming after puzzle {done}," in resumed.stderr
    assert [c["index"] for c in _claims(folder)] == list(range(1, 101))
    assert [ok for *_, ok in checker.check_dir(folder)] == [True] * 100


@pytest.mark.slow
def test_prove_on_a_dask_cluster_writes_what_one_process_writes(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed: pip install -e '.[dask]'")
    source = tmp_path / "in.txt"
    source.write_text(f"{HARD}\n" + "12343412214343..\n" * 10)
    here = run_cli("prove", str(source), "-o", str(tmp_path / "here"), "-j", "1", "--minimal")
    there = run_cli("prove", str(source), "-o", str(tmp_path / "there"), "--cluster", "local:1", "--minimal")
    assert here.returncode == there.returncode == 0, there.stderr
    assert "on 1 Dask worker" in there.stderr
    files = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "there").iterdir())
    for name in files:
        assert (tmp_path / "here" / name).read_text() == (tmp_path / "there" / name).read_text(), name


@pytest.mark.slow
def test_check_stops_on_sigterm_with_whole_lines_and_no_worker_left(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import time

    write_folder([Puzzle.from_string(HARD)] * 400, tmp_path / "c")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", "check", str(tmp_path / "c"), "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = proc.stdout.readline()  # checking has begun: the signal lands mid-run
    proc.send_signal(signal.SIGTERM)
    out = first + proc.stdout.read()  # not communicate(): it would skip what readline has buffered
    err = proc.stderr.read()
    proc.wait(timeout=30)
    assert proc.returncode == 143, err
    assert "interrupted by SIGTERM" in err and "Traceback" not in err
    assert all(re.fullmatch(r"\d+ verified unique", line) for line in out.splitlines()), (out, err)
    lines = out.splitlines()  # whole lines, every claim checked before the stop, in order
    assert [int(line.split()[0]) for line in lines] == list(range(1, len(lines) + 1))
    assert err.startswith(f"{len(lines):,} verified, 0 failed, interrupted by SIGTERM"), (out, err)
    time.sleep(0.5)
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if str(tmp_path) in Path(f"/proc/{pid}/cmdline").read_text():
                left.append(pid)
        except OSError:
            continue
    assert not left, "worker processes outlived the check"


def test_clashing_givens_get_a_none_claim_settled_by_propagation(tmp_path: Path) -> None:
    clash = Puzzle.from_string("11" + "." * 14)  # two 1s in the first row: propagation alone conflicts
    [cert] = write_folder([clash], tmp_path / "a")
    assert cert.claim == "none" and cert.cnf is None and cert.proof is None
    assert "cnf" not in _claims(tmp_path / "a")[0] and sorted(p.name for p in (tmp_path / "a").iterdir()) == [
        "claims.jsonl"
    ]
    assert [m for _, m, _ in checker.check_dir(tmp_path / "a")] == ["1 verified none"]
    # the same claim with the whole formula (1-7, what a certificate holds after a clash) and an empty
    # refutation still verifies; one clause less does not
    whole = checker.formula(checker.grid_of(4, None), list(clash.cells))
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "1.cnf").write_text(dimacs(whole, 64))
    (folder / "1.drat").write_text("0\n")
    claim = {"index": 1, "puzzle": clash.to_string(), "claim": "none", "cnf": "1.cnf", "proof": "1.drat"}
    (folder / "claims.jsonl").write_text(json.dumps(claim) + "\n")
    assert [m for _, m, _ in checker.check_dir(folder)] == ["1 verified none"]
    (folder / "1.cnf").write_text(dimacs(sorted(whole)[1:], 64))
    assert "is missing" in next(m for _, m, _ in checker.check_dir(folder))


EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."  # singles only


def test_a_puzzle_settled_by_propagation_has_a_claim_without_files(tmp_path: Path) -> None:
    easy = Puzzle.from_string(EASY)
    [cert] = write_folder([easy], tmp_path, minimal=True)
    assert cert.claim == "unique" and cert.cnf is None
    assert cert.solutions[0] == solve(easy).solution.to_string()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["claims.jsonl"]
    [claim] = _claims(tmp_path)
    assert "cnf" not in claim and "proof" not in claim
    assert next(m for _, m, _ in checker.check_dir(tmp_path)).startswith("1 verified unique, ")


@pytest.mark.parametrize(
    ("k", "edit", "why"),
    [
        (1, lambda c: [c.pop("cnf"), c.pop("proof")], "propagation from the givens leaves cells open"),
        (1, lambda c: c.pop("proof"), "names no formula and proof"),
        (2, lambda c: [c.pop("cnf"), c.pop("proof")], "propagation from the givens finds no clash"),
        (1, lambda c: c["minimal"][0].pop("solutions"), "leaves cells open"),
    ],
    ids=["unique", "half", "none", "witness"],
)
def test_a_claim_without_files_that_propagation_does_not_settle_fails(
    proven: Path, tmp_path: Path, k: int, edit, why: str
) -> None:
    message = _tampered(proven, tmp_path, lambda folder: _edit_claim(folder, k, edit))
    assert message.startswith(f"{k} FAILED"), message
    assert re.search(why, message), message


def test_a_wrong_solution_settled_by_propagation_fails(tmp_path: Path) -> None:
    write_folder([Puzzle.from_string(EASY)], tmp_path)
    solution = _claims(tmp_path)[0]["solution"]
    empty = [i for i, ch in enumerate(EASY) if ch == "."]
    a, b = next((a, b) for a in empty for b in empty if a // 9 == b // 9 and a < b)
    cells = list(solution)
    cells[a], cells[b] = cells[b], cells[a]  # a row keeps its digits, columns and boxes break
    _edit_claim(tmp_path, 1, lambda c: c.update(solution="".join(cells)))
    [(_, message, ok)] = list(checker.check_dir(tmp_path))
    assert not ok and "breaks the rules" in message, message


@pytest.mark.parametrize(
    ("relation", "value", "negated"),
    [
        ("differ", 0, False),
        ("difference", 1, False),
        ("difference", 1, True),
        ("ratio", 2, False),
        ("ratio", 2, True),
        ("sum", 10, False),
        ("sum", 5, True),
    ],
)
def test_the_checker_reads_a_pair_rule_as_the_rules_model_does(
    relation: str, value: int, negated: bool
) -> None:
    """The checker has its own copy of the pair relations (it imports nothing from the solver): the same
    digit pairs must come out forbidden."""
    pair = Pair(0, 1, relation, value, negated)
    rules = {"size": 9, "box": [3, 3], "pairs": [[0, 1, relation, value, negated]]}
    [(a, b, forbidden)] = checker.grid_of(9, rules).pairs
    every = {(x, y) for x in range(1, 10) for y in range(1, 10)}
    assert (a, b) == (0, 1) and forbidden == every - pair.allowed(9)


def _hard_folder(folder: Path) -> Path:
    """A folder with HARD's claim, formula and proof."""
    write_folder([Puzzle.from_string(HARD)], folder)
    assert {"1.cnf", "1.drat"} <= {p.name for p in folder.iterdir()}
    return folder


@pytest.mark.parametrize("name", ["1.cnf", "1.drat"])
def test_a_certificate_file_that_is_no_regular_file_is_refused_unread(tmp_path: Path, name: str) -> None:
    folder = _hard_folder(tmp_path / "c")
    kept = folder / name
    copy = tmp_path / name
    kept.rename(copy)
    kept.symlink_to(copy)  # a link to a regular file is followed
    assert [ok for *_, ok in checker.check_dir(folder)] == [True]
    for target in ("/dev/zero", "/dev/urandom", str(tmp_path)):  # endless, or no file at all
        kept.unlink()
        kept.symlink_to(target)
        [(_, message, ok)] = checker.check_dir(folder)
        assert not ok and message == f"1 FAILED: cannot read {kept}: not a regular file", message
    kept.unlink()
    os.mkfifo(kept)  # a FIFO without a writer would block a plain open forever
    [(_, message, ok)] = checker.check_dir(folder)
    assert not ok and message == f"1 FAILED: cannot read {kept}: not a regular file", message


def test_a_certificate_file_is_read_no_further_than_its_claim_allows(tmp_path: Path, monkeypatch) -> None:
    folder = _hard_folder(tmp_path / "c")
    proof = (folder / "1.drat").read_bytes()
    monkeypatch.setattr(checker, "PROOF_BYTES_PER_VARIABLE", len(proof) // 729)  # 9x9: 729 variables
    [(_, message, ok)] = checker.check_dir(folder)
    assert not ok and f"cannot read {folder / '1.drat'}: larger than " in message, message
    formula = (folder / "1.cnf").read_text()
    monkeypatch.undo()
    (folder / "1.cnf").write_text(formula + "c a comment\n" * (4 * len(formula) // 12 + 6000))
    [(_, message, ok)] = checker.check_dir(folder)
    assert not ok and f"cannot read {folder / '1.cnf'}: larger than " in message, message


def test_a_bound_far_beyond_memory_reads_a_small_file(tmp_path: Path, monkeypatch) -> None:
    """The bound is no buffer: a formula of 50,000 variables allowed its proof 50 GB, which the checker
    asked of memory at once and died of (a MemoryError on every variant certificate of that size); the
    file is read in pieces, the bound checked as they come."""
    folder = _hard_folder(tmp_path / "c")
    monkeypatch.setattr(checker, "PROOF_BYTES_PER_VARIABLE", 1 << 40)  # 729 variables: 800 TB allowed
    assert [ok for *_, ok in checker.check_dir(folder)] == [True]
    monkeypatch.setattr(checker, "READ_PIECE", 7)  # the bound met in the middle of a piece
    small = tmp_path / "small.txt"
    small.write_text("0123456789" * 3)
    assert checker.read_text(small, 30) == "0123456789" * 3
    with pytest.raises(OSError, match="larger than 29 bytes"):
        checker.read_text(small, 29)


def test_prove_refuses_a_claim_whose_proof_a_checker_would_not_read(tmp_path: Path, monkeypatch) -> None:
    """A proof larger than the checker reads would be a certificate that fails: ``prove`` refuses the
    claim instead, by name (a puzzle without solution under renban lines took 15 MB, over the old bound)."""
    proof = (_hard_folder(tmp_path / "c") / "1.drat").read_bytes()
    monkeypatch.setattr(checker, "PROOF_BYTES_PER_VARIABLE", len(proof) // 729 - 1)
    with pytest.raises(UnsupportedRuleError, match=r"DRAT proof takes .* more than a checker reads"):
        prove(Puzzle.from_string(HARD))
    monkeypatch.undo()
    assert prove(Puzzle.from_string(HARD)).claim == "unique"


def test_check_refuses_claims_that_are_no_regular_file(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "claims.jsonl").symlink_to("/dev/zero")
    proc = run_cli("check", str(folder))  # --drat auto counts the proofs of claims.jsonl first
    assert proc.returncode == 2
    assert f"cannot read {folder / 'claims.jsonl'}: not a regular file" in proc.stderr
