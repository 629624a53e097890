"""Reading the puzzles named on the command line, file after file, reporting what cannot be read."""

from __future__ import annotations

import argparse
import io
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..formats import Record, iter_records, open_records, with_named_rules
from ..formats.pencilmarks import with_pencilmarks
from ..formats.sources import Inline, Input, expand_inputs, is_url, open_input
from .common import input_names, rules_of, warn

__all__ = ["Inputs"]


@dataclass
class Inputs:
    """The records of every input file in order; files that cannot be read are reported and counted."""

    args: argparse.Namespace
    validate: bool = True
    unreadable: list[str] = field(default_factory=list)
    #: the layout of the first record read (the default output layout)
    layout: str | None = None
    #: the number of the input being read (0 for the first)
    current: int = 0
    #: how an unreadable file is reported (a command with a progress line erases it first)
    warn: Callable[[str], None] = warn
    #: read pencilmark lines as candidate grids (``formats.pencilmarks``), for commands that start from them
    pencilmarks: bool = False

    def names(self) -> str:
        """The inputs in words, for messages."""
        return input_names(self.paths())

    def paths(self) -> list[Input]:
        """Files, standard input, URLs and puzzles given on the command line, in order."""
        return expand_inputs(self.args.files, getattr(self.args, "puzzles", None))

    def line_totals(self) -> list[int] | None:
        """The lines of each input, when all are local files or puzzles on the command line; else None
        (standard input, URLs). A run shows from them how much of its input is done and the time left."""
        totals = []
        for path in self.paths() or ["-"]:
            if isinstance(path, Inline):
                totals.append(path.text.count("\n"))
            elif path == "-" or not os.path.isfile(path):
                return None
            else:
                try:
                    with open(path, "rb") as f:
                        totals.append(sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b"")))
                except OSError:
                    return None  # reported when it is read
        return totals

    def position(self, record: Record, totals: list[int]) -> int:
        """How many lines of all the inputs (``line_totals``) lie up to ``record``, the last one read."""
        return min(sum(totals[: self.current]) + record.line, sum(totals))

    def __iter__(self) -> Iterator[Record]:
        paths = self.paths() or ["-"]
        for self.current, path in enumerate(paths):
            label = source = "<stdin>" if path == "-" else str(path)  # named in messages, as a file is
            options = {
                "format": self.args.input_format,
                "rules": rules_of(self.args),
                "validate": self.validate,
                "symbols": getattr(self.args, "symbols", None),
            }
            try:
                if isinstance(path, Inline):
                    records = iter_records(path.text.splitlines(), source=label, **options)
                elif is_url(path):  # read through fsspec, as solve's batch reads it
                    records = iter_records(_url_lines(path), source=label, **options)
                else:
                    records = open_records(None if path == "-" else path, source=label, **options)
                if self.pencilmarks:  # before --rules, which then rules the candidates too
                    records = with_pencilmarks(records, options["rules"])
                if names := getattr(self.args, "rules", None):
                    records = with_named_rules(records, names, self.validate, label)
                for record in records:
                    if self.layout is None:
                        self.layout = record.format
                    yield record
            except (OSError, UnicodeError) as exc:
                self.warn(f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}")
                self.unreadable.append(source)


def _url_lines(url: str) -> Iterator[str]:
    """The lines of a URL's text (fsspec), decoded as a file's are; opened when the first is asked for.
    The per-puzzle commands opened URLs as local paths: 'cannot read https://...: No such file'."""
    with open_input(url) as stream:
        yield from io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline=None)
