"""The constraints drawn as lines (f-puzzles entries ``{"lines": [[cells...], ...]}``, one constraint a
line): renban, German whispers, palindromes, between lines, entropic and modular lines.

Each module-level class is one kind; the rules, as the setters' community states them:

- renban: the digits form a set of consecutive digits, in any order, none twice;
- whispers: neighbours on the line differ by at least ``value``: 5 on 9x9 (German whispers) and
  ``ceil(n / 2)`` on other sizes unless the entry says ``value``;
- palindrome: the line reads the same from either end;
- between line: every cell strictly between the line's two ends holds a digit strictly between theirs;
- entropic line: any three consecutive cells hold one low, one middle and one high digit (the thirds of
  1..n; 1-3, 4-6, 7-9 on 9x9); on a line of two cells, the two are of different thirds;
- modular line: the same with the residues modulo 3 (147, 258, 369 on 9x9).
"""

from __future__ import annotations

import itertools
import math
import random
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import ParseError, RulesError, UnsupportedRuleError
from ..automaton import Automaton
from ..constraints import Pair
from . import entries
from .base import Forms, Mark, Variant

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["BetweenLine", "EntropicLine", "ModularLine", "Palindrome", "Renban", "Whispers", "read_lines"]


def read_lines(entry: dict[str, Any], n: int, what: str, shortest: int = 1) -> list[tuple[int, ...]]:
    """Each line of an entry's ``lines``, as cells; ``ParseError`` for a line shorter than ``shortest``."""
    out = []
    for line in entries.listed(entry.get("lines"), f"{what}'s lines"):
        cells = entries.cell_list(line, n, what)
        if len(cells) < shortest:
            raise ParseError(f"an f-puzzles {what} needs at least {shortest} cells, not {len(cells)}")
        out.append(cells)
    return out


def grown_lines(
    grid: Sequence[int],
    n: int,
    rng: random.Random,
    keeps: Any,
    count: int,
    longest: int,
    shortest: int = 2,
) -> list[tuple[int, ...]]:
    """Up to ``count`` lines that share no cell, each grown from a random cell over king's steps while
    ``keeps(digits)`` holds of the grid's digits along it, to a random length of ``shortest`` to
    ``longest``; a line that cannot reach ``shortest`` is dropped (a few tries per line)."""
    used: set[int] = set()
    edges: set[frozenset[int]] = set()  # of the lines kept
    lines: list[tuple[int, ...]] = []
    for _ in range(count * 8):
        if len(lines) == count:
            break
        start = rng.randrange(n * n)
        if start in used:
            continue
        line = [start]
        size = rng.randint(shortest, longest)
        while len(line) < size:
            drawn = edges | edges_of(line)
            options = [
                x
                for x in king_steps(line[-1], n)
                if x not in used and x not in line and not crosses(line[-1], x, n, drawn)
            ]
            options = [x for x in options if keeps([grid[y] for y in (*line, x)])]
            if not options:
                break
            line.append(rng.choice(options))
        if len(line) >= shortest and keeps([grid[y] for y in line]):
            lines.append(tuple(line))
            used.update(line)
            edges.update(edges_of(line))
    return lines


def king_steps(cell: int, n: int) -> list[int]:
    """The cells a king's step from ``cell`` on an n x n grid, row by row."""
    r, c = divmod(cell, n)
    return [
        (r + a) * n + c + b
        for a in (-1, 0, 1)
        for b in (-1, 0, 1)
        if (a or b) and 0 <= r + a < n and 0 <= c + b < n
    ]


def crosses(a: int, b: int, n: int, edges: set[frozenset[int]]) -> bool:
    """Whether a king's step from ``a`` to ``b`` crosses a diagonal step of ``edges`` (pairs of cells next
    on a line): a drawn line that crosses another, or itself, reads badly."""
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return ra != rb and ca != cb and frozenset((ra * n + cb, rb * n + ca)) in edges


