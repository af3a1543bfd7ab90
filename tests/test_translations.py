"""A plain torus keeps n more symmetries than the square's 8: moving every piece one column
over. Counts pin the first row's piece to column 0 and weigh it n times (2n with the mirror on
row 1), on every runner; checked against OEIS A007705, the brute force of test_pieces, and the
constellations (another split of the same count)."""

import numpy as np
import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask.partitions import constellations as cs
from nqueens_cp.backends.bitmask.partitions import count_items, pieces
from nqueens_cp.backends.bitmask.tables import first_rows
from nqueens_cp.run.partition import CheckpointError, Partition, count_partitioned, pool_runner
from tests.conftest import A007705, count_any, run
from tests.test_pieces import brute_force


def test_toroidal_queens_count_as_oeis_a007705_by_translations():
    b = nq.get_backend("bitmask", workers=1)
    for n in (11, 13):
        p = Problem(n, torus=True)
        plan = b.plan(p, "count")
        assert plan.algorithm == "any-piece" and f"counted {n} times" in plan.reason, plan.reason
        assert b.count(p).count == A007705[n - 1]


@pytest.mark.slow
@pytest.mark.parametrize(
    "p",
    [
        Problem(7, torus=True),
        Problem(6, "RN", torus=True),
        Problem(7, "Rline(1,-1)", torus=True),  # no mirror: row 1 whole
        Problem(6, "QN", rows=4, torus=True),
        Problem(7, "R[2,1]+", rows=3, torus=True),
        Problem(5, "rook", rows=1, torus=True),
    ],
    ids=lambda p: f"{p.piece}-{p.shape}",
)
def test_translated_counts_against_the_brute_force(p):
    truth = len(brute_force(p))
    assert nq.count(p) == count_any(p, Deadline("t", None), {}) == truth
    subs = pieces.pairs(p)
    assert set(subs[:, 0].tolist()) == {0}  # the first row's piece in column 0 only
    part = pieces.items(p).partition()
    assert sum(part.func(part.context, i) for i in range(part.size)) == truth


def test_translations_search_a_fraction_of_the_constellations_nodes():
    p = Problem(13, torus=True)
    by_translations: dict[str, int] = {}
    assert count_any(p, Deadline("t", None), by_translations) == A007705[12]
    c = count_items(cs.items(p), 1, Deadline("t", None))
    assert c.count == A007705[12] and by_translations["nodes"] < c.nodes / 2


def test_first_rows_weights_cover_every_solution_once():
    """Each part's columns times its weight: on a torus, n images of every class of translations,
    the mirror pairing row 1's columns c and n - c."""
    every = (1 << 7) - 1
    assert first_rows(Problem(7, torus=True)) == [(1, 0b0001110, 14), (1, 0, 7)]
    assert first_rows(Problem(6, torus=True)) == [(1, 0b000110, 12), (1, 1 << 3, 6)]
    assert first_rows(Problem(7, "Rline(1,-1)", torus=True)) == [(1, every, 7)]
    assert first_rows(Problem(7)) == [(0b111, every, 2), (1 << 3, every, 1)]
    assert first_rows(Problem(7, blocked=[(0, 0)], torus=True)) == [(every, every, 1)]  # blocked: neither


def test_blocked_tori_and_superqueens_are_counted_not_enumerated():
    """They were counted by enumerating every solution; the generic kernel counts them (against
    CP-SAT; below n = 11 such boards are counted in Python)."""
    b = nq.get_backend("bitmask", workers=1)
    for p in (Problem(11, torus=True, blocked=[(0, 0)]), Problem(11, "superqueen", blocked=[(3, 3)])):
        assert b.plan(p, "count").algorithm == "any-piece"
        assert b.count(p).count == nq.count(p, "cpsat")


def test_a_checkpoint_of_another_numbering_of_first_rows_is_refused(tmp_path):
    p = Problem(11, torus=True)
    part = pieces.items(p).partition()
    assert part.fingerprint["sub_problems"] == pieces.digest(pieces.pairs(p))
    subs = pieces.pairs(p)[::-1]
    run, ctx = part.context
    ctx = (run, (*ctx[:3], np.ascontiguousarray(subs)))
    turned = Partition(
        part.fingerprint | {"sub_problems": pieces.digest(subs)}, part.size, part.func, ctx, part.prepare
    )
    ck = tmp_path / "c.jsonl"
    assert count_partitioned(turned, pool_runner(1), ck) == A007705[10]
    with pytest.raises(CheckpointError, match="sub_problems"):
        count_partitioned(part, pool_runner(1), ck)


def test_the_pool_and_a_checkpoint_count_a_torus_as_one_process(tmp_path):
    ck = tmp_path / "c.jsonl"
    r = run("count", 13, "--torus", "--workers", 2, "--checkpoint", ck)
    assert r.exit_code == 0 and r.stdout.strip() == str(A007705[12]), r.output
    assert run("count", 13, "--torus", "--checkpoint", ck, "--check").stdout.strip() == str(A007705[12])
    r = run("count", 9, "--piece", "RN", "--torus", "--workers", 2, "--json")
    assert r.exit_code == 0 and "counted 9 times" in r.stdout
