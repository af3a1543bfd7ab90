"""The bitmask backend: our own engine, the primary enumerator and the fastest.

Every search asks the planner (`planner.plan`) which algorithm serves it, then runs that one:
the compiled row search (`rowkernels`), the most-constrained-line search (`mrvkernel`), the
explicit constructions (`construct`), the sub-problem counts (`split`, `constellations`), or the
same row search on Python integers (`pysearch`). Resumable searches run in bounded slices; the
counting kernels are stopped mid-call by a watcher (`backends/watch.py`) on Ctrl-C or the deadline.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from ...model.problem import Problem, Solution
from ...run.parallel import parse_size
from ...run.progress import report
from ..base import (
    PROGRESS,
    TIME_LIMIT,
    WORKERS,
    Backend,
    BackendError,
    Capabilities,
    ClassCount,
    Option,
    Outcome,
    Plan,
    Stats,
    Status,
    Task,
    Unknown,
    UnsupportedProblem,
    counted,
    first_of,
    package_version,
)
from ..watch import NODES
from . import planner, pysearch
from .construct import construct
from .planner import Algorithm
from .rows import SLICE_NODES, count_any, enumerate_any, enumerate_arrays
from .split import SPLIT_DEPTH, count_item, fingerprint, load_kernels
from .split import split as split_rows
from .tables import masks_array

if TYPE_CHECKING:
    from ...run.partition import Partition


LEXICOGRAPHIC = Option(
    "lexicographic",
    bool,
    "The lexicographically first solution (a search; may be slow).",
    flag="--lexicographic",
    tasks=frozenset({Task.FIRST}),
)
MEMORY = Option(
    "memory",
    int,
    "Memory a count may use (512M, 2G; default: 80% of what is available); the plan keeps to it.",
    flag="--memory",
    metavar="SIZE",
    parse=parse_size,
    tasks=frozenset({Task.COUNT}),
)


class BitmaskBackend(Backend):
    """Options: `workers`, the processes a count may use (default: every core from n = 13);
    `progress`, a callback (done, total) over a count's sub-problems; `time_limit` in seconds;
    `lexicographic`, for `first`: the lexicographically first solution (a search) rather than
    the fastest one (a construction where one exists); `memory`, the bytes a count may use
    (default: most of what the machine has available), which the plan keeps to."""

    capabilities = Capabilities(
        options=(WORKERS, PROGRESS, TIME_LIMIT, LEXICOGRAPHIC, MEMORY),
        partition=True,
        own_count=True,
        repeat_free=True,
    )

    @classmethod
    def version(cls) -> str | None:
        return package_version("nqueens_cp", "numba")

    def _plan(self, problem: Problem, task: Task) -> Plan:
        from ...run.parallel import default_workers, max_workers

        workers = self.settings.get("workers")
        if workers is not None and workers > max_workers():
            raise BackendError(f"workers must be at most {max_workers()} on this machine, got {workers}")
        memory = self.settings.get("memory")
        if memory is not None and (isinstance(memory, bool) or not isinstance(memory, int) or memory <= 0):
            raise BackendError(f"memory must be a positive number of bytes, got {memory!r}")
        return planner.plan(problem, task, self.settings, default_workers())

    # -- streams ---------------------------------------------------------------------------

    def _batches(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[np.ndarray]:
        if plan.algorithm == Algorithm.ROWS_PYTHON:
            return super()._batches(problem, plan, stats)
        if plan.algorithm == Algorithm.ANY_PIECE:
            return enumerate_any(problem, self.deadline(), stats)
        return enumerate_arrays(problem, self.deadline(), stats)

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        if plan.algorithm == Algorithm.ROWS_PYTHON:
            return pysearch.solutions(problem, self.deadline(), stats)
        return self._tuples(self._batches(problem, plan, stats))

    @staticmethod
    def _tuples(batches: Iterator[np.ndarray]) -> Iterator[Solution]:
        for batch in batches:
            yield from map(tuple, batch.tolist())

    # -- decisions and counts: one dispatch table per task ---------------------------------

    def _first(self, problem: Problem, plan: Plan) -> Outcome:
        run = {
            Algorithm.CONSTRUCT: self._construct,
            Algorithm.MRV: lambda p: self._mrv(p, stop_at=1),
            Algorithm.ROWS: lambda p: self._first_row_search(p, plan),
            Algorithm.ROWS_PYTHON: lambda p: self._first_row_search(p, plan),
            Algorithm.ANY_PIECE: lambda p: self._first_row_search(p, plan),
        }
        return run[Algorithm(plan.algorithm)](problem)

    def _construct(self, problem: Problem) -> Outcome:
        sol = construct(problem)
        if sol is None:
            return Outcome(Status.NO_SOLUTION, count=0)
        assert isinstance(sol, tuple)
        why = problem.explain(sol)
        if why:  # the construction is proven; this guards our transcription of it
            raise BackendError(f"internal error: constructed placement {why}")
        return Outcome(Status.SOLVED, sol, 1)

    def _first_row_search(self, problem: Problem, plan: Plan) -> Outcome:
        """The lexicographically first solution: the row search, compiled or on Python integers."""
        stats: Stats = {}
        if plan.algorithm == Algorithm.ROWS_PYTHON:
            stream: Iterator[Any] = pysearch.solutions(problem, self.deadline(), stats)
        else:
            batches = self._batches(problem, plan, stats)
            stream = (tuple(b[0].tolist()) for b in batches)
        return first_of(stream, stats)

    def _count(self, problem: Problem, plan: Plan) -> Outcome:
        run = {
            Algorithm.COUNT_SPLIT: lambda p: self._count_split(p, plan),
            Algorithm.CONSTELLATIONS: lambda p: self._count_constellations(p, plan),
            Algorithm.JOIN: lambda p: self._count_join(p, plan),
            Algorithm.MRV: lambda p: self._one_item(self._mrv(p, stop_at=0)),
            Algorithm.ROWS_PYTHON: lambda p: self._one_item(self._count_rows(p, plan)),
            Algorithm.ANY_PIECE: lambda p: self._count_any(p, plan),
        }
        return run[Algorithm(plan.algorithm)](problem)

    def _one_item(self, outcome: Outcome) -> Outcome:
        """A count not cut into sub-problems is reported as one item of progress."""
        if outcome.status is not Status.UNKNOWN:
            report(self.settings.get("progress"), 1, 1, outcome.count)
        return outcome

    def _count_constellations(self, problem: Problem, plan: Plan) -> Outcome:
        try:
            q, _, _, nodes = self._classes(problem, plan)
        except Unknown as exc:
            return Outcome(Status.UNKNOWN, count=exc.partial, reason=exc.reason)
        return Outcome(Status.SOLVED, count=q, stats={"nodes": nodes})

    def _count_rows(self, problem: Problem, plan: Plan) -> Outcome:
        """Count the row search's solutions (compiled batches, or Python integers)."""
        stats: Stats = {}
        if plan.algorithm == Algorithm.ROWS_PYTHON:
            return counted((1 for _ in pysearch.solutions(problem, self.deadline(), stats)), stats)
        return counted((len(batch) for batch in enumerate_arrays(problem, self.deadline(), stats)), stats)

    def _count_any(self, problem: Problem, plan: Plan) -> Outcome:
        """The generic kernel's count: in this process, or its sub-problems on the pool."""
        stats: Stats = {}
        deadline = self.deadline()
        try:
            if plan.workers > 1:
                from ...run.parallel import share_work
                from . import anysplit

                part = anysplit.partition(problem)
                assert part.prepare is not None
                part.prepare()
                progress = self.settings.get("progress")
                count, nodes = share_work(
                    anysplit.count_item_nodes, part.size, plan.workers, part.context, 2, progress, deadline.check
                )
                return Outcome(Status.SOLVED, count=count, stats={"nodes": nodes})
            count = count_any(problem, deadline, stats)
        except Unknown as exc:
            return Outcome(Status.UNKNOWN, count=exc.partial, reason=exc.reason, stats=stats)
        return self._one_item(Outcome(Status.SOLVED, count=count, stats=stats))

    def _count_split(self, problem: Problem, plan: Plan) -> Outcome:
        """The row split's numbered sub-problems, the same ones `partition` hands to checkpoints
        and Dask, counted in this process or on the pool."""
        from ..watch import watched
        from .split import count_one

        deadline = self.deadline()
        progress = self.settings.get("progress")
        part = self.partition(problem)
        masks, diag, subs = part.context
        total = nodes = 0
        try:
            if plan.workers > 1:
                from ...run.parallel import share_work
                from .split import count_item_nodes

                assert part.prepare is not None
                part.prepare()
                total, nodes = share_work(
                    count_item_nodes, part.size, plan.workers, part.context, 2, progress, deadline.check
                )
            else:
                spent = 0.0
                with watched(deadline) as stop:
                    for i in range(part.size):
                        start = time.perf_counter()
                        count = count_one(masks, diag, subs[i], stop)
                        deadline.check(total)  # a call stopped at the deadline: its part is not taken
                        total += count
                        spent += time.perf_counter() - start
                        report(progress, i + 1, part.size, total, spent)
                    nodes = int(stop[NODES])
        except Unknown as exc:
            return Outcome(Status.UNKNOWN, count=exc.partial, reason=exc.reason)
        return Outcome(Status.SOLVED, count=total, stats={"nodes": nodes})

    def _count_join(self, problem: Problem, plan: Plan) -> Outcome:
        """The half-boards joined (join.py): the same numbered items `partition` hands to
        checkpoints and Dask, on the pool or in this process, where a watcher stops the
        compiled call between two column sets on Ctrl-C or at the deadline."""
        from ..watch import watched
        from . import join

        deadline = self.deadline()
        progress = self.settings.get("progress")
        part = join.partition(problem)
        total = 0
        try:
            if plan.workers > 1:
                from ...run.parallel import share_work

                join.load_kernels()
                (total,) = share_work(part.func, part.size, plan.workers, part.context, 1, progress, deadline.check)
            else:
                spent = 0.0
                with watched(deadline) as stop:
                    for i in range(part.size):
                        start = time.perf_counter()
                        count = join.count_item(part.context, i, stop)
                        deadline.check(total)  # an item stopped at the deadline: its part is not taken
                        total += count
                        spent += time.perf_counter() - start
                        report(progress, i + 1, part.size, total, spent)
        except Unknown as exc:
            return Outcome(Status.UNKNOWN, count=exc.partial, reason=exc.reason)
        return Outcome(Status.SOLVED, count=total)

    def _mrv(self, problem: Problem, stop_at: int) -> Outcome:
        """The constrained-board search in budgeted slices: the first solution (stop_at = 1)
        or the count (stop_at = 0)."""
        from . import mrvkernel as k

        deadline = self.deadline()
        masks = masks_array(problem)
        state = k.new_state(problem.n)
        k.start(masks, *state)
        place = np.zeros(problem.n, np.int64)
        found, nodes, last = 0, 0, None
        try:
            while not state[-1][1]:
                got, spent = k.run(
                    masks, problem.rule.diagonals, *state, stop_at - found if stop_at else 0, SLICE_NODES // 2, place
                )
                nodes += spent
                if got:
                    found += got
                    last = tuple(int(c) for c in place)
                    if found == stop_at:
                        break
                deadline.check(found)
        except Unknown as exc:
            return Outcome(Status.UNKNOWN, count=found, reason=exc.reason, stats={"nodes": nodes})
        stats = {"nodes": nodes}
        if stop_at == 1 and not found:
            return Outcome(Status.NO_SOLUTION, count=0, stats=stats)
        if stop_at == 1:
            return Outcome(Status.SOLVED, last, 1, stats=stats)
        return Outcome(Status.SOLVED, count=found, stats=stats)

    # -- symmetry classes and partitions ---------------------------------------------------

    def _count_classes(self, problem: Problem, plan: Plan) -> ClassCount:
        if plan.algorithm == Algorithm.CONSTELLATIONS:
            q, p, r, nodes = self._classes(problem, plan)
            return classes_from_symmetric(problem, q, p, r, {"nodes": nodes})
        if plan.algorithm != Algorithm.CANONICAL:
            return super()._count_classes(problem, plan)
        from .canonical import count_classes

        return count_classes(problem, plan.workers, self.deadline())

    def _classes(self, problem: Problem, plan: Plan) -> tuple[int, int, int, int]:
        """(Q, P, R, nodes) by constellations: all solutions, those fixed by the half turn,
        those fixed by the quarter turn, and the searches' nodes; in this process or on the pool."""
        from . import constellations as cs

        cons = cs.constellations(problem)
        deadline = self.deadline()
        progress = self.settings.get("progress")
        if plan.workers == 1:
            return cs.classes_in_process(problem, cons, deadline, progress)
        from ...run.parallel import share_work

        cs.load_kernels(problem)
        context = (problem, cons)
        q, p, r, nodes = share_work(cs.classes_item, len(cons), plan.workers, context, 4, progress, deadline.check)
        return q, p, r, nodes

    def partition(self, problem: Problem, depth: int | None = None) -> Partition:
        """The count as numbered work items, the same for every runner (this process, the pool,
        Dask, checkpoints): symmetry classes of constellations where all 8 symmetries hold, else
        the placements of the first `depth` rows (SPLIT_DEPTH by default)."""
        from ...run.partition import Partition

        plan = self.plan(problem, Task.COUNT)
        if plan.algorithm == Algorithm.JOIN:
            if depth is not None:
                raise UnsupportedProblem(
                    "bitmask: this count is cut into sets of top columns (the join); --depth applies to row splits"
                )
            from . import join

            return join.partition(problem)
        if plan.algorithm == Algorithm.CONSTELLATIONS:
            if depth is not None:
                raise UnsupportedProblem(
                    f"bitmask: this count is cut into symmetry classes of ring pieces "
                    f"({planner.classes_reason(problem)}); --depth applies to row splits"
                )
            from . import constellations as cs

            return cs.partition(problem, cs.constellations(problem))
        compiled = problem.n <= planner.MAX_COMPILED_N and planner.jit_enabled()
        if not compiled:
            wide = problem.n > planner.MAX_COMPILED_N
            why = f"{problem.n} columns" if wide else "numba's JIT is disabled (NUMBA_DISABLE_JIT)"
            raise BackendError(f"bitmask: a partitioned count runs the compiled kernels (up to 64 columns): {why}")
        wrapped = problem.torus or problem.rule.knight  # (a small board's plan is the Python search)
        if plan.algorithm == Algorithm.ANY_PIECE or (plan.algorithm == Algorithm.ROWS_PYTHON and wrapped):
            if depth is not None:
                raise UnsupportedProblem(
                    "bitmask: this count is cut at its first two rows; "
                    "--depth applies to the row split of queens and rooks"
                )
            from . import anysplit

            return anysplit.partition(problem)
        if depth is None:
            depth = SPLIT_DEPTH  # fewer on a board with fewer rows (split stops one row short)
        elif not 1 <= depth < problem.n:
            raise UnsupportedProblem(f"bitmask: --depth must be 1..{problem.n - 1} on {problem.n} rows, got {depth}")
        masks, diag = masks_array(problem), problem.rule.diagonals
        return Partition(
            fingerprint(problem, depth),
            len(subs := split_rows(problem, depth)),
            count_item,
            (masks, diag, subs),
            lambda: load_kernels(masks, diag),
        )


def classes_from_symmetric(
    problem: Problem, q: int, p: int, r: int, stats: dict[str, int] | None = None
) -> ClassCount:
    """Classes by orbit size from Q (all solutions), P (fixed by the half turn) and R (fixed by
    the quarter turn): only rotations fix a queen-like solution, so orbits have 8, 4 or 2
    members. The identities are checked before anything is reported."""
    from ...model.symmetry import NAMES

    u8, u4, u2 = (q - p) // 8, (p - r) // 4, r // 2
    unique = u8 + u4 + u2
    if (q - p) % 8 or (p - r) % 4 or r % 2 or 8 * u8 + 4 * u4 + 2 * u2 != q or 8 * unique != q + p + 2 * r:
        raise BackendError(f"internal error: class counts do not add up (Q={q}, P={p}, R={r})")
    by_orbit = {k: v for k, v in ((8, u8), (4, u4), (2, u2)) if v}
    return ClassCount(NAMES, by_orbit, {"point_symmetric": p, "rotational": r}, stats=dict(stats or {}))
