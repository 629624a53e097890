"""The DRAT checker of ``drat``, compiled: the same forward check on arrays, with numba.

``drat.check_refutation`` is the reference: standard library only, a few pages a reader can audit. Its
unit propagation runs at about a microsecond a literal in Python, and the hardest Sudoku puzzles' proofs
(forum_hardest_11plus: some 95 lemmas, each propagating about 90 literals) then take three quarters of a
claim's check. This module runs the same algorithm, step for step, compiled over flat arrays (one call
loads the formula, then each call checks a slice of the proof, so that a signal is heard between two), so
that ``sudoku-cp check`` keeps up with ``prove``:

- literals as indices ``2*|x| + (x < 0)``, clauses in one array (the formula's, then the proof's added
  clauses), each clause's literals without repeats, in 32-bit integers wherever they hold them (every proof
  ``prove`` writes: a proof of 511 MB is checked in 1.7 GB, 3.8 GB with 64-bit integers);
- two watched literals per long clause (Moskewicz et al., "Chaff", DAC 2001), binary clauses in
  implication lists, each in an array whose room per literal is the number of such clauses holding it;
- RUP, else RAT on the first literal as written; a deletion of a clause satisfied at the top level is
  ignored (as drat-trim ignores deleted units), any other takes out the most recent present clause with
  the same literals, the proof's own before the formula's;
- the formula's long clauses drop the literals false at the top level once it is loaded and propagated.

Unit propagation reaches a conflict in any order once it does in one, so the verdicts are the reference's;
the tests run both on the same proofs, tampered ones included. Nothing here comes from the solving code:
numpy and numba besides ``drat``, whose ``Verdict`` and proof reader it shares.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
from numba import njit

from .drat import Verdict, fresh_renamed, not_implied, parse_proof

__all__ = ["check_refutation", "warm_up"]

#: Kernel outcomes (their first return value); ``_PAUSED``: the slice of the proof checked, no verdict yet.
_REFUTED_AT_LOAD = 0
_REFUTED = 1
_NOT_IMPLIED = 2
_NO_EMPTY_CLAUSE = 3
_PAUSED = 4
#: Proof steps checked a compiled call: Ctrl-C and SIGTERM are heard between two calls. A lemma of a
#: proof of 255 MB (a killer proved by Glucose: 336,628 lemmas of some hundred literals) takes 0.7 ms,
#: so a call of these takes at most a fifth of a second; the whole proof, one call, had held them 4 minutes.
STEPS_A_CALL = 256


def check_refutation(clauses: Iterable[Sequence[int]], proof: str | list[tuple[bool, list[int]]]) -> Verdict:
    """Whether ``proof`` (text DRAT, or ``drat.parse_proof``'s steps) refutes the formula ``clauses``: the
    verdict of ``drat.check_refutation``, computed by compiled calls, ``STEPS_A_CALL`` proof steps each
    after the one that loads the formula (fresh proof variables renamed as there)."""
    formula = clauses if isinstance(clauses, list) else list(clauses)
    lits, starts = _flat(formula)
    top = _largest(lits)
    read = _read(proof) if isinstance(proof, str) else None
    written: list[tuple[bool, list[int]]] | None = None
    if read is None:  # steps given, or text the compiled reader leaves to ``parse_proof`` (and its errors)
        written = parse_proof(proof) if isinstance(proof, str) else proof
        steps = fresh_renamed(written, top)  # (before the arrays: a name may be past 64 bits)
        proof_lits, proof_starts = _flat([literals for _, literals in steps])
        deleted = np.fromiter((d for d, _ in steps), dtype=np.bool_, count=len(steps))
    else:
        written_lits, proof_starts, deleted = read
        proof_lits = _renamed(written_lits, top)
    top = max(top, _largest(proof_lits))
    if top >= 2**31:  # (a formula's variable past 32 bits: both read as 64-bit)
        proof_lits = proof_lits.astype(np.int64, copy=False)
    lits = lits.astype(proof_lits.dtype)  # (the formula's, a few thousand: as the proof's are read)
    room = _room(len(lits) + len(proof_lits), len(starts) + len(proof_starts) - 2, top)
    outcome, db, lists, va = _load(lits, starts, proof_lits, proof_starts, top, room)
    del lits, proof_lits, room  # (loaded: ``written_lits`` stays, to name a failed step as written)
    step = 0
    counts = np.zeros(2, dtype=np.int64)
    while outcome == _PAUSED:  # a slice of the proof a call: a signal is heard between two
        last = min(step + STEPS_A_CALL, len(deleted))
        outcome, step = _steps(db, lists, va, len(formula), deleted, step, last, counts)
    lemmas, deletions = int(counts[0]), int(counts[1])
    if outcome == _REFUTED_AT_LOAD:
        return Verdict(True, "the formula's own clauses propagate to a conflict", 0, 0)
    if outcome == _REFUTED:
        return Verdict(True, f"refuted at proof step {step}", lemmas, deletions)
    if outcome == _NOT_IMPLIED:
        if written is None:  # the step as written
            clause = written_lits[proof_starts[step - 1] : proof_starts[step]].tolist()
        else:
            clause = written[step - 1][1]
        return Verdict(False, not_implied(step, clause), lemmas, deletions)
    return Verdict(False, "the proof ends without deriving the empty clause", lemmas, deletions)


def warm_up() -> None:
    """Compile the kernels, or load them from numba's cache (about 10 s the first time on a machine, half a
    second after), on a two-step proof, read from its text: (1) is RUP in "1 and 2 differ and agree", and
    refutes it."""
    if not check_refutation([(1, 2), (-1, 2), (1, -2), (-1, -2)], "1 0\n").ok:
        raise RuntimeError("the compiled DRAT checker rejected a valid proof")


def _read(text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The steps of text DRAT as ``parse_proof`` reads them, as arrays (the literals, where each step's
    start, one more entry: the end, and which are deletions), read by a compiled pass over its bytes;
    None where the text holds anything but what ``prove`` writes (decimal literals, ``d``, ``c``
    comments, spaces, tabs, ends of lines), or a step ``parse_proof`` refuses: that reader, whose
    reading and errors are the reference, takes such text. A proof of 255 MB became 611,068 lists of
    Python integers, 25 s and some 4 GB, freed in seconds when a stop came."""
    data = np.frombuffer(text.encode(), dtype=np.uint8)
    sizes = np.zeros(3, np.int64)  # literals, steps, the largest variable
    if not _scan(data, np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.bool_), sizes, False):
        return None
    narrow = sizes[2] < 2**31  # (int32: half the memory of a large proof's literals)
    lits = np.empty(sizes[0], np.int32 if narrow else np.int64)
    starts = np.zeros(sizes[1] + 1, np.int64)
    deleted = np.empty(sizes[1], np.bool_)
    _scan(data, lits, starts, deleted, sizes, True)
    return lits, starts, deleted


