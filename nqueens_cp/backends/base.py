"""The interface every backend implements, what it declares it can do, and the explicit
outcome of every search.

Mirrors the shape of CPMpy's solver interface at our size: a backend is a class with a name, a
declaration of what it supports (pieces, board rules, options), a planner that says which of
its algorithms serves a (problem, task) and why, and three searches. A backend must implement
`solutions`; `batches`, `count`, `first` and `count_classes` have generic versions built on it
that a backend overrides when it can do better.

One outcome vocabulary serves every task: solved, no solution, or unknown, and an unknown
carries its reason. Streams (`solutions`, `batches`) end by raising `Unknown` when they stopped
before the end, after yielding what they found.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from ..model.problem import NQueensError, Problem, Rule, Solution
from ..run.interrupts import deliver

if TYPE_CHECKING:
    import numpy as np

    from ..run.partition import Partition

#: The longest time limit taken (a year): timers (threading, select) overflow far above it.
MAX_TIME_LIMIT = 365 * 86400.0


def bad_time_limit(limit: object, called: str = "time limit") -> str | None:
    """Why `limit` is no time limit (None when it is one, or is not given), naming it `called`."""
    if limit is None or (isinstance(limit, int | float) and 0 < limit <= MAX_TIME_LIMIT):
        return None
    return f"{called} must be a positive finite number of seconds up to {MAX_TIME_LIMIT:g}, got {limit!r}"


#: Solutions a default `batches` gathers into one array.
BATCH_ROWS = 4096


class Status(Enum):
    SOLVED = "solved"
    NO_SOLUTION = "no solution"
    UNKNOWN = "unknown"


class Optimality(Enum):
    """How far an optimisation got: the optimum proved, a value found whose optimality is not
    (`Outcome.bound` says how far it may be), or nothing found (CPMpy's ExitStatus likewise)."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    UNKNOWN = "unknown"


class Reason(Enum):
    """Why an answer is unknown."""

    TIME_LIMIT = "time limit"
    INTERRUPTED = "interrupted"
    SOLVER_LIMIT = "solver limit"


class Task(StrEnum):
    """What a search is asked for (a StrEnum: it prints, and compares, as its value)."""

    SOLVE = "solve"
    COUNT = "count"
    FIRST = "first"
    UNIQUE = "unique"
    #: The most pieces no two of which attack (the independence number), placed anywhere.
    MAX = "max"
    #: The fewest pieces that occupy or attack every free square (domination).
    DOMINATE = "dominate"
    #: The solutions one symmetry of the board maps onto themselves, counted by a search of
    #: such solutions alone (OEIS's symmetric terms, without the whole count).
    SYMMETRIC = "symmetric"
    #: The row search's nodes at each depth (the profile of its tree: OEIS A319284 for queens).
    PROFILE = "profile"


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """The result of `first`, `count` or an optimisation: never an empty value standing for
    "unknown". Built by keyword.

    `count` is the number of solutions (for `first`: 1 or 0; for an optimisation, the number of
    optimal placements, where they were counted); on UNKNOWN it is what was found before the
    stop, a lower bound. An optimisation's `value` is its objective at `solution` (the pieces
    placed, or needed to cover), `bound` the best bound proved on the optimum (above it for the
    most pieces, below for the fewest): `optimality` says optimal where they meet, feasible
    where a value is known but not proved, unknown where nothing was found. `stats` holds what
    the backend measured (search nodes, conflicts...), which compares algorithms better than
    seconds on a noisy machine."""

    status: Status
    solution: Solution | None = None
    count: int | None = None
    reason: Reason | None = None
    stats: dict[str, int] = field(default_factory=dict)
    value: int | None = None
    bound: int | None = None
    #: An optimisation's optimal placements counted by symmetry class, where asked (`unique`).
    classes: int | None = None

    def __post_init__(self) -> None:
        if (self.status is Status.UNKNOWN) != (self.reason is not None):
            raise ValueError(f"an outcome has a reason exactly when it is unknown: {self.status}, {self.reason}")
        if self.status is Status.SOLVED and self.value is not None and self.bound != self.value:
            raise ValueError(f"a solved optimisation has its bound at its value: {self.value}, bound {self.bound}")

    @property
    def optimality(self) -> Optimality | None:
        """Optimal, feasible (best found, not proved) or unknown, for an optimisation (None for
        the other tasks, whose outcome has no value and no bound)."""
        if self.value is None and self.bound is None:
            return None
        if self.value is not None and self.value == self.bound:
            return Optimality.OPTIMAL
        return Optimality.FEASIBLE if self.value is not None else Optimality.UNKNOWN

    def _repr_html_(self) -> str:
        """The outcome as a table, for a notebook."""
        from ..model.drawing import html_table

        rows: list[tuple[str, object]] = [("status", self.status.value)]
        if self.count is not None:
            rows.append(("count" if self.status is not Status.UNKNOWN else "found before the stop", self.count))
        if self.solution is not None:
            rows.append(("solution", list(self.solution)))
        if self.reason is not None:
            rows.append(("reason", self.reason.value))
        rows += [(k, v) for k, v in sorted(self.stats.items())]
        return html_table("outcome", ("", ""), rows)


class BackendError(NQueensError):
    pass


class WrongAnswer(BackendError):
    """A solver's answer failed the independent check (`Problem.explain`), or repeated a
    solution it had already given: the run ends with exit 1, naming the solver."""

    #: What `placement` says of a solution given before.
    REPEAT = "was given twice"

    def __init__(self, solver: str, detail: str, solution: Solution | None = None, why: str = "") -> None:
        super().__init__(f"wrong answer from {solver}: {detail}")
        self.solver = solver
        self.solution = solution
        self.why = why or detail

    @classmethod
    def placement(cls, solver: str, solution: Any, why: str, problem: Problem | None = None) -> WrongAnswer:
        """The error for a placement that `why` (explain's reason, or REPEAT) rules out (a
        layout of pieces anywhere shown by its squares, where the problem is given)."""
        shown = tuple(int(c) for c in solution)
        text = str(shown) if len(shown) <= 40 else f"{str(shown[:40])[:-1]}, ...)"
        if problem is not None and problem.anywhere:
            text = problem.said(shown)[:400]
        return cls(solver, f"the placement {text} {why}", shown, why)


class UnsupportedProblem(BackendError):
    """The backend cannot model the requested variant, or honour a requested option."""


class Unknown(BackendError):
    """The search stopped before it knew the answer: counts and "no solution" are unknown.
    `partial` is the number of solutions found before the stop (a lower bound), None where the
    search cannot tell (a count spread over processes that were stopped)."""

    def __init__(self, backend: str, reason: Reason, detail: str = "", partial: int | None = 0) -> None:
        found = "" if partial is None else f" ({partial} solution(s) found so far)"
        what = detail or reason.value
        super().__init__(f"{backend}: {what} before the search finished{found}; the answer is unknown")
        self.backend = backend
        self.reason = reason
        self.partial = partial


class TimeLimitReached(Unknown):
    def __init__(self, backend: str, seconds: float, partial: int | None = 0) -> None:
        super().__init__(backend, Reason.TIME_LIMIT, f"time limit of {seconds:g}s reached", partial)


class Deadline:
    """A search's time limit, started when the search starts. Searches look at it between the
    bounded slices they run in (the same places where Ctrl-C gets through)."""

    def __init__(self, backend: str, seconds: float | None) -> None:
        self.backend = backend
        self.seconds = seconds
        self.ends = None if seconds is None else time.monotonic() + seconds

    def expired(self) -> bool:
        return self.ends is not None and time.monotonic() >= self.ends

    def left(self) -> float | None:
        return None if self.ends is None else max(0.0, self.ends - time.monotonic())

    def check(self, found: int | None = 0) -> None:
        """Raise TimeLimitReached (with what was found) once the limit has passed; first, raise
        again a signal whose exception was lost (`interrupts`)."""
        deliver()
        if self.expired():
            raise TimeLimitReached(self.backend, self.seconds or 0.0, found)


@dataclass(frozen=True)
class Plan:
    """Which algorithm serves a (problem, task), and why: shown to the user (`--json`'s "plan",
    `--verbose`) so the same call is seen to take the same path."""

    task: Task
    algorithm: str
    reason: str
    workers: int = 1
    #: The bytes the plan's workers may hold together, where the algorithm's memory grows with
    #: the board (declared before anything is allocated); None where it stays small.
    memory: int | None = None
    #: The seconds the run is expected to take, where the backend can tell before it starts
    #: (None: it cannot); the command line warns of a count that would run for hours.
    seconds: float | None = None

    def as_dict(self) -> dict[str, Any]:
        shown = {"task": self.task, "algorithm": self.algorithm, "reason": self.reason, "workers": self.workers}
        return shown | ({"memory": self.memory} if self.memory is not None else {})


@dataclass(frozen=True)
class Option:
    """An option a backend takes, declared as data (as CPMpy's solvers declare theirs): the CLI
    builds a flag from each declaration that has one, for every command that runs a backend
    (`verify` and `compare` included), so a new option is written once, in its backend.

    `flag`: the command-line flag, or None where the option is for the library alone (a
    callback, a dict of solver parameters) or a command spells it with its own meaning (the
    COMMON options: `--time-limit` is per run in compare). `parse` reads the flag's text;
    `tasks`: the tasks it applies to (None: every task), so no command offers one it ignores."""

    name: str
    kind: type
    help: str
    flag: str | None = None
    metavar: str | None = None
    parse: Callable[[str], Any] | None = None
    tasks: frozenset[Task] | None = None


#: Options several backends take, whose flags the commands spell themselves.
TIME_LIMIT = Option("time_limit", float, "Seconds; the search stops when they have passed (an unknown answer).")
WORKERS = Option("workers", int, "Processes or solver threads.")
PROGRESS = Option("progress", object, "A callback given (done, total) over a count's sub-problems.")


@dataclass(frozen=True)
class Capabilities:
    """What a backend supports; the CLI, `compare` and `verify` consult this, never a name.

    `options`: the options it honours, declared (an option it cannot honour is refused, not
    ignored; `names` are their keywords).
    `partition`: it can cut a count into numbered sub-problems (process pool, Dask, checkpoints).
    `max_n`: the largest board it models, None for no limit of its own.
    `exports`: the file formats `export` writes its model in (for solvers outside Python).
    `own_count`: it counts without handing out solutions (`_count`); every other backend's
    count is the length of its solution stream, each solution checked on the way.
    `repeat_free`: its streams walk a search tree, each leaf once, so they are not held for
    repeats (a set of every solution would grow with the count); every other backend's are.
    `rules`: the rules of the puzzle it models (`Rule`: torus, rectangles, leaps, one-way
    lines, blocked squares, pre-placed pieces), each named: none by default, so a rule added
    to `Rule` is claimed by no backend until one models it; a problem that needs a rule a
    backend does not list is refused in one line before any run.
    `subsolver`: the option that names the solver it runs, which `-b NAME:SOLVER` sets
    (`sat:glucose4`, `minizinc:chuffed`, `cpmpy:choco`), None where it runs one solver.
    `oracle`: our own engine, whose answers the tests hold to OEIS, closed forms and a brute
    force: it searches again every other backend's claim that there is no solution (`claims`).
    `tasks`: the tasks it answers (`Task`), each named: none by default, so a task added to
    `Task` is answered by no backend until one declares it; any other is refused in one line
    before any run, naming the backends that answer it.
    `optimum_classes`: it counts an optimisation's optimal placements by symmetry class."""

    options: tuple[Option, ...] = ()
    tasks: frozenset[Task] = frozenset()
    rules: frozenset[Rule] = frozenset()
    partition: bool = False
    own_count: bool = False
    repeat_free: bool = False
    subsolver: str | None = None
    max_n: int | None = None
    exports: frozenset[str] = frozenset()
    oracle: bool = False
    optimum_classes: bool = False

    @property
    def names(self) -> frozenset[str]:
        """The keywords of the options it honours."""
        return frozenset(o.name for o in self.options)

    @property
    def stoppable(self) -> bool:
        """It honours a time limit (the same hard limit every solver gets in compare and verify)."""
        return TIME_LIMIT in self.options

    @property
    def reports_progress(self) -> bool:
        """It reports (done, total) over a count's sub-problems to a `progress` callback."""
        return PROGRESS in self.options


TASKS = tuple(Task)

#: The tasks of the placement puzzle (one piece a row): every solution, their number, one, and
#: their symmetry classes. A backend that answers them declares this constant.
PLACEMENT_TASKS: frozenset[Task] = frozenset({Task.SOLVE, Task.COUNT, Task.FIRST, Task.UNIQUE})

#: The optimisations: the most pieces, the fewest that cover. A backend that answers both
#: declares this constant beside its placement tasks.
OPTIMUM_TASKS: frozenset[Task] = frozenset({Task.MAX, Task.DOMINATE})

#: The rules every backend has modelled since the puzzle had pieces and obstacles: wrapped and
#: rectangular boards, leaps, one-way lines, blocked squares and pre-placed pieces. A backend
#: that models them all declares this constant; a rule added later is listed beside it.
PLACEMENT_RULES: frozenset[Rule] = frozenset(
    {Rule.TORUS, Rule.RECTANGLE, Rule.LEAPS, Rule.ONE_WAY, Rule.BLOCKED, Rule.FIXED}
)


#: The registered backends that declare a task: the registry (`backends/__init__.py`) sets it
#: as it loads, since this module is below it and may not import it.
answering: Callable[[Task], list[str]] = lambda task: []  # noqa: E731
#: The registered backends that count optimal placements by class (set by the registry too).
counting_classes: Callable[[], list[str]] = lambda: []  # noqa: E731


#: The registered backends that model every rule of a set, set by the registry likewise.
modelling: Callable[[frozenset[Rule]], list[str]] = lambda rules: []  # noqa: E731


def answered_by(task: Task) -> str:
    """ " (those that do: A, B)" for the registered backends that declare `task`."""
    names = answering(task)
    return f" (those that do: {', '.join(names)})" if names else " (no backend does)"


def package_version(*packages: str) -> str | None:
    """`name version` of each installed distribution in `packages` (None where none is)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    found = []
    for name in packages:
        try:
            found.append(f"{name} {installed(name)}")
        except PackageNotFoundError:
            continue
    return ", ".join(found) or None


Stats = dict[str, int]


def close_stream(stream: Iterator[Any]) -> None:
    """Close a generator that wraps a search, so that the search stops now (its solver thread,
    child process or program ended), not when the generator is collected."""
    close = getattr(stream, "close", None)
    if close:
        close()


def rows_of(batches: Iterator[np.ndarray]) -> Iterator[Solution]:
    """The rows of `batches` as solutions (tuples of ints); closing it closes the stream."""
    try:
        for batch in batches:
            yield from map(tuple, batch.tolist())
    finally:
        close_stream(batches)


def counted(sizes: Iterator[int], stats: Stats) -> Outcome:
    """The outcome of a count that adds up `sizes` (solutions, or batches of them) until the
    stream ends or stops early; `stats` is what the stream measured, read when it has ended."""
    found = 0
    try:
        for size in sizes:
            found += size
    except Unknown as exc:
        return Outcome(status=Status.UNKNOWN, count=found, reason=exc.reason, stats=stats)
    return Outcome(status=Status.SOLVED, count=found, stats=stats)


def first_of(stream: Iterator[Solution], stats: Stats) -> Outcome:
    """The outcome of a decision: the first solution of `stream`, none, or unknown."""
    try:
        for sol in stream:
            return Outcome(status=Status.SOLVED, solution=sol, count=1, stats=stats)
    except Unknown as exc:
        return Outcome(status=Status.UNKNOWN, count=0, reason=exc.reason, stats=stats)
    finally:
        stream.close()  # type: ignore[attr-defined]
    return Outcome(status=Status.NO_SOLUTION, count=0, stats=stats)


class Backend:
    """Base class of the backends. Options (workers, time limit, seed...) go to __init__; a
    backend refuses any it does not declare in `capabilities.options`.

    The contract, as in CPMpy's solver interface:
    - **required**: `_solutions` (stream every solution) or `_limited` (at most so many), and
      `capabilities`;
    - **optional**, overridden where the backend does better than the generic version:
      `_plan`, `_batches`, `_count`, `_first`, `_count_classes`, `partition` (with
      `capabilities.partition`), `export` (with `capabilities.exports`), `missing`,
      `_more_ready`. A backend that makes its own arrays (`_batches`) has every stream
      made of them, its solutions checked an array at a time: `_solutions` and `_batches`
      must then hand out the same solutions;
    - **inherited**, not overridden: the entry points `solutions`, `batches`, `count`,
      `first`, `count_classes`, `count_by_enumeration`. Each checks the plan (what the
      backend can model, the options it can honour, the size limits) before any search,
      the same way for every backend, then calls the backend's own method with the plan;
      pre-placed pieces that contradict each other or a blocked square
      (`Problem.contradiction`) have no solution by the rules alone, and are answered so here.
    Per-call measurements (nodes, conflicts...) go into the call's `Outcome.stats` (a stream
    fills the `stats` dict it is given), never onto the instance.
    """

    #: The backend's name: the module it lives in, nqueens_cp.backends.NAME (see __init_subclass__).
    name: ClassVar[str]
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            parts = cls.__module__.split(".")
            cls.name = parts[2] if parts[:2] == ["nqueens_cp", "backends"] and len(parts) > 2 else cls.__name__

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - self.capabilities.names
        if unknown:
            accepted = ", ".join(sorted(self.capabilities.names)) or "none"
            raise UnsupportedProblem(
                f"backend {self.name!r} cannot honour option(s) {', '.join(sorted(unknown))} (it takes: {accepted})"
            )
        why = bad_time_limit(options.get("time_limit"))
        if why:
            raise BackendError(why)
        workers = options.get("workers")
        if workers is not None and not (isinstance(workers, int) and workers >= 1):
            raise BackendError(f"workers must be a positive integer, got {workers!r}")
        self.settings = options

    @classmethod
    def missing(cls) -> str | None:
        """Optional. What this machine lacks to run the backend (an optional package), or None.
        Backends chosen by default (verify, compare) leave out those that cannot run here."""
        return None

    @classmethod
    def version(cls) -> str | None:
        """The solver's name and version as reports and --json records state them, or None where
        it is not installed. Every backend says it (`package_version` serves most)."""
        raise NotImplementedError(f"backend {cls.name!r} does not say its version")

    @classmethod
    def state(cls) -> dict[str, str]:
        """Optional: what else a user should know of the backend on this machine, as short
        named lines (`nqueens backends` shows them; our engine says where its kernels are)."""
        return {}

    # -- sub-solvers (with `capabilities.subsolver`), asked the same way of every backend -------

    @classmethod
    def subsolvers(cls) -> dict[str, str]:
        """The sub-solvers that run on this machine, each with its version ("" where it does
        not say), by the name `-b NAME:SOLVER` takes; none for a backend that runs one solver."""
        return {}

    @classmethod
    def default_subsolver(cls) -> str | None:
        """The sub-solver run when none is named (None: the backend runs one solver, or none of
        its sub-solvers is installed)."""
        return None

    @property
    def subsolver(self) -> str | None:
        """The sub-solver this backend runs: the one its option names, else the default."""
        key = self.capabilities.subsolver
        given = None if key is None else self.settings.get(key)
        return str(given) if given is not None else self.default_subsolver()

    def takes_subsolver(self, name: str) -> bool:
        """Optional: whether `name` is a sub-solver this backend runs here (one of `subsolvers`,
        by default; a backend may take more, such as the SAT backend's solver binaries)."""
        return name in self.subsolvers()

    def subsolver_refused(self, name: str) -> str:
        """Optional: the one line that refuses `name` (what is installed, or how to install it)."""
        known = ", ".join(sorted(self.subsolvers())) or "none"
        return f"{self.name}: no solver {name!r} here (installed: {known})"

    def _checked_subsolver(self) -> None:
        """The named sub-solver, checked before any plan: the one place every backend's is."""
        if self.capabilities.subsolver is None:
            return
        name = self.subsolver
        if name is None:
            raise BackendError(f"{self.name}: no solver installed to run")
        if not self.takes_subsolver(name):
            raise BackendError(self.subsolver_refused(name))

    def deadline(self) -> Deadline:
        """A fresh deadline for a search starting now, from the `time_limit` option."""
        return Deadline(self.name, self.settings.get("time_limit"))

    # -- what runs -------------------------------------------------------------------------

    def supports(self, problem: Problem) -> str | None:
        """Why this backend cannot model `problem`, or None when it can."""
        caps = self.capabilities
        if caps.max_n is not None and problem.n > caps.max_n:
            return f"boards over {caps.max_n} columns"
        lacking = sorted(problem.rules - caps.rules)
        if lacking:
            return " or ".join(rule.value for rule in lacking)
        return None

    def plan(self, problem: Problem, task: Task | str) -> Plan:
        """The algorithm that serves `task` on `problem`; raises UnsupportedProblem when the
        backend cannot model the problem or honour its options for this task, and BackendError
        when this machine lacks what it needs (`missing`), before any backend's own plan."""
        try:
            task = Task(task)
        except ValueError:
            raise ValueError(f"unknown task {task!r} (known: {', '.join(TASKS)})") from None
        if task not in self.capabilities.tasks:
            raise UnsupportedProblem(f"backend {self.name!r} does not answer {task}{answered_by(task)}")
        if not (problem.rule.rook or problem.anywhere or task in OPTIMUM_TASKS):
            raise UnsupportedProblem(
                f"a {problem.piece} does not ride rows and columns, as one piece a row and a column must: add "
                "the rook's moves ('R' + the rest in Betza's notation), or place pieces anywhere (--pieces K; "
                "max and dominate take any piece)"
            )
        lacking = self.missing()
        if lacking:
            raise BackendError(lacking)
        self._checked_subsolver()
        why = self.supports(problem)
        if why:
            able = modelling(problem.rules)
            those = f" (those that do: {', '.join(able)})" if able and problem.rules - self.capabilities.rules else ""
            raise UnsupportedProblem(f"backend {self.name!r} cannot model {why}{those}")
        for option in self.capabilities.options:
            given = self.settings.get(option.name) not in (None, False)
            if given and option.tasks is not None and task not in option.tasks:
                said = option.flag or option.name
                applies = " and ".join(sorted(option.tasks))
                raise UnsupportedProblem(f"{self.name}: {said} applies to {applies}, not {task}")
        return self._plan(problem, task)

    def _plan(self, problem: Problem, task: Task) -> Plan:
        """Optional: which of the backend's algorithms serves `task`, or UnsupportedProblem."""
        return Plan(task, self.name, "the backend's own model and search")

    # -- the entry points (inherited) ------------------------------------------------------

    def solutions(self, problem: Problem, stats: Stats | None = None) -> Iterator[Solution]:
        """Stream every solution (nothing is accumulated). The plan is checked now; the stream
        raises Unknown at its end when the search stopped early. `stats`, if given, receives
        what the search measured. Every solution is checked before it is handed on: an array
        at a time where the backend makes its own (`batches`), so that checking costs a small
        part of the search; one by one (`_checked`) where it hands out single solutions."""
        plan, stats = self.plan(problem, Task.SOLVE), {} if stats is None else stats
        if problem.contradiction:
            return iter(())
        if self._makes_batches:
            return rows_of(self._checked_batches(problem, self._batches(problem, plan, stats)))
        return self._checked(problem, self._solutions(problem, plan, stats))

    def batches(self, problem: Problem, stats: Stats | None = None) -> Iterator[np.ndarray]:
        """The solutions as 2-D int arrays (a row per solution), for writers that format many
        at once. Each array is valid until the next is asked for. Each solution is checked
        before it is handed on: one by one where the arrays are gathered from `_solutions`, an
        array at a time (`Problem.first_invalid`) where the backend makes its own."""
        plan, stats = self.plan(problem, Task.SOLVE), {} if stats is None else stats
        if problem.contradiction:
            return iter(())
        if not self._makes_batches:
            return self._gathered(problem, self._checked(problem, self._solutions(problem, plan, stats)))
        return self._checked_batches(problem, self._batches(problem, plan, stats))

    @property
    def _makes_batches(self) -> bool:
        """Whether the backend makes its solutions in arrays (its own `_batches`)."""
        return type(self)._batches is not Backend._batches

    def count(self, problem: Problem) -> Outcome:
        """The number of solutions, or unknown with what was counted before the stop. A backend
        without `capabilities.own_count` counts its checked solution stream."""
        plan = self.plan(problem, Task.COUNT)
        if problem.contradiction:
            return Outcome(status=Status.SOLVED, count=0, stats={})
        if self.capabilities.own_count:
            return self._count(problem, plan)
        return self._enumerated(problem, plan)

    def count_by_enumeration(self, problem: Problem) -> Outcome:
        """Count by building every solution (what `compare --enumerate` times)."""
        plan = self.plan(problem, Task.SOLVE)
        if problem.contradiction:
            return Outcome(status=Status.SOLVED, count=0, stats={})
        return self._enumerated(problem, plan)

    def first(self, problem: Problem) -> Outcome:
        """One solution, none, or unknown; the solution checked before it is returned."""
        plan = self.plan(problem, Task.FIRST)
        if problem.contradiction:
            return Outcome(status=Status.NO_SOLUTION, count=0, stats={})
        outcome = self._first(problem, plan)
        if outcome.solution is not None:
            why = problem.explain(outcome.solution)
            if why:
                raise WrongAnswer.placement(self.label, outcome.solution, why, problem)
        return outcome

    def count_classes(self, problem: Problem) -> ClassCount:
        """The solutions counted by symmetry class (fundamental solutions)."""
        plan = self.plan(problem, Task.UNIQUE)
        if problem.contradiction:  # none by the rules alone, as `count` answers
            from ..model.symmetry import TURNS, problem_symmetries

            return ClassCount(problem_symmetries(problem), {}, stats={}, turns=dict.fromkeys(TURNS, 0))
        return self._count_classes(problem, plan)

    def count_symmetric(self, problem: Problem, symmetry: str) -> Outcome:
        """The solutions that `symmetry` (a symmetry of the problem, `problem_symmetries`; its
        powers with it) maps onto themselves: `count` their number. A search of those solutions
        alone, so a small root of the whole count's (OEIS's symmetric terms, A352661...)."""
        from ..model.symmetry import NAMES, generated, problem_symmetries

        plan = self.plan(problem, Task.SYMMETRIC)
        if symmetry not in NAMES:
            raise UnsupportedProblem(f"no symmetry {symmetry!r} (known: {', '.join(NAMES)})")
        kept = problem_symmetries(problem)
        if symmetry not in kept:
            raise UnsupportedProblem(
                f"{symmetry} does not map this board, its piece and its squares onto themselves "
                f"(what does: {', '.join(kept)})"
            )
        if problem.contradiction:
            return Outcome(status=Status.SOLVED, count=0, stats={})
        return self._count_symmetric(problem, plan, generated(symmetry))

    def profile(self, problem: Problem) -> list[int]:
        """The nodes at each depth 0..rows of a search that places a piece a row, top to bottom:
        entry k the placements of the first k rows the rules allow among themselves, the last
        the solutions. For pieces anywhere (`pieces` K), the nodes at each depth 0..K of a search
        that places them a square at a time: entry k the placements of k pieces (the pre-placed
        among them), the last the solutions. Raises Unknown at a stop (a profile is whole or
        unknown)."""
        return self._profile(problem, self._profile_plan(problem))

    def offers_profile(self, problem: Problem) -> bool:
        """Whether `profile` answers `problem`, decided before any search: a table of its
        entries (`count --pieces A..B`) then takes one search where it would take one a term."""
        if Task.PROFILE not in self.capabilities.tasks:
            return False
        try:
            self._profile_plan(problem)
        except UnsupportedProblem:
            return False
        return True

    def profile_partition(self, problem: Problem) -> tuple[Partition, Callable[[int], list[int]]]:
        """The profile as the backend's numbered work items (checkpoints, Dask:
        `api.profile_partitioned`): a partition whose items' counts are vectors written as
        integers, and what reads the profile from their sum, where the backend cuts its counts."""
        plan = self._profile_plan(problem)
        self.check_cuts()
        return self._profile_partition(problem, plan)

    def _profile_plan(self, problem: Problem) -> Plan:
        """The plan of a profile, refused where the search's nodes have no depth of their own:
        pawns (each set of them a search of its own) and regions."""
        plan = self.plan(problem, Task.PROFILE)
        if problem.pawns or problem.regions:
            raise UnsupportedProblem(
                "a profile is of the search that places a piece a row or pieces anywhere: not of pawns or regions"
            )
        return plan

    def check_cuts(self) -> None:
        """Refuse, in one line, a run cut into sub-problems on a backend that does not cut."""
        if not self.capabilities.partition:
            raise UnsupportedProblem(
                f"backend {self.name!r} cannot cut a count into sub-problems (--dask, --checkpoint)"
            )

    def _profile_partition(self, problem: Problem, plan: Plan) -> tuple[Partition, Callable[[int], list[int]]]:
        """Required with `capabilities.partition` and `Task.PROFILE` in `capabilities.tasks`."""
        raise NotImplementedError(f"backend {self.name!r} cuts counts but not the profile's")

    def _profile(self, problem: Problem, plan: Plan) -> list[int]:
        """Required with `Task.PROFILE` in `capabilities.tasks`."""
        raise NotImplementedError(f"backend {self.name!r} declares {plan.task} but does not answer it")

    def _count_symmetric(self, problem: Problem, plan: Plan, group: frozenset[str]) -> Outcome:
        """Required with `Task.SYMMETRIC` in `capabilities.tasks`: the solutions every member of
        `group` fixes."""
        raise NotImplementedError(f"backend {self.name!r} declares {plan.task} but does not answer it")

    def optimum(
        self,
        problem: Problem,
        task: Task | str,
        *,
        independent: bool = False,
        count: bool = False,
        unique: bool = False,
    ) -> Outcome:
        """The most pieces (`max`) or the fewest that dominate (`dominate`; `independent`: no two
        attacking), placed anywhere, the pre-placed among them: `value` the best found, `bound`
        the bound proved (optimal where they meet; under a time limit, UNKNOWN with both),
        `count` the optimal placements where `count` is asked and the optimum proved. The
        placement is checked by the rules (`Problem.explain`, `Problem.uncovered`), and the
        bound against the value, before it is returned. `unique` adds `classes`, the optimal
        placements counted by symmetry class (with their count), where the backend counts them
        (`capabilities.optimum_classes`)."""
        task = Task(task)
        if task not in (Task.MAX, Task.DOMINATE):
            raise ValueError(f"optimum answers max and dominate, not {task}")
        if problem.pieces or problem.pawns:
            raise UnsupportedProblem(f"{task} chooses how many pieces: it takes no --pieces or --pawns")
        if independent and task == Task.MAX:
            raise UnsupportedProblem("max places pieces no two of which attack already: --independent is dominate's")
        plan = self.plan(problem, task)
        if unique and not self.capabilities.optimum_classes:
            raise UnsupportedProblem(
                f"{self.name}: --unique (the optimal placements by symmetry class) is not counted by this backend"
                f" (those that count it: {', '.join(counting_classes())})"
            )
        if set(problem.fixed) & set(problem.blocked):  # a pre-placed piece where none may stand
            return Outcome(status=Status.NO_SOLUTION, count=0)
        if problem.rows * problem.n == len(set(problem.blocked) | set(problem.walls)):  # no square to take
            once, classes = 1 if count or unique else None, 1 if unique else None
            return Outcome(status=Status.SOLVED, value=0, bound=0, solution=(), count=once, classes=classes)
        outcome = self._optimum(problem, plan, independent, count or unique)
        self._check_optimum(problem, task, independent, outcome)
        if unique and outcome.count is not None and outcome.status is Status.SOLVED:
            from dataclasses import replace as replaced

            outcome = replaced(outcome, classes=self._optimum_classes(problem, plan, independent, outcome))
        return outcome

    def optimum_partition(self, problem: Problem, task: Task | str, independent: bool, value: int) -> Partition:
        """The optimal placements of an optimisation whose optimum `value` is proved, as the
        backend's numbered work items (checkpoints, Dask: `api.count_optimal`), where it cuts
        its counts (`capabilities.partition`)."""
        self.check_cuts()
        return self._optimum_partition(problem, Task(task), independent, value)

    def _optimum_partition(self, problem: Problem, task: Task, independent: bool, value: int) -> Partition:
        """Required with `capabilities.partition` and an optimisation in `capabilities.tasks`."""
        raise NotImplementedError(f"backend {self.name!r} cuts counts but not {task}'s")

    def _optimum_classes(self, problem: Problem, plan: Plan, independent: bool, outcome: Outcome) -> int | None:
        """Required with `capabilities.optimum_classes`: the optimal placements of `outcome` (its
        value proved, its count made) counted by symmetry class; None where a stop came first."""
        raise NotImplementedError(f"backend {self.name!r} declares optimum classes but does not count them")

    def _optimum(self, problem: Problem, plan: Plan, independent: bool, count: bool) -> Outcome:
        """Required with `Task.MAX` or `Task.DOMINATE` in `capabilities.tasks`."""
        raise NotImplementedError(f"backend {self.name!r} declares {plan.task} but does not answer it")

    def _check_optimum(self, problem: Problem, task: Task, independent: bool, outcome: Outcome) -> None:
        """A claimed optimum's placement and bound, held to the rules (exit 1 where wrong)."""
        from dataclasses import replace as replaced

        if outcome.solution is not None:
            k = outcome.value or 0
            placed = replaced(problem, pieces=max(1, k), pawns=0)
            why: str | None
            if len(outcome.solution) != k:
                why = f"has {len(outcome.solution)} pieces for a value of {k}"
            elif task == Task.MAX:
                why = placed.explain(outcome.solution)
            else:
                why = placed.uncovered(placed.layout(outcome.solution)[0], independent)
            if why:
                raise WrongAnswer(self.label, f"the {task} placement {placed.said(outcome.solution)} {why}")
        value, bound = outcome.value, outcome.bound
        if value is not None and bound is not None and (bound < value if task == Task.MAX else bound > value):
            raise WrongAnswer(self.label, f"{task}: a bound of {bound} past its own value {value}")

    # -- the check every answer passes (inherited) -----------------------------------------

    @property
    def label(self) -> str:
        """The solver as an error and a record name it: the backend, and the sub-solver it runs
        where it takes one (`sat (glucose4)`, `cpmpy (choco)`)."""
        solver = self.subsolver
        return f"{self.name} ({solver})" if solver else self.name

    def _enumerated(self, problem: Problem, plan: Plan) -> Outcome:
        """The count of the backend's checked solution stream (its checked arrays' rows, where
        it makes arrays)."""
        stats: Stats = {}
        if self._makes_batches:
            batches = self._checked_batches(problem, self._batches(problem, plan, stats))
            return counted((batch.shape[0] for batch in batches), stats)
        return counted((1 for _ in self._checked(problem, self._solutions(problem, plan, stats))), stats)

    def _checked(self, problem: Problem, stream: Iterator[Solution]) -> Iterator[Solution]:
        """`stream`, each solution checked by `Problem.explain` (independent of every backend)
        and, unless the backend is `repeat_free`, against those it gave before; a bad one
        raises WrongAnswer. Closing this generator closes the backend's stream (its search)."""
        seen: set[Solution] | None = None if self.capabilities.repeat_free else set()
        try:
            for sol in stream:
                why = problem.explain(sol)
                if why:
                    raise WrongAnswer.placement(self.label, sol, why, problem)
                if seen is not None:
                    if sol in seen:
                        raise WrongAnswer.placement(self.label, sol, WrongAnswer.REPEAT, problem)
                    seen.add(sol)
                yield sol
        finally:
            close_stream(stream)

    def _checked_batches(self, problem: Problem, stream: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
        """`stream`'s arrays, each checked as `_checked` checks single solutions."""
        import numpy as np

        from ..model.batches import BatchCheck

        seen: set[bytes] | None = None if self.capabilities.repeat_free else set()
        check = BatchCheck(problem)
        try:
            for batch in stream:
                bad = check(batch)
                if bad is not None:
                    raise WrongAnswer.placement(self.label, batch[bad[0]], bad[1], problem)
                if seen is not None:
                    for row in batch:
                        key = np.ascontiguousarray(row, dtype=np.int64).tobytes()
                        if key in seen:
                            raise WrongAnswer.placement(self.label, row, WrongAnswer.REPEAT, problem)
                        seen.add(key)
                yield batch
        finally:
            close_stream(stream)

    # -- the backend's own searches --------------------------------------------------------

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        """Required (or `_limited`): every solution, as a generator; raises Unknown at the end
        when stopped early, after yielding what it found; fills `stats` as it goes."""
        if type(self)._limited is not Backend._limited:
            return self._limited(problem, None, stats)
        raise NotImplementedError(f"backend {self.name!r} implements no search")

    def _limited(self, problem: Problem, limit: int | None, stats: Stats) -> Iterator[Solution]:
        """Optional, in place of `_solutions`: at most `limit` solutions (None: every one), for a
        solver told how many to find; `_solutions` and `_first` (a limit of 1) come from it."""
        raise NotImplementedError(f"backend {self.name!r} implements no search")

    def _batches(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[np.ndarray]:
        """Optional: the solutions in arrays. Solutions are handed on as soon as the search
        yields them, so a stop loses none that were found."""
        return self._gathered(problem, self._solutions(problem, plan, stats))

    def _gathered(self, problem: Problem, stream: Iterator[Solution]) -> Iterator[np.ndarray]:
        """`stream` gathered into arrays of at most BATCH_ROWS rows, each handed on as soon as
        the search has no further solution ready."""
        import numpy as np

        n = problem.width
        chunk: list[Solution] = []
        try:
            for sol in stream:
                chunk.append(sol)
                if len(chunk) == BATCH_ROWS or not self._more_ready():
                    yield np.array(chunk, dtype=np.int64).reshape(-1, n)
                    chunk = []
        except Unknown:
            if chunk:  # what was found before the stop is written out, then the stop reported
                yield np.array(chunk, dtype=np.int64).reshape(-1, n)
            raise
        if chunk:
            yield np.array(chunk, dtype=np.int64).reshape(-1, n)

    def _more_ready(self) -> bool:
        """Optional: whether the running stream has a further solution ready now. A backend
        whose search runs beside the caller (a solver thread) says so; by default a solution in
        hand is handed on at once, so a time limit never holds back what was found."""
        return False

    def _count(self, problem: Problem, plan: Plan) -> Outcome:
        """Optional, with `capabilities.own_count`: a count that hands out no solutions."""
        raise NotImplementedError(f"backend {self.name!r} declares no count of its own")

    def _first(self, problem: Problem, plan: Plan) -> Outcome:
        """Optional: by default, the first solution of the stream (of one, with `_limited`)."""
        stats: Stats = {}
        if type(self)._limited is not Backend._limited:
            return first_of(self._limited(problem, 1, stats), stats)
        return first_of(self._solutions(problem, plan, stats), stats)

    def _count_classes(self, problem: Problem, plan: Plan) -> ClassCount:
        """Optional: by default every solution is enumerated and tested for being its class's
        canonical member."""
        from ..model.symmetry import TURNS, image, problem_symmetries, turns_of_class

        group = problem_symmetries(problem)
        by_orbit: dict[int, int] = {}
        turns = {key: names for key, names in SYMMETRIC_BY.items() if set(names) <= set(group)}
        symmetric = dict.fromkeys(turns, 0)
        split = dict.fromkeys(TURNS, 0)
        stats: Stats = {}
        for sol in self._checked(problem, self._solutions(problem, plan, stats)):
            images = {g: image(problem, sol, g) for g in group}
            if min(images.values()) == sol:  # its class's smallest member
                orbit = len(group) // sum(image == sol for image in images.values())
                by_orbit[orbit] = by_orbit.get(orbit, 0) + 1
                split[turns_of_class(images, sol)] += 1
            for key, names in turns.items():
                symmetric[key] += all(images[g] == sol for g in names)
        return ClassCount(group, by_orbit, symmetric, stats=stats, turns=split)

    def partition(
        self, problem: Problem, depth: int | None = None, follow: dict[str, Any] | None = None, running: bool = True
    ) -> Partition:
        """Optional, with `capabilities.partition`: the count of `problem` as numbered work items
        (`run.partition.Partition`) whose results add up to the total, the same items for every
        runner (this process, the pool, Dask, checkpoints); `depth` is how many rows a
        sub-problem fixes where the backend cuts by rows (None: the backend's default).
        `follow` is a checkpoint's fingerprint: where it names another of the backend's cuts of
        this very problem (its plan changed since: another memory budget, another --depth), the
        items it names, so the checkpoint resumes, or is checked without `running`; else the
        planned ones, which the checkpoint then refuses."""
        raise UnsupportedProblem(f"backend {self.name!r} cannot cut a count into sub-problems")

    def export(self, problem: Problem, fmt: str, out: TextIO) -> None:
        """Optional, with `capabilities.exports`: write the backend's model of `problem` in
        `fmt`, so that a solver outside this package runs on exactly what this backend solves."""
        raise UnsupportedProblem(f"backend {self.name!r} exports no {fmt!r} model")


#: The symmetric solutions a class count reports where the problem keeps their symmetries: those
#: the half turn fixes (point symmetric, OEIS A032522 for queens) and those the quarter turns fix
#: (rotational, A033148).
SYMMETRIC_BY = {"point_symmetric": ("identity", "rot180"), "rotational": ("identity", "rot90", "rot180", "rot270")}


def _rotations_alone(problem: Problem, group: Sequence[str]) -> bool:
    """Where the orbit sizes tell what fixes a class: all 8 symmetries hold and the piece rides
    both diagonals, so a reflection fixes no solution (a piece a row; on a board of one square
    its one solution, fixed by all, counts as the quarter turn's)."""
    return len(group) == 8 and problem.rule.diagonals


def symmetric_solutions(problem: Problem, group: Sequence[str], by_orbit: dict[int, int]) -> dict[str, int]:
    """The solutions fixed by the half turn (point symmetric) and by the quarter turn
    (rotational), from the orbit sizes, where all 8 symmetries hold and the piece rides both
    diagonals: then only rotations fix a solution (a reflection puts two pieces on one line), so
    an orbit of 4 is fixed by the half turn, one of 2 by the quarter turn too, one of 1 by all.
    Elsewhere none are said ({})."""
    if not _rotations_alone(problem, group):
        return {}
    u4, u2, u1 = (by_orbit.get(size, 0) for size in (4, 2, 1))
    return {"point_symmetric": 4 * u4 + 2 * u2 + u1, "rotational": 2 * u2 + u1}


def rotation_turns(problem: Problem, group: Sequence[str], by_orbit: dict[int, int]) -> dict[str, int]:
    """The classes by the turns that fix them (`model.symmetry.TURNS`) from the orbit sizes,
    where only rotations fix a solution (as `symmetric_solutions`): an orbit of 1 or 2 is fixed
    by the quarter turn, one of 4 by the half turn alone, one of 8 by nothing. Elsewhere {}."""
    if not _rotations_alone(problem, group):
        return {}
    return {
        "quarter_turn": by_orbit.get(1, 0) + by_orbit.get(2, 0),
        "half_turn_only": by_orbit.get(4, 0),
        "reflection_only": 0,
        "asymmetric": by_orbit.get(8, 0),
    }


@dataclass(frozen=True)
class ClassCount:
    """Solutions counted by symmetry class under `group` (symmetry names): `by_orbit` maps an
    orbit size to the number of classes of that size."""

    group: tuple[str, ...]
    by_orbit: dict[int, int]
    #: Solutions fixed by symmetries, where the search knows them: "point_symmetric" (the half
    #: turn, OEIS A032522) and "rotational" (the quarter turn, OEIS A033148).
    symmetric: dict[str, int] = field(default_factory=dict)
    #: What the search measured (nodes...), as in Outcome.stats; not part of the answer.
    stats: dict[str, int] = field(default_factory=dict, compare=False)
    #: The classes by the turns that fix their members (`model.symmetry.TURNS`: quarter turn,
    #: half turn only, a reflection only, none), where the count knows them.
    turns: dict[str, int] = field(default_factory=dict)

    @property
    def unique(self) -> int:
        return sum(self.by_orbit.values())

    @property
    def total(self) -> int:
        return sum(size * k for size, k in self.by_orbit.items())
