"""The ``dfs`` search for any ``Rules`` in Python: bitmask candidates, singles, one propagator per constraint.

The python engine's path for rules beyond the classic ones (``dfs_reference`` serves those), and the
readable model of the compiled engine (``dfs_compiled``), whose kernels run the same propagators and, on
the same puzzle, explore the same search tree. Each rule beyond houses narrows candidates until nothing
changes (a fixpoint with the singles of the houses):

- a pair keeps, in each cell, the digits some candidate of the other cell allows (arc consistency);
- a thermometer keeps each cell's digits between the smallest below it and the largest above it (bounds);
- a cage sum keeps the digits of the digit sets that still fit the cage (every cell can take one of the
  set, every digit of the set has a cell), the way killer solvers read their combination tables;
- an arrow, and a cage with too many digit sets, is a sum (``rules.sums.LinearSum``): each cell keeps
  the digits on a path of the graph of partial sums from 0 to the total (exact, digits free to repeat;
  a pill is its digits weighted as a number), or on bounds where that graph would be too large; so are
  the variants' sums (little killers, region sum lines);
- an automaton (``rules.automaton``: a sandwich, an X-sum, a between line...) keeps the digits on a path
  of its layered graph;
- on grids of 16x16 and up, once all of that is at its fixpoint, a sweep of locked candidates (pointing
  and claiming) over every two houses that meet, then the fixpoint again, until a sweep changes nothing.

A propagator runs again only when a cell it reads narrows. Every propagator only removes digits no solution
has, and each one empties a cell when its constraint is broken on fixed cells, so a state where every cell
is fixed is a solution; the search (``dfs_reference.depth_first``) checks it against ``Rules.violations``
all the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import permutations

from ..rules import RULES_KEPT, Pair, Rules, Thermo
from ..rules.automaton import Automaton
from ..rules.sums import LinearSum, digit_sets, implied_sums, without_houses
from .dfs_reference import AUTO, SearchOutcome, depth_first, fewest_then_conflicts, resolved, scores_failed

#: A cage with at most this many open cells is reasoned on exactly: each set's digits placed one to a
#: cell (at most 4! ways), as the Interactive Sudoku Solver does its sums' last two or three cells.
MATCHED_CELLS = 4

__all__ = ["root_candidates", "search"]

#: A propagator narrows ``cands`` in place; it returns the cells it changed, or None on a contradiction.
Propagator = Callable[[list[int]], "list[int] | None"]


def _at_least(d: int, full: int) -> int:
    """The mask of digits d and above (digit d is bit d-1)."""
    return full & ~((1 << (d - 1)) - 1) if d > 1 else full


def _at_most(d: int) -> int:
    return (1 << d) - 1 if d > 0 else 0


def _low(mask: int) -> int:
    return (mask & -mask).bit_length()


def _bits(mask: int) -> list[int]:
    """The single bits of ``mask``, lowest first."""
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit)
        mask ^= bit
    return out


def _narrow(cands: list[int], cell: int, keep: int, changed: list[int]) -> int:
    """Keep only the digits of ``keep`` in ``cell`` (noted in ``changed`` when that removes any); the
    digits left, 0 when none is (the propagator then reports a contradiction)."""
    narrowed = cands[cell] & keep
    if narrowed and narrowed != cands[cell]:
        cands[cell] = narrowed
        changed.append(cell)
    return narrowed


def _pair(p: Pair, n: int) -> Propagator:
    allowed = p.allowed(n)
    digits = range(1, n + 1)
    for_a = [sum(1 << (y - 1) for y in digits if (x, y) in allowed) for x in range(n + 1)]
    for_b = [sum(1 << (x - 1) for x in digits if (x, y) in allowed) for y in range(n + 1)]
    a, b = p.a, p.b

    def revise(cands: list[int]) -> list[int] | None:
        changed = []
        for here, there, support in ((a, b, for_a), (b, a, for_b)):
            reach, mask = 0, cands[here]
            while mask:
                bit = mask & -mask
                reach |= support[bit.bit_length()]
                mask ^= bit
            if not _narrow(cands, there, reach, changed):
                return None
        return changed

    return revise


def _thermo(t: Thermo, n: int) -> Propagator:
    cells, full = t.cells, (1 << n) - 1

    def revise(cands: list[int]) -> list[int] | None:
        changed = []
        floor = 0
        for cell in cells:  # each cell above the smallest digit below it
            narrowed = _narrow(cands, cell, _at_least(floor + 1, full), changed)
            if not narrowed:
                return None
            floor = _low(narrowed)
        ceiling = n + 1
        for cell in reversed(cells):  # and below the largest digit above it
            narrowed = _narrow(cands, cell, _at_most(ceiling - 1), changed)
            if not narrowed:
                return None
            ceiling = narrowed.bit_length()
        return changed

    return revise


def complement(cells: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """The rest of the first house that holds every cell of a cage (sorted), () when none does: those
    cells hold exactly the house's digits the cage does not (the Interactive Sudoku Solver's complement
    cells)."""
    inside = set(cells)
    for house in rules.houses:
        if len(house) == rules.n and inside <= set(house):
            return tuple(sorted(set(house) - inside))
    return ()


def _cage_of(
    cells: tuple[int, ...], sets: tuple[tuple[int, ...], ...], rules: Rules
) -> tuple[Propagator, tuple[int, ...]]:
    """A cage's propagator and the cells that wake it: its own. It reads the rest of a house that holds
    it too, but a rest cell fixed takes its digit from the cage's cells anyway, and woken by each of them
    the cage ran far more often for little (the compiled engine's measure: ``dfs_compiled._tables``)."""
    rest = complement(cells, rules)
    full = (1 << rules.n) - 1 if rest else 0
    return _cage(cells, sets, rules.peer_sets, rest, full), cells


def _cage(
    cells: tuple[int, ...],
    sets: tuple[tuple[int, ...], ...],
    peers: Sequence[frozenset[int]],
    rest: tuple[int, ...] = (),
    full: int = 0,
) -> Propagator:
    """A cage reasoned on by its digit sets (``sums.digit_sets``, or a variant's, such as a renban's
    runs): each cell keeps the digits of the sets that still fit (every digit of the set a candidate
    somewhere, every cell a candidate in the set); a digit in every set that fits must be in the cage, so
    where one cell alone can hold it, it goes there (a hidden single of the cage; none: a contradiction),
    and where several can, it leaves every cell outside the cage that sees them all (``peers``: each
    cell's peers), as the Interactive Sudoku Solver's required-value exclusions do. With ``rest``, the
    rest of a house that holds the cage (``complement``; ``full`` the house's digits), a set fits only
    if the rest can still hold every other digit, and the rest keeps only the digits some fitting set
    leaves to it.

    Where at most ``MATCHED_CELLS`` cells are open, a set fits only if its digits can go one to each cell,
    and a cell keeps only the digits it holds in some such placement (``_placed``): the exact reasoning
    on a cage's last few cells (a 10 of two cells whose first lacks 1 cannot put 9 in the second)."""
    masks = [sum(1 << (d - 1) for d in s) for s in sets]
    inside = frozenset(cells)

    def revise(cands: list[int]) -> list[int] | None:
        union = 0
        for cell in cells:
            union |= cands[cell]
        others = 0
        for cell in rest:
            others |= cands[cell]
        open_cells = [cell for cell in cells if not _single(cands[cell])]
        placed = 0
        for cell in cells:
            if _single(cands[cell]):
                placed |= cands[cell]
        exact = len(open_cells) <= MATCHED_CELLS
        keep = dict.fromkeys(cells, 0)
        left = 0  # the digits the fitting sets leave to the rest
        required = -1
        fits = 0
        for s in masks:
            if s & union == s and all(cands[cell] & s for cell in cells) and not full & ~s & ~others:
                if exact:
                    held = _placed([cands[cell] for cell in open_cells], s & ~placed)
                    if held is None:
                        continue
                    for cell, digits in zip(open_cells, held, strict=True):
                        keep[cell] |= digits
                    for cell in cells:
                        if _single(cands[cell]):
                            keep[cell] |= cands[cell]
                else:
                    for cell in cells:
                        keep[cell] |= cands[cell] & s
                fits |= s
                left |= full & ~s
                required &= s
        changed: list[int] = []
        for cell in cells:
            if not _narrow(cands, cell, keep[cell], changed):
                return None
        for cell in rest:
            if not _narrow(cands, cell, left, changed):
                return None
        if fits:
            for bit in _bits(required):
                holders = [cell for cell in cells if cands[cell] & bit]
                if not holders:
                    return None
                if len(holders) == 1 and cands[holders[0]] != bit:
                    _narrow(cands, holders[0], bit, changed)
                elif len(holders) > 1:
                    for x in frozenset.intersection(*(peers[h] for h in holders)) - inside:
                        if cands[x] & bit and not _narrow(cands, x, ~bit, changed):
                            return None
        return changed

    return revise


def _placed(masks: list[int], digits: int) -> list[int] | None:
    """The digits each of the cells (``masks``, their candidates) holds in some placement of ``digits``,
    one to each cell; None where there is none."""
    bits = list(_bits(digits))
    if len(bits) != len(masks):
        return None
    held = [0] * len(masks)
    found = False
    for order in permutations(bits):
        if all(mask & bit for mask, bit in zip(masks, order, strict=True)):
            found = True
            for i, bit in enumerate(order):
                held[i] |= bit
    return held if found else None


def _sum(form: LinearSum | Automaton) -> Propagator:
    """A sum or an automaton: each cell keeps what its ``narrow`` keeps."""
    cells = form.cells

    def revise(cands: list[int]) -> list[int] | None:
        kept = form.narrow([cands[c] for c in cells])
        if kept is None:
            return None
        changed: list[int] = []
        for cell, keep in zip(cells, kept, strict=True):
            _narrow(cands, cell, keep, changed)
        return changed

    return revise


@lru_cache(maxsize=RULES_KEPT)
def sum_forms(rules: Rules) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...] | LinearSum]]:
    """(cells, what reasons on them) for each cage total and arrow, in the engines' order: a cage's digit
    sets where it has at most ``sums.MAX_SETS``, else (and for every arrow) its ``LinearSum``, shortened on
    the houses' totals where it covers most of a house (``sums.without_houses``) with the long form's
    bounds beside it (its exclusion groups seen whole: Long sums 2 559 -> 66 guesses); then the sums the
    cages imply (``sums.implied_sums``)."""
    n = rules.n
    out: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...] | LinearSum]] = []
    for cage in rules.cages:
        if cage.total is not None:
            sets = digit_sets(len(cage.cells), cage.total, n)
            form = sets if sets is not None else LinearSum.of(*cage.linear(), n, rules.peer_sets)
            out.append((cage.cells, form))
    out += list(rules.forms.sets)  # the variants' digit sets (a renban's runs), reasoned on as a cage's
    for form in rules.linear_sums:  # on the houses' totals where it covers most of a house
        cells, weights, total = without_houses(*form, rules)
        out.append((cells, LinearSum.of(cells, weights, total, n, rules.peer_sets)))
        if cells != form[0]:  # and the long form's bounds, which see its exclusion groups whole
            out.append((form[0], replace(LinearSum.of(*form, n, rules.peer_sets), exact=False)))
    for cells, weights, total in implied_sums(rules):
        sets = digit_sets(len(cells), total, n) if _distinct(cells, weights, rules) else None
        if sets is not None:
            out.append((cells, sets))
        else:  # bounds only: the graph of every implied sum at every node cost more than it saved
            out.append((cells, replace(LinearSum.of(cells, weights, total, n, rules.peer_sets), exact=False)))
    return out


