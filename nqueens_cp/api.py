"""The top-level API: solve / count / first on any backend, and the LeetCode 51/52 answers."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from .backends import Backend, Status, TimeLimitReached, get_backend
from .problem import Problem, Solution, as_problem, board_rows


def _prepare(problem: Problem | int, backend: str | Backend, options: dict[str, Any]):
    p = as_problem(problem)
    b = get_backend(backend, **options)
    b.check(p)
    return p, b


def solve(
    problem: Problem | int, backend: str | Backend = "bitmask", limit: int | None = None, **options: Any
) -> Iterator[Solution]:
    """Stream the solutions (tuple of the column in each row), at most `limit` of them.

    The problem and backend are checked now; the search runs as the iterator is consumed."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    p, b = _prepare(problem, backend, options)
    return _limited(b.solutions(p), limit)


def _limited(solutions: Iterator[Solution], limit: int | None) -> Iterator[Solution]:
    """A generator (so `close()` reaches the backend's stream and stops its search)."""
    try:
        yield from islice(solutions, limit)
    finally:
        close = getattr(solutions, "close", None)
        if close:
            close()


def count(problem: Problem | int, backend: str | Backend = "bitmask", **options: Any) -> int:
    """The number of solutions (raises TimeLimitReached rather than return a partial count)."""
    p, b = _prepare(problem, backend, options)
    return b.count(p)


def first(problem: Problem | int, backend: str | Backend = "bitmask", **options: Any) -> Solution | None:
    """One solution, or None when there is none (raises TimeLimitReached when unknown)."""
    p, b = _prepare(problem, backend, options)
    outcome = b.first(p)
    if outcome.status is Status.TIME_LIMIT:
        raise TimeLimitReached(b.name, options.get("time_limit") or 0.0)
    return outcome.solution


def solve_n_queens(n: int) -> list[list[str]]:
    """LeetCode 51: every solution of n-queens drawn as 'Q'/'.' rows."""
    return [board_rows(s) for s in solve(n)]


def total_n_queens(n: int) -> int:
    """LeetCode 52: the number of solutions of n-queens."""
    return count(n)
