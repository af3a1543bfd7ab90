"""Counting beyond one process (issue 8): checkpoints, resume after a kill, and Dask."""

import contextlib
import json
import math
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp import NQueensError, Problem
from nqueens_cp.run.partition import (
    Checkpoint,
    CheckpointError,
    PartialCount,
    count_partitioned,
    dask_runner,
    pool_runner,
)
from tests.conftest import A000170, backtrack_count, children, cpu_seconds, gone, run, script
from tests.test_pieces import A137774
from tests.test_reliability import STOP


def part(p, depth=None):
    return nq.get_backend("bitmask").partition(p, depth)


def journal(ck):
    """(header, {item: count}) read from a checkpoint journal, written out again here; a journal
    just created (its header not yet written) reads as no header and nothing done."""
    text = ck.read_text()
    if "\n" not in text:
        return None, {}
    head, *lines = text.splitlines()
    done = {}
    for line in lines:
        with contextlib.suppress(ValueError):
            rec = json.loads(line)
            done[rec["i"]] = rec["count"]
    return json.loads(head), done


def dies_halfway(w, indices):
    """A runner of one process that is interrupted once half the items are counted."""
    for k, (index, count) in enumerate(pool_runner(1)(w, indices)):
        if k == w.size // 2:
            raise KeyboardInterrupt
        yield index, count


def never(*_):
    raise AssertionError("nothing should be left to run")


def test_checkpoint_records_everything_and_a_rerun_runs_nothing(tmp_path):
    ck = tmp_path / "c.json"
    assert count_partitioned(part(Problem(12)), pool_runner(2), ck) == A000170[11]
    head, done = journal(ck)
    assert len(done) == head["fingerprint"]["items"] == part(Problem(12)).size
    assert sum(done.values()) == A000170[11]
    assert count_partitioned(part(Problem(12)), never, ck) == A000170[11]


def test_resume_runs_only_what_is_missing(tmp_path):
    ck = tmp_path / "c.json"
    work = part(Problem(11, "rook", fixed=[(0, 0)]), 2)  # a fixed square: a row split, not constellations
    with pytest.raises(KeyboardInterrupt):
        count_partitioned(work, dies_halfway, ck)
    recorded = set(journal(ck)[1])
    assert 0 < len(recorded) < work.size
    seen = []

    def watching(w, indices):
        seen.extend(indices)
        return pool_runner(1)(w, indices)

    assert count_partitioned(work, watching, ck) == math.factorial(10)
    assert sorted(seen) == sorted(set(range(work.size)) - recorded)


def test_a_count_whose_last_item_came_in_as_its_time_ran_out_is_whole(tmp_path):
    """The pool yields the items that finished, then looks at the clock before it sees its
    workers end: a count whose every item was in, its time limit passed at that look, was
    reported as stopped (exit 3, "partial") with the whole count as its lower bound."""

    def late(w, indices, poll=None):
        yield from pool_runner(1)(w, indices)
        assert poll is not None
        poll()  # (the look at the clock after the last item: past the limit)

    ck = tmp_path / "c.json"
    assert count_partitioned(part(Problem(10)), late, ck, time_limit=0.0) == A000170[9]
    with pytest.raises(PartialCount):  # (one item short, the same look stops it)
        count_partitioned(part(Problem(10)), lambda w, ix, poll: late(w, ix[:-1], poll), time_limit=0.0)


@pytest.mark.slow
def test_kill_and_resume_gives_the_exact_total(tmp_path):
    ck = tmp_path / "c.json"
    proc = subprocess.Popen([script(), "count", "15", "--checkpoint", str(ck), "--workers", "1"])
    done = 0
    deadline = time.time() + 60
    while done < 40 and time.time() < deadline:
        time.sleep(0.02)
        try:
            done = len(journal(ck)[1])
        except (OSError, ValueError):
            continue
    workers = children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    head, left = journal(ck)
    assert 40 <= len(left) < head["fingerprint"]["items"], "the run should be killed midway"
    # resumed at once, while the killed run's workers may still be ending: they never held its lock
    assert count_partitioned(part(Problem(15)), pool_runner(2), ck) == A000170[14]
    assert gone(workers), "the killed run's workers outlived it"


def test_a_forked_worker_does_not_hold_its_runs_checkpoint(tmp_path):
    """The lock is the run's alone: once the run is gone (its journal closed, as a SIGKILL closes
    it) a resume may start while a worker it forked still lives, and nothing the worker flushes
    reaches the journal."""
    ck, fingerprint = tmp_path / "c.jsonl", {"items": 3}
    first = Checkpoint(ck, fingerprint)
    first.record(0, 7)  # buffered: a child that flushed its copy would write it twice
    fork = multiprocessing.get_context("fork")
    ready = fork.Event()
    child = fork.Process(target=_flush_then_wait, args=(first, ready), daemon=True)
    child.start()
    try:
        assert ready.wait(30), "the forked child never started"
        first._file.close()  # the run's own descriptor, closed as its death closes it
        again = Checkpoint(ck, fingerprint)  # refused "in use by another run" while the worker held it
        assert child.is_alive() and again.done == {0: 7}
        again.close()
        assert ck.read_text().count('"i": 0') == 1
    finally:
        child.kill()
        child.join(5)


