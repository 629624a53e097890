"""Variant constraints drawn the way setters draw them (f-puzzles, SudokuPad): one layer under the grid
lines and one over the digits' places.

Every constraint kind (``rules.kinds``, the built-in ones included: extra regions, cages, thermometers,
arrows, kropki dots, X and V) is drawn from its own ``marks`` (``rules.kinds.base.Mark``), with no line
here for any kind: shades, lines, bulbs, pills, circles and squares under the grid lines, cage outlines,
dots, text and arrows over them (outside clues at their place, a cell's note in its top-left corner). A
circle holding text (a quadruple's digits) is one label at the middle of its cells, over the grid lines.
Clues outside the grid need a cell of room on each side: ``outside`` says when (``draw.picture`` widens
the frame). The named rules with houses or lines of their own (windoku, the diagonals) are drawn here.

Grid-wide rules that setters state in words (anti-knight, anti-king, non-consecutive, disjoint groups, the
negative rules) have no mark; every rule with cells of its own has one.
"""

from __future__ import annotations

import math
from typing import Any

from ..rules import Rules
from ..rules.kinds import Mark

__all__ = ["corner_labelled", "outside", "overlay", "underlay"]

SHADE, LINE = "#e6e6e6", "#7fa7d9"


def _centre(frame: Any, cell: int) -> tuple[float, float]:
    row, col = divmod(cell, frame.n)
    return frame.x(col + 0.5), frame.y(row + 0.5)


def underlay(dw: Any, frame: Any, rules: Rules) -> Any | None:
    """Shading of windows and extra regions, diagonals, then the lines, bulbs, pills, circles and squares
    of the kinds' marks; None when there is none."""
    n, s = frame.n, frame.s
    layer = dw.Group()
    if "windoku" in rules.named:
        for cell in sorted(_named_cells(rules, "windoku")):
            row, col = divmod(cell, n)
            layer.append(dw.Rectangle(frame.x(col), frame.y(row), s, s, fill=SHADE))
    marks = _marks(rules)
    for mark in marks:
        if mark.shape == "shade":
            layer.append(_shade(dw, frame, mark))
    for name, (start, end) in (("diagonal-", ((0, 0), (n, n))), ("diagonal+", ((0, n), (n, 0)))):
        if name in rules.named:
            (x0, y0), (x1, y1) = ((frame.x(c), frame.y(r)) for c, r in (start, end))
            layer.append(dw.Line(x0, y0, x1, y1, stroke=LINE, stroke_width=max(1.5, s / 16)))
    for shapes in (("bulb", "pill", "line"), ("circle", "square")):  # a line's end circles over it
        for mark in marks:
            if mark.shape in shapes and not (mark.shape == "circle" and mark.text):
                _add(layer, _UNDER[mark.shape](dw, frame, mark))
    return layer if layer.children else None


def _add(layer: Any, drawn: Any) -> None:
    """Append what a shape drew: one element, or a list of them (a cage's outline and its sum)."""
    for element in drawn if isinstance(drawn, list) else [drawn]:
        layer.append(element)


def _named_cells(rules: Rules, name: str) -> set[int]:
    """The cells of the houses a named rule adds (windoku's windows)."""
    from ..rules.named import NAMED

    houses, _ = NAMED[name](rules.n, rules.box)
    return {c for house in houses for c in house}


def _polyline(dw: Any, frame: Any, cells: tuple[int, ...], **style: Any) -> Any:
    path = dw.Path(fill="none", stroke_linecap="round", stroke_linejoin="round", **style)
    x, y = _centre(frame, cells[0])
    path.M(x, y)
    for cell in cells[1:]:
        path.L(*_centre(frame, cell))
    return path


def _bulb(dw: Any, frame: Any, mark: Mark) -> Any:
    """A thermometer: a round bulb in the first cell, and a line from it through the rest."""
    s = frame.s
    return [
        dw.Circle(*_centre(frame, mark.cells[0]), s * mark.radius, fill=mark.colour),
        _polyline(dw, frame, mark.cells, stroke=mark.colour, stroke_width=s * mark.width),
    ]


