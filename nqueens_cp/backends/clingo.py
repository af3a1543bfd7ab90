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
from ..run.forked import ChildFailed, streamed
from .base import Backend, BackendError, Outcome, Plan, Stats, Task, first_of, package_version
from .formulations import formulated, formulation_of

#: The largest board modelled: ground lines list every square per family (n^2 atoms each).
MAX_N = 300

class ClingoBackend(Backend):
    """Options: `time_limit` in seconds."""

    capabilities = formulated(max_n=MAX_N, exports=frozenset({"lp"}))

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


BACKEND = ClingoBackend
