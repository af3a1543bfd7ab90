"""Superqueens, toroidal boards and the constructive placement for huge boards (issue 7)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.construct import queens
from nqueens_cp.verify import verify

from .conftest import brute_force_problem

#: OEIS A051223: superqueens (queen + knight), n = 1..13
A051223 = [1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 156, 1876]
#: OEIS A007705: toroidal n-queens for n = 5, 7, 11, 13; none when 2 or 3 divides n
A007705 = {5: 10, 7: 28, 11: 88, 13: 4524}


def test_superqueens_match_oeis_a051223():
    assert [nq.count(Problem(n, "superqueen")) for n in range(1, 14)] == A051223


@pytest.mark.parametrize("backend", ["cpsat", "constraint"])
def test_superqueens_on_the_cp_backends(backend):
    assert [nq.count(Problem(n, "superqueen"), backend=backend) for n in range(1, 11)] == A051223[:10]


def test_toroidal_queens_match_oeis_a007705():
    for n in range(2, 14):
        expected = A007705.get(n, 0)
        if n % 2 and n % 3:
            assert n in A007705
        assert nq.count(Problem(n, torus=True)) == expected, n


@pytest.mark.parametrize("backend", ["cpsat", "constraint"])
def test_toroidal_queens_on_the_cp_backends(backend):
    assert [nq.count(Problem(n, torus=True), backend=backend) for n in (4, 5, 6, 7)] == [0, 10, 0, 28]


def test_variant_solutions_are_valid_and_complete():
    for p in (Problem(11, "superqueen"), Problem(11, torus=True), Problem(13, "superqueen", torus=True)):
        sols = list(nq.solve(p))
        assert sols and all(p.is_solution(s) for s in sols) and len(set(sols)) == len(sols)


def test_validator_knows_knights_and_wrapping():
    assert "knight" in Problem(5, "superqueen").explain((0, 2, 4, 1, 3))
    assert Problem(5).is_solution((0, 2, 4, 1, 3))
    assert Problem(5, torus=True).is_solution((0, 2, 4, 1, 3))
    # rows 1 and 2 of (1, 3, 0, 2) are 3 and 0: a diagonal only once the board wraps (3 - 1 = 2 = 0 - 2 mod 4)
    assert Problem(4).is_solution((1, 3, 0, 2))
    assert Problem(4, torus=True).explain((1, 3, 0, 2)) == "pieces (1, 3) and (2, 0) share a diagonal"
    assert Problem(6).is_solution((1, 3, 5, 0, 2, 4)) and not Problem(6, torus=True).is_solution((1, 3, 5, 0, 2, 4))


@st.composite
def variant_problems(draw):
    n = draw(st.integers(1, 7))
    piece = draw(st.sampled_from(["queen", "rook", "superqueen"]))
    torus = draw(st.booleans())
    squares = [(r, c) for r in range(n) for c in range(n)]
    blocked = draw(st.lists(st.sampled_from(squares), max_size=n * n // 4))
    fixed = draw(st.lists(st.sampled_from(squares), max_size=1))
    try:
        return Problem(n, piece, blocked, fixed, torus)
    except nq.InvalidProblem:
        return Problem(n, piece, blocked, (), torus)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_problems())
def test_backends_agree_with_brute_force_on_variants(p):
    verdict = verify(p)
    assert verdict.agree, verdict.describe()
    assert verdict.runs[0].count == len(brute_force_problem(p))


def _independent_check(n: int, sol: tuple[int, ...]) -> bool:
    """O(n) with sets, written again here: a permutation with distinct diagonal sums/differences."""
    return (
        len(sol) == n
        and sorted(sol) == list(range(n))
        and len({c - r for r, c in enumerate(sol)}) == n
        and len({c + r for r, c in enumerate(sol)}) == n
    )


def test_construction_for_every_n_up_to_500_and_some_large_ones():
    for n in [*range(1, 501), 997, 1000, 4096, 10**4 + 2, 10**4 + 3, 99_999, 100_000]:
        sol = queens(n)
        if n in (2, 3):
            assert sol is None
        else:
            assert _independent_check(n, sol), n


def test_first_on_a_huge_board_is_constructive_and_valid():
    n = 200_003  # n % 6 == 5
    sol = nq.first(n)
    assert _independent_check(n, sol)
    assert nq.first(Problem(100, "rook")) == tuple(range(100))
