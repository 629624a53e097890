"""CP-SAT constraints for the rules beyond houses, on either model kind, with no variable beyond the cells'.

``int``: AllDifferent per group, ``!=`` for a differ pair and an allowed-assignments table for any other
pair, ``<`` along a thermometer, linear equalities for cage sums and arrows (a pill read as a decimal
number), and the sums the cages imply (``sums.implied_sums``), redundant. ``bool``: the same over the
one-hot literals (at most one per digit in a group, clauses for the forbidden digit pairs, linear sums
weighted by digit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rules import Rules
from ..rules.sums import implied_sums

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["add_rules"]


def add_rules(model: cp_model.CpModel, rules: Rules, cells: list[Any]) -> int:
    """Add ``rules``' groups, pairs, thermometers, cages and arrows to ``model``; ``cells`` holds each
    cell's IntVar (``int`` model) or its list of n literals (``bool`` model). Returns the count added."""
    before = len(model.proto.constraints)
    if cells and isinstance(cells[0], list):
        _add_bool(model, rules, cells)
    else:
        _add_int(model, rules, cells)
    return len(model.proto.constraints) - before


def _add_int(model: cp_model.CpModel, rules: Rules, cells: list[Any]) -> None:
    n = rules.n
    for group in rules.groups:
        model.add_all_different([cells[c] for c in group])
    for p in rules.pairs:
        a, b = cells[p.a], cells[p.b]
        if p.relation == "differ" and not p.negated:
            model.add(a != b)
        else:
            model.add_allowed_assignments([a, b], sorted(p.allowed(n)))
    for thermo in rules.thermos:
        for a, b in zip(thermo.cells, thermo.cells[1:], strict=False):
            model.add(cells[a] < cells[b])
    for cage in rules.cages:
        if cage.total is not None:
            model.add(sum(cells[c] for c in cage.cells) == cage.total)
    for arrow in rules.arrows:
        width = len(arrow.circle)
        shown = sum(10 ** (width - 1 - j) * cells[c] for j, c in enumerate(arrow.circle))
        model.add(shown == sum(cells[c] for c in arrow.cells))
    for terms, weights, total in implied_sums(rules):  # redundant: the rule of 45 over bands
        model.add(sum(w * cells[c] for c, w in zip(terms, weights, strict=True)) == total)


def _value(lits: list[Any]) -> Any:
    """The digit a cell's one-hot literals stand for, as a linear expression."""
    return sum((d + 1) * lit for d, lit in enumerate(lits))


def _add_bool(model: cp_model.CpModel, rules: Rules, lits: list[list[Any]]) -> None:
    n = rules.n
    for group in rules.groups:
        for d in range(n):
            model.add_at_most_one([lits[c][d] for c in group])
    for p in rules.pairs:
        allowed = p.allowed(n)
        for x in range(1, n + 1):
            for y in range(1, n + 1):
                if (x, y) not in allowed:
                    model.add_bool_or([lits[p.a][x - 1].negated(), lits[p.b][y - 1].negated()])
    for thermo in rules.thermos:
        for a, b in zip(thermo.cells, thermo.cells[1:], strict=False):
            model.add(_value(lits[a]) < _value(lits[b]))
    for cage in rules.cages:
        if cage.total is not None:
            model.add(sum(_value(lits[c]) for c in cage.cells) == cage.total)
    for arrow in rules.arrows:
        width = len(arrow.circle)
        shown = sum(10 ** (width - 1 - j) * _value(lits[c]) for j, c in enumerate(arrow.circle))
        model.add(shown == sum(_value(lits[c]) for c in arrow.cells))
    for terms, weights, total in implied_sums(rules):
        model.add(sum(w * _value(lits[c]) for c, w in zip(terms, weights, strict=True)) == total)
