"""Walls that stop lines, pieces anywhere and pawns placed by the search, held to what the code
under test cannot shape: a brute force written here from the rules, the OEIS rows of the N+k
queens problem (A103330, A129551, A129553 and their classes), of k queens on a board
(A348129, A287227), and the other backends' squares formulation."""

from __future__ import annotations

import json
import re
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nqueens_cp.backends import get_backend
from nqueens_cp.model.pieces import images
from nqueens_cp.model.problem import InvalidProblem, Problem

from .conftest import examples, oeis, row_by_row

# -- the brute force ---------------------------------------------------------------------------


def _sees(p: Problem, a: tuple[int, int], b: tuple[int, int], stops: set[tuple[int, int]]) -> bool:
    """Whether a piece on `a` reaches `b`: a leap's image lands on it, or a line's step (a
    rider's image, a one-way line either way) reaches it with no stop on a square before."""
    m, n = p.rows, p.n
    rule = p.rule
    wrap = (lambda r, c: (r % m, c % n)) if p.torus else (lambda r, c: (r, c))
    for dr, dc in {i for mv in rule.leapers for i in images(mv)}:
        if wrap(a[0] + dr, a[1] + dc) == b:
            return True
    lines = {i for mv in rule.riders for i in images(mv)} | {d for x, y in rule.lines for d in ((x, y), (-x, -y))}
    for dr, dc in lines:
        r, c = a
        for _ in range(m * n):
            r, c = wrap(r + dr, c + dc)
            if not (0 <= r < m and 0 <= c < n) or (r, c) == a:
                break
            if (r, c) == b:
                return True
            if (r, c) in stops:
                break
    return False


def brute_layouts(p: Problem) -> set[tuple[int, ...]]:
    """Every solution, by trying every set of squares (pieces anywhere: every K squares and
    every set of pawns; one a row: `row_by_row`, a square dropped where it and a piece above
    see each other, as no set holding both is one)."""
    m, n = p.rows, p.n
    shut = set(p.blocked) | set(p.walls)
    free = [(r, c) for r in range(m) for c in range(n) if (r, c) not in shut]
    out = set()
    if p.pieces:
        candidates = [
            (pieces, pawns)
            for pieces in combinations(free, p.pieces)
            for pawns in combinations([sq for sq in free if sq not in pieces and sq not in p.fixed], p.pawns)
        ]
    else:
        walls = set(p.walls)  # (no pawns: the walls alone stop a line)

        def clash(a: tuple[int, int], b: tuple[int, int]) -> bool:
            return _sees(p, a, b, walls) or _sees(p, b, a, walls)

        placed = row_by_row(n, m, shut, (), clash)
        candidates = [(tuple(enumerate(cols)), ()) for cols in placed if len(cols) == m]
    for pieces, pawns in candidates:
        if any(sq in shut for sq in pieces) or not set(p.fixed) <= set(pieces):
            continue
        stops = set(p.walls) | set(pawns)
        if any(_sees(p, a, b, stops) for a in pieces for b in pieces if a != b and (p.pieces or a[0] != b[0])):
            continue
        out.add(p.encode(pieces, pawns))
    return out


# -- random problems -----------------------------------------------------------------------------

PIECES = ("queen", "rook", "RF", "RN", "QN", "RNN", "RC")
#: Pieces that do not ride rows and columns: placed anywhere only (K pieces, max, dominate).
ANY_PIECES = ("bishop", "king", "knight", "NN", "BN", "WD")


@st.composite
def problems(draw: st.DrawFn, anywhere: bool, any_piece: bool = False) -> Problem:
    """A small board; with `anywhere`, pieces (and pawns) placed anywhere; with `anywhere` or
    `any_piece` (the optimisations place them anywhere), pieces that are no rook too."""
    n = draw(st.integers(2, 4))
    m = draw(st.integers(1, n)) if draw(st.booleans()) else n
    squares = [(r, c) for r in range(m) for c in range(n)]
    walls = draw(st.lists(st.sampled_from(squares), max_size=3, unique=True))
    rest = [sq for sq in squares if sq not in walls]
    blocked = draw(st.lists(st.sampled_from(rest), max_size=2, unique=True)) if rest else []
    rest = [sq for sq in rest if sq not in blocked]
    fixed = draw(st.lists(st.sampled_from(rest), max_size=1, unique=True)) if rest else []
    free = len(rest)
    pieces = draw(st.integers(max(1, len(fixed)), max(1, min(free, n + 2)))) if anywhere and free else 0
    pawns = draw(st.integers(0, min(2, free - pieces))) if pieces else 0
    return Problem(
        n,
        draw(st.sampled_from(PIECES + ANY_PIECES if pieces or any_piece else PIECES)),
        rows=m,
        torus=draw(st.booleans()),
        walls=walls,
        blocked=blocked,
        fixed=fixed,
        pieces=pieces,
        pawns=pawns,
    )


