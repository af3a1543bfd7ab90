"""The records of a comparison run: one row per (instance, backend, task), streamed to CSV or
JSON Lines as each run is checked, read back for `--resume`, and summed up per backend the way
solver competitions report (solved, unknown, wrong, times, PAR-2)."""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field, make_dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO

from ..model.problem import NQueensError
from ..run.files import read_regular, replacing
from .columns import BY_NAME, COLUMNS, NAMES

SUFFIXES = (".csv", ".jsonl")
class RunStatus(StrEnum):
    """What a run of a comparison came to (a StrEnum: it prints, and compares, as its value)."""

    SOLVED = "solved"
    NO_SOLUTION = "no solution"
    UNKNOWN = "unknown"  # a limit, a crash or an error: `reason` says which
    UNSUPPORTED = "unsupported"  # the backend cannot model the instance: `reason` says why


DECIDED = (RunStatus.SOLVED, RunStatus.NO_SOLUTION)


class _Row:
    """One run of a comparison: what ran, what it answered, how it was judged, what it cost. Its
    fields are the declared COLUMNS, given by name (`Row(instance=..., backend=..., ...)`, None
    where not given: a column added anywhere shifts nothing); a results file holds it as a CSV
    row or a JSON line (`as_dict`, `of`)."""

    @property
    def verdict(self) -> Check | None:
        """The verdict, read from `check`, the text a file holds: "ok", "disagree: cpsat gave
        another count"."""
        return Check.of(self.check)  # type: ignore[attr-defined]

    @property
    def wrong(self) -> bool:
        return self.verdict in WRONG

    def as_dict(self) -> dict[str, Any]:
        return {col: getattr(self, col) for col in NAMES}

    def as_record(self) -> dict[str, Any]:
        """The run as a JSON line says it (`compare --json`, a .jsonl results file): its format,
        then the columns."""
        return {FORMAT_KEY: RUN_FORMAT} | self.as_dict()

    @staticmethod
    def of(values: dict[str, Any]) -> Row:
        return Row(**{col: values.get(col) for col in NAMES})


Row = make_dataclass("Row", [(c.name, Any, field(default=None)) for c in COLUMNS], bases=(_Row,), kw_only=True)


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
    """A CSV row back to the values a JSON row holds (a column the file has not: blank)."""
    if None in row or None in row.values():  # csv's marks of a row with cells extra, or missing
        raise ValueError(f"a row has not the {len(row)} cells of the header")
    return {c.name: c.from_text(row[c.name]) if c.name in row else None for c in COLUMNS}


#: The key a JSON line of runs names its format by (docs/json.md), beside the columns.
FORMAT_KEY = "format"
RUN_FORMAT = "nqueens_cp.run/1"


def _unknown_columns(names: Iterable[str]) -> str | None:
    """Why a file with these columns is not one this version resumes, or None. Columns added
    since it was written are fine (blank in its rows); one this version does not know, or
    a missing required one, is another file."""
    names = [c for c in names if c != FORMAT_KEY]
    unknown = [c for c in names if c not in BY_NAME]
    missing = [c.name for c in COLUMNS if c.required and c.name not in names]
    if unknown or missing or len(set(names)) != len(names):
        what = [*(f"{c} unknown" for c in unknown), *(f"no {c}" for c in missing)] or ["a column twice"]
        return ", ".join(what)
    return None


#: The largest results file read back (a row is about 200 bytes: five million runs).
MAX_RESULTS_BYTES = 1 << 30


def read_rows(path: Path) -> list[Row]:
    """The rows of a results file written by `ResultsFile` (for --resume). A last line cut off
    by an interruption is dropped; anything else unreadable is refused."""
    return _read(path)[0]


