"""The reliability contract, checked on real processes: exit codes, time limits on every path,
Ctrl-C and SIGTERM within about a second, no process left behind, write failures as one line.

Each case is a reproducer from issue 13. Every test that starts a process bounds its wait and
kills what it started."""

import json
import os
import re
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from tests.conftest import (
    busy,
    children_of_a_killed_run,
    gone,
    interrupt_when,
    run,
    script,
    tree_busy,
    with_workers,
)

pytestmark = pytest.mark.timeout(120)

#: Start-up of a process that loads the kernels, on a busy 2-core machine (README: 1.6-1.8 s).
STARTUP = 6.0
#: How long a stop may take after the signal ("about a second", with room for a noisy machine).
STOP = 2.5


@pytest.fixture(scope="module")
def startup() -> float:
    """Seconds a run that loads the compiled kernels takes on this machine now, search aside."""
    start = time.monotonic()
    assert nqueens("count", 12, "--workers", 1).returncode == 0
    return time.monotonic() - start


def nqueens(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([script(), *map(str, args)], capture_output=True, timeout=60, **kw)


def one_line(err: bytes) -> str:
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err.decode(), err.decode()
    return lines[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["first", 70, "--block", "0,0", "--time-limit", 1],
        ["first", 70, "--piece", "superqueen", "--time-limit", 1],
        *(
            pytest.param(args, marks=pytest.mark.long)
            for args in (
                ["first", 48, "--lexicographic", "--time-limit", 1],
                ["solve", 70, "--limit", 1, "--time-limit", 1],
                ["count", 23, "--torus", "--time-limit", 1],  # by translations: minutes
                ["count", 18, "--workers", 1, "--time-limit", 1],
            )
        ),
        ["count", 18, "--workers", 2, "--time-limit", 1],
        pytest.param(["count", 17, "--unique", "--time-limit", 1], marks=pytest.mark.long),
        ["count", 17, "-b", "cpsat", "--time-limit", 1],
    ],
)
def test_every_path_honours_the_time_limit(args, startup):
    start = time.monotonic()
    r = nqueens(*args)
    took = time.monotonic() - start
    assert r.returncode == 3, r.stderr
    assert one_line(r.stderr).startswith("nqueens: unknown:")
    assert took < 1 + startup + STOP, (took, startup)


@pytest.mark.long
@pytest.mark.slow
def test_a_time_limited_solve_writes_what_it_found(tmp_path):
    out = tmp_path / "s.jsonl"
    r = nqueens("solve", 20, "--time-limit", 1, "-f", "jsonl", "-o", out)
    assert r.returncode == 3 and "solutions found are written" in one_line(r.stderr)
    sols = [tuple(json.loads(line)) for line in out.read_text().splitlines()]
    assert sols and all(Problem(20).is_solution(s) for s in sols)
    r = nqueens("solve", 11, "-b", "cpsat", "--time-limit", 0.5, "-f", "json")
    sols = {tuple(s) for s in json.loads(r.stdout)}  # a valid JSON document either way
    assert all(Problem(11).is_solution(s) for s in sols)
    if r.returncode == 0:  # finished within the limit: every solution (A000170)
        assert len(sols) == 2680
    else:  # stopped at the limit: what was found, labelled partial
        assert r.returncode == 3 and "solutions found are written" in one_line(r.stderr)


@pytest.mark.slow
def test_a_time_limited_count_prints_a_lower_bound():
    r = nqueens("count", 23, "--torus", "--time-limit", 0.5, "--json")
    assert r.returncode == 3
    rec = json.loads(r.stdout)
    assert rec["status"] == "unknown" and rec["reason"] == "time limit" and rec["partial"] is True


#: CPU seconds after which a run is past its start-up (imports, numba's cache: about 1.5 s).
SEARCHING = 2.5


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["solve", 44, "-f", "jsonl"],
        ["count", 21, "--workers", 1],
        pytest.param(["first", 48, "--lexicographic"], marks=pytest.mark.long),
        pytest.param(["first", 70, "--piece", "superqueen"], marks=pytest.mark.long),
        pytest.param(["count", 19, "--unique", "--workers", 1], marks=pytest.mark.long),
    ],
)
def test_ctrl_c_stops_long_compiled_runs_within_a_second(args):
    code, took, err, _ = interrupt_when(args, busy(SEARCHING))
    assert code == 130 and took < STOP, (code, took)
    assert one_line(err).startswith("nqueens: interrupted")  # (a count adds what it counted)


