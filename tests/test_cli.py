"""The command line, driven through Typer's CliRunner and once as a real installed script."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nqueens_cp import Problem
from nqueens_cp.io.formats import read_model
from tests.conftest import (
    A000170,
    MODELS,
    backtrack_count,
    brute_force,
    busy,
    children,
    csplib_counts,
    interrupt_when,
    run,
    script,
    with_workers,
)


def test_solve_boards_is_leetcode_style():
    r = run("solve", 4)
    assert r.exit_code == 0
    assert r.stdout == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv"])
def test_solve_machine_formats(fmt):
    r = run("solve", 6, "--format", fmt)
    assert r.exit_code == 0
    if fmt == "json":
        sols = json.loads(r.stdout)
    elif fmt == "jsonl":
        sols = [json.loads(line) for line in r.stdout.splitlines()]
    else:
        header, *lines = r.stdout.splitlines()
        assert header == "r0,r1,r2,r3,r4,r5"
        sols = [[int(x) for x in line.split(",")] for line in lines]
    assert len(sols) == A000170[5]


def test_solve_output_file_limit_and_variants(tmp_path):
    out = tmp_path / "s.jsonl"
    r = run("solve", 8, "--limit", 3, "-f", "jsonl", "-o", out, "--block", "0,0", "--fix", "1,4")
    assert r.exit_code == 0 and r.stdout == ""
    sols = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(sols) == 3 and all(s[0] != 0 and s[1] == 4 for s in sols)
    r = run("solve", 3, "--piece", "rook", "-b", "cpsat", "-f", "jsonl")
    assert sorted(json.loads(x) for x in r.stdout.splitlines()) == [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ]


@pytest.mark.parametrize("backend", ["bitmask", "cpsat", "constraint"])
def test_count_json(backend):
    r = run("count", 8, "--json", "-b", backend)
    assert r.exit_code == 0
    rec = json.loads(r.stdout)
    assert rec["count"] == 92 and rec["n"] == 8 and rec["backend"] == backend and rec["piece"] == "queen"
    assert rec["seconds"] >= 0


def test_first_draws_or_says_no_solution():
    r = run("first", 4)
    assert r.exit_code == 0 and r.stdout.splitlines() == [". Q . .", ". . . Q", "Q . . .", ". . Q ."]
    r = run("first", 3)
    assert r.exit_code == 0 and r.stdout.strip() == "no solution"
    assert json.loads(run("first", 3, "-f", "jsonl").stdout) is None
    rec = json.loads(run("first", 3, "--json").stdout)
    assert rec["solution"] is None and rec["status"] == "no solution" and rec["plan"]["algorithm"] == "construct"


@pytest.mark.slow
def test_verify_agrees():
    r = run("verify", 6, "--block", "2,2")
    assert r.exit_code == 0 and "agree" in r.stdout
    r = run("verify", 9, "--depth", 2, "--backends", "bitmask,cpsat")
    assert r.exit_code == 0 and "56 prefixes" in r.stdout


def test_show_instance_and_solution():
    r = run("show", "--model", MODELS / "preplaced-8.txt")
    assert r.exit_code == 0 and r.stdout.splitlines()[1] == ". . Q . . . . ."
    r = run("show", 4, "--fix", "0,1", "--solution", "1,3,0,2")
    assert r.stdout.splitlines() == [". F . .", ". . . Q", "Q . . .", ". . Q ."]


#: The documented counts of the shipped models, from outside the package: OEIS, n!, CSPLib's
#: independent counts; the others by the backtracking written in conftest.py.
DOCUMENTED = {
    "queens-8.toml": A000170[7],
    "rooks-8.toml": 40320,
    "superqueens-10.toml": 4,  # OEIS A051223
    "torus-7.toml": 28,  # OEIS A007705
    "empress-8.toml": 2766,  # OEIS A137774
    "hertzsprung-8.toml": 5242,  # OEIS A002464
    "anti-diagonal-6.toml": 83,  # OEIS A099152; the brute force of test_pieces checks it too
    "zebrarider-queen-12.toml": 40,  # OEIS A189876
    "queens-and-a-pawn-8.toml": 128,  # OEIS A103330
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in MODELS.iterdir()))
def test_every_shipped_model_runs_with_its_documented_count(name):
    r = run("count", "--model", MODELS / name)
    assert r.exit_code == 0
    if name in DOCUMENTED:
        expected = DOCUMENTED[name]
    elif name.startswith("csplib-"):
        expected = csplib_counts()[name.removeprefix("csplib-")]
    elif read_model(MODELS / name).walled:  # walls, pieces anywhere: a second backend's squares model
        import nqueens_cp as nq

        expected = nq.count(read_model(MODELS / name), "cpsat")
    elif read_model(MODELS / name).regions:  # a region puzzle: the brute force that counts regions
        from tests.test_regions import by_the_rules

        expected = len(by_the_rules(read_model(MODELS / name)))
    else:
        expected = backtrack_count(read_model(MODELS / name))
    assert int(r.stdout) == expected > 0


@pytest.mark.parametrize("given", [["--fix", "0,0", "--fix", "1,1"], ["--fix", "0,0", "--block", "0,0"]])
def test_pre_placed_pieces_that_contradict_the_rules_have_no_solution(given):
    """They were an input error (exit 2); the puzzle is well posed and its answer is 0."""
    count, first, solve = (run(task, "8", *given) for task in ("count", "first", "solve"))
    assert (count.exit_code, count.stdout.split()) == (0, ["0"])
    assert first.exit_code == 0 and "no solution" in first.stdout
    assert solve.exit_code == 0 and solve.stdout.strip() == "no solution"
    for r in (count, first, solve):  # why, in one line: the answer 0 is no longer silent
        assert r.stderr.startswith("nqueens: no solution: the pre-placed piece") and len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "args, stdout",
    [
        (["solve", 2], "no solution"),
        (["solve", 3, "-f", "jsonl"], ""),
        (["solve", 3, "-f", "json"], "[]"),
        (["solve", 3, "-f", "csv"], "r0,r1,r2"),
        (["first", 3], "no solution"),
        (["first", 3, "-f", "jsonl"], "null"),
    ],
)
def test_no_solution_has_one_shape_on_every_command_and_format(args, stdout):
    """`solve 2` printed nothing at all, where `first 3` printed "no solution": a board says it on
    stdout, a format for programs keeps its own empty answer and stderr says it, in one line."""
    r = run(*args)
    assert r.exit_code == 0 and r.stdout.strip() == stdout, r.output
    said = [] if "no solution" in stdout else ["nqueens: no solution"]
    assert r.stderr.splitlines() == said
    rec = json.loads(run("solve", 3, "--json").stdout)
    assert rec["status"] == "no solution" and rec["count"] == 0 and rec["solutions"] == []


def test_every_json_record_is_one_line():
    """`solve --json` printed its record over two lines: JSON Lines readers took two records."""
    for args in (["solve", 6, "--json"], ["solve", 3, "--json"], ["count", 8, "--json"], ["first", 8, "--json"]):
        lines = run(*args).stdout.splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["format"].startswith("nqueens_cp."), args


@pytest.mark.parametrize(
    "args,message",
    [
        (["solve", "x"], "N must be an integer"),
        (["solve", "0"], "out of range"),
        (["solve", "8", "--block", "1"], "--block expects R,C"),
        (["solve", "8", "--block", "9,9"], "(9, 9) is off the 8x8 board"),
        (["solve", "8", "-b", "nope"], "unknown backend 'nope'"),
        (["solve", "8", "--piece", "archbishop"], "unknown piece"),
        (["solve", "8", "--piece", "bishop"], "a bishop does not ride rows and columns"),
        (["solve", "8", "--format", "xml"], "unknown format"),
        (["count", "8", "-b", "constraint", "--time-limit", "1"], "constraint' cannot honour option(s) time_limit"),
        (["count", "8", "-b", "constraint", "--workers", "2"], "cannot honour option(s) workers"),
        (["count", "8", "-b", "cpsat", "--workers", "2"], "CP-SAT enumerates with one worker"),
        (["first", "8", "--workers", "2"], "--workers applies to count"),
        (["count", "8", "--depth", "2"], "--depth goes with --dask or --checkpoint"),
        (["solve", "--model", "/no/such.toml"], "cannot read"),
        (["solve"], "give the board size"),
        (["solve", "9", "--model", str(MODELS / "queens-8.toml")], "differs"),
        (["solve", "8", "--bogus"], "No such option"),
        (["frobnicate"], "No such command"),
        (["compare"], "give --n"),
        (["compare", "--n", "9..4"], "empty"),
        (["compare", "--n", "4", "--plot", "x.pdf"], ".png or .svg"),
        (["compare", "--n", "4", "--plot", "/no/such/folder/t.png"], "folder is missing or not writable"),
        (["show", "4", "--solution", "0,1,2,3"], "not a solution"),
        (["verify", "4", "--backends", "bitmask,nope"], "unknown backend"),
        (["show", "100000"], "too large to draw (at most 1000)"),
        (["count", "-1"], "board size must be a positive integer, got -1"),
        (["solve", "6000", "--limit", "1", "-f", "jsonl"], "stops at 5000 columns"),
        (["count", "300", "-b", "constraint"], "cannot model boards over 200 columns"),
        (["first", "3000", "-b", "cpsat", "-f", "jsonl"], "cannot model boards over 2000 columns"),
        (["count", "13", "--workers", "1000"], "workers must be at most"),
        (["count", "8", "--time-limit", "0"], "positive finite number"),
        (["count", "8", "--time-limit", "-1"], "positive finite number"),
        (["count", "8", "--time-limit", "inf"], "positive finite number"),
        (["count", "8", "--time-limit", "nan"], "positive finite number"),
        (["count", "8", "--dask", ""], "--dask needs a scheduler address"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    r = run(*args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nqueens: error:") and message in lines[0]
    assert "Traceback" not in r.output


def test_bad_model_file_names_the_line(tmp_path):
    f = tmp_path / "m.toml"
    f.write_text("n = 8\nblocked = [[1, 2], [8, 0]]\n")
    r = run("count", "--model", f)
    assert r.exit_code == 2 and f"{f}:2: blocked square (8, 0)" in r.stderr


@pytest.mark.slow
def test_installed_script_runs_and_pipes_quietly():
    exe = script()
    r = subprocess.run([exe, "count", "10"], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "724"
    # `nqueens solve 14 | head -3`: the reader goes away; the writer ends without a word.
    proc = subprocess.Popen([exe, "solve", "14", "-f", "jsonl"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = [proc.stdout.readline() for _ in range(3)]
    proc.stdout.close()
    proc.wait(timeout=60)
    sols = [tuple(json.loads(h)) for h in head]
    assert len(sols) == 3 and sols == sorted(sols) and all(Problem(14).is_solution(s) for s in sols)
    assert proc.stderr.read() == b""


@pytest.mark.slow
def test_installed_script_ctrl_c_is_quiet():
    code, _, err, _ = interrupt_when(["count", "17", "-b", "cpsat"], busy(2.5))  # in CP-SAT's search
    assert code == 130 and b"Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_stops_the_counting_pool_and_its_workers():
    exe = script()
    proc = subprocess.Popen([exe, "count", "19", "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not with_workers(2)(proc.pid) and time.monotonic() < deadline:  # the pool is counting
        time.sleep(0.05)
    workers = children(proc.pid)
    assert len(workers) == 2
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and out.endswith(b"(partial: at least)\n") and b"Traceback" not in err
    for pid in workers:
        deadline = time.time() + 10
        while Path(f"/proc/{pid}").exists() and time.time() < deadline:
            time.sleep(0.1)
        assert not Path(f"/proc/{pid}").exists(), f"worker {pid} outlived the interrupt"


def test_bitmask_runs_never_import_the_other_solvers():
    code = (
        "import sys; from nqueens_cp.entry import main; sys.argv = ['nqueens', 'count', '8'];\n"
        "try: main()\nexcept SystemExit: pass\n"
        "print(sorted(m for m in ('ortools', 'constraint', 'distributed', 'matplotlib') if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.split() == ["92", "[]"]


@pytest.mark.long
@pytest.mark.slow
def test_compare_honours_the_time_limit_on_every_backend_it_runs():
    """compare --n 4..40 --time-limit 1 ran on for minutes: every run is now held to the limit."""
    import time

    start = time.monotonic()
    r = run(
        "compare", "--n", "20..21", "--backends", "bitmask,cpsat", "--task", "solve", "--time-limit", "0.5", "--json"
    )
    assert r.exit_code == 0
    rows = [json.loads(x) for x in r.stdout.splitlines()[:-1]]
    assert len(rows) == 4 and {(x["status"], x["reason"]) for x in rows} == {("unknown", "time limit")}
    assert time.monotonic() - start < 30


@pytest.mark.long
def test_default_backends_leave_out_one_whose_package_is_missing(monkeypatch):
    """On a fresh `pip install .` (no python-sat) `verify 6` and `compare` failed with "the sat
    backend needs python-sat": backends chosen by default are now those installed; naming a
    missing one still says what to install."""
    monkeypatch.setitem(sys.modules, "pysat", None)  # import now fails
    r = run("verify", 6)
    assert r.exit_code == 0, r.output
    names = [x.split(":")[0] for x in r.stdout.splitlines()[:-1]]
    assert names[:3] == ["bitmask", "cpsat", "constraint"] and "sat" not in names  # minizinc, clingo where installed
    r = run("compare", "--n", "5", "--json")
    assert r.exit_code == 0 and "sat" not in {json.loads(x).get("backend") for x in r.stdout.splitlines()[:-1]}
    r = run("count", 6, "-b", "sat")
    assert r.exit_code == 2 and "pip install 'nqueens_cp[sat]'" in r.stderr


@pytest.mark.slow
def test_compare_by_default_runs_the_backends_that_can_be_bounded():
    """The README's example spent 405 s in `constraint`, which no time limit stops."""
    r = run("compare", "--n", "5", "--json")
    assert r.exit_code == 0, r.output
    ran = {json.loads(line)["backend"] for line in r.stdout.splitlines()[:-1]}
    assert "constraint" not in ran and {"bitmask", "cpsat"} <= ran
    r = run("compare", "--n", "5", "--backends", "constraint,bitmask", "--json")
    assert {json.loads(line)["backend"] for line in r.stdout.splitlines()[:-1]} == {"constraint", "bitmask"}


