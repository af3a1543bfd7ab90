"""Counting on all cores: the bitmask search cut into independent sub-problems (the
placements of the first rows, or pinned row masks) and run by a process pool, combined exactly.

Processes are forked where the platform allows, after the compiled kernel is loaded in the
parent, so a worker starts in milliseconds instead of importing numba again. Workers ignore
Ctrl-C; the parent stops the pool and re-raises it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .backends.bitmask import Subproblem

#: What every task of the current pool shares (set in each worker by the initializer).
_CONTEXT: Any = None


def _init(context: Any) -> None:
    global _CONTEXT
    _CONTEXT = context
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_context() -> Any:
    return _CONTEXT


def pool_imap(func: Callable[[Any], Any], items: Iterable[Any], workers: int, context: Any, chunksize: int = 1):
    """func over items on `workers` forked processes, results as they finish; `context` is
    handed to every worker once (read it with worker_context())."""
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else methods[0])
    pool = ctx.Pool(workers, initializer=_init, initargs=(context,))
    try:
        yield from pool.imap_unordered(func, items, chunksize=chunksize)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def count_one(masks: np.ndarray, diag: bool, sub: Subproblem) -> int:
    """The weighted number of completions of one sub-problem."""
    from .backends import _bitkernels as k

    w, r, cols, d1, d2 = sub
    kernel = k.count_queens if diag else k.count_rooks
    u = np.uint64
    return w * int(kernel(masks, r, u(cols), u(d1), u(d2)))


def _count_in_worker(item: tuple[int, Subproblem]) -> tuple[int, int]:
    masks, diag = _CONTEXT
    return item[0], count_one(masks, diag, item[1])


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def pool_counts(
    masks: np.ndarray, diag: bool, items: Sequence[tuple[int, Subproblem]], workers: int
) -> Iterator[tuple[int, int]]:
    """(index, weighted count) of each numbered sub-problem as a worker finishes it."""
    count_one(masks, diag, (0, masks.shape[0] - 1, 0, 0, 0))  # load the kernel before forking
    return pool_imap(_count_in_worker, items, workers, (masks, diag), chunksize=4)


def count_parallel(
    masks: np.ndarray,
    diag: bool,
    subs: Sequence[Subproblem],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """The sum of the sub-problems' weighted counts, on a pool of `workers` processes (in this
    process when workers is 1), reporting (done, total) to `progress` as each finishes."""
    items = list(enumerate(subs))
    if workers > 1:
        parts: Iterable[tuple[int, int]] = pool_counts(masks, diag, items, workers)
    else:
        parts = ((i, count_one(masks, diag, sub)) for i, sub in items)
    total = 0
    for done, (_, part) in enumerate(parts, 1):
        total += part
        if progress:
            progress(done, len(subs))
    return total
