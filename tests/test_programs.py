"""Programs we start (a SAT binary, MiniZinc, a user's solver) end with the run, and what they
start ends with them, whatever process group it is in (issue 34, items 5 and 8): the guardian
(`run.guard`) kills and reaps their whole tree, bounds the files they write, and the CPU time of
the whole tree reaches our wait."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
import time

import pytest

from nqueens_cp.run.programs import ProgramOutputError, lines_of, run_group
from tests.conftest import children_of_a_killed_run, gone, has_descendant

pytestmark = pytest.mark.timeout(60)

#: A program that starts a grandchild in a session of its own (as MiniZinc starts its solver),
#: which burns CPU_SECONDS of CPU, writes its pid to the file named by argv[1], then sleeps.
ORPHANING = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    while time.process_time() < float(sys.argv[2]):
        pass
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    time.sleep(600)
    os._exit(0)
time.sleep(600)
"""


def _grandchild(marker) -> None:
    if marker.exists():
        raise TimeoutError("the grandchild is ready")


def test_a_grandchild_in_its_own_session_is_ended_and_its_cpu_time_counted(tmp_path):
    """Killing the program's group left MiniZinc's solver running, and its CPU time reached no
    rusage (a 2 s run was recorded at 0.25 CPU s). The grandchild here burns a set amount of CPU
    itself, so the check holds however busy the machine is."""
    marker = tmp_path / "pid"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with pytest.raises(TimeoutError):
        args = [sys.executable, "-c", ORPHANING, str(marker), "0.5"]
        run_group(args, subprocess.DEVNULL, poll=lambda: _grandchild(marker))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    pid = int(marker.read_text())
    assert gone([pid], within=2), "the grandchild outlived the run"
    assert (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime) >= 0.5


def test_lines_of_a_stopped_program_end_its_whole_tree(tmp_path):
    marker = tmp_path / "pid"
    lines = lines_of([sys.executable, "-c", ORPHANING, str(marker), "0.01"], poll=lambda: _grandchild(marker))
    with pytest.raises(TimeoutError):
        list(lines)
    assert gone([int(marker.read_text())], within=2)


@pytest.mark.slow
def test_kill_9_of_ours_ends_a_sat_binarys_own_child(tmp_path):
    """After `kill -9` of the nqueens process, a `cmd:` solver's own child lived on."""
    solver = tmp_path / "forking-sat"
    solver.write_text("#!/bin/sh\nsleep 61.5 &\nsleep 62.5\n")
    solver.chmod(0o755)
    args = ["count", "8", "-b", "sat", "--sat-solver", f"cmd:{solver}"]
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    kids, ended = children_of_a_killed_run(args, has_descendant("sleep"), tmpdir=scratch)
    assert list(kids.values()).count("sleep") == 2, kids
    assert ended, "the solver's child outlived a run killed with SIGKILL"
    assert list(scratch.iterdir()) == [], "the run's CNF folder outlived it"


def test_a_program_that_prints_without_end_is_bounded(tmp_path):
    """`cmd:yes` wrote 3.3 GB in 3 s."""
    out = tmp_path / "out"
    start = time.monotonic()
    with out.open("wb") as sink:
        code = run_group(["yes"], sink, max_file=1 << 20)
    assert out.stat().st_size <= 1 << 20 and code != 0
    assert time.monotonic() - start < 30


def test_a_streaming_program_with_an_endless_line_is_refused(monkeypatch):
    import nqueens_cp.run.programs as programs

    monkeypatch.setattr(programs, "MAX_LINE", 1 << 16)
    with pytest.raises(ProgramOutputError, match="a line of over"):
        list(lines_of([sys.executable, "-c", "import sys; sys.stdout.write('x' * (1 << 20))"]))


def test_a_missing_program_is_an_os_error():
    with pytest.raises(FileNotFoundError):
        run_group(["no-such-program-here"], subprocess.DEVNULL)


def test_the_exit_code_and_a_killing_signal_are_the_programs():
    assert run_group(["sh", "-c", "exit 7"], subprocess.DEVNULL) == 7
    assert run_group(["sh", "-c", "kill -TERM $$"], subprocess.DEVNULL) == -15
    assert os.path.exists("/proc")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["bitmask", "minizinc", "clingo", "sat"])
def test_a_reader_that_goes_away_leaves_no_folder_and_no_process(tmp_path, backend):
    """`solve ... | head` ended by SIGPIPE where it stood, leaving its working folders (and
    MiniZinc's files) in $TMPDIR; click's own ending for it was exit 1."""
    from nqueens_cp.backends import backend_class
    from tests.conftest import script, tree

    why = backend_class(backend).missing()
    if why:
        pytest.skip(why)
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(
        [script(), "solve", "11", "-b", backend, "-f", "jsonl"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().startswith(b"[")
        started = tree(proc.pid)
        proc.stdout.close()  # as `head -1` does once it has its line
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, err) == (0, b"")
    assert gone(started), "a process outlived the run"
    assert list(tmp_path.iterdir()) == [], "working files were left"


class _Injected(Exception):
    """Stands for the exception a signal's handler raises wherever the main thread is."""


def _stopped_at_every_step(start, warm: int = 2) -> int:
    """For k = 1, 2, ...: start a stream, take `warm` items, then raise _Injected at the k-th
    bytecode the next item's taking runs (in any frame: the queue's, the lock's, ours), and
    close the stream, which must end within 10 s. Returns how many steps were tried. A stream
    that waited on a Python-level lock (queue.Queue, Event.wait) hung here at the steps between
    the lock's acquire and the `with` that releases it."""
    k = 0
    while True:
        k += 1
        stream = start()
        for _ in range(warm):
            next(stream)
        seen = 0

        def trace(frame, event, arg, k=k):
            nonlocal seen
            frame.f_trace_opcodes = True
            if event == "opcode":
                seen += 1
                if seen == k:
                    raise _Injected
            return trace

        sys.settrace(trace)
        try:
            next(stream)
        except _Injected:
            pass
        finally:
            sys.settrace(None)
        closing = threading.Thread(target=stream.close, daemon=True)
        closing.start()
        closing.join(10)
        assert not closing.is_alive(), f"a stop at step {k} of taking an item left the stream unable to end"
        if seen < k:  # the item was taken before step k: every step has been tried
            return k


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_stop_at_any_step_of_reading_a_program_s_lines_ends_it():
    """`count -b minizinc` outlived its SIGTERM by 30 s and more, now and then under load."""
    tried = _stopped_at_every_step(lambda: lines_of(["seq", "1", "100000"]))
    assert tried > 5


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_stop_at_any_step_of_taking_a_cpsat_solution_ends_its_search():
    from nqueens_cp.backends import get_backend
    from nqueens_cp.backends.base import Task
    from nqueens_cp.model.problem import Problem

    cpsat, problem = get_backend("cpsat"), Problem(8)
    tried = _stopped_at_every_step(lambda: cpsat._solutions(problem, cpsat.plan(problem, Task.SOLVE), {}))
    assert tried > 5