def test_small_things_a_new_user_tripped_on(tmp_path):
    """Flags showed `<bool>` in help (users typed `--torus true`); `board` and `boards` named one
    format for two commands; --lexicographic at its limit said a solution might not exist."""
    for command in ("count", "solve", "first", "verify", "compare"):
        assert "<bool>" not in run(command, "--help").stdout
    assert run("solve", 4, "-f", "board").stdout == run("solve", 4, "-f", "boards").stdout
    assert run("first", 4, "-f", "boards").stdout == run("first", 4, "-f", "board").stdout
    r = run("first", 40, "--lexicographic", "--time-limit", 0.3)
    assert r.exit_code == 3 and "before a solution was found" in r.stderr and "exist" not in r.stderr


def test_json_is_one_record_with_plan_stats_and_status_on_every_command():
    """`solve --json` printed a bare list, `count --unique --json` lacked status, and `verify`
    had neither --json nor --verbose."""
    rec = json.loads(run("solve", 6, "--json").stdout)
    assert rec["status"] == "solved" and rec["count"] == len(rec["solutions"]) == A000170[5]
    assert rec["plan"]["task"] == "solve" and rec["stats"]["nodes"] > 0
    assert all(Problem(6).is_solution(tuple(s)) for s in rec["solutions"])
    assert json.loads(run("solve", 6, "-f", "json").stdout) == rec["solutions"]  # the bare array stays
    r = run("solve", 20, "--json", "--time-limit", 0.3)
    partial = json.loads(r.stdout)
    assert r.exit_code == 3 and partial["status"] == "unknown" and partial["partial"]
    assert partial["count"] == len(partial["solutions"]) > 0
    assert json.loads(run("count", 10, "--unique", "--json").stdout)["status"] == "solved"
    r = run("verify", 6, "--json", "--verbose", "--backends", "bitmask,cpsat")
    rec = json.loads(r.stdout)
    assert rec["status"] == "agree" and [x["count"] for x in rec["runs"]] == [4, 4]
    assert "plan: cpsat" in r.stderr


