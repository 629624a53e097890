"""Fast conversion between a grid's symbols and its digits, and a fast check that no digit is given twice.

The batch engine reads millions of puzzles, so the per-puzzle path here works on whole strings with
``bytes.translate`` and on a few big-integer operations, never character by character in Python. The
slow, precise paths (which symbol is wrong, which digit is doubled) live in ``reading``; they run only
when this fast path says no.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

from ..errors import ParseError
from ..grid import BLANKS, SYMBOLS, Puzzle, Rules
from ..wording import plural
from .alphabet import Alphabet

__all__ = [
    "INVALID",
    "TWO_LAYOUTS",
    "RulesCodec",
    "codec",
    "shape_error",
    "shape_for_cells",
    "shape_for_n",
    "symbol_range",
    "zero_or_blank",
    "zero_or_blank_error",
]

#: The byte a decoding table gives for a character that is neither a symbol nor a blank.
INVALID = 255


class RulesCodec:
    """Tables of one shape: symbol byte -> digit, digit -> symbol byte, and the bit masks of its units.

    ``consistent`` tells whether any digit is given twice in a unit without a loop over cells: each cell
    becomes a one-hot lane of a big integer (``bytes.translate`` builds the lanes, ``int.from_bytes`` the
    integer); shifting and OR-ing folds every row (then column, then box) onto its first cell, and the
    givens are consistent exactly when the OR of each unit has as many bits as the unit has givens. Since
    an OR never has more bits than the count, one comparison of totals checks all units at once.
    """

    __slots__ = (
        "_folds",
        "_planes",
        "alphabet",
        "consistent",
        "decode_table",
        "lanes_per_cell",
        "n",
        "ncells",
        "rules",
        "spaced_table",
        "symbol_table",
    )

    def __init__(self, rules: Rules, alphabet: Alphabet | None = None) -> None:
        n = rules.n
        if alphabet is not None and alphabet.n != n:
            raise ValueError(f"the symbols {alphabet} name {alphabet.n} digits, a {n}x{n} grid has {n}")
        self.rules = rules
        self.alphabet = alphabet
        self.n = n
        self.ncells = rules.ncells
        symbols = alphabet.symbols if alphabet is not None else SYMBOLS[:n]
        blanks = alphabet.blanks if alphabet is not None else BLANKS
        decode = bytearray([INVALID]) * 256
        one_case = not any(ch.isalpha() and ch.swapcase() in symbols for ch in symbols)
        for d, ch in enumerate(symbols, start=1):
            decode[ord(ch)] = d
            if (n <= 35 or alphabet is not None) and one_case and ch.isalpha():  # letters in either case
                decode[ord(ch.swapcase())] = d  # while that is unambiguous, as grid.digit_of
        for ch in blanks:
            decode[ord(ch)] = 0
        self.decode_table = bytes(decode)
        written = bytearray(256)
        written[0] = ord(".")
        for d, ch in enumerate(symbols, start=1):
            written[d] = ord(ch)
        self.symbol_table = bytes(written)
        written[0] = ord("0") if "0" in blanks else ord(".")  # the spaced layout's blank, when 0 is no digit
        self.spaced_table = bytes(written)
        # One-hot lanes: plane j holds digits 8j+1..8j+8 as one byte per cell; k planes interleave into
        # lanes of 8k bits, so digit d of cell c is bit (d - 1) of lane c.
        k = (n + 7) // 8
        self.lanes_per_cell = k
        self._planes = tuple(
            bytes((1 << (d - 1 - 8 * j)) if 8 * j < d <= 8 * j + 8 else 0 for d in range(256))
            for j in range(k)
        )
        if not rules.is_classic:  # the folds below know rows, columns and boxes; other rules check themselves
            self._folds = ()
            self.consistent = rules.is_valid
            return
        width = 8 * k
        lane = (1 << n) - 1
        units = rules.houses
        kinds = (units[:n], units[n : 2 * n], units[2 * n :])
        steps = (
            _doubling(1, n),
            _doubling(n, n),
            _doubling(1, rules.box_cols) + _doubling(n, rules.box_rows),
        )
        self._folds = tuple(
            (tuple(s * width for s in shifts), sum(lane << (min(unit) * width) for unit in kind))
            for shifts, kind in zip(steps, kinds, strict=True)
        )
        #: ``consistent(digits) -> bool``: no digit twice in a row, column or box (see the class doc).
        self.consistent: Callable[[bytes], bool] = _compile_check(self._planes, self._folds, self.ncells)

    def digits(self, text: str) -> bytes | None:
        """One digit byte per symbol of ``text`` (0 for a blank), or None if some character is neither."""
        if not text.isascii():
            return None
        d = text.encode().translate(self.decode_table)
        return None if INVALID in d else d

    def puzzle(self, digits: bytes) -> Puzzle:
        """The puzzle of a digit string that ``digits`` accepted."""
        return Puzzle(self.rules, tuple(digits))

    def symbols(self, cells: tuple[int, ...], blank: str = ".") -> str:
        """One symbol per cell (``blank`` for 0): the line layout of a grid."""
        text = bytes(cells).translate(self.symbol_table).decode("ascii")
        return text if blank == "." else text.replace(".", blank)


def _compile_check(
    planes: tuple[bytes, ...], folds: tuple[tuple[tuple[int, ...], int], ...], ncells: int
) -> Callable[[bytes], bool]:
    """The body of ``consistent`` for one shape, its loops unrolled (a fifth faster than looping).

    The generated source holds only integers and the names defined below, as ``dataclasses`` does.
    """
    k = len(planes)
    lines = ["def check(d):"]
    if k == 1:
        lines.append("    x = from_bytes(d.translate(P0), 'little')")
    else:
        lines.append(f"    buf = bytearray({k * ncells})")
        lines += [f"    buf[{j}::{k}] = d.translate(P{j})" for j in range(k)]
        lines.append("    x = from_bytes(buf, 'little')")
    lines.append("    bits = 0")
    for i, (shifts, _) in enumerate(folds):
        lines.append("    z = x")
        lines += [f"    z |= z >> {s}" for s in shifts]
        lines.append(f"    bits += (z & M{i}).bit_count()")
    lines.append(f"    return bits == 3 * ({ncells} - d.count(0))")
    namespace: dict[str, Any] = {"from_bytes": int.from_bytes}
    namespace.update((f"P{j}", plane) for j, plane in enumerate(planes))
    namespace.update((f"M{i}", mask) for i, (_, mask) in enumerate(folds))
    exec(compile("\n".join(lines), f"<consistency check of {ncells} cells>", "exec"), namespace)
    return namespace["check"]


def _doubling(step: int, count: int) -> tuple[int, ...]:
    """Shifts (in lanes) that OR ``count`` lanes spaced ``step`` apart onto the first, doubling the span."""
    shifts = []
    have = 1
    while have < count:
        take = min(have, count - have)
        shifts.append(take * step)
        have += take
    return tuple(shifts)


@cache
def codec(rules: Rules, alphabet: Alphabet | None = None) -> RulesCodec:
    """The (cached) codec of ``rules`` in ``alphabet`` (None: sudoku-cp's own, 1-9 then A, B, ...)."""
    return RulesCodec(rules, alphabet)


def codec_in(rules: Rules, alphabet: Alphabet | None) -> RulesCodec:
    """The codec of ``rules`` in ``alphabet`` when the alphabet fits the grid's size, else the default one
    (an input or output of several sizes keeps the default alphabet for the others)."""
    return codec(rules, alphabet if alphabet is not None and alphabet.n == rules.n else None)


def zero_or_blank(text: str, n: int) -> bool:
    """True for the symbols of a 16x16 puzzle written with both ``0`` and ``F`` but never ``G``.

    Such a puzzle is ambiguous: in the common 0-F notation 0 is a digit, while in 1-9A-G (the one read
    here) 0 is a blank, and reading it as the latter would solve a different puzzle without a word.
    """
    return n == 16 and "0" in text and ("F" in text or "f" in text) and "G" not in text and "g" not in text


def zero_or_blank_error(alphabet: Alphabet | None = None) -> ParseError:
    """The refusal of the ambiguous 16x16 case; with an ``alphabet`` of another size, says it does not fit."""
    given = (
        f" (--symbols {alphabet} names {alphabet.n} digits, not the 16 of this grid)"
        if alphabet is not None
        else ""
    )
    return ParseError(
        "a 16x16 puzzle written with 0 and F but no G: in 0-F notation 0 is a digit, in 1-9A-G (the one "
        f"read) a blank; say which with --symbols 0-F or --symbols 1-9A-G{given}"
    )


def symbol_range(n: int) -> str:
    """The symbols of an n-digit grid in words, for messages: ``1-9``, ``1-9 and A-G``."""
    if n <= 9:
        return f"1-{n}"
    if n <= 35:
        return f"1-9 and A-{SYMBOLS[n - 1]}" if n > 10 else "1-9 and A"
    return f"1-9, A-Z and a-{SYMBOLS[n - 1]}"


@cache
def shape_for_n(n: int) -> Rules | None:
    """The default shape of an n x n grid, or None if it has none (a prime n needs an explicit 1xn)."""
    try:
        return Rules.from_n(n)
    except ValueError:
        return None


#: Line lengths that fit two layouts: n*n*n candidate positions of an n x n pencilmark grid are also the
#: m*m cells of an m x m puzzle (m = n * sqrt(n)): 64 (4x4 marks, 8x8), 729 (9x9 marks, 27x27), ...
TWO_LAYOUTS = {n**3: n for n in (4, 9, 16, 25)}


@cache
def shape_for_cells(cells: int) -> Rules | None:
    """The default shape of a grid of ``cells`` cells, or None if no grid has that many, or if the length
    fits two layouts (``TWO_LAYOUTS``: the user's ``--box`` then says it is a puzzle)."""
    if cells in TWO_LAYOUTS:
        return None
    try:
        return Rules.from_cell_count(cells)
    except ValueError:
        return None


def shape_error(cells: int) -> ParseError:
    """Why ``cells`` symbols on one line are not a puzzle."""
    if (marks := TWO_LAYOUTS.get(cells)) is not None:
        m = math.isqrt(cells)
        box = Rules.from_n(m)
        return ParseError(
            f"{cells} {plural(cells, 'symbol')}: a {marks}x{marks} pencilmark grid ({marks * marks} cells x "
            f"{marks} candidates, read by hint, steps, rate --scale se, and solve and count with --backend "
            f"sat or cpsat), or "
            f"{'an' if m == 8 else 'a'} {m}x{m} puzzle: for the puzzle give --box {box}"
        )
    n = math.isqrt(cells)
    if n * n == cells and n > 1:
        try:
            Rules.from_n(n)
        except ValueError as exc:
            return ParseError(f"{cells} {plural(cells, 'symbol')}: {exc}")
    marks = round(cells ** (1 / 3))
    if marks**3 == cells and marks > 1:  # a pencilmark grid of a size no puzzle line shares (6x6: 216)
        return ParseError(
            f"{cells} {plural(cells, 'symbol')}: a {marks}x{marks} pencilmark grid ({marks * marks} cells x "
            f"{marks} candidates), read by hint, steps, rate --scale se, and solve and count with --backend "
            "sat or cpsat"
        )
    return ParseError(
        f"{cells} {plural(cells, 'symbol')} is not the length of a puzzle "
        "(16 for 4x4, 36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 for 25x25)"
    )
