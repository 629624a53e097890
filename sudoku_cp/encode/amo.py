"""At-most-one schemes: CNF for "no two of these literals are true", pairwise or with auxiliary variables.

Every scheme is a pure function of the literals and a variable pool (a ``pysat.formula.IDPool`` whose
``top`` lies above every primary variable), so auxiliaries never collide. ``pairwise`` is written here;
the others are python-sat's ``pysat.card`` encodings at bound 1 (Roussel and Manquinho, *Pseudo-Boolean
and Cardinality Constraints*, Handbook of Satisfiability 2009, survey them all).

>>> from pysat.formula import IDPool
>>> at_most_one([1, 2, 3], "pairwise", IDPool(start_from=10))
[[-1, -2], [-1, -3], [-2, -3]]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pysat.formula import IDPool

__all__ = ["AMO_SCHEMES", "SCHEME_PAPERS", "at_most_one", "check_scheme"]

#: Scheme name -> one line on what it is and the paper behind it; the keys are the ``--amo`` choices.
SCHEME_PAPERS: dict[str, str] = {
    "pairwise": "one binary clause per pair, no auxiliaries (Prestwich, CNF Encodings, Handbook of SAT 2009)",
    "seqcounter": "sequential counter, 3k-4 clauses and k-1 auxiliaries (Sinz, CP 2005)",
    "ladder": "ladder/regular encoding (Gent and Nightingale 2004; Ansotegui and Manya, SAT 2004)",
    "bitwise": "bitwise/binary encoding, k*log2(k) clauses, log2(k) auxiliaries (Prestwich 2009)",
    "totalizer": "totalizer, a unary adder tree (Bailleux and Boufkhad, CP 2003)",
    "mtotalizer": "modulo totalizer (Ogawa, Liu, Hasegawa, Koshimura and Fujita, ICTAI 2013)",
    "kmtotalizer": "modulo totalizer for k-cardinality (Morgado, Ignatiev and Marques-Silva, JSAT 2015)",
    "sortnetwrk": "odd-even sorting network (Batcher 1968; Een and Sorensson, JSAT 2006)",
    "cardnetwrk": "cardinality network (Asin, Nieuwenhuis, Oliveras and Rodriguez-Carbonell, SAT 2009)",
}
#: The names ``--amo`` accepts, pairwise first.
AMO_SCHEMES: tuple[str, ...] = tuple(SCHEME_PAPERS)


def check_scheme(scheme: str) -> str:
    """``scheme`` itself, or ``ValueError`` naming the valid schemes."""
    if scheme not in SCHEME_PAPERS:
        raise ValueError(f"unknown at-most-one scheme {scheme!r}; valid: {', '.join(AMO_SCHEMES)}")
    return scheme


def at_most_one(lits: list[int], scheme: str, pool: IDPool) -> list[list[int]]:
    """Clauses that allow at most one of ``lits`` to be true; auxiliaries come from ``pool``.

    Groups of 0 or 1 literal need no clause; groups of 2 always get the single binary clause, which
    every scheme would otherwise encode with needless auxiliaries.
    """
    k = len(lits)
    if k < 2:
        return []
    if k == 2 or scheme == "pairwise":
        return list(map(list, combinations([-lit for lit in lits], 2)))
    clauses, auxiliaries = _template(k, check_scheme(scheme))
    names = [0, *lits, *(pool.id() for _ in range(auxiliaries))]  # template variable v -> names[v]
    return [[names[t] if t > 0 else -names[-t] for t in clause] for clause in clauses]


@cache
def _template(k: int, scheme: str) -> tuple[tuple[tuple[int, ...], ...], int]:
    """python-sat's encoding of at most one of the variables 1..k, auxiliaries from k + 1 on, and the
    number of auxiliaries: every group of k literals is this with its variables renamed, so python-sat
    (a call costs about 0.1 ms) runs once per size and scheme."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    pool = IDPool(start_from=k + 1)
    clauses = CardEnc.atmost(
        lits=list(range(1, k + 1)), bound=1, vpool=pool, encoding=getattr(EncType, scheme)
    )
    return tuple(map(tuple, clauses.clauses)), pool.top - k
