"""Cross-validation: run several backends on one Problem and compare what they return.

Two modes. `verify` enumerates every solution of every backend, passes each through the
problem's own validator and compares the solution sets (order is free), naming the solutions
one backend found and another missed. `verify_partition` is for problems too large to
enumerate: it fixes the first rows to each possible prefix (or a seeded sample of them), counts
the completions of each prefix with every backend and names the prefixes where they differ.
The prefixes are enumerated here from the spec alone, not by any backend under test.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..api import known
from ..backends import (
    BACKENDS,
    Backend,
    BackendError,
    Unknown,
    UnsupportedProblem,
    WrongAnswer,
    backend_class,
    get_backend,
)
from ..backends.warm import algorithm, board_of_plan
from ..model.problem import InvalidProblem, NQueensError, Problem, Solution, Square, as_problem, plural

#: How many example solutions or prefixes a report names per kind of difference.
SHOWN = 5


@dataclass
class BackendRun:
    """What one backend returned: its count, time, and anything wrong with its output."""

    backend: str
    count: int | None = None
    seconds: float = 0.0
    invalid: list[tuple[Solution, str]] = field(default_factory=list)
    duplicates: list[Solution] = field(default_factory=list)
    missed: list[tuple[Solution, str]] = field(default_factory=list)  # (solution, who found it)
    error: str | None = None
    #: Why the run stopped before it finished (a time limit): its count is then a lower bound.
    unknown: str | None = None
    #: The algorithm that ran (the backend's plan), and the solver's version.
    plan: str = ""
    version: str | None = None

    @property
    def ok(self) -> bool:
        return not (self.invalid or self.duplicates or self.missed or self.error)


@dataclass
class Verdict:
    problem: Problem
    runs: list[BackendRun]
    #: partition mode: (prefix, {backend: count}) for each prefix whose counts differ
    prefix_disagreements: list[tuple[tuple[Square, ...], dict[str, int]]] = field(default_factory=list)
    prefixes: int = 0
    partitioned: bool = False
    #: The backends that were not run (none named, so every one installed was a candidate), and why.
    left_out: list[tuple[str, str]] = field(default_factory=list)

    @property
    def compared(self) -> bool:
        """Whether anything was compared: two backends ran, and in partition mode on at least
        one prefix."""
        return len(self.runs) >= 2 and (self.prefixes > 0 or not self.partitioned)

    @property
    def disagree(self) -> bool:
        """A difference that is established: an invalid or repeated solution, one a backend
        missed, an error, differing counts of finished runs, a prefix counted differently."""
        counts = {r.count for r in self.runs if r.unknown is None}
        return not all(r.ok for r in self.runs) or len(counts) > 1 or bool(self.prefix_disagreements)

    @property
    def unknown(self) -> bool:
        """A run stopped early (a time limit), so agreement is not established."""
        return any(r.unknown for r in self.runs)

    @property
    def agree(self) -> bool:
        return self.compared and not self.disagree and not self.unknown

    def describe(self) -> list[str]:
        """Human-readable lines: one per backend, then the differences."""
        shown = self.problem.said
        lines = []
        for r in self.runs:
            if r.error:
                found = "an error"
            elif r.count is None:  # its stream stopped at a wrong answer (named below): no count
                found = "stopped at a wrong answer"
            else:
                found = ("at least " if r.unknown else "") + plural(r.count, "solution")
            reached = f" ({r.unknown} reached)" if r.unknown else ""
            lines.append(f"{r.backend}: {found} in {r.seconds:.3f}s{reached}")
        for r in self.runs:
            if r.error:
                lines.append(f"{r.backend} failed: {r.error}")
            for sol, why in r.invalid[:SHOWN]:
                lines.append(f"{r.backend} returned invalid {shown(sol)}: {why}")
            for sol in r.duplicates[:SHOWN]:
                lines.append(f"{r.backend} returned {shown(sol)} more than once")
            for sol, who in r.missed[:SHOWN]:
                lines.append(f"{r.backend} missed {shown(sol)} (found by {who})")
            hidden = max(0, len(r.missed) - SHOWN)
            if hidden:
                lines.append(f"{r.backend} missed {hidden} more")
        for prefix, counts in self.prefix_disagreements[:SHOWN]:
            each = ", ".join(f"{b}={c}" for b, c in counts.items())
            lines.append(f"prefix {[list(sq) for sq in prefix]}: {each}")
        said = {
            "nothing compared": "nothing compared",
            "disagree": "DISAGREE",
            "unknown": "unknown: no difference found before a limit was reached",
            "agree": "agree",
        }
        for name, why in self.left_out:
            lines.append(f"left out: {name} ({why})")
        lines.append(said[self.status])
        return lines

    def _repr_html_(self) -> str:
        """The verdict as a table of runs and a list of differences, for a notebook."""
        from ..model.drawing import html_table

        header = ("backend", "solutions", "seconds", "algorithm", "version", "")
        rows = []
        for r in self.runs:
            said = r.error or (f"{r.unknown} reached" if r.unknown else "")
            rows.append((r.backend, r.count, f"{r.seconds:.3f}", r.plan, r.version, said))
        lines = self.describe()  # (a line per run, the differences, then the verdict)
        return html_table(f"{self.problem}: {lines[-1]}", header, rows, lines[len(self.runs) : -1])

    @property
    def status(self) -> str:
        """agree, disagree, unknown (a run stopped, no difference found) or nothing compared."""
        if not self.compared:
            return "nothing compared"
        if self.disagree:
            return "disagree"
        return "unknown" if self.unknown else "agree"


def _backends(
    names: Sequence[str | Backend] | None,
    options: dict[str, dict[str, Any]],
    problem: Problem,
    time_limit: float | None,
    task: str = "solve",
) -> tuple[list[Backend], list[tuple[str, str]]]:
    """(the backends to compare, those left out with why): those named, or every one installed
    here that models the problem for `task` (and, under a time limit, can honour it). A named
    backend that cannot, or cannot honour its options, is refused before any run: the command
    must change, and nothing disagreed (it was a disagreement, exit 1)."""

    def made(name: str) -> Backend:
        given = dict(options.get(name, {}))
        if time_limit is not None:
            given["time_limit"] = time_limit
        return get_backend(name, **given)

    left_out: list[tuple[str, str]] = []
    if names is None:
        out = []
        for name in BACKENDS:
            cls = backend_class(name)
            why = cls.missing()
            if why is None and time_limit is not None and not cls.capabilities.stoppable:
                why = "its search cannot be stopped at a time limit"
            if why is None:
                b = made(name)
                why = _cannot_run(b, problem, task)
                if why is None:
                    out.append(b)
                    continue
            left_out.append((name, why))
    else:
        out = [name if isinstance(name, Backend) else made(name) for name in names]
        for b in out:
            why = _cannot_run(b, problem, task)
            if why is not None:
                raise UnsupportedProblem(why)
    if len(out) < 2:
        raise BackendError("verify needs at least two backends")
    return out, left_out


def _cannot_run(backend: Backend, problem: Problem, task: str) -> str | None:
    """Why the backend cannot model `problem` or honour its options (a time limit) for `task`."""
    try:
        backend.plan(problem, task)
    except BackendError as exc:
        return str(exc)
    return None


def _warm(b: Backend, p: Problem) -> None:
    """Enumerate a small board of `p`'s kind first, untimed, so that a run's time is its own and
    not its libraries' loading (our engine looked 40 times slower than CP-SAT on 8 x 8)."""
    small = board_of_plan(b, p, "solve", algorithm(b, p, "solve"), range(4, p.n))
    if small is not None:
        with contextlib.suppress(NQueensError):  # the run itself will say what is wrong
            for _ in b.solutions(small):
                pass


