"""The cpmpy backend: the puzzle written once as a CPMpy model, solved by any solver CPMpy
reaches here: Choco (the reference Java CP solver), Z3 (SMT), Exact (pseudo-Boolean), Pumpkin
(lazy clause generation), OR-tools, python-sat's SAT solvers (`-b cpmpy:choco`, `cpmpy:z3`...;
`pip install 'nqueens_cp[cpmpy]'` brings them all).

The model reads like the math, from the problem's own line model (`Problem.line_model`): a
variable per row, its column; the columns all different; each family of parallel lines all
different along its key (a*c - b*r within a residue class of rows mod a; (c - b*r) mod g on a
torus), which is exact because a line meets a residue class of rows at most once a row; the
leaps (and wrapped lines that skip rows) as forbidden column differences between two rows;
a blocked square as q[r] != c, a pre-placed piece as q[r] == c.

Every search runs in a forked child process (`run.forked`) that sends each solution as it is
found: a solver's call cannot be stopped from Python, so the deadline, Ctrl-C and SIGTERM kill
the child (no sub-solver's own limit is trusted to say "all"), and solutions stream as the
solver hands them to CPMpy. Counting enumerates (`solveAll`): natively where the solver can,
with blocking clauses where CPMpy adds them. CPMpy's Choco interface asks Choco for all the
solutions at once, so a Choco enumeration stopped by a limit knows of none (a lower bound of 0);
the other sub-solvers report each solution as they find it.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

from ..model.problem import Problem, Solution
from ..model.squares import optimum_model
from ..run.forked import ChildFailed, emitted
from .base import OPTIMUM_TASKS, Backend, BackendError, Option, Outcome, Plan, Reason, Stats, Status, Task, Unknown
from .formulations import formulated, formulation_of

#: The sub-solvers, best first for `-b cpmpy` alone: Choco is the reference CP solver and the
#: fastest here on first solutions (60 queens in 0.01 s) and counts, and it is independent of
#: the cpsat backend's OR-tools; Exact is last (no 60-queens solution within 30 s).
PREFERRED = ("choco", "ortools", "pumpkin", "z3", "exact")

#: The wheel that brings each sub-solver, for the message when it is missing.
WHEELS = {"choco": "pychoco", "z3": "z3-solver", "exact": "exact", "pumpkin": "pumpkin-solver", "ortools": "ortools"}

#: The largest board modelled: the forbidden pairs grow as rows^2 for leaping pieces.
MAX_N = 1000


#: CPMpy's solvers that never answer what this backend asks (every solution, one solution).
NEVER = {"rc2": "a MaxSAT solver: it answers optimisation problems alone, and none of these tasks is one"}


@functools.cache
def _lookup() -> tuple[tuple[str, ...], dict[str, str]]:
    """(the sub-solvers that run here, {a solver CPMpy lists that does not: why}): CPMpy's own
    list, each solver asked alone (a broken optional package of one raised for them all), less
    those that cannot run this model: PySAT without its pseudo-Boolean encoder (PBLib), which
    every board's AllDifferent needs, and those in NEVER."""
    from cpmpy import SolverLookup

    runs: list[str] = []
    why: dict[str, str] = {}
    for name, solver in SolverLookup.base_solvers():
        try:
            if not solver.supported():
                continue
        except Exception as exc:  # an optional package of the solver's that is broken
            why[name] = f"its package fails to load ({type(exc).__name__}: {str(exc)[:80]})"
            continue
        if name in NEVER:
            why[name] = NEVER[name]
            continue
        if name == "pysat" and not getattr(solver, "_pb", None):
            why[name] = "PySAT needs its pseudo-Boolean encoder (PBLib): pip install 'nqueens_cp[cpmpy]'"
            continue
        runs.append(name)
        if hasattr(solver, "solvernames"):
            with contextlib.suppress(Exception):  # the solver runs, its own sub-solvers unnamed
                runs += [f"{name}:{sub}" for sub in solver.solvernames(installed=True)]
    return tuple(runs), why


def installed() -> tuple[str, ...]:
    """The sub-solvers CPMpy runs here for this backend (`_lookup`)."""
    return _lookup()[0]


def unavailable() -> dict[str, str]:
    """CPMpy's solvers found here that do not run this backend's model, each with the reason."""
    return _lookup()[1]


def default_solver() -> str | None:
    return next((s for s in PREFERRED if s in installed()), None)


