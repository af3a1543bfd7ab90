"""The compiled row searches driven from Python: batches of solutions in lexicographic order (or
a count), in bounded slices so the deadline and Ctrl-C are seen between compiled calls. The
specialised kernel serves rooks, queens and superqueens on square boards; the generic one
(`anykernel`) every other piece and shape."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import numpy as np

from ...model.problem import Problem
from ..base import Deadline
from ..watch import FLAG, NODES
from .planner import mirrored, translated
from .slots import DONE, PLACED
from .tables import masks_array

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
        while not st[DONE]:
            if out.shape[0] != batch:
                out = np.empty((batch, rows), dtype=np.int16)
            got = search(out)
            if got:
                found += got
                yield out[:got]
                batch = min(batch * 2, MAX_BATCH)
            if not st[DONE]:
                deadline.check(found)
    finally:
        stats["nodes"] = stats.get("nodes", 0) + int(st[PLACED])


def count_any(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> int:
    """The number of solutions of any piece and board shape, from the generic kernel or the
    piece's own (`count_into`); raises Unknown (with a lower bound: the solutions found) at the
    deadline. The first two rows are narrowed by the symmetries that hold (`first_rows`), each
    part weighted."""
    from . import anykernel as k

    masks = masks_array(problem)
    parts = first_rows(problem)
    stacked = np.stack([narrowed(masks, row0, row1) for row0, row1, _ in parts])
    weights = np.array([weight for *_, weight in parts], np.int64)
    return count_parts(stacked, *k.tables(problem), weights, stats, deadline)


def narrowed(masks: np.ndarray, row0: int, row1: int) -> np.ndarray:
    """A copy of `masks` with rows 0 and 1 (where the board has it) kept to the columns given."""
    part = masks.copy()
    part[0] &= np.uint64(row0)
    if part.shape[0] > 1:
        part[1] &= np.uint64(row1)
    return part


def count_parts(
    masks: np.ndarray,
    slides: np.ndarray,
    reach: np.ndarray,
    weights: np.ndarray,
    stats: dict[str, int],
    deadline: Deadline | None = None,
) -> int:
    """The sum of weights[i] times the solutions of the row masks masks[i] (the generic kernel's
    tables `slides` and `reach`); its placements are added to stats["nodes"]. A deadline, if
    any, and Ctrl-C stop the count mid-call (watch.py): Unknown, with the solutions found (the
    stopped part's so far included) as the lower bound."""
    from ..watch import tally, watched

    out = np.zeros(weights.size, np.int64)
    with watched(deadline) if deadline is not None else contextlib.nullcontext(tally()) as stop:
        try:
            count_into(masks, slides, reach, weights, out, stop, deadline)
        finally:
            stats["nodes"] = stats.get("nodes", 0) + int(stop[NODES])
    if deadline is not None:
        deadline.check(int(out.sum()))
    return int(out.sum())


def count_into(
    masks: np.ndarray,
    slides: np.ndarray,
    reach: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
    stop: np.ndarray,
    deadline: Deadline | None = None,
) -> None:
    """out[i] = weights[i] times the solutions of masks[i], by the piece's own kernel where it
    serves (`piecekernel.chosen`), else by the generic one, which hands over to the piece's once
    it has spent piecekernel.SPECIALISE_AFTER placements on the piece (the item under way is
    counted again). No compile starts within piecekernel.COMPILE_SECONDS of the deadline: a
    compile cannot be stopped. A call stopped by stop[FLAG] leaves in out the solutions found so
    far (a lower bound; the items not reached at 0); the placements are added to stop[NODES]."""
    from . import anykernel, piecekernel

    key = piecekernel.key(slides, reach, masks.shape[1])
    done = 0
    while done < weights.size and not stop[FLAG]:
        left = None if deadline is None else deadline.left()
        may_compile = left is None or left > piecekernel.COMPILE_SECONDS
        own = piecekernel.CACHE.chosen(key, may_compile)
        if own is not None:
            own(masks[done:], reach, weights[done:], out[done:], stop)
            return
        before = int(stop[NODES])
        budget = piecekernel.CACHE.budget(key, may_compile)
        done += anykernel.count_items(masks[done:], slides, reach, weights[done:], out[done:], stop, budget)
        piecekernel.CACHE.spent(key, int(stop[NODES]) - before)


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
