"""Typed exceptions: the library raises these, the CLI turns them into messages and exit codes."""

from __future__ import annotations

__all__ = [
    "BackendUnavailableError",
    "ClusterError",
    "InvalidPuzzleError",
    "MissingPackageError",
    "ParseError",
    "RulesError",
    "SudokuError",
    "UnknownBackendError",
    "UnsupportedRuleError",
    "UsageError",
]


class SudokuError(Exception):
    """Base class of every error sudoku-cp raises on purpose."""


class ParseError(SudokuError, ValueError):
    """Text that is not a puzzle: wrong length, unknown symbol, ragged grid, unknown layout.

    ``index`` is the puzzle's 1-based number in its input and ``line`` the 1-based input line where it
    starts (either may be ``None`` when unknown), so a message can name the puzzle a user must fix.
    """

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        line: int | None = None,
        source: str | None = None,
    ) -> None:
        self.reason = message
        self.index = index
        self.line = line
        self.source = source
        super().__init__(self._describe())

    def _describe(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.index is not None:
            where.append(f"puzzle {self.index}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def located(
        self, *, index: int | None = None, line: int | None = None, source: str | None = None
    ) -> ParseError:
        """A copy of this error with the position filled in where it was not known yet."""
        return type(self)(
            self.reason,
            index=self.index if self.index is not None else index,
            line=self.line if self.line is not None else line,
            source=self.source if self.source is not None else source,
        )


class InvalidPuzzleError(ParseError):
    """Well-formed text whose givens contradict each other (a digit twice in one unit)."""


class UnknownBackendError(SudokuError, LookupError):
    """A backend or solver name that is not registered; the message lists the valid names."""


class BackendUnavailableError(SudokuError, ImportError):
    """A registered backend whose Python package is not installed."""


class UnsupportedRuleError(SudokuError, ValueError):
    """A rule that a feature cannot take into account; the message names the rule (ignoring it would make
    a wrong claim)."""


class RulesError(SudokuError, ValueError):
    """Rules that cannot be: an unknown named rule, a cell outside the grid or named twice, a box shape no
    grid has."""


class UsageError(SudokuError, ValueError):
    """An option that does not fit: a bad value, or an option the chosen backend does not take."""


class ClusterError(SudokuError, RuntimeError):
    """The cluster could not be reached, or was lost while the batch ran."""


class MissingPackageError(SudokuError, ImportError):
    """An optional package a feature needs (pandas, drawsvg, ...) is not installed; the message names the
    extra to install."""
