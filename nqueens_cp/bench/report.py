"""What a person sees of a comparison: a live view on a terminal while it runs (the latest
runs and the standings), then the table of runs and the per-backend summary. Names and
numbers from any file are data, never markup: every cell is a rich Text. Every number has its
thousands separated by commas, as the page's have (a report mixed 14,200 with 1234 MB)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

from rich.text import Text

from .columns import COLUMNS, Column, Kind
from .results import Row, RunStatus, Summary, is_wrong, summarize

#: The live view shows this many of the latest runs; the final table lists every run up to
#: RUNS_SHOWN of them (beyond that, the results file is where they are).
LIVE_ROWS = 12
RUNS_SHOWN = 60
#: A placement is cut in the terminal table, ending in an ellipsis, to what the terminal's width
#: (COLUMNS where set) leaves beside the other columns, and never below ANSWER_SHOWN characters
#: (the whole answer is in the results file and on the page).
ANSWER_SHOWN = 40
BESIDE_ANSWER = 70


def _answer(row: Row, chars: int = ANSWER_SHOWN) -> str:
    if row.status == RunStatus.UNKNOWN:
        return f"unknown ({row.reason})"
    if row.status == RunStatus.UNSUPPORTED:
        return "unsupported"
    if row.task == "first":
        if row.answer is None:
            return "no solution"
        text = json.dumps(row.answer)
        return text if len(text) <= chars else text[: chars - 1] + "…"  # cut, and says so
    return f"{row.answer:,}"


def _cell(col: Column, row: Row, answer_chars: int) -> Text | str:
    v = getattr(row, col.name)
    if col.name == "check":
        return Text(v or "", style="bold red" if is_wrong(row) else "")
    if col.kind == Kind.ANSWER:
        return Text(_answer(row, answer_chars))
    if v is None:
        return "-"
    if col.kind == Kind.SECONDS:
        return f"{v:,.4f}"
    if col.kind == Kind.MEGABYTES:
        return f"{v:,.0f}"
    if col.kind == Kind.INTEGER:
        return f"{v:,}"
    return Text(str(v))  # data, never markup


def _natural(text: object) -> tuple[tuple[int, int | str], ...]:
    """A key that orders numbers within text by value ("queen-9" before "queen-10")."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", str(text)) if part)


def page_order(rows: list[Row]) -> list[Row]:
    """The rows in the order the page shows them before a column is clicked: wrong answers first,
    then by instance and backend, numbers by value (the page's `natural`); the runs finish in
    any order."""
    return sorted(rows, key=lambda r: (not r.wrong, _natural(r.instance), _natural(r.backend)))


def runs_table(rows: list[Row], title: str = "runs", width: int | None = None) -> Any:
    """The declared terminal columns of `rows`, answers cut to what `width` leaves them (the
    console's width, which follows COLUMNS, when not given)."""
    from rich.console import Console
    from rich.table import Table

    width = width or Console().width
    answer_chars = max(ANSWER_SHOWN, width - BESIDE_ANSWER)
    shown = [c for c in COLUMNS if c.terminal]
    t = Table(title=title)
    for col in shown:
        t.add_column(col.label, justify="right" if col.measure else "left", overflow="fold")
    for r in rows:
        t.add_row(*(_cell(col, r, answer_chars) for col in shown))
    return t


def summary_table(summaries: list[Summary], time_limit: float | None) -> Any:
    from rich.table import Table

    t = Table(title="summary" + (f" (limit {time_limit:,g} s)" if time_limit else " (no time limit)"))
    for col in ("backend", "runs", "solved", "unknown", "wrong", "total s", "median s", "PAR-2"):
        t.add_column(col, justify="left" if col == "backend" else "right")
    for s in summaries:
        median = f"{s.median_seconds:,.4f}" if s.median_seconds is not None else "-"
        par2 = f"{s.par2:,.2f}" if s.par2 is not None else "-"
        wrong = Text(f"{s.wrong:,}", style="bold red" if s.wrong else "")
        runs = f"{s.runs:,}" + (f" (+{s.unsupported:,} n/a)" if s.unsupported else "")
        total = f"{s.total_seconds:,.3f}"
        t.add_row(Text(s.backend), runs, f"{s.solved:,}", f"{s.unknown:,}", wrong, total, median, par2)
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
