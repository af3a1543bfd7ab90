"""The join on boards of fewer rows than columns (kernels/join/rectangles.py), checked against
OEIS A319284 (the backtrack tree's nodes at depth m are the placements on the m x n board), and,
top set by top set, against an independent search restricted to each pair of top and bottom
columns, weighed by the classes of such pairs under the rectangle's mirrors as computed here."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import get_backend
from nqueens_cp.backends.bitmask.kernels import join
from nqueens_cp.backends.bitmask.partitions import constellations
from nqueens_cp.backends.bitmask.partitions import join as join_items
from nqueens_cp.backends.watch import NEVER
from tests.conftest import benchmark, oeis, run
from tests.test_join import _mirror


def _tree_row(n: int) -> list[int]:
    """Row n of A319284 (n + 1 entries, rows read one after the other from row 0)."""
    flat = oeis("A319284")
    start = n * (n + 1) // 2
    return flat[start : start + n + 1]


def _summed(problem: Problem) -> int:
    part = join_items.items(problem).partition()
    assert part.fingerprint["split"] == "join"
    return sum(part.func(part.context, i) for i in range(part.size))


@pytest.mark.parametrize("n", range(2, 13))
def test_the_join_counts_every_rectangle_as_oeis_publishes(n):
    row = _tree_row(n)
    assert [_summed(Problem(n, rows=m)) for m in range(1, n)] == row[1:n]


def _restricted(n: int, m: int, top: int, bottom: int) -> Problem:
    """The m x n board whose top m // 2 rows may use only the columns `top`, the rest only `bottom`."""
    h = m // 2
    blocked = [(r, c) for r in range(m) for c in range(n) if not ((top if r < h else bottom) >> c & 1)]
    return Problem(n, rows=m, blocked=blocked)


@pytest.mark.parametrize(("n", "m"), [(9, 7), (9, 8), (8, 5)])
def test_each_top_set_counts_the_classes_of_pairs_an_independent_search_counts(n, m):
    """For every top set C the kernel lists, its count is the sum over the bottom column sets D
    of the searched count of (C, D), where (C, D) is the smallest of its images under the
    left-right mirror (and the top-bottom one, which swaps C and D, with an even m), times the
    number of images; the sets are those no larger than their mirror image; and all of it adds
    up to the whole count."""
    h = m // 2
    expected = sorted(
        c for c in (sum(1 << x for x in cols) for cols in itertools.combinations(range(n), h)) if c <= _mirror(n, c)
    )
    sets = join_items.rectangle_sets(m, n)
    assert sets.tolist() == expected
    total = 0
    for c in expected:
        alone = join.count_rectangles(m, n, np.array([c], np.uint64), NEVER)
        want = 0
        rest = [x for x in range(n) if not c >> x & 1]
        for cols in itertools.combinations(rest, m - h):
            d = sum(1 << x for x in cols)
            images = {(c, d), (_mirror(n, c), _mirror(n, d))}
            if m % 2 == 0:
                images |= {(d, c), (_mirror(n, d), _mirror(n, c))}
            if (c, d) == min(images):
                want += len(images) * nq.count(_restricted(n, m, c, d))
        assert alone == want, c
        total += alone
    assert total == _tree_row(n)[m]


def test_the_plan_takes_the_join_on_the_rectangles_it_was_measured_faster_on():
    b = get_backend("bitmask")
    for m in (16, 17):
        plan = b.plan(Problem(18, rows=m), "count")
        assert plan.algorithm == "join" and plan.memory == join_items.memory(18, m) * plan.workers
    assert b.plan(Problem(18, rows=15), "count").algorithm == "constellations"  # measured slower there
    assert b.plan(Problem(17, rows=15), "count").algorithm == "constellations"
    assert b.plan(Problem(16, rows=15), "count").algorithm == "constellations"
    roomy = get_backend("bitmask", workers=2, memory=2 * join_items.memory(21, 19))  # any machine's plan
    for m, algorithm in ((16, "constellations"), (17, "constellations"), (18, "join"), (19, "join"), (20, "join")):
        assert roomy.plan(Problem(21, rows=m), "count").algorithm == algorithm, m  # measured at n = 21
    assert b.plan(Problem(18, rows=17, blocked=[(0, 0)]), "count").algorithm != "join"
    assert b.plan(Problem(18, "rook", rows=17), "count").algorithm != "join"
    assert b.plan(Problem(18, rows=17, torus=True), "count").algorithm != "join"
    assert all(m < n and join_items.memory(n, m) > 0 for m, n in join_items.RECTANGLES)


@pytest.mark.long
@pytest.mark.timeout(300)
def test_a_rectangle_counted_by_the_join_on_the_command_line_is_the_constellations_count():
    """The smallest rectangle the plan joins, end to end (some 25 s of one core for the two
    counts, so `--full` runs it; the tests above hold the join's counts on smaller boards)."""
    r = run("count", 17, "--rows", "16", "--workers", "2", "--json")
    rec = json.loads(r.stdout)
    assert r.exit_code == 0 and rec["plan"]["algorithm"] == "join", r.output
    part = constellations.items(Problem(17, rows=16)).partition()
    assert rec["count"] == sum(part.func(part.context, i) for i in range(part.size))


@pytest.mark.long
@pytest.mark.timeout(1200)
def test_the_memory_table_holds_the_longest_bottom_list_of_its_seeded_sample():
    """RECTANGLES is what bench_rectangles.py --longest measures: the most placements of the
    bottom rows among 300 seeded top sets."""
    bench = benchmark("bench_rectangles")
    for (m, n), longest in join_items.RECTANGLES.items():
        sets = join_items.rectangle_sets(m, n)
        sample = random.Random(n * 100 + m).sample(sets.tolist(), min(300, sets.shape[0]))
        assert max(bench.bottoms(m, n, c) for c in sample) == longest, (m, n)
