"""Compare backends and their options on a puzzle set: one row per puzzle and configuration, as a DataFrame.

A *configuration* is a backend with its options, written as a string, a dict or a :class:`Config`::

    dfs                                   the dfs backend with its defaults
    sat:glucose4                          a backend variant (here a SAT solver)
    dfs[heuristic=weighted]               options in brackets, KEY=VALUE separated by commas
    sat:cadical153[encoding=reduced,amo=ladder]
    {"backend": "sat", "encoding": "reduced", "amo": "seqcounter", "label": "reduced+seq"}

In a list of configurations (the CLI's ``--backends``) commas inside brackets belong to the options:
``dfs,sat[encoding=reduced,amo=ladder],cpsat`` is three configurations. Values that look like integers,
decimals or ``true``/``false`` become those; everything else stays a string. A configuration's label is
its canonical string (``sat[encoding=reduced,amo=ladder]``) unless a ``label`` is given.

Columns of :func:`compare`'s DataFrame, in this order (``COLUMNS``); a value a backend does not report is
missing (``<NA>``/``NaN``), never 0:

===============  =================================================================================
config           the configuration's label
backend          the backend spec that ran (``sat:glucose4``)
dataset          the data set's label (the key of a mapping of puzzle lists, a file name), or None
puzzle           the puzzle's 0-based position in its data set
n                digits per unit (9 for a 9x9 grid)
givens           the puzzle's number of givens
status           ``solved``, ``no_solution``, ``multiple`` (with ``unique=True``), ``unknown`` (time limit)
                 or ``error`` (the backend raised, or gave an answer the verifier rejects: see ``error``)
unique           True when uniqueness was proved, False when disproved, None when not asked or unknown
time             wall-clock seconds of the backend's ``enumerate`` call, model building included
build_time       seconds the backend reports building its model (part of ``time``)
solve_time       seconds the backend reports searching (its ``time`` statistic)
startup_time     seconds the configuration's untimed warm-up took (see ``warmup``), the same in each of its
                 rows: the one-time start-up a batch pays once, kept out of ``time``; NaN with no warm-up
decisions        SAT / CP-SAT branching decisions
conflicts        SAT / CP-SAT conflicts
propagations     SAT unit propagations
branches         CP-SAT search branches
guesses          dfs values tried at branch points
backtracks       dfs guesses that ended in a contradiction
nodes            dfs search states propagated
variables        model size: variables (for CNF including auxiliaries)
clauses          model size: CNF clauses
constraints      model size: CP-SAT constraints
solution         the (first) verified solution as one line of symbols, None if there is none
error            why the status is ``error``, else None
===============  =================================================================================

Further numeric statistics a backend reports follow these columns under their own names.

Every answer is checked by the independent verifier (:mod:`sudoku_cp.verify`), and the configurations are
checked against each other: a solution that breaks a rule, two "different" solutions that are equal, a
``no_solution`` where another configuration found a verified solution, or a uniqueness proof where another
found two solutions all turn the row's status into ``error`` with the reason in ``error``. Backend
exceptions do too, so one broken configuration does not throw away a long run; ``strict=True`` raises
:class:`WrongAnswerError` (or the backend's exception) at once instead. :func:`summarize` counts errors
in its ``errors`` column, and ``sudoku-cp compare`` reports them on standard error and exits 1.

>>> df = compare(["12343412214343.."], ["dfs", "dfs[heuristic=first]"], unique=True)
>>> df[["config", "status", "unique"]].to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
[{'config': 'dfs', 'status': 'solved', 'unique': True},
 {'config': 'dfs[heuristic=first]', 'status': 'solved', 'unique': True}]
"""

from __future__ import annotations

import inspect
import math
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .backends import Backend, backend_class, make_backend
from .errors import BackendUnavailableError, MissingPackageError, SudokuError, UsageError
from .grid import Puzzle, Rules
from .optional import optional_import
from .result import Status
from .solving import result_of
from .verify import solution_problems

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COLUMNS",
    "COUNT_COLUMNS",
    "SUMMARY_COLUMNS",
    "WARMUPS",
    "Config",
    "MissingPackageError",
    "WrongAnswerError",
    "compare",
    "format_summary",
    "parse_config",
    "parse_configs",
    "summarize",
]

