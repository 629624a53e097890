"""The ``sudoku-cp`` command: thin adapters over the library, one module per command.

A command module has ``register(subparsers)``, which adds its parser and sets ``run``; adding a command
is one module plus one line in ``COMMANDS``. Library errors become messages and exit codes here:
0 all puzzles solved, 1 some puzzle unsolved or invalid, 2 usage error or unreadable input, 3 a fault (a
worker process died, the cluster was lost, the output could not be written), 130 and 143 interrupted by
SIGINT and SIGTERM, 141 when the reader of standard output closed it (``| head``: 128 + SIGPIPE, what a
shell shows for a program the closed pipe killed, quietly). ``exit_codes`` writes that table for each
command's ``--help``.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from .._version import __version__
from ..errors import SudokuError
from ..signals import interrupts_outside_numba
from .outfile import OutputError

__all__ = [
    "COMMANDS",
    "EXIT_FAILED",
    "EXIT_FAULT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_USAGE",
    "SUMMARIES",
    "build_parser",
    "exit_codes",
    "main",
]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_FAULT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: Standard output's reader closed it (``sudoku-cp solve big.txt | head -1``): 128 + SIGPIPE, the status
#: a shell reports for a program that a closed pipe stops, as ``cat`` and ``seq`` do.
EXIT_PIPE = 141


def exit_codes(
    ok: str = "every puzzle solved", failed: str | None = "some puzzle unsolved or invalid"
) -> str:
    """The exit statuses, for a command's ``--help`` epilog; ``ok`` and ``failed`` say what 0 and 1 mean
    (``failed`` None: the command never exits 1)."""
    one = f"1 {failed}; " if failed else ""
    return (
        f"exit status: 0 {ok}; {one}2 usage error or unreadable input; 3 fault (a worker process "
        "died, the cluster was lost, the output could not be written); 130 interrupted (Ctrl-C, SIGINT); "
        "141 output closed by its reader (a pipe to head); 143 stopped (SIGTERM)"
    )


#: Command modules of sudoku_cp.cli, in the order ``--help`` lists them.
#: Each command and its one line of help: the top-level help lists them without importing a command.
SUMMARIES: dict[str, str] = {
    "solve": "solve puzzles",
    "count": "count each puzzle's solutions up to a limit",
    "explain": "explain puzzles with no solution or several",
    "encode": "write a puzzle as a DIMACS CNF formula",
    "decode": "turn a SAT solver's model of an encoded puzzle back into its grid",
    "generate": "generate puzzles with a proved unique solution",
    "rate": "rate the difficulty of puzzles",
    "hint": "the next logical step of each puzzle",
    "steps": "solve puzzles step by step with named techniques, and rate them",
    "prove": "write certificates of uniqueness (DRAT proofs) that `check` verifies",
    "check": "verify certificates of uniqueness written by `prove`",
    "render": "draw puzzles as SVG or PNG pictures",
    "backends": "list the backends that can run here, and what the others need",
    "compare": "compare backends and their options on the same puzzles",
}
#: The commands, in the order the help lists them.
COMMANDS = list(SUMMARIES)


class _PlainLiterals(argparse.HelpFormatter):
    """Help text from module docstrings, their reST literals (two backquotes) shown as one backquote."""

    def _format_text(self, text: str) -> str:
        return super()._format_text(text.replace("``", "`"))


@functools.cache
def _plain(formatter: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    """``formatter`` (the default one, or a command's raw-description one) with plain literals."""
    return type(f"Plain{formatter.__name__}", (_PlainLiterals, formatter), {})


class _Parser(argparse.ArgumentParser):
    """An argument parser with plain literals in its help; the commands' parsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["formatter_class"] = _plain(kwargs.get("formatter_class", argparse.HelpFormatter))
        super().__init__(*args, **kwargs)


def build_parser(only: str | None = None, *, lazy: bool = False) -> argparse.ArgumentParser:
    """The ``sudoku-cp`` parser with every command. With ``lazy``, only the command ``only`` (if any) is
    imported and registered in full; the others are named with their summary, which is all the top-level
    help shows: ``sudoku-cp --help`` then imports no command, nor what they import."""
    parser = _Parser(
        prog="sudoku-cp",
        description="Sudoku of any box shape, solved by SAT, CP-SAT or a bitmask search.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        if lazy and name != only:
            sub.add_parser(name, help=SUMMARIES[name], add_help=False)
        else:
            importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (None when there is none, or it
    is no command)."""
    word = next((arg for arg in argv if not arg.startswith("-")), None)
    return word if word in SUMMARIES else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sudoku-cp`` with ``argv`` (default: the process's arguments); return the exit status.

    Run as the process's own command (``argv`` None), it keeps numpy's BLAS to one thread
    (``_one_blas_thread``) and leaves the objects it made to the interpreter's exit without a last pass of
    the cycle collector (``_quick_exit``)."""
    if argv is None:
        _one_blas_thread()
        try:
            return _run(sys.argv[1:])
        finally:
            _quick_exit()
    return _run(list(argv))


def _one_blas_thread() -> None:
    """Keep numpy's BLAS (OpenBLAS) to one thread, where the user has not chosen: no command does linear
    algebra, but OpenBLAS starts a thread per core when numpy loads, and those wait busily, costing CPU
    the command never uses (0.05 s of a one-puzzle ``count``'s 0.17 s, 0.19 s of a 0.6 s race of two
    searches on two cores). Only before numpy loads, so a process that runs ``main`` later keeps its own."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _quick_exit() -> None:
    """Spare the interpreter's exit its full pass of the cycle collector over every object the command
    made: once numba's compiler is loaded (the dfs kernels), that pass took 0.3-0.45 s of a one-puzzle
    command's 1.5 s. ``gc.freeze`` moves them out of the collector's reach; the exit still closes files
    and runs ``atexit`` handlers, and a process soon to end frees its memory all the same."""
    gc.freeze()


def _run(argv: list[str]) -> int:
    parser = build_parser(_command(argv), lazy=True)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 on --help / --version
        return int(exc.code or 0)
    try:
        _refuse_overwriting_inputs(args)
        with interrupts_outside_numba():  # a Ctrl-C in a kernel's callback would come out as a SystemError
            return int(args.run(args))
    except BrokenPipeError:  # `sudoku-cp solve big.txt | head` ends quietly, as `cat` would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit's flush
        return EXIT_PIPE
    except KeyboardInterrupt:
        print("sudoku-cp: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OutputError as exc:
        print(f"sudoku-cp: error: {exc}", file=sys.stderr)
        return EXIT_FAULT
    except RuntimeError as exc:
        if (death := _worker_death(exc)) is None:
            raise
        print(f"sudoku-cp: error: {death}", file=sys.stderr)
        return EXIT_FAULT
    except (SudokuError, OSError) as exc:
        print(f"sudoku-cp: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _refuse_overwriting_inputs(args: argparse.Namespace) -> None:
    """Refuse an output file (``-o``, ``--csv``) that is one of the command's inputs: its files (patterns
    expanded), standard input when it reads it, a formula or a model (``decode``)."""
    outputs = [getattr(args, name, None) for name in ("output", "csv")]
    if not any(outputs):
        return
    from ..formats.sources import expand_inputs
    from .outfile import refuse_inputs

    inputs: list[str] = []
    if hasattr(args, "files"):
        expanded = expand_inputs(args.files, getattr(args, "puzzles", None))
        inputs += [path for path in expanded if isinstance(path, str)]  # files, URLs, "-"
        if not expanded:
            inputs.append("-")  # no input named: standard input
    for name in ("formula", "model"):
        if isinstance(value := getattr(args, name, None), str):
            inputs.append(value)
    for output in outputs:
        refuse_inputs(output, inputs)


def _worker_death(exc: RuntimeError) -> str | None:
    """What to say about a pool whose worker process died (killed, out of memory), a fault; None for the
    other errors."""
    from concurrent.futures import BrokenExecutor

    from ..batch.pool import WorkerError

    if isinstance(exc, WorkerError):  # "a worker process died (exit code -9)", or a worker's traceback
        return (str(exc).strip().splitlines() or ["a worker process failed"])[-1]
    if isinstance(exc, BrokenExecutor):
        return "a worker process died"
    return None
