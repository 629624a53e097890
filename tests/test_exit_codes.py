"""One table of exit statuses: the constants, every command's ``--help`` and the README say the same."""

from __future__ import annotations

import re
import signal
from pathlib import Path

from sudoku_cp.batch.interrupt import Interrupted
from sudoku_cp.cli import EXIT_FAILED, EXIT_FAULT, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, exit_codes

ROOT = Path(__file__).resolve().parent.parent


def _listed(text: str) -> list[int]:
    """The statuses a text lists, as ``N what``, in its order."""
    return [int(n) for n in re.findall(r"(?:^|[:;,] )(\d+) [a-z]", " ".join(text.split()))]


def test_the_table_has_one_status_per_outcome() -> None:
    statuses = [EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_FAULT, EXIT_INTERRUPTED]
    assert statuses == [0, 1, 2, 3, 130]
    assert Interrupted(signal.SIGINT).status == EXIT_INTERRUPTED
    assert Interrupted(signal.SIGTERM).status == 128 + signal.SIGTERM == 143
    assert _listed(exit_codes()) == [0, 1, 2, 3, 130, 143]
    assert _listed(exit_codes("every formula written", None)) == [0, 2, 3, 130, 143]


def test_the_readme_lists_the_same_statuses() -> None:
    readme = (ROOT / "README.md").read_text()
    (paragraph,) = re.findall(r"Exit status, the same for every command.*?\n\n", readme, flags=re.S)
    assert _listed(paragraph) == _listed(exit_codes())
    assert "3 a fault" in " ".join(paragraph.split())
