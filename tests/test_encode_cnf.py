"""The CNF encodings: sizes from the literature, model counts, variable numbering, the reduced formula."""

from __future__ import annotations

import itertools

import pytest
from conftest import FULL
from pysat.solvers import Solver

from sudoku_cp.encode.amo import AMO_SCHEMES, at_most_one
from sudoku_cp.encode.cnf import (
    ENCODINGS,
    candidates,
    cell_digit,
    clause_families,
    decode,
    default_amo,
    encode,
    encode_rules,
    given_literals,
    var,
)
from sudoku_cp.grid import Puzzle, Rules
from sudoku_cp.verify import is_solution

CLASSIC = Puzzle.from_string(
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
)


def count_models(clauses: list[list[int]], puzzle: Puzzle, limit: int = 10_000) -> int:
    """Count grids by blocking each found one over the primary variables (auxiliaries stay free)."""
    n = puzzle.n
    found = set()
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while len(found) < limit and solver.solve():
            grid = decode(solver.get_model(), puzzle)
            assert is_solution(puzzle, grid)
            found.add(grid.cells)
            solver.add_clause([-(cell * n + d) for cell, d in enumerate(grid.cells)])
    return len(found)


@pytest.mark.parametrize(("encoding", "amo"), list(itertools.product(ENCODINGS, AMO_SCHEMES)))
def test_empty_4x4_has_288_solutions_under_every_encoding_and_scheme(encoding: str, amo: str) -> None:
    cnf = encode_rules(Rules.classic(2, 2), encoding, amo)
    assert count_models(cnf.clauses, Puzzle.empty(Rules.classic(2, 2))) == 288


def test_clause_counts_match_the_literature() -> None:
    # Lynce and Ouaknine 2006: 11,988 extended clauses and 8,829 minimal ones for the empty 9x9 grid.
    assert len(encode_rules(Rules.classic(3, 3), "extended", "pairwise").clauses) == 11_988
    assert len(encode_rules(Rules.classic(3, 3), "minimal", "pairwise").clauses) == 8_829
    n = 16  # 4 n^2 groups of n literals, each one at-least-one clause and C(n, 2) pairs
    assert len(encode_rules(Rules.classic(4, 4), "extended", "pairwise").clauses) == 4 * n * n * (
        1 + n * (n - 1) // 2
    )


def test_reduced_is_about_a_quarter_of_extended_for_a_9x9_puzzle() -> None:
    reduced = encode(CLASSIC, "reduced", "pairwise")
    assert 2_000 < len(reduced.clauses) < 4_000
    assert len(encode(CLASSIC, "extended", "pairwise").clauses) == 11_988 + 17


def test_primary_variables_by_arithmetic() -> None:
    n = 9
    assert var(n, 0, 1) == 1 and var(n, 80, 9) == 729
    assert all(cell_digit(n, var(n, c, d)) == (c, d) for c in range(81) for d in range(1, 10))
    assert given_literals(CLASSIC)[:2] == [var(9, 0, 4), var(9, 6, 8)]


@pytest.mark.parametrize("amo", AMO_SCHEMES)
def test_auxiliaries_live_above_the_primary_variables(amo: str) -> None:
    cnf = encode_rules(Rules.classic(2, 3), "extended", amo)
    n3 = 6**3
    lits = {abs(lit) for clause in cnf.clauses for lit in clause}
    assert set(range(1, n3 + 1)) <= lits  # every primary variable is used
    assert max(lits) <= cnf.nv
    assert (cnf.nv > n3) == (amo != "pairwise")


def test_default_scheme_is_pairwise_for_short_groups_and_a_counter_for_long_ones() -> None:
    assert default_amo(9) == default_amo(16) == "pairwise"
    assert default_amo(25) == "seqcounter"
    _, nv = clause_families(Rules.classic(5, 5), "extended")
    assert nv > 25**3  # the counters' auxiliaries


