import pytest

import nqueens_cp as nq
from nqueens_cp import InvalidProblem, Problem
from nqueens_cp.model.problem import (
    BoardSizeError,
    SquareOffBoard,
    UnknownPiece,
    as_problem,
    board_rows,
)
from tests.conftest import backtrack_count, brute_force_problem


@pytest.mark.parametrize("n", [0, -3, 1.5, "8", True, 10**8])
def test_board_size_is_validated(n):
    with pytest.raises(BoardSizeError):
        Problem(n)



def test_unknown_piece():
    with pytest.raises(UnknownPiece, match="archbishop"):
        Problem(8, "archbishop")


@pytest.mark.parametrize("kind", ["blocked", "fixed"])
@pytest.mark.parametrize("square", [(8, 0), (0, 8), (-1, 3)])
def test_squares_off_the_board_are_named(kind, square):
    with pytest.raises(SquareOffBoard, match=rf"{kind} square \({square[0]}, {square[1]}\)"):
        Problem(8, **{kind: [square]})


@pytest.mark.parametrize("square", [(1,), (1, 2, 3), ("a", 1), (1.0, 2), 5])
def test_malformed_squares(square):
    with pytest.raises(InvalidProblem):
        Problem(8, blocked=[square])


def test_fixed_on_blocked_is_a_puzzle_with_no_solution():
    """It was an input error (exit 2); users looping over generated instances want the answer."""
    p = Problem(8, blocked=[(2, 3)], fixed=[(2, 3)])
    assert "(2, 3)" in p.contradiction and "blocked" in p.contradiction


@pytest.mark.parametrize(
    "a,b,piece",
    [((0, 0), (0, 5), "rook"), ((0, 1), (4, 1), "queen"), ((1, 1), (3, 3), "queen"), ((0, 4), (4, 0), "queen")],
)
def test_fixed_pieces_that_attack_make_a_puzzle_with_no_solution(a, b, piece):
    p = Problem(8, piece, fixed=[a, b])
    assert f"({a[0]}, {a[1]})" in p.contradiction and "attack" in p.contradiction
    assert brute_force_problem(p) == set()  # the independent ground truth agrees


@pytest.mark.parametrize("backend", ["bitmask", "cpsat", "constraint"])
@pytest.mark.parametrize(
    "problem", [Problem(8, fixed=[(0, 0), (1, 1)]), Problem(6, "rook", blocked=[(2, 2)], fixed=[(2, 2)])]
)
def test_every_backend_answers_a_contradiction_with_no_solution(backend, problem):
    assert nq.count(problem, backend=backend) == 0
    assert nq.first(problem, backend=backend) is None
    assert list(nq.solve(problem, backend=backend)) == []


def test_diagonal_is_fine_for_rooks():
    assert Problem(8, "rook", fixed=[(1, 1), (3, 3)]).fixed == ((1, 1), (3, 3))


def test_errors_are_value_errors():
    assert issubclass(SquareOffBoard, ValueError)


def test_problem_is_immutable_hashable_and_normalised():
    a = Problem(6, blocked=[[2, 1], (0, 0), (0, 0)])
    b = Problem(6, blocked=((0, 0), (2, 1)))
    assert a == b and hash(a) == hash(b) and a.blocked == ((0, 0), (2, 1))
    with pytest.raises(AttributeError):
        a.n = 7  # type: ignore[misc]


def test_explain_names_each_kind_of_fault():
    p = Problem(4, blocked=[(0, 0)], fixed=[(3, 2)])
    assert p.explain((1, 3, 0, 2)) is None
    assert "rows" in p.explain((1, 3, 0))
    assert "not in 0..3" in p.explain((1, 3, 0, 4))
    assert "blocked square (0, 0)" in p.explain((0, 2, 3, 1))
    assert "fixed piece (3, 2)" in p.explain((2, 0, 3, 1))
    assert "share a column" in Problem(4).explain((1, 1, 0, 2))
    assert "(0, 0) and (1, 1) share a diagonal" in Problem(4).explain((0, 1, 3, 2))
    assert "(0, 1) and (1, 0) share an anti-diagonal" in Problem(3).explain((1, 0, 2))
    assert Problem(4, "rook").is_solution((0, 1, 2, 3))
    assert not Problem(4).is_solution((0, 1, 2, 3))


def test_row_masks_remove_what_fixed_pieces_attack():
    p = Problem(4, fixed=[(0, 1)])
    # row 0 pinned to column 1; row 1 loses columns 0, 1, 2; row 2 loses 1 and 3; row 3 loses 1
    assert p.row_masks == (0b0010, 0b1000, 0b0101, 0b1101)


def test_plain_int_stands_for_a_problem():
    assert as_problem(8) == Problem(8)
    assert board_rows((1, 3, 0, 2)) == [".Q..", "...Q", "Q...", "..Q."]


def test_mirror_symmetry():
    assert Problem(8).is_mirror_symmetric()
    assert Problem(8, blocked=[(2, 1), (2, 6)]).is_mirror_symmetric()
    assert not Problem(8, blocked=[(2, 1)]).is_mirror_symmetric()


def test_wrong_types_in_the_api_are_invalid_problems_and_numpy_integers_are_integers():
    """Plain TypeErrors came out of Problem(8, blocked=None), solve(8, limit=1.5), explain(None)."""
    import numpy as np

    with pytest.raises(nq.InvalidProblem):
        Problem(8, blocked=None)
    with pytest.raises(nq.InvalidProblem):
        Problem(8, fixed=5)
    with pytest.raises(nq.InvalidProblem):
        nq.solve(8, limit=1.5)
    with pytest.raises(nq.InvalidProblem):
        Problem(8).explain(None)
    p = Problem(np.int64(8), blocked=[(np.int32(0), np.int64(0))])
    assert p == Problem(8, blocked=[(0, 0)]) and type(p.n) is int
    assert nq.count(p) == backtrack_count(Problem(8, blocked=[(0, 0)]))
    assert p.explain(np.array([1, 3, 5, 7, 2, 0, 6, 4])) is None
    assert len(list(nq.solve(8, limit=np.int64(3)))) == 3
