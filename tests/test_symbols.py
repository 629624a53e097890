"""``--symbols``: 16x16 puzzles written 0-F, A-P or in any explicit alphabet are read as written and
answered in the same alphabet; the ambiguous case is refused with a message naming ``--symbols``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from sudoku_cp import Puzzle, is_solution, parse
from sudoku_cp.formats import format_puzzle
from sudoku_cp.formats.alphabet import parse_alphabet
from sudoku_cp.rules import Rules

SIXTEEN = Rules.classic(4, 4)
#: A complete 16x16 grid (digits 1-16), and a puzzle of it with every third cell given.
GRID = tuple((4 * (r % 4) + r // 4 + c) % 16 + 1 for r in range(16) for c in range(16))
PUZZLE = Puzzle(SIXTEEN, tuple(d if i % 3 == 0 else 0 for i, d in enumerate(GRID)))


def written(puzzle: Puzzle, alphabet: str) -> str:
    return format_puzzle(puzzle, "line", parse_alphabet(alphabet))


@pytest.mark.parametrize(
    ("spec", "symbols", "blanks"),
    [
        ("0-F", "0123456789ABCDEF", ".?_-"),
        ("A-P", "ABCDEFGHIJKLMNOP", ".0?_-"),
        ("1-9A-G", "123456789ABCDEFG", ".0?_-"),
        ("a-p", "abcdefghijklmnop", ".0?_-"),
        ("!#$%&*+/:;<=>@^~", "!#$%&*+/:;<=>@^~", ".0?_-"),
    ],
)
def test_alphabets_expand_ranges_and_keep_the_blanks_they_do_not_use(
    spec: str, symbols: str, blanks: str
) -> None:
    alphabet = parse_alphabet(spec)
    assert (alphabet.symbols, alphabet.blanks) == (symbols, blanks)


@pytest.mark.parametrize("spec", ["0-0", "AAB", "0123.", "F-0", "01 2", "0é"])
def test_a_bad_alphabet_is_refused(spec: str) -> None:
    with pytest.raises(ValueError):
        parse_alphabet(spec)


@pytest.mark.parametrize("spec", ["0-F", "A-P", "a-p", "1-9A-G"])
def test_each_alphabet_reads_and_writes_the_same_puzzle(spec: str) -> None:
    text = written(PUZZLE, spec)
    assert parse(text, symbols=spec) == [PUZZLE]
    grid = format_puzzle(PUZZLE, "grid", parse_alphabet(spec))
    assert parse(grid, symbols=spec) == [PUZZLE]
    spaced = format_puzzle(PUZZLE, "spaced", parse_alphabet(spec))
    assert parse(spaced, "spaced", symbols=spec) == [PUZZLE]


def test_the_ambiguous_case_is_refused_naming_symbols_unless_one_is_given() -> None:
    text = written(PUZZLE, "0-F")
    assert "0" in text and "F" in text and "G" not in text
    proc = run_cli("solve", "-j", "1", text)
    assert proc.returncode == 1 and proc.stdout.strip() == "error"
    assert "--symbols 0-F" in proc.stderr and "puzzle 1" in proc.stderr
    proc = run_cli("solve", "-j", "1", "--symbols", "0-F", text)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.split()
    assert set(line) <= set("0123456789ABCDEF") and len(line) == 256  # the input's alphabet
    solution = parse(line, symbols="0-F")[0]
    assert is_solution(PUZZLE, solution)


@pytest.mark.parametrize("layout", ["line", "jsonl", "pretty", "grid"])
def test_every_output_layout_writes_the_input_alphabet(layout: str, tmp_path: Path) -> None:
    source = tmp_path / "p.txt"
    source.write_text(written(PUZZLE, "A-P") + "\n")
    proc = run_cli("solve", "-j", "1", "--symbols", "A-P", "--output-format", layout, str(source))
    assert proc.returncode == 0, proc.stderr
    if layout == "jsonl":
        record = json.loads(proc.stdout)
        assert record["puzzle"] == written(PUZZLE, "A-P")
        text = record["solution"]
    else:
        text = proc.stdout if layout != "pretty" else proc.stdout.split("\n", 1)[1]  # past the header
    assert not set(text) & set("123456789"), text[:60]
    assert parse(text, symbols="A-P")[0].is_complete()


def test_a_symbol_outside_the_alphabet_names_it() -> None:
    text = "G" + written(PUZZLE, "0-F")[1:]
    proc = run_cli("count", "-j", "1", "--symbols", "0-F", text)
    assert "unknown symbol 'G' at r1c1" in proc.stderr and "0123456789ABCDEF (--symbols)" in proc.stderr
    bad = run_cli("solve", "--symbols", "0-0", text)
    assert bad.returncode == 2 and "--symbols" in bad.stderr


def test_an_alphabet_of_another_size_is_named_when_it_cannot_apply() -> None:
    text = written(PUZZLE, "0-F")
    proc = run_cli("solve", "-j", "1", "--symbols", "0-G", text)
    assert proc.returncode == 1 and "--symbols 0123456789ABCDEFG names 17 digits, not the 16" in proc.stderr


@pytest.mark.parametrize("spec", ["0-F", "A-P"])
def test_jsonl_records_read_back_in_the_alphabet_they_were_written_in(spec: str, tmp_path: Path) -> None:
    """solve's jsonl writes the puzzle in the input's alphabet, and reading it back ignored --symbols: a
    0-F puzzle came back as a different 1-9A-G one, without a word. Now it reads in the alphabet given,
    and the ambiguous 0-F line without one is refused as in the line layout."""
    source = tmp_path / "p.txt"
    source.write_text(written(PUZZLE, spec) + "\n")
    out = tmp_path / "out.jsonl"
    assert (
        run_cli(
            "solve",
            "-q",
            "-j",
            "1",
            "--symbols",
            spec,
            "--output-format",
            "jsonl",
            "-o",
            str(out),
            str(source),
        ).returncode
        == 0
    )
    again = run_cli("solve", "-q", "-j", "1", "--symbols", spec, "--output-format", "jsonl", str(out))
    assert again.returncode == 0 and json.loads(again.stdout)["puzzle"] == written(PUZZLE, spec)
    if spec == "0-F":
        refused = run_cli("count", "-q", "-j", "1", str(out))
        assert refused.returncode == 1 and "--symbols 0-F" in refused.stderr


def test_links_take_percent_escapes_of_either_case() -> None:
    from sudoku_cp.formats.fpuzzles import parse_fpuzzles, to_link

    head, payload = to_link(PUZZLE).split("load=", 1)
    escaped = head + "load=" + payload.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    lower = escaped.replace("%2B", "%2b").replace("%2F", "%2f").replace("%3D", "%3d")
    assert "%2b" in lower or "%2f" in lower or "%3d" in lower
    assert parse_fpuzzles(escaped) == parse_fpuzzles(lower) == PUZZLE
