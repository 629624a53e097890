"""Forcing nets: assume a candidate and follow everything the singles then force, in every direction.

The propagation is unit propagation on the extended encoding of the rules (one digit per cell, each digit
once per house): exactly the naked and hidden singles, plus what any other rule of the ``Rules`` forces,
compiled (``probe``, ``forcing_compiled``). The board's placements and eliminations are facts assigned
for the walk, so each trial assumes one literal.

- Cell and region forcing nets: every candidate of a cell (or every place of a digit in a house) forces
  the same elimination, so it holds (Sudoku Explainer's cell/region forcing chains, 8.2 and up).
- Contradiction nets: assuming a candidate, the propagation meets a contradiction, so it goes (SE's
  dynamic forcing chains, 8.8 and up). A nested net propagates with contradiction nets of the level
  below inside (level 2 from 9.9, level 3 from 11.0), tried on a puzzle with one solution only (with more,
  no net closes, and the nesting costs the cube of the candidates).

Difficulty grows with the size of the net (literals propagated), by SE's length modifier.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import deadline
from ..grid import symbol
from ..rules.constraints import cell_name
from ..wording import plural
from .board import Board, cells_of, digits_of, house_name
from .chains import length_bonus
from .probe import Probe, probe_of, unique_board
from .step import Step, Technique

__all__ = ["LEVELS", "contradiction_net", "forcing_net"]

#: Nesting level -> (name, base difficulty) of the contradiction nets.
LEVELS = {
    1: ("Contradiction net", 8.8),
    2: ("Nested contradiction net", 9.9),
    3: ("Deep contradiction net", 11.0),
}


def _fails(
    probe: Probe,
    assumptions: list[int],
    level: int,
    candidates: list[int],
    compiled: bool = True,
    held: set[int] | None = None,
) -> int:
    """0 when the assumptions propagate without contradiction at nesting ``level`` (0: singles only), else
    the size of the net that met it (literals propagated, at least 1). Level 1 runs compiled and
    incremental (``Probe.fails_once_nested``) unless ``compiled`` is False: the loop below, its
    reference.

    Nets are monotone: what the assumptions make true at the end (put into ``held`` when they hold, at
    any level) reaches no more than they did, so it holds too and needs no trial of its own in the
    same state (the caller's loop skips it, as failed literal probing skips what a probe implied)."""
    if level == 0 and len(assumptions) == 1:  # kept per state: the nets of every candidate ask it
        ok, assigned = probe.single(assumptions[0])
        return 0 if ok else max(1, assigned)
    if level == 1 and compiled:
        return probe.fails_once_nested(assumptions, candidates, held)
    ok, implied = probe.propagate(assumptions)
    if not ok:
        return max(1, len(implied))
    if level == 0:
        if held is not None:
            held.update(lit for lit in implied if lit > 0)
        return 0
    assumptions = list(assumptions)
    assigned = {abs(lit) for lit in implied}
    size = len(implied)
    changed = True
    while changed:
        changed = False
        holding: set[int] = set()  # what a trial that held made true, in this state
        for var in candidates:
            if var in assigned or var in holding or probe.decided(var):  # (a false one would fail again)
                continue
            deadline.check()  # a net nested twice or more may take seconds
            inner = _fails(probe, [*assumptions, var], level - 1, candidates, compiled, holding)
            if inner:
                size += inner
                assumptions.append(-var)
                ok, implied = probe.propagate(assumptions)
                if not ok:
                    return size + len(implied)
                assigned = {abs(lit) for lit in implied}
                holding = set()
                changed = True
    if held is not None:
        held.update(lit for lit in implied if lit > 0)
    return 0


def _candidate(var: int, n: int) -> tuple[int, int]:
    """The (cell, digit) of a primary variable (``var = cell * n + digit``)."""
    cell, d = divmod(var - 1, n)
    return cell, d + 1


def _name(var: int, n: int) -> str:
    cell, digit = _candidate(var, n)
    return f"{cell_name(cell, n)}={symbol(digit)}"


def contradiction_net(level: int) -> Technique:
    """Contradiction nets nested ``level`` deep (1: singles only inside)."""
    name, base = LEVELS[level]

    def find(board: Board) -> Step | None:
        probe = probe_of(board)
        candidates = probe.update(board)
        if level > 1 and not unique_board(board):
            return None  # with several solutions no net closes; nesting would only cost (n^3)^level trials
        n = board.n
        held: set[int] = set()  # candidates a net that held made true: they hold too (``_fails``)
        for var in _order(board, candidates):
            if var in held:
                continue
            deadline.check()
            size = _fails(probe, [var], level - 1, candidates, held=held)
            if size:
                cell, digit = _candidate(var, n)
                inside = (
                    "the singles"
                    if level == 1
                    else f"the singles and contradiction nets of level {level - 1}"
                )
                reason = (
                    f"{_name(var, n)} would lead {inside} to a contradiction ({size} {plural(size, 'step')})"
                )
                difficulty = round(base + length_bonus(size), 1)
                return Step(
                    name, difficulty, board.rules, (), ((cell, digit),), (cell,), (digit,), (), reason
                )
        return None

    find.__name__ = f"contradiction_net_{level}"
    find.__doc__ = f"{name}: a candidate whose consequences (nested {level - 1} deep) contradict."
    return find


def _order(board: Board, candidates: list[int]) -> list[int]:
    """Candidates of cells with fewer candidates first: their nets are the smaller."""
    n = board.n
    width = [bin(m).count("1") for m in board.masks]
    return sorted(candidates, key=lambda var: (width[(var - 1) // n], var))


def forcing_net(board: Board) -> Step | None:
    """Cell and region forcing nets: every way a cell (or a house's digit) can go forces one elimination."""
    found = probe_of(board).forcing(board)
    if found is None:
        return None
    kind, where, digit, size, gone = found
    n, rules = board.n, board.rules
    if kind == 1:
        options = [where * n + d for d in digits_of(board.masks[where])]
        return _forcing_step(board, gone, size, options, f"every candidate of {cell_name(where, n)}", (), 8.2)
    options = [c * n + digit for c in cells_of(board.places_in(where, digit))]
    text = f"every place of {symbol(digit)} in {house_name(rules, where)}"
    return _forcing_step(board, gone, size, options, text, (where,), 8.3)


def _forcing_step(
    board: Board,
    gone: list[int],
    size: int,
    options: Iterable[int],
    where: str,
    houses: tuple[int, ...],
    base: float,
) -> Step:
    n = board.n
    eliminations = tuple(_candidate(var, n) for var in gone)
    pairs = [_candidate(var, n) for var in options]
    cells = tuple(sorted({cell for cell, _ in pairs}))
    digits = tuple(sorted({digit for _, digit in pairs}))
    name = "Cell forcing net" if not houses else "Region forcing net"
    reason = f"{where} eliminates them ({size} {plural(size, 'step')})"
    return Step(
        name,
        round(base + length_bonus(size), 1),
        board.rules,
        (),
        eliminations,
        cells,
        digits,
        houses,
        reason,
    )
