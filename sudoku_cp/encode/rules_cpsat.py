"""CP-SAT constraints for the rules beyond houses, on either model kind.

``int``: AllDifferent per group, ``!=`` for a differ pair and an allowed-assignments table for any other
pair, ``<`` along a thermometer, linear equalities for cage sums, arrows (a pill read as a decimal
number) and the variants' sums, the sums the cages imply (``sums.implied_sums``), redundant, and CP-SAT's
automaton for each automaton (``rules.automaton``), with no variable beyond the cells'. ``bool``: the same
over the one-hot literals (at most one per digit in a group, clauses for the forbidden digit pairs, linear
sums weighted by digit), with an integer variable per cell an automaton reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rules import Rules
from ..rules.automaton import Automaton
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
    for terms, weights, total in rules.linear_sums + tuple(implied_sums(rules)):  # implied: redundant
        model.add(sum(w * cells[c] for c, w in zip(terms, weights, strict=True)) == total)
    for automaton in rules.automata:
        _add_automaton(model, automaton, [cells[c] for c in automaton.cells])


def _add_automaton(model: cp_model.CpModel, automaton: Automaton, values: list[Any]) -> None:
    """An automaton over the cells' values: its layered graph as CP-SAT's automaton, the nodes numbered
    across layers (the first 0, the accepting one last)."""
    if automaton.empty:
        model.add_bool_or([])  # no digits keep it: the puzzle has no solution
        return
    first = [0]
    for i in range(len(automaton.cells)):
        first.append(first[-1] + automaton.nodes(i))
    triples = [
        (first[i] + u, d, first[i + 1] + v) for i, layer in enumerate(automaton.edges) for u, d, v in layer
    ]
    model.add_automaton(values, 0, [first[-1]], triples)


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
    for terms, weights, total in rules.linear_sums + tuple(implied_sums(rules)):
        model.add(sum(w * _value(lits[c]) for c, w in zip(terms, weights, strict=True)) == total)
    for automaton in rules.automata:
        values = []
        for c in automaton.cells:
            value = model.new_int_var(1, n, f"automaton_cell_{c}")
            model.add(value == _value(lits[c]))
            values.append(value)
        _add_automaton(model, automaton, values)
