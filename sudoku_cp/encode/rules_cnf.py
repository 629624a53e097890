"""CNF for the rules beyond houses: groups, pairwise rules, thermometers, cage sums, arrows and automata.

Over the primary variables ``cell * n + digit``, with auxiliary variables from the pool:

- groups (killer cages, small extra regions): at most one cell per digit;
- a pair: the forbidden digit pairs as binary clauses when they are few (anti-knight, non-consecutive,
  negative dots), else support clauses, "a = x implies b is one of the digits x allows" (kropki, XV):
  the direct and support encodings of a binary constraint (Walsh, *SAT v CSP*, CP 2000; Gent, *Arc
  consistency in SAT*, ECAI 2002), whose unit propagation keeps the pair arc consistent;
- a thermometer: support clauses of "strictly less" between neighbours along the line;
- a cage sum: one selector per set of distinct digits with the cage's size and total, each selector
  confining every cell of the cage to its set (with the cage's all-different, the digits are that set);
  a cage with more than ``sums.MAX_SETS`` sets is a sum, as an arrow is; the variants' digit sets (a
  renban's runs of consecutive digits) the same way (``set_clauses``);
- an arrow (a pill read as a decimal number, minus the line, equal to 0): the graph of partial sums of
  ``rules.sums`` as clauses (``sum_clauses``), whose unit propagation keeps the sum generalised arc
  consistent: what the dfs engines compute, by the solver's own propagation. (The sums the cages imply,
  ``sums.implied_sums``, are left out: as graph clauses they made generated killers 50 times slower.)
  The variants' sums (little killers, region sum lines) join the arrows' family;
- an automaton (``rules.automaton``: sandwiches, X-sums, between lines...): its layered graph as the same
  clauses (``graph_clauses``), generalised arc consistent by unit propagation too.

Every auxiliary variable is a function of the cell variables, so the models of the formula are exactly the
solutions (model counters count solutions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from .. import deadline
from ..rules import Cage, Pair, Rules
from ..rules.automaton import Automaton
from ..rules.sums import LinearSum, digit_sets, layer_bounds
from .amo import at_most_one

if TYPE_CHECKING:
    from pysat.formula import IDPool

__all__ = [
    "automaton_clauses",
    "graph_clauses",
    "pair_clauses",
    "rule_families",
    "set_clauses",
    "sum_clauses",
]


def rule_families(rules: Rules, amo: str | None, pool: IDPool) -> Iterator[tuple[str, list[list[int]]]]:
    """The clause families of ``rules`` beyond its houses, by name; none for the classic rules."""
    n = rules.n
    scheme = amo or "pairwise"
    if rules.groups:
        if any(len(group) > n for group in rules.groups):  # n digits cannot all differ in more cells
            yield "group_at_most_one", _false(pool, "group-too-large")
            return
        lits = [[cell * n + d for cell in group] for group in rules.groups for d in range(1, n + 1)]
        yield "group_at_most_one", [c for group in lits for c in at_most_one(group, scheme, pool)]
    if rules.pairs:
        yield "pairs", [c for p in rules.pairs for c in pair_clauses(p, n)]
    if rules.thermos:
        steps = [(a, b) for t in rules.thermos for a, b in zip(t.cells, t.cells[1:], strict=False)]
        yield "thermometer", [c for a, b in steps for c in _less_clauses(a, b, n)]
    sums = [c for c in rules.cages if c.total is not None]
    if sums:
        yield "cage_sum", [c for i, cage in enumerate(sums) for c in _cage_clauses(i, cage, n, pool)]
    if rules.forms.sets:
        yield (
            "digit_sets",
            [
                c
                for i, (cells, sets) in enumerate(rules.forms.sets)
                for c in set_clauses(("sets", i), cells, sets, n, pool)
            ],
        )
    if rules.linear_sums:
        yield (
            "arrow_sum",
            [
                c
                for i, form in enumerate(rules.linear_sums)
                for c in sum_clauses(("arrow", i), LinearSum.of(*form, n), n, pool)
            ],
        )
    if rules.automata:
        yield (
            "automaton",
            [
                c
                for i, a in enumerate(rules.automata)
                for c in automaton_clauses(("automaton", i), a, n, pool)
            ],
        )


def pair_clauses(p: Pair, n: int) -> list[list[int]]:
    """The clauses of one pairwise rule (see the module's note on direct and support clauses)."""
    a, b, digits = p.a * n, p.b * n, range(1, n + 1)
    if p.relation == "differ" and not p.negated:
        return [[-(a + d), -(b + d)] for d in digits]
    allowed = p.allowed(n)
    if n * n - len(allowed) <= 2 * n:
        return [[-(a + x), -(b + y)] for x in digits for y in digits if (x, y) not in allowed]
    out = [[-(a + x), *(b + y for y in digits if (x, y) in allowed)] for x in digits]
    out += [[-(b + y), *(a + x for x in digits if (x, y) in allowed)] for y in digits]
    return out


def _less_clauses(first: int, second: int, n: int) -> list[list[int]]:
    """``first`` holds a smaller digit than ``second``."""
    a, b, digits = first * n, second * n, range(1, n + 1)
    out = [[-(a + x), *(b + y for y in digits if y > x)] for x in digits]
    out += [[-(b + y), *(a + x for x in digits if x < y)] for y in digits]
    return out


def _false(pool: IDPool, key: object) -> list[list[int]]:
    """Two clauses no assignment satisfies (an empty clause is not accepted by every solver)."""
    v = pool.id(key)
    return [[v], [-v]]


def _cage_clauses(i: int, cage: Cage, n: int, pool: IDPool) -> list[list[int]]:
    """A cage by its digit sets (``set_clauses``), or, with too many sets, as a sum (``sum_clauses``)."""
    assert cage.total is not None
    sets = digit_sets(len(cage.cells), cage.total, n)
    if sets is None:
        return sum_clauses(("cage", i), LinearSum.of(*cage.linear(), n), n, pool)
    return set_clauses(("cage", i), cage.cells, sets, n, pool)


def set_clauses(
    key: object, cells: tuple[int, ...], sets: tuple[tuple[int, ...], ...], n: int, pool: IDPool
) -> list[list[int]]:
    """Cells that hold one of ``sets`` (with their group's all-different, exactly its digits): one
    selector per set, ``(key, k)`` in the pool, at least one of them, at most one, each confining every
    cell to its set and, where the set has as many digits as there are cells, putting each of its digits
    in one of them: implied by the all-different, but a pigeonhole unit propagation does not see
    (encodings/sums.md)."""
    if not sets:
        return _false(pool, (key, "impossible"))
    selectors = [pool.id((key, k)) for k in range(len(sets))]
    out = [selectors]
    for s, digits in zip(selectors, sets, strict=True):
        out += [[-s, *(cell * n + d for d in digits)] for cell in cells]
        if len(digits) == len(cells):
            out += [[-s, *(cell * n + d for cell in cells)] for d in digits]
    out += at_most_one(selectors, "pairwise" if len(selectors) <= 16 else "seqcounter", pool)
    return out


def sum_clauses(key: object, form: LinearSum, n: int, pool: IDPool) -> list[list[int]]:
    """A sum as its graph of partial sums (``rules.sums``), with a variable per node and per edge, named
    ``(key, "node", layer, sum)`` and ``(key, "edge", layer, sum, digit)`` in the pool (``graph_clauses``).

    The nodes are the partial sums that the terms so far can make and the terms left can still bring to
    the total (the first and last layers are the constants 0 and the total, with no variable). An edge
    stands for "the partial sum is s and the next term's digit is d".
    """
    cells, weights, total = form.cells, form.coefficients, form.total
    m = len(cells)
    reach: list[set[int]] = [{0}]
    lo, hi = layer_bounds(weights, [1] * m, [n] * m, total)
    for i in range(m):
        reach.append({s + weights[i] * d for s in reach[i] for d in range(1, n + 1)})
        reach[i + 1] = {s for s in reach[i + 1] if lo[i + 1] <= s <= hi[i + 1]}
    if total not in reach[m]:
        return _false(pool, (key, "impossible"))
    layers: list[set[int]] = [set()] * m + [{total}]
    for i in range(m - 1, -1, -1):
        layers[i] = {s for s in reach[i] if any(s + weights[i] * d in layers[i + 1] for d in range(1, n + 1))}

    def arc(i: int, s: int, d: int) -> int | None:
        t = s + weights[i] * d
        return t if t in layers[i + 1] else None

    return graph_clauses(key, cells, [sorted(layer) for layer in layers], arc, n, pool)


def automaton_clauses(key: object, automaton: Automaton, n: int, pool: IDPool) -> list[list[int]]:
    """An automaton (``rules.automaton``) as the clauses of its layered graph (``graph_clauses``), the
    same encoding as a sum's."""
    if automaton.empty:
        return _false(pool, (key, "impossible"))
    m = len(automaton.cells)
    step = {(i, u, d): v for i, layer in enumerate(automaton.edges) for u, d, v in layer}
    layers = [list(range(automaton.nodes(i))) for i in range(m + 1)]
    return graph_clauses(key, automaton.cells, layers, lambda i, u, d: step.get((i, u, d)), n, pool)


def graph_clauses(
    key: object,
    cells: tuple[int, ...],
    layers: list[list[int]],
    arc: Callable[[int, int, int], int | None],
    n: int,
    pool: IDPool,
) -> list[list[int]]:
    """A layered graph over ``cells`` as clauses: ``layers[i]`` the nodes before cell i (the first and the
    last layer one node each, constants with no variable), ``arc(i, u, d)`` the node that digit d in cell
    i leads to from node u (None: nowhere). A variable per node, ``(key, "node", layer, u)``, and per edge,
    ``(key, "edge", layer, u, d)``: the decomposition of a multi-valued decision diagram whose unit
    propagation keeps the constraint generalised arc consistent (Bacchus, *GAC via unit propagation*, CP
    2007; Abío, Nieuwenhuis, Oliveras, Rodríguez-Carbonell, *BDDs for pseudo-Boolean constraints*, SAT
    2012, for the pseudo-Boolean case).

    Clauses: an edge implies its two nodes and its digit; a node implies one of its edges in and one out;
    a digit of a cell implies one of its edges; a node and a digit imply the node the digit leads to, or
    are barred together where it leads nowhere. The nodes and edges on the path of a solution's digits are
    true and all others false, so the formula's models are the solutions.
    """
    m = len(cells)

    def node(i: int, s: int) -> int | None:
        return None if i in (0, m) else pool.id((key, "node", i, s))

    out: list[list[int]] = []
    into: dict[tuple[int, int], list[int]] = {}
    for i in range(m):
        deadline.check()  # a sum over most of a grid takes seconds: a time limit is heard between layers
        cell = cells[i] * n
        by_digit: dict[int, list[int]] = {d: [] for d in range(1, n + 1)}
        for s in layers[i]:
            here = node(i, s)
            leaving = []
            for d in range(1, n + 1):
                t = arc(i, s, d)
                if t is None:
                    out.append([lit for lit in (-here if here else None, -(cell + d)) if lit])
                    continue
                there = node(i + 1, t)
                edge = pool.id((key, "edge", i, s, d))
                out.append([-edge, cell + d])
                if here:
                    out.append([-edge, here])
                if there:
                    out.append([-edge, there])
                    out.append([lit for lit in (-here if here else None, -(cell + d), there) if lit])
                leaving.append(edge)
                by_digit[d].append(edge)
                into.setdefault((i + 1, t), []).append(edge)
            if here:
                out.append([-here, *leaving])
        out += [[-(cell + d), *edges] for d, edges in by_digit.items()]
    for (i, t), edges in into.items():
        there = node(i, t)
        if there:
            out.append([-there, *edges])
    return out
