"""The 8 symmetries of the square acting on solutions, canonical forms, and counting one
solution per symmetry class (fundamental solutions, OEIS A002562 for plain n-queens).

A symmetry maps a square (r, c) to another; a solution maps to the solution made of the images
of its squares. Every piece rule here (queen, rook) is invariant under all 8, so the group that
matters for a problem is the subgroup mapping its blocked and fixed squares onto themselves:
`problem_symmetries`. A solution is canonical when no symmetry of that group maps it to a
lexicographically smaller solution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .problem import Problem, Solution, Square, as_problem

#: name -> (n, r, c) -> image of square (r, c). Index order matters: the compiled kernel
#: below uses the same numbering.
SYMMETRIES: dict[str, Callable[[int, int, int], Square]] = {
    "identity": lambda n, r, c: (r, c),
    "rot90": lambda n, r, c: (c, n - 1 - r),
    "rot180": lambda n, r, c: (n - 1 - r, n - 1 - c),
    "rot270": lambda n, r, c: (n - 1 - c, r),
    "flip-cols": lambda n, r, c: (r, n - 1 - c),
    "flip-rows": lambda n, r, c: (n - 1 - r, c),
    "transpose": lambda n, r, c: (c, r),
    "anti-transpose": lambda n, r, c: (n - 1 - c, n - 1 - r),
}
NAMES = tuple(SYMMETRIES)


def transform(solution: Solution, name: str) -> Solution:
    n = len(solution)
    image = [0] * n
    f = SYMMETRIES[name]
    for r, c in enumerate(solution):
        r2, c2 = f(n, r, c)
        image[r2] = c2
    return tuple(image)


def problem_symmetries(problem: Problem) -> tuple[str, ...]:
    """The symmetries that map the problem onto itself (blocked to blocked, fixed to fixed)."""
    n = problem.n
    keep = []
    for name, f in SYMMETRIES.items():
        if all({f(n, r, c) for r, c in squares} == set(squares) for squares in (problem.blocked, problem.fixed)):
            keep.append(name)
    return tuple(keep)


def canonical(solution: Solution, group: tuple[str, ...] = NAMES) -> Solution:
    """The lexicographically smallest image of `solution` under `group`."""
    return min(transform(solution, g) for g in group)


def orbit(solution: Solution, group: tuple[str, ...] = NAMES) -> set[Solution]:
    return {transform(solution, g) for g in group}


@dataclass(frozen=True)
class UniqueCount:
    unique: int  # symmetry classes (fundamental solutions)
    total: int  # all solutions, as the sum of the classes' orbit sizes
    symmetries: tuple[str, ...]


def unique_solutions(problem: Problem | int, backend: str = "bitmask", **options) -> Iterator[Solution]:
    """One representative (the canonical one) per symmetry class, streamed."""
    from .api import solve

    p = as_problem(problem)
    group = problem_symmetries(p)
    return (s for s in solve(p, backend, **options) if canonical(s, group) == s)


def count_unique(problem: Problem | int, backend: str = "bitmask", **options) -> UniqueCount:
    """Count the symmetry classes. On the bitmask backend the canonical test runs compiled on
    batches of enumerated solutions; other backends stream through the Python test."""
    p = as_problem(problem)
    group = problem_symmetries(p)
    if backend == "bitmask" and p.n <= 64:
        from .backends import _bitkernels as k
        from .backends.bitmask import enumerate_arrays

        ids = np.array([NAMES.index(g) for g in group], dtype=np.int64)
        unique = total = 0
        for batch in enumerate_arrays(p):
            u, t = k.count_canonical(batch, ids)
            unique += u
            total += t
        return UniqueCount(unique, total, group)
    from .api import solve

    unique = total = 0
    for s in solve(p, backend, **options):
        if canonical(s, group) == s:
            unique += 1
            total += len(orbit(s, group))
    return UniqueCount(unique, total, group)
