"""The minizinc backend: the exported model solved by MiniZinc (Gecode by default), checked
against OEIS and the brute force, under time limits and signals, with no process left behind.
These tests skip where MiniZinc is not installed (apt-get install minizinc)."""

import json
import signal
import time

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import available_backends, backend_class
from tests.conftest import (
    A000170,
    A007705,
    A051223,
    children_of_a_killed_run,
    gone,
    has_descendant,
    interrupt_when,
    run,
    watched_run,
)
from tests.test_pieces import A137774

MISSING = backend_class("minizinc").missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.mark.slow
def test_minizinc_counts_what_oeis_publishes():
    assert [nq.count(n, "minizinc") for n in range(1, 9)] == A000170[:8]
    assert [nq.count(Problem(n, torus=True), "minizinc") for n in range(1, 8)] == A007705[:7]
    assert [nq.count(Problem(n, "superqueen"), "minizinc") for n in range(1, 11)] == A051223[:10]
    assert [nq.count(Problem(n, "RN"), "minizinc") for n in range(1, 8)] == A137774[:7]


def test_minizinc_finds_and_streams_the_same_solutions_as_our_engine():
    p = Problem(8, "RN", blocked=[(0, 0), (3, 4)], fixed=[(2, 5)])
    assert set(nq.solve(p, "minizinc")) == set(nq.solve(p))
    assert p.explain(nq.first(p, "minizinc")) is None
    assert nq.first(Problem(3), "minizinc") is None


def test_an_unknown_solver_is_one_line_naming_those_that_run_here():
    r = run("count", 6, "-b", "minizinc", "--mzn-solver", "cryptominizinc")
    assert r.exit_code == 2 and "no solver 'cryptominizinc' here" in r.stderr and "gecode" in r.stderr
    assert "cplex" not in r.stderr and "gist" not in r.stderr  # listed by MiniZinc, but cannot run here


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_the_time_limit_stops_minizinc_and_its_solver_and_leaves_nothing(tmp_path, monkeypatch):
    """MiniZinc starts its solver in a process group of its own: ending MiniZinc's group left
    fzn-gecode running at full CPU, and MiniZinc's mznfile*.fzn stayed in $TMPDIR."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    start = time.monotonic()
    proc, seen = watched_run(["count", "14", "-b", "minizinc", "--time-limit", "1", "--json"])
    took = time.monotonic() - start
    rec = json.loads(proc.stdout)
    assert proc.returncode == 3 and rec["status"] == "unknown" and rec["partial"] and rec["count"] > 0
    assert took < 1 + 3  # the limit, start-up and the kill (MiniZinc streams: the limit is seen between lines)
    assert any(name.startswith("fzn-gecode") for name in seen.values()), "the solver was not seen"
    assert gone(seen), "a process of the run outlived it"
    assert list(tmp_path.iterdir()) == [], "temporary files were left"


@pytest.mark.slow
@pytest.mark.timeout(60)
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_minizinc_and_its_solver_at_once(sig, code):
    result, took, _err, kids = interrupt_when(["count", 15, "-b", "minizinc"], has_descendant("fzn-gecode"), sig)
    assert result == code and took < 2.5
    assert any(name.startswith("fzn-gecode") for name in kids.values())
    assert gone(kids), "the solver outlived the run"


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_kill_9_of_ours_ends_minizinc_and_its_solver(tmp_path):
    """... and left its folder (the model, MiniZinc's FlatZinc) in /tmp, once per test run."""
    args = ["count", 15, "-b", "minizinc"]
    kids, ended = children_of_a_killed_run(args, has_descendant("fzn-gecode"), tmpdir=tmp_path)
    assert any(name.startswith("fzn-gecode") for name in kids.values())
    assert ended, "the solver outlived a run killed with SIGKILL"
    assert list(tmp_path.iterdir()) == [], "the run's folder outlived it"


def test_minizinc_missing_is_said_and_left_out_of_the_defaults(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert "minizinc" not in available_backends()
    r = run("count", 6, "-b", "minizinc")
    assert r.exit_code == 2 and "apt-get install minizinc" in r.stderr