#: The statistics columns holding counts (nullable integers): solver effort, then model size.
COUNT_COLUMNS = (
    "decisions",
    "conflicts",
    "propagations",
    "branches",
    "guesses",
    "backtracks",
    "nodes",
    "variables",
    "clauses",
    "constraints",
)
#: The documented columns of :func:`compare`, in order (see the module docstring).
COLUMNS = (
    "config",
    "backend",
    "dataset",
    "puzzle",
    "n",
    "givens",
    "status",
    "unique",
    "time",
    "build_time",
    "solve_time",
    "startup_time",
    *COUNT_COLUMNS,
    "solution",
    "error",
)
#: The columns of :func:`summarize`, after the grouping columns.
SUMMARY_COLUMNS = (
    "puzzles",
    "solved",
    "multiple",
    "no_solution",
    "unknown",
    "errors",
    "unique_proved",
    "median_time",
    "p95_time",
    "max_time",
    "total_time",
    "puzzles_per_s",
    "startup_time",
)

#: Backend statistics that fill a documented column under another name.
_RENAMED_STATS = {"time": "solve_time"}
#: What :func:`compare` solves untimed before timing a configuration (its ``warmup`` argument).
WARMUPS = ("none", "process", "shape")
#: A tiny valid puzzle solved once per configuration before timing (see ``warmup``).
_WARMUP_PUZZLE = "12343412214343.."

_NAME = r"[A-Za-z_][\w.-]*"
_CONFIG_RE = re.compile(rf"^\s*(?P<spec>{_NAME}(?::[\w.-]+)?)\s*(?:\[(?P<options>[^\[\]]*)\])?\s*$")
_OPTION_RE = re.compile(rf"^\s*(?P<key>{_NAME})\s*=\s*(?P<value>[^=\s][^=]*?)\s*$")
SYNTAX = "NAME[:VARIANT][[KEY=VALUE,...]], such as sat:glucose4[encoding=reduced,amo=ladder]"


class WrongAnswerError(SudokuError, AssertionError):
    """A configuration gave an answer the verifier or another configuration refutes (``strict=True``)."""


def _pandas() -> Any:
    return optional_import("pandas", "the comparison", "notebooks")


def _coerce(value: str) -> Any:
    """An option value as the backend wants it: int, decimal or bool where the text is one, else the text."""
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+|\d+)(e[+-]?\d+)?", low):
        return float(value)
    return value


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Config:
    """A backend spec (``"sat:glucose4"``) with options and a label naming it in tables and plots.

    ``make()`` builds a fresh backend; the label defaults to the canonical string, which
    :func:`parse_config` reads back to an equal configuration.
    """

    backend: str
    options: tuple[tuple[str, Any], ...] = ()
    label: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.backend, str) or not re.fullmatch(rf"{_NAME}(?::[\w.-]+)?", self.backend):
            raise UsageError(f"bad backend spec {self.backend!r}; expected {SYNTAX}")
        keys = [k for k, _ in self.options]
        if len(set(keys)) != len(keys):
            raise UsageError(f"configuration {self.backend} repeats an option: {', '.join(keys)}")
        if not self.label:
            object.__setattr__(self, "label", self.canonical)

    @property
    def canonical(self) -> str:
        """The configuration as a string in the compact syntax."""
        if not self.options:
            return self.backend
        return f"{self.backend}[{','.join(f'{k}={_show(v)}' for k, v in self.options)}]"

    def make(self) -> Backend:
        """A new backend of this configuration (``UnknownBackendError`` / ``UsageError`` if there is none)."""
        name = self.backend.partition(":")[0]
        accepted = _accepted_options(backend_class(name))
        if accepted is not None and (unknown := [k for k, _ in self.options if k not in accepted]):
            valid = ", ".join(accepted) or "none"
            raise UsageError(f"backend {name} takes no option {', '.join(unknown)}; its options: {valid}")
        return make_backend(self.backend, **dict(self.options))


