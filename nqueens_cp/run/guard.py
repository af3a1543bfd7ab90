"""The guardian: a small process between us and another program, so that nothing the program
starts outlives the run, whatever process group it puts itself in.

A process group is not enough: MiniZinc starts its solver in a group of its own, and a killed
group leaves that solver running; `kill -9` of ours reaches only our direct child, through its
parent-death signal. The guardian is a child subreaper (Linux's PR_SET_CHILD_SUBREAPER): every
process the program starts, and every orphan among their descendants, stays in its tree, so it
can find them all in /proc and kill them. It does so when the program exits, when it is told
to stop (SIGTERM, SIGINT, SIGHUP), and when we die (its parent-death signal, SIGUSR1), then
reaps them all, so their CPU time reaches us through the usual wait. It ends as the program
did: with its exit code, or killed by the same signal.

Run as a script with only the standard library's lightest modules
(`python -I -S guard.py PARENT FSIZE SCRATCH -- ARGS`): it must start in milliseconds. FSIZE,
when not 0, bounds every file the program writes (RLIMIT_FSIZE), so that a program that prints
without end cannot fill the disk. SCRATCH, when not "-", is the folder we made for the program's
files: if we die (`kill -9` runs no clean-up of ours), the guardian removes it once the tree has
ended, so that a killed run leaves no files behind either. Our death is told by its own signal,
not by asking for our parent: while a killed process's other threads end, its children still
see it as their parent.
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
#: The parent-death signal: one of its own, so that the guardian knows who has gone.
_ORPHANED = signal.SIGUSR1

#: Whether the parent has died (its scratch folder is then ours to remove).
_orphan = False
#: Whether the guardian is ending the tree: a second signal must not interrupt that.
_stopping = False


class _Stop(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stop(signum: int, _frame: object) -> None:
    global _stopping
    if not _stopping:
        _stopping = True
        raise _Stop(signum)


def _parent_died(_signum: int, frame: object) -> None:
    global _orphan
    _orphan = True
    _raise_stop(signal.SIGTERM, frame)


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


def _remove(folder: str) -> None:
    """The folder and everything in it, as far as it can be removed (links are not followed)."""
    for root, dirs, files in os.walk(folder, topdown=False):
        for name in files + dirs:
            path = os.path.join(root, name)
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    os.rmdir(path)
                else:
                    os.unlink(path)
            except OSError:
                pass
    try:  # noqa: SIM105
        os.rmdir(folder)
    except OSError:
        pass


def _start(args: list[str], fsize: int) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: the program, with default signals and the bound on its files
        for signum in (*_STOPPING, _ORPHANED):
            signal.signal(signum, signal.SIG_DFL)
        if fsize:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        os.execvp(args[0], args)
    except OSError as exc:
        os.write(2, f"{args[0]}: {exc.strerror or exc}\n".encode())
    os._exit(127)


def _ending() -> None:
    """From here on, what is left is ended whatever comes (a parent's death is still noted)."""
    global _stopping
    _stopping = True
    for signum in _STOPPING:
        signal.signal(signum, signal.SIG_IGN)


def _orphaned(parent: int, scratch: str) -> None:
    """Remove the scratch folder if its owner, our parent, has died (else it removes it)."""
    if scratch != "-" and (_orphan or os.getppid() != parent):
        _remove(scratch)


def main(argv: list[str]) -> None:
    parent, fsize, scratch, args = int(argv[0]), int(argv[1]), argv[2], argv[4:]
    for signum in _STOPPING:
        signal.signal(signum, _raise_stop)
    signal.signal(_ORPHANED, _parent_died)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(_PR_SET_PDEATHSIG, _ORPHANED, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # ending by the program's signal dumps nothing
    status = None
    try:
        if os.getppid() != parent:  # we died before the parent-death signal was asked for
            _parent_died(_ORPHANED, None)
        program = _start(args, fsize)
        while status is None:
            try:
                pid, wait_status = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if pid == program:
                status = wait_status
        _ending()  # the program is done
        _end_all()
    except _Stop as stop:
        _ending()
        _end_all()
        _orphaned(parent, scratch)
        os._exit(128 + stop.signum)
    _orphaned(parent, scratch)
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
