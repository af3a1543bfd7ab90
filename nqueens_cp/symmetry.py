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


def _candidate_masks(problem: Problem, group: tuple[str, ...]) -> Iterator[np.ndarray]:
    """Row masks of searches that between them reach every canonical solution, and far fewer
    others: symmetry breaking before the canonical test.

    With the full group, a canonical s is no larger than any image, so s[0] is no larger than
    any image's first entry. Those entries are n-1-s[0] (flip-cols), s[n-1] (flip-rows),
    n-1-s[n-1] (rot180), and the rows of the pieces in columns 0 and n-1, and n-1 minus those
    (transpose, rot90, rot270, anti-transpose). So with c0 = s[0] <= (n-1)/2: the last row's
    piece lies in columns c0..n-1-c0, and the pieces of columns 0 and n-1 lie in rows
    c0..n-1-c0. One search per c0, each piece kept where those bounds allow it."""
    from .backends.bitmask import masks_array

    base = masks_array(problem)
    n = problem.n
    if len(group) < len(NAMES) or n < 2:
        yield base
        return
    for c0 in range((n + 1) // 2):
        masks = base.copy()
        masks[0] &= np.uint64(1 << c0)
        band = sum(1 << c for c in range(c0, n - c0))
        edges = (1 << 0) | (1 << (n - 1))
        for r in range(1, n):
            if r < c0 or r > n - 1 - c0:
                masks[r] &= np.uint64(~edges & ((1 << n) - 1))
        masks[n - 1] &= np.uint64(band)
        if masks[0]:
            yield masks


def unique_solutions(problem: Problem | int, backend: str = "bitmask", **options) -> Iterator[Solution]:
    """One representative (the canonical one) per symmetry class, streamed."""
    from .api import solve

    p = as_problem(problem)
    group = problem_symmetries(p)
    return (s for s in solve(p, backend, **options) if canonical(s, group) == s)


def _canonical_counts(problem: Problem, ids: np.ndarray, masks: np.ndarray) -> tuple[int, int]:
    """(canonical solutions, their orbit sizes) among the solutions within `masks`."""
    from .backends import _bitkernels as k
    from .backends.bitmask import enumerate_arrays

    unique = total = 0
    for batch in enumerate_arrays(problem, masks):
        u, t = k.count_canonical(batch, ids)
        unique += u
        total += t
    return unique, total


def _canonical_task(i: int) -> tuple[int, int]:
    from .parallel import worker_context

    problem, ids, tasks = worker_context()
    return _canonical_counts(problem, ids, tasks[i])


def _pin_second_row(searches: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    """Each search cut by the column of its second row: smaller tasks for a pool."""
    for masks in searches:
        row = int(masks[1]) if masks.shape[0] > 1 else 0
        if not row:
            yield masks
        while row:
            bit = row & -row
            row ^= bit
            pinned = masks.copy()
            pinned[1] = np.uint64(bit)
            yield pinned


def count_unique(
    problem: Problem | int, backend: str = "bitmask", workers: int | None = None, **options
) -> UniqueCount:
    """Count the symmetry classes. On the bitmask backend the searches of `_candidate_masks`
    run compiled with the canonical test on their batches, on `workers` processes (default:
    all cores from n = 13); other backends stream through the Python test."""
    p = as_problem(problem)
    group = problem_symmetries(p)
    if backend == "bitmask" and p.n <= 64:
        from .backends.bitmask import PARALLEL_FROM_N, masks_array
        from .parallel import default_workers, share_work

        ids = np.array([NAMES.index(g) for g in group], dtype=np.int64)
        workers = workers or (default_workers() if p.n >= PARALLEL_FROM_N else 1)
        if workers > 1:
            _canonical_counts(Problem(4), ids, masks_array(Problem(4)))  # JIT before fork
            tasks = list(_pin_second_row(_candidate_masks(p, group)))
            parts = share_work(_canonical_task, len(tasks), workers, (p, ids, tasks))
        else:
            parts = [_canonical_counts(p, ids, masks) for masks in _candidate_masks(p, group)]
        return UniqueCount(sum(u for u, _ in parts), sum(t for _, t in parts), group)
    if workers is not None:
        options["workers"] = workers
    unique = total = 0
    for s in unique_solutions(p, backend, **options):
        unique += 1
        total += len(orbit(s, group))
    return UniqueCount(unique, total, group)
