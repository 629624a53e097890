"""Alternating inference chains (AIC): X-chains, XY-chains and their mixture.

A candidate is a node. A strong link joins two nodes of which at least one is true (the two candidates of
a bivalue cell; the two places of a digit in a house); a weak link two nodes of which at most one is true
(two digits of a cell; one digit in two cells that see each other). A chain from A that alternates strong
and weak links, starting and ending with a strong one, proves "A or Z": every candidate that sees both
ends goes (Sudoku Explainer's X-chains 6.5, XY-chains 6.6, AICs 7.0, plus 0.1 per step of chain length as
SE counts it). A chain from A back to A itself proves A (a discontinuous nice loop): A is placed.

The search is breadth first from every candidate, so each technique finds its shortest chain; X-chains
use one digit's links only, XY-chains only bivalue cells' strong links, the AIC every link.
"""

from __future__ import annotations

from collections import deque

from ..grid import symbol
from ..rules.constraints import cell_name
from .board import Board
from .step import Step, Technique

__all__ = ["CHAINS", "aic", "length_bonus", "x_chain", "xy_chain"]

#: Kind -> (name, base difficulty).
CHAINS = {"x": ("X-chain", 6.5), "xy": ("XY-chain", 6.6), "aic": ("AIC", 7.0)}
#: The longest chain looked for, in candidates.
MAX_NODES = 20


def length_bonus(nodes: int) -> float:
    """Sudoku Explainer's chain length modifier: 0.1 each time the length passes 4, 6, 8, 12, 16, 24..."""
    bonus, ceiling, odd = 0.0, 4, False
    length = nodes - 2
    while length > ceiling:
        bonus += 0.1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return round(bonus, 1)


def _links(board: Board, kind: str) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Strong and weak links between candidates (node ``cell * n + digit - 1``) as adjacency lists."""
    rules, n = board.rules, board.n
    masks, values = board.masks, board.values
    strong: dict[int, list[int]] = {}
    weak: dict[int, list[int]] = {}
    for cell in board.open_cells():
        digits = [d for d in range(1, n + 1) if masks[cell] >> (d - 1) & 1]
        nodes = [cell * n + d - 1 for d in digits]
        for a in nodes:
            weak[a] = [b for b in nodes if b != a] if kind != "x" else []
        if len(nodes) == 2 and kind != "x":
            strong.setdefault(nodes[0], []).append(nodes[1])
            strong.setdefault(nodes[1], []).append(nodes[0])
        for d in digits:
            bit = 1 << (d - 1)
            weak[cell * n + d - 1] += [
                p * n + d - 1 for p in rules.peers[cell] if not values[p] and masks[p] & bit
            ]
    if kind != "xy":
        for house in rules.houses:
            for d, places in board.open_digits(house):
                if len(places) == 2:
                    a, b = (c * n + d - 1 for c in places)
                    strong.setdefault(a, []).append(b)
                    strong.setdefault(b, []).append(a)
    return strong, weak


def _chain(kind: str) -> Technique:
    name, base = CHAINS[kind]

    def find(board: Board) -> Step | None:
        n = board.n
        best: tuple[int, list[int], list[tuple[int, int]], tuple[tuple[int, int], ...]] | None = None
        digits = range(1, n + 1) if kind == "x" else (0,)
        for only in digits:
            strong, weak = _links(_one_digit(board, only) if kind == "x" else board, kind)
            for start in sorted(strong):
                limit = best[0] if best is not None else MAX_NODES
                found = _search(start, strong, weak, limit, board)
                if found is not None and (best is None or len(found[0]) < best[0]):
                    best = (len(found[0]), *found)
        if best is None:
            return None
        _, path, eliminations, placements = best
        cells = tuple(node // n for node in path)
        digits_used = tuple(sorted({node % n + 1 for node in path}))
        chain = " - ".join(f"{cell_name(node // n, n)}:{symbol(node % n + 1)}" for node in path)
        if placements:
            reason = f"if {_node(path[0], n)} were false, the chain {chain} would make it true"
        else:
            reason = f"{_node(path[0], n)} or {_node(path[-1], n)} is true: {chain}"
        difficulty = round(base + length_bonus(len(path)), 1)
        return Step(
            name, difficulty, board.rules, placements, tuple(eliminations), cells, digits_used, (), reason
        )

    find.__name__ = f"{kind}_chain" if kind != "aic" else "aic"
    find.__doc__ = f"{name}: the shortest alternating chain whose ends remove a candidate."
    return find


def _one_digit(board: Board, digit: int) -> Board:
    """A view of ``board`` with only ``digit``'s candidates (the links of an X-chain)."""
    view = Board.__new__(Board)
    view.rules, view.n, view.values, view.memo = board.rules, board.n, board.values, {}
    bit = 1 << (digit - 1)
    view.masks = [m & bit if not v else m for m, v in zip(board.masks, board.values, strict=True)]
    return view


def _node(node: int, n: int) -> str:
    return f"{cell_name(node // n, n)}={symbol(node % n + 1)}"


def _search(
    start: int, strong: dict[int, list[int]], weak: dict[int, list[int]], limit: int, board: Board
) -> tuple[list[int], list[tuple[int, int]], tuple[tuple[int, int], ...]] | None:
    """The shortest chain from ``start`` (assumed false) of fewer than ``limit`` nodes that proves
    something: (path, eliminations, placements)."""
    n = board.n
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
    queue = deque([(start, False, 1)])
    start_sees = set(weak.get(start, ()))
    while queue:
        node, on, size = queue.popleft()
        if size >= limit:
            continue
        for nxt in strong.get(node, ()) if not on else weak.get(node, ()):
            state = (nxt, not on)
            if state in parent:
                continue
            parent[state] = (node, on)
            if not on:  # nxt is on: start or nxt is true
                if nxt == start:
                    return _path(parent, state), [], ((start // n, start % n + 1),)
                targets = [w for w in weak.get(nxt, ()) if w in start_sees and w != start]
                if targets:
                    eliminations = sorted((w // n, w % n + 1) for w in targets)
                    return _path(parent, state), eliminations, ()
            queue.append((nxt, not on, size + 1))
    return None


def _path(parent: dict[tuple[int, bool], tuple[int, bool] | None], state: tuple[int, bool]) -> list[int]:
    path = []
    at: tuple[int, bool] | None = state
    while at is not None:
        path.append(at[0])
        at = parent[at]
    return path[::-1]


x_chain = _chain("x")
xy_chain = _chain("xy")
aic = _chain("aic")
