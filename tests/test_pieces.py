"""Pieces as data: Betza's notation and names, the counts OEIS publishes, and every backend
against a brute force that reads the moves by their definition (steps on the board), not through
`Piece.offsets`."""

import json
import re
from functools import cache
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp import Piece, Problem
from nqueens_cp.backends import available_backends
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask import pysearch
from nqueens_cp.io.formats import read_model
from nqueens_cp.model.pieces import PieceError, parse
from nqueens_cp.model.symmetry import problem_symmetries
from tests.conftest import A000170, A007705, A051223, MODELS, examples, row_by_row, run

#: OEIS A002464 (Hertzsprung's problem: rook + king, Betza RF), n = 1..10.
A002464 = [1, 0, 0, 2, 14, 90, 646, 5242, 47622, 479306]
#: OEIS A137774 (nonattacking empresses: rook + knight, RN), n = 1..10.
A137774 = [1, 2, 2, 8, 20, 94, 438, 2766, 19480, 163058]

BACKENDS = available_backends()
#: Every sub-solver CPMpy reaches here besides its default, each an opinion of its own.
if "cpmpy" in BACKENDS:
    from nqueens_cp.backends.cpmpy import default_solver, installed

    BACKENDS += [f"cpmpy:{s}" for s in ("choco", "ortools", "z3", "exact", "pumpkin") if s in installed()]
    BACKENDS.remove(f"cpmpy:{default_solver()}")


def _images(a: int, b: int) -> set[tuple[int, int]]:
    return {(x * p, y * q) for p, q in ((a, b), (b, a)) for x in (1, -1) for y in (1, -1)}


def attacks_by_definition(piece: Piece, a, b, n: int, torus: bool, m: int | None = None) -> bool:
    """Whether a piece on square a reaches square b of an m x n board (m = n by default), by
    stepping along its moves on the board (rows wrap mod m, columns mod n on a torus)."""
    m = n if m is None else m
    (r, c), target = a, b
    if r == target[0] or c == target[1]:
        return True
    slides = [mv for move in piece.riders for mv in _images(*move)]
    slides += [mv for u, v in piece.lines for mv in ((u, v), (-u, -v))]
    leaps = [mv for move in piece.leapers for mv in _images(*move)]
    for (dr, dc), steps in [(mv, m * n) for mv in slides] + [(mv, 1) for mv in leaps]:
        for k in range(1, steps + 1):
            r2, c2 = r + k * dr, c + k * dc
            if torus:
                r2, c2 = r2 % m, c2 % n
            elif not (0 <= r2 < m and 0 <= c2 < n):
                break
            if (r2, c2) == target:
                return True
    return False


