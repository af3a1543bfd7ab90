"""Every backend against ground truth from outside the code under test."""

import math
import random
import time
from itertools import combinations

import pytest
from hypothesis import given, settings

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import BACKENDS
from nqueens_cp.io.formats import read_model
from tests.conftest import (
    A000170,
    CSPLIB_DIR,
    brute_force_problem,
    csplib_cases,
    csplib_counts,
    examples,
    problem_strategy,
)

ALL = ["bitmask", "cpsat", "constraint", "sat"]
#: Largest n each backend enumerates in a test in well under a second or two.
QUICK_N = {"bitmask": 14, "cpsat": 9, "constraint": 9, "sat": 9}


@pytest.mark.parametrize("backend", ALL)
def test_counts_match_oeis_a000170(backend):
    ns = range(1, QUICK_N[backend] + 1)
    assert [nq.count(n, backend=backend) for n in ns] == A000170[: len(ns)]


@pytest.mark.parametrize("backend", ALL)
def test_enumeration_counts_match_oeis_and_every_solution_is_valid(backend):
    for n in range(1, QUICK_N[backend] - 1):
        p = Problem(n)
        sols = list(nq.solve(p, backend=backend))
        assert len(sols) == len(set(sols)) == A000170[n - 1]
        assert all(p.is_solution(s) for s in sols)


@pytest.mark.parametrize("backend", ALL)
def test_n_rooks_is_n_factorial(backend):
    top = 9 if backend == "bitmask" else 6
    for n in range(1, top + 1):
        assert nq.count(Problem(n, "rook"), backend=backend) == math.factorial(n)


def ryser_permanent(matrix: list[list[int]]) -> int:
    """perm(A) = (-1)^n * sum over column subsets S of (-1)^|S| * prod_i sum_{j in S} a_ij."""
    n = len(matrix)
    total = 0
    for k in range(1, n + 1):
        for cols in combinations(range(n), k):
            prod = 1
            for row in matrix:
                prod *= sum(row[j] for j in cols)
                if not prod:
                    break
            total += (-1) ** k * prod
    return (-1) ** n * total


