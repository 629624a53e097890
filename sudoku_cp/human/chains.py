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

from functools import lru_cache
from itertools import pairwise
from typing import Any

from ..grid import symbol
from ..rules.constraints import cell_name
from .board import Board, cells_of, digits_of
from .step import Step, Technique

__all__ = ["CHAINS", "PATTERNS", "aic", "length_bonus", "x_chain", "xy_chain"]

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


def _links(board: Board) -> dict[str, Any]:
    """The links between candidates (node ``cell * n + digit - 1``) as adjacency lists: ``xy`` the strong
    links of XY-chains (the two candidates of a bivalue cell), ``aic`` those and the strong links in a
    house (a digit's two places there), ``weak`` the weak links of the nodes with a strong link (the other
    candidates of the cell, then the peers holding the digit): a chain starts, turns and ends at such
    nodes only; ``sees`` the weak links as bit sets of nodes. Built once per state of the board
    (``Board.version``)."""
    return board.kept("links", None, board.version, _make_links)


def _make_links(board: Board, _: None) -> dict[str, Any]:
    n, masks, where = board.n, board.masks, board.candidate_cells
    peer_bits = board.geometry.peer_bits
    in_cell: dict[int, list[int]] = {}
    for cell in cells_of(board.open_bits):
        mask = masks[cell]
        if mask.bit_count() == 2:
            a, b = (cell * n + d - 1 for d in digits_of(mask))
            in_cell[a] = [b]
            in_cell[b] = [a]
    aic = {node: list(others) for node, others in in_cell.items()}
    # a digit's strong links in houses, and what its nodes see of it: kept while its candidate cells stay
    digit_of: list[dict[int, tuple[list[int], int]]] = []
    for d in range(n):
        pairs, seen_of = board.kept("chain digits", d, where[d], _digit_links)
        for a, b in pairs:
            aic.setdefault(a, []).append(b)
            aic.setdefault(b, []).append(a)
        digit_of.append(seen_of)
    weak: dict[int, list[int]] = {}
    sees: dict[int, int] = {}
    for node in aic:
        cell, d = divmod(node, n)
        seen = digit_of[d].get(node)
        if seen is None:
            peers = where[d] & peer_bits[cell]
            seen = digit_of[d][node] = (list(_nodes(peers, d, n)), _node_bits(peers, d, n))
        others = masks[cell] & ~(1 << d)
        weak[node] = [cell * n + e for e in cells_of(others)] + seen[0]
        sees[node] = others << cell * n | seen[1]
    return {"xy": in_cell, "aic": aic, "weak": weak, "sees": sees}


