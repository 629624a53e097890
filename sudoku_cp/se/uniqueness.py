"""Sudoku Explainer's uniqueness techniques: unique rectangles and loops (types 1 to 4) and BUG (1 to 4).

As Sudoku Explainer 1.2.1 (N. Juillerat) finds them. Unique loops are all collected first (loops grown by
SE's depth-first search from each bivalue cell, row-major, through block, row and column neighbours),
kept when new (same type, same loop cells, and for type 3 the same set) and removing something, then
stably sorted by difficulty and type: the rating takes the first. Difficulty 4.5 for a rectangle, more
for longer loops (4.6 for 6 cells, 4.7 for 8, 5.0 for 10 or more), plus 0.1 per extra digit of a type 3
naked set. BUG: the pattern where every cell but the BUG cells is bivalue and every digit has two places
in each region once the BUG digits are gone; 5.6 (type 1), 5.7 (types 2 and 4), 5.7 + 0.1 per digit of
the naked set beyond the first (type 3). Both assume the puzzle has one solution, as SE does.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import BLOCK, COLUMN, ROW, Grid
from .hints import Hint
from .subsets import common_tuple, common_tuple_light, permutations

__all__ = ["bug", "unique_loops"]

#: SE's ``Grid.getRegionTypes`` order.
TYPES = (BLOCK, ROW, COLUMN)


# ---------------------------------------------------------------- unique loops


def _loops(grid: Grid, start: int, pair: int) -> list[list[int]]:
    """SE's ``checkForLoops`` from ``start`` on the two digits of ``pair``: every closed walk of 4 cells or
    more, in discovery order (the same loop may come more than once)."""
    geo = grid.geo
    cands = grid.cands
    regions, region_of = geo.regions, geo.region_of
    loops: list[list[int]] = []
    loop: list[int] = []
    in_loop: set[int] = set()

    def dfs(cell: int, allowed_ex: int, ex_values: int, last_type: int) -> None:
        loop.append(cell)
        in_loop.add(cell)
        ex = ex_values  # shared by the siblings below, as in SE
        for t in TYPES:
            if t == last_type:
                continue
            for nxt in regions[t][region_of[t][cell]]:
                if nxt == loop[0] and len(loop) >= 4:
                    loops.append(list(loop))
                elif nxt not in in_loop:
                    p = cands[nxt]
                    if p & pair == pair:
                        ex |= p & ~pair
                        count = p.bit_count()
                        if count == 2 or ex.bit_count() == 1 or allowed_ex > 0:
                            dfs(nxt, allowed_ex - (1 if count > 2 else 0), ex, t)
        loop.pop()
        in_loop.discard(cell)

    dfs(start, 2, 0, -1)
    return loops


def _valid_loop(grid: Grid, loop: list[int]) -> bool:
    """SE's ``isValidLoop``: no region met twice at the same parity, and each region met at both or
    neither."""
    region_of = grid.geo.region_of
    seen: tuple[set[tuple[int, int]], set[tuple[int, int]]] = (set(), set())
    odd = 0
    for cell in loop:
        visited = seen[odd]
        for t in TYPES:
            key = (t, region_of[t][cell])
            if key in visited:
                return False
            visited.add(key)
        odd ^= 1
    return seen[0] == seen[1]


def _loop_base(size: int) -> float:
    result = 4.5
    if size >= 10:
        result += 0.3
    if size >= 8:
        result += 0.2
    elif size >= 6:
        result += 0.1
    return result


def _loop_name(size: int, type_: int) -> str:
    shape = "Rectangle" if size == 4 else "Loop"
    if size > 6:
        return f"Unique {shape} {size} type {type_}"
    return f"Unique {shape} type {type_}"


class _Found:
    """A unique loop hint with SE's equality key and type (for the sort)."""

    __slots__ = ("hint", "key", "type")

    def __init__(self, hint: Hint, type_: int, key: tuple) -> None:
        self.hint, self.type, self.key = hint, type_, key


def _shared(grid: Grid, c1: int, c2: int) -> Iterator[tuple[int, int]]:
    """The regions ``(type, index)`` holding both cells, in SE's type order."""
    region_of = grid.geo.region_of
    for t in TYPES:
        if region_of[t][c1] == region_of[t][c2]:
            yield t, region_of[t][c1]


def _type2(grid: Grid, loop: list[int], extra: list[int], pair: int, base: float) -> _Found:
    geo = grid.geo
    cands = grid.cands
    rest = cands[extra[0]] & ~pair
    z = rest & -rest
    others = [geo.house_sets[c] for c in extra[1:]]
    removable = {}
    for c in geo.house_cells[extra[0]]:
        if all(c in h for h in others) and c not in extra and cands[c] & z:
            removable[c] = z
    hint = Hint(_loop_name(len(loop), 2), base, removable=removable, cells=tuple(loop), digits=z)
    return _Found(hint, 2, (2, len(loop), frozenset(loop)))


