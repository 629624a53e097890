"""The propagation of SE's multiple and dynamic chains, compiled: what one assumption forces.

Most propagations give no hint, so potentials are rows of arrays (``Rows``: key, cause, parents) filled by
one numba kernel (``propagate``), made into ``Potential`` objects only when a hint is read. The kernel
keeps Sudoku Explainer's order exactly (pending "on"s before "off"s, targets in SE's rule order, each key
once), since partial sets and the first contradiction decide which hints exist. A ``Store`` is one
propagation with its state, which nested levels resume after adding what their inner techniques found
(``Store.add_off``), as ``Chaining.getAdvancedPotentials`` does between two passes of SE's loop;
``multiple`` runs the level-0 producers' propagations in one arena.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from .set_kernels import popcount

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .chaining import Potential
    from .grid import Geometry

__all__ = [
    "ADVANCED_CAUSE",
    "CELL_CAUSE",
    "Rows",
    "Store",
    "chain_rows",
    "count_ancestors",
    "keep",
    "marks",
    "off_targets",
    "on_targets",
    "places_of",
    "propagate",
    "set_keys",
    "strike",
    "struck_count",
    "struck_each",
    "struck_keys",
    "struck_under",
    "tables",
    "target_room",
]

#: The cause code of the cell rule in the arrays (region rules are their type, 0-2; none is -1), and of
#: an inner technique of a nested level (its hint in ``Rows.nested``).
CELL_CAUSE = 10
ADVANCED_CAUSE = CELL_CAUSE + 1
_NONE = -1

#: Rows a store starts with (it grows as a propagation needs).
_FIRST_ROWS = 256

#: The counters of a propagation (indices of ``cnt``): rows, parents, the queues' heads and tails, the
#: status (0 done, 1 contradiction, 2 out of room) and the contradiction's rows.
NPOT, NPAR, ON_HEAD, ON_TAIL, OFF_HEAD, OFF_TAIL, STATUS, ABSURD_ON, ABSURD_OFF = range(9)


@cache
def tables(box_rows: int, box_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell, the cells of its block, row and column (ascending), and each cell's block; and ``where``:
    per cell and region type, the region's index, the cell's position in it (in that ascending order),
    and the positions there of cells of the cell's own block (as bits; none for the block itself)."""
    from .grid import geometry

    geo = geometry(box_rows, box_cols)
    regions = np.zeros((geo.ncells, 3, geo.n), dtype=np.int32)
    block_of = np.array(geo.region_of[0], dtype=np.int32)
    where = np.zeros((geo.ncells, 3, 3), dtype=np.int64)
    for cell in range(geo.ncells):
        for t in range(3):
            regions[cell, t] = sorted(geo.region(t, cell))
            where[cell, t, 0] = geo.region_of[t][cell]
            where[cell, t, 1] = regions[cell, t].tolist().index(cell)
            if t:
                where[cell, t, 2] = sum(
                    1 << i for i, c in enumerate(regions[cell, t].tolist()) if block_of[c] == block_of[cell]
                )
    return regions, block_of, where


@njit(cache=True)
def places_of(cands, where, n):  # type: ignore[no-untyped-def]
    """Per region (row ``type * n + index``) and digit, the positions of the digit's places (as bits):
    what the region rule reads, kept as the candidates are struck (``strike``)."""
    places = np.zeros((3 * n, n), dtype=np.int64)
    for cell in range(cands.shape[0]):
        m = cands[cell]
        while m:
            d = trailing_zeros(m)
            m &= m - 1
            for t in range(3):
                places[t * n + where[cell, t, 0], d] |= 1 << where[cell, t, 1]
    return places


@njit(_nrt=False, cache=True, inline="always")
def strike(cands, places, where, n, cell, digit):  # type: ignore[no-untyped-def]
    """Strike ``digit`` from ``cell``: its candidates and its places."""
    cands[cell] &= ~(1 << (digit - 1))
    for t in range(3):
        places[t * n + where[cell, t, 0], digit - 1] &= ~(1 << where[cell, t, 1])


