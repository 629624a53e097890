"""numba's cached kernels are dropped when a kernel's source, or a module it imports from, changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sudoku_cp.kernel_cache import STAMP, drop_stale

KERNEL = """from numba import njit

from .constants import SIZE


@njit(cache=True)
def f(x):
    return x + SIZE
"""


def _package(root: Path) -> Path:
    """A package with a kernel module, the module of constants it imports, and a module of no kernel."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "kernels.py").write_text(KERNEL)
    (pkg / "constants.py").write_text("SIZE = 9\n")
    (pkg / "words.py").write_text('"""Nothing compiled here."""\n')
    return pkg


def _cached(folder: Path) -> list[Path]:
    """Two cache files as numba names them."""
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / "kernels.f-6.py311.nbi", folder / "kernels.f-6.py311.1.nbc"]
    for f in files:
        f.write_bytes(b"machine code")
    return files


def _touch(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_caches_go_when_a_kernel_or_what_it_imports_changes(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    files = _cached(pkg / "__pycache__")
    assert drop_stale(tmp_path)  # no record of the sources: whatever is cached may be stale
    assert not any(f.exists() for f in files)
    assert (tmp_path / "__pycache__" / STAMP).is_file()

    files = _cached(pkg / "__pycache__")
    assert not drop_stale(tmp_path)  # nothing changed
    (pkg / "words.py").write_text('"""Still nothing compiled here."""\n')
    assert not drop_stale(tmp_path)  # a module no kernel reads
    _touch(pkg / "kernels.py")
    assert not drop_stale(tmp_path)  # touched, the same text
    assert all(f.exists() for f in files)

    (pkg / "constants.py").write_text("SIZE = 16\n")  # frozen into f's machine code
    assert drop_stale(tmp_path)
    assert not any(f.exists() for f in files)

    files = _cached(pkg / "__pycache__")
    (pkg / "kernels.py").write_text(KERNEL.replace("x + SIZE", "x - SIZE"))
    assert drop_stale(tmp_path)
    assert not any(f.exists() for f in files)


def test_caches_under_numba_cache_dir_go_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``NUMBA_CACHE_DIR``, numba keeps a folder's kernels under it, named as its locator names them."""
    from numba.core.caching import UserProvidedCacheLocator

    pkg = _package(tmp_path / "src")
    user = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(user))
    files = _cached(user / UserProvidedCacheLocator.get_suitable_cache_subpath(str(pkg / "kernels.py")))
    assert drop_stale(tmp_path / "src")
    assert not any(f.exists() for f in files)


def test_without_a_record_the_caches_are_taken_for_stale(tmp_path: Path) -> None:
    """Where the record cannot be written (here a file stands where its folder would be), the check
    raises nothing and drops the caches each time: it cannot tell they are current."""
    pkg = _package(tmp_path)
    (tmp_path / "__pycache__").write_text("not a folder")
    for _ in range(2):
        files = _cached(pkg / "__pycache__")
        assert drop_stale(tmp_path)
        assert not any(f.exists() for f in files)
