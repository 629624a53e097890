"""The clues outside the grid (f-puzzles entries ``{"cell": "R0C3", "value": "15"}``, the clue's place
one step beyond a row or column): little killers, sandwiches, X-sums and skyscrapers.

- little killer: the digits on the diagonal the clue's arrow points along (``direction`` DR, DL, UR or
  UL) add up to the clue; digits may repeat where no house forbids it; a clue at a corner (``R0C0``)
  points along a main diagonal;
- sandwich: the digits between the 1 and the n of the row or column (9 on 9x9) add up to the clue;
- X-sum: the first x digits from the clue's side add up to the clue, x being the first of them;
- skyscraper: seen from the clue's side, digits as heights, the clue is how many are visible (a digit
  is visible when it is larger than every digit before it).

A little killer is a sum (``rules.sums``); the other three are automata over the row or column read from
the clue's side (``rules.automaton``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import ParseError
from ..automaton import Automaton
from . import entries
from .base import Forms, Mark, Variant

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["LittleKiller", "Sandwich", "Skyscraper", "XSum", "line_from"]

#: The little killer's directions, as (row step, column step).
DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}


def line_from(clue: tuple[int, int], n: int, step: tuple[int, int] | None = None) -> tuple[int, ...]:
    """The cells from a clue's place (f-puzzles row and column, 0 or n + 1 outside) in the direction
    ``step``, or, without one, along the row or column it stands beside, from its side."""
    r, c = clue
    if step is None:
        step = (1 if r == 0 else -1 if r == n + 1 else 0, 1 if c == 0 else -1 if c == n + 1 else 0)
    out = []
    r, c = r + step[0], c + step[1]
    while 1 <= r <= n and 1 <= c <= n:
        out.append((r - 1) * n + c - 1)
        r, c = r + step[0], c + step[1]
    return tuple(out)


class _Clue(Variant):
    """What the outside clues share: a place, the cells it reads, a number."""

    clue: tuple[int, int]
    cells: tuple[int, ...]
    total: int

    #: The smallest clue the kind takes (a sandwich of 1 and n side by side sums to 0; an X-sum counts at
    #: least one digit, a skyscraper is always seen).
    low: ClassVar[int] = 0

    @classmethod
    def high(cls, n: int, length: int) -> int:
        """The largest clue the kind takes on a line of ``length`` cells of an n x n grid."""
        return n * length

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        n = rules.n
        clue = entries.clue_place(entry.get("cell"), n, cls.kind)
        cells = line_from(clue, n)
        if not cells:
            raise ParseError(f"an f-puzzles {cls.kind} at {entry.get('cell')} reads no cell of the grid")
        total = entries.number(entry.get("value"), cls.kind, None, cls.low, cls.high(n, len(cells)))
        return [] if total is None else [cls(clue, cells, total)]  # type: ignore[call-arg]

    def write(self, n: int) -> dict[str, Any]:
        return {"cell": f"R{self.clue[0]}C{self.clue[1]}", "value": str(self.total)}

    def claim(self, n: int) -> dict[str, Any]:
        return {"clue": [self.clue[0] - 1, self.clue[1] - 1], "total": self.total}

    #: Where ``drawn`` puts clues: ``sides`` of the grid (top, left, bottom, right) and the share of their
    #: places that get one.
    sides: ClassVar[int] = 4
    share: ClassVar[float] = 0.5

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Clues at a random ``share`` of the places beside the rows and columns, each the number the
        grid gives there."""
        n = rules.n
        places = [(0, k) for k in range(1, n + 1)] + [(k, 0) for k in range(1, n + 1)]
        places += [(n + 1, k) for k in range(1, n + 1)] + [(k, n + 1) for k in range(1, n + 1)]
        out: list[Variant] = []
        for place in places[: cls.sides * n]:
            if rng.random() < cls.share:
                cells = line_from(place, n)
                digits = [grid[c] for c in cells]
                total = next(t for t in range(cls.high(n, n) + 1) if cls(place, cells, t).holds(digits, n))  # type: ignore[call-arg]
                out.append(cls(place, cells, total))  # type: ignore[call-arg]
        return out

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (
            Mark("text", text=str(self.total), at=(self.clue[0] - 0.5, self.clue[1] - 0.5), colour="#000000"),
        )

    def describe(self, n: int) -> str:
        return f"{self.kind} {self.total} at R{self.clue[0]}C{self.clue[1]}"


