"""Telling the input layout from the first lines of an input, and reading a csv header.

The first content line (comment and empty lines skipped) decides: a csv header (a comma, or a
``quizzes``/``puzzle``/``puzzles`` column), a line of n*n symbols (optionally followed by its solution),
box separators (``|``, ``+---``), symbols separated by spaces, or a row of n symbols. Only two lengths are
ambiguous: 16 symbols (a 4x4 puzzle, or a row of a 16x16 grid), 25, 36 and 49; there the first block decides:
exactly that many such lines, then an empty line or the end, make a grid.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence

from ..grid import Rules
from .codec import shape_for_n
from .fpuzzles import looks_like_fpuzzles

__all__ = ["MAX_LINE", "CsvHeader", "classify", "csv_header", "detect_format"]

#: Longer lines are errors in every layout (the longest real one, a 61x61 puzzle and its solution, has 7,443).
MAX_LINE = 1 << 20

PUZZLE_COLUMNS = ("quizzes", "puzzle", "puzzles")
SOLUTION_COLUMNS = ("solution", "solutions")
CSV_DELIMITERS = (",", ";", "\t")
SEPARATOR_CHARS = frozenset("-+=|")


class CsvHeader:
    """The delimiter of a csv header and the positions of its puzzle and solution columns (None if absent)."""

    __slots__ = ("delimiter", "names", "puzzle", "solution")

    def __init__(self, delimiter: str, names: list[str], puzzle: int | None, solution: int | None) -> None:
        self.delimiter = delimiter
        self.names = names
        self.puzzle = puzzle
        self.solution = solution


def csv_header(line: str) -> CsvHeader:
    """Read a header line: the first delimiter (``,``, ``;``, tab) that yields a puzzle column wins."""
    fallback: CsvHeader | None = None
    for delimiter in CSV_DELIMITERS:
        try:
            names = next(csv.reader([line], delimiter=delimiter), [])
        except csv.Error:
            continue
        keys = [name.strip().lower() for name in names]
        puzzle = next((i for i, key in enumerate(keys) if key in PUZZLE_COLUMNS), None)
        solution = next((i for i, key in enumerate(keys) if key in SOLUTION_COLUMNS), None)
        header = CsvHeader(delimiter, [name.strip() for name in names], puzzle, solution)
        if puzzle is not None:
            return header
        if fallback is None:
            fallback = header
    return fallback or CsvHeader(",", [line], None, None)


def _is_csv(line: str) -> bool:
    return "," in line or csv_header(line).puzzle is not None


def _row_length(length: int, rules: Rules | None) -> bool:
    return length == rules.n if rules else shape_for_n(length) is not None


def _is_separator(line: str) -> bool:
    return set(line) <= SEPARATOR_CHARS | {" ", "\t"}


def classify(lines: Sequence[str], rules: Rules | None = None, final: bool = True) -> str | None:
    """The layout of an input beginning with ``lines``; None when more lines are needed and not ``final``.

    ``final`` says that ``lines`` holds the whole input (or all that may be looked at).
    """
    first = None
    for i, raw in enumerate(lines):
        if len(raw) >= MAX_LINE:
            return "line"  # an over-long line: each is reported as a bad line
        text = raw.strip().lstrip("\ufeff")
        if text and text[0] != "#":
            first = i
            break
    if first is None:
        return "line" if final else None
    text = lines[first].strip().lstrip("\ufeff")
    if looks_like_fpuzzles(text):
        return "fpuzzles"
    if _is_csv(text):
        return "csv"
    if "|" in text or (_is_separator(text) and ("+" in text or "=" in text)):
        return "grid"
    fields = text.split()
    length = len(fields[0])
    # n*n symbols for some n >= 4 (without a default shape for n = 5 or 7: then the error asks for one)
    square = length == rules.ncells if rules else length >= 16 and math.isqrt(length) ** 2 == length
    if square and len(fields) > 1 and not (len(fields) == 2 and len(fields[1]) == length):
        return "line"  # a puzzle and more text (a rating, a comment): that line is reported, the rest read
    if len(fields) <= 2 and square and (len(fields) == 1 or len(fields[1]) == length):
        if len(fields) == 2 or not _row_length(length, rules):
            return "line"
        # 16, 25, 36 or 49 symbols: a whole puzzle, or the first row of a grid of that size?
        rows = 0
        for raw in lines[first:]:
            row = raw.strip()
            if not row:
                return "grid" if rows == length else "line"
            if row[0] == "#":
                continue
            if len(row) != length or " " in row or "\t" in row:
                return "line"
            rows += 1
            if rows > length:
                return "line"
        return ("grid" if rows == length else "line") if final else None
    if _is_separator(text):  # a line of dashes
        return "grid"
    if len(fields) > 1:
        return "spaced"
    if _row_length(length, rules):
        return "grid"
    return "line"  # nothing fits: read line by line, so each bad line is reported with its number


def detect_format(first_lines: list[str], rules: Rules | None = None) -> str:
    """The input layout (``line``, ``grid``, ``spaced`` or ``csv``) of an input starting with ``first_lines``.

    An input with no content is ``line`` (it has no records either way); so is one that fits no layout, so
    that every bad line is reported with its number. With ``shape`` the sizes are that shape's.

    >>> detect_format(["# a comment", "4.....8.5.3" + "." * 70])
    'line'
    >>> [detect_format(lines) for lines in (["5 3 0 0 7 0 0 0 0"], ["5????7??6", "?6????5?4"], ["Puzzle"])]
    ['spaced', 'grid', 'csv']
    """
    result = classify(first_lines, rules, final=True)
    assert result is not None  # classify decides when final
    return result