@njit(_nrt=False, cache=True)
def _new(pkey, pcause, pstart, pnpar, par, cnt, k, cause, parent):  # type: ignore[no-untyped-def]
    """A potential of key ``k`` with one parent (or none): its row."""
    q = cnt[NPOT]
    cnt[NPOT] = q + 1
    pkey[q] = k
    pcause[q] = cause
    pstart[q] = cnt[NPAR]
    if parent >= 0:
        par[cnt[NPAR]] = parent
        cnt[NPAR] += 1
        pnpar[q] = 1
    else:
        pnpar[q] = 0
    return q


@njit(_nrt=False, cache=True)
def on_targets(cands, places, regions, where, n, k, cell_rule, out_k, out_c):  # type: ignore[no-untyped-def]
    """What the "on" potential of key ``k`` turns off, in SE's order, into ``out_k``/``out_c`` (key,
    cause); their count. The cell's other candidates (``cell_rule``), then the digit's other places in
    its block, row and column, each cell once (read from ``places``, ascending)."""
    cell = k >> 6
    digit = k >> 1 & 31
    bit = 1 << (digit - 1)
    m = 0
    if cell_rule:
        rest = cands[cell] & ~bit
        while rest:  # the cell's other digits, lowest first
            d = trailing_zeros(rest) + 1
            rest &= rest - 1
            out_k[m] = cell << 6 | d << 1
            out_c[m] = CELL_CAUSE
            m += 1
    for t in range(3):
        at = places[t * n + where[cell, t, 0], digit - 1] & ~(1 << where[cell, t, 1]) & ~where[cell, t, 2]
        while at:
            i = trailing_zeros(at)
            at &= at - 1
            out_k[m] = regions[cell, t, i] << 6 | digit << 1
            out_c[m] = t
            m += 1
    return m


@njit(_nrt=False, cache=True)
def off_targets(cands, places, regions, where, n, k, cell_rule, region_rule, out_k, out_c):  # type: ignore[no-untyped-def]
    """What the "off" potential of key ``k`` turns on, as ``on_targets`` gives it: the cell's last other
    candidate (``cell_rule``), the digit's last other place in each region (``region_rule``), each cell
    once."""
    cell = k >> 6
    digit = k >> 1 & 31
    bit = 1 << (digit - 1)
    m = 0
    mask = cands[cell]
    above = mask & (mask - 1)  # the mask without its lowest candidate
    if cell_rule and above and not above & (above - 1):
        rest = mask & ~bit  # two candidates: the other one (the highest left, as SE reads it)
        d = 64 - leading_zeros(rest)
        out_k[m] = cell << 6 | d << 1 | 1
        out_c[m] = CELL_CAUSE
        m += 1
    if region_rule:
        first = m
        for t in range(3):
            at = places[t * n + where[cell, t, 0], digit - 1]
            above = at & (at - 1)
            if not above or above & (above - 1):
                continue  # not two places
            rest = at & ~(1 << where[cell, t, 1])  # the other place (the last other one, as SE reads it)
            o = regions[cell, t, 63 - leading_zeros(rest)] << 6 | digit << 1 | 1
            fresh = True
            for j in range(first, m):
                if out_k[j] == o:
                    fresh = False
            if fresh:
                out_k[m] = o
                out_c[m] = t
                m += 1
    return m