def test_a_range_of_sizes_is_bounded_before_anything_is_built():
    """`compare --n 1..10000000` built every instance before the first run."""
    for command in (["compare", "--n"], ["verify", "--against", "true"]):
        r = (
            run(*command[:2], "1..10000000", *command[2:])
            if command[0] == "compare"
            else run("verify", "1..10000000", "--against", "true")
        )
        assert r.exit_code == 2 and "at most 10000" in r.stderr


def test_nqueens_alone_prints_its_help_and_h_is_help():
    """`nqueens` alone printed "error: Usage: ..." (exit 2), and -h was "No such option"."""
    bare = subprocess.run([script()], capture_output=True, text=True, timeout=60)
    assert bare.returncode == 0 and bare.stdout.startswith("Usage: nqueens") and bare.stderr == ""
    for args, shows in ((["-h"], "COMMAND"), (["count", "-h"], "--time-limit")):
        r = run(*args)
        assert r.exit_code == 0 and r.stdout.startswith("Usage: ") and shows in r.stdout, r.output


def test_a_folder_as_model_and_a_doubled_compound_say_what_they_are(tmp_path):
    folder = run("count", "--model", tmp_path)
    assert folder.exit_code == 2 and "a folder, not an instance file" in folder.stderr
    for piece in ("QQ", "KK", "RR"):  # QQ was silently the queen while KK was refused
        r = run("count", 8, "--piece", piece)
        assert r.exit_code == 2 and f"{piece} doubles a compound" in r.stderr, r.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["verify", 8, "--mzn-solver", "chuffed", "--backends", "bitmask,sat"], "--mzn-solver applies to no backend"),
        (["verify", 8, "--against", "echo 0", "--sat-solver", "glucose4"], "--sat-solver applies to no backend"),
        (["compare", "--n", 8, "--task", "count", "--lexicographic", "--backends", "bitmask"], "--lexicographic"),
        (["compare", "--n", 8, "--memory", "1G", "--backends", "cpsat"], "--memory applies to no backend"),
        (["count", 8, "--dask-wait", 3], "--dask-wait goes with --dask"),
    ],
)
def test_an_option_no_backend_of_the_run_takes_is_refused(args, says):
    """Each was dropped without a word."""
    r = run(*args)
    assert r.exit_code == 2 and says in r.stderr, r.output