def _flush_then_wait(held, ready):
    held._file.flush()
    ready.set()
    time.sleep(60)


def test_a_checkpoint_for_another_problem_is_refused(tmp_path):
    ck = tmp_path / "c.json"
    count_partitioned(part(Problem(9)), pool_runner(1), ck)
    with pytest.raises(CheckpointError, match="different problem"):
        count_partitioned(part(Problem(10)), pool_runner(1), ck)
    with pytest.raises(CheckpointError, match="different problem"):
        count_partitioned(part(Problem(9), 2), pool_runner(1), ck)
    r = run("count", 9, "--block", "0,0", "--checkpoint", ck)
    assert r.exit_code == 2 and "different problem" in r.stderr
    for bad in ("{not json", "null", '{"problem": [1], "done": {}}', "[1]", ""):
        ck.write_text(bad)
        r = run("count", 9, "--checkpoint", ck)
        assert r.exit_code == 2 and "not a readable checkpoint" in r.stderr, bad


def test_partitioned_variants_and_limits():
    p = Problem(10, blocked=[(0, 0), (4, 5)], fixed=[(2, 7)])
    assert count_partitioned(part(p, 2), pool_runner(2)) == nq.count(p)
    with pytest.raises(NQueensError, match="compiled kernels"):
        part(Problem(65))  # no compiled kernel takes it (a small torus is cut since this wave)


@pytest.mark.slow
def test_dask_local_cluster_matches_the_pool_and_oeis():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as c:
        runner = dask_runner(c.scheduler_address)
        assert count_partitioned(part(Problem(12)), runner) == A000170[11] == count_partitioned(part(Problem(12)))
        r = run("count", 11, "--dask", c.scheduler_address, "--json")
        assert r.exit_code == 0 and json.loads(r.stdout)["count"] == A000170[10]


class _FakeFuture:
    def __init__(self, fn, args):
        self.value, self.status = fn(*args), "finished"

    def result(self):
        return self.value


class _FakeClient:
    """A Dask client that runs each task as it is submitted, and counts the tasks."""

    def __init__(self, workers):
        self.workers, self.tasks = workers, 0

    def scatter(self, data, broadcast=False):
        return data

    def scheduler_info(self):
        return {"workers": dict.fromkeys(range(self.workers))}

    def submit(self, fn, *args, pure=True):
        self.tasks += 1
        return _FakeFuture(fn, args)


class _FakeAsCompleted:
    def __init__(self, futures):
        self.pending = list(futures)

    def is_empty(self):
        return not self.pending

    def next_batch(self, block=True):
        batch, self.pending = self.pending, []
        return batch

    def add(self, future):
        self.pending.append(future)


@pytest.mark.parametrize("workers", [1, 2, 5])
def test_dask_gets_a_few_tasks_per_worker_not_one_per_item(workers):
    """A Dask task costs milliseconds of scheduling: thousands of one-item tasks made
    `count 17 --dask local` take 21 s where the pool takes 5. Items go in chunks, a bounded number
    per worker, and every item comes back once with its own result."""
    from nqueens_cp.run.partition import DASK_TASKS_PER_WORKER, Partition, _gather

    part = Partition({"test": 1}, 3000, lambda ctx, i: ctx * i, 7, None, None)
    client = _FakeClient(workers)
    got = dict(_gather(client, _FakeAsCompleted, part, list(range(3000)), 1.0, "local"))
    assert got == {i: 7 * i for i in range(3000)}
    assert client.tasks <= workers * DASK_TASKS_PER_WORKER


@pytest.mark.slow
def test_unreachable_scheduler_is_one_line():
    """A refused connection is said at once: it waited the whole --dask-wait (20 s by default)."""
    pytest.importorskip("distributed")
    start = time.monotonic()
    r = run("count", 8, "--dask", "tcp://127.0.0.1:9", "--dask-wait", "120")
    assert r.exit_code == 2 and "cannot reach the Dask scheduler" in r.stderr and "refused" in r.stderr
    assert time.monotonic() - start < 60


def test_missing_dask_is_a_clear_message(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)  # import now fails
    r = run("count", 8, "--dask", "local")
    assert r.exit_code == 2 and "pip install 'nqueens_cp[dask]'" in r.stderr


def test_missing_matplotlib_is_a_clear_message(monkeypatch, tmp_path):
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    r = run("compare", "--n", "4..5", "--backends", "bitmask,cpsat", "--plot", tmp_path / "t.png")
    assert r.exit_code == 2 and "pip install 'nqueens_cp[plot]'" in r.stderr


