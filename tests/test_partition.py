"""Counting beyond one process (issue 8): checkpoints, resume after a kill, and Dask."""

import json
import signal
import subprocess
import time

import pytest

import nqueens_cp as nq
from nqueens_cp import NQueensError, Problem
from nqueens_cp.partition import CheckpointError, count_partitioned, dask_runner, pool_runner

from .conftest import A000170, run, script


def part(p, depth=3):
    return nq.get_backend("bitmask").partition(p, depth)


def never(*_):
    raise AssertionError("nothing should be left to run")


def test_checkpoint_records_everything_and_a_rerun_runs_nothing(tmp_path):
    ck = tmp_path / "c.json"
    assert count_partitioned(part(Problem(12)), pool_runner(2), ck) == A000170[11]
    data = json.loads(ck.read_text())
    assert len(data["done"]) == data["problem"]["items"] == part(Problem(12)).size
    assert count_partitioned(part(Problem(12)), never, ck) == A000170[11]


def test_resume_runs_only_what_is_missing(tmp_path):
    ck = tmp_path / "c.json"
    work = part(Problem(11), 2)

    def dies_halfway(w, indices):
        for k, (index, count) in enumerate(pool_runner(1)(w, indices)):
            if k == w.size // 2:
                raise KeyboardInterrupt
            yield index, count

    with pytest.raises(KeyboardInterrupt):
        count_partitioned(work, dies_halfway, ck)
    recorded = set(map(int, json.loads(ck.read_text())["done"]))
    assert 0 < len(recorded) < work.size
    seen = []

    def watching(w, indices):
        seen.extend(indices)
        return pool_runner(1)(w, indices)

    assert count_partitioned(work, watching, ck) == A000170[10]
    assert sorted(seen) == sorted(set(range(work.size)) - recorded)


def test_kill_and_resume_gives_the_exact_total(tmp_path):
    ck = tmp_path / "c.json"
    proc = subprocess.Popen([script(), "count", "15", "--checkpoint", str(ck), "--workers", "1"])
    done = 0
    deadline = time.time() + 60
    while done < 40 and time.time() < deadline:
        time.sleep(0.02)
        try:
            done = len(json.loads(ck.read_text())["done"])
        except (OSError, ValueError):
            continue
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    left = json.loads(ck.read_text())
    assert 40 <= len(left["done"]) < left["problem"]["items"], "the run should be killed midway"
    assert count_partitioned(part(Problem(15)), pool_runner(2), ck) == A000170[14]


def test_a_checkpoint_for_another_problem_is_refused(tmp_path):
    ck = tmp_path / "c.json"
    count_partitioned(part(Problem(9)), pool_runner(1), ck)
    with pytest.raises(CheckpointError, match="different problem"):
        count_partitioned(part(Problem(10)), pool_runner(1), ck)
    with pytest.raises(CheckpointError, match="different problem"):
        count_partitioned(part(Problem(9), 2), pool_runner(1), ck)
    r = run("count", 9, "--block", "0,0", "--checkpoint", ck)
    assert r.exit_code == 2 and "different problem" in r.stderr
    ck.write_text("{not json")
    r = run("count", 9, "--checkpoint", ck)
    assert r.exit_code == 2 and "not a readable checkpoint" in r.stderr


def test_partitioned_variants_and_limits():
    p = Problem(10, blocked=[(0, 0), (4, 5)], fixed=[(2, 7)])
    assert count_partitioned(part(p, 2), pool_runner(2)) == nq.count(p)
    with pytest.raises(NQueensError):
        part(Problem(7, torus=True))


def test_dask_local_cluster_matches_the_pool_and_oeis():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as c:
        runner = dask_runner(c.scheduler_address)
        assert count_partitioned(part(Problem(12)), runner) == A000170[11] == count_partitioned(part(Problem(12)))
        r = run("count", 11, "--dask", c.scheduler_address, "--json")
        assert r.exit_code == 0 and json.loads(r.stdout)["count"] == A000170[10]


def test_unreachable_scheduler_is_one_line():
    pytest.importorskip("distributed")
    r = run("count", 8, "--dask", "tcp://127.0.0.1:9")
    assert r.exit_code == 2 and "cannot reach the Dask scheduler" in r.stderr


def test_missing_dask_is_a_clear_message(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)  # import now fails
    r = run("count", 8, "--dask", "local")
    assert r.exit_code == 2 and "pip install 'nqueens_cp[dask]'" in r.stderr


def test_missing_matplotlib_is_a_clear_message(monkeypatch, tmp_path):
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    r = run("compare", "--n", "4..5", "--backends", "bitmask,cpsat", "--plot", tmp_path / "t.png")
    assert r.exit_code == 2 and "pip install 'nqueens_cp[plot]'" in r.stderr
