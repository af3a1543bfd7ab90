"""The interface every backend implements, and the explicit outcome of a search.

Mirrors the shape of CPMpy's solver interface at our size: a backend is a class with a name,
a way to say which problems it can model, and three searches. A backend must implement
`solutions`; `count` and `first` have generic versions built on it that a backend overrides
when it can do better (counting without building solutions, a decision search).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from ..problem import NQueensError, Problem, Solution


class Status(Enum):
    SOLVED = "solved"
    NO_SOLUTION = "no solution"
    TIME_LIMIT = "time limit reached"  # the answer is unknown


@dataclass(frozen=True)
class Outcome:
    """The result of a decision search: never an empty value standing for "unknown"."""

    status: Status
    solution: Solution | None = None
    seconds: float = 0.0


class BackendError(NQueensError):
    pass


class UnsupportedProblem(BackendError):
    """The backend cannot model the requested variant."""


class TimeLimitReached(BackendError):
    """The search stopped at its time limit: counts and "no solution" are unknown.

    `partial` is the number of solutions found before the limit (a lower bound)."""

    def __init__(self, backend: str, seconds: float, partial: int = 0) -> None:
        super().__init__(
            f"{backend}: time limit of {seconds:g}s reached before the search finished "
            f"({partial} solution(s) found so far; the answer is unknown)"
        )
        self.partial = partial


class Backend:
    """Base class of the backends. Options (workers, time limit, seed...) go to __init__ and
    each backend declares the ones it accepts in `options`, so a typo is an error."""

    name: ClassVar[str]
    options: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - self.options
        if unknown:
            accepted = ", ".join(sorted(self.options)) or "none"
            raise BackendError(
                f"backend {self.name!r} does not take option(s) {', '.join(sorted(unknown))} (accepted: {accepted})"
            )
        self.settings = options

    def unsupported(self, problem: Problem) -> str | None:
        """Why this backend cannot model `problem`, or None when it can."""
        return None

    def check(self, problem: Problem) -> None:
        reason = self.unsupported(problem)
        if reason:
            raise UnsupportedProblem(f"backend {self.name!r} cannot model this problem: {reason}")

    def solutions(self, problem: Problem) -> Iterator[Solution]:
        """Stream every solution (a generator: nothing is accumulated)."""
        raise NotImplementedError

    def count(self, problem: Problem) -> int:
        return sum(1 for _ in self.solutions(problem))

    def first(self, problem: Problem) -> Outcome:
        try:
            for sol in self.solutions(problem):
                return Outcome(Status.SOLVED, sol)
        except TimeLimitReached:
            return Outcome(Status.TIME_LIMIT)
        return Outcome(Status.NO_SOLUTION)
