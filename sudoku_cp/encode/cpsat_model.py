"""CP-SAT models of a Sudoku shape (OR-tools), built once per shape; the givens arrive as variable domains.

Two models of the same rules:

- ``int``: one integer variable 1..n per cell and ``AllDifferent`` on every unit. AllDifferent is the
  natural constraint of Sudoku (Simonis, "Sudoku as a Constraint Problem", CP 2005): one constraint per
  unit instead of a quadratic number of disequalities, and CP-SAT expands it in presolve into the literals
  ``cell == digit`` with exactly-one constraints per cell and per digit in each unit, so it gets the
  propagation of hidden singles as well as naked singles (a permutation AllDifferent).
- ``bool``: the one-hot model, one literal per cell and digit (variable index ``cell * n + digit - 1``) and
  ``ExactlyOne`` per cell and per digit in each unit. It is the "extended" CNF encoding of Lynce and
  Ouaknine ("Sudoku as a SAT Problem", 2006) with each exactly-one kept as one native constraint instead of
  a clause plus pairwise (or other) at-most-one clauses, which CP-SAT propagates directly.

The model of a shape holds no givens: :func:`given_domains` says which variable domains to narrow for a
puzzle, so one model serves every puzzle of a shape (see ``sudoku_cp.backends.cpsat`` for the measured
gain). ortools is imported inside the functions, never when this module is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import SudokuError
from ..grid import Puzzle, Rules
from .rules_cpsat import add_rules

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ortools.sat.python import cp_model

    from ..candidates import Candidates

__all__ = [
    "KINDS",
    "CpSatModel",
    "add_blocking",
    "bool_model",
    "build_model",
    "candidate_domains",
    "decode",
    "free_domain",
    "given_domains",
    "int_model",
    "mask_domains",
    "read_cells",
    "set_literals",
]

#: The model kinds: ``int`` (AllDifferent) and ``bool`` (one-hot with ExactlyOne).
KINDS = ("int", "bool")


@dataclass(frozen=True)
class CpSatModel:
    """A CP-SAT model of one shape without givens, and its size.

    ``model.proto.variables`` are, in order, the cell variables (``int``: index ``cell``) or the cell-digit
    literals (``bool``: index ``cell * n + digit - 1``), then the rules' auxiliary variables, if any, so a
    solution's values decode directly. ``auxiliary``: copies of the bool model's auxiliary variables, for
    ``set_literals``.
    """

    kind: str
    rules: Rules
    model: cp_model.CpModel
    variables: int
    constraints: int
    auxiliary: tuple[Any, ...] = ()


def int_model(rules: Rules) -> CpSatModel:
    """One IntVar 1..n per cell, AllDifferent on each house, and the other rules (``rules_cpsat``).

    >>> m = int_model(Rules.classic(2, 2))
    >>> m.variables, m.constraints
    (16, 12)
    """
    from ortools.sat.python import cp_model

    n = rules.n
    model = cp_model.CpModel()
    cells = [model.new_int_var(1, n, rules.name(cell)) for cell in range(rules.ncells)]
    for unit in rules.houses:
        model.add_all_different([cells[cell] for cell in unit])
    extra = add_rules(model, rules, cells)
    return CpSatModel("int", rules, model, rules.ncells, len(rules.houses) + extra)


def bool_model(rules: Rules) -> CpSatModel:
    """One literal per cell and digit, ExactlyOne per cell and per digit in each house, and the other rules.

    >>> m = bool_model(Rules.classic(2, 2))
    >>> m.variables, m.constraints
    (64, 64)
    """
    from ortools.sat.python import cp_model

    n = rules.n
    model = cp_model.CpModel()
    lits = [
        [model.new_bool_var(f"{rules.name(cell)}={d}") for d in range(1, n + 1)]
        for cell in range(rules.ncells)
    ]
    for cell_lits in lits:
        model.add_exactly_one(cell_lits)
    for unit in rules.houses:
        for d in range(n):
            model.add_exactly_one([lits[cell][d] for cell in unit])
    extra = add_rules(model, rules, lits)
    variables = model.proto.variables
    auxiliary = tuple(_copy(variables[k]) for k in range(rules.ncells * n, len(variables)))
    count = rules.ncells + len(rules.houses) * n + extra
    return CpSatModel("bool", rules, model, rules.ncells * n, count, auxiliary)


def build_model(rules: Rules, kind: str = "int") -> CpSatModel:
    """The model of ``kind`` (one of :data:`KINDS`) for ``shape``."""
    if kind == "int":
        return int_model(rules)
    if kind == "bool":
        return bool_model(rules)
    raise ValueError(f"unknown CP-SAT model {kind!r}; valid: {', '.join(KINDS)}")


def given_domains(puzzle: Puzzle, kind: str) -> list[tuple[int, int]]:
    """``(variable index, value)`` pairs that fix the givens: the domain of each becomes ``[value, value]``.

    ``int``: the cell's variable takes the digit; ``bool``: the literal of (cell, digit) is set true (the
    exactly-one constraints then clear the rest of the cell and of its units).

    >>> given_domains(Puzzle.from_string("1..." "...." "...." "...2"), "bool")
    [(0, 1), (61, 1)]
    """
    if kind == "int":
        return [(cell, d) for cell, d in puzzle.givens]
    n = puzzle.n
    return [(cell * n + d - 1, 1) for cell, d in puzzle.givens]


def candidate_domains(candidates: Candidates | None, kind: str) -> list[tuple[int, tuple[int, ...]]]:
    """``(variable index, domain)`` pairs that keep each blank cell to its candidates (none without
    ``candidates``): ``int``, the cell's variable takes the intervals of its digits (a proto domain);
    ``bool``, the literal of each digit the cell may not hold is fixed false.

    >>> from sudoku_cp.candidates import Candidates
    >>> c = Candidates(Puzzle.from_string("1..." "...." "...." "...."), (1,) + (0b1101,) + (15,) * 14)
    >>> candidate_domains(c, "int"), candidate_domains(c, "bool")
    ([(1, (1, 1, 3, 4))], [(5, (0, 0))])
    """
    if candidates is None:
        return []
    puzzle, n = candidates.puzzle, candidates.puzzle.n
    full, out = (1 << n) - 1, []
    for cell, (mask, given) in enumerate(zip(candidates.masks, puzzle.cells, strict=True)):
        if given or mask == full:
            continue
        if kind == "bool":
            out += [(cell * n + d - 1, (0, 0)) for d in range(1, n + 1) if not mask >> (d - 1) & 1]
            continue
        out.append((cell, _intervals(mask)))
    return out


def mask_domains(masks: Sequence[int], kind: str, n: int) -> list[tuple[int, tuple[int, ...]]]:
    """``(variable index, domain)`` pairs that narrow every cell to its candidates (``masks[cell]``, bit
    d - 1 for digit d; givens and decided cells have one): ``int``, the cell's variable takes the
    intervals of its digits (every cell, so they replace whatever the last puzzle set); ``bool``, the
    literal of each digit a cell may not hold is fixed false.

    >>> mask_domains([0b1101, 0b0010, 0b1111, 0b1111], "int", 4)[:2], mask_domains([0b1101], "bool", 4)
    ([(0, (1, 1, 3, 4)), (1, (2, 2))], [(1, (0, 0))])
    """
    if kind == "bool":
        return [
            (cell * n + d, (0, 0)) for cell, mask in enumerate(masks) for d in range(n) if not mask >> d & 1
        ]
    return [(cell, _intervals(mask)) for cell, mask in enumerate(masks)]


@lru_cache(maxsize=1 << 16)
def _intervals(mask: int) -> tuple[int, ...]:
    """A proto domain: the digits of ``mask`` as a flat list of closed intervals."""
    intervals: list[int] = []
    for d in range(1, mask.bit_length() + 1):
        if mask >> (d - 1) & 1:
            if intervals and intervals[-1] == d - 1:
                intervals[-1] = d
            else:
                intervals += [d, d]
    return tuple(intervals)


def free_domain(kind: str, n: int) -> tuple[int, int]:
    """The domain ``(lo, hi)`` of a variable of a blank cell: 1..n (``int``) or 0..1 (``bool``)."""
    return (1, n) if kind == "int" else (0, 1)


def decode(values: Sequence[int], rules: Rules, kind: str) -> tuple[int, ...]:
    """The cells of the grid a solution's variable values describe (the variables in model order)."""
    if kind == "int":
        return tuple(values[: rules.ncells])
    n = rules.n
    return tuple(i % n + 1 for i, v in enumerate(values[: rules.ncells * n]) if v)