_SPACE, _TAB, _NEWLINE, _RETURN, _MINUS, _ZERO, _NINE, _C, _D = 32, 9, 10, 13, 45, 48, 57, 99, 100
#: The most digits of a literal the compiled reader takes (int64); a longer one goes to ``parse_proof``.
_DIGITS = 18


@njit(cache=True)
def _scan(data, lits, starts, deleted, sizes, fill):
    """``_read``'s pass over the bytes ``data``: the number of literals and of steps into ``sizes``, and
    with ``fill``, each step's literals, end and kind into the room given; False for text to leave to
    ``parse_proof``."""
    n = data.shape[0]
    first = data[0] if n > 0 else _ZERO
    if not (_ZERO <= first <= _NINE or first in (_MINUS, _C, _D, _SPACE, _TAB, _NEWLINE, _RETURN)):
        return False  # (parse_proof: not text DRAT)
    i = nlits = nsteps = largest = 0
    while i < n:
        while i < n and data[i] in (_SPACE, _TAB):
            i += 1
        if i == n:
            break
        c = data[i]
        if c in (_NEWLINE, _RETURN):  # an empty line (str.splitlines ends a line at either)
            i += 1
            continue
        ends_token = i + 1 == n or data[i + 1] in (_SPACE, _TAB, _NEWLINE, _RETURN)
        if c == _C and ends_token:  # a comment: to the end of its line, of plain characters
            while i < n and data[i] not in (_NEWLINE, _RETURN):
                if (data[i] < _SPACE and data[i] != _TAB) or data[i] > 126:
                    return False  # another end of line for str.splitlines, or not ASCII
                i += 1
            continue
        removal = c == _D and ends_token
        if removal:
            i += 1
        ended = False
        while True:
            while i < n and data[i] in (_SPACE, _TAB):
                i += 1
            if i == n or data[i] in (_NEWLINE, _RETURN):
                break
            negative = data[i] == _MINUS
            if negative:
                i += 1
            value = digits = 0
            while i < n and _ZERO <= data[i] <= _NINE:
                value = value * 10 + (data[i] - _ZERO)
                digits += 1
                i += 1
            if digits == 0 or digits > _DIGITS or ended:
                return False  # not a number, too long, or a literal after the 0
            if i < n and data[i] not in (_SPACE, _TAB, _NEWLINE, _RETURN):
                return False
            if value == 0:
                ended = True
            else:
                if fill:
                    lits[nlits] = -value if negative else value
                nlits += 1
                largest = max(largest, value)
        if not ended:
            return False  # no closing 0 (or nothing after a d)
        if fill:
            starts[nsteps + 1] = nlits
            deleted[nsteps] = removal
        nsteps += 1
    sizes[0], sizes[1], sizes[2] = nlits, nsteps, largest
    return True