@pytest.mark.slow
def test_sigterm_stops_the_pool_and_leaves_no_worker():
    code, took, err, workers = interrupt_when(["count", 19, "--workers", 2], with_workers(2), signal.SIGTERM)
    assert len(workers) == 2
    assert code == 143 and took < STOP and one_line(err).startswith("nqueens: terminated")
    assert gone(workers)


@pytest.mark.slow
@pytest.mark.parametrize("args", [["count", 21, "--profile", "-q"], ["dominate", 16, "--independent", "--count"]])
def test_sigterm_stops_a_checkpointed_run_on_one_worker_mid_item(tmp_path, args):
    """With --checkpoint and one worker the items ran in the command's own process, each a
    compiled call no signal reaches: SIGTERM waited for the item's end (a profile's of n = 20:
    minutes). They now run in a worker process, which the stop ends."""
    journal = tmp_path / "c.jsonl"
    cmd = [*args, "--workers", 1, "--checkpoint", journal]
    code, took, err, workers = interrupt_when(cmd, tree_busy(SEARCHING), signal.SIGTERM)
    assert code == 143 and took < STOP, (code, took, err)
    assert one_line(err).startswith("nqueens: terminated") and gone(workers)


@pytest.mark.slow
def test_workers_die_with_a_parent_killed_outright():
    workers, ended = children_of_a_killed_run(["count", 19, "--workers", 2], with_workers(2))
    assert len(workers) == 2 and ended, "workers outlived a parent killed with SIGKILL"


def _catches(pid: int, signum: int) -> bool:
    """Whether process `pid` has a handler for `signum` (the SigCgt mask in /proc/PID/status)."""
    with open(f"/proc/{pid}/status") as status:
        mask = next(int(line.split()[1], 16) for line in status if line.startswith("SigCgt:"))
    return bool(mask >> (signum - 1) & 1)


#: Signals sent across the start-up: a step of about 10 ms here.
STEPS = 32


