"""DIMACS CNF text of a Sudoku encoding, readable by any SAT solver, with comments that map variables back.

The header comments name the grid, the encoding and the puzzle, then map each primary variable to its
cell and digit (``c var 12 = r1c2=3``); variables above ``n**3`` are auxiliaries of the at-most-one scheme.
Rules beyond the classic ones are stated in full on a ``c rules`` line, as the ``rules`` field of a jsonl
record (``x,anti-knight``, or an f-puzzles object for constraints), so that ``decode`` reads back the
puzzle with all its rules. The scheme is documented in encodings/README.md.

>>> from sudoku_cp.rules import Rules
>>> text = to_dimacs(Rules.classic(2, 2))
>>> [line for line in text.splitlines() if line.startswith(("c var 1 ", "p "))]
['c var 1 = r1c1=1', 'p cnf 64 448']
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ._version import __version__
from .encode.amo import SCHEME_PAPERS
from .encode.cnf import ENCODING_PAPERS, clause_families
from .errors import ParseError
from .formats.fpuzzles import from_fpuzzles, rules_field
from .grid import Puzzle, Rules

__all__ = ["model_misfit", "model_of_solver_output", "puzzle_of_dimacs", "to_dimacs"]


def to_dimacs(
    puzzle: Puzzle | Rules, encoding: str = "extended", amo: str | None = None, *, comments: bool = True
) -> str:
    """The DIMACS CNF of a puzzle (or of the empty grid of a shape) under an encoding and at-most-one scheme.

    ``amo=None`` is the default policy (pairwise for groups up to 16 literals, else sequential counter).
    ``comments=False`` leaves out the ``c`` lines (the variable map of a 25x25 grid is 15,625 lines).
    """
    puzzle = Puzzle.empty(puzzle) if isinstance(puzzle, Rules) else puzzle
    rules, n = puzzle.rules, puzzle.n
    families, nv = clause_families(puzzle, encoding, amo)
    clauses = [c for group in families.values() for c in group]
    out: list[str] = []
    if comments:
        field = rules_field(rules)
        scheme = (
            f"{amo}: {SCHEME_PAPERS[amo]}" if amo else "default (pairwise up to 16 literals, else seqcounter)"
        )
        out += [
            f"c sudoku-cp {__version__}: a {n}x{n} Sudoku (boxes {rules}) as CNF",
            f"c encoding {encoding}: {ENCODING_PAPERS[encoding]}",
            f"c at-most-one {scheme}",
            f"c puzzle {puzzle.to_string()}",
            *([f"c rules {json.dumps(field, separators=(',', ':'))}"] if field is not None else []),
            f"c givens {len(puzzle.givens)}",
            "c families " + " ".join(f"{name}={len(group)}" for name, group in families.items()),
            f"c var(cell, digit) = cell*{n} + digit with cell = {n}*(row-1) + (col-1), digits 1..{n}",
            f"c variables above {n**3} are auxiliaries of the at-most-one scheme",
        ]
        if encoding == "reduced":
            out.append(
                "c reduced: variables the givens decide are left out; read those cells from the puzzle"
            )
        out += [
            f"c var {cell * n + d} = {rules.name(cell)}={d}"
            for cell in range(rules.ncells)
            for d in range(1, n + 1)
        ]
    out.append(f"p cnf {nv} {len(clauses)}")
    out += [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return "\n".join(out) + "\n"


def puzzle_of_dimacs(text: str) -> Puzzle:
    """The puzzle a sudoku-cp DIMACS file states: its ``c puzzle`` line under the rules of its ``c rules``
    line, or without one the classic rules of the ``c ... (boxes RxC)`` shape. ``ParseError`` when the
    comments say neither, or name rules without a ``c rules`` line (a file of an earlier version)."""
    shape = line = field = None
    for raw in text.splitlines():
        if raw.startswith("c sudoku-cp") and "(boxes " in raw:
            shape = raw.split("(boxes ", 1)[1].split(")", 1)[0]
        elif raw.startswith("c puzzle "):
            line = raw[len("c puzzle ") :].strip()
        elif raw.startswith("c rules "):
            try:
                field = json.loads(raw[len("c rules ") :])
            except ValueError:
                raise ParseError(f"the c rules line is not JSON: {raw[8:68]!r}") from None
        elif raw.startswith("p "):
            break
    if shape is None or line is None:
        raise ParseError("not a sudoku-cp DIMACS file: no grid or puzzle comment before the p line")
    if field is not None:
        return from_fpuzzles({"puzzle": line, "rules": field})
    try:
        rules = Rules.parse(shape)
    except ValueError:
        raise ParseError(
            f"the formula's rules ({shape}) are named but not stated: no c rules line (a file written by "
            "an earlier sudoku-cp); encode the puzzle again"
        ) from None
    return Puzzle.from_string(line, rules)


def model_of_solver_output(text: str, variables: int = 0) -> list[int]:
    """The model in a SAT solver's output as ``model[v - 1]`` = ``v`` or ``-v`` for v up to ``variables`` at
    least; variables the output leaves out count as false.

    Read: the SAT competition format (``s SATISFIABLE`` and ``v`` lines: kissat, cadical, glucose), a
    MiniSat result file (``SAT`` then the literals), and a bare list of literals. ``ParseError`` when the
    output says the formula has no model, holds no model, or a line that is none of these.
    """
    values: dict[int, bool] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line in ("s UNSATISFIABLE", "UNSAT"):
            raise ParseError("the solver found no solution (UNSATISFIABLE)")
        if not line or line.startswith(("c", "s ")) or line == "SAT":
            continue
        tokens = line[2:].split() if line.startswith("v ") else line.split()
        try:
            literals = [int(tok) for tok in tokens]
        except ValueError:
            raise ParseError(f"line {number} of the solver output is not a model: {line[:60]!r}") from None
        for lit in literals:
            if lit and values.setdefault(abs(lit), lit > 0) != (lit > 0):
                raise ParseError(
                    f"line {number} of the solver output makes variable {abs(lit)} both true and false"
                )
    if not values:
        raise ParseError("no model in the solver output (no v lines, no literals)")
    top = max(variables, *values)
    return [v if values.get(v, False) else -v for v in range(1, top + 1)]


def model_misfit(formula: str, model: Sequence[int], puzzle: Puzzle) -> str | None:
    """Why ``model`` (``model[v - 1]`` = ``v`` or ``-v``, variables it leaves out false) is no model of the
    DIMACS ``formula`` of ``puzzle``, or None when it is one.

    A model of another formula (another puzzle, shape or encoding) is said to be so, by the variable count
    or by a clause it makes false, before any cell is read from it: a given's unit clause first (a model
    that drops a given names it), else the first. ``ParseError`` for a formula without a ``p cnf`` line or
    with a clause that is not numbers.
    """
    lines = iter(formula.splitlines())
    for line in lines:
        if line.startswith("p cnf "):
            break
    else:
        raise ParseError("the formula has no 'p cnf VARIABLES CLAUSES' line")
    try:
        variables = int(line.split()[2])
        literals = [int(tok) for text in lines if not text.startswith("c") for tok in text.split()]
    except (ValueError, IndexError):
        raise ParseError("the formula is not DIMACS CNF: its p line or a clause is not numbers") from None
    if len(model) > variables:
        return f"the model has {len(model):,} variables, the formula {variables:,}"
    false: list[tuple[int, list[int]]] = []  # (number from 1, clause) of the clauses the model makes false
    clause: list[int] = []
    number = 0
    for lit in literals:
        if lit:
            clause.append(lit)
            continue
        number += 1
        if not any(abs(x) <= len(model) and (model[abs(x) - 1] > 0) == (x > 0) for x in clause):
            false.append((number, clause))
        clause = []
    if not false:
        return None
    givens = [(k, c) for k, c in false if len(c) == 1 and _is_given(c[0], puzzle)]
    number, clause = (givens or false)[0]
    given = " (a given)" if givens else ""
    top = max(map(abs, literals))
    note = (
        f"; the model gives values to {len(model):,} variables, the formula's clauses use {top:,}"
        if len(model) < top
        else ""
    )
    return f"clause {number:,} of the formula, {_clause_text(clause, puzzle)}{given}, is false{note}"


def _is_given(lit: int, puzzle: Puzzle) -> bool:
    """Whether ``lit`` says a given of ``puzzle``: its cell holds its digit."""
    n = puzzle.n
    return 0 < lit <= n**3 and puzzle.cells[(lit - 1) // n] == (lit - 1) % n + 1


def _clause_text(clause: list[int], puzzle: Puzzle, shown: int = 6) -> str:
    """``(not r1c1=4 or not r1c1=5)``: a clause by its cells' digits (auxiliary variables by number)."""
    n, names = puzzle.n, []
    for lit in clause[:shown]:
        v = abs(lit)
        name = f"{puzzle.rules.name((v - 1) // n)}={(v - 1) % n + 1}" if v <= n**3 else f"variable {v}"
        names.append(name if lit > 0 else f"not {name}")
    more = f" or {len(clause) - shown} more" if len(clause) > shown else ""
    return "(" + " or ".join(names) + more + ")"
