"""Imported by a pool's fork server before it forks the workers (``DfsBackend.preload``): load the
compiled dfs kernel once, for all.

Loading numba and its cached machine code costs a second or more and about 130 MB per process; done once
in the fork server, every worker forked from it starts with the kernel ready and shares those pages
(copy-on-write) instead of holding its own copy. Without numba the import fails, which the fork server
ignores: the workers then set up their backend themselves.
"""

from __future__ import annotations

import numpy as np

from ..grid import Rules
from . import dfs_compiled

dfs_compiled.solve_array(np.zeros((1, 16), np.uint8), Rules.classic(2, 2), 2)
dfs_compiled.solve_array(np.zeros((1, 81), np.uint8), Rules.classic(3, 3), 2)  # the band search, for 9x9