def set_literals(model: CpSatModel, masks: Sequence[int]) -> None:
    """Fix the bool model's literals to the candidates ``masks`` (per cell, bit d - 1 for digit d): true for
    a cell's one candidate, false for a digit it cannot hold, free otherwise.

    The variables are replaced at once by copies of three prepared messages (``extend``): setting 729
    domains one by one from Python took 3 ms, twice a 17-clue puzzle's CP-SAT call (ortools 9.15).

    >>> m = bool_model(Rules.classic(2, 2))
    >>> set_literals(m, [0b0100, 0b1011] + [0b1111] * 14)
    >>> [tuple(m.model.proto.variables[i].domain) for i in (0, 2, 4, 6)]
    [(0, 0), (1, 1), (0, 1), (0, 0)]
    """
    n = model.rules.n
    variables = model.model.proto.variables
    literals = [message for mask in masks for message in _cell_literals(n, mask)]
    variables.clear()
    variables.extend(literals + list(model.auxiliary))


@lru_cache(maxsize=1 << 14)
def _cell_literals(n: int, mask: int) -> tuple[Any, ...]:
    """A cell's n literal variables for its candidates ``mask`` (shared messages: ``extend`` copies them)."""
    free, true, false = _shared(0, 1), _shared(1, 1), _shared(0, 0)
    if mask and not mask & (mask - 1):
        return tuple(true if mask >> d & 1 else false for d in range(n))
    return tuple(free if mask >> d & 1 else false for d in range(n))