def test_a_range_of_n_counts_a_table_as_oeis_prints_its_terms():
    """Users asked for counts over a range printed like an OEIS row, without enumerating."""
    from tests.conftest import A002562

    r = run("count", "1..8")
    assert r.exit_code == 0 and r.stdout == ", ".join(map(str, A000170[:8])) + "\n"
    r = run("count", "1..8", "-f", "bfile")
    assert r.stdout.splitlines() == [f"{n} {a}" for n, a in enumerate(A000170[:8], 1)]
    records = [json.loads(line) for line in run("count", "4..7", "--json").stdout.splitlines()]
    assert [(x["n"], x["count"]) for x in records] == [(n, A000170[n - 1]) for n in range(4, 8)]
    r = run("count", "1..10", "--unique")
    assert r.stdout.strip() == ", ".join(map(str, A002562[:10]))
    r = run("count", "5..3")  # (a range with --checkpoint: a journal a term, tests/test_tables.py)
    assert r.exit_code == 2 and "empty" in r.stderr, r.output


@pytest.mark.slow
def test_a_table_stopped_by_its_limit_prints_the_terms_before_it_labelled_partial():
    r = run("count", "8..21", "--time-limit", "1")  # (up to 12 without compiled kernels: well within)
    assert r.exit_code == 3
    line = r.stdout.splitlines()[-1]
    assert line.startswith(", ".join(map(str, A000170[7:12]))) and "(partial: the terms up to n = " in line, r.output


