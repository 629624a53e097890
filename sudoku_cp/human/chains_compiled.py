"""The chain searches of ``chains``, compiled with numba: breadth first from every candidate with a strong
link, at most states of a hard puzzle, nearly always without finding one; in Python they were a quarter
of the walk.

A node is a candidate, ``cell * n + digit - 1``. The links, in the order the searches follow them:

- strong: for an XY-chain, the other candidate of a bivalue cell; for an AIC, that, then the other place
  of the node's digit in each house of its cell (in house order) that holds the digit twice; for an
  X-chain, the latter alone;
- weak (``sees``): the cell's other candidates (not for an X-chain), then the node's digit in the peers
  of its cell, in cell order; a chain goes on by those that have a strong link.

A search from a start assumes it false and goes a level at a time, strong and weak in turn, each node
reached once per kind of arrival; the first node reached by a strong link that is the start (the start
is true) or that sees a candidate the start sees (one of the two is true) closes the chain. XY-chains and
AICs keep the shortest chain, from the first start among the shortest; X-chains search digit by digit and
keep the shortest (ties: the lower start node). The searches go start by start, each no deeper than the
best chain so far, in memory linear in the nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..backends.dfs_kernels import _popcount
from ..signals import compiling

__all__ = ["AIC", "KINDS", "XY", "shortest", "shortest_x", "warm_up"]

#: The kinds of ``shortest``, and by the names ``chains`` gives them.
XY, AIC = 1, 2
KINDS = {"xy": XY, "aic": AIC}


@njit(cache=True)
def _links(masks, n, kind, digit, peer_ptr, peers, house_ptr, houses, cell_houses_ptr, cell_houses):
    """The nodes with a strong link (increasing), their strong links, onward weak links (as indices in
    the nodes) and weak links (as bit sets of nodes); ``digit`` (from 0) for an X-chain, else -1."""
    ncells = masks.shape[0]
    total = ncells * n
    index = np.full(total, -1, np.int64)
    count = 0
    # which nodes have a strong link
    for cell in range(ncells):
        mask = masks[cell]
        if mask == 0:
            continue
        bivalue = kind != 0 and _popcount(mask) == 2
        for d in range(n):
            if not mask >> d & 1 or (kind == 0 and d != digit):
                continue
            linked = bivalue
            if kind != XY and not linked:
                for k in range(cell_houses_ptr[cell], cell_houses_ptr[cell + 1]):
                    if _other_place(masks, d, cell, cell_houses[k], house_ptr, houses) >= 0:
                        linked = True
                        break
            if linked:
                index[cell * n + d] = count
                count += 1
    nodes = np.zeros(count, np.int64)
    for node in range(total):
        if index[node] >= 0:
            nodes[index[node]] = node
    # strong links, in order: the cell's other candidate, then each house's other place
    most_houses = most_peers = 0
    for cell in range(ncells):
        most_houses = max(most_houses, cell_houses_ptr[cell + 1] - cell_houses_ptr[cell])
        most_peers = max(most_peers, peer_ptr[cell + 1] - peer_ptr[cell])
    strong_ptr = np.zeros(count + 1, np.int64)
    strong = np.zeros(count * (1 + most_houses), np.int64)
    size = 0
    for i in range(count):
        cell, d = nodes[i] // n, nodes[i] % n
        mask = masks[cell]
        if kind != 0 and _popcount(mask) == 2:
            other = mask & ~(np.int64(1) << d)
            e = 0
            while not other >> e & 1:
                e += 1
            strong[size] = index[cell * n + e]
            size += 1
        if kind != XY:
            for k in range(cell_houses_ptr[cell], cell_houses_ptr[cell + 1]):
                mate = _other_place(masks, d, cell, cell_houses[k], house_ptr, houses)
                if mate >= 0:
                    strong[size] = index[mate * n + d]
                    size += 1
        strong_ptr[i + 1] = size
    # weak links: as bit sets of every node, and onward to the nodes with a strong link
    words = (total + 63) // 64
    sees = np.zeros((count, words), np.uint64)
    onward_ptr = np.zeros(count + 1, np.int64)
    onward = np.zeros(count * (n + most_peers), np.int64)
    size = 0
    for i in range(count):
        cell, d = nodes[i] // n, nodes[i] % n
        mask = masks[cell]
        if kind != 0:
            for e in range(n):
                if e != d and mask >> e & 1:
                    _set(sees, i, cell * n + e)
                    if index[cell * n + e] >= 0:
                        onward[size] = index[cell * n + e]
                        size += 1
        for k in range(peer_ptr[cell], peer_ptr[cell + 1]):
            peer = peers[k]
            if masks[peer] >> d & 1:
                _set(sees, i, peer * n + d)
                if index[peer * n + d] >= 0:
                    onward[size] = index[peer * n + d]
                    size += 1
        onward_ptr[i + 1] = size
    return nodes, strong_ptr, strong, onward_ptr, onward, sees


@njit(cache=True)
def _set(sees, i, node):
    sees[i, node >> 6] |= np.uint64(1) << np.uint64(node & 63)


@njit(cache=True)
def _other_place(masks, d, cell, house, house_ptr, houses):
    """The other cell of ``house`` holding digit index ``d`` if ``cell`` and it are its only two, else -1."""
    other = -1
    places = 0
    for k in range(house_ptr[house], house_ptr[house + 1]):
        c = houses[k]
        if masks[c] >> d & 1:
            places += 1
            if c != cell:
                other = c
    return other if places == 2 else -1


@njit(cache=True)
def _search(start, limit, nodes, strong_ptr, strong, onward_ptr, onward, sees, front, following, reached_on,
            reached_off):  # fmt: skip
    """The search from node index ``start``, fewer than ``limit`` levels deep: the node that closes its
    first chain, or -1. ``reached_on`` and ``reached_off`` keep where each node was reached from (-2 not
    yet, -1 the start); ``front`` and ``following`` are room for the frontiers."""
    reached_on[:] = -2
    reached_off[:] = -2
    reached_off[start] = -1
    front[0] = start
    fronts = 1
    on, size = False, 1
    while fronts and size < limit:
        count = 0
        for f in range(fronts):
            node = front[f]
            if on:
                for k in range(onward_ptr[node], onward_ptr[node + 1]):
                    nxt = onward[k]
                    if reached_off[nxt] == -2:
                        reached_off[nxt] = node
                        following[count] = nxt
                        count += 1
            else:
                for k in range(strong_ptr[node], strong_ptr[node + 1]):
                    nxt = strong[k]
                    if reached_on[nxt] != -2:
                        continue
                    reached_on[nxt] = node
                    if nxt == start:
                        return nxt
                    for w in range(sees.shape[1]):
                        if sees[nxt, w] & sees[start, w]:
                            return nxt
                    following[count] = nxt
                    count += 1
        front[:count] = following[:count]
        fronts = count
        on, size = not on, size + 1
    return -1


@njit(cache=True)
def _close(start, end, nodes, reached_on, reached_off, sees, path, gone):
    """The chain from ``start`` to ``end`` into ``path`` (nodes), and what it eliminates into ``gone``
    (nodes, increasing; none when the chain closes at its start, which is then true): (path length,
    eliminations)."""
    length, at, on = 0, end, True
    while at != -1:
        path[length] = nodes[at]
        length += 1
        at = reached_on[at] if on else reached_off[at]
        on = not on
    path[:length] = path[:length][::-1].copy()
    count = 0
    if end != start:
        for w in range(sees.shape[1]):
            both = sees[end, w] & sees[start, w]
            for b in range(64):
                if both >> np.uint64(b) & np.uint64(1):
                    gone[count] = w * 64 + b
                    count += 1
    return length, count


@njit(cache=True)
def _scan(links, max_nodes, ties, best, path, gone):
    """Search from every start in order, each no deeper than the shortest chain found so far (as deep when
    ``ties``: an X-chain's tie goes to the lower start node, which a later digit may have), and keep the
    best: ``best`` = (nodes, start node, eliminations), its chain in ``path`` and ``gone``."""
    nodes, strong_ptr, strong, onward_ptr, onward, sees = links
    count = nodes.shape[0]
    front, following = np.zeros(count, np.int64), np.zeros(count, np.int64)
    reached_on, reached_off = np.zeros(count, np.int64), np.zeros(count, np.int64)
    chain, eliminated = np.zeros_like(path), np.zeros_like(gone)
    for s in range(count):
        limit = max_nodes if best[0] == 0 else best[0] + (1 if ties else -1)
        end = _search(s, limit, nodes, strong_ptr, strong, onward_ptr, onward, sees, front, following,
                      reached_on, reached_off)  # fmt: skip
        if end < 0:
            continue
        length, found = _close(s, end, nodes, reached_on, reached_off, sees, chain, eliminated)
        if best[0] == 0 or length < best[0] or (length == best[0] and nodes[s] < best[1]):
            best[0], best[1], best[2] = length, nodes[s], found
            path[:length] = chain[:length]
            gone[:found] = eliminated[:found]


@njit(cache=True)
def shortest(kind, masks, n, peer_ptr, peers, house_ptr, houses, cell_houses_ptr, cell_houses, max_nodes,
             path, gone):  # fmt: skip
    """The shortest XY-chain (``kind`` XY) or AIC (AIC) on the open cells' candidate ``masks`` (0 for a
    placed cell) of ``max_nodes`` nodes at most, from the first start among the shortest: (length of
    ``path``, count of ``gone``), (0, 0) if none."""
    links = _links(masks, n, kind, -1, peer_ptr, peers, house_ptr, houses, cell_houses_ptr, cell_houses)
    best = np.zeros(3, np.int64)
    _scan(links, max_nodes, False, best, path, gone)
    return best[0], best[2]


@njit(cache=True)
def shortest_x(masks, n, peer_ptr, peers, house_ptr, houses, cell_houses_ptr, cell_houses, max_nodes, path,
               gone, barren):  # fmt: skip
    """The shortest X-chain (see the module) of ``max_nodes`` nodes at most: (length of ``path``, count of
    ``gone``), (0, 0) if none. ``barren[d]`` set: digit index d is skipped; it is set for a digit searched
    to the end without a chain."""
    best = np.zeros(3, np.int64)
    for digit in range(n):
        if barren[digit]:
            continue
        complete = best[0] == 0  # searched without a bound: finding nothing means there is nothing
        links = _links(masks, n, 0, digit, peer_ptr, peers, house_ptr, houses, cell_houses_ptr, cell_houses)
        _scan(links, max_nodes, True, best, path, gone)
        if complete and best[0] == 0:
            barren[digit] = True
    return best[0], best[2]


def warm_up() -> None:
    """Compile the searches, or load them from numba's cache (20 s the first time on a machine),
    with Ctrl-C held, on the types of the real calls."""
    empty = np.zeros(1, np.int64)
    with compiling("the chain searches", 20):
        masks = np.zeros(16, np.int64)
        path, gone = np.zeros(20, np.int64), np.zeros(64, np.int64)
        shortest(XY, masks, 4, empty, empty, empty, empty, empty, empty, 20, path, gone)
        shortest_x(masks, 4, empty, empty, empty, empty, empty, empty, 20, path, gone, np.zeros(4, np.bool_))
