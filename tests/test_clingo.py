"""The clingo backend: the answer-set program solved by clingo, checked against OEIS and our
engine, under a time limit and signals. Skips where clingo is not installed."""

import json
import signal
import subprocess
import time

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import backend_class
from tests.conftest import A000170, A007705, A051223, cpu_seconds, gone, interrupt_when, run, script, tree, tree_busy
from tests.test_pieces import A002464

MISSING = backend_class("clingo").missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def test_clingo_counts_what_oeis_publishes():
    assert [nq.count(n, "clingo") for n in range(1, 10)] == A000170[:9]
    assert [nq.count(Problem(n, torus=True), "clingo") for n in range(1, 8)] == A007705[:7]
    assert [nq.count(Problem(n, "superqueen"), "clingo") for n in range(1, 11)] == A051223[:10]
    assert [nq.count(Problem(n, "RF"), "clingo") for n in range(1, 8)] == A002464[:7]


def test_clingo_finds_the_same_solutions_as_our_engine():
    p = Problem(8, "RNN", blocked=[(0, 0), (3, 4)], fixed=[(2, 5)], rows=7)
    assert set(nq.solve(p, "clingo")) == set(nq.solve(p))
    assert p.explain(nq.first(p, "clingo")) is None
    assert nq.first(Problem(3), "clingo") is None


def test_the_asp_competition_instance_runs(tmp_path):
    from tests.conftest import MODELS

    r = run("count", "--model", MODELS / "blocked-10.lp", "-b", "clingo")
    assert r.exit_code == 0 and r.stdout == run("count", "--model", MODELS / "blocked-10.lp").stdout


def test_the_exported_program_is_the_reviewed_encoding(tmp_path):
    from pathlib import Path

    text = run("export", 6, "--to", "lp").stdout
    golden = (Path(__file__).parent / "golden" / "nqueens.lp").read_text()
    assert text.startswith(golden) and "row(1..6). col(1..6)." in text


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_the_time_limit_stops_clingo():
    start = time.monotonic()
    proc = subprocess.run([script(), "count", "15", "-b", "clingo", "--time-limit", "1", "--json"], capture_output=True)
    rec = json.loads(proc.stdout)
    assert proc.returncode == 3 and rec["status"] == "unknown" and rec["count"] > 0
    assert time.monotonic() - start < 1 + 3  # models kept coming, and the limit went unseen (20 s)


@pytest.mark.slow
@pytest.mark.timeout(60)
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_clingo_at_once(sig, code):
    result, took, _err, _ = interrupt_when(["count", 16, "-b", "clingo"], tree_busy(1.5), sig)
    assert result == code and took < 2.5


#: A board whose grounding alone takes minutes: a torus whose knight leaps are stated pair by pair.
HEAVY_GROUNDING = ["first", 299, "-b", "clingo", "--piece", "QNN", "--torus"]


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_the_time_limit_holds_while_clingo_grounds():
    """Grounding ignored the limit: a 2 s limit was still running after 9 minutes at 4 GB."""
    start = time.monotonic()
    proc = subprocess.run([script(), *map(str, HEAVY_GROUNDING), "--time-limit", "1"], capture_output=True, timeout=50)
    assert proc.returncode == 3 and b"time limit" in proc.stderr
    assert time.monotonic() - start < 1 + 4


@pytest.mark.slow
@pytest.mark.timeout(60)
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_clingo_while_it_grounds(sig, code):
    grounding = lambda pid: any(cpu_seconds(c) > 0.3 for c in tree(pid))  # noqa: E731  the child at work
    result, took, err, kids = interrupt_when(HEAVY_GROUNDING, grounding, sig)
    assert result == code and took < 2.5, err
    assert gone(kids)
