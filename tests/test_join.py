"""Counting by joining half-boards (kernels/join/, issue 36), checked against OEIS A000170, against the
constellation counter, and item by item against an independent search restricted to the same
item: each top column set C as a board whose top rows may use only C and bottom rows only the
rest (blocked squares), counted by the engine's other searches, and weighed as the join's
symmetries say from counts of that board with long diagonals blocked."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import BackendError, UnsupportedProblem, get_backend
from nqueens_cp.backends.bitmask.kernels import join
from nqueens_cp.backends.bitmask.kernels.join import bands, intrinsics, matcher, space, symmetry
from nqueens_cp.backends.bitmask.partitions import join as join_items
from nqueens_cp.backends.watch import NEVER
from tests.conftest import A000170, run


def _restricted(n: int, top_columns: int) -> Problem:
    """The board whose solutions are those with their top n // 2 queens on `top_columns`."""
    h = n // 2
    blocked = [(r, c) for r in range(n) for c in range(n) if ((top_columns >> c) & 1) != (r < h)]
    return Problem(n, blocked=blocked)


def _alone(n: int, c: int, weight: int) -> int:
    """The join's count of the column set c alone (its class, `weight` sets)."""
    sets, weights = np.array([c], np.uint64), np.array([weight], np.int64)
    return join.count_with(n, sets, weights, _band_tables(n), NEVER)


_TABLES: dict[int, tuple] = {}


def _band_tables(n: int) -> tuple:
    if n not in _TABLES:
        _TABLES[n] = join.band_tables(n)
    return _TABLES[n]


def _mirror(n: int, c: int) -> int:
    return sum(1 << (n - 1 - x) for x in range(n) if c >> x & 1)


@pytest.mark.parametrize("n", range(4, 15))
def test_the_join_counts_what_oeis_publishes(n):
    part = join_items.items(Problem(n)).partition()
    assert sum(part.func(part.context, i) for i in range(part.size)) == A000170[n - 1]


def _weighed(n: int, c: int, unoccupied: int) -> int:
    """What the join counts for top columns c under the long diagonals' symmetries, from the
    definition (kernels/join/symmetry.py: _count_set): solutions whose bottom half has no queen on a long diagonal
    (the centre aside), each weighing 2 per long diagonal its top half occupies, `unoccupied`
    when it occupies none. From four counts of restricted boards by inclusion-exclusion:
    t (any top), a (top main diagonal blocked), b (top anti-diagonal blocked), z (both):
    4 (t - a - b + z) + 2 (a - z) + 2 (b - z) + unoccupied z."""
    h = n // 2
    blocked = {(r, x) for r in range(h, n) for x in (r, n - 1 - r) if not (n % 2 and r == h)}
    main, anti = {(r, r) for r in range(h)}, {(r, n - 1 - r) for r in range(h)}

    def counted(extra: set[tuple[int, int]]) -> int:
        board = _restricted(n, c)
        return nq.count(Problem(n, blocked=sorted(set(board.blocked) | blocked | extra)))

    t, a, b, z = counted(set()), counted(main), counted(anti), counted(main | anti)
    return 4 * t - 2 * a - 2 * b + unoccupied * z


def _recounted(n: int, c: int, weight: int) -> int:
    """What join.count_with gives for c alone (its class, `weight` sets), by _weighed: on an
    even board c's class and its complement's are counted together, the solutions with no queen
    on a long diagonal once, twice, for c."""
    full = (1 << n) - 1
    if n % 2:
        return weight * _weighed(n, c, 1)
    mine = 1 if _mirror(n, c) == c else 2
    if full ^ c == _mirror(n, c):
        return mine * _weighed(n, c, 1)
    return mine * (_weighed(n, c, 2) + _weighed(n, full ^ c, 0))


