"""Superqueens, toroidal boards and the constructive placement for huge boards (issue 7)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.construct import construct
from nqueens_cp.check.verify import verify
from tests.conftest import A007705, A051223, brute_force_problem, examples


def test_superqueens_match_oeis_a051223():
    assert [nq.count(Problem(n, "superqueen")) for n in range(1, 14)] == A051223


@pytest.mark.parametrize("backend", ["cpsat", "constraint", "sat"])
def test_superqueens_on_the_cp_backends(backend):
    assert [nq.count(Problem(n, "superqueen"), backend=backend) for n in range(1, 11)] == A051223[:10]


def test_toroidal_queens_match_oeis_a007705():
    assert [nq.count(Problem(n, torus=True)) for n in range(1, 14)] == A007705


@pytest.mark.parametrize("backend", ["cpsat", "constraint", "sat"])
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
        return Problem(n, piece, blocked=blocked, fixed=fixed, torus=torus)
    except nq.InvalidProblem:
        return Problem(n, piece, blocked=blocked, torus=torus)


@pytest.mark.slow
@settings(max_examples=examples(80))
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
    for n in [*range(1, 501), 997, 1000, 4096, 10**4 + 2, 10**4 + 3, 99_999]:
        sol = construct(Problem(n))
        if n in (2, 3):
            assert sol is None
        else:
            assert _independent_check(n, sol), n


def test_first_on_a_huge_board_is_constructive_and_valid():
    n = 200_003  # n % 6 == 5
    sol = nq.first(n)
    assert _independent_check(n, sol)
    assert nq.first(Problem(100, "rook")) == tuple(range(100))


@pytest.mark.long
@pytest.mark.slow
def test_constructions_for_variants_are_valid_and_theorems_hold():
    """Every closed form the engine uses, checked by the validator; where a theorem says there is
    no solution, the brute force agrees for small n."""
    from math import gcd

    for n in range(1, 60):
        for p in (Problem(n, torus=True), Problem(n, "superqueen"), Problem(n, "superqueen", torus=True)):
            sol = construct(p)
            if isinstance(sol, tuple):
                assert p.is_solution(sol), (p, sol)
        assert construct(Problem(n, torus=True)) is None or gcd(n, 6) == 1
    for n in (2, 3, 4, 6, 8, 9):
        assert not brute_force_problem(Problem(n, torus=True))  # Polya: none when gcd(n, 6) > 1
        assert construct(Problem(n, torus=True)) is None


@pytest.mark.parametrize(
    "p",
    [Problem(48), Problem(64), Problem(70), Problem(61, torus=True), Problem(67, "superqueen"), Problem(40, "rook")],
)
def test_first_on_plain_boards_answers_at_once(p):
    """`first` on a plain board takes the closed form (the lexicographic search would take
    minutes from n ~ 40); --lexicographic still gives the search's answer."""
    b = nq.get_backend("bitmask")
    assert b.plan(p, "first").algorithm == "construct"
    assert p.is_solution(nq.first(p))
    assert nq.first(Problem(8), lexicographic=True) == (0, 4, 7, 5, 2, 6, 1, 3)
