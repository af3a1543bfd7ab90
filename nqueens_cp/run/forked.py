"""A library call that cannot be stopped from inside, run in a forked child process that can.

Some solvers' calls never return to Python until they are done: clingo's grounding (a torus
with leaps grounded for 9 minutes past a 2 s limit, deaf to SIGTERM), python-sat's solvers that
have no interrupt. Here the work is a generator run in a child process (fork: it inherits the
model already built), each item sent to us as it is made. We wait in short steps, so the
caller's `poll` (a deadline) and Ctrl-C or SIGTERM are seen at once, and a stop kills the child
outright; it also dies with us (a parent-death signal), even on `kill -9`.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .orphans import die_with_parent

#: How long one wait for the child's next item lasts before `poll` is called again.
POLL_SECONDS = 0.05


class ChildFailed(Exception):
    """The work raised in the child (its message), or the child ended without finishing."""


Work = Callable[[Callable[[Any], None]], None]


def _serve(work: Work, out: Any, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)
    try:
        work(lambda item: out.send(("item", item)))
        out.send(("end", None))
    except Exception as exc:  # said by the parent
        out.send(("error", str(exc) or type(exc).__name__))


def _all_of(produce: Callable[[], Iterable[Any]]) -> Work:
    def work(emit: Callable[[Any], None]) -> None:
        for item in produce():
            emit(item)

    return work


def streamed(produce: Callable[[], Iterable[Any]], poll: Callable[[int], None]) -> Iterator[Any]:
    """The items of `produce()`, made in a child process and handed on as they come. `poll` is
    called with the number of items so far every POLL_SECONDS and after each item; when it
    raises (a deadline), or on Ctrl-C, SIGTERM or the caller closing this generator, the child
    is killed before the exception goes on. Raises ChildFailed if the work fails."""
    return emitted(_all_of(produce), poll)


def emitted(work: Work, poll: Callable[[int], None]) -> Iterator[Any]:
    """As `streamed`, for work that hands out its items through a callback, `work(emit)`: a
    solver that reports each solution from inside its own call runs on the child's main thread
    (Choco's native image crashed when its search ran on another thread)."""
    import multiprocessing as mp

    context = mp.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_serve, args=(work, send, os.getpid()), daemon=True)
    child.start()
    send.close()
    found = 0
    try:
        while True:
            if not receive.poll(POLL_SECONDS):
                poll(found)
                if not child.is_alive() and not receive.poll(0):
                    raise ChildFailed(f"ended without an answer (exit code {child.exitcode})")
                continue
            try:
                kind, value = receive.recv()
            except EOFError:
                raise ChildFailed(f"ended without an answer (exit code {child.exitcode})") from None
            if kind == "end":
                return
            if kind == "error":
                raise ChildFailed(value)
            found += 1
            yield value
            poll(found)  # items that keep coming never leave the wait above
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
