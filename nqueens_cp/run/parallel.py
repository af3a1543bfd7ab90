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
import multiprocessing as mp
import multiprocessing.connection as mp_connection
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..model.problem import NQueensError
from .orphans import die_with_parent

#: Pools never get more processes than this many per core: more only adds start-up and
#: switching (docs/benchmarks.md § The pool: shared memory, not messages).
MAX_WORKERS_PER_CORE = 4

#: How often the parent looks at progress, its deadline and Ctrl-C while workers run.
POLL_SECONDS = 0.1

#: What every task of the current pool shares (set in each worker by the initializer).
_CONTEXT: Any = None
#: For `share_work`: (next item, items done, number of items), shared by the pool's processes.
_SHARED: Any = None

def _init(context: Any, shared: Any, parent: int) -> None:
    global _CONTEXT, _SHARED
    _CONTEXT, _SHARED = context, shared
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


def worker_context() -> Any:
    return _CONTEXT


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


#: The share of the memory the machine has available that a count plans to use by default.
MEMORY_SHARE = 0.8


def default_memory() -> int:
    """The bytes a count may use when no budget is given: MEMORY_SHARE of what the machine has
    available now (MemAvailable in /proc/meminfo; all its physical memory where that is absent)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(MEMORY_SHARE * int(line.split()[1]) * 1024)
    except OSError:
        pass
    return int(MEMORY_SHARE * physical_memory())


def physical_memory() -> int:
    """The bytes of memory the machine has."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def max_workers() -> int:
    return MAX_WORKERS_PER_CORE * default_workers()


def _mp_context() -> Any:
    methods = mp.get_all_start_methods()
    return mp.get_context("fork" if "fork" in methods else methods[0])


class WorkerLost(NQueensError):
    """A worker process died while counting (kill -9, or the kernel's out-of-memory killer,
    which a count that holds much memory invites), again after its items were redone."""


#: How many times the items a dead worker held are counted again, by a fresh set of workers,
#: before the run fails in one line.
REDOS = 2

#: How long stopped workers get to end after SIGKILL before we stop waiting for them.
END_SECONDS = 5.0


def _worker(func: Callable[[Any, int], Any], context: Any, shared: Any, parent: int, errors: Any) -> None:
    """A worker process: the pool's settings (`_init`), then items until none is left. An
    exception is sent to the parent, pickled, before the worker exits with 1."""
    try:
        _init(context, shared, parent)
        _drain(func)
    except BaseException as exc:
        with contextlib.suppress(Exception):
            errors.send(exc)
        os._exit(1)
    os._exit(0)


def _stop(processes: list[Any]) -> None:
    """End the workers at once: SIGKILL (they compute nothing worth saving: what they finished
    is in the log), then reap them."""
    for p in processes:
        if p.exitcode is None:
            with contextlib.suppress(OSError, ValueError):
                p.kill()
    deadline = time.monotonic() + END_SECONDS
    for p in processes:
        p.join(max(0.0, deadline - time.monotonic()))


def _drain(func: Callable[[Any, int], Any]) -> None:
    """In a worker: take the next position from the shared counter, compute its item, and log
    the result in shared memory (results first, then the completion log, under one lock), until
    no position is left."""
    following, done, todo, width, results, log, costs = _SHARED
    while True:
        with following.get_lock():
            k = following.value
            following.value += 1
        if k >= len(todo):
            return
        start = time.perf_counter()
        part = func(_CONTEXT, todo[k])
        values = part if isinstance(part, tuple) else (part,)
        with done.get_lock():
            results[k * width : (k + 1) * width] = values
            costs[k] = time.perf_counter() - start
            log[done.value] = k
            done.value += 1


def run_items(
    func: Callable[[Any, int], Any],
    indices: Sequence[int],
    workers: int,
    context: Any,
    width: int = 1,
    poll: Callable[[], None] | None = None,
    costs: list[float] | None = None,
) -> Iterator[tuple[int, Any]]:
    """(i, func(context, i)) for each i of `indices`, on `workers` processes, as they finish;
    `costs`, if given, receives the seconds each item took, in the same order.
    func returns an int or a tuple of `width` ints. No message passes per item: workers take the
    next position from a shared counter and log each result in shared memory, which the parent
    reads every POLL_SECONDS (a message costs the parent CPU that, on a machine with few cores,
    is taken from the workers: docs/benchmarks.md § The pool: shared memory, not messages).
    `poll` is called then too, and may raise to stop the pool.

    A worker that dies (kill -9, the out-of-memory killer) is noticed at the next look: the
    others are stopped, and every item not yet logged is counted again by fresh workers, each
    item handed on once; after REDOS such deaths the run fails with WorkerLost. Plain processes,
    not multiprocessing.Pool: a Pool whose worker died kept waiting for the dead worker's task,
    and its terminate() waited on a queue lock an idle worker held, so no signal ended it."""
    if not 1 <= workers <= max_workers():
        raise ValueError(f"workers must be 1..{max_workers()} on this machine, got {workers}")
    left = list(indices)
    for redo in range(REDOS + 1):
        lost = yield from _run_workers(func, left, workers, context, width, poll, costs)
        if lost is None:
            return
        code, left = lost
        if redo == REDOS:
            how = f"killed by signal {-code}" if code < 0 else f"exit {code}"
            raise WorkerLost(
                f"a worker process died ({how}) {REDOS + 1} times, {len(left)} items uncounted: the kernel's "
                "out-of-memory killer does this; give --memory a smaller budget or fewer --workers"
            )


