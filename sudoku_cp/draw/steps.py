"""A solving step drawn on the candidates it was found on, the way HoDoKu and Sudoku Explainer show one.

The houses of the pattern are shaded yellow and its cells blue; the candidates of the pattern (its cells'
candidates of its digits) sit on green discs, the candidates the step eliminates on red discs under a red
stroke, a placement on a bright green disc. A chain's links join the candidates they link: a solid line for
a strong link, a dashed one for a weak link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..grid import Puzzle
from ..rules.constraints import cell_name
from .picture import Frame, compose

if TYPE_CHECKING:
    import drawsvg

    from ..candidates import Candidates
    from ..human.step import Step

__all__ = ["draw_step"]

#: Colours: houses and cells of the pattern, its candidates, eliminations, placements, links.
HOUSE, CELL, PATTERN = "#fff4c2", "#d6e6ff", "#9ee39e"
ELIMINATED, PLACED, LINK = "#ff8f8f", "#3ccf3c", "#e07b00"


def draw_step(
    step: Step, before: Candidates, givens: Puzzle | None = None, *, size: float | None = None
) -> drawsvg.Drawing:
    """The picture of ``step`` on ``before``, the candidates it was found on.

    ``givens`` (default: the digits of ``before``) are drawn in black, the other digits placed by then in
    blue. ``size`` is pixels per cell.
    """
    board = before.puzzle
    if step.rules != board.rules:
        raise UsageError(f"a step on {step.rules} cannot be drawn on {board.rules} candidates")
    givens = givens if givens is not None else board
    clash = any(g and g != v for g, v in zip(givens.cells, board.cells, strict=True))
    if givens.rules != board.rules or clash:
        raise UsageError("the givens do not fit the candidates: a given differs from the digit placed there")
    n, masks = board.n, before.masks
    for cell, digit in (*step.placements, *step.eliminations):
        if board.cells[cell] or not masks[cell] >> (digit - 1) & 1:
            raise UsageError(f"the step changes {cell_name(cell, n)}={digit}, not one of these candidates")
    eliminated = set(step.eliminations)
    placed = set(step.placements)
    pattern = {
        (cell, d)
        for cell in step.cells
        for d in step.digits
        if not board.cells[cell] and masks[cell] >> (d - 1) & 1
    }
    pattern |= {node for link in step.links for node in link[:2]}
    pattern -= eliminated | placed
    houses = {cell for h in step.houses for cell in step.rules.houses[h]}

    def under(dw: Any, frame: Frame) -> Any:
        s, r = frame.s, _radius(frame)
        layer = dw.Group()
        for cells, colour in ((houses - set(step.cells), HOUSE), (set(step.cells), CELL)):
            shade = dw.Path(fill=colour)
            for cell in sorted(cells):
                row, col = divmod(cell, n)
                shade.M(frame.x(col), frame.y(row)).h(s).v(s).h(-s).Z()
            layer.append(shade)
        for nodes, colour in ((pattern, PATTERN), (eliminated, ELIMINATED), (placed, PLACED)):
            discs = dw.Group(fill=colour)
            for cell, digit in sorted(nodes):
                discs.append(dw.Circle(*frame.candidate(cell, digit), r))
            layer.append(discs)
        return layer

    def over(dw: Any, frame: Frame) -> Any:
        s, r = frame.s, _radius(frame)
        layer = dw.Group(fill="none", stroke_linecap="round")
        strikes = dw.Path(stroke="#d00000", stroke_width=max(1.0, s / 28))
        for cell, digit in sorted(eliminated):
            x, y = frame.candidate(cell, digit)
            strikes.M(x - r, y + r).L(x + r, y - r)
        if eliminated:
            layer.append(strikes)
        width = max(1.0, s / 26)
        for strong in (True, False):
            dashes = {} if strong else {"stroke_dasharray": f"{s / 9:.1f}"}
            path = dw.Path(stroke=LINK, stroke_width=width, **dashes)
            for a, b, kind in step.links:
                if kind == strong:
                    (xa, ya), (xb, yb) = frame.candidate(*a), frame.candidate(*b)
                    length = max(1e-9, ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5)
                    dx, dy = (xb - xa) * r / length, (yb - ya) * r / length  # from disc edge to disc edge
                    path.M(xa + dx, ya + dy).L(xb - dx, yb - dy)
            if any(kind == strong for *_, kind in step.links):
                layer.append(path)
        return layer

    return compose(givens, board, before, size=size, under=under, over=over)


def _radius(frame: Frame) -> float:
    """The radius of a candidate's disc: a little under half its place in the cell's mini grid."""
    return frame.s / (2.6 * frame.per_side)
