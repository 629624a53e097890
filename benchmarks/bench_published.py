"""sudoku-cp against the Interactive Sudoku Solver (ISS, JavaScript) on ISS's published example puzzles.

The puzzles are those of ISS's own collection (the GitHub project sigh/Interactive-Sudoku-Solver,
``data/example_puzzles.js`` and the ``EXAMPLES`` list of ``data/collections.js``; ``--collections`` adds its
named benchmark sets such as ``TAREK_ALL``), read from a checkout the user points at with ``--iss``: nothing
is fetched and nothing of ISS is copied here. ``node`` loads the entries (name, constraint string, published
solution) and ISS's parser writes each constraint string in its canonical form. This script converts the
canonical form into f-puzzles JSON (givens, cages, thermometers, arrows and pill arrows, kropki dots, XV,
anti-knight, anti-king, anti-consecutive, diagonals, windoku as extra regions, jigsaw regions, disjoint sets,
strict kropki and strict XV as f-puzzles ``negative``, 16x16 and 6x6 shapes; the kinds of
``sudoku_cp.rules.kinds``: renban, whisper of any difference, palindrome, between, region sum, entropic and
modular lines, little killers, sandwiches, X-sums, skyscrapers, quads, pencilmark givens of exactly the odd
or the even digits as odd and even cells, GreaterThan as minimum and maximum cells, SameValues of single
cells as clones), which sudoku-cp's own reader reads, and keeps exactly the entries whose every constraint
sudoku-cp holds with ISS's meaning; the others are counted by the constraint kinds (or the reason, such as
``Modular with mod 4``) that kept them out. ``--kinds new`` selects the entries using those kinds. Each
converted puzzle with a published solution is checked first: that solution must keep the givens and break
none of sudoku-cp's rules (``Rules.violations``), so a conversion error cannot pass unnoticed.

What is measured, per puzzle, counting up to two solutions (a uniqueness proof):

- each backend (``dfs``, ``sat``, ``cpsat`` or ``--backends``): CPU time of ``enumerate(puzzle, limit=2)``
  (the puzzle's model built and searched), best of up to ``--repeat`` runs, each on a new backend object,
  in a child process per (puzzle, backend). Before the clock the child loads the backend and warms it up on
  the empty 4x4 grid and on the puzzle's rules with the published solution filled in (without one, on its
  rules' empty grid for at most 0.2 s), so import, compilation and per-rules tables are not counted (ISS's
  figure leaves out its build step likewise); OpenBLAS keeps to one thread, as in the command. The child is
  killed ``--timeout`` seconds after its warm-up (a killed run shows as ``>20 s``);
- the default backend as a user meets it: wall time of the whole process ``sudoku-cp count FILE`` (no
  ``--backend``), killed after ``--timeout`` seconds, and its CPU time with any worker processes (``def CPU``:
  what a machine shared with other work leaves comparable);
- ISS: ``node tools/perf/benchmark_puzzles.js --max-backtracks none --solutions 2 --repeat 3 --json`` on the
  entry's constraint string, its best ``ms`` (wall time of the solve in one node process, after its build).

Every answer is checked: the solutions a backend finds must keep sudoku-cp's rules, a unique one must be the
published solution, and the counts of the backends, the default run and ISS must agree; any disagreement is
listed after the table.

    python benchmarks/bench_published.py --iss ../Interactive-Sudoku-Solver
    python benchmarks/bench_published.py --iss ../Interactive-Sudoku-Solver --only Killer --backends sat
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import queue
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_BACKENDS = ("dfs", "sat", "cpsat")
#: The lists of ISS's collection taken by default: the examples its page shows and its ``EXAMPLES`` list.
EXAMPLE_SOURCES = ("example_puzzles", "collections")
#: How long a child may take to import and warm up before its clock starts.
SETUP_SECONDS = 120.0
#: A run slower than this (CPU seconds) is not repeated. Runs up to 2 s are: the JS solver's figure is a
#: best of three, and a shared machine's speed drifts (the dfs on Arrow, slow: 0.33 to 0.55 s within an
#: hour, the same tree), so one run of a puzzle near the 3x line said little.
REPEAT_BELOW = 2.0

#: Loads ISS's puzzle lists in node and writes them as JSON: one record per named entry, with the
#: constraint string in the canonical form of ISS's parser (or why there is none).
NODE_DUMP = r"""
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
const root = process.env.ISS_ROOT;
globalThis.self = globalThis;
globalThis.VERSION_PARAM = '';
const load = (path) => import(pathToFileURL(join(root, path)).href);
const examples = await load('data/example_puzzles.js');
const collections = await load('data/collections.js');
const { SudokuParser } = await load('js/sudoku_parser.js');
const out = [];
const seen = new Set();
const add = (source, config) => {
  if (!config.name || seen.has(config.name)) return;
  seen.add(config.name);
  const row = { source, name: config.name, input: config.input, solution: config.solution ?? null };
  if (typeof config.input !== 'string' || config.input.startsWith('/')) {
    row.error = 'a script or file input';
  } else {
    try { row.canonical = SudokuParser.parseText(config.input).toString(); }
    catch (e) { row.error = 'ISS cannot parse it: ' + (e.message ?? e); }
  }
  out.push(row);
};
for (const p of examples.DISPLAYED_EXAMPLES) add('example_puzzles', examples.resolvePuzzleConfig(p));
for (const p of collections.EXAMPLES) add('collections', examples.resolvePuzzleConfig(p));
for (const [key, list] of Object.entries(collections)) {
  if (!Array.isArray(list) || key === 'EXAMPLES') continue;
  list.forEach((entry, i) => {
    const config = typeof list.configFor === 'function'
      ? list.configFor(entry) : examples.resolvePuzzleConfig(entry);
    const unnamed = !config.name || config.name === config.input;
    add(key, unnamed ? { ...config, name: `${key}#${i}` } : config);
  });
}
process.stdout.write(JSON.stringify(out));
"""


# --- the entries and their conversion ----------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One puzzle of ISS's collection as its data files give it."""

    source: str
    name: str
    input: str
    solution: str | None
    canonical: str | None = None
    error: str | None = None


