"""The default backend, ``auto``: the dfs on the classic rules; on variant rules the dfs for a short budget,
then a solver that learns (CP-SAT under sums, sat otherwise), with the same answers whichever answered, in
one process and in the batch path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cases import HARD_9X9, VARIANTS

from sudoku_cp import Puzzle
from sudoku_cp.backends import DEFAULT_BACKEND, auto, make_backend
from sudoku_cp.batch import solve_many
from sudoku_cp.formats.fpuzzles import from_fpuzzles, to_fpuzzles
from sudoku_cp.result import Status
from sudoku_cp.rules import Rules

#: A published killer: the dfs answers it in a few nodes.
KILLER = next(from_fpuzzles(v["fpuzzles"]) for v in VARIANTS if v["name"] == "Killer sudoku")
#: Published puzzles on which the dfs needs more nodes than its first slice: a sum, and no sum.
PILL = next(from_fpuzzles(v["fpuzzles"]) for v in VARIANTS if v["name"] == "Pill arrow")
DIAGONALS = next(from_fpuzzles(v["fpuzzles"]) for v in VARIANTS if v["name"] == "Sudoku X")
#: A published puzzle of thermometers (the dfs answers it in about a slice).
THERMO = next(from_fpuzzles(v["fpuzzles"]) for v in VARIANTS if v["name"] == "Thermosudoku")


def test_the_default_is_the_portfolio() -> None:
    assert DEFAULT_BACKEND == "auto"


def test_the_classic_rules_go_to_the_dfs_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        auto, "DFS_SECONDS", 0.0
    )  # even with no budget: the classic search is never handed on
    found = make_backend("auto").enumerate(Puzzle.from_string(HARD_9X9), limit=2)
    assert found.complete and len(found.solutions) == 1 and found.stats["answered_by"] == "dfs"


@pytest.mark.parametrize("variant", ["auto", "auto:python"])
@pytest.mark.parametrize(("puzzle", "learner"), [(PILL, "cpsat"), (DIAGONALS, "sat")], ids=["sums", "x"])
def test_a_variant_the_dfs_has_not_answered_in_its_budget_goes_to_a_solver_that_learns(
    variant: str, puzzle: Puzzle, learner: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = make_backend("dfs").enumerate(puzzle, limit=2)
    assert expected.stats["nodes"] > 16  # more than a first slice: with no budget the dfs cannot answer
    monkeypatch.setattr(auto, "DFS_SECONDS", 0.0)
    # a first turn of the learner long enough for it on a fresh clone, where it compiles its propagation
    # first (the dfs, going on a slice a turn, would otherwise answer in the learner's short turns)
    monkeypatch.setattr(auto, "LEARNER_SECONDS", 600.0)
    monkeypatch.setattr(auto, "LIGHT_UP_TO", 0)  # no light turn of sat between (tested below)
    found = make_backend(variant).enumerate(puzzle, limit=2)
    assert found.stats["answered_by"] == learner
    assert found.solutions == expected.solutions and found.complete


class _Stalled:
    """A dfs search that never answers (each step sleeps its length), or that answers on its ``answer_at``-th
    step with ``answer``, recording each step's length and start in ``steps``."""

    def __init__(
        self, steps: list[tuple[float | None, float]], answer: Any = None, answer_at: int = 0
    ) -> None:
        self.steps, self.answer, self.answer_at = steps, answer, answer_at

    def advance(self, time_limit: float | None = None) -> Any:
        from sudoku_cp.result import Enumeration

        self.steps.append((time_limit, time.perf_counter()))
        if self.answer is not None and len(self.steps) >= self.answer_at:
            return self.answer
        time.sleep(time_limit or 0.0)
        return Enumeration((), False, True, {"time": 0.0})

    def close(self) -> None:
        pass


def _stall_the_dfs(monkeypatch: pytest.MonkeyPatch, search: _Stalled) -> None:
    from sudoku_cp.backends.dfs import DfsBackend

    monkeypatch.setattr(DfsBackend, "searching", lambda self, puzzle, limit=1: search)


