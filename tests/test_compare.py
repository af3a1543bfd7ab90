"""The comparison harness: the sandbox's hard limits, the answer checks, the results file, the
CLI end to end, and generated instance sets."""

import csv
import json
import os
import subprocess
import time

import pytest

from nqueens_cp import NQueensError, Problem
from nqueens_cp.bench.compare import check_group
from nqueens_cp.bench.generate import blocked_instance, instance_seed
from nqueens_cp.bench.results import Check, Row, read_rows, summarize
from nqueens_cp.bench.sandbox import GRACE_SECONDS, Sandbox
from nqueens_cp.io.formats import read_model
from tests.conftest import (
    A000170,
    MODELS,
    brute_force_problem,
    children,
    cpu_seconds,
    gone,
    interrupt_when,
    run,
    script,
    tree,
)

JOBS = "tests.sandbox_jobs"


# -- the sandbox ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_run_past_its_wall_limit_is_killed_and_the_next_gets_a_fresh_worker():
    with Sandbox(JOBS, jobs=1, wall_limit=0.5) as sb:
        start = time.monotonic()
        results = list(sb.run([("a", ("sleep", 30)), ("b", ("pid",)), ("c", ("pid",))]))
        took = time.monotonic() - start
    by = {r.key: r for r in results}
    assert by["a"].status == "time limit" and 0.5 <= by["a"].seconds < 0.5 + GRACE_SECONDS + 1
    assert took < 15
    assert by["b"].status == "done" and by["b"].value == by["c"].value  # one worker serves both
    assert gone([by["b"].value], within=0)  # leaving the sandbox stops it


@pytest.mark.timeout(60)
def test_memory_limit_crash_and_error_are_reported_not_raised():
    with Sandbox(JOBS, jobs=2, memory_limit=200 << 20) as sb:
        results = {r.key: r for r in sb.run([("mem", ("allocate", 400)), ("exit", ("exit", 3)), ("err", ("raise",))])}
        assert results["mem"].status == "memory limit" and results["mem"].peak_bytes > 200 << 20
        assert results["exit"].status == "crashed" and "exit code 3" in results["exit"].value
        assert results["err"].status == "error" and "the job failed" in results["err"].value
        assert [r.value for r in sb.run([("ok", ("print",))])] == ["clean"]  # stdout noise stays out


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_start_up_is_not_charged_and_peak_memory_is_measured():
    with Sandbox(JOBS, jobs=1) as sb:
        (r,) = list(sb.run([("p", ("slow-prepare", 1.0))]))
    assert r.status == "done" and r.seconds < 0.5 and r.peak_bytes > 1 << 20


@pytest.mark.timeout(60)
def test_an_exception_in_the_caller_kills_every_worker():
    pids = []
    earlier = set(children(os.getpid()))  # another test's process, still ending, is not the sandbox's
    with pytest.raises(KeyboardInterrupt), Sandbox(JOBS, jobs=2, wall_limit=60) as sb:
        for r in sb.run([("a", ("pid",)), ("b", ("sleep", 60)), ("c", ("sleep", 60))]):
            pids.append(r.value)
            pids += [pid for pid in children(os.getpid()) if pid not in earlier]
            raise KeyboardInterrupt
    assert pids and gone(pids, within=0)


# -- the checks -------------------------------------------------------------------------------


def _r(backend, task, status, answer, check=None, digest=None, seconds=None):
    return Row(
        instance="i",
        n=8,
        piece="queen",
        torus=False,
        backend=backend,
        task=task,
        status=status,
        check=check,
        answer=answer,
        digest=digest,
        seconds=seconds,
    )


def test_a_no_solution_contradicted_by_a_valid_solution_is_wrong():
    rows = [_r("a", "first", "solved", [1, 3, 0, 2]), _r("b", "first", "no solution", None)]
    check_group(rows, rows)
    assert rows[0].check == "ok" and rows[1].check.startswith("disagree: a found")
    # an invalid solution is no evidence against "no solution"
    bad = _r("a", "first", "solved", [0, 1, 2, 3], check="invalid: shares a diagonal")
    rows = [bad, _r("b", "first", "no solution", None)]
    check_group(rows, rows)
    assert rows[0].check.startswith("invalid") and rows[1].check == "unchecked"


