"""Which nodes of a graph of links reach which: strongly connected components and their reach as bits.

The chain searches spend most of their time finding nothing; where a chain exists only if one potential
reaches another, these answer first. Tarjan's algorithm (R. Tarjan, "Depth-first search and linear graph
algorithms", SIAM J. Computing 1, 1972) numbers the components in the order they complete, so a component
reaches only lower numbers and itself, and each one's reach is its own bit and its links' components'
reach. Graphs are lists of links: node ``v`` links to ``links[first[v]:first[v + 1]]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["components", "reach_bits", "reaches"]


@njit(cache=True)
def components(nnodes, first, links, comp, size):  # type: ignore[no-untyped-def]
    """Tarjan's strongly connected components of the graph of ``first``/``links``, iteratively: each
    node's component in ``comp`` and each component's ``size``, numbered in the order they complete (a
    component reaches only lower numbers, and its own); their count."""
    index = np.full(nnodes, -1, dtype=np.int32)
    low = np.empty(nnodes, dtype=np.int32)
    on_stack = np.zeros(nnodes, dtype=np.bool_)
    stack = np.empty(nnodes, dtype=np.int32)
    call_v = np.empty(nnodes, dtype=np.int32)
    call_e = np.empty(nnodes, dtype=np.int32)
    top = counter = ncomp = 0
    for root in range(nnodes):
        if index[root] >= 0:
            continue
        depth = 0
        call_v[0], call_e[0] = root, first[root]
        index[root] = low[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        on_stack[root] = True
        while depth >= 0:
            v = call_v[depth]
            if call_e[depth] < first[v + 1]:
                w = links[call_e[depth]]
                call_e[depth] += 1
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack[top] = w
                    top += 1
                    on_stack[w] = True
                    depth += 1
                    call_v[depth], call_e[depth] = w, first[w]
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            if low[v] == index[v]:
                size[ncomp] = 0
                while True:
                    top -= 1
                    w = stack[top]
                    on_stack[w] = False
                    comp[w] = ncomp
                    size[ncomp] += 1
                    if w == v:
                        break
                ncomp += 1
            depth -= 1
            if depth >= 0 and low[v] < low[call_v[depth]]:
                low[call_v[depth]] = low[v]
    return ncomp


@njit(cache=True)
def reach_bits(nnodes, first, links, comp, ncomp):  # type: ignore[no-untyped-def]
    """Per component, the bits of the components it reaches (itself included), filled in completion
    order: every link leads to a component done before or to its own."""
    words = (ncomp + 63) // 64
    reach = np.zeros((ncomp, words), dtype=np.uint64)
    order = np.empty(nnodes, dtype=np.int32)  # the nodes by component (a counting sort)
    start = np.zeros(ncomp + 1, dtype=np.int32)
    for v in range(nnodes):
        start[comp[v] + 1] += 1
    for c in range(ncomp):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    for v in range(nnodes):
        order[fill[comp[v]]] = v
        fill[comp[v]] += 1
    one = np.uint64(1)
    for c in range(ncomp):
        reach[c, c >> 6] |= one << np.uint64(c & 63)
        for i in range(start[c], start[c + 1]):
            v = order[i]
            for j in range(first[v], first[v + 1]):
                d = comp[links[j]]
                if d != c:
                    for w in range(words):
                        reach[c, w] |= reach[d, w]
    return reach


@njit(_nrt=False, cache=True)
def reaches(bits, comp, a, b):  # type: ignore[no-untyped-def]
    """Whether node ``a`` reaches node ``b`` (``bits`` from ``reach_bits`` and ``comp`` of their graph)."""
    d = comp[b]
    return (bits[comp[a], d >> 6] >> np.uint64(d & 63)) & np.uint64(1) != 0