class Unsupported(Exception):
    """The entry holds something sudoku-cp's rules cannot state; the message is the kind, for the tally."""


def load_entries(iss: Path) -> list[Entry]:
    """Every named entry of ISS's collection, through node and ISS's own modules."""
    done = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_DUMP],
        env={**os.environ, "ISS_ROOT": str(iss.resolve())},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bench_published: node could not load ISS's puzzles:\n{done.stderr.strip()}")
    return [_entry(record) for record in json.loads(done.stdout)]


def _entry(record: dict[str, Any]) -> Entry:
    fields = ("source", "name", "input", "solution", "canonical", "error")
    return Entry(**{k: record.get(k) for k in fields})


def constraint_parts(text: str) -> list[tuple[str, list[str]]]:
    """The ``.Type~arg~arg`` parts of a canonical ISS constraint string (givens ``.~R1C1_5`` are type "")."""
    parts = []
    for part in text.split("."):
        if part.strip():
            kind, *args = part.strip().split("~")
            parts.append((kind, args))
    return parts


def iss_kinds(text: str) -> list[str]:
    """The constraint kinds of a canonical string, in first-seen order, without givens and the shape;
    ``Pencilmarks`` where a given holds several digits."""
    kinds = []
    for kind, args in constraint_parts(text):
        if kind == "" and any(arg.count("_") > 1 for arg in args):
            kinds.append("Pencilmarks")
        elif kind not in ("", "Shape"):
            kinds.append(kind)
    return list(dict.fromkeys(kinds))


def grid_size(parts: list[tuple[str, list[str]]]) -> int:
    """The grid's n from the ``Shape`` part (9 without one); ``Unsupported`` for shapes sudoku-cp lacks."""
    for kind, args in parts:
        if kind != "Shape":
            continue
        rows, _, cols = args[0].partition("x")
        if rows != cols:
            raise Unsupported("non-square grid")
        n = int(rows)
        if len(args) > 2 or (len(args) == 2 and args[1] not in (str(n), f"1-{n}")):
            raise Unsupported("digits other than 1..n")
        if not any(n % d == 0 for d in range(2, n)):
            raise Unsupported("grid without boxes")
        return n
    return 9


def box_shape(n: int) -> tuple[int, int]:
    """ISS's box shape of a square n x n grid (``CellGeometry.boxDimsForSize``): the most nearly square
    divisor pair, rows first; the same boxes as sudoku-cp's ``Rules.from_n``."""
    small = max(d for d in range(2, math.isqrt(n) + 1) if n % d == 0)
    return small, n // small


def cell_of(cell_id: str, n: int) -> tuple[int, int]:
    """(row, col) of an ISS cell id: ``R1C1``, rows and columns past 9 in base 17 (``RaCg``)."""
    if len(cell_id) != 4 or cell_id[0] not in "Rr" or cell_id[2] not in "Cc":
        raise Unsupported("named variable cells")
    row, col = int(cell_id[1], 17) - 1, int(cell_id[3], 17) - 1
    if not (0 <= row < n and 0 <= col < n):
        raise ValueError(f"cell {cell_id} is outside the {n}x{n} grid")
    return row, col


