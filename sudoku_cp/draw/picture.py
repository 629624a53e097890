"""The grid picture: cells, region borders, givens, solved digits and candidates, as a ``drawsvg`` drawing.

Layout follows the apps setters use (f-puzzles, SudokuPad, HoDoKu): thin cell lines, thick lines wherever
two neighbouring cells lie in different regions (boxes, or jigsaw regions drawn as their shapes), givens in
black, digits a solver placed in blue, candidates as small grey digits at fixed places in their cell (digit
d at row ``(d - 1) // k``, column ``(d - 1) % k`` of a k x k mini grid), so a digit is found at a glance.
Shared styles sit on one group per layer, and a line of candidates is one element: a thousand 9x9
candidate grids take a few seconds.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import MissingPackageError, UsageError
from ..grid import Puzzle, as_puzzle, symbol
from ..optional import optional_import
from .variants import corner_labelled, outside, overlay, underlay

if TYPE_CHECKING:
    import drawsvg

    from ..candidates import Candidates

__all__ = ["Frame", "Gallery", "compose", "draw", "drawsvg_module", "repr_svg", "save"]

#: Colours: givens, digits a solver placed, candidates, thin and thick lines.
GIVEN, PLACED, CANDIDATE, THIN, THICK = "#000000", "#1a56c4", "#6b6b6b", "#9a9a9a", "#000000"
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
#: The advance of every glyph of a monospaced font, in em (0.6 in DejaVu Sans Mono, Menlo and Consolas).
MONO_ADVANCE = 0.602


def drawsvg_module() -> ModuleType:
    """The ``drawsvg`` package, or ``MissingPackageError`` saying which extra to install."""
    return optional_import("drawsvg", "pictures", "draw")


#: The smallest candidate digit, in pixels, that reads at a PNG's own size (a 25x25 grid's cells of 30
#: pixels gave 5x5 candidates of 4.8 pixels: grey specks).
MIN_CANDIDATE_FONT = 9.0
#: A candidate's font size per pixel of its place in the cell's k x k mini grid.
CANDIDATE_FONT = 0.8
#: The share of a cell's height a note in its top-left corner takes (``Frame.labelled``).
LABEL_ROOM = 0.28


def cell_size(n: int, candidates: bool = False) -> float:
    """Pixels per cell: large for small grids, smaller for big ones, so 4x4 to 25x25 stay legible; with
    ``candidates``, large enough that they are ``MIN_CANDIDATE_FONT`` pixels or more (16x16 and up)."""
    size = 44.0 if n <= 9 else 36.0 if n <= 16 else 30.0
    if candidates:
        k = math.isqrt(n - 1) + 1  # the side of a cell's mini grid (Frame.per_side)
        size = max(size, float(math.ceil(k * MIN_CANDIDATE_FONT / CANDIDATE_FONT)))
    return size


@dataclass(frozen=True)
class Frame:
    """Where things go: n cells of ``s`` pixels after a margin of ``m``. ``labelled``: the cells with a
    note in their top-left corner (a cage's sum), whose candidates keep below it."""

    n: int
    s: float
    m: float
    labelled: frozenset[int] = frozenset()

    @property
    def side(self) -> float:
        return self.n * self.s + 2 * self.m

    def x(self, col: float) -> float:
        return self.m + col * self.s

    def y(self, row: float) -> float:
        return self.m + row * self.s

    @property
    def per_side(self) -> int:
        """k: a cell's candidates sit on a k x k mini grid (k = ceil(sqrt(n)))."""
        return math.isqrt(self.n - 1) + 1

    def candidate(self, cell: int, digit: int) -> tuple[float, float]:
        """The centre of ``digit``'s place in ``cell``: row ``(d - 1) // k``, column ``(d - 1) % k`` of the
        cell's k x k mini grid."""
        k = self.per_side
        row, col = divmod(cell, self.n)
        r, c = divmod(digit - 1, k)
        if cell in self.labelled:  # the mini grid below the corner's note (a cage's sum over the 1)
            return self.x(col + (c + 0.5) / k), self.y(row + LABEL_ROOM + (r + 0.5) * (1 - LABEL_ROOM) / k)
        return self.x(col + (c + 0.5) / k), self.y(row + (r + 0.5) / k)


def draw(
    puzzle: Puzzle | str,
    solution: Puzzle | None = None,
    candidates: Candidates | None = None,
    *,
    regions: Sequence[int] | None = None,
    size: float | None = None,
) -> drawsvg.Drawing:
    """The picture of ``puzzle``: with ``solution`` its other digits in blue, with ``candidates`` the
    candidates of its empty cells in small grey digits, and its variant constraints as setters draw them
    (``draw.variants``: every constraint kind of ``rules.kinds`` from its own marks, cages, thermometers,
    arrows, dots, X and V included, and the windows and diagonals of the named rules; clues outside the
    grid widen the picture by a cell on each side).

    ``regions`` gives each cell's region number (default: the puzzle's boxes); thick lines separate
    regions. ``size`` is pixels per cell (default: ``cell_size(n)``, larger with candidates on big grids).
    """
    return compose(as_puzzle(puzzle), solution, candidates, regions=regions, size=size)


#: A layer of a picture beyond the grid's own: ``(drawsvg, frame) -> group`` or None (``draw.steps``).
Layer = Callable[[Any, "Frame"], Any]


def compose(
    puzzle: Puzzle,
    solution: Puzzle | None = None,
    candidates: Candidates | None = None,
    *,
    regions: Sequence[int] | None = None,
    size: float | None = None,
    under: Layer | None = None,
    over: Layer | None = None,
) -> drawsvg.Drawing:
    """``draw`` with a layer ``under`` the grid lines (shading) and one ``over`` everything (marks)."""
    dw = drawsvg_module()
    n = puzzle.n
    if solution is not None and solution.rules != puzzle.rules:
        raise UsageError(f"a {solution.rules} solution cannot be drawn over a {puzzle.rules} puzzle")
    if candidates is not None and candidates.puzzle.rules != puzzle.rules:
        raise UsageError(f"{candidates.puzzle.rules} candidates cannot be drawn on a {puzzle.rules} puzzle")
    regions = (
        tuple(regions)
        if regions is not None
        else tuple(map(puzzle.rules.region_of.__getitem__, range(n * n)))
    )
    if len(regions) != n * n:
        raise UsageError(f"{len(regions)} region numbers for a grid of {n * n} cells")
    if size is not None and not (isinstance(size, (int, float)) and 0 < size < 10_000):
        raise UsageError(f"a picture's size is pixels per cell, above 0 (and under 10,000), not {size!r}")
    s = size or cell_size(n, candidates is not None)
    margin = max(3.0, round(s / 11))
    if outside(puzzle.rules):  # clues beside the grid (sandwiches, little killers): a cell of room for them
        margin += s
    frame = Frame(n, s, margin, corner_labelled(puzzle.rules) if candidates is not None else frozenset())
    picture = dw.Drawing(frame.side, frame.side)
    picture.append(dw.Rectangle(0, 0, frame.side, frame.side, fill="white"))
    for layer in (underlay(dw, frame, puzzle.rules), under(dw, frame) if under is not None else None):
        if layer is not None:
            picture.append(layer)
    picture.append(_lines(dw, frame, regions))
    marked = overlay(dw, frame, puzzle.rules)
    if marked is not None:
        picture.append(marked)
    digits = _digits(dw, frame, puzzle, solution)
    if digits is not None:
        picture.append(digits)
    if candidates is not None:
        marks = _candidates(dw, frame, puzzle, solution, candidates)
        if marks is not None:
            picture.append(marks)
    top = over(dw, frame) if over is not None else None
    if top is not None:
        picture.append(top)
    return picture


def _lines(dw: Any, frame: Frame, regions: tuple[int, ...]) -> Any:
    """Thin lines between all cells, then thick ones along region borders and around the grid."""
    n, lines = frame.n, dw.Group(fill="none", stroke_linecap="square")
    thin = dw.Path(stroke=THIN, stroke_width=max(0.6, frame.s / 40))
    for k in range(1, n):
        thin.M(frame.x(k), frame.y(0)).V(frame.y(n))
        thin.M(frame.x(0), frame.y(k)).H(frame.x(n))
    lines.append(thin)
    thick = dw.Path(stroke=THICK, stroke_width=max(2.0, frame.s / 14))
    for a, b, horizontal in _borders(n, regions):
        if horizontal:  # a row boundary k from column a to column b
            thick.M(frame.x(a[1]), frame.y(a[0])).H(frame.x(b))
        else:  # a column boundary k from row a to row b
            thick.M(frame.x(a[1]), frame.y(a[0])).V(frame.y(b))
    lines.append(thick)
    lines.append(
        dw.Rectangle(
            frame.x(0),
            frame.y(0),
            n * frame.s,
            n * frame.s,
            stroke=THICK,
            stroke_width=max(2.5, frame.s / 11),
        )
    )
    return lines


def _borders(n: int, regions: tuple[int, ...]) -> list[tuple[tuple[int, int], int, bool]]:
    """Region borders inside the grid as maximal straight runs: ``((row, col), end, horizontal)``.

    A horizontal run lies on row boundary ``row`` from column ``col`` to ``end``; a vertical one on column
    boundary ``col`` from row ``row`` to ``end``.
    """
    runs: list[tuple[tuple[int, int], int, bool]] = []
    for k in range(1, n):
        start = None  # horizontal: between rows k - 1 and k
        for c in range(n + 1):
            split = c < n and regions[(k - 1) * n + c] != regions[k * n + c]
            if split and start is None:
                start = c
            elif not split and start is not None:
                runs.append(((k, start), c, True))
                start = None
        start = None  # vertical: between columns k - 1 and k
        for r in range(n + 1):
            split = r < n and regions[r * n + k - 1] != regions[r * n + k]
            if split and start is None:
                start = r
            elif not split and start is not None:
                runs.append(((start, k), r, False))
                start = None
    return runs


def _digits(dw: Any, frame: Frame, puzzle: Puzzle, solution: Puzzle | None) -> Any | None:
    """Givens in black, a solution's other digits in blue; None when there is nothing to write."""
    n, s = frame.n, frame.s
    font = s * (0.62 if n <= 9 else 0.56)
    groups = {GIVEN: dw.Group(fill=GIVEN, font_weight="bold"), PLACED: dw.Group(fill=PLACED)}
    for cell, given in enumerate(puzzle.cells):
        digit = given or (solution.cells[cell] if solution is not None else 0)
        if digit:
            row, col = divmod(cell, n)
            x, y = frame.x(col + 0.5), frame.y(row + 0.5)
            groups[GIVEN if given else PLACED].append(dw.Text(symbol(digit), font, x, y, _skip_check=True))
    drawn = [group for group in groups.values() if group.children]
    if not drawn:
        return None
    layer = dw.Group(font_family=FONT, font_size=font, text_anchor="middle", dominant_baseline="central")
    for group in drawn:
        layer.append(group)
    return layer


def _candidates(
    dw: Any, frame: Frame, puzzle: Puzzle, solution: Puzzle | None, candidates: Candidates
) -> Any | None:
    """Each empty cell's candidates, digit d at a fixed place of a k x k mini grid (k = ceil(sqrt(n))).

    A whole line of candidates across the grid is one text element whose glyphs are placed by an x list;
    in a monospaced font every glyph is ``MONO_ADVANCE`` em wide, so starting each half a glyph left of its
    place centres it (renderers differ on centring glyphs of an x list, not on this).
    """
    n, s = frame.n, frame.s
    k = frame.per_side
    step = s / k
    font = step * CANDIDATE_FONT
    layer = dw.Group(fill=CANDIDATE, font_family=MONO, font_size=font, dominant_baseline="central")
    shift = MONO_ADVANCE * font / 2
    offsets = [(c + 0.5) * step for c in range(k)]
    masks, cells = candidates.masks, puzzle.cells
    solved = solution.cells if solution is not None else (0,) * (n * n)
    for cell in sorted(frame.labelled):  # each digit at its own place, below the corner's note
        if not (cells[cell] or solved[cell]):
            for d in range(1, n + 1):
                if masks[cell] >> (d - 1) & 1:
                    x, y = frame.candidate(cell, d)
                    layer.append(dw.Text(symbol(d), font, f"{x - shift:.1f}", f"{y:.1f}", _skip_check=True))
    for row in range(n):
        xs: list[list[str]] = [[] for _ in range(k)]
        text: list[list[str]] = [[] for _ in range(k)]
        for col in range(n):
            cell = row * n + col
            if cells[cell] or solved[cell] or cell in frame.labelled:
                continue
            left, mask = frame.x(col) - shift, masks[cell]
            for d in range(1, n + 1):
                if mask >> (d - 1) & 1:
                    r, c = divmod(d - 1, k)
                    xs[r].append(f"{left + offsets[c]:.1f}")
                    text[r].append(symbol(d))
        top = frame.y(row)
        for r in range(k):
            if text[r]:
                y = f"{top + offsets[r]:.1f}"
                layer.append(dw.Text("".join(text[r]), font, " ".join(xs[r]), y, _skip_check=True))
    return layer if layer.children else None


def repr_svg(
    puzzle: Puzzle, solution: Puzzle | None = None, candidates: Candidates | None = None
) -> str | None:
    """The SVG text Jupyter shows for a puzzle, result or candidate grid; None (the text form is shown)
    when drawsvg is not installed."""
    try:
        drawsvg_module()
    except MissingPackageError:
        return None
    return draw(puzzle, solution, candidates).as_svg()


def save(picture: drawsvg.Drawing, path: str | Path, format: str | None = None) -> Path:
    """Write ``picture`` as SVG or PNG (``format``, default from the file's suffix); PNG needs cairosvg."""
    path = Path(path)
    format = (format or path.suffix.lstrip(".") or "svg").lower()
    if format == "svg":
        picture.save_svg(str(path))
    elif format == "png":
        optional_import("cairosvg", "PNG pictures", "draw")  # drawsvg renders PNG through it
        picture.save_png(str(path))
    else:
        raise UsageError(f"unknown picture format {format!r}; choose svg or png")
    return path


class Gallery:
    """Pictures side by side under their captions: Jupyter shows it as one row that wraps
    (``_repr_html_``), as the comparison notebooks show the hardest puzzle of each set."""

    def __init__(self, pictures: Mapping[str, drawsvg.Drawing]) -> None:
        self.pictures = dict(pictures)

    def _repr_html_(self) -> str:
        figures = "".join(
            f'<figure style="margin:0">{picture.as_svg(header="", randomize_ids=True)}'
            f'<figcaption style="text-align:center">{html.escape(caption)}</figcaption></figure>'
            for caption, picture in self.pictures.items()
        )
        return f'<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-end">{figures}</div>'