def _renamed(lits: np.ndarray, top: int) -> np.ndarray:
    """``drat.fresh_renamed`` on the proof's literals: each variable past ``top`` renamed ``top + 1``,
    ``top + 2``, ... in order of first use (``lits`` itself when none lies past it)."""
    variables = np.abs(lits)
    past = variables > top
    if not past.any():
        return lits
    fresh = variables[past]
    names, first = np.unique(fresh, return_index=True)
    rank = np.empty(len(names), dtype=np.int64)
    rank[np.argsort(first)] = np.arange(len(names))
    renamed = top + 1 + rank[np.searchsorted(names, fresh)]
    out = lits.copy()
    out[past] = np.where(lits[past] > 0, renamed, -renamed)
    return out


def _largest(lits: np.ndarray) -> int:
    """The largest variable among ``lits`` (0 for none), with no array of their absolute values made."""
    return max(int(lits.max(initial=0)), -int(lits.min(initial=0)))


def _room(nlits: int, nclauses: int, top: int) -> np.ndarray:
    """Room for the loaded clauses' literals, in the narrowest integers that hold every literal (as an
    index, ``2 * top + 1`` at most) and every clause's number: int32 for any proof ``prove`` writes, which
    halves the checker's memory (a proof of 511 MB took 3.8 GB with int64 throughout)."""
    narrow = 2 * top + 2 < 2**31 and nclauses < 2**31
    return np.empty(nlits, dtype=np.int32 if narrow else np.int64)