def edges_of(line: Sequence[int]) -> set[frozenset[int]]:
    """The steps of ``line``, each as the pair of its cells."""
    return {frozenset(step) for step in itertools.pairwise(line)}


#: How many partial lines ``searched_lines`` grows from one start before passing it over.
SEARCHED_PER_START = 2_000


def searched_lines(n: int, rng: random.Random, fits: Any, grows: Any, longest: int) -> list[tuple[int, ...]]:
    """Up to n / 2 lines that share no cell, each the first line of king's steps from a random start (at
    most ``longest`` cells) that ``fits(line)`` accepts, in random depth-first order; ``grows(line)``
    says whether the line may still grow into one. A start with none within ``SEARCHED_PER_START``
    partial lines is passed over."""
    used: set[int] = set()
    edges: set[frozenset[int]] = set()  # of the lines kept
    left = [0]

    def extend(line: tuple[int, ...]) -> tuple[int, ...]:
        left[0] -= 1
        if left[0] < 0:
            return ()
        if fits(line):
            return line
        if len(line) == longest or not grows(line):
            return ()
        steps = king_steps(line[-1], n)
        rng.shuffle(steps)
        drawn = edges | edges_of(line)
        for x in steps:
            if x in used or x in line or crosses(line[-1], x, n, drawn):
                continue
            if found := extend((*line, x)):
                return found
        return ()

    lines: list[tuple[int, ...]] = []
    for start in rng.sample(range(n * n), n * n):
        if len(lines) == max(1, n // 2):
            break
        left[0] = SEARCHED_PER_START
        if start not in used and (line := extend((start,))):
            lines.append(line)
            used.update(line)
            edges.update(edges_of(line))
    return lines


def _write(cells: tuple[int, ...], n: int, **more: Any) -> dict[str, Any]:
    return {"lines": [[entries.name(c, n) for c in cells]], **more}


class _Line(Variant):
    """What the line kinds share: read one constraint per line, written as one line, drawn as a line."""

    colour: ClassVar[str]
    shortest: ClassVar[int] = 2
    cells: tuple[int, ...]

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        return [cls(cells) for cells in read_lines(entry, rules.n, cls.kind, cls.shortest)]  # type: ignore[call-arg]

    def write(self, n: int) -> dict[str, Any]:
        return _write(self.cells, n)

    def marks(self, n: int) -> tuple[Mark, ...]:
        return (Mark("line", self.cells, self.colour, width=0.2),)

    def claim(self, n: int) -> dict[str, Any]:
        return {"cells": list(self.cells)}


@dataclass(frozen=True)
class Renban(_Line):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "renban"
    key: ClassVar[str] = "renban"
    colour: ClassVar[str] = "#f067f0"
    shortest: ClassVar[int] = 1

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        filled = [d for d in digits if d]
        return len(set(filled)) == len(filled) and (not filled or max(filled) - min(filled) < len(digits))

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """About n / 2 lines of 2 to 5 cells whose digits are consecutive in the grid."""
        n = rules.n

        def keeps(digits: list[int]) -> bool:  # every growing prefix stays a run of consecutive digits
            return max(digits) - min(digits) == len(digits) - 1

        return [cls(line) for line in grown_lines(grid, n, rng, keeps, max(1, n // 2), min(5, n))]

    def forms(self, n: int) -> Forms:
        """Distinct digits no two further apart than the line is long (k distinct digits within a span of
        k - 1 are exactly k consecutive digits), and, as digit sets, the runs of k consecutive digits: the
        sets alone are the rule, the pairs let each pair of cells reason before the sets narrow."""
        k = len(self.cells)
        span = k - 1
        pairs = tuple(
            Pair(a, b, "near", span, source="renban")
            for a, b in itertools.combinations(self.cells, 2)
            if span < n - 1
        )
        runs = tuple(tuple(range(low, low + k)) for low in range(1, n - k + 2))
        return Forms(
            groups=(self.cells,) if k > 1 else (), pairs=pairs, sets=((self.cells, runs),) if k < n else ()
        )


@dataclass(frozen=True)
class Whispers(_Line):
    cells: tuple[int, ...]
    value: int | None = None
    kind: ClassVar[str] = "whispers"
    key: ClassVar[str] = "whispers"
    colour: ClassVar[str] = "#67f067"
    loops: ClassVar[bool] = True  # its rule is its neighbours': a closed loop is as good as a line

    @staticmethod
    def default(n: int) -> int:
        """The least difference of German whispers on an n x n grid: 5 on 9x9, ceil(n / 2) in general."""
        return math.ceil(n / 2)

    def apart(self, n: int) -> int:
        return self.value if self.value is not None else self.default(n)

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return all(abs(a - b) >= self.apart(n) for a, b in itertools.pairwise(digits))

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        least = self.apart(n)
        return all(abs(a - b) >= least for a, b in itertools.pairwise(digits) if a and b)

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """About n / 2 lines of 3 to 7 cells whose neighbours the grid keeps far enough apart."""
        n = rules.n
        least = cls.default(n)

        def keeps(digits: list[int]) -> bool:
            return all(abs(a - b) >= least for a, b in itertools.pairwise(digits))

        return [cls(line) for line in grown_lines(grid, n, rng, keeps, max(1, n // 2), min(7, n), 3)]

    def forms(self, n: int) -> Forms:
        least = self.apart(n)
        return Forms(
            pairs=tuple(
                Pair(a, b, "apart", least, source="whispers") for a, b in itertools.pairwise(self.cells)
            )
        )

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        value = entries.number(entry.get("value"), "whispers line", None, 1, rules.n - 1)
        if value == cls.default(rules.n):
            value = None
        return [cls(cells, value) for cells in read_lines(entry, rules.n, cls.kind, 2)]

    def write(self, n: int) -> dict[str, Any]:
        return _write(self.cells, n, **({"value": str(self.value)} if self.value is not None else {}))

    def claim(self, n: int) -> dict[str, Any]:
        return {"cells": list(self.cells), "apart": self.apart(n)}

    def describe(self, n: int) -> str:
        return f"whispers line (apart {self.apart(n)}) at {entries.name(self.cells[0], n)}"


@dataclass(frozen=True)
class Palindrome(_Line):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "palindrome"
    key: ClassVar[str] = "palindrome"
    colour: ClassVar[str] = "#c0c0c0"

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return list(digits) == list(reversed(digits))

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        return all(not a or not b or a == b for a, b in zip(digits, reversed(digits), strict=True))

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Up to n / 2 palindromes of 3, 5 or 7 cells that share no cell, each grown from its middle cell
        a king's step at a time at both ends, onto two cells of the same digit."""
        n = rules.n
        used: set[int] = set()
        edges: set[frozenset[int]] = set()  # of the lines kept
        out: list[Variant] = []
        for middle in rng.sample(range(rules.ncells), rules.ncells):
            if len(out) == max(1, n // 2):
                break
            if middle in used:
                continue
            left, right = [middle], [middle]
            for _ in range(rng.randint(1, 3)):
                free = used.union(left, right)
                drawn = edges | edges_of(left) | edges_of(right)
                pairs = [
                    (x, y)
                    for x in king_steps(left[-1], n)
                    for y in king_steps(right[-1], n)
                    if x != y and x not in free and y not in free and grid[x] == grid[y]
                    and not crosses(left[-1], x, n, drawn | {frozenset((right[-1], y))})
                    and not crosses(right[-1], y, n, drawn)
                ]  # fmt: skip
                if not pairs:
                    break
                x, y = rng.choice(pairs)
                left.append(x)
                right.append(y)
            if len(left) > 1:
                line = (*reversed(left), *right[1:])
                out.append(cls(line))
                used.update(line)
                edges.update(edges_of(line))
        return out

    def forms(self, n: int) -> Forms:
        m = len(self.cells)
        return Forms(
            pairs=tuple(
                Pair(self.cells[i], self.cells[m - 1 - i], "equal", source="palindrome")
                for i in range(m // 2)
            )
        )


@dataclass(frozen=True)
class BetweenLine(_Line):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "between line"
    key: ClassVar[str] = "betweenline"
    colour: ClassVar[str] = "#c0c0c0"

    def holds(self, digits: Sequence[int], n: int) -> bool:
        low, high = sorted((digits[0], digits[-1]))
        return all(low < d < high for d in digits[1:-1])

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Up to n / 2 between lines of 3 to 6 cells (``searched_lines``): the middle digits stay on one
        side of the first end's as the line grows, and the line ends on a digit beyond them."""

        def fits(line: tuple[int, ...]) -> bool:
            low, high = sorted((grid[line[0]], grid[line[-1]]))
            return len(line) >= 3 and all(low < grid[c] < high for c in line[1:-1])

        def grows(line: tuple[int, ...]) -> bool:
            first, middle = grid[line[0]], [grid[c] for c in line[1:]]
            return all(d < first for d in middle) or all(d > first for d in middle)

        return [cls(line) for line in searched_lines(rules.n, rng, fits, grows, 6)]  # type: ignore[call-arg]

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        a, b = digits[0], digits[-1]
        middle = [d for d in digits[1:-1] if d]
        if a and b:
            return all(min(a, b) < d < max(a, b) for d in middle)
        end = a or b
        return not end or not middle or all(d < end for d in middle) or all(d > end for d in middle)

    def forms(self, n: int) -> Forms:
        """Each middle cell with the two ends, as an automaton (end, middle, end) that remembers the
        first end and the middle digit."""
        first, last = self.cells[0], self.cells[-1]

        def step(i: int, state: Any, d: int) -> Any:
            if i < 2:
                return (*state, d)
            a, m = state
            return "ok" if min(a, d) < m < max(a, d) else None

        automata = tuple(
            Automaton.unroll((first, middle, last), n, (), step, lambda s: s == "ok", "between line")
            for middle in self.cells[1:-1]
        )
        return Forms(automata=automata)

    def marks(self, n: int) -> tuple[Mark, ...]:
        ends = (self.cells[0], self.cells[-1])
        return (
            Mark("line", self.cells, self.colour, width=0.2),
            Mark("circle", ends, self.colour, filled=False),
        )


def _class_line(cells: tuple[int, ...], n: int, of: Any, source: str) -> Automaton:
    """Cells one or two apart on the line hold digits of different classes (``of(d)``): every three
    consecutive cells one of each of three classes. The state is the classes of the last two digits."""

    def step(i: int, state: Any, d: int) -> Any:
        c = of(d)
        return None if c in state else ((*state[-1:], c))

    return Automaton.unroll(cells, n, (), step, lambda s: True, source)


def _classes_hold(digits: Sequence[int], of: Any) -> bool:
    return all(of(a) != of(b) for i, a in enumerate(digits) for b in digits[i + 1 : i + 3] if a and b)


class _ClassLine(_Line):
    """Cells one or two apart on the line hold digits of different classes (``classes(n)``)."""

    @classmethod
    @abstractmethod
    def classes(cls, n: int) -> Any:
        """The class of each digit of an n x n grid, as a function of the digit."""

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return _classes_hold(digits, self.classes(n))

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        return _classes_hold(digits, self.classes(n))

    def forms(self, n: int) -> Forms:
        return Forms(automata=(_class_line(self.cells, n, self.classes(n), self.kind),))

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """About n / 2 lines of 3 to 8 cells over king's steps whose digits keep the rule."""
        n = rules.n
        try:
            of = cls.classes(n)
        except ValueError as error:
            raise UnsupportedRuleError(f"generate: {error}") from None

        def keeps(digits: list[int]) -> bool:
            return _classes_hold(digits, of)

        return [cls(line) for line in grown_lines(grid, n, rng, keeps, max(1, n // 2), min(8, n), shortest=3)]  # type: ignore[call-arg]


@dataclass(frozen=True)
class EntropicLine(_ClassLine):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "entropic line"
    key: ClassVar[str] = "entropicline"
    colour: ClassVar[str] = "#ff64ff"

    @classmethod
    def classes(cls, n: int) -> Any:
        """The thirds of 1..n."""
        if n % 3:
            raise RulesError(f"an entropic line needs a grid whose size is a multiple of 3, not {n}x{n}")
        return lambda d: (d - 1) // (n // 3)


@dataclass(frozen=True)
class ModularLine(_ClassLine):
    cells: tuple[int, ...]
    kind: ClassVar[str] = "modular line"
    key: ClassVar[str] = "modularline"
    colour: ClassVar[str] = "#64c8ff"

    @classmethod
    def classes(cls, n: int) -> Any:
        """The residues modulo 3."""
        return _residue


def _residue(d: int) -> int:
    return d % 3


@dataclass(frozen=True)
class RegionSumLine(_Line):
    """``segments``: the line cut where it crosses from one region (box) into another, each run a
    segment; every segment adds up to the same number (a segment per visit, when a line returns to a
    region)."""

    cells: tuple[int, ...]
    segments: tuple[tuple[int, ...], ...]
    kind: ClassVar[str] = "region sum line"
    key: ClassVar[str] = "regionsumline"
    colour: ClassVar[str] = "#2ecbff"

    def claim(self, n: int) -> dict[str, Any]:
        return {"segments": [list(s) for s in self.segments]}

    @classmethod
    def along(cls, cells: tuple[int, ...], rules: Rules) -> RegionSumLine:
        """The line over ``cells``, cut by ``rules``' regions."""
        segments: list[list[int]] = []
        for i, cell in enumerate(cells):
            if i and rules.region_of[cell] == rules.region_of[cells[i - 1]]:
                segments[-1].append(cell)
            else:
                segments.append([cell])
        return cls(cells, tuple(map(tuple, segments)))

    @classmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        return [cls.along(cells, rules) for cells in read_lines(entry, rules.n, cls.kind, 1)]

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Up to n / 2 lines of up to 7 cells over two regions or more (``searched_lines``), grown while
        every finished segment adds up to the first's and the open one not beyond it."""

        def sums(line: tuple[int, ...]) -> list[int]:
            return [sum(grid[c] for c in seg) for seg in cls.along(line, rules).segments]

        def fits(line: tuple[int, ...]) -> bool:
            found = sums(line)
            return len(found) >= 2 and len(set(found)) == 1

        def grows(line: tuple[int, ...]) -> bool:
            found = sums(line)
            return all(s == found[0] for s in found[1:-1]) and found[-1] <= found[0]

        return [cls.along(line, rules) for line in searched_lines(rules.n, rng, fits, grows, 7)]

    def _sums(self, digits: Sequence[int]) -> list[int | None]:
        value = dict(zip(self.cells, digits, strict=True))
        return [sum(value[c] for c in seg) if all(value[c] for c in seg) else None for seg in self.segments]

    def holds(self, digits: Sequence[int], n: int) -> bool:
        return len(set(self._sums(digits))) <= 1

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        return len({s for s in self._sums(digits) if s is not None}) <= 1

    def forms(self, n: int) -> Forms:
        """Segments' differences equal to 0, as the Interactive Sudoku Solver states them: with a segment
        of one cell, every other segment against it (the cell's digit carries the sum to each); without,
        every two segments (each pair's bounds then reach the others directly, not along a chain)."""
        singles = [seg for seg in self.segments if len(seg) == 1]
        if singles:
            first = singles[0]
            pairs = [(seg, first) for seg in self.segments if seg is not first]
        else:
            pairs = list(itertools.combinations(self.segments, 2))
        return Forms(sums=tuple((a + b, (1,) * len(a) + (-1,) * len(b), 0) for a, b in pairs))