def verify(
    problem: Problem | int,
    backends: Sequence[str | Backend] | None = None,
    options: dict[str, dict[str, Any]] | None = None,
    time_limit: float | None = None,
) -> Verdict:
    """Enumerate with each backend and compare solution sets. Holds each backend's solution set
    in memory (that is what comparing sets takes): for large problems use verify_partition.
    `time_limit`: seconds for each backend's enumeration; a run that reaches it is unknown,
    and what it found is still checked."""
    p = as_problem(problem)
    runs: list[BackendRun] = []
    found: dict[str, set[Solution]] = {}
    chosen, left_out = _backends(backends, options or {}, p, time_limit)
    for b in chosen:
        run = BackendRun(b.name, version=type(b).version())
        runs.append(run)
        seen: set[Solution] = set()
        _warm(b, p)
        start = time.perf_counter()
        try:
            run.plan = b.plan(p, "solve").algorithm
            for sol in b.solutions(p):  # each checked by Problem.explain on the way
                sol = tuple(sol)
                if sol in seen:  # a backend whose stream is not held for repeats
                    run.duplicates.append(sol)
                else:
                    seen.add(sol)
        except Unknown as exc:
            run.unknown = exc.reason.value
        except WrongAnswer as exc:  # the stream stops at its first wrong answer, named here
            if exc.solution is None:
                run.error = str(exc)
            elif exc.why == WrongAnswer.REPEAT:
                run.duplicates.append(exc.solution)
            else:
                run.invalid.append((exc.solution, exc.why))
        except BackendError as exc:
            run.error = str(exc)
        run.seconds = time.perf_counter() - start
        stopped = bool(run.invalid) or (bool(run.duplicates) and not b.capabilities.repeat_free)
        run.count = None if run.error or stopped else len(seen) + len(run.duplicates)  # stopped early: no count
        found[b.name] = seen
    for run in runs:
        if run.error or run.unknown or run.count is None:  # a partial set misses what it did not reach
            continue
        mine = found[run.backend]
        for other in runs:
            if other is run or other.error:
                continue
            for sol in sorted(found[other.backend] - mine):
                run.missed.append((sol, other.backend))
    return Verdict(p, runs, left_out=left_out)


