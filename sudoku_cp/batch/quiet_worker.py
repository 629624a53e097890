"""A Dask preload for the workers of ``--cluster local:N``: SIGINT ignored in each worker process."""

from __future__ import annotations

import signal
from typing import Any


def dask_setup(worker: Any) -> None:
    """Ignore SIGINT: Ctrl-C reaches every process of the terminal's process group, and the command (which
    stops the workers itself) is the one to answer it; a worker printed a KeyboardInterrupt traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