@cache
def brute_force(p: Problem) -> frozenset[tuple[int, ...]]:
    """Every placement of one piece a row, in distinct columns, no two attacking by the moves'
    definition (`row_by_row`). Kept for each problem, which several backends are checked
    against."""

    def clash(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[1] == b[1] or attacks_by_definition(p.rule, a, b, p.n, p.torus, p.rows)

    return frozenset(cols for cols in row_by_row(p.n, p.rows, p.blocked, p.fixed, clash) if len(cols) == p.rows)


def test_names_and_betza_notation_read_as_fairy_chess_has_them():
    assert Problem(8, "Q").piece == Problem(8, "RB").piece == "queen"
    assert Problem(8, "amazon").piece == Problem(8, "QN").piece == "superqueen"
    assert Problem(8, "empress").piece == Problem(8, "RN").piece == "RN"
    assert parse("RNN").riders == {(0, 1), (1, 2)} and not parse("RNN").leapers
    assert parse("RK").leapers == {(1, 1)}  # the king's W is on the rook's lines
    assert parse("R").riders == {(0, 1)} and parse("RD").leapers == frozenset()  # D rides the rook's lines
    text = Piece.of([[1, 4]], [[0, 1], [2, 3]], [[1, -1]]).text
    assert parse(text) == Piece.of([[1, 4]], [[0, 1], [2, 3]], [[1, -1]])  # the canonical text reads back


@pytest.mark.parametrize(
    "text, says",
    [
        ("RX", "no Betza letter"),
        ("fR", "modifiers"),
        ("", "a name or Betza"),
        ("R[0,0]", "goes nowhere"),
    ],
)
def test_a_piece_that_cannot_be_one_of_these_is_refused(text, says):
    with pytest.raises(PieceError, match=says):
        parse(text)
    r = run("count", 6, "--piece", text)
    assert r.exit_code == 2 and says in r.stderr


@pytest.mark.slow
def test_counts_published_in_oeis():
    assert [nq.count(Problem(n, "RF")) for n in range(1, 11)] == A002464
    assert [nq.count(Problem(n, "RN")) for n in range(1, 11)] == A137774
    assert [nq.count(Problem(n, "RF"), "cpsat") for n in range(1, 9)] == A002464[:8]
    assert [nq.count(Problem(n, "RN"), "sat") for n in range(1, 9)] == A137774[:8]
    assert [nq.count(Problem(n, "QN"), "cpsat") for n in range(1, 11)] == A051223[:10]


@pytest.mark.parametrize("n", range(1, 11))
def test_the_generic_row_search_counts_queens_as_oeis_does(n):
    """The spec-driven search, run on the queen (the planner gives the queen compiled kernels)."""
    stats: dict[str, int] = {}
    assert sum(1 for _ in pysearch.any_piece(Problem(n), Deadline("t", None), stats)) == A000170[n - 1]
    torus = Problem(n, torus=True)
    assert sum(1 for _ in pysearch.any_piece(torus, Deadline("t", None), stats)) == A007705[n - 1]


@st.composite
def fairy_problems(draw):
    n = draw(st.integers(1, 6))
    move = st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda m: m != (0, 0))
    piece = Piece.of(
        draw(st.lists(move, max_size=2)),
        [(0, 1), *draw(st.lists(move, max_size=2))],
        draw(st.lists(move, max_size=1)),
    )
    torus = draw(st.booleans())
    rows = draw(st.integers(1, n))
    squares = [(r, c) for r in range(rows) for c in range(n)]
    blocked = draw(st.lists(st.sampled_from(squares), max_size=3, unique=True))
    return Problem(n, piece, blocked=blocked, torus=torus, rows=rows)


@pytest.mark.slow
@settings(max_examples=examples(50))
@given(fairy_problems())
def test_every_backend_agrees_with_the_brute_force_on_random_pieces(p):
    truth = brute_force(p)
    for backend in BACKENDS:
        assert nq.count(p, backend) == len(truth), (backend, p.piece)
    assert set(nq.solve(p)) == truth
    assert all(p.explain(s) is None for s in truth)
    for sol in permutations(range(p.n), p.rows):
        if sol not in truth and not set(enumerate(sol)) & set(p.blocked):
            assert p.explain(sol) is not None
            break


@settings(max_examples=examples(40))
@given(fairy_problems(), st.integers(1, 5), st.integers(1, 3))
def test_the_generic_kernel_resumes_exactly_where_a_slice_stopped(p, budget, cap):
    """The generic kernel keeps the current row's squares and what the rows above rule out of
    the next row between calls: cut into slices of a few placements (or of a few solutions),
    it must give the solutions of one uncut call, in the same order, and the same count, against
    the brute force."""
    from nqueens_cp.backends.bitmask.kernels import generic as k
    from nqueens_cp.backends.bitmask.tables import masks_array, moves

    masks = masks_array(p)
    slides, reach = moves(p)

    def run(budget: int, cap: int) -> tuple[list[tuple[int, ...]], int]:
        state = k.new_state(masks, slides)
        out, sols, counted = np.zeros((cap, p.rows), np.int16), [], 0
        while not state[-1][1]:
            got = k.search(masks, slides, reach, *state, out, budget)
            sols += [tuple(int(c) for c in row) for row in out[:got]]
        state = k.new_state(masks, slides)
        while not state[-1][1]:
            counted += k.search(masks, slides, reach, *state, np.zeros((0, p.rows), np.int16), budget)
        return sols, counted

    whole, count = run(1 << 40, 1 << 12)
    assert run(budget, cap) == (whole, count)
    assert whole == sorted(brute_force(p)) and count == len(whole)