@pytest.mark.parametrize("n", [9, 10])
def test_every_column_set_and_its_images_count_as_an_independent_search_says(n):
    """The symmetries the weights stand for, checked on every column set: C, its mirror image
    and (even n) its complement have equal counts, by a search that knows nothing of the join;
    and the join's count of C is what the long diagonals' symmetries make of those searches."""
    sets, weights = join_items.column_sets(n)
    full = (1 << n) - 1
    total = 0
    for c, w in zip(sets.tolist(), weights.tolist(), strict=True):
        alone = _alone(n, c, w)
        assert alone == _recounted(n, c, w), (n, c)
        independent = nq.count(_restricted(n, c))
        images = {c, _mirror(n, c)} | ({full ^ c, full ^ _mirror(n, c)} if n % 2 == 0 else set())
        assert len(images) == w
        assert all(nq.count(_restricted(n, image)) == independent for image in images)
        total += w * independent
    assert total == A000170[n - 1]


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("n", [18, pytest.param(20, marks=pytest.mark.long)])
def test_a_seeded_sample_of_large_items_recounts_exactly(n):
    """Column sets of seeded work items, each counted by the join alone and recounted by the
    independent search on restricted boards."""
    part = get_backend("bitmask").partition(Problem(n))
    assert part.fingerprint["split"] == "join"
    weights = dict(zip(*(a.tolist() for a in join_items.column_sets(n)), strict=True))
    draw = random.Random(n)
    for i in draw.sample(range(part.size), 2):
        for c in draw.sample(part.info(i)["column_sets"], 2):
            alone = _alone(n, c, weights[c])
            assert alone == _recounted(n, c, weights[c]), (i, c)


def test_the_plan_names_the_join_where_it_serves():
    b = get_backend("bitmask")
    assert b.plan(Problem(18), "count").algorithm == "join"
    assert b.plan(Problem(17), "count").algorithm == "join"
    assert b.plan(Problem(16), "count").algorithm == "join"
    assert b.plan(Problem(15), "count").algorithm == "constellations"  # measured faster there
    assert b.plan(Problem(18, blocked=[(0, 0)]), "count").algorithm != "join"
    with pytest.raises(UnsupportedProblem, match="--depth applies to row splits"):
        b.partition(Problem(18), depth=3)
    r = run("count", 18, "--checkpoint", "/nonexistent/folder/c.jsonl")
    assert r.exit_code == 2


