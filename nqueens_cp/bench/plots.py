"""Pictures of a comparison, as solver competitions draw them (matplotlib, the `plot` extra).

The cactus plot puts, for each backend, its solved runs in order of time: the point (k, t)
says k instances were solved within t seconds each; lower and further right is better. With
two backends a log-log scatter plot sits beside it, one point per instance, runs that did not
finish drawn on the border at the limit, so a reader sees at a glance which backend wins where.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ..model.problem import NQueensError
from ..run.files import replacing
from .columns import COLOURS, POINT, WRONG_POINT
from .results import Row, RunStatus, is_ranked

PLOT_SUFFIXES = (".png", ".svg")


def pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or a clear error naming the extra."""
    import logging

    # matplotlib speaks on stderr through logging and warnings (a font cache being built, a
    # config folder it cannot write, log scales of nothing): a successful run prints nothing
    # there, so only its errors are let through.
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
    except ImportError:
        raise NQueensError("--plot needs matplotlib: pip install 'nqueens_cp[plot]'") from None
    return plt


def _solved(row: Row) -> bool:
    return is_ranked(row)


def plot(rows: list[Row], backends: list[str], time_limit: float | None, path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # see pyplot
        _plot(rows, backends, time_limit, path)


def _plot(rows: list[Row], backends: list[str], time_limit: float | None, path: Path) -> None:
    plt = pyplot()
    pair = len(backends) == 2
    fig, axes = plt.subplots(1, 2 if pair else 1, figsize=(12 if pair else 7, 5), squeeze=False)
    _cactus(axes[0][0], rows, backends, time_limit)
    if pair:
        _scatter(axes[0][1], rows, backends, time_limit)
    fig.tight_layout()
    try:
        with replacing(path) as (out, _):  # a failed write leaves no truncated plot behind
            fig.savefig(out, format=path.suffix.lower().lstrip("."))
    except OSError as exc:
        raise NQueensError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _cactus(ax: Any, rows: list[Row], backends: list[str], time_limit: float | None) -> None:
    runs = {r.instance for r in rows if r.status != RunStatus.UNSUPPORTED}
    for i, name in enumerate(backends):
        times = sorted(float(r.seconds) for r in rows if r.backend == name and _solved(r))
        colour = COLOURS[i % len(COLOURS)]  # as the page draws this backend
        label = f"{name} ({len(times)} solved)"
        ax.step(range(1, len(times) + 1), times, where="post", marker=".", color=colour, label=label)
    if time_limit is not None:
        ax.axhline(time_limit, color="grey", linestyle="--", linewidth=1, label=f"limit {time_limit:g} s")
    ax.set_yscale("log")
    ax.set_xlabel(f"instances solved (of {len(runs)})")
    ax.set_ylabel("time per instance (s)")
    ax.set_title("cactus plot: solved within a time")
    ax.grid(True, which="both", alpha=0.3)
    # below the axes: inside, a legend of four or more backends hid their lines
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize="small", frameon=False)


def _xy(points: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    return [x for x, _ in points], [y for _, y in points]


def _scatter(ax: Any, rows: list[Row], backends: list[str], time_limit: float | None) -> None:
    a, b = backends
    by = {(r.instance, r.backend): r for r in rows}
    pairs = [(by[(i, a)], by[(i, b)]) for i, n in by if n == a and (i, b) in by]
    finished = [float(r.seconds) for pr in pairs for r in pr if _solved(r)]
    border = time_limit if time_limit is not None else max(finished, default=1.0) * 2
    low = max(min(finished, default=border / 100) / 2, 1e-4)

    def at(r: Row) -> float:
        return max(float(r.seconds), low) if _solved(r) else border

    both = [(at(x), at(y)) for x, y in pairs if _solved(x) and _solved(y)]
    one = [(at(x), at(y)) for x, y in pairs if not (_solved(x) and _solved(y)) and not (x.wrong or y.wrong)]
    bad = [(at(x), at(y)) for x, y in pairs if x.wrong or y.wrong]
    ax.scatter(*_xy(both), s=14, color=POINT, label="both solved")
    ax.scatter(*_xy(one), s=22, marker="x", color=POINT, label="not finished (on the border)")
    if bad:
        ax.scatter(*_xy(bad), s=22, marker="x", color=WRONG_POINT, label="a wrong answer")
    ax.plot([low, border], [low, border], color="grey", linewidth=1)
    ax.axhline(border, color="grey", linestyle="--", linewidth=1)
    ax.axvline(border, color="grey", linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low / 1.5, border * 1.5)
    ax.set_ylim(low / 1.5, border * 1.5)
    ax.set_xlabel(f"{a} time (s)")
    ax.set_ylabel(f"{b} time (s)")
    ax.set_title(f"{a} vs {b}: below the diagonal {b} is faster")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right")
