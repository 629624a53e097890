"""``sudoku-cp render``: draw each puzzle as a picture, ``DIR/k.svg`` (or ``.png``) for the k-th puzzle read.

With ``--solution`` the solution's digits are drawn in blue over the givens; with ``--candidates`` each
empty cell shows the digits its peers leave open; with ``--step K`` the K-th step of the puzzle's logical
solution is drawn on the candidates it was found on (its pattern shaded, its eliminations struck, its
chain's links drawn). A single puzzle drawn as SVG without ``-o`` goes to standard output. Pictures need
the ``draw`` extra: ``pip install 'sudoku-cp[draw]'``. ``--format link`` writes an f-puzzles link per
puzzle to standard output instead (no extra needed), to open each in the web apps setters use.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..grid import Puzzle
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE, SUMMARIES, exit_codes
from .common import add_backend_options, add_input_options, backend_options, warn
from .inputs import Inputs
from .options import EMPTY_INPUT, positive_int
from .outfile import OutputError, output_stream

__all__ = ["register", "run"]

EPILOG = exit_codes("every puzzle drawn", "some puzzle unreadable or unsolved") + EMPTY_INPUT


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render",
        help=SUMMARIES["render"],
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    p.add_argument("-o", "--output", metavar="DIR", help="write DIR/1.svg, DIR/2.svg, ... (made if missing)")
    p.add_argument(
        "--format",
        "--output-format",
        choices=("svg", "png", "link"),
        default="svg",
        help="picture format, or an f-puzzles link per puzzle on standard output (default svg)",
    )
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--solution", action="store_true", help="draw the solution's digits over the givens")
    shown.add_argument("--candidates", action="store_true", help="draw the candidates of the empty cells")
    shown.add_argument(
        "--step",
        type=positive_int,
        metavar="K",
        help="draw the K-th step of the logical solution on its candidates (from 1)",
    )
    add_backend_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.format == "link":
        return _links(args)
    from ..draw import drawsvg_module, save

    drawsvg_module()  # a missing extra is reported before any work
    to_stdout = args.output in (None, "-")
    if to_stdout and args.format != "svg":
        raise UsageError("a PNG picture needs -o DIR")
    folder = None if to_stdout else Path(args.output)
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{folder} is not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a fault of the place, as a file that cannot be written (exit status 3)
            raise OutputError(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    inputs = Inputs(args, validate=True)
    records = iter(inputs)
    if folder is None:  # standard output takes one picture: know that there is one before drawing it
        head = list(itertools.islice(records, 2))
        if len(head) > 1:
            raise UsageError("the input holds several puzzles: give -o DIR to draw one file each")
        records = iter(head)
    failed = drawn = 0
    for k, record in enumerate(records, start=1):
        if record.puzzle is None:
            warn(str(record.error))
            failed += 1
            continue
        picture, trouble = _picture(args, record.puzzle)
        if trouble:
            warn(f"puzzle {record.index}: {trouble}")
            failed += 1
        if picture is None:
            continue
        if folder is None:
            with output_stream(None) as out:  # a full disk or a closed device is a fault, said as such
                out.write(picture.as_svg() + "\n")
        else:
            path = folder / f"{k}.{args.format}"
            try:
                save(picture, path, args.format)
            except OSError as exc:
                raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        drawn += 1
    return _exit(inputs, drawn, failed)


def _picture(args: argparse.Namespace, puzzle: Puzzle) -> tuple[Any | None, str]:
    """The picture ``args`` ask for, and what went wrong (empty when nothing did): a puzzle without a
    solution is drawn without one; a walk that ends before step K draws nothing."""
    from ..candidates import Candidates
    from ..draw import draw

    if args.step is not None:
        from ..human import nth_step

        hint = nth_step(puzzle, args.step)
        if hint.step is None:
            ended = f"the logical solution ends {hint.result}"
            return None, f"{ended} {hint.why}" if hint.why else ended
        return hint.draw(), ""
    if args.solution:
        solution, trouble = _solution(args, puzzle)
        return draw(puzzle, solution), f"{trouble}; drawn without a solution" if trouble else ""
    return draw(puzzle, candidates=Candidates.of(puzzle) if args.candidates else None), ""


def _solution(args: argparse.Namespace, puzzle: Puzzle) -> tuple[Puzzle | None, str]:
    """The solution of ``puzzle`` by the chosen backend, or None and the status that says why not."""
    from ..solving import solve

    result = solve(puzzle, args.backend, time_limit=args.time_limit, **backend_options(args))
    if result.solution is None:
        return None, result.status.value.replace("_", " ")
    return result.solution, ""


def _links(args: argparse.Namespace) -> int:
    """``--format link``: an f-puzzles link per puzzle on standard output (with ``--solution``, the
    solution rides along as the app's answer)."""
    from ..formats.fpuzzles import to_link

    if args.output not in (None, "-"):
        raise UsageError("links are text: they go to standard output (redirect it to keep them)")
    if args.candidates or args.step is not None:
        raise UsageError("a link holds the puzzle and its solution: --candidates and --step are pictures")
    inputs = Inputs(args, validate=True)
    failed = written = 0
    for record in inputs:
        if record.puzzle is None:
            warn(str(record.error))
            failed += 1
            continue
        solution = None
        if args.solution:
            solution, trouble = _solution(args, record.puzzle)
            if trouble:
                warn(f"puzzle {record.index}: {trouble}; linked without a solution")
                failed += 1
        sys.stdout.write(to_link(record.puzzle, solution) + "\n")
        written += 1
    return _exit(inputs, written, failed)


def _exit(inputs: Inputs, done: int, failed: int) -> int:
    if inputs.unreadable:
        return EXIT_USAGE
    if not done and not failed:
        warn(f"no puzzles in {inputs.names()}")
    return EXIT_FAILED if failed else EXIT_OK
