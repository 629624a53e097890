"""Pencilmark input: a grid's candidates on one line, n*n*n characters (81 cells times 9 places on 9x9).

Cell by cell, place k holds the symbol of digit k where it is a candidate, ``.`` or ``0`` where it is not:
the layout ``pencilmarks`` writes (``solve --true-candidates``, ``steps`` where stuck) and Sudoku
Explainer and HoDoKu exchange. The lines read as no puzzle (their length is no grid's, or fits both, as 64
does: 4x4 pencilmarks or an 8x8 puzzle, and ``--box`` then says which), so a command that starts from
candidates (``hint``, ``steps``) asks for them with ``with_pencilmarks``; every other command keeps
reporting such a line as an error.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from ..candidates import Candidates
from ..errors import ParseError
from ..grid import Puzzle, Rules, digit_of, symbol
from ..rules.constraints import cell_name
from .reading import Record

__all__ = ["parse_pencilmarks", "pencilmark_size", "pencilmarks", "with_pencilmarks"]


def pencilmark_size(length: int) -> int | None:
    """The n of an n x n grid whose pencilmarks take ``length`` characters, or None."""
    n = round(length ** (1 / 3))
    if n < 2 or n**3 != length:
        return None
    try:
        Rules.from_n(n)
    except ValueError:
        return None
    return n


def pencilmarks(candidates: Candidates) -> str:
    """The n*n*n-character pencilmark layout: per cell, each digit 1..n where it is a candidate, else
    ``.``."""
    n = candidates.puzzle.n
    return "".join(
        symbol(d) if mask >> (d - 1) & 1 else "." for mask in candidates.masks for d in range(1, n + 1)
    )


def parse_pencilmarks(text: str, rules: Rules | None = None) -> Candidates:
    """The candidates of one pencilmark line (``rules``: its grid, by default the usual one of its size).

    >>> c = parse_pencilmarks("1..." ".2.." "..3." "...4" + "1234" * 12)
    >>> c.digits(0), c.digits(3), c.digits(15)
    ((1,), (4,), (1, 2, 3, 4))
    """
    n = pencilmark_size(len(text))
    if n is None:
        raise ParseError(f"{len(text)} characters: pencilmarks of an n x n grid take n*n*n (729 on 9x9)")
    if rules is None:
        rules = Rules.from_n(n)
    elif rules.n != n:
        raise ParseError(f"{len(text)} characters are the pencilmarks of a {n}x{n} grid, not of {rules}")
    masks = []
    for cell in range(n * n):
        mask = 0
        for k, char in enumerate(text[cell * n : (cell + 1) * n]):
            if char in ".0":
                continue
            try:
                digit = digit_of(char, n)
            except ValueError:
                raise ParseError(f"{cell_name(cell, n)}: {char!r} is no digit of a {n}x{n} grid") from None
            if digit != k + 1:
                raise ParseError(
                    f"{cell_name(cell, n)}: place {k + 1} holds {char!r}; a pencilmark line puts digit k at "
                    f"place k of its cell, or . there"
                )
            mask |= 1 << k
        if not mask:
            raise ParseError(f"{cell_name(cell, n)} has no candidate")
        masks.append(mask)
    return Candidates(Puzzle(rules, (0,) * rules.ncells), tuple(masks))


def with_pencilmarks(records: Iterable[Record], rules: Rules | None = None) -> Iterator[Record]:
    """The records, each line that is no puzzle but a pencilmark grid read as one (``candidates`` set,
    format ``pencilmarks``); a malformed pencilmark line is an error record saying what is wrong."""
    for record in records:
        text = record.text.strip()
        error = record.error
        n = pencilmark_size(len(text)) if error is not None else None
        if n is None or (rules is not None and rules.n != n):
            yield record
            continue
        try:
            candidates = parse_pencilmarks(text, rules)
        except ParseError as exc:
            where = {"index": error.index, "line": error.line, "source": error.source}  # type: ignore[union-attr]
            yield dataclasses.replace(record, error=ParseError(exc.reason, **where))
            continue
        yield dataclasses.replace(
            record, puzzle=candidates.puzzle, error=None, candidates=candidates, format="pencilmarks"
        )
