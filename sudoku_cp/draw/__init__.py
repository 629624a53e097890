"""Pictures of puzzles, solutions and candidate grids as SVG (and PNG), for notebooks and files.

Drawn with ``drawsvg`` (an optional extra: ``pip install 'sudoku-cp[draw]'``), imported only when a picture is
made. ``draw`` returns a ``drawsvg.Drawing``: it shows itself in Jupyter, and ``as_svg()``, ``save_svg`` and
``save_png`` write it. Puzzles, results and candidate grids show themselves through ``repr_svg``.

>>> from sudoku_cp import Puzzle
>>> svg = draw(Puzzle.from_string("1..." "..1." ".1.." "...1")).as_svg()  # doctest: +SKIP
"""

from __future__ import annotations

from .picture import draw, drawsvg_module, repr_svg, save

__all__ = ["draw", "drawsvg_module", "repr_svg", "save"]