def test_counts_and_solution_sets_are_compared():
    rows = [_r("a", "count", "solved", 92), _r("b", "count", "solved", 92), _r("c", "count", "unknown", None)]
    check_group(rows, rows)
    assert [r.check for r in rows] == ["ok", "ok", None]
    rows = [_r("a", "solve", "solved", 92, digest="1"), _r("b", "solve", "solved", 92, digest="2")]
    check_group(rows, rows)
    assert all(r.check.startswith("disagree") and "solutions" in r.check for r in rows)


def test_one_deviant_answer_is_blamed_on_its_backend_alone():
    """One deviant count marked every backend of its instance wrong. A count outvoted is wrong,
    the counts that outvote it are not; a solution set smaller than another backend's valid one
    misses some, and the largest is not shown wrong; where no side has the evidence, both are."""
    rows = [_r("a", "count", "solved", 92), _r("b", "count", "solved", 92), _r("c", "count", "solved", 91)]
    check_group(rows, rows)
    assert [Check.of(r.check) for r in rows] == [Check.OK, Check.OK, Check.DISAGREE], [r.check for r in rows]
    assert "outvoted 2 to 1" in rows[0].check and "a, b gave another count" in rows[2].check
    rows = [_r("a", "count", "solved", 92), _r("b", "count", "solved", 91)]
    check_group(rows, rows)
    assert all(Check.of(r.check) is Check.DISAGREE for r in rows)
    rows = [_r("a", "solve", "solved", 92, digest="1"), _r("b", "solve", "solved", 90, digest="2")]
    check_group(rows, rows)
    assert Check.of(rows[0].check) is Check.OK and rows[1].check.startswith("disagree: a gave 92 valid solutions")
    assert {r.backend for r in rows if r.wrong} == {"b"}


def test_par2_counts_unsolved_and_wrong_runs_twice_the_limit():
    rows = [
        _r("a", "count", "solved", 1, "ok", seconds=1.0),
        _r("a", "count", "unknown", None, seconds=10.0),
        _r("a", "count", "solved", 2, "disagree: b", seconds=3.0),
    ]
    (s,) = summarize(rows, ["a"], 10.0)
    assert (s.solved, s.unknown, s.wrong, s.par2) == (1, 1, 1, 41.0)


