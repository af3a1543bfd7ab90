"""What a person sees of a comparison: a live view on a terminal while it runs (the latest
runs and the standings), then the table of runs and the per-backend summary. Names and
numbers from any file are data, never markup: every cell is a rich Text."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from rich.text import Text

from .results import Row, Summary, is_wrong, summarize

#: The live view shows this many of the latest runs; the final table lists every run up to
#: RUNS_SHOWN of them (beyond that, the results file is where they are).
LIVE_ROWS = 12
RUNS_SHOWN = 60
#: A placement longer than this is cut in the terminal table, ending in an ellipsis (the whole
#: answer is in the results file and on the page).
ANSWER_SHOWN = 40


def _answer(row: Row) -> str:
    if row.status == "unknown":
        return f"unknown ({row.reason})"
    if row.status == "unsupported":
        return "unsupported"
    if row.task == "first":
        if row.answer is None:
            return "no solution"
        text = json.dumps(row.answer)
        return text if len(text) <= ANSWER_SHOWN else text[: ANSWER_SHOWN - 1] + "…"  # cut, and says so
    return f"{row.answer:,}"


def _check(row: Row) -> Text:
    return Text(row.check or "", style="bold red" if is_wrong(row) else "")


def runs_table(rows: list[Row], title: str = "runs") -> Any:
    from rich.table import Table

    t = Table(title=title)
    for col in ("instance", "backend", "answer", "seconds", "peak MB", "check"):
        t.add_column(col, justify="right" if col in ("seconds", "peak MB") else "left", overflow="fold")
    for r in rows:
        seconds = f"{r.seconds:.4f}" if r.seconds is not None else "-"
        peak = f"{r.peak_mb:.0f}" if r.peak_mb else "-"
        t.add_row(Text(str(r.instance)), Text(r.backend), Text(_answer(r)), seconds, peak, _check(r))
    return t


def summary_table(summaries: list[Summary], time_limit: float | None) -> Any:
    from rich.table import Table

    t = Table(title="summary" + (f" (limit {time_limit:g} s)" if time_limit else " (no time limit)"))
    for col in ("backend", "runs", "solved", "unknown", "wrong", "total s", "median s", "PAR-2"):
        t.add_column(col, justify="left" if col == "backend" else "right")
    for s in summaries:
        median = f"{s.median_seconds:.4f}" if s.median_seconds is not None else "-"
        par2 = f"{s.par2:.2f}" if s.par2 is not None else "-"
        wrong = Text(str(s.wrong), style="bold red" if s.wrong else "")
        runs = f"{s.runs}" + (f" (+{s.unsupported} n/a)" if s.unsupported else "")
        t.add_row(Text(s.backend), runs, str(s.solved), str(s.unknown), wrong, f"{s.total_seconds:.3f}", median, par2)
    return t


class Live:
    """Rows as they come: on a terminal a live view on stderr, otherwise nothing."""

    def __init__(self, backends: list[str], time_limit: float | None, total: int, enabled: bool) -> None:
        self.backends, self.time_limit, self.total, self.enabled = backends, time_limit, total, enabled
        self.rows: list[Row] = []
        self._live: Any = None

    def _view(self) -> Any:
        from rich.console import Group

        latest = runs_table(self.rows[-LIVE_ROWS:], f"latest runs ({len(self.rows)} of {self.total})")
        return Group(latest, summary_table(summarize(self.rows, self.backends, self.time_limit), self.time_limit))

    @contextlib.contextmanager
    def running(self) -> Iterator[Live]:
        if not self.enabled:
            yield self
            return
        from rich.console import Console
        from rich.live import Live as RichLive

        with RichLive(self._view(), console=Console(stderr=True), transient=True, refresh_per_second=4) as live:
            self._live = live
            try:
                yield self
            finally:
                self._live = None

    def add(self, row: Row) -> None:
        self.rows.append(row)
        if self._live is not None:
            self._live.update(self._view())
