"""Plots for the notebooks: cactus plots and time distributions of a comparison, and a puzzle as a picture.

matplotlib is imported inside each function (it is in the ``notebooks`` extra), so importing this module
costs nothing. Every function draws on ``ax`` when one is given, else on a new figure, and returns the axes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .grid import Puzzle, symbol
from .optional import optional_import

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["cactus", "draw_puzzle", "styles", "time_boxes"]


def _pyplot() -> Any:
    return optional_import("matplotlib.pyplot", "plots", "notebooks")


def _axes(ax: Axes | None, figsize: tuple[float, float]) -> Axes:
    return ax if ax is not None else _pyplot().subplots(figsize=figsize)[1]


_LINESTYLES = {"dfs": "-", "sat": "--", "cpsat": ":"}


def styles(configs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """A colour (from the 20 of ``tab20``) and a line style per backend (dfs solid, sat dashed, cpsat
    dotted) for each configuration label, so that every plot of a notebook draws a configuration alike."""
    plt = _pyplot()
    palette = plt.get_cmap("tab20").colors
    order = [*range(0, 20, 2), *range(1, 20, 2)]  # the strong colours first, then their light twins
    out = {}
    for i, config in enumerate(dict.fromkeys(configs)):
        backend = config.partition("[")[0].partition(":")[0]
        out[config] = {"color": palette[order[i % 20]], "linestyle": _LINESTYLES.get(backend, "-.")}
    return out


def _configs(df: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(df["config"]))


def cactus(
    df: pd.DataFrame,
    ax: Axes | None = None,
    title: str | None = None,
    legend: bool = True,
    style: dict[str, dict[str, Any]] | None = None,
) -> Axes:
    """Puzzles solved (y) against the time each took (x, log scale), one step line per configuration.

    A point (t, k) says k puzzles were each solved within t seconds: lines further up and to the left are
    better, and a line that stops short of the top marks puzzles left unsolved (time limit or error).
    Rows count as solved when their status is ``solved``, ``multiple`` or ``no_solution`` (an answer was
    proved). ``style`` maps labels to line properties (default: :func:`styles`).
    """
    ax = _axes(ax, (7, 4.5))
    style = style or styles(_configs(df))
    answered = df["status"].isin(["solved", "multiple", "no_solution"])
    for config in _configs(df):
        mine = df["config"] == config
        times = sorted(df.loc[mine & answered, "time"].astype(float))
        if times:
            ax.step(times, range(1, len(times) + 1), where="post", label=config, **style.get(config, {}))
    ax.set_xscale("log")
    ax.set_xlabel("time per puzzle (s, log scale)")
    ax.set_ylabel("puzzles solved within that time")
    total = int(df.groupby("config").size().max()) if len(df) else 0
    ax.axhline(total, color="grey", linewidth=0.8, linestyle=":")
    ax.set_title(title or f"cactus plot ({total} puzzles per configuration)")
    if legend:
        ax.legend(fontsize="small", loc="lower right")
    ax.grid(True, which="major", alpha=0.3)
    return ax


def time_boxes(
    df: pd.DataFrame,
    by: str = "dataset",
    axes: Sequence[Axes] | None = None,
    style: dict[str, dict[str, Any]] | None = None,
) -> Sequence[Axes]:
    """Box plots of the time per puzzle (log scale), one panel per value of ``by``, one box per configuration.

    Boxes span the quartiles, whiskers 5% to 95%; the puzzles outside are the dots. Boxes take the
    configurations' colours from ``style`` (default: :func:`styles`).
    """
    plt = _pyplot()
    groups = list(dict.fromkeys(df[by])) if by in df else [None]
    if axes is None:
        cols = min(3, len(groups))
        rows = math.ceil(len(groups) / cols)
        fig, grid = plt.subplots(rows, cols, figsize=(5.5 * cols, 3.8 * rows), squeeze=False, sharey=True)
        axes = list(grid.flat)
        for extra in axes[len(groups) :]:
            fig.delaxes(extra)
    configs = _configs(df)
    style = style or styles(configs)
    for ax, group in zip(axes, groups, strict=False):
        part = df if group is None else df[df[by] == group]
        data = [part.loc[part["config"] == c, "time"].astype(float).to_numpy() for c in configs]
        boxes = ax.boxplot(data, whis=(5, 95), flierprops={"markersize": 2}, patch_artist=True)
        for patch, config in zip(boxes["boxes"], configs, strict=True):
            patch.set_facecolor(style.get(config, {}).get("color", "white"))
            patch.set_alpha(0.8)
        ax.set_xticks(range(1, len(configs) + 1), configs, rotation=40, ha="right", fontsize="small")
        ax.set_yscale("log")
        ax.set_title(str(group) if group is not None else "all puzzles")
        ax.set_ylabel("time per puzzle (s)")
        ax.grid(True, axis="y", alpha=0.3)
    return axes


def draw_puzzle(
    puzzle: Puzzle, solution: Puzzle | None = None, ax: Axes | None = None, title: str | None = None
) -> Axes:
    """The grid as a picture: thin cell lines, thick box lines, givens in black; with ``solution`` its other
    digits in blue."""
    rules, n = puzzle.rules, puzzle.rules.n
    ax = _axes(ax, (0.42 * n + 1, 0.42 * n + 1))
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    for k in range(n + 1):
        ax.plot([0, n], [k, k], color="black", linewidth=2.2 if k % rules.box_rows == 0 else 0.6)
        ax.plot([k, k], [0, n], color="black", linewidth=2.2 if k % rules.box_cols == 0 else 0.6)
    size = max(5.0, 15.0 - 0.3 * n)
    for cell in range(rules.ncells):
        row, col = divmod(cell, n)
        given = puzzle.cells[cell]
        digit = given or (solution.cells[cell] if solution is not None else 0)
        if digit:
            ax.text(
                col + 0.5,
                row + 0.5,
                symbol(digit),
                ha="center",
                va="center",
                fontsize=size,
                color="black" if given else "tab:blue",
                fontweight="bold" if given else "normal",
            )
    if title:
        ax.set_title(title)
    return ax
