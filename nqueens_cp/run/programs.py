"""Another program, run so that it can always be stopped: under a guardian (`guard`) that ends
everything the program started, in whatever process group, when the wait ends, whatever ended
it, and when we die (even by `kill -9`). Generic: `verify --against` runs a user's solver this
way, the sat backend a SAT solver binary, and the minizinc backend MiniZinc and its solver."""

from __future__ import annotations

import contextlib
import errno
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO

#: How often a wait with a `poll` calls it (a clock read; Ctrl-C gets through between waits).
POLL_SECONDS = 0.05

#: The longest output line taken from a streaming program (a solver's solution line is far
#: shorter: about 5 bytes a row).
MAX_LINE = 16 << 20


class ProgramOutputError(OSError):
    """A program printed more than its output is allowed to be."""


#: How long a guardian may take to end its program's tree before it is killed with its group.
END_SECONDS = 5.0

#: The guardian (`guard.py`), run by path with an isolated interpreter that imports no site
#: packages: it starts in milliseconds.
_GUARD = str(Path(__file__).with_name("guard.py"))


def _start(
    args: Sequence[str],
    stdout: IO[bytes] | int,
    stderr: IO[bytes] | int,
    max_file: int | None = None,
    env: dict[str, str] | None = None,
    scratch: str | Path | None = None,
) -> subprocess.Popen:
    """The program under a guardian (`guard`) in a process group of its own, the guardian
    ended by the kernel if this process dies (and the program's whole tree with it, then the
    `scratch` folder, which our own clean-up would have removed). Raises FileNotFoundError
    when the program is not found, as starting it directly would."""
    if shutil.which(args[0]) is None:
        raise FileNotFoundError(errno.ENOENT, "no such program (or not executable)", args[0])
    folder = str(scratch) if scratch is not None else "-"
    guard = [sys.executable, "-I", "-S", _GUARD, str(os.getpid()), str(max_file or 0), folder, "--", *args]
    return subprocess.Popen(
        guard,
        stdout=stdout,
        stderr=stderr,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        env=env,
    )


def _end(proc: subprocess.Popen) -> None:
    """End the program and everything it started: its guardian kills the tree and reaps it
    (so their CPU time reaches our own wait); a guardian that does not end in time is killed
    with its group."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=END_SECONDS)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_group(
    args: Sequence[str],
    stdout: IO[bytes] | int,
    stderr: IO[bytes] | int = subprocess.DEVNULL,
    timeout: float | None = None,
    poll: Callable[[], None] | None = None,
    max_file: int | None = None,
    scratch: str | Path | None = None,
    env: dict[str, str] | None = None,
) -> int:
    """The program's exit code (negative: the signal that killed it). Past `timeout` seconds
    raises subprocess.TimeoutExpired; `poll`, called every POLL_SECONDS, stops the wait by
    raising. Either way, and on Ctrl-C, the program's tree is ended before this returns or
    raises. `max_file` bounds the bytes it may write to any file (its output too: it is killed
    by SIGXFSZ past it). `scratch`, the folder of the program's files, is removed if we are
    killed outright; `env` its environment (ours by default). OSError if it cannot start."""
    proc = _start(args, stdout, stderr, max_file, env=env, scratch=scratch)
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
    env: dict[str, str] | None = None,
    scratch: str | Path | None = None,
) -> Iterator[bytes]:
    """The program's output lines as it prints them (a solver streaming its solutions), run as
    `run_group` runs a program. The pipe is read here, in the caller's thread, by `select` and
    `os.read`: the caller's `poll` is called every POLL_SECONDS, whether the program is silent
    or streaming, and a stop (the poll raising, Ctrl-C, the caller closing the generator) ends
    the program's tree at once. No helper thread and no lock: a signal's exception, wherever it
    lands, leaves nothing held (`handoff`), and a program that prints faster than we read waits
    on the pipe. The exit code is returned as the generator's value. A line longer than
    MAX_LINE bytes raises ProgramOutputError: the output taken is bounded."""
    proc = _start(args, subprocess.PIPE, stderr, env=env, scratch=scratch)
    stdout = proc.stdout
    assert stdout is not None
    fd = stdout.fileno()
    os.set_blocking(fd, False)
    pending = b""  # the start of a line whose end has not come yet
    too_long = f"{Path(args[0]).name} printed a line of over {MAX_LINE} bytes"
    polled = time.monotonic()
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], POLL_SECONDS)
            chunk = b""
            if ready:
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    chunk = None  # woken with nothing to read
                if chunk == b"":  # end of output
                    if pending:
                        yield pending
                    return proc.wait()
            if chunk:
                lines = chunk.split(b"\n")  # only the new bytes are split: a long line is scanned once
                lines[0] = pending + lines[0]
                pending = lines.pop()
                for line in lines:
                    if len(line) >= MAX_LINE:
                        raise ProgramOutputError(too_long)
                    yield line + b"\n"
                    if poll is not None and time.monotonic() - polled >= POLL_SECONDS:
                        poll()  # while lines keep coming
                        polled = time.monotonic()
                if len(pending) > MAX_LINE:
                    raise ProgramOutputError(too_long)
            if poll is not None and (not chunk or time.monotonic() - polled >= POLL_SECONDS):
                poll()  # while it is silent
                polled = time.monotonic()
    finally:
        _end(proc)
        stdout.close()
