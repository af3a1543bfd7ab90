"""The join's kernels compiled ahead of time (`run.aot`): a count from n = 16 loads no numba once
they are built, a module that is not exactly what was built is never loaded, the kernels stop on
a deadline as the JIT's do, and a build that fails or is interrupted leaves the JIT's kernels
serving and no process behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import nqueens_cp as nq
from nqueens_cp.backends.base import Unknown
from nqueens_cp.backends.bitmask.partitions import constellations, join
from nqueens_cp.run import aot, compiled
from tests.conftest import A000170

pytestmark = pytest.mark.slow

#: `nqueens count 16` in a fresh process (Q(16) is A000170[15]: the list starts at n = 1).
COUNT = (
    "import sys\nfrom nqueens_cp.entry import main\nsys.argv = ['nqueens', 'count', '16', '--workers', '2']\n"
    "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
)


def _aside(tmp_path: Path) -> dict[str, str]:
    """An environment whose modules compiled ahead of time are kept in tmp_path, while numba's
    cache (and the key that seals it) stays this user's, so no JIT kernel is compiled again."""
    key = Path(compiled.cache_dir()).parent / "cache-key"
    compiled._key()  # made if this user has none yet
    (tmp_path / "nqueens_cp").mkdir(parents=True, exist_ok=True)
    shutil.copy(key, tmp_path / "nqueens_cp" / "cache-key")
    numba_cache = os.environ.get("NUMBA_CACHE_DIR") or compiled.cache_dir()
    env = {k: v for k, v in os.environ.items() if k not in (aot.SWITCH, compiled.ANNOUNCED)}
    return env | {"XDG_CACHE_HOME": str(tmp_path), "NUMBA_CACHE_DIR": numba_cache}


def _built(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "nqueens_cp" / "aot").glob(f"{join.KERNELS.name}-*{aot._suffix()}"))


@pytest.mark.parametrize("n", [13, 16])
def test_a_count_from_13_loads_no_numba_once_its_kernels_are_compiled_ahead_of_time(n):
    """numba's import and its load of the cached kernels were 0.4 s of `nqueens count 16`'s
    0.68 s. The first count on a pool builds the module of its kernels (the rings' from n = 13,
    the join's from 16) if this machine had none; the next loads no numba."""
    for _ in range(2):
        code = COUNT.replace("'16'", f"'{n}'") + "print('numba' in sys.modules, 'llvmlite' in sys.modules)"
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(A000170[n - 1]), "False", "False"], r.stderr


def test_only_the_newest_builds_of_a_group_are_kept(tmp_path):
    """Every edit or upgrade makes a module of another stamp: the cache folder would grow by a
    megabyte each time."""
    names = [f"{join.KERNELS.name}-{i:024d}{aot._suffix()}" for i in range(6)]
    for age, name in enumerate(reversed(names)):
        for file in (tmp_path / name, tmp_path / (name + ".seal")):
            file.write_bytes(b"")
            os.utime(file, (1e9 - age, 1e9 - age))
    (tmp_path / "nqueens_other-0.so").write_bytes(b"")  # another group's: not this one's to prune
    aot._prune(join.KERNELS, str(tmp_path / names[0]))  # the oldest, just built
    left = sorted(p.name for p in tmp_path.iterdir())
    kept = [names[0], names[4], names[5]]  # it and the newest others
    assert left == sorted([*kept, *(k + ".seal" for k in kept), "nqueens_other-0.so"])


