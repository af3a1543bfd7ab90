"""One run of `nqueens compare`, as a sandbox worker executes it: a backend, a task and a problem.

`prepare` is untimed: it imports the backend and, the first time this worker meets a kind of
run (backend, task, piece, torus, blocked or fixed squares), solves a small board of that kind
so that compiled kernels are loaded before any clock starts. `run` is timed and returns a plain
dict (it crosses a pipe). Every solution is checked here by the problem's own validator; for
`solve` the time that checking takes is reported so that the run's time can leave it out.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

from ..backends import Backend, BackendError, Outcome, Stats, Status, backend_class, counted, get_backend, options_for
from ..backends.base import WORKERS
from ..backends.warm import algorithm, warm_board
from ..model.fields import SQUARE_FIELDS
from ..model.problem import Problem

TASKS = ("first", "count", "solve", "max", "dominate")

_warmed: set[tuple] = set()


@dataclass(frozen=True)
class Job:
    backend: str
    task: str
    problem: Problem
    time_limit: float | None = None
    options: dict[str, Any] = field(default_factory=dict)


def backend_for(job: Job) -> Backend:
    """The backend with the job's options, the time limit where the backend can stop itself
    (it is killed from outside anyway), and one thread where it could use more: runs are
    compared core for core, and `--jobs` is what runs them side by side."""
    caps = backend_class(job.backend).capabilities
    options = options_for(job.backend, job.options)
    if WORKERS in caps.options:
        options.setdefault("workers", 1)
    if job.time_limit is not None and caps.stoppable:
        with contextlib.suppress(BackendError):  # this solver cannot stop itself: the kill will
            limited = get_backend(job.backend, **options, time_limit=job.time_limit)
            limited.plan(job.problem, job.task)
            return limited
    return get_backend(job.backend, **options)


def prepare(job: Job) -> None:
    p = job.problem
    b = backend_for(Job(job.backend, job.task, p, None, job.options))
    board = (p.piece, p.torus, p.square, *(bool(getattr(p, f.name)) for f in SQUARE_FIELDS))
    wanted = algorithm(b, p, job.task)
    kind = (job.backend, tuple(sorted(job.options.items())), job.task, wanted, *board)
    if kind not in _warmed:
        small = warm_board(b, p, job.task, wanted)
        execute(backend_for(Job(job.backend, job.task, small, None, job.options)), job.task, small)
        _warmed.add(kind)


def run(job: Job) -> dict[str, Any]:
    return execute(backend_for(job), job.task, job.problem)


def digest(solution: tuple[int, ...]) -> int:
    """A 64-bit hash of one solution; their sum (mod 2^64) names a set of solutions whatever
    the order they came in, so two backends' enumerations compare without storing either."""
    return int.from_bytes(hashlib.blake2b(repr(solution).encode(), digest_size=8).digest(), "little")


def execute(b: Backend, task: str, p: Problem) -> dict[str, Any]:
    """status ("solved", "no solution", "unknown"), reason, answer (the solution, or the count),
    digest (solve), invalid (why the first bad solution is bad), stats, check_seconds."""
    b.plan(p, task)
    out: dict[str, Any] = {"reason": None, "invalid": None, "digest": None, "check_seconds": 0.0}
    if task == "first":
        outcome = b.first(p)
        out["answer"] = list(outcome.solution) if outcome.solution is not None else None
        if outcome.solution is not None:
            out["invalid"] = p.explain(tuple(outcome.solution))
    elif task == "count":
        outcome = b.count(p)
        out["answer"] = outcome.count
    elif task == "solve":
        outcome = _solve(b, p, out)
    elif task in ("max", "dominate"):  # the optimum proved (its placement checked by `optimum`)
        outcome = b.optimum(p, task)
        out["answer"] = outcome.value
    else:
        raise ValueError(f"unknown task {task!r} (known: {', '.join(TASKS)})")
    out["status"] = outcome.status.value
    if outcome.status is Status.UNKNOWN:
        out["reason"] = outcome.reason.value if outcome.reason else None
        out["answer"] = None
    out["stats"] = dict(outcome.stats or {})
    return out


def _solve(b: Backend, p: Problem, out: dict[str, Any]) -> Outcome:
    """Enumerate, checking and hashing every solution as it streams past."""
    total, found, invalid, checking = 0, 0, None, 0.0
    stats: Stats = {}

    def sizes():
        nonlocal total, found, invalid, checking
        for batch in b.batches(p, stats):
            start = time.perf_counter()
            for row in batch.tolist():
                sol = tuple(row)
                if invalid is None:
                    why = p.explain(sol)
                    if why is not None:
                        invalid = f"{p.said(sol)} {why}"
                total = (total + digest(sol)) & 0xFFFFFFFFFFFFFFFF
            found += len(batch)
            checking += time.perf_counter() - start
            yield len(batch)

    outcome = counted(sizes(), stats)  # a stop (Unknown) ends the stream with what was found
    out["answer"], out["digest"] = found, f"{total:016x}"
    out["invalid"], out["check_seconds"] = invalid, checking
    return outcome
