"""The cross-check (issue 3): the three backends agree, and verify catches a broken one."""

import json
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import BackendError
from nqueens_cp.backends.bitmask import BitmaskBackend
from nqueens_cp.check.verify import prefixes, verify, verify_partition
from nqueens_cp.io.formats import read_model
from tests.conftest import (
    A000170,
    CSPLIB_DIR,
    brute_force_problem,
    csplib_cases,
    csplib_counts,
    examples,
    problem_strategy,
    run,
)


class DropsOne(BitmaskBackend):
    """A test double: the bitmask backend losing its third solution."""

    name = "drops-one"

    def _batches(self, problem: Problem, plan, stats) -> Iterator[np.ndarray]:
        before = 0  # (the solutions in earlier arrays)
        for batch in super()._batches(problem, plan, stats):
            third = 2 - before
            before += len(batch)
            yield np.delete(batch, third, axis=0) if 0 <= third < len(batch) else batch

    def _count(self, problem: Problem, plan) -> nq.Outcome:
        return self.count_by_enumeration(problem)


class Fails(BitmaskBackend):
    """A test double: the bitmask backend whose solver fails as it starts."""

    name = "fails"

    def _batches(self, problem: Problem, plan, stats) -> Iterator[np.ndarray]:
        raise BackendError("fails: the solver crashed")


class AltersOne(BitmaskBackend):
    """A test double: the bitmask backend returning one solution with two rows swapped."""

    name = "alters-one"

    def _batches(self, problem: Problem, plan, stats) -> Iterator[np.ndarray]:
        for i, batch in enumerate(super()._batches(problem, plan, stats)):
            if i == 0:
                batch = batch.copy()
                batch[0, :2] = batch[0, 1::-1]
            yield batch


@pytest.mark.long
@pytest.mark.slow
@settings(max_examples=examples(30))  # every backend: 2 s each
@given(problem_strategy(8))
def test_three_backends_agree_on_random_problems(p):
    verdict = verify(p)
    assert verdict.agree, verdict.describe()
    counts = {r.count for r in verdict.runs}
    if p.n <= 7:
        assert counts == {len(brute_force_problem(p))}


@pytest.mark.slow
@pytest.mark.parametrize(  # every backend on all 116 in --full; every tenth in the quick line
    "name", [n if k % 10 == 0 else pytest.param(n, marks=pytest.mark.long) for k, n in enumerate(csplib_cases())]
)
def test_three_backends_agree_on_csplib_instances(name):
    p = read_model(CSPLIB_DIR / name)
    verdict = verify(p)
    assert verdict.agree, verdict.describe()
    assert verdict.runs[0].count == csplib_counts()[name]


def test_verify_names_a_missed_solution():
    p = Problem(6)
    third = list(nq.solve(p))[2]
    verdict = verify(p, ["bitmask", DropsOne()])
    assert not verdict.agree
    dropped = verdict.runs[1]
    assert dropped.count == 3 and dropped.missed == [(third, "bitmask")]
    assert f"drops-one missed {list(third)} (found by bitmask)" in verdict.describe()


def test_verify_names_an_invalid_solution():
    verdict = verify(Problem(6), ["cpsat", AltersOne()])
    assert not verdict.agree
    bad = verdict.runs[1]
    assert len(bad.invalid) == 1 and "share" in bad.invalid[0][1]
    assert bad.count is None  # its stream stopped at the wrong answer: no count is claimed


def test_verify_says_one_solution_and_a_failed_run_in_words():
    """Its lines read "1 solutions" where one board has one, "error solutions" for a run that
    failed, and "None solutions" for one stopped at a wrong answer."""
    assert verify(Problem(1), ["bitmask", "cpsat"]).describe()[0].startswith("bitmask: 1 solution in ")
    lines = verify(Problem(6), ["bitmask", Fails()]).describe()
    assert lines[1].startswith("fails: an error in ") and "fails failed: " in "\n".join(lines), lines
    lines = verify(Problem(6), ["cpsat", AltersOne()]).describe()
    assert lines[1].startswith("alters-one: stopped at a wrong answer in ") and "returned invalid" in lines[2], lines


def test_partition_verify_agrees_and_catches_a_broken_backend():
    good = verify_partition(Problem(9), ["bitmask", "cpsat", "constraint"], depth=2)
    assert good.agree and good.runs[0].count == A000170[8]
    # two rows: n*n placements, minus n sharing a column, minus 2(n-1) touching diagonally
    assert good.prefixes == len(list(prefixes(Problem(9), 2))) == 81 - 9 - 16
    # The double drops the third solution of each sub-problem: every prefix with >= 3
    # completions must be named, with counts one apart, and no other prefix.
    bad = verify_partition(Problem(7), ["bitmask", DropsOne()], depth=1)
    assert not bad.agree
    per_column = [sum(1 for s in brute_force_problem(Problem(7)) if s[0] == c) for c in range(7)]
    assert [p for p, _ in bad.prefix_disagreements] == [((0, c),) for c in range(7) if per_column[c] >= 3]
    assert all(c["drops-one"] == c["bitmask"] - 1 for _, c in bad.prefix_disagreements)


def test_partition_sample_is_seeded():
    a = verify_partition(Problem(11), ["bitmask", "cpsat"], depth=3, sample=5, seed=7)
    b = verify_partition(Problem(11), ["bitmask", "cpsat"], depth=3, sample=5, seed=7)
    assert a.agree and a.prefixes == 5 and a.runs[0].count == b.runs[0].count


