"""A comparison run and its records, as `nqueens compare` keeps them: the results file (new, or
resumed under the same time limit), the run's settings beside it, and the web page kept current
while it runs and marked when it ends, finished or interrupted. The CLI parses the command and
renders what this returns; what a run leaves on disk is decided here."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..model.problem import NQueensError
from ..run.files import replacing
from .compare import Instance, compare
from .results import ResultsFile, Row

#: A running comparison rewrites its --html page at most this often (seconds).
HTML_EVERY = 3.0

#: The run's settings as the page shows them, given when the run ended (None: still running)
#: and how ("interrupted").
About = Callable[..., dict[str, Any]]


def settings_path(results: Path) -> Path:
    """Where `compare -o FILE` keeps the run's settings (a report of FILE shows them)."""
    return results.with_name(results.name + ".settings.json")


def write_settings(results: Path, about: dict[str, Any]) -> None:
    with replacing(settings_path(results)) as (out, _):
        out.write(json.dumps(about, indent=1).encode())


def write_page(path: Path, sets: list) -> None:
    from .html import page

    with replacing(path) as (out, _):
        out.write(page(sets).encode())


class Campaign:
    """The records of one comparison: open it, `run` it (each checked row written as it comes,
    the page rewritten at most every HTML_EVERY seconds), and `close` it; an interruption marks
    the settings and the page as such, so neither says "still running" for ever."""

    def __init__(self, target: Path | None, resume: bool, time_limit: float | None, html: Path | None, about: About):
        self.target, self.html, self.about = target, html, about
        self.results = ResultsFile(target, resume) if target is not None else None
        self.previous: list[Row] = self.results.previous if self.results is not None else []
        self.rows: list[Row] = []
        limits = sorted({str(r.time_limit) for r in self.previous})
        if self.previous and limits != [str(time_limit)]:
            self.close()
            given = "none" if time_limit is None else f"{time_limit:g}"
            made = ", ".join("none" if x == "None" else f"{float(x):g}" for x in limits)
            raise NQueensError(f"{target} was run with --time-limit {made}, not {given}: resume it with the same limit")
        if target is not None:
            write_settings(target, about())
        self._paged = time.monotonic()

    def run(
        self,
        instances: list[Instance],
        backends: list[str],
        task: str,
        on_row: Callable[[Row], None],
        **limits: Any,
    ) -> list[Row]:
        """Run the comparison (`limits`: time, memory, jobs, options, as `compare` takes them),
        recording each checked row before it is handed to `on_row`."""

        def record(row: Row) -> None:
            if self.results is not None:
                self.results.write(row)
            self.rows.append(row)
            on_row(row)
            if self.html is not None and time.monotonic() - self._paged >= HTML_EVERY:
                self._page(self.about())

        try:
            return compare(instances, backends, task, previous=self.previous, on_row=record, **limits)
        except BaseException:  # Ctrl-C, SIGTERM: what finished is on file; the records say it ended
            self._ended(self.about(time.time(), "interrupted"), [*self.previous, *self.rows])
            raise

    def everything(self, task: str) -> list[Row]:
        """The rows of this task: those resumed, then this run's."""
        return [r for r in self.previous if r.task == task] + self.rows

    def finish(self, rows: list[Row]) -> None:
        """Mark the settings and the page as finished, with `rows` on the page."""
        self._ended(self.about(time.time()), rows)

    def close(self) -> None:
        if self.results is not None:
            self.results.close()

    def _ended(self, about: dict[str, Any], rows: list[Row]) -> None:
        if self.target is not None:
            write_settings(self.target, about)
        if self.html is not None:
            self._page(about, rows)

    def _page(self, about: dict[str, Any], rows: list[Row] | None = None) -> None:
        from .html import RunSet

        assert self.html is not None
        shown = [*self.previous, *self.rows] if rows is None else rows
        write_page(self.html, [RunSet(str(self.target or "this run"), shown, about)])
        self._paged = time.monotonic()
