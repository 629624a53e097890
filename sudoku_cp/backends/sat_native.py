"""Loading a formula held in flat arrays into a python-sat solver from compiled code.

python-sat takes clauses one Python list at a time (``add_clause``; ``append_formula`` loops over them),
which for a 9x9 formula of 1,500 clauses costs several times what the solver's own ``addClause`` does:
the lists must be made, and each call converts every literal. The solvers inside python-sat's extension
(``pysolvers``) export their C++ methods, so a numba kernel can call them directly, as the ``sat`` backend
already does for CaDiCaL's ``solve`` and ``terminate`` (``sat._NativeCadical``):

- MiniSat-like solvers (MiniSat 2.2, Glucose 3 and 4.1): ``Solver::newVar(bool, bool)`` once per
  variable (positive phase first), then ``Solver::addClause_(vec<Lit>&)`` per clause, on a ``vec``
  (data pointer, size, capacity) pointing at a numpy buffer of literals ``2 * var + sign`` (python-sat's
  numbering: variable v is the solver's variable v, variable 0 unused);
- CaDiCaL 1.5.3 and 1.9.5: ``Solver::add(int)``, literal by literal, 0 closing a clause (its IPASIR API).

The kernels call the C++ functions by their symbol names, registered with LLVM at the addresses ctypes
finds in the loaded ``pysolvers`` library, so they compile once and are cached like every other kernel.
Measured on 9x9 formulas: loading 1,500 clauses took 6 to 8 times less than through python-sat's lists.

Nothing here is python-sat's public API, so each solver's loader is tried once per process on a small
formula whose answers are known (``_works``); a solver whose symbols are missing or whose test fails is
loaded through ``add_clause`` instead, as is every other solver.
"""

from __future__ import annotations

import functools
from collections import deque
from itertools import pairwise
from typing import Any

import numpy as np
from numba import njit, types

__all__ = ["NATIVE", "Direct", "load"]

#: python-sat solver name -> the prefix of its C functions in ``pysolvers`` (``Direct``).
_C_PREFIX = {
    "minisat22": "minisat22",
    "glucose3": "glucose3",
    "glucose4": "glucose41",
    "cadical153": "cadical153",
    "cadical195": "cadical195",
}
#: python-sat solver name -> (symbol prefix of its C++ class, attribute of python-sat's object holding the
#: handle, kind): ``vec`` for MiniSat-like solvers, ``ipasir`` for CaDiCaL.
NATIVE: dict[str, tuple[str, str, str]] = {
    "minisat22": ("_ZN9Minisat226Solver", "minisat", "vec"),
    "glucose3": ("_ZN9Glucose306Solver", "glucose", "vec"),
    "glucose4": ("_ZN9Glucose416Solver", "glucose", "vec"),
    "cadical153": ("_ZN10CaDiCaL1536Solver", "cadical", "ipasir"),
    "cadical195": ("_ZN10CaDiCaL1956Solver", "cadical", "ipasir"),
}
_NEW_VAR = "6newVarEbb"
_ADD_CLAUSE = "10addClause_ERNS_3vecINS_3LitEEE"
_ADD = "3addEi"


def load(solver: Any, name: str, variables: int, lits: np.ndarray, ends: np.ndarray) -> bool:
    """Add the clauses ``lits[ends[i-1]:ends[i]]`` (literals as python-sat numbers them) over variables
    1..``variables`` to a python-sat ``Solver`` of solver ``name``. False when the solver found the
    formula unsatisfiable while adding it (natively loaded MiniSat-like solvers stop there)."""
    loader = _loader(name)
    handle = getattr(solver.solver, NATIVE[name][1], None) if loader is not None else None
    if loader is None or handle is None:  # python-sat's way (solvers answer add_clause differently: no check)
        flat = lits.tolist()
        deque(map(solver.add_clause, [flat[a:b] for a, b in pairwise([0, *ends.tolist()])]), maxlen=0)
        return True
    return loader(_pointer(handle), variables, lits, ends)