def _accepted_options(cls: type[Backend]) -> list[str] | None:
    """The keyword options a backend class's constructor names, or None when it takes any (``**options``)."""
    params = list(inspect.signature(cls.__init__).parameters.values())[2:]  # after self and variant
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]


def parse_config(config: str | Mapping[str, Any] | Config) -> Config:
    """A :class:`Config` from the compact string syntax, a dict with a ``backend`` key, or a Config.

    >>> parse_config("sat:glucose4[encoding=reduced, amo=ladder]")
    Config(backend='sat:glucose4', options=(('encoding', 'reduced'), ('amo', 'ladder')), \
label='sat:glucose4[encoding=reduced,amo=ladder]')
    >>> parse_config({"backend": "dfs", "heuristic": "weighted"}).label
    'dfs[heuristic=weighted]'
    """
    if isinstance(config, Config):
        return config
    if isinstance(config, Mapping):
        options = dict(config)
        backend = options.pop("backend", None)
        label = options.pop("label", "")
        if not isinstance(backend, str):
            raise UsageError(f"a configuration dict needs a 'backend' name, got {config!r}")
        return Config(backend.strip(), tuple(options.items()), str(label))
    if not isinstance(config, str):
        raise UsageError(f"a configuration is a string, a dict or a Config, not {type(config).__name__}")
    match = _CONFIG_RE.match(config)
    if match is None:
        raise UsageError(f"bad configuration {config!r}; expected {SYNTAX}")
    options = []
    text = match["options"]
    if text is not None and text.strip():
        for item in text.split(","):
            option = _OPTION_RE.match(item)
            if option is None:
                raise UsageError(f"bad option {item.strip()!r} in {config!r}; expected KEY=VALUE")
            options.append((option["key"], _coerce(option["value"])))
    return Config(match["spec"], tuple(options))


def parse_configs(text: str) -> list[Config]:
    """Configurations from a comma-separated list; commas inside ``[...]`` separate options, not entries.

    >>> [c.label for c in parse_configs("dfs, sat[encoding=reduced,amo=ladder] ,cpsat:bool")]
    ['dfs', 'sat[encoding=reduced,amo=ladder]', 'cpsat:bool']
    """
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise UsageError(f"unbalanced ']' in {text!r}")
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth:
        raise UsageError(f"unbalanced '[' in {text!r}")
    parts.append(text[start:])
    if not all(p.strip() for p in parts):
        raise UsageError(f"empty configuration in {text!r}; expected a comma-separated list of {SYNTAX}")
    return [parse_config(p) for p in parts]


def _items(
    puzzles: Sequence[Puzzle | str] | Mapping[str, Sequence[Puzzle | str]],
) -> list[tuple[str | None, int, Puzzle]]:
    """(dataset, position, puzzle) for each puzzle of a list, or of each list of a mapping."""
    groups: Iterable[tuple[str | None, Sequence[Puzzle | str]]]
    if isinstance(puzzles, Mapping):
        groups = puzzles.items()
    elif isinstance(puzzles, (str, Puzzle)):
        raise UsageError("compare takes a list of puzzles (or a mapping of lists), not a single puzzle")
    else:
        groups = [(None, puzzles)]
    items = []
    for dataset, group in groups:
        for i, puzzle in enumerate(group):
            items.append((dataset, i, Puzzle.from_string(puzzle) if isinstance(puzzle, str) else puzzle))
    return items


def _check(puzzle: Puzzle, solutions: Sequence[Puzzle]) -> str | None:
    """Why the solutions a backend returned are wrong, or None when the verifier accepts them."""
    for k, solution in enumerate(solutions):
        if problems := solution_problems(puzzle, solution):
            return f"wrong answer: solution {k + 1}: {'; '.join(problems[:3])}"
    if len(set(solutions)) != len(solutions):
        return "wrong answer: the same solution was returned twice"
    return None


def _row(label: str, spec: str, dataset: str | None, index: int, puzzle: Puzzle) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(
        config=label, backend=spec, dataset=dataset, puzzle=index, n=puzzle.rules.n, givens=len(puzzle.givens)
    )
    return row


