"""Counting symmetry classes: searches that between them reach every canonical solution (and
far fewer others), with the compiled canonical test run on what they find.

With the full group, a canonical s is no larger than any image, so s[0] is no larger than any
image's first entry. Those entries are n-1-s[0] (flip-cols), s[n-1] (flip-rows), n-1-s[n-1]
(rot180), and the rows of the pieces in columns 0 and n-1, and n-1 minus those (transpose,
rot90, rot270, anti-transpose). So with c0 = s[0] <= (n-1)/2: the last row's piece lies in
columns c0..n-1-c0, and the pieces of columns 0 and n-1 lie in rows c0..n-1-c0. One search per
c0, each piece kept where those bounds allow it, and each search cut again by its second row's
column: the work items.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ....model.problem import Problem
from ....model.symmetry import NAMES, problem_symmetries, table_array
from ...base import Deadline
from ...watch import NODES
from ..tables import masks_array
from .base import Counts, Items, Split, fingerprint, warm


def candidate_masks(problem: Problem, group: tuple[str, ...]) -> Iterator[np.ndarray]:
    """Row masks of the symmetry-broken searches (the problem's own masks when its group is
    smaller than the full one)."""
    base = masks_array(problem)
    n = problem.n
    if len(group) < len(NAMES) or n < 2:
        yield base
        return
    full = (1 << n) - 1
    edges = (1 << 0) | (1 << (n - 1))
    for c0 in range((n + 1) // 2):
        masks = base.copy()
        masks[0] &= np.uint64(1 << c0)
        for r in range(1, n):
            if r < c0 or r > n - 1 - c0:
                masks[r] &= np.uint64(~edges & full)
        masks[n - 1] &= np.uint64(sum(1 << c for c in range(c0, n - c0)))
        if masks[0]:
            yield masks


def pin_second_row(searches: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    """Each search cut by the column of its second row: smaller items for a pool."""
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


Context = tuple[Problem, np.ndarray, list[np.ndarray]]


def run(context: Context, indices: np.ndarray, stop: np.ndarray, deadline: Deadline | None = None) -> Counts:
    """The canonical solutions of searches `indices`, by the size of their class. An enumeration
    sees the deadline between its batches (a pool worker's is none: its parent stops it)."""
    from ..kernels.canonical import count_canonical
    from ..searches import enumerate_arrays

    problem, table, searches = context
    by_orbit = np.zeros(len(NAMES) + 1, np.int64)
    clock = deadline or Deadline("bitmask", None)
    stats: dict[str, int] = {}
    try:
        for i in indices.tolist():
            for batch in enumerate_arrays(problem, clock, stats, searches[i]):
                count_canonical(batch, table, by_orbit)
    finally:
        stop[NODES] += stats.get("nodes", 0)
    return Counts.of_classes({size: int(k) for size, k in enumerate(by_orbit)})


def items(problem: Problem) -> Items:
    group = problem_symmetries(problem)
    searches = list(pin_second_row(candidate_masks(problem, group)))
    return Items(
        fingerprint(problem, 2, Split.CLASSES) | {"group": list(group)},
        len(searches),
        run,
        (problem, table_array(group), searches),
        load_kernels,
    )


def load_kernels() -> None:
    """Load the compiled kernels in this process (before forking workers that share them)."""
    small = Problem(4)
    warm(run, (small, table_array(NAMES), [masks_array(small)]))