def test_at_most_one_of_two_is_one_binary_clause_in_every_scheme() -> None:
    from pysat.formula import IDPool

    for amo in AMO_SCHEMES:
        assert at_most_one([3, 7], amo, IDPool(start_from=10)) == [[-3, -7]]
        assert at_most_one([3], amo, IDPool(start_from=10)) == []


@pytest.mark.parametrize(
    "rules", [Rules.classic(2, 3), Rules.classic(3, 2), Rules.classic(2, 4), Rules.classic(3, 3)]
)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_solves_a_puzzle_of_every_box_shape(rules: Rules, encoding: str) -> None:
    n = rules.n
    grid = [
        (rules.box_cols * (r % rules.box_rows) + r // rules.box_rows + c) % n + 1
        for r in range(n)
        for c in range(n)
    ]
    puzzle = Puzzle(rules, tuple(d if (i * 7) % 3 else 0 for i, d in enumerate(grid)))
    with Solver(name="glucose4", bootstrap_with=encode(puzzle, encoding).clauses) as solver:
        assert solver.solve()
        assert is_solution(puzzle, decode(solver.get_model(), puzzle))


def test_reduced_leaves_out_what_the_givens_decide() -> None:
    families, _ = clause_families(CLASSIC, "reduced", "pairwise")
    used = {abs(lit) for clauses in families.values() for clause in clauses for lit in clause}
    free, _ = candidates(CLASSIC)
    for cell, d in CLASSIC.givens:
        assert not any(var(9, cell, e) in used for e in range(1, 10))
        assert free[cell] == 0
        for peer in CLASSIC.rules.peers[cell]:
            assert var(9, peer, d) not in used
    assert "givens" not in families


def test_reduced_models_agree_with_extended_ones() -> None:
    answers = []
    for encoding in ("extended", "reduced"):
        with Solver(name="minisat22", bootstrap_with=encode(CLASSIC, encoding).clauses) as solver:
            assert solver.solve()
            answers.append(decode(solver.get_model(), CLASSIC))
    assert answers[0] == answers[1] and is_solution(CLASSIC, answers[0])


def test_reduced_formula_of_clashing_givens_is_the_clash() -> None:
    clash = CLASSIC.with_cells([(1, 4)])  # a second 4 in row 1
    families, _ = clause_families(clash, "reduced")
    assert families["givens"] == [[var(9, 0, 4)], [var(9, 1, 4)]]
    assert families["unit_at_most_one"] == [[-var(9, 0, 4), -var(9, 1, 4)]]
    with Solver(name="glucose4", bootstrap_with=encode(clash, "reduced").clauses) as solver:
        assert not solver.solve()


def test_reduced_formula_of_a_cell_without_candidates_is_unsatisfiable() -> None:
    # r1c9 sees 1..8 in its row and 9 in its column: no digit is left for it.
    puzzle = Puzzle.from_string("12345678." + "........9" + "." * 63)
    assert candidates(puzzle)[0][8] == 0
    assert [] in encode(puzzle, "reduced").clauses
    with Solver(name="glucose4", bootstrap_with=encode(puzzle, "reduced").clauses) as solver:
        assert not solver.solve()


def test_decode_ignores_variables_outside_the_candidates_and_rejects_ambiguous_models() -> None:
    puzzle = Puzzle.from_string("1234341221......")
    solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    model = [v if (v - 1) % 4 + 1 == solution[(v - 1) // 4] else -v for v in range(1, 65)]
    assert decode(model, puzzle).cells == tuple(solution)
    model[var(4, 0, 2) - 1] = var(4, 0, 2)  # a given cell's other digit: ignored
    assert decode(model, puzzle).cells == tuple(solution)
    model[var(4, 15, 3) - 1] = var(4, 15, 3)  # r4c4 is 1, and now 3 too (both candidates)
    with pytest.raises(ValueError, match="r4c4"):
        decode(model, puzzle)


def test_unknown_encoding_or_scheme_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="valid: minimal, extended, reduced"):
        encode(CLASSIC, "compact")
    with pytest.raises(ValueError, match="pairwise"):
        encode(CLASSIC, "extended", "commander")


def test_dimacs_text_round_trips_through_python_sat() -> None:
    from pysat.formula import CNF

    from sudoku_cp.dimacs import puzzle_of_dimacs, to_dimacs

    for encoding in ENCODINGS:
        text = to_dimacs(CLASSIC, encoding, "bitwise")
        assert puzzle_of_dimacs(text) == CLASSIC
        cnf = CNF(from_string=text)
        expected = encode(CLASSIC, encoding, "bitwise")
        assert cnf.nv == expected.nv and cnf.clauses == expected.clauses
        assert "c var 1 = r1c1=1" in text and "c var 729 = r9c9=9" in text
        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
            assert solver.solve()
            assert is_solution(CLASSIC, decode(solver.get_model(), CLASSIC))
    assert to_dimacs(Rules.classic(2, 2), comments=False).splitlines()[0] == "p cnf 64 448"


def test_the_encodings_catalogue_is_rebuilt_exactly_from_the_code() -> None:
    """Every file of encodings/ as the code writes it. The counts of the 16x16 and 25x25 grids take most
    of a minute (pysat's cardinality networks on 4,096 and 15,625 variables): they are recounted with
    SUDOKU_CP_FULL_TESTS=1 (``python -m sudoku_cp.encode.catalogue --check`` does the same), else read
    from counts.csv; the smaller grids are always recounted."""
    import csv

    from sudoku_cp.encode.catalogue import GRIDS, build, count_rows, default_directory

    directory = default_directory()
    if FULL:
        rows = count_rows()
    else:
        counted = count_rows(GRIDS[:-2])
        largest = {f"{g.n}x{g.n}" for g in GRIDS[-2:]}
        with (directory / "counts.csv").open(encoding="utf-8") as f:
            kept = [
                {k: v if k in ("grid", "puzzle", "encoding", "amo") else int(v) for k, v in row.items()}
                for row in csv.DictReader(f)
                if row["grid"] in largest
            ]
        assert {row["grid"] for row in kept} == largest, f"counts.csv holds no rows of {largest}"
        empty = [r for r in counted if r["puzzle"] == "empty"]
        rows = empty + kept + [r for r in counted if r["puzzle"] == "sample"]
    for name, text in build(directory, rows=rows).items():
        on_disk = (directory / name).read_text(encoding="utf-8")
        assert on_disk == text, f"encodings/{name} is stale: run python -m sudoku_cp.encode.catalogue"


def test_the_catalogue_documents_every_encoding_and_scheme_and_quotes_true_facts() -> None:
    import csv

    from sudoku_cp.dimacs import puzzle_of_dimacs
    from sudoku_cp.encode.catalogue import SAMPLE, default_directory

    directory = default_directory()
    readme = (directory / "README.md").read_text(encoding="utf-8")
    for encoding in ENCODINGS:
        assert f"({encoding}.md)" in readme
    for amo in AMO_SCHEMES:
        assert f"`{amo}`" in readme
    with (directory / "counts.csv").open(encoding="utf-8") as f:
        rows = {(r["grid"], r["puzzle"], r["encoding"], r["amo"]): r for r in csv.DictReader(f)}
    assert rows["9x9", "empty", "extended", "pairwise"]["clauses"] == "11988"
    assert rows["9x9", "empty", "minimal", "pairwise"]["clauses"] == "8829"
    assert "11,988" in (directory / "extended.md").read_text(encoding="utf-8")
    assert "8,829" in (directory / "minimal.md").read_text(encoding="utf-8")
    sample = rows["9x9", "sample", "reduced", "pairwise"]
    quoted = f"{int(sample['clauses']):,} clauses over {int(sample['used_variables']):,} variables"
    assert quoted in (directory / "reduced.md").read_text(encoding="utf-8")
    assert puzzle_of_dimacs((directory / "sample_9x9_reduced.cnf").read_text(encoding="utf-8")) == SAMPLE