def model(problem: Problem) -> tuple[Any, Any]:
    """(the CPMpy model, the row variables q): q[r] is the column of the piece in row r."""
    import cpmpy as cp

    n, m = problem.n, problem.rows
    q = cp.cpm_array([cp.intvar(0, n - 1, name=f"q{r}") for r in range(m)])  # an array even for m = 1
    rows = list(range(m))
    constraints: list[Any] = [cp.AllDifferent(q)]
    lines, forbidden = problem.line_model
    for a, b, g in lines:
        if g:  # a torus: a line's squares share (c - b*r) mod g; shifted to stay non-negative
            shift = g * (abs(b) * m // g + 1)
            constraints.append(cp.AllDifferent([(q[r] - b * r + shift) % g for r in rows]))
        else:
            for k in range(a):
                keys = [a * q[r] - b * r for r in rows if r % a == k]
                if len(keys) > 1:
                    constraints.append(cp.AllDifferent(keys))
    by_distance: dict[int, list[int]] = {}
    for dr, dc in forbidden:
        by_distance.setdefault(dr, []).append(dc)
    for dr, offsets in by_distance.items():
        for r in range(m - dr):
            constraints += [q[r + dr] - q[r] != dc for dc in offsets]
    for r, c in problem.blocked:
        constraints.append(q[r] != c)
    for r, c in problem.fixed:
        constraints.append(q[r] == c)
    return cp.Model(constraints), q


def _read_q(built: Any, q: Any) -> tuple[Any, Callable[[], Solution]]:
    """The permutation's model and what its stream reads: q's values."""
    return built, lambda: tuple(int(v) for v in q.value())


def squares(problem: Problem) -> tuple[Any, Callable[[], Solution]]:
    """The squares formulation (`model/squares.py`) in CPMpy: a Boolean a usable square (and
    one a square a pawn may take), each row's sum 1, each line's at most 1, no two a leap
    apart, the pre-placed ones 1, the pieces (and pawns) counted, two pieces a pawn must
    separate a clause of the pawns between them; with one piece a row, q[r], row r's column,
    tied to its row's Booleans. The stream reads the Booleans (`SquaresModel.solution`)."""
    import cpmpy as cp

    from ..model.squares import squares_model

    sm = squares_model(problem)
    x = cp.boolvar(shape=(len(sm.squares),), name="x") if sm.squares else []
    y = cp.boolvar(shape=(len(sm.pawn_at),), name="p") if sm.pawn_at else []
    rows = 0 if problem.anywhere else problem.rows
    q = cp.cpm_array([cp.intvar(0, problem.n - 1, name=f"q{r}") for r in range(rows)]) if rows else []
    constraints: list[Any] = [~x[i] | ~y[k] for k, i in enumerate(sm.pawn_at)]
    constraints += [cp.sum(y) == sm.pawns] if sm.pawn_at else []
    constraints += [cp.any([~x[a], ~x[b], *(y[k] for k in between)]) for a, b, between in sm.separated]
    constraints += [cp.sum(x) == sm.pieces] if problem.anywhere and sm.squares else []
    for group in sm.exactly_one:
        constraints.append(cp.sum([x[i] for i in group]) == 1 if group else cp.BoolVal(False))
    constraints += [cp.sum([x[i] for i in group]) <= 1 for group in sm.at_most_one]
    constraints += [~x[a] | ~x[b] for a, b in sm.apart]
    constraints += [x[i] == 1 for i in sm.fixed]
    constraints += [cp.sum([x[i] for i in group]) == 1 if group else cp.BoolVal(False) for group in sm.regions]
    for r in range(rows):
        row = [i for i, (rr, _) in enumerate(sm.squares) if rr == r]
        if row:
            constraints.append(q[r] == cp.sum([sm.squares[i][1] * x[i] for i in row]))

    def solution() -> Solution:
        ones = [i for i in range(len(sm.squares)) if x[i].value()]
        return sm.solution(problem, ones, [k for k in range(len(sm.pawn_at)) if y[k].value()])

    return cp.Model(constraints), solution


def _solutions_in_child(problem: Problem, solver: str, limit: int | None, emit: Any, formulation: str) -> None:
    """In the child process, on its main thread: each solution as the solver finds it, then
    ("end", CPMpy's exit status)."""
    import warnings

    warnings.simplefilter("ignore")  # CPMpy's notes on enumeration would reach the user's stderr
    from cpmpy import SolverLookup

    built, solution = squares(problem) if formulation == "squares" else _read_q(*model(problem))
    s = SolverLookup.get(solver, built)
    s.solveAll(display=lambda: emit(solution()), solution_limit=limit)
    emit(("end", s.status().exitstatus.name))


#: CPMpy's exit statuses after an enumeration that was not stopped from outside, mapped
#: exhaustively: the search went to its end, or it stopped on its own (a solver's own limit).
_COMPLETE = {"OPTIMAL", "FEASIBLE", "UNSATISFIABLE"}
_STOPPED = {"UNKNOWN"}
_FAILED = {"ERROR", "NOT_RUN"}


#: Named with the backend (`-b cpmpy:choco`), so it has no flag of its own.
SOLVER = Option("solver", str, "The solver CPMpy runs: choco, ortools, z3, exact, pumpkin, pysat:NAME...")


class CpmpyBackend(Backend):
    """Options: `solver`, a sub-solver CPMpy reaches (choco, ortools, z3, exact, pumpkin,
    pysat:NAME...; default the first of PREFERRED installed), and `time_limit` in seconds."""

    capabilities = formulated(SOLVER, tasks=OPTIMUM_TASKS, max_n=MAX_N, subsolver="solver")

    @classmethod
    def missing(cls) -> str | None:
        try:
            import cpmpy  # noqa: F401
        except ImportError:
            return "the cpmpy backend needs CPMpy: pip install 'nqueens_cp[cpmpy]'"
        if default_solver() is None:
            return "the cpmpy backend finds no solver: pip install 'nqueens_cp[cpmpy]'"
        return None

    @classmethod
    def version(cls) -> str | None:
        try:
            import cpmpy
            from cpmpy import SolverLookup
        except ImportError:
            return None
        solvers = []
        for name in PREFERRED:
            if name in installed():
                solvers.append(f"{name} {SolverLookup.lookup(name).version()}")
        return f"CPMpy {cpmpy.__version__} ({', '.join(solvers)})"

    @classmethod
    def subsolvers(cls) -> dict[str, str]:
        if cls.missing():
            return {}
        from cpmpy import SolverLookup

        found = {}
        for name in installed():
            try:
                found[name] = str(SolverLookup.lookup(name).version() or "")
            except Exception:  # a solver that cannot say its version still runs
                found[name] = ""
        return found

    @classmethod
    def default_subsolver(cls) -> str | None:
        return default_solver() if cls.missing() is None else None

    @classmethod
    def state(cls) -> dict[str, str]:
        if cls.missing() or not unavailable():
            return {}
        return {"unavailable": "; ".join(f"{name} ({why})" for name, why in sorted(unavailable().items()))}

    def takes_subsolver(self, name: str) -> bool:
        return name in installed()

    def subsolver_refused(self, name: str) -> str:
        """Installed or not, and how to install it; a sub-solver's own sub-solver by its name."""
        from cpmpy import SolverLookup

        base, _, inner = name.partition(":")
        if base in unavailable():
            return f"cpmpy: {base} does not run here: {unavailable()[base]}"
        if inner and base in installed():  # `-b cpmpy:choco:z3` said choco was not installed
            theirs = [s.partition(":")[2] for s in installed() if s.startswith(base + ":")]
            takes = f"its own: {', '.join(theirs)}" if theirs else f"{base} takes none"
            return f"cpmpy: {base} has no sub-solver {inner!r} ({takes})"
        if base in {b for b, _ in SolverLookup.base_solvers()}:
            how = f"pip install {WHEELS[base]}" if base in WHEELS else "install its package (see CPMpy's docs)"
            return f"cpmpy: the solver {name!r} is not installed here: {how}"
        known = ", ".join(s for s in installed() if ":" not in s)
        return f"cpmpy: no solver {name!r} (installed: {known}; or pysat:NAME)"

    def _plan(self, problem: Problem, task: Task) -> Plan:
        name = self.subsolver
        how = "the first solution" if task == Task.FIRST else "every solution (solveAll), streamed"
        if task in OPTIMUM_TASKS:
            how = "the objective their sum, to the solver's proof; the optimal ones then enumerated (solveAll)"
        named = self.settings.get("solver") is not None
        chosen = "" if named else f", the best installed ({', '.join(PREFERRED)} in that order)"
        return Plan(task, f"cpmpy-{name}", f"the CPMpy model solved by {name}{chosen}: {how}, in a killable child")

    def _limited(self, problem: Problem, limit: int | None, stats: Stats) -> Iterator[Solution]:
        self._checked_subsolver()
        name = self.subsolver
        assert name is not None
        deadline = self.deadline()
        found = 0
        try:
            formulation = formulation_of(self.settings, problem)
            run = functools.partial(_solutions_in_child, problem, name, limit, formulation=formulation)
            for item in emitted(run, deadline.check):
                if isinstance(item[0], str):  # ("end", status)
                    status = item[1]
                    if status in _COMPLETE:
                        return
                    if status in _STOPPED:
                        raise Unknown(self.label, Reason.SOLVER_LIMIT, partial=found)
                    if status in _FAILED:
                        raise BackendError(f"cpmpy: {name} ended with status {status}")
                    raise BackendError(f"cpmpy: {name} ended with an unknown status {status}")
                found += 1
                stats["solutions"] = found
                yield item
        except ChildFailed as exc:
            raise BackendError(f"cpmpy: {name}: {exc}") from None


    def _optimum(self, problem: Problem, plan: Plan, independent: bool, count: bool) -> Outcome:
        """The optimisation model (`optimum_model`) in CPMpy, solved in a killable child: the
        best it proves (or finds before the deadline), then the optimal placements counted."""

        name = self.subsolver
        assert name is not None
        deadline = self.deadline()
        best: tuple[int, list[tuple[int, int]]] | None = None
        optimal: int | None = None
        proved = False
        run = functools.partial(_optimum_in_child, problem, name, plan.task.value, independent, count)
        try:
            for kind, status, value, pieces in emitted(run, deadline.check):
                if kind == "best":
                    best, proved = (value, [tuple(sq) for sq in pieces]), status == "OPTIMAL"
                elif kind == "count":
                    optimal = value if status in _COMPLETE else None
                elif status in _FAILED:
                    raise BackendError(f"cpmpy: {name} ended with status {status}")
        except ChildFailed as exc:
            raise BackendError(f"cpmpy: {name}: {exc}") from None
        except Unknown as exc:
            said = {} if best is None else self._said(problem, best)
            return Outcome(status=Status.UNKNOWN, reason=exc.reason, **said)
        if best is None:
            return Outcome(status=Status.NO_SOLUTION, count=0)
        said = self._said(problem, best)
        if not proved or (count and optimal is None):
            return Outcome(status=Status.UNKNOWN, reason=Reason.SOLVER_LIMIT, **said)
        return Outcome(status=Status.SOLVED, bound=best[0], count=optimal, **said)

    @staticmethod
    def _said(problem: Problem, best: tuple[int, list[tuple[int, int]]]) -> dict[str, Any]:

        return {"value": best[0], "solution": problem.placed(best[1])}


def _optimum_in_child(problem: Problem, solver: str, task: str, independent: bool, count: bool, emit: Any) -> None:
    """In the child: ("best", status, value, squares) once solved, ("count", status, optimal
    placements, []) where asked and proved, then ("end", status, None, [])."""
    import warnings

    warnings.simplefilter("ignore")
    import cpmpy as cp
    from cpmpy import SolverLookup

    sm, covered = optimum_model(problem, task == "dominate")
    x = cp.boolvar(shape=(len(sm.squares),), name="x")
    rules: list[Any] = [x[i] == 1 for i in sm.fixed] + [cp.any([x[i] for i in group]) for group in covered]
    if task == "max" or independent:
        rules += [cp.sum([x[i] for i in group]) <= 1 for group in sm.at_most_one]
        rules += [~x[a] | ~x[b] for a, b in sm.apart]
    total = cp.sum(x)
    built = cp.Model(rules)
    (built.maximize if task == "max" else built.minimize)(total)
    s = SolverLookup.get(solver, built)
    found = s.solve()
    status = s.status().exitstatus.name
    if found:
        value = round(s.objective_value())
        emit(("best", status, value, [sm.squares[i] for i in range(len(sm.squares)) if x[i].value()]))
        if count and status == "OPTIMAL":
            every = SolverLookup.get(solver, cp.Model([*rules, total == value]))
            many = every.solveAll()
            emit(("count", every.status().exitstatus.name, many, []))
    emit(("end", status, None, []))


BACKEND = CpmpyBackend
