"""Stopping a compiled call from outside: Ctrl-C, SIGTERM and deadlines, within a fraction of a
second, however long the call would run.

A compiled kernel cannot see Python signals: the interpreter runs a signal's handler only when
the call returns. So the kernels run without the GIL and read a stop flag on their backtrack
path, and a watcher thread sets it. The watcher learns of a signal through
`signal.set_wakeup_fd`, which the C-level handler writes to at once, and of the deadline by its
clock. When the call returns, the interpreter runs the signal's own handler (KeyboardInterrupt,
the CLI's Terminated) and the caller checks its deadline, so a stopped call's partial result is
never taken for an answer. Should the handler's exception be lost, the block does not end
normally either: it raises the signal again, or Unknown.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections.abc import Callable, Iterator

import numpy as np

from .base import Deadline, Reason, Unknown

#: How often the watcher looks at the clock when no signal arrives.
TICK_SECONDS = 0.05
#: The signals that stop a call; the flag holds the signal's number, or BY_DEADLINE.
STOPPING = frozenset({signal.SIGINT, signal.SIGTERM})
BY_DEADLINE = -1
#: The stop array's slots: the flag (a signal's number, or BY_DEADLINE), and the placements the
#: counting kernels add up.
FLAG = 0
NODES = 1


@contextlib.contextmanager
def watched(deadline: Deadline, on_stop: Callable[[], None] | None = None) -> Iterator[np.ndarray]:
    """A stop flag (element 0 of an int64 array) that is set on a signal or at the deadline, for
    the compiled calls made inside the block; `on_stop` is called then too (a solver's own
    interrupt, for calls that read no flag). The counting kernels add their nodes to element 1."""
    stop = np.zeros(2, np.int64)
    main = threading.current_thread() is threading.main_thread()
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    previous = None
    if main:
        with contextlib.suppress(ValueError):
            previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            left = deadline.left()
            timeout = TICK_SECONDS if left is None else min(TICK_SECONDS, left)
            ready, _, _ = select.select([read_fd], [], [], timeout)
            if done.is_set():  # the block ended (and woke us): nothing to stop
                return
            if ready:
                with contextlib.suppress(OSError):
                    data = os.read(read_fd, 64)
                    for signum in data:  # hand the signal on to whoever else waits for it
                        if previous not in (None, -1):
                            with contextlib.suppress(OSError):
                                os.write(previous, bytes([signum]))
                        if signum in STOPPING:
                            stop[FLAG] = signum
            if deadline.expired() and not stop[FLAG]:
                stop[FLAG] = BY_DEADLINE
            if stop[FLAG] and on_stop:
                on_stop()
                return

    watcher = threading.Thread(target=watch, name="nqueens-watch", daemon=True)
    watcher.start()
    try:
        yield stop
    finally:
        done.set()
        with contextlib.suppress(OSError):
            os.write(write_fd, b"\0")  # wake the watcher now rather than at its next tick
        watcher.join()
        if main:
            with contextlib.suppress(ValueError):
                signal.set_wakeup_fd(previous if previous is not None else -1)
        os.close(read_fd)
        os.close(write_fd)
    if stop[FLAG] > 0:  # a signal stopped a call, and the block still ended normally: its handler's
        signal.raise_signal(int(stop[FLAG]))  # exception was lost (`interrupts`); raise it again,
        raise Unknown(deadline.backend, Reason.INTERRUPTED, partial=None)  # or end unknown anyway


#: For calls nobody needs to stop (pool workers are stopped by terminating them), whose nodes
#: nobody reads (a call whose nodes are wanted gets a fresh `tally()`).
NEVER = np.zeros(2, np.int64)


def tally() -> np.ndarray:
    """A stop flag never set, whose element 1 collects a counting kernel's nodes."""
    return np.zeros(2, np.int64)