@njit(_nrt=False, cache=True)
def propagate(  # type: ignore[no-untyped-def]
    cands, places, source, regions, where, n, cell_rule, dynamic,
    pkey, pcause, pstart, pnpar, par, index_of, qon, qoff, cnt, tk, tc,
):  # fmt: skip
    """Propagate until the queues are empty (status 0) or a candidate is both on and off (status 1, the
    two rows in the counters). ``cands`` and ``places`` are struck as "off"s are processed when
    ``dynamic``."""
    cnt[STATUS] = 0
    while cnt[ON_HEAD] < cnt[ON_TAIL] or cnt[OFF_HEAD] < cnt[OFF_TAIL]:
        if cnt[NPOT] + 4 * n + 2 > pkey.shape[0] or cnt[NPAR] + 8 * n + 8 > par.shape[0]:
            cnt[STATUS] = 2  # room for what one potential makes: the caller grows the arrays
            return
        if cnt[ON_HEAD] < cnt[ON_TAIL]:
            p = qon[cnt[ON_HEAD]]
            cnt[ON_HEAD] += 1
            for j in range(on_targets(cands, places, regions, where, n, pkey[p], cell_rule, tk, tc)):
                k = tk[j]
                other = index_of[k | 1]
                if other >= 0:
                    cnt[STATUS] = 1
                    cnt[ABSURD_ON] = other
                    cnt[ABSURD_OFF] = _new(pkey, pcause, pstart, pnpar, par, cnt, k, tc[j], p)
                    return
                if index_of[k] < 0:
                    q = _new(pkey, pcause, pstart, pnpar, par, cnt, k, tc[j], p)
                    index_of[k] = q
                    qoff[cnt[OFF_TAIL]] = q
                    cnt[OFF_TAIL] += 1
        else:
            p = qoff[cnt[OFF_HEAD]]
            cnt[OFF_HEAD] += 1
            first = cnt[NPOT]  # the "on"s it forces (rows from ``first``), made before it is struck
            for j in range(off_targets(cands, places, regions, where, n, pkey[p], cell_rule, True, tk, tc)):
                k = tk[j]
                if index_of[k ^ 1] < 0 and index_of[k] >= 0:
                    continue  # known, and no contradiction
                q = _new(pkey, pcause, pstart, pnpar, par, cnt, k, tc[j], p)
                if dynamic:  # it also rests on the candidates struck so far that its rule reads
                    cell = k >> 6
                    digit = k >> 1 & 31
                    if tc[j] == CELL_CAUSE:
                        gone = source[cell] & ~cands[cell]
                        while gone:  # the cell's struck digits, lowest first
                            e = trailing_zeros(gone) + 1
                            gone &= gone - 1
                            par[cnt[NPAR]] = index_of[cell << 6 | e << 1]
                            cnt[NPAR] += 1
                            pnpar[q] += 1
                    else:
                        bit = 1 << (digit - 1)
                        for i in range(n):
                            c = regions[cell, tc[j], i]
                            if source[c] & bit and not cands[c] & bit:
                                par[cnt[NPAR]] = index_of[c << 6 | digit << 1]
                                cnt[NPAR] += 1
                                pnpar[q] += 1
            if dynamic:
                strike(cands, places, where, n, pkey[p] >> 6, pkey[p] >> 1 & 31)
            for q in range(first, cnt[NPOT]):
                other = index_of[pkey[q] ^ 1]
                if other >= 0:
                    cnt[STATUS] = 1
                    cnt[ABSURD_ON] = q
                    cnt[ABSURD_OFF] = other
                    return
                if index_of[pkey[q]] < 0:
                    index_of[pkey[q]] = q
                    qon[cnt[ON_TAIL]] = q
                    cnt[ON_TAIL] += 1


@njit(_nrt=False, cache=True)
def set_keys(pkey, first, end, index_of, on, out, m):  # type: ignore[no-untyped-def]
    """The keys of a propagation's "on" (or "off") set whose rows lie from ``first`` to ``end`` (each
    key's row is the one ``index_of`` holds), in the order they were added, into ``out`` from ``m``: the
    count after them."""
    for r in range(first, end):
        k = pkey[r]
        if (k & 1) == on and index_of[k] == r:
            out[m] = k
            m += 1
    return m


