"""``sudoku-cp backends``: the backends that can run here, their variants, and what the rest need."""

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
    absent = []
    for name in backend_names():
        cls = backend_class(name)
        if missing := missing_packages(name):
            absent.append(f"{name} (pip install {' '.join(missing)})")
            continue
        print(f"{name:<8}{cls.description}")
        if cls.variants:
            print(f"{'':8}variants: {', '.join(f'{name}:{v}' for v in cls.variants)}")
    if absent:
        print(f"not installed here: {', '.join(absent)}")
    return EXIT_OK
