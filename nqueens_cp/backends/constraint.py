"""The constraint backend: the Problem as a python-constraint model (python-constraint2).

A variable per row whose domain is the columns the spec allows; AllDifferent on the columns;
every other rule as pairwise constraints q[j] - q[i] not in the offsets the piece attacks
j - i rows away (for queens |q[i] - q[j]| != j - i), written as plain functions. Of the
formulations measured (these, the library's compiled string constraints, an AllDifferent over
shifted values with forward checking) none was reliably faster on our noisy machines; this
one is the plainest and covers every variant
(docs/benchmarks.md § python-constraint's formulation).
Solutions stream from the library's solution iterator.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..model.problem import Problem, Solution
from .base import PLACEMENT_RULES, PLACEMENT_TASKS, Backend, Capabilities, Plan, Stats, package_version

#: The largest board modelled: n^2/2 pairwise constraints (20,000 here).
MAX_N = 200


def build_model(problem: Problem) -> Any:
    """The python-constraint Problem (imported here, at first use: the CLI reads every
    backend's declared options, and a bitmask run imports no other solver)."""
    import constraint as pc

    m = problem.rows
    q = [f"q{i}" for i in range(m)]
    model = pc.Problem()
    for i in range(m):
        model.addVariable(q[i], problem.allowed_columns(i))
    model.addConstraint(pc.AllDifferentConstraint(), q)
    for i in range(m):
        for j in range(i + 1, m):
            bad = problem.offsets(j - i)  # diagonals, knight moves, wrapped on a torus
            if bad:
                model.addConstraint(lambda a, b, bad=bad: b - a not in bad, (q[i], q[j]))
    return model


class ConstraintBackend(Backend):
    """No options: the library's search cannot be bounded in time from outside (it is refused,
    not ignored); being Python, it sees Ctrl-C at once."""

    capabilities = Capabilities(
        tasks=PLACEMENT_TASKS,
        rules=PLACEMENT_RULES,
        max_n=MAX_N,
    )

    @classmethod
    def version(cls) -> str | None:
        return package_version("python-constraint2")

    def _solutions(self, problem: Problem, plan: Plan, stats: Stats) -> Iterator[Solution]:
        m = problem.rows
        if not all(problem.allowed_columns(i) for i in range(m)):
            return  # a row with every square blocked: the library refuses empty domains
        names = [f"q{i}" for i in range(m)]
        for sol in build_model(problem).getSolutionIter():
            yield tuple(sol[v] for v in names)


BACKEND = ConstraintBackend
