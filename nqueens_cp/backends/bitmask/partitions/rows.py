"""The count of rooks, queens and superqueens on a square board cut into independent
sub-problems: every placement of the first rows, as the attack masks on the next row, with a
weight. Their weighted completion counts add up to the exact
total. The order is fixed, so sub-problem i means the same thing in every run of the same
problem and depth (checkpoints, Dask).

A sub-problem is a row of a uint64 array: (weight, row, cols, d1, d2).
"""

from __future__ import annotations

import numpy as np

from ....model.problem import Problem
from ...watch import NEVER
from .base import Counts, Items, fingerprint, warm


def split(problem: Problem, depth: int) -> np.ndarray:
    """Every placement of the first `depth` rows (at most n - 1). When the problem is
    mirror-symmetric only first-row columns in the left half are kept, with weight 2 (the
    middle column of odd n weight 1)."""
    masks, n = problem.row_masks, problem.n
    full = (1 << n) - 1
    diag, mirror = problem.rule.diagonals, problem.is_mirror_symmetric()
    states: list[tuple[int, int, int, int, int]] = [(1, 0, 0, 0, 0)]
    for _ in range(min(depth, n - 1)):
        deeper = []
        for w, r, cols, d1, d2 in states:
            a = masks[r] & ~(cols | d1 | d2)
            while a:
                bit = a & -a
                a ^= bit
                weight = w
                if mirror and r == 0:
                    middle = 2 * (bit.bit_length() - 1) + 1 - n  # < 0 left half, 0 middle
                    if middle > 0:
                        break
                    weight = 2 * w if middle < 0 else w
                x, y = (((d1 | bit) << 1) & full, (d2 | bit) >> 1) if diag else (0, 0)
                deeper.append((weight, r + 1, cols | bit, x, y))
        states = deeper
    return np.array(states, dtype=np.uint64).reshape(-1, 5)




def count_one(masks: np.ndarray, diag: bool, sub: np.ndarray, stop: np.ndarray = NEVER) -> int:
    """The weighted number of completions of one sub-problem (partial if `stop` was set)."""
    from ..kernels import queens as k

    w, r, cols, d1, d2 = sub
    kernel = k.count_queens if diag else k.count_rooks
    return int(w) * int(kernel(masks, int(r), cols, d1, d2, stop))


Context = tuple[np.ndarray, bool, np.ndarray]

#: Sub-problems one call takes in this process: most are small, and a call per item cost 0.3 of
#: a blocked 13-board's count in Python around the kernel.
SLICE = 16


def run(context: Context, indices: np.ndarray, stop: np.ndarray, _deadline: object = None) -> Counts:
    masks, diag, subs = context
    return Counts(sum(count_one(masks, diag, subs[i], stop) for i in indices.tolist()))


def items(problem: Problem, depth: int) -> Items:
    """The first `depth` rows' placements as numbered work items."""
    from ..tables import masks_array

    masks, diag = masks_array(problem), problem.rule.diagonals
    subs = split(problem, depth)
    return Items(
        fingerprint(problem, depth),
        len(subs),
        run,
        (masks, diag, subs),
        lambda: load_kernels(masks, diag),
        per_call=SLICE,
    )


def load_kernels(masks: np.ndarray, diag: bool) -> None:
    """Load the compiled count kernel in this process (before forking workers that share it)."""
    warm(run, (masks, diag, np.array([[0, masks.shape[0] - 1, 0, 0, 0]], dtype=np.uint64)))  # a bare last row