@pytest.mark.parametrize("puzzle", [PILL, THERMO], ids=["sums", "thermo"])
def test_sat_light_turn_runs_beside_the_dfs_first_turn_and_answers_what_that_has_not(
    puzzle: Puzzle, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sat on the candidates before any guess, even under sums (whose learner is CP-SAT: OR-tools takes
    most of a second to import), on a helper thread from ``LIGHT_ALONE`` on (``SUMS_ALONE`` under sums)
    while the dfs goes on in steps of ``BESIDE_STEP`` (Python's switch interval ``BESIDE_SWITCH``
    meanwhile); what it answers is the dfs's answer."""
    expected = make_backend("dfs").enumerate(puzzle, limit=2)
    steps: list[tuple[float | None, float]] = []
    light: list[float] = []
    answer = auto._light_answer

    switching: list[float] = []

    def slow_light(*args: Any) -> Any:
        switching.append(sys.getswitchinterval())
        light.append(time.perf_counter())
        time.sleep(0.1)  # long enough for the dfs's steps beside it to show
        found = answer(*args)
        light.append(time.perf_counter())
        return found

    _stall_the_dfs(monkeypatch, _Stalled(steps))
    monkeypatch.setattr(auto, "_light_answer", slow_light)
    monkeypatch.setattr(auto, "BESIDE_SECONDS", 600.0)
    monkeypatch.setattr(auto, "SUMS_BESIDE", 600.0)
    monkeypatch.setattr(auto, "SUMS_ALONE", 0.2)  # (1 s: the stub sleeps its steps)
    before = sys.getswitchinterval()
    found = make_backend("auto").enumerate(puzzle, limit=2)
    assert found.stats["answered_by"] == "sat"
    assert found.solutions == expected.solutions and found.complete
    assert switching == [auto.BESIDE_SWITCH] and sys.getswitchinterval() == before  # (short meanwhile)
    assert steps[0][0] == pytest.approx(0.2 if puzzle.rules.has_sums else auto.LIGHT_ALONE)
    started, ended = light
    beside = [at for length, at in steps[1:] if started < at < ended]
    assert beside and all(length == pytest.approx(auto.BESIDE_STEP) for length, _ in steps[1:])


def test_the_dfs_answer_beside_the_light_turn_stops_it_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dfs answers on its third step while sat's light turn is searching a puzzle it takes far longer
    on (here every grid of the thermometers with no givens, stopped only by ``signals.Stop``): the answer
    is the dfs's, and the helper thread ends within a second."""
    import threading

    expected = make_backend("dfs").enumerate(THERMO, limit=2)
    empty = Puzzle(THERMO.rules, (0,) * 81)
    answer = auto._light_answer

    def endless(puzzle: Puzzle, limit: int, time_limit: float | None, seconds: float) -> Any:
        return answer(empty, 10**9, None, 600.0)

    _stall_the_dfs(monkeypatch, _Stalled([], expected, answer_at=3))
    monkeypatch.setattr(auto, "_light_answer", endless)
    monkeypatch.setattr(auto, "BESIDE_STEP", 0.2)  # the light turn is well into its search by then
    started = time.perf_counter()
    found = make_backend("auto").enumerate(THERMO, limit=2)
    assert found.stats["answered_by"] == "dfs" and found.solutions == expected.solutions
    assert time.perf_counter() - started < 0.05 + 0.4 + 1.0

    def helpers() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name == "sudoku-cp light turn"]

    waited = time.perf_counter() + 1.0
    while helpers() and time.perf_counter() < waited:
        time.sleep(0.01)
    assert not helpers()


def test_a_variant_the_dfs_answers_in_its_budget_stays_with_it() -> None:
    found = make_backend("auto").enumerate(KILLER, limit=2)
    assert found.stats["answered_by"] == "dfs" and found.complete and len(found.solutions) == 1


def test_a_time_limit_below_the_budget_is_the_dfs_alone_and_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    found = make_backend("auto").enumerate(PILL, limit=2, time_limit=0.0)
    assert found.timed_out and not found.complete and found.stats["answered_by"] == "dfs"


