"""The top-level API: solve / count / first on any backend, and the LeetCode 51/52 answers.

All three treat an unknown answer the same way: they raise `Unknown` (`TimeLimitReached` for a
time limit), never return a count or a "no solution" that was not established. `solve` raises
it after yielding the solutions found before the stop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .backends import (
    DEFAULT_BACKEND,
    Backend,
    ClassCount,
    Outcome,
    Plan,
    Status,
    Task,
    TimeLimitReached,
    Unknown,
    UnsupportedProblem,
    get_backend,
)
from .backends.base import close_stream
from .backends.claims import checked_claim, checked_stream
from .model.problem import InvalidProblem, Problem, Solution, as_problem, board_rows, is_integer

if TYPE_CHECKING:
    from .model.drawing import Drawing
    from .run.partition import Partition


def prepare(
    problem: Problem | int, backend: str | Backend, task: str, options: dict[str, Any]
) -> tuple[Problem, Backend, Plan]:
    """(problem, backend, plan): the problem built, the backend made with its options, and its
    plan for `task`, which refuses what the backend cannot model or honour, before any search."""
    p = as_problem(problem)
    b = get_backend(backend, **options)
    return p, b, b.plan(p, task)


def known(outcome: Outcome, backend: Backend) -> Outcome:
    """The outcome, or Unknown raised when the answer is not known."""
    if outcome.status is Status.UNKNOWN:
        assert outcome.reason is not None
        limit = backend.settings.get("time_limit")
        if limit and outcome.reason.name == "TIME_LIMIT":
            raise TimeLimitReached(backend.name, limit, outcome.count)
        raise Unknown(backend.name, outcome.reason, partial=outcome.count)
    return outcome


def solve(
    problem: Problem | int, backend: str | Backend = DEFAULT_BACKEND, limit: int | None = None, **options: Any
) -> Iterator[Solution]:
    """Stream the solutions (tuple of the column in each row), at most `limit` of them.

    The problem and backend are checked now; the search runs as the iterator is consumed."""
    if limit is not None and not (is_integer(limit) and limit >= 0):
        raise InvalidProblem(f"limit must be a whole number >= 0, got {limit!r}")
    p, b, _ = prepare(problem, backend, "solve", options)
    return limited(checked_stream(p, b, b.solutions(p), limit), limit)


def limited(solutions: Iterator[Solution], limit: int | None) -> Iterator[Solution]:
    """A generator (so `close()` reaches the backend's stream and stops its search)."""
    try:
        yield from islice(solutions, limit)
    finally:
        close_stream(solutions)


def count(problem: Problem | int, backend: str | Backend = DEFAULT_BACKEND, **options: Any) -> int:
    """The number of solutions."""
    p, b, _ = prepare(problem, backend, "count", options)
    result = known(checked_claim(p, b, b.count(p)), b).count
    assert result is not None
    return result


def first(problem: Problem | int, backend: str | Backend = DEFAULT_BACKEND, **options: Any) -> Solution | None:
    """One solution, or None when there is none."""
    p, b, _ = prepare(problem, backend, "first", options)
    return known(checked_claim(p, b, b.first(p)), b).solution


def count_classes(problem: Problem | int, backend: str | Backend = DEFAULT_BACKEND, **options: Any) -> ClassCount:
    """The solutions counted by symmetry class under the problem's own symmetries."""
    p, b, _ = prepare(problem, backend, "unique", options)
    return b.count_classes(p)


def count_symmetric(
    problem: Problem | int, symmetry: str, backend: str | Backend = DEFAULT_BACKEND, **options: Any
) -> int:
    """The solutions `symmetry` (rot90, rot180, flip-cols...: `model.symmetry.NAMES`) maps onto
    themselves, found by a search of those alone."""
    p, b, _ = prepare(problem, backend, "symmetric", options)
    result = known(b.count_symmetric(p, symmetry), b).count
    assert result is not None
    return result


def count_partitioned(
    problem: Problem | int,
    backend: str | Backend = DEFAULT_BACKEND,
    *,
    depth: int | None = None,
    workers: int | None = None,
    dask: str | None = None,
    dask_wait: float | None = None,
    checkpoint: Path | None = None,
    check: bool = False,
    recount: int = 0,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
    note: Callable[[str], None] | None = None,
) -> tuple[int, Plan]:
    """(count, plan): the count cut into the backend's numbered sub-problems, run on a process
    pool of `workers` (default: every core) or on Dask (`dask`: a scheduler address, or
    "local"), each finished sub-problem recorded in `checkpoint` and skipped when the count is
    resumed. With `check`, a finished checkpoint is re-checked and re-summed; nothing runs but
    `recount` of its items, chosen at random, each counted again and held to its record (on the
    pool; a record that differs raises RecountDisagrees).
    Past `time_limit` seconds it stops: TimeLimitReached, with the solutions counted as its
    partial (a lower bound), caused by a PartialCount that says how many items were done; the
    checkpoint keeps them, and the same call resumes. A checkpoint made under another plan of
    the same problem (another memory budget, another depth) is followed where the backend makes
    that cut too, and `note` is told so."""
    from .run.parallel import max_workers
    from .run.partition import check_dask_address, journal_fingerprint

    p, b, plan = prepare(problem, backend, "count", {})
    b.check_cuts()
    _check_asked(checkpoint, check, recount)
    if dask is not None:
        if not dask.strip():
            raise UnsupportedProblem("--dask needs a scheduler address (tcp://HOST:PORT) or 'local'")
        check_dask_address(dask)
    if workers is not None and not 1 <= workers <= max_workers():
        raise UnsupportedProblem(f"--workers must be 1..{max_workers()} on this machine, got {workers}")
    saved = None if checkpoint is None else journal_fingerprint(checkpoint)
    part = b.partition(p, depth, follow=saved, running=not check)  # the planned items, or the journal's
    if part.followed and note:
        note(f"{checkpoint} was {part.followed}")
    if check:
        assert checkpoint is not None
        total, where = _checked(part, checkpoint, recount, workers)
    else:
        total, pool = _run_partition(part, b, workers, dask, dask_wait, checkpoint, progress, time_limit)
        where = f"on Dask ({dask})" if dask else "on the process pool"
    used = (workers or 1) if check or dask else pool  # (no pool runs for these)
    memory = None if part.memory is None else part.memory * used
    why = f"{part.size} numbered sub-problems {where}" + (f", {part.followed}" if part.followed else "")
    return total, Plan(Task.COUNT, part.algorithm or plan.algorithm, why, used, memory)


def _check_asked(checkpoint: Path | None, check: bool, recount: int) -> None:
    """Refuses a check with no checkpoint to read, and a recount without a check."""
    if check and checkpoint is None:
        raise ValueError("check re-reads a checkpoint: give one")
    if recount and not check:
        raise ValueError("recount goes with check")


def _checked(part: Partition, checkpoint: Path, recount: int, workers: int | None) -> tuple[int, str]:
    """(the total of a finished checkpoint, how it was had): every record checked and summed,
    nothing run but `recount` of its items, chosen at random, counted again on the pool and each
    held to its record (RecountDisagrees where one differs)."""
    from .run.parallel import default_workers, max_workers
    from .run.partition import checked_total, pool_runner
    from .run.partition import recount as recounted

    total, how = checked_total(part, checkpoint), "checked from the checkpoint"
    if recount:
        chosen = recounted(
            part, checkpoint, recount, pool_runner(min(workers or default_workers(), part.workers or max_workers()))
        )
        how += f", {len(chosen)} of them chosen at random and counted again, each as recorded"
    return total, how


def _pool(part: Partition, workers: int | None) -> int:
    """The pool's workers for `part`: those asked (default: every core), no more than fit the
    memory budget."""
    from .run.parallel import default_workers

    pool = workers or default_workers()
    return pool if part.workers is None else min(pool, part.workers)


def _run_partition(
    part: Partition,
    b: Backend,
    workers: int | None,
    dask: str | None,
    dask_wait: float | None,
    checkpoint: Path | None,
    progress: Callable[[int, int], None] | None,
    time_limit: float | None,
) -> tuple[int, int]:
    """(the total of `part`'s items, the pool's workers): run on the pool or on Dask, each
    finished item recorded in `checkpoint` (opened, or refused, before any work)."""
    from .run.partition import DASK_WAIT_SECONDS, PartialCount, dask_runner, open_checkpoint, pool_runner
    from .run.partition import count_partitioned as run_partition

    ckpt = open_checkpoint(part, checkpoint) if checkpoint is not None else None
    wait = DASK_WAIT_SECONDS if dask_wait is None else dask_wait
    pool = _pool(part, workers)
    runner = dask_runner(dask, workers, wait) if dask else pool_runner(pool)
    try:
        return run_partition(part, runner, ckpt, progress, time_limit), pool
    except PartialCount as stop:
        assert time_limit is not None
        raise TimeLimitReached(b.name, time_limit, stop.found) from stop


def count_optimal(
    problem: Problem | int,
    task: str,
    backend: str | Backend = DEFAULT_BACKEND,
    *,
    independent: bool = False,
    workers: int | None = None,
    dask: str | None = None,
    dask_wait: float | None = None,
    checkpoint: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
) -> tuple[Outcome, Plan]:
    """(outcome, plan) of an optimisation (`max`, `dominate`) whose optimal placements are
    counted as the backend's numbered work items (`Backend.optimum_partition`), on the pool or
    on Dask, each finished item recorded in `checkpoint` and skipped when the count is resumed,
    as `count_partitioned` counts. The optimum is proved first, in this process; where it is
    not (a limit), the outcome says what was found, and nothing is counted.
    `time_limit` bounds the whole call: the proof (a backend given by name is made with it; an
    instance proves under its own settings, as the command line makes it with the same limit),
    then the count in what is left. A count stopped by it is UNKNOWN, its value the proved
    optimum and its count the placements of the finished items (a lower bound); the checkpoint
    keeps them, and the same call resumes."""
    from dataclasses import replace as replaced

    from .backends.base import Reason
    from .run.partition import check_dask_address

    began = time.monotonic()
    named = time_limit and not isinstance(backend, Backend)  # (an instance holds its own options)
    p, b, plan = prepare(problem, backend, task, {"time_limit": time_limit} if named else {})
    if dask is not None:
        check_dask_address(dask)
    outcome = b.optimum(p, task, independent=independent)
    if outcome.status is not Status.SOLVED or outcome.value is None:
        return outcome, plan
    if not outcome.value:  # no square free: the one empty placement, and no item to cut
        return replaced(outcome, count=1), plan
    part = b.optimum_partition(p, task, independent, outcome.value)
    where = f"on Dask ({dask})" if dask else "on the process pool"
    why = f"{plan.reason}; the optimal placements counted as {part.size} numbered sub-problems {where}"
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - began))
    try:
        total, used = _run_partition(part, b, workers, dask, dask_wait, checkpoint, progress, left)
    except TimeLimitReached as stop:
        stopped = replaced(outcome, status=Status.UNKNOWN, reason=Reason.TIME_LIMIT, count=stop.partial)
        return stopped, Plan(plan.task, plan.algorithm, why, _pool(part, workers))
    return replaced(outcome, count=total), Plan(plan.task, plan.algorithm, why, used)


