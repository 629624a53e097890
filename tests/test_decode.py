"""encode writes one DIMACS file per puzzle into a folder; decode turns a solver's model back into a grid."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from pysat.formula import CNF
from pysat.solvers import Solver

from sudoku_cp import parse, solve

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def test_encode_writes_one_file_per_puzzle_into_a_folder(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text(f"{EASY}\n123\n12343412214343..\n")
    proc = run_cli("encode", str(source), "-o", str(tmp_path / "cnf") + "/")
    assert proc.returncode == 1 and "line 2, puzzle 2" in proc.stderr
    assert sorted(p.name for p in (tmp_path / "cnf").iterdir()) == ["1.cnf", "3.cnf"]
    assert "c puzzle 12343412214343.." in (tmp_path / "cnf" / "3.cnf").read_text()


def test_several_puzzles_without_a_folder_are_refused() -> None:
    proc = run_cli("encode", "-", stdin=f"{EASY}\n{EASY}\n")
    assert proc.returncode == 2 and "-o DIR/" in proc.stderr


def _model(cnf_text: str) -> list[int]:
    with Solver(name="cadical153", bootstrap_with=CNF(from_string=cnf_text).clauses) as solver:
        assert solver.solve()
        return solver.get_model()


@pytest.mark.parametrize("encoding", ["extended", "reduced"])
@pytest.mark.parametrize("layout", ["competition", "minisat", "bare"])
def test_decode_reads_every_common_model_format(tmp_path: Path, encoding: str, layout: str) -> None:
    formula = tmp_path / "p.cnf"
    assert (
        run_cli("encode", "--encoding", encoding, "-o", str(formula), "-", stdin=EASY + "\n").returncode == 0
    )
    literals = " ".join(map(str, _model(formula.read_text())))
    text = {
        "competition": f"c a comment\ns SATISFIABLE\nv {literals} 0\n",
        "minisat": f"SAT\n{literals} 0\n",
        "bare": f"{literals}\n",
    }[layout]
    (tmp_path / "model.txt").write_text(text)
    proc = run_cli("decode", str(formula), str(tmp_path / "model.txt"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == SOLVED + "\n"


def test_decode_says_when_the_solver_found_nothing_or_the_model_is_wrong(tmp_path: Path) -> None:
    formula = tmp_path / "p.cnf"
    run_cli("encode", "-o", str(formula), "-", stdin=EASY + "\n")
    unsat = run_cli("decode", str(formula), "-", stdin="s UNSATISFIABLE\n")
    assert unsat.returncode == 1 and "UNSATISFIABLE" in unsat.stderr
    model = _model(formula.read_text())
    model[4] = 5  # r1c1 takes 5, its other candidate, as well as its own 4
    wrong = run_cli("decode", str(formula), "-", stdin="v " + " ".join(map(str, model)) + " 0\n")
    assert wrong.returncode == 1 and "r1c1" in wrong.stderr
    garbage = run_cli("decode", str(formula), "-", stdin="v 1 two 3\n")
    assert garbage.returncode == 1 and "line 1 of the solver output" in garbage.stderr


def test_decode_names_a_file_it_cannot_read(tmp_path: Path) -> None:
    cnf = tmp_path / "p.cnf"
    assert run_cli("encode", "-p", EASY, "-o", str(cnf)).returncode == 0
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(128, 256)))
    for formula, model, why in (
        (cnf, garbage, f"cannot read {garbage}: not UTF-8 text"),
        (garbage, cnf, f"cannot read {garbage}: not UTF-8 text"),
        (cnf, tmp_path / "none.txt", f"cannot read {tmp_path / 'none.txt'}: No such file or directory"),
        (cnf, tmp_path, f"cannot read {tmp_path}: Is a directory"),
    ):
        proc = run_cli("decode", str(formula), str(model))
        assert proc.returncode == 2 and why in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    proc = run_cli("decode", str(cnf), "-", stdin=bytes(range(128, 256)))
    assert proc.returncode == 2 and "cannot read the standard input: not UTF-8 text" in proc.stderr


def test_decode_says_a_model_of_another_formula_does_not_fit(tmp_path: Path) -> None:
    nine, four = tmp_path / "nine.cnf", tmp_path / "four.cnf"
    assert run_cli("encode", "-p", EASY, "-o", str(nine)).returncode == 0
    assert run_cli("encode", "-p", "12343412214343..", "-o", str(four)).returncode == 0
    small = "v " + " ".join(map(str, _model(four.read_text()))) + " 0\n"
    big = "v " + " ".join(map(str, _model(nine.read_text()))) + " 0\n"
    for formula, model, why in (
        (nine, small, "the model gives values to 64 variables, the formula's clauses use 729"),
        (four, big, "the model has 729 variables, the formula 64"),
    ):
        proc = run_cli("decode", str(formula), "-", stdin=model)
        assert proc.returncode == 1 and f"the model does not fit the formula {formula}: " in proc.stderr
        assert why in proc.stderr and "digits" not in proc.stderr, proc.stderr


def test_decode_checks_the_given_cells_variables(tmp_path: Path) -> None:
    formula = tmp_path / "p.cnf"
    assert run_cli("encode", "-p", EASY, "-o", str(formula)).returncode == 0
    model = _model(formula.read_text())
    model[2 * 9 + 3 - 1] = -(2 * 9 + 3)  # r1c3 is given 3: the model says it is not
    proc = run_cli("decode", str(formula), "-", stdin="v " + " ".join(map(str, model)) + " 0\n")
    assert proc.returncode == 1, proc.stdout
    assert "clause 11,989 of the formula, (r1c3=3) (a given), is false" in proc.stderr, proc.stderr


X_PUZZLE = "68.3..........4.....5.1.....2..7......629.8.........1..........9.4..5.21.......6."
THERMO_CAGE = (
    '{"size":4,"grid":[[{"value":1,"given":true},{},{},{"value":4,"given":true}],'
    '[{"value":3,"given":true},{"value":4,"given":true},{},{}],'
    '[{},{"value":1,"given":true},{"value":4,"given":true},{}],[{},{},{"value":2,"given":true},{}]],'
    '"thermometer":[{"lines":[["R1C1","R1C2","R1C3"]]}],'
    '"killercage":[{"cells":["R4C1","R4C2"],"value":"7"}]}'
)


@pytest.mark.parametrize(
    ("source", "kept"), [("# rules: x\n" + X_PUZZLE, "# rules: x\n"), (THERMO_CAGE, '"thermometer"')]
)
def test_decode_reads_back_the_rules_the_formula_was_encoded_with(
    tmp_path: Path, source: str, kept: str
) -> None:
    """The formula states rules beyond the classic ones on its ``c rules`` line, so decode checks the model
    against the puzzle with every rule and writes the solution with them: a line under its ``# rules:`` line,
    or an f-puzzles object for cages and lines."""
    formula = tmp_path / "p.cnf"
    assert run_cli("encode", "-o", str(formula), "-", stdin=source + "\n").returncode == 0
    (tmp_path / "model.txt").write_text(" ".join(map(str, _model(formula.read_text()))) + "\n")
    proc = run_cli("decode", str(formula), str(tmp_path / "model.txt"))
    assert proc.returncode == 0, proc.stderr
    assert kept in proc.stdout
    [decoded], [puzzle] = parse(proc.stdout), parse(source)
    assert decoded.rules == puzzle.rules
    assert decoded.to_string() == solve(puzzle, unique=True).solution.to_string()


def test_decode_refuses_a_formula_that_names_rules_it_does_not_state(tmp_path: Path) -> None:
    """A formula of an earlier version names its rules only in its title comment: decode says so instead of
    reading it as a classic puzzle."""
    formula = tmp_path / "p.cnf"
    run_cli("encode", "-o", str(formula), "-", stdin=THERMO_CAGE + "\n")
    text = "".join(line for line in formula.read_text().splitlines(True) if not line.startswith("c rules"))
    formula.write_text(text)
    proc = run_cli("decode", str(formula), "-", stdin="1 2 3\n")
    assert (
        proc.returncode == 2 and "encode the puzzle again" in proc.stderr and "Traceback" not in proc.stderr
    )


def test_decode_refuses_a_model_that_makes_a_variable_both_true_and_false(tmp_path: Path) -> None:
    formula = tmp_path / "p.cnf"
    run_cli("encode", "-o", str(formula), "-", stdin=EASY + "\n")
    model = _model(formula.read_text())
    literals = " ".join(map(str, [*model, -model[0]]))  # variable 1 again, the other way
    proc = run_cli("decode", str(formula), "-", stdin=f"s SATISFIABLE\nv {literals} 0\n")
    assert proc.returncode == 1 and "variable 1 both true and false" in proc.stderr


def test_decode_writes_the_solution_in_the_alphabet_the_puzzle_was_encoded_from(tmp_path: Path) -> None:
    """``encode --symbols 0-F`` reads a 0-F puzzle; ``decode`` wrote its solution in 1-9A-G only."""
    from sudoku_cp import Puzzle
    from sudoku_cp.formats import format_puzzle
    from sudoku_cp.formats.alphabet import parse_alphabet
    from sudoku_cp.rules import Rules
    from sudoku_cp.samples import blanked, pattern_grid

    puzzle = blanked(pattern_grid(Rules.classic(4, 4), seed=2), 0.3, seed=2)
    zero_f = parse_alphabet("0-F")
    formula = tmp_path / "p.cnf"
    text = format_puzzle(puzzle, "line", zero_f)
    assert run_cli("encode", "--symbols", "0-F", "-o", str(formula), "-", stdin=text + "\n").returncode == 0
    (tmp_path / "model.txt").write_text(" ".join(map(str, _model(formula.read_text()))) + "\n")
    proc = run_cli("decode", "--symbols", "0-F", str(formula), str(tmp_path / "model.txt"))
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.split()
    solution = Puzzle.from_string(line.translate(str.maketrans("0123456789ABCDEF", "123456789ABCDEFG")))
    assert set(line) <= set("0123456789ABCDEF") and solution.is_complete()
    assert all(solution.cells[c] == d for c, d in puzzle.givens)
