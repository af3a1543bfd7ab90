"""Counting by symmetry classes of ring constellations (issue 14), against OEIS and against the
mirror-only kernel kept as the reference."""

import json
from math import factorial

import numpy as np
import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask.backend import classes_from_symmetric
from nqueens_cp.backends.bitmask.partitions import constellations as cs
from nqueens_cp.backends.bitmask.partitions import count_items
from nqueens_cp.backends.bitmask.tables import attack_table, innermost_ring
from nqueens_cp.model.symmetry import NAMES
from nqueens_cp.run.partition import count_partitioned, pool_runner
from tests.conftest import A000170, A002562, A007705, A051223, brute_force, count_any, run

#: OEIS A032522: solutions fixed by the half turn ("point symmetric"), n = 1..
A032522 = [1, 0, 0, 2, 2, 4, 8, 4, 16, 12, 48, 80, 136, 420, 1240, 3000, 8152, 18104]
#: OEIS A033148: solutions fixed by the quarter turn ("rotationally symmetric"), n = 1..
A033148 = [1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 8, 8, 0, 0, 64, 128, 0]


def in_process(p, cons):
    """(Q, P, R, nodes) of every sub-problem, summed in this process by the engine's one runner."""
    c = count_items(cs.items(p, cons), 1, Deadline("test", None))
    return c.count, c.point, c.quarter, c.nodes


def qpr(p):
    return in_process(p, cs.constellations(p))[:3]  # less the nodes


@pytest.mark.parametrize("n", range(4, 15))
def test_all_three_sequences_from_one_run(n):
    q, p, r = qpr(Problem(n))
    assert (q, p, r) == (A000170[n - 1], A032522[n - 1], A033148[n - 1])
    classes = classes_from_symmetric(Problem(n), q, p, r)
    assert classes.unique == A002562[n - 1] and classes.total == A000170[n - 1]


def test_classes_by_orbit_match_a_brute_force_partition():
    """Orbits of the brute-force solutions, grouped by hand, against the by-orbit counts."""
    from collections import Counter

    from nqueens_cp.model.symmetry import orbit

    for n in range(4, 9):
        sols = brute_force(n)
        sizes = Counter(len(o) for o in {frozenset(orbit(s)) for s in sols})
        classes = classes_from_symmetric(Problem(n), *qpr(Problem(n)))
        assert classes.by_orbit == dict(sizes), n


@pytest.mark.long
@pytest.mark.slow
def test_the_half_turn_search_against_the_brute_force():
    from nqueens_cp.backends.bitmask.kernels.rings import count_point_symmetric

    for n in range(1, 10):
        sols = brute_force(n)
        half = sum(all(s[n - 1 - r] == n - 1 - s[r] for r in range(n)) for s in sols)
        quarter = sum(all(s[s[r]] == n - 1 - r for r in range(n)) for s in sols)
        assert tuple(count_point_symmetric(n, np.zeros(2, np.int64))) == (half, quarter), n


@pytest.mark.parametrize("n", [9, 12, 13])
def test_any_ring_and_any_order_of_representatives_counts_the_same(n):
    """Which ring is pinned and which image represents a class change the search, never the
    counts: every ring, with the lexicographic order or the default one, gives A000170, A032522
    and A033148."""
    p = Problem(n)
    want = (A000170[n - 1], A032522[n - 1], A033148[n - 1])
    for ring in range(innermost_ring(n) + 1):
        for key in (cs._lexicographic, cs._key):
            cons = cs.constellations(p, key, ring)
            assert in_process(p, cons)[:3] == want, (ring, key)


@pytest.mark.parametrize("ring", [0, 2, 4])
def test_variants_count_right_on_any_ring(ring):
    """Superqueens and torus boards enumerate each sub-problem; the ring changes only which."""
    for p, expected in ((Problem(11, "superqueen"), A051223[10]), (Problem(11, torus=True), A007705[10])):
        assert in_process(p, cs.constellations(p, ring=ring))[0] == expected


def test_the_default_ring_is_the_innermost_and_a_ring_off_the_board_is_refused():
    assert [cs.constellations(Problem(n)).ring for n in (11, 12, 13, 14)] == [4, 5, 5, 6]
    with pytest.raises(ValueError, match="ring must be"):
        cs.constellations(Problem(12), ring=6)


