"""Check certificates of uniqueness without trusting the code that wrote them (docs/certificates.md).

This module and ``drat`` import nothing but the standard library and each other: they re-encode each
puzzle from its line and its rules, compare the certificate's formula with that encoding clause by clause,
check every solution against the rules, and check the DRAT refutation. Run alone as

    python -m sudoku_cp.certify.checker DIR      # one line per claim; exit status 0 when all hold

The canonical formula, in the variables ``x(cell, d) = cell * n + d`` (cell ``r * n + c``, 0-based; digit
d in 1..n): each cell holds a digit and no two; each house holds each digit and no cell twice; a group's
cells never share a digit; a pair rule forbids the digit pairs it does not allow (binary clauses); a
thermometer's neighbours increase; a killer cage's sum and an arrow (its circle or pill read as a decimal
number) are each the graph of partial sums as clauses, with node and edge variables numbered above n**3
(``sum_clauses``: unit propagation keeps each sum generalised arc consistent, Bacchus, *GAC via unit
propagation*, CP 2007); each variant of another kind (``variants``: a line, an outside clue, a cell mark,
stated by its kind's name and data) is read by this module's own meaning of the kind (``KINDS``) as
groups, pairs, sums, or an automaton whose layered graph is encoded by the sums' clauses
(``graph_clauses``), its auxiliaries after the sums'; each given is a unit clause. A certificate holds
what the givens leave open: the literals A that unit propagation derives from them, as unit clauses,
every canonical clause no literal of A satisfies (whole), and for a ``unique`` claim the blocking clause.
Those dropped hold under the rest, so the formula keeps its models; it is a fixed set that a checker can
rebuild and compare. When A holds every cell (or propagation clashes), the claim needs no file: the
propagation is the proof.

The sums' and the kinds' definitions here are this module's own (it imports nothing from the solving
code); tests hold them to the package's (``rules.sums``, each kind's ``Variant.holds``): the same terms in
the same order, and the clauses of a sum or a graph have exactly one model for each assignment of digits
that keeps it, none for any other.

For speed, the formula file is first compared with the very text ``prove`` writes (``certificate`` gives
the clauses in that order); any other text is read clause by clause and compared as a set, as before.
"""

from __future__ import annotations

import gc
import itertools
import json
import math
import operator
import os
import signal
import stat
import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from .drat import ProofError, Verdict, check_refutation

#: A DRAT checker: ``check_refutation(clauses, proof)`` of ``drat`` (the default) or a twin of it with the
#: same verdicts (``drat_compiled``, which ``sudoku-cp check`` passes in for large folders).
Refute = Callable[[list, list], Verdict]

__all__ = [
    "SUMS_WORK",
    "SUM_WORK",
    "SYMBOLS",
    "CertificateError",
    "Grid",
    "Refute",
    "Sum",
    "UnreadableFolder",
    "blocking_clause",
    "certificate",
    "check_claim",
    "check_dir",
    "clause_line",
    "dimacs_text",
    "formula",
    "main",
    "proof_limit",
    "read_text",
    "settle",
    "sum_clauses",
    "sum_layers",
    "sum_of",
    "sum_work",
]

#: Digit d is written ``SYMBOLS[d - 1]``; ``.`` and ``0`` are empty cells.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_RELATIONS = ("differ", "difference", "ratio", "sum")
_RULE_KEYS = frozenset(
    {"size", "box", "houses", "groups", "pairs", "thermometers", "cages", "arrows", "variants"}
)
#: The most work (``sum_work``) one sum may take, and all the sums of a claim together: past them the
#: formula grows past what a certificate is worth writing and reading (a 9x9 arrow of 8 cells takes about
#: 6,000; a 9x9 killer's cages together a few thousand). ``SUM_WORK`` is the bound under which the
#: solving code reasons on a sum exactly (``rules.sums.EXACT_WORK``).
SUM_WORK, SUMS_WORK = 1 << 20, 1 << 22


class CertificateError(Exception):
    """A claim that does not hold, or cannot be read; the message says which part and why."""


class UnreadableFolder(Exception):
    """A folder whose ``claims.jsonl`` cannot be read (missing, not a file, not UTF-8 text): no claim to
    check, an input error rather than a failed claim."""


@dataclass(frozen=True)
class Grid:
    """What a valid grid is, rebuilt from a claim: n digits, houses, groups, forbidden digit pairs."""

    n: int
    houses: tuple[tuple[int, ...], ...]
    groups: tuple[tuple[int, ...], ...]
    #: ``(a, b, forbidden)``: cell a may not hold x while cell b holds y, for each (x, y) in forbidden
    pairs: tuple[tuple[int, int, frozenset[tuple[int, int]]], ...]
    #: the killer cages' sums, then the arrows', then the variants', in the order of the rules field
    sums: tuple[Sum, ...] = ()
    #: the variants' graphs, in the order of the rules field
    graphs: tuple[Graph, ...] = ()
    #: the variants as stated (for the check of a solution, by each kind's meaning)
    variants: tuple[Stated, ...] = ()

    @cached_property
    def canonical(self) -> _Canonical:
        return _Canonical(self)

    def cell(self, index: int) -> str:
        return f"r{index // self.n + 1}c{index % self.n + 1}"

    def violation(self, cells: Sequence[int]) -> str | None:
        """Why the complete grid ``cells`` breaks the rules, or None when it keeps them."""
        n = self.n
        if len(cells) != n * n or any(not 1 <= d <= n for d in cells):
            return "not a complete grid"
        for variant in self.variants:  # (before the groups, pairs and sums they add: named by kind)
            if not variant.holds(cells):
                return f"the {variant.kind} {variant.where} is broken"
        for kind, units in (("house", self.houses), ("group", self.groups)):
            for unit in units:
                digits = [cells[c] for c in unit]
                if len(set(digits)) != len(digits):
                    return f"a digit twice in the {kind} {self.cell(unit[0])}..{self.cell(unit[-1])}"
        for a, b, forbidden in self.pairs:
            if (cells[a], cells[b]) in forbidden:
                return f"{self.cell(a)}={cells[a]} and {self.cell(b)}={cells[b]} break a pair rule"
        for rule in self.sums:
            plus = sum(w * cells[c] for c, w in zip(rule.cells, rule.weights, strict=True) if w > 0)
            minus = -sum(w * cells[c] for c, w in zip(rule.cells, rule.weights, strict=True) if w < 0)
            if plus - minus != rule.total:
                where = self.cell(rule.first)
                if rule.kind == "cage":
                    return f"the cage at {where} adds up to {plus}, not {rule.total}"
                return f"the arrow from {where}: its line adds up to {minus}, its circle shows {plus}"
        return None


@dataclass(frozen=True)
class Sum:
    """``sum(weights[i] * digit(cells[i])) == total``, its terms in the canonical order (``sum_of``); a
    ``cage`` or an ``arrow`` whose first listed cell is ``first`` (for messages)."""

    kind: str
    first: int
    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int


def sum_of(kind: str, cells: Sequence[int], weights: Sequence[int], total: int) -> Sum:
    """The sum with its terms in the canonical order: by the size of their weight, those of one size as
    listed (the graph stays narrow when the heavy terms, a pill's tens, come last)."""
    order = sorted(range(len(cells)), key=lambda i: abs(weights[i]))  # (stable: ties as listed)
    return Sum(kind, cells[0], tuple(cells[i] for i in order), tuple(weights[i] for i in order), total)


def _windows(rule: Sum, n: int) -> list[tuple[int, int]]:
    """For each layer i (after the first i terms, i = 0..m): the least and the most partial sum that the
    terms so far can make (digits 1..n) and the terms left can still bring to the total."""
    least, most = [0], [0]
    for w in rule.weights:
        least.append(least[-1] + min(w, w * n))
        most.append(most[-1] + max(w, w * n))
    low, high, total = least[-1], most[-1], rule.total
    return [(max(a, total - (high - b)), min(b, total - (low - a))) for a, b in zip(least, most, strict=True)]


def sum_work(rule: Sum, n: int) -> int:
    """n times the widths of the sum's windows (``_windows``, empty ones 0): a bound on the partial sums
    its graph is built from, computed without building it."""
    return n * sum(max(0, hi - lo + 1) for lo, hi in _windows(rule, n))