def _solved(p: Problem, name: str = "bitmask", **options: object) -> set[tuple[int, ...]]:
    b = get_backend(name, **options)
    found = list(b.solutions(p))
    assert len(found) == len(set(found)), "a solution given twice"
    assert b.count(p).count == len(found)
    return set(found)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(anywhere=False))
def test_walls_one_a_row_match_the_brute_force(p: Problem) -> None:
    assert _solved(p) == brute_layouts(p)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(anywhere=True))
def test_pieces_anywhere_and_pawns_match_the_brute_force(p: Problem) -> None:
    expected = brute_layouts(p)
    assert _solved(p) == expected
    assert all(p.explain(s) is None for s in expected)


# -- the OEIS rows -------------------------------------------------------------------------------


#: Three pawns on the 7 x 7 board is 3 s of each search: run by `--full` (n = 6 by default).
K3_AT_7 = pytest.mark.long


@pytest.mark.parametrize(
    "seq, k, top",
    [("A103330", 1, 11), ("A129551", 2, 8), ("A129553", 3, 6), pytest.param("A129553", 3, 7, marks=K3_AT_7)],
)
def test_n_plus_k_queens_and_k_pawns(seq: str, k: int, top: int) -> None:
    terms, low = oeis(seq), _fits(k)
    b = get_backend("bitmask")
    got = [b.count(Problem(n, pieces=n + k, pawns=k)).count for n in range(low, top + 1)]
    assert got == terms[low - 1 : top]


@pytest.mark.parametrize(
    "seq, k, top",
    [("A103331", 1, 10), ("A129552", 2, 7), ("A129554", 3, 6), pytest.param("A129554", 3, 7, marks=K3_AT_7)],
)
def test_their_classes(seq: str, k: int, top: int) -> None:
    terms, low = oeis(seq), _fits(k)
    b = get_backend("bitmask")
    got = [b.count_classes(Problem(n, pieces=n + k, pawns=k)).unique for n in range(low, top + 1)]
    assert got == terms[low - 1 : top]


def _fits(k: int) -> int:
    """The smallest board whose squares hold n + k pieces and k pawns (smaller ones are refused)."""
    return next(n for n in range(1, 10) if n + 2 * k <= n * n)


def test_a368061_the_classes_the_half_turn_keeps() -> None:
    """A368061 counts the classes a half turn maps onto themselves; none here is kept by a
    quarter turn, so each has 4 members, and A103330 = 8 A103331 - 4 A368061."""
    terms = oeis("A368061")
    b = get_backend("bitmask")
    for n in range(2, 11):
        classes = b.count_classes(Problem(n, pieces=n + 1, pawns=1))
        assert classes.symmetric == {"point_symmetric": 4 * terms[n - 1], "rotational": 0}
        assert classes.total == 8 * classes.unique - 4 * terms[n - 1]


def test_k_queens_anywhere_a348129_and_its_row_sums() -> None:
    flat, sums = oeis("A348129"), oeis("A287227")
    b = get_backend("bitmask")
    at = 0
    for n in range(0, 7):
        row = flat[at : at + n + 1]
        at += n + 1
        if n == 0:
            continue
        got = [1] + [b.count(Problem(n, pieces=k)).count for k in range(1, n + 1)]
        assert got == row
        assert sum(got) == sums[n]


# -- the model's rules ---------------------------------------------------------------------------


def test_a_wall_lets_two_pieces_share_a_column() -> None:
    p = Problem(3, walls=[(1, 0)])
    assert p.explain((0, 2, 0)) is None
    assert "share a column" in (Problem(3).explain((0, 2, 0)) or "")
    assert "attack" in (p.explain((0, 2, 1)) or "")


