"""Explicit placements for plain boards of any size, built in O(n) without search, and the
theorems that say when there is none.

- Queens: the classical construction (Hoffman, Loessi and Moore, 1969) for every n >= 4: in
  1-based columns the even columns then the odd ones, with a fix-up when n % 6 is 2 or 3;
  n = 2, 3 have no solution.
- Rooks: the diagonal.
- Toroidal queens: q[i] = 2i mod n when gcd(n, 6) = 1, and no solution otherwise (Polya, 1918).
- Superqueens, plain or toroidal: q[i] = 3i mod n when gcd(n, 6) = 1 and n > 7 (columns differ by
  3 or 6 between rows one or two apart, which is no knight's move, and 3 +/- 1 are units mod n).

The caller validates what is built (Problem.explain, also O(n)): the proofs are on paper, the
check guards our transcription of them.
"""

from __future__ import annotations

from dataclasses import replace
from math import gcd

from ...model.problem import Problem, Solution

#: What `construct` says when it has no closed form for the board: search it.
UNKNOWN = "unknown"


def _modular(n: int, step: int) -> Solution:
    return tuple(step * i % n for i in range(n))


def _queens(n: int) -> Solution | None:
    if n in (2, 3):
        return None
    if n == 1:
        return (0,)
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = [3, 1, *range(7, n + 1, 2), 5]
    elif n % 6 == 3:
        evens = [*range(4, n + 1, 2), 2]
        odds = [*range(5, n + 1, 2), 1, 3]
    return tuple(c - 1 for c in evens + odds)


def construct(problem: Problem) -> Solution | str | None:
    """A solution of a plain board, None when a theorem says there is none, or UNKNOWN when no
    closed form covers the board (blocked or fixed squares, or a case listed nowhere above)."""
    n, piece, torus = problem.n, problem.piece, problem.torus
    if not problem.is_plain:
        return UNKNOWN
    if not problem.square:
        # The first rows of a square board's solution solve the rectangle (the rows kept
        # attack each other as before); on a torus the rows wrap sooner, so not there.
        full = UNKNOWN if torus else construct(replace(problem, rows=n))
        return full[: problem.rows] if isinstance(full, tuple) else UNKNOWN
    if piece == "rook":
        return tuple(range(n))
    coprime = gcd(n, 6) == 1
    if piece == "queen":
        if not torus:
            return _queens(n)
        return _modular(n, 2) if coprime else None
    if piece == "superqueen" and coprime and n > 7:
        return _modular(n, 3)
    return UNKNOWN


def has_closed_form(problem: Problem) -> bool:
    return construct(problem) != UNKNOWN
