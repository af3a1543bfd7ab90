"""A process pool that runs numbered work items: generic machinery that knows no backend.

A caller hands over a picklable function, a context every worker sees once, and how many items
there are; item i is func(context, i). Processes are forked where the platform allows, after the
caller has loaded what the workers need (compiled kernels), so a worker starts in milliseconds.

Workers ignore Ctrl-C and die with their parent: the parent stops the pool on any exception
(Ctrl-C, SIGTERM turned into an exception by the CLI, a time limit), and on Linux each worker
asks the kernel for SIGKILL when its parent dies, so even a parent killed with SIGKILL leaves
no worker behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing as mp
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

#: Pools never get more processes than this many per core: more only adds start-up and
#: switching (README, Benchmarks).
MAX_WORKERS_PER_CORE = 4

#: How often the parent looks at progress, its deadline and Ctrl-C while workers run.
POLL_SECONDS = 0.1

#: What every task of the current pool shares (set in each worker by the initializer).
_CONTEXT: Any = None
#: For `share_work`: (next item, items done, number of items), shared by the pool's processes.
_SHARED: Any = None

_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Ask Linux to SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG); if the
    parent is already gone by the time we ask, leave now."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _init(context: Any, shared: Any, parent: int) -> None:
    global _CONTEXT, _SHARED
    _CONTEXT, _SHARED = context, shared
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)


def worker_context() -> Any:
    return _CONTEXT


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def max_workers() -> int:
    return MAX_WORKERS_PER_CORE * default_workers()


def _mp_context() -> Any:
    methods = mp.get_all_start_methods()
    return mp.get_context("fork" if "fork" in methods else methods[0])


@contextmanager
def _pool(workers: int, context: Any, shared: Any = None) -> Iterator[Any]:
    """A pool of `workers` processes that all see `context`; stopped at once (terminated and
    joined) if the caller is interrupted or fails."""
    if not 1 <= workers <= max_workers():
        raise ValueError(f"workers must be 1..{max_workers()} on this machine, got {workers}")
    pool = _mp_context().Pool(workers, initializer=_init, initargs=(context, shared, os.getpid()))
    try:
        yield pool
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _call(item: tuple[Callable[[Any, int], Any], int]) -> tuple[int, Any]:
    func, i = item
    return i, func(_CONTEXT, i)


def pool_imap(
    func: Callable[[Any, int], Any], indices: Iterable[int], workers: int, context: Any
) -> Iterator[tuple[int, Any]]:
    """(i, func(context, i)) for each i, on `workers` processes, as they finish. A message per
    result: for callers that must record each item (checkpoints); `share_work` is cheaper when
    only the sum matters."""
    with _pool(workers, context) as pool:
        yield from pool.imap_unordered(_call, ((func, i) for i in indices), chunksize=1)


def _drain(func: Callable[[Any, int], tuple[int, ...]]) -> tuple[int, ...]:
    """In a worker: take item numbers from the shared counter until none are left, and return
    the elementwise sum of func over them."""
    following, done, n_items = _SHARED
    acc: tuple[int, ...] = ()
    while True:
        with following.get_lock():
            i = following.value
            following.value += 1
        if i >= n_items:
            return acc
        part = func(_CONTEXT, i)
        acc = tuple(a + b for a, b in zip(acc, part, strict=True)) if acc else part
        with done.get_lock():
            done.value += 1


def share_work(
    func: Callable[[Any, int], tuple[int, ...]],
    n_items: int,
    workers: int,
    context: Any,
    progress: Callable[[int, int], None] | None = None,
    poll: Callable[[], None] | None = None,
) -> list[tuple[int, ...]]:
    """Each worker's elementwise sum of func(context, i) over the i < n_items it took; together
    they cover every i once. Workers take the next i from a shared counter, so the load balances
    itself and no message passes per item (a message costs the parent CPU that, on a machine
    with few cores, is taken from the workers: README, Benchmarks). Every POLL_SECONDS the
    parent reports (done, n_items) to `progress` when it changed and calls `poll`, which may
    raise to stop the pool."""
    ctx = _mp_context()
    shared = (ctx.Value("q", 0), ctx.Value("q", 0), n_items)
    with _pool(workers, context, shared) as pool:
        result = pool.map_async(_drain, [func] * workers, chunksize=1)
        seen = -1
        while True:
            result.wait(POLL_SECONDS)
            if progress and shared[1].value != seen:
                seen = shared[1].value
                progress(seen, n_items)
            if result.ready():
                break
            if poll:
                poll()
        return [part for part in result.get() if part]