def _distinct(cells: tuple[int, ...], weights: tuple[int, ...], rules: Rules) -> bool:
    """Whether a sum is a cage in all but name: every coefficient 1, every two cells peers."""
    return all(w == 1 for w in weights) and rules.see_each_other(cells)


#: The smallest grid the search sweeps locked candidates on. Below it the singles alone are faster: 9x9
#: variants lose a quarter to a half of their puzzles per second with the sweep, 12x12 neither gain nor
#: lose; a 16x16 windoku's search shrinks from 20.8 million nodes (51 s) to 60 thousand (1 s).
LOCKED_FROM = 16


def intersections(rules: Rules) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """``house_intersections`` where the search reasons with locked candidates: none for the classic rules
    (their search stays the singles alone: the reference of the classic engines and their benchmarks) or
    below ``LOCKED_FROM``."""
    if rules.is_classic or rules.n < LOCKED_FROM:
        return []
    return house_intersections(rules)


def house_intersections(rules: Rules) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """(shared cells, the rest of one house, the rest of the other) for every two houses that share two
    cells or more: where locked candidates reason."""
    houses = rules.houses
    found = []
    for i, a in enumerate(houses):
        sa = set(a)
        for b in houses[i + 1 :]:
            shared = sa.intersection(b)
            if len(shared) >= 2:
                rest_a = tuple(c for c in a if c not in shared)
                rest_b = tuple(c for c in b if c not in shared)
                found.append((tuple(sorted(shared)), rest_a, rest_b))
    return found