def test_the_default_order_puts_the_ring_column_queens_high():
    """The searched constellation of each class has the highest ring-column queens of its class:
    the lower of the two as high as any image allows."""
    n = 10
    cons = cs.constellations(Problem(n))
    for (a, b, c, d), f in zip(cons.items.tolist(), cons.fixed.tolist(), strict=True):
        if f == cs.SYMMETRIC:
            continue
        images = [cs._image(n, cons.ring, g, *(np.array([v]) for v in (a, b, c, d))) for g in NAMES]
        assert max(c, d) == min(int(max(im[2][0], im[3][0])) for im in images)


@pytest.mark.parametrize("workers", [1, 2])
def test_counts_on_one_and_two_workers(workers):
    b = nq.get_backend("bitmask", workers=workers)
    for n in (13, 14, 15):  # (up to 12, queens are counted a row at a time on numpy arrays)
        p = Problem(n)
        assert b.plan(p, "count").algorithm == "constellations"
        assert nq.count(p, workers=workers) == A000170[n - 1]
    classes = nq.count_classes(14, workers=workers)
    assert (classes.unique, classes.symmetric) == (A002562[13], {"point_symmetric": 420, "rotational": 0})


def test_the_mirror_kernel_agrees_sub_problem_by_sub_problem_totals():
    """The reference: the mirror-only split (its own partition) gives the same totals."""
    from nqueens_cp.backends.bitmask.partitions.rows import count_one, split
    from nqueens_cp.backends.bitmask.tables import masks_array

    for n in (11, 12, 13):
        p = Problem(n)
        subs = split(p, 2)
        mirror = sum(count_one(masks_array(p), True, sub) for sub in subs)
        assert mirror == qpr(p)[0] == A000170[n - 1]


def test_the_checkpoint_path_uses_the_same_sub_problems(tmp_path):
    part = nq.get_backend("bitmask").partition(Problem(13))
    assert part.fingerprint["split"] == "constellations"
    ck = tmp_path / "c.json"
    assert count_partitioned(part, pool_runner(2), ck) == A000170[12]
    r = run("count", 13, "--checkpoint", ck, "--check", "--json")
    assert r.exit_code == 0 and '"count": 73712' in r.stdout


def test_a_checkpoint_of_another_numbering_is_refused(tmp_path):
    """The fingerprint names the list of sub-problems, not only its length: a checkpoint made
    with the same items in another order (or another order of representatives) is refused, not
    resumed with counts recorded under other numbers."""
    from nqueens_cp.run.partition import CheckpointError

    p = Problem(13)
    cons = cs.constellations(p)
    turned = cs.Constellations(p.n, cons.ring, cons.items[::-1], cons.weights[::-1], cons.fixed[::-1], cons.masks)
    ck = tmp_path / "c.json"
    assert count_partitioned(cs.items(p, turned).partition(), pool_runner(1), ck) == A000170[12]
    with pytest.raises(CheckpointError, match="sub_problems"):
        count_partitioned(nq.get_backend("bitmask").partition(p), pool_runner(1), ck)
    with pytest.raises(CheckpointError, match="sub_problems"):  # another ring
        count_partitioned(cs.items(p, cs.constellations(p, ring=0)).partition(), pool_runner(1), ck)


def test_superqueens_and_torus_boards_through_the_same_path():
    """Superqueens count by constellations; a plain torus by its translations (test_translations),
    its classes (`--unique`) by constellations, and the constellations still count it right."""
    for n in (11, 12, 13):
        p = Problem(n, "superqueen")
        assert nq.get_backend("bitmask").plan(p, "count").algorithm == "constellations"
        assert nq.count(p) == A051223[n - 1]
        torus = Problem(n, torus=True)
        assert nq.get_backend("bitmask").plan(torus, "unique").algorithm == "constellations"
        assert qpr(torus)[0] == nq.count(torus) == A007705[n - 1]
    for n in range(4, 11):  # below the planner's threshold, called directly
        assert qpr(Problem(n, "superqueen"))[0] == A051223[n - 1]
        assert qpr(Problem(n, torus=True))[0] == A007705[n - 1]


