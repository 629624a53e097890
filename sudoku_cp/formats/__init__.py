"""Reading and writing puzzles and results in every text layout: the only part of sudoku-cp that knows text.

Input layouts (``INPUT_FORMATS``), detected from the first content line unless given:

- ``line``: one puzzle per line, n*n symbols (81 for 9x9, 16 for 4x4, 256 for 16x16, ...), blanks ``.0?_-``;
  a second field on the line is the puzzle's known solution (``PUZZLE SOLUTION``); ``#`` lines and empty
  lines are skipped.
- ``grid``: n lines of n symbols, puzzles separated by empty lines. Box separators are accepted: ``|``
  anywhere, lines such as ``+-------+-------+`` or ``------+------``, and spaces between symbols (so the
  ``pretty`` output reads back as a grid). A line of dashes only is a row of blanks when it has as many
  dashes as the other rows have symbols, else a separator.
- ``spaced``: each row as symbols separated by single spaces, ``0`` for blank; above 9, numbers (10, 11, ...)
  or letters (A, B, ...). It is read by the same code as ``grid``.
- ``fpuzzles``: f-puzzles JSON (one object per line, or one object over several lines), f-puzzles links
  (``?load=``) or their compressed form, one per line: variant puzzles with their rules
  (``formats.fpuzzles``).
- ``csv``: a header with a ``quizzes``, ``puzzle`` or ``puzzles`` column (any case; delimiter ``,``, ``;`` or
  tab); a ``solution``/``solutions`` column is kept as each puzzle's known solution.

In ``line``, ``grid``, ``spaced`` and ``csv`` a comment line ``# rules: x,anti-knight`` rules the puzzles
after it (``formats.header``); the writers of those layouts write it, and refuse rules it cannot name.

Output layouts (``OUTPUT_FORMATS``) add ``jsonl`` and ``pretty``; see ``ResultWriter``. Every reader takes
Windows and old-Mac line ends, a UTF-8 byte order mark, trailing white space and a missing final newline;
over-long lines and bytes that are not UTF-8 become error records, never exceptions.

>>> [puzzle] = parse("12..\\n..12\\n21..\\n..21\\n")
>>> format_puzzle(puzzle), detect_format(["12..", "..12"])
('12....1221....21', 'grid')
"""

from .detect import detect_format
from .reading import INPUT_FORMATS, Record, iter_records, open_records, parse, with_named_rules
from .writing import OUTPUT_FORMATS, ResultWriter, format_puzzle, write_puzzles

__all__ = [
    "INPUT_FORMATS",
    "OUTPUT_FORMATS",
    "Record",
    "ResultWriter",
    "detect_format",
    "format_puzzle",
    "iter_records",
    "open_records",
    "parse",
    "with_named_rules",
    "write_puzzles",
]
