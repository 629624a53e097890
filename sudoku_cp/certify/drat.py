"""A DRAT proof checker: does a clausal proof refute a CNF formula? Standard library only, on purpose.

A DRAT proof (Wetzler, Heule and Hunt, "DRAT-trim: Efficient Checking and Trimming Using Expressive
Clausal Proofs", SAT 2014) lists clauses a solver learned (``1 -2 0``) and clauses it deleted
(``d 1 -2 0``); it refutes the formula when every added clause is implied and the empty clause comes out.
This checker goes forward through the proof, as the definition reads:

- a clause is added when it is RUP (reverse unit propagation: assigning its literals false and propagating
  the current clauses gives a conflict) or, failing that, RAT on its first literal (every resolvent with a
  current clause holding that literal's negation is RUP);
- a deleted clause leaves the formula, except one satisfied at the top level (a literal of it fixed true
  by propagation alone): that deletion is ignored, as drat-trim ignores deleted unit clauses. Such a
  clause can neither propagate nor clash again (the top level only grows), the reason of a fixed literal
  among them; keeping a clause keeps every check sound, since the formula checked against only grows
  stronger, and Glucose's deletions of satisfied clauses then cost no lookup;
- the proof refutes the formula once propagation alone gives a conflict: an empty clause added, or a unit
  that contradicts what is already fixed.

Propagation uses two watched literals per clause (Moskewicz et al., "Chaff", DAC 2001); a binary clause
is kept in two implication lists instead, and leaves them when it is deleted. Once the formula is
loaded and propagated, a long clause drops the literals false at the top level (they stay false, so
no propagation changes). Only the text form of DRAT is read (the binary form is refused by name).

The tables are as long as the largest variable the formula uses (not what a header claims); a proof's
variables past it are fresh (RAT may bring in new ones) and renamed next to it, in order of first use:
a name changes no step's validity, and a proof naming variable 10**12 needs no table that long.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["ProofError", "Verdict", "check_refutation", "fresh_renamed", "not_implied", "parse_proof"]


class ProofError(ValueError):
    """The proof cannot be read: a line that is not a clause, a binary proof, a missing terminating 0."""


@dataclass(frozen=True)
class Verdict:
    """The outcome: ``ok`` when the proof refutes the formula, else ``reason`` says where it fails."""

    ok: bool
    reason: str
    lemmas: int  # clauses the proof added that were checked
    deletions: int


def parse_proof(text: str) -> list[tuple[bool, list[int]]]:
    """The proof's steps in order, ``(deleted, literals)`` each; a ``ProofError`` for a bad line."""
    if text and (text[0] not in "-0123456789dc \t\r\n" or "\0" in text[:64]):
        raise ProofError("the proof is not text DRAT (a binary DRAT proof is not read)")
    steps = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0] == "c":
            continue
        deleted = fields[0] == "d"
        try:
            literals = [int(f) for f in fields[deleted:]]
        except ValueError:
            raise ProofError(f"proof line {number} is not a clause: {line[:60]!r}") from None
        if not literals or literals[-1] != 0 or 0 in literals[:-1]:
            raise ProofError(f"proof line {number} does not end with exactly one 0: {line[:60]!r}")
        steps.append((deleted, literals[:-1]))
    return steps


def check_refutation(clauses: Iterable[Sequence[int]], proof: str | list[tuple[bool, list[int]]]) -> Verdict:
    """Whether ``proof`` (text DRAT, or ``parse_proof``'s steps) refutes the formula ``clauses``."""
    written = parse_proof(proof) if isinstance(proof, str) else proof
    formula = clauses if isinstance(clauses, list) else list(clauses)
    top = max(map(abs, itertools.chain.from_iterable(formula)), default=0)
    steps = fresh_renamed(written, top)
    used = max(map(abs, itertools.chain.from_iterable(c for _, c in steps)), default=0)
    checker = _Checker(max(top, used))
    if not checker.load(formula):
        return Verdict(True, "the formula's own clauses propagate to a conflict", 0, 0)
    lemmas = deletions = 0
    for number, (deleted, clause) in enumerate(steps, 1):
        if deleted:
            deletions += 1
            checker.delete(clause)
            continue
        lemmas += 1
        if not checker.implied(clause):
            return Verdict(False, not_implied(number, written[number - 1][1]), lemmas, deletions)
        if not checker.add(clause):
            return Verdict(True, f"refuted at proof step {number}", lemmas, deletions)
    return Verdict(False, "the proof ends without deriving the empty clause", lemmas, deletions)


def not_implied(number: int, clause: Sequence[int]) -> str:
    """The reason of a verdict that proof step ``number`` (from 1) fails, with its ``clause`` as written."""
    shown = " ".join(map(str, clause)) or "the empty clause"
    return f"proof step {number} ({shown}) is neither RUP nor RAT"


