"""The cpsat backend: the Problem as an OR-tools CP-SAT model, the industrial reference.

The model reads like the math: q[i] is the column of the piece in row i, its domain the columns
the spec allows (blocked squares removed, a fixed piece's column alone); the columns are all
different, and for queens so are q[i] + i and q[i] - i. It uses the spec as written, not the
bitmask backend's pre-pruned masks, so the cross-check shares as little as possible.

Enumeration streams: the solver runs in a worker thread and hands each solution to the caller
through a small bounded queue, so nothing accumulates; closing the iterator stops the search.
"""

from __future__ import annotations

import atexit
import functools
import gc
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from ..model.problem import Problem, Solution
from ..model.squares import optimum_model
from ..run.handoff import Handoff
from .base import (
    OPTIMUM_TASKS,
    WORKERS,
    Backend,
    BackendError,
    Option,
    Outcome,
    Plan,
    Reason,
    Stats,
    Status,
    Task,
    TimeLimitReached,
    Unknown,
    UnsupportedProblem,
    package_version,
)
from .formulations import formulated, formulation_of


class _OnFirstUse:
    """OR-tools' cp_model, imported when it is first used: it takes half a second to import,
    which every command would pay, since the CLI reads each backend's declared options."""

    def __getattr__(self, name: str) -> Any:
        from ortools.sat.python import cp_model

        return getattr(cp_model, name)


cp_model: Any = _OnFirstUse()


def build_model(problem: Problem) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    n, m = problem.n, problem.rows
    model = cp_model.CpModel()
    allowed = [problem.allowed_columns(i) for i in range(m)]
    if not all(allowed) or problem.contradiction:
        # A row with no allowed column has no solution. CP-SAT rejects an empty domain as an
        # invalid model, so that row keeps every column and the contradiction is stated instead.
        # So are pre-placed pieces that contradict each other (two in one row keep one column).
        model.add_bool_or([])
    q = [
        model.new_int_var_from_domain(cp_model.Domain.from_values(cols or range(n)), f"q{i}")
        for i, cols in enumerate(allowed)
    ]
    model.add_all_different(q)
    # Each family of parallel lines (a, b), a rows down and b columns across per step: the rows
    # of one residue class mod a meet a line where a*q[i] - b*i is the same, so those values
    # are all different (a = 1 for the queen's diagonals: q[i] - i and q[i] + i). On a torus
    # (a = 1) the same values modulo g, which is n on a square one.
    lines, forbidden = problem.line_model
    for a, b, g in lines:
        if not g:
            for rho in range(min(a, m)):
                model.add_all_different(a * q[i] - b * i for i in range(rho, m, a))
            continue
        wrapped = [model.new_int_var(0, g - 1, f"w{b}_{i}") for i in range(m)]
        for i in range(m):
            model.add_modulo_equality(wrapped[i], q[i] - b * i + abs(b) * m * g, g)
        model.add_all_different(wrapped)
    # Leapers (and wrapped lines that skip rows): forbidden column offsets between two rows.
    for dr, dc in forbidden:
        for i in range(m - dr):
            model.add(q[i + dr] - q[i] != dc)
    return model, q


#: What a search reads: the variables whose values make a solution, and how they make it.
Read = tuple[list[Any], Callable[[list[int]], Solution]]


