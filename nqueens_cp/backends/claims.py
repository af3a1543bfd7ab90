"""A claim that there is no solution, searched again by our engine.

Every solution a backend hands out is checked by `Problem.explain`, but "no solution" hands over
nothing to check: a SAT binary answering UNSAT made `count 8 -b sat` print 0, "solved". So a
no-solution answer (a count of 0 included) from any backend but the oracle (the one whose
capabilities say `oracle`: our engine, which the tests hold to OEIS, closed forms and an
independent brute force) is searched again by the oracle within REFUTE_SECONDS. A solution it
finds, checked by `Problem.explain`, refutes the claim: WrongAnswer, naming the solver. Where it
proves there is none the answer stands confirmed; where it cannot say in time (or cannot model
the board) the answer stands as the solver's claim alone. `stats["confirmed"]` says which (1, 0).

The commands `first`, `count` and `solve` and the API's `first`, `count` and `solve` check;
`verify` and `compare` hold backends against each other instead, and a run's time there is the
solver's alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..model.problem import Problem, Solution
from .base import Backend, Outcome, Status, UnsupportedProblem, WrongAnswer

#: The seconds our engine gets to find a solution another backend says does not exist.
REFUTE_SECONDS = 10.0


def checked_claim(problem: Problem, backend: Backend, outcome: Outcome) -> Outcome:
    """`outcome`, a claim of no solution in it searched again first (see the module)."""
    claims_none = outcome.status is Status.NO_SOLUTION or (outcome.status is Status.SOLVED and outcome.count == 0)
    if claims_none and not backend.capabilities.oracle:
        outcome.stats["confirmed"] = int(_searched_again(problem, backend))
    return outcome


def checked_stream(problem: Problem, backend: Backend, items: Iterator[Any], limit: int | None) -> Iterator[Any]:
    """`items` (solutions, or arrays of them), and, when the stream ends having handed over
    none (and no limit of 0 asked for none), its claim of no solution searched again."""
    given = False
    for item in items:
        given = given or len(item) > 0
        yield item
    if not given and limit != 0:
        checked_claim(problem, backend, Outcome(status=Status.NO_SOLUTION, count=0))


def _searched_again(problem: Problem, backend: Backend) -> bool:
    """Whether the oracle establishes that there is no solution; raises WrongAnswer naming
    `backend` when it finds one."""
    from . import oracle_backend

    try:
        outcome = oracle_backend(time_limit=REFUTE_SECONDS).first(problem)
    except UnsupportedProblem:
        return False
    found: Solution | None = outcome.solution
    if found is not None:
        raise WrongAnswer.placement(backend.label, found, "is a solution, where it says there is none", problem)
    return outcome.status is Status.NO_SOLUTION