def test_class_identities_are_checked_before_reporting():
    with pytest.raises(nq.NQueensError, match="do not add up"):
        classes_from_symmetric(Problem(8), 92, 5, 0)


def test_cli_unique_reports_all_three():
    import json

    r = run("count", 12, "--unique", "--json")
    rec = json.loads(r.stdout)
    assert (rec["count"], rec["total"], rec["point_symmetric"], rec["rotational"]) == (1787, 14200, 80, 8)
    assert rec["by_orbit"] == {"2": 4, "4": 18, "8": 1765}


@pytest.mark.parametrize("ring", [0, 1, 2, 3])
def test_every_class_of_constellations_is_searched_once(ring):
    """Against the symmetry module's own transform: of the constellations of a solution's 8
    images (its constellation's class), exactly one is searched, on every ring, whichever order
    picks it."""
    from nqueens_cp.model.symmetry import transform

    n = 8
    cons = cs.constellations(Problem(n), ring=ring)
    searched = {tuple(item) for item, f in zip(cons.items.tolist(), cons.fixed, strict=True) if f != cs.SYMMETRIC}
    lo, hi = ring, n - 1 - ring

    def constellation(s):
        return (s[lo], s[hi], s.index(lo), s.index(hi))

    for s in brute_force(n):
        orbit = {constellation(transform(s, g)) for g in NAMES}
        assert len(orbit & searched) == 1, (s, orbit & searched)


def test_progress_by_constellations_ends_at_the_total():
    seen = []
    assert nq.count(13, workers=1, progress=lambda done, total: seen.append((done, total))) == A000170[12]
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1][0] == seen[-1][1] == len(cs.constellations(Problem(13)))


def test_every_counting_path_reports_its_nodes():
    """`count --json` had no nodes on the constellation and sub-problem paths. The count kernels'
    nodes are placements: for the row split on one worker they equal those of the generic kernel
    walking the same tree (the same rows, the same squares ruled out), an independent count."""
    from nqueens_cp.backends.base import Deadline as D
    from nqueens_cp.check.verify import prefixes

    for workers in (1, 2):
        b = nq.get_backend("bitmask", workers=workers)
        assert b.plan(Problem(13), "count").algorithm == "constellations"
        out = b.count(Problem(13))
        assert out.count == A000170[12] and out.stats["nodes"] > 0
        p = Problem(13, blocked=[(0, 0)])  # no constellations, no mirror: the row split, 3 rows deep
        assert b.plan(p, "count").algorithm == "count-split"
        walked: dict[str, int] = {}
        out = b.count(p)
        assert count_any(p, D("t", None), walked) == out.count
        above = sum(1 for d in (1, 2, 3) for _ in prefixes(p, d))  # placed by the split, not the kernel
        assert out.stats["nodes"] + above == walked["nodes"]
    r = run("count", 14, "--json")
    assert json.loads(r.stdout)["stats"]["nodes"] > 0


#: OEIS A137774 (empresses, RN) and A002464 (Hertzsprung's problem, RF), n = 11, 12; A051223
#: (superqueens) n = 14.
A137774 = {11: 1546726, 12: 16598282}
A002464 = {11: 5296790, 12: 63779034}


def test_the_attack_table_is_the_models_attack_relation():
    """Constellations read attacks from one table; it must say what Problem.attacks says, square
    by square, for pieces with leaps, rides and lines, on plain and toroidal boards."""
    pieces = [Problem(7), Problem(7, "superqueen"), Problem(7, torus=True), Problem(8, "RNN")]
    for p in [*pieces, Problem(6, "QN", torus=True), Problem(7, "Rline(1,-1)")]:
        n, table = p.n, attack_table(p)
        squares = [(r, c) for r in range(n) for c in range(n)]
        for a in squares:
            for b in squares:
                if a != b:
                    assert table[b[0] - a[0] + n - 1, b[1] - a[1] + n - 1] == p.attacks(a, b), (p.piece, a, b)