def _type3(grid: Grid, loop: list[int], c1: int, c2: int, pair: int, base: float) -> Iterator[_Found]:
    geo = grid.geo
    n = geo.n
    cands, values = grid.cands, grid.values
    extra = (cands[c1] | cands[c2]) & ~pair
    n_extra = extra.bit_count()
    size = len(loop)
    for degree in range(n_extra, n - 1):
        for t, index in _shared(grid, c1, c2):
            cells = geo.regions[t][index]
            empty = sum(1 for c in cells if not values[c])
            i1, i2 = cells.index(c1), cells.index(c2)
            if 2 * degree <= empty:
                for idx in permutations(degree, n):
                    if i1 not in idx or i2 in idx:
                        continue
                    naked = extra & cands[c1] & cands[c2]
                    sets = []
                    others = []
                    for i in idx:
                        if i == i1:
                            sets.append(extra)
                        else:
                            m = cands[cells[i]]
                            sets.append(m)
                            naked |= m
                            others.append(cells[i])
                    if naked.bit_count() != degree:
                        continue
                    common = common_tuple(sets, degree)
                    if not common:
                        continue
                    removable = {}
                    for c in cells:
                        if c not in others and c != c1 and c != c2 and cands[c] & common:
                            removable[c] = cands[c] & common
                    if removable:
                        hint = Hint(
                            _loop_name(size, 3),
                            base + (common.bit_count() - 1) * 0.1,
                            removable=removable,
                            cells=tuple(loop),
                            digits=common,
                        )
                        key = (3, size, frozenset(loop), "naked", (t, index), common, tuple(others))
                        yield _Found(hint, 3, key)
            if 2 * degree < empty:
                rem = [d for d in range(1, n + 1) if not (pair | extra) >> (d - 1) & 1]
                if degree - 2 <= len(rem):
                    v1 = (pair & -pair).bit_length()
                    v2 = pair.bit_length()
                    for sub in permutations(degree - 2, len(rem)):
                        digits = [rem[j] for j in sub] + [v1, v2]
                        sets = []
                        for d in digits:
                            bit = 1 << (d - 1)
                            sets.append(
                                sum(1 << i for i, c in enumerate(cells) if cands[c] & bit and i != i2)
                            )
                        common = common_tuple_light(sets, degree)
                        if not common:
                            continue
                        hidden_mask = sum(1 << (d - 1) for d in digits)
                        indexes = tuple(i for i in range(n) if common >> i & 1 and i != i1 and i != i2)
                        removable = {}
                        for i in indexes:
                            c = cells[i]
                            if c != c1 and c != c2 and cands[c] & ~hidden_mask:
                                removable[c] = cands[c] & ~hidden_mask
                        if removable:
                            hint = Hint(
                                _loop_name(size, 3),
                                base + (len(indexes) - 1) * 0.1,
                                removable=removable,
                                cells=tuple(loop),
                                digits=hidden_mask,
                            )
                            key = (3, size, frozenset(loop), "hidden", (t, index), hidden_mask, indexes)
                            yield _Found(hint, 3, key)


def _type4(grid: Grid, loop: list[int], c1: int, c2: int, pair: int, base: float) -> _Found | None:
    geo = grid.geo
    cands = grid.cands
    low = pair & -pair
    high = pair & ~low
    r1 = r2 = False
    for t, index in _shared(grid, c1, c2):
        has1 = has2 = False
        for c in geo.regions[t][index]:
            if c != c1 and c != c2:
                has1 = has1 or bool(cands[c] & low)
                has2 = has2 or bool(cands[c] & high)
        if not has1:
            r1 = True
        if not has2:
            r2 = True
    if r1:
        removed = high
    elif r2:
        removed = low
    else:
        return None
    hint = Hint(_loop_name(len(loop), 4), base, removable={c1: removed, c2: removed}, cells=tuple(loop))
    return _Found(hint, 4, (4, len(loop), frozenset(loop)))


def _collect(grid: Grid) -> list[_Found]:
    cands = grid.cands
    result: list[_Found] = []
    keys: set[tuple] = set()

    def add(found: _Found | None) -> None:
        if found is not None and found.key not in keys and found.hint.removable:
            keys.add(found.key)
            result.append(found)

    for start, m in enumerate(cands):
        if m.bit_count() != 2:
            continue
        for loop in _loops(grid, start, m):
            if not _valid_loop(grid, loop):
                continue
            extra = [c for c in loop if cands[c].bit_count() > 2]
            base = _loop_base(len(loop))
            if len(extra) == 1:
                e = extra[0]
                hint = Hint(_loop_name(len(loop), 1), base, removable={e: m}, cells=tuple(loop))
                add(_Found(hint, 1, (1, len(loop), frozenset(loop))))
            elif len(extra) > 2:
                add(_type2(grid, loop, extra, m, base))
            elif len(extra) == 2:
                c1, c2 = extra
                rest = (cands[c1] | cands[c2]) & ~m
                if rest.bit_count() == 1:
                    add(_type2(grid, loop, extra, m, base))
                elif rest.bit_count() >= 2:
                    for found in _type3(grid, loop, c1, c2, m, base):
                        add(found)
                add(_type4(grid, loop, c1, c2, m, base))
    return result


