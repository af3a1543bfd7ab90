"""The process pool (`run.parallel`) when a worker dies: kill -9, or the kernel's out-of-memory
killer. A count hung for ever once one worker had died, and the first SIGTERM, even the first
Ctrl-C, was ignored: multiprocessing.Pool waited for the dead worker's task. Now the items the
dead worker held are counted again by fresh workers, each item handed on once, or the run fails
in one line."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.run.parallel import REDOS, WorkerLost, run_items
from tests.conftest import A000170, busy, children, gone, script

pytestmark = pytest.mark.timeout(120)


def _dies_once_on(context: tuple[Path, int], i: int) -> int:
    """i squared; the first process to reach item `dying` kills itself there (a marker file
    says it has happened)."""
    marker, dying = context
    if i == dying and not marker.exists():
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.002)
    return i * i


def _always_dies_on(dying: int, i: int) -> int:
    if i == dying:
        os.kill(os.getpid(), signal.SIGKILL)
    return i


@pytest.mark.parametrize("workers", [1, 2])
def test_the_items_of_a_killed_worker_are_counted_again_once(tmp_path, workers):
    got = list(run_items(_dies_once_on, range(200), workers, (tmp_path / "died", 57)))
    assert (tmp_path / "died").exists()
    assert sorted(i for i, _ in got) == list(range(200)), "an item was lost or handed on twice"
    assert all(v == i * i for i, v in got)


def test_a_worker_that_keeps_dying_ends_the_run_in_one_line():
    with pytest.raises(WorkerLost, match="killed by signal 9") as caught:
        list(run_items(_always_dies_on, range(50), 2, 7))
    assert f"{REDOS + 1} times" in str(caught.value)


def _raises(_context: None, i: int) -> int:
    if i == 5:
        raise ArithmeticError("item 5")
    return i


def test_a_worker_s_exception_reaches_the_caller():
    with pytest.raises(ArithmeticError, match="item 5"):
        list(run_items(_raises, range(20), 2, None))


@contextlib.contextmanager
def _a_count_with_a_worker_killed(n: int):
    """`count n --workers 2` running, one of its workers killed by SIGKILL once it has counted
    for half a second: (the process, its workers at the kill); the process is killed if it
    outlives the test."""
    proc = subprocess.Popen(
        [script(), "count", str(n), "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(busy(0.5)(w) for w in children(proc.pid)):
            time.sleep(0.05)
        workers = children(proc.pid)
        assert workers, "the count started no worker"
        os.kill(next(w for w in workers if busy(0.5)(w)), signal.SIGKILL)
        yield proc, workers
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.long
@pytest.mark.slow
def test_a_count_whose_worker_is_killed_ends_exact():
    """`count 18 --workers 2` with one worker killed by SIGKILL mid-count: A000170(18)."""
    with _a_count_with_a_worker_killed(18) as (proc, workers):
        out, err = proc.communicate(timeout=100)
        assert proc.returncode == 0, err
        assert out.split() == [b"666090624"]
        assert gone(workers)


@pytest.mark.long
@pytest.mark.slow
def test_sigterm_ends_a_count_whose_worker_was_killed():
    with _a_count_with_a_worker_killed(19) as (proc, workers):
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 143 and time.monotonic() - sent < 2.5, err
        assert gone(children(proc.pid) + workers)


@pytest.mark.timeout(20)
def test_a_pooled_count_ends_when_its_workers_do_not_at_the_next_tick(monkeypatch):
    """The pool's parent slept a tick (0.1 s) before each look at its workers: a count of 16 on
    two workers spent 0.3 s of its 1.5 s asleep. It now waits on the workers themselves; with a
    30 s tick, waiting for the tick would time out."""
    from nqueens_cp.run import parallel

    monkeypatch.setattr(parallel, "POLL_SECONDS", 30.0)
    assert nq.count(13, workers=2) == A000170[12]