def build_squares(problem: Problem) -> tuple[cp_model.CpModel, Read]:
    """The squares formulation (`model/squares.py`) in CP-SAT: a Boolean a usable square (and a
    square a pawn may take), the model's groups as exactly-one and at-most-one constraints,
    leaps and separations as clauses, the search deciding the Booleans, which are read back
    (`SquaresModel.solution`); with one piece a row, q[r], row r's column, is tied to them as
    the exported model's readers expect."""
    from ..model.squares import squares_model

    sm = squares_model(problem)
    model = cp_model.CpModel()
    q = [] if problem.anywhere else [model.new_int_var(0, problem.n - 1, f"q{r}") for r in range(problem.rows)]
    x = [model.new_bool_var(f"x{r}_{c}") for r, c in sm.squares]
    y = [model.new_bool_var(f"p{sm.squares[i][0]}_{sm.squares[i][1]}") for i in sm.pawn_at]
    for k, i in enumerate(sm.pawn_at):
        model.add_at_most_one([x[i], y[k]])
    if y:
        model.add(sum(y) == sm.pawns)
    for a, b, between in sm.separated:
        model.add_bool_or([x[a].Not(), x[b].Not(), *(y[k] for k in between)])
    for group in sm.exactly_one:
        model.add_exactly_one(x[i] for i in group)
    for group in sm.at_most_one:
        model.add_at_most_one(x[i] for i in group)
    for a, b in sm.apart:
        model.add_bool_or([x[a].Not(), x[b].Not()])
    for i in sm.fixed:
        model.add(x[i] == 1)
    for group in sm.regions:
        model.add_exactly_one(x[i] for i in group)
    model.add(sum(x) == sm.pieces)
    by_row: dict[int, list[int]] = {}
    for i, (r, _) in enumerate(sm.squares):
        by_row.setdefault(r, []).append(i)
    for r, v in enumerate(q):
        model.add(v == sum(sm.squares[i][1] * x[i] for i in by_row.get(r, [])))
    model.add_decision_strategy([*y, *x], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)  # a square at a time
    size = len(x)

    def solution(values: list[int]) -> Solution:
        pawns = [k for k, v in enumerate(values[size:]) if v]
        return sm.solution(problem, [i for i in range(size) if values[i]], pawns)

    return model, ([*x, *y], solution)


def built(problem: Problem, formulation: str) -> tuple[cp_model.CpModel, Read]:
    """The model of `formulation`, and what its searches read."""
    if formulation == "squares":
        return build_squares(problem)
    model, q = build_model(problem)
    return model, (q, tuple)


#: The largest board modelled: domains are listed per row (n^2 values in all).
MAX_N = 2000

_DONE = object()

#: Searches running right now. A stream abandoned without being closed would leave its solver
#: thread inside C++ at interpreter exit, which aborts the process; so exit stops them first,
#: and collects solvers still held by reference cycles (an interrupted search's traceback)
#: while the interpreter can still destroy them cleanly.
_RUNNING: set[_Run] = set()


@atexit.register
def _stop_running() -> None:
    for run in list(_RUNNING):
        run.stop()
    gc.collect()


class _Run:
    """solver.solve(model, callback) in a helper thread, so the calling thread waits in short,
    interruptible steps (Ctrl-C raises KeyboardInterrupt there promptly) and can stop it."""

    def __init__(self, solver: cp_model.CpSolver, model: cp_model.CpModel, callback: Any = None, on_end: Any = None):
        self.solver = solver
        self.done = threading.Event()
        self.stopped = False  # stopped by us (a closed stream, Ctrl-C), not by the solver
        self._result: dict[str, Any] = {}

        def target() -> None:
            try:
                self._result["status"] = solver.solve(model, callback)
            except BaseException as exc:  # handed to the waiting thread
                self._result["error"] = exc
            finally:
                self.done.set()
                if on_end:
                    on_end()

        _RUNNING.add(self)
        threading.Thread(target=target, name="cpsat-solve", daemon=True).start()

    def wait(self) -> Any:
        """The solver's status once it has finished (stopping it if we are interrupted)."""
        try:
            while not self.done.is_set():  # a sleep, not Event.wait, whose lock a signal can leave held
                time.sleep(0.05)
        finally:
            self.stop()
        if "error" in self._result:
            raise self._result["error"]
        return self._result["status"]

    def stop(self) -> None:
        """Stop the search (if it is still running) and wait until its thread has left the
        solver. Waits on an Event set by that thread rather than on Thread.join, which we saw
        return after a Ctrl-C with the thread still inside C++ (the process then aborted at exit)."""
        if not self.done.is_set():
            self.stopped = True
        while not self.done.is_set():
            self.solver.stop_search()
            time.sleep(0.05)
        _RUNNING.discard(self)


