"""A cache file is never trusted (issue 34, item 3): an edited generated kernel counted 5702
where the truth is 2405; an empty or cut-short kernel file, or a corrupt numba index, gave a
traceback on every later run. Each is checked here in a cache folder of the test's own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import on_a_terminal, script
from tests.test_pieces import A137774

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

#: Counts RN on 10x10 with the piece's own kernel from the first placement; prints the count
#: and the generated kernel's file.
COUNT_WITH_OWN_KERNEL = """
import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.kernels import generated
from nqueens_cp.backends.bitmask.tables import moves
generated.CACHE = generated.KernelCache(specialise_after=0)
p = Problem(10, "RN")
print(nq.count(p))
k = generated.key(*moves(p), p.rows)
print(generated.CACHE.path(k)[1])
"""


def _env(cache) -> dict[str, str]:
    """A fresh cache folder, whose counts run numba's kernels: these tests are about its cache
    files, which a module compiled ahead of time would stand in for (`run.aot`, tests/test_aot.py)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    return env | {"XDG_CACHE_HOME": str(cache), "NQUEENS_CP_AOT": "0"}


def _own_kernel(cache) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-c", COUNT_WITH_OWN_KERNEL], capture_output=True, text=True, env=_env(cache), timeout=240
    )
    assert proc.returncode == 0, proc.stderr
    count, path = proc.stdout.split()
    return int(count), path, proc.stderr


