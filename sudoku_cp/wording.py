"""Words in the messages and summaries, so that every command says them the same way."""

from __future__ import annotations

__all__ = ["article", "listing", "plural"]


def plural(count: int, word: str) -> str:
    """``word`` as it goes with ``count``: ``1 puzzle``, ``2 puzzles``, ``0 puzzles``."""
    return word if count == 1 else word + "s"


def listing(words: list[str]) -> str:
    """Words as a sentence lists them: ``4``, ``4 and 8``, ``1, 4 and 8``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def article(word: str) -> str:
    """The indefinite article before ``word``: ``an extra region``, ``a thermometer``."""
    return "an" if word[:1].lower() in "aeiou" else "a"
