"""The count of plain queens from n = 16 as sets of top columns whose half-boards are joined
(`kernels.join` says how; on a board of fewer rows than columns, `kernels.join.rectangles`),
PER_ITEM sets a work item, and the memory a worker of it holds, declared to the planner before
anything is allocated (so the kernels load only when a count runs: planning loads no numba)."""

from __future__ import annotations

from functools import cache
from math import comb
from typing import NamedTuple

import numpy as np

from ....model.problem import Problem
from ....run import aot
from ...base import Deadline
from .base import Counts, Items, Split, fingerprint, warm

#: Column sets counted per work item (a few hundred to a few thousand items from n = 18).
PER_ITEM = 16


#: The join's entry points, compiled ahead of time where they can be (`run.aot`): a count then
#: loads no numba (docs/benchmarks.md § Kernels compiled ahead of time).
KERNELS = aot.Group(
    "nqueens_join",
    "nqueens_cp.backends.bitmask.kernels.join",
    ("list_column_sets", "band_tables", "count_with", "list_rectangle_sets", "count_rectangles"),
    f"{__name__}:load_kernels",
)


def column_sets(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(sets, weights): the smallest top column set of each class under the mirrors that hold
    (left-right; top-bottom too on an even board), in increasing order, and its class's size."""
    most = comb(n, n // 2)
    sets, weights = np.empty(most, np.int64), np.empty(most, np.int64)
    k = aot.kernels(KERNELS).list_column_sets(n, sets, weights)
    return sets[:k].astype(np.uint64), weights[:k].copy()


def rectangle_sets(m: int, n: int) -> np.ndarray:
    """The top column sets of an m x n board (m < n): every set of m // 2 columns no larger than
    its mirror image, in increasing order."""
    out = np.empty(comb(n, m // 2), np.int64)
    k = aot.kernels(KERNELS).list_rectangle_sets(m, n, out)
    return out[:k].astype(np.uint64)


class Tuning(NamedTuple):
    """What the join's memory rests on at one board size, measured (`memory`)."""

    #: The longest list of partials (top or bottom) over a seeded sample of 300 column sets;
    #: None from n = 23, where it is extrapolated by the factor 6 that each two columns
    #: multiply it by.
    longest: int | None
    #: The placements of the bands listed once for every column set (kernels.join.band_tables;
    #: counted, at most MOST_LISTED_ONCE a band): 16 bytes each are kept, and up to 64 more are
    #: used while they are listed.
    listed_once: int


#: The join's tuning by board size, in one table (the planner's range, JOIN_FROM_N to
#: JOIN_MAX_N; tests/test_join.py holds listed_once to what the kernels list).
TUNING = {
    16: Tuning(2848, 39376),
    17: Tuning(12836, 179512),
    18: Tuning(16022, 357964),
    19: Tuning(74300, 1053916),
    20: Tuning(98560, 1309096),
    21: Tuning(568844, 6912626),
    22: Tuning(757722, 1224212),
    23: Tuning(None, 1631300),
    24: Tuning(None, 0),
    25: Tuning(None, 0),
    26: Tuning(None, 0),
}
#: Bytes a worker holds per partial of its longest list: its lists, their mirror images, the
#: matcher's tables and arranged copy, with room for the doubling of reused arrays (measured at
#: up to 120 at n = 20-22 as the growth of the peak resident size).
BYTES_PER_PARTIAL = 256
#: Column sets, weights and the compiled kernels, besides the lists.
BASE_BYTES = 64 << 20
#: What finding out that a band has too many placements to list once holds (three words for
#: each of kernels.join.bands.MOST_LISTED_ONCE placements: a literal here, so that planning
#: imports no numba; tests/test_join.py holds them equal): from n = 22, where a band has more.
OVER_LISTED_BYTES = 192 << 20


#: The join's range on a board of m < n rows, where it was measured faster than constellations
#: (docs/benchmarks.md § The join on rectangles): the longest list of partials (a top set's
#: bottom placements, on any of the columns it leaves), by (m, n), over a seeded sample of 300
#: column sets (`python benchmarks/bench_rectangles.py N:M --longest`).
RECTANGLES = {
    (16, 17): 25268,
    (16, 18): 135842,
    (17, 18): 135502,
    (18, 19): 154344,
    (18, 20): 971312,
    (19, 20): 950936,
    (18, 21): 4396936,
    (19, 21): 6562012,
    (20, 21): 1186608,
}


def memory(n: int, m: int | None = None) -> int:
    """The bytes one worker of the join may hold on an m x n board (see TUNING and RECTANGLES;
    m = n, a square, by default), declared in the plan before anything is allocated."""
    if m is not None and m < n:
        return BASE_BYTES + comb(n, m // 2) * 8 + int(1.5 * RECTANGLES[m, n]) * BYTES_PER_PARTIAL
    tuning, last = TUNING[n], TUNING[22 - n % 2]
    assert last.longest is not None
    longest = tuning.longest or last.longest * 6 ** ((n - 22 + n % 2) // 2)
    sets = comb(n, n // 2) * 16  # column sets and weights
    bands = 80 * tuning.listed_once + (OVER_LISTED_BYTES if n > 21 else 0)
    return BASE_BYTES + sets + bands + int(1.5 * longest) * BYTES_PER_PARTIAL


#: (rows, columns, the top column sets, their classes' sizes: None on a rectangle, whose
#: kernel weighs each pair itself).
Context = tuple[int, int, np.ndarray, "np.ndarray | None"]


def context(problem: Problem) -> Context:
    m, n = problem.rows, problem.n
    if m < n:
        return (m, n, rectangle_sets(m, n), None)
    return (m, n, *column_sets(n))


@cache
def _band_tables(n: int) -> tuple:
    """The bands listed once, for every work item this process counts (a worker's, or ours
    for the whole count)."""
    return aot.kernels(KERNELS).band_tables(n)


def run(ctx: Context, indices: np.ndarray, stop: np.ndarray, _deadline: Deadline | None = None) -> Counts:
    """Work items `indices`: PER_ITEM column sets each."""
    m, n, sets, weights = ctx
    kernels = aot.kernels(KERNELS)
    total = 0
    for i in indices.tolist():
        part = slice(i * PER_ITEM, (i + 1) * PER_ITEM)
        if weights is None:
            total += int(kernels.count_rectangles(m, n, sets[part], stop))
        else:
            total += int(kernels.count_with(n, sets[part], weights[part], _band_tables(n), stop))
    return Counts(total)


def item_info(ctx: Context, i: int) -> dict[str, object]:
    """What a checkpoint records beside item i's count: its column sets, so a record can be
    recounted on its own."""
    sets = ctx[2]
    return {"column_sets": [int(c) for c in sets[i * PER_ITEM : (i + 1) * PER_ITEM]]}


def items(problem: Problem) -> Items:
    """The count as numbered work items (pool, Dask, checkpoints): PER_ITEM column sets each."""
    ctx = context(problem)
    return Items(
        fingerprint(problem, 0, Split.JOIN) | {"depth": None, "per_item": PER_ITEM},
        -(-ctx[2].shape[0] // PER_ITEM),
        run,
        ctx,
        load_kernels,
        lambda i: item_info(ctx, i),
    )


def load_kernels() -> None:
    """Load the compiled kernels in this process (before forking workers that share them),
    compiled ahead of time first where that is still to do (`aot.ensure`): when the count
    starts, so that what it is given (a checkpoint's path) is checked before."""
    aot.ensure(KERNELS)
    warm(run, context(Problem(8)))
    warm(run, context(Problem(8, rows=6)))