def test_a_pawn_lets_two_queens_share_a_row() -> None:
    p = Problem(8, pieces=9, pawns=1)
    sol = sorted(brute_like := _solved(Problem(6, pieces=7, pawns=1)))[0]
    assert brute_like and Problem(6, pieces=7, pawns=1).explain(sol) is None
    pieces, pawns = Problem(6, pieces=7, pawns=1).layout(sol)
    assert len(pawns) == 1 and len({r for r, _ in pieces}) == 6  # a row holds two, the pawn between
    assert "out of order" in (p.explain(tuple(reversed(range(10)))) or "")


@pytest.mark.parametrize(
    "kwargs, said",
    [
        ({"walls": [(0, 0)], "fixed": [(0, 0)]}, r"^wall square \(0, 0\) is also a pre-placed piece"),
        ({"walls": [(9, 0)]}, r"^wall square \(9, 0\) is off the"),
        ({"pieces": 65}, "more than the 64 free squares"),
        ({"pieces": -1}, "at least 0"),
        ({"pawns": 1}, "give pieces too"),
        ({"pieces": 9, "pawns": 60}, "do not fit"),
        ({"pieces": 1, "fixed": [(0, 0), (2, 1)]}, "fewer than the 2 pre-placed"),
    ],
)
def test_bad_fields_are_refused(kwargs: dict, said: str) -> None:
    with pytest.raises(InvalidProblem, match=said):
        Problem(8, **kwargs)


# -- every backend that models them --------------------------------------------------------------

SQUARES_BACKENDS = ("cpsat", "sat", "cpmpy", "minizinc", "clingo")


@pytest.mark.parametrize("name", SQUARES_BACKENDS)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=st.one_of(problems(anywhere=False), problems(anywhere=True)))
def test_the_squares_formulation_matches_the_brute_force(name: str, p: Problem) -> None:
    if get_backend(name).missing():
        pytest.skip(get_backend(name).missing())
    assert _solved(p, name) == brute_layouts(p)


@pytest.mark.long  # (the property test above checks each backend on such boards, smaller)
@pytest.mark.parametrize("name", SQUARES_BACKENDS)
def test_every_backend_counts_n_plus_1_queens_and_a_pawn(name: str) -> None:
    if get_backend(name).missing():
        pytest.skip(get_backend(name).missing())
    assert get_backend(name).count(Problem(6, pieces=7, pawns=1)).count == oeis("A103330")[5]


def test_a_backend_that_cannot_names_those_that_can() -> None:
    with pytest.raises(Exception, match=r"cannot model walls .* \(those that do: bitmask, cpsat"):
        get_backend("constraint").count(Problem(5, walls=[(1, 1)]))


@pytest.mark.parametrize("name", ("cpsat", "clingo"))
def test_classes_by_enumeration_agree_with_the_fixed_points(name: str) -> None:
    """Another backend's classes come from its solutions, each mapped by the symmetries (a
    layout's squares moved, not its columns); ours from the layouts each subgroup fixes."""
    for p in (Problem(7, pieces=8, pawns=1), Problem(6, walls=[(0, 0), (5, 5)]), Problem(5, pieces=4)):
        ours, theirs = get_backend("bitmask").count_classes(p), get_backend(name).count_classes(p)
        assert (theirs.by_orbit, theirs.symmetric) == (ours.by_orbit, ours.symmetric), p


# -- long counts: work items, the pool, checkpoints, resume ----------------------------------------


def test_a_count_with_pawns_is_cut_into_work_items_that_resume(tmp_path) -> None:
    """A103330(9) = 396 through numbered items (one a class of pawn squares) on a pool of two,
    into a checkpoint; stopped halfway, the same call runs the rest and no more."""
    from nqueens_cp.run.partition import count_partitioned, pool_runner

    from .test_partition import dies_halfway, journal

    p = Problem(9, pieces=10, pawns=1)
    work = get_backend("bitmask").partition(p)
    assert work.size == 15  # the 81 squares in classes of the 8 symmetries
    ck = tmp_path / "pawns.ckpt"

    with pytest.raises(KeyboardInterrupt):
        count_partitioned(work, dies_halfway, ck)
    recorded = set(journal(ck)[1])
    assert 0 < len(recorded) < work.size
    seen: list[int] = []

    def watching(w, indices):
        seen.extend(indices)
        return pool_runner(2)(w, indices)

    assert count_partitioned(work, watching, ck) == oeis("A103330")[8]
    assert sorted(seen) == sorted(set(range(work.size)) - recorded)


