"""Counting symmetry classes: searches that between them reach every canonical solution (and
far fewer others), with the compiled canonical test run on what they find.

With the full group, a canonical s is no larger than any image, so s[0] is no larger than any
image's first entry. Those entries are n-1-s[0] (flip-cols), s[n-1] (flip-rows), n-1-s[n-1]
(rot180), and the rows of the pieces in columns 0 and n-1, and n-1 minus those (transpose,
rot90, rot270, anti-transpose). So with c0 = s[0] <= (n-1)/2: the last row's piece lies in
columns c0..n-1-c0, and the pieces of columns 0 and n-1 lie in rows c0..n-1-c0. One search per
c0, each piece kept where those bounds allow it; on a pool each search is cut again by its
second row's column.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...model.problem import Problem
from ...model.symmetry import NAMES, problem_symmetries, table_array
from ..base import ClassCount, Deadline
from .tables import masks_array


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


def _canonical_counts(problem: Problem, table: np.ndarray, masks: np.ndarray, deadline: Deadline) -> np.ndarray:
    """Canonical solutions within `masks` by the size of their class (index: class size)."""
    from .rowkernels import count_canonical
    from .rows import enumerate_arrays

    by_orbit = np.zeros(len(NAMES) + 1, np.int64)
    for batch in enumerate_arrays(problem, deadline, {}, masks):
        count_canonical(batch, table, by_orbit)
    return by_orbit


def _item(context: tuple[Problem, np.ndarray, list[np.ndarray]], i: int) -> tuple[int, ...]:
    problem, table, searches = context
    return tuple(int(k) for k in _canonical_counts(problem, table, searches[i], Deadline("bitmask", None)))


def count_classes(problem: Problem, workers: int, deadline: Deadline) -> ClassCount:
    """Classes counted by the searches above, on `workers` processes (in this one for 1)."""
    group = problem_symmetries(problem)
    table = table_array(group)
    if workers > 1:
        from ...run.parallel import share_work

        _canonical_counts(Problem(4), table, masks_array(Problem(4)), deadline)  # compile before forking
        searches = list(pin_second_row(candidate_masks(problem, group)))
        context = (problem, table, searches)
        poll = lambda _found: deadline.check(None)  # noqa: E731  (classes counted so far are no bound)
        totals = np.array(share_work(_item, len(searches), workers, context, len(NAMES) + 1, poll=poll))
    else:
        totals = np.zeros(len(NAMES) + 1, np.int64)
        for masks in candidate_masks(problem, group):
            totals += _canonical_counts(problem, table, masks, deadline)
    return ClassCount(group, {size: int(k) for size, k in enumerate(totals) if k})
