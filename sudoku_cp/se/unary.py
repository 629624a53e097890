"""SE's producer 21 searched compiled: X- and Y-cycles and forcing chains on the grid as it is.

For each link mode (X-links, Y-links, both) and each candidate, Sudoku Explainer searches breadth first
for cycles back to the candidate and for a forcing chain to its conjugate (``Chaining.doCycles`` and
``doForcingChains``). Every potential here has one parent, so the search keeps a parent index per node;
what it finds leaves as paths (keys and causes, from the end back to the start), which ``Chaining`` makes
into potentials and hints. The order of the paths is the order SE finds them in.

Most searches find nothing (nested levels run this producer each time an assumption's propagation stalls,
on grids where no chain exists), so each mode first computes which potentials reach which, as strongly
connected components of its link graph (Tarjan 1972) and the components each reaches (bit sets, in the
order Tarjan completes them): a forcing chain from a potential is searched only when its conjugate is
reachable, a cycle only when one of the potentials that link back to the start is in its component. A
search skipped so would have found nothing, so the paths and their order are SE's.

The searches run in arrays kept between calls (``_Room``, per grid size), their marks told apart by
stamps, and record paths into room they are given, a call that runs short starting over with twice the
room: made per call and grown inside the searches' loops (an array reassigned there costs numba's
reference counts on every pass), they were a third of a call's time (178 -> 106 us a call on a forum
walk's grids).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .propagation import CELL_CAUSE, off_targets, on_targets, places_of
from .reach import components, reach_bits, reaches
from .set_kernels import popcount

__all__ = ["CYCLE", "FORCING", "MODES", "search"]

#: What a path ends: a cycle back to its start, or a forcing chain to the start's conjugate.
CYCLE, FORCING = 0, 1
#: The link modes in SE's order, as (Y-links, X-links).
MODES = ((False, True), (True, False), (True, True))


@njit(_nrt=False, cache=True)
def _record(found, path, nfound, npath, kind, mode, k, cause, p, nkey, ncause, npar):  # type: ignore[no-untyped-def]
    """The path ending in a new node (``k``, ``cause``) whose parent is node ``p``, written after the
    first ``nfound`` rows of ``found`` and ``npath`` entries of ``path``: their counts after it, or -1
    (nothing written) when either has no room for it."""
    length = 1
    r = p
    while r >= 0:
        length += 1
        r = npar[r]
    if npath + length > path.shape[1] or nfound == found.shape[0]:
        return -1, npath
    found[nfound, 0], found[nfound, 1], found[nfound, 2], found[nfound, 3] = kind, mode, npath, length
    path[0, npath], path[1, npath] = k, cause
    j = npath + 1
    r = p
    while r >= 0:
        path[0, j], path[1, j] = nkey[r], ncause[r]
        j += 1
        r = npar[r]
    return nfound + 1, npath + length


@njit(_nrt=False, cache=True)
def _removes(cands, regions, block_of, n, path, first, length, marks):  # type: ignore[no-untyped-def]
    """Whether the cycle of keys ``path[0, first:first + length]`` removes anything: a candidate outside
    its cells that sees an "on" of its digit on the cycle and an "off" of it (the start, last, is left out).
    ``marks``: rows of stamps (the cycle's cells; candidates that see an "on", an "off"), the last entry
    of the first row counting the calls."""
    on_cells, seen_on, seen_off = marks[0], marks[1], marks[2]
    stamp = on_cells[-1] + 1
    on_cells[-1] = stamp
    for j in range(first, first + length - 1):
        on_cells[path[0, j] >> 6] = stamp
    for j in range(first, first + length - 1):
        cell = path[0, j] >> 6
        digit = path[0, j] >> 1 & 31
        for t in range(3):
            for i in range(n):
                c = regions[cell, t, i]
                if c == cell or on_cells[c] == stamp or not cands[c] >> (digit - 1) & 1:
                    continue
                if t >= 1 and block_of[c] == block_of[cell]:
                    continue
                x = c * n + digit - 1
                if path[0, j] & 1:
                    seen_on[x] = stamp
                    if seen_off[x] == stamp:
                        return True
                else:
                    seen_off[x] = stamp
                    if seen_on[x] == stamp:
                        return True
    return False


@njit(_nrt=False, cache=True)
def _mark_line(nkey, npar, p, line, stamp):  # type: ignore[no-untyped-def]
    """Mark with ``stamp`` the keys on node ``p``'s parent line (``p`` excluded): a link back to one of
    them would make the chain meet itself."""
    r = npar[p]
    while r >= 0:
        line[nkey[r]] = stamp
        r = npar[r]


#: Above this many candidates, a mode's reachability (bits per pair of components) is not computed and
#: every search runs: 9x9 has at most 729, 16x16 4,096.
_REACH_NODES = 4096


@njit(_nrt=False, cache=True)
def _on_graph(nodes, nnodes, nid, adj_k, adj_n, lo, first, links):  # type: ignore[no-untyped-def]
    """The links between "on" potentials (``nodes``, keys): one turns off a potential whose "off" turns
    the other on. As lists (``links[first[v]:first[v + 1]]``, nodes by ``nid``)."""
    m = 0
    for v in range(nnodes):
        first[v] = m
        k = nodes[v]
        for j in range(adj_n[k]):
            off = adj_k[k, lo[k] + j]
            for i in range(adj_n[off]):
                links[m] = nid[adj_k[off, lo[off] + i]]
                m += 1
    first[nnodes] = m


@njit(_nrt=False, cache=True, inline="always")
def _span(k, first, last, lo, adj_n):  # type: ignore[no-untyped-def]
    """Key ``k``'s links of a mode: its links of both rules from ``first`` to ``last`` (read in place)."""
    lo[k] = first
    adj_n[k] = last - first


@njit(_nrt=False, cache=True)
def _may_force(reach, comp, nid, adj_k, adj_n, lo, k):  # type: ignore[no-untyped-def]
    """Whether the potential of key ``k`` reaches its conjugate. From an "on": some "on" it reaches
    turns it off (those that do are the ones it turns off, the rules being symmetric). From an "off":
    it turns on some potential that reaches its "on"."""
    if k & 1:
        a = nid[k]
        for j in range(adj_n[k]):  # noqa: SIM110 (numba compiles loops, not any() of generators)
            if reaches(reach, comp, a, nid[adj_k[k, lo[k] + j] | 1]):
                return True
        return False
    b = nid[k | 1]
    for j in range(adj_n[k]):  # noqa: SIM110
        if reaches(reach, comp, nid[adj_k[k, lo[k] + j]], b):
            return True
    return False


@njit(_nrt=False, cache=True)
def _cycles(  # type: ignore[no-untyped-def]
    cands, regions, block_of, n, start, mode, adj_k, adj_c, adj_n, lo, nkey, ncause, npar,
    qon, qoff, seen, line, found, path, nfound, npath, stamp, marks, comp, nid, home, marks3,
):  # fmt: skip
    """SE's ``doCycles`` from the "on" potential ``start``: half-steps breadth first (an "on" turns off
    what is not on its own line, each "on" reached once), every return to it after four or more half-steps
    that removes something recorded; the counts of ``found`` and ``path`` (the first -1 when they had no
    room for a path) and the two stamps.

    With ``home`` (the start's component of "on"s, else -1), an "on" of another component is not followed:
    nothing it leads to leads back to the start, so no path through it is recorded."""
    stamp += 1
    nkey[0], ncause[0], npar[0] = start, -1, -1
    nodes = 1
    seen[start] = stamp
    on_head, on_tail, off_head, off_tail = 0, 1, 0, 0
    qon[0] = 0
    length = 0
    while on_head < on_tail or off_head < off_tail:
        length += 1
        while on_head < on_tail:
            p = qon[on_head]
            on_head += 1
            kp = nkey[p]  # (its links read in place: a row taken as a view costs a reference count)
            marks += 1
            _mark_line(nkey, npar, p, line, marks)
            for j in range(adj_n[kp]):
                if line[adj_k[kp, lo[kp] + j]] != marks:
                    nkey[nodes], ncause[nodes], npar[nodes] = adj_k[kp, lo[kp] + j], adj_c[kp, lo[kp] + j], p
                    qoff[off_tail] = nodes
                    off_tail += 1
                    nodes += 1
        length += 1
        while off_head < off_tail:
            p = qoff[off_head]
            off_head += 1
            kp = nkey[p]
            for j in range(adj_n[kp]):
                k = adj_k[kp, lo[kp] + j]
                if length >= 4 and k == start:
                    nfound, npath = _record(
                        found, path, nfound, npath, 0, mode, k, adj_c[kp, lo[kp] + j], p, nkey, ncause, npar
                    )
                    if nfound < 0:
                        return nfound, npath, stamp, marks
                    first, last = found[nfound - 1, 2], found[nfound - 1, 3]
                    if not _removes(cands, regions, block_of, n, path, first, last, marks3):
                        nfound -= 1  # a cycle that removes nothing is no hint
                        npath = found[nfound, 2]
                if seen[k] != stamp and (home < 0 or comp[nid[k]] == home):
                    seen[k] = stamp
                    nkey[nodes], ncause[nodes], npar[nodes] = k, adj_c[kp, lo[kp] + j], p
                    qon[on_tail] = nodes
                    on_tail += 1
                    nodes += 1
    return nfound, npath, stamp, marks


@njit(_nrt=False, cache=True)
def _forcing(  # type: ignore[no-untyped-def]
    first, mode, adj_k, adj_c, adj_n, lo, nkey, ncause, npar, qon, qoff, seen, found, path, nfound, npath,
    stamp,
):  # fmt: skip
    """SE's ``doForcingChains`` from the potential ``first``: breadth first, each potential reached once,
    until its conjugate (recorded). SE also keeps a chain from turning off its own ancestors; they are all
    reached already, so the check is the one of ``seen``. The counts of ``found`` (-1 when it or ``path``
    had no room for the path) and ``path``, and the stamp."""
    stamp += 1
    conjugate = first ^ 1
    nkey[0], ncause[0], npar[0] = first, -1, -1
    nodes = 1
    seen[first] = stamp
    on_head, on_tail, off_head, off_tail = 0, 0, 0, 0
    if first & 1:
        qon[0] = 0
        on_tail = 1
    else:
        qoff[0] = 0
        off_tail = 1
    done = False
    while not done and (on_head < on_tail or off_head < off_tail):
        while not done and on_head < on_tail:  # each "on" turns off what it links to
            p = qon[on_head]
            on_head += 1
            done, off_tail, nodes = _reach_from(
                p, conjugate, adj_k, adj_c, adj_n, lo, nkey, ncause, npar, seen, stamp, qoff, off_tail, nodes
            )
        while not done and off_head < off_tail:  # each "off" turns on (x-links are on with forcing chains)
            p = qoff[off_head]
            off_head += 1
            done, on_tail, nodes = _reach_from(
                p, conjugate, adj_k, adj_c, adj_n, lo, nkey, ncause, npar, seen, stamp, qon, on_tail, nodes
            )
    if done:  # the conjugate's node is the last made
        last = nodes - 1
        nfound, npath = _record(
            found, path, nfound, npath, 1, mode, nkey[last], ncause[last], npar[last], nkey, ncause, npar
        )
    return nfound, npath, stamp


@njit(_nrt=False, cache=True, inline="always")
def _reach_from(  # type: ignore[no-untyped-def]
    p, conjugate, adj_k, adj_c, adj_n, lo, nkey, ncause, npar, seen, stamp, queue, tail, nodes
):  # fmt: skip
    """One step of a forcing chain's search from node ``p``: when ``p`` links to the conjugate, that made
    the last node (done); else each potential it links to that is not reached yet made a node and queued.
    Whether done, the queue's tail and the node count."""
    kp = nkey[p]  # (its links read in place: a row taken as a view costs a reference count)
    for j in range(adj_n[kp]):
        k = adj_k[kp, lo[kp] + j]
        if k == conjugate:
            nkey[nodes], ncause[nodes], npar[nodes] = k, adj_c[kp, lo[kp] + j], p
            return True, tail, nodes + 1
        if seen[k] != stamp:
            seen[k] = stamp
            nkey[nodes], ncause[nodes], npar[nodes] = k, adj_c[kp, lo[kp] + j], p
            queue[tail] = nodes
            tail += 1
            nodes += 1
    return False, tail, nodes


@njit(cache=True)
def _search(cands, regions, block_of, where, n, prune, room, found, path, cnt):  # type: ignore[no-untyped-def]
    """Every path of producer 21 on ``cands`` into ``found`` and ``path``: their counts (the first -1 when
    they had no room: the caller grows them and calls again). ``room``: the arrays it searches in
    (``_Room``); ``cnt``: the stamps of ``seen``/``line`` and of ``_removes``' marks, kept between calls."""
    nkey, ncause, npar, qon, qoff, seen, line, marks3 = room[0]
    all_k, all_c, all_n, by_cell, lo, adj_n = room[1]
    adj_k, adj_c = all_k, all_c  # a mode's links are a span of each key's (``_span``)
    nodes, nid, first, links, comp, size = room[2]
    ncells = cands.shape[0]
    places = places_of(cands, where, n)
    marks, stamp = cnt[0], cnt[1]
    for cell in range(ncells):
        mask = cands[cell]
        while mask:
            digit = trailing_zeros(mask) + 1
            mask &= mask - 1
            k = cell << 6 | digit << 1
            all_n[k | 1] = on_targets(
                cands, places, regions, where, n, k | 1, True, all_k[k | 1], all_c[k | 1]
            )
            all_n[k] = off_targets(cands, places, regions, where, n, k, True, True, all_k[k], all_c[k])
            by_cell[k | 1] = popcount(cands[cell]) - 1
            by_cell[k] = 1 if all_n[k] and all_c[k, 0] == CELL_CAUSE else 0
    nfound = 0
    npath = 0
    reach = np.zeros((1, 1), dtype=np.uint64)
    for mode in range(3):
        y_links = mode >= 1
        x_links = mode != 1
        nnodes = 0
        for cell in range(ncells):
            for digit in range(1, n + 1):
                if cands[cell] >> (digit - 1) & 1:
                    k = cell << 6 | digit << 1
                    # an "on": the cell rule's links with Y-links; an "off": with Y-links, the cell rule's,
                    # and with X-links the region rule's
                    _span(k | 1, 0 if y_links else by_cell[k | 1], all_n[k | 1], lo, adj_n)
                    _span(k, 0 if y_links else by_cell[k], all_n[k] if x_links else by_cell[k], lo, adj_n)
                    nodes[nnodes] = k | 1
                    nid[k | 1] = nnodes
                    nnodes += 1
        pruned = prune and nnodes <= _REACH_NODES
        if pruned:
            _on_graph(nodes, nnodes, nid, adj_k, adj_n, lo, first, links)
            ncomp = components(nnodes, first, links, comp, size)
            reach = reach_bits(nnodes, first, links, comp, ncomp)
        for cell in range(ncells):
            mask = cands[cell]
            count = 0
            for d in range(n):
                count += mask >> d & 1
            if count < 2 or (count > 2 and not x_links):
                continue  # Y-cycles start on bivalue cells only
            for digit in range(1, n + 1):
                if not mask >> (digit - 1) & 1:
                    continue
                start = cell << 6 | digit << 1 | 1
                if not pruned or size[comp[nid[start]]] > 1:  # else no other "on" leads back to it
                    nfound, npath, stamp, marks = _cycles(
                        cands, regions, block_of, n, start, mode, adj_k, adj_c, adj_n, lo, nkey, ncause, npar,
                        qon, qoff, seen, line, found, path, nfound, npath, stamp, marks,
                        comp, nid, comp[nid[start]] if pruned else -1, marks3,
                    )  # fmt: skip
                    if nfound < 0:
                        return -1, 0
                if not x_links:
                    continue
                # forcing chains from the candidate on, then off, to its conjugate
                for origin in (start, start ^ 1):
                    if pruned and not _may_force(reach, comp, nid, adj_k, adj_n, lo, origin):
                        continue
                    nfound, npath, stamp = _forcing(
                        origin, mode, adj_k, adj_c, adj_n, lo, nkey, ncause, npar, qon, qoff, seen,
                        found, path, nfound, npath, stamp,
                    )  # fmt: skip
                    if nfound < 0:
                        return -1, 0
    cnt[0], cnt[1] = marks, stamp
    return nfound, npath


class _Room:
    """The arrays the searches on one grid size run in, made by Python and kept between calls (made per
    call, about 3 MB, they were a tenth of a call's time), with the stamps that tell a search's marks from
    older ones; ``found``/``path`` are the sizes of the next call's outputs, doubled when one ran short."""

    #: Stamps are reset (the marks zeroed) before they could reach int32's limit.
    STAMP_LIMIT = 1 << 30
    #: The first calls' room for paths and for their keys.
    FOUND, PATH = 64, 1024

    def __init__(self, ncells: int, n: int) -> None:
        keys, links = ncells << 6, 4 * n
        cap = (ncells * n + 1) * (4 * n + 1) + 16
        i32 = np.int32
        self.search = (
            (
                *(np.empty(cap, dtype=i32) for _ in range(5)),  # nodes' keys, causes, parents; queues
                np.zeros(keys, dtype=i32),  # seen
                np.zeros(keys, dtype=i32),  # line
                np.zeros((3, ncells * n + 1), dtype=i32),  # _removes' marks
            ),
            (
                np.empty((keys, links), dtype=i32),  # both rules' links: keys, causes, count
                np.empty((keys, links), dtype=i32),
                np.zeros(keys, dtype=i32),
                np.zeros(keys, dtype=i32),  # the cell rule's among them
                np.zeros(keys, dtype=i32),  # a mode's: where they start among them, and their count
                np.zeros(keys, dtype=i32),
            ),
            (
                np.empty(ncells * n, dtype=i32),  # the "on" nodes, their ids by key
                np.empty(keys, dtype=i32),
                np.empty(ncells * n + 1, dtype=i32),  # their links (``_on_graph``)
                np.empty(ncells * n * links * 4, dtype=i32),
                np.empty(ncells * n, dtype=i32),  # components, sizes
                np.empty(ncells * n, dtype=i32),
            ),
        )
        self.cnt = np.zeros(2, dtype=np.int64)
        self.found, self.path = self.FOUND, self.PATH

    def fresh_stamps(self) -> None:
        """The marks zeroed and the stamps back to 0, when they near ``STAMP_LIMIT``."""
        if self.cnt.max() > self.STAMP_LIMIT:
            for marks in self.search[0][5:]:
                marks.fill(0)
            self.cnt[:] = 0


#: Per grid size (cells), the room of the last call that returned (taken out while a call runs).
_ROOMS: dict[int, _Room] = {}


def search(
    cands: np.ndarray,
    regions: np.ndarray,
    block_of: np.ndarray,
    where: np.ndarray,
    n: int,
    prune: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Every cycle and forcing chain of producer 21 on ``cands``, in SE's order: rows ``(kind, mode,
    start, length)`` of the first array, and the paths (keys, causes; end first) they index. The tables
    are ``propagation.tables``. ``prune=False`` runs every search, reachability or not: the same answer,
    slower (the reference the tests hold the pruned search to)."""
    ncells = cands.shape[0]
    room = _ROOMS.pop(ncells, None) or _Room(ncells, n)
    while True:
        room.fresh_stamps()
        found = np.empty((room.found, 4), dtype=np.int32)
        path = np.empty((2, room.path), dtype=np.int32)
        nfound, npath = _search(cands, regions, block_of, where, n, prune, room.search, found, path, room.cnt)
        if nfound >= 0:
            break
        room.found, room.path = 2 * room.found, 2 * room.path  # one ran short: both grow, and again
    _ROOMS[ncells] = room
    return found[:nfound], path[:, :npath]
