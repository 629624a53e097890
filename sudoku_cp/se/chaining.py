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

The searches are compiled: ``unary`` (cycles and forcing chains), ``multiple`` (every level-0 producer in
one call) and ``propagation`` (one assumption at a time, for the nested levels, whose inner techniques run
here between two passes). They hand back rows of numbers; potentials are made only for the hints read.
"""

from __future__ import annotations

import heapq
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from typing import Any, TypeVar

import numpy as np

from .. import deadline
from . import advanced, multiple, unary
from .grid import BLOCK, COLUMN, ROW, Grid, bits
from .hints import Hint
from .propagation import (
    ADVANCED_CAUSE,
    CELL_CAUSE,
    NPOT,
    Rows,
    Store,
    keep,
    marks,
    places_of,
    set_keys,
    struck_count,
    struck_each,
    struck_keys,
    tables,
)

__all__ = [
    "ChainHint",
    "Chaining",
    "CompiledHints",
    "Deferred",
    "Tokens",
    "length_difficulty",
    "new_numbering",
    "numbering",
    "sorted_lazily",
]

#: Causes of a potential (why it follows from its parents): the cell rule, a region rule (its type), or an
#: inner technique (levels 1 and up). The initial assumption has none.
CELL, ADVANCED = CELL_CAUSE, ADVANCED_CAUSE
REGION_TYPES = (BLOCK, ROW, COLUMN)
_T = TypeVar("_T")


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


@cache  # (nested levels price hundreds of thousands of hints a walk, of a few hundred complexities)
def length_difficulty(complexity: int) -> float:
    """SE's length bonus: 0.1 for each ceiling of 4, 6, 8, 12, 16, 24, ... that ``complexity - 2`` passes,
    added up as SE adds it (repeated double additions)."""
    added, ceil, length, odd = 0.0, 4, complexity - 2, False
    while length > ceil:
        added += 0.1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added


_BONUS = np.zeros(0)


def length_bonuses(most: int) -> np.ndarray:
    """``length_difficulty`` of the complexities 0 to ``most`` and beyond, as an array (kept, grown as
    asked: a level-0 producer prices each call's hints with it)."""
    global _BONUS
    if len(_BONUS) <= most:
        _BONUS = np.array([length_difficulty(c) for c in range(max(most + 1, 2 * len(_BONUS)))])
    return _BONUS


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


@dataclass(eq=False)
class ChainHint(Hint):
    """A chain's hint: its ``targets`` (the potentials whose chains prove it), its kind's ``sort_key``,
    the producer's ``base`` difficulty and ``flat`` complexity (the targets' ancestor counts).

    The targets are given as potentials (``ends``) or as rows of propagation stores (``rows``), made into
    potentials only when read: most hints of a producer are sorted away unread."""

    ends: tuple[Potential, ...] = ()
    sort_key: int = 0
    base: float = 0.0
    flat: int = 0
    initial_cause: int | None = None  # what the ruleParents of the initial assumption read (cell, region)
    detail: str = ""  # where: the cell or region a cell or region chain starts from
    rows: tuple[tuple[Store, int], ...] = ()
    _complexity: int = field(default=-1, repr=False)
    _nested: list[ChainHint | Deferred | None] | None = field(default=None, init=False, repr=False)
    _token: int = field(default=-1, init=False, repr=False)
    _token_of: Tokens | None = field(default=None, init=False, repr=False)

    @property
    def targets(self) -> tuple[Potential, ...]:
        if not self.ends and self.rows:
            self.ends = tuple(store.potential(row) for store, row in self.rows)
        return self.ends

    @property
    def complexity(self) -> int:
        if self._complexity < 0:
            self._complexity = self.flat + self._nested_complexity()
            self._nested = None  # read once: not kept with the hint
        return self._complexity

    def nested(self) -> list[ChainHint | Deferred | None]:
        """The inner hints behind this chain's links, in its order (None for an inner technique that is
        no chain), each as often as a link rests on it."""
        if self._nested is None:
            if self.rows and not any(store.nested for store, _ in self.rows):
                self._nested = []  # no inner technique anywhere in these propagations
            elif self.rows:  # read off the rows, with no potential made
                self._nested = [hint for store, row in self.rows for hint in store.nested_in(row)]
            else:
                self._nested = [p.nested for target in self.targets for p in chain_of(target)]
        return self._nested

    def least_complexity(self) -> int:
        """A lower bound of ``complexity`` read with no identity made: the flat one and the most complex
        inner hint."""
        if self._complexity >= 0:
            return self._complexity
        return self.flat + max((h.complexity for h in self.nested() if h is not None), default=0)

    def _nested_complexity(self) -> int:
        nested = self.nested()
        total, seen = 0, set()
        tokens = numbering()
        for hint in nested:
            if hint is not None:
                token = hint.token(tokens)
                if token not in seen:
                    seen.add(token)
                    total += hint.complexity
        return total

    def identity(self) -> tuple[tuple[int, ...], ...]:
        """Two chains are the same (SE's ``FullChain``) when their targets' chains hold the same keys."""
        return self._chains()

    def made(self) -> ChainHint:
        """The hint itself (as ``Deferred.made`` gives the hint it stands for)."""
        return self

    def token(self, tokens: Tokens) -> int:
        """A number for this chain's identity: two chains are the same (SE's ``FullChain``) when their
        targets' chains hold the same keys. Kept per hint (its chains never change) and numbered by
        ``tokens``, so that the identity, a tuple of hundreds of keys, is made and hashed once per hint,
        not each time a nested hint's complexity meets it."""
        if self._token_of is not tokens:
            self._token = tokens.number(self.identity())
            self._token_of = tokens
        return self._token

    def _chains(self) -> tuple[tuple[int, ...], ...]:
        if self.rows:  # read off the rows, with no potential made
            return tuple(store.chain_keys(row) for store, row in self.rows)
        return tuple(tuple(p.key for p in chain_of(t)) for t in self.targets)

    def struck(self, before: np.ndarray, after: np.ndarray, regions: np.ndarray, n: int) -> np.ndarray:
        """``parents`` of a hint held as rows, as the "off" keys of the candidates, from the candidates
        ``before`` and ``after`` as arrays and the regions' table (``propagation.tables``)."""
        initial = -1 if self.initial_cause is None else self.initial_cause
        return struck_keys(self.rows, initial, before, after, regions, n)

    def finish(self) -> ChainHint:
        self.difficulty = self.base + length_difficulty(self.complexity)
        return self

    def parents(self, source: Grid, grid: Grid) -> list[tuple[int, int]]:
        """The candidates removed since ``source`` that the chains rest on: for each "on" link by the cell
        rule, the cell's removed candidates; by a region rule, the digit's removed places there."""
        if self.rows:  # read off the rows, with no potential made
            before, after = (np.array(g.cands, dtype=np.int64) for g in (source, grid))
            keys = self.struck(before, after, tables(grid.geo.box_rows, grid.geo.box_cols)[0], grid.geo.n)
            return [(k >> 6, k >> 1 & 31) for k in keys.tolist()]
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
                        _removed_under(source, grid, p.cell, p.digit, cause, out)
                    nxt.extend(p.parents)
                todo = nxt
        return list(out)


@dataclass(eq=False)
class PathHint(ChainHint):
    """A chain of one-parent links (producer 21's forcing chains and cycles) held as its path, ``keys`` and
    ``causes`` from the end back to the start: nested levels read hundreds of them per assumption for their
    parents and identity, which the path gives; its potentials are made only when read. A ``cycle`` is
    read both ways (SE's ``getReversedCycle``); there is no inner technique, so its complexity is ``flat``."""

    keys: tuple[int, ...] = ()
    causes: tuple[int, ...] = ()
    cycle: bool = False

    @property
    def targets(self) -> tuple[Potential, ...]:
        if not self.ends:
            end = _path(list(self.keys), list(self.causes))
            self.ends = (end, _reversed(end)) if self.cycle else (end,)
        return self.ends

    @property
    def complexity(self) -> int:
        return self.flat

    def _lines(self) -> tuple[list[tuple[int, int]], ...]:
        """Each target's chain as (key, cause) from the target back, each key once (``chain_of``)."""
        forward: dict[int, int] = {}
        for k, cause in zip(self.keys, self.causes, strict=True):
            forward.setdefault(k, cause)
        if not self.cycle:
            return (list(forward.items()),)
        back: dict[int, int] = {}
        for k, cause in zip(reversed(self.keys), reversed(self.causes), strict=True):
            back.setdefault(k ^ 1, cause)
        return list(forward.items()), list(back.items())

    def _chains(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(k for k, _ in line) for line in self._lines())

    def parents(self, source: Grid, grid: Grid) -> list[tuple[int, int]]:
        out: dict[tuple[int, int], None] = {}
        for line in self._lines():
            for k, cause in line:
                if k & 1 and cause >= 0:
                    _removed_under(source, grid, k >> 6, k >> 1 & 31, cause, out)
        return list(out)


def _removed_under(
    source: Grid, grid: Grid, cell: int, digit: int, cause: int, out: dict[tuple[int, int], None]
) -> None:
    """What an "on" of ``cell``/``digit`` that ``cause`` forced rests on, added to ``out``: by the cell
    rule, the cell's candidates removed since ``source``; by a region rule, the digit's removed places
    there (SE's ``getRuleParents``)."""
    if cause == CELL:
        for d in bits(source.cands[cell] & ~grid.cands[cell]):
            out.setdefault((cell, d))
        return
    bit = 1 << (digit - 1)
    for c in grid.geo.region(cause, cell):
        if source.cands[c] & bit and not grid.cands[c] & bit:
            out.setdefault((c, digit))


class Tokens:
    """Chain identities numbered (``ChainHint.token``): one numbering per walk (``new_numbering``), begun
    anew also when it holds ``LIMIT`` identities (hints numbered by an older one are numbered again)."""

    LIMIT = 1 << 18

    def __init__(self) -> None:
        self._numbers: dict[tuple[tuple[int, ...], ...], int] = {}

    def __len__(self) -> int:
        return len(self._numbers)

    def number(self, identity: tuple[tuple[int, ...], ...]) -> int:
        """The identity's number (a new one for an identity not met yet)."""
        return self._numbers.setdefault(identity, len(self._numbers))


_TOKENS = threading.local()


def new_numbering() -> None:
    """Begin a new numbering of chain identities on this thread (at each walk's start): a walk's hints are
    never compared with another's. One ER 11.7 walk numbers some 20,000 identities (about 10 MB); kept
    across walks they grew to ``LIMIT`` (some 130 MB at 500 bytes each) before starting anew."""
    _TOKENS.tokens = Tokens()


def numbering() -> Tokens:
    """The thread's numbering of chain identities, a new one when it is full (taken only between two
    complexity counts, so the tokens one count compares come from one numbering)."""
    tokens: Tokens | None = getattr(_TOKENS, "tokens", None)
    if tokens is None or len(tokens) >= Tokens.LIMIT:
        tokens = _TOKENS.tokens = Tokens()
    return tokens


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


#: How a nested propagation's stall ended: its inner techniques added strikes, found only strikes it had,
#: or found nothing resting on the assumption.
ADDED, NOTHING_NEW, NOTHING = advanced.ADDED, advanced.NOTHING_NEW, advanced.NOTHING
#: Per nested level, the grid it searched last (its values' and candidates' bytes), its inner techniques
#: (``_inner_spec``) and per assumption ``(cell, digit, on)`` its propagation, contradiction and how it
#: ended.
Ends = dict[
    int,
    tuple[
        bytes,
        tuple[tuple[object, ...], ...],
        dict[tuple[int, int, bool], tuple[Store, "tuple[int, int] | None", int]],
    ],
]


def _inner_spec(level: int) -> tuple[tuple[object, ...], ...]:
    """The inner techniques of a nested level in SE's order (``Chaining.getOtherRules``): pointing and
    claiming, hidden and naked pairs, X-wings; then chaining producers as (multiple, dynamic, nishio,
    level): unary chains from level 2, multiple from 3; from level 4 dynamic ones instead, and from 5 the
    nested level three below."""
    spec: list[tuple[object, ...]] = list(advanced.TECHNIQUES)
    if level < 4:
        if level >= 2:
            spec.append((False, False, False, 0))
        if level >= 3:
            spec.append((True, False, False, 0))
    else:
        spec.append((True, True, False, 0))
        if level >= 5:
            spec.append((True, True, False, level - 3))
    return tuple(spec)


def _kind_names(prefix: str, suffix: str, nishio: bool) -> dict[int, str]:
    """The names of a level-0 producer's hints by the kind of ``multiple``'s found rows."""
    return {
        kind: f"{prefix}{name}{suffix}"
        for kind, name in (
            (multiple.ABSURD, "Forcing" if nishio else "Contradiction Forcing"),
            (multiple.DOUBLE, "Double Forcing"),
            (multiple.CELL, "Cell Forcing"),
            (multiple.REGION, "Region Forcing"),
        )
    }


class Chaining:
    """One of SE's chaining producers: ``multiple`` (cell and region chains), ``dynamic`` (strikes as it
    goes), ``nishio`` (one digit's links, contradictions only), ``level`` (inner techniques)."""

    #: How many grids' hints a level-0 producer keeps, the oldest dropped first, as long as their arrays
    #: hold at most ``kept_bytes``. Inside nested levels, the unary producer meets again a quarter of its
    #: grids; the dynamic producer 29% over an ER 11.8 walk, 99.9% of them within 1,024 calls (44% within
    #: 256), each result some 200 KB on 9x9 (its propagations). Two forum walks of ER 11.8 and three of
    #: 10.3-11.4 in one process: 33.9 s with one grid kept, 32.6 s with 256, 29.6 s with 1,024 (peak 715
    #: MB), 30.0 s with 4,096 (1.5 GB). The bytes bound larger grids, whose propagations are larger.
    kept_grids = 1024
    kept_bytes = 256 << 20

    def __init__(
        self, multiple: bool, dynamic: bool, nishio: bool, level: int, ends: Ends | None = None
    ) -> None:
        self.multiple, self.dynamic, self.nishio, self.level = multiple, dynamic, nishio, level
        #: Shared by the nested levels of one walk: each keeps its propagations of the grid it searched
        #: last, and the level above, whose inner techniques begin with the same ones, resumes them where
        #: they stalled for good instead of running them again.
        self._ends = ends
        self._state = b""
        #: How SE names this producer's hints: ``Dynamic `` + ``Cell Forcing`` + `` Chains (+)``.
        self.prefix = "Dynamic " if level > 0 or (dynamic and not nishio) else "Nishio " if nishio else ""
        self.suffix = " Chains" + _nested_suffix(level)
        #: The names of a level-0 producer's hints by their kind (``multiple``'s).
        self._names = _kind_names(self.prefix, self.suffix, nishio)
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
        self._inner: list[Chaining] | None = None
        #: The hints of the grids searched last (a grid's values and candidates -> its hints, and the bytes
        #: of their arrays): as an inner technique, a level-0 producer meets the same reduced grid from
        #: several assumptions, and across a walk's steps.
        self._found: OrderedDict[bytes, tuple[Iterable[ChainHint], int]] = OrderedDict()
        self._found_bytes = 0
        if level > 0:  # a nested level's hints are the walk's alone, asked once a grid
            self.kept_grids = 1
        #: The candidates of the grid being searched and their regions' places, as propagations read them.
        self._source = self._places = self._values = np.zeros(0, dtype=np.int64)
        #: The "on" branches of one call (``_on_branch``).
        self._branches: dict[int, tuple[Store, tuple[int, int] | None]] = {}

    def __repr__(self) -> str:
        return f"Chaining({self.multiple}, {self.dynamic}, {self.nishio}, {self.level})"

    def __call__(self, grid: Grid) -> Iterator[ChainHint]:
        return iter(
            self.hints(grid, np.array(grid.values, dtype=np.int64), np.array(grid.cands, dtype=np.int64))
        )

    def hints(self, grid: Grid, values: np.ndarray, cands: np.ndarray) -> Iterable[ChainHint]:
        """The hints on ``grid``, whose values and candidates are also given as arrays (an inner technique
        is asked on a propagation's candidates, which it holds as one: its grid is met again as the bytes
        of the arrays, with no list made)."""
        state = values.tobytes() + cands.tobytes()
        kept = self._found.get(state)
        if kept is not None:
            hints = kept[0]
        else:
            self._state = state
            if self._ends is not None and self.level > 0:
                self._ends[self.level] = (state, _inner_spec(self.level), {})
            self._source, self._values = cands.copy(), values.copy()
            self._places = np.zeros(0, dtype=np.int64)
            if self.level > 0:  # the nested levels' propagations (``Store``) read the regions' places
                geo = grid.geo
                self._places = places_of(self._source, tables(geo.box_rows, geo.box_cols)[2], geo.n)
            self._branches = {}
            if not (self.multiple or self.dynamic):
                hints = self._unary_hints(grid)
            elif self.level == 0:
                hints = self._compiled_hints(grid)
            else:
                hints = _InOrder(self._multiple_hints(grid))
            self._keep(state, hints)
        return hints

    def _keep(self, state: bytes, hints: Iterable[ChainHint]) -> None:
        """Keep ``hints`` as the grid ``state``'s, dropping the oldest kept beyond ``kept_grids`` or
        ``kept_bytes``."""
        size = hints.nbytes if isinstance(hints, CompiledHints) else 0
        found = self._found
        while found and (len(found) >= self.kept_grids or self._found_bytes + size > self.kept_bytes):
            self._found_bytes -= found.popitem(last=False)[1][1]  # the oldest (no scan for a first key)
        found[state] = (hints, size)
        self._found_bytes += size

    # -- producer 21: cycles and forcing chains on the grid as it is --------------------------------

    def _unary_hints(self, grid: Grid) -> _Made:
        """X-cycles, Y-cycles and forcing chains (6.5+), searched by one kernel call and put in SE's order
        (as ``_InOrder``) on their paths' keys; made into hints only when read. A path is one-parent
        links, so its complexity is its count of distinct keys; a cycle that removes nothing is no hint."""
        regions, block_of, where = tables(grid.geo.box_rows, grid.geo.box_cols)
        found, (keys, causes) = unary.search(self._source, regions, block_of, where, grid.geo.n)
        rows: list[
            tuple[float, int, int, tuple[tuple[int, int], ...], dict[int, int], int, int, int, int]
        ] = []
        for kind, mode, start, length in found.tolist():
            y_links, x_links = unary.MODES[mode]
            both = y_links and x_links
            path = keys[start : start + length].tolist()  # from the end back to the start
            flat = len(set(path))
            if kind == unary.FORCING:
                removable = _forcing_removable(grid, path[0])
                base = 7.0 if both else 6.6
            else:
                removable = _cycle_removable(grid, path[:-1])
                if not removable:
                    continue
                base = 7.0 if both else 6.5
            sort_key = 4 if both else 3 if y_links else 2
            difficulty = base + length_difficulty(flat)
            ident = tuple(sorted(removable.items()))
            rows.append((difficulty, flat, sort_key, ident, removable, kind, mode, start, length))
        rows.sort(key=lambda r: r[:3])
        kept = list(_first_of_each(rows, lambda r: r[3]))

        def make(i: int) -> ChainHint:
            _, flat, sort_key, _, removable, kind, mode, start, length = kept[i]
            y_links, x_links = unary.MODES[mode]
            both = y_links and x_links
            path = tuple(keys[start : start + length].tolist())
            cell, value = None, 0
            if kind == unary.FORCING:
                if path[0] & 1:
                    cell, value = path[0] >> 6, path[0] >> 1 & 31
                if both:
                    name = "Forcing Chain"
                elif y_links:
                    name = "Forcing Y-Chain"
                else:  # SE's name for an X-chain of six candidates
                    name = "Turbot Fish" if flat == 6 else "Forcing X-Chain"
                base = 7.0 if both else 6.6
            else:
                name = "Bidirectional " + ("Cycle" if both else "Y-Cycle" if y_links else "X-Cycle")
                base = 7.0 if both else 6.5
            return PathHint(
                name, 0.0, dict(removable), cell, value, sort_key=sort_key, base=base, flat=flat, keys=path,
                causes=tuple(causes[start : start + length].tolist()), cycle=kind != unary.FORCING,
            ).finish()  # fmt: skip

        return _Made(len(kept), make)

    # -- producers 23 to 30: full propagation ---------------------------------------------------------

    def _propagate(self, grid: Grid, cell: int, digit: int, on: bool) -> tuple[Store, tuple[int, int] | None]:
        """Everything assuming ``cell`` is (``on``) or is not ``digit`` forces, as a ``Store``; the first
        contradiction met, as the rows of one candidate's "on" and "off", or None. At nested levels the
        inner techniques run each time the propagation stalls (one at a nested level may take a while: the
        thread's ``deadline`` is checked first)."""
        deadline.check()
        below = self._below(cell, digit, on)
        simple = len(advanced.TECHNIQUES)
        if below is None:
            store = Store(
                grid.geo, self._source, self._places, not self.nishio, self.dynamic, cell, digit, on
            )
            absurd, outcome = advanced.settle(store, self._values, 0, ADVANCED)
            skip = simple
        else:
            store, absurd, outcome, skip = below
        while absurd is None and outcome == NOTHING:  # the first four found nothing: the chaining ones
            outcome = self._chained(grid, store, skip)
            if outcome != ADDED:
                break
            absurd, outcome = advanced.settle(store, self._values, 0, ADVANCED)
            skip = simple
        if self._ends is not None and self.level in self._ends:
            self._ends[self.level][2][cell, digit, on] = (store, absurd, outcome)
        return store, absurd

    def _below(
        self, cell: int, digit: int, on: bool
    ) -> tuple[Store, tuple[int, int] | None, int, int] | None:
        """The propagation of the same assumption on the same grid by the highest level below whose inner
        techniques begin this level's (level 4, whose fifth is dynamic chains, resumes level 1's; levels 2,
        3 and 5 the level just below): a copy of its store, its contradiction, how it ended (a
        contradiction, or inner techniques that found nothing new, end here too) and how many inner
        techniques its last stall tried."""
        if self._ends is None:
            return None
        mine = _inner_spec(self.level)
        for lower in range(self.level - 1, 0, -1):
            if lower not in self._ends:
                continue
            state, spec, ends = self._ends[lower]
            if state != self._state or mine[: len(spec)] != spec:
                continue
            if (cell, digit, on) not in ends:
                return None
            store, absurd, outcome = ends[cell, digit, on]
            return store.copy(), absurd, outcome, len(spec)
        return None

    def _inner_chains(self) -> list[Chaining]:
        """The inner chaining techniques (those after ``advanced.TECHNIQUES``, which run compiled)."""
        if self._inner is None:
            simple = len(advanced.TECHNIQUES)
            self._inner = [Chaining(*what) for what in _inner_spec(self.level)[simple:]]  # type: ignore[arg-type]
        return self._inner

    def _chained(self, grid: Grid, store: Store, skip: int) -> int:
        """The strikes the first inner chaining technique (of the inner techniques after the first
        ``skip``: the first four, compiled, run in ``advanced.settle``) that finds something makes on the
        grid as ``store`` has reduced it, each resting on the strikes of the propagation it needs, added
        to ``store``: ADDED, NOTHING_NEW when none is new, NOTHING when no technique found any."""
        rules = self._inner_chains()[skip - len(advanced.TECHNIQUES) :]
        if not rules:
            return NOTHING
        found: list[tuple[int, int, list[int], ChainHint | Deferred]] = []
        source = grid.cands[:]
        before = Grid(grid.geo, grid.values, source)
        grid.cands[:] = store.cands.tolist()
        regions = tables(grid.geo.box_rows, grid.geo.box_cols)[0]
        try:
            for rule in rules:
                hints = rule.hints(grid, self._values, store.cands)
                if isinstance(hints, CompiledHints):  # a level-0 producer's: read off its kernel's rows
                    keys, starts = hints.struck(self._source, store.cands, regions, grid.geo.n)
                    resting, new = store.add_struck(keys, starts, *hints.removals(), ADVANCED)
                    for q, i in new:
                        store.nested[q] = hints.deferred(i)
                    if resting:
                        return ADDED if new else NOTHING_NEW
                else:
                    for hint in hints:
                        if hint.rows:  # the rows' own way
                            keys = hint.struck(self._source, store.cands, regions, grid.geo.n)
                            rows = store.index_of[keys].tolist()
                        else:  # a path (the unary producer's)
                            rows = [store.row(pc, pd, False) for pc, pd in hint.parents(before, grid)]
                        if not rows:
                            continue  # it holds without the assumption: no use inside the chain
                        for c, mask in hint.removable.items():
                            found.extend((c, d, rows, hint) for d in bits(mask))
                if found:
                    break
        finally:
            grid.cands[:] = source
        added = False
        for c, d, rows, nested in found:
            added |= store.add_off(c, d, rows, ADVANCED, nested)
        return ADDED if added else NOTHING_NEW if found else NOTHING

    def _compiled_hints(self, grid: Grid) -> CompiledHints:
        """``_multiple_hints`` at level 0, where no inner technique runs: searched by one kernel call, put
        in SE's order (``_InOrder``) on the kernel's rows, and made into hints only when read (most calls
        read the first alone). Without nesting, a hint's complexity is its row's ``FLAT``."""
        geo = grid.geo
        regions, _, where = tables(geo.box_rows, geo.box_cols)
        found, refs, arena, par = multiple.search(
            self._source, regions, where, geo.n, self.nishio, self.multiple, self.dynamic
        )
        rows = Rows(*arena, par, geo.ncells)
        names = self._names
        base = self.base  # ``make`` refers to no ``self``: the producer keeps the result (no cycle)
        flat = found[:, multiple.FLAT]
        bonus = length_bonuses(int(flat.max(initial=0)))
        order = np.lexsort((found[:, multiple.SORT_KEY], flat, base + bonus[flat]))
        ident = found[order, multiple.REMOVE_CELL] << 32 | found[order, multiple.REMOVE_MASK]
        selected = found[order[np.sort(np.unique(ident, return_index=True)[1])]]
        # what the initial assumption's rule parents read: a cell's chains the cell rule, a region's its
        # region type, the others none (-1)
        kinds, where_type = selected[:, multiple.KIND], selected[:, multiple.WHERE_TYPE]
        initial = np.where(kinds == multiple.CELL, CELL, np.where(kinds == multiple.REGION, where_type, -1))

        def make(i: int) -> ChainHint:
            f = selected[i].tolist()
            first, kind = f[multiple.FIRST], f[multiple.KIND]
            ends = tuple((rows, r) for r in refs[first : first + f[multiple.COUNT]].tolist())
            cell = f[multiple.VALUE_CELL] if f[multiple.VALUE_CELL] >= 0 else None
            cause = int(initial[i]) if initial[i] >= 0 else None
            detail = ""
            if kind == multiple.CELL:
                detail = f"from {geo.name(f[multiple.WHERE])}"
            elif kind == multiple.REGION:
                region_type = f[multiple.WHERE_TYPE]
                index = geo.region_of[region_type][f[multiple.WHERE]]
                detail = f"{f[multiple.DIGIT]} in {geo.region_name(region_type, index)}"
            hint = ChainHint(
                names[kind],
                0.0,
                {f[multiple.REMOVE_CELL]: f[multiple.REMOVE_MASK]},
                cell,
                f[multiple.VALUE],
                rows=ends,
                sort_key=f[multiple.SORT_KEY],
                base=base,
                flat=f[multiple.FLAT],
                initial_cause=cause,
                detail=detail,
            )
            return hint.finish()

        return CompiledHints(make, selected, refs, rows, initial)

    def _multiple_hints(self, grid: Grid) -> list[ChainHint]:
        """The hints of a nested level (1 and up): each assumption propagated in Python, the inner
        techniques run between its passes."""
        result: list[ChainHint] = []
        geo = grid.geo
        for cell in range(geo.ncells):
            if grid.values[cell]:
                continue
            mask = grid.cands[cell]
            count = mask.bit_count()
            if not (count > 2 or (count > 1 and self.dynamic)):
                continue
            branches: list[Store] = []
            common = None
            for d in bits(mask):
                branch = self._binary(grid, cell, d, result, count >= 3 and not self.nishio and self.dynamic)
                if not self.nishio:
                    self._region_chains(grid, cell, d, branch, result)
                branches.append(branch)
                common = _common(branch, common)
            if not self.nishio and (count == 2 or (self.multiple and count > 2)):
                assert common is not None
                for k in common.tolist():
                    hint = self._reduction(grid, k, branches, 5, CELL, f"Cell:from {geo.name(cell)}")
                    if hint is not None:
                        result.append(hint)
        return result

    def _on_branch(self, grid: Grid, cell: int, digit: int) -> tuple[Store, tuple[int, int] | None]:
        """What assuming ``cell`` is ``digit`` forces (partial where a contradiction stopped it, and the
        contradiction): asked by the cell's own chains and by region chains through it, on the same grid,
        so kept for the producer's call."""
        k = key(cell, digit, True)
        found = self._branches.get(k)
        if found is None:
            found = self._branches[k] = self._propagate(grid, cell, digit, True)
        return found

    def _binary(self, grid: Grid, cell: int, digit: int, result: list[ChainHint], double: bool) -> Store:
        """The contradiction and double forcing chains of ``cell`` being ``digit`` or not; what the "on"
        assumption forces, shared with the cell and region chains (read only)."""
        contradiction = self.dynamic or self.nishio
        bit = 1 << (digit - 1)
        on, absurd = self._on_branch(grid, cell, digit)
        if contradiction and absurd is not None:  # the candidate cannot be on
            ends = ((on, absurd[0]), (on, absurd[1]))
            result.append(self._binary_hint(grid, ends, key(cell, digit, True), {cell: bit}, True))
        off, absurd = self._propagate(grid, cell, digit, False)
        rest = grid.cands[cell] & ~bit
        if contradiction and absurd is not None and rest:  # the candidate cannot be off: it is the digit
            ends = ((off, absurd[0]), (off, absurd[1]))
            result.append(self._binary_hint(grid, ends, key(cell, digit, False), {cell: rest}, True))
        if double:
            for k in on.keys(True).tolist():  # on either way
                row = off.index_of[k]
                others = grid.cands[k >> 6] & ~(1 << ((k >> 1 & 31) - 1))
                if row >= 0 and others:
                    ends = ((on, int(on.index_of[k])), (off, int(row)))
                    result.append(self._binary_hint(grid, ends, k, {k >> 6: others}, False))
            for k in on.keys(False).tolist():  # off either way
                row = off.index_of[k]
                if row >= 0:
                    ends = ((on, int(on.index_of[k])), (off, int(row)))
                    result.append(self._binary_hint(grid, ends, k, {k >> 6: 1 << ((k >> 1 & 31) - 1)}, False))
        return on

    def _binary_hint(
        self,
        grid: Grid,
        ends: tuple[tuple[Store, int], tuple[Store, int]],
        source: int,
        removable: dict[int, int],
        absurd: bool,
    ) -> ChainHint:
        """A contradiction (``absurd``) or double forcing chain from the assumption of key ``source``
        (contradiction) or reaching it (double); it places when its conclusion is an "on"."""
        (on_store, on_row), _ = ends
        conclusion = source ^ 1 if self.nishio or absurd else int(on_store.pkey[on_row])
        cell, value = (conclusion >> 6, conclusion >> 1 & 31) if conclusion & 1 else (None, 0)
        kind = "Forcing" if self.nishio else "Contradiction Forcing" if absurd else "Double Forcing"
        return ChainHint(
            f"{self.prefix}{kind}{self.suffix}", 0.0, removable, cell, value, rows=ends,
            sort_key=7 if absurd else 1, base=self.base, flat=sum(s.ancestors(r) for s, r in ends),
        )  # fmt: skip

    def _region_chains(
        self, grid: Grid, cell: int, digit: int, branch: Store, result: list[ChainHint]
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
            branches: list[Store] = []
            common = None
            for c in places:
                place = branch if c == cell else self._on_branch(grid, c, digit)[0]
                branches.append(place)
                common = _common(place, common)
            assert common is not None
            index = geo.region_of[t][cell]
            label = f"Region:{digit} in {geo.region_name(t, index)}"
            for k in common.tolist():
                hint = self._reduction(grid, k, branches, 6, t, label)
                if hint is not None:
                    result.append(hint)

    def _reduction(
        self, grid: Grid, k: int, branches: list[Store], sort_key: int, cause: int, label: str
    ) -> ChainHint | None:
        """A cell or region forcing chain (``label``: ``Cell:where`` or ``Region:where``): every branch
        reaches the potential of key ``k`` (SE keeps it when it removes something: an "on" target whose
        cell holds nothing else is not worth a hint)."""
        kind, where = label.split(":", 1)
        cell, bit = k >> 6, 1 << ((k >> 1 & 31) - 1)
        if k & 1:
            rest = grid.cands[cell] & ~bit
            if not rest:
                return None
            removable = {cell: rest}
        else:
            removable = {cell: bit}
        rows = tuple((b, int(b.index_of[k])) for b in branches)
        value_cell, value = (cell, k >> 1 & 31) if k & 1 else (None, 0)
        return ChainHint(
            f"{self.prefix}{kind} Forcing{self.suffix}", 0.0, removable, value_cell, value, rows=rows,
            sort_key=sort_key, base=self.base, flat=sum(b.ancestors(r) for b, r in rows),
            initial_cause=cause, detail=where,
        )  # fmt: skip


def _common(branch: Store, keys: np.ndarray | None) -> np.ndarray:
    """The keys of ``keys`` that ``branch`` also reaches, in their order (the branch's own "on" keys, then
    its "off" keys, when there are none yet): one selection a branch for both sets, read in SE's order
    (the "on"s, then the "off"s, each in the order the first branch added them)."""
    if keys is None:
        npot = int(branch.cnt[NPOT])
        out = np.empty(npot, dtype=np.int32)
        ons = set_keys(branch.pkey, 0, npot, branch.index_of, 1, out, 0)
        return out[: set_keys(branch.pkey, 0, npot, branch.index_of, 0, out, ons)]
    return keys[: keep(keys, len(keys), branch.index_of)]  # (in place: the first branch's are new)


def _forcing_removable(grid: Grid, target: int) -> dict[int, int]:
    """What a forcing chain to the potential of key ``target`` removes: an "on" the cell's other
    candidates (it places the digit), an "off" the digit."""
    cell, bit = target >> 6, 1 << ((target >> 1 & 31) - 1)
    return {cell: grid.cands[cell] & ~bit if target & 1 else bit}


def _cycle_removable(grid: Grid, walked: list[int]) -> dict[int, int]:
    """What a cycle removes (cell -> mask, in SE's order): each candidate outside the cycle that sees one
    of its "on" potentials and one of its "off" potentials of the same digit. ``walked``: the keys of the
    cycle's potentials, its start left out."""
    cells = {k >> 6 for k in walked}
    forward: dict[int, tuple[int, int]] = {}
    backward: set[int] = set()
    for q in walked:
        digit = q >> 1 & 31
        bit = 1 << (digit - 1)
        for c in grid.geo.house_cells[q >> 6]:
            if c not in cells and grid.cands[c] & bit:
                k = key(c, digit, False)
                if q & 1:
                    forward.setdefault(k, (c, digit))
                else:
                    backward.add(k)
    removable: dict[int, int] = {}
    for k, (c, d) in forward.items():
        if k in backward:
            removable[c] = removable.get(c, 0) | 1 << (d - 1)
    return removable


def _path(keys: list[int], causes: list[int]) -> Potential:
    """The potentials of a path of one-parent links (keys and causes, from the end back to the start):
    its end."""
    p: Potential | None = None
    for k, cause in zip(reversed(keys), reversed(causes), strict=True):
        p = Potential(
            k >> 6, k >> 1 & 31, bool(k & 1), [p] if p is not None else [], cause if cause >= 0 else None
        )
    assert p is not None
    return p


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


def sorted_lazily(
    items: Sequence[_T], bound: Callable[[_T], Any], exact: Callable[[_T], Any]
) -> Iterator[_T]:
    """``items`` in a stable sort by ``exact``, which is costly, given ``bound(x) <= exact(x)``, which is
    not: items are taken in the order of their bounds, and the least exact key taken comes next once it
    is below the bound of every item not yet taken (a lazy merge), so reading the first few items
    computes the exact keys of those whose bounds are below theirs alone."""
    bounds = sorted((bound(x), i) for i, x in enumerate(items))
    ready: list[tuple[Any, int]] = []  # a heap of the exact keys computed, not yet given
    taken = 0
    while True:
        while taken < len(bounds) and (not ready or bounds[taken] < ready[0]):
            i = bounds[taken][1]
            heapq.heappush(ready, (exact(items[i]), i))
            taken += 1
        if not ready:
            return
        yield items[heapq.heappop(ready)[1]]


class _InOrder:
    """A nested level's hints in SE's order: by difficulty, complexity and kind (a stable sort: the search's
    order breaks ties), the first of those that remove the same candidates kept; each hint finished (its
    inner hints' complexity added up) only when the order reaches it (``sorted_lazily``, on the bound
    ``ChainHint.least_complexity``). The walk reads a producer's first hint alone: on an ER 11.7 walk, 16,000
    of 47,000 hints are finished. A nested level's inner use reads them all."""

    def __init__(self, found: list[ChainHint]) -> None:
        self._order = _first_of_each(
            sorted_lazily(found, _least_key, _exact_key), lambda h: tuple(sorted(h.removable.items()))
        )
        self._kept: list[ChainHint] = []  # those read so far, for the next reader

    def __iter__(self) -> Iterator[ChainHint]:
        i = 0
        while True:
            if i == len(self._kept):  # the next of the order, read once for every reader
                hint = next(self._order, None)
                if hint is None:
                    return
                self._kept.append(hint)
            yield self._kept[i]
            i += 1


def _least_key(hint: ChainHint) -> tuple[float, int, int]:
    least = hint.least_complexity()
    return hint.base + length_difficulty(least), least, hint.sort_key


def _exact_key(hint: ChainHint) -> tuple[float, int, int]:
    hint.finish()
    return hint.difficulty, hint.complexity, hint.sort_key


def _first_of_each(items: Iterable[_T], ident: Callable[[_T], Hashable]) -> Iterator[_T]:
    """``items`` without those whose ``ident`` an earlier one has, as they are read: SE keeps one hint per
    set of removals."""
    seen: set[Hashable] = set()
    for item in items:
        if (mark := ident(item)) not in seen:
            seen.add(mark)
            yield item


class _Made:
    """``count`` hints made by ``make(i)`` the first time the i-th is read (``made``), then kept."""

    def __init__(self, count: int, make: Callable[[int], ChainHint]) -> None:
        self._count, self._make = count, make
        self._made: dict[int, ChainHint] = {}

    def made(self, i: int) -> ChainHint:
        """The i-th hint."""
        hint = self._made.get(i)
        if hint is None:
            hint = self._made[i] = self._make(i)
        return hint

    def __iter__(self) -> Iterator[ChainHint]:
        for i in range(self._count):
            yield self.made(i)


class CompiledHints(_Made):
    """A level-0 producer's hints as its kernel found them: rows of ``found`` (``multiple``'s columns)
    in SE's order, ending in the rows ``refs`` of the arena ``rows``. As a nested level's
    inner technique, what a hint removes and rests on is read here for all of them at once, and the
    hints behind the strikes are kept as ``Deferred``: most are never made (a level-4 walk's stalls
    find a hundred thousand)."""

    def __init__(
        self,
        make: Callable[[int], ChainHint],
        found: np.ndarray,
        refs: np.ndarray,
        rows: Rows,
        initial: np.ndarray,
    ) -> None:
        super().__init__(len(found), make)
        self.found, self.refs, self.rows = found, refs, rows
        #: per hint, the rule its initial assumption's parents read (``ChainHint.initial_cause``; -1: none)
        self.initial = initial
        #: the hints' identities' numbers (``ChainHint.token``) and the numbering they are from; kept
        #: here, not in the ``Deferred``s (which refer to this: a cycle, freed only by the collector,
        #: which a walk's step pauses, would keep every call's arena to the step's end)
        self._tokens: dict[int, int] = {}
        self._tokens_of: Tokens | None = None

    @property
    def nbytes(self) -> int:
        """The bytes of the arrays the hints are read from."""
        rows = self.rows
        arrays = (self.found, self.refs, self.initial, rows.pkey, rows.pcause, rows.pstart, rows.pnpar)
        return sum(a.nbytes for a in arrays) + rows.par.nbytes

    def removals(self) -> tuple[np.ndarray, np.ndarray]:
        """The cells the hints remove from and the digits (masks), in order."""
        return self.found[:, multiple.REMOVE_CELL], self.found[:, multiple.REMOVE_MASK]

    def deferred(self, i: int) -> Deferred:
        """The i-th hint, made when read. Its complexity is its flat one (no inner technique at level 0)."""
        return Deferred(self, i, int(self.found[i, multiple.FLAT]))

    def token(self, i: int, tokens: Tokens) -> int:
        """The i-th hint's ``ChainHint.token``."""
        if self._tokens_of is not tokens:
            self._tokens, self._tokens_of = {}, tokens
        token = self._tokens.get(i)
        if token is None:
            token = self._tokens[i] = tokens.number(self.identity(i))
        return token

    def identity(self, i: int) -> tuple[tuple[int, ...], ...]:
        """The i-th hint's identity (``ChainHint.identity``), read off the rows."""
        f = self.found[i]
        first = int(f[multiple.FIRST])
        ends = self.refs[first : first + int(f[multiple.COUNT])].tolist()
        return tuple(self.rows.chain_keys(r) for r in ends)

    def struck(
        self, before: np.ndarray, after: np.ndarray, regions: np.ndarray, n: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Every hint's ``ChainHint.struck``, in order: the keys, and where each hint's begin (the i-th
        hint's are ``keys[starts[i]:starts[i + 1]]``)."""
        first, count = self.found[:, multiple.FIRST], self.found[:, multiple.COUNT]
        nstruck = struck_count(before, after)
        keys = np.empty(max(1, len(first) * nstruck), dtype=np.int32)
        starts = np.empty(len(first) + 1, dtype=np.int64)
        rows = self.rows
        cmark, cstamp, chain = marks(rows.nkeys, 0, int(count.sum()))
        kmark, kstamp, _ = marks(len(before) << 6, 1, len(first))
        struck_each(
            rows.pkey, rows.pcause, rows.pstart, rows.pnpar, rows.par, self.refs, first, count, self.initial,
            before, after, regions, n, cmark, cstamp, chain, kmark, kstamp, keys, starts,
        )  # fmt: skip
        return keys, starts


class Deferred:
    """An inner hint of a nested level held as its place among a level-0 producer's hints (``CompiledHints``),
    made only when read: a nested hint's complexity reads its complexity and identity off the rows."""

    __slots__ = ("_hints", "_i", "complexity")

    def __init__(self, hints: CompiledHints, i: int, complexity: int) -> None:
        self._hints, self._i, self.complexity = hints, i, complexity

    def identity(self) -> tuple[tuple[int, ...], ...]:
        return self._hints.identity(self._i)

    def token(self, tokens: Tokens) -> int:
        """``ChainHint.token``: the same number for the same identity."""
        return self._hints.token(self._i, tokens)

    def made(self) -> ChainHint:
        """The hint itself."""
        return self._hints.made(self._i)
