"""The clingo backend: the puzzle as an answer-set program (io/data/nqueens.lp, after the ASP
competition's encoding, with the board as facts from io/asp.py) solved by clingo's Python API
(`pip install 'nqueens_cp[asp]'`).

clingo grounds and solves in a child process (`run.forked`) that sends each model as it is
found: grounding is one call that never returns to Python until it is done (a torus with leaps
grounded for 9 minutes past a 2 s limit, deaf to SIGTERM), so the deadline, Ctrl-C and SIGTERM
kill the child instead. Counting is clingo's own enumeration, each model converted and checked
like any answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..io.asp import encoding_text, facts_text, squares_facts_text
from ..model.problem import Problem, Solution
from ..model.squares import optimum_model
from ..run.forked import ChildFailed, streamed
from .base import (
    OPTIMUM_TASKS,
    Backend,
    BackendError,
    Outcome,
    Plan,
    Reason,
    Stats,
    Status,
    Task,
    Unknown,
    first_of,
    package_version,
)
from .formulations import formulated, formulation_of

#: The largest board modelled: ground lines list every square per family (n^2 atoms each).
MAX_N = 300

class ClingoBackend(Backend):
    """Options: `time_limit` in seconds."""

    capabilities = formulated(tasks=OPTIMUM_TASKS, max_n=MAX_N, exports=frozenset({"lp"}))

    @classmethod
    def missing(cls) -> str | None:
        try:
            import clingo  # noqa: F401
        except ImportError:
            return "the clingo backend needs clingo: pip install 'nqueens_cp[asp]'"
        return None

    @classmethod
    def version(cls) -> str | None:
        return package_version("clingo")

    def _plan(self, problem: Problem, task: Task) -> Plan:
        if task in OPTIMUM_TASKS:
            why = "an answer-set program whose #maximize or #minimize counts the pieces, clingo's optimisation to "
            why += "its proof (--opt-mode=optN enumerates the optimal models for --count)"
            return Plan(task, "clingo-optimise", why)
        which = "squares formulation's" if formulation_of(self.settings, problem) == "squares" else "permutation's"
        return Plan(task, "clingo", f"the {which} answer-set program, grounded and solved by clingo")

    def _models(self, problem: Problem, models: int, stats: Stats) -> Iterator[Solution]:
        """clingo's models as placements, grounded and solved in a child process that is killed
        at the deadline or on a stop (grounding is one call that never returns to Python until
        it is done); raises Unknown at the deadline after what was found."""
        deadline = self.deadline()
        found = 0
        try:
            formulation = formulation_of(self.settings, problem)
            for sol in streamed(lambda: _solved(problem, models, formulation), deadline.check):
                found += 1
                yield sol
        except ChildFailed as exc:
            raise BackendError(f"clingo: {exc}") from None
        finally:
            stats["models"] = found

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        return self._models(problem, 0, stats)

    def _first(self, problem: Problem, plan: Plan) -> Outcome:
        stats: Stats = {}
        return first_of(self._models(problem, 1, stats), stats)

    def _optimum(self, problem: Problem, plan: Plan, independent: bool, count: bool) -> Outcome:
        """clingo's optimisation of `OPTIMUM_PROGRAM` in a child process: each better model as
        found, the last proved optimal where the search is exhausted; with `count`, the optimal
        models clingo enumerates once the optimum is proved (--opt-mode=optN)."""

        deadline = self.deadline()
        best: list[tuple[int, int]] | None = None
        proved, optimal = False, 0
        try:
            run = lambda: _optimised(problem, plan.task.value, independent, count)  # noqa: E731
            for kind, pieces, sure in streamed(run, deadline.check):
                if kind == "model":
                    best = [tuple(sq) for sq in pieces]  # type: ignore[misc]
                    optimal += bool(sure)
                else:
                    proved = bool(sure)
        except ChildFailed as exc:
            raise BackendError(f"clingo: {exc}") from None
        except Unknown as exc:
            said = {} if best is None else {"value": len(best), "solution": problem.placed(best)}
            return Outcome(status=Status.UNKNOWN, reason=exc.reason, **said)
        if best is None:
            return Outcome(status=Status.NO_SOLUTION, count=0)
        value = len(best)
        solution = problem.placed(best)
        return Outcome(
            status=Status.SOLVED if proved else Status.UNKNOWN,
            reason=None if proved else Reason.SOLVER_LIMIT,
            value=value,
            bound=value if proved else None,
            solution=solution,
            count=optimal if proved and count else None,
        )


    def export(self, problem: Problem, fmt: str, out: Any) -> None:
        if fmt != "lp":
            super().export(problem, fmt, out)
        squares = formulation_of(self.settings, problem) == "squares"
        out.write(encoding_text(formulation_of(self.settings, problem)))
        out.write("\n% -- the board --\n")
        out.write(squares_facts_text(problem) if squares else facts_text(problem))


def _solved(problem: Problem, models: int, formulation: str = "permutation") -> Iterator[Solution]:
    """clingo's models (at most `models`, 0 for all) as placements: run in the child process."""
    import clingo

    facts = squares_facts_text(problem) if formulation == "squares" else facts_text(problem)
    ctl = clingo.Control([str(models), "--warn=none"])
    ctl.add("base", [], encoding_text(formulation) + facts)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            yield _placement(problem, model.symbols(shown=True))


