"""The marks on cells and small groups: odd and even cells, minimum and maximum cells, quadruples and
clones (f-puzzles ``odd``, ``even``, ``minimum``, ``maximum``: ``{"cell": "R1C1"}``; ``quadruple``:
``{"cells": [...], "values": [...]}``; ``clone``: ``{"cells": [...], "cloneCells": [...]}``).

- odd / even: the cell's digit is odd / even;
- minimum / maximum: the cell's digit is below / above the digit of each orthogonal neighbour;
- quadruple: the digits listed appear among the cells (a digit listed twice, at least twice);
- clone: the two shapes hold the same digits, cell for cell.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import ParseError
from ..automaton import Automaton
from ..constraints import Pair
from . import entries
from .base import Forms, Mark, Variant

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["Clone", "Even", "Maximum", "Minimum", "Odd", "Quadruple"]


class _Cell(Variant):
    """A mark on one cell: ``{"cell": "R1C1"}``."""

    cells: tuple[int, ...]

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        return [cls.at(entries.cell(entry.get("cell"), rules.n), rules.n)]

    @classmethod
    def at(cls, cell: int, n: int) -> Variant:
        return cls((cell,))  # type: ignore[call-arg]

    def write(self, n: int) -> dict[str, Any]:
        return {"cell": entries.name(self.cells[0], n)}

    def claim(self, n: int) -> dict[str, Any]:
        return {"cell": self.cells[0]}


class _Parity(_Cell):
    odd: ClassVar[bool]

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return digits[0] % 2 == self.odd

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """A third of the cells whose digit has the parity, at random."""
        cells = [c for c in range(rules.ncells) if grid[c] % 2 == cls.odd]
        return [cls.at(c, rules.n) for c in sorted(rng.sample(cells, max(1, len(cells) // 3)))]

    def forms(self, n: int) -> Forms:
        keep = self.odd
        automaton = Automaton.unroll(
            self.cells, n, 0, lambda i, s, d: 0 if d % 2 == keep else None, lambda s: True, self.kind
        )
        return Forms(automata=(automaton,))


@dataclass(frozen=True)
class Odd(_Parity):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "odd"
    key: ClassVar[str] = "odd"
    odd: ClassVar[bool] = True

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("circle", self.cells, "#c8c8c8"),)


@dataclass(frozen=True)
class Even(_Parity):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "even"
    key: ClassVar[str] = "even"
    odd: ClassVar[bool] = False

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("square", self.cells, "#c8c8c8"),)


def _neighbours(cell: int, n: int) -> tuple[int, ...]:
    r, c = divmod(cell, n)
    around = ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
    return tuple(a * n + b for a, b in around if 0 <= a < n and 0 <= b < n)


class _Extreme(_Cell):
    """The cell (``cells[0]``) below (minimum) or above (maximum) each of its orthogonal neighbours (the
    rest of ``cells``)."""

    lowest: ClassVar[bool]

    @classmethod
    def at(cls, cell: int, n: int) -> Variant:
        return cls((cell, *_neighbours(cell, n)))  # type: ignore[call-arg]

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return self.consistent(digits, n)

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Up to n / 2 of the cells whose digit is below (above) each orthogonal neighbour's, at random
        (the cells of 1 (of n) always are)."""
        n = rules.n
        marks = [cls.at(c, n) for c in range(rules.ncells)]
        found = [v for v in marks if v.holds([grid[c] for c in v.cells], n)]
        return sorted(rng.sample(found, min(len(found), max(1, n // 2))), key=lambda v: v.cells)

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        x = digits[0]
        return not x or all(not y or (x < y if self.lowest else x > y) for y in digits[1:])

    def forms(self, n: int) -> Forms:
        cell = self.cells[0]
        return Forms(
            pairs=tuple(
                Pair(cell, other, "less", source=self.kind)
                if self.lowest
                else Pair(other, cell, "less", source=self.kind)
                for other in self.cells[1:]
            )
        )

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("text", self.cells[:1], "#606060", text="v" if self.lowest else "^"),)


@dataclass(frozen=True)
class Minimum(_Extreme):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "minimum"
    key: ClassVar[str] = "minimum"
    lowest: ClassVar[bool] = True


@dataclass(frozen=True)
class Maximum(_Extreme):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "maximum"
    key: ClassVar[str] = "maximum"
    lowest: ClassVar[bool] = False


@dataclass(frozen=True)
class Quadruple(Variant):
    """``values`` (ascending, repeats kept) appear among ``cells``."""

    cells: tuple[int, ...]
    values: tuple[int, ...]
    kind: ClassVar[str] = "quadruple"
    key: ClassVar[str] = "quadruple"

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return not Counter(self.values) - Counter(digits)

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        missing = Counter(self.values) - Counter(d for d in digits if d)
        return sum(missing.values()) <= sum(1 for d in digits if not d)

    def forms(self, n: int) -> Forms:
        """The values still to place (a sorted tuple), never more than the cells left."""
        m = len(self.cells)

        def step(i: int, state: Any, d: int) -> Any:
            rest = list(state)
            if d in rest:
                rest.remove(d)
            return tuple(rest) if len(rest) <= m - 1 - i else None

        return Forms(
            automata=(Automaton.unroll(self.cells, n, self.values, step, lambda s: not s, "quadruple"),)
        )

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Up to n / 2 quadruples at random corners, sharing no cell, each listing 2 to 4 of the digits
        around its corner."""
        n = rules.n
        corners = [(r, c) for r in range(n - 1) for c in range(n - 1)]
        rng.shuffle(corners)
        used: set[int] = set()
        out: list[Variant] = []
        for r, c in corners:
            cells = (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
            if len(out) == max(1, n // 2) or used.intersection(cells):
                continue
            used.update(cells)
            digits = [grid[x] for x in cells]
            out.append(cls(cells, tuple(sorted(rng.sample(digits, rng.randint(2, 4))))))
        return out

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        n = rules.n
        cells = entries.cell_list(entry.get("cells"), n, "quadruple")
        values = tuple(
            sorted(
                entries.number(v, "quadruple", None, 1, n) or 0
                for v in entries.listed(entry.get("values"), "quadruple's values")
            )
        )
        if len(values) > len(cells):
            raise ParseError(f"an f-puzzles quadruple lists {len(values)} digits for {len(cells)} cells")
        return [cls(cells, values)]

    def write(self, n: int) -> dict[str, Any]:
        return {"cells": [entries.name(c, n) for c in self.cells], "values": list(self.values)}

    def claim(self, n: int) -> dict[str, Any]:
        return {"cells": list(self.cells), "values": list(self.values)}

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("circle", self.cells, "#000000", text=" ".join(map(str, self.values)), filled=False),)


@dataclass(frozen=True)
class Clone(Variant):
    """The first half of ``cells`` (the shape) and the second (its clone) hold the same digits in order."""

    cells: tuple[int, ...]
    kind: ClassVar[str] = "clone"
    key: ClassVar[str] = "clone"

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return self.consistent(digits, n)

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        k = len(digits) // 2
        return all(not a or not b or a == b for a, b in zip(digits[:k], digits[k:], strict=True))

    def forms(self, n: int) -> Forms:
        k = len(self.cells) // 2
        return Forms(
            pairs=tuple(
                Pair(a, b, "equal", source="clone")
                for a, b in zip(self.cells[:k], self.cells[k:], strict=True)
            )
        )

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        n = rules.n
        shape = entries.cell_list(entry.get("cells"), n, "clone")
        copy = entries.cell_list(entry.get("cloneCells"), n, "clone", count=len(shape))
        return [cls(shape + copy)]

    def write(self, n: int) -> dict[str, Any]:
        k = len(self.cells) // 2
        names = [entries.name(c, n) for c in self.cells]
        return {"cells": names[:k], "cloneCells": names[k:]}

    def claim(self, n: int) -> dict[str, Any]:
        k = len(self.cells) // 2
        return {"cells": list(self.cells[:k]), "clone": list(self.cells[k:])}

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("shade", self.cells, "#d0e0ff"),)
