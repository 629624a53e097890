"""The README's opening commands stay true: CI runs the test command, and the example prints what it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)


def test_readme_opens_with_the_install_and_test_commands() -> None:
    first, second = (block.strip() for block in _blocks("sh")[:2])
    assert "pip install ." in first and "sudoku-cp solve" in first
    assert "pytest" in second
    ci = (ROOT / ".ci" / "run").read_text()
    assert second in ci.splitlines(), ".ci/run must run exactly the README's test command"


def test_the_example_command_prints_what_the_readme_shows() -> None:
    first = _blocks("sh")[0].strip()
    solve = first.split("&&")[-1].strip()
    words = shlex.split(solve)
    assert words[0].endswith("sudoku-cp") and words[1] == "solve"
    proc = run_cli(*words[1:], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    shown = _blocks("text")[0]
    assert proc.stdout == shown


def test_readme_cli_examples_name_real_commands_and_options() -> None:
    from sudoku_cp.cli import build_parser

    parser = build_parser()
    variants = next(b for b in _blocks("sh") if "--rules" in b)  # the variant section's commands
    for line in (_blocks("sh")[2] + variants).splitlines():
        words = shlex.split(line.split("#")[0].split("<")[0])
        if words and words[0] == "sudoku-cp":
            # parse_known_args leaves file names; any unknown option would make it exit
            _, rest = parser.parse_known_args(words[1:])
            assert not [w for w in rest if w.startswith("-") and w != "-"], line


def test_the_python_example_runs_and_prints_what_its_comments_say() -> None:
    import subprocess
    import sys

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    code = next(b for b in blocks if "sudoku_cp.rules" not in b)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "solved 1234341221434321"
    assert "r1c1=1 r1c3=1" in lines[1]
    assert lines[2].startswith("solved 514927386")


def test_the_variant_example_solves_under_its_rules() -> None:
    import subprocess
    import sys

    from sudoku_cp.rules import Cage, Rules, Thermo

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    code = next(b for b in blocks if "sudoku_cp.rules" in b)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.split()
    rules = Rules.classic(3, 3).with_named("x").with_(cages=[Cage((0, 1), 3)], thermos=[Thermo((9, 10, 11))])
    assert len(line) == 81 and rules.violations([int(ch) for ch in line]) == []
