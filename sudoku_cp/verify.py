"""An independent check of answers, sharing no code with any backend."""

from __future__ import annotations

from .grid import Puzzle

__all__ = ["is_solution", "solution_problems"]


def solution_problems(puzzle: Puzzle, solution: Puzzle) -> list[str]:
    """Why ``solution`` does not solve ``puzzle`` (an empty list when it does)."""
    shape = puzzle.shape
    if solution.shape != shape:
        return [f"the solution is a {solution.shape} grid, the puzzle {shape}"]
    problems = []
    if not solution.is_complete():
        problems.append("the solution has empty cells")
    problems += [
        f"{shape.name(cell)} is {solution.cells[cell]}, the given was {d}"
        for cell, d in puzzle.givens
        if solution.cells[cell] != d
    ]
    everything = set(range(1, shape.n + 1))
    problems += [
        f"unit {u} holds {sorted({solution.cells[c] for c in unit})}, not every digit once"
        for u, unit in enumerate(shape.units)
        if {solution.cells[c] for c in unit} != everything
    ]
    return problems


def is_solution(puzzle: Puzzle, solution: Puzzle) -> bool:
    """True when ``solution`` is complete, keeps the givens and each unit holds each digit once."""
    return not solution_problems(puzzle, solution)