@pytest.mark.parametrize("seed", range(12))
def test_blocked_rooks_equal_the_permanent(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    blocked = [(r, c) for r in range(n) for c in range(n) if rng.random() < 0.3]
    allowed = [[0 if (r, c) in blocked else 1 for c in range(n)] for r in range(n)]
    p = Problem(n, "rook", blocked=blocked)
    expected = ryser_permanent(allowed)
    assert nq.count(p) == expected
    assert sum(1 for _ in nq.solve(p)) == expected
    if n <= 6:
        assert nq.count(p, backend="cpsat") == expected
        assert nq.count(p, backend="constraint") == expected
        assert nq.count(p, backend="sat") == expected


def test_leetcode_51_and_52():
    assert nq.solve_n_queens(4) == [[".Q..", "...Q", "Q...", "..Q."], ["..Q.", "Q...", "...Q", ".Q.."]]
    assert nq.solve_n_queens(1) == [["Q"]]
    assert nq.solve_n_queens(3) == []
    assert [nq.total_n_queens(n) for n in range(1, 10)] == A000170[:9]


def test_bitmask_enumerates_in_lexicographic_order():
    sols = list(nq.solve(8))
    assert sols == sorted(sols)
    assert sols[0] == (0, 4, 7, 5, 2, 6, 1, 3)


def test_limit_and_laziness():
    it = nq.solve(14, limit=3)
    assert len(list(it)) == 3
    assert list(nq.solve(8, limit=0)) == []
    with pytest.raises(ValueError):
        nq.solve(8, limit=-1)


@pytest.mark.parametrize("backend", ALL)
def test_first(backend):
    sol = nq.first(Problem(10, blocked=[(0, 0), (5, 5)], fixed=[(2, 7)]), backend=backend)
    assert Problem(10, blocked=[(0, 0), (5, 5)], fixed=[(2, 7)]).is_solution(sol)
    assert nq.first(3, backend=backend) is None
    assert nq.first(Problem(4, fixed=[(0, 0)]), backend=backend) is None


def test_boards_wider_than_64_columns_use_python_integers():
    n = 70
    # 66 rooks fixed on the diagonal leave the last 4 rows a free 4x4 rook board: 4! solutions.
    p = Problem(n, "rook", fixed=[(i, i) for i in range(n - 4)])
    sols = list(nq.solve(p))
    assert len(sols) == nq.count(p) == 24 and all(p.is_solution(s) for s in sols)
    # n = 70 queens: the explicit solution for n % 6 not in (2, 3) (1-based: (i, 2i) and
    # (n/2 + i, 2i - 1)) pins 60 rows; the backtracker completes the last 10.
    known = [2 * i + 1 for i in range(n // 2)] + [2 * i for i in range(n // 2)]
    q = Problem(n, fixed=list(enumerate(known[:60])))
    sols = list(nq.solve(q))
    assert tuple(known) in sols and all(q.is_solution(s) for s in sols)


@pytest.mark.slow
@settings(max_examples=examples(150))
@given(problem_strategy(7))
def test_bitmask_matches_brute_force(p):
    expected = brute_force_problem(p)
    sols = list(nq.solve(p))
    assert len(sols) == len(set(sols))
    assert set(sols) == expected
    assert nq.count(p) == len(expected)
    first = nq.first(p)
    assert (first is None) == (not expected) and (first is None or first in expected)


@pytest.mark.long
@pytest.mark.slow
@settings(max_examples=examples(100))
@given(problem_strategy(8))
def test_count_kernel_from_every_starting_row(p):
    """The compiled count starts wherever a split leaves it: in the last row, the
    second-to-last (counted branch-free) or above; every depth must add up to the brute force."""
    from nqueens_cp.backends.bitmask.partitions.rows import count_one, split
    from nqueens_cp.backends.bitmask.tables import masks_array

    expected = len(brute_force_problem(p))
    masks = masks_array(p)
    for depth in range(p.n):
        assert sum(count_one(masks, p.rule.diagonals, sub) for sub in split(p, depth)) == expected, depth


def test_the_csplib_instances_travel_with_the_repository():
    """They lived outside the repository, and a clone skipped every test below."""
    assert len(csplib_cases()) == len(csplib_counts()) == 116


@pytest.mark.parametrize("name", csplib_cases())
def test_csplib_blocked_instances_bitmask(name):
    p = read_model(CSPLIB_DIR / name)
    expected = csplib_counts()[name]
    assert nq.count(p) == expected
    sols = list(nq.solve(p))
    assert len(set(sols)) == expected and all(p.is_solution(s) for s in sols)


def test_a_cold_process_counts_small_boards_without_loading_numba():
    """Small counts are planned without the compiled kernels (cheaper than the 0.85 s numba
    load): on numpy arrays, or in Python for superqueens; the answers must
    match the compiled enumeration, and the plan must not depend on what the process imported."""
    import json
    import pickle
    import subprocess
    import sys

    boards = [Problem(n) for n in range(1, 11)]
    boards += [Problem(9, "superqueen"), Problem(8, torus=True), Problem(8, blocked=[(0, 0)], fixed=[(1, 2)])]
    code = (
        "import json, pickle, sys; import nqueens_cp as nq\n"
        "counts = [nq.count(p) for p in pickle.load(sys.stdin.buffer)]\n"
        "print(json.dumps([counts, 'numba' in sys.modules]))"
    )
    run = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(boards), capture_output=True, check=True)
    cold, numba_loaded = json.loads(run.stdout)
    assert not numba_loaded
    assert cold == [sum(1 for _ in nq.solve(p)) for p in boards]  # enumerated by the compiled kernel
    assert cold[:10] == A000170[:10]
    # this process has loaded numba by now: the same boards get the same plan
    b = nq.get_backend("bitmask")
    assert {b.plan(p, "count").algorithm for p in boards[:10]} == {"rows-numpy"}
    assert b.plan(boards[10], "count").algorithm == "rows-python"  # (superqueens: in Python up to n = 10)


@pytest.mark.slow
def test_sat_solver_choice_time_limit_and_bad_names():
    p = Problem(10, blocked=[(0, 0)])
    for solver in ("cadical195", "glucose4", "minisat22"):
        assert nq.count(p, "sat", sat_solver=solver) == nq.count(p)
    with pytest.raises(nq.NQueensError, match="unknown SAT solver 'nope'"):
        nq.count(p, "sat", sat_solver="nope")
    with pytest.raises(nq.TimeLimitReached):  # 14,200 models by blocking clauses take seconds
        nq.count(12, "sat", time_limit=0.2, sat_solver="glucose4")
    with pytest.raises(nq.UnsupportedProblem, match="not incremental"):
        nq.count(8, "sat", sat_solver="kissat404")
    assert Problem(8).is_solution(nq.first(8, "sat", sat_solver="kissat404", time_limit=30))
    for solver in ("cadical195", "lingeling"):  # python-sat cannot interrupt these
        start = time.monotonic()
        with pytest.raises(nq.TimeLimitReached):
            nq.count(14, "sat", time_limit=0.2, sat_solver=solver)  # 365,596 models
        assert time.monotonic() - start < 2, solver  # a child process, killed at the limit
    assert nq.first(Problem(8, blocked=[(0, 0)]), "sat", time_limit=30) is not None
    with pytest.raises(nq.NQueensError, match="cannot honour option"):
        nq.count(p, "bitmask", sat_solver="glucose4")


def test_the_sat_encoding_uses_a_linear_at_most_one():
    """The sequential counter: clauses grow like n^2, the pairwise encoding like n^3."""
    from nqueens_cp.backends.sat import encode

    small, large = (len(encode(Problem(n))[0].clauses) for n in (20, 40))
    assert large < 4.5 * small


def test_our_sequential_counter_is_python_sats_and_means_at_most_one():
    """The at-most-one clauses are written here (python-sat's CNF objects cost as much as the
    encoding); they must be CardEnc's seqcounter, and allow exactly the assignments with at most
    one true literal (checked by brute force over every assignment)."""
    from itertools import product

    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    from nqueens_cp.backends.sat import at_most_one

    for k in range(1, 13):
        lits, clauses = list(range(1, k + 1)), []
        top = at_most_one(lits, 100, clauses)
        ref = CardEnc.atmost(lits, 1, vpool=IDPool(start_from=101), encoding=EncType.seqcounter).clauses
        assert sorted(map(sorted, clauses)) == sorted(map(sorted, ref)), k
        assert top == max([100, *(abs(lit) for c in clauses for lit in c)])
        if k <= 6:
            with Solver(name="minisat22", bootstrap_with=clauses) as s:
                for values in product((False, True), repeat=k):
                    assumptions = [v if on else -v for v, on in zip(lits, values, strict=True)]
                    assert s.solve(assumptions=assumptions) == (sum(values) <= 1), values


@pytest.mark.parametrize("name", BACKENDS)
def test_every_backend_says_its_version(name):
    """Reports named the MiniZinc and clingo versions but not OR-tools' or python-sat's."""
    from nqueens_cp.backends import backend_class

    cls = backend_class(name)
    if cls.missing() is not None:
        pytest.skip(cls.missing())
    said = cls.version()
    assert said and any(ch.isdigit() for ch in said), said


def test_an_outcome_carries_an_optimum_a_bound_and_how_far_it_got():
    """Outcome had no room for an objective value, a bound, or optimal against best found."""
    from nqueens_cp import Optimality, Outcome, Reason, Status

    assert Outcome(status=Status.SOLVED, count=92).optimality is None  # not an optimisation
    best = Outcome(status=Status.SOLVED, solution=(0, 2), value=8, bound=8, count=92)
    assert best.optimality is Optimality.OPTIMAL and best.count == 92
    found = Outcome(status=Status.UNKNOWN, reason=Reason.TIME_LIMIT, value=7, bound=9)
    assert found.optimality is Optimality.FEASIBLE
    assert Outcome(status=Status.UNKNOWN, reason=Reason.TIME_LIMIT, bound=9).optimality is Optimality.UNKNOWN
    with pytest.raises(ValueError, match="bound at its value"):
        Outcome(status=Status.SOLVED, value=7, bound=9)
    with pytest.raises(TypeError):
        Outcome(Status.SOLVED)  # type: ignore[misc]  # built by keyword
