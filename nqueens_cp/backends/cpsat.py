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
import gc
import os
import queue
import threading
from collections.abc import Iterator
from typing import Any

from ortools.sat.python import cp_model

from ..problem import Problem, Solution
from .base import Backend, BackendError, Outcome, Status, TimeLimitReached


def build_model(problem: Problem) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    n = problem.n
    model = cp_model.CpModel()
    allowed = [problem.allowed_columns(i) for i in range(n)]
    if not all(allowed):
        # A row with no allowed column has no solution. CP-SAT rejects an empty domain as an
        # invalid model, so that row keeps every column and the contradiction is stated instead.
        model.add_bool_or([])
    q = [
        model.new_int_var_from_domain(cp_model.Domain.from_values(cols or range(n)), f"q{i}")
        for i, cols in enumerate(allowed)
    ]
    model.add_all_different(q)
    if problem.rule.diagonals and not problem.torus:
        model.add_all_different(q[i] + i for i in range(n))
        model.add_all_different(q[i] - i for i in range(n))
    if problem.rule.diagonals and problem.torus:  # diagonals wrap: the same sums modulo n
        for sign in (1, -1):
            wrapped = [model.new_int_var(0, n - 1, f"t{sign}_{i}") for i in range(n)]
            for i in range(n):
                model.add_modulo_equality(wrapped[i], q[i] + sign * i + n, n)
            model.add_all_different(wrapped)
    for i in range(n):  # knight moves (superqueens): forbidden column offsets between rows
        for j in range(i + 1, n):
            for d in problem.rule.knight_offsets(j - i, n, problem.torus):
                model.add(q[j] - q[i] != d)
    return model, q


_DONE = object()

#: Searches running right now. A stream abandoned without being closed would leave its solver
#: thread inside C++ at interpreter exit, which aborts the process; so exit stops them first,
#: and collects solvers still held by reference cycles (an interrupted search's traceback)
#: while the interpreter can still destroy them cleanly.
_RUNNING: set[tuple[threading.Event, cp_model.CpSolver, threading.Event]] = set()


@atexit.register
def _stop_running() -> None:
    for stop, solver, done in list(_RUNNING):
        stop.set()
        _wait_stopped(solver, done)
    gc.collect()


def _wait_stopped(solver: cp_model.CpSolver, done: threading.Event) -> None:
    """Stop the search and wait until its thread has left the solver. Waits on an Event set by
    that thread rather than on Thread.join, which we saw return after a Ctrl-C with the thread
    still inside C++ (the process then aborted at exit)."""
    solver.stop_search()
    while not done.wait(0.1):
        solver.stop_search()


def _solve(solver: cp_model.CpSolver, model: cp_model.CpModel, callback: Any = None) -> Any:
    """solver.solve in a helper thread while this thread waits in short, interruptible steps,
    so Ctrl-C raises KeyboardInterrupt here promptly and stops the search."""
    result: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            result["status"] = solver.solve(model, callback)
        except BaseException as exc:  # handed to the waiting thread
            result["error"] = exc
        finally:
            done.set()

    running = (threading.Event(), solver, done)
    _RUNNING.add(running)
    threading.Thread(target=run, name="cpsat-solve", daemon=True).start()
    try:
        while not done.wait(0.1):
            pass
    finally:
        _wait_stopped(solver, done)
        _RUNNING.discard(running)
    if "error" in result:
        raise result["error"]
    return result["status"]


class _Streamer(cp_model.CpSolverSolutionCallback):
    """Pushes each solution into a bounded queue; stops the search when told to."""

    def __init__(self, n: int, out: queue.Queue, stop: threading.Event) -> None:
        super().__init__()
        self._n = n
        self._out = out
        self._stop = stop

    def on_solution_callback(self) -> None:
        sol = tuple(self.SolutionIntegerValue(i) for i in range(self._n))
        while not self._stop.is_set():
            try:
                self._out.put(sol, timeout=0.05)
                return
            except queue.Full:
                continue
        self.stop_search()


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_solution_callback(self) -> None:
        self.count += 1


class CpSatBackend(Backend):
    """Options: `workers` (for `first`; enumeration is single-worker in CP-SAT), `time_limit`
    in seconds, `seed`, and `params`, a dict of further CpSolver parameters."""

    name = "cpsat"
    options = frozenset({"workers", "time_limit", "seed", "params"})

    def _enumeration(self, problem: Problem) -> tuple[cp_model.CpModel, cp_model.CpSolver]:
        """The model and solver set up to enumerate. CP-SAT enumerates with one worker; a fixed
        search, smallest domain first, was the fastest setting measured (README, Benchmarks)."""
        model, q = build_model(problem)
        model.add_decision_strategy(q, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)
        return model, self._solver(enumerate_all=True)

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
            p.num_workers = self.settings.get("workers") or os.cpu_count() or 1
        if self.settings.get("time_limit"):
            p.max_time_in_seconds = float(self.settings["time_limit"])
        if self.settings.get("seed") is not None:
            p.random_seed = int(self.settings["seed"])
        for key, value in (self.settings.get("params") or {}).items():
            setattr(p, key, value)
        return s

    @staticmethod
    def _valid(status: Any, model: cp_model.CpModel) -> Any:
        """The status, unless CP-SAT rejected the model: that is our bug, never a time limit."""
        if status == cp_model.MODEL_INVALID:
            raise BackendError(f"internal error: CP-SAT rejected the model: {model.validate()}")
        return status

    def _unfinished(self, partial: int) -> TimeLimitReached:
        return TimeLimitReached(self.name, float(self.settings.get("time_limit") or 0), partial)

    def solutions(self, problem: Problem) -> Iterator[Solution]:
        model, solver = self._enumeration(problem)
        out: queue.Queue[Any] = queue.Queue(maxsize=1024)
        stop = threading.Event()
        done = threading.Event()
        result: dict[str, Any] = {}

        def run() -> None:
            try:
                result["status"] = solver.solve(model, _Streamer(problem.n, out, stop))
            except BaseException as exc:  # handed to the consumer thread
                result["error"] = exc
            finally:
                done.set()
                # The consumer may have gone away; never block on the end marker.
                while not stop.is_set():
                    try:
                        out.put(_DONE, timeout=0.05)
                        break
                    except queue.Full:
                        continue

        running = (stop, solver, done)
        _RUNNING.add(running)
        threading.Thread(target=run, name="cpsat-enumerate", daemon=True).start()
        found = 0
        try:
            while (item := out.get()) is not _DONE:
                found += 1
                yield item
        finally:
            stop.set()
            _wait_stopped(solver, done)
            _RUNNING.discard(running)
        if "error" in result:
            raise result["error"]
        if self._valid(result["status"], model) not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise self._unfinished(found)

    def count(self, problem: Problem) -> int:
        model, solver = self._enumeration(problem)
        counter = _Counter()
        status = self._valid(_solve(solver, model, counter), model)
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise self._unfinished(counter.count)
        return counter.count

    def first(self, problem: Problem) -> Outcome:
        model, q = build_model(problem)
        solver = self._solver(enumerate_all=False)
        status = self._valid(_solve(solver, model), model)
        seconds = solver.wall_time
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome(Status.SOLVED, tuple(solver.value(v) for v in q), seconds)
        if status == cp_model.INFEASIBLE:
            return Outcome(Status.NO_SOLUTION, None, seconds)
        return Outcome(Status.TIME_LIMIT, None, seconds)
