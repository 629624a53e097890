"""The reference depth-first search of the ``dfs`` backend, in plain readable Python.

Candidates are bitmasks per cell (a Python int, bit ``d - 1`` for digit ``d``). Propagation applies naked
singles (a cell with one candidate removes it from its peers) and hidden singles (a digit with one place in
a unit goes there) until neither changes anything, and detects contradictions: a cell without candidates,
a digit without a place in a unit, two givens that clash. Then a depth-first search branches on a cell
chosen by a heuristic and tries its candidates in increasing order, enumerating solutions up to a limit.

The propagation closure is the same whatever order the rules are applied in, so the numba kernel in
``dfs_compiled`` (which follows this module step for step) explores exactly the same search tree: same
solutions in the same order, same statistics.

Statistics, counted the same way by both engines:

- ``nodes``: search states whose propagation was run: the root plus one per guess;
- ``guesses``: values tried at branch points (each candidate written into a branch cell counts once, the
  first one included; a puzzle that propagation alone solves takes 0 guesses);
- ``backtracks``: guesses whose propagation ended in a contradiction (dead ends the search stepped back from).

Branching heuristics (``HEURISTICS``), ties always going to the first cell in row-major order:

- ``mrv``: the empty cell with the fewest candidates (minimum remaining values);
- ``first``: the first empty cell in row-major order, as the classic recursive solver does;
- ``weighted``: the rule-based heuristic of the classic article: for each empty cell, the sum of
  1/candidates over every cell of its row, of its column and of its box (filled cells count 1/1, the cell
  itself once in each of its three units), plus 10/(its own candidates); branch on the highest weight.
  Weights are integers in fixed point (``weight_table``), so both engines compare them exactly;
- ``conflicts``: ``mrv``, its ties going to the cell whose guesses have most often ended in a
  contradiction so far in this search (a count per cell, kept from the first guess on): the search
  learns where the puzzle is hard, as the conflict-driven heuristics do (Boussemart, Hemery, Lecoutre,
  Sais, *Boosting systematic search by weighting constraints*, ECAI 2004, whose weights go to constraints
  rather than cells). ``auto`` takes it on every rules value beyond the classic ones (``resolved``):
  measured on published variants against ``mrv``, Raw Spaghetti 7.9 s -> 0.2 s, Killer [0 cage, hard]
  over 20 s -> 3.2 s, Hard renban 1 3.5 s -> 2.7 s, none slower.
- ``wdeg`` (the compiled engine's alone): the conflict-directed search of the Interactive Sudoku Solver,
  after dom/wdeg (the same paper): branch on the cell of highest score per candidate, a cell's score
  starting at how constrained it is (``dfs_compiled._priority``) and growing by one for each dead end
  found while its digit was being propagated (the guessed cell, or a single that guess forced), halved
  every 16,384 dead ends; a digit that stands out among the dead ends adds to the cells that hold it;
  and, when that cell has more than two candidates, branch instead on a digit with two places in a house
  when one of them scores at least twice as high per branch. Its choices are binary, as the JS solver's:
  a digit in a cell, and when everything below is done, the digit out of it (propagated), with the cell
  to branch on chosen anew (on the published puzzles above 0.2 s, half the guesses, x0.88 the time:
  Hard renban 2 10.1 -> 1.4 s, Wecoc #1 1.5 -> 0.9 s). Its tree depends on the order propagation runs
  in, which the two engines do not share, so the python engine does not take it. ``auto`` takes it
  beyond the classic rules on the compiled engine: measured in ``benchmarks/bench_published.py``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from ..rules import RULES_KEPT, Rules

__all__ = [
    "AUTO",
    "COMPILED_ONLY",
    "HEURISTICS",
    "SHARED_HEURISTICS",
    "SearchOutcome",
    "geometry",
    "resolved",
    "search",
    "weight_table",
]

#: The branching heuristics by name; their index is the code the compiled kernel takes.
HEURISTICS = ("mrv", "first", "weighted", "conflicts", "wdeg")
#: The heuristics only the compiled engine runs (see ``wdeg`` above), and those both engines run alike.
COMPILED_ONLY = ("wdeg",)
SHARED_HEURISTICS = tuple(h for h in HEURISTICS if h not in COMPILED_ONLY)
#: The default of the ``dfs`` backend: the fastest search an engine has for the rules. The compiled engine
#: takes its band search on the classic 9x9 rules (``dfs_bands``: its own tree, not this module's); both
#: engines take ``mrv`` on other classic rules; beyond them the compiled engine takes ``wdeg``, the python
#: engine ``conflicts`` (``resolved``).
AUTO = "auto"


def resolved(heuristic: str, rules: Rules, compiled: bool = False) -> str:
    """The named heuristic a search takes for ``heuristic`` under ``rules`` on an engine: ``auto`` is
    ``mrv`` on the classic rules, beyond them ``wdeg`` on the compiled engine and ``conflicts`` on the
    python one; ``ValueError`` for an unknown name, or for ``wdeg`` on the python engine."""
    if heuristic == AUTO:
        return "mrv" if rules.is_classic else "wdeg" if compiled else "conflicts"
    if heuristic not in HEURISTICS:
        raise ValueError(f"unknown heuristic {heuristic!r}; valid: {', '.join((AUTO, *HEURISTICS))}")
    if heuristic in COMPILED_ONLY and not compiled:
        raise ValueError(f"heuristic {heuristic} runs on the compiled dfs engine only (it needs numba)")
    return heuristic


#: Weight of a cell's own candidates in the ``weighted`` heuristic (the classic article's 10).
OWN_WEIGHT = 10


def weight_table(n: int) -> tuple[int, ...]:
    """``table[k]``: 1/k in fixed point for k = 1..n (``table[0]`` is 0), as used by ``weighted``.

    The scale is lcm(1..n) where the largest weight still fits in a signed 64-bit integer (n <= 40), so
    the fractions are exact; beyond that 2**40, rounded down, which is deterministic in both engines.
    """
    scale = math.lcm(*range(1, n + 1))
    if scale * (3 * n + OWN_WEIGHT) >= 2**62:
        scale = 2**40
    return (0, *(scale // k for k in range(1, n + 1)))


@dataclass(frozen=True)
class _Geometry:
    """What the search needs of a shape: units, peers, each cell's three units and the full mask."""

    n: int
    units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    cell_units: tuple[tuple[int, int, int], ...]
    full: int
    weights: tuple[int, ...]


