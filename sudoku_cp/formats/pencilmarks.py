"""Pencilmark input: a grid's candidates on one line, n*n*n characters (81 cells times 9 places on 9x9),
or as a candidate grid block.

On one line, cell by cell, place k holds the symbol of digit k where it is a candidate, ``.`` or ``0``
where it is not: the layout ``pencilmarks`` writes (``solve --true-candidates``, ``steps`` where stuck)
and Sudoku Explainer and HoDoKu exchange. A candidate grid is n rows of n cells, each cell the symbols of
its candidates run together (``1679``), cells separated by spaces, box lines (``|``, and rows of ``-``,
``=``, ``+``, ``.``, ``'``, ``:``) allowed: what HoDoKu and the forums print. Neither reads as a puzzle
(a line's length is no grid's, or fits both, as 64 does: 4x4 pencilmarks or an 8x8 puzzle, and ``--box``
then says which; a grid's cells hold several symbols), so a command that starts from candidates
(``hint``, ``steps``) asks for them with ``with_pencilmarks``; every other command keeps reporting them as
an error.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator

from ..candidates import Candidates
from ..errors import ParseError
from ..grid import Puzzle, Rules, digit_of, symbol
from ..rules.constraints import cell_name
from .reading import Record

__all__ = [
    "candidate_grid",
    "parse_candidate_grid",
    "parse_pencilmarks",
    "pencilmark_size",
    "pencilmarks",
    "starts_with_pencilmarks",
    "with_pencilmarks",
]

#: The characters of a candidate grid's box lines: a row of only these (and one of ``-=``) is a border.
BORDER = frozenset("-=+|.:'*_ \t")


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


def candidate_grid(candidates: Candidates) -> str:
    """The candidate grid layout ``parse_candidate_grid`` reads: each cell's candidates run together in a
    column as wide as the widest cell, ``|`` between boxes (regions of a jigsaw are not drawn) and a
    ``+``-joined row of ``-`` between bands of boxes.

    >>> print(candidate_grid(Candidates.of(Puzzle.from_string("1..." "..1." ".1.." "...1"))))
    1   234 | 234 234
    234 234 | 1   234
    --------+--------
    234 1   | 234 234
    234 234 | 234 1
    """
    rules = candidates.puzzle.rules
    n = rules.n
    rows, cols = rules.box if rules.box is not None else (n, n)
    texts = ["".join(symbol(d) for d in candidates.digits(cell)) for cell in range(n * n)]
    width = max(len(t) for t in texts)
    lines = []
    for r in range(n):
        stacks = (
            " ".join(t.ljust(width) for t in texts[r * n + c : r * n + c + cols]) for c in range(0, n, cols)
        )
        line = " | ".join(stacks)
        if r and r % rows == 0:  # the band border under the columns of the line, + where a | is
            lines.append("".join("+" if ch == "|" else "-" for ch in line))
        lines.append(line.rstrip())
    return "\n".join(lines)


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


def parse_candidate_grid(text: str, rules: Rules | None = None) -> Candidates:
    """The candidates of a candidate grid block (``rules``: its grid, by default the usual one of its size).

    >>> grid = "1 234 | 234 234\\n234 234 | 1 234\\n-----+------\\n2 14 | 34 1234\\n3 14 | 24 124"
    >>> c = parse_candidate_grid(grid)
    >>> c.digits(0), c.digits(1), c.digits(15)
    ((1,), (2, 3, 4), (1, 2, 4))
    """
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line[0] == "#" or (set(line) <= BORDER and ("-" in line or "=" in line)):
            continue
        rows.append((number, line.replace("|", " ").replace(":", " ").split()))
    n = len(rows)
    if not n or len(rows[0][1]) != n:
        width = len(rows[0][1]) if rows else 0
        raise ParseError(f"a candidate grid of {n} rows of {width} cells: it needs n rows of n cells")
    if rules is None:
        try:
            rules = Rules.from_n(n)
        except ValueError:
            raise ParseError(f"a candidate grid of {n} rows: no grid has that shape") from None
    elif rules.n != n:
        raise ParseError(f"a candidate grid of {n} rows is not one of {rules}")
    masks = []
    for row, (number, cells) in enumerate(rows):
        if len(cells) != n:
            raise ParseError(f"row {row + 1} (line {number} of the grid) has {len(cells)} cells, not {n}")
        for col, token in enumerate(cells):
            cell, mask = row * n + col, 0
            for char in token:
                try:
                    digit = digit_of(char, n)
                except ValueError:
                    raise ParseError(
                        f"{cell_name(cell, n)}: {char!r} is no digit of a {n}x{n} grid"
                    ) from None
                if not digit:
                    raise ParseError(
                        f"{cell_name(cell, n)}: {token!r}; a cell lists its candidates, at least one"
                    )
                if mask >> (digit - 1) & 1:
                    raise ParseError(f"{cell_name(cell, n)}: {token!r} names {char!r} twice")
                mask |= 1 << (digit - 1)
            masks.append(mask)
    return Candidates(Puzzle(rules, (0,) * rules.ncells), tuple(masks))


#: The title line of a puzzle in the ``pretty`` layout (``Puzzle 3 (line 7): multiple``), which the
#: candidate grid of ``solve --true-candidates --output-format pretty`` comes under.
_TITLE = re.compile(r"Puzzle \d+ \(line \d+\)(:.*)?")


def _untitled(text: str) -> str:
    """``text`` without a first line that is a pretty layout's title."""
    first, _, rest = text.lstrip("\n").partition("\n")
    return rest if _TITLE.fullmatch(first.strip()) else text


