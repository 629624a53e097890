"""Pictures of puzzles, solutions and candidate grids as SVG (and PNG), for notebooks and files.

Drawn with ``drawsvg`` (an optional extra: ``pip install 'sudoku-cp[draw]'``), imported only when a picture is
made. ``draw`` returns a ``drawsvg.Drawing``: it shows itself in Jupyter, and ``as_svg()``, ``save_svg``
and ``save_png`` write it; ``draw_step`` draws a solving step on the candidates it was found on. Puzzles,
results, candidate grids and hints show themselves in Jupyter through ``repr_svg``; a ``Gallery`` shows
several pictures in a row under their captions.

>>> from sudoku_cp import Puzzle
>>> svg = draw(Puzzle.from_string("1..." "..1." ".1.." "...1")).as_svg()  # doctest: +SKIP
"""

from __future__ import annotations

from .picture import Gallery, compose, draw, drawsvg_module, repr_svg, save
from .steps import draw_step

__all__ = ["Gallery", "compose", "draw", "draw_step", "drawsvg_module", "repr_svg", "save"]