class FPuzzlesBuilder:
    """Accumulates the f-puzzles object of one ISS constraint string, one handler per ISS kind."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.data: dict[str, Any] = {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}
        self.marked: dict[str, set[frozenset[str]]] = {"kropki": set(), "xv": set(), "white": set()}
        self.regions: list[list[str]] | None = None
        self.greater: set[tuple[str, str]] = set()

    def name(self, cell_id: str) -> str:
        row, col = cell_of(cell_id, self.n)
        return f"R{row + 1}C{col + 1}"

    def names(self, cell_ids: Iterable[str]) -> list[str]:
        return [self.name(c) for c in cell_ids]

    def append(self, key: str, value: Any) -> None:
        self.data.setdefault(key, []).append(value)

    def add(self, kind: str, args: list[str]) -> None:
        if kind in _FLAGS:
            self.data[_FLAGS[kind]] = True
        elif kind in _MARKS:
            self.mark(*_MARKS[kind], args)
        elif kind in _METHODS:
            getattr(self, _METHODS[kind])(args)
        else:
            raise Unsupported(kind)

    def shape(self, args: list[str]) -> None:
        """Read by ``grid_size`` before the builder exists."""

    def diagonal(self, args: list[str]) -> None:
        self.data["diagonal+" if int(args[0]) > 0 else "diagonal-"] = True  # ISS's 1 is the anti-diagonal

    def strict_kropki(self, args: list[str]) -> None:
        self.negative("difference", "ratio")

    def strict_xv(self, args: list[str]) -> None:
        self.negative("xv")

    def givens(self, args: list[str]) -> None:
        """Givens; a cell's pencilmarks (``R1C1_1_3_5_7_9``) are odd or even cells when they are exactly
        the odd or the even digits of 1..n (ISS restricts the cell to them: f-puzzles' odd and even)."""
        odd = {d for d in range(1, self.n + 1) if d % 2}
        even = set(range(1, self.n + 1)) - odd
        for arg in args:
            cell_id, *values = arg.split("_")
            if len(values) != 1:
                digits = {int(v) for v in values}
                key = "odd" if digits == odd else "even" if digits == even else None
                if key is None:
                    raise Unsupported("pencilmark givens other than odd or even")
                self.append(key, {"cell": self.name(cell_id)})
                continue
            row, col = cell_of(cell_id, self.n)
            self.data["grid"][row][col] = {"value": int(values[0]), "given": True}

    def cage(self, args: list[str]) -> None:
        total, *cells = args
        entry: dict[str, Any] = {"cells": self.names(cells)}
        if total.strip() not in ("", "0"):  # ISS: a sum of 0 is a cage without a sum
            entry["value"] = str(int(total))
        self.append("killercage", entry)

    def thermo(self, args: list[str]) -> None:
        self.append("thermometer", {"lines": [self.names(args)]})

    def arrow(self, args: list[str]) -> None:
        self.append("arrow", {"cells": [self.name(args[0])], "lines": [self.names(args)]})

    def pill_arrow(self, args: list[str]) -> None:
        size, cells = int(args[0]), args[1:]
        if self.n > 9:
            raise Unsupported("PillArrow beyond 9x9")
        pill = self.names(cells[:size])
        self.append("arrow", {"cells": pill, "lines": [[pill[-1], *self.names(cells[size:])]]})

    def mark(self, key: str, value: str | None, family: str, cells: list[str]) -> None:
        pairs = self.adjacent_pairs(cells)
        if not pairs:
            raise ValueError(f"a {key} mark without two adjacent cells")
        for a, b in pairs:
            self.append(key, {"cells": [a, b], **({"value": value} if value else {})})
            self.marked[family].add(frozenset((a, b)))
            if key == "difference":
                self.marked["white"].add(frozenset((a, b)))

    def adjacent_pairs(self, cells: list[str]) -> list[tuple[str, str]]:
        """The orthogonally adjacent pairs among a mark's cells (ISS's ``_adjacentCellPairs``)."""
        where = [cell_of(c, self.n) for c in cells]
        pairs = []
        for i, (r, c) in enumerate(where):
            for rr, cc in where[i + 1 :]:
                if abs(r - rr) + abs(c - cc) == 1:
                    pairs.append((f"R{r + 1}C{c + 1}", f"R{rr + 1}C{cc + 1}"))
        return pairs

    # --- lines: one f-puzzles entry a line ---

    def line(self, key: str, cells: list[str], **more: Any) -> None:
        self.append(key, {"lines": [self.names(cells)], **more})

    def renban(self, args: list[str]) -> None:
        self.line("renban", args)

    def whisper(self, args: list[str]) -> None:
        """ISS: neighbours differ by at least the difference (5 when the string leaves it out); sudoku-cp's
        whispers take any difference from 1 to n - 1 as ``value`` (written always: its default is
        ceil(n / 2), ISS's is 5 on every size)."""
        difference, cells = (5, args) if not args[0].lstrip("-").isdigit() else (int(args[0]), args[1:])
        if not 1 <= difference <= self.n - 1:
            raise Unsupported(f"Whisper with difference {difference} on {self.n}x{self.n}")
        for piece in self.pieces(cells):
            self.line("whispers", piece, value=str(difference))

    @staticmethod
    def pieces(cells: list[str]) -> list[list[str]]:
        """A line that comes back to a cell (a loop), which sudoku-cp's lines refuse, as lines that share
        their ends: the same neighbouring pairs, all a whisper's rule reads."""
        out: list[list[str]] = [[]]
        for cell in cells:
            if cell in out[-1]:
                out.append([out[-1][-1]])
            out[-1].append(cell)
        return out

    def palindrome(self, args: list[str]) -> None:
        self.line("palindrome", args)

    def between(self, args: list[str]) -> None:
        self.line("betweenline", args)

    def region_sum_line(self, args: list[str]) -> None:
        """ISS cuts the line by the boxes, or by the jigsaw regions without boxes: sudoku-cp cuts it by its
        regions, which ``finish`` makes the same (a jigsaw beside boxes is extra regions)."""
        self.line("regionsumline", args)

    def entropic(self, args: list[str]) -> None:
        if self.n != 9:
            raise Unsupported("Entropic beyond 9x9")  # ISS refuses it; sudoku-cp takes the thirds of 1..n
        self.line("entropicline", args)

    def modular(self, args: list[str]) -> None:
        """ISS: every run of ``mod`` cells has distinct residues modulo ``mod``; sudoku-cp's modular line is
        the case mod 3."""
        if int(args[0]) != 3:
            raise Unsupported(f"Modular with mod {int(args[0])}")
        self.line("modularline", args[1:])

    # --- outside clues ---

    def outside(self, key: str, place: tuple[int, int], value: str, **more: Any) -> None:
        self.append(key, {"cell": f"R{place[0]}C{place[1]}", "value": str(int(value)), **more})

    def line_place(self, line_id: str, forward: bool) -> tuple[int, int]:
        """The f-puzzles place of a clue on ISS's row or column ``R3`` / ``C3``, read forward (from the
        left or the top, ISS's direction 1) or backward."""
        index, end = int(line_id[1:]), 0 if forward else self.n + 1
        if line_id[0] == "R":
            return index, end
        if line_id[0] == "C":
            return end, index
        raise ValueError(f"an outside clue on {line_id!r}, neither a row nor a column")

    def double_line(self, key: str, args: list[str]) -> None:
        """ISS's ``Kind~R3~forward~backward`` (either clue may be empty)."""
        line_id, *clues = args
        for forward, value in zip((True, False), clues, strict=False):
            if value.strip():
                self.outside(key, self.line_place(line_id, forward), value)

    def xsum(self, args: list[str]) -> None:
        self.double_line("xsum", args)

    def skyscraper(self, args: list[str]) -> None:
        self.double_line("skyscraper", args)

    def sandwich(self, args: list[str]) -> None:
        """ISS's ``Sandwich~value~R3``: one clue, read from the left or the top."""
        self.outside("sandwichsum", self.line_place(args[1], True), args[0])

    def little_killer(self, args: list[str]) -> None:
        """ISS's ``LittleKiller~value~R1C3`` names the diagonal by the cell it starts at
        (``LittleKiller.cellMap``): from the left column down-right, from the right column up-left, from
        the top row down-left, from the bottom row up-right, in that order of precedence. The f-puzzles
        clue stands one step before that cell (at a corner for the two long diagonals)."""
        row, col = cell_of(args[1], self.n)
        n = self.n
        if col == 0 and row <= n - 2:
            step, direction = (1, 1), "DR"
        elif col == n - 1 and 1 <= row <= n - 2:
            step, direction = (-1, -1), "UL"
        elif row == 0 and col >= 1:
            step, direction = (1, -1), "DL"
        elif row == n - 1 and 1 <= col <= n - 2:
            step, direction = (-1, 1), "UR"
        else:
            raise ValueError(f"no ISS little killer starts at {args[1]}")
        place = (row + 1 - step[0], col + 1 - step[1])
        self.outside("littlekillersum", place, args[0], direction=direction)

    # --- cell marks ---

    def quad(self, args: list[str]) -> None:
        """ISS's ``Quad~R1C1~values``: the 2x2 square from that top-left cell; a value listed twice must
        appear twice (``RequiredValues``, not strict), as in sudoku-cp."""
        row, col = cell_of(args[0], self.n)
        if row >= self.n - 1 or col >= self.n - 1:
            raise ValueError(f"a quad at {args[0]} leaves the grid")
        cells = [f"R{row + r + 1}C{col + c + 1}" for r in (0, 1) for c in (0, 1)]
        self.append("quadruple", {"cells": cells, "values": [int(v) for v in args[1:]]})

    def same_values(self, args: list[str]) -> None:
        """ISS's ``SameValues~sets~cells``: the cells cut into ``sets`` sets of equal size, each holding the
        same multiset of digits. Sets of one cell (all the cells equal) are f-puzzles clones; larger sets
        are a multiset condition, not a clone's cell-for-cell one."""
        sets, cells = int(args[0]), self.names(args[1:])
        if sets < len(cells):
            raise Unsupported("SameValues of sets larger than one cell")
        for other in cells[1:]:
            self.append("clone", {"cells": [cells[0]], "cloneCells": [other]})

    def greater_than(self, args: list[str]) -> None:
        """ISS: each cell greater than every later cell of the list orthogonally next to it; gathered
        here and stated by ``finish`` as minimum and maximum cells when they are exactly that."""
        for a, b in self.adjacent_pairs(args):
            self.greater.add((a, b))

    def neighbours(self, name: str) -> set[str]:
        row, col = (int(x) - 1 for x in name[1:].split("C"))
        around = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        return {f"R{r + 1}C{c + 1}" for r, c in around if 0 <= r < self.n and 0 <= c < self.n}

    def extremes(self) -> None:
        """The GreaterThan pairs as f-puzzles maximum cells (greater than each orthogonal neighbour) and
        minimum cells (less than each); ``Unsupported`` when some pair is neither."""
        if not self.greater:
            return
        above: dict[str, set[str]] = {}
        below: dict[str, set[str]] = {}
        for a, b in self.greater:
            above.setdefault(a, set()).add(b)
            below.setdefault(b, set()).add(a)
        highs = sorted(c for c, cells in above.items() if cells == self.neighbours(c))
        lows = sorted(c for c, cells in below.items() if cells == self.neighbours(c))
        covered = {(c, d) for c in highs for d in self.neighbours(c)}
        covered |= {(d, c) for c in lows for d in self.neighbours(c)}
        if covered != self.greater:
            raise Unsupported("GreaterThan other than minimum or maximum cells")
        for c in highs:
            self.append("maximum", {"cell": c})
        for c in lows:
            self.append("minimum", {"cell": c})

    def windoku(self, args: list[str]) -> None:
        rows, cols = box_shape(self.n)
        for top in range(1, self.n - rows, rows + 1):
            for left in range(1, self.n - cols, cols + 1):
                window = [f"R{top + r + 1}C{left + c + 1}" for r in range(rows) for c in range(cols)]
                self.append("extraregion", {"cells": window})

    def jigsaw(self, args: list[str]) -> None:
        """The layout's regions, placed by ``finish``: they replace the boxes only beside ``NoBoxes``."""
        layout = args[-1]
        if len(layout) != self.n * self.n or set(Counter(layout).values()) != {self.n}:
            raise Unsupported("Jigsaw with regions of other sizes")
        regions: dict[str, list[str]] = {}
        for cell, ch in enumerate(layout):
            regions.setdefault(ch, []).append(f"R{cell // self.n + 1}C{cell % self.n + 1}")
        self.regions = list(regions.values())

    def no_boxes(self, args: list[str]) -> None:
        """Placed by ``finish``."""

    def finish(self, kinds: list[str]) -> None:
        """ISS keeps the boxes unless told ``NoBoxes``: a jigsaw beside boxes is extra regions, and a jigsaw
        with ``NoBoxes`` is f-puzzles' regions; ``NoBoxes`` alone (rows and columns only) has no
        f-puzzles form."""
        if "NoBoxes" in kinds:
            if self.regions is None:
                raise Unsupported("NoBoxes without a jigsaw")
            for i, region in enumerate(self.regions):
                for name in region:
                    row, col = (int(x) - 1 for x in name[1:].split("C"))
                    self.data["grid"][row][col]["region"] = i
        else:
            for region in self.regions or []:
                self.append("extraregion", {"cells": region})
        self.extremes()
        self.check_semantics(kinds)

    def negative(self, *kinds: str) -> None:
        self.data["negative"] = sorted({*self.data.get("negative", []), *kinds})

    def check_semantics(self, kinds: list[str]) -> None:
        """Refuse the few combinations where sudoku-cp's negative rules and ISS's differ: sudoku-cp leaves
        every marked pair out of a negative rule, and drops anti-consecutive on a white dot's pair."""
        if "StrictKropki" in kinds and self.marked["xv"] - self.marked["kropki"]:
            raise Unsupported("StrictKropki beside X/V marks")
        if "StrictXV" in kinds and self.marked["kropki"] - self.marked["xv"]:
            raise Unsupported("StrictXV beside kropki dots")
        if "AntiConsecutive" in kinds and self.marked["white"]:
            raise Unsupported("AntiConsecutive with white dots")


_FLAGS = {
    "AntiKnight": "antiknight",
    "AntiKing": "antiking",
    "AntiConsecutive": "nonconsecutive",
    "DisjointSets": "disjointgroups",
}
_MARKS = {
    "WhiteDot": ("difference", None, "kropki"),
    "BlackDot": ("ratio", None, "kropki"),
    "X": ("xv", "X", "xv"),
    "V": ("xv", "V", "xv"),
}
#: The other kinds, by the builder method that takes their arguments.
_METHODS = {
    "": "givens",
    "Shape": "shape",
    "Cage": "cage",
    "Thermo": "thermo",
    "Arrow": "arrow",
    "PillArrow": "pill_arrow",
    "Windoku": "windoku",
    "Jigsaw": "jigsaw",
    "NoBoxes": "no_boxes",
    "Diagonal": "diagonal",
    "StrictKropki": "strict_kropki",
    "StrictXV": "strict_xv",
    "Renban": "renban",
    "Whisper": "whisper",
    "Palindrome": "palindrome",
    "Between": "between",
    "RegionSumLine": "region_sum_line",
    "Entropic": "entropic",
    "Modular": "modular",
    "LittleKiller": "little_killer",
    "Sandwich": "sandwich",
    "XSum": "xsum",
    "Skyscraper": "skyscraper",
    "Quad": "quad",
    "SameValues": "same_values",
    "GreaterThan": "greater_than",
}
#: ISS's kinds that become the constraint kinds of ``sudoku_cp.rules.kinds`` (GreaterThan as minimum and
#: maximum cells, SameValues as clones), and ``Pencilmarks``: givens of several digits, the odd and even
#: cells; ``--kinds new`` selects the entries using any of them.
NEW_KINDS = (
    "Renban",
    "Whisper",
    "Palindrome",
    "Between",
    "RegionSumLine",
    "Entropic",
    "Modular",
    "LittleKiller",
    "Sandwich",
    "XSum",
    "Skyscraper",
    "Pencilmarks",
    "GreaterThan",
    "Quad",
    "SameValues",
)
SUPPORTED = frozenset({*_FLAGS, *_MARKS, *_METHODS})


def to_fpuzzles(canonical: str) -> dict[str, Any]:
    """The f-puzzles object of a canonical ISS constraint string; ``Unsupported`` naming every kind
    sudoku-cp cannot hold (comma-separated), ``ValueError`` for a malformed string."""
    parts = constraint_parts(canonical)
    missing = sorted({kind for kind, _ in parts if kind not in SUPPORTED})
    if missing:
        raise Unsupported(", ".join(missing))
    builder = FPuzzlesBuilder(grid_size(parts))
    for kind, args in parts:
        builder.add(kind, args)
    builder.finish([kind for kind, _ in parts])
    return builder.data


def solution_cells(text: str, n: int) -> tuple[int, ...] | None:
    """The digits of a published solution string (16x16 writes A-P for 1-16), or None if unreadable."""
    if len(text) != n * n:
        return None
    try:
        return tuple(int(ch) if n <= 9 else ord(ch.upper()) - ord("A") + 1 for ch in text)
    except ValueError:
        return None


# --- the converted set -------------------------------------------------------------------------------------


@dataclass
class Case:
    """One converted puzzle: its f-puzzles text, its kinds and what was checked before any timing."""

    entry: Entry
    fpuzzles: str
    n: int
    kinds: list[str]
    solution: tuple[int, ...] | None


def convert(entry: Entry) -> Case:
    """The case of one entry; ``Unsupported`` when sudoku-cp cannot hold it, ``ValueError`` on a
    conversion or reading error, or when the published solution breaks the converted rules."""
    import sudoku_cp

    if entry.canonical is None:
        raise Unsupported(entry.error or "no constraint string")
    data = to_fpuzzles(entry.canonical)
    text = json.dumps(data, separators=(",", ":"))
    [puzzle] = sudoku_cp.parse(text)  # sudoku-cp's own f-puzzles reader
    n = puzzle.rules.n
    solution = solution_cells(entry.solution, n) if entry.solution else None
    if entry.solution and solution is None:
        raise ValueError("the published solution cannot be read")
    if solution is not None:
        broken = puzzle.rules.violations(solution)
        if broken:
            raise ValueError(f"the published solution breaks the converted rules: {broken[0].message}")
        if any(g and g != s for g, s in zip(puzzle.cells, solution, strict=True)):
            raise ValueError("the published solution does not keep the givens")
    return Case(entry, text, n, iss_kinds(entry.canonical), solution)


def convert_all(entries: list[Entry]) -> tuple[list[Case], Counter[str], list[tuple[str, str]]]:
    """The cases, the tally of skipped entries by the kind that kept them out, and conversion errors."""
    cases: list[Case] = []
    skipped: Counter[str] = Counter()
    errors: list[tuple[str, str]] = []
    for entry in entries:
        try:
            cases.append(convert(entry))
        except Unsupported as exc:
            skipped.update(str(exc).split(", "))
        except Exception as exc:  # a conversion error: reported prominently, never timed
            errors.append((entry.name, f"{type(exc).__name__}: {exc}"))
    return cases, skipped, errors


def skipped_entries(entries: list[Entry]) -> list[tuple[str, str]]:
    """(name, reason) of each entry left out, for ``--list-skipped``."""
    out = []
    for entry in entries:
        try:
            convert(entry)
        except Unsupported as exc:
            out.append((entry.name, str(exc)))
        except Exception:
            continue
    return out


# --- running one measurement -------------------------------------------------------------------------------


@dataclass
class Run:
    """One measured run: seconds (CPU for a backend, wall for the whole-process default, ISS's ms / 1000),
    the count found (``0``, ``1``, ``2+``, ``?``), or ``killed`` / an ``error``."""

    seconds: float | None = None
    count: str = "?"
    killed: bool = False
    error: str | None = None
    problems: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def _reader(stream: Any, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _kill(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # the child's whole session: pools and solver threads too
    proc.wait()


def child_env() -> dict[str, str]:
    """A child's environment: OpenBLAS to one thread unless the user chose, as in the command
    (``cli._one_blas_thread``): its idle threads wait busily, and their CPU counted as the search's (a 13 ms
    search measured 21-38 ms)."""
    return {"OPENBLAS_NUM_THREADS": "1", **os.environ}


def run_backend(backend: str, path: Path, solution: str | None, timeout: float, repeat: int) -> Run:
    """One backend on one puzzle in a child process, killed ``timeout`` seconds after its warm-up."""
    command = [sys.executable, __file__, "--child", backend, str(path), "--repeat", str(repeat)]
    if solution:
        command += ["--child-solution", solution]
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True, env=child_env()
        )
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
        try:
            results, killed = _collect(lines, timeout)
        except BaseException:  # the benchmark stopped (Ctrl-C, SIGTERM): its child goes with it
            _kill(proc)
            raise
        if killed:
            _kill(proc)
        else:
            proc.wait()
        err.seek(0)
        stderr = err.read().strip()
    if results:
        best = min(results, key=lambda r: r["cpu"])
        return Run(best["cpu"], best["count"], problems=best["problems"], extra={"wall": best["wall"]})
    if killed:
        return Run(killed=True)
    return Run(error=(stderr.splitlines() or [f"exit {proc.returncode}"])[-1])


def _collect(lines: queue.Queue[str | None], timeout: float) -> tuple[list[dict[str, Any]], bool]:
    """The child's result lines until it ends; killed is True when its clock ran past ``timeout``."""
    results: list[dict[str, Any]] = []
    deadline = time.monotonic() + SETUP_SECONDS
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return results, True
        if line is None:
            return results, False
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        if record.get("ready"):
            deadline = time.monotonic() + timeout
        else:
            results.append(record)


def run_process(
    command: list[str], timeout: float, cwd: Path | None = None
) -> tuple[str | None, float, float]:
    """(standard output or None when killed, wall seconds, CPU seconds of the process and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        out = None
    except BaseException:  # the benchmark stopped: its child goes with it (it runs in its own session)
        _kill(proc)
        raise
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


def sudoku_cp_command() -> list[str]:
    """How a user runs sudoku-cp here: the venv's script beside this Python, else the module."""
    script = Path(sys.executable).parent / "sudoku-cp"
    return [str(script)] if script.exists() else [sys.executable, "-m", "sudoku_cp"]


def run_default(path: Path, timeout: float) -> Run:
    """``sudoku-cp count FILE`` with no ``--backend``: the whole process, as the user waits for it."""
    out, wall, cpu = run_process([*sudoku_cp_command(), "count", str(path)], timeout)
    if out is None:
        return Run(killed=True, extra={"cpu": cpu})
    first = (out.split() or ["?"])[0]
    count = {"0": "0", "1": "1", "2+": "2+"}.get(first, "?")
    return Run(wall, count, error=None if count != "?" else f"count printed {first!r}", extra={"cpu": cpu})


def run_iss(iss: Path, path: Path, timeout: float) -> Run:
    """ISS's own benchmark on the entry's constraint string: best ``ms`` of 3 solves to two solutions."""
    command = ["node", "tools/perf/benchmark_puzzles.js", "--max-backtracks", "none", "--solutions", "2"]
    command += ["--json", "--repeat", "3", "--input-file", str(path)]
    out, wall, _ = run_process(command, timeout * 3, cwd=iss)
    if out is None:
        return Run(killed=True)
    try:
        [row] = json.loads(out)
    except (ValueError, TypeError):
        return Run(error="no JSON from benchmark_puzzles.js")
    count = {0: "0", 1: "1"}.get(row["solutions"], "2+")
    return Run(row["ms"] / 1000, count, extra={"status": row["status"], "process_wall": wall})


# --- the child: one backend on one puzzle ------------------------------------------------------------------


def child_main(backend: str, path: Path, solution: str | None, repeat: int) -> None:
    """Load and warm up ``backend``, then time ``enumerate(limit=2)``; one JSON line per run."""
    import sudoku_cp
    from sudoku_cp import Puzzle, Rules, make_backend
    from sudoku_cp.compare import parse_config

    config = parse_config(backend)  # a name, or options too: dfs[heuristic=conflicts]
    options = dict(config.options)
    [puzzle] = sudoku_cp.parse(path.read_text())
    known = solution_cells(solution, puzzle.rules.n) if solution else None
    make_backend(config.backend, **options).enumerate(Puzzle.empty(Rules.classic(2, 2)), limit=2)
    if known is not None:  # the rules' tables and kernels, on a grid with nothing left to search
        make_backend(config.backend, **options).enumerate(Puzzle(puzzle.rules, known), limit=2)
    else:  # no solution to fill in (a puzzle without one): the same tables, on the empty grid, stopped soon
        make_backend(config.backend, **options).enumerate(Puzzle.empty(puzzle.rules), limit=2, time_limit=0.2)
    _emit({"ready": True})
    for _ in range(repeat):
        engine = make_backend(config.backend, **options)
        cpu, wall = time.process_time(), time.perf_counter()
        found = engine.enumerate(puzzle, limit=2)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        _emit({"cpu": cpu, "wall": wall, "count": _count(found), "problems": _check(puzzle, found, known)})
        if cpu > REPEAT_BELOW:
            break


def _emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def _count(found: Any) -> str:
    if found.timed_out:
        return "?"
    if len(found.solutions) >= 2:
        return "2+"
    return str(len(found.solutions)) if found.complete else "?"


def _check(puzzle: Any, found: Any, known: tuple[int, ...] | None) -> list[str]:
    """What is wrong with a backend's answer: a solution that breaks the rules or the givens, a unique
    solution other than the published one, or no solution where the published one holds."""
    problems = []
    for sol in found.solutions:
        if puzzle.rules.violations(sol.cells) or any(
            g and g != s for g, s in zip(puzzle.cells, sol.cells, strict=True)
        ):
            problems.append("a solution that breaks the rules")
    if known is not None and found.complete and not found.timed_out:
        if not found.solutions:
            problems.append("no solution, but the published solution keeps every rule")
        elif len(found.solutions) == 1 and found.solutions[0].cells != known:
            problems.append("a unique solution other than the published one")
    return problems


# --- the table ---------------------------------------------------------------------------------------------


@dataclass
class Row:
    """The figures of one puzzle, as the table and ``--json`` show them."""

    name: str
    source: str
    kinds: str
    backends: dict[str, Run]
    default: Run | None
    js: Run | None
    problems: list[str] = field(default_factory=list)

    def best(self, timeout: float) -> tuple[float, bool]:
        """The best backend's seconds, and whether that is a lower bound (every backend killed)."""
        done = [r.seconds for r in self.backends.values() if r.seconds is not None]
        return (min(done), False) if done else (timeout, True)


SHORT_KINDS = {
    "Cage": "killer",
    "Thermo": "thermo",
    "Arrow": "arrow",
    "PillArrow": "pill",
    "WhiteDot": "white",
    "BlackDot": "black",
    "AntiKnight": "anti-knight",
    "AntiKing": "anti-king",
    "AntiConsecutive": "anti-consec",
    "Diagonal": "diagonal",
    "DisjointSets": "disjoint",
    "StrictKropki": "strict-kropki",
    "StrictXV": "strict-XV",
    "X": "X",
    "V": "V",
    "Whisper": "whispers",
    "Between": "between",
    "RegionSumLine": "region-sum",
    "LittleKiller": "little-killer",
    "XSum": "X-sum",
    "Pencilmarks": "odd/even",
    "GreaterThan": "min/max",
    "SameValues": "clone",
}


def kinds_label(case: Case) -> str:
    kinds = [SHORT_KINDS.get(k, k.lower()) for k in case.kinds if k != "NoBoxes"] or ["classic"]
    if "Jigsaw" in case.kinds and "NoBoxes" not in case.kinds:
        kinds = [k.replace("jigsaw", "jigsaw+boxes") for k in kinds]
    return ("" if case.n == 9 else f"{case.n}x{case.n} ") + ",".join(kinds)


def fmt_seconds(run: Run | None, timeout: float) -> str:
    if run is None:
        return "-"
    if run.killed:
        return f">{timeout:g} s"
    if run.seconds is None:
        return "error"
    return fmt_s(run.seconds)


def fmt_s(s: float) -> str:
    if s < 0.001:
        return f"{s * 1000:.2f} ms"
    if s < 0.01:
        return f"{s * 1000:.1f} ms"
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def fmt_default_cpu(run: Run | None) -> str:
    """The whole-process CPU of the default run (with its worker processes), ``-`` when it was killed."""
    if run is None or run.killed or "cpu" not in run.extra:
        return "-"
    return fmt_s(run.extra["cpu"])


def fmt_ratio(ratio: float | None, bound: bool) -> str:
    if ratio is None:
        return "-"
    text = f"{ratio:.2f}" if ratio < 10 else f"{ratio:,.0f}"
    return (">" if bound else "") + text


def ratio_of(row: Row, timeout: float) -> tuple[float | None, bool]:
    if row.js is None or row.js.seconds is None or row.js.seconds <= 0:
        return None, False
    best, bound = row.best(timeout)
    return best / row.js.seconds, bound


def count_of(row: Row) -> str:
    counts = [r.count for r in row.backends.values() if r.count != "?"]
    return Counter(counts).most_common(1)[0][0] if counts else "?"


def table(rows: list[Row], backends: list[str], timeout: float) -> str:
    head = ["puzzle", "kinds", "count", *backends, "default", "def CPU", "JS", "best/JS"]
    body = []
    for row in rows:
        ratio, bound = ratio_of(row, timeout)
        times = [fmt_seconds(row.backends.get(b), timeout) for b in backends]
        body.append(
            [
                row.name,
                row.kinds,
                count_of(row),
                *times,
                fmt_seconds(row.default, timeout),
                fmt_default_cpu(row.default),
                fmt_seconds(row.js, timeout * 3),
                fmt_ratio(ratio, bound),
            ]
        )
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]

    def fmt(line: list[str]) -> str:
        cells = [
            c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(head), rule, *(fmt(line) for line in body)])


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def summary(rows: list[Row], backends: list[str], timeout: float) -> list[str]:
    lines = []
    ratios = [(ratio_of(r, timeout), r.name) for r in rows]
    known = [(ratio, bound, name) for (ratio, bound), name in ratios if ratio is not None]
    if known:
        bounded = sum(bound for _, bound, _ in known)
        note = (
            f" ({bounded} with every backend killed, counted at {timeout:g} s: a lower bound)"
            if bounded
            else ""
        )
        mean = geomean([k[0] for k in known])
        lines.append(f"best backend / JS, geometric mean: {mean:.2f} over {len(known)} puzzles{note}")
        worst = max(known)
        lines.append(f"worst best/JS: {fmt_ratio(worst[0], worst[1])} ({worst[2]})")
        for b in backends:
            runs = [(r.backends[b], r.js) for r in rows if _has_js(r) and b in r.backends]
            pairs = [(timeout if run.killed else run.seconds, js.seconds) for run, js in runs]
            killed = sum(run.killed for run, _ in runs)
            mean = geomean([s / j for s, j in pairs if s is not None and j])
            note = f" ({killed} killed, counted at {timeout:g} s)" if killed else ""
            lines.append(f"{b} / JS, geometric mean: {mean:.2f}{note}")
    else:
        lines.append("no JS times, so no ratios (give --iss PATH with node installed)")
    defaults = [r.default for r in rows if r.default is not None]
    if defaults:
        fast = sum(d.seconds is not None and d.seconds < 1 for d in defaults)
        light = sum(not d.killed and d.extra.get("cpu", 1) < 1 for d in defaults)
        lines.append(
            f"default backend, whole process `sudoku-cp count FILE`, under 1 s: {fast} of {len(defaults)} "
            f"in wall time, {light} in CPU time"
        )
    return lines