def _candidate_grid(text: str) -> bool:
    """Whether a block that did not read as a puzzle looks like a candidate grid: several lines, and a
    cell of more than one symbol."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) > 1 and any(
        len(token) > 1 and not set(token) <= BORDER
        for line in lines
        for token in line.replace("|", " ").split()
    )


def starts_with_pencilmarks(head: bytes | str, rules: Rules | None = None) -> bool:
    """Whether an input beginning with ``head`` starts with pencilmarks: its first line (not a comment) is
    an n*n*n-character line that is no puzzle of ``rules``, or its first block a candidate grid."""
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    lines = [line.strip().lstrip("\ufeff") for line in text.splitlines()]
    lines = [line for line in lines if not line.startswith("#")]
    while lines and not lines[0]:
        lines.pop(0)
    if lines and _TITLE.fullmatch(lines[0]):
        lines.pop(0)
    if not lines:
        return False
    n = pencilmark_size(len(lines[0]))
    if n is not None and " " not in lines[0]:
        return rules is None or rules.n == n
    block = lines[: lines.index("")] if "" in lines else lines
    return _candidate_grid("\n".join(block))


def with_pencilmarks(records: Iterable[Record], rules: Rules | None = None) -> Iterator[Record]:
    """The records, each line or block that is no puzzle but pencilmarks read as them (``candidates`` set,
    format ``pencilmarks``); malformed pencilmarks are an error record saying what is wrong."""
    for record in records:
        text = _untitled(record.text.strip())
        error = record.error
        if error is None:
            yield record
            continue
        n = pencilmark_size(len(text))
        if n is not None and (rules is None or rules.n == n):
            parse = parse_pencilmarks
        elif _candidate_grid(text):
            parse = parse_candidate_grid
        else:
            yield record
            continue
        where = {"index": error.index, "line": error.line, "source": error.source}  # type: ignore[union-attr]
        try:
            candidates = parse(text, rules)
            if record.named:  # the rules a '# rules:' line in force names
                named = candidates.puzzle.rules.with_named(record.named)
                candidates = Candidates(Puzzle(named, candidates.puzzle.cells), candidates.masks)
        except ParseError as exc:
            yield dataclasses.replace(record, error=ParseError(exc.reason, **where))
            continue
        except ValueError as exc:  # a named rule that does not fit the grid
            yield dataclasses.replace(record, error=ParseError(str(exc), **where))
            continue
        yield dataclasses.replace(
            record, puzzle=candidates.puzzle, error=None, candidates=candidates, format="pencilmarks"
        )
