"""``sudoku-cp decode``: turn an external SAT solver's model back into the grid it stands for.

Give the formula ``encode`` wrote (its comments name the grid and the puzzle) and the solver's output: the
SAT competition format (``s SATISFIABLE`` and ``v`` lines, as kissat, cadical and glucose print it), a
MiniSat result file (``SAT`` then the literals), or a bare list of literals; ``-`` reads the output from
standard input. The model is checked against the formula first (a model of another formula, or one that
makes a clause false, such as a given's, is refused by the clause it breaks), then the grid before it is
printed: every cell one digit, the givens kept, every house holding each digit once. So sudoku-cp works
with any SAT solver:

    sudoku-cp encode puzzle.txt -o puzzle.cnf
    kissat puzzle.cnf > model.txt
    sudoku-cp decode puzzle.cnf model.txt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..dimacs import model_misfit, model_of_solver_output, puzzle_of_dimacs
from ..encode.cnf import decode
from ..errors import ParseError, UnsupportedRuleError, UsageError
from ..formats import format_puzzle
from ..formats.header import header_words
from ..grid import Rules
from ..verify import solution_problems
from . import EXIT_FAILED, EXIT_OK, SUMMARIES, exit_codes
from .common import alphabet_option, output_stream, warn

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "decode",
        help=SUMMARIES["decode"],
        description=__doc__,
        epilog=exit_codes("the model is a solution of the puzzle", "no solution, or a model that is none"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("formula", metavar="FORMULA.cnf", help="the DIMACS file sudoku-cp encode wrote")
    p.add_argument("model", metavar="MODEL", help="the solver's output; - for standard input")
    p.add_argument(
        "--output-format",
        choices=("line", "grid", "pretty", "jsonl", "fpuzzles", "link"),
        help="default: line, or fpuzzles for rules a '# rules:' line cannot name (cages, lines, clues)",
    )
    p.add_argument(
        "--symbols",
        type=alphabet_option,
        metavar="ALPHABET",
        help="the digits' symbols the solution is written in: 0-F, A-P, 1-9A-G (the default for 16x16) or an "
        "explicit string of n characters (as encode --symbols read the puzzle)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    formula = _text(args.formula)
    puzzle = puzzle_of_dimacs(formula)
    text = _text(args.model)
    try:
        model = model_of_solver_output(text)
    except ParseError as exc:
        warn(f"{args.model}: {exc}")
        return EXIT_FAILED
    try:
        misfit = model_misfit(formula, model, puzzle)
    except ParseError as exc:
        raise UsageError(f"{args.formula}: {exc}") from None
    if misfit:
        warn(f"{args.model}: the model does not fit the formula {args.formula}: {misfit}")
        return EXIT_FAILED
    model += [-v for v in range(len(model) + 1, puzzle.rules.ncells * puzzle.n + 1)]  # left out: false
    try:
        solution = decode(model, puzzle)
    except ValueError as exc:
        warn(f"{args.model}: {exc}")
        return EXIT_FAILED
    if problems := solution_problems(puzzle, solution):
        warn(f"{args.model}: the model is not a solution of the puzzle: {'; '.join(problems)}")
        return EXIT_FAILED
    layout = args.output_format or _layout_for(solution.rules)
    with output_stream(args.output) as out:
        out.write(format_puzzle(solution, layout, args.symbols) + "\n")
    return EXIT_OK


def _layout_for(rules: Rules) -> str:
    """The default layout of a solution: a line, unless its rules need the f-puzzles object."""
    try:
        header_words(rules)
    except UnsupportedRuleError:
        return "fpuzzles"
    return "line"


def _text(name: str) -> str:
    """The UTF-8 text of a file (``-``: standard input); a ``UsageError`` naming it when it cannot be
    read or is not text."""
    shown = "the standard input" if name == "-" else name
    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        return Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {shown}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {shown}: not UTF-8 text") from None