def _run_one(
    engine: Backend, label: str, item: tuple[str | None, int, Puzzle], unique: bool, time_limit: float | None
) -> tuple[dict[str, Any], tuple[Puzzle, ...]]:
    """One row, and the solutions the verifier accepted."""
    dataset, index, puzzle = item
    row = _row(label, engine.spec, dataset, index, puzzle)
    start = time.perf_counter()
    try:
        found = engine.enumerate(puzzle, limit=2 if unique else 1, time_limit=time_limit)
    except (UsageError, BackendUnavailableError):
        raise  # the configuration cannot run as asked (a time limit it refuses, say): not an answer
    except Exception as exc:
        row.update(
            time=time.perf_counter() - start, status=Status.ERROR.value, error=f"{type(exc).__name__}: {exc}"
        )
        row["_exception"] = exc
        return row, ()
    row["time"] = time.perf_counter() - start
    result = result_of(puzzle, found, engine.spec, unique)
    row.update(status=result.status.value, unique=result.unique)
    for key, value in found.stats.items():
        column = _RENAMED_STATS.get(key, key)
        if column in COLUMNS and column not in ("build_time", "solve_time", *COUNT_COLUMNS):
            column = f"stat_{column}"  # never let a statistic overwrite an identifying column
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            row[column] = value
    if problem := _check(puzzle, found.solutions):
        row.update(status=Status.ERROR.value, unique=None, error=problem)
        return row, ()
    if found.solutions:
        row["solution"] = found.solutions[0].to_string()
    return row, found.solutions


def _cross_check(rows: list[dict[str, Any]], found: dict[tuple[str | None, int], dict[str, tuple]]) -> None:
    """Turn answers refuted by another configuration's verified solutions into errors."""
    for row in rows:
        if row["status"] == Status.ERROR.value:
            continue
        others = found.get((row["dataset"], row["puzzle"]), {})
        witness = {s: cfg for cfg, sols in others.items() for s in sols}
        if row["status"] == Status.NO_SOLUTION.value and witness:
            cfg = next(iter(witness.values()))
            row.update(status=Status.ERROR.value, error=f"wrong answer: no_solution, but {cfg} found one")
        elif row["unique"] is True and len(witness) >= 2:
            by = sorted(cfg for cfg, sols in others.items() if sols and cfg != row["config"])
            row.update(
                status=Status.ERROR.value,
                unique=None,
                solution=None,
                error=f"wrong answer: proved unique, but {len(witness)} solutions were found "
                f"(by {', '.join(by)})",
            )


