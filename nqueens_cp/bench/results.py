"""The records of a comparison run: one row per (instance, backend, task), streamed to CSV or
JSON Lines as each run is checked, read back for `--resume`, and summed up per backend the way
solver competitions report (solved, unknown, wrong, times, PAR-2)."""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO

from ..model.problem import NQueensError

#: The columns, in order. `answer` is the solution as a JSON list of columns (first), or the
#: count (count, solve); `digest` names the set of solutions a `solve` run produced; `check` is
#: "ok", "unchecked" (nothing to compare it with), "invalid: why" or "disagree: with whom".
COLUMNS = (
    "instance",
    "n",
    "piece",
    "torus",
    "backend",
    "task",
    "status",
    "reason",
    "check",
    "answer",
    "digest",
    "seconds",
    "cpu_seconds",
    "peak_mb",
    "nodes",
    "conflicts",
    "time_limit",
)
SUFFIXES = (".csv", ".jsonl")
DECIDED = ("solved", "no solution")


@dataclass
class Row:
    """One run of a comparison: what ran, what it answered, how it was judged, what it cost. A
    results file holds it as a CSV row or a JSON line with the COLUMNS (`as_dict`, `of`)."""

    instance: str
    n: int | None
    piece: str | None
    torus: bool | None
    backend: str
    task: str
    status: str | None = None
    reason: str | None = None
    #: The verdict as text, its kind first (`Check`): "ok", "disagree: cpsat gave another count".
    check: str | None = None
    answer: Any = None
    digest: str | None = None
    seconds: float | None = None
    cpu_seconds: float | None = None
    peak_mb: float | None = None
    nodes: int | None = None
    conflicts: int | None = None
    time_limit: float | None = None

    @property
    def verdict(self) -> Check | None:
        return Check.of(self.check)

    @property
    def wrong(self) -> bool:
        return self.verdict in WRONG

    def as_dict(self) -> dict[str, Any]:
        return {col: getattr(self, col) for col in COLUMNS}

    @staticmethod
    def of(values: dict[str, Any]) -> Row:
        return Row(**{col: values.get(col) for col in COLUMNS})


def key(row: Row) -> tuple[str, str, str]:
    return (str(row.instance), str(row.backend), str(row.task))


class Check(StrEnum):
    """The verdict on a row's answer. The file holds it as text, the kind first and what it
    concerns after a colon ("disagree: cpsat gave another count"): `Check.of` reads it back."""

    OK = "ok"
    UNCHECKED = "unchecked"
    INVALID = "invalid"
    DISAGREE = "disagree"

    @staticmethod
    def of(text: str | None) -> Check | None:
        try:
            return Check(str(text).partition(":")[0]) if text else None
        except ValueError:  # no verdict this module writes
            return None

    def said(self, detail: str = "") -> str:
        """The text a row holds: the kind, and what it concerns."""
        return f"{self.value}: {detail}" if detail else self.value


#: The verdicts that make an answer wrong (exit 1, "wrong" in the summary).
WRONG = (Check.INVALID, Check.DISAGREE)


def is_wrong(row: Row) -> bool:
    return row.wrong


def is_ranked(row: Row) -> bool:
    """A run that counts as solved in summaries and plots: decided, not wrong, and timed (a
    decided run with no time, from an edited file, cannot be ranked: it counts as unknown)."""
    return row.status in DECIDED and not is_wrong(row) and row.seconds is not None


def _typed(row: dict[str, str]) -> dict[str, Any]:
    """A CSV row back to the values a JSON row holds."""
    out: dict[str, Any] = {}
    for col in COLUMNS:
        text = row.get(col)
        if text is None or None in row:  # csv's marks of a row with cells missing, or extra
            raise ValueError(f"a row has not the {len(COLUMNS)} cells of the header")
        if text == "":
            out[col] = None
        elif col in ("n", "nodes", "conflicts"):
            out[col] = int(text)
        elif col in ("seconds", "cpu_seconds", "peak_mb", "time_limit"):
            out[col] = float(text)
        elif col == "torus":
            out[col] = text == "True"
        elif col == "answer":
            out[col] = json.loads(text)
        else:
            out[col] = text
    return out


def read_rows(path: Path) -> list[Row]:
    """The rows of a results file written by `ResultsFile` (for --resume). A last line cut off
    by an interruption is dropped; anything else unreadable is refused."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise NQueensError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise NQueensError(f"{path} is not a results file nqueens compare writes (it is not text)") from None
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines.pop()  # the run was stopped while writing it: that run is redone
    try:
        if path.suffix.lower() == ".jsonl":
            rows = [json.loads(line) for line in lines if line.strip()]
            bad = [r for r in rows if not isinstance(r, dict) or set(COLUMNS) - set(r)]
        else:
            reader = csv.DictReader(io.StringIO("".join(lines)))
            if lines and tuple(reader.fieldnames or ()) != COLUMNS:
                raise NQueensError(f"{path} was not written by nqueens compare (its columns differ)")
            rows = [_typed(r) for r in reader]
            bad = []
    except (ValueError, csv.Error) as exc:
        raise NQueensError(f"{path} is not a results file nqueens compare can resume: {exc}") from None
    if bad:
        raise NQueensError(f"{path} is not a results file nqueens compare can resume (a row lacks columns)")
    for number, row in enumerate(rows, 2 if path.suffix.lower() == ".csv" else 1):
        why = _malformed(row)
        if why:
            raise NQueensError(f"{path}: row {number} is not one nqueens compare writes: {why}")
    return [Row.of(row) for row in rows]


def _number(v: Any) -> bool:
    """A measurement: a finite number, not negative (NaN and Infinity blanked the report)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and v >= 0


