"""``Rules``: one immutable value that says what a valid grid is, as data.

Houses (rows, columns, boxes or jigsaw regions, and extra houses such as diagonals) hold every digit once;
groups (killer cages) hold different digits; pairs relate two cells (anti-knight, kropki, XV); cages,
thermometers and arrows constrain sums and orders. Peers and each cell's houses are derived, of any
length. The classic rules of a box shape (3x3 gives 9x9) are one value of it, ``Rules.classic(3, 3)``.

Each constraint is of a kind of ``rules.kinds`` (its module holds its check, its f-puzzles entry, its
forms and its picture); ``declared`` lists them all, and the check of a grid asks each.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import cache, cached_property

from ..errors import RulesError
from ..wording import article
from .automaton import Automaton
from .constraints import Pair, cell_name
from .kinds import KINDS, Arrow, Cage, Forms, Thermo, Variant
from .kinds.dots import NEGATIVE, negative_pairs
from .named import NAMED, expand_names

__all__ = ["MAX_N", "RULES_KEPT", "Rules", "Violation", "boxes_of"]

#: The largest grid: digits 1-9, A-Z, a-z.
MAX_N = 61
#: How many rules values each per-rules cache of the solvers keeps (tables, plans, work arrays): a batch of
#: killer puzzles brings a rules value per puzzle, and memory must not grow with the batch.
RULES_KEPT = 16


@dataclass(frozen=True)
class Violation:
    """One rule a grid breaks: what (``rule``), where (``cells``) and a sentence for the user."""

    rule: str
    cells: tuple[int, ...]
    message: str


@cache
def boxes_of(box_rows: int, box_cols: int) -> tuple[tuple[int, ...], ...]:
    """The boxes of a grid of ``box_rows`` x ``box_cols`` boxes, in reading order."""
    n = box_rows * box_cols
    return tuple(
        tuple((br * box_rows + r) * n + bc * box_cols + c for r in range(box_rows) for c in range(box_cols))
        for br in range(box_cols)  # there are n // box_rows == box_cols bands of boxes
        for bc in range(box_rows)
    )


@dataclass(frozen=True, eq=True)
class Rules:
    """What makes a grid of ``n`` digits valid.

    >>> rules = Rules.classic(3, 3)
    >>> rules.n, len(rules.houses), len(rules.peers[0]), rules.is_classic
    (9, 27, 20, True)
    >>> x = rules.with_named("x,anti-knight")
    >>> str(x), len(x.houses), len(x.peers[0]), x.is_classic
    ('3x3 diagonal- diagonal+ anti-knight', 29, 26, False)

    ``regions`` are the n houses beside rows and columns (boxes, or a jigsaw's regions; ``box`` is the box
    shape when they are boxes). ``named`` holds grid-wide rules by name (``diagonal+``, ``anti-knight``,
    ...), ``extra_regions`` f-puzzles' extra regions, ``dots`` the explicit pair marks (kropki, XV) and
    ``negative`` the mark kinds (``difference``, ``ratio``, ``xv``) that are all shown; ``variants`` the
    constraints of the other kinds of ``rules.kinds`` (lines, outside clues, cell marks), each in the
    engine's forms (``forms``: groups, pairs, sums, automata) that the solvers read with the rest. A
    constraint of a built-in kind given among ``variants`` (a ``Cage``) is moved to its field.
    """

    n: int
    regions: tuple[tuple[int, ...], ...]
    box: tuple[int, int] | None = None
    named: tuple[str, ...] = ()
    extra_regions: tuple[tuple[int, ...], ...] = ()
    cages: tuple[Cage, ...] = ()
    thermos: tuple[Thermo, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    dots: tuple[Pair, ...] = ()
    negative: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        n = self.n
        self._normalise()
        if not 2 <= n <= MAX_N:
            raise RulesError(f"grids from 2x2 to {MAX_N}x{MAX_N} are supported, not {n}x{n}")
        ncells = n * n
        if sorted(c for region in self.regions for c in region) != list(range(ncells)) or any(
            len(region) != n for region in self.regions
        ):
            raise RulesError(
                f"the regions of a {n}x{n} grid must be {n} regions of {n} cells covering it once"
            )
        for declared in self.declared:  # a kind whose cells must be given (not a negative rule's) with none
            required = any(f.name == "cells" and f.default is MISSING for f in fields(declared))
            if required and not declared.cells:  # type: ignore[attr-defined]
                raise RulesError(f"{article(declared.kind)} {declared.kind} names no cell")
        for cells, what in self._explicit_cells():
            if any(not 0 <= c < ncells for c in cells):
                raise RulesError(f"{article(what)} {what} names a cell outside the {n}x{n} grid")
            if len(set(cells)) != len(cells):
                raise RulesError(f"{article(what)} {what} names one cell twice")
        if self.box is not None and (
            self.box[0] * self.box[1] != n or set(self.regions) != set(boxes_of(*self.box))
        ):
            raise RulesError(f"the regions are not the boxes of {self.box[0]}x{self.box[1]}: give box=None")
        for name in self.named:
            if name not in NAMED:
                raise RulesError(f"unknown rule {name!r} (known: {', '.join(NAMED)})")
            NAMED[name](n, self.box)  # raises where the rule does not fit this grid (windoku on a jigsaw)
        self.forms  # noqa: B018 - raises where a variant does not fit this grid (an entropic line on 8x8)
        object.__setattr__(self, "_hash", hash((n, self.regions, self.named, self._extras())))

    def __hash__(self) -> int:
        return self._hash

    def _extras(self) -> tuple:
        return (
            self.extra_regions,
            self.cages,
            self.thermos,
            self.arrows,
            self.dots,
            self.negative,
            self.variants,
        )

    def _normalise(self) -> None:
        """Move the constraints of kinds with a field of their own (``Variant.field``) from ``variants``
        to that field, and put ``variants`` and the negative rules in one order, so that equal rules
        compare equal."""
        moved = [v for v in self.variants if type(v).field != "variants"]
        kept = (v for v in self.variants if type(v).field == "variants")
        object.__setattr__(
            self, "variants", tuple(sorted(kept, key=lambda v: _KIND_ORDER.get(type(v), len(KINDS))))
        )
        for v in moved:
            object.__setattr__(self, type(v).field, (*getattr(self, type(v).field), v.stored_as()))
        unknown = set(self.negative) - set(NEGATIVE)
        if unknown:
            raise RulesError(f"unknown negative rule {sorted(unknown)[0]!r} (known: {', '.join(NEGATIVE)})")
        object.__setattr__(self, "negative", tuple(sorted(set(self.negative))))  # a set of names

    def _explicit_cells(self) -> Iterable[tuple[tuple[int, ...], str]]:
        for c in self.declared:
            if c.loops:  # a line that may come back to a cell, never straight to the one it left
                yield tuple(dict.fromkeys(c.all_cells)), c.kind
            else:
                yield c.all_cells, c.kind

    # --- construction -------------------------------------------------------------------------------

    @classmethod
    def classic(cls, box_rows: int, box_cols: int) -> Rules:
        """Rows, columns and boxes of ``box_rows`` x ``box_cols`` cells."""
        for side in (box_rows, box_cols):
            if isinstance(side, bool) or not isinstance(side, int):
                raise TypeError(f"a box's sides are whole numbers, not {type(side).__name__}")
        return _classic(box_rows, box_cols)

    @classmethod
    def from_n(cls, n: int) -> Rules:
        """The classic rules with the most nearly square boxes of an n x n grid (9 -> 3x3, 6 -> 2x3)."""
        rows = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0) if n >= 1 else 0
        if rows <= 1:
            raise RulesError(f"a {n}x{n} grid has no box shape; give one explicitly, such as 1x{n}")
        return cls.classic(rows, n // rows)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """``"3x3"`` (box rows x box cols) or a grid size such as ``"9"``: classic rules."""
        text = text.strip().lower()
        parts = text.split("x")
        if len(parts) > 2 or not all(part.strip().isdigit() for part in parts):
            raise RulesError(
                f"bad box shape {text!r}: box rows x box columns, such as 3x3 or 2x3, or a size, such as 9"
            )
        try:
            if len(parts) == 2:
                return cls.classic(int(parts[0]), int(parts[1]))
            return cls.from_n(int(text))
        except ValueError as exc:
            raise RulesError(f"bad box shape {text!r}: {exc}") from None

    @classmethod
    def from_cell_count(cls, cells: int) -> Rules:
        """The classic rules whose grid has exactly ``cells`` cells (81 -> 3x3); ``ValueError`` if none."""
        n = math.isqrt(cells)
        if n * n != cells:
            raise RulesError(f"{cells} cells is not a square grid")
        return cls.from_n(n)

    @classmethod
    def jigsaw(cls, regions: Sequence[Sequence[int]]) -> Rules:
        """Rows, columns and irregular ``regions`` (n regions of n cells each); regions that are the boxes of
        some shape give those classic rules, so the fast paths serve them."""
        regions = tuple(tuple(sorted(r)) for r in regions)
        n = len(regions)
        for rows in range(1, n + 1):
            if n % rows == 0 and set(regions) == set(boxes_of(rows, n // rows)):
                return cls.classic(rows, n // rows)
        return cls(n, regions)

    def with_named(self, names: str | Sequence[str]) -> Rules:
        """These rules plus grid-wide rules by name (``"x,anti-knight"``)."""
        return replace(
            self, named=tuple(sorted(set(self.named) | set(expand_names(names)), key=_named_order))
        )

    def with_(self, **parts: object) -> Rules:
        """These rules with more of each part: ``with_(cages=[Cage(...)], thermos=[...])``."""
        known = [f.name for f in fields(self) if f.init and f.name not in ("n", "regions", "box")]
        unknown = sorted(set(parts) - set(known))
        if unknown:
            raise RulesError(f"rules have no part {unknown[0]!r} (their parts: {', '.join(known)})")
        merged = {key: tuple(getattr(self, key)) + tuple(value) for key, value in parts.items()}  # type: ignore[arg-type]
        return replace(self, **merged)

    # --- derived --------------------------------------------------------------------------------------

    @property
    def ncells(self) -> int:
        return self.n * self.n

    @property
    def box_rows(self) -> int:
        return self._box()[0]

    @property
    def box_cols(self) -> int:
        return self._box()[1]

    def _box(self) -> tuple[int, int]:
        if self.box is None:
            raise RulesError("these rules have irregular regions, not boxes")
        return self.box

    @cached_property
    def _named_parts(self) -> tuple[tuple[tuple[int, ...], ...], tuple[Pair, ...]]:
        houses: list[tuple[int, ...]] = []
        pairs: list[Pair] = []
        for name in self.named:
            h, p = NAMED[name](self.n, self.box)
            houses += h
            pairs += p
        return tuple(houses), tuple(pairs)

    @cached_property
    def forms(self) -> Forms:
        """The variants' rules in the engine's forms, gathered (``kinds.Forms``)."""
        parts = [v.forms(self.n) for v in self.variants]
        return Forms(
            groups=tuple(g for f in parts for g in f.groups),
            pairs=tuple(p for f in parts for p in f.pairs),
            sets=tuple(s for f in parts for s in f.sets),
            sums=tuple(s for f in parts for s in f.sums),
            automata=tuple(a for f in parts for a in f.automata),
        )

    @cached_property
    def houses(self) -> tuple[tuple[int, ...], ...]:
        """Every house: rows, columns, regions, then the extra houses; each holds every digit once."""
        n = self.n
        rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
        cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
        extra = tuple(r for r in self.extra_regions if len(r) == n)
        return rows + cols + self.regions + self._named_parts[0] + extra

    @cached_property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """Cells whose digits differ without holding every digit: killer cages, extra regions of other
        sizes than n (more than n cells: no grid keeps them apart, so the puzzle has no solution)."""
        other = tuple(r for r in self.extra_regions if len(r) > 1 and len(r) != self.n)
        return other + tuple(c.cells for c in self.cages if len(c.cells) > 1) + self.forms.groups

    @cached_property
    def pairs(self) -> tuple[Pair, ...]:
        """Every pairwise rule: the named ones, the explicit marks, and what the negative rules imply."""
        named = self._named_parts[1]
        if "non-consecutive" in self.named:  # a white dot overrides it on its own pair of cells
            whites = {frozenset(d.cells) for d in self.dots if d.relation == "difference" and d.value == 1}
            named = tuple(
                p for p in named if p.source != "non-consecutive" or frozenset(p.cells) not in whites
            )
        return named + self.dots + negative_pairs(self.n, self.dots, self.negative) + self.forms.pairs

    @cached_property
    def declared(self) -> tuple[Variant, ...]:
        """Every constraint: the built-in kinds' (extra regions, cages, dots...) from their fields, then
        ``variants``, in the registry's order (kinds outside it last)."""
        built_in = tuple(c for kind in KINDS if kind.field != "variants" for c in kind.stored(self))
        return built_in + self.variants

    @cached_property
    def constraints(self) -> tuple[Variant, ...]:
        """The constraints beyond houses, groups and pairs, which the check of a grid asks themselves
        (``Variant.checked``): cages with a total, thermometers, arrows and the variants."""
        return tuple(c for c in self.declared if c.checked)

    @cached_property
    def linear_sums(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
        """Every sum but the cages' as (cells, coefficients, total): the arrows, then the variants' (little
        killers, region sum lines). Cages are reasoned on by their digit sets first (``rules.sums``)."""
        return tuple(a.linear() for a in self.arrows) + self.forms.sums

    @property
    def automata(self) -> tuple[Automaton, ...]:
        """The variants' automata (``rules.automaton``): sandwiches, X-sums, between lines..."""
        return self.forms.automata

    @cached_property
    def automata_in_houses(self) -> tuple[Automaton, ...]:
        """The automata as the dfs engines reason on them: one whose cells all see each other (a
        sandwich's row) also knows they hold distinct digits (``Automaton.distinct``), where that graph
        stays small; the others as they are."""
        return tuple(self.automaton_in_house(a) for a in self.automata)

    def automaton_in_house(self, a: Automaton) -> Automaton:
        """One automaton as the dfs engines reason on it (``automata_in_houses``): with its cells'
        distinct digits where they all see each other and that graph stays small, else as it is."""
        return (a.distinct(self.n) if self.see_each_other(a.cells) else None) or a

    @property
    def has_sums(self) -> bool:
        """Whether some constraint adds digits (a cage with a total, an arrow, a little killer...): what
        the solvers reason on as sums (``rules.sums``) and CP-SAT states as linear equalities."""
        return bool(self.linear_sums) or any(c.total is not None for c in self.cages)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """``peers[cell]``: the other cells that may not hold its digit (houses, groups, differ pairs)."""
        sets: list[set[int]] = [set() for _ in range(self.ncells)]
        for unit in self.houses + self.groups:
            for cell in unit:
                sets[cell].update(unit)
        for p in self.pairs:
            if p.relation == "differ" and not p.negated:
                sets[p.a].add(p.b)
                sets[p.b].add(p.a)
        return tuple(tuple(sorted(s - {cell})) for cell, s in enumerate(sets))

    @cached_property
    def peer_sets(self) -> tuple[frozenset[int], ...]:
        """``peers`` as sets, for membership tests."""
        return tuple(map(frozenset, self.peers))

    def see_each_other(self, cells: Sequence[int]) -> bool:
        """Whether every two of ``cells`` are peers, so their digits differ (a cell named twice is not
        its own peer: False)."""
        peers = self.peer_sets
        return all(peers[a].issuperset(cells[i + 1 :]) for i, a in enumerate(cells))

    @cached_property
    def houses_of(self) -> tuple[tuple[int, ...], ...]:
        """``houses_of[cell]``: the indices in ``houses`` of the houses holding the cell, any count."""
        found: list[list[int]] = [[] for _ in range(self.ncells)]
        for h, house in enumerate(self.houses):
            for cell in house:
                found[cell].append(h)
        return tuple(tuple(f) for f in found)

    @cached_property
    def region_of(self) -> tuple[int, ...]:
        """``region_of[cell]``: the index in ``regions`` of the cell's box or region."""
        found = [0] * self.ncells
        for r, region in enumerate(self.regions):
            for cell in region:
                found[cell] = r
        return tuple(found)

    @property
    def is_classic(self) -> bool:
        """Only rows, columns and boxes: the rules every fast path supports."""
        return self.box is not None and not self.named and not any(self._extras())

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """The names of the rule kinds beyond rows and columns these rules use, for ``supports`` checks
        and messages: ``boxes`` or ``jigsaw``, the named rules, ``extra region``, ``killer cage``, ..."""
        found = ["boxes" if self.box is not None else "jigsaw", *self.named]
        found += dict.fromkeys(c.kind for c in self.declared)
        return tuple(found)

    @cached_property
    def house_kinds(self) -> tuple[str, ...]:
        """The kinds of ``kinds`` whose whole rule is houses and cells that see each other (boxes or a
        jigsaw, the diagonals, windoku, anti-knight, extra regions...), which every human technique reads;
        the others only the forcing nets read."""
        n, box = self.n, self.box
        named = [
            k
            for k in self.named
            if all(p.relation == "differ" and not p.negated for p in NAMED[k](n, box)[1])
        ]
        found = ["boxes" if box is not None else "jigsaw", *named]
        found += dict.fromkeys(c.kind for c in self.declared if c.as_houses)
        return tuple(found)

    def name(self, cell: int) -> str:
        """The user-facing name of a cell, ``r1c1`` for cell 0."""
        return cell_name(cell, self.n)

    def __str__(self) -> str:
        text = f"{self.box[0]}x{self.box[1]}" if self.box is not None else f"{self.n}x{self.n} jigsaw"
        counts: dict[str, int] = {}
        uncounted = set()
        for c in self.declared:  # each constraint by its kind's label (``Variant.tag``), counted
            counts[c.tag] = counts.get(c.tag, 0) + 1
            if not c.counted:
                uncounted.add(c.tag)
        extras = [tag if tag in uncounted else f"{tag}({count})" for tag, count in counts.items()]
        return " ".join([text, *self.named, *extras])

    def __repr__(self) -> str:
        if self.is_classic:
            return f"Rules.classic({self.box_rows}, {self.box_cols})"
        return f"Rules({str(self)!r})"

    # --- the one check of a grid ----------------------------------------------------------------------

    def violations(self, cells: Sequence[int], *, first: bool = False) -> list[Violation]:
        """Every rule the digits ``cells`` (0 for blank) break; a complete grid with none is a solution.

        Blanks are never a violation: a partial grid is checked for what its filled cells already break.
        ``first`` stops at the first one found.
        """
        found: list[Violation] = []
        n = self.n
        for kind, units in (("house", self.houses), ("group", self.groups)):
            for unit in units:
                seen: dict[int, list[int]] = {}
                for cell in unit:
                    if d := cells[cell]:
                        seen.setdefault(d, []).append(cell)
                for d, where in seen.items():
                    if len(where) > 1:
                        names = " and ".join(self.name(c) for c in where)
                        found.append(
                            Violation(
                                kind,
                                tuple(where),
                                f"digit {_symbol(d)} is given twice in one {kind}, at {names}",
                            )
                        )
                        if first:
                            return found
        for p in self.pairs:
            x, y = cells[p.a], cells[p.b]
            if x and y and not p.allows(x, y):
                found.append(
                    Violation(p.source or p.relation, p.cells, f"{p.describe(n)} is broken by {x} and {y}")
                )
                if first:
                    return found
        for c in self.constraints:
            where = c.all_cells
            if not c.consistent([cells[i] for i in where], n):
                found.append(Violation(c.kind, where, f"the {c.describe(n)} is broken"))
                if first:
                    return found
        return found

    def is_valid(self, cells: Sequence[int]) -> bool:
        """True when the filled digits break no rule (blanks allowed)."""
        return not self.violations(cells, first=True)


_NAMED_ORDER = {name: i for i, name in enumerate(NAMED)}
#: The order of ``Rules.variants``: by kind, in the registry's order (the order f-puzzles writes them).
_KIND_ORDER = {kind: i for i, kind in enumerate(KINDS)}


def _named_order(name: str) -> int:
    return _NAMED_ORDER[name]


def _symbol(d: int) -> str:
    from ..grid import symbol  # the symbols live with the grid's text form

    return symbol(d)


@cache
def _classic(box_rows: int, box_cols: int) -> Rules:
    if box_rows < 1 or box_cols < 1 or box_rows * box_cols < 2:
        raise RulesError(f"no grid has boxes of {box_rows}x{box_cols}")
    n = box_rows * box_cols
    if n > MAX_N:
        raise RulesError(f"grids up to {MAX_N}x{MAX_N} are supported, not {n}x{n}")
    return Rules(n, boxes_of(box_rows, box_cols), (box_rows, box_cols))
