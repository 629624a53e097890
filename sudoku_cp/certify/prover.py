"""Write certificates of uniqueness: the canonical formula of ``checker`` refuted by a DRAT proof.

One Glucose 4 solver per certificate, with python-sat's proof logging, holds the puzzle's formula (the givens
as unit clauses, never assumptions, so the proof refutes the very file written): a first solve finds a
solution, the clause blocking it goes in, and a second solve either finds another (``multiple``) or
ends in the refutation the proof records (``unique``); no first solution is ``none``, refuted by the
same proof. The encoding is the checker's own (``checker.formula``), so what is proven is what is checked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pysat.solvers import Solver

from ..errors import UnsupportedRuleError
from ..grid import Puzzle
from ..rules import Rules, Thermo
from . import checker

__all__ = [
    "PROOF_SOLVER",
    "Certificate",
    "Witness",
    "claim_record",
    "prove",
    "rules_field",
    "store_in",
    "write_folder",
]

#: The python-sat solver that logs the proofs: Glucose 4 gave the shortest proofs here (median lines on
#: forum_hardest_11plus 112 against CaDiCaL 1.5.3's 619, on 17_clue 3 against 216) and proved fastest.
PROOF_SOLVER = "glucose4"


@dataclass(frozen=True)
class Witness:
    """Why one given of a unique puzzle is needed (two solutions without it) or is not (a certificate
    that the puzzle without it is still unique: ``cnf`` and ``proof`` texts)."""

    given: str
    solutions: tuple[str, ...] = ()
    cnf: str | None = None
    proof: str | None = None


@dataclass(frozen=True)
class Certificate:
    """A claim about a puzzle (``unique``, ``none`` or ``multiple``) with what shows it: the solutions
    as lines, and for ``unique`` and ``none`` the formula (DIMACS text) and its refutation (DRAT text)."""

    claim: str
    solutions: tuple[str, ...] = ()
    cnf: str | None = None
    proof: str | None = None
    minimal: tuple[Witness, ...] | None = field(default=None)

    @property
    def is_minimal(self) -> bool | None:
        """Whether every given is needed (None when not asked, or not unique)."""
        return None if self.minimal is None else all(w.cnf is None for w in self.minimal)


def rules_field(rules: Rules) -> dict | None:
    """The claim's ``rules`` field (docs/certificates.md): None for rows, columns and the usual boxes,
    else the houses, groups, pair rules and thermometers; ``UnsupportedRuleError`` for a rule without
    canonical clauses (cage sums, arrows), which a certificate cannot leave out."""
    n = rules.n
    if rules.n > len(checker.SYMBOLS):
        raise UnsupportedRuleError(f"certificates cover grids up to 35x35, not {n}x{n}")
    for rule in rules.constraints:
        if not isinstance(rule, Thermo):
            raise UnsupportedRuleError(
                f"prove: {rule.describe(n)}: sums have no canonical clauses in a certificate "
                "(prove covers houses, groups, pair rules and thermometers)"
            )
    if rules.is_classic and rules.box == _usual_box(n):
        return None
    out: dict = {"size": n}
    first = 2 * n  # rules.houses: rows, columns, then the boxes or regions and the extra houses
    if rules.box is not None:
        out["box"] = list(rules.box)
        first += n
    houses = [list(h) for h in rules.houses[first:]]
    if houses:
        out["houses"] = houses
    if rules.groups:
        out["groups"] = [list(g) for g in rules.groups]
    if rules.pairs:
        out["pairs"] = [[p.a, p.b, p.relation, p.value, p.negated] for p in rules.pairs]
    if rules.thermos:
        out["thermometers"] = [list(t.cells) for t in rules.thermos]
    return out


def _usual_box(n: int) -> tuple[int, int] | None:
    try:
        return Rules.from_n(n).box
    except ValueError:  # a prime n has no box shape of its own
        return None


def dimacs(clauses: Iterable[tuple[int, ...]], variables: int) -> str:
    """The clauses as DIMACS CNF text, in sorted order."""
    ordered = sorted(clauses)
    lines = [f"p cnf {variables} {len(ordered)}"]
    lines += [" ".join(map(str, clause)) + " 0" for clause in ordered]
    return "\n".join(lines) + "\n"


def _line(cells: Sequence[int]) -> str:
    return "".join(checker.SYMBOLS[d - 1] for d in cells)


class _Solver:
    """A proof-logging solver on what the givens leave open: the certificate's clauses less its unit
    clauses, and less the literals those make false. Every clause it is given follows from the
    certificate's by unit propagation, so each lemma of its proof is RUP against the certificate too."""

    def __init__(self, grid: checker.Grid, fixed: dict[int, bool] | None, clauses: set[tuple[int, ...]]):
        self.n, self.fixed = grid.n, fixed or {}
        self.solver = Solver(name=PROOF_SOLVER, with_proof=True)
        self.refuted = False
        if fixed is None:  # propagation found a conflict: the whole formula, as it is
            self.solver.append_formula(clauses)
            return
        add = self.solver.add_clause
        for clause in clauses:  # by construction: units of fixed literals, binary clauses on open
            if len(clause) > 1:  # variables, and clauses of positive literals none of which is true
                add(clause if clause[0] < 0 else [x for x in clause if x not in fixed])

    def add(self, clause: Sequence[int]) -> None:
        fixed = self.fixed
        open_ = [x for x in clause if fixed.get(abs(x)) is None]
        if len(open_) < len(clause) and any(fixed.get(abs(x)) == (x > 0) for x in clause):
            return  # satisfied by what is fixed
        if not open_:
            self.refuted = True  # false by what is fixed: the empty clause follows by propagation
        else:
            self.solver.add_clause(open_)

    def solve(self) -> list[int] | None:
        """A solution as cells, or None once there is none."""
        if self.refuted or not self.solver.solve():
            self.refuted = True
            return None
        cells = [0] * (self.n * self.n)
        model = [v for v, value in self.fixed.items() if value]
        model += [x for x in self.solver.get_model() if x > 0 and x not in self.fixed]
        for v in model:
            cells[(v - 1) // self.n] = (v - 1) % self.n + 1
        return cells

    def proof(self) -> str:
        return "\n".join(self.solver.get_proof()) + "\n0\n"

    def close(self) -> None:
        self.solver.delete()


def _settle(grid: checker.Grid, givens: list[int]) -> tuple[str, list[list[int]], str | None, str | None]:
    """``(claim, solutions, cnf, proof)`` for these givens on one proof-logging solver."""
    variables = grid.n**3
    fixed, clauses = checker.settle(grid, givens)
    solver = _Solver(grid, fixed, clauses)
    try:
        first = solver.solve()
        if first is None:
            return "none", [], dimacs(clauses, variables), solver.proof()
        block = checker.blocking_clause(grid.n, givens, first)
        solver.add(block)
        second = solver.solve()
        if second is not None:
            return "multiple", [first, second], None, None
        clauses.add(block)
        return "unique", [first], dimacs(clauses, variables), solver.proof()
    finally:
        solver.close()


def prove(puzzle: Puzzle, *, minimal: bool = False) -> Certificate:
    """The certificate of ``puzzle`` (``minimal``: with a witness for each given of a unique puzzle)."""
    field_ = rules_field(puzzle.rules)
    grid = checker.grid_of(puzzle.n, field_)
    givens = list(puzzle.cells)
    claim, solutions, cnf, proof = _settle(grid, givens)
    for cells in solutions:  # the solver's models, read back against the library's own rules
        if not puzzle.rules.is_valid(cells) or any(g and g != d for g, d in zip(givens, cells, strict=True)):
            raise AssertionError(f"the proof solver's model is not a solution of {puzzle.to_string()}")
    witnesses = None
    if minimal and claim == "unique":
        witnesses = tuple(_witness(grid, givens, solutions[0], c) for c, d in enumerate(givens) if d)
    return Certificate(claim, tuple(_line(s) for s in solutions), cnf, proof, witnesses)


def _witness(grid: checker.Grid, givens: list[int], solution: list[int], cell: int) -> Witness:
    without = list(givens)
    without[cell] = 0
    claim, solutions, cnf, proof = _settle(grid, without)
    if claim == "multiple":
        return Witness(grid.cell(cell), tuple(_line(s) for s in solutions))
    return Witness(grid.cell(cell), cnf=cnf, proof=proof)


def claim_record(
    k: int, puzzle: Puzzle, cert: Certificate, store: Callable[[str, str], str]
) -> dict[str, Any]:
    """The ``claims.jsonl`` line of the k-th puzzle (docs/certificates.md); ``store(name, text)`` writes
    a formula or proof file beside it and gives its name back."""
    record: dict[str, Any] = {"index": k, "puzzle": puzzle.to_string(), "claim": cert.claim}
    rules = rules_field(puzzle.rules)
    if rules is not None:
        record["rules"] = rules
    if cert.claim == "multiple":
        record["solutions"] = list(cert.solutions)
    else:
        if cert.claim == "unique":
            record["solution"] = cert.solutions[0]
        record["cnf"] = store(f"{k}.cnf", cert.cnf or "")
        record["proof"] = store(f"{k}.drat", cert.proof or "")
    if cert.minimal is not None:
        record["minimal"] = [_witness_record(k, w, store) for w in cert.minimal]
    return record


def _witness_record(k: int, witness: Witness, store: Callable[[str, str], str]) -> dict[str, Any]:
    if witness.cnf is None:
        return {"given": witness.given, "solutions": list(witness.solutions)}
    name = f"{k}-{witness.given}"
    return {
        "given": witness.given,
        "cnf": store(f"{name}.cnf", witness.cnf),
        "proof": store(f"{name}.drat", witness.proof or ""),
    }


def store_in(folder: Path) -> Callable[[str, str], str]:
    """A ``store`` for ``claim_record`` that creates each file in ``folder``, never over an existing one."""

    def store(name: str, text: str) -> str:
        with open(folder / name, "x") as f:
            f.write(text)
        return name

    return store


def write_folder(
    puzzles: Iterable[Puzzle], folder: str | Path, *, minimal: bool = False
) -> list[Certificate]:
    """Prove each puzzle and write ``folder`` (made if missing; files already there are never replaced):
    ``claims.jsonl`` and the k-th puzzle's ``k.cnf`` and ``k.drat``, as ``sudoku-cp prove`` does."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    store = store_in(folder)
    certificates = []
    with open(folder / "claims.jsonl", "x") as claims:
        for k, puzzle in enumerate(puzzles, 1):
            cert = prove(puzzle, minimal=minimal)
            claims.write(json.dumps(claim_record(k, puzzle, cert, store)) + "\n")
            certificates.append(cert)
    return certificates