def test_a_tampered_or_broken_checkpoint_is_refused_before_any_work(tmp_path):
    ck = tmp_path / "c.json"
    assert run("count", 11, "--checkpoint", ck).exit_code == 0
    head, *records = ck.read_text().splitlines()
    first = json.loads(records[0])
    edits = {
        "negative": {**first, "count": -5},
        "edited": {**first, "count": first["count"] + 1},
        "out of range": {**first, "i": 10**6},
        "not a record": {"x": 1},
    }
    for what, rec in edits.items():
        ck.write_text("\n".join([head, json.dumps(rec), *records[1:]]) + "\n")
        r = run("count", 11, "--checkpoint", ck)
        assert r.exit_code == 2 and f"{ck}:2:" in r.stderr and len(r.stderr.splitlines()) == 1, (what, r.stderr)


def test_a_torn_last_record_is_run_again(tmp_path):
    ck = tmp_path / "c.json"
    assert run("count", 11, "--checkpoint", ck).exit_code == 0
    text = ck.read_text()
    ck.write_text(text[: len(text) - 10])  # a kill in the middle of the last write
    r = run("count", 11, "--checkpoint", ck)
    assert r.exit_code == 0 and int(r.stdout) == A000170[10]
    assert len(journal(ck)[1]) == part(Problem(11)).size


