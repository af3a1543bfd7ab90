"""Kernels compiled ahead of time into an extension module, so that a count loads no numba.

Why: in `nqueens count 16` (0.68 s end to end) the count itself took 0.17 s; numba's import
took 0.26 s and its load of the cached kernels 0.13 s, and neither can be cut from outside
numba (docs/benchmarks.md § Kernels compiled ahead of time). numba's own ahead-of-time
compiler (`numba.pycc`) makes a C extension of the same functions that needs only numpy: it
loads in a millisecond and runs as fast as the JIT's code.

How: a `Group` names a package of kernels, the entry points to export and a function that runs
them once (which types each entry point, so no signature is written twice). `ensure` builds a
group's module where none is cached, in a child process (`python -m nqueens_cp.run.aot`) that
runs the entry points under the JIT, then compiles them with pycc for this CPU, with its
features as numba's JIT uses them, and wrappers that release the GIL (the watcher's stop flag
is set from another thread, `backends/watch.py`). The module goes into the user's cache folder,
sealed as the JIT's cache files are (`run.compiled.seal`), under a stamp of everything it is
made of: the group's sources and the package modules they import, this file (how it is built),
Python's, numba's, llvmlite's and numpy's versions, the CPU, and any NUMBA_ setting. `load`
takes a module only if its stamp is this process's and its seal holds; anything else is a miss
and the JIT's kernels run, so a stale or foreign build never runs.

Neither built nor loaded: with NQUEENS_CP_AOT=0, with the JIT disabled, or with NUMBA_CPU_NAME or
NUMBA_CPU_FEATURES set (a cache made for other machines, which the JIT honours). A build that
fails (no C compiler, no Python headers) is recorded beside the stamp and not tried again for it:
the JIT's kernels serve instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import hmac
import importlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from types import ModuleType

from . import compiled, programs

#: Set to 0 to neither build nor load modules compiled ahead of time.
SWITCH = "NQUEENS_CP_AOT"
#: NUMBA_ settings under which the JIT compiles for another machine than this one.
FOREIGN = ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")
#: The builds of a group kept in the cache folder, the newest.
KEPT = 3
#: How long a build may take (pycc compiles the group again, then a C compiler runs).
BUILD_SECONDS = 600
#: The prefix of a module's private copy while it loads (`_private_copy`).
LOADING = ".load-"


@dataclass(frozen=True)
class Group:
    """A package of kernels compiled ahead of time as one extension module."""

    #: The module's name (its file name, and the name it is imported under).
    name: str
    #: The module or package whose entry points are exported (imported only to build).
    module: str
    #: The entry points, compiled dispatchers of `module`, each called with one signature.
    exports: tuple[str, ...]
    #: "module:function" that calls every entry point once under the JIT.
    warm: str


def enabled() -> bool:
    """Whether modules compiled ahead of time may be built and loaded in this process."""
    env = os.environ
    return env.get(SWITCH, "1") != "0" and env.get("NUMBA_DISABLE_JIT", "0") in ("", "0") and not any(
        env.get(k) for k in FOREIGN
    )


@functools.cache
def load(group: Group) -> ModuleType | None:
    """The group's module compiled ahead of time for this process, or None (the JIT serves)."""
    if not enabled():
        return None
    path = _path(group)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if not _sealed(path, data):
        return None
    try:
        copy = _private_copy(path, data)
    except OSError:
        return None
    try:
        loader = importlib.machinery.ExtensionFileLoader(group.name, copy)
        spec = importlib.util.spec_from_file_location(group.name, copy, loader=loader)
        if spec is None:
            return None
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        module.__file__ = path
        sys.modules[group.name] = module
    except (ImportError, OSError):  # built for other libraries than this process's: a miss
        return None
    finally:
        os.unlink(copy)
    return module if all(callable(getattr(module, name, None)) for name in group.exports) else None


@functools.cache
def kernels(group: Group) -> ModuleType:
    """The group's entry points: its module compiled ahead of time where this process may load
    one, else the JIT's (numba's cache)."""
    return load(group) or importlib.import_module(group.module)