def _read(path: Path) -> tuple[list[Row], bool]:
    """(rows, whether the file has every column of this version)."""
    try:
        text = read_regular(path, MAX_RESULTS_BYTES).decode()
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
            bad = [r for r in rows if not isinstance(r, dict) or _unknown_columns(r)]
            complete = all(isinstance(r, dict) and set(NAMES) <= set(r) for r in rows)
        else:
            reader = csv.DictReader(io.StringIO("".join(lines)))
            names = tuple(reader.fieldnames or ())
            why = _unknown_columns(names) if lines else None
            if why:
                raise NQueensError(f"{path} was not written by nqueens compare (its columns differ: {why})")
            rows = [_typed(r) for r in reader]
            bad, complete = [], not lines or names == NAMES
    except (ValueError, csv.Error, RecursionError) as exc:
        raise NQueensError(f"{path} is not a results file nqueens compare can resume: {exc}") from None
    if bad:
        why = _unknown_columns(bad[0]) if isinstance(bad[0], dict) else "not an object"
        raise NQueensError(f"{path} is not a results file nqueens compare can resume (a row's columns: {why})")
    for number, row in enumerate(rows, 2 if path.suffix.lower() == ".csv" else 1):
        why = _malformed(row)
        if why:
            raise NQueensError(f"{path}: row {number} is not one nqueens compare writes: {why}")
    return [Row.of(row | {"status": RunStatus(row["status"])}) for row in rows], complete


def _malformed(row: Any) -> str | None:
    """Why `row` is not a row of a results file, or None."""
    for col in COLUMNS:
        why = col.malformed(row.get(col.name))
        if why:
            return why
    if row.get("check") and Check.of(row["check"]) is None:
        return f"check is {row['check']!r}"
    if row.get("status") not in set(RunStatus):
        return f"status is {row.get('status')!r}"
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
        self.previous, complete = _read(path) if path.exists() else ([], True)
        if not complete:  # written before a column was added: rewritten whole, the new ones blank
            self._rewrite()
        try:
            self._file: TextIO = open(path, "a+" if path.exists() else "w", newline="")  # noqa: SIM115
        except OSError as exc:
            raise NQueensError(f"cannot write {path}: {exc.strerror}") from None
        self._file.seek(0, io.SEEK_END)
        if self._file.tell():
            self._trim_partial_line()
        self._writer = csv.DictWriter(self._file, NAMES, extrasaction="ignore") if self.csv else None
        if self._writer is not None and not self._file.tell():
            self._writer.writeheader()

    def _rewrite(self) -> None:
        try:
            with replacing(self.path) as (f, _):
                text = io.StringIO(newline="")
                if self.csv:
                    writer = csv.DictWriter(text, NAMES)
                    writer.writeheader()
                    writer.writerows(_cells(row) for row in self.previous)
                else:
                    text.writelines(json.dumps(row.as_record()) + "\n" for row in self.previous)
                f.write(text.getvalue().encode())
        except OSError as exc:
            raise NQueensError(f"cannot write {self.path}: {exc.strerror}") from None

    def _trim_partial_line(self) -> None:
        self._file.seek(0)
        text = self._file.read()
        if not text.endswith("\n"):
            self._file.truncate(text.rfind("\n") + 1)
        self._file.seek(0, io.SEEK_END)

    def write(self, row: Row) -> None:
        if self._writer is not None:
            self._writer.writerow(_cells(row))
        else:
            self._file.write(json.dumps(row.as_record()) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _cells(row: Row) -> dict[str, Any]:
    """A row as the cells of a CSV line."""
    values = row.as_dict()
    return {c.name: c.to_text(values[c.name]) for c in COLUMNS}


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


class Summaries(list[Summary]):
    """A comparison's summary, a line per backend; a table in a notebook."""

    def as_record(self) -> dict[str, Any]:
        """The summary as `compare --json` ends with it."""
        return {FORMAT_KEY: "nqueens_cp.summary/1", "summary": [s.as_dict() for s in self]}

    def _repr_html_(self) -> str:
        from ..model.drawing import html_table

        header = ("backend", "runs", "solved", "unknown", "wrong", "unsupported", "seconds", "median", "PAR-2")
        rows = [
            (s.backend, s.runs, s.solved, s.unknown, s.wrong, s.unsupported, f"{s.total_seconds:.2f}",
             "" if s.median_seconds is None else f"{s.median_seconds:.3f}", "" if s.par2 is None else f"{s.par2:.1f}")
            for s in self
        ]
        return html_table("comparison", header, rows)


def summarize(rows: Iterable[Row], backends: list[str], time_limit: float | None) -> Summaries:
    out = Summaries()
    rows = list(rows)
    for name in backends:
        mine = [r for r in rows if r.backend == name]
        supported = [r for r in mine if r.status != RunStatus.UNSUPPORTED]
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
