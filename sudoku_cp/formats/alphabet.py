"""Alphabets: which character stands for which digit (``--symbols``), so no notation is misread.

sudoku-cp's own alphabet is ``1-9`` then ``A``, ``B``, ... (``1-9A-G`` for 16x16), with ``.`` and ``0`` for
blanks. 16x16 puzzles are as often written ``0-F`` (``0`` is a digit, ``.`` the blank) or ``A-P``; an
``Alphabet`` reads and writes those, and any explicit string of n distinct characters, digit d being the
d-th character.

>>> a = parse_alphabet("0-F")
>>> a.symbols, a.blanks
('0123456789ABCDEF', '.?_-')
>>> parse_alphabet("1-9A-G").symbols == "123456789ABCDEFG", parse_alphabet("A-P").blanks
(True, '.0?_-')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SEQUENCE", "Alphabet", "parse_alphabet"]

#: The order ranges such as ``0-F`` and ``A-P`` count in (a range never mixes cases).
SEQUENCE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = SEQUENCE.lower()
#: The blank characters of sudoku-cp's own alphabet; an alphabet keeps those it does not use as digits.
_BLANKS = ".0?_-"


@dataclass(frozen=True)
class Alphabet:
    """``symbols[d - 1]`` writes digit d; ``blanks`` are read as empty cells (the first is written).

    Letters are read in either case when the alphabet holds only one case of them.
    """

    symbols: str
    blanks: str

    @property
    def n(self) -> int:
        return len(self.symbols)

    def __str__(self) -> str:
        return self.symbols


def _expand(spec: str) -> str:
    out = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            first, last = spec[i], spec[i + 2]
            for sequence in (SEQUENCE, _LOWER):
                if first in sequence and last in sequence and sequence.index(first) <= sequence.index(last):
                    out.append(sequence[sequence.index(first) : sequence.index(last) + 1])
                    break
            else:
                raise ValueError(f"bad range {first}-{last} in symbols {spec!r}")
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


def parse_alphabet(spec: str) -> Alphabet:
    """``0-F``, ``A-P``, ``1-9A-G`` (ranges) or an explicit string of distinct characters; ``ValueError``
    for one that repeats a character or uses ``.`` (always the blank) or white space."""
    symbols = _expand(spec.strip())
    if len(symbols) < 2:
        raise ValueError(f"symbols {spec!r} name fewer than 2 digits")
    if len(set(symbols)) != len(symbols):
        raise ValueError(f"symbols {spec!r} repeat a character")
    if "." in symbols or any(ch.isspace() or not ch.isascii() or not ch.isprintable() for ch in symbols):
        raise ValueError(f"symbols {spec!r}: printable ASCII characters only, and '.' is the blank")
    return Alphabet(symbols, "".join(ch for ch in _BLANKS if ch not in symbols))