@lru_cache(maxsize=RULES_KEPT)
def geometry(rules: Rules) -> _Geometry:
    """What the singles need of ``rules`` (houses, peers, the full mask), built once per value."""
    return _geometry(rules)


@lru_cache(maxsize=RULES_KEPT)
def _geometry(rules: Rules) -> _Geometry:
    return _Geometry(
        rules.n, rules.houses, rules.peers, rules.houses_of, (1 << rules.n) - 1, weight_table(rules.n)
    )


@dataclass
class SearchOutcome:
    """Solutions found (digit tuples, in search order), whether the search space was exhausted, statistics."""

    solutions: list[tuple[int, ...]]
    complete: bool
    timed_out: bool = False
    stats: dict[str, int | float] = field(default_factory=dict)


def _single(mask: int) -> bool:
    """True when the mask has at most one bit set (a solved cell; 0 never reaches the caller)."""
    return mask & (mask - 1) == 0


def propagate(cands: list[int], queue: list[int], geo: _Geometry, hidden_singles: bool = True) -> bool:
    """Naked and (with ``hidden_singles``) hidden singles to a fixpoint; False on a contradiction. The
    singles of this search and of the rater's "which singles solve it" (``rate``).

    ``queue`` holds the cells that became single and whose digit is not yet removed from their peers.
    """
    while queue:
        while queue:  # naked singles: remove each new single's digit from its peers
            cell = queue.pop()
            bit = cands[cell]
            for peer in geo.peers[cell]:
                mask = cands[peer]
                if mask & bit:
                    mask ^= bit
                    if mask == 0:
                        return False  # a cell without candidates (or two givens that clash)
                    cands[peer] = mask
                    if _single(mask):
                        queue.append(peer)
        if not hidden_singles:
            break
        for unit in geo.units:  # hidden singles: a digit with one place in a unit goes there
            once = twice = placed = 0
            for cell in unit:
                mask = cands[cell]
                twice |= once & mask
                once |= mask
                if _single(mask):
                    placed |= mask
            if once != geo.full:
                return False  # some digit has no place left in this unit
            hidden = once & ~twice & ~placed
            if hidden:
                for cell in unit:
                    mask = cands[cell] & hidden
                    if mask:
                        if not _single(mask):
                            return False  # one cell is the only place of two digits
                        cands[cell] = mask
                        queue.append(cell)
    return True


def choose_cell(cands: list[int], heuristic: str, geo: _Geometry, scores: list[int] | None = None) -> int:
    """The cell to branch on, or -1 when every cell is solved (``scores``: the dead ends per cell so far,
    for ``conflicts``)."""
    if heuristic == "conflicts":
        assert scores is not None
        return fewest_then_conflicts(cands, scores)
    if heuristic == "first":
        return next((cell for cell, mask in enumerate(cands) if not _single(mask)), -1)
    if heuristic == "mrv":
        best, best_count = -1, geo.n + 1
        for cell, mask in enumerate(cands):
            if not _single(mask):
                count = mask.bit_count()
                if count < best_count:
                    best, best_count = cell, count
                    if count == 2:  # after propagation no empty cell has fewer
                        break
        return best
    if heuristic == "weighted":
        recip = geo.weights
        unit_sums = [sum(recip[cands[cell].bit_count()] for cell in unit) for unit in geo.units]
        best, best_weight = -1, -1
        for cell, mask in enumerate(cands):
            if not _single(mask):
                row, col, box = geo.cell_units[cell]
                weight = (
                    unit_sums[row] + unit_sums[col] + unit_sums[box] + OWN_WEIGHT * recip[mask.bit_count()]
                )
                if weight > best_weight:
                    best, best_weight = cell, weight
        return best
    raise ValueError(f"unknown heuristic {heuristic!r}; valid: {', '.join(HEURISTICS)}")


