"""The clingo backend: the puzzle as an answer-set program (io/data/nqueens.lp, after the ASP
competition's encoding, with the board as facts from io/asp.py) solved by clingo's Python API
(`pip install 'nqueens_cp[asp]'`).

clingo solves in its own thread (`solve(async_=True, yield_=True)`): this thread waits for each
model in short steps, so Ctrl-C and the time limit are seen at once, and a stop cancels the
search. Counting is clingo's own enumeration, each model converted and checked like any answer. Grounding
is one call that cannot be stopped; the board size is bounded so that it stays short.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..io.asp import encoding_text, facts_text
from ..model.problem import Problem, Solution
from .base import Backend, BackendError, Capabilities, Outcome, Plan, Stats, Task, first_of

#: The largest board modelled: ground lines list every square per family (n^2 atoms each).
MAX_N = 300

#: How long one wait for the next model lasts before the deadline is looked at.
WAIT_SECONDS = 0.05


class ClingoBackend(Backend):
    """Options: `time_limit` in seconds."""

    capabilities = Capabilities(options=frozenset({"time_limit"}), max_n=MAX_N, exports=frozenset({"lp"}))

    @classmethod
    def missing(cls) -> str | None:
        try:
            import clingo  # noqa: F401
        except ImportError:
            return "the clingo backend needs clingo: pip install 'nqueens_cp[asp]'"
        return None

    @classmethod
    def version(cls) -> str | None:
        try:
            import clingo
        except ImportError:
            return None
        return f"clingo {clingo.__version__}"

    def _plan(self, problem: Problem, task: Task) -> Plan:
        why = self.missing()
        if why:
            raise BackendError(why)
        return Plan(task, "clingo", "the answer-set program, grounded and solved by clingo")

    def _control(self, problem: Problem, models: int) -> Any:
        import clingo

        ctl = clingo.Control([str(models), "--warn=none"])
        ctl.add("base", [], encoding_text() + facts_text(problem))
        ctl.ground([("base", [])])
        return ctl

    def _models(self, problem: Problem, models: int, stats: Stats) -> Iterator[Solution]:
        """clingo's models as placements, raising
        Unknown at the deadline after what was found."""
        deadline = self.deadline()
        ctl = self._control(problem, models)
        found = 0
        with ctl.solve(yield_=True, async_=True) as handle:
            try:
                while True:
                    handle.resume()
                    while not handle.wait(WAIT_SECONDS):
                        deadline.check(found)
                    model = handle.model()
                    if model is None:
                        break
                    found += 1
                    deadline.check(found)  # models that keep coming never leave the wait above
                    yield _placement(model.symbols(shown=True), problem.rows)
            except BaseException:
                handle.cancel()
                raise
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
        out.write(encoding_text())
        out.write("\n% -- the board --\n")
        out.write(facts_text(problem))


def _placement(symbols: list[Any], rows: int) -> Solution:
    cols = [-1] * rows
    for s in symbols:
        r, c = (a.number for a in s.arguments)
        cols[r - 1] = c - 1  # ASP counts from 1
    return tuple(cols)


BACKEND = ClingoBackend