def test_every_piece_that_keeps_the_eight_symmetries_counts_by_constellations():
    """Issue 26, variants ride along: fairy pieces (any leaper and rider keeps all 8 symmetries)
    are counted by classes of ring constellations, each class searched by the generic kernel,
    against OEIS; a one-way line or a blocked square keeps fewer symmetries and the mirror path."""
    b = nq.get_backend("bitmask", workers=1)
    for n in (11, 12):
        for piece, oeis in (("RN", A137774), ("RF", A002464)):
            p = Problem(n, piece)
            plan = b.plan(p, "count")
            assert plan.algorithm == "constellations" and "all 8 symmetries" in plan.reason
            out = b.count(p)
            assert out.count == oeis[n] and out.stats["nodes"] > 0
    assert nq.count(Problem(14, "superqueen"), workers=1) == 5180  # OEIS A051223
    assert nq.count(Problem(11, "rook", torus=True)) == 39916800  # 11!: rooks on a torus are rooks
    for p in (Problem(11, "RN", blocked=[(0, 0)]), Problem(11, "Rline(1,-1)", torus=True)):
        assert b.plan(p, "count").algorithm == "any-piece"  # a blocked square; a torus's translations
    assert b.plan(Problem(11, "RN"), "unique").algorithm != "constellations"  # reflections may fix a solution


def test_boards_that_keep_fewer_symmetries_count_by_their_classes_and_say_which():
    """Issue 23, symmetry follows the spec: a one-way line along a diagonal keeps the half turn
    and the two transpositions, any other line the half turn, a rectangle the two reflections
    and the half turn; each counts by classes of ring constellations under what it keeps, and
    the plan names them. Against the generic kernel's own count (whole or half first row) and
    the falling factorial for rooks."""
    b = nq.get_backend("bitmask", workers=1)
    for p, held in (
        (Problem(11, "Rline(1,-1)"), "4 symmetries hold (rot180, transpose, anti-transpose"),
        (Problem(11, "Rline(1,2)"), "2 symmetries hold (rot180 and"),
        (Problem(12, "RN", rows=9), "4 symmetries hold (rot180, flip-cols, flip-rows"),
        (Problem(13, rows=7), "4 symmetries hold (rot180, flip-cols, flip-rows"),
        (Problem(11, "Rline(1,1)", rows=8), "2 symmetries hold (rot180 and"),
    ):
        plan = b.plan(p, "count")
        assert plan.algorithm == "constellations" and held in plan.reason, (p, plan.reason)
        out = b.count(p)
        assert out.count == count_any(p, Deadline("t", None), {}) and out.stats["nodes"] > 0, p
    assert b.count(Problem(12, "rook", rows=6)).count == factorial(12) // factorial(6)


def test_rectangles_by_constellations_count_as_oeis_a269133():
    """The classes of a rectangle (called directly: the planner starts them at 11 columns) give
    OEIS A269133, Riedel's table of queens on m x n boards, and rooks the falling factorial."""
    from tests.test_boards import A269133

    for n in (7, 8, 9, 10):
        for m in range(4, n):
            for piece, want in (("queen", A269133[n - 1][m - 1]), ("rook", factorial(n) // factorial(n - m))):
                p = Problem(n, piece, rows=m)
                cons = cs.constellations(p)
                assert set(cons.weights.tolist()) <= {1, 2, 4} and cons.masks is not None
                assert in_process(p, cons)[0] == want, (n, m, piece)


def _pieces_with_lines(seed, count):
    """Random leapers, riders and one-way lines (through the origin: a line's own symmetries)."""
    rng = np.random.default_rng(seed)
    moves = [(a, b) for a in range(4) for b in range(-3, 4) if (a, b) != (0, 0) and (a > 0 or b > 0)]
    for _ in range(count):
        pick = rng.choice(len(moves), size=3, replace=False)
        leapers = [tuple(abs(x) for x in moves[pick[0]])] * int(rng.integers(0, 2))
        riders = [(0, 1)] + [tuple(abs(x) for x in moves[pick[1]])] * int(rng.integers(0, 2))
        lines = [moves[pick[2]]] if moves[pick[2]][0] > 0 else []
        yield nq.Piece.of(leapers, riders, lines)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.long) for seed in range(1, 4))])