def _started(cmd: list[str]) -> subprocess.Popen:
    """`nqueens CMD`, returned once `entry.main` has its handlers in place: it catches SIGTERM,
    which Python itself never does. Times counted from the spawn instead fall, on a loaded
    machine, in the interpreter's own start-up, before any line of ours runs (exit -2, seen in CI)."""
    proc = subprocess.Popen([script(), *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + STARTUP
    while not _catches(proc.pid, signal.SIGTERM):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the process never installed its signal handlers")
        time.sleep(0.001)
    return proc


@pytest.mark.long
@pytest.mark.slow
def test_ctrl_c_anywhere_in_start_up_is_quiet():
    """Signals spread evenly over the start-up of this machine (handlers in place to a trivial
    command's end), each to a fresh `count 16`: a window that escapes the handlers, like the click
    group built by typer before `cli` catches anything (about 30 ms here), is hit by some of them."""
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to see when the handlers are in place")
    proc = _started(["count", "4"])
    start = time.monotonic()
    proc.communicate(timeout=30)
    startup = time.monotonic() - start
    for step in range(STEPS):
        proc = _started(["count", "16"])
        try:
            time.sleep(startup * step / STEPS)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
            proc.wait()
        assert proc.returncode == 130, (step, startup, err.decode())
        said = one_line(err)  # a stop once the count has begun says what it counted, on both
        assert (said == "nqueens: interrupted" and out == b"") or re.fullmatch(rb"\d+ \(partial: at least\)\n", out)


def _device_full() -> Path:
    full = Path("/dev/full")
    if not (full.exists() and stat.S_ISCHR(full.stat().st_mode)):
        pytest.skip("needs the /dev/full device")
    return full


@pytest.mark.slow
@pytest.mark.parametrize("args", [["solve", 10], ["count", 8], ["first", 8], ["show", 8]])
def test_a_full_disk_on_stdout_is_one_line_and_exit_2(args):
    with _device_full().open("wb") as full:
        r = subprocess.run([script(), *map(str, args)], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert r.returncode == 2 and "No space left on device" in one_line(r.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("args", [["solve", 6], ["generate", "blocked", "--n", 8, "--blocks", 3]])
def test_a_full_disk_behind_output_is_one_line_and_the_device_stays(args):
    full = _device_full()
    r = nqueens(*args, "-o", full)
    assert r.returncode == 2 and "No space left on device" in one_line(r.stderr)
    assert stat.S_ISCHR(full.stat().st_mode), "the device must never be replaced by a file"


@pytest.mark.parametrize("args", [["solve", 6], ["count", 8]])
def test_a_closed_stdout_is_an_error_not_a_lost_result(args):
    r = subprocess.run(
        [script(), *map(str, args)],
        stdout=None,
        stderr=subprocess.PIPE,
        timeout=60,
        close_fds=True,
        preexec_fn=lambda: os.close(1),
    )
    assert r.returncode == 2 and "standard output is closed" in one_line(r.stderr)


@pytest.mark.long
@pytest.mark.slow
def test_output_file_is_replaced_only_by_a_run_that_ends(tmp_path):
    out = tmp_path / "keep.jsonl"
    out.write_text("precious\n")
    code, _, _, _ = interrupt_when(["solve", 16, "-f", "jsonl", "-o", out], busy(SEARCHING))
    assert code == 130 and out.read_text() == "precious\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.jsonl"], "no temporary file may be left"
    assert nqueens("solve", 6, "-f", "jsonl", "-o", out).returncode == 0
    assert len(out.read_text().splitlines()) == 4


@pytest.mark.long
@pytest.mark.slow
def test_verify_by_prefixes_lists_only_consistent_ones():
    start = time.monotonic()
    r = nqueens("verify", 8, "--depth", 8, "--backends", "bitmask,cpsat")
    assert r.returncode == 0 and "92 prefixes of depth 8" in r.stdout.decode()
    assert time.monotonic() - start < 20 + STARTUP
    r = nqueens("verify", 3, "--depth", 3)
    assert r.returncode == 3 and "nothing compared" in r.stdout.decode()


@pytest.mark.long
@pytest.mark.slow
def test_a_time_limited_cpsat_solve_writes_the_solutions_it_found():
    """cpsat solutions reached the output in batches of 4,096, so a time-limited solve that had
    found 614 solutions wrote none; each is now handed on as soon as nothing else is ready."""
    r = nqueens("solve", 14, "-b", "cpsat", "--time-limit", 1, "-f", "jsonl")
    assert r.returncode == 3 and "solutions found are written" in one_line(r.stderr)
    sols = [tuple(json.loads(line)) for line in r.stdout.decode().splitlines()]
    assert 0 < len(sols) < 365596 and all(Problem(14).is_solution(s) for s in sols)


@pytest.mark.timeout(10)
def test_leaving_a_watched_call_does_not_wait_for_the_watchers_next_tick(monkeypatch):
    """Every watched call (each sat or bitmask search) ended up to one 50 ms tick late: the
    watcher is now woken when the call ends. With a 30 s tick, waiting for it would time out."""
    from nqueens_cp.backends import watch
    from nqueens_cp.backends.base import Deadline

    monkeypatch.setattr(watch, "TICK_SECONDS", 30.0)
    for _ in range(3):
        with watch.watched(Deadline("test", None)) as stop:
            assert stop[0] == 0


@pytest.fixture
def lost_handler():
    """A SIGINT handler whose exception is lost, as in a ctypes callback: it counts its calls."""
    calls = []
    before = signal.signal(signal.SIGINT, lambda signum, _frame: calls.append(signum))
    yield calls
    signal.signal(signal.SIGINT, before)


@pytest.mark.timeout(10)
def test_a_watched_block_stopped_by_a_lost_ctrl_c_does_not_end_as_if_finished(lost_handler):
    """A Ctrl-C whose KeyboardInterrupt was dropped (llvmlite callbacks drop it) still stopped the
    compiled call, and the block ended normally: the partial count was printed as the answer."""
    from nqueens_cp.backends import watch
    from nqueens_cp.backends.base import Deadline, Reason, Unknown

    with pytest.raises(Unknown) as info, watch.watched(Deadline("test", None)) as stop:
        signal.raise_signal(signal.SIGINT)
        while not stop[0]:
            time.sleep(0.001)
    assert info.value.reason is Reason.INTERRUPTED and info.value.partial is None
    assert lost_handler == [signal.SIGINT, signal.SIGINT], "raised again on the way out"


@pytest.mark.timeout(10)
def test_other_signals_do_not_stop_a_watched_call():
    from nqueens_cp.backends import watch
    from nqueens_cp.backends.base import Deadline

    before = signal.signal(signal.SIGUSR1, lambda *_: None)
    try:
        with watch.watched(Deadline("test", None)) as stop:
            signal.raise_signal(signal.SIGUSR1)
            time.sleep(0.2)
            assert stop[0] == 0
    finally:
        signal.signal(signal.SIGUSR1, before)


def test_a_noted_signal_is_delivered_again_at_the_next_deadline_check(monkeypatch):
    from nqueens_cp.backends.base import Deadline
    from nqueens_cp.run import interrupts

    Deadline("test", None).check()
    monkeypatch.setattr(interrupts, "_noted", signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        Deadline("test", None).check()


@pytest.mark.parametrize("failure", [None, ImportError("numba._devicearray failed to import")])
def test_a_command_after_a_lost_ctrl_c_ends_as_interrupted(monkeypatch, capsys, failure):
    """After a dropped Ctrl-C the count ran on and was printed with exit 0; one raised in numba's
    import came back as an ImportError, and a traceback."""
    from nqueens_cp import cli
    from nqueens_cp.cli import solving
    from nqueens_cp.run import interrupts

    real = solving.prepare

    def prepare(*args, **kw):
        interrupts.note(signal.SIGINT)  # the handler ran, and its exception was lost
        if failure is not None:
            raise failure
        return real(*args, **kw)

    monkeypatch.setattr(interrupts, "_noted", None)
    monkeypatch.setattr(solving, "prepare", prepare)
    with pytest.raises(SystemExit) as exit_:
        cli.app(["count", "4"])
    assert exit_.value.code == 130
    out, err = capsys.readouterr()  # (stopped within the count, it says what it counted: nothing)
    assert err.startswith("nqueens: interrupted") and len(err.splitlines()) == 1
    assert out in ("", "0 (partial: at least)\n")


@pytest.mark.parametrize(
    ("where", "args", "said"),
    [
        ("api.profile_partitioned", ["--profile", "--checkpoint"], "a profile is whole or unknown, saved in"),
        ("api.count_partitioned", ["--checkpoint"], "0 solution(s) counted so far (a lower bound); 0 of"),
        ("checked_claim", [], "solution(s) counted so far (a lower bound); --checkpoint FILE would let it resume"),
    ],
    ids=["profile", "partitioned", "count"],
)
def test_a_sigterm_that_comes_back_as_another_error_still_says_what_was_kept(
    monkeypatch, capsys, tmp_path, terminating, where, args, said
):
    """A SIGTERM raised inside a pool's clean-up came back as another error: `count 21 --profile
    --checkpoint F` ended with 143 and the bare line "nqueens: terminated", not saying that the
    profile is unknown and where its work is kept, as the same stop elsewhere says."""
    from nqueens_cp import cli
    from nqueens_cp.cli import solving
    from nqueens_cp.run import interrupts

    def stopped(*args, **kw):
        interrupts.note(signal.SIGTERM)  # the handler ran; its exception became another one
        raise RuntimeError("a pool's clean-up failed")

    owner, name = (solving.api, where[4:]) if where.startswith("api.") else (solving, where)
    monkeypatch.setattr(interrupts, "_noted", None)
    monkeypatch.setattr(interrupts, "_detail", None)
    monkeypatch.setattr(owner, name, stopped)
    if args and args[-1] == "--checkpoint":
        args = [*args, str(tmp_path / "c.jsonl")]
    with pytest.raises(SystemExit) as exit_:
        cli.app(["count", "9", *args])
    assert exit_.value.code == 143
    err = capsys.readouterr().err
    assert err.startswith("nqueens: terminated: ") and said in err and len(err.splitlines()) == 1, err


def test_a_comparison_whose_sigterm_comes_back_as_another_error_still_shows_what_finished(
    monkeypatch, capsys, terminating
):
    """`compare` stopped by SIGTERM shows the summary of the runs that finished; a stop that came
    back as another error (raised in a pool's clean-up) ended it with the bare line instead."""
    from nqueens_cp import cli
    from nqueens_cp.bench import campaign
    from nqueens_cp.run import interrupts

    def stopped(*args, on_row, **kw):
        interrupts.note(signal.SIGTERM)  # the handler ran; its exception became another one
        raise RuntimeError("a pool's clean-up failed")

    monkeypatch.setattr(interrupts, "_noted", None)
    monkeypatch.setattr(campaign, "compare", stopped)
    with pytest.raises(SystemExit) as exit_:
        cli.app(["compare", "--n", "5", "--backends", "bitmask"])
    assert exit_.value.code == 143
    out, err = capsys.readouterr()
    assert "summary" in out and err.startswith("nqueens: terminated") and len(err.splitlines()) == 1, (out, err)


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_without_numba_s_jit_answers_stay_right_or_are_refused(tmp_path):
    """NUMBA_DISABLE_JIT=1 made the kernels run as Python on fixed-width scalars: `count 12`
    printed 14044 with exit 0 (A000170: 14200). The searches on Python integers serve instead,
    and a path that only the kernels run is refused in one line."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    r = nqueens("count", 12, env=env)
    assert (r.returncode, r.stdout.decode().strip()) == (0, "14200"), r.stderr
    blocked = Problem(9, blocked=[(0, 0), (4, 4), (8, 3)])
    r = nqueens("first", 9, "--block", "0,0", "--block", "4,4", "--block", "8,3", "-f", "jsonl", env=env)
    assert r.returncode == 0 and blocked.is_solution(tuple(json.loads(r.stdout))), r.stderr
    r = nqueens("first", 40, "--lexicographic", "--time-limit", "1", env=env)
    assert r.returncode == 3, r.stderr
    r = nqueens("count", 12, "--checkpoint", tmp_path / "c.jsonl", env=env)
    assert r.returncode == 2 and "NUMBA_DISABLE_JIT" in one_line(r.stderr)


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_compiled_kernels_are_cached_outside_the_package(tmp_path):
    """numba cached the kernels inside site-packages; pip's uninstall left them, and the
    leftover folder shadowed the editable install of the README's second line."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"XDG_CACHE_HOME": str(tmp_path)}
    r = nqueens("count", 13, env=env)  # (the first size counted by the compiled kernels)
    assert (r.returncode, r.stdout.decode().strip()) == (0, "73712"), r.stderr
    assert list((tmp_path / "nqueens_cp" / "numba").rglob("*.nbi"))


@pytest.mark.long
@pytest.mark.slow
def test_written_files_keep_the_user_s_umask_mode_and_links(tmp_path):
    """-o and checkpoint files were created 0600 whatever the umask, an existing 0664 file
    became 0600, and -o on a symlink replaced the link instead of writing its target."""
    before = os.umask(0o022)
    try:
        new = tmp_path / "new.jsonl"
        assert nqueens("solve", 6, "-f", "jsonl", "-o", new).returncode == 0
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        old = tmp_path / "old.jsonl"
        old.write_text("x\n")
        old.chmod(0o664)
        assert nqueens("solve", 6, "-f", "jsonl", "-o", old).returncode == 0
        assert stat.S_IMODE(old.stat().st_mode) == 0o664 and len(old.read_text().splitlines()) == 4
        link = tmp_path / "link.jsonl"
        link.symlink_to(old)
        assert nqueens("solve", 7, "-f", "jsonl", "-o", link).returncode == 0
        assert link.is_symlink() and len(old.read_text().splitlines()) == 40
        ck = tmp_path / "c.jsonl"
        assert nqueens("count", 11, "--piece", "rook", "--checkpoint", ck).returncode == 0
        assert stat.S_IMODE(ck.stat().st_mode) == 0o644
    finally:
        os.umask(before)


BIG = "9" * 5000  # past Python's 4300-digit limit for int()


@pytest.mark.parametrize(
    "args, says",
    [
        (["count", 8, "--time-limit", "1e308"], "time limit must be"),
        (["count", 8, "--block", f"1,{BIG}"], "--block expects R,C"),
        (["count", BIG], "N must be an integer"),
        (["compare", "--n", f"1..{BIG}"], "--n expects N or A..B"),
        (["generate", "blocked", "--n", BIG, "--blocks", 3], "--n expects integers"),
        (["count", 8, "-b", "sat", "--sat-solver", "cryptosat"], "unknown SAT solver"),
        (["count", 8, "-b", "sat", "--sat-solver", ""], "unknown SAT solver"),
        (["count", 8, "-b", "cpsat", "--cpsat-seed", 2**31], "seed must be a 32-bit integer"),
        (["compare", "--n", "8", "--backends", "cpsat", "--cpsat-seed", -(2**31) - 1], "seed must be a 32-bit"),
        (["report", ".", "--html", "r.html"], ". is a folder"),
    ],
)
def test_bad_values_are_one_line_not_a_traceback(args, says):
    r = nqueens(*args)
    assert r.returncode == 2 and says in one_line(r.stderr)


def test_sat_solvers_listed_are_those_that_run():
    """cryptosat and minisatgh were listed (python-sat names them) though its wheel lacks them."""
    pytest.importorskip("pysat")
    from pysat.solvers import Solver

    from nqueens_cp.backends.sat import _solvers

    for name in _solvers():
        with Solver(name=name, bootstrap_with=[[1, 2], [-1]]) as s:
            assert s.solve() and s.get_model() == [-1, 2]


@pytest.mark.slow
def test_malformed_answers_and_files_are_one_line(tmp_path):
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    r = nqueens("check", 4, nested)
    assert r.returncode == 2 and "nested too deeply" in one_line(r.stderr)
    huge = tmp_path / "huge.txt"
    huge.write_text(f"1 3 0 {BIG}\n")
    r = nqueens("check", 4, huge)
    assert r.returncode == 1 and "more than 18 digits" in r.stdout.decode()
    r = subprocess.run(
        [script(), "check", "4", "-"],
        capture_output=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(0),
    )
    assert r.returncode == 2 and "standard input is closed" in one_line(r.stderr)
    ck = tmp_path / "c.jsonl"
    ck.write_text('{"nqueens_checkpoint": 2, "fingerprint": [1, 2]}\n')
    r = nqueens("count", 11, "--piece", "rook", "--checkpoint", ck)
    assert r.returncode == 2 and "fingerprint is not an object" in one_line(r.stderr)


@pytest.mark.slow
def test_a_short_csv_results_row_is_one_line(tmp_path):
    out = tmp_path / "r.csv"
    assert nqueens("compare", "--n", 5, "--backends", "bitmask", "-o", out).returncode == 0
    out.write_text(out.read_text().rstrip("\n").rsplit(",", 3)[0] + "\n")  # the row lost its last cells
    r = nqueens("compare", "--n", 5, "--backends", "bitmask", "-o", out, "--resume")
    assert r.returncode == 2 and "not a results file" in one_line(r.stderr)


@pytest.fixture(scope="module")
def jsonl_row(tmp_path_factory) -> str:
    """The results row of one comparison, made once for the cases that spoil a field of it."""
    out = tmp_path_factory.mktemp("row") / "r.jsonl"
    assert nqueens("compare", "--n", 5, "--backends", "bitmask", "--time-limit", 5, "-o", out).returncode == 0
    return out.read_text()


@pytest.mark.slow
@pytest.mark.parametrize(
    "change, says",
    [
        ({"instance": [1, 2]}, "instance is [1, 2]"),
        ({"seconds": "fast"}, "seconds is 'fast'"),
        ({"answer": {"x": 1}}, "answer is"),
        ({"check": "banana: yes"}, "check is 'banana: yes'"),
        ({"seconds": None}, None),  # a run with no time: under the limit in force, unknown
    ],
)
def test_a_malformed_jsonl_results_row_is_one_line(tmp_path, jsonl_row, change, says):
    out = tmp_path / "r.jsonl"
    limit = ("--time-limit", 5)
    out.write_text(json.dumps({**json.loads(jsonl_row), **change}) + "\n")
    r = nqueens("compare", "--n", 5, "--backends", "bitmask", *limit, "-o", out, "--resume", "--json")
    if says is None:
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout.decode().splitlines()[-1])["summary"][0]["unknown"] == 1
    else:
        assert r.returncode == 2 and says in one_line(r.stderr)


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_sat_solver_python_sat_cannot_interrupt_stops_at_once(sig, code):
    """SIGTERM during CaDiCaL's call was honoured only when the call ended (18-60 s)."""
    pytest.importorskip("pysat")
    result, took, err, child = interrupt_when(["count", 16, "-b", "sat"], with_workers(1), sig)  # the solver runs
    assert result == code and took < STOP and one_line(err).startswith(f"nqueens: {signal_name(sig)}")
    assert gone(child)


def signal_name(sig: int) -> str:
    return "terminated" if sig == signal.SIGTERM else "interrupted"


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_checking_a_claim_on_the_largest_board_fits_in_memory():
    """`check 10000000` of a "no solution" claim was killed by the kernel at 24 GB (then 2.7 GB:
    the validator's dicts, and the 10^7 columns printed)."""
    import resource

    def two_gigabytes() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    r = subprocess.run(
        [script(), "check", "10000000", "-"],
        input=b"s UNSATISFIABLE\n",
        capture_output=True,
        preexec_fn=two_gigabytes,
        timeout=110,  # killed before the test's own timeout: a slow run left the process behind
    )
    assert r.returncode == 1 and b"claims no solution, but one exists" in r.stdout, r.stderr[-300:]


def test_checking_answers_holds_their_distinct_solutions_compactly_and_a_few_faults(tmp_path):
    """`check` held every valid solution as a tuple and every invalid answer with its reason:
    a file of 2.3 million answers took 469 MB (now 219 MB), millions of wrong lines all of them."""
    from nqueens_cp.check.answers import KEPT, Answer, SolutionSet, judge

    p = Problem(8)
    held = SolutionSet(p.n)
    sols = list(nq.solve(p))
    for s in sols:
        held.add(s)
    assert len(held) == 92 and sols[5] in held and set(held) == set(sols)
    assert isinstance(next(iter(held._items)), bytes)  # 8 bytes a solution, not a tuple of ints
    wrong = [Answer(i + 1, (0,) * 8) for i in range(1000)] + [Answer(2000, sols[0]), Answer(2001, sols[0])]
    j = judge(iter(wrong), p)
    assert (j.invalid_count, len(j.invalid), j.duplicate_count, j.distinct) == (1000, KEPT, 1, 1)
    answers = tmp_path / "a.txt"
    answers.write_text("0 0 0 0 0 0 0 0\n" * 100)
    r = run("check", 8, answers)
    assert r.exit_code == 1 and f"... and {100 - KEPT} more invalid" in r.stdout
    assert r.stdout.count("invalid, line") == KEPT


def test_small_inputs_that_went_wrong_in_the_audit(tmp_path, monkeypatch):
    """compare --time-limit 1e300 was a traceback; TOML rows = 0 said "board size 0"; a relative
    XDG_CACHE_HOME or an empty HOME put the cache in odd places; dir(nqueens_cp) listed no API."""
    from nqueens_cp.run.compiled import cache_dir

    r = run("compare", "--n", 5, "--backends", "bitmask", "--time-limit", "1e300")
    assert r.exit_code == 2 and "--time-limit must be" in r.stderr
    model = tmp_path / "r0.toml"
    model.write_text("n = 8\nrows = 0\n")
    r = run("count", "--model", model)
    assert r.exit_code == 2 and "rows 0 is out of range" in r.stderr
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert os.path.isabs(cache_dir()) and "relative" not in cache_dir()
    monkeypatch.setenv("HOME", "")
    assert cache_dir().startswith(tempfile.gettempdir())
    import nqueens_cp

    assert {"count", "solve", "first", "Problem", "get_backend"} <= set(dir(nqueens_cp))


def _not_a_file(tmp_path: Path, kind: str, name: str) -> Path:
    path = tmp_path / name
    if kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    return path


@pytest.mark.parametrize("kind", ["zero", "fifo", "folder"])
@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("m.toml", ["count", "--model", "{path}"]),
        ("c.jsonl", ["count", "8", "--checkpoint", "{path}", "--check"]),
        ("r.jsonl", ["report", "{path}", "--html", "{path}.html"]),
    ],
)
def test_a_file_that_is_not_a_regular_file_is_refused_in_one_line(tmp_path, kind, name, args):
    """A link to /dev/zero ate all memory (the 64 MB cap read stat's size, 0), a FIFO blocked
    silently."""
    path = _not_a_file(tmp_path, kind, name)
    r = subprocess.run([script(), *(a.format(path=path) for a in args)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert any(why in r.stderr for why in ("not a regular file", "a folder")), r.stderr


def test_a_checkpoint_line_nested_deeper_than_python_parses_is_one_line(tmp_path):
    journal = tmp_path / "c.jsonl"
    journal.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    r = run("count", 8, "--checkpoint", journal, "--check")
    assert r.exit_code == 2 and "not a readable checkpoint" in r.stderr, r.output


@pytest.mark.timeout(120)
def test_a_background_job_that_ignores_ctrl_c_keeps_ignoring_it():
    """A shell without job control starts `nqueens count 16 &` with SIGINT ignored, so that a
    Ctrl-C meant for the foreground leaves it running; the script's handlers took SIGINT back,
    and the count ended as interrupted. It now runs to its answer; SIGTERM still stops it."""

    def ignoring() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    cmd = [script(), "count", "16", "--workers", "1"]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "preexec_fn": ignoring}
    with subprocess.Popen(cmd, **pipes) as proc:
        deadline = time.monotonic() + 60
        while not busy(0.5)(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=100)
    assert (proc.returncode, out.split()) == (0, [b"14772512"]), err  # A000170(16)
    with subprocess.Popen([*cmd[:2], "20"], **pipes) as proc:  # a minute: it is still counting
        while not tree_busy(0.5)(proc.pid) and proc.poll() is None:
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143 and b"terminated" in err, err


def _stopped_count(args, sig) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `nqueens count ...` stopped by `sig` once its workers work."""
    proc = subprocess.Popen(
        [script(), "count", *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and not tree_busy(1.0)(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the count ended before the signal"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
        return proc.returncode, out, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "sig, code",  # (the two signals take one path: Ctrl-C's in the full line)
    [pytest.param(signal.SIGINT, 130, marks=pytest.mark.long), (signal.SIGTERM, 143)],
)
def test_a_count_stopped_by_a_signal_says_what_it_counted_and_how_to_resume(sig, code, tmp_path):
    """A stop by Ctrl-C or SIGTERM printed nothing on stdout, where a time limit's prints the
    partial count: now the same, "at least", the --json record, and a word on --checkpoint."""
    got, out, err = _stopped_count([20], sig)
    assert got == code and re.fullmatch(r"\d+ \(partial: at least\)\n", out), (out, err)
    assert len(err.splitlines()) == 1 and "counted so far" in err and "--checkpoint FILE would let it resume" in err
    got, out, err = _stopped_count([20, "--json"], sig)
    rec = json.loads(out)
    assert got == code and rec["partial"] is True and rec["status"] == "unknown" and rec["count"] >= 0
    got, out, err = _stopped_count([20, "--checkpoint", tmp_path / "c.jsonl"], sig)
    assert got == code and out.endswith("(partial: at least)\n") and "the same command resumes" in err


def _first_stderr_line(args, within: float = 30.0) -> tuple[str, float]:
    """(the first line `nqueens ARGS` writes on stderr, seconds it took); the run is then ended."""
    import select

    proc = subprocess.Popen([script(), *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    try:
        ready = select.select([proc.stderr], [], [], within)[0]
        return (proc.stderr.readline() if ready else ""), time.monotonic() - start
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow
def test_a_count_that_would_take_years_says_so_within_seconds_and_quiet_silences_it():
    """`count 30` off a terminal printed nothing for as long as it ran: years."""
    line, took = _first_stderr_line(["count", 30])
    assert "this count would take about" in line and "years" in line and took < 15, line
    line, _ = _first_stderr_line(["count", 30, "-q"], within=2)
    assert "would take" not in line, line
    limited = run("count", 30, "--time-limit", "0.5")  # a limit silences it too
    assert limited.exit_code == 3 and "would take" not in limited.stderr, limited.output


def test_a_resumed_run_s_estimate_is_for_what_its_checkpoint_has_not_recorded(tmp_path, capsys):
    """The plan's estimate is of a whole run: a resumed count said it again at every resume
    (count 23, resumed across stops, said its whole time each time)."""
    from nqueens_cp.backends.base import Plan
    from nqueens_cp.cli import output

    plan = Plan("count", "x", "y", workers=2, seconds=40000.0)
    journal = tmp_path / "c.jsonl"
    with output.long_count_notice(plan, None, False, journal):  # (none yet: the whole run)
        pass
    assert "about 11 h 06 min" in capsys.readouterr().err
    head = json.dumps({"nqueens_checkpoint": 2, "fingerprint": {"n": 23, "items": 4}})
    journal.write_text("\n".join([head, "{}", "{}", "{}"]) + "\n")  # three of four items recorded
    with output.long_count_notice(plan, None, False, journal):
        pass
    said = capsys.readouterr().err
    assert "about 2 h 46 min" in said and "the 25% of its sub-problems the checkpoint has not recorded" in said, said
    assert said.rstrip().endswith("its checkpoint keeps its work"), said  # (not: "--checkpoint keeps its work")


def test_the_estimate_from_finished_sub_problems_is_said_where_the_plan_has_none(monkeypatch, capsys):
    from nqueens_cp.backends.base import Plan
    from nqueens_cp.cli import output
    from nqueens_cp.run.progress import Tally

    monkeypatch.setattr(output, "MEASURED_AFTER", 0.05)
    tally = Tally(workers=2, done=10, total=1000, cost=800.0)  # 80 s a sub-problem, 990 left: 11 h
    with output.long_count_notice(Plan("count", "x", "y", workers=2), tally, quiet=False):
        time.sleep(0.5)
    assert "would take about 11 h" in capsys.readouterr().err
    with output.long_count_notice(Plan("count", "x", "y", workers=2), Tally(done=10, total=11, cost=1.0), False):
        time.sleep(0.3)
    assert capsys.readouterr().err == ""
