"""A comparison's runs as BenchExec result files, the XML that BenchExec's `table-generator`
merges and tabulates: so our runs sit beside a user's other tools in the tables solver people
share.

BenchExec keeps one run set (one tool under one run definition) per file, so each backend of
the results goes to a file of its own. Each run is a `run` element named by its instance, with
the columns BenchExec reads: status (ours: solved, no solution, unknown; TIMEOUT and OUT OF
MEMORY where a limit ended it, as BenchExec says them), category (correct where the answer was
checked, correct-unconfirmed where nothing could check it, wrong, unknown, error), cputime and
walltime in seconds and memory in bytes, as BenchExec writes them ("1.5s", "1234B"); then our
own: the answer and the check.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from ..run.files import replacing
from .results import Check, Row, RunStatus

GENERATOR = "nqueens_cp"
COLUMNS = ("status", "category", "cputime", "walltime", "memory", "answer", "check")


def category(row: Row) -> str:
    """BenchExec's category of a run."""
    if row.status == RunStatus.UNSUPPORTED:
        return "error"
    if row.status == RunStatus.UNKNOWN:
        return "unknown"
    verdict = row.verdict
    if verdict in (Check.INVALID, Check.DISAGREE):
        return "wrong"
    return "correct" if verdict is Check.OK else "correct-unconfirmed"


def status(row: Row) -> str:
    """BenchExec's status of a run: ours, but a limit said as BenchExec says it."""
    if row.status == RunStatus.UNKNOWN:
        reason = str(row.reason or "").lower()
        if "time" in reason:
            return "TIMEOUT"
        if "memory" in reason:
            return "OUT OF MEMORY"
    if row.status == RunStatus.UNSUPPORTED:
        return "ERROR (unsupported)"
    return str(row.status)


def result_xml(backend: str, rows: Iterable[Row], about: dict[str, Any]) -> ET.ElementTree[ET.Element]:
    """One backend's runs as a BenchExec `result` document; `about` is the run's settings as
    `compare -o` keeps them (the limits, the versions, the machine), where there are some."""
    rows = list(rows)
    limits = {r.time_limit for r in rows if r.time_limit is not None}
    memory = about.get("memory limit (MB)")
    version = (about.get("solver versions") or {}).get(backend)
    started = about.get("started") or time.strftime("%Y-%m-%d %H:%M:%S %Z")
    attributes = {
        "benchmarkname": f"nqueens_cp compare ({rows[0].task if rows else 'count'})",
        "name": backend,
        "tool": backend,
        "version": version or "",
        "toolmodule": "",
        "generator": GENERATOR,
        "date": started,
        "starttime": started,
        "timelimit": f"{max(limits):g}s" if limits else "-",
        "memlimit": f"{int(memory) * 1_000_000}B" if memory else "-",
        "cpuCores": str(about.get("jobs") or 1),
        "options": str(about.get("command") or ""),
    }
    root = ET.Element("result", {k: v for k, v in attributes.items() if v})
    columns = ET.SubElement(root, "columns")
    for title in COLUMNS:
        ET.SubElement(columns, "column", title=title)
    system = ET.SubElement(root, "systeminfo", hostname=str(about.get("host") or "unknown"))  # (the run's, if said)
    ET.SubElement(system, "os", name=str(about.get("os") or "-"))
    ET.SubElement(system, "cpu", model=str(about.get("cpu") or "-"), cores=str(about.get("cores") or "-"))
    ET.SubElement(system, "ram", size=str(about.get("memory") or "-"))
    for row in rows:
        run = ET.SubElement(root, "run", name=str(row.instance))
        values = {
            "status": status(row),
            "category": category(row),
            "cputime": None if row.cpu_seconds is None else f"{float(row.cpu_seconds):.6f}s",
            "walltime": None if row.seconds is None else f"{float(row.seconds):.6f}s",
            "memory": None if row.peak_mb is None else f"{round(float(row.peak_mb) * 2**20)}B",
            "answer": None if row.answer is None else str(row.answer),
            "check": None if row.check is None else str(row.check),
        }
        for title in COLUMNS:
            if values[title] is not None:
                ET.SubElement(run, "column", title=title, value=values[title])
    ET.indent(root)
    return ET.ElementTree(root)


def targets(path: Path, backends: list[str]) -> dict[str, Path]:
    """Where each backend's file goes: `path` itself for one backend; FILE.BACKEND.xml beside it
    for several (a file holds one run set)."""
    if len(backends) == 1:
        return {backends[0]: path}
    return {b: path.with_name(f"{path.stem}.{b}{path.suffix or '.xml'}") for b in backends}


def write(path: Path, rows: Iterable[Row], about: dict[str, Any]) -> dict[str, Path]:
    """Write the results, a file per backend (`targets`); returns them."""
    rows = list(rows)
    backends = list(dict.fromkeys(str(r.backend) for r in rows))
    written = targets(path, backends)
    for backend, target in written.items():
        tree = result_xml(backend, (r for r in rows if r.backend == backend), about)
        with replacing(target) as (out, _):
            out.write(b'<?xml version="1.0" encoding="utf-8"?>\n')
            out.write(
                b"<!DOCTYPE result PUBLIC '+//IDN sosy-lab.org//DTD BenchExec result 3.0//EN' "
                b"'https://www.sosy-lab.org/benchexec/result-3.0.dtd'>\n"
            )
            tree.write(out, encoding="utf-8", xml_declaration=False)
    return written
