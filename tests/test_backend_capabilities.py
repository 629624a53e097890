"""The batch engine asks backends what they can do instead of testing their names: a chunk kernel, a module
to preload in the fork server, the options that check cheaply. A new backend is one module and one registry
line; these say what the registered ones declare."""

from __future__ import annotations

import numpy as np

from sudoku_cp import Rules
from sudoku_cp.backends import backend_class, backend_names, make_backend
from sudoku_cp.batch.solver import STATUSES, Solver, SolverConfig
from sudoku_cp.result import Status


def test_only_the_compiled_dfs_and_the_portfolio_declare_a_chunk_kernel_and_a_preload() -> None:
    for name in backend_names():
        cls = backend_class(name)
        if name == "auto":  # the dfs's, for its first searches
            assert cls.preload(None, {}) == "sudoku_cp.backends.dfs_warm"
        elif name == "dfs":
            assert cls.preload(None, {}) == "sudoku_cp.backends.dfs_warm"
            assert cls.preload("python", {}) is None and cls.preload(None, {"engine": "python"}) is None
            assert cls.checking_options(None, {}) == {"engine": "python"}
            assert cls.checking_options("compiled", {}) == {}
        else:
            assert cls.preload(None, {}) is None and cls.checking_options(None, {"x": 1}) == {"x": 1}
    assert make_backend("dfs:compiled").chunk_kernel() is not None
    assert make_backend("dfs:python").chunk_kernel() is None
    assert make_backend("sat").chunk_kernel() is None
    assert make_backend("auto").chunk_kernel() is not None


def test_a_chunk_of_variant_puzzles_never_reaches_the_kernel() -> None:
    solver = Solver(SolverConfig("dfs", unique=True))
    assert solver.compiled
    x = Rules.classic(2, 2).with_named("x")
    answer = solver.solve(np.zeros((1, 16), np.uint8), x)  # the general path: 48 solutions, so multiple
    assert [STATUSES[code] for code in answer.status] == [Status.MULTIPLE] and answer.stats_of(0)["time"] > 0
