"""The cpmpy backend: one CPMpy model solved by every sub-solver CPMpy reaches here (Choco, Z3,
Exact, Pumpkin, OR-tools), each checked against OEIS; time limits and signals end the child it
runs in. Skips where CPMpy is not installed (pip install 'nqueens_cp[cpmpy]')."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import backend_class
from tests.conftest import A000170, A007705, A051223, busy, children, gone, interrupt_when, run, script, tree
from tests.test_boards import A269133
from tests.test_pieces import A002464, A137774

MISSING = backend_class("cpmpy").missing()
pytestmark = [pytest.mark.skipif(MISSING is not None, reason=MISSING or ""), pytest.mark.timeout(300)]

#: The sub-solvers the issue names; each is tested where its wheel is installed.
SUBSOLVERS = ("choco", "ortools", "z3", "exact", "pumpkin")


def _long(param):
    """The parameter, run only by `pytest --full`."""
    return pytest.param(*param.values, marks=[*param.marks, pytest.mark.long])


def _installed(name: str):
    if MISSING is not None:
        return pytest.param(name, marks=pytest.mark.skip(reason=MISSING))
    from nqueens_cp.backends.cpmpy import installed

    why = f"{name} is not installed (pip install 'nqueens_cp[cpmpy]')"
    return pytest.param(name, marks=pytest.mark.skipif(name not in installed(), reason=why))


@pytest.mark.slow
#: The default sub-solver runs in every test line; the others take seconds each and run in --full.
@pytest.mark.parametrize(
    "solver", [_installed(s) if s == SUBSOLVERS[0] else _long(_installed(s)) for s in SUBSOLVERS]
)
def test_every_sub_solver_counts_what_oeis_publishes(solver):
    b = f"cpmpy:{solver}"
    assert [nq.count(n, b) for n in range(1, 9)] == A000170[:8]
    assert [nq.count(Problem(n, torus=True), b) for n in range(1, 8)] == A007705[:7]
    assert [nq.count(Problem(n, "superqueen"), b) for n in range(1, 11)] == A051223[:10]
    assert [nq.count(Problem(n, "RF"), b) for n in range(1, 8)] == A002464[:7]
    assert [nq.count(Problem(n, "RN"), b) for n in range(1, 8)] == A137774[:7]
    for n, row in enumerate(A269133[:6], start=1):
        assert [nq.count(Problem(n, rows=m), b) for m in range(1, n + 1)] == row, n


@pytest.mark.parametrize("solver", [_installed(s) for s in SUBSOLVERS])
def test_every_sub_solver_finds_the_same_solutions_as_our_engine(solver):
    p = Problem(8, "RNN", blocked=[(0, 0), (3, 4)], fixed=[(2, 5)], rows=7)
    assert set(nq.solve(p, f"cpmpy:{solver}")) == set(nq.solve(p))
    assert nq.first(Problem(3), f"cpmpy:{solver}") is None


@pytest.mark.slow
def test_every_solver_listed_runs_a_board_and_the_others_are_listed_unavailable_with_the_reason():
    """`nqueens backends` listed pysat and rc2, which failed on most boards (PBLib missing; rc2
    solves optimisation problems alone): every solver CPMpy finds is either listed and counts a
    blocked board right, its own sub-solvers included, or listed as unavailable, saying why."""
    from nqueens_cp.backends.cpmpy import installed, unavailable

    p = Problem(6, blocked=[(1, 1)], fixed=[(0, 2)])
    for name in [s for s in installed() if ":" not in s or s.endswith(":glucose4")]:
        assert nq.count(p, f"cpmpy:{name}") == nq.count(p), name
    assert "rc2" in unavailable() and "rc2" not in installed()
    r = run("backends")
    assert r.exit_code == 0 and "unavailable: " in r.stdout and "rc2 (a MaxSAT solver" in r.stdout
    r = run("count", 6, "-b", "cpmpy:rc2")
    assert r.exit_code == 2 and "does not run here" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_plain_cpmpy_names_the_solver_it_picked():
    r = run("first", 8, "-b", "cpmpy", "-v")
    assert r.exit_code == 0 and "plan: cpmpy cpmpy-" in r.stderr and "the best installed" in r.stderr


def test_a_solver_cpmpy_does_not_know_is_one_line():
    r = run("count", 6, "-b", "cpmpy:nope")
    assert r.exit_code == 2 and "no solver 'nope'" in r.stderr and "choco" in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize("solver", [_installed("choco"), _long(_installed("z3"))])
def test_the_time_limit_ends_the_child_and_leaves_a_lower_bound(solver):
    """Timed from the solver child's start, not the script's: the script's own start-up (CPMpy,
    the solver's library) took over the 5 s this allowed beside two CPU hogs."""
    proc = subprocess.Popen(
        [script(), "count", "14", "-b", f"cpmpy:{solver}", "--time-limit", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and not children(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        started = time.monotonic()  # the limit began just before the child was forked
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 3 and b"time limit" in err and b"partial" in out
        assert time.monotonic() - started < 2 + 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_solver_at_once(sig, code):
    working = lambda pid: any(busy(0.5)(c) for c in tree(pid))  # noqa: E731  the child at work
    result, took, _err, kids = interrupt_when(["count", 16, "-b", "cpmpy:choco"], working, sig)
    assert result == code and took < 2.5
    assert gone(kids)


def test_a_sub_solver_of_a_solver_that_takes_none_is_named_as_such():
    """`-b cpmpy:choco:z3` said choco was not installed (pip install pychoco)."""
    if MISSING is not None:
        pytest.skip(MISSING)
    from nqueens_cp.backends.cpmpy import installed

    if "choco" not in installed():
        pytest.skip("choco is not installed")
    r = run("count", 6, "-b", "cpmpy:choco:z3")
    assert r.exit_code == 2 and "choco has no sub-solver 'z3'" in r.stderr and "pip install" not in r.stderr