def sum_layers(rule: Sum, n: int) -> list[list[int]]:
    """The nodes of the sum's graph, layer by layer (i = 0..m), ascending: the partial sums s of the first
    i terms (each digit 1..n) from which the terms left can still reach the total. Layer 0 is [0] and
    layer m [total], or every layer is empty when the sum cannot be kept."""
    m = len(rule.cells)
    digits = range(1, n + 1)
    reach: list[set[int]] = [{0}]
    for i, (lo, hi) in enumerate(_windows(rule, n)[1:]):
        w = rule.weights[i]
        reach.append({t for s in reach[i] for d in digits if lo <= (t := s + w * d) <= hi})
    layers: list[set[int]] = [set()] * m + [reach[m] & {rule.total}]
    for i in range(m - 1, -1, -1):
        w, ahead = rule.weights[i], layers[i + 1]
        layers[i] = {s for s in reach[i] if any(s + w * d in ahead for d in digits)}
    return [sorted(layer) for layer in layers]


def sum_clauses(rule: Sum, n: int, first: int) -> tuple[list[tuple[int, ...]], int]:
    """The sum's clauses (each a sorted tuple) over its graph (``sum_layers``), and how many auxiliary
    variables they take, numbered from ``first``: the nodes N(i, s) of the layers 1..m-1 by (i, s), then
    the edges E(i, s, d) by (i, s, d), one for each node s of layer i (layers 0..m-1) and digit d with
    s + w_i * d a node of layer i + 1. The nodes of layers 0 and m are constants, true: their literals
    are left out of the clauses below.

    For each term i, each node s of layer i in order: the node's clause in, ``-N(i, s)`` or one of the
    edges into it; then for each digit d, the edge's ``-E x(c_i, d)``, ``-E N(i, s)``, ``-E N(i + 1, t)``
    and ``-N(i, s) -x(c_i, d) N(i + 1, t)`` (t = s + w_i * d), or, where no edge is, ``-N(i, s)
    -x(c_i, d)``; then the node's clause out, ``-N(i, s)`` or one of its edges. After the term's nodes,
    for each digit d: ``-x(c_i, d)`` or one of the term's edges with digit d. A path of true nodes and
    edges from 0 to the total is the only model for digits that keep the sum; for others there is none.
    This is the decomposition of the sum's decision diagram whose unit propagation is generalised arc
    consistent (Bacchus, *GAC via unit propagation*, CP 2007)."""
    layers = sum_layers(rule, n)
    ahead = [set(layer) for layer in layers[1:]]
    weights = rule.weights

    def after(i: int, s: Hashable, d: int) -> Hashable | None:
        t = s + weights[i] * d  # type: ignore[operator]
        return t if t in ahead[i] else None

    return graph_clauses(rule.cells, layers, after, n, first)


def graph_clauses(
    cells: Sequence[int],
    layers: Sequence[Sequence[Hashable]],
    after: Callable[[int, Hashable, int], Hashable | None],
    n: int,
    first: int,
) -> tuple[list[tuple[int, ...]], int]:
    """The clauses of a layered graph over ``cells`` (docs/certificates.md, "Sums" and "Graphs"): its
    nodes ``layers[i]`` (i = 0..m, in their numbering order; layers 0 and m one node each, or every layer
    empty) and its edges, ``after(i, s, d)`` the node of layer i + 1 that digit d of cell i leads to from
    node s of layer i (None: no edge). The sums' graphs (``sum_clauses``) and the kinds' (``Graph``) are
    encoded by this one function."""
    m = len(cells)
    digits = range(1, n + 1)
    node: dict[tuple[int, Hashable], int] = {}
    for i in range(1, m):
        for s in layers[i]:
            node[i, s] = first + len(node)
    edge: dict[tuple[int, Hashable, int], int] = {}
    target: dict[int, Hashable] = {}
    for i in range(m):
        for s in layers[i]:
            for d in digits:
                t = after(i, s, d)
                if t is not None:
                    e = edge[i, s, d] = first + len(node) + len(edge)
                    target[e] = t
    into: dict[tuple[int, Hashable], list[int]] = {}
    for (i, _, _), e in edge.items():
        into.setdefault((i + 1, target[e]), []).append(e)
    out: list[tuple[int, ...]] = []

    def add(*literals: int | None) -> None:
        out.append(tuple(sorted({x for x in literals if x is not None})))

    for i in range(m):
        x = cells[i] * n
        for s in layers[i]:
            here = node.get((i, s))
            not_here = -here if here else None
            if here:
                add(-here, *into[i, s])
            leaving = []
            for d in digits:
                e = edge.get((i, s, d))
                if e is None:
                    add(not_here, -(x + d))
                    continue
                there = node.get((i + 1, target[e]))
                add(-e, x + d)
                if here:
                    add(-e, here)
                if there:
                    add(-e, there)
                    add(not_here, -(x + d), there)
                leaving.append(e)
            if here:
                add(-here, *leaving)
        for d in digits:
            add(-(x + d), *(e for s in layers[i] if (e := edge.get((i, s, d)))))
    return out, len(node) + len(edge)


def _forbidden(relation: str, value: int, negated: bool, n: int) -> frozenset[tuple[int, int]]:
    def holds(x: int, y: int) -> bool:
        if relation == "differ":
            return x != y
        if relation == "difference":
            return abs(x - y) == value
        if relation == "ratio":
            return x == value * y or y == value * x
        return x + y == value

    digits = range(1, n + 1)
    return frozenset((x, y) for x in digits for y in digits if holds(x, y) == negated)


# --- the variants: each kind's meaning in this module's own words (docs/certificates.md, "Variants") ------

#: The one node of a graph's last layer: every accepting state, merged.
ACCEPT = "accept"


@dataclass(frozen=True, eq=False)
class Graph:
    """A kind's rule over ``cells`` as an automaton: it reads their digits in order from the state
    ``start`` (a tuple of integers), ``step(state, d)`` is the state after digit d (None: d breaks the
    rule), and the digits keep the rule when the state after the last one is one ``accept`` holds of."""

    kind: str
    cells: tuple[int, ...]
    n: int
    start: tuple[int, ...]
    step: Callable[[tuple[int, ...], int], tuple[int, ...] | None]
    accept: Callable[[tuple[int, ...]], bool]

    def holds(self, digits: Sequence[int]) -> bool:
        state: tuple[int, ...] | None = self.start
        for d in digits:
            state = self.step(state, d)
            if state is None:
                return False
        return self.accept(state)

    def reach(self, n: int, limit: int) -> list[set[tuple[int, ...]]] | None:
        """The states reachable after i digits (i = 0..m, digits 1..n), layer by layer; None once n times
        their count (the graph's work, ``graph_work``) passes ``limit``."""
        reach = [{self.start}]
        work = n
        for _ in self.cells:
            nxt = {t for s in reach[-1] for d in range(1, n + 1) if (t := self.step(s, d)) is not None}
            work += n * len(nxt)
            if work > limit:
                return None
            reach.append(nxt)
        return reach

    @cached_property
    def layers(self) -> list[list[Hashable]]:
        """The graph's nodes (docs/certificates.md, "Graphs"): layer i (i < m) holds the states reachable
        after i digits from which the digits left can still reach acceptance, ascending (tuples compared
        item by item, a prefix first); layer m is the one node ``ACCEPT``. Every layer is empty when no
        digits keep the rule."""
        n = self.n
        reach = self.reach(n, 1 << 62)
        assert reach is not None
        m = len(self.cells)
        alive: set[Hashable] = {ACCEPT} if any(self.accept(s) for s in reach[m]) else set()
        layers: list[list[Hashable]] = [[] for _ in range(m)] + [sorted(alive)]
        for i in range(m - 1, -1, -1):
            live = [
                s for s in reach[i] if any(self._after(i, s, d, alive) is not None for d in range(1, n + 1))
            ]
            layers[i] = sorted(live)  # type: ignore[type-var]
            alive = set(live)
        if not layers[0]:
            return [[] for _ in range(m + 1)]
        return layers

    def _after(self, i: int, s: Hashable, d: int, ahead: set[Hashable]) -> Hashable | None:
        t = self.step(s, d)  # type: ignore[arg-type]
        if t is None:
            return None
        if i == len(self.cells) - 1:
            t = ACCEPT if self.accept(t) else None  # type: ignore[assignment]
        return t if t in ahead else None


def graph_work(graph: Graph, n: int, limit: int = SUM_WORK) -> int:
    """n times the states the graph's forward layers hold (``Graph.reach``, before pruning), or
    ``limit + 1`` once it passes ``limit``: what a graph costs, bounded as a sum's work is."""
    reach = graph.reach(n, limit)
    return limit + 1 if reach is None else n * sum(map(len, reach))


