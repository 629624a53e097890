"""The ``# rules:`` line: the rules of the puzzles after it, in the layouts that hold only digits.

The ``line``, ``grid``, ``spaced`` and ``csv`` layouts (and a single puzzle in ``pretty``) write a puzzle's
digits and nothing else, so that an X puzzle written as a line read back as a classic one with thousands of
solutions. A comment line such as ``# rules: x,anti-knight`` says the rules of every puzzle after it, up
to the next such line or the end of the input (each file starts with none):

- rule names as ``--rules`` takes them (``x`` is both diagonals; ``diagonal-``, ``anti-knight``, ...),
- a box shape such as ``2x6`` where it is not the one a grid of that size has by default,
- ``classic``: none of these, rows, columns and each size's default boxes (the rules before any header).

The writers put one before the first puzzle whose rules are not the classic rules of its size, and again
wherever the rules change; every reader of those layouts honours it, and a header it cannot read makes the
puzzles after it errors that say why. Rules such a line cannot name (jigsaw regions, extra regions, killer
cages, thermometers, arrows, kropki dots, XV, negative rules) are refused by those writers with an
``UnsupportedRuleError`` that names the rule: the ``fpuzzles``, ``link`` and ``jsonl`` layouts carry them.

>>> header_line(Rules.classic(3, 3).with_named("x,anti-knight"))
'# rules: x,anti-knight'
>>> read_header("# rules: 2x6, Anti-Knight", 4, None)
Header(line=4, box=Rules.classic(2, 6), names=('anti-knight',), error=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UnsupportedRuleError
from ..grid import Rules
from ..rules import NAMED, expand_names
from .codec import TWO_LAYOUTS, shape_for_n

__all__ = ["PREFIX", "Header", "has_header", "header_line", "header_words", "is_header", "read_header"]

#: How a header line starts.
PREFIX = "# rules:"
_HEADER = re.compile(r"#\s*rules\s*:", re.IGNORECASE)
_BOX = re.compile(r"\d+\s*x\s*\d+", re.IGNORECASE)
_HEADER_BYTES = re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*rules[ \t]*:", re.IGNORECASE | re.MULTILINE)
#: The layouts whose writers carry rules only by a header line (``format_puzzle``'s and ``write_puzzles``').
HEADED_LAYOUTS = ("line", "grid", "spaced", "csv", "pretty")


def is_header(text: str) -> bool:
    """True for a (stripped) line that is a ``# rules:`` header."""
    return text[:1] == "#" and _HEADER.match(text) is not None


def has_header(data: bytes) -> bool:
    """True when the text ``data`` holds a header line (one scan of its bytes for ``#`` when it has none)."""
    return b"#" in data and _HEADER_BYTES.search(data) is not None


def header_words(rules: Rules, layout: str = "line") -> str | None:
    """What a header says of ``rules`` (``x,anti-knight``, ``2x6``), None for the classic rules of its
    size; ``UnsupportedRuleError`` naming the first rule no header can name, for a ``layout`` message.
    The box shape is said where it is not the size's default, and always where a line of the grid's
    length is also a pencilmark grid (8x8: ``2x4``), which a reader would not take for a puzzle."""
    beyond = [kind for kind in rules.kinds if kind != "boxes" and kind not in NAMED]
    if beyond:
        known = ", ".join(["x", *NAMED])
        raise UnsupportedRuleError(
            f"the {layout} layout holds digits only and a '{PREFIX}' line names only {known} and a box "
            f"shape: this puzzle's {beyond[0]} would be lost; write it with --output-format fpuzzles, link "
            "or jsonl"
        )
    words = []
    default = shape_for_n(rules.n)
    if default is None or default.box != rules.box or rules.ncells in TWO_LAYOUTS:
        words.append(f"{rules.box_rows}x{rules.box_cols}")
    names = list(rules.named)
    if "diagonal-" in names and "diagonal+" in names:
        names = ["x", *(name for name in names if not name.startswith("diagonal"))]
    return ",".join(words + names) or None


def header_line(rules: Rules, layout: str = "line") -> str:
    """The header line of ``rules`` (``# rules: classic`` for the classic rules of its size)."""
    return f"{PREFIX} {header_words(rules, layout) or 'classic'}"


@dataclass(frozen=True)
class Header:
    """The rules a header line sets for the puzzles after it: a box shape (its classic rules; None: each
    size's default, or ``--box``) and rule names to add; ``error`` says why the line cannot be read."""

    line: int
    box: Rules | None = None
    names: tuple[str, ...] = ()
    error: str | None = None


def read_header(text: str, line: int, given: Rules | None) -> Header:
    """The header of the (stripped) line ``text`` at ``line``; a ``Header`` holding the error when the line
    names an unknown rule, two box shapes, or a box other than ``given`` (``--box``)."""
    words = text[_HEADER.match(text).end() :]  # type: ignore[union-attr]  # callers checked is_header
    box: Rules | None = None
    names: list[str] = []
    try:
        for word in (w.strip() for w in words.split(",")):
            if _BOX.fullmatch(word):
                if box is not None:
                    raise ValueError("two box shapes")
                box = Rules.parse(word)
            elif word.lower() != "classic" and word:
                names += expand_names(word)
        if box is not None and given is not None and (box.n, box.box) != (given.n, given.box):
            raise ValueError(f"boxes of {box.box_rows}x{box.box_cols}, where --box says {given}")
        if (base := box or given) is not None and names:
            base.with_named(names)  # raises where a rule does not fit the shape (windoku on 2x3 boxes)
    except ValueError as exc:
        return Header(line, error=str(exc))
    return Header(line, box, tuple(sorted(set(names))))
