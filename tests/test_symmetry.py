"""Symmetry classes against OEIS A002562, and the parallel count against A000170."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.model.symmetry import NAMES, TABLE, canonical, orbit, problem_symmetries, transform
from tests.conftest import A000170, A002562, brute_force, examples, run
from tests.test_pieces import brute_force as stepped


def count_unique(p, backend="bitmask", **options):
    return nq.count_classes(p, backend, **options)


def test_fundamental_solutions_match_oeis_a002562():
    got = [count_unique(n) for n in range(1, 13)]
    assert [g.unique for g in got] == A002562[:12]
    assert [g.total for g in got] == A000170[:12]


@pytest.mark.parametrize("backend", ["cpsat", "constraint"])
def test_other_backends_give_the_same_classes(backend):
    assert [count_unique(n, backend).unique for n in range(1, 9)] == A002562[:8]


def test_classes_from_a_brute_force_partition():
    # Group the brute-force solutions into orbits by hand: the number of orbits is A002562.
    for n in range(4, 9):
        remaining = set(brute_force(n))
        classes = 0
        while remaining:
            s = remaining.pop()
            remaining -= {transform(s, g) for g in NAMES}
            classes += 1
        assert classes == A002562[n - 1]


def test_transforms_are_the_eight_symmetries_of_the_square():
    sols = list(nq.solve(8))
    p = Problem(8)
    for s in random.Random(1).sample(sols, 10):
        images = [transform(s, g) for g in NAMES]
        assert all(p.is_solution(i) for i in images)
        assert all(canonical(i) == canonical(s) for i in images)
        assert transform(transform(s, "rot90"), "rot270") == s
        assert transform(transform(s, "rot90"), "rot90") == transform(s, "rot180")
        assert transform(s, "flip-cols") == tuple(7 - c for c in s)
        assert transform(s, "flip-rows") == s[::-1]


def test_a_symmetric_solution_has_a_smaller_orbit():
    # (1, 3, 0, 2) for n = 4 is mapped onto itself by rot90: its orbit has 2 members.
    assert len(orbit((1, 3, 0, 2))) == 2


def test_blocked_squares_keep_only_their_symmetries():
    p = Problem(8, blocked=[(0, 0), (7, 7)])
    assert problem_symmetries(p) == ("identity", "rot180", "transpose", "anti-transpose")
    assert problem_symmetries(Problem(8, blocked=[(0, 1)])) == ("identity",)
    assert problem_symmetries(Problem(8, fixed=[(0, 3)], blocked=[(0, 4)])) == ("identity",)
    result = count_unique(p)
    sols = set(nq.solve(p))
    assert result.total == len(sols)
    classes = {frozenset(orbit(s, result.group)) for s in sols}
    assert result.unique == len(classes)
    assert sorted(result.by_orbit.items()) == sorted(Counter(len(c) for c in classes).items())


@pytest.mark.parametrize("n", [13, 14])
def test_parallel_count_matches_oeis(n):
    assert nq.count(n, workers=2) == A000170[n - 1]


def test_parallel_count_on_variants_matches_one_worker():
    for p in (
        Problem(13, blocked=[(0, 0), (5, 7), (12, 3)]),
        Problem(13, fixed=[(2, 5)]),
        Problem(13, "rook", blocked=[(r, r) for r in range(13)], fixed=[(0, 1), (1, 0), (2, 3), (3, 2), (4, 5)]),
    ):
        assert nq.count(p, workers=2) == nq.count(p, workers=1)


def test_progress_callback_sees_every_subproblem():
    """In one process the row split's sub-problems are counted a slice at a time (one call
    each cost more than a small one), with a report after each slice: every sub-problem is
    reported, in order, and progress moves at least every slice."""
    from nqueens_cp.backends.bitmask.partitions.rows import SLICE

    seen = []
    p = Problem(13, blocked=[(0, 0)])
    assert nq.count(p, progress=lambda done, total: seen.append((done, total)), workers=1) == nq.count(p, workers=2)
    done, totals = [d for d, _ in seen], {t for _, t in seen}
    assert len(totals) == 1 and done[-1] == totals.pop() > 10 * SLICE
    assert all(0 < b - a <= SLICE for a, b in zip([0, *done], done, strict=False))


def _numbered(_context, i):
    return (i, 1, i * i)


@pytest.mark.parametrize(("items", "workers"), [(0, 2), (1, 2), (57, 2), (57, 3)])
def test_shared_work_covers_every_item_once(items, workers):
    from nqueens_cp.run.parallel import share_work

    totals = share_work(_numbered, items, workers, None, width=3)
    assert totals == (items * (items - 1) // 2, items, sum(i * i for i in range(items)))


def test_shared_work_whose_last_item_came_in_as_its_time_ran_out_is_whole(monkeypatch):
    """The pool yields the items that finished, then looks at the clock (`poll`) before it sees
    its workers end: a count whose every item was in when its time limit passed was reported as
    stopped, its whole count given as a lower bound."""
    from nqueens_cp.run import parallel

    real = parallel.run_items

    def late(func, indices, workers, context, width=1, poll=None, costs=None):
        yield from real(func, indices, workers, context, width, None, costs)
        poll()  # (the look at the clock after the last item: past the limit)

    def past(found):
        raise TimeoutError(found)

    monkeypatch.setattr(parallel, "run_items", late)
    assert parallel.share_work(_numbered, 57, 2, None, width=3, poll=past) == (
        57 * 56 // 2,
        57,
        sum(i * i for i in range(57)),
    )


def test_progress_on_a_pool_ends_at_the_total():
    seen = []
    assert nq.count(14, workers=2, progress=lambda done, total: seen.append((done, total))) == A000170[13]
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1][0] == seen[-1][1] > 1


def test_cli_unique():
    r = run("count", 10, "--unique", "--json")
    assert r.exit_code == 0
    rec = json.loads(r.stdout)
    assert rec["count"] == 92 and rec["total"] == 724 and len(rec["symmetries"]) == 8
    r = run("solve", 8, "--unique", "-f", "jsonl")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 12
    assert "under 8 symmetries" in r.stderr
    r = run("count", 8, "--unique", "--block", "0,1")
    assert r.stdout.strip() == str(nq.count(Problem(8, blocked=[(0, 1)])))
    assert "under 1 symmetries: identity" in r.stderr


#: A000903: placements of n non-attacking rooks up to the symmetries of the square.
A000903 = [1, 1, 2, 7, 23, 115, 694, 5282, 46066, 456454]


def test_rook_classes_match_oeis_a000903():
    assert [count_unique(Problem(n, "rook")).unique for n in range(1, 9)] == A000903[:8]


def test_symmetry_breaking_reaches_every_class():
    # The restricted searches must find exactly the classes the unrestricted Python path finds.
    for p in (Problem(9), Problem(10, "superqueen"), Problem(7, torus=True), Problem(6, "rook")):
        assert count_unique(p) == count_unique(p, backend="cpsat")


def test_symmetry_classes_on_the_pool():
    assert count_unique(13, workers=2) == count_unique(13, workers=1)
    assert count_unique(13, workers=2).unique == A002562[12]


def _written_out(name, n, r, c):
    """The eight symmetries as the geometry says, written independently of TABLE."""
    m = n - 1
    return {
        "identity": (r, c),
        "rot90": (c, m - r),
        "rot180": (m - r, m - c),
        "rot270": (m - c, r),
        "flip-cols": (r, m - c),
        "flip-rows": (m - r, c),
        "transpose": (c, r),
        "anti-transpose": (m - c, m - r),
    }[name]


def test_the_table_and_the_compiled_transform_are_the_same_symmetries():
    """TABLE against the geometry, and the compiled canonical test (driven by TABLE's rows)
    against the Python one on every solution of n = 8, one symmetry at a time."""
    import numpy as np

    from nqueens_cp.backends.bitmask.kernels.canonical import count_canonical
    from nqueens_cp.model.symmetry import image_square, table_array

    for name in TABLE:
        assert all(image_square(name, 7, r, c) == _written_out(name, 7, r, c) for r in range(7) for c in range(7))
    sols = list(nq.solve(8))
    batch = np.array(sols, dtype=np.int16)
    for name in NAMES:
        group = ("identity", name)
        by_orbit = np.zeros(9, np.int64)
        count_canonical(batch, table_array(group), by_orbit)
        expected = Counter(2 // sum(transform(s, g) == s for g in group) for s in sols if canonical(s, group) == s)
        assert {k: int(v) for k, v in enumerate(by_orbit) if v} == dict(expected), name


# -- classes of pieces whose reflections can fix a solution: Burnside's lemma -------------------


def _written_image(name, n, m, r, c):
    """A symmetry of an m x n board (m = n, or only those that do not transpose), written out."""
    if m != n:
        return {"identity": (r, c), "rot180": (m - 1 - r, n - 1 - c), "flip-cols": (r, n - 1 - c),
                "flip-rows": (m - 1 - r, c)}[name]
    return _written_out(name, n, r, c)


def _classes_by_hand(p, sols, group):
    """{class size: classes} of the brute force's solutions, each orbit gathered by hand."""
    def image(sol, name):
        out = [0] * p.rows
        for r, c in enumerate(sol):
            r2, c2 = _written_image(name, p.n, p.rows, r, c)
            out[r2] = c2
        return tuple(out)

    remaining, sizes = set(sols), Counter()
    while remaining:
        s = remaining.pop()
        members = {image(s, g) for g in group}
        assert members <= sols | {s} | remaining | members
        remaining -= members
        sizes[len(members)] += 1
    return dict(sizes)


#: Pieces that keep all 8 symmetries, whose reflections can fix a solution (no diagonal rider).
SYMMETRIC_PIECES = ["R", "RF", "RN", "RC", "RW", "RA", "RZ", "RFN", "RNN", "RD"]


@st.composite
def symmetric_boards(draw):
    """Boards that keep a subgroup of the square's symmetries: blocked and fixed squares closed
    under a random one of them, sometimes a rectangle (its 4 symmetries that do not transpose)."""
    from nqueens_cp.model.symmetry import subgroups

    n = draw(st.integers(1, 7))
    rows = n if draw(st.booleans()) else draw(st.integers(1, n))
    piece = draw(st.sampled_from(SYMMETRIC_PIECES))
    names = NAMES if rows == n else ("identity", "rot180", "flip-cols", "flip-rows")
    group = draw(st.sampled_from(subgroups(names)))
    squares = [(r, c) for r in range(rows) for c in range(n)]

    def closed(picked):
        return sorted({_written_image(g, n, rows, r, c) for r, c in picked for g in group})

    blocked = closed(draw(st.lists(st.sampled_from(squares), max_size=2)))
    free = [sq for sq in squares if sq not in blocked]
    fixed = closed(draw(st.lists(st.sampled_from(free), max_size=1))) if free and draw(st.booleans()) else []
    return Problem(n, piece, blocked=blocked, fixed=[sq for sq in fixed if sq not in blocked], rows=rows)


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None)
@given(symmetric_boards())
def test_classes_counted_from_fixed_points_match_a_brute_force(p):
    """The engine counts these classes from the solutions each subgroup fixes; the brute force
    (the moves stepped on the board) gathers every orbit by hand."""
    sols = stepped(p)
    got = count_unique(p)
    assert got.total == len(sols)
    assert got.by_orbit == _classes_by_hand(p, sols, got.group), (p, got)


def test_rf_and_rook_classes_take_the_fixed_points_and_match_oeis():
    """`count 11 --piece RF --unique` took 185 s, testing each of 5,296,790 solutions."""
    b = nq.get_backend("bitmask")
    assert b.plan(Problem(11, "RF"), "unique").algorithm == "fixed-points"
    assert [count_unique(Problem(n, "rook")).unique for n in range(1, 11)] == A000903[:10]
    for n in (7, 8):  # (CP-SAT's classes test every one of its solutions in Python)
        assert count_unique(Problem(n, "RF")) == count_unique(Problem(n, "RF"), "cpsat")
