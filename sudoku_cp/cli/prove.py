"""``sudoku-cp prove``: certificates of uniqueness that ``sudoku-cp check`` (or any DRAT checker and the
format in docs/certificates.md) verifies without trusting this program.

For the k-th puzzle (k from 1) it writes ``DIR/k.cnf``, the puzzle's formula (with the solution blocked
for a unique puzzle), and ``DIR/k.drat``, a DRAT proof that the formula has no model, and one line of
``DIR/claims.jsonl``: ``unique`` with its solution, ``none``, or ``multiple`` with two solutions (which
need no proof). A puzzle that unit propagation from its givens settles (every cell, or a clash) needs
no files either: the checker redoes the propagation. ``--minimal`` adds, for a unique puzzle, a witness
per given: two solutions without it, or a certificate (``k-r1c3.cnf``, ``k-r1c3.drat``, or none when
propagation settles it) that the puzzle stays unique without it. DIR must be
new or empty: earlier certificates are never written over; ``--resume`` continues a stopped run there
(a killed one's too: its claims are kept, and its files of puzzles after its last claim are written again).
Killer cage sums, arrows and pills have canonical clauses (docs/certificates.md, "Sums"); grids
beyond 35x35 and sums too large for a certificate are refused, puzzle by puzzle.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import UnsupportedRuleError, UsageError
from ..wording import plural
from . import SUMMARIES, exit_codes
from .cluster import add_cluster_option
from .common import add_input_options, warn
from .options import EMPTY_INPUT, add_run_options
from .outfile import keep_killed_runs

if TYPE_CHECKING:
    from ..certify.prover import Certificate
    from ..formats import Record

__all__ = ["register", "run"]

#: A puzzle whose rules a certificate cannot hold, in the summary.
REFUSED = "refused"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "prove",
        help=SUMMARIES["prove"],
        description=__doc__,
        epilog=exit_codes(
            "every puzzle has a certificate",
            "some puzzle refused (its rules have no certificate) or unreadable",
        )
        + EMPTY_INPUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(p)
    add_run_options(
        p,
        formats=None,
        time_limit=False,
        output_metavar="DIR",
        output_help="the folder of the certificates (required; created, or empty)",
    )
    p.add_argument(
        "--minimal", action="store_true", help="also show for each given that it is needed, or that it is not"
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue a stopped run in DIR: keep its claims (DIR/claims.jsonl.partial) and certificates and "
        "prove the puzzles after the last one claimed",
    )
    add_cluster_option(p)
    p.set_defaults(run=run)


def _folder(path: str | None, resume: bool = False) -> Path:
    """The certificates' folder, made when missing; a ``UsageError`` when it holds anything (unless a
    stopped run is resumed there)."""
    if not path or path == "-":
        raise UsageError("prove needs -o DIR, the folder to write the certificates into")
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{path} is not a folder")
    if folder.is_dir():
        keep_killed_runs(folder / "claims.jsonl")  # a killed run's claims, kept as a stopped run's
    if resume:
        if not (folder / PARTIAL).is_file():
            raise UsageError(f"nothing to resume in {path}: it has no {PARTIAL} of a stopped run")
        return folder
    if folder.is_dir() and any(folder.iterdir()):
        stopped = (
            f"; it holds a stopped run's {PARTIAL}: --resume continues it"
            if (folder / PARTIAL).is_file()
            else ""
        )
        raise UsageError(
            f"{path} is not empty: certificates go into a new or empty folder, never over others{stopped}"
        )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


#: What a stopped run leaves of ``claims.jsonl``: its whole claims so far.
PARTIAL = "claims.jsonl.partial"


def _resume_after(folder: Path) -> int:
    """The input number of the last puzzle a stopped run claimed (0 for none), after removing the
    certificate files of later puzzles: the stopped run wrote them for claims it never kept (a run killed
    between a puzzle's files and its claim line), and the resumed run writes them again."""
    last = 0
    with open(folder / PARTIAL, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                try:
                    last = int(json.loads(line)["index"])
                except (ValueError, KeyError, TypeError):
                    raise UsageError(
                        f"{folder / PARTIAL} holds a line that is no claim: {line[:60]!r}"
                    ) from None
    later = sorted(
        (p for p in folder.iterdir() if _puzzle_of(p.name) > last), key=lambda p: (_puzzle_of(p.name), p.name)
    )
    for orphan in later:
        orphan.unlink()
    if later:
        names = ", ".join(p.name for p in later[:4]) + (" ..." if len(later) > 4 else "")
        warn(
            f"removed {len(later):,} files of puzzles after the last claim (puzzle {last}), to write them "
            f"again: {names}"
        )
    if last:
        warn(f"resuming after puzzle {last:,}, the last claimed in {folder / PARTIAL}")
    return last


def _puzzle_of(name: str) -> int:
    """The puzzle number of a certificate file (``12.cnf``, ``12-r1c3.drat``), 0 for any other file."""
    head = name.split(".")[0].split("-")[0]
    return int(head) if head.isdigit() and name.endswith((".cnf", ".drat")) else 0


def outcome(answer: Any) -> str:
    """The summary's word for one answer."""
    return REFUSED if isinstance(answer, UnsupportedRuleError) else answer.claim


def refusals(counts: dict[str, int]) -> str | None:
    """After the summary: how many puzzles have no certificate, and why (``proved 5 puzzles (5 refused)``
    alone read as a success)."""
    refused = counts.get(REFUSED, 0)
    if not refused:
        return None
    return (
        f"{refused:,} {plural(refused, 'puzzle')} refused, without a certificate: no certificate holds "
        "their rules (each reason is above)"
    )


def run(args: argparse.Namespace) -> int:
    from ..batch.solver import SolverConfig
    from .perpuzzle import EachCommand, run_each

    folder = _folder(args.output, args.resume)
    skip = _resume_after(folder) if args.resume else 0
    args.output = str(folder / "claims.jsonl")  # written whole on success, kept as .partial if stopped
    minimal = args.minimal
    command = EachCommand(
        kind="prove",
        payload=lambda puzzles: (minimal, puzzles),
        config=SolverConfig("dfs"),  # unused: the prover runs its own proof-logging solver
        verb="proved",
        outcomes=["unique", "multiple", "none", REFUSED],
        outcome=outcome,
        ok=frozenset({"unique", "multiple", "none"}),
        writer=lambda out: _Writer(out, folder, skip),
        words={"none": "without solution"},
        of=frozenset({"unique", "multiple", "none"}),
        remark=refusals,
    )
    return run_each(args, command, skip=skip)


class _Writer:
    """A claim line per puzzle, and its formula and proof files beside ``claims.jsonl``. Claims are
    numbered by the puzzle's place among all the inputs (a record's own index starts again in each file),
    after the ``skip`` a resumed run's earlier claims took."""

    def __init__(self, out: TextIO, folder: Path, skip: int) -> None:
        from ..certify.prover import store_in

        self.out, self.store, self.k = out, store_in(folder), skip

    def result(self, record: Record, answer: Certificate | UnsupportedRuleError) -> None:
        self.k += 1
        if isinstance(answer, UnsupportedRuleError):
            warn(f"puzzle {record.index} (line {record.line}): {answer}")
            return
        from ..certify.prover import claim_record

        assert record.puzzle is not None
        self.out.write(json.dumps(claim_record(self.k, record.puzzle, answer, self.store)) + "\n")

    def error(self, record: Record) -> None:
        """An unreadable puzzle has no claim (the reason is on standard error), but keeps its number."""
        self.k += 1

    def close(self) -> None:
        """Nothing to finish: one line per claim."""