def ensure(group: Group) -> None:
    """Build the group's module where it is missing for this process's stamp, and may be built:
    once per stamp (a failed build is recorded and not tried again), by one process at a time
    (the others wait for it, then load what it built: Dask workers start together). Announced on
    stderr, as the JIT's first compile is; Ctrl-C or SIGTERM stops the build and leaves no
    process."""
    load.cache_clear()  # built by another process since this one looked
    kernels.cache_clear()  # (which may have taken the JIT's then: the module, where it loads now)
    if not enabled() or load(group) is not None:
        return
    path = _path(group)
    failed = path + ".failed"
    if os.path.exists(failed):
        return
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with open(os.path.join(os.path.dirname(path), f".{group.name}.lock"), "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        load.cache_clear()
        if load(group) is None and not os.path.exists(failed):
            _build_into(group, path, failed)
    load.cache_clear()
    kernels.cache_clear()


def _build_into(group: Group, path: str, failed: str) -> None:
    compiled.announce_compiling()
    _clear_leftovers(group, failed)
    work = tempfile.mkdtemp(dir=os.path.dirname(path), prefix=f".build-{group.name}-")
    try:
        ok, log = _run_builder(group, work)
        built = [f for f in os.listdir(work) if f.startswith(group.name + ".") and f.endswith(_suffix())]
        if not ok or len(built) != 1:
            with open(failed, "w") as f:
                f.write(log[-4000:])
            return
        source = os.path.join(work, built[0])
        with open(source, "rb") as f:
            data = f.read()
        _write_seal(path, data)
        os.chmod(source, 0o500)
        os.replace(source, path)
        _prune(group, path)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _clear_leftovers(group: Group, failed: str) -> None:
    """What earlier builds of the group left (run under its lock, so none of them still runs):
    the folder of a build whose process was killed outright, the record of a failure for
    another stamp (an older source or library), which no run reads again, and a private copy
    (any group's) whose load was killed outright, one older than a build may take (a load holds
    its copy for milliseconds)."""
    folder = os.path.dirname(failed)
    for name in os.listdir(folder):
        where = os.path.join(folder, name)
        if name.startswith(LOADING):
            with contextlib.suppress(OSError):
                if time.time() - os.stat(where).st_mtime > BUILD_SECONDS:
                    os.unlink(where)
        elif name.startswith(f".build-{group.name}-"):
            shutil.rmtree(where, ignore_errors=True)
        elif name.startswith(group.name + "-") and name.endswith(".failed") and where != failed:
            with contextlib.suppress(OSError):
                os.unlink(where)


def _prune(group: Group, kept: str) -> None:
    """Only the KEPT newest builds of a group stay (each edit or upgrade makes another stamp;
    machines that share a cache folder keep one each)."""
    folder = os.path.dirname(kept)
    builds = [os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(group.name + "-")]
    builds = [b for b in builds if b.endswith(_suffix()) and b != kept]
    builds.sort(key=lambda b: os.stat(b).st_mtime, reverse=True)
    for old in builds[KEPT - 1 :]:
        for file in (old, old + ".seal"):
            with contextlib.suppress(OSError):
                os.unlink(file)


def _run_builder(group: Group, out: str) -> tuple[bool, str]:
    """Run the build in a child process under the guardian (`programs`; the C compiler's
    processes are the build's children): (whether it succeeded, its output). Stopped, with all
    of them, if we are. The guardian, not a handle of ours, ends it: a stop that came while the
    child started (Popen waits for its exec) raised out of Popen before there was a handle, and
    a build of its own session then ran on alone; the guardian also goes when we do."""
    env = os.environ | {SWITCH: "0", compiled.ANNOUNCED: "1"}
    args = [sys.executable, "-m", __name__, group.name, group.module, ",".join(group.exports), group.warm, out]
    with tempfile.TemporaryFile() as log:
        try:
            code = programs.run_group(args, log, subprocess.STDOUT, timeout=BUILD_SECONDS, env=env)
        except subprocess.TimeoutExpired:
            return False, "the build ran over its time limit"
        log.seek(0)
        return code == 0, log.read().decode(errors="replace")


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def _path(group: Group) -> str:
    """Where the group's module for this process's stamp is kept."""
    folder = os.path.join(os.path.dirname(compiled.cache_dir()), "aot")
    return os.path.join(folder, f"{group.name}-{stamp(group)[:24]}{_suffix()}")


def _private_copy(path: str, data: bytes) -> str:
    """The checked bytes written to a file of a name never used before, beside the module, to be
    loaded and then removed: what is checked is what is loaded (the module's own file could be
    replaced in between). The name must be new: the dynamic loader takes a name it has loaded
    before for that library, whatever the file holds now. Loaded through /proc/self/fd/N, a
    module took the library another group had loaded through the same descriptor number, and
    so missed (`PyInit_` not found), now and then, where tests loaded both groups in one
    process."""
    fd, copy = tempfile.mkstemp(dir=os.path.dirname(path), prefix=LOADING, suffix=_suffix())
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(copy, 0o500)
    except OSError:
        os.unlink(copy)
        raise
    return copy


def _write_seal(path: str, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".seal-")
    with os.fdopen(fd, "wb") as f:
        f.write(compiled.mac(data, "aot", os.path.basename(path)))
    os.replace(tmp, path + ".seal")


def _sealed(path: str, data: bytes) -> bool:
    try:
        with open(path + ".seal", "rb") as f:
            seal = f.read()
    except OSError:
        return False
    return hmac.compare_digest(seal, compiled.mac(data, "aot", os.path.basename(path)))


def stamp(group: Group) -> str:
    """The SHA-256 of what the group's module is made of (see the module's docstring), found
    without importing numba."""
    digest = hashlib.sha256()
    compiled.digest_sources(digest, _sources(group))
    digest.update(f"{group}\0".encode() + _platform())
    for key in sorted(k for k in os.environ if k.startswith("NUMBA_") and k != "NUMBA_CACHE_DIR"):
        digest.update(f"{key}={os.environ[key]}\0".encode())
    return digest.hexdigest()


def _sources(group: Group) -> list[str]:
    """The group's module's files (a package's, or one module's) and the package modules they
    import, and this file (how the module is built)."""
    where = os.path.join(os.path.dirname(compiled.PACKAGE), *group.module.split("."))
    files = [os.path.join(where, f) for f in os.listdir(where)] if os.path.isdir(where) else [where + ".py"]
    found: set[str] = {os.path.abspath(__file__)}
    for file in sorted(files):
        if file.endswith(".py"):
            found.update(compiled.imported_sources(file))
    return sorted(found)


@functools.cache
def _platform() -> bytes:
    """What this process's modules are built with and for, found once: Python, numpy, numba and
    llvmlite (their version files, read without importing them), and the CPU's model and
    features as the system reports them (Linux), or its name."""
    import platform

    import numpy

    parts = [sys.version, _suffix(), numpy.__version__]
    for library in ("numba", "llvmlite"):
        spec = importlib.util.find_spec(library)
        origin = spec.origin if spec and spec.origin else ""
        parts.append(origin)
        with contextlib.suppress(OSError), open(os.path.join(os.path.dirname(origin), "_version.py")) as f:
            parts.append(f.read())
    lines = []
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        wanted = {"vendor_id", "model name", "flags", "Features", "CPU part"}
        lines = [line for line in f.read().split("\n\n")[0].splitlines() if line.split(":")[0].strip() in wanted]
    parts.append("\n".join(lines) or f"{platform.machine()} {platform.processor()}")
    return "\0".join(parts).encode()


def _build(name: str, module: str, exports: list[str], warm: str, out: str) -> None:
    """The child's work: run the entry points under the JIT (typing them), then compile them
    with pycc into `out`."""
    where, _, function = warm.partition(":")
    getattr(importlib.import_module(where), function)()
    kernels = importlib.import_module(module)

    from numba.core import codegen
    from numba.core.compiler import Flags
    from numba.pycc import CC
    from numba.pycc import compiler as pycc

    class GilFree(Flags):  # type: ignore[misc]
        """pycc's flags, with wrappers that release the GIL as the JIT's `nogil` kernels do."""

        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pycc.Flags = GilFree
    # pycc compiles for a CPU model's features; the JIT for this CPU's own (a model name can
    # promise more than a virtual machine gives), which the intrinsics were chosen for.
    codegen.AOTCPUCodegen._customize_tm_features = lambda self: codegen.get_host_cpu_features()
    cc = CC(name)
    cc.output_dir = out
    cc.target_cpu = "host"
    for export in exports:
        dispatcher = getattr(kernels, export)
        (signature,) = dispatcher.nopython_signatures
        cc.export(export, signature)(dispatcher.py_func)
    cc.compile()


if __name__ == "__main__":
    _build(sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4], sys.argv[5])
