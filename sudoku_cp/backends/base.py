"""The one interface every backend implements: enumerate a puzzle's solutions up to a limit."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import UnsupportedRuleError, UsageError
from ..grid import Puzzle, Rules
from ..result import Enumeration

if TYPE_CHECKING:
    from ..candidates import Candidates

__all__ = ["Backend", "Searching", "interruptible"]


def interruptible(rules: Rules, from_n: int) -> bool:
    """Whether one solver call under ``rules`` runs where a signal stops it at once (a helper thread per
    call, about 0.1 ms): from ``from_n`` digits, and under any rules beyond the classic ones, where one
    call can take seconds (a hard killer: over 10 s after Ctrl-C on CP-SAT without it)."""
    return rules.n >= from_n or not rules.is_classic


class Backend(ABC):
    """An engine that finds up to ``limit`` solutions of a puzzle.

    Subclasses set ``name``, ``requires`` (the packages they need, imported only inside the
    backend's methods so that importing sudoku_cp stays fast) and ``description``, and take
    their options as keyword arguments. A backend may keep state between puzzles (an incremental
    solver per shape), so one instance serves a whole batch in one thread.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    #: import name -> pip name of each package the backend needs, such as ``{"pysat": "python-sat"}``.
    requires: ClassVar[dict[str, str]] = {}
    #: Variants selectable as ``name:VARIANT`` (``sat:glucose4``); empty when the backend has none.
    variants: ClassVar[tuple[str, ...]] = ()

    def __init__(self, variant: str | None = None, **options: Any) -> None:
        if variant is not None and variant not in self.variants:
            valid = ", ".join(self.variants) or "none"
            raise UsageError(f"backend {self.name} has no variant {variant!r}; valid: {valid}")
        if options:
            raise UsageError(f"backend {self.name} takes no option {', '.join(sorted(options))}")
        self.variant = variant

    @property
    def spec(self) -> str:
        """The name that selects this backend again, such as ``sat:glucose4``."""
        return f"{self.name}:{self.variant}" if self.variant else self.name

    @abstractmethod
    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        """Up to ``limit`` distinct solutions of ``puzzle``, with statistics.

        ``complete`` in the answer says the search was exhausted (all solutions are listed); with
        ``time_limit`` (seconds) the search may stop early with ``timed_out`` set, never with a wrong answer.
        Givens that contradict each other give no solution, not an error.
        """

    #: Whether ``enumerate_candidates`` answers (the backends that start from candidates as well as givens).
    takes_candidates: ClassVar[bool] = False

    def enumerate_candidates(
        self, candidates: Candidates, limit: int = 1, time_limit: float | None = None
    ) -> Enumeration:
        """As ``enumerate``, for the solutions in which every cell holds one of its ``candidates`` (a
        pencilmark grid). A backend that searches from givens alone refuses: ignoring the candidates
        would answer another puzzle."""
        raise UnsupportedRuleError(
            f"the {self.spec} backend starts from givens only, not from candidates (pencilmarks): "
            "use --backend sat or cpsat"
        )

    @classmethod
    def preload(cls, variant: str | None, options: dict[str, Any]) -> str | None:
        """A module a pool's fork server imports before it forks the workers, so that what every worker
        loads (compiled kernels) is loaded once and shared; None for none (the default)."""
        return None

    @classmethod
    def checking_options(cls, variant: str | None, options: dict[str, Any]) -> dict[str, Any]:
        """The options of an instance built only to check ``options`` before a batch starts (one that need
        not load what a search needs); the options themselves by default."""
        return options

    def searching(self, puzzle: Puzzle, limit: int = 1) -> Searching:
        """``enumerate(puzzle, limit)`` to be run in turns (``Searching.advance``), as a portfolio runs its
        backends. By default each turn starts the search afresh; a backend whose search can pause keeps it
        between turns (the compiled dfs)."""
        return _Restarting(self, puzzle, limit)

    def chunk_kernel(self) -> Any | None:
        """A module whose ``solve_array(grids, rules, limit, heuristic, time_limit=...)`` answers a whole
        chunk of puzzles of one rules value in one call (``dfs_compiled``), for the batch engine; None (the
        default): the engine calls ``enumerate`` per puzzle."""
        return None

    def close(self) -> None:  # noqa: B027 - most backends hold nothing to release
        """Release solver resources; the backend stays usable and rebuilds what it needs."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


class Searching(ABC):
    """One puzzle's search, run in turns of a given length (``Backend.searching``)."""

    @abstractmethod
    def advance(self, time_limit: float | None = None) -> Enumeration:
        """Search for at most ``time_limit`` seconds more (None: to the end) and answer as ``enumerate``
        does, ``timed_out`` while the search is not over; ``stats["time"]`` is every turn's."""

    def close(self) -> None:  # noqa: B027 - most searches hold nothing to release
        """Release what the search holds; it cannot go on after."""


class _Restarting(Searching):
    """A search that cannot pause: each turn is a new ``enumerate`` with the turn's time limit."""

    def __init__(self, backend: Backend, puzzle: Puzzle, limit: int) -> None:
        self._backend, self._puzzle, self._limit = backend, puzzle, limit
        self._spent = 0.0

    def advance(self, time_limit: float | None = None) -> Enumeration:
        found = self._backend.enumerate(self._puzzle, self._limit, time_limit)
        self._spent += found.stats.get("time", 0.0)
        return Enumeration(
            found.solutions, found.complete, found.timed_out, {**found.stats, "time": self._spent}
        )