@pytest.mark.slow
def test_cpsat_time_limit_is_never_a_count():
    with pytest.raises(nq.TimeLimitReached):
        nq.count(13, backend="cpsat", time_limit=0.05)
    with pytest.raises(nq.TimeLimitReached):
        list(nq.solve(13, backend="cpsat", time_limit=0.05))
    verdict = verify(13, ["bitmask", nq.get_backend("cpsat", time_limit=0.05)])
    assert not verdict.agree and not verdict.disagree and verdict.unknown
    assert verdict.runs[1].unknown == "time limit" and verdict.runs[1].error is None
    assert verdict.describe()[-1].startswith("unknown")


@pytest.mark.slow
def test_a_time_limit_in_verify_bounds_every_backend_and_leaves_out_those_it_cannot_bound():
    verdict = verify(14, ["bitmask", "cpsat"], time_limit=0.5)
    assert verdict.unknown and not verdict.disagree
    assert all(r.unknown == "time limit" and r.seconds < 3 for r in verdict.runs)
    assert "constraint" not in {r.backend for r in verify(6, time_limit=5).runs}
    with pytest.raises(nq.UnsupportedProblem, match="cannot honour"):
        verify(6, ["bitmask", "constraint"], time_limit=5)


def test_what_a_stopped_run_found_is_still_checked():
    """A backend that lost a solution disagrees even when the other one was stopped early."""
    verdict = verify(8, [DropsOne(), nq.get_backend("bitmask")], time_limit=60)
    assert verdict.disagree


@pytest.mark.timeout(60)
def test_cpsat_stream_can_be_abandoned():
    it = nq.solve(12, backend="cpsat")
    assert Problem(12).is_solution(next(it))
    it.close()  # stops the solver thread; must not hang


@pytest.mark.parametrize("n", [3, 6])
def test_a_fully_blocked_row_has_no_solution_on_every_backend(n):
    """CP-SAT rejects an empty domain as an invalid model; that must read as no solution, never
    as a time limit (found by hypothesis)."""
    p = Problem(n, blocked=[(1, c) for c in range(n)])
    verdict = verify(p)
    assert verdict.agree, verdict.describe()
    assert {r.count for r in verdict.runs} == {0}
    assert nq.first(p, "cpsat") is None


def test_verify_says_which_backends_it_left_out_and_why():
    """verify dropped backends without saying which and why; --json had no plan."""
    r = run("verify", 6, "--time-limit", 5)
    assert r.exit_code == 0 and "left out: constraint (its search cannot be stopped at a time limit)" in r.stdout
    r = run("verify", 6, "--time-limit", 5, "--json")
    record = json.loads(r.stdout)
    assert {"backend": "constraint", "why": "its search cannot be stopped at a time limit"} in record["left_out"]
    assert all(run_["plan"] and run_["version"] for run_ in record["runs"])


def test_verify_takes_every_backend_s_own_options():
    """verify took no solver options: --sat-solver was spelled out for solve, count and first."""
    r = run("verify", 6, "--backends", "sat,bitmask", "--sat-solver", "glucose4", "--json")
    assert r.exit_code == 0, r.output
    runs = {x["backend"]: x for x in json.loads(r.stdout)["runs"]}
    assert runs["sat"]["plan"] == "sat-glucose4" and runs["bitmask"]["count"] == 4


def test_an_option_for_another_task_is_refused_not_dropped():
    r = run("count", 8, "--unique", "--memory", "1G")
    assert r.exit_code == 2 and "--memory applies to count, not unique" in r.stderr
    assert "--memory" not in run("first", "--help").stdout


@pytest.mark.timeout(60)  # without the refusal, bitmask enumerates the 201-queens solutions for ever
def test_a_named_backend_that_cannot_run_the_problem_is_refused_not_a_disagreement():
    """verify with a named backend that cannot model the board (or honour an option for this
    task) said DISAGREE, exit 1: nothing disagreed, the command must change (exit 2)."""
    r = run("verify", 201, "--backends", "bitmask,constraint")
    assert r.exit_code == 2 and "200 columns" in r.stderr and "DISAGREE" not in r.stdout
    r = run("verify", 6, "--backends", "bitmask,cpsat", "--memory", "1G")
    assert r.exit_code == 2 and "--memory applies to count" in r.stderr
    assert run("verify", 6, "--backends", "bitmask,cpsat", "--memory", "1G", "--depth", "2").exit_code == 0


class SlowToLoad(BitmaskBackend):
    """A test double: the bitmask backend whose first search in a process pays 2 s of loading."""

    name = "slow-to-load"
    loaded = False

    def _batches(self, problem: Problem, plan, stats) -> Iterator[np.ndarray]:
        if not SlowToLoad.loaded:
            import time

            time.sleep(2.0)
            SlowToLoad.loaded = True
        yield from super()._batches(problem, plan, stats)


def test_verify_times_each_run_alone_not_its_loading():
    """verify's times included each backend's start-up: our engine looked 40x slower than
    CP-SAT on 8 x 8. A smaller board of the kind runs first, untimed."""
    verdict = verify(Problem(8), [SlowToLoad(), "bitmask"])
    assert verdict.agree and SlowToLoad.loaded
    assert verdict.runs[0].seconds < 1.5, verdict.describe()