def graph_of(kind: str, cells: Sequence[int], n: int, start: tuple[int, ...], step, accept) -> Graph:
    return Graph(kind, tuple(cells), n, start, step, accept)


def graph_clauses_of(graph: Graph, n: int, first: int) -> tuple[list[tuple[int, ...]], int]:
    """The graph's clauses (``graph_clauses`` over ``Graph.layers``) and how many auxiliary variables
    they take, numbered from ``first``."""
    layers = graph.layers
    ahead = [set(layer) for layer in layers[1:]]
    return graph_clauses(graph.cells, layers, lambda i, s, d: graph._after(i, s, d, ahead[i]), n, first)


@dataclass(frozen=True)
class Stated:
    """One variant of the rules field (``variants``), read: its kind, where it stands (for messages), and
    what it means in the canonical forms: groups, forbidden digit pairs, sums and graphs."""

    kind: str
    where: str
    groups: tuple[tuple[int, ...], ...] = ()
    pairs: tuple[tuple[int, int, frozenset[tuple[int, int]]], ...] = ()
    sums: tuple[Sum, ...] = ()
    graphs: tuple[Graph, ...] = ()

    def holds(self, cells: Sequence[int]) -> bool:
        """True when the complete grid ``cells`` keeps the variant."""
        return (
            all(len({cells[c] for c in g}) == len(g) for g in self.groups)
            and all((cells[a], cells[b]) not in forbidden for a, b, forbidden in self.pairs)
            and all(
                sum(w * cells[c] for c, w in zip(r.cells, r.weights, strict=True)) == r.total
                for r in self.sums
            )
            and all(g.holds([cells[c] for c in g.cells]) for g in self.graphs)
        )


def _pairs_where(cells: Sequence[tuple[int, int]], n: int, keep) -> tuple:
    """Each pair of cells (a, b) with the digit pairs (x, y) that ``keep(x, y)`` is false of, forbidden."""
    digits = range(1, n + 1)
    forbidden = frozenset((x, y) for x in digits for y in digits if not keep(x, y))
    return tuple((a, b, forbidden) for a, b in cells)


#: A little killer's directions, as (row step, column step).
DIAGONALS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}


def _clue(entry: dict, n: int, side: bool) -> tuple[int, int]:
    """The clue's place ``[row, column]``: outside the grid (row or column -1 or n); ``side``: beside a
    row or a column (not at a corner)."""
    clue = entry.get("clue")
    ok = isinstance(clue, list) and len(clue) == 2 and all(_integer(x) and -1 <= x <= n for x in clue)
    outside = ok and sum(x in (-1, n) for x in clue) >= 1
    if not outside or (side and sum(x in (-1, n) for x in clue) != 1):
        where = "beside a row or column" if side else "outside the grid"
        raise CertificateError(f"rules: a {entry['kind']}'s clue {clue!r} is not a place {where}")
    return clue[0], clue[1]


def _ray(place: tuple[int, int], step: tuple[int, int], n: int) -> tuple[int, ...]:
    """The cells from ``place`` (outside) in the direction ``step``, until the line leaves the grid."""
    r, c = place[0] + step[0], place[1] + step[1]
    out = []
    while 0 <= r < n and 0 <= c < n:
        out.append(r * n + c)
        r, c = r + step[0], c + step[1]
    return tuple(out)


def _total(entry: dict) -> int:
    total = entry.get("total")
    if not _integer(total):
        raise CertificateError(f"rules: a {entry['kind']}'s total is not an integer: {total!r}")
    return total


def _beside(entry: dict, n: int) -> tuple[tuple[int, int], tuple[int, ...]]:
    """A clue beside a row or column and the cells it reads, from its side."""
    r, c = _clue(entry, n, side=True)
    step = (1 if r == -1 else -1 if r == n else 0, 1 if c == -1 else -1 if c == n else 0)
    return (r, c), _ray((r, c), step, n)


def _at(place: tuple[int, int]) -> str:
    return f"(row {place[0]}, column {place[1]})"


def _kind_line(entry: dict, n: int, key: str = "cells") -> tuple[int, ...]:
    cells = _cells(entry.get(key), n, entry["kind"])
    if not cells:
        raise CertificateError(f"rules: a {entry['kind']} needs a cell")
    return cells


def _renban(entry: dict, n: int) -> Stated:
    """The digits differ and the largest minus the smallest is one less than the cells: a group, and no
    two digits further apart than that (k distinct digits within a span of k - 1 are consecutive)."""
    cells = _kind_line(entry, n)
    span = len(cells) - 1
    near = _pairs_where(itertools.combinations(cells, 2), n, lambda x, y: abs(x - y) <= span)
    return Stated("renban", _name(cells[0], n), groups=(cells,) if len(cells) > 1 else (), pairs=near)


def _whispers(entry: dict, n: int) -> Stated:
    """Neighbours at least ``apart`` apart; the line may come back to a cell (a loop), never straight to
    the one it left."""
    cells = entry.get("cells")
    if not isinstance(cells, list) or len(cells) < 2 or any(a == b for a, b in itertools.pairwise(cells)):
        raise CertificateError("rules: a whispers line needs two cells or more, no cell twice in a row")
    _cells(list(dict.fromkeys(cells)), n, "whispers")  # each cell on the grid
    cells = tuple(cells)
    apart = entry.get("apart")
    if not _integer(apart):
        raise CertificateError(f"rules: a whispers line's apart is not an integer: {apart!r}")
    pairs = _pairs_where(itertools.pairwise(cells), n, lambda x, y: abs(x - y) >= apart)
    return Stated("whispers", _name(cells[0], n), pairs=pairs)


