"""Puzzles whose rules are drawn from their own solution: killer cages, little killers, sandwiches, renban
and whispers lines, with a proved unique solution and givens only where the drawn rules leave a choice.

For each puzzle: a random full grid; rules drawn from it (``draw``: the cages and their sums, the clues a
kind reads off the grid, ``rules.kinds``' ``drawn``), each kept by the grid; then an incremental SAT
solver over the drawn rules, holding the grid's guarded blocking clause, answers "is there another
solution?". While there is, a given is added at a cell where the other solution differs; at the end each
given is dropped again where the puzzle stays unique without it, so no given is left that the rules make
redundant.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from ..errors import SudokuError, UnsupportedRuleError, UsageError
from ..grid import Puzzle
from ..rules import Rules
from ..rules.kinds import BY_KEY, drawable
from .generator import Generated
from .oracle import DEFAULT_SOLVER, UniquenessOracle

__all__ = ["generate_clued", "generate_drawn", "needed_givens"]

#: Draws a puzzle's rules from its full grid: the base rules plus what was drawn.
Draw = Callable[[tuple[int, ...], random.Random], Rules]


def generate_drawn(
    count: int, rules: Rules, draw: Draw, *, seed: int | str | None = None, solver: str = DEFAULT_SOLVER
) -> Iterator[Generated]:
    """``count`` puzzles whose rules ``draw`` makes from each full grid of ``rules``, each proved unique
    by an unsatisfiable SAT call; the same ``seed`` gives the same puzzles."""
    if count < 0:
        raise UsageError(f"the count must be at least 0, not {count}")
    if seed is None:
        seed = random.randrange(2**32)
    rng = random.Random(seed)
    with UniquenessOracle(rules, solver) as grids:
        for index in range(1, count + 1):
            grid = grids.full_grid(rng)
            drawn = draw(grid, rng)
            with UniquenessOracle(drawn, solver) as oracle:
                oracle.fix(grid)
                givens = needed_givens(oracle, rng)
                proved_by = oracle.proved_by
            cells = tuple(grid[c] if c in givens else 0 for c in range(rules.ncells))
            yield Generated(
                Puzzle(drawn, cells), Puzzle(drawn, grid), None, True, proved_by, "none", seed, index, 1
            )


def generate_clued(
    count: int,
    keys: Sequence[str],
    rules: Rules | None = None,
    *,
    seed: int | str | None = None,
    solver: str = DEFAULT_SOLVER,
) -> Iterator[Generated]:
    """``count`` puzzles over ``rules`` (default classic 9x9) with clues of the kinds ``keys`` (f-puzzles
    keys: ``littlekillersum``, ``sandwichsum``, ``renban``, ``whispers``...) drawn from each solution.
    ``UnsupportedRuleError`` naming a kind that draws no clues; ``UsageError`` for a kind named twice (its
    clues would be drawn twice, on the same cells).

    >>> [p] = generate_clued(1, ["sandwichsum"], Rules.classic(2, 2), seed=3)
    >>> p.unique, p.puzzle.rules.kinds, p.puzzle.rules.violations(p.solution.cells)
    (True, ('boxes', 'sandwich'), [])
    """
    rules = rules or Rules.classic(3, 3)
    kinds = []
    for key in keys:
        if keys.count(key) > 1:
            raise UsageError(f"the constraint kind {key!r} is named {keys.count(key)} times: name it once")
        kind = BY_KEY.get(key)
        if kind is None:
            raise UsageError(f"unknown constraint kind {key!r} (known: {', '.join(BY_KEY)})")
        if not drawable(kind):
            known = ", ".join(k.key for k in BY_KEY.values() if drawable(k))
            raise UnsupportedRuleError(f"generate draws no {kind.kind} clues (it draws: {known})")
        kinds.append(kind)

    def draw(grid: tuple[int, ...], rng: random.Random) -> Rules:
        """Each kind's clues, but none outside the grid where an earlier kind's stands: a sandwich's and
        an X-sum's number at one place would leave the solver to guess which is which."""
        taken: set[tuple[float, float]] = set()
        variants = []
        for kind in kinds:
            for variant in kind.drawn(grid, rules, rng):
                places = {m.at for m in variant.marks(rules.n) if m.shape == "text" and m.at is not None}
                if places & taken:
                    continue
                taken |= places
                variants.append(variant)
        return rules.with_(variants=variants)

    return generate_drawn(count, rules, draw, seed=seed, solver=solver)


#: The conflicts one question of ``needed_givens`` may take before it is left open. Drawn rules alone can
#: leave the oracle a question as hard as a hard puzzle: little killers under the X rule, seed 21's second
#: grid, took CaDiCaL over 12 minutes with no given and 45 s with one; a question left open costs a given
#: (or keeps one). ``bench_generate.py``'s little killer rows, before and with this bound: under X 90.1 ->
#: 4.9 s a puzzle (7.3 -> 9.3 givens), under anti-king 18.5 -> 4.8 s (6.7 -> 8.3). Seed 21's four under X
#: with 2,000, 5,000 and 20,000 conflicts: 9.2, 20.9 and 72.2 s, 39, 38 and 32 givens in all. In conflicts,
#: not seconds, so that a seed gives the same puzzles on any machine.
QUESTION_CONFLICTS = 5_000


def needed_givens(
    oracle: UniquenessOracle, rng: random.Random, conflicts: int | None = QUESTION_CONFLICTS
) -> set[int]:
    """Givens that make the fixed grid the only solution: added where a second solution differs (or, where
    the question is still open after ``conflicts`` conflicts, at a random cell not given yet), then each
    dropped again where the puzzle is proved unique without it. The loop ends on a proof of uniqueness."""
    givens: set[int] = set()
    while True:
        unique, differ = oracle.check(sorted(givens), conflicts=conflicts)
        if unique:
            break
        if unique is None:  # no answer within the bound: a given more narrows the question
            differ = [c for c in range(oracle.rules.ncells) if c not in givens]
            if not differ:
                raise SudokuError("the uniqueness oracle gave no answer with every cell given")
        givens.add(rng.choice(differ))
    for cell in sorted(givens, key=lambda _: rng.random()):
        if oracle.check(sorted(givens - {cell}), differ=False, conflicts=conflicts)[0]:
            givens.discard(cell)
    return givens
