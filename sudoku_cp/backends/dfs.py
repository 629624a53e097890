"""The ``dfs`` backend: bitmask candidates, naked and hidden singles, depth-first search to a limit.

With a named heuristic (``mrv``, ``first``, ``weighted``, ``conflicts``) two engines run the same
algorithm and explore the same search tree (same solutions in the same order, same statistics):
``python``, the readable reference in ``dfs_reference`` (and ``dfs_rules`` for rules beyond rows, columns
and boxes, where it branches by ``mrv`` or ``conflicts`` only), and ``compiled``, numba kernels in
``dfs_compiled`` for any rules. ``wdeg``, the conflict-directed search of the JS variant solver, is the
compiled engine's alone (its tree follows the order propagation runs in). The default heuristic ``auto``
is ``mrv`` on the classic rules and beyond them ``wdeg`` on the compiled engine, ``conflicts`` on the
python one; on the compiled engine the classic 9x9 rules take the band search of ``dfs_bands`` (several
times faster; the same solutions and counts, in its own order and with its own statistics). The default
engine ``auto`` takes the compiled one when numba imports and the reference otherwise, so numba stays
optional. The variants ``dfs:python`` and ``dfs:compiled`` select an engine by name, so comparison tools
can set the two side by side.

>>> from sudoku_cp.grid import Puzzle
>>> found = DfsBackend(heuristic="first").enumerate(Puzzle.from_string("12343412214343.."), limit=2)
>>> [s.to_string() for s in found.solutions], found.complete
(['1234341221434321'], True)
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from ..errors import BackendUnavailableError, UsageError
from ..grid import Puzzle, Rules
from ..result import Enumeration, common_stats
from ..rules import RULES_KEPT
from ..signals import held_import
from .base import Backend, Searching
from .dfs_reference import AUTO, COMPILED_ONLY, HEURISTICS, SearchOutcome, search

__all__ = ["ENGINES", "HEURISTICS", "DfsBackend"]

#: Engines by name: ``auto`` picks ``compiled`` when numba imports, else ``python``.
ENGINES = ("auto", "compiled", "python")


@functools.cache
def _compiled_module() -> Any | None:
    """The compiled engine's module, or None when it has no kernels here: none built ahead of time and
    numba (or a numpy it accepts) cannot be imported (once a process: ``held_import`` sets and restores
    signal handlers, 38 us a call)."""
    module = held_import("sudoku_cp.backends.dfs_compiled")
    if module.loads_quickly():
        return module
    try:
        held_import("numba")  # (numba: see held_import)
    except ImportError:
        return None
    return module


class DfsBackend(Backend):
    """Depth-first search over bitmask candidates with naked and hidden singles.

    Options: ``heuristic`` (``auto``, ``mrv``, ``first``, ``weighted`` or ``conflicts``, see
    ``dfs_reference``) chooses the branch cell, and ``auto`` (the default) the fastest search: the
    compiled engine's band search on the classic 9x9 rules (``dfs_bands``), ``mrv`` on other classic
    rules, ``conflicts`` beyond them; ``engine`` (``auto``, ``compiled`` or
    ``python``) the implementation, also selectable as the variant (``dfs:python``). Statistics:
    ``guesses``, ``backtracks``, ``nodes`` and ``time`` (seconds).
    """

    name = "dfs"
    description = "bitmask depth-first search with naked and hidden singles (numba-compiled when available)"
    requires: ClassVar[dict[str, str]] = {}
    variants = ("compiled", "python")

    def __init__(self, variant: str | None = None, heuristic: str = AUTO, engine: str = "auto") -> None:
        super().__init__(variant)
        if heuristic != AUTO and heuristic not in HEURISTICS:
            raise UsageError(f"unknown heuristic {heuristic!r}; valid: {', '.join((AUTO, *HEURISTICS))}")
        if engine not in ENGINES:
            raise UsageError(f"unknown dfs engine {engine!r}; valid: {', '.join(ENGINES)}")
        if variant is not None and engine not in ("auto", variant):
            raise UsageError(f"dfs:{variant} contradicts engine={engine!r}; give one of them")
        wanted = variant or engine
        if wanted != "auto":
            self.variant = wanted  # so ``spec`` names the engine: ``dfs:python``
        self.heuristic = heuristic
        self._compiled = None if wanted == "python" else _compiled_module()
        if wanted == "compiled" and self._compiled is None:
            raise BackendUnavailableError("the compiled dfs engine needs numba: pip install numba")
        if heuristic in COMPILED_ONLY and self._compiled is None:
            raise UsageError(f"heuristic {heuristic} runs on the compiled dfs engine only (it needs numba)")
        #: The engine in use: ``compiled`` or ``python``.
        self.engine = "python" if self._compiled is None else "compiled"
        self._searchers: dict[Rules, Any] = {}

    def enumerate(self, puzzle: Puzzle, limit: int = 1, time_limit: float | None = None) -> Enumeration:
        """Up to ``limit`` solutions in search order; ``complete`` once the search space is exhausted."""
        if limit < 1:
            raise UsageError(f"limit must be at least 1, not {limit}")
        return _enumeration(self._search(puzzle, limit, time_limit), puzzle.rules)

    def searching(self, puzzle: Puzzle, limit: int = 1) -> Searching:
        """On the compiled engine, a search that goes on between turns (``CompiledSearch.begin``) until
        another search of the same rules begins here; on the reference engine each turn starts afresh."""
        if self._compiled is None:
            return super().searching(puzzle, limit)
        if limit < 1:
            raise UsageError(f"limit must be at least 1, not {limit}")
        return _CompiledSearching(
            self._searcher(puzzle.rules).begin(puzzle.cells, limit, self.heuristic), puzzle
        )

    def _search(self, puzzle: Puzzle, limit: int, time_limit: float | None) -> SearchOutcome:
        if self._compiled is None:
            if not puzzle.rules.is_classic:  # the reference knows rows, columns and boxes only
                from .dfs_rules import search as search_rules

                mrv_family = self.heuristic in (AUTO, "mrv", "conflicts")  # (first, weighted: mrv there)
                return search_rules(
                    puzzle.cells, puzzle.rules, limit, time_limit, self.heuristic if mrv_family else "mrv"
                )
            return search(puzzle.cells, puzzle.rules, limit, self.heuristic, time_limit)
        return self._searcher(puzzle.rules).search(puzzle.cells, limit, self.heuristic, time_limit)

    def _searcher(self, rules: Rules) -> Any:
        """The compiled engine's searcher for ``rules`` (its work arrays), kept for the next puzzles."""
        searcher = self._searchers.get(rules)
        if searcher is None:
            if len(self._searchers) >= RULES_KEPT:  # killer puzzles: a rules value each
                self._searchers.clear()
            searcher = self._searchers[rules] = self._compiled.CompiledSearch(rules)
        return searcher

    @classmethod
    def preload(cls, variant: str | None, options: dict[str, Any]) -> str | None:
        """The compiled kernel, loaded by the fork server once for all workers (unless the python engine
        is asked for)."""
        if variant == "python" or options.get("engine", "auto") == "python":
            return None
        return "sudoku_cp.backends.dfs_warm"

    @classmethod
    def checking_options(cls, variant: str | None, options: dict[str, Any]) -> dict[str, Any]:
        """Check on the reference engine: the options are the same, and the parent of a pool of workers
        need not load the compiled kernel (about 130 MB and a second) only to check them."""
        if variant is None and "engine" not in options:
            return {**options, "engine": "python"}
        return options

    def chunk_kernel(self) -> Any | None:
        """``dfs_compiled`` on the compiled engine: one call per chunk of puzzles of the same rules."""
        return self._compiled

    def close(self) -> None:
        """Drop the per-shape work arrays of the compiled engine (rebuilt on the next puzzle)."""
        self._searchers.clear()


def _enumeration(found: SearchOutcome, rules: Rules) -> Enumeration:
    """A search's outcome as the Backend interface answers it."""
    stats = common_stats(found.stats, decisions="guesses", conflicts="backtracks")
    return Enumeration(
        tuple(Puzzle(rules, cells) for cells in found.solutions), found.complete, found.timed_out, stats
    )


class _CompiledSearching(Searching):
    """The compiled engine's search of one puzzle in turns."""

    def __init__(self, searching: Any, puzzle: Puzzle) -> None:
        self._searching, self._rules = searching, puzzle.rules

    def advance(self, time_limit: float | None = None) -> Enumeration:
        return _enumeration(self._searching.advance(time_limit), self._rules)