def test_the_plan_declares_the_joins_memory_and_keeps_to_the_budget():
    """Memory is declared before it is allocated: the plan names it, takes fewer workers when
    the budget holds fewer, and counts by constellations when it holds none."""
    need = join_items.memory(22)
    assert need > join_items.memory(20) > join_items.memory(18) > 0
    roomy = get_backend("bitmask", workers=2, memory=4 * need).plan(Problem(22), "count")
    assert (roomy.algorithm, roomy.workers, roomy.memory) == ("join", 2, 2 * need)
    assert "per worker" in roomy.reason
    one = get_backend("bitmask", workers=2, memory=need + need // 2).plan(Problem(22), "count")
    assert (one.algorithm, one.workers, one.memory) == ("join", 1, need)
    assert "1 of 2 workers under the memory budget" in one.reason
    none = get_backend("bitmask", workers=2, memory=need // 2).plan(Problem(22), "count")
    assert none.algorithm == "constellations" and none.memory is None
    assert "over the memory budget" in none.reason
    with pytest.raises(BackendError, match="memory must be a positive number of bytes"):
        get_backend("bitmask", memory=-1).plan(Problem(22), "count")


def test_memory_on_the_command_line():
    r = run("count", 16, "--memory", "64M", "--json")  # the least a count keeps to; the join needs 68 MiB
    rec = json.loads(r.stdout)
    assert r.exit_code == 0 and rec["count"] == A000170[15] and rec["plan"]["algorithm"] == "constellations"
    r = run("count", 16, "--memory", "1.5GiB", "--json")
    rec = json.loads(r.stdout)
    assert rec["plan"]["algorithm"] == "join"
    assert rec["plan"]["memory"] == join_items.memory(16) * rec["plan"]["workers"]
    assert run("count", 12, "--memory", "lots").exit_code == 2
    assert run("count", 12, "--memory", "0").exit_code == 2
    assert run("count", 12, "-b", "cpsat", "--memory", "1G").exit_code == 2  # refused, not ignored


@pytest.mark.parametrize(
    ("given", "says"), [("1", "got 1 bytes"), ("10M", "got 10 MiB"), ("100T", "got 102,400.0 GiB")]
)
def test_a_memory_budget_no_plan_can_keep_is_refused(given, says):
    """`--memory 1` printed "0 MiB" and ran anyway; one above the machine's lifted the default."""
    r = run("count", 12, "--memory", given)
    assert r.exit_code == 2 and "memory must be between 64 MiB" in r.stderr and says in r.stderr, r.output


def test_a_stop_flag_ends_a_sets_listing_and_matching_inside_them():
    """At n = 24-26 one column set's lists hold millions of partials, so Ctrl-C and the deadline
    are looked at inside the listing and the matching, not only between sets."""
    n, h = 12, 6
    from numba.typed import List

    arrays = List(space.new_space())  # a typed list, as count_with makes it (a Python list is reflected)
    forbid, stopped = np.zeros(n, np.uint64), np.ones(2, np.int64)
    columns = np.uint64(0b100110101100)  # 6 of 12 columns with top partials
    upper, lower, _, _ = join.band_tables(n)
    top = bands.listed(n, h, 0, h, columns, forbid, upper, lower, arrays, space.SLOT_TOP, NEVER).copy()
    assert top.shape[0] > 0
    assert bands.listed(n, h, 0, h, columns, forbid, upper, lower, arrays, space.SLOT_TOP, stopped).shape[0] == 0
    bottom = symmetry.flipped(top, n, arrays, space.SLOT_FLIPPED_TOP).copy()
    ones = np.ones(top.shape[0], np.int64)
    assert matcher.matching(top, ones, bottom, ones, arrays, NEVER) > 0
    assert matcher.matching(top, ones, bottom, ones, arrays, stopped) == 0


@pytest.mark.parametrize("n", [12, 13])
def test_a_half_from_the_bands_listed_once_is_the_half_searched_for_its_columns(n):
    """Each band is listed once for all column sets (band_tables) where it is small, and
    searched per column set where it is not: both give a half the same partials, for every
    column set of both halves."""
    from numba.typed import List

    arrays = List(space.new_space())
    tables = join.band_tables(n)
    assert all(first.shape[0] > 0 for first, _, _ in tables[: 2 + 2 * (n % 2)])
    searched = (np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.uint64))
    h, forbid = n // 2, bands._bands(n)[1]
    halves = [(0, h, tables[0], tables[1])] + ([(h, n - h, tables[2], tables[3])] if n % 2 else [])
    sizes = []
    for r0, rows, upper, lower in halves:
        for columns in itertools.combinations(range(n), rows):
            c = np.uint64(sum(1 << x for x in columns))
            once = np.sort(bands.listed(n, h, r0, rows, c, forbid, upper, lower, arrays, space.SLOT_TOP, NEVER))
            each = np.sort(bands.listed(n, h, r0, rows, c, forbid, searched, searched, arrays, space.SLOT_TOP, NEVER))
            assert np.array_equal(once, each), (r0, columns)
            sizes.append(once.shape[0])
    assert max(sizes) > 0


@pytest.mark.parametrize(("seed", "small", "big", "levels", "density", "width"), [
    (1, 7, 40, 1, 0.2, 38),  # no cut bits, one part-filled block (2n - 2 diagonals at n = 20)
    (2, 300, 3000, 1, 0.12, 38),  # a few cut bits, several blocks per bucket
    (3, 500, 6000, 5, 0.1, 38),  # weights spread the buckets over levels
    (4, 200, 2500, 2, 0.4, 38),  # dense words: few pairs match
    (5, 300, 3000, 2, 0.05, 64),  # every bit: the most chunks the inner loop is unrolled for
])
def test_the_matcher_counts_the_disjoint_pairs_a_direct_check_counts(seed, small, big, levels, density, width):
    """The matcher (sieve, AND tables, the vector inner loop) against every pair tested directly,
    on random signatures and weights: the count is the weighed number of pairs sharing no bit."""
    from numba.typed import List

    rng = np.random.default_rng(seed)

    def signatures(size: int) -> np.ndarray:
        bits = rng.random((size, width)) < density
        return (bits.astype(np.uint64) << np.arange(width, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)

    a, b = signatures(small), signatures(big)
    a_weight = rng.integers(1, 3, small).astype(np.int64)
    b_weight = rng.choice(np.arange(1, 8)[:levels], big).astype(np.int64)
    expected = sum(int(a_weight[i]) * int(b_weight[(a[i] & b) == 0].sum()) for i in range(small))
    assert expected > 0
    arrays = List(space.new_space())
    assert matcher.matching(a, a_weight, b, b_weight, arrays, NEVER) == expected


@pytest.mark.parametrize("packs", [False, True])
@pytest.mark.parametrize(("seed", "upper", "lower"), [(1, 1, 1), (2, 3, 5), (3, 7, 4), (4, 40, 41), (5, 9, 0)])
def test_the_bands_scan_keeps_the_pairs_a_direct_check_keeps(packs, seed, upper, lower):
    """Both scans of listed (the scalar one, and the one packing four pairs with an AVX2
    permute, used where the CPU has it), on random words, against every pair tested directly:
    the same joined words in the same order, after the words already there."""
    if packs and not intrinsics._PACKS:
        pytest.skip("this CPU has no AVX2")
    rng = np.random.default_rng(seed)

    def words(size: int) -> np.ndarray:
        bits = rng.random((size, 30)) < 0.3
        return (bits.astype(np.uint64) << np.arange(30, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)

    a, sa, b, sb = words(upper + 2), words(upper + 2), words(lower + 3), words(lower + 3)
    expected = [int(sa[i] | sb[j]) for i in range(1, upper + 1) for j in range(2, lower + 2) if a[i] & b[j] == 0]
    out = np.zeros(upper * lower + 8, np.uint64)
    out[:2] = 7
    k = bands._paired(a, sa, b, sb, out, 2, 1, upper + 1, 2, lower + 2, packs)
    assert k == 2 + len(expected) and out[:k].tolist() == [7, 7, *expected]


_SCAN_WITHOUT_AVX2 = """
import numpy as np
from nqueens_cp.backends.bitmask.kernels.join import bands, intrinsics
rng = np.random.default_rng(7)
a, sa, b, sb = (rng.integers(0, 1 << 30, 9).astype(np.uint64) for _ in range(4))
out = np.zeros(90, np.uint64)
k = bands._paired(a, sa, b, sb, out, 0, 0, 9, 0, 9, True)
expected = [int(sa[i] | sb[j]) for i in range(9) for j in range(9) if a[i] & b[j] == 0]
print(intrinsics._PACKS, out[:k].tolist() == expected)
"""


@pytest.mark.timeout(300)
def test_the_packed_scan_compiles_for_a_cpu_without_avx2(tmp_path):
    """A target without AVX2 (a generic x86-64, as a cache made for other machines names it)
    must not meet the AVX2 permute: LLVM cannot compile it there, even in a branch never taken.
    The scan is compiled for that target in a fresh process and cache, and checked."""
    import os
    import platform
    import subprocess
    import sys

    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("an x86-64 target")
    env = {**os.environ, "NUMBA_CPU_NAME": "x86-64", "NUMBA_CPU_FEATURES": "", "NUMBA_CACHE_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", _SCAN_WITHOUT_AVX2], env=env, capture_output=True, text=True, timeout=280)
    assert r.returncode == 0 and r.stdout.split() == ["False", "True"], r.stderr[-2000:]


_MATCHER_ON_AVX2 = """
import numpy as np
from numba.typed import List
from nqueens_cp.backends.bitmask.kernels.join import intrinsics, matcher, space
from nqueens_cp.backends.watch import NEVER
rng = np.random.default_rng(7)
def signatures(size):
    bits = rng.random((size, 38)) < 0.12
    return (bits.astype(np.uint64) << np.arange(38, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
a, b = signatures(300), signatures(3000)
a_weight, b_weight = rng.integers(1, 3, 300).astype(np.int64), rng.integers(1, 5, 3000).astype(np.int64)
expected = sum(int(a_weight[i]) * int(b_weight[(a[i] & b) == 0].sum()) for i in range(300))
print(intrinsics.BLOCK, matcher.matching(a, a_weight, b, b_weight, List(space.new_space()), NEVER) == expected)
"""

#: Haswell's features: AVX2 and no AVX-512.
_HASWELL = "+avx,+avx2,+bmi,+bmi2,+cx16,+f16c,+fma,+lzcnt,+movbe,+popcnt,+sse4.1,+sse4.2,+ssse3"


@pytest.mark.long
@pytest.mark.timeout(300)
def test_the_matcher_counts_right_with_the_narrower_block_of_a_cpu_without_avx512(tmp_path):
    """The matcher's block is 8 words where the target has AVX-512 and 4 where it has only AVX2.
    The other tests run the block this machine chooses; here the 4-word block is compiled for
    an AVX2 target, in a fresh process and cache, and checked against a direct count. (`long`:
    it compiles the matcher afresh for another CPU, 7 s on every run; `--full` keeps it.)"""
    import os
    import platform
    import subprocess
    import sys

    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("an x86-64 target")
    env = {**os.environ, "NUMBA_CPU_NAME": "haswell", "NUMBA_CPU_FEATURES": _HASWELL, "NUMBA_CACHE_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", _MATCHER_ON_AVX2], env=env, capture_output=True, text=True, timeout=280)
    assert r.returncode == 0 and r.stdout.split() == ["4", "True"], r.stderr[-2000:]


@pytest.mark.parametrize("n", range(4, 15))
def test_the_column_sets_are_one_of_each_class_as_a_plain_enumeration_finds_them(n):
    """kernels/join/column_sets.py against a plain reference: every set of n // 2 columns, kept
    where it is the smallest of its images under the left-right mirror (and, on an even board,
    the complement, the top-bottom mirror's image), weighed by how many images it has."""
    full = (1 << n) - 1
    expected = {}
    for cols in itertools.combinations(range(n), n // 2):
        c = sum(1 << x for x in cols)
        images = {c, _mirror(n, c)} | ({full ^ c, full ^ _mirror(n, c)} if n % 2 == 0 else set())
        if c == min(images):
            expected[c] = len(images)
    sets, weights = join_items.column_sets(n)
    assert dict(zip(sets.tolist(), weights.tolist(), strict=True)) == expected
    assert sets.tolist() == sorted(expected)


def test_the_memory_table_takes_the_bands_bound_from_the_kernels():
    """partitions/join.py writes what finding out a band's size holds as a literal, so that
    planning imports no numba."""
    assert join_items.OVER_LISTED_BYTES == 3 * 8 * bands.MOST_LISTED_ONCE


@pytest.mark.long
def test_the_memory_table_counts_the_band_placements_the_kernels_list_once():
    """The placements the memory table declares for the bands listed once are those the kernels
    list, at every board size of the join's range."""
    for n, tuning in join_items.TUNING.items():
        listed = sum(seen.shape[0] for _, seen, _ in join.band_tables(n))
        assert listed == tuning.listed_once, n
