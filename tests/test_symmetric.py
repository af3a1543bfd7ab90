"""The solutions one symmetry maps onto themselves (`count --symmetric`), held to OEIS (the
superqueens' symmetric classes A352661 and A352662), to every solution of a brute force turned
by a symmetry written out here, and our engine's orbit search to CP-SAT's squares model tied
square to image."""

from __future__ import annotations

import functools
import json

import pytest

import nqueens_cp as nq
from nqueens_cp.backends import UnsupportedProblem
from nqueens_cp.model.problem import Problem
from nqueens_cp.model.symmetry import problem_symmetries

from .conftest import brute_force, oeis, run
from .test_walls import brute_layouts

#: (r, c) on an m x n board -> its image, each symmetry written out from its geometry.
TURNS = {
    "rot90": lambda r, c, m, n: (c, n - 1 - r),
    "rot180": lambda r, c, m, n: (m - 1 - r, n - 1 - c),
    "flip-cols": lambda r, c, m, n: (r, n - 1 - c),
    "transpose": lambda r, c, m, n: (c, r),
}


def _fixed(squares: set[tuple[int, int]], name: str, m: int, n: int) -> bool:
    return {TURNS[name](r, c, m, n) for r, c in squares} == squares


def test_the_superqueens_symmetric_classes_are_oeis_s():
    """A quarter-turn class holds 2 solutions, each fixed by the quarter turn; a class fixed by
    the half turn alone holds 4 (the superqueen rides the diagonals: no reflection fixes one)."""
    quarter, half = oeis("A352661"), oeis("A352662")
    for n in range(2, 19):
        fixed90 = nq.count_symmetric(Problem(n, "superqueen"), "rot90")
        fixed180 = nq.count_symmetric(Problem(n, "superqueen"), "rot180")
        assert (fixed90, fixed180) == (2 * quarter[n - 1], 2 * quarter[n - 1] + 4 * half[n - 1]), n


@functools.cache
def _every(p: Problem) -> frozenset[tuple[int, ...]]:
    """Every solution by a brute force (conftest's rules for the pieces they know)."""
    written = p.piece in ("queen", "superqueen", "rook") and p.rows == p.n and not p.walled
    return frozenset(brute_force(p.n, p.piece, p.blocked, p.fixed, p.torus) if written else brute_layouts(p))


CASES = [
    Problem(8),
    Problem(9),
    Problem(10, "superqueen"),
    Problem(8, "rook"),
    Problem(5, "RN", torus=True),
    Problem(6, "RN"),
    Problem(8, blocked=[(0, 0), (7, 7), (3, 4), (4, 3)]),
    Problem(9, fixed=[(4, 4)]),
    Problem(6, "rook", rows=4),
]


@pytest.mark.parametrize("p", CASES, ids=str)
@pytest.mark.parametrize("symmetry", list(TURNS))
def test_every_symmetric_solution_and_no_other_is_counted(p, symmetry):
    kept = symmetry in problem_symmetries(p)
    if not kept:
        with pytest.raises(UnsupportedProblem, match="does not map this board"):
            nq.count_symmetric(p, symmetry)
        return
    expected = sum(_fixed(set(enumerate(cols)), symmetry, p.rows, p.n) for cols in _every(p))
    assert nq.count_symmetric(p, symmetry) == expected
    assert nq.count_symmetric(p, symmetry, "cpsat") == expected


@pytest.mark.long  # (layouts' fixed counts also make every class count of pieces anywhere: test_walls)
@pytest.mark.parametrize(
    "p",
    [
        Problem(4, pieces=5, pawns=1),
        Problem(4, "rook", pieces=5, pawns=2),
        Problem(5, pieces=5, walls=[(2, 2)]),
        Problem(5, pieces=4, pawns=1, walls=[(0, 0), (4, 4)]),
        Problem(4, pieces=4),
    ],
    ids=str,
)
def test_symmetric_layouts_pawns_and_all_are_counted(p):
    """Pieces anywhere and pawns: a symmetric layout maps its pieces onto its pieces and its
    pawns onto its pawns."""
    every = [p.layout(sol) for sol in _every(p)]
    for symmetry in set(TURNS) & set(problem_symmetries(p)):
        expected = sum(
            _fixed(set(pieces), symmetry, p.rows, p.n) and _fixed(set(pawns), symmetry, p.rows, p.n)
            for pieces, pawns in every
        )
        assert nq.count_symmetric(p, symmetry) == expected, symmetry
        assert nq.count_symmetric(p, symmetry, "cpsat") == expected, symmetry


def test_count_symmetric_prints_a_table_and_a_record_and_refuses_in_one_line():
    result = run("count", "10..13", "--piece", "superqueen", "--symmetric", "rot180")
    assert result.exit_code == 0 and result.stdout.strip() == "4, 4, 12, 28"  # 2 A352661 + 4 A352662
    result = run("count", "12", "--piece", "superqueen", "--symmetric", "rot90", "--json")
    rec = json.loads(result.stdout)
    assert (rec["format"], rec["count"], rec["symmetric"]) == ("nqueens_cp.symmetric/1", 4, "rot90")
    stopped = run("count", "26", "--piece", "superqueen", "--symmetric", "rot180", "--time-limit", "0.5")
    assert stopped.exit_code == 3 and "time limit reached; the symmetric count is unknown" in stopped.stderr
    for args, said in (
        (["--symmetric", "rot45"], "no symmetry 'rot45'"),
        (["--rows", "6", "--symmetric", "rot90"], "rot90 does not map this board"),
        (["--symmetric", "rot90", "--unique"], "--symmetric counts the symmetric solutions in one search"),
        (["--symmetric", "rot90", "-b", "sat"], "does not answer symmetric (those that do: bitmask, cpsat)"),
    ):
        result = run("count", "8", *args)
        assert result.exit_code == 2, args
        assert said in result.stderr and result.stderr.count("\n") == 1, result.stderr