def prefixes(problem: Problem, depth: int) -> Iterator[tuple[Square, ...]]:
    """Every placement of the first `depth` rows that the spec allows (blocked squares avoided,
    fixed pieces kept, no two pieces attacking), in lexicographic order, from the spec alone.
    Generated by extending consistent prefixes only, so an inconsistent one is never listed."""
    depth = min(depth, problem.rows)
    fixed = problem.fixed

    def extend(placed: tuple[Square, ...]) -> Iterator[tuple[Square, ...]]:
        r = len(placed)
        if r == depth:
            yield placed
            return
        for c in problem.allowed_columns(r):
            sq = (r, c)
            if any(problem.attacks(sq, other) for other in placed):
                continue
            if any(f[0] >= depth and problem.attacks(sq, f) for f in fixed):
                continue
            yield from extend((*placed, sq))

    return extend(())


def _sample(items: Iterator[tuple[Square, ...]], k: int, seed: int) -> list[tuple[Square, ...]]:
    """k items drawn uniformly from the stream (reservoir sampling: memory for k only)."""
    rng = random.Random(seed)
    chosen: list[tuple[Square, ...]] = []
    for i, item in enumerate(items):
        if i < k:
            chosen.append(item)
        else:
            j = rng.randrange(i + 1)
            if j < k:
                chosen[j] = item
    return sorted(chosen)


def verify_partition(
    problem: Problem | int,
    backends: Sequence[str | Backend] | None = None,
    depth: int = 2,
    sample: int | None = None,
    seed: int = 0,
    options: dict[str, dict[str, Any]] | None = None,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
) -> Verdict:
    """Compare per-prefix counts: the first `depth` rows fixed to each possible prefix, or to a
    seeded random sample of `sample` prefixes. `time_limit`: seconds for each count."""
    p = as_problem(problem)
    if p.walled:  # (a prefix is a piece in each of the first rows: walls and pieces anywhere break that)
        raise InvalidProblem(
            "verify by prefixes fixes a piece in each of the first rows: not with walls or pieces anywhere"
        )
    bs, left_out = _backends(backends, options or {}, p, time_limit, "count")
    chosen = list(prefixes(p, depth)) if sample is None else _sample(prefixes(p, depth), sample, seed)
    runs = [BackendRun(b.name, count=0, plan=b.plan(p, "count").algorithm, version=type(b).version()) for b in bs]
    bad: list[tuple[tuple[Square, ...], dict[str, int]]] = []
    for i, prefix in enumerate(chosen):
        sub = p.with_fixed(prefix)
        counts: dict[str, int] = {}
        for b, run in zip(bs, runs, strict=True):
            if run.error or run.unknown:
                continue
            start = time.perf_counter()
            try:
                b.plan(sub, "count")
                found = known(b.count(sub), b).count
                assert found is not None  # (a known count)
                counts[b.name] = found
                run.count = (run.count or 0) + found
            except Unknown as exc:
                run.unknown = f"{exc.reason.value}, prefix {[list(sq) for sq in prefix]}"
            except BackendError as exc:
                run.error = f"prefix {[list(sq) for sq in prefix]}: {exc}"
                run.count = None
            run.seconds += time.perf_counter() - start
        if len(set(counts.values())) > 1:
            bad.append((prefix, counts))
        if progress:
            progress(i + 1, len(chosen))
    return Verdict(p, runs, prefix_disagreements=bad, prefixes=len(chosen), partitioned=True, left_out=left_out)