def _pill(dw: Any, frame: Any, mark: Mark) -> Any:
    """An arrow: a circle (or a pill around several cells), and a line from it through the rest of the
    cells to an arrowhead."""
    circle, line = mark.cells[: mark.size], mark.cells[mark.size :]
    s = frame.s
    group = dw.Group(fill="none", stroke=mark.colour, stroke_width=max(1.5, s / 18), stroke_linejoin="round")
    xs = [_centre(frame, c)[0] for c in circle]
    ys = [_centre(frame, c)[1] for c in circle]
    r = s * 0.4
    left, top = min(xs) - r, min(ys) - r
    group.append(dw.Rectangle(left, top, max(xs) - min(xs) + 2 * r, max(ys) - min(ys) + 2 * r, rx=r, ry=r))
    first = _centre(frame, line[0])
    start = min(
        circle, key=lambda c: sum((a - b) ** 2 for a, b in zip(_centre(frame, c), first, strict=True))
    )
    points = [_centre(frame, start), *(_centre(frame, c) for c in line)]  # from the circle's nearest cell
    (x0, y0), (x1, y1) = points[0], points[1]
    length = max(1e-9, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    points[0] = (x0 + (x1 - x0) * r / length, y0 + (y1 - y0) * r / length)  # start at the circle's edge
    path = dw.Path()
    path.M(*points[0])
    for point in points[1:]:
        path.L(*point)
    group.append(path)
    (xa, ya), (xb, yb) = points[-2], points[-1]
    length = max(1e-9, ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5)
    ux, uy = (xb - xa) / length, (yb - ya) / length
    head = s * 0.22
    wing = dw.Path()
    wing.M(xb - head * (ux - uy), yb - head * (uy + ux)).L(xb, yb).L(
        xb - head * (ux + uy), yb - head * (uy - ux)
    )
    group.append(wing)
    return group


def overlay(dw: Any, frame: Any, rules: Rules) -> Any | None:
    """The kinds' marks over the grid lines: cage outlines and sums, dots, X and V, labels, text and
    arrows; None when there is none."""
    layer = dw.Group()
    marks = _marks(rules)
    sharing: dict[tuple[float, float], list[int]] = {}  # outside clues by their place (their indices)
    for i, mark in enumerate(marks):
        if mark.shape == "text" and mark.at is not None:
            sharing.setdefault(mark.at, []).append(i)
    for i, mark in enumerate(marks):
        if mark.shape == "circle" and mark.text:
            layer.append(_label(dw, frame, mark))
        elif mark.shape == "text" and mark.at is not None and len(together := sharing[mark.at]) > 1:
            _add(layer, _text(dw, frame, mark, together.index(i), len(together)))
        elif mark.shape in _OVER:
            _add(layer, _OVER[mark.shape](dw, frame, mark))
    return layer if layer.children else None


def _cage(dw: Any, frame: Any, mark: Mark) -> Any:
    """A dashed outline just inside the cells' border, and the sum (``text``) in a corner."""
    n, s = frame.n, frame.s
    inset = s * 0.08
    members = set(mark.cells)
    path = dw.Path(
        fill="none", stroke=mark.colour, stroke_width=max(0.8, s / 40), stroke_dasharray=f"{s / 10:.1f}"
    )
    for cell in mark.cells:
        row, col = divmod(cell, n)
        x0, y0, x1, y1 = (
            frame.x(col) + inset,
            frame.y(row) + inset,
            frame.x(col + 1) - inset,
            frame.y(row + 1) - inset,
        )
        # each side without a cage neighbour, stretched to the neighbouring cell's inset line where the
        # outline turns, so that the dashes of two cells of one cage meet
        up, down = cell - n if row else -1, cell + n if row < n - 1 else -1
        left, right = cell - 1 if col else -1, cell + 1 if col < n - 1 else -1
        west, east = (2 * inset if k in members else 0 for k in (left, right))
        north, south = (2 * inset if k in members else 0 for k in (up, down))
        if up not in members:
            path.M(x0 - west, y0).H(x1 + east)
        if down not in members:
            path.M(x0 - west, y1).H(x1 + east)
        if left not in members:
            path.M(x0, y0 - north).V(y1 + south)
        if right not in members:
            path.M(x1, y0 - north).V(y1 + south)
    if not mark.text:
        return [path]
    row, col = divmod(min(mark.cells), n)
    return [
        path,
        dw.Text(mark.text, s * 0.22, frame.x(col) + inset * 1.3, frame.y(row) + inset * 1.2, fill=mark.colour,
                font_family=FONTS, dominant_baseline="hanging", _skip_check=True),
    ]  # fmt: skip


def _dot(dw: Any, frame: Any, mark: Mark) -> Any:
    """A kropki dot (a small circle, filled or open) or an X or a V on the edge between two cells."""
    s = frame.s
    (xa, ya), (xb, yb) = (_centre(frame, c) for c in mark.cells[:2])
    x, y = (xa + xb) / 2, (ya + yb) / 2
    if not mark.text:
        fill = mark.colour if mark.filled else "white"
        return dw.Circle(x, y, s * 0.12, fill=fill, stroke=mark.colour, stroke_width=max(1.0, s / 30))
    return [
        dw.Rectangle(x - s * 0.15, y - s * 0.15, s * 0.3, s * 0.3, fill="white"),
        dw.Text(mark.text, s * 0.3, x, y, fill=mark.colour, font_weight="bold", text_anchor="middle",
                dominant_baseline="central", font_family=FONTS),
    ]  # fmt: skip


# --- the kinds' marks ------------------------------------------------------------------------------------

SHAPES = ("line", "circle", "shade", "square", "text", "arrow", "bulb", "pill", "cage", "dot")
FONTS = "DejaVu Sans, Arial, sans-serif"


def _marks(rules: Rules) -> list[Mark]:
    """Every mark of every constraint's picture, in the order of ``rules.declared``; a shape the drawing
    does not know is an error (a kind's picture would silently be left out)."""
    n, marks = rules.n, []
    for variant in rules.declared:
        for mark in variant.marks(n):
            if mark.shape not in SHAPES:
                raise ValueError(f"a {variant.kind} mark of unknown shape {mark.shape!r}; known: {SHAPES}")
            marks.append(mark)
    return marks


def corner_labelled(rules: Rules) -> frozenset[int]:
    """The cells with a note in their top-left corner: a cage's sum (in its first cell, ``_cage``) or a
    cell's text (``_text``); their candidates are drawn below it (``picture.Frame.labelled``)."""
    cells: set[int] = set()
    for mark in _marks(rules):
        if mark.shape == "cage" and mark.text:
            cells.add(min(mark.cells))
        elif mark.shape == "text" and mark.at is None and mark.cells:
            cells.add(mark.cells[0])
    return frozenset(cells)


def outside(rules: Rules) -> bool:
    """True when a mark stands outside the grid (a sandwich's or little killer's clue): the picture then
    needs a cell of room on each side."""
    n = rules.n
    return any(m.at is not None and not all(0 <= a < n for a in m.at) for m in _marks(rules))


def _shade(dw: Any, frame: Any, mark: Mark) -> Any:
    s, path = frame.s, dw.Path(fill=mark.colour)
    for cell in mark.cells:
        row, col = divmod(cell, frame.n)
        path.M(frame.x(col), frame.y(row)).h(s).v(s).h(-s).Z()
    return path


def _line(dw: Any, frame: Any, mark: Mark) -> Any:
    """A line through the cells' centres; a line of one cell, a dot as wide as the line."""
    width = mark.width * frame.s
    if len(mark.cells) == 1:
        return dw.Circle(*_centre(frame, mark.cells[0]), width / 2, fill=mark.colour)
    return _polyline(dw, frame, mark.cells, stroke=mark.colour, stroke_width=width)


def _circles(dw: Any, frame: Any, mark: Mark) -> Any:
    """A circle in each cell: filled with the colour, or white inside an outline of it."""
    s = frame.s
    group = dw.Group(**_fill(mark, s))
    for cell in mark.cells:
        group.append(dw.Circle(*_centre(frame, cell), s * 0.4))
    return group


def _squares(dw: Any, frame: Any, mark: Mark) -> Any:
    s, side = frame.s, frame.s * 0.64
    group = dw.Group(**_fill(mark, s))
    for cell in mark.cells:
        x, y = _centre(frame, cell)
        group.append(dw.Rectangle(x - side / 2, y - side / 2, side, side))
    return group


def _fill(mark: Mark, s: float) -> dict[str, Any]:
    """A filled mark's colour, or an open one's outline of it around white."""
    if mark.filled:
        return {"fill": mark.colour}
    return {"fill": "white", "stroke": mark.colour, "stroke_width": max(1.0, s / 20)}


_UNDER = {"line": _line, "circle": _circles, "square": _squares, "bulb": _bulb, "pill": _pill}


def _text(dw: Any, frame: Any, mark: Mark, place: int = 0, among: int = 1) -> Any:
    """Text centred at its place (an outside clue, as large as a clue reads there), or small in the
    top-left corner of its first cell. Clues of several kinds at one place (a sandwich's and an X-sum's)
    share it: the ``place``-th of ``among`` smaller, one above the other, in the kinds' order."""
    s = frame.s
    if mark.at is not None:
        row, col = mark.at
        size, y = s * 0.5, frame.y(row)
        if among > 1:
            size = s * min(0.5, 0.85 / among)
            y += (place - (among - 1) / 2) * s * 0.95 / among
        return dw.Text(mark.text, size, frame.x(col), y, fill=mark.colour, font_family=FONTS,
                       text_anchor="middle", dominant_baseline="central", _skip_check=True)  # fmt: skip
    row, col = divmod(mark.cells[0], frame.n)
    inset = s * 0.08
    return dw.Text(mark.text, s * 0.3, frame.x(col) + inset, frame.y(row) + inset, fill=mark.colour,
                   font_family=FONTS, dominant_baseline="hanging", _skip_check=True)  # fmt: skip


def _label(dw: Any, frame: Any, mark: Mark) -> Any:
    """One circle at the middle of the cells (a quadruple's on the corner of its four) holding the text's
    words on a small square grid, over the grid lines."""
    s = frame.s
    centres = [_centre(frame, c) for c in mark.cells]
    x = sum(p[0] for p in centres) / len(centres)
    y = sum(p[1] for p in centres) / len(centres)
    words = mark.text.split() or [mark.text]
    k = math.isqrt(len(words) - 1) + 1
    rows = -(-len(words) // k)
    font = s * (0.3 if len(words) == 1 else 0.22)
    ink = "white" if mark.filled else mark.colour
    group = dw.Group(font_family=FONTS, font_size=font, fill=ink, text_anchor="middle",
                     dominant_baseline="central")  # fmt: skip
    group.append(
        dw.Circle(x, y, s * 0.32, fill=mark.colour if mark.filled else "white", stroke=mark.colour,
                  stroke_width=max(1.0, s / 30))
    )  # fmt: skip
    for i, word in enumerate(words):
        r, c = divmod(i, k)
        dx, dy = (c - (k - 1) / 2) * font * 0.8, (r - (rows - 1) / 2) * font
        group.append(dw.Text(word, font, x + dx, y + dy, _skip_check=True))
    return group


def _pointer(dw: Any, frame: Any, mark: Mark) -> Any:
    """A short arrow in the corner of its place toward the grid, along ``toward`` (a little killer's)."""
    s = frame.s
    if mark.at is not None:
        row, col = mark.at
    else:  # from its cell's centre
        row, col = (k + 0.5 for k in divmod(mark.cells[0], frame.n))
    dr, dc = mark.toward or (0, 1)
    scale = max(abs(dr), abs(dc), 1)
    dr, dc = dr / scale, dc / scale
    (x0, y0), (x1, y1) = ((frame.x(col + dc * t), frame.y(row + dr * t)) for t in (0.24, 0.46))
    length = max(1e-9, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = s * 0.1
    path = dw.Path(fill="none", stroke=mark.colour, stroke_width=max(1.2, s / 25), stroke_linecap="round",
                   stroke_linejoin="round")  # fmt: skip
    path.M(x0, y0).L(x1, y1)
    path.M(x1 - head * (ux - uy), y1 - head * (uy + ux)).L(x1, y1).L(
        x1 - head * (ux + uy), y1 - head * (uy - ux)
    )
    return path


_OVER = {"cage": _cage, "dot": _dot, "text": _text, "arrow": _pointer}
