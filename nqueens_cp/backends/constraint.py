"""The constraint backend: the Problem as a python-constraint model (python-constraint2).

A variable per row whose domain is the columns the spec allows; AllDifferent on the columns;
for queens, the two diagonal rules as pairwise constraints |q[i] - q[j]| != j - i in the
library's compiled string form, the fastest of the formulations measured (see README).
Solutions stream from the library's solution iterator.

This is also the smallest backend: copy it to add another.
"""

from __future__ import annotations

from collections.abc import Iterator

import constraint as pc

from ..problem import Problem, Solution
from .base import Backend


def build_model(problem: Problem) -> pc.Problem:
    n = problem.n
    q = [f"q{i}" for i in range(n)]
    model = pc.Problem()
    for i in range(n):
        model.addVariable(q[i], problem.allowed_columns(i))
    model.addConstraint(pc.AllDifferentConstraint(), q)
    if problem.rule.diagonals:
        for i in range(n):
            for j in range(i + 1, n):
                model.addConstraint(f"abs({q[i]} - {q[j]}) != {j - i}")
    return model


class ConstraintBackend(Backend):
    name = "constraint"

    def solutions(self, problem: Problem) -> Iterator[Solution]:
        n = problem.n
        if not all(problem.allowed_columns(i) for i in range(n)):
            return  # a row with every square blocked: the library refuses empty domains
        names = [f"q{i}" for i in range(n)]
        for sol in build_model(problem).getSolutionIter():
            yield tuple(sol[v] for v in names)