def compare(
    puzzles: Sequence[Puzzle | str] | Mapping[str, Sequence[Puzzle | str]],
    configs: Iterable[str | Mapping[str, Any] | Config | Backend] | str,
    *,
    unique: bool = False,
    time_limit: float | None = None,
    strict: bool = False,
    warmup: str | bool = "shape",
) -> pd.DataFrame:
    """Run every configuration on every puzzle; one row per (configuration, puzzle), columns ``COLUMNS``.

    ``puzzles`` is a list (of Puzzle or strings) or a mapping ``{dataset label: list}``. ``configs`` are
    strings in the compact syntax (one string may list several, comma-separated), dicts, Configs, or
    ready Backend instances (labelled by their spec, left open). All configurations are built before any
    puzzle runs, so a bad one fails at once (``UnknownBackendError``, ``UsageError``). Each configuration
    has one backend instance that serves all the puzzles in order, as a batch user would run it.

    A configuration that cannot run as asked stops the comparison with the backend's error:
    ``UsageError`` (such as a time limit for a solver that cannot be interrupted) or
    ``BackendUnavailableError`` (a solver missing from this installation).

    ``unique=True`` asks every configuration to prove uniqueness (a search for a second solution);
    ``time_limit`` (seconds) bounds each puzzle, after which it is ``unknown``.

    ``warmup`` says what each configuration solves untimed before its first timed puzzle (``WARMUPS``):
    ``"shape"`` (the default) one 4x4 puzzle and the first puzzle of each grid shape in the input, so
    every row measures the steady state a long batch sees (that puzzle's row then follows a solve of
    itself); ``"process"`` (or True) only the 4x4 puzzle, so imports and JIT compilation stay out of the
    rows but building the model of the puzzles' own shape lands on the first row of that shape;
    ``"none"`` (or False) nothing. The warm-up's wall time is the ``startup_time`` column: with a few
    puzzles it outweighs them, and a backend that loads more (compiled kernels) would otherwise look the
    slowest. It is what this configuration still had to load in this process, after those before it.

    Wrong answers and backend exceptions become ``error`` rows (see the module docstring), or raise with
    ``strict=True``.
    """
    pandas = _pandas()
    if isinstance(configs, str):
        configs = parse_configs(configs)
    if time_limit is not None and not time_limit > 0:
        raise UsageError(f"time_limit must be positive, not {time_limit}")
    mode = {True: "process", False: "none"}.get(warmup, warmup) if isinstance(warmup, bool) else warmup
    if mode not in WARMUPS:
        raise UsageError(f"unknown warmup {warmup!r}; valid: {', '.join(WARMUPS)}")
    items = _items(puzzles)
    warmups = [] if mode == "none" else [Puzzle.from_string(_WARMUP_PUZZLE)]
    if mode == "shape":
        firsts: dict[Rules, Puzzle] = {}
        for _, _, puzzle in items:
            firsts.setdefault(puzzle.rules, puzzle)
        warmups += firsts.values()
    engines: list[tuple[str, Backend, bool]] = []  # label, backend, whether we own it
    try:
        for config in configs:
            if isinstance(config, Backend):
                engines.append((config.spec, config, False))
            else:
                parsed = parse_config(config)
                engines.append((parsed.label, parsed.make(), True))
        labels = [label for label, _, _ in engines]
        if len(set(labels)) != len(labels):
            raise UsageError(f"two configurations share a label: {', '.join(labels)}; give each a label")
        rows: list[dict[str, Any]] = []
        found: dict[tuple[str | None, int], dict[str, tuple]] = {}
        for label, engine, _ in engines:
            start = time.perf_counter()
            for puzzle in warmups:
                try:
                    engine.enumerate(puzzle, 2 if unique else 1, time_limit)
                except (UsageError, BackendUnavailableError):
                    raise
                except Exception:
                    pass  # a backend that fails here fails on the puzzles too, where its rows say why
            startup = time.perf_counter() - start if warmups else math.nan
            for item in items:
                row, solutions = _run_one(engine, label, item, unique, time_limit)
                row["startup_time"] = startup
                exc = row.pop("_exception", None)
                if strict and exc is not None:
                    raise exc
                if strict and row["error"]:
                    raise WrongAnswerError(
                        f"{label}, puzzle {item[1]} of {item[0] or 'the list'}: {row['error']}"
                    )
                found.setdefault((item[0], item[1]), {})[label] = solutions
                rows.append(row)
    finally:
        for _, engine, owned in engines:
            if owned:
                engine.close()
    _cross_check(rows, found)
    if strict and (bad := next((r for r in rows if r["error"]), None)):
        raise WrongAnswerError(f"{bad['config']}, puzzle {bad['puzzle']}: {bad['error']}")
    return _frame(pandas, rows)


def _frame(pandas: Any, rows: list[dict[str, Any]]) -> pd.DataFrame:
    extra = sorted({k for row in rows for k in row} - set(COLUMNS))
    df = pandas.DataFrame(rows, columns=[*COLUMNS, *extra])
    for column in ("puzzle", "n", "givens", *COUNT_COLUMNS):
        df[column] = df[column].astype("Int64")
    for column in ("time", "build_time", "solve_time", "startup_time"):
        df[column] = df[column].astype("float64")
    df["unique"] = df["unique"].astype(object).where(df["unique"].notna(), None)
    return df


def _quantile(values: Any, q: float) -> float:
    return float(values.quantile(q)) if len(values) else math.nan


