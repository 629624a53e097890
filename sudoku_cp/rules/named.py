"""The grid-wide variant rules known by name (``--rules x,anti-knight``), as houses and pairs of cells.

Each name maps to a function of the grid's size and box shape that returns the extra houses and the pairs
it adds; the ``Rules`` model derives everything else from those.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import RulesError
from .constraints import Pair

__all__ = ["ALIASES", "NAMED", "expand_names"]

Houses = tuple[tuple[int, ...], ...]
Geometry = Callable[[int, tuple[int, int] | None], tuple[Houses, tuple[Pair, ...]]]


def _diagonal_minus(n: int, box: tuple[int, int] | None) -> tuple[Houses, tuple[Pair, ...]]:
    """The main diagonal, top left to bottom right (f-puzzles ``diagonal-``)."""
    return (tuple(r * n + r for r in range(n)),), ()


def _diagonal_plus(n: int, box: tuple[int, int] | None) -> tuple[Houses, tuple[Pair, ...]]:
    """The anti-diagonal, bottom left to top right (f-puzzles ``diagonal+``)."""
    return (tuple(r * n + n - 1 - r for r in range(n)),), ()


def _moves(n: int, steps: tuple[tuple[int, int], ...], source: str) -> tuple[Pair, ...]:
    pairs = []
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and r * n + c < rr * n + cc:
                    pairs.append(Pair(r * n + c, rr * n + cc, "differ", source=source))
    return tuple(pairs)


_KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1))
_KING_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))  # orthogonal neighbours share a row or a column
_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _anti_knight(n: int, box: tuple[int, int] | None) -> tuple[Houses, tuple[Pair, ...]]:
    return (), _moves(n, _KNIGHT, "anti-knight")


def _anti_king(n: int, box: tuple[int, int] | None) -> tuple[Houses, tuple[Pair, ...]]:
    return (), _moves(n, _KING_DIAGONALS, "anti-king")


def _non_consecutive(n: int, box: tuple[int, int] | None) -> tuple[Houses, tuple[Pair, ...]]:
    pairs = _moves(n, _ORTHOGONAL, "non-consecutive")
    return (), tuple(Pair(p.a, p.b, "difference", 1, negated=True, source="non-consecutive") for p in pairs)


def _needs_box(name: str, box: tuple[int, int] | None) -> tuple[int, int]:
    if box is None:
        raise RulesError(f"the {name} rule needs a grid of boxes, not irregular regions")
    return box


def _disjoint(n: int, box: tuple[int, int] | None) -> tuple[Houses, tuple[Pair, ...]]:
    """Disjoint groups: the cells at one position of every box form a house."""
    rows, cols = _needs_box("disjoint", box)
    houses = tuple(
        tuple((br * rows + r) * n + bc * cols + c for br in range(n // rows) for bc in range(n // cols))
        for r in range(rows)
        for c in range(cols)
    )
    return houses, ()


def _windoku(n: int, box: tuple[int, int] | None) -> tuple[Houses, tuple[Pair, ...]]:
    """Windoku: square windows the size of a box, one cell in from the boxes' corners (four on 9x9)."""
    rows, cols = _needs_box("windoku", box)
    if rows != cols or rows < 2:
        raise RulesError(f"windoku needs square boxes, not {rows}x{cols}")
    starts = range(1, n - rows + 1, rows + 1)
    houses = tuple(
        tuple((r0 + r) * n + c0 + c for r in range(rows) for c in range(cols))
        for r0 in starts
        for c0 in starts
    )
    return houses, ()


#: Every grid-wide rule by its canonical name.
NAMED: dict[str, Geometry] = {
    "diagonal-": _diagonal_minus,
    "diagonal+": _diagonal_plus,
    "anti-knight": _anti_knight,
    "anti-king": _anti_king,
    "windoku": _windoku,
    "disjoint": _disjoint,
    "non-consecutive": _non_consecutive,
}

#: Other names users write for them; ``x`` is both diagonals.
ALIASES: dict[str, tuple[str, ...]] = {
    "x": ("diagonal-", "diagonal+"),
    "diagonals": ("diagonal-", "diagonal+"),
    "antiknight": ("anti-knight",),
    "antiking": ("anti-king",),
    "nonconsecutive": ("non-consecutive",),
    "disjointgroups": ("disjoint",),
    "disjoint-groups": ("disjoint",),
}


def expand_names(names: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Canonical rule names, sorted and without repeats, from ``"x,anti-knight"`` or a list of names;
    ``ValueError`` naming an unknown one and listing the known ones."""
    if isinstance(names, str):
        names = [part for part in names.split(",")]
    found: set[str] = set()
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        if name in NAMED:
            found.add(name)
        elif name in ALIASES:
            found.update(ALIASES[name])
        else:
            known = ", ".join(["x", *NAMED])
            raise RulesError(f"unknown rule {raw.strip()!r} (known: {known})")
    return tuple(sorted(found))
