"""What a new backend writes, in the way CPMpy's solvers/TEMPLATE.py shows its own: copy this
file to `backends/NAME.py`, replace the search with the solver's, and add NAME to `BACKENDS` in
`backends/__init__.py`. It is a working backend (a plain row search in Python), kept out of the
registry; `tests/test_contract.py` runs it, so the template cannot fall behind the interface.

What the base class does for every backend, so a new one writes none of it:
- refuses a problem that needs a rule not in `capabilities.rules`, a board over `max_n`, an
  option not in `capabilities.options`, and an unknown sub-solver, each in one line;
- checks every solution the backend gives against `Problem.explain` (independent of every
  backend) and, unless `repeat_free`, against repeats; counts the checked stream;
- turns `Unknown` raised by the stream into an unknown outcome with its partial count.

A backend that runs sub-solvers (`-b NAME:SOLVER`, as sat, minizinc and cpmpy do) also sets
`capabilities.subsolver` to its option's keyword, and answers the base class's questions:
`subsolvers()` (those installed, with their versions), `default_subsolver()`, and where it
takes more than it lists or says more when refusing, `takes_subsolver(name)` and
`subsolver_refused(name)`. It reads the chosen one as `self.subsolver`; the base class checks
it before any plan, and `label` names it in records and errors.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..model.problem import Problem, Solution
from .base import (
    PLACEMENT_RULES,
    PLACEMENT_TASKS,
    TIME_LIMIT,
    Backend,
    Capabilities,
    Option,
    Plan,
    Stats,
    Task,
    package_version,
)

#: The largest board modelled: a limit of the backend's own, stated (None for none).
MAX_N = 12

#: An option of the backend's own: its keyword, type, help, and the flag the CLI gives it.
PRUNE = Option("prune", bool, "For -b template: test each row against the rows above (off: test whole placements).")


class TemplateBackend(Backend):
    """Options: `time_limit` in seconds, `prune` (default on). Say what each option does here."""

    capabilities = Capabilities(
        options=(TIME_LIMIT, PRUNE),
        # Each rule it models, by name; the default is none, so a rule added to `Rule` later is
        # refused here until this backend models it. This search reads the rows' allowed
        # columns and the attacked offsets from the problem, which know every rule of today.
        tasks=PLACEMENT_TASKS,
        rules=PLACEMENT_RULES,
        max_n=MAX_N,
    )

    @classmethod
    def missing(cls) -> str | None:
        """What this machine lacks to run it (a package: say how to install it), or None."""
        return None

    @classmethod
    def version(cls) -> str | None:
        """The solver's name and version, as records state them."""
        return package_version("nqueens_cp")

    def _plan(self, problem: Problem, task: Task) -> Plan:
        """Which of its algorithms serves the task, and why; raise UnsupportedProblem to refuse."""
        how = "rows tested as they are placed" if self.settings.get("prune", True) else "whole placements tested"
        return Plan(task, "template-rows", f"a row search in Python, {how}")

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        """Every solution, streamed as found; raise Unknown (via the deadline) when stopped."""
        deadline = self.deadline()  # from the time_limit option
        prune = self.settings.get("prune", True)
        allowed = [problem.allowed_columns(r) for r in range(problem.rows)]
        place: list[int] = []
        stats["nodes"] = 0

        def fits(c: int) -> bool:  # a column of its own, and no piece above attacks it
            r = len(place)
            return c not in place and all(c - place[i] not in problem.offsets(r - i) for i in range(r))

        def extend() -> Iterator[Solution]:
            if len(place) == problem.rows:
                if prune or problem.explain(tuple(place)) is None:
                    yield tuple(place)
                return
            for c in allowed[len(place)]:
                stats["nodes"] += 1
                if stats["nodes"] % 4096 == 0:
                    deadline.check(None)  # raises Unknown once the time is up
                if not prune or fits(c):
                    place.append(c)
                    yield from extend()
                    place.pop()

        yield from extend()


BACKEND = TemplateBackend
