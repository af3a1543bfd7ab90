"""The squares formulation (a 0/1 variable a square, built once in model/squares.py) beside the
permutation one: the model itself against a brute force that steps along the moves, then each CP
backend's two formulations against each other and the brute force, on every one-piece-a-row
problem class."""

from __future__ import annotations

import random

import pytest

import nqueens_cp as nq
from nqueens_cp import Piece, Problem
from nqueens_cp.backends import backend_class
from nqueens_cp.backends.formulations import FORMULATION
from nqueens_cp.model.squares import SquaresModel, squares_model
from tests.test_pieces import brute_force

#: One problem of each class the permutation formulation models.
CLASSES = {
    "plain": Problem(6),
    "torus": Problem(7, torus=True),
    "rectangle": Problem(7, rows=5),
    "blocked": Problem(7, blocked=[(0, 1), (3, 3), (6, 5)]),
    "fixed": Problem(7, fixed=[(1, 3)]),
    "leapers": Problem(7, "RN"),
    "riders": Problem(7, "RNN", torus=True),
    "one-way lines": Problem(6, Piece.of(riders=[(0, 1)], lines=[(1, 1)])),
}

#: The backends that compile both formulations.
BOTH = [name for name in nq.BACKENDS if FORMULATION in backend_class(name).capabilities.options]


def _solved(model: SquaresModel, p: Problem) -> set[tuple[int, ...]]:
    """Every 0/1 assignment the model allows, by a row-by-row search written for the test."""
    conflict: dict[int, set[int]] = {}
    for group in model.at_most_one:
        for a in group:
            conflict.setdefault(a, set()).update(b for b in group if b != a)
    for a, b in model.apart:
        conflict.setdefault(a, set()).add(b)
        conflict.setdefault(b, set()).add(a)
    found: set[tuple[int, ...]] = set()

    def extend(row: int, chosen: list[int]) -> None:
        if row == len(model.exactly_one):
            if set(model.fixed) <= set(chosen) and len(chosen) == model.pieces:
                found.add(model.solution(p, chosen))
            return
        for v in model.exactly_one[row]:
            if not any(v in conflict.get(c, ()) for c in chosen):
                extend(row + 1, [*chosen, v])

    extend(0, [])
    return found


def test_the_squares_model_holds_exactly_the_brute_force_s_solutions():
    rng = random.Random(7)
    pieces = ["queen", "rook", "superqueen", "RN", "RF", "RNN", "RC", Piece.of(riders=[(0, 1)], lines=[(1, 1)])]
    for _ in range(300):
        n = rng.randint(1, 6)
        rows = rng.randint(1, n) if rng.random() < 0.3 else n
        squares = [(r, c) for r in range(rows) for c in range(n)]
        blocked = rng.sample(squares, rng.randint(0, min(3, len(squares))))
        free = [sq for sq in squares if sq not in blocked]
        fixed = rng.sample(free, rng.randint(0, min(1, len(free))))
        p = Problem(n, rng.choice(pieces), blocked=blocked, fixed=fixed, torus=rng.random() < 0.4, rows=rows)
        assert _solved(squares_model(p), p) == brute_force(p), p


def test_four_backends_or_more_compile_both():
    assert {"cpsat", "sat", "minizinc", "clingo", "cpmpy"} <= set(BOTH)


@pytest.mark.slow
@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("case", list(CLASSES))
def test_each_backend_s_two_formulations_give_the_same_solutions(name, case):
    why = backend_class(name).missing()
    if why:
        pytest.skip(f"{name}: {why}")
    p = CLASSES[case]
    squares = set(nq.solve(p, name, formulation="squares"))
    assert squares == set(nq.solve(p, name, formulation="permutation")) == brute_force(p)
    assert nq.count(p, name, formulation="squares") == len(squares)


def test_an_unknown_formulation_is_refused_in_one_line():
    r = nq.get_backend("cpsat", formulation="rows")
    with pytest.raises(ValueError, match="--formulation must be one of permutation, squares"):
        nq.count(6, r)