def test_explain_names_the_move_that_attacks():
    assert Problem(6, "RNN").explain((0, 2, 4, 1, 3, 5)) == "pieces (0, 0) and (1, 2) attack along a (1, 2) rider line"
    assert "(1, 1) leap apart" in Problem(5, "RF").explain((0, 1, 3, 2, 4))
    line = Problem(5, Piece.of(lines=[[1, -1]], riders=[[0, 1]]))
    assert line.explain((4, 3, 0, 1, 2)) == "pieces (0, 4) and (1, 3) share a (1, -1) line"
    assert line.explain((0, 1, 2, 3, 4)) is None  # the diagonal direction is not one of its moves


def test_symmetry_follows_the_piece():
    assert len(problem_symmetries(Problem(7, "RNN"))) == 8
    anti = Problem(7, Piece.of(lines=[[1, -1]], riders=[[0, 1]]))
    assert problem_symmetries(anti) == ("identity", "rot180", "transpose", "anti-transpose")
    classes = nq.count_classes(anti)
    assert classes.total == nq.count(anti) == len(brute_force(anti))


def test_a_toml_piece_table(tmp_path):
    model = tmp_path / "m.toml"
    model.write_text('n = 7\n[piece]\nname = "empress"\nleapers = [[1, 2]]\n')
    assert read_model(model).piece == "RN" and nq.count(read_model(model)) == A137774[6]
    model.write_text("n = 5\n[piece]\nlines = [[1, -1]]\n")
    p = read_model(model)
    assert nq.count(p) == len(brute_force(p))
    model.write_text("n = 5\n[piece]\nleapers = [[0, 0]]\n")
    r = run("count", "--model", model)
    assert r.exit_code == 2 and "goes nowhere" in r.stderr


@pytest.mark.parametrize(
    "name", ["empress-8.toml", "hertzsprung-8.toml", "anti-diagonal-6.toml", "zebrarider-queen-12.toml"]
)
def test_the_piece_models_count_what_their_comments_say(name):
    path = MODELS / name
    said = int(re.search(r"count: (\d+)", path.read_text()).group(1))
    p = read_model(path)
    assert nq.count(p) == said
    if p.n <= 6:
        assert len(brute_force(p)) == said


def test_the_commands_take_any_piece(tmp_path):
    r = run("compare", "--n", 6, "--piece", "RN", "--backends", "bitmask,cpsat", "--json")
    rows = [json.loads(line) for line in r.stdout.splitlines()[:-1]]
    assert r.exit_code == 0 and {x["answer"] for x in rows} == {A137774[5]} and {x["check"] for x in rows} == {"ok"}
    answers = tmp_path / "rn.jsonl"
    answers.write_text(run("solve", 6, "--piece", "RN", "-f", "jsonl").stdout)
    assert f"{A137774[5]} solutions read: {A137774[5]} valid" in run("check", 6, answers, "--piece", "RN").stdout
    r = run("check", 6, answers)  # the same placements are no queen solutions
    assert r.exit_code == 1 and "share a diagonal" in r.stdout
    assert "piece = RNN" in run("export", 6, "--piece", "RNN", "--to", "dimacs").stdout
    assert run("verify", 6, "--piece", "R[1,4]").stdout.strip().endswith("agree")


@pytest.mark.parametrize("text", ["B", "K", "N", "NN", "BN", "WD", "DD", "HH", "queen", "RN"])
def test_the_attack_relation_is_the_walk_of_the_moves_for_any_piece(text):
    """`Piece.attacks` (offsets, and a row's or a column's steps for a piece without the rook's
    lines) against the walk of every move from a square (`Problem._reach`), on open boards,
    plain and wrapped, square and not."""
    for m, n in ((3, 3), (4, 5), (5, 5), (4, 7)):
        for torus in (False, True):
            p = Problem(n, text, rows=m, torus=torus, pieces=1)
            squares = [(r, c) for r in range(m) for c in range(n)]
            for a in squares:
                reach = p._reach(a)
                assert [p.attacks(a, b) for b in squares if b != a] == [b in reach for b in squares if b != a]