@njit(_nrt=False, cache=True)
def keep(keys, m, index_of):  # type: ignore[no-untyped-def]
    """The first ``m`` keys that ``index_of`` also holds, kept in order (in place): their count."""
    kept = 0
    for j in range(m):
        if index_of[keys[j]] >= 0:
            keys[kept] = keys[j]
            kept += 1
    return kept


@njit(_nrt=False, cache=True)
def chain_rows(pkey, pstart, pnpar, par, row, mark, stamp, out):  # type: ignore[no-untyped-def]
    """The rows ``row`` rests on, itself first, breadth first, each key once (as ``chaining.chain_of``
    walks the potentials: first come, first kept), into ``out``; their count. ``mark`` is by key (keys
    marked with ``stamp`` are taken)."""
    mark[pkey[row]] = stamp
    out[0] = row
    head, tail = 0, 1
    while head < tail:
        r = out[head]
        head += 1
        for j in range(pstart[r], pstart[r] + pnpar[r]):
            q = par[j]
            if mark[pkey[q]] != stamp:
                mark[pkey[q]] = stamp
                out[tail] = q
                tail += 1
    return tail


@njit(_nrt=False, cache=True)
def advanced_in(pkey, pcause, pstart, pnpar, par, row, mark, stamp, out):  # type: ignore[no-untyped-def]
    """The rows of ``row``'s chain (``chain_rows``, whose arguments it takes) that an inner technique
    made, in the chain's order, into ``out``: their count."""
    m = 0
    for i in range(chain_rows(pkey, pstart, pnpar, par, row, mark, stamp, out)):
        if pcause[out[i]] == ADVANCED_CAUSE:
            out[m] = out[i]
            m += 1
    return m


@njit(_nrt=False, cache=True)
def struck_under(pkey, pcause, chain, count, initial, before, after, regions, n, mark, stamp, out, m):  # type: ignore[no-untyped-def]
    """What the "on"s of the first ``count`` rows of ``chain`` rest on by their rules (SE's
    ``getRuleParents``): by the cell rule the cell's digits in ``before`` and not in ``after``, by a
    region rule (its type) the digit's places struck there; a row without a cause reads ``initial`` (-1:
    none). Appended to ``out`` from ``m`` as "off" keys, in that order, each once (``mark`` by key,
    ``stamp``); the new count."""
    for i in range(count):
        r = chain[i]
        k = pkey[r]
        cause = pcause[r] if pcause[r] >= 0 else initial
        if not k & 1 or cause < 0:
            continue
        cell = k >> 6
        if cause == CELL_CAUSE:
            gone = before[cell] & ~after[cell]
            while gone:
                key = cell << 6 | (trailing_zeros(gone) + 1) << 1
                gone &= gone - 1
                if mark[key] != stamp:
                    mark[key] = stamp
                    out[m] = key
                    m += 1
        else:
            digit = k >> 1 & 31
            bit = 1 << (digit - 1)
            for j in range(n):
                c = regions[cell, cause, j]
                if before[c] & bit and not after[c] & bit:
                    key = c << 6 | digit << 1
                    if mark[key] != stamp:
                        mark[key] = stamp
                        out[m] = key
                        m += 1
    return m


@njit(_nrt=False, cache=True)
def struck_each(  # type: ignore[no-untyped-def]
    pkey, pcause, pstart, pnpar, par, refs, first, count, initial, before, after, regions, n,
    cmark, cstamp, chain, kmark, kstamp, out, starts,
):  # fmt: skip
    """``struck_keys`` of many hints of one arena at once: hint ``h`` ends in the rows
    ``refs[first[h]:first[h] + count[h]]`` and its assumption reads ``initial[h]``; its keys go to
    ``out[starts[h]:starts[h + 1]]``. Marks as ``struck_keys`` takes them, each walk with the next stamp
    from ``cstamp`` (chains) or ``kstamp`` (keys): the caller has that many stamps free."""
    m = 0
    for h in range(first.shape[0]):
        starts[h] = m
        for e in range(first[h], first[h] + count[h]):
            c = chain_rows(pkey, pstart, pnpar, par, refs[e], cmark, cstamp, chain)
            cstamp += 1
            m = struck_under(
                pkey, pcause, chain, c, initial[h], before, after, regions, n, kmark, kstamp, out, m
            )
        kstamp += 1
    starts[first.shape[0]] = m


