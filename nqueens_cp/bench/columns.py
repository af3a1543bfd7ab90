"""The columns of a comparison's results, declared once. The results file (CSV header, JSON
keys), reading it back (types, what a cell may hold), the terminal table, the HTML page and its
script all read this list, so a new column is one line here: a backend's statistic, such as
CP-SAT's `branches`, is `Column("branches", Kind.INTEGER, "branches", Origin.STATS)`.

The series colours live here too: the plot files (matplotlib) and the page draw each backend in
the same colour."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    """What a cell holds, and so how it is read back, checked and shown."""

    TEXT = "text"
    INTEGER = "integer"
    FLAG = "flag"
    SECONDS = "seconds"  # a measurement: a finite number, not negative
    MEGABYTES = "megabytes"  # likewise
    ANSWER = "answer"  # a count, or a placement as a list of columns


class Origin(StrEnum):
    """Where a column's value comes from."""

    INSTANCE = "instance"  # the problem run
    RUN = "run"  # the comparison's settings
    ANSWER = "answer"  # what the backend answered
    CHECK = "check"  # the verdict of the cross-check
    MEASURED = "measured"  # the sandbox's clocks and memory
    STATS = "stats"  # the backend's own statistic of the same name, where it keeps one


@dataclass(frozen=True)
class Column:
    name: str  # the key in a results file and the Row's field
    kind: Kind
    label: str  # the heading people read
    origin: Origin
    required: bool = False  # never blank in a row of a results file
    terminal: bool = False  # shown in the terminal's table of runs
    page: bool = False  # a column of the page's runs table (every column is in a run's details)

    @property
    def measure(self) -> bool:
        return self.kind in (Kind.SECONDS, Kind.MEGABYTES)

    def malformed(self, value: Any) -> str | None:
        """Why `value` cannot be this column's cell (NaN or Infinity blanked the page), or None."""
        if value is None:
            return f"{self.name} is blank" if self.required else None
        if self.kind == Kind.TEXT:
            ok = isinstance(value, str)
        elif self.kind == Kind.FLAG:
            ok = isinstance(value, bool)
        elif self.kind == Kind.INTEGER:
            ok = _integer(value)
        elif self.measure:
            ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
        else:
            ok = _integer(value) or (isinstance(value, list) and all(_integer(c) for c in value))
        return None if ok else f"{self.name} is {value!r}"

    def from_text(self, text: str) -> Any:
        """A CSV cell back to the value a JSON line holds (ValueError when it cannot be)."""
        if text == "":
            return None
        if self.kind == Kind.INTEGER:
            return int(text)
        if self.measure:
            return float(text)
        if self.kind == Kind.FLAG:
            return text == "True"
        if self.kind == Kind.ANSWER:
            return json.loads(text)
        return text

    def to_text(self, value: Any) -> Any:
        """The CSV cell of `value` (a placement as its JSON list)."""
        return json.dumps(value) if isinstance(value, list) else value


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The columns, in the order of a results file. `answer` is the solution as a list of columns
#: (first) or the count (count, solve); `digest` names the set of solutions a `solve` run
#: produced; `check` is "ok", "unchecked" (nothing to compare it with), "invalid: why" or
#: "disagree: with whom".
COLUMNS = (
    Column("instance", Kind.TEXT, "instance", Origin.INSTANCE, required=True, terminal=True, page=True),
    Column("n", Kind.INTEGER, "n", Origin.INSTANCE, page=True),
    Column("piece", Kind.TEXT, "piece", Origin.INSTANCE, page=True),
    Column("torus", Kind.FLAG, "torus", Origin.INSTANCE),
    Column("backend", Kind.TEXT, "backend", Origin.RUN, required=True, terminal=True, page=True),
    Column("task", Kind.TEXT, "task", Origin.RUN, required=True, page=True),
    Column("status", Kind.TEXT, "status", Origin.ANSWER, required=True, page=True),
    Column("reason", Kind.TEXT, "reason", Origin.ANSWER),
    Column("check", Kind.TEXT, "check", Origin.CHECK, terminal=True, page=True),
    Column("answer", Kind.ANSWER, "answer", Origin.ANSWER, terminal=True, page=True),
    Column("digest", Kind.TEXT, "digest", Origin.ANSWER),
    Column("seconds", Kind.SECONDS, "seconds", Origin.MEASURED, terminal=True, page=True),
    Column("cpu_seconds", Kind.SECONDS, "CPU s", Origin.MEASURED, page=True),
    Column("peak_mb", Kind.MEGABYTES, "peak MB", Origin.MEASURED, terminal=True, page=True),
    Column("nodes", Kind.INTEGER, "nodes", Origin.STATS, page=True),
    Column("conflicts", Kind.INTEGER, "conflicts", Origin.STATS),
    Column("time_limit", Kind.SECONDS, "time limit (s)", Origin.RUN),
)
NAMES = tuple(c.name for c in COLUMNS)
BY_NAME = {c.name: c for c in COLUMNS}
#: The columns the page's runs table shows per results file; the first few name the run and are
#: shown once per line when several files sit side by side.
RUN_NAMES = ("instance", "n", "piece", "backend", "task")

#: One colour per series, in order, for the plot files and the page alike (matplotlib's
#: tab10 order, so a plot made elsewhere with its defaults agrees too).
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
#: A scatter plot's points: a pair with a wrong answer stands out.
POINT, WRONG_POINT = "#1f77b4", "#d62728"


def for_page() -> list[dict[str, Any]]:
    """The declarations the page's script reads."""
    return [
        {"name": c.name, "kind": c.kind.value, "label": c.label, "page": c.page, "run": c.name in RUN_NAMES}
        for c in COLUMNS
    ]