@functools.cache
def _streamer() -> type:
    """The solution callback's class (made at first use: its base class is OR-tools')."""

    class Streamer(cp_model.CpSolverSolutionCallback):
        """Hands each solution over (a bounded `Handoff`); stops the search when told to."""

        def __init__(self, read: Read, out: Handoff, stop: threading.Event) -> None:
            super().__init__()
            self._read = read
            self._out = out
            self._stop = stop

        def on_solution_callback(self) -> None:
            variables, solution = self._read
            sol = solution([self.Value(v) for v in variables])
            if not self._out.put(sol, self._stop):
                self.stop_search()

    return Streamer


SEED = Option("seed", int, "For -b cpsat: CP-SAT's random seed.", flag="--cpsat-seed")
PARAMS = Option("params", dict, "Further CpSolver parameters, by name (the library's alone).")


class CpSatBackend(Backend):
    """Options: `workers` (for `first`; CP-SAT enumerates with one worker), `time_limit` in
    seconds, `seed`, and `params`, a dict of further CpSolver parameters."""

    capabilities = formulated(
        WORKERS, SEED, PARAMS, tasks=OPTIMUM_TASKS | {Task.SYMMETRIC}, max_n=MAX_N, exports=frozenset({"cpsat"})
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        seed = self.settings.get("seed")
        if seed is not None and not -(2**31) <= int(seed) < 2**31:  # CP-SAT's random_seed is an int32
            raise BackendError(f"cpsat: the seed must be a 32-bit integer (-2^31 .. 2^31 - 1), got {seed}")

    @classmethod
    def version(cls) -> str | None:
        return package_version("ortools")

    def _plan(self, problem: Problem, task: Task) -> Plan:
        if task in OPTIMUM_TASKS:
            why = "a Boolean a free square, the objective their sum, CP-SAT's portfolio to a proof; with --count, "
            why += "every optimal placement then enumerated on one worker"
            return Plan(task, "cpsat-optimise", why, self._workers())
        if task == Task.SYMMETRIC:
            why = "the squares formulation, each square tied to its images, every solution enumerated on one worker"
            return Plan(task, "cpsat-symmetric", why)
        if task == Task.FIRST:
            return Plan(task, "cpsat-portfolio", "CP-SAT's parallel portfolio decides", self._workers())
        if self.settings.get("workers", 1) != 1:
            raise UnsupportedProblem("cpsat: CP-SAT enumerates with one worker; --workers applies to first")
        how = "fixed search, smallest domain first (the fastest measured)"
        if formulation_of(self.settings, problem) == "squares":
            how = "the squares formulation (a Boolean a square, at most one a line), fixed search"
        return Plan(task, "cpsat-enumerate", how)

    def _workers(self) -> int:
        from ..run.parallel import default_workers

        return self.settings.get("workers") or default_workers()

    def _enumeration(self, problem: Problem) -> tuple[cp_model.CpModel, Read, cp_model.CpSolver]:
        """The model and solver set up to enumerate: one worker, a fixed search, smallest
        domain first (docs/benchmarks.md § CP-SAT's enumeration)."""
        formulation = formulation_of(self.settings, problem)
        model, read = built(problem, formulation)
        if formulation == "permutation":  # (the squares' Booleans are branched on in order)
            model.add_decision_strategy(read[0], cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)
        return model, read, self._solver(enumerate_all=True)

    def _solver(self, enumerate_all: bool) -> cp_model.CpSolver:
        s = cp_model.CpSolver()
        p = s.parameters
        # Ctrl-C is ours: a search stops early only at its time limit or when we stop it.
        p.catch_sigint_signal = False
        if enumerate_all:
            p.enumerate_all_solutions = True
            p.num_workers = 1
            p.search_branching = cp_model.FIXED_SEARCH
        else:
            p.num_workers = self._workers()
        if self.settings.get("time_limit"):
            p.max_time_in_seconds = float(self.settings["time_limit"])
        if self.settings.get("seed") is not None:
            p.random_seed = int(self.settings["seed"])
        for key, value in (self.settings.get("params") or {}).items():
            setattr(p, key, value)
        return s

    def _finish(
        self, run: _Run, status: Any, model: cp_model.CpModel, enumerated: bool, stats: Stats
    ) -> Status | Reason:
        """CP-SAT's status, mapped exhaustively: what is known (SOLVED: a solution, or with
        `enumerated` every solution; NO_SOLUTION), or why it is unknown. `stats` gets the
        solver's conflicts and branches."""
        solver = run.solver
        stats.update(conflicts=solver.num_conflicts, branches=solver.num_branches)
        if status == cp_model.MODEL_INVALID:
            raise BackendError(f"internal error: CP-SAT rejected the model: {model.validate()}")
        if status == cp_model.INFEASIBLE:
            return Status.NO_SOLUTION
        if status == cp_model.OPTIMAL or (status == cp_model.FEASIBLE and not enumerated):
            return Status.SOLVED
        if status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
            if run.stopped:
                return Reason.INTERRUPTED
            # Not stopped by us: by its time limit, unless params set another limit it may have hit.
            other_limits = {k for k in self.settings.get("params") or {} if k.startswith("max_")}
            if self.settings.get("time_limit") and not other_limits:
                return Reason.TIME_LIMIT
            return Reason.SOLVER_LIMIT
        raise BackendError(f"internal error: unexpected CP-SAT status {solver.status_name(status)}")

    def _unknown(self, reason: Reason, partial: int) -> Unknown:
        if reason is Reason.TIME_LIMIT:
            return TimeLimitReached(self.name, float(self.settings["time_limit"]), partial)
        return Unknown(self.name, reason, partial=partial)

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        model, read, solver = self._enumeration(problem)
        out: Handoff[Any] = Handoff(1024)
        stop = threading.Event()
        self._queue = out

        def end_marker() -> None:  # the consumer may have gone away: never block on it
            out.put(_DONE, stop)

        run = _Run(solver, model, _streamer()(read, out, stop), end_marker)
        found = 0
        try:
            while (item := out.get()) is not _DONE:
                found += 1
                yield item
        finally:
            stop.set()
            run.stop()  # at once if the consumer left early; a no-op after the end marker
            status = run.wait()
        result = self._finish(run, status, model, True, stats)
        if isinstance(result, Reason):
            raise self._unknown(result, found)

    def _more_ready(self) -> bool:
        return not self._queue.empty()

    def _first(self, problem: Problem, plan: Plan) -> Outcome:
        model, (variables, solution) = built(problem, formulation_of(self.settings, problem))
        run = _Run(self._solver(enumerate_all=False), model)
        stats: Stats = {}
        result = self._finish(run, run.wait(), model, False, stats)
        if isinstance(result, Reason):
            return Outcome(status=Status.UNKNOWN, count=0, reason=result, stats=stats)
        if result is Status.NO_SOLUTION:
            return Outcome(status=result, count=0, stats=stats)
        return Outcome(status=result, solution=solution([run.solver.value(v) for v in variables]), count=1, stats=stats)

    def _optimum(self, problem: Problem, plan: Plan, independent: bool, count: bool) -> Outcome:
        """The optimisation model (`optimum_model`): CP-SAT proves the optimum (or stops at its
        limit with the best found and its bound); the optimal placements are then enumerated
        with the sum fixed at it."""

        sm, covered = optimum_model(problem, plan.task == Task.DOMINATE)
        model = cp_model.CpModel()
        x = [model.new_bool_var(f"x{r}_{c}") for r, c in sm.squares]
        quiet = plan.task == Task.MAX or independent
        for group in sm.at_most_one if quiet else ():
            model.add_at_most_one(x[i] for i in group)
        for a, b in sm.apart if quiet else ():
            model.add_bool_or([x[a].Not(), x[b].Not()])
        for i in sm.fixed:
            model.add(x[i] == 1)
        for group in covered:
            model.add_bool_or([x[i] for i in group])
        total = sum(x)
        (model.maximize if plan.task == Task.MAX else model.minimize)(total)
        run = _Run(self._solver(enumerate_all=False), model)
        stats: Stats = {}
        status = run.wait()
        result = self._finish(run, status, model, False, stats)
        if result is Status.NO_SOLUTION:
            return Outcome(status=result, count=0, stats=stats)
        solver = run.solver
        found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        value = round(solver.objective_value) if found else None
        bound = solver.best_objective_bound
        bound = int(bound + 1e-6) if plan.task == Task.MAX else -int(-bound + 1e-6)  # (floor, ceiling)
        pieces = [sm.squares[i] for i in range(len(x)) if found and solver.value(x[i])]
        solution = problem.placed(pieces) if found else None
        if status != cp_model.OPTIMAL:
            limited = Reason.TIME_LIMIT if self.settings.get("time_limit") else Reason.SOLVER_LIMIT
            reason = result if isinstance(result, Reason) else Reason.INTERRUPTED if run.stopped else limited
            said = {"value": value, "bound": bound, "solution": solution, "stats": stats}
            return Outcome(status=Status.UNKNOWN, reason=reason, **said)
        assert value is not None
        optimal = None
        if count:
            model.clear_objective()
            model.add(total == value)
            optimal = self._count_models(model)
        return Outcome(status=Status.SOLVED, value=value, bound=value, solution=solution, count=optimal, stats=stats)

    def _count_symmetric(self, problem: Problem, plan: Plan, group: frozenset[str]) -> Outcome:
        """The squares formulation with each square's Boolean equal to its images' (a symmetric
        solution is a union of orbits), its solutions counted: a method apart from our engine's
        orbit search, which it checks."""
        from ..model.squares import squares_model
        from ..model.symmetry import image_square

        model, (variables, _) = build_squares(problem)
        sm = squares_model(problem)
        pieces = {sq: i for i, sq in enumerate(sm.squares)}  # the pieces' Booleans, then the pawns'
        pawns = {sm.squares[i]: len(sm.squares) + k for k, i in enumerate(sm.pawn_at)}
        for g in sorted(group - {"identity"}):
            for index in (pieces, pawns):
                for (r, c), i in index.items():
                    j = index.get(image_square(g, problem.n, r, c, problem.rows))
                    if j is None:  # (a symmetry of the problem maps usable squares onto usable ones)
                        raise BackendError(f"internal error: {g} maps square {(r, c)} off the usable squares")
                    if j > i:
                        model.add(variables[i] == variables[j])
        found = self._count_models(model)
        if found is None:
            limited = Reason.TIME_LIMIT if self.settings.get("time_limit") else Reason.INTERRUPTED
            return Outcome(status=Status.UNKNOWN, reason=limited, stats={})
        return Outcome(status=Status.SOLVED, count=found, stats={})

    def _count_models(self, model: cp_model.CpModel) -> int | None:
        """The assignments of `model` (its variables are the squares), enumerated on one worker."""
        seen = [0]

        class Counter(cp_model.CpSolverSolutionCallback):  # type: ignore[misc,name-defined]
            def on_solution_callback(self) -> None:
                seen[0] += 1

        run = _Run(self._solver(enumerate_all=True), model, Counter())
        result = self._finish(run, run.wait(), model, True, {})
        return seen[0] if not isinstance(result, Reason) else None

    def export(self, problem: Problem, fmt: str, out: TextIO) -> None:
        """The model in protobuf text format (CpModelProto), as `solve_model` or any CP-SAT
        binding reads it; variable q{i} is the column of the piece in row i."""
        if fmt != "cpsat":
            super().export(problem, fmt, out)
        self.plan(problem, Task.FIRST)
        model, _ = built(problem, formulation_of(self.settings, problem))
        out.write(str(model.Proto()))  # a CpModelProto prints as its protobuf text


BACKEND = CpSatBackend
