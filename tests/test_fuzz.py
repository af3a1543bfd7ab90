"""The fuzzer (issue 49): buggy solvers of our own, each caught and shrunk to a 1-minimal board,
and a correct one with no false alarm over a long campaign. Minimality is checked here on its
own: every board one step smaller (a blocked square or a pre-placed piece left out, a row and a
column cut from any corner) is judged again, and none may keep the finding."""

from __future__ import annotations

import contextlib
import json
import random
import sys
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.constraint import ConstraintBackend
from nqueens_cp.check import fuzz as fz
from tests.conftest import brute_force_problem, examples, on_a_terminal, run

SOLVER = Path(__file__).parent / "data" / "fuzz_solver.py"

pytestmark = pytest.mark.timeout(600)

#: The cases of seconds that check again what a quicker case checks (the full line runs them).
LONG = pytest.mark.long


def _command(bug: str, task: str) -> str:
    return f"{sys.executable} {SOLVER} {bug} {{model}} {task}"


def _fuzz(bug: str, task: str, *extra: str):
    args = ["fuzz", "--against", _command(bug, task), "--task", task, "--max-n", "10", "--json"]
    r = run(*args, "--time-limit", "300", "--instance-limit", "30", *extra)
    return r, json.loads(r.stdout) if r.stdout.strip() else None


def _board(example: dict) -> Problem:
    return Problem(
        example["n"],
        example["piece"],
        blocked=[tuple(sq) for sq in example["blocked"]],
        fixed=[tuple(sq) for sq in example["fixed"]],
        torus=example["torus"],
        rows=example["rows"],
    )


def _one_step_smaller(p: Problem) -> list[Problem]:
    """Written apart from fuzz.smaller: a square board less one row and one column at each
    corner, and each blocked square or pre-placed piece left out."""
    out = []
    for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)):
        k = p.n - 1

        def moved(squares, dr=dr, dc=dc, k=k):
            return [(r - dr, c - dc) for r, c in squares if 0 <= r - dr < k and 0 <= c - dc < k]

        if k >= 1:
            with contextlib.suppress(nq.InvalidProblem):
                out.append(Problem(k, blocked=moved(p.blocked), fixed=moved(p.fixed)))
    for i in range(len(p.blocked)):
        out.append(Problem(p.n, blocked=p.blocked[:i] + p.blocked[i + 1 :], fixed=p.fixed))
    for i in range(len(p.fixed)):
        out.append(Problem(p.n, blocked=p.blocked, fixed=p.fixed[:i] + p.fixed[i + 1 :]))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bug", "task", "holds"),
    [
        ("fixed", "solve", lambda p: len(p.fixed) >= 1),  # a skipped check
        ("mirror", "solve", lambda p: len(p.blocked) + len(p.fixed) >= 1),  # a wrong symmetry shortcut
        pytest.param("bits8", "solve", lambda p: p.n >= 9 and p.is_plain, marks=LONG),  # a bit-width bug
        ("last-row", "count", lambda p: any(r == p.rows - 1 for r, _ in p.blocked)),  # a case forgotten
        pytest.param("fixed", "first", lambda p: len(p.fixed) >= 1, marks=LONG),
        pytest.param("mirror", "count", lambda p: len(p.blocked) + len(p.fixed) >= 1, marks=LONG),
    ],
)
def test_each_buggy_solver_is_caught_and_shrunk_to_a_1_minimal_board(bug, task, holds, tmp_path):
    out = tmp_path / "counterexample.txt"
    r, record = _fuzz(bug, task, "--seed", "3", "-o", str(out))
    assert r.exit_code == 1, r.output
    assert record["status"] == "counterexample" and record["counterexample"]["minimal"], record
    p = _board(record["counterexample"])
    assert holds(p), p
    subject = fz.ProgramSubject(_command(bug, task), task, nq.get_backend("bitmask"), 30.0)
    try:
        assert subject.judge(p) is not None
        for smaller in _one_step_smaller(p):
            assert subject.judge(smaller) is None, smaller
    finally:
        subject.close()
    # the file it wrote reproduces the disagreement through verify
    again = run("verify", "--model", out, "--against", _command(bug, task), "--task", task)
    assert again.exit_code == 1, again.output


@pytest.mark.slow
@pytest.mark.parametrize("task", ["solve", pytest.param("count", marks=LONG), pytest.param("first", marks=LONG)])
def test_a_correct_solver_gives_no_false_alarm_over_a_long_campaign(task):
    r, record = _fuzz("none", task, "--instances", str(examples(300)), "--seed", "11")
    assert r.exit_code == 0, r.output
    assert record["status"] == "none found" and record["instances"] == examples(300)
    assert set(record["families"]) == {"plain", "blocked", "fixed", "no solution"}


def test_the_same_seed_draws_the_same_boards_and_the_draw_favours_the_edges():
    f = fz.Families(max_n=12)
    one = [fz.draw(random.Random(5), f) for _ in range(1)]
    assert one == [fz.draw(random.Random(5), f) for _ in range(1)]
    rng = random.Random(1)
    drawn = [fz.draw(rng, f) for _ in range(3000)]
    sizes = [p.n for _, p in drawn]
    uniform = len(drawn) / 12
    assert min(sizes.count(8), sizes.count(9), sizes.count(1)) > 1.2 * uniform
    blocked = [p for family, p in drawn if family == "blocked"]
    edge = sum(any(r in (0, p.rows - 1) for r, _ in p.blocked) for p in blocked)
    assert edge > 0.6 * len(blocked)
    assert any(len({r for r, _ in p.blocked}) < len(p.blocked) for p in blocked)  # several in one row
    fixed = [p for family, p in drawn if family == "fixed" and p.blocked]
    beside = sum(any(max(abs(r - br), abs(c - bc)) == 1 for r, c in p.fixed for br, bc in p.blocked) for p in fixed)
    assert beside > 0.5 * len(fixed)
    none = [p for family, p in drawn if family == "no solution"]
    assert none and all(nq.count(p) == 0 for p in none[:50])


