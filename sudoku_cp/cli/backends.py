"""``sudoku-cp backends``: the backends and variants that can run here, then what to install for the rest."""

from __future__ import annotations

import argparse

from ..backends import backend_class, backend_names, missing_packages
from . import EXIT_OK, SUMMARIES, exit_codes


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "backends",
        help=SUMMARIES["backends"],
        description=__doc__,
        epilog=exit_codes("the backends were listed, whatever is not installed", None),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    absent, absent_variants = [], []  # whole backends first, then single variants
    for name in backend_names():
        cls = backend_class(name)
        if missing := missing_packages(name):
            absent.append(f"{name} (pip install {' '.join(missing)})")
            continue
        print(f"{name:<8}{cls.description}")
        ready = []
        for variant in (f"{name}:{v}" for v in cls.variants):
            if missing := missing_packages(variant):
                absent_variants.append(f"{variant} (pip install {' '.join(missing)})")
            else:
                ready.append(variant)
        if ready:
            print(f"{'':8}variants: {', '.join(ready)}")
    if absent or absent_variants:
        print(f"not installed: {', '.join(absent + absent_variants)}")
    return EXIT_OK
