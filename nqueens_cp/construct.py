"""Explicit placements for plain boards of any size, built in O(n) without search.

Queens use the classical construction (Hoffman, Loessi and Moore, 1969) that exists for every
n >= 4: in 1-based columns, the even columns then the odd ones, with a fix-up when n % 6 is 2
or 3. Rooks use the diagonal. The caller validates the result (Problem.explain, also O(n)).
"""

from __future__ import annotations

from .problem import Solution


def queens(n: int) -> Solution | None:
    """A solution of plain n-queens, or None when there is none (n = 2, 3)."""
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


def rooks(n: int) -> Solution:
    return tuple(range(n))