def summarize(df: pd.DataFrame, by: str | Sequence[str] = "config") -> pd.DataFrame:
    """Per configuration (or per ``by`` columns, such as ``["dataset", "config"]``): ``SUMMARY_COLUMNS``.

    ``solved``, ``multiple``, ``no_solution``, ``unknown`` and ``errors`` count rows by status;
    ``unique_proved`` counts rows whose uniqueness was proved;
    times are over all rows, in seconds; ``puzzles_per_s`` is puzzles over their total wall time;
    ``startup_time`` is the configuration's untimed warm-up (the largest in the group, NaN when ``df`` has
    none), not part of the other times. Groups keep the order in which they first appear in ``df``.
    """
    pandas = _pandas()
    keys = [by] if isinstance(by, str) else list(by)
    out = []
    for key, group in df.groupby(keys, sort=False, dropna=False):
        times = group["time"].astype(float)
        total = float(times.sum())
        status = group["status"]
        out.append(
            {
                **dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)),
                "puzzles": len(group),
                "solved": int((status == Status.SOLVED.value).sum()),
                "multiple": int((status == Status.MULTIPLE.value).sum()),
                "no_solution": int((status == Status.NO_SOLUTION.value).sum()),
                "unknown": int((status == Status.UNKNOWN.value).sum()),
                "errors": int((status == Status.ERROR.value).sum()),
                "unique_proved": int((group["unique"] == True).sum()),  # noqa: E712 - object column
                "median_time": _quantile(times, 0.5),
                "p95_time": _quantile(times, 0.95),
                "max_time": float(times.max()) if len(times) else math.nan,
                "total_time": total,
                "puzzles_per_s": len(group) / total if total > 0 else math.inf,
                "startup_time": _startup(group),
            }
        )
    return pandas.DataFrame(out, columns=[*keys, *SUMMARY_COLUMNS])


def _startup(group: pd.DataFrame) -> float:
    """A group's warm-up seconds: NaN when the frame has none (``warmup="none"``, or an older frame)."""
    if "startup_time" not in group:
        return math.nan
    values = group["startup_time"].astype(float).dropna()
    return float(values.max()) if len(values) else math.nan


def _ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.2f}"


def format_summary(summary: pd.DataFrame, unique: bool = False) -> str:
    """A summary as an aligned plain-text table, times in milliseconds (what ``sudoku-cp compare`` prints).

    The ``multiple``, ``no_solution`` and ``unknown`` columns appear only when some row counts one, and
    ``start-up ms`` (the untimed warm-up, left out of the other times) only when some row has one.
    """
    keys = [c for c in summary.columns if c not in SUMMARY_COLUMNS]
    records = summary.to_dict("records")
    statuses = [s for s in ("multiple", "no_solution", "unknown") if any(r[s] for r in records)]
    headers = [*keys, "solved", *(["unique"] if unique else []), *statuses, "errors"]
    headers += ["median ms", "p95 ms", "max ms", "puzzles/s"]
    startup = any(not math.isnan(r.get("startup_time", math.nan)) for r in records)
    headers += ["start-up ms"] if startup else []
    lines = []
    for rec in records:
        cells = [str(rec[k]) for k in keys]
        cells.append(f"{rec['solved']:,}/{rec['puzzles']:,}")
        if unique:
            cells.append(f"{rec['unique_proved']:,}")
        cells += [f"{rec[s]:,}" for s in (*statuses, "errors")]
        cells += [_ms(rec["median_time"]), _ms(rec["p95_time"]), _ms(rec["max_time"])]
        cells.append(f"{rec['puzzles_per_s']:,.0f}" if math.isfinite(rec["puzzles_per_s"]) else "-")
        if startup:
            cells.append(_ms(rec.get("startup_time", math.nan)))
        lines.append(cells)
    numeric = len(keys)  # columns from here on are right-aligned numbers
    widths = [max([len(h), *(len(r[i]) for r in lines)]) for i, h in enumerate(headers)]

    def fmt(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(w) if i < numeric else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([fmt(headers), *(fmt(r) for r in lines)])
