"""The compiled row searches driven from Python: batches of solutions in lexicographic order (or
a count), in bounded slices so the deadline and Ctrl-C are seen between compiled calls. The
specialised kernel serves rooks, queens and superqueens on square boards; the generic one
(`anykernel`) every other piece and shape."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ...model.problem import Problem
from ..base import Deadline
from .planner import mirrored, translated
from .split import masks_array

#: Enumeration hands solutions back in batches that start small (a `first` costs one solution)
#: and double up to this size (a full enumeration pays little per call).
MAX_BATCH = 8192

#: Placements one compiled call may make before Python regains control: a few milliseconds.
SLICE_NODES = 1 << 20


def enumerate_arrays(
    problem: Problem, deadline: Deadline, stats: dict[str, int], masks: np.ndarray | None = None
) -> Iterator[np.ndarray]:
    """Every solution in lexicographic order as batches (rows of an int16 array) from the
    resumable compiled kernel (n <= 64). Each yielded array is valid until the next. `masks`
    narrows the problem's own row masks (a search restricted on purpose)."""
    from . import rowkernels as k

    rule = problem.rule
    masks = masks_array(problem) if masks is None else masks
    state = k.new_state(masks)
    args = (masks, rule.diagonals, rule.knight, problem.torus, *state)
    return _batches(lambda out: k.enumerate_batch(*args, out, SLICE_NODES), state[-1], problem.rows, deadline, stats)


def enumerate_any(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[np.ndarray]:
    """`enumerate_arrays` for any piece and board shape, from the generic kernel."""
    from . import anykernel as k

    masks = masks_array(problem)
    slides, reach = k.tables(problem)
    state = k.new_state(masks, slides)
    args = (masks, slides, reach, *state)
    return _batches(lambda out: k.search(*args, out, SLICE_NODES), state[-1], problem.rows, deadline, stats)


def _batches(
    search: Callable[[np.ndarray], int], st: np.ndarray, rows: int, deadline: Deadline, stats: dict[str, int]
) -> Iterator[np.ndarray]:
    """The batches a resumable kernel writes into `out` (`search(out)` returns how many), its
    state's st = [row, done flag, nodes]; the deadline is looked at between calls."""
    batch = 1
    out = np.empty((batch, rows), dtype=np.int16)
    found = 0
    try:
        while not st[1]:
            if out.shape[0] != batch:
                out = np.empty((batch, rows), dtype=np.int16)
            got = search(out)
            if got:
                found += got
                yield out[:got]
                batch = min(batch * 2, MAX_BATCH)
            if not st[1]:
                deadline.check(found)
    finally:
        stats["nodes"] = stats.get("nodes", 0) + int(st[2])


def count_any(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> int:
    """The number of solutions of any piece and board shape, from the generic kernel counting in
    slices; raises Unknown (with a lower bound: the count so far) at the deadline. The first two
    rows are narrowed by the symmetries that hold (`first_rows`), each part weighted."""
    from . import anykernel as k

    masks = masks_array(problem)
    slides, reach = k.tables(problem)
    found = 0
    for row0, row1, weight in first_rows(problem):
        found += count_masks(narrowed(masks, row0, row1), slides, reach, weight, stats, deadline, found)
    return found


def narrowed(masks: np.ndarray, row0: int, row1: int) -> np.ndarray:
    """A copy of `masks` with rows 0 and 1 (where the board has it) kept to the columns given."""
    part = masks.copy()
    part[0] &= np.uint64(row0)
    if part.shape[0] > 1:
        part[1] &= np.uint64(row1)
    return part


def count_masks(
    masks: np.ndarray,
    slides: np.ndarray,
    reach: np.ndarray,
    weight: int,
    stats: dict[str, int],
    deadline: Deadline | None = None,
    before: int | None = None,
) -> int:
    """`weight` times the solutions of the row masks `masks` (the generic kernel's tables
    `slides` and `reach`), counted to the end in slices; its placements are added to
    stats["nodes"]. The deadline, if any, is looked at between slices, with `before` plus the
    count so far as the lower bound an Unknown carries (None: no bound to give)."""
    from . import anykernel as k

    state = k.new_state(masks, slides)
    st = state[-1]
    nothing = np.empty((0, masks.shape[0]), dtype=np.int16)
    found = 0
    try:
        while not st[1]:
            found += weight * int(k.search(masks, slides, reach, *state, nothing, SLICE_NODES))
            if deadline is not None and not st[1]:
                deadline.check(None if before is None else before + found)
    finally:
        stats["nodes"] = stats.get("nodes", 0) + int(st[2])
    return found


def first_rows(problem: Problem) -> list[tuple[int, int, int]]:
    """The count as parts (columns allowed in row 0, in row 1, weight), by the symmetries that
    hold. On a plain torus, moving every piece one column over (wrapping) maps solutions onto
    solutions, so each solution has exactly one image with its first row's piece in column 0:
    that column alone, weighted n. Where the left-right mirror holds too, c -> -c (mod n) keeps
    column 0 and pairs row 1's columns c and n - c: half of them, weighted 2n. Without a torus,
    the mirror pairs row 0's columns c and n - 1 - c: the left half weighted 2, the middle column
    of an odd board 1."""
    n = problem.n
    every = (1 << n) - 1
    mirror = mirrored(problem)
    if translated(problem):
        if problem.rows == 1 or not mirror:
            return [(1, every, n)]
        left = sum(1 << c for c in range(1, n) if 2 * c < n)
        return [(1, left, 2 * n), (1, 1 << (n // 2) if n % 2 == 0 else 0, n)]
    if not mirror:
        return [(every, every, 1)]
    return [((1 << (n // 2)) - 1, every, 2), (1 << (n // 2) if n % 2 else 0, every, 1)]
