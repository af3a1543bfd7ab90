"""Long-lived worker processes that run one job at a time under hard limits, the way benchmark
tools (runsolver, BenchExec) run solvers: the same wall-clock and memory limits for every job,
enforced from outside by killing the worker, whatever the job is doing.

Why long-lived: starting Python, importing the solvers and loading compiled kernels costs most
of a second, more than many benchmark runs themselves. Each worker pays it once; a job's time
is measured around the job alone. A killed worker is replaced by a fresh one when it is next
needed, and that start-up is not charged to any run either.

The jobs are given as a module with two functions, `prepare(payload)` (untimed: imports and
warm-up) and `run(payload)` (timed). This module knows nothing else about them.

Each worker is its own process group (so a Ctrl-C typed at the terminal reaches only the
supervisor, which then stops everything), asks Linux to kill it if the supervisor dies, and is
SIGKILLed with its children when its run passes a limit or when the supervisor stops.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import resource
import selectors
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import import_module
from typing import Any

from ..run.orphans import die_with_parent

#: A worker is killed this many seconds past its run's wall-clock limit: jobs that can stop
#: themselves are given the time to do so (and the caller judges a late answer a time-out).
GRACE_SECONDS = 1.0
#: How often the supervisor samples a running worker's memory when a memory limit is set.
MEMORY_POLL_SECONDS = 0.05
#: Workers kept (idle ones of other groups are retired beyond it, or beyond `jobs`).
MAX_IDLE = 8
_HEADER = struct.Struct("<I")
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class Ended(StrEnum):
    """How a job ended (a StrEnum: it prints, and compares, as its value)."""

    DONE = "done"
    ERROR = "error"
    TIME_LIMIT = "time limit"
    MEMORY_LIMIT = "memory limit"
    CRASHED = "crashed"


@dataclass
class Result:
    """How one job ended. `status` is an `Ended`: DONE (value is what run() returned), ERROR
    (run() raised: value is the message), TIME_LIMIT, MEMORY_LIMIT or CRASHED (the worker died:
    value says how). `seconds` and `cpu_seconds` cover run() alone; `peak_bytes` is the worker's
    peak resident memory during it."""

    key: Any
    status: str
    value: Any = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_bytes: int = 0


# -- the worker side --------------------------------------------------------------------------


def _read_exact(fd: int, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _send(fd: int, message: Any) -> None:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    os.write(fd, _HEADER.pack(len(body)) + body)


def _reset_peak_memory() -> None:
    """Reset the kernel's peak-RSS mark (VmHWM) so that the next reading covers one job."""
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def _peak_memory() -> int:
    with contextlib.suppress(OSError), open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _cpu() -> float:
    """This process's CPU seconds and its children's: every process a program started is reaped
    by its guardian (`run.guard`), so a solver's own solver process is counted too."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime


def _worker(target: str, parent: int) -> None:
    """Serve jobs from stdin until it closes. The protocol uses the original stdout; fd 1 is
    pointed at stderr so that nothing a solver prints can corrupt it. Statuses go as plain
    text: this module runs as __main__ here, so its classes would not unpickle over there."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.dup(1)
    os.dup2(2, 1)
    jobs = import_module(target)
    while True:
        header = _read_exact(0, _HEADER.size)
        if header is None:
            return
        body = _read_exact(0, _HEADER.unpack(header)[0])
        if body is None:
            return
        key, payload = pickle.loads(body)
        try:
            jobs.prepare(payload)
        except Exception as exc:
            _send(out, (Ended.ERROR.value, key, f"{type(exc).__name__}: {exc}", 0.0, 0.0, 0))
            continue
        _reset_peak_memory()
        _send(out, ("started", key))
        cpu, start = _cpu(), time.perf_counter()
        try:
            value, status = jobs.run(payload), Ended.DONE.value
        except Exception as exc:
            value, status = f"{type(exc).__name__}: {exc}", Ended.ERROR.value
        seconds, cpu = time.perf_counter() - start, _cpu() - cpu
        _send(out, (status, key, value, seconds, cpu, _peak_memory()))


# -- the supervisor side ----------------------------------------------------------------------