def profile_partitioned(
    problem: Problem | int,
    backend: str | Backend = DEFAULT_BACKEND,
    *,
    workers: int | None = None,
    dask: str | None = None,
    dask_wait: float | None = None,
    checkpoint: Path | None = None,
    check: bool = False,
    recount: int = 0,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
) -> tuple[list[int], Plan]:
    """(profile, plan): the row search's nodes at each depth (`Backend.profile`), its work items
    run on the pool or on Dask, each finished one recorded in `checkpoint` and skipped when the
    run is resumed, as `count_partitioned` runs a count's; with `check` (and `recount`), a
    finished checkpoint re-checked and re-summed as a count's is, nothing run but the items
    recounted: what a reader of a b-file does with the journals whose digests it gives."""
    from .run.partition import check_dask_address

    p, b, plan = prepare(problem, backend, "profile", {})
    _check_asked(checkpoint, check, recount)
    if dask is not None:
        check_dask_address(dask)
    part, read = b.profile_partition(p)
    if check:
        assert checkpoint is not None
        (total, where), used = _checked(part, checkpoint, recount, workers), workers or 1
    else:
        total, used = _run_partition(part, b, workers, dask, dask_wait, checkpoint, progress, time_limit)
        where = f"on Dask ({dask})" if dask else "on the process pool"
    return read(total), Plan(plan.task, plan.algorithm, f"{part.size} numbered sub-problems {where}", used)


def draw(problem: Problem | int, solution: Sequence[int] | None = None) -> Drawing:
    """The board, with `solution` placed on it: an SVG in a notebook, text when printed."""
    from .model.drawing import Drawing

    return Drawing(as_problem(problem), None if solution is None else tuple(int(c) for c in solution))


def solve_n_queens(n: int) -> list[list[str]]:
    """LeetCode 51: every solution of n-queens drawn as 'Q'/'.' rows."""
    return [board_rows(s) for s in solve(n)]


def total_n_queens(n: int) -> int:
    """LeetCode 52: the number of solutions of n-queens."""
    return count(n)
