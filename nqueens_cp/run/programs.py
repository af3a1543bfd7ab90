"""Another program, run so that it can always be stopped: in its own process group (its
children with it), with a parent-death signal (even `kill -9` of ours ends it), and killed with
its whole group when the wait ends, whatever ended it. Generic: `verify --against` runs a
user's solver this way, and the sat backend a SAT solver binary."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
from collections.abc import Callable, Sequence
from typing import IO

from .parallel import die_with_parent

#: How often a wait with a `poll` calls it (a clock read; Ctrl-C gets through between waits).
POLL_SECONDS = 0.05


def run_group(
    args: Sequence[str],
    stdout: IO[bytes] | int,
    stderr: IO[bytes] | int = subprocess.DEVNULL,
    timeout: float | None = None,
    poll: Callable[[], None] | None = None,
) -> int:
    """The program's exit code. Past `timeout` seconds raises subprocess.TimeoutExpired; `poll`,
    called every POLL_SECONDS, stops the wait by raising. Either way, and on Ctrl-C, the
    program's group is SIGKILLed before this returns or raises. OSError if it cannot start."""
    proc = subprocess.Popen(
        list(args),
        stdout=stdout,
        stderr=stderr,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=functools.partial(die_with_parent, os.getpid()),
    )
    try:
        if poll is None:
            return proc.wait(timeout=timeout)
        while True:
            try:
                return proc.wait(timeout=POLL_SECONDS)
            except subprocess.TimeoutExpired:
                poll()
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # its children too, whatever happened
        proc.wait()