# -- the CLI ----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_counts_over_a_range_agree_with_oeis(tmp_path):
    out = tmp_path / "r.csv"
    r = run("compare", "--n", "4..8", "--backends", "bitmask,cpsat,sat", "--task", "count", "-o", out, "--jobs", 2)
    assert r.exit_code == 0, r.output
    rows = read_rows(out)
    assert len(rows) == 15 and all(x.check == "ok" for x in rows)
    assert {(x.n, x.answer) for x in rows} == {(n, A000170[n - 1]) for n in range(4, 9)}
    assert all(x.seconds >= 0 and x.peak_mb > 0 for x in rows)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_optimisations_compare_side_by_side_and_agree_with_oeis():
    """max and dominate: each backend's optimum proved, cross-checked (queens: n at most from 4;
    A075458 to cover); a backend that does not answer the task is marked so, not run."""
    for task, expected in (("max", {4: 4, 5: 5, 6: 6}), ("dominate", {4: 2, 5: 3, 6: 3})):
        r = run("compare", "--n", "4..6", "--backends", "bitmask,cpsat,sat", "--task", task, "--json", "--jobs", 2)
        assert r.exit_code == 0, r.output
        rows = [json.loads(x) for x in r.stdout.splitlines()[:-1]]
        assert len(rows) == 9 and all(x["check"] == "ok" for x in rows), rows
        assert {(x["n"], x["answer"]) for x in rows} == set(expected.items())
    r = run("compare", "--n", "5", "--backends", "bitmask,constraint", "--task", "max", "--json")
    rows = [json.loads(x) for x in r.stdout.splitlines()[:-1]]
    assert r.exit_code == 0 and [x["status"] for x in rows] == ["solved", "unsupported"]
    assert "does not answer max" in rows[1]["reason"]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_first_over_folders_and_globs_checks_every_answer(tmp_path):
    both = ["--backends", "bitmask,cpsat", "--task", "first", "--json"]
    r = run("compare", "--model", MODELS, "--model", str(MODELS / "*.param"), *both)
    assert r.exit_code == 0, r.output
    *lines, last = r.stdout.splitlines()
    rows = [json.loads(x) for x in lines]
    files = sorted(p for p in MODELS.iterdir() if p.suffix in (".toml", ".param", ".lp", ".txt"))
    assert sorted({x["instance"] for x in rows}) == sorted(str(p) for p in files)  # the glob adds no repeat
    for x in rows:
        p = read_model(x["instance"])
        assert x["status"] == "solved" and p.explain(tuple(x["answer"])) is None
    assert [s["solved"] for s in json.loads(last)["summary"]] == [len(files)] * 2


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_solve_compares_solution_sets_across_backends(tmp_path):
    model = MODELS / "blocked-8.toml"
    r = run("compare", "--model", model, "--backends", "bitmask,constraint,sat", "--task", "solve", "--json")
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.stdout.splitlines()[:-1]]
    assert {x["answer"] for x in rows} == {len(brute_force_problem(read_model(model)))}
    assert len({x["digest"] for x in rows}) == 1 and all(x["check"] == "ok" for x in rows)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_resume_skips_finished_runs_and_a_wrong_answer_on_file_is_flagged(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("compare", "--n", "7..8", "--backends", "bitmask", "-o", out).exit_code == 0
    assert "--resume" in run("compare", "--n", "7..8", "--backends", "bitmask", "-o", out).stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    rows[1]["answer"] = 93  # a wrong count on file for queen-8
    out.write_text("".join(json.dumps(x) + "\n" for x in rows) + '{"instance": "cut off')
    r = run("compare", "--n", "7..8", "--backends", "bitmask,cpsat", "-o", out, "--resume")
    assert r.exit_code == 1 and "wrong answer" in r.stderr
    new = [json.loads(x) for x in out.read_text().splitlines()][2:]
    assert [(x["instance"], x["backend"]) for x in new] == [("queen-7", "cpsat"), ("queen-8", "cpsat")]
    assert new[0]["check"] == "ok" and new[1]["check"] == "disagree: bitmask gave another count"


def test_a_row_is_made_by_name_only():
    """Rows made by position shifted every value when a column was inserted before the last."""
    with pytest.raises(TypeError):
        Row("queen-8", 8)
    assert Row(instance="queen-8", backend="bitmask").n is None


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_results_file_from_before_a_column_was_added_still_resumes(tmp_path, suffix):
    """Rows were made by position and a file's columns had to be this version's exactly: a file
    written before a column was added could not be resumed. It resumes now, rewritten whole with
    the new column blank in its old rows; a column this version does not know, or a missing
    required one, is still another file."""
    out = tmp_path / f"r{suffix}"
    assert run("compare", "--n", "5", "--backends", "bitmask", "-o", out).exit_code == 0
    if suffix == ".csv":
        rows = list(csv.DictReader(out.open()))
        names = [c for c in rows[0] if c != "conflicts"]

        def write(names, rows):
            with out.open("w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=names, extrasaction="ignore")
                w.writeheader()
                w.writerows(rows)

        def read():
            return list(csv.DictReader(out.open()))
    else:
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        names = [c for c in rows[0] if c != "conflicts"]

        def write(names, rows):
            out.write_text("".join(json.dumps({c: r.get(c) for c in names}) + "\n" for r in rows))

        def read():
            return [json.loads(line) for line in out.read_text().splitlines()]

    write(names, rows)  # as a version before the conflicts column wrote it
    r = run("compare", "--n", "5..6", "--backends", "bitmask", "-o", out, "--resume", "--json")
    assert r.exit_code == 0, r.output
    again = read()
    assert [x["instance"] for x in again] == ["queen-5", "queen-6"] and all("conflicts" in x for x in again)
    assert again[0]["conflicts"] in ("", None) and again[0]["answer"] in ("10", 10)
    damage = [([*names, "colour"], "colour unknown"), ([c for c in names if c != "status"], "no status")]
    if suffix == ".csv":  # (a JSON object cannot name a key twice)
        damage.append((["status" if c == "reason" else c for c in names], "a column twice"))
    for damaged, says in damage:
        write(damaged, again)
        r = run("compare", "--n", "5..6", "--backends", "bitmask", "-o", out, "--resume")
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and says in r.stderr, r.output


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_csv_file_resumes_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "r.csv", tmp_path / "p.png"
    assert run("compare", "--n", "5", "--backends", "bitmask,cpsat", "-o", out).exit_code == 0
    r = run("compare", "--n", "5..6", "--backends", "bitmask,cpsat", "-o", out, "--resume", "--plot", png)
    assert r.exit_code == 0, r.output
    assert [x["instance"] for x in csv.DictReader(out.open())] == ["queen-5"] * 2 + ["queen-6"] * 2
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_time_limit_is_enforced_on_a_backend_that_cannot_stop_itself():
    """cadical cannot be interrupted by python-sat: the sandbox kills it at the limit."""
    start = time.monotonic()
    r = run("compare", "--n", "30", "--backends", "sat,bitmask", "--task", "count", "--time-limit", "1", "--json")
    assert r.exit_code == 0, r.output
    rows = {x["backend"]: x for x in map(json.loads, r.stdout.splitlines()[:-1])}
    assert rows["sat"]["status"] == "unknown" and rows["sat"]["reason"] == "time limit"
    assert rows["bitmask"]["status"] == "unknown" and rows["bitmask"]["reason"] == "time limit"
    assert time.monotonic() - start < 30


@pytest.mark.parametrize(
    "args, message",
    [
        (["--n", "4", "--task", "decide"], "--task must be one of first, count, solve, max, dominate"),
        (["--model", "/no/such/*.param"], "matches no file"),
        (["--model", "/no/such/dir"], "no such file or folder"),
        (["--n", "4", "--resume"], "give one"),
        (["--n", "4", "-o", "r.txt"], ".csv or .jsonl"),
        (["--n", "4", "--jobs", "0"], "--jobs must be"),
        (["--n", "4", "--memory-limit", "0"], "memory limit"),
        (["--n", "4", "--backends", "nope"], "unknown backend"),
        (["--n", "4", "--backends", "sat", "--sat-solver", "nope"], "unknown SAT solver 'nope'"),
    ],
)
def test_bad_compare_input_is_one_line(args, message):
    r = run("compare", *args)
    assert r.exit_code == 2 and message in r.stderr, r.output


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_ctrl_c_keeps_finished_runs_and_leaves_no_worker(tmp_path):
    out = tmp_path / "r.csv"
    args = ["compare", "--n", "4..40", "--backends", "bitmask", "--task", "solve", "--jobs", "2", "-o", out]
    code, took, err, workers = interrupt_when(args, lambda _: out.exists() and len(out.read_text().splitlines()) >= 10)
    assert len(workers) == 2
    assert code == 130 and took < 10 and err.decode().strip() == "nqueens: interrupted"
    assert gone(workers, within=0)
    rows = read_rows(out)
    assert len(rows) >= 9 and all(x.answer == A000170[x.n - 1] for x in rows)


# -- instance sets ----------------------------------------------------------------------------


def test_generate_writes_a_reproducible_set(tmp_path):
    args = ["generate", "blocked", "--n", "10,12", "--blocks", "30,50", "--count", 3, "--seed", 5, "--min-free", 2]
    assert run(*args, "--out", tmp_path / "a").exit_code == 0
    assert run(*args, "--out", tmp_path / "b").exit_code == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == [f"n{n}-b{b}-{i}.param" for n, b in ((10, 30), (12, 50)) for i in range(3)]
    for name in names:
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
        p = read_model(tmp_path / "a" / name)
        assert len(p.blocked) == (30 if p.n == 10 else 50)
        assert all(sum((r, c) not in set(p.blocked) for c in range(p.n)) >= 2 for r in range(p.n))
    assert len({(tmp_path / "a" / n).read_text() for n in names}) == 6  # each instance its own seed
    r = run("generate", "blocked", "--n", "10,12", "--blocks", "30", "--count", 2, "--out", tmp_path / "c")
    assert r.exit_code == 2 and "one count per size" in r.stderr


def test_generate_never_leaves_a_partial_set_nor_overwrites_silently(tmp_path):
    """It overwrote files silently, said "wrote 4" when two shapes named the same 2 files, could
    fail after writing part of a set, and wrote CSPLib text to x.toml."""
    args = ["generate", "blocked", "--n", "10", "--blocks", "30", "--count", 2, "--out", tmp_path / "a"]
    assert run(*args).exit_code == 0
    first = {p.name: p.read_text() for p in (tmp_path / "a").iterdir()}
    r = run(*args[:-2], "--seed", 9, "--out", tmp_path / "a")
    assert r.exit_code == 2 and "--force" in r.stderr
    assert {p.name: p.read_text() for p in (tmp_path / "a").iterdir()} == first
    assert run(*args[:-2], "--seed", 9, "--out", tmp_path / "a", "--force").exit_code == 0
    assert {p.name: p.read_text() for p in (tmp_path / "a").iterdir()} != first
    r = run("generate", "blocked", "--n", "8,8", "--blocks", "5,5", "--count", 2, "--out", tmp_path / "b")
    assert r.exit_code == 2 and "given twice" in r.stderr
    # 30 blocked squares of 6x6, one free per row and column: the greedy draw of instance 0 of
    # seed 5 reaches it, that of instance 2 does not (checked below by the generator itself)
    shape = ("--n", "10,6", "--blocks", "30,30", "--min-free", 1, "--seed", 5, "--count", 3)
    assert len(blocked_instance(6, 30, 1, instance_seed(5, 6, 30, 0)).blocked) == 30
    with pytest.raises(NQueensError):
        blocked_instance(6, 30, 1, instance_seed(5, 6, 30, 2))
    r = run("generate", "blocked", *shape, "--out", tmp_path / "c")
    assert r.exit_code == 2 and not (tmp_path / "c").exists()
    r = run("generate", "blocked", "--n", "8", "--blocks", "5", "-o", tmp_path / "x.toml")
    assert r.exit_code == 2 and ".param" in r.stderr and not (tmp_path / "x.toml").exists()
    r = run("generate", "blocked", "--n", "8", "--blocks", "5", "--count", 1, "--out", tmp_path / "one")
    assert r.stdout == f"wrote 1 instance to {tmp_path / 'one'}\n", r.output  # (once "1 instances")


def _edit_rows(path, change):
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    change(rows)
    path.write_text("".join(json.dumps(x) + "\n" for x in rows))


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_resumed_no_solution_that_a_new_run_contradicts_is_wrong(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("compare", "--n", "8", "--backends", "bitmask", "--task", "first", "-o", out).exit_code == 0

    def no_solution(rows):
        rows[0].update(status="no solution", answer=None, check="unchecked")

    _edit_rows(out, no_solution)
    r = run("compare", "--n", "8", "--backends", "bitmask,cpsat", "--task", "first", "-o", out, "--resume", "--json")
    assert r.exit_code == 1 and "wrong answer" in r.stderr
    assert "queen-8 bitmask: disagree: cpsat found a valid solution" in r.stderr


@pytest.mark.timeout(120)
def test_a_resumed_invalid_solution_is_not_counted_as_solved(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("compare", "--n", "8", "--backends", "bitmask", "--task", "first", "-o", out).exit_code == 0
    _edit_rows(out, lambda rows: rows[0].update(answer=[0, 1, 2, 3, 4, 5, 6, 7]))
    r = run("compare", "--n", "8", "--backends", "bitmask", "--task", "first", "-o", out, "--resume", "--json")
    assert r.exit_code == 1 and "bitmask: invalid: pieces" in r.stderr
    summary = json.loads(r.stdout.splitlines()[-1])["summary"][0]
    assert summary["solved"] == 0 and summary["wrong"] == 1


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_an_old_wrong_count_is_flagged_itself(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("compare", "--n", "6", "--backends", "bitmask", "-o", out).exit_code == 0
    _edit_rows(out, lambda rows: rows[0].update(answer=5))
    r = run("compare", "--n", "6", "--backends", "bitmask,cpsat", "-o", out, "--resume", "--json")
    assert r.exit_code == 1
    assert "queen-6 bitmask: disagree: cpsat gave another count" in r.stderr


@pytest.mark.timeout(120)
def test_a_resumed_run_answers_under_the_limit_in_force(tmp_path):
    out = tmp_path / "r.jsonl"
    limit = ("--time-limit", "5")
    assert run("compare", "--n", "6", "--backends", "bitmask", *limit, "-o", out).exit_code == 0
    r = run("compare", "--n", "6", "--backends", "bitmask", "--time-limit", "9", "-o", out, "--resume")
    assert r.exit_code == 2 and "--time-limit 5" in r.stderr
    _edit_rows(out, lambda rows: rows[0].update(seconds=50.0))  # answered long after the limit
    r = run("compare", "--n", "6", "--backends", "bitmask", *limit, "-o", out, "--resume", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout.splitlines()[-1])["summary"][0]
    assert summary["solved"] == 0 and summary["unknown"] == 1


def test_a_verdict_is_read_back_by_its_kind():
    from nqueens_cp.bench.results import Check, is_wrong

    assert Check.of("disagree: cpsat gave another count") is Check.DISAGREE
    assert Check.of(Check.INVALID.said("pieces (0, 0) and (1, 1) share a diagonal")) is Check.INVALID
    assert Check.of(None) is None and Check.of("banana") is None
    assert is_wrong(_r("a", "count", "solved", 1, "invalid: x")) and not is_wrong(_r("a", "count", "solved", 1, "ok"))


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_plot_says_nothing_on_stderr_of_a_successful_run(tmp_path):
    """matplotlib warnings were reported on stderr of successful runs: a fresh config folder (its
    font cache built), and plots of runs that all ran out of time, now print nothing there."""
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path / "mpl")}
    for task, limit in (("count", "20"), ("solve", "0.3")):
        args = ["compare", "--n", "30" if task == "solve" else "5..6", "--backends", "bitmask,cpsat", "--task", task]
        r = subprocess.run(
            [script(), *args, "--time-limit", limit, "--plot", str(tmp_path / f"{task}.png"), "--json"],
            capture_output=True,
            env=env,
            timeout=100,
        )
        assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
        assert (tmp_path / f"{task}.png").stat().st_size > 1000


@pytest.mark.parametrize("n, task", [(11, "count"), (14, "count"), (9, "count"), (20, "first"), (12, "solve")])
def test_the_warm_up_takes_the_run_s_own_algorithm(n, task):
    """The warm-up solved a board of 8, whose count never loads the constellations' kernels that
    n >= 11 counts with: the first count of n = 11 in a worker took 0.83 s against 0.013 s."""
    from nqueens_cp.backends.warm import WARM_MAX_N, warm_board
    from nqueens_cp.bench.runs import Job as RunJob
    from nqueens_cp.bench.runs import backend_for

    p = Problem(n)
    b = backend_for(RunJob("bitmask", task, p))
    small = warm_board(b, p, task, b.plan(p, task).algorithm)
    assert small.n <= WARM_MAX_N
    assert b.plan(small, task).algorithm == b.plan(p, task).algorithm


def test_a_resumed_run_naming_fewer_backends_keeps_the_wrong_one_in_its_summary(tmp_path):
    """A resumed compare that named fewer backends hid the wrong one from its summary while
    exiting 1 for it."""
    out = tmp_path / "r.jsonl"
    assert run("compare", "--n", "7..8", "--backends", "bitmask,cpsat", "-o", out).exit_code == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    wrong = next(x for x in rows if x["backend"] == "cpsat" and x["instance"] == "queen-8")
    wrong["answer"] = 93
    out.write_text("".join(json.dumps(x) + "\n" for x in rows))
    r = run("compare", "--n", "7..9", "--backends", "bitmask", "-o", out, "--resume", "--json")
    assert r.exit_code == 1 and "wrong answer" in r.stderr
    summary = {s["backend"]: s for s in json.loads(r.stdout.splitlines()[-1])["summary"]}
    assert set(summary) == {"bitmask", "cpsat"} and summary["cpsat"]["wrong"] == 1


@pytest.mark.timeout(120)
def test_a_backend_that_cannot_model_an_instance_is_a_row_not_a_traceback():
    # constraint models boards up to 200 columns: the 201-column run is marked unsupported (it
    # raised AttributeError, a Row being a dataclass since the results were typed)
    r = run("compare", "--n", "201", "--backends", "bitmask,constraint", "--task", "first", "--json")
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    by = {x["backend"]: x for x in rows if "backend" in x}
    assert by["constraint"]["status"] == "unsupported" and "200" in by["constraint"]["reason"]
    assert by["bitmask"]["status"] == "solved" and by["bitmask"]["check"] == "ok"


@pytest.mark.timeout(60)
def test_jobs_of_one_group_share_a_worker_and_never_another_group_s():
    """A worker that had loaded one backend counted its memory in every later backend's peak
    (bitmask read 32 MB first, 96 MB after a cpsat run in the same worker)."""
    jobs = [(i, ("pid", group)) for i, group in enumerate("abab")]
    with Sandbox(JOBS, jobs=1) as sb:
        shared = {r.key: r.value for r in sb.run(jobs)}
        by_group = {r.key: r.value for r in sb.run(jobs, group=lambda payload: payload[1])}
    assert len(set(shared.values())) == 1  # no groups: one worker serves all
    assert by_group[0] == by_group[2] and by_group[1] == by_group[3] and by_group[0] != by_group[1]


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_backend_s_peak_memory_does_not_depend_on_what_ran_before_it():
    def peaks(backends: str) -> list[float]:
        r = run("compare", "--n", "6..8", "--backends", backends, "--task", "count", "--json")
        assert r.exit_code == 0, r.output
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        return [x["peak_mb"] for x in rows if x.get("backend") == "bitmask"]

    alone, after_cpsat = peaks("bitmask"), peaks("cpsat,bitmask")
    assert len(alone) == len(after_cpsat) == 3
    assert max(after_cpsat) < 1.3 * max(alone) + 8, (alone, after_cpsat)


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_ctrl_c_keeps_a_run_whose_instance_was_still_running(tmp_path):
    """A run that had finished while another run of its instance was still going was dropped
    by Ctrl-C (the docs say every finished row is kept): it is kept, marked unchecked."""
    out = tmp_path / "r.csv"
    args = ["compare", "--n", "12", "--backends", "bitmask,constraint", "--task", "count", "--jobs", "2", "-o", out]
    # ready: constraint's worker has searched for seconds (bitmask's run of n = 12 takes milliseconds)
    code, _, err, _ = interrupt_when(args, lambda pid: any(cpu_seconds(w) >= 3 for w in tree(pid)))
    assert code == 130, err
    rows = read_rows(out)
    assert [(r.backend, r.answer) for r in rows] == [("bitmask", A000170[11])]
    assert rows[0].check == "unchecked: the run was stopped before its instance's cross-check"


def test_the_terminal_table_lists_runs_in_the_page_s_order():
    """The table listed runs in the order they finished; the page puts wrong answers first, then
    instances and backends with their numbers by value."""
    from nqueens_cp.bench.report import page_order

    def row(instance, backend, check="ok"):
        r = _r(backend, "count", "solved", 1, check=check)
        r.instance = instance
        return r

    rows = [row("queen-10", "cpsat"), row("queen-9", "cpsat"), row("queen-10", "bitmask"),
            row("queen-12", "cpsat", "disagree: bitmask gave another count"), row("queen-9", "bitmask")]
    got = [(r.instance, r.backend) for r in page_order(rows)]
    assert got == [("queen-12", "cpsat"), ("queen-9", "bitmask"), ("queen-9", "cpsat"),
                   ("queen-10", "bitmask"), ("queen-10", "cpsat")]
