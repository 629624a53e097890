"""Words in the messages and summaries, so that every command says them the same way."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, word: str) -> str:
    """``word`` as it goes with ``count``: ``1 puzzle``, ``2 puzzles``, ``0 puzzles``."""
    return word if count == 1 else word + "s"
