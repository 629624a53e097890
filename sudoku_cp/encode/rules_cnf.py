"""CNF for the rules beyond houses: groups, pairwise rules, thermometers, cage sums and arrows.

Over the primary variables ``cell * n + digit``, with auxiliary variables from the pool:

- groups (killer cages, small extra regions): at most one cell per digit;
- a pair: the forbidden digit pairs as binary clauses when they are few (anti-knight, non-consecutive,
  negative dots), else support clauses, "a = x implies b is one of the digits x allows" (kropki, XV):
  the direct and support encodings of a binary constraint (Walsh, *SAT v CSP*, CP 2000; Gent, *Arc
  consistency in SAT*, ECAI 2002), whose unit propagation keeps the pair arc consistent;
- a thermometer: support clauses of "strictly less" between neighbours along the line;
- a cage sum: one selector per set of distinct digits with the cage's size and total, each selector
  confining every cell of the cage to its set (with the cage's all-different, the digits are that set);
- an arrow: one-hot partial sums along the line (``p(i, s)``: the first i cells add up to s, at most one
  per i), the last one fixing the digits of the circle or pill (a sequential-sum encoding in the spirit
  of Bailleux, Boufkhad and Roussel, *New encodings of pseudo-Boolean constraints into CNF*, SAT 2009).

Every auxiliary variable is a function of the cell variables, so the models of the formula are exactly the
solutions (model counters count solutions).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..rules import Arrow, Cage, Pair, Rules
from ..rules.sums import digit_sets
from .amo import at_most_one

if TYPE_CHECKING:
    from pysat.formula import IDPool

__all__ = ["pair_clauses", "pill_showings", "rule_families"]


def rule_families(rules: Rules, amo: str | None, pool: IDPool) -> Iterator[tuple[str, list[list[int]]]]:
    """The clause families of ``rules`` beyond its houses, by name; none for the classic rules."""
    n = rules.n
    scheme = amo or "pairwise"
    if rules.groups:
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
    if rules.arrows:
        yield (
            "arrow_sum",
            [c for i, arrow in enumerate(rules.arrows) for c in _arrow_clauses(i, arrow, n, pool)],
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
    assert cage.total is not None
    sets = digit_sets(len(cage.cells), cage.total, n)
    if not sets:
        return _false(pool, ("cage-impossible", i))
    selectors = [pool.id(("cage", i, k)) for k in range(len(sets))]
    out = [selectors]
    for s, digits in zip(selectors, sets, strict=True):
        out += [[-s, *(cell * n + d for d in digits)] for cell in cage.cells]
    out += at_most_one(selectors, "pairwise" if len(selectors) <= 16 else "seqcounter", pool)
    return out


def _arrow_clauses(i: int, arrow: Arrow, n: int, pool: IDPool) -> list[list[int]]:
    line, digits = arrow.cells, range(1, n + 1)

    def p(step: int, total: int) -> int:
        return pool.id(("arrow", i, step, total))

    out: list[list[int]] = [[-(line[0] * n + d), p(1, d)] for d in digits]
    for step in range(2, len(line) + 1):
        cell = line[step - 1] * n
        for total in range(step - 1, n * (step - 1) + 1):
            out += [[-p(step - 1, total), -(cell + d), p(step, total + d)] for d in digits]
    for step in range(1, len(line) + 1):
        layer = [p(step, total) for total in range(step, n * step + 1)]
        out += at_most_one(layer, "pairwise" if len(layer) <= 16 else "seqcounter", pool)
    k = len(line)
    for total in range(k, n * k + 1):
        shown = pill_showings(total, len(arrow.circle), n)
        if len(shown) == 1:
            out += [[-p(k, total), cell * n + d] for cell, d in zip(arrow.circle, shown[0], strict=True)]
            continue
        picks = [pool.id(("pill", i, total, j)) for j in range(len(shown))]  # none: the total is barred
        out.append([-p(k, total), *picks])
        for pick, digits in zip(picks, shown, strict=True):
            out += [[-pick, cell * n + d] for cell, d in zip(arrow.circle, digits, strict=True)]
    return out


def pill_showings(value: int, width: int, n: int) -> list[tuple[int, ...]]:
    """Every way a circle or pill of ``width`` cells shows ``value`` (``constraints.pill_value``: its digits
    read as a decimal number): one at most up to 9x9; from 10x10 several (21 is 2,1 and 1,11), or none."""
    if width == 1:
        return [(value,)] if 1 <= value <= n else []
    return [
        (*head, d)
        for d in range(1, n + 1)
        if value > d and (value - d) % 10 == 0
        for head in pill_showings((value - d) // 10, width - 1, n)
    ]
