"""Write certificates of uniqueness: the canonical formula of ``checker`` refuted by a DRAT proof.

One Glucose 4 solver per certificate, with python-sat's proof logging, holds the puzzle's formula (the givens
as unit clauses, never assumptions, so the proof refutes the very file written): a first solve finds a
solution, the clause blocking it goes in, and a second solve either finds another (``multiple``) or
ends in the refutation the proof records (``unique``); no first solution is ``none``, refuted by the
same proof. The encoding is the checker's own (``checker.formula``), so what is proven is what is checked.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
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

    @property
    def redundant(self) -> bool:
        """The puzzle stays unique without the given (shown by ``cnf`` and ``proof``, or, when they are
        None, by unit propagation alone)."""
        return not self.solutions


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
        return None if self.minimal is None else not any(w.redundant for w in self.minimal)


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


class _Template:
    """The canonical clauses of one grid (``checker``'s own, 1-6) as arrays, with their DIMACS lines: a
    puzzle's certificate is cut from them with masks of what its givens settle, the set that
    ``checker.settle`` builds clause by clause."""

    def __init__(self, grid: checker.Grid) -> None:
        canonical = grid.canonical
        n = self.n = grid.n
        top = n**3
        pairs = [(u, v) for u, vs in enumerate(canonical.conflicts) for v in vs if v > u]
        self.pairs = np.array(pairs, dtype=np.int64).reshape(-1, 2)  # the clause -u -v, u < v
        self.positive = np.array(canonical.positive, dtype=np.int64).reshape(-1, n)
        # for the propagation kernel: conflicts[v] and positive_of[v] as flat arrays with offsets
        self.conflicts = _flat(canonical.conflicts)
        self.positive_of = _flat(canonical.positive_of)
        # lines[top + x] is the unit clause x (x from -top to top, 0 unused), then the binary clauses
        # (from 2 * top + 1), then the positive ones
        self.first_pair = 2 * top + 1
        self.first_positive = self.first_pair + len(pairs)
        lines = [*(f"{x} 0" for x in range(-top, top + 1))]
        lines += [f"-{v} -{u} 0" for u, v in pairs]
        lines += [" ".join(map(str, c)) + " 0" for c in canonical.positive]
        self.lines = np.array(lines, dtype=object)

    def settle(self, givens: Sequence[int]) -> np.ndarray | None:
        """What unit propagation derives from the givens (0: an empty cell) on the canonical formula, by
        variable (1 true, -1 false, 0 open; index 0 unused); None when it reaches a conflict. The same
        fixpoint as ``checker``'s propagation, compiled."""
        cells = np.array(givens, dtype=np.int64)
        given = np.flatnonzero(cells) * self.n + cells[cells > 0]
        value = np.zeros(self.n**3 + 1, dtype=np.int8)
        ok = _propagate(given, value, *self.conflicts, *self.positive_of, self.positive)
        return value if ok else None

    def cut(self, value: np.ndarray) -> tuple[list[str], list[list[int]]]:
        """For the settled values (1 true, -1 false, 0 open, by variable): the certificate's lines (units,
        then binary clauses between open variables, then positive clauses without a true literal) and
        what the proof solver is given (those clauses less their false literals, without the units)."""
        open_ = value == 0
        units = np.flatnonzero(value)
        kept = np.flatnonzero(open_[self.pairs[:, 0]] & open_[self.pairs[:, 1]])
        rows = np.flatnonzero(~(value[self.positive] > 0).any(axis=1))
        top = len(value) - 1
        chosen = [top + units * value[units], self.first_pair + kept, self.first_positive + rows]
        lines = self.lines[np.concatenate(chosen)].tolist()
        clauses = self.positive[rows]
        solver = (-self.pairs[kept]).tolist()
        solver += [[x for x in clause if x] for clause in np.where(value[clauses] == 0, clauses, 0).tolist()]
        return lines, solver


def _flat(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Ragged lists as ``(offsets, items)``: list i is ``items[offsets[i]:offsets[i + 1]]``."""
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(x) for x in lists])
    return offsets, np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64, count=offsets[-1])


@njit(cache=True)
def _propagate(given, value, conflict_at, conflicts, positive_at, positive_of, positive):  # pragma: no cover
    """``checker._Canonical.values`` as a kernel: fills ``value``; False at a conflict."""
    remaining = np.full(positive.shape[0], positive.shape[1], dtype=np.int64)
    queue = np.empty(len(value), dtype=np.int64)  # each variable is assigned, and queued, once
    tail = 0
    for v in given:
        value[v] = 1
        queue[tail] = v
        tail += 1
    head = 0
    while head < tail:
        v = queue[head]
        head += 1
        if value[v] > 0:
            for k in range(conflict_at[v], conflict_at[v + 1]):
                u = conflicts[k]
                if value[u] == 0:
                    value[u] = -1
                    queue[tail] = u
                    tail += 1
                elif value[u] > 0:
                    return False
            continue
        for k in range(positive_at[v], positive_at[v + 1]):
            i = positive_of[k]
            remaining[i] -= 1
            if remaining[i] == 0:
                return False
            if remaining[i] == 1:
                for u in positive[i]:
                    if value[u] == 0:
                        value[u] = 1
                        queue[tail] = u
                        tail += 1
                    if value[u] >= 0:
                        break
    return True


_TEMPLATES: dict[int, tuple[checker.Grid, _Template]] = {}


def _template(grid: checker.Grid) -> _Template:
    """The grid's template, made once (``checker.grid_of`` gives one grid object per rules)."""
    held = _TEMPLATES.get(id(grid))
    if held is None or held[0] is not grid:
        if len(_TEMPLATES) >= 16:
            _TEMPLATES.clear()
        held = _TEMPLATES[id(grid)] = (grid, _Template(grid))
    return held[1]


def _cells(n: int, true: Iterable[int]) -> list[int]:
    """The grid of a complete assignment, from its true variables (one per cell)."""
    cells = [0] * (n * n)
    for v in true:
        cells[(v - 1) // n] = (v - 1) % n + 1
    return cells


def _model(n: int, value: np.ndarray, model: list[int]) -> list[int]:
    """The grid of the solver's model, with what propagation settled."""
    return _cells(n, [*np.flatnonzero(value > 0).tolist(), *(x for x in model if x > 0 and not value[x])])


def _settle(grid: checker.Grid, givens: list[int]) -> tuple[str, list[list[int]], str | None, str | None]:
    """``(claim, solutions, cnf, proof)`` for these givens: by unit propagation alone when it settles
    every cell or reaches a conflict (no formula nor proof: the checker redoes that propagation), else
    on one proof-logging solver."""
    n = grid.n
    template = _template(grid)
    value = template.settle(givens)
    if value is None:
        return "none", [], None, None
    if np.count_nonzero(value) == len(value) - 1:  # every variable (index 0 unused) is settled
        return "unique", [_cells(n, np.flatnonzero(value > 0).tolist())], None, None
    lines, clauses = template.cut(value)
    solver = Solver(name=PROOF_SOLVER, with_proof=True)
    try:
        add = solver.solver.add_clause  # the backend's own, one call less per clause
        for clause in clauses:
            add(clause)
        if not solver.solve():
            return "none", [], checker.dimacs_text(n**3, lines), _proof(solver)
        first = _model(n, value, solver.get_model())
        block = checker.blocking_clause(n, givens, first)
        add([x for x in block if not value[-x]])  # the rest are false by what is settled
        if solver.solve():
            return "multiple", [first, _model(n, value, solver.get_model())], None, None
        lines.append(" ".join(map(str, block)) + " 0")
        return "unique", [first], checker.dimacs_text(n**3, lines), _proof(solver)
    finally:
        solver.delete()


def _proof(solver: Solver) -> str:
    return "\n".join(solver.get_proof()) + "\n0\n"


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
        if cert.cnf is not None:  # (none: unit propagation from the givens settles the claim)
            record["cnf"] = store(f"{k}.cnf", cert.cnf)
            record["proof"] = store(f"{k}.drat", cert.proof or "")
    if cert.minimal is not None:
        record["minimal"] = [_witness_record(k, w, store) for w in cert.minimal]
    return record


def _witness_record(k: int, witness: Witness, store: Callable[[str, str], str]) -> dict[str, Any]:
    if witness.solutions:
        return {"given": witness.given, "solutions": list(witness.solutions)}
    if witness.cnf is None:  # unit propagation settles the puzzle without the given
        return {"given": witness.given}
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
