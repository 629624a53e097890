"""Automata over a line of cells: the regular constraint, the one primitive the lines and outside clues
share (a sandwich, an X-sum, a skyscraper, an entropic or a between line, a quadruple, a parity mark).

A kind states its rule as a deterministic automaton that reads the digits of its cells in order (a
start state, a step ``(position, state, digit) -> state or None`` and the states that accept), and
``Automaton.unroll`` turns it into a layered graph: layer i holds the states reachable after i digits that
can still reach acceptance, and an edge ``(u, d, v)`` of layer i reads digit d in cell i. The paths from
the single node of layer 0 to the single (merged, accepting) node of the last layer are exactly the
digits that keep the rule, so removing every digit on no path is generalised arc consistency (Pesant, *A
regular language membership constraint for finite sequences of variables*, CP 2004). Every backend reads
this graph: the dfs engines run its forward and backward passes, the CNF is its nodes and edges as
clauses (``encode.rules_cnf.automaton_clauses``, the encoding the sums use), and CP-SAT takes it as
``add_automaton``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["DISTINCT_EDGES", "MAX_EDGES", "Automaton"]

#: The largest graph a rule may unroll to (its edges): a sandwich of 9x9 has about 800, an X-sum 1,500, a
#: between line of 9 cells 20,000; beyond it the rule is refused by name rather than reasoned on slowly.
MAX_EDGES = 400_000

#: The largest graph ``Automaton.distinct`` builds (its edges): a sandwich of 9x9 with its row's distinct
#: digits has about 3,000, a skyscraper 2,500; the rule alone is kept where the pair would be larger
#: (every clue of 16x16 or more: the digits used so far are 2^16 states).
DISTINCT_EDGES = 20_000

#: One layer's edges: (node, digit, next node), the nodes numbered within their layer.
Edges = tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Automaton:
    """The layered graph of a rule over ``cells`` (see the module's note); ``source`` names the rule.

    ``kernel`` names a propagator of the compiled dfs that reasons on this rule directly, with its
    parameters (``("sandwich", total)``): where the dfs knows it, it runs that instead of the graph (a
    few set operations per clue against thousands of edges); every other backend reads the graph.
    """

    cells: tuple[int, ...]
    edges: tuple[Edges, ...]
    source: str = ""
    kernel: tuple[str | int, ...] = ()

    @classmethod
    def unroll(
        cls,
        cells: Sequence[int],
        n: int,
        start: Hashable,
        step: Callable[[int, Hashable, int], Hashable | None],
        accept: Callable[[Hashable], bool],
        source: str = "",
        limit: int = MAX_EDGES,
    ) -> Automaton:
        """The graph of the automaton that starts in ``start``, reads digit d of cell i by ``step(i,
        state, d)`` (None: the digit breaks the rule) and accepts the states ``accept`` holds true of.
        ``ValueError`` naming ``source`` when the graph exceeds ``limit`` edges."""
        m = len(cells)
        layers: list[dict[Hashable, int]] = [{start: 0}]
        arcs: list[list[tuple[Hashable, int, Hashable]]] = []
        size = 0
        for i in range(m):
            nxt: dict[Hashable, int] = {}
            here = []
            for state in layers[i]:
                for d in range(1, n + 1):
                    target = step(i, state, d)
                    if target is None:
                        continue
                    nxt.setdefault(target, len(nxt))
                    here.append((state, d, target))
                if size + len(here) > limit:
                    raise ValueError(
                        f"the {source or 'rule'} is too large to reason on (over {limit:,} edges)"
                    )
            size += len(here)
            layers.append(nxt)
            arcs.append(here)
        alive: set[Hashable] = {s for s in layers[m] if accept(s)}
        kept_arcs: list[list[tuple[Hashable, int, Hashable]]] = [[] for _ in range(m)]
        for i in range(m - 1, -1, -1):
            kept_arcs[i] = [(u, d, v) for u, d, v in arcs[i] if v in alive]
            alive = {u for u, _, _ in kept_arcs[i]}
        edges: list[Edges] = []
        number: dict[Hashable, int] = {start: 0} if start in alive else {}
        for i in range(m):
            ahead: dict[Hashable, int] = {}
            layer = []
            for u, d, v in kept_arcs[i]:
                if u in number:
                    target = 0 if i == m - 1 else ahead.setdefault(v, len(ahead))
                    layer.append((number[u], d, target))
            edges.append(tuple(layer))
            number = ahead
        return cls(tuple(cells), tuple(edges), source)

    def distinct(self, n: int) -> Automaton | None:
        """This rule and "no digit twice" as one graph, for cells that all see each other (a sandwich's
        or a skyscraper's row): the state is the rule's node and the digits read so far, so removing the
        digits on no path is arc consistency on the rule and the row's all-different together, which the
        two apart do not reach (a sandwich's digits between the ends are distinct, the tallest skyscraper
        of a full row is n). The same solutions; None where the graph would exceed ``DISTINCT_EDGES``."""
        edges = _distinct_edges(self.edges, n)
        return None if edges is None else Automaton(self.cells, edges, self.source, self.kernel)

    @property
    def empty(self) -> bool:
        """True when no digits keep the rule (an impossible clue): the puzzle has no solution."""
        return not self.cells or not self.edges[0]

    def nodes(self, i: int) -> int:
        """How many nodes layer ``i`` has (0 to len(cells); the first and the last have one)."""
        if i == 0 or i == len(self.cells):
            return 1
        return 1 + max((v for _, _, v in self.edges[i - 1]), default=-1)

    def holds(self, digits: Sequence[int]) -> bool:
        """True when the complete ``digits`` of ``cells`` keep the rule."""
        return self.narrow([1 << (d - 1) for d in digits]) is not None

    def narrow(self, masks: Sequence[int]) -> list[int] | None:
        """The candidates (bit d - 1 for digit d) each cell keeps: those on a path of the graph given
        ``masks``; None when no path is left."""
        m = len(self.cells)
        if not m or not self.edges[0]:
            return None
        reach: list[set[int]] = [{0}]
        for i in range(m):
            mask = masks[i]
            reach.append({v for u, d, v in self.edges[i] if u in reach[i] and mask >> (d - 1) & 1})
        if 0 not in reach[m]:
            return None
        keep = [0] * m
        alive = {0}
        for i in range(m - 1, -1, -1):
            mask, kept, before = masks[i], 0, set()
            for u, d, v in self.edges[i]:
                if v in alive and u in reach[i] and mask >> (d - 1) & 1:
                    kept |= 1 << (d - 1)
                    before.add(u)
            keep[i] = kept
            alive = before
        return keep


@lru_cache(maxsize=256)
def _distinct_edges(edges: tuple[Edges, ...], n: int) -> tuple[Edges, ...] | None:
    """The edges of ``Automaton.distinct`` (the cells do not matter, so clues alike share one graph)."""
    out = [{(u, d): v for u, d, v in layer} for layer in edges]

    def step(i: int, state: Hashable, d: int) -> Hashable | None:
        node, used = state  # type: ignore[misc]
        v = out[i].get((node, d))
        return None if v is None or used >> d & 1 else (v, used | 1 << d)

    try:
        graph = Automaton.unroll(range(len(edges)), n, (0, 0), step, lambda s: True, limit=DISTINCT_EDGES)
    except ValueError:
        return None
    return graph.edges