def _locked(inside: tuple[int, ...], a_rest: tuple[int, ...], b_rest: tuple[int, ...]) -> Propagator:
    """Locked candidates (pointing and claiming): a digit that one house can hold only where it meets
    another house is in the shared cells, so the other house's other cells lose it."""

    def revise(cands: list[int]) -> list[int] | None:
        shared = a_out = b_out = 0
        for cell in inside:
            shared |= cands[cell]
        for cell in a_rest:
            a_out |= cands[cell]
        for cell in b_rest:
            b_out |= cands[cell]
        changed = []
        for locked, rest in ((shared & ~a_out & b_out, b_rest), (shared & ~b_out & a_out, a_rest)):
            if locked:
                for cell in rest:
                    if not _narrow(cands, cell, ~locked, changed):
                        return None
        return changed

    return revise


@dataclass(frozen=True)
class _Plan:
    """What the search needs of a rules value, built once per value."""

    n: int
    full: int
    houses: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    propagators: tuple[Propagator, ...]
    #: ``watch[cell]``: the propagators that read the cell, run again when its candidates narrow
    watch: tuple[frozenset[int], ...]
    #: locked candidates of every two houses that meet, swept once the rest is at its fixpoint
    locked: tuple[Propagator, ...]


@lru_cache(maxsize=RULES_KEPT)
def _plan(rules: Rules) -> _Plan:
    n = rules.n
    props: list[tuple[Propagator, tuple[int, ...]]] = [
        (_pair(p, n), p.cells) for p in rules.pairs if not (p.relation == "differ" and not p.negated)
    ]  # a differ pair is a peer: the singles handle it
    props += [(_thermo(t, n), t.cells) for t in rules.thermos]
    props += [
        (_sum(form), cells) if isinstance(form, LinearSum) else _cage_of(cells, form, rules)
        for cells, form in sum_forms(rules)
    ]
    props += [(_sum(automaton), automaton.cells) for automaton in rules.automata_in_houses]
    watch: list[set[int]] = [set() for _ in range(rules.ncells)]
    for i, (_, cells) in enumerate(props):
        for cell in cells:
            watch[cell].add(i)
    locked = tuple(_locked(*parts) for parts in intersections(rules))
    return _Plan(
        n,
        (1 << n) - 1,
        rules.houses,
        rules.peers,
        tuple(p for p, _ in props),
        tuple(map(frozenset, watch)),
        locked,
    )


