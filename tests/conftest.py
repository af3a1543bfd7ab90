"""Shared test helpers. Ground truth here is written independently of the package: an attack
check and an exhaustive search over rows, the OEIS tables, closed forms and Ryser's formula."""

from __future__ import annotations

import csv
import importlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from nqueens_cp import Problem
from nqueens_cp.backends.base import Deadline


def oeis(number: str) -> list[int]:
    """The terms of OEIS sequence `number` as tests/data/oeis.tsv holds them (copied from the
    OEIS data; the first term is the sequence's offset's)."""
    for line in (Path(__file__).parent / "data" / "oeis.tsv").read_text().splitlines():
        fields = line.split("\t")
        if fields[0] == number:
            return [int(t) for t in fields[3].split(",")]
    raise KeyError(number)


def benchmark(name: str) -> ModuleType:
    """The module of benchmarks/NAME.py, imported as its docstring runs it (from that folder)."""
    folder = str(Path(__file__).resolve().parent.parent / "benchmarks")
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(folder)


def triangle(terms: list[int], first: int = 0) -> list[list[int]]:
    """A triangle read by rows (OEIS's `tabl`), its row n holding n + 1 entries, from row `first`."""
    out, at, n = [], 0, first
    while at < len(terms):
        out.append(terms[at : at + n + 1])
        at += n + 1
        n += 1
    return out


#: OEIS A000170: solutions of n-queens, n = 1..16 (tests/data/oeis.tsv holds it from n = 0)
A000170 = oeis("A000170")[1:17]
#: OEIS A002562: fundamental solutions (up to the 8 symmetries of the square), n = 1..
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]

#: OEIS A007705: toroidal n-queens, n = 1..13 (none when 2 or 3 divides n)
A007705 = [1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524]
#: OEIS A051223: superqueens (queen + knight), n = 1..13
A051223 = [1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 156, 1876]

#: CSPLib prob080 instances with the counts of the independent brute force that shipped them;
#: kept in the repository so that a clone runs these tests.
CSPLIB_DIR = Path(__file__).resolve().parent / "data" / "csplib-blocked-10"
MODELS = Path(__file__).resolve().parents[1] / "models"


def csplib_cases() -> list:
    """The CSPLib instance names to parametrize over."""
    return sorted(p.name for p in CSPLIB_DIR.glob("*.param"))


# -- the two test lines --------------------------------------------------------------------------
#
# `python -m pytest` (the README's line) runs every test but those marked `long`, each property
# test with a tenth of its examples; `python -m pytest --full` (.ci/run) runs every test with all
# of them, and fails if any test was left out. The examples are a profile of Hypothesis's, so a
# test states its full budget once: `@settings(max_examples=examples(150))`.