def _chain(kind: str) -> Technique:
    name, base = CHAINS[kind]

    def find(board: Board) -> Step | None:
        n = board.n
        if kind == "x":
            best = _shortest_x(board)
        else:
            links = _links(board)
            onward = links.get(f"{kind} onward")
            if onward is None:
                onward = links[f"{kind} onward"] = onward_links(links[kind], links["weak"])
            best = _shortest(board, links[kind], onward, links["sees"])
        if best is None:
            return None
        path, eliminations, placements = best
        cells = tuple(node // n for node in path)
        digits_used = tuple(sorted({node % n + 1 for node in path}))
        chain = " - ".join(f"{cell_name(node // n, n)}:{symbol(node % n + 1)}" for node in path)
        if placements:
            reason = f"if {_node(path[0], n)} were false, the chain {chain} would make it true"
        else:
            reason = f"{_node(path[0], n)} or {_node(path[-1], n)} is true: {chain}"
        difficulty = round(base + length_bonus(len(path)), 1)
        nodes = [(node // n, node % n + 1) for node in path]
        links = tuple((a, b, k % 2 == 0) for k, (a, b) in enumerate(pairwise(nodes)))
        named, houses = _pattern(board, nodes) if not placements else (None, ())
        if named is not None:
            reason = f"an {name} of {len(path)} candidates: {reason}"
        return Step(
            named or name,
            difficulty,
            board.rules,
            placements,
            tuple(eliminations),
            cells,
            digits_used,
            houses,
            reason,
            links,
        )

    find.__name__ = f"{kind}_chain" if kind != "aic" else "aic"
    find.__doc__ = f"{name}: the shortest alternating chain whose ends remove a candidate."
    return find


#: The names of the short chains that have names of their own (HoDoKu's), rated as the chains they are.
PATTERNS = ("Skyscraper", "Two-string kite", "Turbot fish", "Remote pair", "W-wing")


def _digit_links(board: Board, d: int) -> tuple[list[tuple[int, int]], dict[int, tuple[list[int], int]]]:
    """Digit index ``d``'s strong links in houses (its two places in a house, as nodes), and an empty
    table of what its nodes see, filled as the chain searches ask: both depend on its candidate cells
    alone, so ``_links`` keeps them from state to state while those stay."""
    n, places_of = board.n, board.candidate_cells[d]
    pairs = []
    for bits in board.geometry.house_bits:
        places = places_of & bits
        if places.bit_count() == 2:
            pairs.append(tuple(c * n + d for c in cells_of(places)))
    return pairs, {}


def _pattern(board: Board, nodes: list[tuple[int, int]]) -> tuple[str | None, tuple[int, ...]]:
    """The name of a chain that is a known pattern, and the houses of its strong links between cells.

    Four candidates of one digit, strong in a house, weak, strong in a house: a skyscraper (both strong
    links in rows, or both in columns, the weak one on a crossing line), a two-string kite (one in a row,
    one in a column, the weak link in a box), else a turbot fish. Four or more bivalue cells of one pair: a
    remote pair. Two bivalue cells of one pair joined through a strong link of one of its digits: a W-wing.
    """
    n, rules = board.n, board.rules
    cells = [cell for cell, _ in nodes]
    digits = {digit for _, digit in nodes}
    if len(nodes) == 4 and len(digits) == 1:
        (digit,) = digits
        first, second = (_strong_house(board, digit, a, b) for a, b in (cells[:2], cells[2:]))
        if first is None or second is None:
            return None, ()
        kind = lambda h: h // n if h < 3 * n else 3  # noqa: E731 - row 0, column 1, box 2, other 3
        in_box = rules.region_of[cells[1]] == rules.region_of[cells[2]]
        across = cells[1] % n == cells[2] % n if kind(first) == 0 else cells[1] // n == cells[2] // n
        if kind(first) == kind(second) < 2 and across:  # the bases aligned on a crossing line
            return "Skyscraper", (first, second)
        if {kind(first), kind(second)} == {0, 1} and in_box and rules.box is not None:
            return "Two-string kite", (first, second)
        return "Turbot fish", (first, second)
    masks = {board.masks[cell] for cell in cells}
    if (
        len(nodes) >= 8
        and len(masks) == 1
        and len(digits) == 2
        and all(cells[k] == cells[k + 1] for k in range(0, len(cells), 2))
    ):
        return "Remote pair", ()
    if len(nodes) == 6 and cells[0] == cells[1] and cells[4] == cells[5] and len(digits) == 2:
        ends, middle = (board.masks[cells[0]], board.masks[cells[5]]), nodes[1:5]
        if ends[0] == ends[1] and ends[0].bit_count() == 2 and len({d for _, d in middle}) == 1:
            house = _strong_house(board, middle[1][1], middle[1][0], middle[2][0])
            if house is not None:
                return "W-wing", (house,)
    return None, ()


def _strong_house(board: Board, digit: int, a: int, b: int) -> int | None:
    """The first house where ``digit``'s only two places are cells ``a`` and ``b``, if any."""
    pair = 1 << a | 1 << b
    bits, where = board.geometry.house_bits, board.candidate_cells[digit - 1]
    shared = set(board.rules.houses_of[a]) & set(board.rules.houses_of[b])
    return next((h for h in sorted(shared) if where & bits[h] == pair), None)


#: A chain found: its nodes, the candidates it eliminates, the candidate it places.
Found = tuple[list[int], list[tuple[int, int]], tuple[tuple[int, int], ...]]


def _shortest(
    board: Board, strong: dict[int, list[int]], onward: dict[int, list[int]], sees: dict[int, int]
) -> Found | None:
    """The shortest chain, from the first start node (in node order) among the shortest. The searches
    from every start go a level at a time together, so none goes deeper than the shortest chain."""
    searches = [_Search(start, strong, onward, sees, board.n) for start in sorted(strong)]
    on, size = False, 1
    while searches and size < MAX_NODES:
        going = []
        for search in searches:
            found = search.level(on)
            if found is not None:
                return found
            if search.frontier:
                going.append(search)
        searches, on, size = going, not on, size + 1
    return None


def _shortest_x(board: Board) -> Found | None:
    """The shortest X-chain, from the first start node among the shortest. An X-chain stays on one digit
    and depends on its candidate cells alone: its links are built digit by digit, and a digit without a
    chain is not searched again until its candidate cells change."""
    n = board.n
    house_bits, peer_bits = board.geometry.house_bits, board.geometry.peer_bits
    barren = board.memo.setdefault("no X-chain", {})
    best: tuple[int, int, Found] | None = None  # (length, start, chain)
    for digit in range(1, n + 1):
        where = board.candidate_cells[digit - 1]
        if barren.get(digit) == where:
            continue
        strong: dict[int, list[int]] = {}
        for bits in house_bits:
            places = where & bits
            if places.bit_count() == 2:
                a, b = (c * n + digit - 1 for c in cells_of(places))
                strong.setdefault(a, []).append(b)
                strong.setdefault(b, []).append(a)
        weak, sees = {}, {}  # for the nodes with a strong link: a chain starts, turns and ends there
        for node in strong:
            peers = where & peer_bits[node // n]
            weak[node], sees[node] = list(_nodes(peers, digit - 1, n)), _node_bits(peers, digit - 1, n)
        complete = best is None  # searched without a bound: finding nothing then means there is nothing
        onward = onward_links(strong, weak)
        for start in sorted(strong):
            # a tie may win: a later digit's start can come before an earlier one's
            limit = MAX_NODES if best is None else best[0] + 1
            found = _search(start, strong, limit, board, onward, sees)
            if found is not None and (best is None or (len(found[0]), start) < best[:2]):
                best = (len(found[0]), start, found)
        if complete and best is None:
            barren[digit] = where
    return best[2] if best is not None else None


def _node(node: int, n: int) -> str:
    return f"{cell_name(node // n, n)}={symbol(node % n + 1)}"


def _search(
    start: int,
    strong: dict[int, list[int]],
    limit: int,
    board: Board,
    onward: dict[int, list[int]],
    sees: dict[int, int],
) -> Found | None:
    """The shortest chain from ``start`` (assumed false) of fewer than ``limit`` nodes that proves
    something: (path, eliminations, placements)."""
    search = _Search(start, strong, onward, sees, board.n)
    on, size = False, 1
    while search.frontier and size < limit:
        found = search.level(on)
        if found is not None:
            return found
        on, size = not on, size + 1
    return None


class _Search:
    """A breadth-first search for a chain from ``start`` (assumed false), a level at a time: the nodes
    reached off (by a weak link) and on (by a strong link) each keep the node they were reached from.
    ``onward`` holds the weak links to nodes that have a strong link (``onward_links``): a chain cannot go
    on from the others, and the search need not visit them. ``sees`` holds every weak link, as bit sets
    of nodes (bit ``node``): what sees both ends of a chain goes."""

    __slots__ = (
        "frontier",
        "n",
        "onward",
        "reached_off",
        "reached_on",
        "sees",
        "start",
        "start_sees",
        "strong",
    )

    def __init__(
        self,
        start: int,
        strong: dict[int, list[int]],
        onward: dict[int, list[int]],
        sees: dict[int, int],
        n: int,
    ) -> None:
        self.start, self.strong, self.onward, self.sees, self.n = start, strong, onward, sees, n
        self.start_sees = sees.get(start, 0)
        self.reached_off: dict[int, int] = {start: -1}
        self.reached_on: dict[int, int] = {}
        self.frontier = [start]

    def level(self, on: bool) -> Found | None:
        """Go one level further (from nodes reached ``on`` by weak links, else by strong ones); the chain
        it closes, if any: (path, eliminations, placements)."""
        following = []
        reached_off, reached_on = self.reached_off, self.reached_on
        if on:
            onward = self.onward
            for node in self.frontier:
                for nxt in onward.get(node, ()):
                    if nxt not in reached_off:
                        reached_off[nxt] = node
                        following.append(nxt)
        else:
            start, start_sees, sees, n = self.start, self.start_sees, self.sees, self.n
            for node in self.frontier:
                for nxt in self.strong.get(node, ()):
                    if nxt in reached_on:
                        continue
                    reached_on[nxt] = node
                    if nxt == start:  # not start implies start: start is true
                        return _path(nxt, reached_on, reached_off), [], ((start // n, start % n + 1),)
                    both = sees.get(nxt, 0) & start_sees  # start or nxt is true: what sees both goes
                    if both:
                        eliminations = [(w // n, w % n + 1) for w in cells_of(both)]
                        return _path(nxt, reached_on, reached_off), eliminations, ()
                    following.append(nxt)
        self.frontier = following
        return None


@lru_cache(maxsize=1 << 16)
def _nodes(cells: int, d: int, n: int) -> tuple[int, ...]:
    """The nodes of digit index ``d`` in the cells of bit set ``cells``, in order (kept: a walk asks the
    same ones at every state)."""
    return tuple(cell * n + d for cell in cells_of(cells))


@lru_cache(maxsize=1 << 16)
def _node_bits(cells: int, d: int, n: int) -> int:
    """``_nodes`` as a bit set of nodes."""
    bits = 0
    for node in _nodes(cells, d, n):
        bits |= 1 << node
    return bits


def onward_links(strong: dict[int, list[int]], weak: dict[int, list[int]]) -> dict[int, list[int]]:
    """The weak links of the nodes with a strong link (``weak`` holds them all) that end at a node with a
    strong link, in their order: the only ones a chain goes on by."""
    return {node: [w for w in weak[node] if w in strong] for node in strong}


def _path(end: int, reached_on: dict[int, int], reached_off: dict[int, int]) -> list[int]:
    """The nodes from the start to ``end`` (reached on), following each node back to the one before."""
    path, at, on = [], end, True
    while at != -1:
        path.append(at)
        at = reached_on[at] if on else reached_off[at]
        on = not on
    return path[::-1]


x_chain = _chain("x")
xy_chain = _chain("xy")
aic = _chain("aic")
