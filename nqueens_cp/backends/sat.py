"""The sat backend: the Problem as CNF, solved through python-sat (CaDiCaL by default).

A Boolean per usable square (blocked squares have none; a pre-placed piece is a unit clause).
Exactly one per row and per column, at most one per diagonal (wrapped on a torus), and no two
pieces a knight's move apart for superqueens. At-most-one is the sequential counter (Sinz 2005):
3k clauses and k-1 auxiliary variables for k literals, linear where the pairwise encoding is
quadratic (a 64-square diagonal would take 2,016 clauses), and it propagates as well as the
pairwise one. Knight pairs stay binary clauses.

`solve` and `count` enumerate with blocking clauses (each model found is forbidden), which suits
modest counts; `first` is one SAT call. A search is stopped by the solver's own interrupt, called
by the watcher thread on Ctrl-C or at the deadline. Note: python-sat builds Lingeling with its
simplifications off, so it is not Lingeling as the literature ran it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TextIO

from ..io.dimacs import SquaresVariables, square_variables, write_cnf
from ..model.problem import Problem, Solution
from ..model.squares import SquaresModel, optimum_model, squares_model
from ..run.forked import ChildFailed, streamed
from . import satbinary
from .base import (
    OPTIMUM_TASKS,
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
from .formulations import SQUARES_RULES, formulated, formulation_of
from .satbinary import Read

#: The largest board modelled: n^2 variables and O(n^2) clauses.
MAX_N = 500

#: The solver used when none is named.
DEFAULT_SOLVER = "cadical195"


@functools.cache
def _solvers() -> tuple[str, ...]:
    """The python-sat solvers this build can run: SolverNames also lists some that the wheel
    was built without (cryptosat, minisatgh), which fail when made."""
    from pysat.solvers import Solver, SolverNames

    runnable = []
    for name in sorted(k for k in vars(SolverNames) if not k.startswith("_")):
        try:
            with Solver(name=name):
                runnable.append(name)
        except Exception:  # python-sat raises NotImplementedError, ImportError...
            continue
    return tuple(runnable)


@functools.cache
def _interruptible(name: str) -> bool:
    """Whether python-sat can stop this solver mid-call (its CaDiCaL builds cannot). A property
    of the solver, probed once: every plan and every search asks."""
    from pysat.solvers import Solver

    with Solver(name=name) as probe:
        try:
            probe.clear_interrupt()
        except NotImplementedError:
            return False
    return True


@functools.cache
def _enumerates(name: str) -> bool:
    """Whether the solver takes clauses after a call (Kissat does not: it decides only)."""
    from pysat.solvers import Solver

    with Solver(name=name, bootstrap_with=[[1, 2]]) as probe:
        try:
            next(iter(probe.enum_models()), None)
        except NotImplementedError:
            return False
    return True


def lines(problem: Problem) -> list[list[tuple[int, int]]]:
    """The lines that hold at most one piece besides rows and columns, as lists of squares: one
    family per slide direction (a, b) of the piece, a line being the squares that share
    a*c - b*r and r mod a (c - b*r mod gcd(rows*b, n) on a torus: n on a square one). Wrapped
    lines that skip rows (a > 1 on a torus) are not listed: `encode` states them pair by pair."""
    n, m = problem.n, problem.rows
    found: dict[tuple[object, ...], list[tuple[int, int]]] = {}
    for a, b, g in problem.line_model[0]:
        for r in range(m):
            for c in range(n):
                key = (c - b * r) % g if g else (a * c - b * r, r % a)
                found.setdefault((a, b, key), []).append((r, c))
    return [sq for sq in found.values() if len(sq) > 1]


class Cnf(NamedTuple):
    clauses: list[list[int]]
    nv: int  # the highest variable


def read_squares(problem: Problem, squares: list[tuple[int, int]], pawn_at: tuple[int, ...] = ()) -> Read:
    """The Read of a CNF whose variable i + 1 is a piece on `squares[i]` and whose next ones are
    a pawn on `squares[pawn_at[k]]` (`SquaresVariables`, as the export's header names them)."""
    variables = SquaresVariables(squares, pawn_at)
    return Read(variables.width, lambda true: problem.encode(*variables.layout(true)))


def at_most_one(lits: list[int], top: int, clauses: list[list[int]]) -> int:
    """Sinz's sequential counter for at most one of `lits`, appended to `clauses` with the
    auxiliary variables top+1 .. top+k-1 (s_i: one of the first i literals is true); returns the
    new top variable. 3k-4 clauses (one for k = 2), as python-sat's CardEnc seqcounter writes, built here
    as plain lists because its CNF objects cost as much as the encoding itself."""
    k = len(lits)
    if k < 2:
        return top
    if k == 2:  # one binary clause says it without a counter
        clauses.append([-lits[0], -lits[1]])
        return top
    s = list(range(top + 1, top + k))
    clauses.append([-lits[0], s[0]])
    for i in range(1, k - 1):
        x = lits[i]
        clauses += ([-x, s[i]], [-s[i - 1], s[i]], [-x, -s[i - 1]])
    clauses.append([-lits[-1], -s[-1]])
    return top + k - 1


AtMostOne = Callable[[list[int], int, list[list[int]]], int]
#: The pairwise export's size is checked before it is built: a clause per pair of squares on a
#: line is about 1.7 n^3 clauses for queens (50 M near n = 310).
MAX_PAIRWISE_CLAUSES = 50_000_000


def pairwise_clauses(problem: Problem) -> int:
    """How many clauses the pairwise at-most-ones of `problem` take (rows, columns, lines)."""
    sizes = [len(problem.allowed_columns(r)) for r in range(problem.rows)]
    sizes += [problem.rows] * problem.n  # columns (an upper bound where squares are blocked)
    sizes += [len(line) for line in lines(problem)]
    return sum(k * (k - 1) // 2 for k in sizes)


def pairwise(lits: list[int], top: int, clauses: list[list[int]]) -> int:
    """At most one of `lits` as a clause per pair: no auxiliary variable, so each model of the
    CNF is one placement (an export for solvers that enumerate models), at k(k-1)/2 clauses."""
    clauses += ([-x, -y] for i, x in enumerate(lits) for y in lits[i + 1 :])
    return top


#: The CNF exports: the encoding of at most one per line, and how the file's header names it.
ENCODINGS = {
    "dimacs": (at_most_one, "sequential counter (Sinz 2005)"),
    "dimacs-pairwise": (pairwise, "pairwise"),
}


def read_of(problem: Problem, var: dict[tuple[int, int], int]) -> Read:
    """The Read of the permutation's CNF (`encode`): its squares numbered 1.. in row order."""
    return read_squares(problem, sorted(var, key=var.__getitem__))


def encode(problem: Problem, amo: AtMostOne = at_most_one) -> tuple[Cnf, dict[tuple[int, int], int]]:
    """(CNF, variable of each usable square). Variables 1..k are the squares, row by row; `amo`
    says at most one of a line's squares."""
    n, m = problem.n, problem.rows
    var = square_variables(problem)
    top = len(var)
    clauses: list[list[int]] = []

    def one_at_most(squares: list[tuple[int, int]]) -> None:
        nonlocal top
        top = amo([var[sq] for sq in squares if sq in var], top, clauses)

    for r in range(m):
        row = [(r, c) for c in range(n)]
        clauses.append([var[sq] for sq in row if sq in var])  # at least one (empty: no solution)
        one_at_most(row)
    for c in range(n):
        col = [(r, c) for r in range(m)]
        if m == n:  # n pieces in n columns fill every column (a redundant clause that helps)
            clauses.append([var[sq] for sq in col if sq in var])
        one_at_most(col)
    for line in lines(problem):
        one_at_most(line)
    apart: dict[int, list[int]] = {}  # leapers (and wrapped lines that skip rows): binary clauses
    for dr, dc in problem.line_model[1]:
        apart.setdefault(dr, []).append(dc)
    for (r, c), v in var.items():
        for dr in range(1, m - r):
            for dc in apart.get(dr, ()):
                w = var.get((r + dr, c + dc))
                if w is not None:
                    clauses.append([-v, -w])
    clauses += [[var[sq]] for sq in problem.fixed if sq in var]
    if problem.contradiction:  # pre-placed pieces no placement can hold (two in a row keep one square)
        top += 1
        clauses += [[top], [-top]]
    return Cnf(clauses, top), var


def encode_squares(problem: Problem, amo: AtMostOne = at_most_one, sm: SquaresModel | None = None) -> tuple[Cnf, Read]:
    """The squares formulation (`model/squares.py`) as CNF: variable i + 1 is the model's
    square i, and after them a variable a square a pawn may take; each row's group at least one
    and at most one, each line's at most one (`amo`), each leap a binary clause, each pre-placed
    piece a unit clause (the pieces, one a row, are then as many as the rows); pieces anywhere
    and pawns take cardinality encodings (python-sat's sequential counter), a pawn and a piece
    on one square a binary clause, and two pieces a pawn must separate a clause of the pawns
    between them. `sm`: the problem's squares model, where the caller has made it already."""
    from pysat.card import CardEnc, EncType

    sm = squares_model(problem) if sm is None else sm
    size = len(sm.squares)
    top = size + len(sm.pawn_at)
    clauses: list[list[int]] = []
    pawn = [size + 1 + k for k in range(len(sm.pawn_at))]
    clauses += [[-(i + 1), -pawn[k]] for k, i in enumerate(sm.pawn_at)]
    clauses += [[-(a + 1), -(b + 1), *(pawn[k] for k in between)] for a, b, between in sm.separated]
    counted = [(list(range(1, size + 1)), sm.pieces)] if problem.anywhere else []
    counted += [(pawn, sm.pawns)] if pawn else []
    for lits, k in counted:
        card = CardEnc.equals(lits=lits, bound=k, top_id=top, encoding=EncType.seqcounter)
        clauses += card.clauses
        top = max(top, card.nv)
    for group in sm.exactly_one:
        clauses.append([i + 1 for i in group])  # (an empty row: an empty clause, no solution)
        top = amo([i + 1 for i in group], top, clauses)
    for group in sm.at_most_one:
        top = amo([i + 1 for i in group], top, clauses)
    clauses += [[-(a + 1), -(b + 1)] for a, b in sm.apart]
    clauses += [[i + 1] for i in sm.fixed]
    for group in sm.regions:  # exactly one in each region
        clauses.append([i + 1 for i in group])
        top = amo([i + 1 for i in group], top, clauses)
    return Cnf(clauses, top), read_squares(problem, list(sm.squares), sm.pawn_at)


def _enumerate(solver: Any, read: Read, limit: int | None, stopped: Callable[[], bool]) -> Iterator[Solution | None]:
    """The models of `solver` as solutions (`read`), each forbidden once found (its true
    decision variables: the pieces are as many in every solution), then None if a call was
    stopped (`stopped()` says so) before the end."""
    interruptible = stopped is not _never
    found = 0
    while limit is None or found < limit:
        answer = None if stopped() else _solve(solver, interruptible)
        if answer is None:
            yield None
            return
        if not answer:
            return
        model = [lit for lit in solver.get_model() if 0 < lit <= read.width]
        found += 1
        yield read.solution(model)
        if found == limit:  # no clause after the last call: Kissat takes none
            return
        solver.add_clause([-lit for lit in model])


def _never() -> bool:
    return False


def _child_models(name: str, clauses: list[list[int]], read: Read, limit: int | None) -> Iterator[Solution]:
    """The models as placements, found in the child process `run.forked` starts (the parent
    kills it at the deadline and on a stop)."""
    from pysat.solvers import Solver

    with Solver(name=name, bootstrap_with=clauses) as solver:
        for placed in _enumerate(solver, read, limit, _never):
            assert placed is not None  # never stopped from inside: the parent kills it
            yield placed


def _solve(solver: Any, interruptible: bool) -> bool | None:
    """One SAT call: True, False, or None when interrupted."""
    try:
        return solver.solve_limited(expect_interrupt=True) if interruptible else solver.solve()
    except Exception as exc:
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise


#: The solver max and dominate run where the default cannot be stopped mid-call.
OPTIMISER = "glucose4"


class _Stopped(Exception):
    """A solver call stopped at the deadline or by a signal."""


SAT_SOLVER = Option(
    "sat_solver",
    str,
    "For -b sat: the python-sat solver (default cadical195; its lingeling has simplification off), "
    'or a solver binary: cmd:"cadical -q {cnf}"; or -b sat:NAME.',
    flag="--sat-solver",
)


class SatBackend(Backend):
    """Options: `time_limit` in seconds, and `sat_solver`, a python-sat solver name
    (cadical195 by default; glucose4, lingeling, minisat22, ...)."""

    capabilities = formulated(
        SAT_SOLVER, tasks=OPTIMUM_TASKS, max_n=MAX_N, exports=frozenset(ENCODINGS), subsolver="sat_solver"
    )

    @classmethod
    def missing(cls) -> str | None:
        try:
            import pysat  # noqa: F401
        except ImportError:
            return "the sat backend needs python-sat: pip install 'nqueens_cp[sat]'"
        return None

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        given = options.get("sat_solver")
        #: The words of a solver binary (`cmd:...`), or None for a python-sat solver.
        binary = isinstance(given, str) and given.startswith(satbinary.PREFIX)
        self.binary = satbinary.command(given) if binary else None

    @classmethod
    def version(cls) -> str | None:
        return package_version("python-sat")

    @classmethod
    def subsolvers(cls) -> dict[str, str]:
        if cls.missing():
            return {}
        version = package_version("python-sat") or ""
        return dict.fromkeys(_solvers(), version.removeprefix("python-sat ").strip())

    @classmethod
    def default_subsolver(cls) -> str | None:
        return DEFAULT_SOLVER

    def takes_subsolver(self, name: str) -> bool:
        return self.binary is not None or name in self.subsolvers()

    def subsolver_refused(self, name: str) -> str:
        known = ", ".join(self.subsolvers())
        return f"unknown SAT solver {name!r} (known: {known}; or cmd:PROGRAM for a binary)"

    @property
    def solver_name(self) -> str:
        return self.subsolver or DEFAULT_SOLVER

    @property
    def label(self) -> str:
        if self.binary is not None:
            return f"sat (cmd:{os.path.basename(self.binary[0])})"
        return super().label

    def _plan(self, problem: Problem, task: Task) -> Plan:
        if task in OPTIMUM_TASKS:
            name = self._optimiser()
            how = "k from the pre-placed pieces up" if task == Task.DOMINATE else "one more than the best found"
            why = f"one {name} solver, a totalizer's outputs as assumptions: {how}, until refused"
            return Plan(task, f"sat-{name}-totalizer", why)
        if self.binary is not None:
            why = "the binary on the DIMACS file, under a guardian that ends its whole tree at the limit"
            if task != Task.FIRST:
                why += "; models enumerated by calling it again with each one forbidden"
            return Plan(task, f"sat-cmd:{os.path.basename(self.binary[0])}", why)
        if task != Task.FIRST and not _enumerates(self.solver_name):
            raise UnsupportedProblem(
                f"sat: {self.solver_name} is not incremental: it decides (first) but cannot enumerate "
                "solutions by blocking clauses; use cadical195 or glucose4 for count and solve"
            )
        where = ", in a child process (python-sat cannot interrupt this solver)"
        if _interruptible(self.solver_name):
            where = ""
        if formulation_of(self.settings, problem) == "squares":
            where = f", the squares formulation{where}"
        if task == Task.FIRST:
            why = f"one SAT call on the CNF (sequential-counter at-most-one){where}"
            return Plan(task, f"sat-{self.solver_name}", why)
        return Plan(task, f"sat-{self.solver_name}", f"models enumerated with blocking clauses{where}")

    def _optimiser(self) -> str:
        """The solver an optimisation runs: one python-sat can stop mid-call (its calls under
        assumptions are watched here, not in a child process), glucose4 where none is named."""
        if self.binary is not None:
            raise UnsupportedProblem("sat: max and dominate run a python-sat solver, not a binary")
        named = self.settings.get("sat_solver")
        name = str(named) if named else self.solver_name
        if _interruptible(name):
            return name
        if named:
            raise UnsupportedProblem(
                f"sat: max and dominate run a solver python-sat can stop (glucose4...), not {name}"
            )
        return OPTIMISER

    def _optimum(self, problem: Problem, plan: Plan, independent: bool, count: bool) -> Outcome:
        """The optimisation model (`optimum_model`) as CNF and totalizers over the squares and
        their negations (python-sat's ITotalizer, whose outputs bound the sum from above and
        below by assumptions, so one solver serves every bound): dominate asks for k pieces at
        most, k from the pre-placed ones up, each refusal a bound proved; max asks for one piece
        more than the best found until refused. The optimal placements are then enumerated with
        the sum fixed, each forbidden once found."""
        from pysat.card import ITotalizer
        from pysat.solvers import Solver

        from .watch import watched

        sm, covered = optimum_model(problem, plan.task == Task.DOMINATE)
        size = len(sm.squares)
        clauses: list[list[int]] = []
        top = size
        if plan.task == Task.MAX or independent:
            for group in sm.at_most_one:
                top = at_most_one([i + 1 for i in group], top, clauses)
            clauses += [[-(a + 1), -(b + 1)] for a, b in sm.apart]
        clauses += [[i + 1] for i in sm.fixed] + [[i + 1 for i in group] for group in covered]
        # a totalizer's output k says "more than k" only one way (the sum forces it true): at most
        # k of the squares is its output denied, at least k is at most size - k of their negations
        over = ITotalizer(lits=list(range(1, size + 1)), ubound=size, top_id=top)
        under = ITotalizer(lits=[-v for v in range(1, size + 1)], ubound=size, top_id=over.top_id)
        at_most = lambda k: [-over.rhs[k]] if k < size else []  # noqa: E731
        at_least = lambda k: [-under.rhs[size - k]] if k > 0 else []  # noqa: E731
        deadline = self.deadline()
        best: tuple[int, list[int]] | None = None
        bound = size if plan.task == Task.MAX else len(sm.fixed)
        stats: Stats = {}
        clauses += [*over.cnf.clauses, *under.cnf.clauses]
        with (
            Solver(name=self._optimiser(), bootstrap_with=clauses) as solver,
            watched(deadline, solver.interrupt) as stop,
        ):

            def call(assumptions: list[int]) -> list[int] | None:
                """The squares of a model under `assumptions`, None where there is none; raises
                _Stopped at the deadline or on a signal."""
                answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
                if answer is None or stop[0]:
                    raise _Stopped
                return [v for v in solver.get_model() if 0 < v <= size] if answer else None

            try:
                if plan.task == Task.DOMINATE:
                    for k in range(len(sm.fixed), size + 1):
                        found = call(at_most(k))
                        if found is not None:
                            best, bound = (len(found), found), len(found)
                            break
                        bound = k + 1
                else:
                    found = call([])
                    while found is not None:
                        best = (len(found), found)
                        found = call(at_least(len(found) + 1)) if len(found) < size else None
                    if best is not None:
                        bound = best[0]
                optimal = None
                if count and best is not None and best[0] == bound:
                    optimal = 0
                    fixed = at_most(best[0]) + at_least(best[0])
                    while (found := call(fixed)) is not None:
                        optimal += 1
                        solver.add_clause([-v for v in found])
            except _Stopped:
                reason = Reason.TIME_LIMIT if deadline.expired() else Reason.INTERRUPTED
                said = self._said(problem, sm, best)
                return Outcome(status=Status.UNKNOWN, reason=reason, bound=bound, stats=stats, **said)
        if best is None:
            return Outcome(status=Status.NO_SOLUTION, count=0, stats=stats)
        return Outcome(status=Status.SOLVED, bound=bound, count=optimal, stats=stats, **self._said(problem, sm, best))

    @staticmethod
    def _said(problem: Problem, sm: Any, best: tuple[int, list[int]] | None) -> dict[str, Any]:
        """The value and the solution of the best model found (none: neither)."""
        if best is None:
            return {"value": None, "solution": None}

        pieces = [sm.squares[v - 1] for v in best[1]]
        return {"value": best[0], "solution": problem.placed(pieces)}

    def _limited(self, problem: Problem, limit: int | None, stats: Stats) -> Iterator[Solution]:
        """The solutions, each forbidden once found; raises Unknown when stopped. A solver that
        python-sat can interrupt runs here, watched; any other runs in a child process that is
        killed at the deadline, on Ctrl-C and on SIGTERM (it would see neither before its call
        ends, which can take a minute)."""
        sm = squares_model(problem) if formulation_of(self.settings, problem) == "squares" else None
        if sm is not None:
            cnf, read = encode_squares(problem, sm=sm)
        else:
            cnf, var = encode(problem)
            read = read_of(problem, var)
        stats.update(variables=cnf.nv, clauses=len(cnf.clauses))
        if self.binary is not None:
            return satbinary.models(self.binary, problem, cnf.clauses, cnf.nv, read, limit, self.deadline(), sm)
        if not _interruptible(self.solver_name):
            return self._models_in_child(cnf, read, limit)
        return self._models_watched(cnf, read, limit)

    def _models_watched(self, cnf: Cnf, read: Read, limit: int | None) -> Iterator[Solution]:
        from pysat.solvers import Solver

        from .watch import FLAG, watched

        deadline = self.deadline()
        found = 0
        with (
            Solver(name=self.solver_name, bootstrap_with=cnf.clauses) as solver,
            watched(deadline, solver.interrupt) as stop,
        ):
            for placed in _enumerate(solver, read, limit, lambda: stop[FLAG]):
                if placed is None:  # stopped: by the clock, or by a signal raised right after this
                    if deadline.expired():
                        raise TimeLimitReached(self.name, deadline.seconds or 0.0, found)
                    raise Unknown(self.name, Reason.INTERRUPTED, partial=found)
                found += 1
                yield placed

    def _models_in_child(self, cnf: Cnf, read: Read, limit: int | None) -> Iterator[Solution]:
        deadline = self.deadline()
        produce = lambda: _child_models(self.solver_name, cnf.clauses, read, limit)  # noqa: E731
        try:
            yield from streamed(produce, deadline.check)
        except ChildFailed as exc:
            raise BackendError(f"sat: {self.solver_name}: {exc}") from None

    def export(self, problem: Problem, fmt: str, out: TextIO) -> None:
        if fmt not in ENCODINGS:
            super().export(problem, fmt, out)
        # (its header numbers the squares as `check` reads them: the permutation's, or the
        # squares formulation's where the problem needs it, and no other)
        squares = bool(problem.rules & SQUARES_RULES)
        if formulation_of(self.settings, problem) != ("squares" if squares else "permutation"):
            raise UnsupportedProblem(
                "sat: export writes the CNF of the formulation the problem takes (no --formulation)"
            )
        self.plan(problem, Task.FIRST)
        amo, name = ENCODINGS[fmt]
        if squares:
            if amo is pairwise and problem.anywhere:
                raise UnsupportedProblem(
                    "sat: the pairwise CNF has no auxiliary variable, and pieces anywhere are counted with "
                    "some: export --to dimacs"
                )
            sm = squares_model(problem)
            cnf, _ = encode_squares(problem, amo, sm)
            write_cnf(out, problem, cnf.clauses, cnf.nv, name, sm)
            return
        size = pairwise_clauses(problem) if amo is pairwise else 0
        if size > MAX_PAIRWISE_CLAUSES:
            raise UnsupportedProblem(
                f"the pairwise CNF of this board would hold {size:,} clauses (at most "
                f"{MAX_PAIRWISE_CLAUSES:,}): export --to dimacs, whose at-most-ones take auxiliary variables"
            )
        cnf, _ = encode(problem, amo)
        write_cnf(out, problem, cnf.clauses, cnf.nv, name)


BACKEND = SatBackend