def _has_js(row: Row) -> bool:
    return row.js is not None and row.js.seconds is not None and row.js.seconds > 0


def disagreements(row: Row) -> list[str]:
    """Every wrong or disagreeing answer of one puzzle, each naming who gave it."""
    found = [f"{b}: {p}" for b, run in row.backends.items() for p in run.problems]
    counts = {b: r.count for b, r in row.backends.items() if r.count != "?"}
    if row.default is not None and row.default.count != "?":
        counts["default"] = row.default.count
    if row.js is not None and row.js.count != "?":
        counts["JS"] = row.js.count
    if len(set(counts.values())) > 1:
        found.append("counts disagree: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    errors = {
        b: r.error
        for b, r in [*row.backends.items(), ("default", row.default), ("JS", row.js)]
        if r and r.error
    }
    found += [f"{who} failed: {error}" for who, error in errors.items()]
    return found


# --- the whole run -----------------------------------------------------------------------------------------


def measure(case: Case, index: int, work: Path, args: argparse.Namespace, backends: list[str]) -> Row:
    path = work / f"{index:03d}.json"
    path.write_text(case.fpuzzles + "\n")
    solution = case.entry.solution if case.solution is not None else None
    runs = {b: run_backend(b, path, solution, args.timeout, args.repeat) for b in backends}
    default = None if args.no_default else run_default(path, args.timeout)
    js = None
    if args.iss is not None and shutil.which("node") and not args.no_js:
        iss_input = work / f"{index:03d}.iss.txt"
        iss_input.write_text(case.entry.input)
        js = run_iss(args.iss, iss_input, args.timeout)
    row = Row(case.entry.name, case.entry.source, kinds_label(case), runs, default, js, [])
    row.problems = disagreements(row)
    return row


