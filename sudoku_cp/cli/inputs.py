"""Reading the puzzles named on the command line, file after file, reporting what cannot be read."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..formats import Record, iter_records, open_records
from ..formats.sources import Inline, Input, expand_inputs
from .common import input_names, shape_of, warn

__all__ = ["Inputs"]


@dataclass
class Inputs:
    """The records of every input file in order; files that cannot be read are reported and counted."""

    args: argparse.Namespace
    validate: bool = True
    unreadable: list[str] = field(default_factory=list)
    #: the layout of the first record read (the default output layout)
    layout: str | None = None
    #: how an unreadable file is reported (a command with a progress line erases it first)
    warn: Callable[[str], None] = warn

    def names(self) -> str:
        """The inputs in words, for messages."""
        return input_names(self.paths())

    def paths(self) -> list[Input]:
        """Files, standard input, URLs and puzzles given on the command line, in order."""
        return expand_inputs(self.args.files, getattr(self.args, "puzzles", None))

    def __iter__(self) -> Iterator[Record]:
        paths = self.paths() or ["-"]
        for path in paths:
            source = "<stdin>" if path == "-" else str(path)
            label = source if len(paths) > 1 or path != "-" else None
            options = {
                "format": self.args.input_format,
                "shape": shape_of(self.args),
                "validate": self.validate,
            }
            try:
                if isinstance(path, Inline):
                    records = iter_records(path.text.splitlines(), source=label, **options)
                else:
                    records = open_records(None if path == "-" else path, source=label, **options)
                for record in records:
                    if self.layout is None:
                        self.layout = record.format
                    yield record
            except (OSError, UnicodeError) as exc:
                self.warn(f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}")
                self.unreadable.append(source)
