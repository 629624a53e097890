"""A candidate grid: for every cell, the digits it may still hold (pencilmarks).

The value the step engine, pencilmark input and pictures share: an empty cell's candidates as a bit mask
(bit ``d - 1`` for digit ``d``), and a given cell's mask holding just its digit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .grid import Puzzle, as_puzzle

__all__ = ["Candidates", "as_start"]


@dataclass(frozen=True)
class Candidates:
    """The digits each cell of ``puzzle`` may hold: ``masks[cell]`` has bit ``d - 1`` set for digit ``d``.

    >>> c = Candidates.of(Puzzle.from_string("1..." "..1." ".1.." "...1"))
    >>> c.digits(1), c.digits(0)
    ((2, 3, 4), (1,))
    """

    puzzle: Puzzle
    masks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.masks) != self.puzzle.rules.ncells:
            raise ValueError(f"{len(self.masks)} masks for a grid of {self.puzzle.rules.ncells} cells")
        full = (1 << self.puzzle.n) - 1
        for cell, (mask, digit) in enumerate(zip(self.masks, self.puzzle.cells, strict=True)):
            if mask & ~full or (digit and mask != 1 << (digit - 1)):
                raise ValueError(f"the candidates of {self.puzzle.rules.name(cell)} do not fit the puzzle")

    @classmethod
    def of(cls, puzzle: Puzzle) -> Candidates:
        """The pencilmarks a solver writes first: each empty cell's digits not given among its peers."""
        rules, cells = puzzle.rules, puzzle.cells
        full = (1 << puzzle.n) - 1
        masks = []
        for cell, digit in enumerate(cells):
            if digit:
                masks.append(1 << (digit - 1))
                continue
            seen = 0
            for peer in rules.peers[cell]:
                if d := cells[peer]:
                    seen |= 1 << (d - 1)
            masks.append(full & ~seen)
        return cls(puzzle, tuple(masks))

    @classmethod
    def from_digits(cls, puzzle: Puzzle, digits: Iterable[Iterable[int]]) -> Candidates:
        """Candidates from one collection of digits per cell (a given cell's must be just its digit)."""
        return cls(puzzle, tuple(sum(1 << (d - 1) for d in set(ds)) for ds in digits))

    def digits(self, cell: int) -> tuple[int, ...]:
        """The candidate digits of ``cell``, increasing."""
        mask = self.masks[cell]
        return tuple(d for d in range(1, self.puzzle.n + 1) if mask >> (d - 1) & 1)

    def _repr_svg_(self) -> str | None:
        from .draw import repr_svg

        return repr_svg(self.puzzle, candidates=self)


def as_start(start: Puzzle | Candidates | str) -> Puzzle | Candidates:
    """What a search or a walk starts from: a pencilmark grid as it is, else the puzzle (``as_puzzle``:
    its text read, anything else named in a ``TypeError``)."""
    return start if isinstance(start, Candidates) else as_puzzle(start)