def test_the_batch_path_hands_what_the_dfs_left_to_a_solver_that_learns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The chunk kernel of the portfolio: the classic puzzle and the killer are both answered, unique."""
    monkeypatch.setattr(auto, "DFS_SECONDS", 0.0)
    got = list(solve_many([PILL, Puzzle.from_string(HARD_9X9), THERMO, KILLER], unique=True, jobs=1))
    assert [r.status for r in got] == [Status.SOLVED] * 4
    assert got[0].solution == make_backend("sat").enumerate(PILL).solutions[0]


def test_the_turn_of_sat_before_numba_counts_none_and_many_as_the_dfs_does(tmp_path: Path) -> None:
    """The pill puzzle (no givens) less one of its arrows (many grids) and with one given that its only
    solution does not hold (none), in a fresh process whose reference-engine turn is 0 s: sat's turn on
    the candidates before any guess answers both, as the dfs counts them, and numba is never loaded."""
    from sudoku_cp.backends.dfs_rules import root_candidates

    solution = make_backend("dfs").enumerate(PILL).solutions[0].cells
    blank = PILL.cells.index(0)
    wrong = next(
        cells
        for d in range(1, 10)
        if d != solution[blank]
        for cells in [(*PILL.cells[:blank], d, *PILL.cells[blank + 1 :])]
        if root_candidates(cells, PILL.rules) is not None
    )
    fewer = Rules.classic(3, 3).with_(arrows=PILL.rules.arrows[1:])
    cases = {"many": Puzzle(fewer, PILL.cells), "none": Puzzle(PILL.rules, wrong)}
    paths = []
    for name, puzzle in cases.items():
        assert len(make_backend("dfs").enumerate(puzzle, limit=2).solutions) == {"many": 2, "none": 0}[name]
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(to_fpuzzles(puzzle)))
    code = (
        "import sys\nfrom sudoku_cp.backends import auto\nfrom sudoku_cp.cli import main\n"
        "auto.QUICK_SECONDS = 0.0\nauto.LIGHT_SECONDS = 10.0\n"
        + "".join(f"main(['count', {str(p)!r}])\n" for p in paths)
        + "print('numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    lines = done.stdout.split("\n")
    assert [lines[0].split()[-1], lines[1].split()[-1], lines[2]] == ["2+", "0", "False"], done.stderr


#: Eight little killers of 49 (a puzzle from the CTC discord discussion, in the Interactive Sudoku Solver's
#: collection), written here by hand: no grid fits them. The dfs proves it in a fraction of a second by the
#: sums of parallel diagonals taken together (``sums.combined_sums``); CP-SAT does not within a minute.
ZERO_LITTLE_KILLER = from_fpuzzles(
    {
        "size": 9,
        "grid": [[{} for _ in range(9)] for _ in range(9)],
        "littlekillersum": [
            {"cell": cell, "value": "49", "direction": direction}
            for cell, direction in [
                ("R0C10", "DL"),
                ("R0C9", "DL"),
                ("R10C1", "UR"),
                ("R10C2", "UR"),
                ("R8C10", "UL"),
                ("R0C0", "DR"),
                ("R1C0", "DR"),
                ("R2C0", "DR"),
            ]
        ],
    }
)


def test_the_turns_come_back_to_the_dfs_when_the_learner_stalls(monkeypatch: pytest.MonkeyPatch) -> None:
    """First turns too short for the dfs, and a learner that cannot answer: the dfs's turns double until
    one is long enough, and the answer (no solution) is exact."""
    monkeypatch.setattr(auto, "DFS_SECONDS", 0.005)
    monkeypatch.setattr(auto, "LEARNER_SECONDS", 0.01)
    found = make_backend("auto").enumerate(ZERO_LITTLE_KILLER, limit=2)
    assert found.complete and found.solutions == () and found.stats["answered_by"] == "dfs"


def test_the_turns_in_order_after_the_light_turn_beside_the_dfs(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a puzzle that neither first turn answers: the dfs alone for ``LIGHT_ALONE``, then in steps of
    ``BESIDE_STEP`` until sat's light turn (of ``BESIDE_SECONDS``) has ended, then the dfs's next turn
    (``DFS_GROWTH`` times ``DFS_SECONDS``)."""
    steps: list[tuple[float | None, float]] = []
    light: list[str] = []

    def unanswered(puzzle: Puzzle, limit: int, time_limit: float | None, seconds: float) -> Any:
        from sudoku_cp.result import Enumeration

        time.sleep(0.05)
        light.append(f"{seconds}")
        return Enumeration((), False, True, {})

    _stall_the_dfs(monkeypatch, _Stalled(steps))
    monkeypatch.setattr(auto, "_light_answer", unanswered)
    monkeypatch.setattr(auto, "SUMS_ALONE", 0.004)  # (a little killer: sums)
    monkeypatch.setattr(auto, "BESIDE_STEP", 0.01)
    monkeypatch.setattr(auto, "DFS_SECONDS", 0.003)
    monkeypatch.setattr(auto, "LEARNER_SECONDS", 0.01)
    found = make_backend("auto").enumerate(ZERO_LITTLE_KILLER, limit=2, time_limit=0.3)
    assert found.timed_out and light == [f"{auto.SUMS_BESIDE}"]
    lengths = [length for length, _ in steps]
    beside = lengths[1 : lengths.index(pytest.approx(0.006))]
    assert lengths[0] == pytest.approx(0.004) and beside
    assert all(length == pytest.approx(0.01) for length in beside)