class Direct:
    """A solver of ``NATIVE`` driven through python-sat's C functions alone, without its ``Solver`` object:
    for the short calls of a 9x9 formula, whose Python wrapping costs about a tenth of their time. It
    installs no signal handler (Ctrl-C waits for the call to end) and takes no time limit: the ``sat``
    backend uses it only without one, on grids where a call lasts milliseconds.

    ``options`` are set before the first clause (CaDiCaL's ``chrono``, ...). Close it with ``delete``.
    """

    __slots__ = ("_add", "_delete", "_model", "_solve", "_stats", "handle", "name")

    def __init__(self, name: str, options: dict[str, int] | None = None) -> None:
        new, self._solve, self._model, self._add, self._stats, self._delete, configure = _c_functions(name)
        self.name = name
        self.handle = new()
        for option, value in (options or {}).items():
            configure(self.handle, option, value)

    @staticmethod
    def available(name: str) -> bool:
        """Whether solver ``name`` can be driven this way (its clauses loaded natively)."""
        return name in _C_PREFIX and _loader(name) is not None

    def load(self, variables: int, lits: np.ndarray, ends: np.ndarray) -> bool:
        """``load`` for this solver; False when the formula is found unsatisfiable on the way."""
        return _loader(self.name)(_pointer(self.handle), variables, lits, ends)

    def solve(self) -> bool:
        return bool(self._solve(self.handle, [], 0))

    def get_model(self) -> list[int]:
        return self._model(self.handle)

    def add_clause(self, clause: list[int]) -> None:
        self._add(self.handle, clause)

    def accum_stats(self) -> dict[str, int]:
        return self._stats(self.handle)

    def delete(self) -> None:
        if self.handle is not None:
            if self.name.startswith("cadical"):
                self._delete(self.handle, None)  # no proof file
            else:
                self._delete(self.handle)
            self.handle = None


@functools.cache
def _c_functions(name: str) -> tuple[Any, ...]:
    """python-sat's C functions of solver ``name``: new, solve, model, add_cl, acc_stats, del, set."""
    import pysolvers

    prefix = _C_PREFIX[name]
    kinds = ("new", "solve", "model", "add_cl", "acc_stats", "del", "set")
    return tuple(getattr(pysolvers, f"{prefix}_{kind}", None) for kind in kinds)


@functools.cache
def _pointer_function() -> Any:
    import ctypes

    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    get.restype = ctypes.c_void_p
    return get


def _pointer(handle: Any) -> int:
    """The C++ object behind a python-sat handle (a capsule without a name)."""
    return _pointer_function()(handle, None)


@functools.cache
def _symbols() -> dict[str, bool]:
    """Register the solvers' functions with LLVM (where the kernels find them); which solvers have them.

    A function missing from this python-sat build is registered as a stub that is never called, so the
    kernels, which name every solver's functions, still link."""
    import ctypes

    import llvmlite.binding as llvm

    try:
        import pysolvers

        library: Any = ctypes.CDLL(pysolvers.__file__)
    except (ImportError, OSError):
        library = None
    global _STUB
    if _STUB is None:
        _STUB = ctypes.CFUNCTYPE(ctypes.c_int)(_stub)
    found = {}
    for name, (prefix, _, kind) in NATIVE.items():
        suffixes = (_NEW_VAR, _ADD_CLAUSE) if kind == "vec" else (_ADD,)
        addresses = [getattr(library, prefix + suffix, None) for suffix in suffixes]
        found[name] = all(a is not None for a in addresses)
        for suffix, function in zip(suffixes, addresses, strict=True):
            address = ctypes.cast(function if function is not None else _STUB, ctypes.c_void_p).value
            llvm.add_symbol(prefix + suffix, address)
    return found


def _stub() -> int:
    return 0


_STUB: Any = None  # the stub as a C function, kept alive for as long as the kernels may be linked


@functools.cache
def _loader(name: str) -> Any:
    """A function (pointer, variables, lits, ends) -> bool loading into a solver of ``name``, or None."""
    entry = NATIVE.get(name)
    if entry is None:
        return None
    kind = entry[2]
    if not _symbols().get(name):
        return None
    if kind == "vec":
        which = _VEC.index(name)

        def loader(pointer: int, variables: int, lits: np.ndarray, ends: np.ndarray) -> bool:
            # the vec<Lit> handed to addClause_ (data pointer, size | capacity << 32) and the literals it
            # points at: each call's own, so that threads loading at once never share them
            vec, buffer = np.empty(2, np.int64), np.empty(64, np.int32)
            status = _load_vec(which, pointer, variables, lits, ends, vec, buffer)
            while status < 0:  # a clause longer than the buffer (nothing was added yet): the next may be
                buffer = np.empty(-status, np.int32)  # longer still, so until every clause fits
                status = _load_vec(which, pointer, variables, lits, ends, vec, buffer)
            return status == 1
    else:
        which = _IPASIR.index(name)

        def loader(pointer: int, variables: int, lits: np.ndarray, ends: np.ndarray) -> bool:
            _load_ipasir(which, pointer, lits, ends)
            return True

    return loader if _works(name, loader) else None


