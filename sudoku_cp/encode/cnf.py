"""Sudoku as CNF: pure functions from a puzzle (or an empty grid's shape) to clauses over cell digits.

Primary variables are numbered by arithmetic, ``var(cell, digit) = cell * n + digit`` (1..n**3, true when
the cell holds the digit); auxiliary variables of an at-most-one scheme come from a pool above ``n**3``.
Three encodings:

- ``minimal``: every cell holds at least one digit, and no digit occurs twice in a row, column or box
  (Lynce and Ouaknine, *Sudoku as a SAT Problem*, AIMATH 2006, "minimal encoding"; Weber, *A SAT-based
  Sudoku Solver*, LPAR 2005 short papers, states this one).
- ``extended``: exactly one digit per cell, and every digit exactly once per row, column and box
  (Lynce and Ouaknine 2006, "extended encoding"): redundant clauses that let unit propagation find hidden
  singles as well as naked singles.
- ``reduced``: the extended encoding after removing what the givens decide: variables of filled cells and
  of digits a peer already holds, satisfied clauses and false literals (Kwon and Jain, *Optimized CNF
  Encoding for Sudoku Puzzles*, LPAR 2006). About a quarter of the extended size for a 9x9 puzzle.

>>> from sudoku_cp.rules import Rules
>>> cnf = encode_rules(Rules.classic(3, 3), "extended", "pairwise")
>>> cnf.nv, len(cnf.clauses)
(729, 11988)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..grid import Puzzle, Rules
from .amo import AMO_SCHEMES, at_most_one, check_scheme
from .rules_cnf import rule_families

if TYPE_CHECKING:
    from pysat.formula import CNF, IDPool

__all__ = [
    "AMO_SCHEMES",
    "ENCODINGS",
    "ENCODING_PAPERS",
    "candidates",
    "cell_digit",
    "check_encoding",
    "clause_families",
    "decode",
    "default_amo",
    "encode",
    "encode_rules",
    "given_literals",
    "var",
]

#: Encoding name -> its paper; the keys are the ``--encoding`` choices.
ENCODING_PAPERS: dict[str, str] = {
    "minimal": "Lynce and Ouaknine, Sudoku as a SAT Problem, AIMATH 2006 (minimal); Weber, LPAR 2005",
    "extended": "Lynce and Ouaknine, Sudoku as a SAT Problem, AIMATH 2006 (extended)",
    "reduced": "Kwon and Jain, Optimized CNF Encoding for Sudoku Puzzles, LPAR 2006",
}
ENCODINGS: tuple[str, ...] = tuple(ENCODING_PAPERS)

#: With no scheme asked for, groups of up to this many literals get pairwise clauses and longer groups the
#: sequential counter. Measured (encodings/README.md): pairwise solves 9x9 and 16x16 grids fastest, while
#: the 25-literal groups of a 25x25 grid give 752,500 pairwise clauses against 180,000, built 3x faster.
PAIRWISE_UP_TO = 16


def check_encoding(encoding: str) -> str:
    """``encoding`` itself, or ``ValueError`` naming the valid encodings."""
    if encoding not in ENCODING_PAPERS:
        raise ValueError(f"unknown encoding {encoding!r}; valid: {', '.join(ENCODINGS)}")
    return encoding


def default_amo(group_size: int) -> str:
    """The at-most-one scheme of a group when none is given: pairwise up to 16 literals, else seqcounter."""
    return "pairwise" if group_size <= PAIRWISE_UP_TO else "seqcounter"


def _amo(lits: list[int], amo: str | None, pool: IDPool) -> list[list[int]]:
    return at_most_one(lits, amo or default_amo(len(lits)), pool)


def var(n: int, cell: int, digit: int) -> int:
    """The primary variable "``cell`` holds ``digit``" of an n x n grid (digits 1..n, so never 0)."""
    return cell * n + digit


def cell_digit(n: int, variable: int) -> tuple[int, int]:
    """``(cell, digit)`` of a primary variable; the inverse of ``var``."""
    cell, d = divmod(variable - 1, n)
    return cell, d + 1


def given_literals(puzzle: Puzzle) -> list[int]:
    """The primary literals of the givens, the assumptions of an incremental solver."""
    n = puzzle.rules.n
    return [cell * n + d for cell, d in enumerate(puzzle.cells) if d]


def _pool(rules: Rules) -> IDPool:
    from pysat.formula import IDPool

    return IDPool(start_from=rules.n**3 + 1)


def _grid_families(
    rules: Rules, exact: bool, amo: str | None, pool: IDPool
) -> Iterator[tuple[str, list[list[int]]]]:
    """The clause families of the empty grid: cell and unit at-least-one and at-most-one."""
    n = rules.n
    digits = range(1, n + 1)
    cells = [[cell * n + d for d in digits] for cell in range(rules.ncells)]
    yield "cell_at_least_one", cells
    if exact:
        yield "cell_at_most_one", [c for lits in cells for c in _amo(lits, amo, pool)]
    groups = [[cell * n + d for cell in unit] for unit in rules.houses for d in digits]
    if exact:
        yield "unit_at_least_one", groups
    yield "unit_at_most_one", [c for lits in groups for c in _amo(lits, amo, pool)]


def candidates(puzzle: Puzzle) -> tuple[list[int], list[int]]:
    """Bit masks of what the givens leave open: per cell the digits no peer holds (bit d for digit d; 0 for
    a filled cell), and per unit the digits it already holds."""
    rules, cells, n = puzzle.rules, puzzle.cells, puzzle.rules.n
    placed = [0] * len(rules.houses)
    for u, unit in enumerate(rules.houses):
        for cell in unit:
            if cells[cell]:
                placed[u] |= 1 << cells[cell]
    full = (1 << (n + 1)) - 2
    free = []
    for cell, houses in enumerate(rules.houses_of):
        taken = 0
        for h in houses:
            taken |= placed[h]
        free.append(0 if cells[cell] else full & ~taken)
    return free, placed


def _reduced_families(puzzle: Puzzle, amo: str | None, pool: IDPool) -> Iterator[tuple[str, list[list[int]]]]:
    """Kwon and Jain's reduction: only undecided variables, only clauses the givens leave open.

    Givens that clash (a digit twice in a unit) decide nothing consistent; the formula is then the clash
    itself, the clashing givens as unit clauses and their at-most-one clause, which is unsatisfiable.
    """
    rules, cells, n = puzzle.rules, puzzle.cells, puzzle.rules.n
    if clashes := puzzle.conflicts():
        units: dict[int, None] = {}  # ordered sets: a clash in a row and a box is one clash
        pairs: dict[tuple[int, ...], None] = {}
        for clash in clashes:  # classic rules: every clash is a digit twice in a house
            lits = [cell * n + cells[cell] for cell in clash.cells]
            units.update(dict.fromkeys(lits))
            pairs.update(dict.fromkeys(tuple(c) for c in at_most_one(lits, "pairwise", pool)))
        yield "givens", [[lit] for lit in units]
        yield "unit_at_most_one", [list(c) for c in pairs]
        return
    free, placed = candidates(puzzle)
    digits = range(1, n + 1)
    blanks = [cell for cell in range(rules.ncells) if not cells[cell]]
    cell_groups = [[cell * n + d for d in digits if free[cell] >> d & 1] for cell in blanks]
    unit_groups = [
        [cell * n + d for cell in unit if free[cell] >> d & 1]
        for u, unit in enumerate(rules.houses)
        for d in digits
        if not placed[u] >> d & 1
    ]
    yield "cell_at_least_one", cell_groups
    yield "cell_at_most_one", [c for lits in cell_groups for c in _amo(lits, amo, pool)]
    yield "unit_at_least_one", unit_groups
    yield "unit_at_most_one", [c for lits in unit_groups for c in _amo(lits, amo, pool)]


def clause_families(
    puzzle: Puzzle | Rules, encoding: str = "extended", amo: str | None = None
) -> tuple[dict[str, list[list[int]]], int]:
    """The clauses of an encoding by family name, and the number of variables (primary plus auxiliary).

    Families: ``cell_at_least_one``, ``cell_at_most_one``, ``unit_at_least_one``, ``unit_at_most_one``
    (those the encoding has), the families of rules beyond houses (``rule_families``) and, for a puzzle
    under ``minimal`` or ``extended``, ``givens`` (one unit clause per given). A ``Rules`` value stands for
    its empty grid, where ``reduced`` equals ``extended``; ``reduced`` serves the classic rules only, other
    rules get the extended encoding under that name.
    """
    check_encoding(encoding)
    puzzle = Puzzle.empty(puzzle) if isinstance(puzzle, Rules) else puzzle
    rules = puzzle.rules
    amo = check_scheme(amo) if amo is not None else None
    pool = _pool(rules)
    if encoding == "reduced" and rules.is_classic:
        families = dict(_reduced_families(puzzle, amo, pool))
    else:  # the reduction is a fast path of the classic rules; other rules take the extended encoding
        families = dict(_grid_families(rules, encoding != "minimal", amo, pool))
        families.update(rule_families(rules, amo, pool))
        if puzzle.givens:
            families["givens"] = [[lit] for lit in given_literals(puzzle)]
    return families, max(pool.top, rules.n**3)


def encode(puzzle: Puzzle | Rules, encoding: str = "extended", amo: str | None = None) -> CNF:
    """The CNF of a puzzle (its givens as unit clauses, or removed under ``reduced``) or of an empty grid.

    ``amo`` is an at-most-one scheme of ``AMO_SCHEMES``; None picks ``default_amo`` per group. ``nv`` of the
    answer counts every variable, primary (1..n**3) and auxiliary.
    """
    from pysat.formula import CNF

    families, nv = clause_families(puzzle, encoding, amo)
    cnf = CNF(from_clauses=[c for clauses in families.values() for c in clauses])
    cnf.nv = nv
    return cnf


def encode_rules(rules: Rules, encoding: str = "extended", amo: str | None = None) -> CNF:
    """The CNF of the empty grid of ``rules``: what an incremental solver holds (givens as assumptions)."""
    return encode(rules, encoding, amo)


def decode(model: Sequence[int], puzzle: Puzzle, free: list[int] | None = None) -> Puzzle:
    """The grid a model assigns: the givens, and for each blank cell its true primary variable.

    ``model`` is a solver's model (``model[v - 1]`` is ``v`` or ``-v``). Only candidates (digits no peer is
    given; ``free`` from ``candidates`` when known) are read, so the variables ``reduced`` leaves out of the
    formula, free to take any value, are ignored. ``ValueError`` when a blank cell has no true candidate
    or several.
    """
    rules, cells, n = puzzle.rules, puzzle.cells, puzzle.rules.n
    if free is None:
        free = candidates(puzzle)[0]
    out = list(cells)
    for cell, d in enumerate(cells):
        if d:
            continue
        base, mask = cell * n, free[cell]
        true = [e for e in range(1, n + 1) if mask >> e & 1 and model[base + e - 1] > 0]
        if len(true) != 1:
            raise ValueError(f"the model gives {rules.name(cell)} {len(true)} digits")
        out[cell] = true[0]
    return Puzzle(rules, tuple(out))