#: OEIS A352661, A352662, A352663 (superqueen classes fixed by a quarter turn, by the half turn
#: only, by none), n = 1..14.
A352661 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0]
A352662 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 6, 11]
A352663 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 18, 231, 642]


def test_by_symmetry_splits_the_classes_as_oeis_does():
    # (from n = 2: OEIS leaves n = 1's one class, which every symmetry fixes, out of all three)
    r = run("count", "2..14", "--piece", "superqueen", "--by-symmetry")
    assert r.exit_code == 0 and r.stdout.splitlines() == [
        "quarter turn: " + ", ".join(map(str, A352661[1:])),
        "half turn only: " + ", ".join(map(str, A352662[1:])),
        "none: " + ", ".join(map(str, A352663[1:])),
    ]
    rec = json.loads(run("count", 13, "--piece", "superqueen", "--by-symmetry", "--json").stdout)
    assert (rec["quarter_turn"], rec["half_turn_only"], rec["asymmetric"]) == (2, 6, 231)
    assert rec["total"] == 2 * 2 + 4 * 6 + 8 * 231  # A051223 = 2 A352661 + 4 A352662 + 8 A352663
    r = run("count", "1..8", "-f", "bfile", "--by-symmetry")
    assert r.exit_code == 2 and "one sequence" in r.stderr, r.output


