"""`nqueens compare`: backends side by side over a set of instances, at benchmark scale.

Each (instance, backend) run goes to a long-lived sandbox worker (see `sandbox`) under the same
hard wall-clock and memory limits for every backend. When all the runs of an instance have
ended, their answers are checked against each other: a solution by the problem's validator (in
the worker), a "no solution" against any solution another backend found, a count (or the set
of solutions of `solve`, by count and digest) against the other backends' counts. Each checked
row is then handed on at once (to the results file and the live display). Runs already in a
resumed results file are not run again, but their answers take part in the checks.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..backends import UnsupportedProblem, backend_class
from ..model.problem import NQueensError, Problem
from .columns import COLUMNS, Origin
from .results import DECIDED, Check, Row, RunStatus, is_wrong
from .runs import Job, backend_for
from .sandbox import Ended, Result, Sandbox

#: The columns a backend's own statistics fill, where it keeps them.
STATS = [c for c in COLUMNS if c.origin == Origin.STATS]
#: Instance files a directory is searched for.
MODEL_SUFFIXES = (".toml", ".param", ".lp", ".txt")


@dataclass(frozen=True)
class Instance:
    label: str
    problem: Problem


def model_paths(specs: Iterable[str]) -> list[Path]:
    """Files named by paths, directories (their instance files, sorted) and glob patterns
    (quoted, so the shell leaves them to us; `**` reaches into subfolders)."""
    out: list[Path] = []
    for spec in specs:
        path = Path(spec)
        if glob.has_magic(spec):
            found = sorted(Path(p) for p in glob.glob(spec, recursive=True) if Path(p).is_file())
            if not found:
                raise NQueensError(f"--model {spec!r} matches no file")
            out += found
        elif path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix.lower() in MODEL_SUFFIXES and p.is_file())
            if not found:
                raise NQueensError(f"--model {spec}: the folder holds no instance file ({', '.join(MODEL_SUFFIXES)})")
            out += found
        elif path.exists():
            out.append(path)
        else:
            raise NQueensError(f"--model {spec}: no such file or folder")
    return list(dict.fromkeys(out))


def board_label(p: Problem) -> str:
    return f"{p.piece}{'-torus' if p.torus else ''}-{p.n if p.square else p.shape}"


def _row(inst: Instance, backend: str, task: str, time_limit: float | None) -> Row:
    p = inst.problem
    return Row(
        instance=inst.label, n=p.n, piece=p.piece, torus=p.torus, backend=backend, task=task, time_limit=time_limit
    )


def _fill(row: Row, result: Result) -> Row:
    """The row of one finished (or killed) run."""
    row.seconds = round(result.seconds, 6)
    # a run killed before its worker reported leaves them unmeasured: blank, not 0.0
    measured = result.status == Ended.DONE or result.cpu_seconds > 0
    row.cpu_seconds = round(result.cpu_seconds, 6) if measured else None
    row.peak_mb = round(result.peak_bytes / 2**20, 1) if result.peak_bytes else None
    if result.status != Ended.DONE:
        row.status = RunStatus.UNKNOWN
        row.reason = result.status if result.value is None else f"{result.status}: {result.value}"
        return row
    v = result.value
    for col in STATS:
        setattr(row, col.name, v["stats"].get(col.name))
    if row.time_limit is not None and result.seconds > row.time_limit:
        row.status, row.reason = RunStatus.UNKNOWN, Ended.TIME_LIMIT.value  # an answer after the limit does not count
        return row
    row.status, row.reason, row.answer, row.digest = RunStatus(v["status"]), v["reason"], v["answer"], v["digest"]
    row.seconds = round(max(0.0, result.seconds - v["check_seconds"]), 6)
    if v["invalid"]:
        row.check = Check.INVALID.said(v["invalid"])
    if row.status == RunStatus.UNKNOWN:
        row.answer = None
    return row


def recheck(row: Row, problem: Problem, time_limit: float | None) -> None:
    """A row read back from a resumed file, judged again as a new one would be: its answer goes
    through the validator and its time through the limit in force; its old verdict is dropped
    (the cross-check of its instance sets it anew)."""
    row.check = None
    if row.status not in DECIDED:
        return
    seconds = row.seconds
    if time_limit is not None and (not isinstance(seconds, int | float) or seconds > time_limit):
        row.status, row.reason, row.answer = RunStatus.UNKNOWN, Ended.TIME_LIMIT.value, None
        return
    if row.task == "first" and row.status == RunStatus.SOLVED:
        answer = row.answer
        why = problem.explain(tuple(answer)) if isinstance(answer, list) else "the answer is not a list of columns"
        if why:
            row.check = Check.INVALID.said(why)


def check_group(rows: list[Row], new: list[Row]) -> None:
    """Set `check` on the new decided rows of one instance, against all its decided rows."""
    decided = [r for r in rows if r.status in DECIDED and r.verdict is not Check.INVALID]
    for r in new:
        if r.status not in DECIDED or r.check:
            continue
        others = [o for o in decided if o is not r and o.backend != r.backend]
        if r.task == "first":
            if r.status == RunStatus.SOLVED:
                r.check = Check.OK.said()  # the validator passed it: a solution needs no second opinion
                continue
            found = [o.backend for o in others if o.status == RunStatus.SOLVED]
            if found:
                r.check = Check.DISAGREE.said(f"{', '.join(found)} found a valid solution")
                continue
        else:
            differ = [o for o in others if (o.answer, o.digest) != (r.answer, r.digest)]
            if differ:
                r.check = _blame(r, others, differ)
                continue
        r.check = (Check.OK if others else Check.UNCHECKED).said()


def _blame(r: Row, others: list[Row], differ: list[Row]) -> str:
    """The verdict on `r` where other backends answered otherwise: wrong where the checks show
    it wrong, not every backend of the instance for one deviant answer.

    A solution set (`solve`) is every solution the backend gave, each passed by the validator and
    none repeated: a backend that gave fewer than another misses some, and two that gave as many
    but other ones both do; the largest set is not shown wrong. A count has no certificate: it
    is outvoted where more backends agree on another count than on its own, wrong too where no
    count has a majority, and not shown wrong where its own count has the most backends."""
    names = ", ".join(o.backend for o in differ)
    if r.task == "solve":
        most = max(differ, key=lambda o: o.answer or 0)
        if (most.answer or 0) > (r.answer or 0):
            return Check.DISAGREE.said(f"{most.backend} gave {most.answer:,} valid solutions, more than these")
        same = [o.backend for o in differ if o.answer == r.answer]
        if same:
            return Check.DISAGREE.said(f"{', '.join(same)} gave as many valid solutions, other ones: each misses some")
        return Check.OK.said(f"{names} gave fewer valid solutions")
    votes: dict[object, set[str]] = {}
    for o in [r, *others]:
        votes.setdefault(o.answer, set()).add(o.backend)
    mine = len(votes[r.answer])
    if all(mine > len(v) for answer, v in votes.items() if answer != r.answer):
        return Check.OK.said(f"{names} gave another count, outvoted {mine} to {len(others) + 1 - mine}")
    return Check.DISAGREE.said(f"{names} gave another count")


def compare(
    instances: list[Instance],
    backends: list[str],
    task: str,
    *,
    time_limit: float | None = None,
    memory_limit_mb: int | None = None,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    previous: list[Row] | None = None,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Run every backend on every instance; return (and hand to `on_row`) each new checked row.
    Runs that `previous` (a resumed file) holds are not run again; their rows of these instances
    are judged again, in place, as new ones are (`recheck`, then the cross-check of their
    instance with every row), so an old answer never passes unchecked."""
    options = options or {}
    for name in backends:
        backend_class(name)
    if time_limit is not None and not 0 < time_limit < float("inf"):
        raise NQueensError(f"time limit must be a positive number of seconds, got {time_limit}")
    if memory_limit_mb is not None and memory_limit_mb <= 0:
        raise NQueensError(f"memory limit must be a positive number of MB, got {memory_limit_mb}")
    done = {(r.instance, r.backend, r.task): r for r in previous or []}
    problems = {inst.label: inst.problem for inst in instances}
    for r in done.values():
        if r.task == task and r.instance in problems:
            recheck(r, problems[r.instance], time_limit)
    groups: dict[str, list[Row]] = {}
    waiting: dict[str, int] = {}
    out: list[Row] = []

    def finish(label: str) -> None:
        new = groups[label]
        old = [r for r in done.values() if r.instance == label and r.task == task]
        check_group(old + new, old + new)
        for r in new:
            out.append(r)
            if on_row:
                on_row(r)

    todo: list[tuple[Any, Job]] = []
    for inst in instances:
        groups[inst.label], waiting[inst.label] = [], 0
        for name in backends:
            if (inst.label, name, task) in done:
                continue
            row = _row(inst, name, task, time_limit)
            job = Job(name, task, inst.problem, time_limit, options)
            try:
                backend_for(job).plan(inst.problem, task)
            except UnsupportedProblem as exc:
                row.status, row.reason = RunStatus.UNSUPPORTED, str(exc)
                groups[inst.label].append(row)
                continue
            groups[inst.label].append(row)
            waiting[inst.label] += 1
            todo.append(((inst.label, len(groups[inst.label]) - 1), job))
        if not waiting[inst.label]:
            finish(inst.label)
    memory = memory_limit_mb * 2**20 if memory_limit_mb is not None else None
    filled: set[tuple[str, int]] = set()
    try:
        with Sandbox("nqueens_cp.bench.runs", jobs, time_limit, memory) as sandbox:
            for result in sandbox.run(todo, group=lambda job: job.backend):  # each backend's memory alone
                label, index = result.key
                _fill(groups[label][index], result)
                filled.add(result.key)
                waiting[label] -= 1
                if not waiting[label]:
                    finish(label)
    except BaseException:
        # A stop (Ctrl-C, SIGTERM) keeps every run that finished, where its instance had runs
        # still going (they were dropped): checked alone, and marked as not cross-checked.
        for label, rows in groups.items():
            if waiting[label] > 0:
                kept = [row for k, row in enumerate(rows) if (label, k) in filled]
                check_group(kept, kept)
                for row in kept:
                    validated = row.task == "first" and row.status == RunStatus.SOLVED  # needs no second opinion
                    alone = Check.of(row.check) in (None, Check.OK, Check.UNCHECKED)
                    if row.status in DECIDED and not validated and alone:
                        row.check = Check.UNCHECKED.said("the run was stopped before its instance's cross-check")
                    out.append(row)
                    if on_row:
                        on_row(row)
        raise
    return out


def wrong(rows: Iterable[Row]) -> list[Row]:
    return [r for r in rows if is_wrong(r)]
