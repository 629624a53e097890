"""The values a backend and the services built on it return."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .grid import Puzzle

__all__ = ["COMMON_STATS", "Enumeration", "SolveResult", "Stats", "Status", "common_stats"]

#: Statistics by name: ``guesses``, ``backtracks``, ``decisions``, ``conflicts``, ``variables``,
#: ``clauses``, ``time`` (seconds solving), ``build_time`` (seconds building a model), ...
Stats = dict[str, int | float]

#: The statistics every backend gives, whatever else it adds: ``time`` (seconds of search), ``decisions``
#: (branchings: dfs guesses, SAT decisions, CP-SAT branches) and ``conflicts`` (dead ends: dfs backtracks,
#: SAT and CP-SAT conflicts), so per-puzzle records compare across backends.
COMMON_STATS = ("time", "decisions", "conflicts")


def common_stats(stats: Stats, *, decisions: str, conflicts: str) -> Stats:
    """``stats`` with the ``COMMON_STATS`` names added from the backend's own names for them."""
    return {**stats, "decisions": stats.get(decisions, 0), "conflicts": stats.get(conflicts, 0)}


class Status(StrEnum):
    """What became of a puzzle; the strings are those of the CLI's output."""

    SOLVED = "solved"
    NO_SOLUTION = "no_solution"
    MULTIPLE = "multiple"
    UNKNOWN = "unknown"  # a time limit stopped the search before an answer
    ERROR = "error"  # the input was not a valid puzzle


@dataclass(frozen=True)
class Enumeration:
    """The solutions a backend found, up to a limit.

    ``complete`` is True when the search space was exhausted, so ``solutions`` holds all there are; it is
    False when the search stopped at the limit or at a time limit (``timed_out``).
    """

    solutions: tuple[Puzzle, ...]
    complete: bool
    timed_out: bool = False
    stats: Stats = field(default_factory=dict)


@dataclass(frozen=True)
class SolveResult:
    """The answer for one puzzle.

    ``solutions`` holds what was found (two different ones are the witness of ``MULTIPLE``);
    ``unique`` is True only when uniqueness was proved, False when disproved, None when not asked.
    """

    puzzle: Puzzle | None
    status: Status
    solutions: tuple[Puzzle, ...] = ()
    unique: bool | None = None
    backend: str = ""
    stats: Stats = field(default_factory=dict)
    error: str | None = None

    @property
    def solution(self) -> Puzzle | None:
        """The first solution found, or None."""
        return self.solutions[0] if self.solutions else None

    @property
    def ok(self) -> bool:
        return self.status is Status.SOLVED

    def _repr_svg_(self) -> str | None:
        """The puzzle with its solution's digits in blue, as Jupyter shows it (None without ``draw``)."""
        if self.puzzle is None:
            return None
        from .draw import repr_svg

        return repr_svg(self.puzzle, self.solution)