def test_a_sound_journal_run_again_is_left_byte_for_byte_and_a_resumed_one_only_grows(tmp_path):
    """A b-file publishes its journals' digests: running the count again on a finished journal
    must not rewrite it (it sorted the records, which finish in any order, so the digest changed),
    and a resumed run appends to what stood. Records in reverse order: a finished order sorting changes."""
    ck = tmp_path / "c.jsonl"
    assert run("count", 11, "--checkpoint", ck).exit_code == 0
    head, *records = ck.read_text().splitlines()
    ck.write_text("\n".join([head, *reversed(records)]) + "\n")
    finished = ck.read_bytes()
    r = run("count", 11, "--checkpoint", ck)
    assert r.exit_code == 0 and int(r.stdout) == A000170[10] and ck.read_bytes() == finished
    begun = "\n".join([head, *reversed(records[len(records) // 2 :])]) + "\n"
    ck.write_text(begun)
    assert run("count", 11, "--checkpoint", ck).exit_code == 0
    assert ck.read_text().startswith(begun) and len(journal(ck)[1]) == len(records)


def test_a_journal_with_a_record_twice_is_compacted(tmp_path):
    ck = tmp_path / "c.jsonl"
    assert run("count", 11, "--checkpoint", ck).exit_code == 0
    head, *records = ck.read_text().splitlines()
    ck.write_text("\n".join([head, *records, records[0]]) + "\n")
    r = run("count", 11, "--checkpoint", ck)
    assert r.exit_code == 0 and int(r.stdout) == A000170[10]
    assert len(ck.read_text().splitlines()) == 1 + len(records)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    r = run("count", 11, "--checkpoint", folder / "c.json")
    assert r.exit_code == 2 and "cannot write the checkpoint" in r.stderr


def test_a_missing_folder_is_refused_before_any_work(tmp_path):
    start = time.monotonic()
    r = run("count", 17, "--checkpoint", tmp_path / "no" / "such" / "c.json")
    assert r.exit_code == 2 and "cannot write the checkpoint" in r.stderr
    assert time.monotonic() - start < 5, "the path must be checked before the count starts"
    r = run("count", 11, "--checkpoint", "/proc/nqueens-checkpoint.json")  # no file can be made there, even by root
    assert r.exit_code == 2 and "cannot write the checkpoint" in r.stderr


def test_check_resums_a_finished_checkpoint_without_running(tmp_path):
    ck = tmp_path / "c.json"
    assert run("count", 12, "--checkpoint", ck, "--workers", 2).exit_code == 0
    r = run("count", 12, "--checkpoint", ck, "--check", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["count"] == A000170[11]
    head, *records = ck.read_text().splitlines()
    ck.write_text("\n".join([head, *records[:-3]]) + "\n")
    r = run("count", 12, "--checkpoint", ck, "--check")
    assert r.exit_code == 2 and "3 of" in r.stderr and "not recorded yet" in r.stderr


def _forged(ck: Path) -> int:
    """One record's count raised by one, its CRC made anew from the public data alone (written
    out here from the journal's format: the SHA-256 of the header's fingerprint, the item, the
    count): the item forged."""
    import hashlib
    import zlib

    head, *records = ck.read_text().splitlines()
    digest = hashlib.sha256(json.dumps(json.loads(head)["fingerprint"], sort_keys=True).encode()).hexdigest()
    rec = json.loads(records[0])
    rec["count"] += 1
    i, count = rec["i"], rec["count"]
    rec["check"] = f"{zlib.crc32(f'{digest}:{i}:{count}'.encode()):08x}"
    ck.write_text("\n".join([head, json.dumps(rec), *records[1:]]) + "\n")
    return rec["i"]


def test_a_forged_record_passes_check_as_documented_and_a_full_recount_catches_it(tmp_path):
    """--check proves the journal whole and made for this problem, not its counts: a record forged
    with its CRC recomputed passes it. --recount K counts K records again, chosen at random."""
    ck = tmp_path / "c.jsonl"
    assert run("count", 12, "--checkpoint", ck).exit_code == 0
    r = run("count", 12, "--checkpoint", ck, "--recount", 10)
    assert r.exit_code == 0 and r.stdout.strip() == str(A000170[11]) and "10 of them chosen at random" in r.stderr
    forged = _forged(ck)
    r = run("count", 12, "--checkpoint", ck, "--check")
    assert r.exit_code == 0 and r.stdout.strip() == str(A000170[11] + 1)  # what --check cannot see
    r = run("count", 12, "--checkpoint", ck, "--recount", 100000)  # every record: certain to be caught
    assert r.exit_code == 1 and f"item {forged} is recorded as" in r.stderr and not r.stdout, r.output
    assert len(r.stderr.strip().splitlines()) == 1
    assert run("count", 12, "--recount", 3).exit_code == 2


@pytest.mark.timeout(30)
def test_a_checkpoint_that_is_not_a_regular_file_is_refused_at_once(tmp_path):
    """A FIFO blocked the open for ever, and a kill then said the work was "saved in" it."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in ((), ("--check",)):
        r = run("count", 12, "--checkpoint", fifo, *args)
        assert r.exit_code == 2 and "not a regular file" in r.stderr, r.output
    r = run("count", 12, "--checkpoint", tmp_path)  # a folder
    assert r.exit_code == 2 and "not a regular file" in r.stderr, r.output


def test_a_stopped_count_with_a_checkpoint_prints_its_partial_record(tmp_path):
    """It exited 3 with nothing on stdout, where the same count without --checkpoint prints the
    partial record: the same record on every path."""
    r = run("count", 19, "--checkpoint", tmp_path / "c.jsonl", "--time-limit", "1", "--json")
    rec = json.loads(r.stdout)
    assert r.exit_code == 3 and rec["partial"] is True and rec["status"] == "unknown" and rec["count"] >= 0
    r = run("count", 19, "--checkpoint", tmp_path / "c.jsonl", "--time-limit", "1")
    assert r.exit_code == 3 and r.stdout.strip().endswith("(partial: at least)") and "resumes" in r.stderr


def _cut_short(ck: Path, keep: int) -> None:
    """The journal with only its first `keep` records, as a run stopped early leaves it."""
    head, *records = ck.read_text().splitlines()
    ck.write_text("\n".join([head, *records[:keep]]) + "\n")


def test_a_checkpoint_made_under_another_plan_resumes_and_is_checked_by_its_own_cut(tmp_path):
    """A journal made under another memory budget (the join or the constellations) or another
    --depth was refused as "made for a different problem or partition", resumed or checked: its
    cut is one of this problem's, so it is followed, and the run says so."""
    made = tmp_path / "constellations.json"
    assert run("count", 16, "--checkpoint", made, "--memory", "64MiB").exit_code == 0
    assert journal(made)[0]["fingerprint"]["split"] == "constellations"
    _cut_short(made, 500)
    r = run("count", 16, "--checkpoint", made)  # this run's plan is the join
    assert r.exit_code == 0 and int(r.stdout) == A000170[15], r.stderr
    assert "made by another plan of this problem (constellations), which this run follows (its own: join)" in r.stderr
    r = run("count", 16, "--checkpoint", made, "--check", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["count"] == A000170[15]
    assert json.loads(r.stdout)["plan"]["algorithm"] == "constellations"

    joined = tmp_path / "join.json"
    assert run("count", 16, "--checkpoint", joined).exit_code == 0
    assert journal(joined)[0]["fingerprint"]["split"] == "join"
    r = run("count", 16, "--checkpoint", joined, "--memory", "64MiB", "--check")
    assert r.exit_code == 0 and int(r.stdout) == A000170[15], r.stderr
    _cut_short(joined, 100)
    r = run("count", 16, "--checkpoint", joined, "--memory", "64MiB")  # the join does not fit: said, with the way out
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    need = re.search(r"--memory (\d+)MiB or more", r.stderr)
    assert need and "made by the join" in r.stderr
    r = run("count", 16, "--checkpoint", joined, "--memory", f"{need[1]}MiB")
    assert r.exit_code == 0 and int(r.stdout) == A000170[15], r.stderr

    rows = tmp_path / "rows.json"
    blocked = ("count", 12, "--block", "0,0", "--checkpoint", rows)
    assert run(*blocked, "--depth", 4).exit_code == 0
    expected = int(run("count", 12, "--block", "0,0").stdout)
    _cut_short(rows, 50)
    r = run(*blocked)
    assert r.exit_code == 0 and int(r.stdout) == expected, r.stderr
    assert "(rows cut at depth 4), which this run follows (its own: rows cut at depth 3)" in r.stderr
    r = run(*blocked, "--depth", 2)  # the depth asked for is not the journal's
    assert r.exit_code == 2 and "depth 4 there, 2 here" in r.stderr


@pytest.mark.parametrize(("args", "edit"), [((16,), "column_sets"), ((13,), "weight")])
def test_a_record_whose_item_was_edited_is_refused(tmp_path, args, edit):
    """A join record's column sets (a constellation's class and weight) were not covered by its
    check: an edited set passed --check. A record must describe its own item."""
    ck = tmp_path / "c.json"
    assert run("count", *args, "--checkpoint", ck).exit_code == 0
    head, first, *records = ck.read_text().splitlines()
    rec = json.loads(first)  # the first item to end, which under load need not be item 0
    item, i = rec["item"], rec["i"]
    item[edit] = [c ^ 3 for c in item[edit]] if isinstance(item[edit], list) else item[edit] * 2
    ck.write_text("\n".join([head, json.dumps(rec), *records]) + "\n")
    for extra in ((), ("--check",)):
        r = run("count", *args, "--checkpoint", ck, *extra)
        assert r.exit_code == 2 and f"{ck}:2: the record of item {i} does not describe item {i}" in r.stderr, r.stderr


# -- Dask against real scheduler and worker processes ------------------------------------------


def _dask_cli() -> str:
    exe = Path(sys.executable).with_name("dask")
    if not exe.exists():
        pytest.skip("the dask command is not installed")
    return str(exe)


@contextlib.contextmanager
def dask_cluster(tmp_path, workers: int):
    """A `dask scheduler` and `dask worker` processes, killed (with their children) at the end."""
    dask = _dask_cli()
    sched_file = tmp_path / "scheduler.json"
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--scheduler-file", sched_file, "--port", "0", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        for _ in range(workers):
            procs.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard", "--no-nanny"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
        yield address, procs[1:]
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


@contextlib.contextmanager
def _count_17_under_way(address: str, ck: Path) -> Iterator[subprocess.Popen]:
    """`nqueens count 17` on the Dask cluster at `address`, returned once its checkpoint holds 50
    finished items (under way), killed at the end if it is still running."""
    proc = subprocess.Popen(
        [script(), "count", "17", "--dask", address, "--checkpoint", str(ck), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not ck.exists() or len(journal(ck)[1]) < 50):
            time.sleep(0.2)
        assert proc.poll() is None and len(journal(ck)[1]) >= 50, "the count should be under way"
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_killing_one_of_two_real_dask_workers_keeps_the_total_exact(tmp_path):
    ck = tmp_path / "c.json"
    with dask_cluster(tmp_path, 2) as (address, workers), _count_17_under_way(address, ck) as proc:
        workers[0].kill()
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        assert json.loads(out)["count"] == 95815104  # OEIS A000170, n = 17
        said = err.decode().splitlines()  # nothing, or the summary of a long count off a terminal
        items = nq.get_backend("bitmask").partition(Problem(17)).size
        done = f"nqueens: sub-problems: {items:,} of {items:,}"
        assert len(said) <= 1 and all(line.startswith(done) for line in said), said


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_scheduler_without_workers_is_one_line_within_the_wait(tmp_path):
    with dask_cluster(tmp_path, 0) as (address, _):
        start = time.monotonic()
        r = subprocess.run(
            [script(), "count", "12", "--dask", address, "--dask-wait", "3"], capture_output=True, timeout=60
        )
        assert r.returncode == 2 and b"has no worker (waited 3 s)" in r.stderr
        assert len(r.stderr.splitlines()) == 1 and time.monotonic() - start < 20


@pytest.mark.timeout(120)
def test_something_that_is_not_a_dask_scheduler_is_one_line_within_the_wait():
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def answer_like_a_web_server():  # a dashboard port: it speaks HTTP, not Dask
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                conn.close()

    answering = threading.Thread(target=answer_like_a_web_server, daemon=True)
    answering.start()
    try:
        start = time.monotonic()
        r = subprocess.run(
            [script(), "count", "12", "--dask", f"tcp://127.0.0.1:{port}", "--dask-wait", "3"],
            capture_output=True,
            timeout=60,
        )
        assert r.returncode == 2 and b"cannot reach the Dask scheduler" in r.stderr
        assert len(r.stderr.splitlines()) == 1 and time.monotonic() - start < 20
    finally:
        server.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close alone leaves it waiting)
        server.close()
        answering.join(timeout=10)


def _a_worker_started(pid: int) -> bool:
    """Readiness: a process below `pid` runs multiprocessing's spawn (a Dask worker starting),
    while the local cluster is still being made."""
    for child in _descendants(pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                return True
    return False


def _a_worker_counts(pid: int) -> bool:
    """Readiness: a process below `pid` has worked 1 s of CPU (more than its start-up takes)."""
    return any(cpu_seconds(p) >= 1.0 for p in _descendants(pid))


@contextlib.contextmanager
def _local_dask_count(stderr: int = subprocess.PIPE, ready: Callable[[int], bool] = _a_worker_counts):
    """`count 20` on a local Dask cluster of 2 workers, once `ready(its pid)` (by default once a
    worker has counted for 1 s of CPU: minutes of counting, where the join counts n = 18 in
    seconds, before a signal came): (the process, in a session of its own, and the processes
    below it). Killed when the test ends."""
    _dask_cli()
    proc = subprocess.Popen(
        [script(), "count", "20", "--dask", "local", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while proc.poll() is None and time.monotonic() < deadline and not ready(proc.pid):
            time.sleep(0.05)
        before = _descendants(proc.pid)
        assert proc.poll() is None and before, "the local cluster's worker processes should be running"
        yield proc, before
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("ready", [_a_worker_started, _a_worker_counts], ids=["as-workers-start", "counting"])
def test_ctrl_c_with_a_local_dask_cluster_is_one_line_and_leaves_nothing(ready):
    """A Ctrl-C made while the cluster's workers started was dropped (SIGINT was ignored there,
    for the workers' sake), and the count ran on for minutes."""
    with _local_dask_count(ready=ready) as (proc, before):
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent  # 2.5 to 4 s while the cluster's close waited for its workers' tasks
        assert proc.returncode == 130 and err.decode().strip().startswith("nqueens: interrupted"), err.decode()
        assert len(err.decode().strip().splitlines()) == 1
        assert took < STOP, took
        assert gone(before, 15), "worker processes outlived the run"


def test_a_ctrl_c_while_processes_start_is_held_for_this_process_and_spares_them():
    """Inside `_sigint_held` (where a local cluster starts its workers) a SIGINT that another
    thread takes (numpy's BLAS starts one at import) reaches this process once the hold ends,
    and a process started inside never sees one."""
    from nqueens_cp.run import partition

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # started before the hold: SIGINT is not blocked there
    other.start()
    child = None
    try:
        with pytest.raises(KeyboardInterrupt):
            with partition._sigint_held():
                child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
                os.kill(os.getpid(), signal.SIGINT)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:  # the held SIGINT interrupts this wait
                time.sleep(0.01)
        assert child is not None
        os.kill(child.pid, signal.SIGINT)
        child.communicate(b"", timeout=30)
        assert child.returncode == 0, "the process started in the hold was stopped by SIGINT"
    finally:
        stop.set()
        other.join()
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()


def test_a_ctrl_c_that_ends_the_hold_late_leaves_sigint_unblocked(monkeypatch):
    """A SIGINT that another thread took runs its Python handler in this thread a moment later,
    maybe once the handler before the hold is back: its KeyboardInterrupt came between putting
    the handler back and unblocking SIGINT, which stayed blocked in this thread for good (every
    later Ctrl-C of the process ignored, and of every process it started)."""
    from nqueens_cp.run import partition

    real = signal.signal
    calls = []

    def late(signum, handler):  # the second SIGINT call puts the handler back: it fires at once
        before = real(signum, handler)
        calls.append(signum)
        if signum == signal.SIGINT and calls.count(signal.SIGINT) == 2:
            raise KeyboardInterrupt
        return before

    monkeypatch.setattr(signal, "signal", late)
    try:
        with pytest.raises(KeyboardInterrupt), partition._sigint_held():
            pass
        blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    assert calls.count(signal.SIGINT) == 2 and not blocked


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_local_dask_count_killed_outright_leaves_nothing_and_says_nothing():
    """kill -9 left multiprocessing's resource tracker to warn of leaked semaphores on the
    terminal, after the shell's prompt (the cluster's processes end by themselves)."""
    with _local_dask_count() as (proc, before):
        proc.kill()
        _, err = proc.communicate(timeout=60)  # to the end of stderr: every process that holds it has ended
        assert err == b"", err.decode()
        assert gone(before)


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        kids = children(todo.pop())
        found += kids
        todo += kids
    return found


_BROKEN_PIPE_WHILE_RUNNING = """
import os, signal, sys
import nqueens_cp as nq
from nqueens_cp.run.partition import dask_runner, pool_runner
assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN  # as the nqueens script leaves it
r, w = os.pipe()
os.close(r)  # a pipe whose reader is gone, like one to a child that exited
part = nq.get_backend("bitmask").partition(nq.Problem(12))
runner = dask_runner("local", 1) if sys.argv[1] == "dask" else pool_runner(2)
results = runner(part, range(part.size))
try:
    for _ in results:
        os.write(w, b"x")  # while the workers run
except BrokenPipeError:
    print("raised")
finally:
    results.close()  # stops the workers
"""


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("where", ["pool", "dask"])
def test_a_broken_pipe_while_workers_run_raises_instead_of_killing(where):
    """Regression: after Ctrl-C on `count 18 --dask local`, the process was once killed by
    SIGPIPE (exit -13, no message) halfway through the cluster's shutdown: the script kept
    SIGPIPE's default action for `| head`, so a write to a pipe to a child that had already
    exited killed it. The script now leaves SIGPIPE ignored, and such a write raises
    BrokenPipeError."""
    if where == "dask":
        pytest.importorskip("distributed")
    proc = subprocess.Popen(
        [sys.executable, "-c", _BROKEN_PIPE_WHILE_RUNNING, where],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=100)
        assert proc.returncode == 0 and out.decode().strip() == "raised", (proc.returncode, err.decode()[-500:])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever a failed run left behind


@pytest.mark.long
@pytest.mark.slow
def test_every_runner_counts_the_same_numbered_sub_problems():
    """In this process, on the pool and through a checkpoint, a split count goes through the
    items of `partition` (they used to be cut at different depths)."""
    p = Problem(13, blocked=[(0, 0), (5, 7)], fixed=[(1, 4), (6, 10)])  # (the split from 13 on; 489 of them)
    backend = nq.get_backend("bitmask")
    items = backend.partition(p).size
    for workers in (1, 2):
        seen: list[int] = []
        b = nq.get_backend("bitmask", workers=workers, progress=lambda done, total, seen=seen: seen.append(total))
        assert b.plan(p, "count").algorithm == "count-split"
        assert b.count(p).count == backtrack_count(p)
        assert set(seen) == {items}, workers


def test_depth_is_refused_where_it_would_go_unused():
    with pytest.raises(nq.UnsupportedProblem, match="--depth applies to row splits"):
        nq.get_backend("bitmask").partition(Problem(12), depth=2)
    with pytest.raises(nq.UnsupportedProblem, match=r"--depth must be 1..9"):
        nq.get_backend("bitmask").partition(Problem(10, "rook"), depth=40)


def test_a_checkpoint_serves_one_run_at_a_time_and_check_only_reads(tmp_path):
    """Two runs on one journal lost 2771 of 3466 records: the second's rewrite orphaned the
    first's appends. Now the second is refused while the first holds the journal, and --check
    reads without writing."""
    from nqueens_cp.run.partition import open_checkpoint

    ck = tmp_path / "c.jsonl"
    work = part(Problem(11, "rook"))
    first = open_checkpoint(work, ck)
    try:
        first.record(0, work.func(work.context, 0))
        with pytest.raises(CheckpointError, match="in use by another run"):
            open_checkpoint(work, ck)
        before = ck.read_bytes()
        r = run("count", 11, "--piece", "rook", "--checkpoint", ck, "--check")
        assert r.exit_code == 2 and "not recorded yet" in r.stderr
        assert ck.read_bytes() == before
    finally:
        first.close()
    assert count_partitioned(work, pool_runner(1), ck) == math.factorial(11)
    r = run("count", 11, "--piece", "rook", "--checkpoint", ck, "--check")
    assert r.exit_code == 0 and r.stdout.strip() == str(math.factorial(11))


def test_the_time_left_comes_from_the_measured_cost_of_finished_sub_problems():
    from nqueens_cp.run.progress import Tally

    t = Tally(workers=2)
    t.update(0, 110)  # (a run's first word: what it starts from)
    t.update(10, 110, found=500, cost=20.0)  # 2 s each so far, 100 left, 2 workers
    assert t.seconds_left == pytest.approx(100.0) and t.found == 500
    t.update(110, 110, found=900, cost=50.0)
    assert t.seconds_left == 0.0 and "110 of 110 done, 900 solutions" in t.summary()
    resumed = Tally(workers=2)
    resumed.update(60, 110)  # a checkpoint held 60: they cost this run nothing
    assert resumed.seconds_left is None
    resumed.update(70, 110, cost=20.0)  # 10 finished here, 2 s each, 40 left
    assert resumed.seconds_left == pytest.approx(40.0)  # (the 60 held in the mean: about 5.7 s)


def test_a_long_count_off_a_terminal_ends_with_one_summary_line(monkeypatch):
    from nqueens_cp.cli import output

    monkeypatch.setattr(output, "SUMMARY_AFTER", 0.0)
    r = run("count", 13, "--workers", 2)
    assert r.exit_code == 0 and r.stdout.strip() == str(A000170[12])
    lines = r.stderr.strip().splitlines()
    summary = r"nqueens: sub-problems: [\d,]+ of [\d,]+ done, 73,712 solutions, .*"
    assert len(lines) == 1 and re.fullmatch(summary, lines[0])


def _board_id(p: Problem) -> str:
    return f"{p.piece}-{p.shape}{'-torus' if p.torus else ''}"


@pytest.mark.parametrize(
    ("p", "published"),
    [
        (Problem(10, "RN"), A137774[9]),  # CP-SAT took 12-15 s to enumerate them
        (Problem(9, "QN", torus=True, rows=6), None),
        (Problem(9, "Rline(1,-1)", blocked=[(1, 2)]), None),
        (Problem(8, "RF", rows=1), None),
    ],
    ids=lambda v: _board_id(v) if isinstance(v, Problem) else "oeis" if v else "cpsat",
)
def test_any_piece_counts_on_the_pool_and_through_checkpoints_as_in_one_process(p, published, tmp_path):
    """The generic search was refused with --workers, --checkpoint and --dask; it is now cut into
    sub-problems of its first two rows, which every runner counts alike. Against OEIS where it
    has the board, else CP-SAT."""
    one = nq.get_backend("bitmask", workers=1).count(p)
    two = nq.get_backend("bitmask", workers=2).count(p)
    truth = published if published is not None else nq.count(p, "cpsat")
    assert one.count == two.count == truth and two.stats["nodes"] > 0
    ck = tmp_path / "c.jsonl"
    board = [p.n, "--piece", p.piece, "--rows", p.rows, *(["--torus"] if p.torus else [])]
    board += [x for sq in p.blocked for x in ("--block", f"{sq[0]},{sq[1]}")]
    r = run("count", *board, "--checkpoint", ck)
    assert r.exit_code == 0 and r.stdout.strip() == str(truth), r.output
    assert run("count", *board, "--checkpoint", ck, "--check").stdout.strip() == str(truth)


@pytest.mark.parametrize(
    ("args", "expected"),
    [(["5", "--torus"], 10), (["7", "--torus"], 28), (["10", "--piece", "superqueen"], 4)],  # A007705, A051223
)
def test_small_wrapped_and_knight_boards_count_with_a_checkpoint(tmp_path, args, expected):
    """A board small enough for the Python search used to be refused with a checkpoint, in a
    message that said queen boards were covered: it is cut like larger ones instead."""
    r = run("count", *args, "--checkpoint", tmp_path / "c.jsonl")
    assert r.exit_code == 0 and int(r.stdout) == expected


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_local_dask_count_leaves_nothing_in_the_temporary_folder(tmp_path):
    """Dask left dask-scratch-space in $TMPDIR after every local cluster."""
    pytest.importorskip("distributed")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    r = subprocess.run(
        [script(), "count", "12", "--dask", "local", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=100,
        env=env,
    )
    assert r.returncode == 0 and r.stdout.split() == ["14200"], r.stderr
    assert list(tmp_path.iterdir()) == []


def _start_workers(address: str, k: int) -> list[subprocess.Popen]:
    dask = _dask_cli()
    args = [dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard", "--no-nanny"]
    return [
        subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for _ in range(k)
    ]


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_count_survives_the_turnover_of_every_dask_worker(tmp_path):
    """Preemptible and batch-job workers come and go: every worker present at the start is
    replaced mid-run by a new one. The items' tables were scattered to the first workers and
    lost with them; each worker now builds what it needs itself. Nothing is lost, no item is
    counted twice, the total is exact."""
    ck = tmp_path / "c.json"
    new: list[subprocess.Popen] = []
    with dask_cluster(tmp_path, 2) as (address, first), _count_17_under_way(address, ck) as proc:
        try:
            for worker in first:  # every worker of the start, gone at once (their jobs ended)...
                os.killpg(worker.pid, signal.SIGKILL)
            new = _start_workers(address, 2)  # ...and new ones starting, as a batch system's do
            out, err = proc.communicate(timeout=240)
        finally:
            for worker in new:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(timeout=30)
        assert proc.returncode == 0, err
        assert json.loads(out)["count"] == 95815104  # OEIS A000170, n = 17
        items = [json.loads(line)["i"] for line in ck.read_text().splitlines()[1:]]  # every record, once each
        assert len(items) == len(set(items)) == nq.get_backend("bitmask").partition(Problem(17)).size


def test_a_dask_worker_builds_the_items_itself_and_refuses_other_versions():
    """A worker that joined mid-run has nothing scattered to it: it builds the partition from
    the problem (once), and counts only where it runs the client's nqueens_cp and numba."""
    from nqueens_cp.run import partition as pt

    part = nq.get_backend("bitmask").partition(Problem(10))
    assert part.rebuild is not None and set(part.requires or {}) == {"nqueens_cp", "numba"}
    pt._BUILT.clear()
    counts = pt._built_chunk(part.rebuild, "k", part.requires or {}, tuple(range(part.size)))
    assert sum(c for _, c in counts) == A000170[9] and list(pt._BUILT) == ["k"]
    with pytest.raises(NQueensError, match=r"a Dask worker runs numba .*, the client 0\.0\.1"):
        pt._built_chunk(part.rebuild, "k", {"numba": "0.0.1"}, (0,))


def test_the_dask_preload_loads_the_kernels_the_counts_take():
    """Each kernel module the large counts run (constellations' rings, the join's matcher) has
    compiled (or cached) code in the worker once the preload ran: the JIT's, or the module
    compiled ahead of time where that was built (`run.aot`)."""
    code = (
        "import sys\nfrom nqueens_cp.backends.bitmask.preload import dask_setup\ndask_setup(None)\n"
        "from nqueens_cp.backends.bitmask.partitions import constellations, join\n"
        "loaded = {name.rsplit('.', 1)[-1] for name, m in list(sys.modules.items())\n"
        "    if name.startswith('nqueens_cp.backends.bitmask.kernels')\n"
        "    for f in vars(m).values() if getattr(f, 'signatures', None)}\n"
        "for group, name in ((join.KERNELS, 'join'), (constellations.RINGS, 'rings')):\n"
        "    if group.name in sys.modules:\n"
        "        loaded.add(name + '-aot')\n"
        "print(' '.join(sorted(loaded)))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    loaded = set(r.stdout.split())
    assert {"rings", "rings-aot"} & loaded, (r.stdout, r.stderr)
    assert {"join", "bands"} <= loaded or "join-aot" in loaded, (r.stdout, r.stderr)
