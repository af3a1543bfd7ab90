"""Counting by joining half-boards (join.py, issue 36), checked against OEIS A000170, against the
constellation counter, and item by item against an independent search restricted to the same
item: each top column set C as a board whose top rows may use only C and bottom rows only the
rest (blocked squares), counted by the engine's other searches."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import UnsupportedProblem, get_backend
from nqueens_cp.backends.bitmask import join
from nqueens_cp.backends.watch import NEVER
from tests.conftest import A000170, run


def _restricted(n: int, top_columns: int) -> Problem:
    """The board whose solutions are those with their top n // 2 queens on `top_columns`."""
    h = n // 2
    blocked = [(r, c) for r in range(n) for c in range(n) if ((top_columns >> c) & 1) != (r < h)]
    return Problem(n, blocked=blocked)


def _mirror(n: int, c: int) -> int:
    return sum(1 << (n - 1 - x) for x in range(n) if c >> x & 1)


@pytest.mark.parametrize("n", range(4, 15))
def test_the_join_counts_what_oeis_publishes(n):
    part = join.partition(Problem(n))
    assert sum(part.func(part.context, i) for i in range(part.size)) == A000170[n - 1]


@pytest.mark.parametrize("n", [9, 10])
def test_every_column_set_and_its_images_count_as_an_independent_search_says(n):
    """The symmetries the weights stand for, checked on every column set: C, its mirror image
    and (even n) its complement have equal counts, by a search that knows nothing of the join."""
    sets, weights = join.column_sets(n)
    full = (1 << n) - 1
    total = 0
    for c, w in zip(sets.tolist(), weights.tolist(), strict=True):
        alone = join.count_sets(n, np.array([c], np.uint64), np.ones(1, np.int64), NEVER)
        independent = nq.count(_restricted(n, c))
        assert alone == independent, (n, c)
        images = {c, _mirror(n, c)} | ({full ^ c, full ^ _mirror(n, c)} if n % 2 == 0 else set())
        assert len(images) == w
        assert all(nq.count(_restricted(n, image)) == independent for image in images)
        total += w * independent
    assert total == A000170[n - 1]


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("n", [18, 20])
def test_a_seeded_sample_of_large_items_recounts_exactly(n):
    part = get_backend("bitmask").partition(Problem(n))
    assert part.fingerprint["split"] == "join"
    weights = dict(zip(*(a.tolist() for a in join.column_sets(n)), strict=True))
    for i in random.Random(n).sample(range(part.size), 3):
        sets = part.info(i)["column_sets"]
        expected = sum(weights[c] * nq.count(_restricted(n, c)) for c in sets)
        assert part.func(part.context, i) == expected, i


def test_the_plan_names_the_join_where_it_serves():
    b = get_backend("bitmask")
    assert b.plan(Problem(18), "count").algorithm == "join"
    assert b.plan(Problem(17), "count").algorithm == "constellations"  # odd: one mirror only
    assert b.plan(Problem(16), "count").algorithm == "constellations"  # measured faster there
    assert b.plan(Problem(18, blocked=[(0, 0)]), "count").algorithm != "join"
    with pytest.raises(UnsupportedProblem, match="--depth applies to row splits"):
        b.partition(Problem(18), depth=3)
    r = run("count", 18, "--checkpoint", "/nonexistent/folder/c.jsonl")
    assert r.exit_code == 2