@njit(_nrt=False, cache=True)
def struck_count(before, after):  # type: ignore[no-untyped-def]
    """How many candidates of ``before`` are not in ``after``."""
    total = 0
    for cell in range(before.shape[0]):
        total += popcount(before[cell] & ~after[cell])
    return total


@njit(_nrt=False, cache=True)
def add_struck(  # type: ignore[no-untyped-def]
    pkey, pcause, pstart, pnpar, par, index_of, qoff, cnt, keys, starts, cells, masks, cause, shared, added,
):  # fmt: skip
    """Many ``Store.add_off`` at once: hint ``h`` (in order) removes the digits ``masks[h]`` of
    ``cells[h]`` and rests on the "off"s of ``keys[starts[h]:starts[h + 1]]`` (``struck_each``); a hint
    that rests on none is no use inside the chain. Each digit not known yet becomes an "off" row of
    ``cause`` with those rows as parents, queued; ``added`` gets (row, hint) per new row. Returns how
    many hints rest on something and how many rows were added; with nothing changed, (-1, 0) when the
    arrays have no room for them, (-2, 0) when they are ``shared`` with another store and would change
    (the caller grows them, or makes them its own, and asks again). ``added`` has room for every digit.
    """
    rows = 0
    parents = 0
    resting = 0
    for h in range(cells.shape[0]):
        if starts[h + 1] == starts[h]:
            continue
        resting += 1
        m = masks[h]
        while m:
            k = cells[h] << 6 | (trailing_zeros(m) + 1) << 1
            m &= m - 1
            if index_of[k] < 0:
                rows += 1
                parents += starts[h + 1] - starts[h]
    if rows == 0:
        return resting, 0
    if shared:
        return -2, 0
    q, start = cnt[NPOT], cnt[NPAR]
    if q + rows > pkey.shape[0] or start + parents > par.shape[0]:
        return -1, 0
    m_added = 0
    for h in range(cells.shape[0]):
        if starts[h + 1] == starts[h]:
            continue
        cell = cells[h]
        m = masks[h]
        while m:
            k = cell << 6 | (trailing_zeros(m) + 1) << 1
            m &= m - 1
            if index_of[k] >= 0:
                continue
            pkey[q], pcause[q], pstart[q], pnpar[q] = k, cause, start, starts[h + 1] - starts[h]
            for j in range(starts[h], starts[h + 1]):
                par[start] = index_of[keys[j]]
                start += 1
            index_of[k] = q
            qoff[cnt[OFF_TAIL]] = q
            cnt[OFF_TAIL] += 1
            added[m_added, 0], added[m_added, 1] = q, h
            m_added += 1
            q += 1
    cnt[NPOT], cnt[NPAR] = q, start
    return resting, m_added


@njit(_nrt=False, cache=True)
def count_ancestors(pkey, pstart, pnpar, par, row, mark, stamp, stack):  # type: ignore[no-untyped-def]
    """How many rows ``row`` rests on, itself included: SE's ``getAncestorCount`` (``chain_rows``'s
    count; ``stack`` has room for every key)."""
    return chain_rows(pkey, pstart, pnpar, par, row, mark, stamp, stack)


_MARKS = threading.local()