def _run_workers(
    func: Callable[[Any, int], Any],
    indices: Sequence[int],
    workers: int,
    context: Any,
    width: int,
    poll: Callable[[], None] | None,
    costs: list[float] | None,
) -> Iterator[tuple[int, Any]]:
    """`run_items` on one set of workers. Returns None when every item was logged, or (the
    dead worker's exit code, the items not logged) when a worker died."""
    ctx = _mp_context()
    todo = ctx.Array("q", list(indices), lock=False)
    results = ctx.Array("q", max(1, len(todo) * width), lock=False)
    log = ctx.Array("q", max(1, len(todo)), lock=False)
    done = ctx.Value("q", 0)
    spent = ctx.Array("d", max(1, len(todo)), lock=False)
    shared = (ctx.Value("q", 0), done, todo, width, results, log, spent)
    processes, pipes = [], []
    try:
        for _ in range(min(workers, max(1, len(todo)))):
            receive, send = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_worker, args=(func, context, shared, os.getpid(), send), daemon=True)
            p.start()
            send.close()
            processes.append(p)
            pipes.append(receive)
        seen = 0
        while True:
            # Until a worker ends, or POLL_SECONDS: a wait on the processes' sentinels (file
            # descriptors; not an Event's wait: a signal can leave its lock held, `handoff`), so
            # a count that is done is reported at once, not at the next tick.
            running = [p.sentinel for p in processes if p.exitcode is None]
            if running:
                mp_connection.wait(running, timeout=POLL_SECONDS)
            codes = [p.exitcode for p in processes]
            upto = seen
            lock = done.get_lock()
            if lock.acquire(timeout=1.0):  # bounded: a worker killed while logging keeps it for ever
                try:
                    upto = done.value
                finally:
                    lock.release()
            for pos in range(seen, upto):
                k = log[pos]
                values = tuple(results[k * width : (k + 1) * width])
                if costs is not None:
                    costs.append(spent[k])
                yield todo[k], values if width > 1 else values[0]
            seen = upto
            for code, pipe in zip(codes, pipes, strict=True):
                if code and pipe.poll():  # the worker's exception, raised here (none: it was killed)
                    with contextlib.suppress(EOFError):
                        raise pipe.recv()
            dead = [code for code in codes if code]
            if dead:
                logged = {log[pos] for pos in range(seen)}
                return dead[0], [todo[k] for k in range(len(todo)) if k not in logged]
            if all(code == 0 for code in codes):
                return None
            if poll:
                poll()
    finally:
        _stop(processes)
        for pipe in pipes:
            pipe.close()


def share_work(
    func: Callable[[Any, int], Any],
    n_items: int,
    workers: int,
    context: Any,
    width: int = 1,
    progress: Callable[[int, int], None] | None = None,
    poll: Callable[[int], None] | None = None,
) -> tuple[int, ...]:
    """The elementwise sum of func(context, i) over i < n_items (func returns an int or a tuple
    of `width` ints), on `workers` processes; `progress` hears (done, n_items), and a Tally the
    first sum so far and the measured cost, as items finish. `poll` is called with the first
    sum so far (a lower bound when it raises to stop the run at a deadline)."""
    from .progress import report

    total = [0] * width
    costs: list[float] = []
    spent = 0.0
    done = 0

    def polled() -> None:
        if poll is not None and done < n_items:  # (every item in: the sum is whole, whatever the clock says)
            poll(total[0])

    items = run_items(func, range(n_items), workers, context, width, None if poll is None else polled, costs)
    for done, (_, part) in enumerate(items, 1):
        for j, v in enumerate(part if width > 1 else (part,)):
            total[j] += v
        spent += costs[-1]
        report(progress, done, n_items, total[0], spent)
    return tuple(total)
