"""The count of plain queens from n = 16 as sets of top columns whose half-boards are joined
(`kernels.join` says how), PER_ITEM sets a work item, and the memory a worker of it holds,
declared to the planner before anything is allocated (so the kernels load only when a count
runs: planning loads no numba)."""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

from ....model.problem import Problem
from ...base import Deadline
from .base import Counts, Items, fingerprint, warm

#: Column sets counted per work item (a few hundred to a few thousand items from n = 18).
PER_ITEM = 16


def column_sets(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(sets, weights): the smallest top column set of each class under the mirrors that hold
    (left-right; top-bottom too on an even board), in increasing order, and its class's size."""
    from ..kernels.join import _column_sets

    most = comb(n, n // 2)
    sets, weights = np.empty(most, np.int64), np.empty(most, np.int64)
    k = _column_sets(n, sets, weights)
    return sets[:k].astype(np.uint64), weights[:k].copy()


#: The longest list of partials (top or bottom) over a seeded sample of 300 column sets, by n
#: (measured; from 23 on, extrapolated by the factor 6 that each two columns multiply it by).
LONGEST = {16: 2848, 17: 12836, 18: 16022, 19: 74300, 20: 98560, 21: 568844, 22: 757722}
#: Bytes a worker holds per partial of its longest list: its lists, their mirror images, the
#: matcher's tables and arranged copy, with room for the doubling of reused arrays (measured at
#: up to 120 at n = 20-22 as the growth of the peak resident size).
BYTES_PER_PARTIAL = 256
#: Column sets, weights and the compiled kernels, besides the lists.
BASE_BYTES = 64 << 20
#: The placements of the quarters listed once (kernels.join.quarter_tables), by n (counted; at
#: most 2^21 a quarter): 16 bytes each are kept, and up to 64 more are used while they are
#: listed; a quarter with more placements takes 48 MB to find out.
LISTED_ONCE = {16: 39376, 17: 179512, 18: 357964, 19: 1053916, 20: 1309096, 21: 2403902, 22: 1224212}


def memory(n: int) -> int:
    """The bytes one worker of the join may hold on an n x n board (see LONGEST), declared in
    the plan before anything is allocated."""
    longest = LONGEST.get(n) or LONGEST[22 - n % 2] * 6 ** ((n - 22 + n % 2) // 2)
    sets = comb(n, n // 2) * 16  # column sets and weights
    quarters = 80 * LISTED_ONCE.get(n, 4 << 21) + (48 << 20 if n > 20 else 0)
    return BASE_BYTES + sets + quarters + int(1.5 * longest) * BYTES_PER_PARTIAL


Context = tuple[int, np.ndarray, np.ndarray]


def context(problem: Problem) -> Context:
    return (problem.n, *column_sets(problem.n))


@cache
def _quarter_tables(n: int) -> tuple:
    """The quarters listed once, for every work item this process counts (a worker's, or ours
    for the whole count)."""
    from ..kernels.join import quarter_tables

    return quarter_tables(n)


def run(ctx: Context, indices: np.ndarray, stop: np.ndarray, _deadline: Deadline | None = None) -> Counts:
    """Work items `indices`: PER_ITEM column sets each."""
    from ..kernels.join import count_with

    n, sets, weights = ctx
    tables = _quarter_tables(n)
    total = 0
    for i in indices.tolist():
        part = slice(i * PER_ITEM, (i + 1) * PER_ITEM)
        total += int(count_with(n, sets[part], weights[part], tables, stop))
    return Counts(total)


def item_info(ctx: Context, i: int) -> dict[str, object]:
    """What a checkpoint records beside item i's count: its column sets, so a record can be
    recounted on its own."""
    sets = ctx[1]
    return {"column_sets": [int(c) for c in sets[i * PER_ITEM : (i + 1) * PER_ITEM]]}


def items(problem: Problem) -> Items:
    """The count as numbered work items (pool, Dask, checkpoints): PER_ITEM column sets each."""
    ctx = context(problem)
    return Items(
        fingerprint(problem, 0) | {"split": "join", "depth": None, "per_item": PER_ITEM},
        -(-ctx[1].shape[0] // PER_ITEM),
        run,
        ctx,
        load_kernels,
        lambda i: item_info(ctx, i),
    )


def load_kernels() -> None:
    """Load the compiled kernels in this process (before forking workers that share them)."""
    warm(run, context(Problem(8)))
