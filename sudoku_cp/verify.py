"""An independent check of answers, sharing no code with any backend: the rules' own check of a grid."""

from __future__ import annotations

from .grid import Puzzle

__all__ = ["is_solution", "solution_problems"]


def solution_problems(puzzle: Puzzle, solution: Puzzle) -> list[str]:
    """Why ``solution`` does not solve ``puzzle`` (an empty list when it does)."""
    rules = puzzle.rules
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


def is_solution(puzzle: Puzzle, solution: Puzzle) -> bool:
    """True when ``solution`` is complete, keeps the givens and breaks none of the puzzle's rules."""
    return not solution_problems(puzzle, solution)
