"""Sudoku Explainer's chains: cycles, forcing chains, Nishio, multiple and dynamic chains, nested levels.

A potential is a candidate assumed true ("on") or false ("off"); two rules link them: an "on" candidate
turns off the cell's other candidates (the cell rule) and the digit's other places in its block, row and
column (the region rule); an "off" candidate turns on the cell's last candidate or the digit's last place
in a region. SE's producers differ in what they start from and what they conclude:

- ``Chaining(False, False, False, 0)``: X-cycles, Y-cycles and forcing chains on the grid as it is (6.5+);
- Nishio (7.5+): one digit's links only, a candidate whose assumption meets a contradiction goes;
- multiple chains (8.0+): every candidate of a cell, or every place of a digit in a region, forces the
  same conclusion;
- dynamic chains (8.5+): as multiple, but every "off" reached is struck from the grid as the propagation
  goes, so later links see the reduced grid (and count the strikes they rest on);
- levels 1 to 5 (9.0+): dynamic chains that also run, each time the propagation stalls, pointing, claiming,
  pairs and X-wings (level 1), then whole chain producers (levels 2 to 5), on the reduced grid.

A hint's difficulty is its producer's base plus a length bonus on its "complexity", the number of distinct
potentials its conclusion rests on (nested chains adding theirs). Within a producer hints are sorted by
difficulty, complexity and kind, and the first is SE's step. The facts (orders, scheduling, arithmetic)
follow Sudoku Explainer 1.2.1 (N. Juillerat), ``Chaining.java`` and its hint classes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from .grid import BLOCK, COLUMN, ROW, Grid, bits
from .hints import Hint

__all__ = ["ChainHint", "Chaining", "length_difficulty"]

#: Causes of a potential (why it follows from its parents): the cell rule, a region rule (its type), or an
#: inner technique (levels 1 and up). The initial assumption has none.
CELL, ADVANCED = 10, 11
REGION_TYPES = (BLOCK, ROW, COLUMN)


class Potential:
    """A candidate assumed on or off, with the potentials it follows from (``parents``, first the one that
    led to it) and why (``cause``); ``nested`` is the inner chain hint behind an ADVANCED potential."""

    __slots__ = ("cause", "cell", "digit", "key", "nested", "on", "parents")

    def __init__(
        self,
        cell: int,
        digit: int,
        on: bool,
        parents: list[Potential] | None = None,
        cause: int | None = None,
        nested: ChainHint | None = None,
    ) -> None:
        self.cell, self.digit, self.on = cell, digit, on
        self.key = key(cell, digit, on)
        self.parents = parents if parents is not None else []
        self.cause, self.nested = cause, nested

    def __repr__(self) -> str:
        return f"{self.cell}:{self.digit}{'+' if self.on else '-'}"


def key(cell: int, digit: int, on: bool) -> int:
    """The identity of a potential: its cell, digit and state (SE's ``equals``)."""
    return cell << 6 | digit << 1 | on


def length_difficulty(complexity: int) -> float:
    """SE's length bonus: 0.1 for each ceiling of 4, 6, 8, 12, 16, 24, ... that ``complexity - 2`` passes,
    added up as SE adds it (repeated double additions)."""
    added, ceil, length, odd = 0.0, 4, complexity - 2, False
    while length > ceil:
        added += 0.1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added


def chain_of(target: Potential) -> list[Potential]:
    """The potentials ``target`` rests on, itself included, breadth first, each key once (SE's
    ``getChain``): their count is the target's ancestor count."""
    out: list[Potential] = []
    done: set[int] = set()
    todo = [target]
    while todo:
        nxt: list[Potential] = []
        for p in todo:
            if p.key not in done:
                done.add(p.key)
                out.append(p)
                nxt.extend(p.parents)
        todo = nxt
    return out


def ancestors(target: Potential) -> int:
    return len(chain_of(target))


@dataclass(eq=False)
class ChainHint(Hint):
    """A chain's hint: its ``targets`` (the potentials whose chains prove it), its kind's ``sort_key``,
    the producer's ``base`` difficulty and ``flat`` complexity (the targets' ancestor counts)."""

    targets: tuple[Potential, ...] = ()
    sort_key: int = 0
    base: float = 0.0
    flat: int = 0
    initial_cause: int | None = None  # what the ruleParents of the initial assumption read (cell, region)
    detail: str = ""  # where: the cell or region a cell or region chain starts from
    _complexity: int = field(default=-1, repr=False)

    @property
    def complexity(self) -> int:
        if self._complexity < 0:
            self._complexity = self.flat + self._nested_complexity()
        return self._complexity

    def _nested_complexity(self) -> int:
        total, seen = 0, set()
        for target in self.targets:
            for p in chain_of(target):
                if p.nested is not None:
                    ident = p.nested.identity()
                    if ident not in seen:
                        seen.add(ident)
                        total += p.nested.complexity
        return total

    def identity(self) -> tuple[tuple[int, ...], ...]:
        """Two chains are the same (SE's ``FullChain``) when their targets' chains hold the same keys."""
        return tuple(tuple(p.key for p in chain_of(t)) for t in self.targets)

    def finish(self) -> ChainHint:
        self.difficulty = self.base + length_difficulty(self.complexity)
        return self

    def parents(self, source: Grid, grid: Grid) -> list[tuple[int, int]]:
        """The candidates removed since ``source`` that the chains rest on: for each "on" link by the cell
        rule, the cell's removed candidates; by a region rule, the digit's removed places there."""
        geo = grid.geo
        out: dict[tuple[int, int], None] = {}
        for target in self.targets:
            done: set[int] = set()
            todo = [target]
            while todo:
                nxt: list[Potential] = []
                for p in todo:
                    if p.key in done:
                        continue
                    done.add(p.key)
                    cause = p.cause
                    if cause is None:
                        cause = self.initial_cause
                    if p.on and cause is not None:
                        if cause == CELL:
                            for d in bits(source.cands[p.cell] & ~grid.cands[p.cell]):
                                out.setdefault((p.cell, d))
                        else:
                            bit = 1 << (p.digit - 1)
                            for c in geo.region(cause, p.cell):
                                if source.cands[c] & bit and not grid.cands[c] & bit:
                                    out.setdefault((c, p.digit))
                    nxt.extend(p.parents)
                todo = nxt
        return list(out)


def _nested_suffix(level: int) -> str:
    """SE's ``getNestedSuffix``: what a nesting level adds to a chain's name."""
    if level >= 5:
        return f" (+ Dynamic Forcing Chains{_nested_suffix(level - 3)})"
    names = {
        1: " (+)",
        2: " (+ Forcing Chains)",
        3: " (+ Multiple Forcing Chains)",
        4: " (+ Dynamic Forcing Chains)",
    }
    return names.get(level, "")


class Chaining:
    """One of SE's chaining producers: ``multiple`` (cell and region chains), ``dynamic`` (strikes as it
    goes), ``nishio`` (one digit's links, contradictions only), ``level`` (inner techniques)."""

    def __init__(self, multiple: bool, dynamic: bool, nishio: bool, level: int) -> None:
        self.multiple, self.dynamic, self.nishio, self.level = multiple, dynamic, nishio, level
        #: How SE names this producer's hints: ``Dynamic `` + ``Cell Forcing`` + `` Chains (+)``.
        self.prefix = "Dynamic " if level > 0 or (dynamic and not nishio) else "Nishio " if nishio else ""
        self.suffix = " Chains" + _nested_suffix(level)
        if level >= 2:
            self.base = 9.5 + 0.5 * (level - 2)
        elif level > 0:
            self.base = 8.5 + 0.5 * level
        elif nishio:
            self.base = 7.5
        elif dynamic:
            self.base = 8.5
        else:
            self.base = 8.0  # multiple; the unary producer's hints price themselves
        self._inner: list[Callable[[Grid], Iterable[Hint]]] | None = None
        self._last: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._last_hints: list[ChainHint] = []
        #: Per digit, the cells holding it (bit sets) on the grid being searched, struck with the grid.
        self._dc: list[int] = []
        #: The "on" branches of one call (``_on_branch``).
        self._branches: dict[int, tuple[Potential, dict[int, Potential], dict[int, Potential], Any]] = {}

    def __repr__(self) -> str:
        return f"Chaining({self.multiple}, {self.dynamic}, {self.nishio}, {self.level})"

    def __call__(self, grid: Grid) -> Iterator[ChainHint]:
        state = (tuple(grid.values), tuple(grid.cands))
        if state != self._last:
            self._dc = grid.digit_cells()
            self._branches = {}
            found = self._multiple_hints(grid) if self.multiple or self.dynamic else self._unary_hints(grid)
            for hint in found:
                hint.finish()
            found.sort(key=lambda h: (h.difficulty, h.complexity, h.sort_key))
            seen: set[tuple[tuple[int, int], ...]] = set()
            kept = []
            for hint in found:
                ident = tuple(sorted(hint.removable.items()))
                if ident not in seen:
                    seen.add(ident)
                    kept.append(hint)
            self._last, self._last_hints = state, kept
        return iter(self._last_hints)

    # -- the two elementary rules --------------------------------------------------------------------

    def _on_targets(self, grid: Grid, p: Potential, cell_rule: bool) -> list[tuple[int, int, int, int]]:
        """What an "on" potential turns off, as ``(key, cell, digit, cause)`` in SE's order: the cell's
        other candidates (``cell_rule``), then the digit's other places in its block, row and column (each
        cell once)."""
        out = []
        cell, digit = p.cell, p.digit
        if cell_rule:
            mask = grid.cands[cell] & ~(1 << (digit - 1))
            while mask:
                low = mask & -mask
                d = low.bit_length()
                out.append((cell << 6 | d << 1, cell, d, CELL))
                mask ^= low
        places = self._dc[digit - 1] & ~(1 << cell)
        for t, region in enumerate(grid.geo.cell_regions[cell]):
            found = region & places
            places &= ~found
            while found:
                low = found & -found
                c = low.bit_length() - 1
                out.append((c << 6 | digit << 1, c, digit, t))
                found ^= low
        return out

    def _off_targets(
        self, grid: Grid, p: Potential, cell_rule: bool, region_rule: bool
    ) -> list[tuple[int, int, int, int]]:
        """What an "off" potential turns on, as ``(key, cell, digit, cause)``: the cell's last other
        candidate, the digit's last other place in each region (each cell once)."""
        out = []
        cell, digit = p.cell, p.digit
        if cell_rule:
            mask = grid.cands[cell]
            if mask.bit_count() == 2:
                d = (mask & ~(1 << (digit - 1))).bit_length()
                out.append((cell << 6 | d << 1 | 1, cell, d, CELL))
        if region_rule:
            here = self._dc[digit - 1]
            me = 1 << cell
            seen = 0
            for t, region in enumerate(grid.geo.cell_regions[cell]):
                places = region & here
                if places.bit_count() == 2:
                    other = places & ~me
                    if not other & seen:
                        seen |= other
                        c = other.bit_length() - 1
                        out.append((c << 6 | digit << 1 | 1, c, digit, t))
        return out

    def _made_on(
        self,
        grid: Grid,
        p: Potential,
        target: tuple[int, int, int, int],
        source: tuple[list[int], list[int]] | None,
        offs: dict[int, Potential],
    ) -> Potential:
        """The "on" potential ``target`` forced by ``p``, with the candidates struck since ``source``
        (dynamic chains: candidates and digit cells) that it also rests on as hidden parents."""
        _, cell, digit, cause = target
        q = Potential(cell, digit, True, [p], cause)
        if source is not None:
            if cause == CELL:
                gone = source[0][cell] & ~grid.cands[cell]
                while gone:
                    low = gone & -gone
                    q.parents.append(offs[cell << 6 | low.bit_length() << 1])
                    gone ^= low
            else:
                gone = source[1][digit - 1] & ~self._dc[digit - 1] & grid.geo.cell_regions[cell][cause]
                while gone:
                    low = gone & -gone
                    q.parents.append(offs[(low.bit_length() - 1) << 6 | digit << 1])
                    gone ^= low
        return q

    # -- producer 21: cycles and forcing chains on the grid as it is --------------------------------

    def _unary_hints(self, grid: Grid) -> list[ChainHint]:
        result: list[ChainHint] = []
        for y_links, x_links in ((False, True), (True, False), (True, True)):
            for cell in range(grid.geo.ncells):
                mask = grid.cands[cell]
                if grid.values[cell] or mask.bit_count() < 2:
                    continue
                for d in bits(mask):
                    self._unary(grid, Potential(cell, d, True), y_links, x_links, result)
        return result

    def _unary(
        self, grid: Grid, start: Potential, y_links: bool, x_links: bool, out: list[ChainHint]
    ) -> None:
        if grid.cands[start.cell].bit_count() > 2 and not x_links:
            return  # Y-cycles start on bivalue cells only
        cycles: list[Potential] = []
        chains: dict[int, Potential] = {}
        self._cycles(grid, start, y_links, x_links, cycles)
        if x_links:
            self._forcing(grid, start, y_links, chains)
            self._forcing(grid, Potential(start.cell, start.digit, False), y_links, chains)
        for end in cycles:
            hint = self._cycle_hint(grid, end, y_links, x_links)
            if hint.removable:
                out.append(hint)
        for target in chains.values():
            out.append(self._forcing_hint(grid, target, y_links, x_links))

    @staticmethod
    def _descends(child: Potential, k: int) -> bool:
        """Whether a potential of key ``k`` lies on ``child``'s first-parent line (``child`` excluded)."""
        p = child
        while p.parents:
            p = p.parents[0]
            if p.key == k:
                return True
        return False

    def _cycles(
        self, grid: Grid, start: Potential, y_links: bool, x_links: bool, cycles: list[Potential]
    ) -> None:
        """SE's ``doCycles``: a breadth-first search from ``start`` by half-steps; each time an "off" leads
        back to ``start`` after four half-steps or more, the path is a cycle (the "off"s are not
        deduplicated, as in SE)."""
        on_set: set[int] = {start.key}
        pend_on: deque[Potential] = deque([start])
        pend_off: deque[Potential] = deque()
        length = 0
        descends = self._descends
        while pend_on or pend_off:
            length += 1
            while pend_on:
                p = pend_on.popleft()
                for k, c, d, cause in self._on_targets(grid, p, y_links):
                    if not descends(p, k):
                        pend_off.append(Potential(c, d, False, [p], cause))
            length += 1
            while pend_off:
                p = pend_off.popleft()
                for k, c, d, cause in self._off_targets(grid, p, y_links, x_links):
                    if length >= 4 and k == start.key:
                        cycles.append(Potential(c, d, True, [p], cause))
                    if k not in on_set:
                        pend_on.append(Potential(c, d, True, [p], cause))
                        on_set.add(k)

    def _forcing(self, grid: Grid, start: Potential, y_links: bool, chains: dict[int, Potential]) -> None:
        """SE's ``doForcingChains`` from ``start`` (on or off): the first path to its conjugate, if any
        (the only target such a search can have, so the search stops there)."""
        on_set: set[int] = set()
        off_set: set[int] = set()
        pend_on: deque[Potential] = deque()
        pend_off: deque[Potential] = deque()
        (pend_on if start.on else pend_off).append(start)
        (on_set if start.on else off_set).add(start.key)
        conjugate = start.key ^ 1
        descends = self._descends
        while pend_on or pend_off:
            while pend_on:
                p = pend_on.popleft()
                for k, c, d, cause in self._on_targets(grid, p, y_links):
                    if k == conjugate and k not in chains:
                        chains[k] = Potential(c, d, False, [p], cause)
                        return
                    if k not in off_set and not descends(p, k):
                        pend_off.append(Potential(c, d, False, [p], cause))
                        off_set.add(k)
            while pend_off:
                p = pend_off.popleft()
                for k, c, d, cause in self._off_targets(grid, p, y_links, True):
                    if k == conjugate and k not in chains:
                        chains[k] = Potential(c, d, True, [p], cause)
                        return
                    if k not in on_set:
                        pend_on.append(Potential(c, d, True, [p], cause))
                        on_set.add(k)

    def _cycle_hint(self, grid: Grid, end: Potential, y_links: bool, x_links: bool) -> ChainHint:
        geo = grid.geo
        walked = []
        p = end
        while p.parents:
            walked.append(p)
            p = p.parents[0]
        cells = {q.cell for q in walked}
        forward: dict[int, tuple[int, int]] = {}
        backward: set[int] = set()
        for q in walked:
            bit = 1 << (q.digit - 1)
            for c in geo.house_cells[q.cell]:
                if c not in cells and grid.cands[c] & bit:
                    k = key(c, q.digit, False)
                    if q.on:
                        forward.setdefault(k, (c, q.digit))
                    else:
                        backward.add(k)
        removable: dict[int, int] = {}
        for k, (c, d) in forward.items():
            if k in backward:
                removable[c] = removable.get(c, 0) | 1 << (d - 1)
        both = y_links and x_links
        name = (
            "Bidirectional Cycle" if both else "Bidirectional Y-Cycle" if y_links else "Bidirectional X-Cycle"
        )
        return ChainHint(
            name, 0.0, removable, targets=(end, _reversed(end)), sort_key=4 if both else 3 if y_links else 2,
            base=7.0 if both else 6.5, flat=ancestors(end),
        )  # fmt: skip

    def _forcing_hint(self, grid: Grid, target: Potential, y_links: bool, x_links: bool) -> ChainHint:
        both = y_links and x_links
        if target.on:
            removable = {target.cell: grid.cands[target.cell] & ~(1 << (target.digit - 1))}
            cell, value = target.cell, target.digit
        else:
            removable, cell, value = {target.cell: 1 << (target.digit - 1)}, None, 0
        flat = ancestors(target)
        if both:
            name = "Forcing Chain"
        elif y_links:
            name = "Forcing Y-Chain"
        else:  # SE's name for an X-chain of six candidates
            name = "Turbot Fish" if flat == 6 else "Forcing X-Chain"
        return ChainHint(
            name, 0.0, removable, cell, value, targets=(target,), sort_key=4 if both else 3 if y_links else 2,
            base=7.0 if both else 6.6, flat=flat,
        )  # fmt: skip

    # -- producers 23 to 30: full propagation ---------------------------------------------------------

    def _propagate(
        self, grid: Grid, on_set: dict[int, Potential], off_set: dict[int, Potential]
    ) -> tuple[Potential, Potential] | None:
        """Everything the assumptions in ``on_set`` and ``off_set`` force, added to them; the first
        contradiction met, as the (on, off) potentials of one candidate, or None. The grid is given back
        as it was (dynamic chains strike candidates as they go)."""
        cands, dc = grid.cands, self._dc
        source, source_dc = cands[:], dc[:]
        hidden = (source, source_dc) if self.dynamic else None
        cell_rule = not self.nishio
        pend_on: deque[Potential] = deque(on_set.values())
        pend_off: deque[Potential] = deque(off_set.values())
        try:
            while pend_on or pend_off:
                if pend_on:
                    p = pend_on.popleft()
                    for k, c, d, cause in self._on_targets(grid, p, cell_rule):
                        other = on_set.get(k | 1)
                        if other is not None:
                            return other, Potential(c, d, False, [p], cause)
                        if k not in off_set:
                            q = off_set[k] = Potential(c, d, False, [p], cause)
                            pend_off.append(q)
                else:
                    p = pend_off.popleft()
                    # what p forces is read before p is struck (its hidden parents too), objects only for
                    # the potentials that are new or contradict
                    made = [
                        self._made_on(grid, p, t, hidden, off_set)
                        for t in self._off_targets(grid, p, cell_rule, True)
                        if t[0] ^ 1 in off_set or t[0] not in on_set
                    ]
                    if self.dynamic:
                        cands[p.cell] &= ~(1 << (p.digit - 1))
                        dc[p.digit - 1] &= ~(1 << p.cell)
                    for q in made:
                        other = off_set.get(q.key ^ 1)
                        if other is not None:
                            return q, other
                        if q.key not in on_set:
                            on_set[q.key] = q
                            pend_on.append(q)
                if not pend_on and not pend_off and self.level > 0:
                    for q in self._advanced(grid, source, off_set):
                        if q.key not in off_set:
                            off_set[q.key] = q
                            pend_off.append(q)
            return None
        finally:
            cands[:] = source
            dc[:] = source_dc

    def _inner_rules(self) -> list[Callable[[Grid], Iterable[Hint]]]:
        if self._inner is None:
            from . import subsets

            rules: list[Callable[[Grid], Iterable[Hint]]] = [
                subsets.locking, subsets.hidden_set(2), subsets.naked_set(2), subsets.fish(2)
            ]  # fmt: skip
            if self.level < 4:
                if self.level >= 2:
                    rules.append(Chaining(False, False, False, 0))
                if self.level >= 3:
                    rules.append(Chaining(True, False, False, 0))
            else:
                rules.append(Chaining(True, True, False, 0))
                if self.level >= 5:
                    rules.append(Chaining(True, True, False, self.level - 3))
            self._inner = rules
        return self._inner

    def _advanced(self, grid: Grid, source: list[int], off_set: dict[int, Potential]) -> list[Potential]:
        """The strikes the first inner technique that finds something makes on the reduced grid, each
        resting on the strikes of the propagation it needs."""
        out: list[Potential] = []
        before = Grid(grid.geo, grid.values, source)
        for rule in self._inner_rules():
            for hint in rule(grid):
                parents = hint.parents(before, grid)
                if not parents:
                    continue  # it holds without the assumption: no use inside the chain
                nested = hint if isinstance(hint, ChainHint) else None
                for c, mask in hint.removable.items():
                    for d in bits(mask):
                        q = Potential(
                            c, d, False, [off_set[key(pc, pd, False)] for pc, pd in parents], ADVANCED
                        )
                        q.nested = nested
                        out.append(q)
            if out:
                break
        return out

    def _multiple_hints(self, grid: Grid) -> list[ChainHint]:
        result: list[ChainHint] = []
        geo = grid.geo
        for cell in range(geo.ncells):
            if grid.values[cell]:
                continue
            mask = grid.cands[cell]
            count = mask.bit_count()
            if not (count > 2 or (count > 1 and self.dynamic)):
                continue
            value_on: dict[int, dict[int, Potential]] = {}
            value_off: dict[int, dict[int, Potential]] = {}
            cell_on: dict[int, Potential] | None = None
            cell_off: dict[int, Potential] | None = None
            for d in bits(mask):
                on_on, on_off = self._binary(
                    grid, cell, d, result, count >= 3 and not self.nishio and self.dynamic
                )
                if not self.nishio:
                    self._region_chains(grid, cell, d, on_on, on_off, result)
                value_on[d], value_off[d] = on_on, on_off
                if cell_on is None or cell_off is None:
                    cell_on, cell_off = dict(on_on), dict(on_off)
                else:
                    cell_on = {k: v for k, v in cell_on.items() if k in on_on}
                    cell_off = {k: v for k, v in cell_off.items() if k in on_off}
            if not self.nishio and (count == 2 or (self.multiple and count > 2)):
                assert cell_on is not None and cell_off is not None
                for outcomes, found in ((value_on, cell_on), (value_off, cell_off)):
                    for target in found.values():
                        chains = tuple(outcomes[d][target.key] for d in bits(mask))
                        hint = self._reduction(grid, target, chains, 5, CELL, f"Cell:from {geo.name(cell)}")
                        if hint is not None:
                            result.append(hint)
        return result

    def _on_branch(
        self, grid: Grid, cell: int, digit: int
    ) -> tuple[Potential, dict[int, Potential], dict[int, Potential], tuple[Potential, Potential] | None]:
        """What assuming ``cell`` is ``digit`` forces (the sets, partial where a contradiction stopped
        them, and the contradiction): asked by the cell's own chains and by region chains through it, on
        the same grid, so kept for the producer's call."""
        k = key(cell, digit, True)
        found = self._branches.get(k)
        if found is None:
            start = Potential(cell, digit, True)
            on_set, off_set = {k: start}, {}
            absurd = self._propagate(grid, on_set, off_set)
            found = self._branches[k] = (start, on_set, off_set, absurd)
        return found

    def _binary(
        self,
        grid: Grid,
        cell: int,
        digit: int,
        result: list[ChainHint],
        double: bool,
    ) -> tuple[dict[int, Potential], dict[int, Potential]]:
        """The contradiction and double forcing chains of ``cell`` being ``digit`` or not; what the "on"
        assumption forces, shared with the cell and region chains (read only)."""
        contradiction = self.dynamic or self.nishio
        p_on, on_on, on_off, absurd = self._on_branch(grid, cell, digit)
        p_off = Potential(cell, digit, False)
        if contradiction and absurd is not None:  # the candidate cannot be on
            result.append(self._binary_hint(grid, absurd, p_on, p_on, True, False))
        off_on: dict[int, Potential] = {}
        off_off: dict[int, Potential] = {p_off.key: p_off}
        absurd = self._propagate(grid, off_on, off_off)
        if contradiction and absurd is not None:  # the candidate cannot be off: it is the cell's digit
            hint = self._binary_hint(grid, absurd, p_off, p_off, True, True)
            if hint.removable:
                result.append(hint)
        if double:
            for k, p in on_on.items():
                other = off_on.get(k)
                if other is not None:
                    hint = self._binary_hint(grid, (p, other), p_on, p, False, True)
                    if hint.removable:
                        result.append(hint)
            for k, p in on_off.items():
                other = off_off.get(k)
                if other is not None:
                    result.append(self._binary_hint(grid, (p, other), p_off, other, False, False))
        return on_on, on_off

    def _binary_hint(
        self,
        grid: Grid,
        ends: tuple[Potential, Potential],
        source: Potential,
        target: Potential,
        absurd: bool,
        keep: bool,
    ) -> ChainHint:
        """A contradiction or double forcing chain: ``keep`` leaves the target's digit alone in its cell
        (else the target's candidate goes); the placement, if any, is the conclusion's."""
        dst_on, dst_off = ends
        if keep:
            rest = grid.cands[target.cell] & ~(1 << (target.digit - 1))
            removable = {target.cell: rest} if rest else {}
        else:
            removable = {target.cell: 1 << (target.digit - 1)}
        result = Potential(source.cell, source.digit, not source.on) if self.nishio or absurd else dst_on
        cell, value = (result.cell, result.digit) if result.on else (None, 0)
        kind = "Forcing" if self.nishio else "Contradiction Forcing" if absurd else "Double Forcing"
        return ChainHint(
            f"{self.prefix}{kind}{self.suffix}", 0.0, removable, cell, value, targets=(dst_on, dst_off),
            sort_key=7 if absurd else 1, base=self.base, flat=ancestors(dst_on) + ancestors(dst_off),
        )  # fmt: skip

    def _region_chains(
        self,
        grid: Grid,
        cell: int,
        digit: int,
        on_on: dict[int, Potential],
        on_off: dict[int, Potential],
        result: list[ChainHint],
    ) -> None:
        geo = grid.geo
        bit = 1 << (digit - 1)
        for t in REGION_TYPES:
            region = geo.region(t, cell)
            places = [c for c in region if grid.cands[c] & bit]
            if not (len(places) == 2 or (self.multiple and len(places) > 2)):
                continue
            if places[0] != cell:
                continue  # each region once: from its first place of the digit
            place_on: list[dict[int, Potential]] = []
            place_off: list[dict[int, Potential]] = []
            region_on: dict[int, Potential] = {}
            region_off: dict[int, Potential] = {}
            for c in places:
                if c == cell:
                    s_on, s_off = on_on, on_off
                    region_on, region_off = dict(on_on), dict(on_off)
                else:
                    _, s_on, s_off, _ = self._on_branch(grid, c, digit)
                    region_on = {k: v for k, v in region_on.items() if k in s_on}
                    region_off = {k: v for k, v in region_off.items() if k in s_off}
                place_on.append(s_on)
                place_off.append(s_off)
            index = geo.region_of[t][cell]
            label = f"Region:{digit} in {geo.region_name(t, index)}"
            for outcomes, found in ((place_on, region_on), (place_off, region_off)):
                for target in found.values():
                    chains = tuple(s[target.key] for s in outcomes)
                    hint = self._reduction(grid, target, chains, 6, t, label)
                    if hint is not None:
                        result.append(hint)

    def _reduction(
        self,
        grid: Grid,
        target: Potential,
        chains: tuple[Potential, ...],
        sort_key: int,
        cause: int,
        label: str,
    ) -> ChainHint | None:
        """A cell or region forcing chain (``label``: ``Cell:where`` or ``Region:where``): every branch
        reaches ``target`` (SE keeps it when it removes something: an "on" target whose cell holds nothing
        else is not worth a hint)."""
        kind, where = label.split(":", 1)
        if target.on:
            rest = grid.cands[target.cell] & ~(1 << (target.digit - 1))
            if not rest:
                return None
            removable = {target.cell: rest}
        else:
            removable = {target.cell: 1 << (target.digit - 1)}
        first = chains[0]
        cell, value = (first.cell, first.digit) if first.on else (None, 0)
        flat = sum(ancestors(c) for c in chains)
        return ChainHint(
            f"{self.prefix}{kind} Forcing{self.suffix}", 0.0, removable, cell, value, targets=chains,
            sort_key=sort_key, base=self.base, flat=flat, initial_cause=cause, detail=where,
        )  # fmt: skip


def _reversed(end: Potential) -> Potential:
    """A cycle read the other way, states flipped (SE's ``getReversedCycle``): its first potential."""
    line = []
    p: Potential | None = end
    while p is not None:
        line.append(Potential(p.cell, p.digit, not p.on, cause=p.cause))
        p = p.parents[0] if p.parents else None
    line.reverse()
    for prev, nxt in pairwise(line):
        prev.parents.append(nxt)
    return line[0]