def _single(mask: int) -> bool:
    return mask & (mask - 1) == 0


def propagate(cands: list[int], queue: list[int], plan: _Plan, todo: set[int]) -> bool:
    """Singles and the propagators to a fixpoint; False on a contradiction.

    ``queue`` holds cells just fixed, ``todo`` the propagators to run; a propagator runs again only when a
    cell it reads narrows (its ``watch``), so a guess costs what it touches, not every rule of the grid.
    """
    watch = plan.watch
    swept = False  # the last sweep of locked candidates narrowed a cell
    while True:
        while queue:
            cell = queue.pop()
            bit = cands[cell]
            for peer in plan.peers[cell]:
                mask = cands[peer]
                if mask & bit:
                    mask ^= bit
                    if mask == 0:
                        return False
                    cands[peer] = mask
                    todo |= watch[peer]
                    if _single(mask):
                        queue.append(peer)
        for house in plan.houses:  # hidden singles
            once = twice = placed = 0
            for cell in house:
                mask = cands[cell]
                twice |= once & mask
                once |= mask
                if _single(mask):
                    placed |= mask
            if once != plan.full:
                return False
            hidden = once & ~twice & ~placed
            if hidden:
                for cell in house:
                    mask = cands[cell] & hidden
                    if mask:
                        if not _single(mask):
                            return False  # one cell is the only place of two digits
                        cands[cell] = mask
                        todo |= watch[cell]
                        queue.append(cell)
        if queue:
            continue
        if not todo:  # the rest is at its fixpoint: one sweep of locked candidates
            for revise in plan.locked:
                changed = revise(cands)
                if changed is None:
                    return False
                _absorb(changed, cands, watch, todo, queue)
                swept |= bool(changed)
            if not swept:
                return True
            swept = False
            continue
        while todo and not queue:
            changed = plan.propagators[todo.pop()](cands)
            if changed is None:
                return False
            _absorb(changed, cands, watch, todo, queue)


