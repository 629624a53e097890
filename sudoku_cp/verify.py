"""An independent check of answers, sharing no code with any backend: the rules' own check of a grid."""

from __future__ import annotations

from .grid import Puzzle, as_puzzle

__all__ = ["is_solution", "solution_problems"]


def solution_problems(puzzle: Puzzle | str, solution: Puzzle | str) -> list[str]:
    """Why ``solution`` does not solve ``puzzle`` (an empty list when it does); either may be its text, a
    solution's read under the puzzle's rules."""
    puzzle = as_puzzle(puzzle)
    rules = puzzle.rules
    solution = Puzzle.from_string(solution, rules) if isinstance(solution, str) else as_puzzle(solution)
    if solution.rules != rules:
        return [f"the solution is for {solution.rules}, the puzzle for {rules}"]
    problems = []
    if not solution.is_complete():
        problems.append("the solution has empty cells")
    problems += [
        f"{rules.name(cell)} is {solution.cells[cell]}, the given was {d}"
        for cell, d in puzzle.givens
        if solution.cells[cell] != d
    ]
    problems += [v.message for v in rules.violations(solution.cells)]
    return problems


def is_solution(puzzle: Puzzle | str, solution: Puzzle | str) -> bool:
    """True when ``solution`` is complete, keeps the givens and breaks none of the puzzle's rules."""
    return not solution_problems(puzzle, solution)