@pytest.mark.long
def test_an_edited_or_cut_short_kernel_file_is_written_again(tmp_path):
    count, path, _ = _own_kernel(tmp_path)
    assert count == A137774[9]
    right = Path(path).read_text()
    with open(path, "w") as f:  # an edit that counts every solution twice
        f.write(right.replace("total += got", "total += 2 * got"))
    assert _own_kernel(tmp_path)[0] == A137774[9]
    assert Path(path).read_text() == right
    for cut in ("", right[: len(right) // 2]):
        with open(path, "w") as f:
            f.write(cut)
        assert _own_kernel(tmp_path)[:2] == (A137774[9], path)
        assert Path(path).read_text() == right


def _cli(cache, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the script, less the notice that it compiles and the
    summary line a count that ran over SUMMARY_AFTER writes when stderr is no terminal:
    compiling on a busy machine can take that long (this test failed so on a loaded machine),
    and neither line says anything wrong."""
    proc = subprocess.run([script(), *args], capture_output=True, text=True, env=_env(cache), timeout=240)
    expected = ("nqueens: sub-problems: ", "nqueens: compiling the search kernels")
    said = "".join(line for line in proc.stderr.splitlines(True) if not line.startswith(expected))
    return proc.returncode, proc.stdout.strip(), said


@pytest.mark.long
def test_corrupt_numba_cache_files_are_compiled_again(tmp_path):
    _own_kernel(tmp_path)
    assert _cli(tmp_path, "count", "13") == (0, "73712", "")  # the queen's kernels cached too
    corrupted = 0
    for folder, _, files in os.walk(tmp_path):
        for i, name in enumerate(sorted(files)):
            if name.endswith((".nbi", ".nbc")):
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(b"" if i % 2 else b"\x80\x04not a pickle")
                corrupted += 1
    assert corrupted >= 4
    for args, expected in ((["count", "10", "--piece", "RN"], A137774[9]), (["count", "13"], 73712)):
        assert _cli(tmp_path, *args) == (0, str(expected), "")
    assert _own_kernel(tmp_path)[0] == A137774[9]


class _Crafted:
    """A pickle that makes a folder when it is loaded: what a crafted cache file can do."""

    def __init__(self, made: Path) -> None:
        self.made = made

    def __reduce__(self) -> tuple:
        return (os.mkdir, (str(self.made),))


@pytest.mark.long
def test_a_crafted_or_borrowed_cache_file_is_never_loaded(tmp_path):
    """A crafted .nbc or .nbi ran its code when numba unpickled it, and a .nbc copied from another
    kernel broke every later count with a traceback. Each is a miss now: the count is right, the
    crafted code never runs, and the kernel's files are written again."""
    import pickle

    from nqueens_cp.run.compiled import MAGIC

    cache = tmp_path / "cache"
    assert _cli(cache, "count", "13") == (0, "73712", "")
    kernels = sorted(cache.rglob("*.nbc"))
    assert len(kernels) >= 2
    made = tmp_path / "made-by-a-cache-file"
    crafted = pickle.dumps(_Crafted(made))
    for i, path in enumerate(sorted(cache.rglob("*.nb[ci]"))):
        path.write_bytes(crafted if i % 2 else MAGIC + bytes(32) + crafted)  # bare, or with a forged seal
    assert _cli(cache, "count", "13") == (0, "73712", "")
    assert not made.exists()
    assert pickle.dumps(_Crafted(made)) not in [p.read_bytes() for p in cache.rglob("*.nb[ci]")]  # written anew
    borrowed = sorted(cache.rglob("*.nbc"))
    contents = [path.read_bytes() for path in borrowed]
    for path, other in zip(borrowed, contents[1:] + contents[:1], strict=True):  # each kernel holds another's file
        path.write_bytes(other)
    assert _cli(cache, "count", "13") == (0, "73712", "")
    assert _cli(cache, "count", "14") == (0, "365596", "")


def _count_on_a_terminal(cache: Path, n: int) -> tuple[str, bytes]:
    """`nqueens count n` with stderr on a pseudo-terminal: (stdout, what the terminal got)."""
    env = _env(cache) | {"NQUEENS_CP_COMPILING_SAID": ""}
    cmd = [sys.executable, "-c", "from nqueens_cp.entry import main; main()", "count", str(n)]
    _, out, seen = on_a_terminal(cmd, env)
    return out, seen


@pytest.mark.long
def test_the_first_compile_is_announced_once_on_a_terminal(tmp_path):
    """The first count after an install paused for up to a minute without a word."""
    out, seen = _count_on_a_terminal(tmp_path, 13)
    assert out.strip() == "73712" and seen.count(b"compiling the search kernels") == 1
    out, seen = _count_on_a_terminal(tmp_path, 13)  # compiled now: nothing to say
    assert out.strip() == "73712" and b"compiling" not in seen


def test_the_compile_notice_is_said_once_on_stderr_whatever_it_is(monkeypatch):
    """Off a terminal nothing said why the first count after an install took a minute."""
    import io

    from nqueens_cp.run.compiled import ANNOUNCED, announce_compiling

    monkeypatch.setenv(ANNOUNCED, "")
    piped = io.StringIO()
    announce_compiling(piped)
    announce_compiling(piped)
    assert piped.getvalue().count("\n") == 1 and "compiling" in piped.getvalue()


def test_a_kernel_s_stamp_covers_the_modules_it_imports(tmp_path, monkeypatch):
    """numba keeps a kernel while its own file's digest holds: an edit to intrinsics.py alone
    (the matcher's BLOCK) left the matcher compiled from the old code. The stamp (what the
    cache's index must match) now changes with a module of the package the kernel imports,
    and with no other."""
    from numba.core import caching

    import nqueens_cp
    from nqueens_cp.run import compiled

    copy = tmp_path / "nqueens_cp"
    shutil.copytree(Path(nqueens_cp.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compiled, "PACKAGE", str(copy), raising=False)
    compiled.use_user_cache()
    locator = SimpleNamespace(_py_file=str(copy / "backends" / "bitmask" / "kernels" / "join" / "matcher.py"))
    stamp = caching._SourceFileBackedLocatorMixin.get_source_stamp

    def edit(path: Path) -> None:
        path.write_text(path.read_text() + "\n# edited\n")

    first = stamp(locator)
    edit(copy / "backends" / "bitmask" / "kernels" / "join" / "intrinsics.py")  # imported by the matcher
    second = stamp(locator)
    assert second != first
    edit(copy / "backends" / "watch.py")  # a constant's module: the stop flag's place
    third = stamp(locator)
    assert third != second
    edit(copy / "cli" / "app.py")  # not imported by the kernel
    edit(copy / "backends" / "bitmask" / "kernels" / "join" / "symmetry.py")  # imports the matcher, not imported by it
    assert stamp(locator) == third


def test_the_import_statements_read_alone_are_every_one_a_full_parse_finds():
    """A stamp reads a module's import statements alone, not its whole tree (24 ms of every
    count's start): over every file of the package, the imports so read are those that parsing
    the whole file finds (prose that reads as one may add to them, never take away)."""
    import ast

    import nqueens_cp
    from nqueens_cp.run import compiled

    def dumped(nodes) -> set[str]:
        return {ast.dump(n) for n in nodes if isinstance(n, ast.Import | ast.ImportFrom)}

    files = list(Path(nqueens_cp.__file__).parent.rglob("*.py"))
    assert len(files) > 100
    for file in files:
        text = file.read_bytes()
        full = dumped(ast.walk(ast.parse(text)))
        assert full <= dumped(compiled._import_statements(text)), file
    tricky = [
        "x = 1",
        "if x:",
        "    from .a import (",
        "        b,",
        "        c,",
        "    )",
        "import d.e as f, \\",
        "    g",
        "def h():",
        "    from ..i import j  # a local import (its comment's bracket left open",
        '    """a docstring: from the left (of the board',
        "    import what",
        '    """',
    ]
    wanted = "from .a import (b, c)\nimport d.e as f, g\nfrom ..i import j\nimport what"
    assert dumped(compiled._import_statements("\n".join(tricky).encode())) == dumped(ast.parse(wanted).body)


#: Loads the join's kernels and counts 13 with the cached kernels, printing the count and how
#: often numba refreshed its contexts (each refresh imports and installs every registry).
REFRESHES = """
from numba.core import base
calls = []
refresh = base.BaseContext.refresh
def counted(self):
    calls.append(self)
    return refresh(self)
base.BaseContext.refresh = counted
import nqueens_cp as nq
from nqueens_cp.backends.bitmask.partitions import join
join.load_kernels()
print(nq.count(13, workers=1), len(calls))
"""


def test_kernels_loaded_from_the_cache_skip_numba_s_refresh():
    """numba refreshed its contexts before each load from the cache, 0.3-0.45 s of a fresh
    process's first count (docs/benchmarks.md § Loading cached kernels); a load that finds its
    kernel needs none. The first run may compile (and so refresh); the second finds them all."""
    for _ in range(2):
        env = os.environ | {"NQUEENS_CP_AOT": "0"}  # numba's loads, not the module compiled ahead of time
        proc = subprocess.run([sys.executable, "-c", REFRESHES], capture_output=True, text=True, env=env, timeout=240)
        assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["73712", "0"], proc.stderr
