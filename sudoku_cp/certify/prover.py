"""Write certificates of uniqueness: the canonical formula of ``checker`` refuted by a DRAT proof.

The formula is cut from a template of the grid's canonical clauses (numpy arrays, made once per rules)
by what unit propagation from the givens settles (a compiled kernel, the checker's propagation), and
written in the order ``checker.certificate`` rebuilds it. Then:

- propagation settles every cell (``unique``) or clashes (``none``): no formula nor proof is written, the
  checker redoes the propagation;
- else a compiled depth-first search (propagation at each node) looks for two solutions; when its tree
  has at most ``_Template.MAX_LEAVES`` leaves it writes the proof itself, one lemma a leaf;
- else one Glucose 4 solver, with python-sat's proof logging, holds the formula (the givens settled,
  never assumptions, so the proof refutes the very file written): a first solve finds a solution, the
  clause blocking it goes in, and a second solve either finds another (``multiple``) or ends in the
  refutation the proof records (``unique``); no first solution is ``none``, refuted by the same proof.

The encoding is the checker's own (``checker.certificate``), so what is proven is what is checked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from pysat.solvers import Solver

from ..backends import sat_native
from ..backends.sat import solve_call
from ..errors import UnsupportedRuleError
from ..grid import Puzzle
from ..ragged import flat
from ..rules import Arrow, Cage, Rules
from ..rules.kinds import Variant
from ..signals import compiling
from . import checker

__all__ = [
    "PROOF_SOLVER",
    "Certificate",
    "Witness",
    "claim_record",
    "prove",
    "rules_field",
    "store_in",
    "variant_entry",
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
    else the houses, groups, pair rules, thermometers, killer cages with a total (``cages``, which are
    groups too), arrows and the variants of ``rules.kinds`` (``variants``, each by its kind's name and
    data, never by the forms it lowers to); ``UnsupportedRuleError`` for grids beyond 35x35, a rule
    without canonical clauses, and sums or graphs too large for a certificate (``checker.SUM_WORK``)."""
    n = rules.n
    if rules.n > len(checker.SYMBOLS):
        raise UnsupportedRuleError(f"certificates cover grids up to 35x35, not {n}x{n}")
    sums = []
    for rule in rules.constraints:  # every constraint is of a kind of rules.kinds, which the claim states
        if isinstance(rule, Cage | Arrow):
            cells, weights, total = rule.linear()
            sums.append((rule, checker.sum_of("cage", cells, weights, total)))
    works = [checker.sum_work(form, n) for _, form in sums]
    for (rule, _), work in zip(sums, works, strict=True):
        if work > checker.SUM_WORK:
            raise UnsupportedRuleError(
                f"prove: {rule.describe(n)}: its sum is too large for a certificate (work {work:,}, at most "
                f"{checker.SUM_WORK:,})"
            )
    if sum(works) > checker.SUMS_WORK:
        raise UnsupportedRuleError(
            f"prove: the sums are too large for a certificate together (work {sum(works):,}, at most "
            f"{checker.SUMS_WORK:,})"
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
    cages = [c for c in rules.cages if c.total is not None]
    summed = {c.cells for c in cages}  # a cage with a total is a group in the checker already
    forms = rules.forms  # the variants' groups and pairs come last in rules.groups and rules.pairs: the
    own_groups = rules.groups[: len(rules.groups) - len(forms.groups)]  # variants state them
    own_pairs = rules.pairs[: len(rules.pairs) - len(forms.pairs)]
    assert rules.groups[len(own_groups) :] == forms.groups and rules.pairs[len(own_pairs) :] == forms.pairs
    groups = [list(g) for g in own_groups if g not in summed]
    if groups:
        out["groups"] = groups
    if own_pairs:
        out["pairs"] = [[p.a, p.b, p.relation, p.value, p.negated] for p in own_pairs]
    if rules.thermos:
        out["thermometers"] = [list(t.cells) for t in rules.thermos]
    if cages:
        out["cages"] = [[c.total, list(c.cells)] for c in cages]
    if rules.arrows:
        out["arrows"] = [[list(a.circle), list(a.cells)] for a in rules.arrows]
    if rules.variants:
        out["variants"] = [variant_entry(v, n) for v in rules.variants]
        try:  # the graphs' sizes, and every entry, as the checker reads them
            checker.grid_of(n, out)
        except checker.CertificateError as exc:
            raise UnsupportedRuleError(f"prove: {exc}") from None
    return out


def variant_entry(variant: Variant, n: int) -> dict:
    """A variant as the ``variants`` field states it (docs/certificates.md, "Variants"): its kind's name
    and its data (``Variant.claim``); ``UnsupportedRuleError`` for a kind the checker does not know."""
    return {"kind": variant.kind, **variant.claim(n)}


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
    """The canonical clauses of one grid (``checker``'s own) as arrays, with their DIMACS lines: a
    puzzle's certificate is cut from them with masks of what its givens settle, the set that
    ``checker.settle`` builds clause by clause."""

    #: The search writes its own proof up to this many leaves; past them Glucose proves (its proofs of
    #: hard puzzles are shorter than a search tree's, and quicker to check).
    MAX_LEAVES = 16

    def __init__(self, grid: checker.Grid) -> None:
        canonical = grid.canonical
        n = self.n = grid.n
        self.top = n**3  # the digits' variables; the sums' auxiliaries follow, up to ``variables``
        variables = self.variables = canonical.variables
        pairs = [(u, v) for u, vs in enumerate(canonical.conflicts) for v in vs if v > u]
        self.pairs = np.array(pairs, dtype=np.int64).reshape(-1, 2)  # the clause -u -v, u < v
        self.positive = np.array(canonical.positive, dtype=np.int64).reshape(-1, n)
        general_at, self.general = flat(canonical.general)  # the sums' clauses, flat
        self.general_clauses = canonical.general
        self.general_starts = general_at[:-1]
        self.general_sizes = np.diff(general_at)
        self.general_units = np.array(canonical.general_units, dtype=np.int64)
        # for the kernels: conflicts[v], positive_of[v] and general_of[2v + (v true)] as flat arrays with
        # offsets, the positive clauses, the sums' clauses
        self.rules = (
            *flat(canonical.conflicts),
            *flat(canonical.positive_of),
            self.positive,
            *_occurrences(self.general, self.general_sizes, variables),
            general_at,
            self.general,
        )
        # lines[top + x] is the unit clause x of a digit's variable (x from -top to top, 0 unused), then
        # the binary clauses (from 2 * top + 1), then the positive ones; the auxiliary variables' units
        # and the sums' clauses are written when a certificate needs them
        self.first_pair = 2 * self.top + 1
        self.first_positive = self.first_pair + len(pairs)
        lines = [*canonical.unit_lines, *(f"-{v} -{u} 0" for u, v in pairs), *canonical.positive_lines]
        self.lines = np.array(lines, dtype=object)

    def settle(self, givens: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """What unit propagation derives from the givens (0: an empty cell) on the canonical formula: by
        variable, 1 true, -1 false, 0 open (index 0 unused), and by positive clause and by sum clause its
        literals not false; None when it reaches a conflict. The same fixpoint as ``checker``'s
        propagation, compiled."""
        cells = np.array(givens, dtype=np.int64)
        given = np.flatnonzero(cells) * self.n + cells[cells > 0]
        value = np.zeros(self.variables + 1, dtype=np.int8)
        remaining = np.full(len(self.positive), self.n, dtype=np.int64)
        left = self.general_sizes.copy()
        if not _propagate(given, self.general_units, value, remaining, left, self.rules):
            return None
        return value, remaining, left

    def cells_of(self, value: np.ndarray) -> list[int]:
        """The grid of a complete assignment of the digits' variables."""
        return _cells(self.n, np.flatnonzero(value[: self.top + 1] > 0).tolist())

    def search(
        self, value: np.ndarray, remaining: np.ndarray, left: np.ndarray
    ) -> tuple[int, list[list[int]], str]:
        """``_search`` from a settled state: its status, the solutions found (as cells) and the proof."""
        status, solutions, lemmas, ends = _search(value, remaining, left, self.MAX_LEAVES, self.rules)
        found = [self.cells_of(s) for s in solutions[: min(status, 2)]]
        flat, start, proof = lemmas.tolist(), 0, []
        for end in ends.tolist():
            proof.append(" ".join(map(str, flat[start:end])) + " 0" if end > start else "0")
            start = end
        return status, found, "\n".join(proof) + "\n"

    def cut(self, value: np.ndarray) -> tuple[list[str], Callable[[], tuple[np.ndarray, np.ndarray]]]:
        """For the settled values (1 true, -1 false, 0 open, by variable): the certificate's lines (units,
        then binary clauses between open variables, then positive clauses and sum clauses without a true
        literal), and a function giving what a proof solver is given (those clauses less their false
        literals, without the units) as flat arrays: the literals, and where each clause ends."""
        top = self.top
        open_ = value == 0
        units = np.flatnonzero(value)
        digits, aux = units[units <= top], units[units > top]
        kept = np.flatnonzero(open_[self.pairs[:, 0]] & open_[self.pairs[:, 1]])
        rows = np.flatnonzero(~(value[self.positive] > 0).any(axis=1))
        truth = np.sign(self.general) * value[np.abs(self.general)]  # by literal: 1 true, -1 false
        if len(truth):
            general = np.flatnonzero(~np.logical_or.reduceat(truth > 0, self.general_starts))
        else:
            general = np.zeros(0, dtype=np.int64)
        chosen = [top + digits * value[digits], self.first_pair + kept, self.first_positive + rows]
        lines = self.lines[np.concatenate(chosen)].tolist()
        at = len(digits)  # the auxiliary units come after the digits' (by variable), before the pairs
        lines[at:at] = [f"{x} 0" for x in (aux * value[aux]).tolist()]
        clauses = self.general_clauses
        lines += [" ".join(map(str, clauses[i])) + " 0" for i in general.tolist()]

        def solver_clauses() -> tuple[np.ndarray, np.ndarray]:
            clauses = self.positive[rows]
            clauses = np.where(value[clauses] == 0, clauses, 0)  # false literals out (none is true)
            kept_lits = clauses != 0
            in_general = np.repeat(np.isin(np.arange(len(self.general_sizes)), general), self.general_sizes)
            open_general = in_general & (truth == 0)  # (the kept clauses have no true literal)
            sizes_general = np.add.reduceat(open_general, self.general_starts)[general] if len(truth) else []
            lits = np.concatenate(
                ((-self.pairs[kept]).ravel(), clauses[kept_lits], self.general[open_general])
            )
            sizes = np.concatenate(
                (np.full(len(kept), 2), np.count_nonzero(kept_lits, axis=1), sizes_general)
            ).astype(np.int64)
            return lits, np.cumsum(sizes)

        return lines, solver_clauses


def _occurrences(lits: np.ndarray, sizes: np.ndarray, variables: int) -> tuple[np.ndarray, np.ndarray]:
    """For the flat clauses ``lits`` (clause i ``sizes[i]`` literals long): the clauses that hold each
    literal, as offsets and items over the index ``2 * x`` (x > 0) or ``1 - 2 * x`` (x < 0): the index
    ``checker._Canonical.general_of`` has, built with arrays."""
    index = np.where(lits > 0, 2 * lits, 1 - 2 * lits)
    clause = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    order = np.argsort(index, kind="stable")
    offsets = np.zeros(2 * variables + 3, dtype=np.int64)
    offsets[1:] = np.cumsum(np.bincount(index, minlength=2 * variables + 2))
    return offsets, clause[order]


@njit(cache=True)
def _propagate(given, units, value, remaining, left, rules):  # pragma: no cover
    """``checker._Canonical.values`` as a kernel: fills ``value`` (and ``remaining`` and ``left``, the
    literals not false of each positive clause and of each sum clause) from the given variables and the
    sums' unit clauses ``units``; False at a conflict."""
    queue = np.empty(len(value), dtype=np.int64)  # each variable is assigned, and queued, once
    tail = 0
    for v in given:
        value[v] = 1
        queue[tail] = v
        tail += 1
    for x in units:
        u = abs(x)
        sign = 1 if x > 0 else -1
        if value[u] == -sign:
            return False
        if value[u] == 0:
            value[u] = sign
            queue[tail] = u
            tail += 1
    return _spread(value, remaining, left, queue, tail, rules)


@njit(cache=True)
def _spread(value, remaining, left, queue, tail, rules):  # pragma: no cover
    """Unit propagation from the variables ``queue[:tail]``, just assigned; False at a conflict. ``rules``
    is ``_Template.rules``."""
    conflict_at, conflicts, positive_at, positive_of, positive, lost_at, lost, general_at, general = rules
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
            event = 2 * v + 1  # the sum clauses that hold -v
        else:
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
            event = 2 * v  # the sum clauses that hold v
        for k in range(lost_at[event], lost_at[event + 1]):
            i = lost[k]
            left[i] -= 1
            if left[i] == 0:
                return False
            if left[i] == 1:  # the one literal not false: true already, or made true
                for j in range(general_at[i], general_at[i + 1]):
                    x = general[j]
                    u = abs(x)
                    seen = value[u] if x > 0 else -value[u]
                    if seen == 0:
                        value[u] = 1 if x > 0 else -1
                        queue[tail] = u
                        tail += 1
                    if seen >= 0:
                        break
    return True


@njit(cache=True)
def _search(root, root_remaining, root_left, max_leaves, rules):  # pragma: no cover
    """A depth-first search from a settled state that writes its own refutation, ``(status, solutions,
    lemma literals, lemma ends)``: status 0 no solution, 1 one, 2 two (found), 3 more than
    ``max_leaves`` leaves (given up).

    At each node it branches on a positive clause with the fewest open literals, trying them in order
    with propagation. A leaf (a conflict, or a solution, which the blocking clause refutes) adds the
    lemma "not the decisions leading here"; the clause's last literal is no decision, since once the
    lemmas of the others are in, propagation forces it: so each lemma is RUP when it comes, and the last,
    at the root, is the empty clause. A node where every cell holds a digit without a conflict keeps
    every sum too: propagation on a sum's clauses clashes when the digits break it."""
    positive = rules[4]
    top = len(root) - 1
    count, width = positive.shape
    depth = width * width + 2  # each decision fills a cell
    values = np.empty((depth, top + 1), dtype=np.int8)
    remains = np.empty((depth, count), dtype=np.int64)
    lefts = np.empty((depth, len(root_left)), dtype=np.int64)
    values[0] = root
    remains[0] = root_remaining
    lefts[0] = root_left
    options = np.empty((depth, width), dtype=np.int64)
    tried = np.zeros(depth, dtype=np.int64)
    total = np.zeros(depth, dtype=np.int64)
    path = np.empty(depth, dtype=np.int64)
    queue = np.empty(top + 1, dtype=np.int64)
    lemmas = np.empty(max_leaves * depth, dtype=np.int64)
    ends = np.empty(max_leaves, dtype=np.int64)
    solutions = np.zeros((2, top + 1), dtype=np.int8)
    leaves = found = used = 0
    d = 0
    choose = True
    while True:
        if choose:
            value, remaining = values[d], remains[d]
            best, fewest = -1, width + 1
            for i in range(count):
                if remaining[i] < fewest:
                    satisfied = False
                    for u in positive[i]:
                        if value[u] > 0:
                            satisfied = True
                            break
                    if not satisfied:
                        best, fewest = i, remaining[i]
                        if fewest == 2:
                            break
            if best >= 0:
                k = 0
                for u in positive[best]:
                    if value[u] == 0:
                        options[d, k] = u
                        k += 1
                total[d] = k
                tried[d] = 0
                choose = False
                continue
            solutions[found] = value  # every cell holds a digit
            found += 1
            if found == 2:
                return 2, solutions, lemmas[:used], ends[:leaves]
            leaf = d  # the lemma: not path[:d]
        else:
            k = tried[d]
            u = options[d, k]
            last = k == total[d] - 1  # the last literal is no decision: the others' lemmas force it
            at = d if last else d + 1
            if not last:
                tried[d] = k + 1
                values[at] = values[d]
                remains[at] = remains[d]
                lefts[at] = lefts[d]
                path[d] = u
            values[at, u] = 1
            queue[0] = u
            if _spread(values[at], remains[at], lefts[at], queue, 1, rules):
                d = at
                choose = True
                continue
            leaf = at  # the lemma: not path[:at]
        if leaves == max_leaves:
            return 3, solutions, lemmas[:used], ends[:leaves]
        for i in range(leaf):
            lemmas[used] = -path[i]
            used += 1
        ends[leaves] = used
        leaves += 1
        if leaf == d:  # this node is done: back to its parent's next literal
            if d == 0:
                return found, solutions, lemmas[:used], ends[:leaves]
            d -= 1
        choose = False


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


def _model(template: _Template, value: np.ndarray, model: list[int]) -> list[int]:
    """The grid of the solver's model, with what propagation settled."""
    top = template.top
    found = [
        *np.flatnonzero(value[: top + 1] > 0).tolist(),
        *(x for x in model[:top] if x > 0 and not value[x]),
    ]
    return _cells(template.n, found)


def _settle(grid: checker.Grid, givens: list[int]) -> tuple[str, list[list[int]], str | None, str | None]:
    """``(claim, solutions, cnf, proof)`` for these givens: by unit propagation alone when it settles
    every cell or reaches a conflict (no formula nor proof: the checker redoes that propagation), else by
    the compiled search when its tree is small (it writes the proof), else on one proof-logging solver."""
    n = grid.n
    _warm_up()
    template = _template(grid)
    settled = template.settle(givens)
    if settled is None:
        return "none", [], None, None
    value, remaining, left = settled
    if np.count_nonzero(value[1 : template.top + 1]) == template.top:  # every digit's variable is settled
        return "unique", [template.cells_of(value)], None, None
    status, solutions, proof = template.search(value, remaining, left)
    if status == 2:
        return "multiple", solutions, None, None
    lines, solver_clauses = template.cut(value)
    variables = template.variables
    if status < 2:
        if status:
            lines.append(checker.clause_line(checker.blocking_clause(n, givens, solutions[0])))
        return ("unique" if status else "none"), solutions, checker.dimacs_text(variables, lines), proof
    solver = Solver(name=PROOF_SOLVER, with_proof=True)
    try:
        sat_native.load(solver, PROOF_SOLVER, variables, *solver_clauses())  # (a Python call per clause:
        if not _solve(solver):  # a quarter of the time on forum_hardest_11plus)
            return "none", [], checker.dimacs_text(variables, lines), _proof(solver)
        first = _model(template, value, solver.get_model())
        block = checker.blocking_clause(n, givens, first)
        solver.add_clause([x for x in block if not value[-x]])  # the rest are false by what is settled
        if _solve(solver):
            return "multiple", [first, _model(template, value, solver.get_model())], None, None
        lines.append(checker.clause_line(block))
        return "unique", [first], checker.dimacs_text(variables, lines), _proof(solver)
    finally:
        solver.delete()


def _solve(solver: Any) -> bool:
    """The proof solver's search, where Ctrl-C or SIGTERM stops it at once (``sat.solve_call``): python-sat's
    own call let Ctrl-C out as its own error, a traceback, and SIGTERM wait for the search's end."""
    status = solve_call(solver, PROOF_SOLVER, [], None, True)
    if status is None:  # stopped by a signal, which is delivered as the call returns
        raise KeyboardInterrupt
    return status


_WARM: list[bool] = []


def _warm_up() -> None:
    """Load the search's kernels (numba's cache: half a second; compiled the first time on a machine) on
    the empty 4x4 grid, once a process, with Ctrl-C and SIGTERM held: a signal that lands in numba's load
    is printed as an ignored exception and leaves numba half-way (``signals.compiling``)."""
    if _WARM:
        return
    with compiling("the certificate search", 10):
        grid = checker.grid_of(4, rules_field(Rules.classic(2, 2)))
        template = _template(grid)
        settled = template.settle([0] * 16)
        assert settled is not None
        template.search(*settled)
    _WARM.append(True)


def _checkable(
    grid: checker.Grid, settled: tuple[str, list[list[int]], str | None, str | None]
) -> tuple[str, list[list[int]], str | None, str | None]:
    """``settled`` (``_settle``'s) when a checker reads its proof: ``UnsupportedRuleError`` for one
    larger than the checker's bound (``checker.proof_limit``), so no certificate is written that fails."""
    proof = settled[3]
    limit = checker.proof_limit(grid.canonical.variables)
    if proof is not None and len(proof) > limit:
        raise UnsupportedRuleError(
            f"its DRAT proof takes {len(proof):,} bytes, more than a checker reads ({limit:,}): "
            "no certificate"
        )
    return settled


def _proof(solver: Solver) -> str:
    return "\n".join(solver.get_proof()) + "\n0\n"


def prove(puzzle: Puzzle, *, minimal: bool = False) -> Certificate:
    """The certificate of ``puzzle`` (``minimal``: with a witness for each given of a unique puzzle)."""
    field_ = rules_field(puzzle.rules)
    grid = checker.grid_of(puzzle.n, field_)
    givens = list(puzzle.cells)
    with checker.collection_paused():
        claim, solutions, cnf, proof = _checkable(grid, _settle(grid, givens))
        for cells in solutions:  # the solver's models, read back against the library's own rules
            if not puzzle.rules.is_valid(cells) or any(
                g and g != d for g, d in zip(givens, cells, strict=True)
            ):
                raise AssertionError(f"the proof solver's model is not a solution of {puzzle.to_string()}")
        witnesses = None
        if minimal and claim == "unique":
            witnesses = tuple(_witness(grid, givens, solutions[0], c) for c, d in enumerate(givens) if d)
    return Certificate(claim, tuple(_line(s) for s in solutions), cnf, proof, witnesses)


def _witness(grid: checker.Grid, givens: list[int], solution: list[int], cell: int) -> Witness:
    without = list(givens)
    without[cell] = 0
    claim, solutions, cnf, proof = _checkable(grid, _settle(grid, without))
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