def _flat(clauses: list[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """All literals in one array, and where each clause starts (one more entry: the end)."""
    sizes = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
    starts = np.zeros(len(clauses) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    lits = np.fromiter(itertools.chain.from_iterable(clauses), dtype=np.int64, count=int(starts[-1]))
    return lits, starts


@njit(cache=True)
def _load(raw, raw_starts, proof, proof_starts, top, lits):
    """The formula (``raw``, clauses from ``raw_starts``) and the proof's clauses (``proof``, from
    ``proof_starts``) loaded into ``lits`` (``_room``), the formula propagated: (``_REFUTED_AT_LOAD`` or
    ``_PAUSED``, and the state ``_steps`` goes on from).

    The state is three tuples of arrays: ``db``, the clauses (``lits`` from ``starts``, ``sizes`` long, the
    first two watched; ``orig`` and ``orig_sizes``, the formula's literals as given, for deletions, with
    ``hashes``; ``alive``); ``lists``, the watch lists of long clauses and the implication lists of binary
    ones (a literal's lists start at ``room[lit]`` and ``room2[lit]``); ``va``, the assignment (``true``,
    ``trail``, ``state``: the trail's length, the propagation head, the top level and the longest clause,
    and ``mark``, a scratch set of literals). Clause numbers and literals are of ``lits``' integers.
    """
    nformula = len(raw_starts) - 1
    nclauses = nformula + len(proof_starts) - 1
    size = 2 * top + 2
    # every clause's literals as indices, repeats dropped (the first kept: a proof clause's first literal
    # stays its RAT pivot); ``lits`` is reordered by the watches (and the formula's clauses shortened by
    # what is false at the top level: ``orig`` keeps their literals as given)
    starts = np.empty(nclauses, dtype=np.int64)
    sizes = np.zeros(nclauses, dtype=np.int64)
    hashes = np.zeros(nclauses, dtype=np.int64)
    mark = np.zeros(size, dtype=np.bool_)
    long_room = np.zeros(size + 1, dtype=np.int64)  # per literal, the long clauses holding its negation
    binary_room = np.zeros(size + 1, dtype=np.int64)  # and the binary ones: room for their lists
    at = longest = 0
    for cid in range(nclauses):
        starts[cid] = at
        source, first = (raw, raw_starts[cid]) if cid < nformula else (proof, proof_starts[cid - nformula])
        last = raw_starts[cid + 1] if cid < nformula else proof_starts[cid - nformula + 1]
        for k in range(first, last):
            x = source[k]
            lit = 2 * x if x > 0 else 1 - 2 * x
            if not mark[lit]:
                mark[lit] = True
                lits[at] = lit
                hashes[cid] += _mix(lit)
                at += 1
        sizes[cid] = at - starts[cid]
        longest = max(longest, sizes[cid])
        for k in range(starts[cid], at):
            mark[lits[k]] = False
            if sizes[cid] > 2:
                long_room[(lits[k] ^ 1) + 1] += 1
            elif sizes[cid] == 2:  # (units and the empty clause are in no list)
                binary_room[(lits[k] ^ 1) + 1] += 1
    for lit in range(size):
        long_room[lit + 1] += long_room[lit]
        binary_room[lit + 1] += binary_room[lit]
    formula_end = starts[nformula] if nformula < nclauses else at
    orig = lits[:formula_end].copy()
    db = (lits, starts, sizes, orig, sizes.copy(), hashes, np.zeros(nclauses, dtype=np.bool_))
    lists = (
        np.empty(long_room[-1], dtype=lits.dtype),
        np.zeros(size, dtype=np.int64),
        np.empty(binary_room[-1], dtype=lits.dtype),
        np.zeros(size, dtype=np.int64),
        long_room,
        binary_room,
    )
    true = np.zeros(size, dtype=np.bool_)
    state = np.zeros(4, dtype=np.int64)
    state[3] = longest
    va = (true, np.empty(top + 1, dtype=lits.dtype), state, mark)
    alive = db[6]

    # the formula
    for cid in range(nformula):
        alive[cid] = True
        s, n = starts[cid], sizes[cid]
        if n == 0:
            return _REFUTED_AT_LOAD, db, lists, va
        if n == 1:
            lit = lits[s]
            if true[lit ^ 1]:
                return _REFUTED_AT_LOAD, db, lists, va
            if not true[lit]:
                _assign(lit, va)
        else:
            _watch(cid, db, lists)
    if _propagate(db, lists, va):
        return _REFUTED_AT_LOAD, db, lists, va
    for cid in range(nformula):  # a literal false at the top level stays false: long clauses drop it
        s, n = starts[cid], sizes[cid]
        if n > 2:
            keep = s + 2
            for k in range(s + 2, s + n):
                if not true[lits[k] ^ 1]:
                    lits[keep] = lits[k]
                    keep += 1
            sizes[cid] = keep - s
    return _PAUSED, db, lists, va


@njit(cache=True)
def _steps(db, lists, va, nformula, deleted, first, last, counts):
    """The proof's steps ``first`` to ``last`` (excluded) checked on the state ``_load`` made: (outcome,
    the proof step it names, or ``last`` when ``_PAUSED`` there); ``counts`` adds the lemmas checked and
    the deletions. Past the proof's last step without the empty clause: ``_NO_EMPTY_CLAUSE``."""
    for step in range(first, last):
        cid = nformula + step
        if deleted[step]:
            counts[1] += 1
            _delete(cid, nformula, db, lists, va)
            continue
        counts[0] += 1
        va[2][2] = va[2][0]  # after an add, the trail is the top level
        if not _implied(cid, db, lists, va):
            return _NOT_IMPLIED, step + 1
        if not _add(cid, db, lists, va):
            return _REFUTED, step + 1
    if last < len(deleted):
        return _PAUSED, last
    return _NO_EMPTY_CLAUSE, 0


@njit(cache=True)
def _mix(lit):
    """A literal's share of its clause's hash (the sum over the clause: the same for any order)."""
    return (lit * 0x9E3779B1) ^ (lit >> 3)


@njit(cache=True)
def _assign(lit, va):
    true, trail, state, _ = va
    true[lit] = True
    trail[state[0]] = lit
    state[0] += 1


@njit(cache=True)
def _watch(cid, db, lists):
    """Clause ``cid`` (two literals or more) joins the lists: a binary clause the implication lists of its
    literals' negations, a long one the watch lists of its first two literals' negations (visited when
    the literal becomes false)."""
    lits, starts, sizes = db[0], db[1], db[2]
    watches, nwatch, implied, nimplied, room, room2 = lists
    s = starts[cid]
    a, b = lits[s], lits[s + 1]
    if sizes[cid] == 2:
        implied[room2[a ^ 1] + nimplied[a ^ 1]] = b
        nimplied[a ^ 1] += 1
        implied[room2[b ^ 1] + nimplied[b ^ 1]] = a
        nimplied[b ^ 1] += 1
        return
    for lit in (a, b):
        watches[room[lit ^ 1] + nwatch[lit ^ 1]] = cid
        nwatch[lit ^ 1] += 1


@njit(cache=True)
def _unlist(array, counts, room, where, value):
    """Take one ``value`` out of list ``where`` (the last entry fills its place: order does not matter)."""
    first, last = room[where], room[where] + counts[where] - 1
    for k in range(first, last + 1):
        if array[k] == value:
            array[k] = array[last]
            counts[where] -= 1
            return


@njit(cache=True)
def _propagate(db, lists, va):
    """Propagate the trail from the head; True on a conflict (the head is then left behind)."""
    lits, starts, sizes = db[0], db[1], db[2]
    watches, nwatch, implied, nimplied, room, room2 = lists
    true, trail, state, _ = va
    head = state[1]
    while head < state[0]:
        lit = trail[head]  # true: the clauses holding its negation may propagate
        head += 1
        for k in range(room2[lit], room2[lit] + nimplied[lit]):
            other = implied[k]
            if true[other]:
                continue
            if true[other ^ 1]:
                return True
            _assign(other, va)
        false_lit = lit ^ 1
        base = room[lit]
        count, keep, i = nwatch[lit], 0, 0
        while i < count:
            cid = watches[base + i]
            i += 1
            s = starts[cid]
            if lits[s] == false_lit:
                lits[s] = lits[s + 1]
                lits[s + 1] = false_lit
            first = lits[s]
            if not true[first]:
                moved = False
                for k in range(s + 2, s + sizes[cid]):
                    other = lits[k]
                    if not true[other ^ 1]:
                        lits[s + 1] = other
                        lits[k] = false_lit
                        watches[room[other ^ 1] + nwatch[other ^ 1]] = cid
                        nwatch[other ^ 1] += 1
                        moved = True
                        break
                if moved:
                    continue
                if true[first ^ 1]:  # no other literal to watch and the first is false: a conflict
                    watches[base + keep] = cid
                    keep += 1
                    while i < count:  # the rest keep their watches
                        watches[base + keep] = watches[base + i]
                        keep += 1
                        i += 1
                    nwatch[lit] = keep
                    return True
                _assign(first, va)
            watches[base + keep] = cid
            keep += 1
        nwatch[lit] = keep
    state[1] = head
    return False


@njit(cache=True)
def _rup(clause, db, lists, va):
    """Assigning every literal of ``clause`` false propagates to a conflict (undone afterwards)."""
    true, trail, state, _ = va
    conflict = False
    for lit in clause:
        if true[lit]:
            conflict = True  # already true: its negation contradicts it
            break
        if not true[lit ^ 1]:
            _assign(lit ^ 1, va)
    if not conflict:
        conflict = _propagate(db, lists, va)
    for k in range(state[2], state[0]):  # back to the top level
        true[trail[k]] = False
    state[0] = state[1] = state[2]
    return conflict


@njit(cache=True)
def _implied(cid, db, lists, va):
    """Clause ``cid`` (not added yet, its literals as written) is RUP, or RAT on its first literal."""
    lits, starts, sizes, alive = db[0], db[1], db[2], db[6]
    mark = va[3]
    s, n = starts[cid], sizes[cid]
    lemma = lits[s : s + n].copy()
    if _rup(lemma, db, lists, va):
        return True
    if n == 0:
        return False
    negated_pivot = lemma[0] ^ 1
    for lit in lemma:
        mark[lit] = True
    resolvent = np.empty(n + va[2][3], dtype=lits.dtype)
    for k in range(n):
        resolvent[k] = lemma[k]
    holds = True
    for other in range(cid):
        if not alive[other]:
            continue
        os, on = starts[other], sizes[other]
        if negated_pivot not in lits[os : os + on]:
            continue
        count, tautology = n, False
        for k in range(os, os + on):
            lit = lits[k]
            if lit == negated_pivot or mark[lit]:
                continue  # the pivot's negation, or in the lemma already
            if mark[lit ^ 1]:
                tautology = True
                break
            mark[lit] = True
            resolvent[count] = lit
            count += 1
        for k in range(n, count):
            mark[resolvent[k]] = False
        if not tautology and not _rup(resolvent[:count], db, lists, va):
            holds = False
            break
    for lit in lemma:
        mark[lit] = False
    return holds


@njit(cache=True)
def _add(cid, db, lists, va):
    """Add clause ``cid``; False when propagation at the top level now gives a conflict."""
    lits, starts, sizes, alive = db[0], db[1], db[2], db[6]
    true = va[0]
    alive[cid] = True
    s, n = starts[cid], sizes[cid]
    satisfied, unassigned, last = False, 0, -1
    for k in range(s, s + n):
        lit = lits[k]
        if true[lit]:
            satisfied = True
        elif not true[lit ^ 1]:
            unassigned += 1
            last = lit
    if not satisfied and unassigned == 0:
        return False  # every literal false at the top level: the empty clause
    if n > 2:  # watch two literals that are not false, true ones first
        for place in range(s, s + 2):
            best, rank = place, 3
            for k in range(place, s + n):
                lit = lits[k]
                r = 0 if true[lit] else 2 if true[lit ^ 1] else 1
                if r < rank:
                    best, rank = k, r
            lits[place], lits[best] = lits[best], lits[place]
    if n > 1:
        _watch(cid, db, lists)
    if not satisfied and unassigned == 1:
        _assign(last, va)
        return not _propagate(db, lists, va)
    return True


@njit(cache=True)
def _delete(cid, nformula, db, lists, va):
    """Take out the most recent present clause with the literals of clause ``cid`` (a deletion step),
    unless one of them is true at the top level."""
    lits, starts, _, orig, orig_sizes, hashes, alive = db
    watches, nwatch, implied, nimplied, room, room2 = lists
    true, mark = va[0], va[3]
    s, n = starts[cid], orig_sizes[cid]  # (a proof step: its literals as given, in ``lits``)
    for k in range(s, s + n):
        if true[lits[k]]:
            return  # satisfied for good: it can neither propagate nor clash again, so it stays
    for k in range(s, s + n):
        mark[lits[k]] = True
    found = -1
    for other in range(cid - 1, -1, -1):  # the most recent first: the proof's own before the formula's
        if not alive[other] or hashes[other] != hashes[cid] or orig_sizes[other] != n:
            continue
        given = orig if other < nformula else lits  # a proof clause's literals are only reordered
        same = True
        for k in range(starts[other], starts[other] + n):
            if not mark[given[k]]:
                same = False
                break
        if same:
            found = other
            break
    for k in range(s, s + n):
        mark[lits[k]] = False
    if found < 0:
        return  # deleting a clause that is not there changes nothing
    alive[found] = False
    fs = starts[found]
    a, b = lits[fs], lits[fs + 1] if orig_sizes[found] > 1 else 0
    if orig_sizes[found] == 2:
        _unlist(implied, nimplied, room2, a ^ 1, b)
        _unlist(implied, nimplied, room2, b ^ 1, a)
    elif orig_sizes[found] > 2:  # a long clause is watched by its first two literals
        _unlist(watches, nwatch, room, a ^ 1, found)
        _unlist(watches, nwatch, room, b ^ 1, found)