def marks(nkeys: int, which: int = 0, stamps: int = 1) -> tuple[np.ndarray, int, np.ndarray]:
    """Marks by key, a stamp no mark holds yet and room for a chain, for one walk of ``chain_rows``
    (shared by a thread's walks over ``nkeys`` keys: each takes a new stamp, so no mark is cleared;
    ``which`` 1 is a second set, for what a walk's caller marks meanwhile). ``stamps`` walks take the
    stamps from the one given on."""
    pool: dict[tuple[int, int], tuple[np.ndarray, list[int], np.ndarray]] = _MARKS.__dict__.setdefault(
        "pool", {}
    )
    found = pool.get((nkeys, which))
    if found is None or found[1][0] + stamps >= 2**31 - 2:
        found = pool[nkeys, which] = (np.zeros(nkeys, dtype=np.int32), [0], np.empty(nkeys, dtype=np.int32))
    mark, stamp, out = found
    stamp[0] += stamps
    return mark, stamp[0] - stamps + 1, out


def struck_keys(
    ends: Sequence[tuple[Rows, int]],
    initial: int,
    before: np.ndarray,
    after: np.ndarray,
    regions: np.ndarray,
    n: int,
) -> np.ndarray:
    """What the chains to the rows ``ends`` rest on by their rules (``struck_under`` over each chain, in
    order, each key once), as "off" keys; ``initial`` the cause the initial assumption reads (-1: none)."""
    mark, stamp, out = marks(len(before) << 6, 1)
    m = 0
    for rows, row in ends:
        cmark, cstamp, chain = marks(rows.nkeys)
        c = chain_rows(rows.pkey, rows.pstart, rows.pnpar, rows.par, row, cmark, cstamp, chain)
        m = struck_under(
            rows.pkey, rows.pcause, chain, c, initial, before, after, regions, n, mark, stamp, out, m
        )
    return out[:m].copy()