@cache
def _shared(lo: int, hi: int) -> Any:
    """A variable message with domain lo..hi, made once: callers copy it, never change it."""
    from ortools.sat.python.cp_model_helper import IntegerVariableProto

    message = IntegerVariableProto()
    message.domain.extend((lo, hi))
    return message


def _copy(message: Any) -> Any:
    """A copy of a variable message (the model's own change with it)."""
    from ortools.sat.python.cp_model_helper import IntegerVariableProto

    copy = IntegerVariableProto()
    copy.copy_from(message)
    return copy


def read_cells(
    value: Callable[[int], int], rules: Rules, kind: str, masks: Sequence[int] | None = None
) -> tuple[int, ...]:
    """The grid of a solution read value by value: ``value(index)`` is a model variable's value.

    ``int`` reads each cell's variable; ``bool`` reads a cell's literals over its candidates
    (``masks[cell]``, bit d - 1 for digit d; every digit without ``masks``) up to the true one, and
    takes a cell with one candidate as decided. This beats copying the whole response (ortools 9.15,
    9x9 bool: 0.4 ms per solution, a fifth of a 17-clue solve) by reading 100 to 300 values instead
    of 729 list items. Candidates must hold every solution's digit (givens, sound propagation).

    >>> read_cells(lambda i: i in (0, 7, 9, 14), Rules.classic(2, 2), "bool", [1, 15, 15, 15] + [1] * 12)[:4]
    (1, 4, 2, 3)
    """
    if kind == "int":
        return tuple(value(cell) for cell in range(rules.ncells))
    n = rules.n
    full = (1 << n) - 1
    cells = []
    for cell in range(rules.ncells):
        mask = masks[cell] if masks is not None else full
        if mask and not mask & (mask - 1):
            cells.append(mask.bit_length())
            continue
        base = cell * n
        for d in range(n):
            if mask >> d & 1 and value(base + d):
                cells.append(d + 1)
                break
        else:
            raise SudokuError(f"CP-SAT's solution holds no digit of {rules.name(cell)} among its candidates")
    return tuple(cells)


def add_blocking(model: CpSatModel, puzzle: Puzzle, solution: Sequence[int]) -> None:
    """Add to ``model.model`` a constraint that excludes ``solution`` (a complete grid) of ``puzzle``.

    Only the blank cells matter (the givens are fixed anyway). ``bool``: a clause over the negated literals
    of the solution's digits; ``int``: a forbidden assignment of the blank cells' variables (a negated table,
    which CP-SAT turns into the same clause over its ``cell == digit`` literals). When the puzzle has no blank
    cell the constraint is an empty clause, which is false: no other solution.
    """
    cp = model.model
    n = puzzle.n
    blanks = [cell for cell, d in enumerate(puzzle.cells) if not d]
    if model.kind == "int" and blanks:
        cp.add_forbidden_assignments(
            [cp.get_int_var_from_proto_index(cell) for cell in blanks], [[solution[cell] for cell in blanks]]
        )
    else:
        literals = [cp.get_bool_var_from_proto_index(cell * n + solution[cell] - 1) for cell in blanks]
        cp.add_bool_or([literal.negated() for literal in literals])
