"""Constrained boards (issue 6): the most-constrained-line search and the instance generator."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import Status
from nqueens_cp.backends.bitmask import BitmaskBackend
from nqueens_cp.bench.generate import blocked_instance
from nqueens_cp.io.formats import read_model
from tests.conftest import brute_force_problem, examples, run


def free_per_line(p: Problem) -> tuple[list[int], list[int]]:
    blocked = set(p.blocked)
    rows = [sum((r, c) not in blocked for c in range(p.n)) for r in range(p.n)]
    cols = [sum((r, c) not in blocked for r in range(p.n)) for c in range(p.n)]
    return rows, cols


@pytest.mark.parametrize("min_free", [1, 2, 3, 4])
def test_generator_follows_the_csplib_model(min_free):
    p = blocked_instance(28, 595, min_free, seed=min_free)
    assert len(p.blocked) == 595
    rows, cols = free_per_line(p)
    assert min(rows) >= min_free and min(cols) >= min_free
    assert blocked_instance(28, 595, min_free, seed=min_free) == p  # seeded
    assert blocked_instance(28, 595, min_free, seed=min_free + 10) != p


def test_generator_refuses_the_impossible():
    with pytest.raises(nq.InvalidProblem, match="cannot block 60 squares"):
        blocked_instance(8, 60, 2)


@pytest.mark.parametrize("seed", range(6))
def test_hard_boards_are_decided_and_cross_checked(seed):
    """First and count by the constrained search against CP-SAT on generated n = 28 boards."""
    p = blocked_instance(28, 595, 1 + seed % 4, seed=seed)
    mine = nq.get_backend("bitmask").first(p)
    theirs = nq.get_backend("cpsat").first(p)
    assert {mine.status, theirs.status} <= {Status.SOLVED, Status.NO_SOLUTION}
    assert mine.status == theirs.status
    if mine.solution is not None:
        assert p.is_solution(mine.solution)
    assert nq.count(p) == nq.count(p, backend="cpsat")


@pytest.mark.long
@pytest.mark.slow
def test_constrained_count_matches_the_row_search_on_blocked_and_fixed_boards():
    """Counts (whichever search the backend picks) against the row-order enumeration."""
    for p in (
        Problem(12, blocked=[(0, 0), (3, 4), (7, 7), (11, 2)], fixed=[(5, 6)]),
        Problem(8, "rook", blocked=[(r, (r * 3) % 8) for r in range(8)]),
        blocked_instance(20, 200, 1, seed=0),  # over half unusable: counted by the constrained search
        blocked_instance(14, 60, 2, seed=5),
    ):
        assert nq.count(p) == sum(1 for _ in nq.solve(p))


@pytest.mark.slow
def test_time_limit_is_unknown_not_no_solution():
    p = blocked_instance(56, 2734, 1, seed=1)  # about 13 million placements to decide
    b = nq.get_backend("bitmask", time_limit=0.01)
    outcome = b.first(p)
    assert outcome.status is Status.UNKNOWN and outcome.reason is nq.Reason.TIME_LIMIT
    assert b.count(p).status is Status.UNKNOWN
    with pytest.raises(nq.TimeLimitReached):
        nq.count(p, time_limit=0.01)


def test_cli_generate_writes_a_readable_param(tmp_path):
    out = tmp_path / "g.param"
    r = run("generate", "blocked", "--n", 20, "--blocks", 250, "--min-free", 2, "--seed", 7, "-o", out)
    assert r.exit_code == 0
    assert read_model(out) == blocked_instance(20, 250, 2, seed=7)
    r = run("generate", "blocked", "--n", 8, "--blocks", 60, "--min-free", 2)
    assert r.exit_code == 2 and "cannot block" in r.stderr


@pytest.mark.slow
@settings(max_examples=examples(120))
@given(st.data())
def test_constrained_search_matches_brute_force(data):
    """The most-constrained-line search itself (first and full count) on random small boards,
    heavily blocked or not, against the brute force written in the tests."""
    n = data.draw(st.integers(1, 7))
    piece = data.draw(st.sampled_from(["queen", "rook"]))
    squares = [(r, c) for r in range(n) for c in range(n)]
    blocked = data.draw(st.lists(st.sampled_from(squares), max_size=n * n * 2 // 3))
    free = [sq for sq in squares if sq not in blocked]
    fixed = data.draw(st.lists(st.sampled_from(free), max_size=2)) if free else []
    try:
        p = Problem(n, piece, blocked=blocked, fixed=fixed)
    except nq.InvalidProblem:
        p = Problem(n, piece, blocked=blocked)
    backend = BitmaskBackend()
    expected = brute_force_problem(p)
    assert backend._mrv(p, stop_at=0).count == len(expected)
    first = backend._mrv(p, stop_at=1)
    assert first.count == min(1, len(expected)) and (first.solution is None or first.solution in expected)