def test_the_compiled_ahead_kernels_run_without_the_gil():
    """The watcher sets the stop flag from another thread while a kernel runs
    (`backends/watch.py`): the module's wrappers must release the GIL as the JIT's `nogil`
    kernels do. Here a call of a second or so runs in a thread while this one keeps the time:
    holding the GIL, it would stop this thread for the whole call."""
    aot.ensure(join.KERNELS)
    kernels = aot.kernels(join.KERNELS)
    assert kernels.__name__ == join.KERNELS.name  # the module, not the JIT's package
    _, n, sets, weights = join.context(nq.Problem(20))
    tables = kernels.band_tables(n)
    stop = np.zeros(2, np.int64)
    got: list[int] = []
    part = slice(0, 2048)
    worker = threading.Thread(target=lambda: got.append(kernels.count_with(n, sets[part], weights[part], tables, stop)))
    start = last = time.perf_counter()
    worker.start()
    gap = 0.0
    while worker.is_alive():
        now = time.perf_counter()
        gap, last = max(gap, now - last), now
    took = time.perf_counter() - start
    assert got and got[0] > 0 and took > 0.3, took
    assert gap < took / 4, (gap, took)


def test_a_module_built_after_this_process_took_the_jit_s_kernels_is_taken_once_ensured(monkeypatch):
    """`kernels` keeps what it found: the JIT's package where no module could load then (none
    built yet, or AOT switched off). `ensure` cleared that only after a build of its own, so a
    module another process had built meanwhile was never taken: the process ran the JIT's
    kernels to its end (found as this file's checks of the module failing, now and then, after
    other tests had run in the same process)."""
    aot.ensure(join.KERNELS)  # built, if this machine had none
    monkeypatch.setenv(aot.SWITCH, "0")
    aot.load.cache_clear()
    aot.kernels.cache_clear()
    assert aot.kernels(join.KERNELS).__name__ == join.KERNELS.module  # the JIT's, kept
    monkeypatch.delenv(aot.SWITCH)
    aot.ensure(join.KERNELS)  # finds the module built: nothing to build
    assert aot.kernels(join.KERNELS).__name__ == join.KERNELS.name


def test_each_group_s_module_loads_after_another_group_s_in_the_same_process(monkeypatch):
    """Two modules loaded one after the other, each through a descriptor it closed: loaded
    through /proc/self/fd/N, the second took the first's library (the dynamic loader keeps
    libraries by name, and N was free again), found no `PyInit_` of its own and missed. Found as
    this file's checks of the join's module failing, now and then, in workers that had counted
    with the rings' module first."""
    groups = (constellations.RINGS, join.KERNELS, constellations.RINGS)
    for group in groups:
        aot.ensure(group)
    for group in groups:
        monkeypatch.delitem(sys.modules, group.name, raising=False)  # this process's, put back after
        aot.load.cache_clear()
        module = aot.load(group)
        assert module is not None and module.__name__ == group.name, group.name
        assert all(callable(getattr(module, name)) for name in group.exports)
    aot.load.cache_clear()
    assert not list(Path(aot._path(join.KERNELS)).parent.glob(aot.LOADING + "*"))  # no copy left


def test_the_compiled_ahead_kernels_stop_at_a_deadline():
    aot.ensure(join.KERNELS)
    assert aot.kernels(join.KERNELS).__name__ == join.KERNELS.name
    start = time.perf_counter()
    with pytest.raises(Unknown):
        nq.count(20, workers=1, time_limit=0.3)
    assert time.perf_counter() - start < 5


def test_a_module_that_is_not_what_was_built_is_never_loaded(tmp_path, monkeypatch):
    """A module compiled ahead of time runs code when loaded: one edited, or sealed for another
    name, is a miss (the JIT's kernels count then, and the next count builds it again). The
    module is this user's build, the one the other tests load, copied with its seal into a cache
    folder of the test's own (the same key seals both), where it may be edited."""
    aot.ensure(join.KERNELS)
    built = Path(aot._path(join.KERNELS))
    env = _aside(tmp_path)
    folder = tmp_path / "nqueens_cp" / "aot"
    folder.mkdir()
    path = folder / built.name
    shutil.copy(built, path)
    shutil.copy(str(built) + ".seal", str(path) + ".seal")
    assert _built(tmp_path) == [path]
    monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
    monkeypatch.delenv(aot.SWITCH, raising=False)
    monkeypatch.delitem(sys.modules, join.KERNELS.name, raising=False)  # this process's, put back after
    aot.load.cache_clear()
    try:
        assert aot.load(join.KERNELS) is not None  # as built: loaded
        other = path.with_name(path.name.replace(join.KERNELS.name, join.KERNELS.name + "x"))
        shutil.copy(path, other)
        shutil.copy(str(path) + ".seal", str(other) + ".seal")  # a true seal, but of another file's name
        with open(other, "rb") as f:
            assert not aot._sealed(str(other), f.read())
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.chmod(0o700)
        path.write_bytes(bytes(data))
        aot.load.cache_clear()
        assert aot.load(join.KERNELS) is None  # edited: refused
    finally:
        aot.load.cache_clear()


