"""The count cut into independent sub-problems: every placement of the first rows, as the attack
masks on the next row, with a weight. Their weighted completion counts add up to the exact
total. The order is fixed, so sub-problem i means the same thing in every run of the same
problem and depth (checkpoints, Dask).

A sub-problem is a row of a uint64 array: (weight, row, cols, d1, d2).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...model.problem import Problem


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


#: Rows fixed per sub-problem of a row split, wherever it runs (in this process, on the pool,
#: on Dask, into a checkpoint): about n^3/6 items keep every worker busy to the end, and each is
#: small enough that progress moves and a stop is quick.
SPLIT_DEPTH = 3


def count_one(masks: np.ndarray, diag: bool, sub: np.ndarray, stop: np.ndarray | None = None) -> int:
    """The weighted number of completions of one sub-problem (partial if `stop` was set)."""
    from ..watch import NEVER
    from . import rowkernels as k

    w, r, cols, d1, d2 = sub
    kernel = k.count_queens if diag else k.count_rooks
    return int(w) * int(kernel(masks, int(r), cols, d1, d2, NEVER if stop is None else stop))


def count_item(context: tuple[np.ndarray, bool, np.ndarray], i: int) -> int:
    """Work item i of a partitioned count (see nqueens_cp.partition)."""
    masks, diag, subs = context
    return count_one(masks, diag, subs[i])


def count_item_nodes(context: tuple[np.ndarray, bool, np.ndarray], i: int) -> tuple[int, int]:
    """(count, nodes) of work item i, for a pool that reports the search's nodes."""
    from ..watch import tally

    masks, diag, subs = context
    t = tally()
    return count_one(masks, diag, subs[i], t), int(t[1])


def load_kernels(masks: np.ndarray, diag: bool) -> None:
    """Load the compiled count kernel in this process (before forking workers that share it)."""
    count_one(masks, diag, np.array([0, masks.shape[0] - 1, 0, 0, 0], dtype=np.uint64))


def fingerprint(problem: Problem, depth: int) -> dict[str, Any]:
    """What sub-problem numbers mean: the problem (a rectangle's rows too; a square's files
    stay as they were) and the split."""
    shape = {} if problem.square else {"rows": problem.rows}
    return {
        "n": problem.n,
        **shape,
        "piece": problem.piece,
        "torus": problem.torus,
        "blocked": [list(sq) for sq in problem.blocked],
        "fixed": [list(sq) for sq in problem.fixed],
        "split": "rows",
        "depth": depth,
    }