def test_walls_without_pawns_are_cut_at_the_first_piece() -> None:
    """No pawns: an item a square the first piece takes; they add up to the count."""
    from nqueens_cp.run.partition import count_partitioned, pool_runner

    p = Problem(6, pieces=4, walls=[(2, 3)])
    work = get_backend("bitmask").partition(p)
    assert work.size == 35
    assert count_partitioned(work, pool_runner(2), None) == len(brute_layouts(p))


def test_pawn_sets_past_what_the_engine_places_one_by_one_are_refused_before_any_search() -> None:
    with pytest.raises(Exception, match=r"4 pawns on 1600 squares make [\d,]+ sets"):
        get_backend("bitmask").plan(Problem(40, pieces=41, pawns=4), "count")


def test_a_layout_read_back_in_any_order_and_a_wrong_one_named_by_its_squares() -> None:
    from nqueens_cp.check.answers import check

    p = Problem(6, pieces=7, pawns=1)
    good = sorted(_solved(p))
    lines = [p.said(s) for s in good]
    pieces, pawns = p.layout(good[0])
    lines.append(json.dumps({"pawns": [list(sq) for sq in pawns], "pieces": [list(sq) for sq in reversed(pieces)]}))
    judged = check(p, lines)  # the last, its squares in another order, is the first again
    assert judged.distinct == 16 and not judged.invalid and len(judged.duplicates) == 1
    alone = Problem(4, pieces=4)  # no pawns: a list of the pieces' squares is a layout
    assert check(alone, ["[[3, 2], [0, 1], [1, 3], [2, 0]]"]).distinct == 1
    bad = check(p, ['{"pieces": [[0, 0], [0, 1], [1, 3], [2, 5], [3, 2], [4, 4], [5, 1]], "pawns": [[5, 5]]}'])
    assert bad.invalid and "share a row" in bad.invalid[0][1]


# -- the DIMACS export ----------------------------------------------------------------------------


def _cnf(p: Problem, fmt: str = "dimacs") -> str:
    import io

    from nqueens_cp.export import export

    out = io.StringIO()
    export(p, fmt, out)
    return out.getvalue()


def _answers(text: str) -> list[str]:
    """Every model of a DIMACS file, as a solver's `s` and `v` lines, by python-sat and
    blocking clauses over the decision variables its header names (a piece's, a pawn's): one
    model a placement, whatever auxiliary variables the at-most-ones and the counters take."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    decisions = [int(v) for v in re.findall(r"^c (?:pawn )?var (\d+) = ", text, re.M)]
    out = []
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=text).clauses) as s:
        while s.solve():
            model = s.get_model()
            out.append("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0")
            s.add_clause([-model[v - 1] for v in decisions])
    return out


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=st.one_of(problems(anywhere=False), problems(anywhere=True)))
def test_the_dimacs_export_of_walls_pieces_anywhere_and_pawns_has_exactly_their_solutions(p: Problem) -> None:
    """Its models, found by python-sat and read back as `check` reads a solver's answer, are the
    brute force's placements (the export refused walls, pieces anywhere and pawns before)."""
    from nqueens_cp.check.answers import read_answers

    answers = [a for text in _answers(_cnf(p)) for a in read_answers(text.splitlines(), p)]
    assert all(a.fault is None for a in answers)
    assert sorted(a.solution for a in answers) == sorted(brute_layouts(p))
    if not p.anywhere:  # pairwise at-most-ones: no auxiliary variable, so a model is a placement
        pairwise = _cnf(p, "dimacs-pairwise")
        assert "no auxiliary variables" in pairwise and len(_answers(pairwise)) == len(answers)


def test_a_sat_answer_with_a_piece_too_many_is_named_not_split_as_a_pawn() -> None:
    """A layout's pieces and pawns are told apart by their number: a model with 3 pieces where 2
    stand would read its third piece as the pawn, so it is named as it is."""
    from nqueens_cp.check.answers import check

    p = Problem(3, "rook", pieces=2, pawns=1)
    text = _cnf(p)
    assert "c pawn var 10 = (0, 0)" in text and re.search(r"^c .*2 pieces anywhere, 1 pawn placed;", text, re.M)
    judged = check(p, ["s SATISFIABLE", "v 1 5 9 10 0"])  # rooks on the diagonal, a pawn on (0, 0)
    assert not judged.distinct and "3 pieces and 1 pawn, where 2 pieces and 1 pawn stand" in str(judged.invalid)
    with pytest.raises(Exception, match="pairwise CNF has no auxiliary variable"):
        _cnf(p, "dimacs-pairwise")