def _rss(pid: int) -> int:
    """Resident memory of `pid` and its descendants (those /proc lists), in bytes."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * _PAGE
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
    return total


@dataclass
class _Worker:
    proc: subprocess.Popen
    group: Hashable = None  # the only kind of job it has run (see Sandbox.run)
    buffer: bytearray = field(default_factory=bytearray)
    key: Any = None
    started: float | None = None  # when the timed part of the current job began
    peak: int = 0

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # type: ignore[union-attr]
        self.proc.wait()
        with contextlib.suppress(OSError):
            self.proc.stdout.close()  # type: ignore[union-attr]


class Sandbox:
    """`jobs` workers serving `target` (a module name). Use as a context manager: leaving it,
    normally or by an exception (Ctrl-C included), kills every worker and waits for it."""

    def __init__(
        self, target: str, jobs: int = 1, wall_limit: float | None = None, memory_limit: int | None = None
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.target, self.jobs = target, jobs
        self.wall_limit, self.memory_limit = wall_limit, memory_limit
        self._workers: list[_Worker] = []
        self._selector = selectors.DefaultSelector()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for w in self._workers:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(w.proc.stdout)  # type: ignore[arg-type]
            w.kill()
        self._workers.clear()
        self._selector.close()

    def _worker_for(self, group: Hashable, busy: list[_Worker]) -> _Worker:
        """An idle worker that has only run jobs of `group`, or a fresh one; idle workers of
        other groups beyond MAX_IDLE workers in all are retired, the oldest first."""
        idle = [w for w in self._workers if w not in busy]
        mine = [w for w in idle if w.group == group]
        if mine:
            return mine[0]
        others = [w for w in idle if w.group != group]
        while others and len(self._workers) >= max(self.jobs, MAX_IDLE):
            self._retire(others.pop(0))
        w = self._spawn()
        w.group = group
        return w

    def _spawn(self) -> _Worker:
        cmd = [sys.executable, "-m", __name__, self.target, str(os.getpid())]
        proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True
        )
        w = _Worker(proc)
        os.set_blocking(proc.stdout.fileno(), False)  # type: ignore[union-attr]
        self._selector.register(proc.stdout, selectors.EVENT_READ, w)  # type: ignore[arg-type]
        self._workers.append(w)
        return w

    def _retire(self, w: _Worker) -> None:
        self._selector.unregister(w.proc.stdout)  # type: ignore[arg-type]
        self._workers.remove(w)
        w.kill()

    def _give(self, w: _Worker, key: Any, payload: Any) -> None:
        body = pickle.dumps((key, payload), protocol=pickle.HIGHEST_PROTOCOL)
        w.key, w.started, w.peak = key, None, 0
        w.proc.stdin.write(_HEADER.pack(len(body)) + body)  # type: ignore[union-attr]
        w.proc.stdin.flush()  # type: ignore[union-attr]

    def _messages(self, w: _Worker) -> Iterator[tuple]:
        """The complete messages the worker has sent; EOFError after them if it is gone."""
        gone = False
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(w.proc.stdout.fileno(), 1 << 16):  # type: ignore[union-attr]
                w.buffer += chunk
            gone = True
        while len(w.buffer) >= _HEADER.size:
            size = _HEADER.unpack_from(w.buffer)[0]
            if len(w.buffer) < _HEADER.size + size:
                break
            message = pickle.loads(bytes(w.buffer[_HEADER.size : _HEADER.size + size]))
            del w.buffer[: _HEADER.size + size]
            yield message
        if gone:
            raise EOFError

    def _killed(self, w: _Worker, status: str, value: str | None = None) -> Result:
        seconds = time.perf_counter() - w.started if w.started is not None else 0.0
        key, peak = w.key, w.peak
        self._retire(w)
        return Result(key, status, value, seconds, 0.0, peak)

    def run(
        self, jobs: Iterable[tuple[Any, Any]], group: Callable[[Any], Hashable] | None = None
    ) -> Iterator[Result]:
        """Run every (key, payload) and yield each Result as it ends, in the order they end.
        `group(payload)` names the jobs that may share a worker: a worker runs jobs of one
        group only, so what one kind of job loads (a solver's libraries) never counts in the
        peak memory of another, as when each run is measured alone (BenchExec)."""
        todo = iter(jobs)
        busy: list[_Worker] = []
        exhausted = False
        while True:
            while not exhausted and len(busy) < self.jobs:
                job = next(todo, None)
                if job is None:
                    exhausted = True
                    break
                kind = group(job[1]) if group is not None else None
                w = self._worker_for(kind, busy)
                try:
                    self._give(w, *job)
                except BrokenPipeError:  # it died while idle: a fresh one takes the job
                    self._retire(w)
                    w = self._worker_for(kind, busy)
                    self._give(w, *job)
                busy.append(w)
            if not busy:
                return
            for w in list(busy):
                result = self._check_limits(w)
                if result is not None:
                    busy.remove(w)
                    yield result
            if not busy:  # the last runs were killed: refill, or end
                continue
            for sel_key, _ in self._selector.select(self._timeout(busy)):
                w = sel_key.data
                if w not in busy:  # an idle worker has only one thing to say: that it died
                    self._retire(w)
                    continue
                try:
                    for message in self._messages(w):
                        if message[0] == "started":
                            w.started = time.perf_counter()
                            continue
                        status, key, value, seconds, cpu, peak = message
                        busy.remove(w)
                        w.key = None
                        yield Result(key, Ended(status), value, seconds, cpu, max(peak, w.peak))
                except EOFError:
                    code = w.proc.wait()
                    how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
                    busy.remove(w)
                    yield self._killed(w, Ended.CRASHED, f"the worker died ({how})")

    def _timeout(self, busy: list[_Worker]) -> float | None:
        waits = []
        if self.memory_limit is not None:
            waits.append(MEMORY_POLL_SECONDS)
        if self.wall_limit is not None:
            now = time.perf_counter()
            for w in busy:
                if w.started is not None:
                    waits.append(max(0.0, w.started + self.wall_limit + GRACE_SECONDS - now))
        return min(waits) if waits else None

    def _check_limits(self, w: _Worker) -> Result | None:
        if w.started is None:
            return None
        if self.memory_limit is not None:
            w.peak = max(w.peak, _rss(w.proc.pid))
            if w.peak > self.memory_limit:
                return self._killed(w, Ended.MEMORY_LIMIT)
        if self.wall_limit is not None and time.perf_counter() - w.started > self.wall_limit + GRACE_SECONDS:
            return self._killed(w, Ended.TIME_LIMIT)
        return None


if __name__ == "__main__":
    _worker(sys.argv[1], int(sys.argv[2]))
