"""A comparison as one self-contained web page, after BenchExec's table-generator: the summary
per backend, the table of runs (sortable, filterable, wrong answers first), the cactus plot and
a scatter plot of any two backends, and the run's settings.

Everything is inline (styles, the script, the data as JSON), with no library and no network:
the page opens from disk anywhere and can be mailed. Several results files side by side are
several *sets*: each backend of each set is a *series*, and the table gives each set a group of
columns, its rows matched by instance and backend. The script (data/report.js) and the styles
(data/report.css) are plain files beside this module, read when a page is written.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shlex
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from typing import Any

from .columns import COLOURS, POINT, WRONG_POINT, for_page
from .results import DECIDED, Row, is_wrong, summarize

#: Answers longer than this (a first solution of a large board) are cut in the page's table
#: (a run's details show the whole answer).
ANSWER_CHARS = 80


@dataclass
class RunSet:
    """One results file (or the run in progress): its name, its rows and its settings."""

    name: str
    rows: list[Row]
    settings: dict[str, Any] = field(default_factory=dict)


def machine() -> dict[str, Any]:
    """The machine and software a run was made on, as a report names them."""
    cpu = platform.processor() or platform.machine()
    memory = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 2**20:.1f} GiB"
                break
    except OSError:
        pass
    versions = {}
    for name in ["nqueens_cp", *_dependencies()]:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # an optional one not installed
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "packages": versions,
    }


def _dependencies() -> list[str]:
    """The packages nqueens_cp depends on, optional ones included, as its metadata lists them
    (the solvers among them are what a comparison's figures depend on)."""
    try:
        wanted = metadata.requires("nqueens_cp") or []
    except metadata.PackageNotFoundError:
        return []
    names = [re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0] for req in wanted]
    tools = {"pytest", "pytest-timeout", "hypothesis", "ruff", "selenium"}  # for tests, not runs
    return sorted({n for n in names if n and n not in tools})


def settings(
    task: str,
    time_limit: float | None,
    memory_limit: int | None,
    jobs: int,
    backends: list[str],
    started: float,
    ended: float | None = None,
    how: str = "",
) -> dict[str, Any]:
    """A run's settings as the report shows them (and as `compare -o F` keeps them beside F);
    `how` says how a run that ended early ended ("interrupted")."""

    def stamp(t: float | None) -> str | None:
        return None if t is None else time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(t))

    from ..backends import backend_class

    solvers = {name: backend_class(name).version() for name in backends}
    return {
        "command": shlex.join(["nqueens", *sys.argv[1:]]),  # quoted: the line runs again as shown
        "task": task,
        "time limit (s)": time_limit,
        "memory limit (MB)": memory_limit,
        "jobs": jobs,
        "backends": backends,
        "solver versions": {name: v for name, v in solvers.items() if v},
        "started": stamp(started),
        "ended": "still running" if ended is None else f"{stamp(ended)}{f' ({how})' if how else ''}",
        **machine(),
    }


def _row(row: Row) -> dict[str, Any]:
    """Every column of the row (the page's details show them all, as the results file holds
    them), and how the summary judged it."""
    return {
        **row.as_dict(),
        "wrong": is_wrong(row),
        "solved": row.status in DECIDED and not is_wrong(row),  # what the summary counts as solved
    }


def page(sets: list[RunSet], title: str = "nqueens compare") -> str:
    """The report of `sets` as one HTML document."""
    data = []
    for s in sets:
        backends = list(dict.fromkeys(r.backend for r in s.rows))
        limit = s.settings.get("time limit (s)")
        if limit is None:
            limits = {r.time_limit for r in s.rows if r.time_limit is not None}
            limit = limits.pop() if len(limits) == 1 else None
        data.append(
            {
                "name": s.name,
                "limit": limit,
                "settings": s.settings,
                "summary": [x.as_dict() for x in summarize(s.rows, backends, limit)],
                "rows": [_row(r) for r in s.rows],
            }
        )
    here = files("nqueens_cp.bench").joinpath("data")
    script = here.joinpath("report.js").read_text()
    style = here.joinpath("report.css").read_text()
    shown = {"columns": for_page(), "colours": COLOURS, "points": [POINT, WRONG_POINT], "answer_chars": ANSWER_CHARS}
    payload = embedded_json({**shown, "sets": data})
    runs = sum(len(s.rows) for s in sets)
    heading = f"{title}: {runs} runs" + (f" in {len(sets)} sets" if len(sets) > 1 else "")
    return _TEMPLATE.format(title=_escape(heading), style=style, data=payload, script=script)


#: Characters a JSON text keeps as they are that an HTML parser reads inside <script>: `</`
#: ends it, `<!--` starts an escaped state that swallows the rest of the page, `&` and the line
#: separators are escaped for any other reader. As \\uXXXX escapes, they read back the same.
_IN_SCRIPT = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def embedded_json(data: object) -> str:
    """`data` as JSON that an HTML page carries in a <script> element whatever the strings in it
    (a model file named `<!--<script>.toml` blanked the page). No NaN or Infinity: JSON.parse
    refuses them, and with them the whole page."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False).translate(_IN_SCRIPT)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{style}
</style>
</head>
<body>
<h1>{title}</h1>
<section id="summary"><h2>Summary</h2><div id="summary-tables"></div></section>
<section id="plots">
<h2>Plots</h2>
<div class="plots">
<figure><figcaption>Cactus plot: the k-th fastest solved run of each backend (log time)</figcaption>
<svg id="cactus" width="560" height="360" role="img" aria-label="cactus plot"></svg></figure>
<figure><figcaption>Scatter plot (log-log): x <select id="scatter-x"></select> y <select id="scatter-y"></select>
</figcaption><svg id="scatter" width="400" height="400" role="img" aria-label="scatter plot"></svg></figure>
</div>
<div id="tooltip" role="tooltip" hidden></div>
</section>
<section id="runs">
<h2>Runs</h2>
<div class="controls">
<label>backend <select id="filter-backend"><option value="">all</option></select></label>
<label>status <select id="filter-status"><option value="">all</option></select></label>
<label>search <input id="filter-text" type="search" placeholder="instance, answer, check…"></label>
<span id="shown"></span>
</div>
<div class="table-wrap"><table id="runs-table"><thead></thead><tbody></tbody></table></div>
</section>
<section id="settings"><h2>Settings</h2><div id="settings-lists"></div></section>
<script type="application/json" id="report-data">{data}</script>
<script>
{script}
</script>
</body>
</html>
"""