@dataclass(frozen=True)
class LittleKiller(_Clue):
    clue: tuple[int, int]
    direction: str
    cells: tuple[int, ...]
    total: int
    kind: ClassVar[str] = "little killer"
    key: ClassVar[str] = "littlekillersum"

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return sum(digits) == self.total

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        if all(digits):
            return sum(digits) == self.total
        return sum(d or 1 for d in digits) <= self.total

    def forms(self, n: int) -> Forms:
        return Forms(sums=((self.cells, (1,) * len(self.cells), self.total),))

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        n = rules.n
        clue = entries.clue_place(entry.get("cell"), n, cls.kind, corners=True)
        direction = entry.get("direction")
        if not isinstance(direction, str) or direction.upper() not in DIRECTIONS:
            raise ParseError(
                "an f-puzzles little killer's direction must be DR, DL, UR or UL, not "
                + entries.shown(direction)
            )
        direction = direction.upper()
        cells = line_from(clue, n, DIRECTIONS[direction])
        if not cells:
            raise ParseError(
                f"an f-puzzles little killer at {entry.get('cell')} points {direction}, away from the grid"
            )
        total = entries.number(entry.get("value"), cls.kind, None, 1, n * len(cells))
        return [] if total is None else [cls(clue, direction, cells, total)]

    def write(self, n: int) -> dict[str, Any]:
        return {**super().write(n), "direction": self.direction}

    def claim(self, n: int) -> dict[str, Any]:
        return {
            "clue": [self.clue[0] - 1, self.clue[1] - 1],
            "direction": self.direction,
            "total": self.total,
        }

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """About n clues on random diagonals of two cells or more, each the sum the grid gives."""
        n = rules.n
        rim = [(0, k) for k in range(n + 2)] + [(n + 1, k) for k in range(n + 2)]
        rim += [(k, 0) for k in range(1, n + 1)] + [(k, n + 1) for k in range(1, n + 1)]
        options = [
            (place, direction, cells)
            for place in rim
            for direction, step in DIRECTIONS.items()
            if len(cells := line_from(place, n, step)) >= 2
        ]
        picked = rng.sample(options, min(n, len(options)))
        return [cls(p, d, cells, sum(grid[c] for c in cells)) for p, d, cells in picked]

    def marks(self, n: int) -> tuple[Mark, ...]:
        at = (self.clue[0] - 0.5, self.clue[1] - 0.5)
        return (
            Mark("text", text=str(self.total), at=at, colour="#000000"),
            Mark("arrow", at=at, toward=DIRECTIONS[self.direction], colour="#000000"),
        )


@dataclass(frozen=True)
class Sandwich(_Clue):
    clue: tuple[int, int]
    cells: tuple[int, ...]
    total: int
    kind: ClassVar[str] = "sandwich"
    key: ClassVar[str] = "sandwichsum"
    sides: ClassVar[int] = 2  # read both ways alike: the top and the left say it all
    share: ClassVar[float] = 0.8

    @classmethod
    def high(cls, n: int, length: int) -> int:
        return n * (n + 1) // 2 - 1 - n

    def holds(self, digits: Sequence[int], n: int) -> bool:
        ends = [i for i, d in enumerate(digits) if d in (1, n)]
        if len(ends) != 2 or digits[ends[0]] == digits[ends[1]]:
            return False
        return sum(digits[ends[0] + 1 : ends[1]]) == self.total

    def forms(self, n: int) -> Forms:
        """Before the first end (1 or n), between the ends with the sum so far and the end seen first,
        after the second end: the sandwich's automaton."""
        total = self.total

        def step(i: int, state: Any, d: int) -> Any:
            if state == "before":
                return ("in", d, 0) if d in (1, n) else "before"
            if state == "after":
                return None if d in (1, n) else "after"
            _, first, s = state
            if d in (1, n):
                return "after" if d != first and s == total else None
            return ("in", first, s + d) if s + d <= total else None

        return Forms(
            automata=(
                replace(
                    Automaton.unroll(self.cells, n, "before", step, lambda s: s == "after", "sandwich"),
                    kernel=("sandwich", total),
                ),
            )
        )


@dataclass(frozen=True)
class XSum(_Clue):
    clue: tuple[int, int]
    cells: tuple[int, ...]
    total: int
    kind: ClassVar[str] = "X-sum"
    key: ClassVar[str] = "xsum"
    low: ClassVar[int] = 1

    @classmethod
    def high(cls, n: int, length: int) -> int:
        return n * (n + 1) // 2

    def holds(self, digits: Sequence[int], n: int) -> bool:
        x = digits[0]
        return x <= len(digits) and sum(digits[:x]) == self.total

    def forms(self, n: int) -> Forms:
        """(x, cells counted, their sum) until x cells are counted, then done."""
        total = self.total

        def step(i: int, state: Any, d: int) -> Any:
            if state == "done":
                return "done"
            x, count, s = state if state != "start" else (d, 0, 0)
            count, s = count + 1, s + d
            if count == x:
                return "done" if s == total else None
            return (x, count, s) if s < total else None

        return Forms(
            automata=(Automaton.unroll(self.cells, n, "start", step, lambda s: s == "done", "X-sum"),)
        )


@dataclass(frozen=True)
class Skyscraper(_Clue):
    clue: tuple[int, int]
    cells: tuple[int, ...]
    total: int
    kind: ClassVar[str] = "skyscraper"
    key: ClassVar[str] = "skyscraper"
    low: ClassVar[int] = 1

    @classmethod
    def high(cls, n: int, length: int) -> int:
        return length

    def holds(self, digits: Sequence[int], n: int) -> bool:
        seen, tallest = 0, 0
        for d in digits:
            if d > tallest:
                seen, tallest = seen + 1, d
        return seen == self.total

    def forms(self, n: int) -> Forms:
        """(the tallest so far, how many seen): at most the clue, the clue at the end."""
        total = self.total

        def step(i: int, state: Any, d: int) -> Any:
            tallest, seen = state
            if d > tallest:
                return (d, seen + 1) if seen < total else None
            return state

        return Forms(
            automata=(
                replace(
                    Automaton.unroll(self.cells, n, (0, 0), step, lambda s: s[1] == total, "skyscraper"),
                    kernel=("skyscraper", total),
                ),
            )
        )
