"""Sudoku Explainer's hints as the step engine's ``Step``: the names of sudoku-cp's vocabulary, the pattern
to draw (cells, digits, houses, a chain's links) and a reason in words.
"""

from __future__ import annotations

from functools import cache

from ..grid import Rules, symbol
from ..human.step import Link, Step
from .chaining import ChainHint, Potential, chain_of
from .grid import BLOCK, COLUMN, ROW, Geometry, bits
from .hints import Hint

__all__ = ["technique_name", "to_step"]

#: SE's words that sudoku-cp's vocabulary spells otherwise.
_WORDS = {"triplet": "triple"}


def technique_name(hint: Hint) -> str:
    """SE's name in sudoku-cp's spelling: sentence case, ``X-wing``, ``Naked triple``; a hidden single
    that is the last cell of its region is a ``Full house`` (SE's 1.0)."""
    if hint.name == "Hidden Single" and hint.difficulty == 1.0:
        return "Full house"
    words = []
    for i, word in enumerate(hint.name.split(" ")):
        if word.isupper() and len(word) > 1 and "-" not in word:  # BUG
            words.append(word)
            continue
        head, dash, tail = word.partition("-")
        if dash:
            words.append(f"{head}-{tail.lower()}")
        else:
            low = word.lower()
            words.append(word if i == 0 else _WORDS.get(low, low))
    return " ".join(words)


@cache
def _house_index(rules: Rules, geo: Geometry) -> dict[tuple[int, int], int]:
    """SE's region references ``(type, index)`` -> indices of ``Rules.houses``."""
    where = {frozenset(h): i for i, h in enumerate(rules.houses)}
    return {
        (t, i): where[frozenset(cells)]
        for t in (BLOCK, ROW, COLUMN)
        for i, cells in enumerate(geo.regions[t])
    }


def _links(hint: ChainHint) -> tuple[Link, ...]:
    """The links of a chain hint: from each potential's parents to it, strong where an "off" forces an
    "on" (SE draws the links of potentials with at most six parents)."""
    seen: dict[tuple[tuple[int, int], tuple[int, int], bool], None] = {}
    for target in hint.targets:
        for p in chain_of(target):
            if len(p.parents) > 6:
                continue
            for parent in p.parents:
                link = ((parent.cell, parent.digit), (p.cell, p.digit), p.on and not parent.on)
                seen.setdefault(link)
    return tuple(seen)


def _chain_text(target: Potential, geo: Geometry) -> str:
    """A chain's line of reasoning along first parents: ``r1c2=5 -> r1c7<>5 -> ...``."""
    line = []
    p: Potential | None = target
    while p is not None:
        line.append(f"{geo.name(p.cell)}{'=' if p.on else '<>'}{symbol(p.digit)}")
        p = p.parents[0] if p.parents else None
    return " -> ".join(reversed(line))


def to_step(hint: Hint, rules: Rules, geo: Geometry) -> Step:
    """The step of an SE hint on a grid of ``rules`` (classic, of ``geo``'s shape)."""
    houses = _house_index(rules, geo)
    placements = ((hint.cell, hint.value),) if hint.cell is not None else ()
    eliminations = tuple(hint.eliminations())
    technique = technique_name(hint)
    difficulty = round(hint.difficulty, 1)
    if isinstance(hint, ChainHint):
        cells = tuple(dict.fromkeys(p.cell for t in hint.targets for p in chain_of(t)))
        reason = f"{hint.complexity} candidates in the chains"
        if len(hint.targets) == 1 or technique.startswith("Bidirectional"):
            reason = _chain_text(hint.targets[0], geo)
        if hint.detail:
            reason = f"{hint.detail}: {reason}"
        return Step(
            technique, difficulty, rules, placements, eliminations, cells=cells,
            digits=tuple(sorted({p.digit for t in hint.targets for p in chain_of(t)})),
            reason=reason, links=_links(hint),
        )  # fmt: skip
    regions = tuple(houses[r] for r in hint.regions)
    cells, digits = tuple(hint.cells), tuple(bits(hint.digits))
    if hint.cell is not None and not cells:  # a single: its cell and digit are the pattern
        cells, digits = (hint.cell,), (hint.value,)
    return Step(
        technique, difficulty, rules, placements, eliminations, cells=cells, digits=digits, houses=regions,
        reason=_reason(technique, rules, cells, digits, regions),
    )  # fmt: skip


def _reason(
    technique: str, rules: Rules, cells: tuple[int, ...], digits: tuple[int, ...], houses: tuple[int, ...]
) -> str:
    """Why a basic step holds, in the words of sudoku-cp's own steps."""
    from ..human.board import house_name
    from ..rules.constraints import cell_name

    n = rules.n
    names = [house_name(rules, h) for h in houses]
    where = ", ".join(cell_name(c, n) for c in cells)
    what = ",".join(symbol(d) for d in digits)
    if technique == "Full house" and names:
        return f"last open cell of {names[0]}"
    if technique == "Hidden single" and names:
        return f"only place for {what} in {names[0]}"
    if technique == "Naked single":
        return f"the only candidate left in {where}"
    if technique in ("Pointing", "Claiming", "Direct pointing", "Direct claiming") and len(names) >= 2:
        return f"the places of {what} in {names[0]} lie in {names[1]}"
    if technique.startswith("Naked") and names:
        return f"{where} hold only {what} in {names[0]}"
    if technique.startswith(("Hidden", "Direct hidden")) and names:
        return f"{what} lie only in {where} in {names[0]}" if where else f"{what} in {names[0]}"
    if technique in ("X-wing", "Swordfish", "Jellyfish") and names:
        return f"{what} in {', '.join(names[0::2])} lies in {', '.join(names[1::2])}"
    if cells:
        return f"{where}" + (f" on {what}" if what else "")
    return ", ".join(names)
