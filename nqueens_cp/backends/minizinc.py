"""The minizinc backend: the exported MiniZinc model (io/data/nqueens.mzn with the board's data
file) solved by MiniZinc's own driver and any solver it lists (`mzn_solver`, Gecode by default).
MiniZinc runs under a guardian (`run.guard`): its solver, which it starts in a process group of
its own, ends with it on every stop, `kill -9` of ours included.

MiniZinc is a program, not a Python package: `apt-get install minizinc` brings MiniZinc 2.6.4
with Gecode 6.2.0 on Debian. The driver (`run.programs.lines_of`) streams its solutions as
JSON lines (`--json-stream`); each is handed on as it arrives and checked like any backend's.
A time limit goes to MiniZinc (`--time-limit`) and is enforced here too: past it the run is
ended.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..io.minizinc import data_text, model_text, squares_data_text
from ..model.problem import Problem, Solution
from ..run.programs import lines_of
from .base import (
    OPTIMUM_TASKS,
    Backend,
    BackendError,
    Deadline,
    Option,
    Outcome,
    Plan,
    Reason,
    Stats,
    Status,
    Task,
    Unknown,
    first_of,
)
from .formulations import formulated, formulation_of

DEFAULT_SOLVER = "gecode"

#: MiniZinc's statuses that say the search went to its end (with --all-solutions) or proved
#: there is nothing; any other end of the stream (a limit, a crash) leaves the answer unknown.
COMPLETE = {"ALL_SOLUTIONS", "OPTIMAL_SOLUTION", "UNSATISFIABLE"}

#: The largest board modelled: the data file lists forbidden offsets per row distance.
MAX_N = 1000


#: Solvers MiniZinc may list that cannot run a search here: Gist is Gecode's interactive
#: search-tree window, which waits for a user.
INTERACTIVE = {"org.gecode.gist"}


@functools.cache
def _listed() -> list[dict[str, Any]]:
    try:
        out = subprocess.run(["minizinc", "--solvers-json"], capture_output=True, timeout=30, check=True).stdout
        listed = json.loads(out)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise BackendError(f"minizinc: cannot list its solvers ({exc})") from None
    return [s for s in listed if isinstance(s, dict)]


def solvers_versions() -> dict[str, str]:
    """The version of each solver MiniZinc lists, by id."""
    return {str(s.get("id")): str(s.get("version")) for s in _listed()}


def solvers() -> dict[str, str]:
    """The solvers that run here, by id and short name (lower case) -> the id to run. MiniZinc
    also lists commercial MIP solvers whose libraries it has not found ("<unknown version>"):
    they are left out, so the list names only what works."""
    known: dict[str, str] = {}
    for s in _listed():
        ident = str(s.get("id", ""))
        if ident in INTERACTIVE or "unknown" in str(s.get("version", "unknown")):
            continue
        for name in (ident, ident.rsplit(".", 1)[-1]):
            known.setdefault(name.lower(), ident)
    return known


MZN_SOLVER = Option(
    "mzn_solver",
    str,
    "For -b minizinc: a solver MiniZinc lists (default gecode); or -b minizinc:NAME.",
    flag="--mzn-solver",
)


class MiniZincBackend(Backend):
    """Options: `mzn_solver`, a solver MiniZinc lists (default gecode); `time_limit` in seconds."""

    capabilities = formulated(MZN_SOLVER, tasks=OPTIMUM_TASKS, max_n=MAX_N, subsolver="mzn_solver")

    @classmethod
    def missing(cls) -> str | None:
        if shutil.which("minizinc") is None:
            return "the minizinc backend needs MiniZinc: apt-get install minizinc (Debian; or minizinc.org)"
        return None

    @classmethod
    def version(cls) -> str | None:
        try:
            out = subprocess.run(["minizinc", "--version"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        found = re.search(r"version ([\w.]+)", out)
        gecode = solvers_versions().get("org.gecode.gecode")
        return f"MiniZinc {found[1] if found else '?'}" + (f", Gecode {gecode}" if gecode else "")

    @classmethod
    def subsolvers(cls) -> dict[str, str]:
        """By their short names (chuffed, gecode, cp-sat...); `takes_subsolver` also takes ids."""
        if cls.missing():
            return {}
        versions = solvers_versions()
        return {name: versions.get(ident, "") for name, ident in solvers().items() if "." not in name}

    @classmethod
    def default_subsolver(cls) -> str | None:
        return DEFAULT_SOLVER

    def takes_subsolver(self, name: str) -> bool:
        return name.lower() in solvers()

    def subsolver_refused(self, name: str) -> str:
        return f"minizinc: no solver {name!r} here (known: {', '.join(sorted(self.subsolvers()))})"

    @property
    def solver_name(self) -> str:
        return self.subsolver or DEFAULT_SOLVER

    def _plan(self, problem: Problem, task: Task) -> Plan:
        if task in OPTIMUM_TASKS:
            why = f"data/optimum.mzn, optimised by {self.solver_name} to its proof; with --count, every optimal one"
            return Plan(task, f"minizinc-{self.solver_name}-optimise", why)
        which = "squares formulation's" if formulation_of(self.settings, problem) == "squares" else "exported"
        return Plan(task, f"minizinc-{self.solver_name}", f"the {which} MiniZinc model, solved by {self.solver_name}")

    def _run(self, problem: Problem, every: bool, stats: Stats) -> Iterator[Solution]:
        """The solutions MiniZinc prints (all of them, or the first), each as it arrives; raises
        Unknown when the run ends without MiniZinc saying the search is complete."""
        squares = formulation_of(self.settings, problem) == "squares"
        model = model_text(formulation_of(self.settings, problem))
        data = squares_data_text(problem) if squares else data_text(problem)
        read = _read_squares(problem) if squares else _read_q
        found, status = 0, None
        for kind, value in self._stream(model, data, "--all-solutions" if every else None, self.deadline()):
            if kind == "solution":
                found += 1
                stats["solutions"] = found
                yield read(value)
            elif kind == "status":
                status = value
            elif not (status in COMPLETE or (not every and found)):
                raise BackendError(f"minizinc ended without an answer: {value}")

    def _stream(self, model: str, data: str, flag: str | None, deadline: Deadline) -> Iterator[tuple[str, Any]]:
        """MiniZinc run on `model` and `data` (`flag`: --all-solutions, --intermediate-solutions,
        or None for one solution): ("solution", its output's JSON) for each solution as it
        arrives, ("status", its final status), then ("stderr", the last line it wrote there).
        MiniZinc's own time limit is a second over ours, so that ours (the kill) decides the
        stop: Unknown at the deadline."""
        solver = solvers()[self.solver_name.lower()]
        found = 0
        with tempfile.TemporaryDirectory(prefix="nqueens-mzn-") as tmp:
            model_file, data_file = Path(tmp) / "nqueens.mzn", Path(tmp) / "nqueens.dzn"
            model_file.write_text(model)
            data_file.write_text(data)
            args = ["minizinc", "--solver", solver, "--json-stream", "--output-mode", "json"]
            args += [flag] if flag else []
            left = deadline.left()
            if left is not None:
                args += ["--time-limit", str(int(left * 1000) + 1000)]
            errors = Path(tmp) / "stderr"
            poll = lambda: deadline.check(found)  # noqa: E731
            with errors.open("wb") as err:
                # MiniZinc's own temporary files (mznfile*.fzn) go in our folder, and with it
                env = {**os.environ, "TMPDIR": tmp}
                command = [*args, str(model_file), str(data_file)]
                for line in lines_of(command, err, poll=poll, env=env, scratch=tmp):
                    message = _message(line)
                    kind = message.get("type")
                    if kind == "solution":
                        found += 1
                        yield "solution", message["output"]["json"]
                    elif kind == "status":
                        yield "status", message.get("status")
                    elif kind == "error":
                        raise BackendError(f"minizinc: {message.get('message', message)}"[:300])
            deadline.check(found)  # MiniZinc's own limit ended it: unknown, like ours
            said = errors.read_text(errors="replace").strip().splitlines()
            yield "stderr", said[-1][:200] if said else "it printed nothing"

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        return self._run(problem, True, stats)

    def _first(self, problem: Problem, plan: Plan) -> Outcome:
        stats: Stats = {}
        return first_of(self._run(problem, False, stats), stats)

    def _optimum(self, problem: Problem, plan: Plan, independent: bool, count: bool) -> Outcome:
        """data/optimum.mzn optimised (each better solution as MiniZinc streams it, the last
        proved where it says OPTIMAL_SOLUTION), then with `count` run again with the number of
        pieces fixed and --all-solutions."""
        from ..io.minizinc import optimum_data_text
        from ..model.squares import optimum_model

        sm, _ = optimum_model(problem, plan.task == Task.DOMINATE)
        deadline = self.deadline()
        best: list[tuple[int, int]] | None = None
        status = None
        try:
            model = model_text("optimum")
            data = optimum_data_text(problem, plan.task.value, independent)
            for kind, value in self._stream(model, data, "--intermediate-solutions", deadline):
                if kind == "solution":
                    best = [sm.squares[i] for i, v in enumerate(value["x"]) if v]
                elif kind == "status":
                    status = value
            if best is None:
                return Outcome(status=Status.NO_SOLUTION, count=0)
            optimal = None
            if count and status == "OPTIMAL_SOLUTION":
                # the placements of a fixed number of pieces, listed: a satisfaction problem
                model = re.sub(r"(?m)^solve minimize .*$", "solve satisfy;", model)
                data = optimum_data_text(problem, plan.task.value, independent, target=len(best))
                listed = list(self._stream(model, data, "--all-solutions", deadline))
                optimal = sum(kind == "solution" for kind, _ in listed)
                if ("status", "ALL_SOLUTIONS") not in listed:
                    optimal = None
        except Unknown as exc:
            said = {} if best is None else {"value": len(best), "solution": problem.placed(best)}
            return Outcome(status=Status.UNKNOWN, reason=exc.reason, **said)
        said = {"value": len(best), "solution": problem.placed(best)}
        if status != "OPTIMAL_SOLUTION" or (count and optimal is None):
            return Outcome(status=Status.UNKNOWN, reason=Reason.SOLVER_LIMIT, **said)
        return Outcome(status=Status.SOLVED, bound=len(best), count=optimal, **said)


def _read_q(values: dict[str, Any]) -> Solution:
    """The permutation's solution: q, the column of each row (MiniZinc counts from 1)."""
    return tuple(c - 1 for c in values["q"])


def _read_squares(problem: Problem) -> Callable[[dict[str, Any]], Solution]:
    """The squares formulation's solution: the squares x and the pawns p that are true."""
    from ..model.squares import squares_model

    sm = squares_model(problem)

    def read(values: dict[str, Any]) -> Solution:
        pawns = [k for k, v in enumerate(values.get("p", [])) if v]
        return sm.solution(problem, [i for i, v in enumerate(values["x"]) if v], pawns)

    return read


def _message(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except ValueError:
        return {}  # a blank line between messages, or text of no interest
    return message if isinstance(message, dict) else {}


BACKEND = MiniZincBackend