@cache
def target_room(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Room for the targets of one potential (key, cause), as ``propagate`` takes it: shared, since a
    propagation uses it only between two of its own steps."""
    return np.empty(4 * n, dtype=np.int32), np.empty(4 * n, dtype=np.int32)


class Rows:
    """Potentials as rows of arrays: key (SE's ``cell << 6 | digit << 1 | on``), cause, parents (rows),
    and the inner hint behind each potential of a nested level; made into ``Potential`` objects, with
    their parents, only when read."""

    def __init__(
        self,
        pkey: np.ndarray,
        pcause: np.ndarray,
        pstart: np.ndarray,
        pnpar: np.ndarray,
        par: np.ndarray,
        ncells: int,
    ) -> None:
        self.pkey, self.pcause, self.pstart, self.pnpar, self.par = pkey, pcause, pstart, pnpar, par
        self.nkeys = ncells << 6  # keys are below this
        #: the inner hint of each ADVANCED row (row -> hint)
        self.nested: dict[int, Any] = {}
        self._made: dict[int, Potential] = {}

    def chain(self, row: int) -> np.ndarray:
        """The rows ``row`` rests on, itself first, in ``chaining.chain_of``'s order (``chain_rows``)."""
        mark, stamp, out = marks(self.nkeys)
        return out[: chain_rows(self.pkey, self.pstart, self.pnpar, self.par, row, mark, stamp, out)].copy()

    def chain_keys(self, row: int) -> tuple[int, ...]:
        """The keys of ``row``'s chain (``chain``): what a chain's identity compares."""
        return tuple(self.pkey[self.chain(row)].tolist())

    def nested_in(self, row: int) -> list[Any]:
        """The inner hints behind the rows of ``row``'s chain, in its order (None for an inner technique
        that is no chain): what a nested hint's complexity adds up, read with no chain made in Python."""
        if not self.nested:
            return []
        mark, stamp, out = marks(self.nkeys)
        m = advanced_in(self.pkey, self.pcause, self.pstart, self.pnpar, self.par, row, mark, stamp, out)
        return [self.nested.get(r) for r in out[:m].tolist()]  # the compiled inner techniques' are None

    def potential(self, row: int) -> Potential:
        """Row ``row`` as a ``Potential`` with its parents (made once per row)."""
        from .chaining import Potential

        made = self._made
        out = made.get(row)
        if out is not None:
            return out
        todo: set[int] = set()
        stack = [row]
        while stack:
            r = stack.pop()
            if r in made or r in todo:
                continue
            todo.add(r)
            start = int(self.pstart[r])
            stack.extend(self.par[start : start + int(self.pnpar[r])].tolist())
        for r in sorted(todo):  # parents come before their children
            k = int(self.pkey[r])
            start, cause = int(self.pstart[r]), int(self.pcause[r])
            parents = [made[x] for x in self.par[start : start + int(self.pnpar[r])].tolist()]
            made[r] = Potential(k >> 6, k >> 1 & 31, bool(k & 1), parents, None if cause < 0 else cause)
            nested = self.nested.get(r)
            made[r].nested = None if nested is None else nested.made()
        return made[row]


class Store(Rows):
    """The potentials of one propagation from one assumption (row 0), with its state: the candidates as
    it has struck them, its pending queues, and per key the row that holds it (its sets). ``source`` is
    the grid's candidates and ``places`` its regions' places (``places_of``), shared and not changed."""

    def __init__(
        self,
        geo: Geometry,
        source: np.ndarray,
        places: np.ndarray,
        cell_rule: bool,
        dynamic: bool,
        cell: int,
        digit: int,
        on: bool,
    ) -> None:
        self.geo = geo
        self.regions, _, self.where = tables(geo.box_rows, geo.box_cols)
        self.cell_rule, self.dynamic = cell_rule, dynamic
        keys, cap = geo.ncells << 6, _FIRST_ROWS
        self.source = source
        self.cands = source.copy() if dynamic else source
        self.places = places.copy() if dynamic else places
        buffer = np.empty(keys + 6 * cap + 4 * cap, dtype=np.int32)
        self.index_of = buffer[:keys]
        self.index_of.fill(-1)
        pkey, pcause, pstart, pnpar, self.qon, self.qoff = buffer[keys : keys + 6 * cap].reshape(6, cap)
        super().__init__(pkey, pcause, pstart, pnpar, buffer[keys + 6 * cap :], geo.ncells)
        self.cnt = np.zeros(9, dtype=np.int64)
        self._keys: tuple[np.ndarray, np.ndarray] | None = None
        self._shared = False
        k = cell << 6 | digit << 1 | int(on)
        self.pkey[0], self.pcause[0], self.pstart[0], self.pnpar[0] = k, _NONE, 0, 0
        self.index_of[k] = 0
        self.cnt[NPOT] = 1
        self._push(0, on)

    def copy(self) -> Store:
        """Another store in the same state, to go on from without changing this one (the potentials
        already made are shared: rows never change). The two share their arrays until one of them
        changes (``own``): a nested level resumes every propagation of the level below, and most it does
        not add to."""
        other = Store.__new__(Store)
        other.__dict__.update(self.__dict__)
        self._shared = other._shared = True
        return other

    def own(self) -> None:
        """Copies of the arrays and sets it shares with another store (``copy``), before it changes them."""
        if not self._shared:
            return
        for name in ("index_of", "pkey", "pcause", "pstart", "pnpar", "par", "qon", "qoff", "cnt"):
            setattr(self, name, getattr(self, name).copy())
        if self.dynamic:
            self.cands, self.places = self.cands.copy(), self.places.copy()
        self.nested, self._made = dict(self.nested), dict(self._made)
        self._shared = False

    def _push(self, q: int, on: bool) -> None:
        queue, tail = (self.qon, ON_TAIL) if on else (self.qoff, OFF_TAIL)
        queue[self.cnt[tail]] = q
        self.cnt[tail] += 1

    def run(self) -> tuple[int, int] | None:
        """Propagate until nothing is pending: the contradiction's (on, off) rows, or None. (The nested
        levels settle their propagations with ``advanced.settle``; this step alone is what the tests hold
        it and the inner techniques to.)"""
        self.own()
        while True:
            propagate(
                self.cands, self.places, self.source, self.regions, self.where, self.geo.n, self.cell_rule,
                self.dynamic, self.pkey, self.pcause, self.pstart, self.pnpar, self.par, self.index_of,
                self.qon, self.qoff, self.cnt, *target_room(self.geo.n),
            )  # fmt: skip
            if self.cnt[STATUS] != 2:
                break
            self.grow(0)
        self.forget_keys()
        if self.cnt[STATUS]:
            return int(self.cnt[ABSURD_ON]), int(self.cnt[ABSURD_OFF])
        return None

    def forget_keys(self) -> None:
        """The sets' keys read again at the next ``keys`` (after a propagation added to them)."""
        self._keys = None

    def add_off(self, cell: int, digit: int, parents: list[int], cause: int, hint: Any) -> bool:
        """An "off" found by an inner technique, resting on the rows ``parents``; False when its key is
        already known."""
        k = cell << 6 | digit << 1
        if self.index_of[k] >= 0:
            return False
        self.own()
        start, q = int(self.cnt[NPAR]), int(self.cnt[NPOT])
        if q + 1 > len(self.pkey) or start + len(parents) > len(self.par):
            self.grow(len(parents))
        self.pkey[q], self.pcause[q], self.pstart[q], self.pnpar[q] = k, cause, start, len(parents)
        self.par[start : start + len(parents)] = parents
        self.cnt[NPOT], self.cnt[NPAR] = q + 1, start + len(parents)
        self.index_of[k] = q
        self.nested[q] = hint
        self._push(q, False)
        return True

    def add_struck(
        self, keys: np.ndarray, starts: np.ndarray, cells: np.ndarray, masks: np.ndarray, cause: int
    ) -> tuple[int, list[list[int]]]:
        """``add_off`` for many hints at once (``propagation.add_struck``, in their order): how many rest
        on something, and per new "off" its row and hint (the caller keeps the hints in ``nested``)."""
        added = np.empty((max(1, len(cells)) * self.geo.n, 2), dtype=np.int64)
        while True:
            resting, count = add_struck(
                self.pkey, self.pcause, self.pstart, self.pnpar, self.par, self.index_of, self.qoff, self.cnt,
                keys, starts, cells, masks, cause, self._shared, added,
            )  # fmt: skip
            if resting == -2:
                self.own()
            elif resting == -1:
                self.grow(len(keys) * self.geo.n)
            else:
                return resting, added[:count].tolist()

    def grow(self, more: int) -> None:
        """Twice the rows, and twice the parents and ``more``."""
        self.own()
        for name in ("pkey", "pcause", "pstart", "pnpar", "qon", "qoff"):
            old = getattr(self, name)
            setattr(self, name, np.concatenate([old, np.empty(len(old), dtype=np.int32)]))
        self.par = np.concatenate([self.par, np.empty(len(self.par) + more, dtype=np.int32)])

    def row(self, cell: int, digit: int, on: bool) -> int:
        """The row of a potential in the sets, or -1."""
        return int(self.index_of[cell << 6 | digit << 1 | int(on)])

    def keys(self, on: bool) -> np.ndarray:
        """The keys of the "on" (or "off") set, in the order they were added."""
        if self._keys is None:
            npot = int(self.cnt[NPOT])
            keys = self.pkey[:npot]
            kept = keys[self.index_of[keys] == np.arange(npot)]
            odd = (kept & 1).astype(np.bool_)
            self._keys = (kept[~odd], kept[odd])
        return self._keys[int(on)]

    def ancestors(self, row: int) -> int:
        """How many potentials row ``row`` rests on, itself included (SE's ``getAncestorCount``)."""
        mark, stamp, stack = marks(self.nkeys)
        return int(count_ancestors(self.pkey, self.pstart, self.pnpar, self.par, row, mark, stamp, stack))
