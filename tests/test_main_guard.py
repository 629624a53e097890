"""solve_many with workers from a script without a ``__main__`` guard says what to do, not "a worker died"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sudoku_cp.batch.pool import MAIN_GUARD, MAIN_ON_STDIN

CALL = 'print(sum(1 for r in solve_many(["12343412214343.."] * 3000, "sat", jobs=2, chunk_size=2)))'


def _run(script: str, tmp_path: Path, from_stdin: bool = False) -> subprocess.CompletedProcess:
    path = tmp_path / "script.py"
    path.write_text(script)
    command = [sys.executable, "-"] if from_stdin else [sys.executable, str(path)]
    return subprocess.run(
        command,
        input=script if from_stdin else None,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )


def test_a_script_without_the_guard_is_told_to_add_it(tmp_path: Path) -> None:
    proc = _run(f"from sudoku_cp.batch import solve_many\n{CALL}\n", tmp_path)
    assert proc.returncode != 0
    assert "UsageError" in proc.stderr and MAIN_GUARD in proc.stderr
    assert "a worker process died" not in proc.stderr
    assert (
        "bootstrapping" not in proc.stderr
    )  # the workers leave quietly: one message, not one traceback each


def test_a_script_on_standard_input_is_told_too(tmp_path: Path) -> None:
    proc = _run(f"from sudoku_cp.batch import solve_many\n{CALL}\n", tmp_path, from_stdin=True)
    assert proc.returncode != 0 and MAIN_ON_STDIN in proc.stderr
    assert "FileNotFoundError" not in proc.stderr  # refused before any worker tried to load <stdin>


def test_the_guarded_script_works(tmp_path: Path) -> None:
    script = f'from sudoku_cp.batch import solve_many\n\nif __name__ == "__main__":\n    {CALL}\n'
    proc = _run(script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "3000"


def test_a_guarded_script_whose_worker_dies_while_starting_is_told_the_worker_died(tmp_path: Path) -> None:
    """Only a worker that ran the script again is a missing guard; any other death is a dead worker."""
    script = (
        "import os\n"
        "from sudoku_cp.batch import OrderedPool\n\n"
        'if __name__ == "__main__":\n'
        "    with OrderedPool(1, abs, os._exit, (1,)) as pool:\n"
        "        print(list(pool.map([-1, -2])))\n"
    )
    proc = _run(script, tmp_path)
    assert proc.returncode != 0
    assert "WorkerError: a worker process died (exit code 1)" in proc.stderr
    assert MAIN_GUARD not in proc.stderr


def test_the_top_level_help_imports_no_command_and_lists_them_all() -> None:
    """``sudoku-cp --help`` names every command with its summary without importing any of them (nor the
    solvers and parsers they import); ``import sudoku_cp`` loads a public name on first use."""
    code = (
        "import contextlib, io, sys\n"
        "import sudoku_cp\n"
        "assert 'sudoku_cp.formats' not in sys.modules and 'sudoku_cp.backends' not in sys.modules\n"
        "from sudoku_cp.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    assert main(['--help']) == 0\n"
        "heavy = [m for m in ('sudoku_cp.formats', 'sudoku_cp.cli.solve', 'numpy') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "print(out.getvalue())\n"
        "assert sudoku_cp.solve('12343412214343..').solution.to_string() == '1234341221434321'\n"
        "assert 'solve' in dir(sudoku_cp)\n"
        "try:\n"
        "    sudoku_cp.no_such_name\n"
        "except AttributeError as exc:\n"
        "    print('refused:', exc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    from sudoku_cp.cli import COMMANDS, SUMMARIES, build_parser

    for name in COMMANDS:
        assert name in proc.stdout and SUMMARIES[name].split()[0] in proc.stdout
    assert "refused: module 'sudoku_cp' has no attribute 'no_such_name'" in proc.stdout
    lazy = " ".join(proc.stdout.split())
    full = " ".join(build_parser().format_help().split())  # every command registered in full
    assert full == lazy.split(" refused:")[0] and all(summary in full for summary in SUMMARIES.values())


def test_one_puzzle_from_the_command_line_is_solved_without_loading_the_compiled_search() -> None:
    """The compiled dfs takes most of a second to load and numpy a sixth: a small input goes to the reference
    search (its answers agree, tested elsewhere) by the records path, and says so; standard input, whose
    size is not known, takes the batch path (numpy), where the default backend's quick turn on the
    reference search (``auto.QUICK_SECONDS``) answers this puzzle before the compiled search is loaded."""
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

    def run(commands: str, stdin: str = "") -> list[str]:
        code = (
            "import contextlib, io, json, sys\n"
            "from sudoku_cp.cli import main\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n"
            f"{commands}"
            "jsonl, *lines = out.getvalue().splitlines()\n"
            "answer = json.loads(jsonl)\n"
            "assert lines in ([], [answer['solution']]), (lines, answer)\n"
            "print(answer['backend'], answer['unique'], 'numba' in sys.modules, 'numpy' in sys.modules)\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    jsonl = "    assert main(['solve', '-q', '--unique', '--output-format', 'jsonl'{}]) == 0\n"
    here = f", '-p', '{puzzle}'"
    line = f"    assert main(['solve', '-q'{here}]) == 0\n"
    assert run(jsonl.format(here) + line) == ["auto:python", "True", "False", "False"]
    assert run(jsonl.format(""), stdin=puzzle + "\n") == ["auto", "True", "False", "True"]


def test_submodules_named_after_their_function_leave_the_function_on_the_package() -> None:
    code = (
        "import sudoku_cp.rate, sudoku_cp.explain, sudoku_cp.generate\n"
        "from sudoku_cp import explain, generate, rate\n"
        "assert all(callable(f) for f in (explain, generate, rate)), (explain, generate, rate)\n"
        "from sudoku_cp.rate import Rating\n"
        "assert isinstance(rate('12343412214343..'), Rating)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_the_step_engine_s_functions_are_on_the_package_too() -> None:
    """``walk``, ``hint`` and ``nth_step`` live in ``sudoku_cp.human``; the package names them as it names
    ``rate`` and ``explain`` (an adversarial user reached for ``sudoku_cp.walk`` first)."""
    import sudoku_cp
    from sudoku_cp import human

    assert (sudoku_cp.walk, sudoku_cp.hint, sudoku_cp.nth_step) == (human.walk, human.hint, human.nth_step)
    assert {"walk", "hint", "nth_step"} <= set(sudoku_cp.__all__) & set(dir(sudoku_cp))
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    first = sudoku_cp.walk(puzzle).steps[0]
    assert sudoku_cp.hint(puzzle).step == first == sudoku_cp.nth_step(puzzle, 1).step


def test_the_command_keeps_numpys_blas_to_one_thread_unless_told_otherwise() -> None:
    """No command does linear algebra; OpenBLAS's threads, one a core, wait busily when numpy loads. The
    process's own command sets one (before numpy loads: the batch path loads it) where the user did not;
    a user's choice, and a process that loaded numpy before calling ``main``, keep theirs."""

    def blas_threads(prelude: str, env: dict[str, str]) -> list[str]:
        code = (
            f"{prelude}import os, sys\n"
            "from sudoku_cp.cli import main\n"
            "sys.argv = ['sudoku-cp', 'count', '-']\n"
            "try:\n"
            "    main()\n"
            "finally:\n"
            "    print(os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules)\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code],
            input="12343412214343..\n",
            capture_output=True,
            text=True,
            timeout=300,
            env={k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"} | env,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()[-2:]

    assert blas_threads("", {}) == ["1", "True"]
    assert blas_threads("", {"OPENBLAS_NUM_THREADS": "3"}) == ["3", "True"]
    assert blas_threads("import numpy\n", {}) == ["None", "True"]