def fewest_then_conflicts(cands: list[int], scores: list[int]) -> int:
    """The unsolved cell with the fewest candidates, among those the one with the highest score, the first
    on ties; -1 when every cell is solved (``conflicts``)."""
    best, best_count, best_score = -1, 0, 0
    for cell, mask in enumerate(cands):
        if mask & (mask - 1):
            count = mask.bit_count()
            if best < 0 or count < best_count or (count == best_count and scores[cell] > best_score):
                best, best_count, best_score = cell, count, scores[cell]
    return best


def _digits(cands: list[int]) -> tuple[int, ...]:
    """The solved grid as digits (each mask has exactly one bit)."""
    return tuple(mask.bit_length() for mask in cands)


def search(
    cells: tuple[int, ...] | list[int],
    rules: Rules,
    limit: int = 1,
    heuristic: str = "mrv",
    time_limit: float | None = None,
) -> SearchOutcome:
    """Enumerate up to ``limit`` solutions of the grid ``cells`` (0 = empty) by propagation and DFS.

    With ``time_limit`` (seconds) the search stops before a guess once the time has passed, with
    ``timed_out`` set and ``complete`` False. The clock is read before every guess: a guess costs tens of
    microseconds here, a clock read a few tens of nanoseconds. ``auto`` is ``mrv`` here.
    """
    heuristic = resolved(heuristic, rules)
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    geo = _geometry(rules)
    root = [1 << (d - 1) if d else geo.full for d in cells]
    state = root if propagate(root, [c for c, d in enumerate(cells) if d], geo) else None

    def child(parent: list[int], cell: int, bit: int) -> list[int] | None:
        state = parent.copy()
        state[cell] = bit
        return state if propagate(state, [cell], geo) else None

    scores = [0] * len(cells)
    return depth_first(
        state,
        child,
        lambda s: choose_cell(s, heuristic, geo, scores),
        limit,
        started,
        deadline,
        failed=scores_failed(scores),
    )


def scores_failed(scores: list[int]) -> Callable[[int], None]:
    """What counts a dead end of a guess in ``cell`` for ``conflicts``."""

    def failed(cell: int) -> None:
        scores[cell] += 1

    return failed


def depth_first(
    root: list[int] | None,
    child: Callable[[list[int], int, int], list[int] | None],
    choose: Callable[[list[int]], int],
    limit: int,
    started: float,
    deadline: float | None,
    accept: Callable[[tuple[int, ...]], bool] | None = None,
    failed: Callable[[int], None] | None = None,
) -> SearchOutcome:
    """The search both Python engines share (this reference and the general path of ``dfs_rules``).

    ``root`` is the propagated start (None: a contradiction); ``child(parent, cell, bit)`` the propagated
    state after placing ``bit`` in ``cell`` (None on a contradiction); ``choose`` the branch cell (-1: all
    solved); ``accept`` a last check of a solved grid; ``failed(cell)`` hears of each guess in ``cell``
    whose propagation ended in a contradiction. Candidates are tried smallest digit first; the clock is
    read before every guess.
    """
    solutions: list[tuple[int, ...]] = []
    nodes, guesses, backtracks = 1, 0, 0

    def outcome(complete: bool, timed_out: bool = False) -> SearchOutcome:
        stats = {
            "guesses": guesses,
            "backtracks": backtracks,
            "nodes": nodes,
            "time": time.perf_counter() - started,
        }
        return SearchOutcome(solutions, complete, timed_out, stats)

    state = root
    stack: list[list] = []  # branch points: [candidates before the guess, cell, untried candidates]
    while True:
        if state is not None:  # a consistent state, just propagated
            cell = choose(state)
            if cell < 0:
                digits = _digits(state)
                if accept is None or accept(digits):
                    solutions.append(digits)
                    if len(solutions) >= limit:
                        return outcome(complete=False)
            else:
                stack.append([state, cell, state[cell]])
        while stack and stack[-1][2] == 0:
            stack.pop()  # every value of this branch point is tried: step back
        if not stack:
            return outcome(complete=True)
        if deadline is not None and time.perf_counter() >= deadline:
            return outcome(complete=False, timed_out=True)
        frame = stack[-1]
        parent, cell, untried = frame
        bit = untried & -untried  # the smallest untried digit
        frame[2] = untried ^ bit
        guesses += 1
        nodes += 1
        state = child(parent, cell, bit)
        if state is None:
            backtracks += 1
            if failed is not None:
                failed(cell)