def select(entries: list[Entry], args: argparse.Namespace) -> list[Entry]:
    chosen = [e for e in entries if args.collections or e.source in EXAMPLE_SOURCES]
    if args.only:
        chosen = [e for e in chosen if args.only.lower() in e.name.lower()]
    if args.kinds:
        wanted = {k.strip() for k in args.kinds.split(",") if k.strip()}
        if "new" in wanted:
            wanted = (wanted - {"new"}) | set(NEW_KINDS)
        chosen = [e for e in chosen if e.canonical and wanted & set(iss_kinds(e.canonical))]
    return chosen


def backend_list(text: str | None) -> list[str]:
    from sudoku_cp import backend_names
    from sudoku_cp.compare import parse_configs

    if text:  # names, or configurations with options: dfs,dfs[heuristic=conflicts]
        return [c.label for c in parse_configs(text)]
    return [*DEFAULT_BACKENDS, *(b for b in backend_names() if b not in DEFAULT_BACKENDS)]


def get_entries(args: argparse.Namespace) -> list[Entry]:
    if args.entries is not None:
        return [_entry(r) for r in json.loads(args.entries.read_text())]
    if args.iss is None or not (args.iss / "data" / "collections.js").exists():
        raise SystemExit(
            "bench_published: give --iss PATH (a checkout of sigh/Interactive-Sudoku-Solver) or --entries"
        )
    if shutil.which("node") is None:
        raise SystemExit("bench_published: node is needed to read ISS's puzzles (or give --entries FILE)")
    entries = load_entries(args.iss)
    if args.save_entries is not None:
        args.save_entries.write_text(json.dumps([asdict(e) for e in entries]))
    return entries


