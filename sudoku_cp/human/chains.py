"""Alternating inference chains (AIC): X-chains, XY-chains and their mixture.

A candidate is a node. A strong link joins two nodes of which at least one is true (the two candidates of
a bivalue cell; the two places of a digit in a house); a weak link two nodes of which at most one is true
(two digits of a cell; one digit in two cells that see each other). A chain from A that alternates strong
and weak links, starting and ending with a strong one, proves "A or Z": every candidate that sees both
ends goes (Sudoku Explainer's X-chains 6.5, XY-chains 6.6, AICs 7.0, plus 0.1 per step of chain length as
SE counts it). A chain from A back to A itself proves A (a discontinuous nice loop): A is placed.

The search is breadth first from every candidate, so each technique finds its shortest chain; X-chains
use one digit's links only, XY-chains only bivalue cells' strong links, the AIC every link. It is compiled
(``chains_compiled``, which says which chain comes first); the step is read back here.
"""

from __future__ import annotations

from itertools import pairwise

from ..grid import symbol
from ..rules.constraints import cell_name
from .board import Board, compiled, rule_arrays
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


def _chain(kind: str) -> Technique:
    name, base = CHAINS[kind]

    def find(board: Board) -> Step | None:
        n = board.n
        best = _shortest(board, kind)
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


def _shortest(board: Board, kind: str) -> Found | None:
    """The chain of ``kind`` the compiled search (``chains_compiled``) finds first, or None. An X-chain
    stays on one digit and depends on its candidate cells alone: a digit without one is not searched
    again until they change."""
    import numpy as np

    search = compiled("chains_compiled")
    n = board.n
    masks, rules = board.open_masks(), rule_arrays(board.rules)
    path, gone = np.zeros(MAX_NODES, np.int64), np.zeros(masks.size * n, np.int64)
    if kind == "x":
        where = board.candidate_cells
        known = board.memo.setdefault("no X-chain", {})
        barren = np.array([known.get(d) == where[d] for d in range(n)], np.bool_)
        length, count = search.shortest_x(masks, n, *rules, MAX_NODES, path, gone, barren)
        for d in np.flatnonzero(barren).tolist():
            known[d] = where[d]
    else:
        length, count = search.shortest(search.KINDS[kind], masks, n, *rules, MAX_NODES, path, gone)
    if not length:
        return None
    nodes = path[:length].tolist()
    eliminations = [(w // n, w % n + 1) for w in gone[:count].tolist()]
    placements = () if count else ((nodes[0] // n, nodes[0] % n + 1),)  # the chain closes at its start
    return nodes, eliminations, placements


def _node(node: int, n: int) -> str:
    return f"{cell_name(node // n, n)}={symbol(node % n + 1)}"


x_chain = _chain("x")
xy_chain = _chain("xy")
aic = _chain("aic")
