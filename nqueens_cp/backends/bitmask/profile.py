"""The profile of the row search's tree: its nodes at each depth (`kernels.profile`), the
branches of the first row's columns walked on threads (the kernels hold no GIL). Queens on an
open board take the classic search's three words a row, and half the first row's columns (a
column's mirror image roots a tree of the same shape); every other board, the attack table."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...model.problem import Problem
from ..base import Deadline
from ..watch import watched
from . import layouts


def tables(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """(attack, free): each square's attacks a mask a row (its row included), and the columns
    each row may take (usable squares; a pre-placed piece's row, its column alone)."""
    m, n = problem.rows, problem.n
    attack = layouts.attack_table(problem, ())
    shut = layouts.closed(problem)
    free = np.zeros(m, np.uint64)
    for r in range(m):
        for c in range(n):
            if (r, c) not in shut:
                free[r] |= np.uint64(1) << np.uint64(c)
    for r, c in problem.fixed:
        free[r] &= np.uint64(1) << np.uint64(c)
    return attack, free


def profile(problem: Problem, deadline: Deadline, workers: int) -> list[int]:
    """Nodes at depth 0..rows of the row search (entry k: the placements of the first k rows
    that the rules allow among themselves; the last, the solutions). Raises Unknown at a stop."""
    from .kernels.profile import profile as walk
    from .kernels.profile import queens

    m, n = problem.rows, problem.n
    if _open_queens(problem):  # a column and its mirror image root the same tree: half of them, twice
        columns, weights = list(range((n + 1) // 2)), [1 if 2 * c + 1 == n else 2 for c in range((n + 1) // 2)]

        def branch(k: int, stop: np.ndarray) -> bool:
            return bool(queens(m, n, np.int64(columns[k]), stop, outs[k]))
    else:
        attack, free = tables(problem)
        columns = [c for c in range(n) if int(free[0]) >> c & 1]
        weights = [1] * len(columns)

        def branch(k: int, stop: np.ndarray) -> bool:
            return bool(walk(m, n, attack, free, np.int64(columns[k]), stop, outs[k]))

    outs = [np.zeros(m + 1, np.int64) for _ in columns]
    total = np.zeros(m + 1, np.int64)
    total[0] = 1
    with watched(deadline) as stop, ThreadPoolExecutor(max(1, min(workers, len(columns) or 1))) as pool:
        list(pool.map(lambda k: branch(k, stop), range(len(columns))))
    deadline.check(None)  # (a signal's stop raises as the block ends)
    for out, weight in zip(outs, weights, strict=True):
        total += weight * out
    return [int(v) for v in total]


def _open_queens(problem: Problem) -> bool:
    """Queens on a board with nothing on it and no wrap: the classic search's own kernel."""
    plain = not (problem.blocked or problem.fixed or problem.walls or problem.torus or problem.regions)
    return plain and problem.rule.notation == "Q" and problem.n <= 64
