"""Side-by-side runs of several backends over a set of problems: the data behind
`nqueens compare`, its rich table and its optional plot (matplotlib, the `plot` extra)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .backends import BackendError, Status, backend_class, get_backend
from .problem import NQueensError, Problem


def compare_runs(
    problems: list[tuple[str, Problem]],
    backends: list[str],
    enumerate_all: bool = False,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """One record per (problem, backend): count, seconds, solutions per second, status, and
    whether every backend that finished on that problem gave the same count. Each record is
    handed to `on_row` as soon as its problem's backends have all run."""
    if time_limit is not None:
        for name in backends:
            if "time_limit" not in backend_class(name).capabilities.options:
                raise BackendError(f"backend {name!r} cannot honour a time limit: leave it out of --backends")
    rows: list[dict[str, Any]] = []
    total = len(problems) * len(backends)
    for name in backends:  # one-time costs (imports, JIT cache) are not part of any timing
        get_backend(name).count(Problem(4))
    for i, (label, p) in enumerate(problems):
        group = []
        for j, name in enumerate(backends):
            b = get_backend(name, **({"time_limit": time_limit} if time_limit else {}))
            row: dict[str, Any] = {"instance": label, "n": p.n, "piece": p.piece, "backend": name}
            start = time.perf_counter()
            try:
                b.plan(p, "solve" if enumerate_all else "count")
                outcome = b.count_by_enumeration(p) if enumerate_all else b.count(p)
                known = outcome.status is not Status.UNKNOWN
                row["count"] = outcome.count if known else None
                row["status"] = "ok" if known else outcome.reason.value  # type: ignore[union-attr]
                row["stats"] = outcome.stats
            except BackendError as exc:
                row["count"], row["status"] = None, str(exc)
            seconds = time.perf_counter() - start
            row["seconds"] = round(seconds, 6)
            row["per_second"] = round(row["count"] / seconds, 1) if row["count"] and seconds > 0 else None
            group.append(row)
            if progress:
                progress(i * len(backends) + j + 1, total)
        counts = {r["count"] for r in group if r["status"] == "ok"}
        for r in group:
            r["agree"] = len(counts) <= 1
            if on_row:
                on_row(r)
        rows += group
    return rows


def table(rows: list[dict[str, Any]], backends: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title="nqueens compare")
    for col in ("instance", "backend", "count", "seconds", "solutions/s", "agree"):
        t.add_column(col, justify="left" if col in ("instance", "backend") else "right")
    for r in rows:
        count = str(r["count"]) if r["status"] == "ok" else r["status"]
        rate = f"{r['per_second']:,.0f}" if r["per_second"] else "-"
        agree = "yes" if r["agree"] else "[bold red]NO[/]"
        t.add_row(r["instance"], r["backend"], count, f"{r['seconds']:.4f}", rate, agree)
    Console().print(t)


def plot_runs(rows: list[dict[str, Any]], backends: list[str], path: Path) -> None:
    """Time against n per backend, log scale."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise NQueensError("--plot needs matplotlib: pip install 'nqueens_cp[plot]'") from None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name in backends:
        pts = sorted((r["n"], r["seconds"]) for r in rows if r["backend"] == name and r["status"] == "ok")
        if pts:
            ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=name)
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("seconds")
    ax.set_title("nqueens: time per backend")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise NQueensError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
