"""``sudoku-cp backends``: list the backends, their variants and whether each can run here."""

from __future__ import annotations

import argparse

from ..backends import backend_class, backend_names, missing_packages
from . import EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "backends", help="list the backends and whether each is available", description=__doc__
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in backend_names():
        cls = backend_class(name)
        missing = missing_packages(name)
        state = "available" if not missing else f"unavailable (pip install {' '.join(missing)})"
        print(f"{name:<8}{state:<14}{cls.description}")
        if cls.variants:
            print(f"{'':8}variants: {', '.join(f'{name}:{v}' for v in cls.variants)}")
    return EXIT_OK