#: What each column of a row may hold (None aside, where allowed).
_KINDS: dict[str, tuple[Any, bool]] = {
    "instance": (str, False),
    "backend": (str, False),
    "task": (str, False),
    "status": (str, False),
    "n": (int, True),
    "piece": (str, True),
    "torus": (bool, True),
    "reason": (str, True),
    "check": (str, True),
    "digest": (str, True),
    "nodes": (int, True),
    "conflicts": (int, True),
}


def _malformed(row: Any) -> str | None:
    """Why `row` is not a row of a results file, or None."""
    for col, (kind, optional) in _KINDS.items():
        v = row.get(col)
        if v is None and optional:
            continue
        if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
            return f"{col} is {v!r}"
    for col in ("seconds", "cpu_seconds", "peak_mb", "time_limit"):
        v = row.get(col)
        if v is not None and not _number(v):
            return f"{col} is {v!r}"
    if row.get("check") and Check.of(row["check"]) is None:
        return f"check is {row['check']!r}"
    answer = row.get("answer")
    if answer is not None and not (isinstance(answer, int) and not isinstance(answer, bool)) and not (
        isinstance(answer, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in answer)
    ):
        return f"answer is {answer!r}"
    return None


class ResultsFile:
    """Rows appended one at a time and flushed at once, so that an interrupted comparison keeps
    every run that finished. Without `resume` an existing file is refused rather than lost."""

    def __init__(self, path: Path, resume: bool) -> None:
        if path.suffix.lower() not in SUFFIXES:
            raise NQueensError(f"--output writes .csv or .jsonl, not {path.suffix or 'no extension'!r}")
        if path.exists() and not path.is_file():
            raise NQueensError(f"--output {path} is not a regular file")
        if path.exists() and not resume:
            raise NQueensError(f"{path} exists: add --resume to continue it, or remove it to start over")
        self.path, self.csv = path, path.suffix.lower() == ".csv"
        self.previous = read_rows(path) if path.exists() else []
        try:
            self._file: TextIO = open(path, "a+" if path.exists() else "w", newline="")  # noqa: SIM115
        except OSError as exc:
            raise NQueensError(f"cannot write {path}: {exc.strerror}") from None
        self._file.seek(0, io.SEEK_END)
        if self._file.tell():
            self._trim_partial_line()
        self._writer = csv.DictWriter(self._file, COLUMNS, extrasaction="ignore") if self.csv else None
        if self._writer is not None and not self._file.tell():
            self._writer.writeheader()

    def _trim_partial_line(self) -> None:
        self._file.seek(0)
        text = self._file.read()
        if not text.endswith("\n"):
            self._file.truncate(text.rfind("\n") + 1)
        self._file.seek(0, io.SEEK_END)

    def write(self, row: Row) -> None:
        values = row.as_dict()
        if self._writer is not None:
            self._writer.writerow({k: _cell(v) for k, v in values.items()})
        else:
            self._file.write(json.dumps(values) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _cell(value: Any) -> Any:
    return json.dumps(value) if isinstance(value, list) else value


@dataclass
class Summary:
    """One backend's line of the report. PAR-2 is the SAT competitions' score: the time of each
    solved run, twice the limit for every other run (unknown or wrong), summed over the runs."""

    backend: str
    runs: int
    solved: int
    unknown: int
    wrong: int
    unsupported: int
    total_seconds: float
    median_seconds: float | None
    par2: float | None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def summarize(rows: Iterable[Row], backends: list[str], time_limit: float | None) -> list[Summary]:
    out = []
    rows = list(rows)
    for name in backends:
        mine = [r for r in rows if r.backend == name]
        supported = [r for r in mine if r.status != "unsupported"]
        good = [r for r in supported if is_ranked(r)]
        wrong = [r for r in supported if is_wrong(r)]
        times = [float(r.seconds) for r in good]
        unsolved = len(supported) - len(good)
        par2 = sum(times) + 2 * time_limit * unsolved if time_limit is not None else None
        out.append(
            Summary(
                name,
                len(supported),
                len(good),
                unsolved - len(wrong),
                len(wrong),
                len(mine) - len(supported),
                sum(times),
                statistics.median(times) if times else None,
                par2,
            )
        )
    return out
