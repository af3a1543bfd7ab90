"""Another program, run so that it can always be stopped: in its own process group (its
children with it), with a parent-death signal (even `kill -9` of ours ends it), and killed with
its whole group when the wait ends, whatever ended it. Generic: `verify --against` runs a
user's solver this way, and the sat backend a SAT solver binary."""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from .parallel import die_with_parent

#: How often a wait with a `poll` calls it (a clock read; Ctrl-C gets through between waits).
POLL_SECONDS = 0.05

#: CPU seconds of processes killed with a group that this process could not reap: a program's
#: own children (MiniZinc's solver), which a kill orphans before the program waits for them.
#: Resource usage of reaped children counts them; the harness adds this for the rest.
_stray_cpu = 0.0


def stray_cpu() -> float:
    """CPU seconds of the processes killed with a group so far that no wait of ours accounts."""
    return _stray_cpu


def _start(args: Sequence[str], stdout: IO[bytes] | int, stderr: IO[bytes] | int) -> subprocess.Popen:
    """The program in its own process group, ended by the kernel if this process dies."""
    return subprocess.Popen(
        list(args),
        stdout=stdout,
        stderr=stderr,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=functools.partial(die_with_parent, os.getpid()),
    )


def _end(proc: subprocess.Popen) -> None:
    """SIGKILL the program's group and wait for it. When the program is still running, first
    note the CPU time of the group's other members, which the kill orphans (the program's own,
    and its reaped children's, reach us through the wait)."""
    if proc.poll() is None:
        _note_strays(proc.pid)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _note_strays(leader: int) -> None:
    global _stray_cpu
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit() or int(entry) == leader:
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
            if int(fields[2]) == leader:  # its process group
                _stray_cpu += (int(fields[11]) + int(fields[12])) / tick


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
    proc = _start(args, stdout, stderr)
    try:
        if poll is None:
            return proc.wait(timeout=timeout)
        while True:
            try:
                return proc.wait(timeout=POLL_SECONDS)
            except subprocess.TimeoutExpired:
                poll()
    finally:
        _end(proc)  # its children too, whatever happened


def lines_of(
    args: Sequence[str],
    stderr: IO[bytes] | int = subprocess.DEVNULL,
    poll: Callable[[], None] | None = None,
) -> Iterator[bytes]:
    """The program's output lines as it prints them (a solver streaming its solutions), run as
    `run_group` runs a program. A reader thread hands the lines over, so the caller's `poll` is
    called every POLL_SECONDS, whether the program is silent or streaming, and a stop (the poll
    raising, Ctrl-C, the caller closing the generator) kills the program's group at once. The
    exit code is returned as the generator's value."""
    proc = _start(args, subprocess.PIPE, stderr)
    lines: queue.Queue[bytes | None] = queue.Queue(maxsize=1024)  # bounded: a flood waits for us
    stdout = proc.stdout
    assert stdout is not None

    def read() -> None:
        with contextlib.suppress(ValueError, OSError):  # the pipe closed under it: the run is over
            for line in stdout:
                lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    polled = time.monotonic()
    try:
        while True:
            try:
                line = lines.get(timeout=POLL_SECONDS)
            except queue.Empty:
                line = b""
            if line is None:
                return proc.wait()
            if poll is not None and (not line or time.monotonic() - polled >= POLL_SECONDS):
                poll()  # while it is silent, and while lines keep coming
                polled = time.monotonic()
            if line:
                yield line
    finally:
        _end(proc)
        while reader.is_alive():  # the reader may wait on a full queue: drain it so it ends
            with contextlib.suppress(queue.Empty):
                lines.get(timeout=POLL_SECONDS)
        stdout.close()