def _palindrome(entry: dict, n: int) -> Stated:
    cells = _kind_line(entry, n)
    m = len(cells)
    ends = [(cells[i], cells[m - 1 - i]) for i in range(m // 2)]
    return Stated("palindrome", _name(cells[0], n), pairs=_pairs_where(ends, n, operator.eq))


def _between(entry: dict, n: int) -> Stated:
    """For each middle cell, the automaton over (first end, the middle cell, last end) that keeps the
    digits read and accepts (a, x, b) with x strictly between a and b."""
    cells = _kind_line(entry, n)
    graphs = tuple(
        graph_of(
            "between line",
            (cells[0], middle, cells[-1]),
            n,
            (),
            lambda s, d: (*s, d),
            lambda s: min(s[0], s[2]) < s[1] < max(s[0], s[2]),
        )
        for middle in cells[1:-1]
    )
    return Stated("between line", _name(cells[0], n), graphs=graphs)


def _classes(entry: dict, n: int, of) -> Stated:
    """Any two cells one or two apart on the line hold digits of different classes ``of(d)``: the state
    is the classes of the last two digits read (fewer at the start)."""
    cells = _kind_line(entry, n)

    def step(s: tuple[int, ...], d: int) -> tuple[int, ...] | None:
        return None if of(d) in s else (*s[-1:], of(d))

    return Stated(
        entry["kind"], _name(cells[0], n), graphs=(graph_of(entry["kind"], cells, n, (), step, bool_true),)
    )


def bool_true(state: tuple[int, ...]) -> bool:
    return True


def _entropic(entry: dict, n: int) -> Stated:
    if n % 3:
        raise CertificateError(f"rules: an entropic line needs a grid size divisible by 3, not {n}")
    third = n // 3
    return _classes(entry, n, lambda d: (d - 1) // third)


def _modular(entry: dict, n: int) -> Stated:
    return _classes(entry, n, lambda d: d % 3)


def _region_sum(entry: dict, n: int) -> Stated:
    """Every segment adds up to the same: each segment minus the next is 0 (a sum of weights 1 and -1)."""
    segments = entry.get("segments")
    if not isinstance(segments, list) or not segments:
        raise CertificateError("rules: a region sum line's segments are not a list of cell lists")
    parts = [_kind_line({"kind": "region sum line", "cells": seg}, n) for seg in segments]
    _cells([c for part in parts for c in part], n, "region sum line")  # distinct over the whole line
    sums = tuple(
        sum_of("region sum line", a + b, (1,) * len(a) + (-1,) * len(b), 0)
        for a, b in itertools.pairwise(parts)
    )
    return Stated("region sum line", _name(parts[0][0], n), sums=sums)


def _little_killer(entry: dict, n: int) -> Stated:
    place = _clue(entry, n, side=False)
    step = DIAGONALS.get(entry.get("direction"))  # type: ignore[arg-type]
    if step is None:
        raise CertificateError(
            f"rules: a little killer's direction is not DR, DL, UR or UL: {entry.get('direction')!r}"
        )
    cells = _ray(place, step, n)
    if not cells:
        raise CertificateError(f"rules: the little killer at {_at(place)} points away from the grid")
    total = _total(entry)
    where = f"{total} at {_at(place)}"
    return Stated("little killer", where, sums=(sum_of("little killer", cells, (1,) * len(cells), total),))


def _sandwich(entry: dict, n: int) -> Stated:
    """State (0,) before the first 1 or n, (1, e, s) after the end e with the digits since adding up to
    s (at most the total), (2,) after the second end, which must be the other and close a sum of the
    total; accept (2,)."""
    place, cells = _beside(entry, n)
    total = _total(entry)

    def step(state: tuple[int, ...], d: int) -> tuple[int, ...] | None:
        end = d in (1, n)
        if state[0] == 0:
            return (1, d, 0) if end else (0,)
        if state[0] == 2:
            return None if end else (2,)
        _, e, s = state
        if end:
            return (2,) if d != e and s == total else None
        return (1, e, s + d) if s + d <= total else None

    graph = graph_of("sandwich", cells, n, (0,), step, lambda s: s == (2,))
    return Stated("sandwich", f"{total} at {_at(place)}", graphs=(graph,))


def _x_sum(entry: dict, n: int) -> Stated:
    """State (0,) at the start, (1, x, c, s) after c < x digits adding up to s (below the total), x the
    first; (2,) once the first x add up to the total; accept (2,)."""
    place, cells = _beside(entry, n)
    total = _total(entry)

    def step(state: tuple[int, ...], d: int) -> tuple[int, ...] | None:
        if state[0] == 2:
            return state
        x, c, s = (d, 1, d) if state[0] == 0 else (state[1], state[2] + 1, state[3] + d)
        if c == x:
            return (2,) if s == total else None
        return (1, x, c, s) if s < total else None

    graph = graph_of("X-sum", cells, n, (0,), step, lambda s: s == (2,))
    return Stated("X-sum", f"{total} at {_at(place)}", graphs=(graph,))


def _skyscraper(entry: dict, n: int) -> Stated:
    """State (t, v): the tallest digit so far and how many were visible (at most the total); accept v =
    the total."""
    place, cells = _beside(entry, n)
    total = _total(entry)

    def step(state: tuple[int, ...], d: int) -> tuple[int, ...] | None:
        tallest, seen = state
        if d > tallest:
            return (d, seen + 1) if seen < total else None
        return state

    graph = graph_of("skyscraper", cells, n, (0, 0), step, lambda s: s[1] == total)
    return Stated("skyscraper", f"{total} at {_at(place)}", graphs=(graph,))


def _one_cell(entry: dict, n: int) -> int:
    cell = entry.get("cell")
    if not (_integer(cell) and 0 <= cell < n * n):
        raise CertificateError(f"rules: a {entry['kind']}'s cell is not one of 0..{n * n - 1}: {cell!r}")
    return cell


def _parity(entry: dict, n: int) -> Stated:
    """One cell, one state (): an odd (even) digit keeps it, the others lead nowhere."""
    cell = _one_cell(entry, n)
    odd = entry["kind"] == "odd"
    graph = graph_of(entry["kind"], (cell,), n, (), lambda s, d: s if d % 2 == odd else None, bool_true)
    return Stated(entry["kind"], _name(cell, n), graphs=(graph,))


def _extreme(entry: dict, n: int) -> Stated:
    """The cell's digit below (minimum) or above (maximum) each orthogonal neighbour's."""
    cell = _one_cell(entry, n)
    r, c = divmod(cell, n)
    around = [
        (r + a) * n + c + b
        for a, b in ((-1, 0), (0, -1), (0, 1), (1, 0))
        if 0 <= r + a < n and 0 <= c + b < n
    ]
    keep = operator.lt if entry["kind"] == "minimum" else operator.gt
    pairs = _pairs_where([(cell, other) for other in around], n, keep)
    return Stated(entry["kind"], _name(cell, n), pairs=pairs)


def _quadruple(entry: dict, n: int) -> Stated:
    """State: the values still to place (ascending); a digit among them places one; accept ()."""
    cells = _kind_line(entry, n)
    values = entry.get("values")
    if not isinstance(values, list) or not all(_integer(v) and 1 <= v <= n for v in values):
        raise CertificateError(f"rules: a quadruple's values are not digits 1..{n}: {values!r}")

    def step(state: tuple[int, ...], d: int) -> tuple[int, ...]:
        if d not in state:
            return state
        i = state.index(d)
        return state[:i] + state[i + 1 :]

    graph = graph_of("quadruple", cells, n, tuple(sorted(values)), step, lambda s: not s)
    return Stated("quadruple", _name(cells[0], n), graphs=(graph,))


def _clone(entry: dict, n: int) -> Stated:
    shape, copy = _kind_line(entry, n), _kind_line(entry, n, "clone")
    if len(shape) != len(copy):
        raise CertificateError("rules: a clone's cells and clone differ in length")
    _cells([*shape, *copy], n, "clone")  # distinct over both
    pairs = _pairs_where(list(zip(shape, copy, strict=True)), n, operator.eq)
    return Stated("clone", _name(shape[0], n), pairs=pairs)


def _indexer(entry: dict, n: int) -> Stated:
    """The cell's digit v says that the v-th cell of the house through it (its column for a row
    indexer, its row for a column indexer, the listed ``house`` for a box indexer) holds the cell's own
    index there (its place in the house, from 1): for each v, the pair of the cell and the v-th cell
    forbids v with any other digit than the index."""
    kind = entry["kind"]
    cell = _one_cell(entry, n)
    r, c = divmod(cell, n)
    if kind == "row indexer":
        house = tuple(i * n + c for i in range(n))
    elif kind == "column indexer":
        house = tuple(r * n + j for j in range(n))
    else:
        house = _cells(entry.get("house"), n, "box indexer's house", n)
        if cell not in house:
            raise CertificateError("rules: a box indexer's cell is not in its house")
    index = house.index(cell) + 1
    targets = [(v, t) for v, t in enumerate(house, 1) if t != cell]
    digits = range(1, n + 1)
    pairs = tuple((cell, t, frozenset((v, y) for y in digits if y != index)) for v, t in targets)
    return Stated(kind, _name(cell, n), pairs=pairs)


#: Each kind of the ``variants`` field: its reader and the keys of its entry (``kind`` aside).
KINDS: dict[str, tuple[Callable[[dict, int], Stated], frozenset[str]]] = {
    "renban": (_renban, frozenset({"cells"})),
    "whispers": (_whispers, frozenset({"cells", "apart"})),
    "palindrome": (_palindrome, frozenset({"cells"})),
    "between line": (_between, frozenset({"cells"})),
    "region sum line": (_region_sum, frozenset({"segments"})),
    "entropic line": (_entropic, frozenset({"cells"})),
    "modular line": (_modular, frozenset({"cells"})),
    "little killer": (_little_killer, frozenset({"clue", "direction", "total"})),
    "sandwich": (_sandwich, frozenset({"clue", "total"})),
    "X-sum": (_x_sum, frozenset({"clue", "total"})),
    "skyscraper": (_skyscraper, frozenset({"clue", "total"})),
    "odd": (_parity, frozenset({"cell"})),
    "even": (_parity, frozenset({"cell"})),
    "minimum": (_extreme, frozenset({"cell"})),
    "maximum": (_extreme, frozenset({"cell"})),
    "quadruple": (_quadruple, frozenset({"cells", "values"})),
    "clone": (_clone, frozenset({"cells", "clone"})),
    "row indexer": (_indexer, frozenset({"cell"})),
    "column indexer": (_indexer, frozenset({"cell"})),
    "box indexer": (_indexer, frozenset({"cell", "house"})),
}


def read_variant(entry: object, n: int) -> Stated:
    """One entry of the rules field's ``variants``: ``{"kind": ..., its data}``."""
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
        kind = entry.get("kind") if isinstance(entry, dict) else entry
        raise CertificateError(f"rules: unknown variant {kind!r} (a rule this checker cannot encode)")
    read, keys = KINDS[entry["kind"]]
    if set(entry) - {"kind"} != keys:
        raise CertificateError(
            f"rules: a {entry['kind']} takes {', '.join(sorted(keys))}, not "
            + ", ".join(sorted(set(entry) - {"kind"}))
        )
    return read(entry, n)


def _name(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def _listed(rules: dict, key: str) -> list:
    """The list under ``key`` of the rules field (empty when absent)."""
    value = rules.get(key, [])
    if not isinstance(value, list):
        raise CertificateError(f"rules: {key} is not a list")
    return value


def _cells(value: object, n: int, what: str, size: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(c, int) and 0 <= c < n * n for c in value):
        raise CertificateError(f"rules: a {what} is not a list of cells 0..{n * n - 1}")
    if len(set(value)) != len(value) or (size is not None and len(value) != size):
        raise CertificateError(f"rules: a {what} needs {f'{size} ' if size else ''}distinct cells")
    return tuple(value)


def grid_of(n: int, rules: dict | None) -> Grid:
    """The grid a claim's ``rules`` field describes (absent: rows, columns and the most nearly square
    boxes of an n x n grid, 9 -> 3x3, 6 -> 2 rows x 3 columns)."""
    if rules is not None and not isinstance(rules, dict):
        raise CertificateError("rules: not a JSON object")
    return _grid(n, json.dumps(rules, sort_keys=True))


@lru_cache(maxsize=16)
def _grid(n: int, key: str) -> Grid:
    """``grid_of`` for the rules as JSON text: a batch of claims on the same rules builds one grid."""
    rules = json.loads(key) or {}
    unknown = sorted(set(rules) - _RULE_KEYS)
    if unknown:
        raise CertificateError(f"rules: unknown key {unknown[0]!r} (a rule this checker cannot encode)")
    if rules.get("size", n) != n:
        raise CertificateError(f"rules: size {rules['size']} but the puzzle is {n}x{n}")
    houses = [tuple(r * n + c for c in range(n)) for r in range(n)]
    houses += [tuple(r * n + c for r in range(n)) for c in range(n)]
    if rules:
        box = rules.get("box")
    else:
        rows = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
        box = [rows, n // rows]
    if box is not None:
        shape = isinstance(box, list) and len(box) == 2 and all(isinstance(x, int) and x > 0 for x in box)
        if not shape or box[0] * box[1] != n:
            raise CertificateError(f"rules: the box {box!r} does not tile a {n}x{n} grid")
        rows, cols = box
        for top in range(0, n, rows):
            for left in range(0, n, cols):
                houses.append(tuple((top + i) * n + left + j for i in range(rows) for j in range(cols)))
    houses += [_cells(h, n, "house", n) for h in _listed(rules, "houses")]
    groups = [_cells(g, n, "group") for g in _listed(rules, "groups")]
    pairs = []
    for pair in _listed(rules, "pairs"):
        if not (isinstance(pair, list) and len(pair) == 5 and pair[2] in _RELATIONS):
            raise CertificateError(f"rules: a pair is not [a, b, relation, value, negated]: {pair!r}")
        a, b = _cells(pair[:2], n, "pair")
        if not isinstance(pair[3], int) or not isinstance(pair[4], bool):
            raise CertificateError(f"rules: a pair's value or negation is not read: {pair!r}")
        pairs.append((a, b, _forbidden(pair[2], pair[3], pair[4], n)))
    for line in _listed(rules, "thermometers"):
        cells = _cells(line, n, "thermometer")
        increase = frozenset((x, y) for x in range(1, n + 1) for y in range(1, n + 1) if x >= y)
        pairs += [(a, b, increase) for a, b in itertools.pairwise(cells)]
    sums = []
    for cage in _listed(rules, "cages"):
        if not (isinstance(cage, list) and len(cage) == 2 and _integer(cage[0]) and cage[1]):
            raise CertificateError(f"rules: a cage is not [total, [cells...]]: {cage!r}")
        cells = _cells(cage[1], n, "cage")
        if len(cells) > 1:
            groups.append(cells)  # a killer cage's digits differ
        sums.append(sum_of("cage", cells, (1,) * len(cells), cage[0]))
    for arrow in _listed(rules, "arrows"):
        if not (isinstance(arrow, list) and len(arrow) == 2 and isinstance(arrow[0], list) and arrow[0]):
            raise CertificateError(f"rules: an arrow is not [[circle cells...], [line cells...]]: {arrow!r}")
        cells = _cells(arrow[0] + arrow[1] if isinstance(arrow[1], list) else None, n, "arrow")
        k = len(arrow[0])
        weights = tuple(10 ** (k - 1 - j) for j in range(k)) + (-1,) * (len(cells) - k)
        sums.append(sum_of("arrow", cells, weights, 0))
    variants = [read_variant(entry, n) for entry in _listed(rules, "variants")]
    graphs = []
    for variant in variants:
        groups += variant.groups
        pairs += variant.pairs
        sums += variant.sums
        graphs += variant.graphs
    works = [(rule.kind, rule.first, sum_work(rule, n)) for rule in sums]
    works += [(graph.kind, graph.cells[0], graph_work(graph, n)) for graph in graphs]
    total = sum(work for _, _, work in works)
    if any(work > SUM_WORK for _, _, work in works) or total > SUMS_WORK:
        kind, first, most = next((w for w in works if w[2] > SUM_WORK), max(works, key=lambda w: w[2]))
        raise CertificateError(
            f"rules: the sums are too large for a certificate (the {kind} at "
            f"r{first // n + 1}c{first % n + 1}: work {min(most, SUM_WORK + 1):,}, all "
            f"{total:,}; at most {SUM_WORK:,} and {SUMS_WORK:,})"
        )
    return Grid(n, tuple(houses), tuple(groups), tuple(pairs), tuple(sums), tuple(graphs), tuple(variants))


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_puzzle(line: object) -> tuple[int, list[int]]:
    """``(n, cells)`` of a puzzle line (0 for an empty cell)."""
    if not isinstance(line, str):
        raise CertificateError("the puzzle is not a line of text")
    n = math.isqrt(len(line))
    if n * n != len(line) or not 1 <= n <= len(SYMBOLS):
        raise CertificateError(f"the puzzle has {len(line)} characters, not n*n for some n up to 35")
    cells = []
    for char in line.upper():
        if char in ".0":
            cells.append(0)
        elif char in SYMBOLS[:n]:
            cells.append(SYMBOLS.index(char) + 1)
        else:
            raise CertificateError(f"the puzzle holds {char!r}, not a digit of a {n}x{n} grid")
    return n, cells


class _Canonical:
    """The canonical formula of one grid, indexed for propagation: ``conflicts[v]``, the variables that
    share a binary clause with v; ``positive``, the clauses of positive literals (a cell holds a digit, a
    house holds a digit); ``positive_of[v]``, the indices of those that hold v; ``general``, the sums'
    clauses (``sum_clauses``, over the auxiliary variables n**3 + 1 .. ``variables``), and
    ``general_of[2 * v]`` and ``general_of[2 * v + 1]``, the indices of those that hold v and -v."""

    def __init__(self, grid: Grid) -> None:
        n = grid.n
        top = n**3
        self.general: list[tuple[int, ...]] = []
        self.general_of: list[list[int]] = [[] for _ in range(2 * top + 2)]
        variables = top
        for rule in grid.sums:
            variables += self._add_sum(rule, n, variables + 1)
        for graph in grid.graphs:
            variables += self._add_graph(graph, n, variables + 1)
        self.variables = variables
        conflicts = [set(s) for s in _conflicts(n, grid.houses, grid.pairs)]
        for unit in grid.groups:
            for i, a in enumerate(unit):
                for b in unit[i + 1 :]:
                    for d in range(1, n + 1):
                        conflicts[a * n + d].add(b * n + d)
                        conflicts[b * n + d].add(a * n + d)
        self.conflicts = [sorted(s) for s in conflicts] + [[] for _ in range(variables - top)]
        positive = [tuple(c * n + d for d in range(1, n + 1)) for c in range(n * n)]
        positive += [tuple(sorted(c * n + d for c in h)) for h in grid.houses for d in range(1, n + 1)]
        self.positive = list(dict.fromkeys(positive))  # a house listed twice gives its clauses once
        self.positive_of: list[list[int]] = [[] for _ in range(variables + 1)]
        for i, clause in enumerate(self.positive):
            for v in clause:
                self.positive_of[v].append(i)
        self.general_units = [clause[0] for clause in self.general if len(clause) == 1]
        # the DIMACS lines of the clauses, for the text of a certificate: unit_lines[top + x] is the unit
        # clause x of a digit's variable; pair_lines[u], made when first needed, the binary clauses -v -u
        # for v > u (the sums' lines are made as a certificate needs them)
        self.top = top
        self.unit_lines = _unit_lines(top)
        self.positive_lines = [" ".join(map(str, clause)) + " 0" for clause in self.positive]
        self.pair_lines: list[tuple[list[int], list[tuple[int, int]], list[str]] | None] = [None] * (top + 1)

    def _add_sum(self, rule: Sum, n: int, first: int) -> int:
        """Add the sum's clauses (``sum_clauses``, auxiliary variables from ``first``) to ``general`` and
        ``general_of``; the number of auxiliary variables they take.

        A clause two sums give (only a unit ``-x`` can be: every other clause holds an auxiliary variable
        of its own sum) stays twice here: a unit is in A, so no certificate holds it, and ``clauses`` is a
        set."""
        shape = _shaped(rule.weights, rule.total, n)
        names = _names(rule, n, first, shape.used)
        base = len(self.general)
        signed = [-x for x in reversed(names)] + names[1:]  # signed[len(names) - 1 + x] names literal x
        renamed = [get(signed) for get in shape.getters]
        for i in shape.units:  # (an item getter of one index gives the item, not a tuple)
            renamed[i] = (renamed[i],)
        self.general += renamed
        self.general_of += [[] for _ in range(2 * shape.used)]
        general_of, add = self.general_of, base.__add__
        for index, occurs in shape.occurs:
            general_of[2 * names[index >> 1] + (index & 1)] += map(add, occurs)
        return shape.used

    def _add_graph(self, graph: Graph, n: int, first: int) -> int:
        """Add a variant's graph's clauses (``graph_clauses_of``, auxiliary variables from ``first``) to
        ``general`` and ``general_of``; the number of auxiliary variables they take."""
        clauses, used = graph_clauses_of(graph, n, first)
        base = len(self.general)
        self.general += clauses
        general_of = self.general_of
        general_of += [[] for _ in range(2 * used)]
        for i, clause in enumerate(clauses, base):
            for x in clause:
                general_of[2 * x if x > 0 else 1 - 2 * x].append(i)
        return used

    def pairs_of(self, u: int) -> tuple[list[int], list[tuple[int, int]], list[str]]:
        """The binary clauses ``-v -u`` with v > u (u a cell's digit): the variables v, the clauses,
        their lines."""
        pairs = self.pair_lines[u]
        if pairs is None:
            vs = [v for v in self.conflicts[u] if v > u]
            pairs = self.pair_lines[u] = (vs, [(-v, -u) for v in vs], [f"-{v} -{u} 0" for v in vs])
        return pairs

    def clauses(self) -> set[tuple[int, ...]]:
        """The whole canonical formula, givens aside."""
        out = {(-v, -u) for u, vs in enumerate(self.conflicts) for v in vs if v > u}
        return out | set(self.positive) | set(self.general)

    def propagate(self, given: Sequence[int]) -> dict[int, bool] | None:
        """The literals unit propagation derives from the given variables, ``{variable: value}``; None
        when it reaches a conflict. (Its fixpoint is the same whatever the order.)"""
        value = self.values(given)
        if value is None:
            return None
        return {v: x > 0 for v, x in enumerate(value) if x}

    def values(self, given: Sequence[int]) -> list[int] | None:
        """``propagate`` as a list over the variables: 1 true, -1 false, 0 open (index 0 unused)."""
        value = [0] * (self.variables + 1)
        remaining = [len(clause) for clause in self.positive]  # literals not yet false, per clause
        left = [len(clause) for clause in self.general]  # the same for the sums' clauses
        for v in given:
            value[v] = 1
        queue = list(given)
        for x in self.general_units:  # the sums' unit clauses: digits no partial sum leads on from
            if value[abs(x)] == (1 if x < 0 else -1):
                return None
            if not value[abs(x)]:
                value[abs(x)] = 1 if x > 0 else -1
                queue.append(abs(x))
        conflicts, positive, positive_of = self.conflicts, self.positive, self.positive_of
        general, general_of = self.general, self.general_of
        while queue:
            v = queue.pop()
            if value[v] > 0:
                for u in conflicts[v]:
                    seen = value[u]
                    if not seen:
                        value[u] = -1
                        queue.append(u)
                    elif seen > 0:
                        return None
                lost = general_of[2 * v + 1]  # the clauses that hold -v, now false there
            else:
                for i in positive_of[v]:
                    remaining[i] -= 1
                    if remaining[i] == 0:
                        return None
                    if remaining[i] == 1:
                        for u in positive[i]:
                            seen = value[u]
                            if not seen:
                                value[u] = 1
                                queue.append(u)
                            if seen >= 0:
                                break
                lost = general_of[2 * v]
            for i in lost:
                left[i] -= 1
                if left[i] == 0:
                    return None
                if left[i] == 1:  # the one literal not false: true already, or made true
                    for x in general[i]:
                        seen = value[x] if x > 0 else -value[-x]
                        if not seen:
                            value[abs(x)] = 1 if x > 0 else -1
                            queue.append(abs(x))
                        if seen >= 0:
                            break
        return value


@lru_cache(maxsize=16)
def _conflicts(
    n: int, houses: tuple[tuple[int, ...], ...], pairs: tuple[tuple[int, int, frozenset], ...]
) -> tuple[frozenset[int], ...]:
    """``conflicts[v]`` of the cells, the houses and the pair rules (the groups, a killer's cages, are
    added per grid): the same for every puzzle of a kind, so made once."""
    conflicts: list[set[int]] = [set() for _ in range(n**3 + 1)]

    def forbid(u: int, v: int) -> None:
        conflicts[u].add(v)
        conflicts[v].add(u)

    for c in range(n * n):
        for x in range(1, n):
            for y in range(x + 1, n + 1):
                forbid(c * n + x, c * n + y)
    for unit in houses:
        for i, a in enumerate(unit):
            for b in unit[i + 1 :]:
                for d in range(1, n + 1):
                    forbid(a * n + d, b * n + d)
    for a, b, forbidden in pairs:
        for x, y in forbidden:
            forbid(a * n + x, b * n + y)
    return tuple(map(frozenset, conflicts))


@lru_cache(maxsize=4)
def _unit_lines(top: int) -> list[str]:
    """``lines[top + x]``: the DIMACS line of the unit clause x, for -top <= x <= top."""
    return [f"{x} 0" for x in range(-top, top + 1)]


def _names(rule: Sum, n: int, first: int, used: int) -> list[int]:
    """The variables of the sum over the cells 0..m-1 (``_shaped``: its digits' m * n, then ``used``
    auxiliary ones) renamed as the sum's own: index 0 unused."""
    m = len(rule.cells)
    names = [0] * (m * n + 1) + list(range(first, first + used))
    for i, c in enumerate(rule.cells):
        names[i * n + 1 : i * n + n + 1] = range(c * n + 1, c * n + n + 1)
    return names


@dataclass(frozen=True)
class _Shape:
    """A sum's clauses over the cells 0..m-1 (``sum_clauses``, auxiliary variables from m * n + 1), ready
    to be renamed as a sum's own (``_Canonical._add_sum``): ``getters[i](signed)`` gives clause i, where
    ``signed[m * n + used + x]`` names the literal x (``units``: the clauses of one literal, which the
    getter gives bare); ``occurs``, for each literal x at index 2x (x > 0) or 1 - 2x, the clauses that
    hold it."""

    clauses: list[tuple[int, ...]]
    used: int
    getters: list[Callable[[list[int]], tuple[int, ...]]]
    units: list[int]
    occurs: list[tuple[int, tuple[int, ...]]]


@lru_cache(maxsize=1024)
def _shaped(weights: tuple[int, ...], total: int, n: int) -> _Shape:
    """The shape of a sum (``_Shape``): made once per weights and total (a killer's cages repeat their
    sizes and totals). Renaming keeps every clause sorted: a clause holds at most one digit's literal,
    and it lies below every auxiliary one both before and after."""
    m = len(weights)
    clauses, used = sum_clauses(Sum("", 0, tuple(range(m)), weights, total), n, m * n + 1)
    shift = m * n + used
    getters = [operator.itemgetter(*(shift + x for x in clause)) for clause in clauses]
    occurs: dict[int, list[int]] = {}
    for i, clause in enumerate(clauses):
        for x in clause:
            occurs.setdefault(2 * x if x > 0 else 1 - 2 * x, []).append(i)
    units = [i for i, clause in enumerate(clauses) if len(clause) == 1]
    return _Shape(clauses, used, getters, units, [(k, tuple(v)) for k, v in sorted(occurs.items())])


def settle(grid: Grid, givens: Sequence[int]) -> tuple[dict[int, bool] | None, set[tuple[int, ...]]]:
    """What the givens (0: an empty cell) settle: the literals unit propagation derives from them
    (``{variable: value}``, None on a conflict) and the certificate's clauses without a blocking clause:
    those literals as unit clauses and the canonical clauses they leave unsatisfied (all of them, and the
    givens, after a conflict)."""
    n = grid.n
    value = grid.canonical.values([c * n + d for c, d in enumerate(givens) if d])
    fixed = None if value is None else {v: x > 0 for v, x in enumerate(value) if x}
    return fixed, set(certificate(grid, givens)[0])


def certificate(
    grid: Grid, givens: Sequence[int], blocking: Sequence[int] | None = None
) -> tuple[list[tuple[int, ...]], list[str]]:
    """The certificate's clauses (each a sorted tuple of literals) for these givens (0: an empty cell)
    and, for a uniqueness claim, the solution ``blocking`` blocks, with their DIMACS lines, in the order
    ``prove`` writes them: the unit clauses by variable, the binary clauses, the positive ones, the
    sums' clauses, the blocking clause. After a conflict: the whole canonical formula and the givens,
    sorted."""
    n = grid.n
    canonical = grid.canonical
    given = [c * n + d for c, d in enumerate(givens) if d]
    value = canonical.values(given)
    if value is None:
        clauses = sorted(canonical.clauses() | {(v,) for v in given})
        lines = [clause_line(clause) for clause in clauses]
    else:
        top, unit_lines = canonical.top, canonical.unit_lines
        clauses, lines = [], []
        satisfied = [False] * len(canonical.positive)
        met = [False] * len(canonical.general)  # the sums' clauses a literal of A satisfies
        positive_of, general_of = canonical.positive_of, canonical.general_of
        for v, x in enumerate(value):
            if x:
                clauses.append((x * v,))
                lines.append(unit_lines[top + x * v] if v <= top else f"{x * v} 0")
                if x > 0:
                    for i in positive_of[v]:
                        satisfied[i] = True
                for i in general_of[2 * v if x > 0 else 2 * v + 1]:
                    met[i] = True
        is_open = [not x for x in value[: canonical.top + 1]]  # (the binary clauses are the digits')
        is_open[0] = False
        for u in itertools.compress(range(len(is_open)), is_open):
            vs, pairs, pair_lines = canonical.pairs_of(u)
            both = list(map(is_open.__getitem__, vs))  # the binary clauses between two open variables
            clauses += itertools.compress(pairs, both)
            lines += itertools.compress(pair_lines, both)
        for clause, line, done in zip(canonical.positive, canonical.positive_lines, satisfied, strict=True):
            if not done:
                clauses.append(clause)
                lines.append(line)
        kept = list(itertools.compress(canonical.general, [not x for x in met]))
        clauses += kept
        lines += [" ".join(map(str, clause)) + " 0" for clause in kept]
    if blocking is not None:
        clauses.append(blocking_clause(n, givens, blocking))
        lines.append(clause_line(clauses[-1]))
    return clauses, lines


def clause_line(clause: Sequence[int]) -> str:
    """A clause as a DIMACS line."""
    return " ".join(map(str, clause)) + " 0"


def blocking_clause(n: int, givens: Sequence[int], solution: Sequence[int]) -> tuple[int, ...]:
    """The clause no grid but ``solution`` satisfies on the cells that are not givens."""
    return tuple(sorted(-(c * n + d) for c, d in enumerate(solution) if not givens[c]))


def formula(grid: Grid, givens: Sequence[int], blocking: Sequence[int] | None = None) -> set[tuple[int, ...]]:
    """The certificate's clauses (each a sorted tuple of literals) for these givens (0: empty cell) and,
    for a uniqueness claim, the solution ``blocking`` blocks (see ``certificate``)."""
    return set(certificate(grid, givens, blocking)[0])


def dimacs_text(variables: int, lines: Sequence[str]) -> str:
    """A DIMACS CNF text of these clause lines, as ``prove`` writes it."""
    return f"p cnf {variables} {len(lines)}\n" + "\n".join(lines) + "\n"


def read_dimacs(text: str, where: str) -> tuple[int, set[tuple[int, ...]]]:
    """The variable count and the clauses (each a sorted tuple) of a DIMACS CNF text, whose header must
    count them right."""
    if text.startswith("c") or "\nc" in text:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("c"))
    header, _, body = text.strip().partition("\n")
    fields = header.split()
    if len(fields) != 4 or fields[:2] != ["p", "cnf"]:
        raise CertificateError(f"{where}: no 'p cnf VARIABLES CLAUSES' header")
    try:
        variables, count = int(fields[2]), int(fields[3])
        tokens = list(map(int, body.split()))
    except ValueError:
        raise CertificateError(f"{where}: a clause that is not integers") from None
    if tokens and tokens[-1] != 0:
        raise CertificateError(f"{where}: the last clause does not end with 0")
    if tokens and max(map(abs, tokens)) > variables:
        raise CertificateError(f"{where}: a literal beyond the header's {variables} variables")
    ends = [i for i, x in enumerate(tokens) if not x]
    if len(ends) != count:
        raise CertificateError(f"{where}: the header counts {count} clauses, the file has {len(ends)}")
    starts = [0, *(i + 1 for i in ends[:-1])]
    return variables, {tuple(sorted(tokens[a:b])) for a, b in zip(starts, ends, strict=True)}


def _compare(found: set[tuple[int, ...]], expected: set[tuple[int, ...]], where: str) -> None:
    extra, missing = found - expected, expected - found
    if extra:
        raise CertificateError(f"{where}: clause {' '.join(map(str, min(extra)))} is not in the formula")
    if missing:
        raise CertificateError(
            f"{where}: clause {' '.join(map(str, min(missing)))} of the formula is missing"
        )


def _solution(grid: Grid, line: object, givens: Sequence[int], what: str, skip: int = -1) -> list[int]:
    n, cells = read_puzzle(line)
    if n != grid.n:
        raise CertificateError(f"{what} is not a {grid.n}x{grid.n} grid")
    why = grid.violation(cells)
    if why:
        raise CertificateError(f"{what} breaks the rules: {why}")
    for c, d in enumerate(givens):
        if d and cells[c] != d and c != skip:
            raise CertificateError(f"{what} does not keep the given {grid.cell(c)}={d}")
    return cells


def _refuted(
    folder: Path,
    claim: dict,
    grid: Grid,
    givens: Sequence[int],
    blocking: Sequence[int] | None,
    refute: Refute = check_refutation,
) -> None:
    """The certificate's formula is the one ``certificate`` gives and its proof refutes it."""
    names = [claim.get("cnf"), claim.get("proof")]
    if not all(isinstance(name, str) and "/" not in name and name not in ("", ".", "..") for name in names):
        raise CertificateError("the claim names no formula and proof file in its folder")
    cnf, proof = (folder / name for name in names)
    clauses, lines = certificate(grid, givens, blocking)
    variables = grid.canonical.variables
    expected = dimacs_text(variables, lines)
    try:
        text = read_text(cnf, FORMULA_SLACK * len(expected) + SLACK_BYTES)
        steps = read_text(proof, proof_limit(variables))
    except OSError as exc:
        raise CertificateError(str(exc)) from None
    if text != expected or len(set(clauses)) != len(clauses):
        # not the text prove writes (another writer's order or spacing, or a change): read it and compare
        # the clauses as sets
        _, found = read_dimacs(text, cnf.name)
        _compare(found, set(clauses), cnf.name)
        clauses = list(found)
    try:
        verdict = refute(clauses, steps)
    except ProofError as exc:
        raise CertificateError(f"{proof.name}: {exc}") from None
    if not verdict.ok:
        raise CertificateError(f"{proof.name}: {verdict.reason}")


def _shown(
    folder: Path,
    claim: dict,
    grid: Grid,
    givens: Sequence[int],
    solution: Sequence[int] | None = None,
    refute: Refute = check_refutation,
) -> None:
    """The puzzle has no solution (``solution`` None) or none but ``solution``: shown by the claim's
    formula and proof, or, when it names neither, by unit propagation from the givens alone (to a
    conflict, or to ``solution`` in every cell, which the blocking clause then contradicts)."""
    if "cnf" in claim or "proof" in claim:
        _refuted(folder, claim, grid, givens, solution, refute)
        return
    n = grid.n
    settled = grid.canonical.values([c * n + d for c, d in enumerate(givens) if d])
    if solution is None:
        if settled is not None:
            raise CertificateError("no formula nor proof, and propagation from the givens finds no clash")
    elif settled is None or any(settled[c * n + d] <= 0 for c, d in enumerate(solution)):
        raise CertificateError("no formula nor proof, and propagation from the givens leaves cells open")


def check_claim(claim: dict, folder: Path, refute: Refute = check_refutation) -> str:
    """What a claim of ``claims.jsonl`` shows once checked (``unique``, ``none``, ``multiple``, with
    ``, minimal`` or ``, not minimal``); a ``CertificateError`` saying why when it does not hold. Proofs
    are checked by ``refute``."""
    n, givens = read_puzzle(claim.get("puzzle"))
    grid = grid_of(n, claim.get("rules"))
    kind = claim.get("claim")
    if kind == "multiple":
        found = claim.get("solutions")
        if not (isinstance(found, list) and len(found) == 2):
            raise CertificateError("a multiple claim needs two solutions")
        first, second = (_solution(grid, s, givens, f"solution {i}") for i, s in enumerate(found, 1))
        if first == second:
            raise CertificateError("the two solutions are the same grid")
        return "multiple"
    if kind == "none":
        _shown(folder, claim, grid, givens, None, refute)
        return "none"
    if kind != "unique":
        raise CertificateError(f"unknown claim {kind!r} (unique, none or multiple)")
    solution = _solution(grid, claim.get("solution"), givens, "the solution")
    _shown(folder, claim, grid, givens, solution, refute)
    if "minimal" not in claim:
        return "unique"
    return "unique, " + _check_minimal(claim, grid, givens, solution, folder, refute)


def _check_minimal(
    claim: dict, grid: Grid, givens: list[int], solution: list[int], folder: Path, refute: Refute
) -> str:
    """Each given has a witness: two solutions without it, or a proof the puzzle stays unique."""
    entries = claim["minimal"]
    if not isinstance(entries, list):
        raise CertificateError("minimal: not a list of one entry per given")
    names = {grid.cell(c): c for c, d in enumerate(givens) if d}
    seen = set()
    redundant = []
    for entry in entries:
        cell = names.get(entry.get("given")) if isinstance(entry, dict) else None
        if cell is None or cell in seen:
            raise CertificateError(f"minimal: {entry!r} names no given, or one twice")
        seen.add(cell)
        without = list(givens)
        without[cell] = 0
        if "solutions" in entry:
            pair = entry["solutions"]
            if not (isinstance(pair, list) and len(pair) == 2):
                raise CertificateError(f"minimal: {grid.cell(cell)} needs two solutions")
            a, b = (_solution(grid, s, without, f"a solution without {grid.cell(cell)}") for s in pair)
            if a == b:
                raise CertificateError(f"minimal: the two solutions without {grid.cell(cell)} are the same")
        else:
            _shown(folder, entry, grid, without, solution, refute)
            redundant.append(grid.cell(cell))
    if seen != set(names.values()):
        missing = len(names) - len(seen)
        have = "given has" if missing == 1 else "givens have"
        raise CertificateError(f"minimal: {missing} {have} no entry")
    return f"not minimal ({', '.join(redundant)} redundant)" if redundant else "minimal"


def _check_line(
    folder: Path, number: int, line: str, refute: Refute = check_refutation
) -> tuple[int | None, str, bool]:
    """``(index, message, ok)`` for the claim on line ``number`` of ``claims.jsonl``."""
    index: int | None = None
    try:
        with collection_paused():
            claim = json.loads(line)
            if not isinstance(claim, dict):
                raise CertificateError("not a JSON object")
            index = claim.get("index") if isinstance(claim.get("index"), int) else None
            return index, f"{index} verified {check_claim(claim, folder, refute)}", True
    except (CertificateError, ValueError, RecursionError) as exc:
        label = index if index is not None else f"line {number}"
        return index, f"{label} FAILED: {exc}", False


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cycle collection inside: checking (or proving) a claim makes many small lists and drops
    them all, and the collector's passes over them found nothing but took a quarter of the time."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def check_dir(
    folder: str | Path, jobs: int = 1, refute: Refute = check_refutation
) -> Iterator[tuple[int | None, str, bool]]:
    """``(index, message, ok)`` for each claim of ``folder/claims.jsonl``, in order; ``jobs`` worker
    processes share the claims out; ``refute`` checks the proofs. ``UnreadableFolder`` when that file
    cannot be read."""
    folder = Path(folder)
    try:
        text = read_text(folder / "claims.jsonl")
    except OSError as exc:
        raise UnreadableFolder(str(exc)) from None
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        yield None, f"{folder / 'claims.jsonl'} holds no claim", False
        return
    if jobs <= 1 or len(lines) < 2:
        for number, line in lines:
            yield _check_line(folder, number, line, refute)
        return
    import multiprocessing

    chunk = max(1, min(64, len(lines) // (4 * jobs)))
    with multiprocessing.Pool(jobs, initializer=_worker_signals) as pool:  # ended (terminate) on any stop
        work = [(folder, number, line, refute) for number, line in lines]
        yield from pool.imap(_check_star, work, chunk)


#: The most a formula file may take: this many times the text ``prove`` writes for the claim, plus
#: ``SLACK_BYTES`` (another writer's spacing and comments); a proof: this many bytes per variable of the
#: formula (n**3 and the sums' auxiliaries), 729 MiB on 9x9. Most are far smaller (the longest of 300
#: forum_hardest_11plus proofs: 1,617 lines, 27 KB), but a puzzle without solution under renban lines
#: takes 15 MB; ``prove`` refuses a claim whose proof is larger than this. The bounds keep a file that
#: never ends from being read whole.
FORMULA_SLACK, SLACK_BYTES, PROOF_BYTES_PER_VARIABLE = 4, 1 << 16, 1 << 20


def proof_limit(variables: int) -> int:
    """The most bytes a proof of a formula of ``variables`` variables may take."""
    return PROOF_BYTES_PER_VARIABLE * variables


#: The bytes ``read_text`` reads at a time.
READ_PIECE = 1 << 22


def read_text(path: Path, limit: int | None = None) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes; an ``OSError`` saying ``cannot read
    PATH: why`` (not a regular file, too large, not text included).

    A link is followed, but only to a regular file: a device (``/dev/zero``), a FIFO or a folder is
    refused before any byte is read, since it may never end or never answer. The file is read in pieces
    up to the limit: a buffer of the limit's size would be asked of memory at once (a bound of 1 MiB a
    variable is 50 GB for a formula of 50,000 variables).
    """
    too_large = f"cannot read {path}: larger than {limit or 0:,} bytes, the most this claim's file may take"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens without a writer
    except OSError as exc:
        raise OSError(f"cannot read {path}: {exc.strerror or exc}") from None
    pieces: list[bytes] = []
    try:
        status = os.fstat(fd)
        regular = stat.S_ISREG(status.st_mode)
        if regular and limit is not None and status.st_size > limit:
            raise OSError(too_large)
        if regular:
            with open(fd, "rb", closefd=False) as f:
                read = 0
                while piece := f.read(READ_PIECE):
                    read += len(piece)
                    if limit is not None and read > limit:  # it grew since: still refused
                        raise OSError(too_large)
                    pieces.append(piece)
    except OSError as exc:
        if str(exc) == too_large:
            raise
        raise OSError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if not regular:
        raise OSError(f"cannot read {path}: not a regular file")
    data = b"".join(pieces)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise OSError(f"cannot read {path}: not UTF-8 text") from None


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the main process, which ends it, and ends quietly at SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _check_star(args: tuple[Path, int, str, Refute]) -> tuple[int | None, str, bool]:
    return _check_line(*args)


def main(argv: Sequence[str] | None = None) -> int:
    """Check the folders named on the command line; 0 when every claim holds, 1 when one fails, 2 when a
    folder's claims cannot be read."""
    folders = list(sys.argv[1:] if argv is None else argv)
    if not folders or folders[0].startswith("-"):
        print("usage: python -m sudoku_cp.certify.checker DIR...", file=sys.stderr)
        return 2
    ok, unreadable = True, False
    for folder in folders:
        try:
            for _, message, holds in check_dir(folder):
                print(message, flush=True)
                ok = ok and holds
        except UnreadableFolder as exc:
            print(exc, file=sys.stderr)
            unreadable = True
    return 2 if unreadable else 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