@pytest.mark.parametrize("light", [True, False], ids=["light-beside", "turns"])
def test_the_turns_stop_at_the_time_limit_with_an_unknown_answer(
    light: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dfs that never answers, beside sat's light turn or in turns with CP-SAT, neither of which
    answers these sums within the limit: the answer is unknown, on time."""
    _stall_the_dfs(monkeypatch, _Stalled([]))
    monkeypatch.setattr(auto, "DFS_SECONDS", 0.001)
    monkeypatch.setattr(auto, "LIGHT_ALONE", 0.001)
    monkeypatch.setattr(auto, "LEARNER_SECONDS", 0.01)
    if not light:
        monkeypatch.setattr(auto, "LIGHT_UP_TO", 0)
    started = time.perf_counter()
    found = make_backend("auto").enumerate(ZERO_LITTLE_KILLER, limit=2, time_limit=0.05)
    assert found.timed_out and not found.complete  # (the turns ended: an answer came back, unknown)
    assert time.perf_counter() - started < 3.0  # (no hang; OR-tools's import is not stopped by the limit)


@pytest.mark.parametrize(
    ("name", "light", "loads"), [("killer", True, False), ("pill", True, False), ("pill", False, True)]
)
def test_a_command_on_a_few_puzzles_loads_the_compiled_dfs_only_for_what_the_reference_and_sat_leave(
    name: str, light: bool, loads: bool, tmp_path: Path
) -> None:
    """In a fresh process, the default backend gives a chunk of a few puzzles a short turn of the dfs's
    reference engine first (``auto.QUICK_SECONDS``): the killer is answered there and numba is never
    loaded (about a second of a one-puzzle command); the pill needs hundreds of nodes and goes on to sat
    on the reference engine's candidates before any guess (``auto.LIGHT_SECONDS``), which answers it
    without numba; without that turn (grids above ``auto.LIGHT_UP_TO`` skip it) it goes on to the
    compiled search. Counted alike each way."""
    puzzle = {"killer": KILLER, "pill": PILL}[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(to_fpuzzles(puzzle)))
    # a quick turn far from both puzzles' reference search (the killer 0.02 s, the pill 0.4 s) and a
    # light turn far above the pill's (30 ms), whatever the defaults' lengths: the test is of the mechanism
    code = (
        "import sys\nfrom sudoku_cp.backends import auto\nfrom sudoku_cp.cli import main\n"
        f"auto.QUICK_SECONDS = 0.1\nauto.LIGHT_SECONDS = 10.0\nauto.LIGHT_UP_TO = {9 if light else 0}\n"
        f"code = main(['count', {str(path)!r}])\nprint('numba' in sys.modules, code)"
    )
    env = {**os.environ, "SUDOKU_CP_KERNELS": "jit"}  # the kernels as numba's: costly to load
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    count, numba = done.stdout.split("\n")[:2]
    assert numba == f"{loads} 0", done.stderr
    assert count.split()[-1] == "1"  # unique, as the compiled dfs counts it
    assert len(make_backend("dfs").enumerate(puzzle, limit=2).solutions) == 1


def test_with_the_kernels_built_ahead_of_time_a_command_takes_the_compiled_dfs_without_numba(
    tmp_path: Path,
) -> None:
    """Once ``dfs_aot`` has built the kernels, they load in milliseconds: the quick turns are skipped
    (``dfs_compiled.loads_quickly``) and numba is never imported."""
    from sudoku_cp.backends import dfs_compiled

    dfs_compiled.warm_up()  # builds them where this machine has none
    path = tmp_path / "pill.json"
    path.write_text(json.dumps(to_fpuzzles(PILL)))
    code = (
        "import sys\nfrom sudoku_cp.backends import dfs_compiled\nfrom sudoku_cp.cli import main\n"
        "print(dfs_compiled.loads_quickly())\n"
        f"code = main(['count', {str(path)!r}])\nprint('numba' in sys.modules, code)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    quick, count, numba = done.stdout.split("\n")[:3]
    assert (quick, numba) == ("True", "False 0"), done.stderr
    assert count.split()[-1] == "1"


@pytest.mark.parametrize("puzzle", [PILL, DIAGONALS, ZERO_LITTLE_KILLER], ids=["pill", "x", "no-grid"])
def test_the_compiled_dfs_in_turns_explores_the_tree_of_one_search(puzzle: Puzzle) -> None:
    """A search run in turns far too short for it (``Backend.searching``) ends as one search does: the same
    solutions in the same order, the same completeness, the same nodes and guesses."""
    backend = make_backend("dfs:compiled")
    whole = backend.enumerate(puzzle, limit=2)
    search = backend.searching(puzzle, limit=2)
    turns = 1
    while (found := search.advance(0.0)).timed_out and turns < 100_000:  # (one that restarts never ends)
        turns += 1
    assert 1 < turns < 100_000
    assert found.solutions == whole.solutions and found.complete == whole.complete
    assert {k: found.stats[k] for k in ("nodes", "guesses")} == {
        k: whole.stats[k] for k in ("nodes", "guesses")
    }


def test_a_search_cannot_go_on_once_its_searcher_began_another() -> None:
    backend = make_backend("dfs:compiled")
    first = backend.searching(PILL, limit=2)
    assert first.advance(0.0).timed_out
    backend.searching(PILL, limit=2)  # the same rules: the same work arrays
    with pytest.raises(RuntimeError, match="began another search"):
        first.advance()


def test_a_backend_that_cannot_pause_starts_each_turn_afresh() -> None:
    search = make_backend("sat").searching(THERMO, limit=2)
    first, second = search.advance(), search.advance()
    assert first.solutions == second.solutions and first.complete and second.complete
    assert second.stats["time"] >= first.stats["time"]  # the turns' time adds up


def test_the_dfs_turns_go_on_from_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns that never grow, each far shorter than the dfs's search, against a learner that cannot answer:
    the dfs answers only because each turn goes on where the last stopped."""
    dfs = make_backend("dfs:compiled")
    whole = min((dfs.enumerate(ZERO_LITTLE_KILLER, limit=2) for _ in range(2)), key=lambda f: f.stats["time"])
    monkeypatch.setattr(auto, "DFS_SECONDS", whole.stats["time"] / 8)
    monkeypatch.setattr(auto, "DFS_GROWTH", 1.0)
    monkeypatch.setattr(auto, "LEARNER_SECONDS", 0.005)
    monkeypatch.setattr(auto, "LEARNER_GROWTH", 1.0)
    monkeypatch.setattr(auto, "LIGHT_UP_TO", 0)  # no light turn beside the first
    found = make_backend("auto").enumerate(ZERO_LITTLE_KILLER, limit=2, time_limit=30)
    assert found.complete and found.solutions == () and found.stats["answered_by"] == "dfs"
    assert found.stats["nodes"] == whole.stats["nodes"]


def test_sat_in_turns_keeps_its_propagated_solver() -> None:
    """A variant puzzle on ``sat`` is propagated and solved on a solver of its own: run in turns, the
    formula is built once and the solver goes on (the same build time in every turn's answer)."""
    backend = make_backend("sat")
    whole = backend.enumerate(THERMO, limit=2)
    search = backend.searching(THERMO, limit=2)
    first, second = search.advance(0.0), search.advance(0.0)  # over before the solver's first conflict
    last = search.advance()
    assert first.timed_out and second.timed_out and not last.timed_out
    assert first.stats["build_time"] == second.stats["build_time"] == last.stats["build_time"]
    assert last.solutions == whole.solutions and last.complete == whole.complete
    assert last.stats["time"] >= last.stats["build_time"]
    assert search.advance(0.0) == last  # over: the answer stays