def _placement(problem: Problem, symbols: list[Any]) -> Solution:
    """The solution of a model's atoms: q(R,C) a piece, pawn(R,C) a pawn (ASP counts from 1)."""
    found: dict[str, list[tuple[int, int]]] = {"q": [], "pawn": []}
    for s in symbols:
        r, c = (a.number for a in s.arguments)
        found[s.name].append((r - 1, c - 1))
    return problem.encode(found["q"], found["pawn"])

#: The most pieces or the fewest that cover, as an answer-set program over the facts
#: `_optimised` writes (1-based): square(R,C) a free square, fixed(R,C) a pre-placed piece,
#: on(L,R,C) a line segment and apart(R,C,S,T) a leap (where no two may attack), need(K) a
#: square to cover and by(K,R,C) the squares that cover it.
OPTIMUM_PROGRAM = """
{ q(R,C) : square(R,C) }.
:- fixed(R,C), not q(R,C).
:- on(L,_,_), 2 { q(R,C) : on(L,R,C) }.
:- apart(R,C,S,T), q(R,C), q(S,T).
:- need(K), not q(R,C) : by(K,R,C).
#show q/2.
"""


def _optimised(problem: Problem, task: str, independent: bool, count: bool) -> Iterator[tuple[str, Any, bool]]:
    """In the child: ("model", its squares, whether proved optimal) for each model clingo
    reports, then ("end", None, whether the search was exhausted)."""
    import clingo

    sm, covered = optimum_model(problem, task == "dominate")
    sq = [(r + 1, c + 1) for r, c in sm.squares]
    facts = [f"square({r},{c})." for r, c in sq] + [f"fixed({sq[i][0]},{sq[i][1]})." for i in sm.fixed]
    if task == "max" or independent:
        facts += [f"on({k},{sq[i][0]},{sq[i][1]})." for k, group in enumerate(sm.at_most_one) for i in group]
        facts += [f"apart({sq[a][0]},{sq[a][1]},{sq[b][0]},{sq[b][1]})." for a, b in sm.apart]
    for k, group in enumerate(covered):
        facts += [f"need({k})."] + [f"by({k},{sq[i][0]},{sq[i][1]})." for i in group]
    goal = "#maximize" if task == "max" else "#minimize"
    ctl = clingo.Control(["0", f"--opt-mode={'optN' if count else 'opt'}", "--warn=none"])
    ctl.add("base", [], OPTIMUM_PROGRAM + f"{goal} {{ 1,R,C : q(R,C) }}.\n" + "\n".join(facts))
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            pieces = [(s.arguments[0].number - 1, s.arguments[1].number - 1) for s in model.symbols(shown=True)]
            yield "model", pieces, model.optimality_proven
        yield "end", None, bool(handle.get().exhausted)


BACKEND = ClingoBackend