def fresh_renamed(steps: list[tuple[bool, list[int]]], top: int) -> list[tuple[bool, list[int]]]:
    """``steps`` with each variable past ``top`` (the formula's largest) renamed ``top + 1``, ``top + 2``,
    ... in order of first use; ``steps`` itself when none lies past it."""
    if max(map(abs, itertools.chain.from_iterable(c for _, c in steps)), default=0) <= top:
        return steps
    names: dict[int, int] = {}
    renamed = []
    for deleted, clause in steps:
        literals = []
        for x in clause:
            v = abs(x)
            if v > top:
                v = names.setdefault(v, top + len(names) + 1)
            literals.append(v if x > 0 else -v)
        renamed.append((deleted, literals))
    return renamed


class _Checker:
    """Clauses with two watched literals and the literals fixed by propagation (the trail).

    A literal ``x`` is stored as the index ``2*|x| + (x < 0)``, its negation is ``index ^ 1``; ``true[i]``
    says the literal of index ``i`` is assigned true.
    """

    def __init__(self, top: int) -> None:
        size = 2 * top + 2
        self.true = [False] * size
        self.watches: list[list[int]] = [[] for _ in range(size)]  # literal -> long clauses watching it
        # literal -> the other literal of each binary clause that the first literal's truth makes unit
        self.binary: list[list[int]] = [[] for _ in range(size)]
        # a tuple for a binary clause, a list for a long clause (its first two watched) or a unit
        self.clauses: list[Sequence[int]] = []
        self.alive: list[bool] = []
        self.originals: list[Sequence[int]] = []  # the formula's clauses as given, for the deletion index
        self.added: dict[frozenset[int], list[int]] = {}  # the proof's present clauses by their literals
        self.given: dict[frozenset[int], list[int]] | None = None  # the formula's, made when first needed
        self.trail: list[int] = []  # assigned literal indices, top level first
        self.fixed = 0  # trail[:fixed] is the top level: implied by the clauses alone
        self.head = 0

    # --- the formula -------------------------------------------------------------------------------

    def load(self, formula: Iterable[Sequence[int]]) -> bool:
        """Add the formula's clauses and propagate; False on a conflict. Unit clauses are assigned as
        they come: propagation then visits every clause watching a false literal, whenever it came."""
        clauses, watches, binary = self.clauses, self.watches, self.binary
        true, trail = self.true, self.trail
        self.originals = formula = formula if isinstance(formula, list) else list(formula)
        for cid, clause in enumerate(formula):
            size = len(clause)
            if size > 1 and len(set(clause)) < size:  # a repeated literal: (x x) is the unit x, and a
                clause = list(dict.fromkeys(clause))  # watch must not move onto a copy of itself
                size = len(clause)
            if size == 2:  # most clauses: no list comprehension
                x, y = clause
                a = 2 * x if x > 0 else 1 - 2 * x
                b = 2 * y if y > 0 else 1 - 2 * y
                clauses.append((a, b))  # (only long clauses are reordered, by their watches)
                binary[a ^ 1].append(b)
                binary[b ^ 1].append(a)
                continue
            if size == 1:
                x = clause[0]
                lit = 2 * x if x > 0 else 1 - 2 * x
                clauses.append([lit])
                if true[lit ^ 1]:
                    return False
                if not true[lit]:
                    true[lit] = True
                    trail.append(lit)
                continue
            if not size:
                return False
            lits = [2 * x if x > 0 else 1 - 2 * x for x in clause]
            clauses.append(lits)
            watches[lits[0] ^ 1].append(cid)
            watches[lits[1] ^ 1].append(cid)
        self.alive = [True] * len(clauses)
        if self._propagate():
            return False
        for lits in clauses:  # a literal false at the top level stays false: long clauses drop it (the
            if len(lits) > 2:  # two they watch are not false, or the first is true)
                rest = [lit for lit in lits[2:] if not true[lit ^ 1]]
                if len(rest) < len(lits) - 2:
                    lits[2:] = rest
        return True

    def add(self, literals: Sequence[int]) -> bool:
        """Add a clause; False when propagation at the top level now gives a conflict."""
        key = frozenset(literals)
        lits = [2 * x if x > 0 else 1 - 2 * x for x in sorted(key)]
        cid = len(self.clauses)
        self.clauses.append(lits)
        self.alive.append(True)
        self.added.setdefault(key, []).append(cid)
        true = self.true
        satisfied = any(true[lit] for lit in lits)
        unassigned = [lit for lit in lits if not true[lit] and not true[lit ^ 1]]
        if not satisfied and not unassigned:
            return False  # every literal false at the top level: the empty clause
        if len(lits) == 2:
            self.clauses[cid] = (lits[0], lits[1])  # a tuple: a binary clause (a long one may drop to two)
            self.binary[lits[0] ^ 1].append(lits[1])
            self.binary[lits[1] ^ 1].append(lits[0])
        elif len(lits) > 2:  # watch two literals that are not false, true ones first
            lits.sort(key=lambda lit: 0 if true[lit] else 1 if not true[lit ^ 1] else 2)
            self.watches[lits[0] ^ 1].append(cid)  # visited when the literal becomes false
            self.watches[lits[1] ^ 1].append(cid)
        if not satisfied and len(unassigned) == 1:
            self._assign(unassigned[0])
            return not self._propagate()
        return True

    def _given(self) -> dict[frozenset[int], list[int]]:
        """The formula's present clauses by their sets of literals, for deletions (made once, kept up)."""
        if self.given is None:
            self.given = {}
            setdefault = self.given.setdefault
            for cid, clause in enumerate(self.originals):
                if self.alive[cid]:
                    setdefault(frozenset(clause), []).append(cid)
        return self.given

    def delete(self, literals: Sequence[int]) -> None:
        """Take a clause out, the proof's own before the formula's, unless it is satisfied at the top level
        (see the module docstring)."""
        true = self.true
        if any(true[2 * x if x > 0 else 1 - 2 * x] for x in literals):
            return  # satisfied for good: it can neither propagate nor clash again, so it stays
        key = frozenset(literals)
        ids = self.added.get(key) or self._given().get(key)
        if not ids:
            return  # deleting a clause that is not there changes nothing
        cid = ids.pop()
        lits = self.clauses[cid]
        self.alive[cid] = False
        if isinstance(lits, tuple):  # binary
            a, b = lits
            self.binary[a ^ 1].remove(b)
            self.binary[b ^ 1].remove(a)
        elif len(lits) > 1:  # a long clause is in the watch lists of its first two literals only
            self.watches[lits[0] ^ 1].remove(cid)
            self.watches[lits[1] ^ 1].remove(cid)

    # --- propagation -------------------------------------------------------------------------------

    def _assign(self, lit: int) -> None:
        self.true[lit] = True
        self.trail.append(lit)

    def _propagate(self) -> bool:
        """Propagate the trail from ``head``; True on a conflict (then ``head`` is left behind: the
        caller undoes the assignments, or stops)."""
        true, trail, clauses, watches = self.true, self.trail, self.clauses, self.watches
        binary = self.binary
        assign = trail.append
        for lit in itertools.islice(trail, self.head, None):  # (the trail grows as it goes)
            for other in binary[lit]:  # binary clauses first: no watches to move (none deleted)
                if true[other]:
                    continue
                if true[other ^ 1]:
                    return True
                true[other] = True
                assign(other)
            watching = watches[lit]  # long clauses watching the literal now false
            if not watching:
                continue
            false_lit = lit ^ 1
            keep = 0
            for i, cid in enumerate(watching):
                lits = clauses[cid]
                if lits[0] == false_lit:
                    lits[0], lits[1] = lits[1], false_lit
                first = lits[0]
                if not true[first]:
                    for k in range(2, len(lits)):
                        other = lits[k]
                        if not true[other ^ 1]:
                            lits[1], lits[k] = other, false_lit
                            watches[other ^ 1].append(cid)
                            break
                    else:  # no other literal to watch: the clause is unit, or false
                        if true[first ^ 1]:
                            watching[keep:] = watching[i:]  # the rest keep their watches
                            return True
                        true[first] = True
                        assign(first)
                    if lits[1] != false_lit:
                        continue  # the watch moved
                watching[keep] = cid
                keep += 1
            del watching[keep:]
        self.head = len(trail)
        return False

    def _undo(self) -> None:
        """Back to the top level."""
        true, trail = self.true, self.trail
        for lit in trail[self.fixed :]:
            true[lit] = False
        del trail[self.fixed :]
        self.head = self.fixed

    def _rup(self, lits: Iterable[int]) -> bool:
        """Assigning every literal of ``lits`` false propagates to a conflict (undone afterwards)."""
        true = self.true
        conflict = False
        for lit in lits:
            if true[lit]:
                conflict = True  # already true at this point: the negation contradicts it
                break
            if not true[lit ^ 1]:
                self._assign(lit ^ 1)
        if not conflict:
            conflict = self._propagate()
        self._undo()
        return conflict

    def implied(self, literals: Sequence[int]) -> bool:
        """RUP, or RAT on the first literal."""
        self.fixed = len(self.trail)  # after an add, the trail is the top level
        lits = [2 * x if x > 0 else 1 - 2 * x for x in literals]
        if self._rup(lits):
            return True
        if not lits:
            return False
        pivot = lits[0]
        for cid, other in enumerate(self.clauses):
            if self.alive[cid] and pivot ^ 1 in other:
                resolvent = set(lits) | {lit for lit in other if lit != pivot ^ 1}
                if any(lit ^ 1 in resolvent for lit in resolvent):
                    continue  # a tautological resolvent holds trivially
                if not self._rup(resolvent):
                    return False
        return True