def test_random_pieces_and_boards_by_their_classes_against_the_brute_force(seed):
    """Any piece (with one-way lines) on squares and rectangles (an empty ring column included),
    each counted by classes under the symmetries it keeps, against the brute force."""
    from tests.test_pieces import brute_force as by_definition

    for piece in _pieces_with_lines(seed, 3):
        for n, m in ((6, 6), (7, 7), (7, 4), (7, 5), (8, 5)):
            p = Problem(n, piece, rows=m)
            cons = cs.constellations(p)
            got = in_process(p, cons)[0]
            assert got == len(by_definition(p)), (piece.text, n, m)


def _symmetric_pieces(seed, count):
    rng = np.random.default_rng(seed)
    moves = [(a, b) for a in range(4) for b in range(a, 4) if (a, b) != (0, 0)]
    for _ in range(count):
        pick = rng.choice(len(moves), size=3, replace=False)
        leapers = [moves[i] for i in pick[:2]]
        riders = [(0, 1)] + [moves[pick[2]]] * int(rng.integers(0, 2))
        yield nq.Piece.of(leapers, riders), bool(rng.integers(0, 2))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_random_symmetric_pieces_by_constellations_against_the_brute_force(seed):
    """Random leapers and riders, plain and toroidal, on boards small enough for the brute force
    (the constellations called directly: the planner starts them at n = 11), every ring."""
    from tests.test_pieces import brute_force as by_definition

    for piece, torus in _symmetric_pieces(seed, 2):
        for n in (6, 7):
            p = Problem(n, piece, torus=torus)
            truth = len(by_definition(p))
            for ring in range(innermost_ring(n) + 1):
                got = in_process(p, cs.constellations(p, ring=ring))[0]
                assert got == truth, (piece.text, torus, n, ring)


@pytest.mark.slow
def test_random_symmetric_pieces_by_constellations_against_the_mirror_path():
    """At the planner's sizes, against the generic kernel's own count over half the first row."""

    for piece, torus in _symmetric_pieces(99, 6):
        p = Problem(11, piece, torus=torus)
        plan = nq.get_backend("bitmask").plan(p, "count").algorithm  # a plain torus: its translations
        assert plan == ("any-piece" if torus else "constellations")
        classes = in_process(p, cs.constellations(p))[0]
        assert nq.count(p, workers=1) == count_any(p, Deadline("t", None), {}) == classes, (piece.text, torus)


def test_a_fairy_count_by_constellations_runs_on_the_pool_and_through_a_checkpoint(tmp_path):
    ck = tmp_path / "c.jsonl"
    r = run("count", 11, "--piece", "RN", "--checkpoint", ck, "--workers", 2)
    assert r.exit_code == 0 and r.stdout.strip() == str(A137774[11]), r.output
    assert '"split": "constellations"' in ck.read_text().splitlines()[0]
    assert run("count", 11, "--piece", "RN", "--checkpoint", ck, "--check").stdout.strip() == str(A137774[11])
    assert nq.count(Problem(11, "RF"), workers=2) == A002464[11]


def test_a_rectangle_counts_by_classes_on_the_pool_and_through_a_checkpoint_that_names_its_rows(tmp_path):
    ck = tmp_path / "c.jsonl"
    want = nq.count(Problem(11, "RN", rows=8), workers=1)
    r = run("count", 11, "--rows", 8, "--piece", "RN", "--checkpoint", ck, "--workers", 2)
    assert r.exit_code == 0 and r.stdout.strip() == str(want), r.output
    head = json.loads(ck.read_text().splitlines()[0])["fingerprint"]
    assert head["split"] == "constellations" and head["rows"] == 8
    r = run("count", 11, "--rows", 9, "--piece", "RN", "--checkpoint", ck)
    assert r.exit_code == 2 and "different problem" in r.output
    r = run("count", 11, "--rows", 8, "--piece", "RN", "--checkpoint", ck, "--depth", 3)
    assert r.exit_code == 2 and "(4 symmetries hold (rot180, flip-cols, flip-rows" in r.output, r.output


@pytest.mark.parametrize("n", range(1, 11))
def test_small_boards_count_their_symmetric_solutions_too(n):
    """`count --unique` said nothing of the symmetric solutions for n <= 10 (another algorithm)."""
    c = nq.count_classes(n)
    assert c.symmetric == {"point_symmetric": A032522[n - 1], "rotational": A033148[n - 1]}