def _absorb(
    changed: list[int], cands: list[int], watch: tuple[frozenset[int], ...], todo: set[int], queue: list[int]
) -> None:
    """Take in the cells a propagator narrowed: wake what reads them, queue those now fixed."""
    for cell in changed:
        todo |= watch[cell]
        if _single(cands[cell]):
            queue.append(cell)


def search(
    cells: tuple[int, ...] | list[int],
    rules: Rules,
    limit: int = 1,
    time_limit: float | None = None,
    heuristic: str = AUTO,
) -> SearchOutcome:
    """Enumerate up to ``limit`` solutions of ``cells`` (0 = empty) under ``rules``: propagation, then the
    cell with the fewest candidates (``mrv``; with ``conflicts``, the default here, its ties to the cell
    with the most dead ends so far: ``dfs_reference.resolved``), smallest digit first. ``time_limit`` as
    in ``dfs_reference.search``; ``first`` and ``weighted`` are the reference's (classic rules) alone."""
    heuristic = resolved(heuristic, rules)
    if heuristic not in ("mrv", "conflicts"):
        raise ValueError(
            f"the python engine branches by mrv or conflicts beyond the classic rules, not {heuristic}"
        )
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    plan = _plan(rules)
    state = root_candidates(cells, rules)

    def child(parent: list[int], cell: int, bit: int) -> list[int] | None:
        state = parent.copy()
        state[cell] = bit
        return state if propagate(state, [cell], plan, set(plan.watch[cell])) else None

    if heuristic == "mrv":
        return depth_first(state, child, _fewest, limit, started, deadline, rules.is_valid)
    scores = [0] * len(cells)
    return depth_first(
        state,
        child,
        lambda s: fewest_then_conflicts(s, scores),
        limit,
        started,
        deadline,
        rules.is_valid,
        scores_failed(scores),
    )


def root_candidates(cells: Sequence[int], rules: Rules) -> list[int] | None:
    """Each cell's digits (bit d - 1 for d) after the givens and every rule's propagation, before any
    guess; None when they meet a contradiction."""
    plan = _plan(rules)
    if any(d < 0 or d > plan.n for d in cells):
        raise ValueError(f"digits of a {plan.n}x{plan.n} grid are 0..{plan.n}")
    root = [1 << (d - 1) if d else plan.full for d in cells]
    everything = set(range(len(plan.propagators)))
    return root if propagate(root, [c for c, d in enumerate(cells) if d], plan, everything) else None


def _fewest(state: list[int]) -> int:
    """The unsolved cell with the fewest candidates (the first such), -1 when all are solved."""
    cell, best = -1, 64
    for c, mask in enumerate(state):
        if mask & (mask - 1):
            count = mask.bit_count()
            if count < best:
                cell, best = c, count
                if count == 2:
                    break
    return cell
