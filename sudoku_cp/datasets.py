"""Find and read the public puzzle collections kept beside the project in ``../shared/data``.

They are never copied into the repository: code that uses them calls ``data_dir()`` and skips, with a
clear message, where it returns None (a user's fresh clone has no ``../shared``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from .grid import Puzzle

__all__ = ["MISSING_MESSAGE", "data_dir", "data_path", "load", "load_with_solutions"]

MISSING_MESSAGE = (
    "the shared puzzle collections are missing: put them in ../shared/data beside the project "
    "or point SUDOKU_CP_DATA at them"
)


def data_dir() -> Path | None:
    """``$SUDOKU_CP_DATA``, else ``shared/data`` beside the project root or the working directory."""
    if env := os.environ.get("SUDOKU_CP_DATA"):
        return Path(env) if Path(env).is_dir() else None
    root = Path(__file__).resolve().parent.parent
    for base in (root, Path.cwd(), *Path.cwd().parents):
        candidate = base.parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return None


def data_path(name: str) -> Path | None:
    """The path of one collection file (``"17_clue.txt"``), or None where the data is missing."""
    base = data_dir()
    path = base / name if base else None
    return path if path and path.is_file() else None


def _lines(name: str) -> list[str]:
    path = data_path(name)
    if path is None:
        raise FileNotFoundError(f"{name}: {MISSING_MESSAGE}")
    with path.open(encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def _pick(items: list, limit: int | None, sample: int | None, seed: int) -> list:
    if sample is not None and sample < len(items):
        items = random.Random(seed).sample(items, sample)
    return items[:limit] if limit is not None else items


def load(name: str, *, limit: int | None = None, sample: int | None = None, seed: int = 0) -> list[Puzzle]:
    """The puzzles of a one-puzzle-per-line collection: the first ``limit``, or a seeded ``sample``."""
    return [Puzzle.from_string(line.split()[0]) for line in _pick(_lines(name), limit, sample, seed)]


def load_with_solutions(
    name: str, *, limit: int | None = None, sample: int | None = None, seed: int = 0
) -> list[tuple[Puzzle, Puzzle]]:
    """(puzzle, solution) pairs of a ``PUZZLE SOLUTION`` collection such as ``sudoku_exchange/easy_...``."""
    pairs = []
    for line in _pick(_lines(name), limit, sample, seed):
        puzzle, solution = line.split()[:2]
        pairs.append((Puzzle.from_string(puzzle), Puzzle.from_string(solution)))
    return pairs