def test_a_failed_build_is_recorded_and_the_jit_serves(tmp_path):
    """Without a C compiler the build fails: the count is right all the same (the JIT's
    kernels), and the next count does not try again (nor says it compiles). What killed builds
    and loads left is cleared on the way."""
    env = _aside(tmp_path) | {"CC": "false"}
    folder = tmp_path / "nqueens_cp" / "aot"
    folder.mkdir()
    left = [folder / ".build-nqueens_join-killed", folder / ".build-nqueens_rings-running"]
    for where in left:  # a build killed outright (SIGKILL), and another group's, under way
        where.mkdir()
        (where / "part.o").write_bytes(b"")
    stale = [folder / "nqueens_join-older.so.failed", folder / "nqueens_rings-older.so.failed"]
    for where in stale:
        where.write_text("an older stamp's failure")
    copies = [folder / f"{aot.LOADING}killed{aot._suffix()}", folder / f"{aot.LOADING}loading{aot._suffix()}"]
    for where in copies:  # a load's private copy left by a kill long ago, and one being loaded
        where.write_bytes(b"")
    os.utime(copies[0], (time.time() - aot.BUILD_SECONDS - 60,) * 2)
    said = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", COUNT], capture_output=True, text=True, env=env, timeout=900)
        assert r.returncode == 0 and r.stdout.split() == [str(A000170[15])], r.stderr
        said.append("compiling" in r.stderr)
    assert said == [True, False]
    assert _built(tmp_path) == []
    assert [p.exists() for p in left + stale] == [False, True, False, True], "only the group's own leftovers go"
    assert [p.exists() for p in copies] == [False, True], "only a copy older than a build may take"
    assert len(list(folder.glob("nqueens_join-*.failed"))) == 1


def _children(pid: int) -> list[int]:
    """Every process descended from pid (Linux's /proc)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            kids = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        found += [int(k) for k in kids]
        todo += [int(k) for k in kids]
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_sigterm_during_a_build_stops_it_and_leaves_no_process(tmp_path):
    env = _aside(tmp_path)
    cmd = [sys.executable, "-c", "from nqueens_cp.entry import main; main()", "count", "16"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        builder = None
        deadline = time.monotonic() + 120
        while builder is None and time.monotonic() < deadline and proc.poll() is None:
            builder = next((p for p in _children(proc.pid) if "nqueens_cp.run.aot" in _cmdline(p)), None)
            time.sleep(0.01)
        assert builder is not None, "no build started"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143 and len(err.decode().strip().splitlines()) <= 2, err
    # The build, its guardian and its compilers go at once: within 2 s no process names its
    # folder. A stop that came while the build started (1 run in 3 beside two hogs) left it
    # running alone, some 7 s, until it wrote to the pipe we had closed; where we exit without
    # a handle on it now, its guardian ends it within milliseconds.
    deadline = time.monotonic() + 2
    while (left := _naming(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert left == [], left
    assert _built(tmp_path) == []


def _naming(folder: Path) -> list[str]:
    """The command lines of the processes that name `folder`."""
    lines = (_cmdline(int(pid)) for pid in os.listdir("/proc") if pid.isdigit())
    return [line for line in lines if str(folder) in line]