def unique_loops(grid: Grid) -> Iterator[Hint]:
    """SE's ``UniqueLoops``: every unique rectangle and loop hint, stably sorted by difficulty, then
    type."""
    found = _collect(grid)
    found.sort(key=lambda f: (f.hint.difficulty, f.type))
    for f in found:
        yield f.hint


# ---------------------------------------------------------------- BUG


def bug(grid: Grid) -> Iterator[Hint]:
    """SE's ``BivalueUniversalGrave``: types 1 (5.6), 2 and 4 (5.7), 3 (5.8 and up)."""
    geo = grid.geo
    n = geo.n
    cands, values = grid.cands, grid.values
    temp = list(cands)
    bug_cells: list[int] = []
    bug_values: dict[int, int] = {}
    all_bug = 0
    common: list[int] | None = None
    for t in TYPES:
        for cells in geo.regions[t]:
            for d in range(1, n + 1):
                bit = 1 << (d - 1)
                places = [c for c in cells if cands[c] & bit]
                if len(places) in (0, 2):
                    continue
                fat = [c for c in places if cands[c].bit_count() >= 3]
                if len(fat) == 1:
                    c = fat[0]
                    if c not in bug_cells:
                        bug_cells.append(c)
                    bug_values[c] = bug_values.get(c, 0) | bit
                    all_bug |= bit
                    temp[c] &= ~bit
                    if common is None:
                        common = list(geo.house_cells[c])
                    else:
                        house = geo.house_sets[c]
                        common = [x for x in common if x in house]
                    common = [x for x in common if x not in bug_cells]
                    if len(bug_cells) > 1 and all_bug.bit_count() > 1 and not common:
                        return
                elif not fat:
                    return
    for c in range(geo.ncells):
        if not values[c] and temp[c].bit_count() != 2:
            return
    for t in TYPES:
        for cells in geo.regions[t]:
            for d in range(1, n + 1):
                bit = 1 << (d - 1)
                if sum(1 for c in cells if temp[c] & bit) not in (0, 2):
                    return
    if len(bug_cells) == 1:
        c = bug_cells[0]
        yield Hint("BUG type 1", 5.6, removable={c: cands[c] & ~all_bug}, cells=(c,), digits=all_bug)
    elif all_bug.bit_count() == 1:
        if common:
            removable = {c: all_bug for c in common if cands[c] & all_bug}
            if removable:
                yield Hint("BUG type 2", 5.7, removable=removable, cells=tuple(bug_cells), digits=all_bug)
        if len(bug_cells) == 2:
            yield from _bug4(grid, bug_cells, bug_values, all_bug)
    elif common:
        if len(bug_cells) == 2:
            yield from _bug4(grid, bug_cells, bug_values, all_bug)
        yield from _bug3(grid, bug_cells, all_bug, common)


def _shared_all(grid: Grid, cells: list[int]) -> Iterator[tuple[int, int]]:
    """The regions ``(type, index)`` holding all of ``cells``, in SE's type order."""
    region_of = grid.geo.region_of
    for t in TYPES:
        index = region_of[t][cells[0]]
        if all(region_of[t][c] == index for c in cells):
            yield t, index


def _bug4(grid: Grid, bug_cells: list[int], bug_values: dict[int, int], all_bug: int) -> Iterator[Hint]:
    cands = grid.cands
    c1, c2 = bug_cells
    x = cands[c1] & cands[c2] & ~all_bug
    if x.bit_count() != 1:
        return
    for _ in _shared_all(grid, bug_cells):
        # As SE: no check that something is removed.
        removable = {c1: cands[c1] & ~bug_values[c1] & ~x, c2: cands[c2] & ~bug_values[c2] & ~x}
        yield Hint("BUG type 4", 5.7, removable=removable, cells=(c1, c2), digits=x)


def _bug3(grid: Grid, bug_cells: list[int], all_bug: int, common: list[int]) -> Iterator[Hint]:
    cands = grid.cands
    region_of = grid.geo.region_of
    for t, index in _shared_all(grid, bug_cells):
        region_cells = [c for c in common if region_of[t][c] == index]
        for degree in range(2, 7):
            if len(region_cells) < degree:
                continue
            for sub in permutations(degree - 1, len(region_cells)):
                naked_cells = [region_cells[j] for j in sub]
                sets = [cands[c] for c in naked_cells]
                union = 0
                for s in sets:
                    union |= s
                if union.bit_count() != degree:
                    continue
                naked = common_tuple([*sets, all_bug], degree)
                if not naked:
                    continue
                erasable = [c for c in region_cells if c not in naked_cells and c not in bug_cells]
                removable = {c: cands[c] & naked for c in erasable if cands[c] & naked}
                if removable:
                    yield Hint(
                        "BUG type 3",
                        5.7 + (naked.bit_count() - 1) * 0.1,
                        removable=removable,
                        cells=tuple(bug_cells),
                        digits=naked,
                    )
