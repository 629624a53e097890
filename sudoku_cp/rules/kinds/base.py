"""What every constraint kind is: one module holds its check of a grid, its f-puzzles entry (read and
written), how the solvers reason on it and how it is drawn.

A kind reasons through the engine's forms (``Forms``), which every backend, the certificate encoder and the
human techniques' propagation already know: groups (distinct digits), pairs (a relation of two cells),
digit sets (the cells hold one of the sets, as a killer cage holds one of its combinations), sums
(``rules.sums``) and automata over a line of cells (``rules.automaton``). A kind that lowers to them
needs no line in any backend; ``Rules`` gathers each kind's forms with the built-in rules'.

The built-in kinds (extra regions, killer cages, thermometers, arrows, kropki and XV marks, the negative
rules) have the same shape; their constraints live in a field of their own in ``Rules`` (``field``:
``cages``, ``thermos``...), which the backends read natively (the cage and thermometer kernels, the sum
encodings), and a constraint of theirs given among ``variants`` is moved there.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import ParseError, UnsupportedRuleError
from ..automaton import Automaton
from ..constraints import Pair, cell_name

if TYPE_CHECKING:
    from ..model import Rules

__all__ = ["Forms", "Mark", "Variant", "drawable"]

#: A sum as ``rules.sums`` reads it: cells, coefficients, total.
Sum = tuple[tuple[int, ...], tuple[int, ...], int]


@dataclass(frozen=True)
class Forms:
    """What a constraint means to the solvers, in the forms they know."""

    groups: tuple[tuple[int, ...], ...] = ()
    pairs: tuple[Pair, ...] = ()
    #: (cells, sets): the cells' digits, which a group keeps distinct, are one of the sets (each as many
    #: digits as cells, ascending), reasoned on as a cage's combinations are
    sets: tuple[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], ...] = ()
    sums: tuple[Sum, ...] = ()
    automata: tuple[Automaton, ...] = ()


@dataclass(frozen=True)
class Mark:
    """One mark of a constraint's picture, in grid units (a cell is 1 wide; row and column 0 is the
    top-left cell, -1 and n the places outside where clues stand):

    - ``line``: a line through the centres of ``cells``; ``circle``: a circle in each of ``cells``
      (``filled`` or open), or, with ``text``, one circle over the middle of ``cells`` with the text in
      it (a quadruple); ``shade``: each of ``cells`` shaded; ``square``: a small square in each;
    - ``text``: ``text`` centred at ``at`` (row, column), or in the top-left corner of ``cells[0]``;
    - ``arrow``: a short arrow at ``at`` pointing along ``toward`` (row step, column step);
    - ``bulb``: a line through the centres of ``cells`` from a round bulb in the first (a thermometer);
    - ``pill``: an outline round the first ``size`` cells (a circle round one, a rounded box round
      several), and a line from its edge through the centres of the rest to an arrowhead (an arrow);
    - ``cage``: a dashed outline just inside the border of ``cells``, with ``text`` (a sum) small in the
      top-left corner of its first cell in reading order;
    - ``dot``: on the edge between ``cells[0]`` and ``cells[1]``, a small circle (``filled`` or open), or,
      with ``text``, the text in bold on a white square (kropki dots, X and V).

    ``width`` is a line's width and ``radius`` a circle's or a bulb's, in cell widths.
    """

    shape: str
    cells: tuple[int, ...] = ()
    colour: str = "#808080"
    text: str = ""
    at: tuple[float, float] | None = None
    toward: tuple[int, int] | None = None
    filled: bool = True
    width: float = 0.15
    radius: float = 0.4
    size: int = 0


class Variant(ABC):
    """One constraint of a kind (a frozen dataclass in each kind's module). ``cells`` are the cells its
    check reads, in the order ``holds`` takes their digits (``all_cells`` where a kind says more: an
    arrow's ``cells`` are its line, its circle comes first)."""

    #: The kind's name in messages and ``Rules.kinds`` (``renban``, ``little killer``).
    kind: ClassVar[str]
    #: Its f-puzzles key (``renban``, ``littlekillersum``).
    key: ClassVar[str]
    #: Whether ``cells`` may name a cell again (a line that loops back, such as whispers around a box).
    loops: ClassVar[bool] = False
    #: The ``Rules`` field its constraints live in (``stored``, ``stored_as``).
    field: ClassVar[str] = "variants"
    #: Stated in words, with no mark on the picture (the negative rules).
    worded: ClassVar[bool] = False
    #: Its whole rule is houses (an extra region): every human technique reads it, not the nets alone.
    as_houses: ClassVar[bool] = False
    #: What ``str(Rules)`` counts its constraints as (``renban(2)``): the kind's name with hyphens where
    #: this is empty; kinds with one label are counted together (kropki dots and XV marks are ``dots``).
    label: ClassVar[str] = ""
    #: Whether ``str(Rules)`` gives the count (a negative rule is one of its name, never more).
    counted: ClassVar[bool] = True
    cells: tuple[int, ...]

    @property
    def all_cells(self) -> tuple[int, ...]:
        """The cells the check reads, in the order ``holds`` takes their digits."""
        return self.cells

    @property
    def tag(self) -> str:
        """The constraint in ``str(Rules)``: its ``label``, counted with the others of that label."""
        return self.label or self.kind.replace(" ", "-")

    @property
    def checked(self) -> bool:
        """Whether ``Rules.violations`` asks ``consistent``; False where the houses, groups and pairs the
        model reads from the kind are its whole check (a kropki dot, a cage without a sum)."""
        return True

    def holds_in(self, grid: Sequence[int], rules: Rules) -> bool:
        """True when the complete ``grid`` keeps this constraint under ``rules``."""
        return self.holds([grid[c] for c in self.all_cells], rules.n)

    def forms_in(self, rules: Rules) -> Forms:
        """``forms`` on the grid of ``rules``; a kind whose meaning depends on the others' constraints
        (a negative rule on the unmarked neighbours) says more."""
        return self.forms(rules.n)

    @abstractmethod
    def holds(self, digits: Sequence[int], n: int) -> bool:
        """True when the complete ``digits`` of ``cells`` keep the rule on an n x n grid."""

    def consistent(self, digits: Sequence[int], n: int) -> bool:
        """False when the filled digits (0 for blank) already break the rule; a kind may say more than
        this default, which judges complete lines only."""
        return not all(digits) or self.holds(digits, n)

    @abstractmethod
    def forms(self, n: int) -> Forms:
        """The rule in the engine's forms (see the module's note); exactly the grids ``holds`` keeps."""

    @classmethod
    @abstractmethod
    def read(cls, entry: dict[str, Any], rules: Rules) -> list[Variant]:
        """The constraints one f-puzzles entry of the kind's key states, on a grid of ``rules`` (its
        size and regions); ``ParseError`` saying what is wrong."""

    @abstractmethod
    def write(self, n: int) -> dict[str, Any]:
        """The f-puzzles entry that ``read`` reads back to this constraint."""

    @classmethod
    def read_key(cls, value: Any, rules: Rules) -> list[Variant]:
        """The constraints the value of the kind's f-puzzles key states (a list of entries, or nothing)."""
        found = value or []
        if not isinstance(found, list) or not all(isinstance(e, dict) for e in found):
            raise ParseError(f"f-puzzles key {cls.key!r} must be a list of objects")
        return [v for e in found for v in cls.read(e, rules)]

    @classmethod
    def write_key(cls, constraints: Sequence[Variant], n: int) -> list[Any]:
        """The value of the kind's f-puzzles key that ``read_key`` reads back to ``constraints``."""
        return [c.write(n) for c in constraints]

    @classmethod
    def stored(cls, rules: Rules) -> tuple[Variant, ...]:
        """The constraints of the kind in ``rules``, in their order there."""
        return tuple(v for v in getattr(rules, cls.field) if type(v) is cls)

    def stored_as(self) -> Any:
        """What ``Rules`` holds in ``field`` for this constraint (itself, or a plainer value: an extra
        region's cells, a kropki dot's ``Pair``)."""
        return self

    @abstractmethod
    def marks(self, n: int) -> tuple[Mark, ...]:
        """The constraint's picture, as setters draw it."""

    def claim(self, n: int) -> dict[str, Any]:
        """Its data in a certificate's claim, beside its kind's name (docs/certificates.md, "Variants":
        clue places as ``[row, column]`` from 0, -1 and n outside), which the checker reads with its own
        meaning of the kind. A kind the checker does not know leaves this out: ``prove`` refuses it."""
        raise UnsupportedRuleError(
            f"prove: {self.describe(n)}: no canonical clauses in a certificate (its kind, {self.kind}, "
            "has no entry in docs/certificates.md)"
        )

    @classmethod
    def drawn(cls, grid: Sequence[int], rules: Rules, rng: random.Random) -> list[Variant]:
        """Constraints of the kind that the full ``grid`` keeps, drawn at random for a generated puzzle
        (``generate.drawn``). A kind that draws none leaves this out: ``kinds.drawable`` is then False
        and ``generate`` refuses the kind by name."""
        raise UnsupportedRuleError(f"generate draws no {cls.kind} clues")

    def describe(self, n: int) -> str:
        return f"{self.kind} at {cell_name(self.cells[0], n)}"


def drawable(kind: type[Variant]) -> bool:
    """Whether ``generate`` can draw constraints of ``kind`` from a solution (it defines ``drawn``)."""
    return kind.drawn.__func__ is not Variant.drawn.__func__  # type: ignore[attr-defined]