settings.register_profile("full", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", settings.get_profile("full"), max_examples=10)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="every test, the long ones too, with every property test's full examples (what .ci/run runs)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--full") and getattr(config.option, "numprocesses", None):
        # each of xdist's workers collects and deselects on its own, out of the sight of the
        # check below that fails a full run which left a collected test out
        raise pytest.UsageError("--full runs in one process (no -n): it checks that no collected test was left out")
    settings.load_profile("full" if config.getoption("--full") else "quick")
    # Started in the background by a shell without job control (`pytest ... &` in a script, a
    # CI step), this process inherits SIGINT ignored, and Python then installs no handler: the
    # tests of how a Ctrl-C is delivered would fail for the runner's sake. They run as from a
    # terminal; the processes they start get SIGINT's default, as from a terminal.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def examples(full: int) -> int:
    """A property test's examples: `full` under the full profile, in proportion under the quick
    one (at least 3, so that each still draws several boards)."""
    return max(3, full * settings.default.max_examples // 100)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--full"):
        if config.option.markexpr or config.option.keyword:
            raise pytest.UsageError("--full runs every test: it takes no -m or -k")
        return
    long = [item for item in items if item.get_closest_marker("long")]
    if long:
        config.hook.pytest_deselected(items=long)
        items[:] = [item for item in items if not item.get_closest_marker("long")]


_left_out: list[str] = []


@pytest.hookimpl(trylast=True)
def pytest_deselected(items: list[pytest.Item]) -> None:
    _left_out.extend(item.nodeid for item in items)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under --full, a run that left a collected test out (a plugin's selection, `--lf`) fails."""
    if session.config.getoption("--full") and _left_out:
        session.config.get_terminal_writer().line(
            f"--full left out {len(_left_out)} collected tests (first: {_left_out[0]})", red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def terminating():
    """The `nqueens` script's SIGTERM handler (`entry`) for the app run in this process: it notes
    the signal (`interrupts`) and raises the app's Terminated. Its state is undone after."""
    from nqueens_cp.cli import Terminated
    from nqueens_cp.run import interrupts

    def terminated(signum, _frame):
        interrupts.note(signum)
        raise Terminated

    noted, detail = interrupts._noted, interrupts._detail
    before = signal.signal(signal.SIGTERM, terminated)
    yield
    signal.signal(signal.SIGTERM, before)
    interrupts._noted, interrupts._detail = noted, detail


@pytest.fixture(autouse=True)
def _stopping_signals_not_left_blocked():
    """A test that leaves SIGINT or SIGTERM blocked in this process's main thread fails itself,
    and is undone: otherwise the tests after it failed instead, far from the cause (every process
    the suite started inherited the mask and ignored the Ctrl-C sent to it, and a signal raised
    here stayed pending)."""
    stopping = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, []) & stopping
    yield
    left = (signal.pthread_sigmask(signal.SIG_BLOCK, []) & stopping) - before
    if left:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, left)
        pytest.fail(f"the test left {sorted(s.name for s in left)} blocked")


#: The processes the suite starts say nothing of compiling the kernels: on a fresh machine the
#: first of them to need a kernel would each time be a different test, whose stderr it checks.
#: The notice has tests of its own (test_cache_files.py), which clear this.
os.environ["NQUEENS_CP_COMPILING_SAID"] = "1"

_runner = CliRunner()


def run(*args, input: str | None = None):
    """The CLI in this process (Typer's CliRunner), `input` its stdin."""
    from nqueens_cp.cli import app

    return _runner.invoke(app, [str(a) for a in args], input=input)


def script() -> str:
    """The installed `nqueens` script, for tests that need a real process."""
    exe = Path(sys.executable).with_name("nqueens")
    return str(exe) if exe.exists() else shutil.which("nqueens") or pytest.skip("nqueens script not installed")


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`, read from /proc/*/stat (works on every Linux)."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to see child processes")
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def tree(pid: int) -> dict[int, str]:
    """Every live process below `pid` (children, theirs, ...), whatever their process group,
    with its command name read now (once it has ended, its name can no longer be read)."""
    found, frontier = {}, [pid]
    while frontier:
        for child in children(frontier.pop()):
            if "zombie" not in _state(child):
                found[child] = command_name(child)
            frontier.append(child)
    return found


def command_name(pid: int) -> str:
    """The process's command name (/proc/PID/comm), or "" once it has ended."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def has_descendant(name: str) -> Callable[[int], bool]:
    """Readiness: a process named `name` runs somewhere below the process (a solver started by
    the program we started)."""
    return lambda pid: any(found.startswith(name) for found in tree(pid).values())


def watched_run(args, limit: float = 60.0) -> tuple[subprocess.CompletedProcess, dict[int, str]]:
    """Run the nqueens script with `args` to its end, noting every process that ran below it
    (sampled every 20 ms); returns (the finished run, those processes with their names). Only
    processes this test started are looked at: a busy machine's other work is not ours."""
    proc = subprocess.Popen([script(), *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen: dict[int, str] = {}
    try:
        deadline = time.monotonic() + limit
        while proc.poll() is None and time.monotonic() < deadline:
            seen.update(tree(proc.pid))
            time.sleep(0.02)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), seen


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].lower()
    except (OSError, IndexError):
        return "zombie"


def gone(pids, within: float = 5.0) -> bool:
    """Whether every process in `pids` has ended (a zombie has) by `within` seconds from now;
    looked at once at least, so `within=0` asks "gone already?"."""
    deadline = time.monotonic() + within
    while True:
        if not any(Path(f"/proc/{p}").exists() and "zombie" not in _state(p) for p in pids):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def cpu_seconds(pid: int) -> float:
    """CPU time process `pid` has used (user + system, from /proc/PID/stat); 0 once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def busy(cpu: float) -> Callable[[int], bool]:
    """Readiness: the process has done `cpu` seconds of work (more than its start-up takes), so
    it is searching; unlike a fixed sleep, a loaded machine cannot make it come too early."""
    return lambda pid: cpu_seconds(pid) >= cpu


def tree_busy(cpu: float) -> Callable[[int], bool]:
    """Readiness: the process or one below it (a forked solver child) has done `cpu` seconds of
    work; a parent that waits on its child's stream spends little CPU of its own."""
    return lambda pid: any(cpu_seconds(p) >= cpu for p in [pid, *tree(pid)])


def with_workers(k: int) -> Callable[[int], bool]:
    """Readiness: the process has its `k` worker processes."""
    return lambda pid: len(children(pid)) >= k


def interrupt_when(args, ready: Callable[[int], bool], sig=signal.SIGINT, limit: float = 60.0):
    """Run the nqueens script with `args`, wait until `ready(pid)` (at most `limit` seconds), send
    `sig`. Returns (exit code, seconds from the signal to the exit, stderr, the processes below
    the script when the signal was sent, with their names); the script is killed if it outlives the test."""
    proc = subprocess.Popen([script(), *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + limit
        while proc.poll() is None and not ready(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before the signal"
        workers = tree(proc.pid)
        sent = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        return proc.returncode, time.monotonic() - sent, err, workers
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def on_a_terminal(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    """(exit code, stdout, what the terminal got) of `args` run with stderr on a pseudo-terminal
    (a live line or a notice that only a terminal sees), stdout on a pipe."""
    import pty
    import select

    main, side = pty.openpty()
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=side, env=env, text=True) as proc:
        os.close(side)
        seen = b""
        while True:  # the terminal read until the process has ended and it is drained
            if select.select([main], [], [], 0.2)[0]:
                try:
                    chunk = os.read(main, 4096)
                except OSError:  # the other side closed
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        out = proc.stdout.read() if proc.stdout else ""
        proc.wait(timeout=60)
    os.close(main)
    return proc.returncode, out, seen


def children_of_a_killed_run(
    args, ready: Callable[[int], bool], limit: float = 60.0, tmpdir: Path | None = None
) -> tuple[dict[int, str], bool]:
    """Run the nqueens script with `args` (its temporary files in `tmpdir`, if given), wait
    until `ready(pid)`, SIGKILL it (no handler runs). Returns (every process below it at the
    kill, whether they were all gone soon after)."""
    env = {**os.environ, "TMPDIR": str(tmpdir)} if tmpdir is not None else None
    proc = subprocess.Popen([script(), *map(str, args)], stdout=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + limit
        while proc.poll() is None and not ready(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        kids = tree(proc.pid)
        proc.kill()
        proc.wait(timeout=10)
        return kids, gone(kids)
    finally:
        for pid in tree(proc.pid):
            os.kill(pid, signal.SIGKILL)


def csplib_counts() -> dict[str, int]:
    """The instances' solution counts from the independent brute force that shipped them."""
    table = CSPLIB_DIR / "counts.tsv"
    rows = [line.split("\t") for line in table.read_text().splitlines()[1:] if line.strip()]
    return {name: int(count) for name, _n, _blocks, count in rows}


def attacks(piece: str, a: tuple[int, int], b: tuple[int, int], n: int = 0, torus: bool = False) -> bool:
    """Written out from the definitions: on a torus, moves wrap (each difference mod n)."""
    dr, dc = a[0] - b[0], a[1] - b[1]
    if dr == 0 or dc == 0:
        return True
    if torus:
        diag = (dr - dc) % n == 0 or (dr + dc) % n == 0
        knight = any(
            (dr - x) % n == 0 and (dc - y) % n == 0 for x in (1, -1, 2, -2) for y in (1, -1, 2, -2) if abs(x) != abs(y)
        )
    else:
        diag = abs(dr) == abs(dc)
        knight = {abs(dr), abs(dc)} == {1, 2}
    if piece == "queen":
        return diag
    if piece == "superqueen":
        return diag or knight
    if piece == "RF":  # a rook and a ferz (a diagonal step), written out for plain boards only
        assert not torus
        return abs(dr) == abs(dc) == 1
    return False


def row_by_row(n: int, rows: int, blocked, fixed, clash: Callable) -> Iterator[tuple[int, ...]]:
    """Every placement of one piece in each of the first k rows of a board n columns wide, for
    k = 0..rows (the columns, row by row), no two of its pieces clashing: `clash(a, b)` for a
    piece on a, in a row above, and one on b. A prefix with a clashing pair extends to no
    placement without it, so each square is tried against the rows above it only (the same set
    as filtering every tuple, which took 16 s at n = 10). Blocked squares are never used; a
    fixed piece's row takes its column alone, and a row with two fixed pieces none."""
    blocked, fixed_at = set(blocked), {}
    for r, c in fixed:
        fixed_at.setdefault(r, set()).add(c)
    cols: list[int] = []

    def extend(r: int) -> Iterator[tuple[int, ...]]:
        yield tuple(cols)
        if r == rows:
            return
        here = fixed_at.get(r)
        for c in range(n) if here is None else here if len(here) == 1 else ():
            if (r, c) in blocked or any(clash((i, d), (r, c)) for i, d in enumerate(cols)):
                continue
            cols.append(c)
            yield from extend(r + 1)
            cols.pop()

    yield from extend(0)


def brute_force(n: int, piece: str = "queen", blocked=(), fixed=(), torus: bool = False) -> set[tuple[int, ...]]:
    """Every placement of one piece per row that the rules written out above allow (a piece
    tried against every piece placed before it, `row_by_row`)."""
    placed = row_by_row(n, n, blocked, fixed, lambda a, b: attacks(piece, b, a, n, torus))  # (the new piece's moves)
    return {cols for cols in placed if len(cols) == n}


def brute_force_problem(p: Problem) -> set[tuple[int, ...]]:
    return brute_force(p.n, p.piece, p.blocked, p.fixed, p.torus)


def backtrack_count(p: Problem) -> int:
    """Solutions counted by a plain recursive backtracking over rows with the attack rule above:
    independent of the package's searches, and fast enough for n = 10."""
    blocked, fixed = set(p.blocked), dict(p.fixed)
    placed: list[tuple[int, int]] = []

    def extend(r: int) -> int:
        if r == p.n:
            return 1
        total = 0
        for c in [fixed[r]] if r in fixed else range(p.n):
            sq = (r, c)
            if sq in blocked or any(attacks(p.piece, sq, other, p.n, p.torus) for other in placed):
                continue
            if any(f[0] > r and attacks(p.piece, sq, f, p.n, p.torus) for f in p.fixed):
                continue
            placed.append(sq)
            total += extend(r + 1)
            placed.pop()
        return total

    return extend(0)


def problem_strategy(max_n: int):
    """Random queen or rook boards up to max_n with blocked squares and up to two fixed pieces."""

    @st.composite
    def build(draw):
        from nqueens_cp import InvalidProblem

        n = draw(st.integers(1, max_n))
        piece = draw(st.sampled_from(["queen", "rook"]))
        squares = [(r, c) for r in range(n) for c in range(n)]
        blocked = draw(st.lists(st.sampled_from(squares), max_size=n * n // 3))
        free = [sq for sq in squares if sq not in blocked]
        fixed = draw(st.lists(st.sampled_from(free), max_size=2)) if free else []
        try:
            return Problem(n, piece, blocked=blocked, fixed=fixed)
        except InvalidProblem:
            return Problem(n, piece, blocked=blocked)

    return build()


# -- the generic count in one call: the reference the engine's work items are checked against ---


def count_any(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> int:
    """The whole board in one call, not cut into the engine's work items: the number of
    solutions of any piece and board shape, from the generic kernel or the piece's own
    (`searches.count_into`); raises Unknown (with a lower bound: the solutions found) at the
    deadline. The first two rows are narrowed by the symmetries that hold (`first_rows`), each
    part weighted."""
    from nqueens_cp.backends.bitmask.tables import first_rows, masks_array, moves, narrowed

    masks = masks_array(problem)
    parts = first_rows(problem)
    stacked = np.stack([narrowed(masks, row0, row1) for row0, row1, _ in parts])
    weights = np.array([weight for *_, weight in parts], np.int64)
    return count_parts(stacked, *moves(problem), weights, stats, deadline)


def count_parts(
    masks: np.ndarray,
    slides: np.ndarray,
    reach: np.ndarray,
    weights: np.ndarray,
    stats: dict[str, int],
    deadline: Deadline | None = None,
) -> int:
    """The sum of weights[i] times the solutions of the row masks masks[i] (the generic kernel's
    tables `slides` and `reach`); its placements are added to stats["nodes"]. A deadline, if
    any, and Ctrl-C stop the count mid-call (watch.py): Unknown, with the solutions found (the
    stopped part's so far included) as the lower bound."""
    import contextlib

    from nqueens_cp.backends.bitmask.searches import count_into
    from nqueens_cp.backends.watch import NODES, tally, watched

    out = np.zeros(weights.size, np.int64)
    with watched(deadline) if deadline is not None else contextlib.nullcontext(tally()) as stop:
        try:
            count_into(masks, slides, reach, weights, out, stop, deadline)
        finally:
            stats["nodes"] = stats.get("nodes", 0) + int(stop[NODES])
    if deadline is not None:
        deadline.check(int(out.sum()))
    return int(out.sum())


# -- headless Chromium, for the tests of what a browser shows (the report, the boards' SVG) --

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def browser_missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not (BROWSER and DRIVER):
        return "Chromium and its driver are not installed (apt-get install chromium chromium-driver)"
    return None


browser_test = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if browser_missing():
        pytest.skip(browser_missing())
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    profile = tmp_path_factory.mktemp("chromium")  # its profile goes with the test's files, not in $TMPDIR
    flags = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1800")
    options.add_argument(f"--user-data-dir={profile}")
    for flag in flags:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def compared(folder: Path, sizes: str, backends: str, edit: Callable[[list[dict[str, str]]], None]) -> Path:
    """A real comparison's results file (`compare --n SIZES --backends B -o runs.csv`, in a
    process of its own), its rows then changed by `edit` as a test needs them."""
    out = folder / "runs.csv"
    args = ["compare", "--n", sizes, "--backends", backends, "--time-limit", "20", "-o", str(out)]
    r = subprocess.run([script(), *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(out.open()))
    edit(rows)
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return out
