"""When a backend starts propagating puzzles with the compiled kernels (``encode.propagated``).

The kernels make every puzzle after the first cheaper, but their start-up, once per process, costs more
than a few puzzles: importing numba (about 0.6 s), its first kernel call (0.85 s: LLVM and numba's own
set-up) and the kernels themselves (0.1 s), measured. So a backend that is allowed to propagate, and not
told to, rents: puzzles go its other ways until they have taken STARTUP_SECONDS, and from then on it
propagates, which costs at most about twice the better choice in hindsight (the ski-rental rule). Once
the kernels are loaded in the process (by any backend, or ``encode.propagated.warm_up``), nothing is left
to rent. This module imports nothing heavy, so the rent is paid without numba.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["STARTUP_SECONDS", "Rental", "kernels_ready"]

#: The compiled kernels' start-up, once per process, measured (see the module's docstring).
STARTUP_SECONDS = 1.5


def kernels_ready() -> bool:
    """Whether the propagation kernels have run in this process (their start-up is paid)."""
    module = sys.modules.get("sudoku_cp.encode.propagated")
    return module is not None and module.ready()


@dataclass
class Rental:
    """One backend's choice: ``allowed`` to propagate, ``asked`` to from the first puzzle; ``waited`` is the
    time of the puzzles solved the other ways meanwhile."""

    allowed: bool
    asked: bool = False
    waited: float = 0.0

    def propagating(self, rules: Rules | None = None) -> bool:
        """Whether the next puzzle (under ``rules``) is propagated: from the first one under rules with sums
        or orders (cages, arrows, thermometers), whose propagators reason as no clause set here does (the
        distinct digits of a long sum's exclusion groups: a published pill arrow the kernels answer in a
        millisecond kept CaDiCaL and CP-SAT busy beyond 20 s)."""
        if not self.allowed:
            return False
        if rules is not None and rules.constraints:
            return True
        return self.asked or self.waited >= STARTUP_SECONDS or kernels_ready()

    def paid(self, seconds: float) -> None:
        """Count a puzzle solved another way while propagation was allowed."""
        if self.allowed:
            self.waited += seconds
