"""The guardian: a small process between us and another program, so that nothing the program
starts outlives the run, whatever process group it puts itself in.

A process group is not enough: MiniZinc starts its solver in a group of its own, and a killed
group leaves that solver running; `kill -9` of ours reaches only our direct child, through its
parent-death signal. The guardian is a child subreaper (Linux's PR_SET_CHILD_SUBREAPER): every
process the program starts, and every orphan among their descendants, stays in its tree, so it
can find them all in /proc and kill them. It does so when the program exits, when it is told
to stop (SIGTERM, SIGINT, SIGHUP), and when we die (its parent-death signal is SIGTERM), then
reaps them all, so their CPU time reaches us through the usual wait. It ends as the program
did: with its exit code, or killed by the same signal.

Run as a script with only the standard library's lightest modules (`python -I -S guard.py PARENT FSIZE -- ARGS`):
it must start in milliseconds. FSIZE, when not 0, bounds every file the program writes
(RLIMIT_FSIZE), so that a program that prints without end cannot fill the disk.
"""

from __future__ import annotations

import _signal as signal  # the C module: `signal` imports enum, a few milliseconds more
import ctypes
import os
import resource
import sys

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_STOPPING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class _Stop(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stop(signum: int, _frame: object) -> None:
    raise _Stop(signum)


def _descendants(root: int) -> list[int]:
    """The live (not zombie) processes below `root`, read from /proc."""
    children: dict[int, list[int]] = {}
    state: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        state[int(entry)] = fields[0]
    found, frontier = [], [root]
    while frontier:
        for pid in children.get(frontier.pop(), ()):
            frontier.append(pid)
            if state.get(pid) != "Z":
                found.append(pid)
    return found


def _signal_all(pids: list[int], signum: int) -> None:
    for pid in pids:
        try:  # noqa: SIM105 (contextlib costs the start-up milliseconds this module saves)
            os.kill(pid, signum)
        except OSError:
            pass


def _end_all() -> None:
    """Kill every process below this one (stopped first, so none forks while we look), then
    reap them: orphans come to us, as subreaper, when their parents die."""
    me = os.getpid()
    while pids := _descendants(me):
        _signal_all(pids, signal.SIGSTOP)
        _signal_all(pids, signal.SIGKILL)
        _reap(block=False)
    _reap(block=True)


def _reap(block: bool) -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _start(args: list[str], fsize: int) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: the program, with default signals and the bound on its files
        for signum in _STOPPING:
            signal.signal(signum, signal.SIG_DFL)
        if fsize:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        os.execvp(args[0], args)
    except OSError as exc:
        os.write(2, f"{args[0]}: {exc.strerror or exc}\n".encode())
    os._exit(127)


def main(argv: list[str]) -> None:
    parent, fsize, args = int(argv[0]), int(argv[1]), argv[3:]
    for signum in _STOPPING:
        signal.signal(signum, _raise_stop)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # ending by the program's signal dumps nothing
    status = None
    try:
        if os.getppid() != parent:  # we died before the parent-death signal was asked for
            raise _Stop(signal.SIGTERM)
        program = _start(args, fsize)
        while status is None:
            try:
                pid, wait_status = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if pid == program:
                status = wait_status
        for signum in _STOPPING:  # the program is done: what is left is ended whatever comes
            signal.signal(signum, signal.SIG_IGN)
        _end_all()
    except _Stop as stop:
        for signum in _STOPPING:
            signal.signal(signum, signal.SIG_IGN)
        _end_all()
        os._exit(128 + stop.signum)
    code = 1 if status is None else os.waitstatus_to_exitcode(status)
    if code < 0:  # end as the program did, killed by its signal
        try:  # noqa: SIM105
            signal.signal(-code, signal.SIG_DFL)
        except (OSError, ValueError):  # SIGKILL and SIGSTOP keep their default
            pass
        os.kill(os.getpid(), -code)
    os._exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main(sys.argv[1:])
