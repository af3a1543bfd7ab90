"""The compiled row searches driven from Python: batches of solutions in lexicographic order (or
a count), in bounded slices so the deadline and Ctrl-C are seen between compiled calls. The
specialised kernel serves rooks, queens and superqueens on square boards; the generic one
(`kernels.generic`) every other piece and shape."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ...model.problem import Problem
from ..base import Deadline
from ..watch import FLAG, NODES
from .slots import DONE, PLACED
from .tables import masks_array, moves

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
    from .kernels import queens as k

    rule = problem.rule
    masks = masks_array(problem) if masks is None else masks
    state = k.new_state(masks)
    args = (masks, rule.diagonals, rule.knight, problem.torus, *state)
    return _batches(lambda out: k.enumerate_batch(*args, out, SLICE_NODES), state[-1], problem.rows, deadline, stats)


def enumerate_any(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[np.ndarray]:
    """`enumerate_arrays` for any piece and board shape, from the generic kernel."""
    from .kernels import generic as k

    masks = masks_array(problem)
    slides, reach = moves(problem)
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
    serves (`generated.CACHE.chosen`), else by the generic one, which hands over to the piece's once
    it has spent generated.SPECIALISE_AFTER placements on the piece (the item under way is
    counted again). No compile starts within generated.COMPILE_SECONDS of the deadline: a
    compile cannot be stopped. A call stopped by stop[FLAG] leaves in out the solutions found so
    far (a lower bound; the items not reached at 0); the placements are added to stop[NODES]."""
    from .kernels import generated, generic

    key = generated.key(slides, reach, masks.shape[1])
    done = 0
    while done < weights.size and not stop[FLAG]:
        left = None if deadline is None else deadline.left()
        may_compile = left is None or left > generated.COMPILE_SECONDS
        own = generated.CACHE.chosen(key, may_compile)
        if own is not None:
            own(masks[done:], reach, weights[done:], out[done:], stop)
            return
        before = int(stop[NODES])
        budget = generated.CACHE.budget(key, may_compile)
        done += generic.count_items(masks[done:], slides, reach, weights[done:], out[done:], stop, budget)
        generated.CACHE.spent(key, int(stop[NODES]) - before)