@pytest.mark.parametrize(
    "args", [["8"], ["6", "--piece", "rook"], ["5", "--rows", "1"], ["5", "--rows", "3"], ["6", "--pieces", "4"], ["1"]]
)
def test_the_parts_the_split_shows_add_up_to_the_classes(args):
    """A part left out of the line is 0 (one row: a reflection fixes each single queen, which
    the line once left out); one class is said so (n = 1's, once "1 classes")."""
    r = run("count", *args, "--by-symmetry")
    line = r.stdout.strip()
    parts, classes = line.rsplit(" (", 1)
    number, word = classes.rstrip(")").split()
    assert r.exit_code == 0 and sum(int(p.rsplit(" ", 1)[1]) for p in parts.split(", ")) == int(number), line
    assert word == ("class" if number == "1" else "classes"), line


def _images(s: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    """A placement of one piece a row on an n x n board under the square's 8 symmetries, written
    out here as each maps a square (r, c)."""
    n = len(s)
    maps = {
        "identity": lambda r, c: (r, c),
        "rot90": lambda r, c: (c, n - 1 - r),
        "rot180": lambda r, c: (n - 1 - r, n - 1 - c),
        "rot270": lambda r, c: (n - 1 - c, r),
        "flip-cols": lambda r, c: (r, n - 1 - c),
        "flip-rows": lambda r, c: (n - 1 - r, c),
        "transpose": lambda r, c: (c, r),
        "anti-transpose": lambda r, c: (n - 1 - c, n - 1 - r),
    }
    return {name: tuple(c for _, c in sorted(f(r, c) for r, c in enumerate(s))) for name, f in maps.items()}


def _split_by_brute_force(n: int, piece: str) -> dict[str, int]:
    """Every solution's class (its least image) and what fixes that least member: the quarter
    turn, the half turn alone, a reflection alone, or nothing."""
    out = dict.fromkeys(["quarter_turn", "half_turn_only", "reflection_only", "asymmetric"], 0)
    for s in brute_force(n, piece):
        images = _images(s)
        if min(images.values()) != s:
            continue
        fixed = {g for g, img in images.items() if img == s}
        part = "quarter_turn" if "rot90" in fixed else "half_turn_only" if "rot180" in fixed else None
        out[part or ("reflection_only" if len(fixed) > 1 else "asymmetric")] += 1
    return out


@pytest.mark.parametrize(
    ("piece", "sizes"),
    [("rook", range(1, 8)), ("RF", range(1, 9)), ("queen", range(1, 10)), ("superqueen", [10, 11])],
)
def test_by_symmetry_splits_any_piece_s_classes_as_a_brute_force_does(piece, sizes):
    """Rooks and rook-like pieces (a reflection fixes a placement: the transpose an involution)
    as well as queens, through Burnside's lemma over the fixed points (bitmask) and by testing
    each enumerated solution (cpsat), against the brute force's classes."""
    for n in sizes:
        want = _split_by_brute_force(n, piece)
        for backend in ("bitmask", "cpsat"):
            rec = json.loads(run("count", n, "--piece", piece, "--by-symmetry", "--json", "-b", backend).stdout)
            got = {key: rec[key] for key in want}
            assert got == want and sum(want.values()) == rec["count"], (piece, n, backend)
