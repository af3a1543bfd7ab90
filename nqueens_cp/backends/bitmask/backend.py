"""The bitmask backend: our own engine, the primary enumerator and the fastest.

Every search asks the planner (`planner.plan`) which algorithm serves it, then runs that one:
the compiled searches (`kernels/`, driven by `searches`), the explicit constructions
(`construct`), a count cut into numbered work items (`partitions/`: the first rows, ring
constellations, the half-boards' join), or the row search on Python integers (`pysearch`).
Resumable searches run in bounded slices; the counting kernels are stopped mid-call by a
watcher (`backends/watch.py`) on Ctrl-C or the deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...model.problem import Problem, Solution
from ...model.symmetry import classes_by_orbit, problem_symmetries, subgroups, turns_by_fixed
from ...run.progress import report
from ...run.sizes import parse_size
from ..base import (
    OPTIMUM_TASKS,
    PLACEMENT_RULES,
    PLACEMENT_TASKS,
    PROGRESS,
    SYMMETRIC_BY,
    TIME_LIMIT,
    WORKERS,
    Backend,
    BackendError,
    Capabilities,
    ClassCount,
    Option,
    Outcome,
    Plan,
    Reason,
    Stats,
    Status,
    Task,
    Unknown,
    UnsupportedProblem,
    counted,
    first_of,
    package_version,
    rotation_turns,
    rows_of,
    symmetric_solutions,
)
from ..formulations import SQUARES_RULES
from . import planner, pysearch, regions
from .construct import construct
from .planner import Algorithm, mib

if TYPE_CHECKING:
    import numpy as np

    from ...run.partition import Partition
    from .partitions import Counts


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


#: The least memory a count can keep to: one process with the interpreter and the kernels.
MIN_MEMORY = 64 << 20


#: The most squares the minimum dominating sets may take in all, held to count their classes
#: (8 bytes each: 400 MB).
MAX_SETS_HELD = 50_000_000


class BitmaskBackend(Backend):
    """Options: `workers`, the processes a count may use (default: every core from n = 13);
    `progress`, a callback (done, total) over a count's sub-problems; `time_limit` in seconds;
    `lexicographic`, for `first`: the lexicographically first solution (a search) rather than
    the fastest one (a construction where one exists); `memory`, the bytes a count may use
    (default: most of what the machine has available), which the plan keeps to."""

    capabilities = Capabilities(
        options=(WORKERS, PROGRESS, TIME_LIMIT, LEXICOGRAPHIC, MEMORY),
        tasks=PLACEMENT_TASKS | OPTIMUM_TASKS | {Task.SYMMETRIC, Task.PROFILE},
        # (a region map: its own search, `regions`; walls, pieces anywhere, pawns: `layouts`)
        rules=PLACEMENT_RULES | SQUARES_RULES,
        partition=True,
        own_count=True,
        repeat_free=True,
        oracle=True,
        optimum_classes=True,
    )

    @classmethod
    def version(cls) -> str | None:
        return package_version("nqueens_cp", "numba")

    @classmethod
    def state(cls) -> dict[str, str]:
        from ...run.compiled import cached_kernels

        folder, kernels = cached_kernels()
        if kernels:
            return {"kernels": f"compiled and cached for this install: {kernels} kernels in {folder}"}
        why = "the first search that needs them compiles them, once (about a minute)"
        return {"kernels": f"not compiled yet: {why}, into {folder}"}

    def _plan(self, problem: Problem, task: Task) -> Plan:
        from ...run.parallel import default_workers, max_workers, physical_memory

        workers = self.settings.get("workers")
        if workers is not None and workers > max_workers():
            raise BackendError(f"workers must be at most {max_workers()} on this machine, got {workers}")
        memory = self.settings.get("memory")
        if memory is not None and (isinstance(memory, bool) or not isinstance(memory, int) or memory <= 0):
            raise BackendError(f"memory must be a positive number of bytes, got {memory!r}")
        if memory is not None and not MIN_MEMORY <= memory <= physical_memory():
            # `--memory 1` printed "0 MiB" and ran anyway; one above the machine's lifted the default
            raise BackendError(
                f"memory must be between {mib(MIN_MEMORY)} (one process with its kernels) and this machine's "
                f"{mib(physical_memory())}, got {mib(memory) if memory >= 1 << 20 else f'{memory} bytes'}"
            )
        if task in OPTIMUM_TASKS:
            return planner.optimum_plan(problem, task, self.settings, default_workers())
        if task == Task.SYMMETRIC:
            return planner.symmetric_plan(problem, self.settings)
        if task == Task.PROFILE:
            return planner.profile_plan(problem, self.settings, default_workers())
        chosen = planner.plan(problem, task, self.settings, default_workers())
        if task != Task.COUNT:
            return chosen
        return replace(chosen, seconds=planner.estimated_seconds(problem, chosen.workers))

    # -- streams ---------------------------------------------------------------------------

    def _batches(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[np.ndarray]:
        if plan.algorithm in (Algorithm.ROWS_PYTHON, Algorithm.REGIONS, Algorithm.LAYOUTS):
            return super()._batches(problem, plan, stats)
        from .searches import enumerate_any, enumerate_arrays  # (the compiled kernels, loaded here)

        if plan.algorithm == Algorithm.ANY_PIECE:
            return enumerate_any(problem, self.deadline(), stats)
        return enumerate_arrays(problem, self.deadline(), stats)

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        if plan.algorithm == Algorithm.ROWS_PYTHON:
            return pysearch.solutions(problem, self.deadline(), stats)
        if plan.algorithm == Algorithm.REGIONS:
            return regions.solutions(problem, self.deadline(), stats, bool(self.settings.get("lexicographic")))
        if plan.algorithm == Algorithm.LAYOUTS:
            from . import layouts  # (numpy and the kernel, loaded here)

            return layouts.layouts(problem, self.deadline(), stats)
        return rows_of(self._batches(problem, plan, stats))

    # -- decisions and counts: one dispatch table per task ---------------------------------

    def _first(self, problem: Problem, plan: Plan) -> Outcome:
        run = {
            Algorithm.CONSTRUCT: self._construct,
            Algorithm.MRV: lambda p: self._mrv(p, stop_at=1),
            Algorithm.ROWS: lambda p: self._first_row_search(p, plan),
            Algorithm.ROWS_PYTHON: lambda p: self._first_row_search(p, plan),
            Algorithm.ANY_PIECE: lambda p: self._first_row_search(p, plan),
            Algorithm.REGIONS: lambda p: self._first_row_search(p, plan),
            Algorithm.LAYOUTS: lambda p: self._first_row_search(p, plan),
        }
        return run[Algorithm(plan.algorithm)](problem)

    def _construct(self, problem: Problem) -> Outcome:
        sol = construct(problem)
        if sol is None:
            return Outcome(status=Status.NO_SOLUTION, count=0)
        assert isinstance(sol, tuple)
        why = problem.explain(sol)
        if why:  # the construction is proven; this guards our transcription of it
            raise BackendError(f"internal error: constructed placement {why}")
        return Outcome(status=Status.SOLVED, solution=sol, count=1)

    def _first_row_search(self, problem: Problem, plan: Plan) -> Outcome:
        """The first solution of the stream: the row search's, compiled or on Python integers
        (the lexicographically first), or the region search's (`--lexicographic` for that one)."""
        stats: Stats = {}
        if plan.algorithm in (Algorithm.ROWS_PYTHON, Algorithm.REGIONS, Algorithm.LAYOUTS):
            stream: Iterator[Any] = self._solutions(problem, plan, stats)
        else:
            batches = self._batches(problem, plan, stats)
            stream = (tuple(b[0].tolist()) for b in batches)
        return first_of(stream, stats)

    def _count(self, problem: Problem, plan: Plan) -> Outcome:
        run = {
            Algorithm.MRV: lambda p: self._one_item(self._mrv(p, stop_at=0)),
            Algorithm.ROWS_PYTHON: lambda p: self._one_item(self._count_rows(p)),
            Algorithm.FRONTIER: lambda p: self._one_item(self._count_frontier(p)),
            Algorithm.REGIONS: lambda p: self._one_item(self._enumerated(p, plan)),
        }
        if plan.algorithm in run:
            return run[Algorithm(plan.algorithm)](problem)
        try:
            counts = self._count_items(problem, plan)
        except Unknown as exc:
            return Outcome(status=Status.UNKNOWN, count=exc.partial, reason=exc.reason)
        walked = plan.algorithm != Algorithm.JOIN  # the join lists and matches: no placements to tell
        return Outcome(status=Status.SOLVED, count=counts.count, stats={"nodes": counts.nodes} if walked else {})

    def _one_item(self, outcome: Outcome) -> Outcome:
        """A count not cut into sub-problems is reported as one item of progress."""
        if outcome.status is not Status.UNKNOWN:
            report(self.settings.get("progress"), 1, 1, outcome.count)
        return outcome

    def _count_rows(self, problem: Problem) -> Outcome:
        """Count the row search's solutions on Python integers (small boards, and boards the
        compiled kernels do not take: every compiled count is cut into work items)."""
        stats: Stats = {}
        return counted((1 for _ in pysearch.solutions(problem, self.deadline(), stats)), stats)

    def _count_frontier(self, problem: Problem) -> Outcome:
        """Count a small board a row at a time on numpy arrays (no compiled kernel loaded)."""
        from . import frontier

        try:
            return Outcome(status=Status.SOLVED, count=frontier.count(problem, self.deadline()), stats={})
        except Unknown as exc:  # (a time limit: nothing is counted before the last row)
            return Outcome(status=Status.UNKNOWN, count=0, reason=exc.reason, stats={})

    def _count_items(self, problem: Problem, plan: Plan, bounded: bool = True) -> Counts:
        """A count cut into numbered work items (`partitions/`), the same items `partition`
        hands to checkpoints and Dask, on the pool or in this process."""
        from .partitions import count_items, for_count

        items = for_count(problem, Algorithm(plan.algorithm))
        return count_items(items, plan.workers, self.deadline(), self.settings.get("progress"), bounded)

    def _mrv(self, problem: Problem, stop_at: int) -> Outcome:
        """The constrained-board search in budgeted slices: the first solution (stop_at = 1)
        or the count (stop_at = 0)."""
        import numpy as np

        from .kernels import mrv as k
        from .searches import SLICE_NODES
        from .tables import masks_array

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
            return Outcome(status=Status.UNKNOWN, count=found, reason=exc.reason, stats={"nodes": nodes})
        stats = {"nodes": nodes}
        if stop_at == 1 and not found:
            return Outcome(status=Status.NO_SOLUTION, count=0, stats=stats)
        if stop_at == 1:
            return Outcome(status=Status.SOLVED, solution=last, count=1, stats=stats)
        return Outcome(status=Status.SOLVED, count=found, stats=stats)

    # -- the most pieces, the fewest that cover ---------------------------------------------

    def _optimum(self, problem: Problem, plan: Plan, independent: bool, count: bool) -> Outcome:
        """`optimise.maximum` or `optimise.fewest`; the maximum placements counted by this
        backend's count (work items, on the pool)."""
        from . import optimise

        deadline = self.deadline()
        stats: Stats = {}

        def counter(p: Problem) -> int | None:
            outcome = self.count(p)
            stats["nodes"] = stats.get("nodes", 0) + outcome.stats.get("nodes", 0)
            return outcome.count if outcome.status is Status.SOLVED else None

        if plan.task == Task.MAX:
            found = optimise.maximum(problem, deadline, count, counter)
        else:
            found = optimise.fewest(problem, deadline, independent, count, plan.workers)
        if found is None:
            return Outcome(status=Status.NO_SOLUTION, count=0, stats=stats)
        said = {"value": found.value, "bound": found.bound, "solution": found.solution, "stats": stats}
        if found.value is not None and found.value == found.bound and (found.count is not None or not count):
            return Outcome(status=Status.SOLVED, count=found.count, **said)
        reason = Reason.TIME_LIMIT if deadline.expired() else Reason.INTERRUPTED
        return Outcome(status=Status.UNKNOWN, reason=reason, **said)

    def _optimum_partition(self, problem: Problem, task: Task, independent: bool, value: int) -> Partition:
        """The maximum placements: the count of that many pieces anywhere (`partition`); the
        minimum sets: the cover search's items below its root cut by the symmetries (`partitions.cover`)."""
        from . import optimise

        if task == Task.MAX:
            return self.partition(optimise.anywhere(problem, value))
        return replace(optimise.cover_items(problem, independent, value).partition(), algorithm="cover")

    def _optimum_classes(self, problem: Problem, plan: Plan, independent: bool, outcome: Outcome) -> int | None:
        """The maximum placements by class: the classes of a count of that many pieces anywhere
        (Burnside, `layouts.fixed_count`); the minimum sets by class: at least one set of each
        class written out (`optimise.minimum_sets`, its size checked first), named by its least
        image; the classes' sizes must add up to the count, which was weighed another way."""
        from ...model.symmetry import set_classes
        from . import optimise

        assert outcome.value is not None and outcome.count is not None
        try:
            if plan.task == Task.MAX:
                return self.count_classes(optimise.anywhere(problem, outcome.value)).unique
            entries = outcome.count * max(1, outcome.value)
            if entries > MAX_SETS_HELD:
                raise UnsupportedProblem(
                    f"bitmask: the {outcome.count:,} minimum sets are too many to hold for their classes "
                    f"(at most {MAX_SETS_HELD:,} squares in all)"
                )
            sets = optimise.minimum_sets(problem, self.deadline(), independent, outcome.value, outcome.count)
        except Unknown:
            return None
        by_size = set_classes(problem, sets)
        if sum(size * k for size, k in by_size.items()) != outcome.count:
            raise BackendError("internal error: the minimum sets' classes do not add up to their count")
        return sum(by_size.values())

    # -- symmetry classes and partitions ---------------------------------------------------

    def _count_classes(self, problem: Problem, plan: Plan) -> ClassCount:
        if plan.algorithm == Algorithm.FIXED_POINTS:
            return self._classes_by_fixed_points(problem)
        if plan.algorithm not in (Algorithm.CONSTELLATIONS, Algorithm.CANONICAL):
            return super()._count_classes(problem, plan)
        counts = self._count_items(problem, plan, bounded=False)
        if plan.algorithm == Algorithm.CONSTELLATIONS:
            return classes_from_symmetric(problem, counts.count, counts.point, counts.quarter, {"nodes": counts.nodes})
        group, by_orbit = problem_symmetries(problem), counts.by_orbit()
        symmetric, turns = symmetric_solutions(problem, group, by_orbit), rotation_turns(problem, group, by_orbit)
        return ClassCount(group, by_orbit, symmetric, turns=turns)  # n <= 10 said none

    def _classes_by_fixed_points(self, problem: Problem) -> ClassCount:
        """Classes by Burnside's lemma: the count (this backend's fastest, on the pool, with its
        progress) and the solutions each subgroup of the problem's symmetries fixes
        (`fixed_points`), by orbit size (`classes_by_orbit`). A stop raises Unknown with the
        count so far where the count was under way, none after it (classes are then unknown)."""
        group = problem_symmetries(problem)
        outcome = self.count(problem)
        if outcome.status is Status.UNKNOWN:
            assert outcome.reason is not None
            raise Unknown(self.name, outcome.reason, partial=outcome.count)
        groups = subgroups(group)
        fixed = self._fixed_points(problem, [k for k in groups if len(k) > 1])
        fixed |= {k: outcome.count or 0 for k in groups if len(k) == 1}
        symmetric = {key: fixed[frozenset(names)] for key, names in SYMMETRIC_BY.items() if frozenset(names) in fixed}
        by_orbit = classes_by_orbit(group, fixed)
        turns = turns_by_fixed(group, fixed, by_orbit)
        return ClassCount(group, by_orbit, symmetric, stats=outcome.stats, turns=turns)

    def _profile(self, problem: Problem, plan: Plan) -> list[int]:
        from .profile import profile

        return profile(problem, self.deadline(), plan.workers)

    def _profile_partition(self, problem: Problem, plan: Plan) -> tuple[Partition, Callable[[int], list[int]]]:
        from functools import partial

        from .profile import decoded, partition

        part, base = partition(problem)
        return part, partial(decoded, base=base)

    def _count_symmetric(self, problem: Problem, plan: Plan, group: frozenset[str]) -> Outcome:
        """An orbit of squares at a time (`_fixed_points`); the identity alone is the count."""
        if group == {"identity"}:
            return self.count(problem)
        try:
            found = self._fixed_points(problem, [group])[group]
        except Unknown as exc:
            return Outcome(status=Status.UNKNOWN, reason=exc.reason, stats={})
        return Outcome(status=Status.SOLVED, count=found, stats={})

    def _fixed_points(self, problem: Problem, groups: list[frozenset[str]]) -> dict[frozenset[str], int]:
        """The solutions every symmetry of each of `groups` (subgroups of the problem's, not the
        trivial one) maps onto themselves, searched an orbit of squares at a time:
        `layouts.fixed_count` where walls cut lines or pieces stand anywhere, `fixed_points`
        otherwise. Raises Unknown at the deadline or a stop."""
        deadline = self.deadline()
        if problem.walled:
            from ..watch import watched
            from . import layouts

            with watched(deadline) as stop:
                found = {k: layouts.fixed_count(problem, k, stop) for k in groups}
            deadline.check(None)
            return found
        from .fixed_points import Orbits

        orbits = Orbits(problem)
        return {k: orbits.count_fixed(k, lambda: deadline.check(None)) for k in groups}

    def partition(
        self, problem: Problem, depth: int | None = None, follow: dict[str, Any] | None = None, running: bool = True
    ) -> Partition:
        """The count as numbered work items (`_items`), with what a process that has nothing but
        the partition (a Dask worker that joined mid-run) needs to build it again itself, and
        the versions it must run to count as this process does."""
        from functools import partial
        from importlib.metadata import version

        from .partitions import rebuilt

        part = self._items(problem, depth, follow, running)
        saved = part.fingerprint | {"items": part.size}
        requires = {name: version(name) for name in ("nqueens_cp", "numba")}
        return replace(part, rebuild=partial(rebuilt, problem, part.algorithm, depth, saved), requires=requires)

    def _items(self, problem: Problem, depth: int | None, follow: dict[str, Any] | None, running: bool) -> Partition:
        """The count as numbered work items, the same for every runner (this process, the pool,
        Dask, checkpoints): see `partitions.for_count`; a checkpoint's own cut where it is one
        of this problem's (`partitions.followed`). The join's memory is declared: a checkpoint of
        the join resumes within the memory budget, or is refused saying what it needs."""
        from .partitions import followed, for_count
        from .partitions.base import Split
        from .partitions.join import memory

        plan = self.plan(problem, Task.COUNT)
        if plan.algorithm == Algorithm.FRONTIER:  # (it makes no work items: the count cut as it was before)
            from ...run.parallel import default_workers

            plan = planner.plan(problem, Task.COUNT, self.settings, default_workers(), cut=True)
        part = for_count(problem, Algorithm(plan.algorithm), depth).partition()
        per = None if plan.memory is None else plan.memory // plan.workers
        part = replace(part, algorithm=plan.algorithm, memory=per, workers=None if per is None else plan.workers)
        if follow is None or follow == part.fingerprint | {"items": part.size}:
            return part
        found = followed(problem, follow, depth)
        if found is None:
            return part
        algorithm, items = found

        def cut(fingerprint: dict[str, Any], algorithm: str) -> str:
            return f"rows cut at depth {fingerprint['depth']}" if fingerprint["split"] == Split.ROWS else algorithm

        theirs, mine = cut(follow, algorithm), cut(part.fingerprint, plan.algorithm)
        why = f"made by another plan of this problem ({theirs}), which this run follows (its own: {mine})"
        part = replace(items.partition(), algorithm=algorithm, followed=why)
        if algorithm != Algorithm.JOIN or not running:
            return part
        from ...run.parallel import default_memory

        need, budget = memory(problem.n), self.settings.get("memory") or default_memory()
        if need > budget:
            raise UnsupportedProblem(
                f"bitmask: the checkpoint was made by the join, which holds {mib(need)} per worker, over this "
                f"run's memory budget of {mib(budget)}: resume it with --memory {-(-need >> 20)}MiB or more, "
                "or read it with --check"
            )
        return replace(part, memory=need, workers=budget // need)


def classes_from_symmetric(problem: Problem, q: int, p: int, r: int, stats: dict[str, int] | None = None) -> ClassCount:
    """Classes by orbit size from Q (all solutions), P (fixed by the half turn) and R (fixed by
    the quarter turn): only rotations fix a queen-like solution, so orbits have 8, 4 or 2
    members. The identities are checked before anything is reported."""
    from ...model.symmetry import NAMES

    u8, u4, u2 = (q - p) // 8, (p - r) // 4, r // 2
    unique = u8 + u4 + u2
    if (q - p) % 8 or (p - r) % 4 or r % 2 or 8 * u8 + 4 * u4 + 2 * u2 != q or 8 * unique != q + p + 2 * r:
        raise BackendError(f"internal error: class counts do not add up (Q={q}, P={p}, R={r})")
    by_orbit = {k: v for k, v in ((8, u8), (4, u4), (2, u2)) if v}
    turns = rotation_turns(problem, NAMES, by_orbit)
    return ClassCount(NAMES, by_orbit, {"point_symmetric": p, "rotational": r}, stats=dict(stats or {}), turns=turns)
