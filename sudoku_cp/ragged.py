"""Lists of any lengths as two flat arrays (compressed sparse rows), the form the compiled kernels read."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

__all__ = ["flat"]


def flat(
    lists: Sequence[Sequence[int]], dtype: type = np.int64, *, starts: type = np.int64
) -> tuple[np.ndarray, np.ndarray]:
    """``(where each list starts, one more entry: the end; their items one after the other)``: list i is
    ``items[offsets[i]:offsets[i + 1]]``. The kernels' argument types fix ``dtype`` and ``starts``."""
    offsets = np.zeros(len(lists) + 1, dtype=starts)
    np.cumsum(np.fromiter(map(len, lists), dtype=np.int64, count=len(lists)), out=offsets[1:])
    items = np.fromiter(itertools.chain.from_iterable(lists), dtype=dtype, count=int(offsets[-1]))
    return offsets, items