def test_the_draw_holds_boards_whose_pre_placed_pieces_contradict_them():
    """Pieces pre-placed on a blocked square, or two in one row or column: no solution by the
    rules alone, which `--unique` once answered otherwise. Drawn for our backends alone (a
    board file holds one of X and Q a square)."""
    rng = random.Random(3)
    drawn = [p for family, p in (fz.draw(rng, fz.Families(max_n=9, overlap=True)) for _ in range(2000))]
    on_block = [p for p in drawn if set(p.fixed) & set(p.blocked)]
    in_a_row = [p for p in drawn if len({r for r, _ in p.fixed}) < len(p.fixed)]
    assert len(on_block) > 20 and len(in_a_row) > 20
    assert all(p.contradiction and not brute_force_problem(p) for p in on_block[:20] + in_a_row[:20])
    rng = random.Random(3)
    assert not any(set(p.fixed) & set(p.blocked) for _, p in (fz.draw(rng, fz.Families(max_n=9)) for _ in range(500)))


def test_the_symmetry_classes_of_every_backend_hold_over_a_campaign():
    """Our backends' `--unique` judged against the engine's, contradictions drawn among them."""
    oracle = nq.get_backend("bitmask")
    subject = fz.BackendSubject(ConstraintBackend(), "unique", oracle)
    campaign = fz.fuzz(subject, fz.Families(max_n=7, overlap=True), seed=1, budget=120, instances=200)
    assert campaign.found is None, campaign.found


class _DropsTheLastRowsCorner(ConstraintBackend):
    """A backend wrong in one case: it loses the solutions with a queen in the last row's first column."""

    def _solutions(self, problem, plan, stats):
        for sol in super()._solutions(problem, plan, stats):
            if not (problem.rows >= 5 and sol[-1] == 0):
                yield sol


def test_a_wrong_backend_is_found_and_shrunk_the_same_way():
    oracle = nq.get_backend("bitmask")
    subject = fz.BackendSubject(_DropsTheLastRowsCorner(), "count", oracle)
    campaign = fz.fuzz(subject, fz.Families(max_n=8), seed=2, budget=120)
    assert campaign.found is not None and campaign.found.minimal
    p = campaign.found.problem
    assert campaign.found.finding.kind == "wrong count" and p.n == 5 and p.is_plain, p


@pytest.mark.slow
def test_our_backends_agree_with_the_engine_over_a_campaign():
    r = run(
        "fuzz",
        "--backends",
        "cpsat,constraint,sat",
        "--task",
        "count",
        "--max-n",
        "8",
        "--instances",
        "40",
        "--json",
        "--time-limit",
        "300",
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["instances"] == 40


@pytest.mark.long
@pytest.mark.slow
def test_a_program_that_hangs_or_crashes_is_a_finding_too(tmp_path):
    script = tmp_path / "flaky.py"
    script.write_text(
        "import sys, time\n"
        "n = int(sys.argv[1])\n"
        "if n >= 7: time.sleep(60)\n"
        "if n == 3: raise SystemExit('no idea')\n"
        "print(0 if n in (2, 3) else 1)\n"
    )
    r = run(
        "fuzz",
        "--against",
        f"{sys.executable} {script} {{n}}",
        "--task",
        "count",
        "--no-blocked",
        "--no-fixed",
        "--json",
        "--instance-limit",
        "2",
        "--seed",
        "4",
        "--time-limit",
        "120",
    )
    record = json.loads(r.stdout)
    assert r.exit_code == 1 and record["counterexample"]["verdict"] in ("hung", "crashed", "wrong count"), record


def test_fuzz_takes_one_subject_and_known_tasks():
    for args, says in (
        ([], "--against CMD or --backends"),
        (["--against", "x", "--backends", "cpsat"], "one of them"),
        (["--against", "x", "--task", "all"], "--task must be"),
        (["--backends", "bitmask"], "the oracle"),
        (["--against", "x {nope}"], "unknown placeholder"),
        (["--against", "x", "-o", "c.json"], "board file"),
    ):
        r = run("fuzz", *args)
        assert r.exit_code == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, (args, r.output)


@pytest.mark.slow
def test_a_terminal_sees_a_live_line_of_instances_and_the_shrink_and_a_pipe_does_not():
    import subprocess

    args = [
        sys.executable,
        "-c",
        "from nqueens_cp.entry import main; main()",
        "fuzz",
        "--against",
        _command("mirror", "count"),
        "--task",
        "count",
        "--max-n",
        "8",
        "--seed",
        "3",
    ]
    code, out, seen = on_a_terminal(args)
    assert code == 1 and "count" in out and "fuzz:" not in out
    assert b"instances tried" in seen and b"shrinking: step" in seen, seen[-300:]
    piped = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert piped.returncode == 1 and "fuzz:" not in piped.stderr
