"""The immutable ``Puzzle`` value: its ``Rules`` (what a valid grid is) and the digits of its cells.

Cells are numbered 0..n*n-1 in row-major order and digits run 1..n with 0 for an empty cell; rows and
columns appear only at the user-facing edge (``r1c3=5``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .errors import InvalidPuzzleError, ParseError
from .rules import Rules, Violation
from .wording import plural

__all__ = ["BLANKS", "SYMBOLS", "Puzzle", "Rules", "as_puzzle", "digit_of", "length_error", "symbol"]

#: Symbols of digits 1..n: 1-9, then A-Z, then a-z (lower case is distinct only past 35 digits).
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: Characters read as an empty cell.
BLANKS = ".0?_-"


def symbol(digit: int) -> str:
    """The one-character symbol of ``digit`` (``0`` gives ``.``)."""
    return "." if digit == 0 else SYMBOLS[digit - 1]


def length_error(count: int, rules: Rules) -> ParseError:
    """The error for ``count`` symbols read as a grid of ``rules``, which has another number of cells."""
    return ParseError(f"{count} {plural(count, 'symbol')}, a {rules.n}x{rules.n} grid has {rules.ncells}")


def digit_of(char: str, n: int) -> int:
    """The digit a symbol stands for in an n-digit grid, 0 for a blank; ``ValueError`` if it is none.

    Letters are read without regard to case while n <= 35, so ``a`` and ``A`` are both 10.
    """
    if char in BLANKS:
        return 0
    if n <= 35:
        char = char.upper()
    d = SYMBOLS.find(char) + 1
    if d == 0 or d > n:
        raise ValueError(f"unknown symbol {char!r} for a {n}x{n} grid")
    return d


@cache
def _digit_set(n: int) -> frozenset[int]:
    return frozenset(range(n + 1))


@dataclass(frozen=True)
class Puzzle:
    """An immutable grid: ``cells[i]`` is the digit of cell i, 0 where empty.

    >>> p = Puzzle.from_string("1.3." "..1." ".1.." "...1")
    >>> p.rules, p.cells[:4]
    (Rules.classic(2, 2), (1, 0, 3, 0))
    """

    rules: Rules
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        n = self.rules.n
        if len(self.cells) != n * n:
            raise ParseError(f"{len(self.cells)} cells given, a {n}x{n} grid has {n * n}")
        if _digit_set(n).issuperset(self.cells):  # one C-level pass: it runs for every puzzle read or solved
            return
        for d in self.cells:
            if not 0 <= d <= n:
                raise ParseError(f"digit {d} is out of range 0..{n}")

    @classmethod
    def from_string(cls, text: str, rules: Rules | None = None) -> Puzzle:
        """Read one puzzle written on one line, one symbol per cell; white space is ignored."""
        chars = "".join(text.split())
        try:
            rules = rules or Rules.from_cell_count(len(chars))
        except ValueError:
            raise ParseError(
                f"{len(chars)} {plural(len(chars), 'symbol')} is not the length of any grid (81 for 9x9, 256 "
                "for 16x16)"
            ) from None
        if len(chars) != rules.ncells:
            raise length_error(len(chars), rules)
        try:
            return cls(rules, tuple(digit_of(ch, rules.n) for ch in chars))
        except ValueError as exc:
            raise ParseError(str(exc)) from None

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], rules: Rules | None = None) -> Puzzle:
        """A puzzle from n rows of n digits (0 for blank)."""
        rules = rules or Rules.from_n(len(rows))
        return cls(rules, tuple(int(d) for row in rows for d in row))

    @classmethod
    def empty(cls, rules: Rules) -> Puzzle:
        return cls(rules, (0,) * rules.ncells)

    @property
    def n(self) -> int:
        return self.rules.n

    @property
    def givens(self) -> tuple[tuple[int, int], ...]:
        """``(cell, digit)`` of every filled cell."""
        return tuple((cell, d) for cell, d in enumerate(self.cells) if d)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.n
        return tuple(self.cells[r * n : (r + 1) * n] for r in range(n))

    def is_complete(self) -> bool:
        return 0 not in self.cells

    def with_cells(self, assignments: Iterable[tuple[int, int]]) -> Puzzle:
        """A copy with the given ``(cell, digit)`` pairs written in (digit 0 empties a cell)."""
        cells = list(self.cells)
        for cell, d in assignments:
            cells[cell] = d
        return Puzzle(self.rules, tuple(cells))

    def conflicts(self) -> list[Violation]:
        """Every rule the filled cells already break: a digit twice in a house, a broken cage, ..."""
        return self.rules.violations(self.cells)

    def validate(self) -> Puzzle:
        """Return self, or raise ``InvalidPuzzleError`` naming the first rule the givens break."""
        if clash := self.rules.violations(self.cells, first=True):
            raise InvalidPuzzleError(clash[0].message)
        return self

    def to_string(self, blank: str = ".") -> str:
        """The puzzle on one line, ``blank`` for empty cells."""
        return "".join(SYMBOLS[d - 1] if d else blank for d in self.cells)

    def __str__(self) -> str:
        return self.to_string()

    def _repr_svg_(self) -> str | None:
        """The picture Jupyter shows (None, so the text is shown, without the ``draw`` extra)."""
        from .draw import repr_svg

        return repr_svg(self)


def as_puzzle(puzzle: Puzzle | str) -> Puzzle:
    """``puzzle``, or the puzzle its text writes (``Puzzle.from_string``); ``TypeError`` for anything else,
    named (an int or None reached a backend as "no attribute 'rules'")."""
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        return Puzzle.from_string(puzzle)
    raise TypeError(f"a puzzle is a Puzzle or its text, not {type(puzzle).__name__}")
