"""Rectangular boards: M pieces on M rows of N columns, for every piece, backend and task.

Ground truth from outside the code: OEIS A269133 (queens on m x n boards, Riedel's table), the
closed form n!/(n-m)! for rooks, and the brute force of test_pieces (moves stepped on the board)."""

import json
from math import factorial

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import available_backends
from nqueens_cp.model.symmetry import problem_symmetries
from tests.conftest import run
from tests.test_pieces import brute_force

#: OEIS A269133, read by rows n = 1..10 of columns, m = 1..n pieces.
A269133 = [
    [1],
    [2, 0],
    [3, 2, 0],
    [4, 6, 4, 2],
    [5, 12, 14, 12, 10],
    [6, 20, 36, 46, 40, 4],
    [7, 30, 76, 140, 164, 94, 40],
    [8, 42, 140, 344, 568, 550, 312, 92],
    [9, 56, 234, 732, 1614, 2292, 2038, 1066, 352],
    [10, 72, 364, 1400, 3916, 7552, 9632, 7828, 4040, 724],
]


def test_queens_on_rectangles_count_as_oeis_a269133():
    for n, row in enumerate(A269133, start=1):
        assert [nq.count(Problem(n, rows=m)) for m in range(1, n + 1)] == row


@pytest.mark.slow
@pytest.mark.parametrize("backend", [b for b in available_backends() if b != "bitmask"])
def test_every_backend_counts_rectangles_as_oeis_does(backend):
    for n, row in enumerate(A269133[:7], start=1):
        assert [nq.count(Problem(n, rows=m), backend) for m in range(1, n + 1)] == row, n


def test_rooks_on_rectangles_are_the_falling_factorial():
    for n in range(1, 9):
        for m in range(1, n + 1):
            assert nq.count(Problem(n, "rook", rows=m)) == factorial(n) // factorial(n - m)


@pytest.mark.parametrize(
    "p",
    [
        Problem(7, rows=4, torus=True),
        Problem(6, "RN", rows=3, torus=True),
        Problem(7, "QN", rows=5),
        Problem(6, "RNN", rows=4, blocked=[(0, 1), (2, 3)], fixed=[(1, 4)]),
        Problem(7, "Rline(1,-1)", rows=3, torus=True),
        Problem(8, "R[2,1]+", rows=3, torus=True),
    ],
    ids=lambda p: f"{p.piece}-{p.shape}{'-torus' if p.torus else ''}",
)
def test_every_backend_finds_the_brute_force_solutions_of_a_rectangle(p):
    truth = brute_force(p)
    for backend in available_backends():
        if backend == "bitmask" or backend in ("cpsat", "constraint"):
            assert set(nq.solve(p, backend)) == truth, backend
        else:
            assert nq.count(p, backend) == len(truth), backend
        first = nq.first(p, backend)
        assert (first is None) == (not truth) and (first is None or first in truth), backend


def test_a_rectangle_keeps_the_four_symmetries_that_do_not_transpose():
    p = Problem(7, rows=4)
    assert problem_symmetries(p) == ("identity", "rot180", "flip-cols", "flip-rows")
    classes = nq.count_classes(p)
    assert classes.total == nq.count(p) == A269133[6][3]
    assert set(classes.by_orbit) <= {4, 2, 1}


def test_the_commands_take_rows(tmp_path):
    r = run("count", 8, "--rows", 5, "--json")
    rec = json.loads(r.stdout)
    assert r.exit_code == 0 and rec["count"] == A269133[7][4] and rec["rows"] == 5
    model = tmp_path / "r.toml"
    model.write_text("n = 8\nrows = 3\n")
    assert run("count", "--model", model).stdout.strip() == str(A269133[7][2])
    answers = tmp_path / "a.jsonl"
    answers.write_text(run("solve", 6, "--rows", 4, "-f", "jsonl").stdout)
    assert f"{A269133[5][3]} valid" in run("check", 6, answers, "--rows", 4).stdout
    assert run("check", 6, answers).exit_code == 1  # 4 pieces do not fill a 6x6 board
    drawn = run("first", 6, "--rows", 4).stdout.splitlines()
    assert len(drawn) == 4 and all(len(row.split()) == 6 for row in drawn)
    r = run("count", 5, "--rows", 6)
    assert r.exit_code == 2 and "rows 6 is out of range 1..5" in r.stderr
    assert run("verify", 7, "--rows", 4, "--piece", "RN").stdout.strip().endswith("agree")
    dimacs = run("export", 6, "--rows", 3, "--to", "dimacs").stdout
    assert "rows = 3" in dimacs
    r = run("compare", "--n", "5..6", "--rows", 4, "--backends", "bitmask,cpsat", "--json")
    rows = [json.loads(line) for line in r.stdout.splitlines()[:-1]]
    assert r.exit_code == 0 and sorted({x["answer"] for x in rows}) == [A269133[4][3], A269133[5][3]]


@pytest.mark.long
@pytest.mark.slow
def test_a_count_searches_half_the_first_row_where_the_mirror_holds():
    from nqueens_cp.backends.base import Deadline
    from tests.conftest import count_any

    half, whole, turned = "mirror holds: half the first row", "no left-right mirror", "mirror c -> -c halves row 1"
    for p, says in (
        (Problem(9, "RN"), half),
        (Problem(8, "superqueen", rows=5), half),  # (queens and rooks up to 12 go a row at a time on arrays)
        (Problem(8, "superqueen", rows=5, blocked=[(0, 0)]), whole),
        (Problem(7, "Rline(1,-1)"), whole),
        (Problem(7, "QN", torus=True, rows=4), turned),  # a torus: column 0 only, row 1 halved
    ):
        truth = len(brute_force(p)) if p.n <= 8 else nq.count(p, "cpsat")
        assert count_any(p, Deadline("t", None), {}) == truth
        plan = nq.get_backend("bitmask").plan(p, "count")
        assert says in plan.reason, plan.reason
    full: dict[str, int] = {}
    half: dict[str, int] = {}
    p = Problem(10, "RN")
    from nqueens_cp.backends.bitmask import pysearch

    assert sum(1 for _ in pysearch.any_piece(p, Deadline("t", None), full)) == count_any(p, Deadline("t", None), half)
    assert half["nodes"] < 0.6 * full["nodes"]