def _works(name: str, loader: Any) -> bool:
    """Whether ``loader`` gives solver ``name`` the right formula: one whose models are known."""
    from pysat.solvers import Solver

    lits = np.array([1, 2, 3, -1, -2, -1, -3, -2, -3, -4, 2], np.int32)  # exactly one of 1, 2, 3; 4 -> 2
    ends = np.array([3, 5, 7, 9, 11], np.int32)
    try:
        with Solver(name=name) as solver:
            handle = getattr(solver.solver, NATIVE[name][1])
            if not loader(_pointer(handle), 4, lits, ends) or solver.nof_clauses() != 5:
                return False
            models = []
            while solver.solve():
                model = solver.get_model()[:4]
                models.append(model)
                solver.add_clause([-v for v in model])
            return sorted(models) == [[-1, -2, 3, -4], [-1, 2, -3, -4], [-1, 2, -3, 4], [1, -2, -3, -4]]
    except Exception:  # a loader that fails in any way is not used
        return False


_NEW_VAR_TYPE = types.int32(types.int64, types.uint8, types.uint8)  # this, bool polarity, bool decision
_ADD_CLAUSE_TYPE = types.uint8(types.int64, types.int64)  # this, vec<Lit>& -> bool
_ADD_TYPE = types.void(types.int64, types.int32)  # this, literal
#: The vec solvers' and the IPASIR solvers' functions, in the order of their ``which`` index.
_VEC = ("minisat22", "glucose3", "glucose4")
_IPASIR = ("cadical153", "cadical195")
_ms_new_var, _g3_new_var, _g4_new_var = (
    types.ExternalFunction(NATIVE[s][0] + _NEW_VAR, _NEW_VAR_TYPE) for s in _VEC
)
_ms_add_clause, _g3_add_clause, _g4_add_clause = (
    types.ExternalFunction(NATIVE[s][0] + _ADD_CLAUSE, _ADD_CLAUSE_TYPE) for s in _VEC
)
_c153_add, _c195_add = (types.ExternalFunction(NATIVE[s][0] + _ADD, _ADD_TYPE) for s in _IPASIR)


@njit(cache=True)
def _load_vec(which, solver, variables, lits, ends, vec, buffer):
    """Load into the MiniSat-like solver ``_VEC[which]``: 1, 0 when it found the formula unsatisfiable,
    or minus the length of a clause longer than ``buffer`` (then nothing was added)."""
    start = 0
    for c in range(ends.shape[0]):
        if ends[c] - start > buffer.shape[0]:
            return start - ends[c]
        start = ends[c]
    # variable 0 too (python-sat leaves it unused); polarity false: the search tries "the cell holds the
    # digit" first, not MiniSat's default "does not hold" (measured: 5% fewer conflicts on the hardest)
    for _ in range(variables + 1):
        if which == 0:
            _ms_new_var(solver, 0, 1)
        elif which == 1:
            _g3_new_var(solver, 0, 1)
        else:
            _g4_new_var(solver, 0, 1)
    data = buffer.ctypes.data
    address = vec.ctypes.data
    start = 0
    for c in range(ends.shape[0]):
        end = ends[c]
        for j in range(start, end):
            lit = lits[j]
            buffer[j - start] = 2 * lit if lit > 0 else 1 - 2 * lit
        size = np.int64(end - start)
        vec[0] = data
        vec[1] = size | (size << 32)
        if which == 0:
            added = _ms_add_clause(solver, address)
        elif which == 1:
            added = _g3_add_clause(solver, address)
        else:
            added = _g4_add_clause(solver, address)
        if added == 0:
            return 0
        start = end
    return 1


@njit(cache=True)
def _load_ipasir(which, solver, lits, ends):
    """Load into the CaDiCaL ``_IPASIR[which]``, literal by literal."""
    start = 0
    for c in range(ends.shape[0]):
        end = ends[c]
        for j in range(start, end):
            if which == 0:
                _c153_add(solver, lits[j])
            else:
                _c195_add(solver, lits[j])
        if which == 0:
            _c153_add(solver, 0)
        else:
            _c195_add(solver, 0)
        start = end