def report_header(
    cases: list[Case], chosen: list[Entry], skipped: Counter[str], errors: list[tuple[str, str]]
) -> None:
    import sudoku_cp

    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    print(
        f"sudoku-cp {sudoku_cp.__version__} ({Path(sudoku_cp.__file__).parent}), node {node or 'absent'}, ",
        end="",
    )
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    print(
        f"{len(cases)} of {len(chosen)} entries converted; {len(chosen) - len(cases) - len(errors)} skipped."
    )
    if skipped:
        tally = ", ".join(f"{kind} {count}" for kind, count in skipped.most_common())
        print(f"skipped for (an entry counts once per kind it needs): {tally}")
    for name, error in errors:
        print(f"CONVERSION ERROR, not timed: {name}: {error}")
    print()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        child_main(args.child, Path(args.child_file), args.child_solution, args.repeat)
        return 0
    # a SIGTERM (``timeout``, a job system) unwinds as an exception, so that the children, each in its own
    # session to be killed whole, are killed too rather than left running
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    entries = select(get_entries(args), args)
    if args.list_skipped:
        for name, reason in skipped_entries(entries):
            print(f"{name}: {reason}")
        return 0
    cases, skipped, errors = convert_all(entries)
    backends = backend_list(args.backends)
    report_header(cases, entries, skipped, errors)
    sys.stdout.flush()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_published_") as tmp:
        for i, case in enumerate(cases):
            print(f"[{i + 1}/{len(cases)}] {case.entry.name}", file=sys.stderr, flush=True)
            rows.append(measure(case, i, Path(tmp), args, backends))
    print(table(rows, backends, args.timeout))
    print()
    for line in summary(rows, backends, args.timeout):
        print(line)
    wrong = [(r.name, p) for r in rows for p in r.problems]
    print()
    if wrong:
        print(f"DISAGREEMENTS AND WRONG ANSWERS ({len(wrong)}):")
        for name, problem in wrong:
            print(f"  {name}: {problem}")
    else:
        print("every answer agrees: backends, default run, JS and the published solutions")
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 1 if wrong or errors else 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Time sudoku-cp's backends against the Interactive Sudoku Solver (JavaScript) on ISS's "
        "published example puzzles that sudoku-cp's rules hold, counting to two solutions.",
        epilog="Puzzles: a checkout of the GitHub project sigh/Interactive-Sudoku-Solver (--iss), read "
        "with node; nothing is fetched.",
    )
    p.add_argument("--iss", type=Path, help="a checkout of Interactive-Sudoku-Solver (needs node)")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds before a run is killed (default 20)")
    p.add_argument(
        "--backends",
        help="comma-separated backends, options in brackets: dfs[heuristic=conflicts] (default: dfs,sat,"
        "cpsat and any other registered)",
    )
    p.add_argument("--only", help="only the puzzles whose name holds this text (any case)")
    p.add_argument(
        "--kinds",
        help="only the puzzles using one of these ISS kinds (comma-separated: Renban,Whisper,...; "
        "'new' for every kind sudoku_cp.rules.kinds reads, Pencilmarks for givens of several digits)",
    )
    p.add_argument(
        "--repeat", type=int, default=3, help="timed runs per backend, best kept; runs over 2 s once"
    )
    p.add_argument(
        "--collections", action="store_true", help="add ISS's named sets (TAREK_ALL, HS_KILLERS, ...)"
    )
    p.add_argument("--json", type=Path, metavar="OUT", help="save the rows as JSON here")
    p.add_argument("--no-js", action="store_true", help="leave out the JS column")
    p.add_argument("--no-default", action="store_true", help="leave out the whole-process default column")
    p.add_argument("--list-skipped", action="store_true", help="list the entries left out and why, and stop")
    p.add_argument(
        "--save-entries", type=Path, metavar="FILE", help="save ISS's entries as JSON (for --entries)"
    )
    p.add_argument("--entries", type=Path, metavar="FILE", help="read the entries from --save-entries' file")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("child_file", nargs="?", help=argparse.SUPPRESS)
    p.add_argument("--child-solution", help=argparse.SUPPRESS)
    return p.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
