"""SE's producer 21 searched compiled: X- and Y-cycles and forcing chains on the grid as it is.

For each link mode (X-links, Y-links, both) and each candidate, Sudoku Explainer searches breadth first
for cycles back to the candidate and for a forcing chain to its conjugate (``Chaining.doCycles`` and
``doForcingChains``). Every potential here has one parent, so the search keeps a parent index per node;
what it finds leaves as paths (keys and causes, from the end back to the start), which ``Chaining`` makes
into potentials and hints. The order of the paths is the order SE finds them in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .propagation import off_targets, on_targets

__all__ = ["CYCLE", "FORCING", "MODES", "search"]

#: What a path ends: a cycle back to its start, or a forcing chain to the start's conjugate.
CYCLE, FORCING = 0, 1
#: The link modes in SE's order, as (Y-links, X-links).
MODES = ((False, True), (True, False), (True, True))


@njit(cache=True)
def _record(found, path, nfound, npath, kind, mode, k, cause, p, nkey, ncause, npar):  # type: ignore[no-untyped-def]
    """The path ending in a new node (``k``, ``cause``) whose parent is node ``p``, appended to ``path``
    (grown when full); the new ``found``, ``path`` and their counts."""
    length = 1
    r = p
    while r >= 0:
        length += 1
        r = npar[r]
    if npath + length > path.shape[1]:
        grown = np.empty((2, 2 * path.shape[1] + length), dtype=np.int32)
        grown[:, :npath] = path[:, :npath]
        path = grown
    if nfound == found.shape[0]:
        more = np.empty((2 * found.shape[0], 4), dtype=np.int32)
        more[:nfound] = found[:nfound]
        found = more
    found[nfound, 0], found[nfound, 1], found[nfound, 2], found[nfound, 3] = kind, mode, npath, length
    path[0, npath], path[1, npath] = k, cause
    j = npath + 1
    r = p
    while r >= 0:
        path[0, j], path[1, j] = nkey[r], ncause[r]
        j += 1
        r = npar[r]
    return found, path, nfound + 1, npath + length


@njit(cache=True)
def _removes(cands, regions, block_of, n, keys, first, length):  # type: ignore[no-untyped-def]
    """Whether the cycle of path ``keys[first:first + length]`` removes anything: a candidate outside its
    cells that sees an "on" of its digit on the cycle and an "off" of it (the start, last, is left out)."""
    ncells = cands.shape[0]
    on_cells = np.zeros(ncells, dtype=np.bool_)
    for j in range(first, first + length - 1):
        on_cells[keys[j] >> 6] = True
    seen_on = np.zeros(ncells * n, dtype=np.bool_)
    seen_off = np.zeros(ncells * n, dtype=np.bool_)
    for j in range(first, first + length - 1):
        cell = keys[j] >> 6
        digit = keys[j] >> 1 & 31
        for t in range(3):
            for i in range(n):
                c = regions[cell, t, i]
                if c == cell or on_cells[c] or not cands[c] >> (digit - 1) & 1:
                    continue
                if t >= 1 and block_of[c] == block_of[cell]:
                    continue
                if keys[j] & 1:
                    seen_on[c * n + digit - 1] = True
                else:
                    seen_off[c * n + digit - 1] = True
    return np.any(seen_on & seen_off)


@njit(cache=True)
def _mark_line(nkey, npar, p, line, stamp):  # type: ignore[no-untyped-def]
    """Mark with ``stamp`` the keys on node ``p``'s parent line (``p`` excluded): a link back to one of
    them would make the chain meet itself."""
    r = npar[p]
    while r >= 0:
        line[nkey[r]] = stamp
        r = npar[r]


@njit(cache=True)
def _search(cands, regions, block_of, n):  # type: ignore[no-untyped-def]
    ncells = cands.shape[0]
    on_max = ncells * n + 1
    cap = on_max * (4 * n + 1) + 16
    nkey = np.empty(cap, dtype=np.int32)
    ncause = np.empty(cap, dtype=np.int32)
    npar = np.empty(cap, dtype=np.int32)
    qon = np.empty(cap, dtype=np.int32)
    qoff = np.empty(cap, dtype=np.int32)
    seen = np.zeros(ncells << 6, dtype=np.int32)  # the stamp of the search that reached a key
    line = np.zeros(ncells << 6, dtype=np.int32)  # the stamp of the node whose parent line holds a key
    marks = 0
    # the links of every potential in this mode, read once: its targets' keys and causes, and their count
    adj_k = np.empty((ncells << 6, 4 * n), dtype=np.int32)
    adj_c = np.empty((ncells << 6, 4 * n), dtype=np.int32)
    adj_n = np.zeros(ncells << 6, dtype=np.int32)
    found = np.empty((64, 4), dtype=np.int32)
    path = np.empty((2, 1024), dtype=np.int32)
    nfound = 0
    npath = 0
    stamp = 0
    for mode in range(3):
        y_links = mode >= 1
        x_links = mode != 1
        for cell in range(ncells):
            for digit in range(1, n + 1):
                if cands[cell] >> (digit - 1) & 1:
                    k = cell << 6 | digit << 1
                    adj_n[k | 1] = on_targets(
                        cands, regions, block_of, n, k | 1, y_links, adj_k[k | 1], adj_c[k | 1]
                    )
                    adj_n[k] = off_targets(cands, regions, n, k, y_links, x_links, adj_k[k], adj_c[k])
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
                # cycles: half-steps from the start, back to it after four or more
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
                        tk, tc = adj_k[nkey[p]], adj_c[nkey[p]]
                        marks += 1
                        _mark_line(nkey, npar, p, line, marks)
                        for j in range(adj_n[nkey[p]]):
                            if line[tk[j]] != marks:
                                nkey[nodes], ncause[nodes], npar[nodes] = tk[j], tc[j], p
                                qoff[off_tail] = nodes
                                off_tail += 1
                                nodes += 1
                    length += 1
                    while off_head < off_tail:
                        p = qoff[off_head]
                        off_head += 1
                        tk, tc = adj_k[nkey[p]], adj_c[nkey[p]]
                        for j in range(adj_n[nkey[p]]):
                            k = tk[j]
                            if length >= 4 and k == start:
                                found, path, nfound, npath = _record(
                                    found, path, nfound, npath, 0, mode, k, tc[j], p, nkey, ncause, npar
                                )
                                if not _removes(
                                    cands,
                                    regions,
                                    block_of,
                                    n,
                                    path[0],
                                    found[nfound - 1, 2],
                                    found[nfound - 1, 3],
                                ):
                                    nfound -= 1  # a cycle that removes nothing is no hint
                                    npath = found[nfound, 2]
                            if seen[k] != stamp:
                                seen[k] = stamp
                                nkey[nodes], ncause[nodes], npar[nodes] = k, tc[j], p
                                qon[on_tail] = nodes
                                on_tail += 1
                                nodes += 1
                if not x_links:
                    continue
                # forcing chains from the candidate on, then off, to its conjugate
                for first in (start, start ^ 1):
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
                        while not done and on_head < on_tail:
                            p = qon[on_head]
                            on_head += 1
                            tk, tc = adj_k[nkey[p]], adj_c[nkey[p]]
                            marks += 1
                            _mark_line(nkey, npar, p, line, marks)
                            for j in range(adj_n[nkey[p]]):
                                k = tk[j]
                                if k == conjugate:
                                    found, path, nfound, npath = _record(
                                        found, path, nfound, npath, 1, mode, k, tc[j], p, nkey, ncause, npar
                                    )
                                    done = True
                                    break
                                if seen[k] != stamp and line[k] != marks:
                                    seen[k] = stamp
                                    nkey[nodes], ncause[nodes], npar[nodes] = k, tc[j], p
                                    qoff[off_tail] = nodes
                                    off_tail += 1
                                    nodes += 1
                        while not done and off_head < off_tail:
                            p = qoff[off_head]
                            off_head += 1
                            tk, tc = adj_k[nkey[p]], adj_c[nkey[p]]
                            for j in range(adj_n[nkey[p]]):  # x-links are on whenever forcing chains run
                                k = tk[j]
                                if k == conjugate:
                                    found, path, nfound, npath = _record(
                                        found, path, nfound, npath, 1, mode, k, tc[j], p, nkey, ncause, npar
                                    )
                                    done = True
                                    break
                                if seen[k] != stamp:
                                    seen[k] = stamp
                                    nkey[nodes], ncause[nodes], npar[nodes] = k, tc[j], p
                                    qon[on_tail] = nodes
                                    on_tail += 1
                                    nodes += 1
    return found[:nfound], path[:, :npath]


def search(
    cands: np.ndarray, regions: np.ndarray, block_of: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every cycle and forcing chain of producer 21 on ``cands``, in SE's order: rows ``(kind, mode,
    start, length)`` of the first array, and the paths (keys, causes; end first) they index."""
    return _search(cands, regions, block_of, n)
