"""Where numba keeps the kernels it compiles: the user's cache folder, not the package.

By default numba caches a kernel beside its source, in the installed package's __pycache__.
pip's uninstall leaves those files behind, and the leftover nqueens_cp/ folder of a removed
install then shadows an editable install made in the same environment: following the README's
two install lines in one folder broke every `nqueens` call. So the kernels' modules call
`use_user_cache` before they define a kernel (numba picks the folder when a kernel is
decorated); a NUMBA_CACHE_DIR the user set is left as it is. The files in it are not trusted:
each is sealed to its kernel, its contents and this user (`_distrust_cache_files`), and a
kernel's entry holds only while the package's modules it imports are unchanged too
(`_stamp_with_imports`).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import hmac
import io
import os
import pickle
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from typing import TextIO


def cache_dir() -> str:
    """$XDG_CACHE_HOME/nqueens_cp/numba (~/.cache/nqueens_cp/numba). A relative XDG_CACHE_HOME
    is ignored, as the XDG spec asks (it put the cache under whatever folder a run started in);
    with no usable home either, the cache is a private folder of this user's in the temporary
    folder, made 0700 before anything can be written into it (`distrusted` checks it after)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~") if os.environ.get("HOME", "~") else ""  # an empty HOME reads as /
        base = os.path.join(home, ".cache") if os.path.isabs(home) and home != "/" else ""
    if not base:
        base = _fallback()
        with contextlib.suppress(OSError):
            os.mkdir(base, 0o700)
    return os.path.join(base, "nqueens_cp", "numba")


def _fallback() -> str:
    """The cache's folder where no home can hold it: one in the temporary folder, named for the
    user, which anyone could have made first (so it is checked before its key is trusted)."""
    return os.path.join(tempfile.gettempdir(), f"nqueens_cp-{os.getuid()}")


def distrusted() -> str | None:
    """Why this user's cache key cannot be trusted, or None: the folder that holds it, or the
    key itself, belongs to another user or can be changed by others (the key is read or
    written by others too), as ssh refuses a key file others can read. Whoever can read the key
    can seal a file that runs code when it is loaded, a pickle or a compiled module; where the
    key is refused, each process keeps a key of its own, so every cache file is a miss."""
    root = os.path.dirname(cache_dir())
    folders = [root] + ([_fallback()] if root.startswith(_fallback() + os.sep) else [])
    for folder, others in ((f, 0o077 if f == _fallback() else 0o022) for f in folders):
        try:
            st = os.lstat(folder)
        except FileNotFoundError:
            continue  # made 0700 with the key
        except OSError as exc:
            return f"{folder}: {exc.strerror}"
        why = _unsafe(st, others, stat.S_ISDIR)
        if why:
            return f"the cache folder {folder} {why}"
    key = os.path.join(root, "cache-key")
    try:
        st = os.lstat(key)
    except OSError:
        return None
    why = _unsafe(st, 0o077, stat.S_ISREG)
    return None if why is None else f"the cache key {key} {why}"


def _run_folder() -> str:
    """A private folder for this process's compiled kernels, removed when it exits."""
    import atexit
    import shutil

    folder = tempfile.mkdtemp(prefix="nqueens_cp-run-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _unsafe(st: os.stat_result, others: int, kind: Callable[[int], bool]) -> str | None:
    if not kind(st.st_mode):
        return "is a link or not a " + ("folder" if kind is stat.S_ISDIR else "file")
    if st.st_uid != os.getuid():
        return f"belongs to another user (uid {st.st_uid})"
    if st.st_mode & others:
        return f"can be {'read or written' if others == 0o077 else 'written'} by others (mode {st.st_mode & 0o777:04o})"
    return None


def cached_kernels() -> tuple[str, int]:
    """(folder, kernels): where numba keeps this install's kernels, and how many it has
    cached there (their index files), found without loading numba. numba names a source
    folder's cache by the folder's name and the SHA-1 of its path."""
    folder = os.environ.get("NUMBA_CACHE_DIR") or cache_dir()
    kernels = 0
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # (nqueens_cp/)
    for source, _dirs, files in os.walk(package):
        if not any(f.endswith(".py") for f in files):
            continue
        sub = os.path.join(folder, f"{os.path.basename(source)}_{hashlib.sha1(source.encode()).hexdigest()}")
        with contextlib.suppress(OSError):
            kernels += sum(1 for f in os.listdir(sub) if f.endswith(".nbi"))
    return folder, kernels


def use_user_cache() -> None:
    from numba.core import config

    if not os.environ.get("NUMBA_CACHE_DIR"):
        # a distrusted cache is not read at all: this run's kernels go to a folder of its own
        # (the generated piece kernels are source files, imported from where they are written)
        config.CACHE_DIR = _run_folder() if distrusted() else cache_dir()
    _distrust_cache_files()
    _stamp_with_imports()


#: The nqueens_cp package's folder.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _stamp_with_imports() -> None:
    """numba keeps a kernel compiled while its own source file is unchanged (its digest), but a
    kernel is also made of what it imports: a constant (the matcher's BLOCK), an intrinsic, a
    helper compiled into it. An edit to one of those alone (a pull into an editable install)
    left the kernels compiled from the old code, so counts ran on code no longer in the tree.
    Here the stamp of a kernel of this package also covers every module of the package its
    file imports, directly or through others (`imported_sources`)."""
    from numba.core import caching

    mixin = caching._SourceFileBackedLocatorMixin
    if getattr(mixin, "_nqueens_stamped", False):
        return
    own_stamp = mixin.get_source_stamp

    def get_source_stamp(self: object) -> object:
        stamp = own_stamp(self)
        path = os.path.abspath(getattr(self, "_py_file", ""))
        if not path.startswith(PACKAGE + os.sep):
            return stamp
        digest = hashlib.sha256()
        digest_sources(digest, imported_sources(path))
        return stamp, digest.hexdigest()

    mixin.get_source_stamp = get_source_stamp
    mixin._nqueens_stamped = True


def imported_sources(path: str) -> list[str]:
    """The package's source files that the module at `path` imports, `path` among them, and
    theirs in turn where they are compiled code too (a file that mentions numba): a kernel is
    made of the names it takes from other modules, and of what those take if they are kernels;
    a module it takes only a constant from adds its own file, not its imports."""
    found: set[str] = set()
    todo = [os.path.abspath(path)]
    while todo:
        source = todo.pop()
        if source not in found:
            found.add(source)
            st = os.stat(source)
            todo += _imports_of(source, st.st_mtime_ns, st.st_size)
    return sorted(found)


def digest_sources(digest: hashlib._Hash, sources: list[str]) -> None:
    """Add each of the package's `sources` to `digest`: its place in the package and what it
    holds (a kernel's stamp, and a module compiled ahead of time's, `run.aot`)."""
    for source in sources:
        st = os.stat(source)
        digest.update(source[len(PACKAGE) :].encode() + b"\0" + _file_digest(source, st.st_mtime_ns, st.st_size))


@functools.cache
def _file_digest(source: str, _mtime: int, _size: int) -> bytes:
    """The SHA-256 of the file (remembered while it is unchanged)."""
    with open(source, "rb") as f:
        return hashlib.sha256(f.read()).digest()


#: Where an import statement may start: a line of its own (ruff's E701 and E702 hold every
#: statement of the package so), indented or not.
_IMPORT = re.compile(rb"^[ \t]*(?:import|from)[ \t]", re.MULTILINE)


def _import_statements(text: bytes) -> list[ast.stmt]:
    """The import statements of a source, each parsed on its own. Parsing and walking whole
    modules took 24 ms of every count's start (the stamp of the kernels compiled ahead of time);
    these few lines take about a millisecond. A line of prose that reads as an import adds a file
    to a stamp, which only ever makes it stricter; one that does not parse is prose."""
    found: list[ast.stmt] = []
    for match in _IMPORT.finditer(text):
        end = text.find(b"\n", match.start())
        end = len(text) if end < 0 else end
        code = text[match.start() : end].split(b"#", 1)[0]  # (an import holds no string)
        if b"(" in code and b")" not in code:  # a parenthesised list: through its closing one
            close = text.find(b")", end)
            end = len(text) if close < 0 else close + 1
        while text[match.start() : end].rstrip().endswith(b"\\"):  # continued lines
            after = text.find(b"\n", end + 1)
            end = len(text) if after < 0 else after
        with contextlib.suppress(SyntaxError, ValueError):
            found += ast.parse(text[match.start() : end].strip()).body
    return found


@functools.cache
def _imports_of(source: str, _mtime: int, _size: int) -> list[str]:
    """The package's files that `source` imports by name, if it is compiled code (remembered
    while it is unchanged)."""
    with open(source, "rb") as f:
        text = f.read()
    if b"numba" not in text:
        return []
    parts = os.path.relpath(source, os.path.dirname(PACKAGE))[: -len(".py")].split(os.sep)
    here = parts[:-1]  # the module's package (a package's __init__ is in its own)
    names: list[list[str]] = []
    for node in _import_statements(text):
        if isinstance(node, ast.Import):
            names += [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (here[: len(here) - node.level + 1] if node.level else []) + (node.module or "").split(".")
            base = [p for p in base if p]
            names.append(base)
            names += [[*base, alias.name] for alias in node.names]  # a name may be a module
    files = []
    for name in names:
        if name and name[0] == os.path.basename(PACKAGE):
            folder = os.path.join(os.path.dirname(PACKAGE), *name)
            for candidate in (folder + ".py", os.path.join(folder, "__init__.py")):
                if os.path.isfile(candidate):
                    files.append(candidate)
    return files


#: Set once the compiling has been announced: processes started later say nothing more.
ANNOUNCED = "NQUEENS_CP_COMPILING_SAID"


def announce_compiling(stream: TextIO | None = None) -> None:
    """One line on stderr before the first kernel is compiled: the first count after an install
    (or an upgrade) pauses for up to a minute, which read as a hang, in a script or a CI log as
    much as on a terminal. Said once per run (the processes it starts say nothing more); stdout,
    which scripts read, is untouched."""
    stream = stream or sys.stderr
    if os.environ.get(ANNOUNCED):
        return
    os.environ[ANNOUNCED] = "1"
    why = distrusted()
    if why:
        stream.write(f"nqueens: compiling the search kernels for this run alone: {why}, so its cache is not used\n")
    else:
        stream.write("nqueens: compiling the search kernels for this machine, once (it can take a minute)\n")
    stream.flush()


def _distrust_cache_files() -> None:
    """numba unpickles its cache files as it finds them: a crafted data file (.nbc) or index
    (.nbi) runs code when loaded, one copied from another kernel broke every later count with a
    traceback, and an empty or corrupt one raised on every run. Here each file numba writes is
    sealed (`seal`) with a key of this user's, the kernel's name and the file's own name, and a
    file whose seal does not hold is not unpickled at all: it is a miss, so the kernel is
    compiled again and the file written anew. A file that is sealed but cannot be rebuilt
    (another numba wrote it) is a miss too."""
    from numba.core import caching

    if getattr(caching, "_nqueens_distrusted", False):
        return
    files = caching.IndexDataCacheFile
    load_overload = caching.Cache._load_overload

    def _save_index(self: caching.IndexDataCacheFile, overloads: dict) -> None:
        payload = pickle.dumps(self._version, protocol=-1) + self._dump((self._source_stamp, overloads))
        with self._open_for_write(self._index_path) as f:
            f.write(seal(payload, self._index_name, self._index_name))

    def _load_index(self: caching.IndexDataCacheFile) -> dict:
        payload = unsealed(self._index_path, self._index_name, self._index_name)
        if payload is None:
            return {}
        try:
            with io.BytesIO(payload) as f:
                if pickle.load(f) != self._version:
                    return {}
                stamp, overloads = pickle.loads(f.read())
        except Exception:  # sealed by us but not readable here: no entries
            return {}
        return overloads if stamp == self._source_stamp and isinstance(overloads, dict) else {}

    def _save_data(self: caching.IndexDataCacheFile, name: str, data: object) -> None:
        with self._open_for_write(self._data_path(name)) as f:
            f.write(seal(self._dump(data), self._index_name, name))

    def _load_data(self: caching.IndexDataCacheFile, name: str) -> object:
        payload = unsealed(self._data_path(name), self._index_name, name)
        if payload is None:
            raise OSError(f"{name}: not a cache file of this kernel's")  # numba's load: a miss
        return pickle.loads(payload)

    def _load_overload(self: object, sig: object, target_context: object) -> object:
        try:
            found = load_overload(self, sig, target_context)
        except Exception:  # not rebuildable: compiled again
            found = None
        if found is None:
            announce_compiling()
        return found

    def _load_overload_unrefreshed(self: caching.Cache, sig: object, target_context: object) -> object:
        """numba refreshes its contexts before every load from the cache: it imports and
        installs every typing and lowering registry (0.3-0.45 s of a fresh process's first
        count, docs/benchmarks.md § Loading cached kernels). Machine code read back needs
        none of them, only the runtime its allocations call (NRT); a miss compiles, and
        numba's compiler refreshes the contexts itself first."""
        from numba.core.runtime import rtsys

        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    files._save_index, files._load_index = _save_index, _load_index
    files._save_data, files._load_data = _save_data, _load_data
    caching.Cache._load_overload = _load_overload
    caching.Cache.load_overload = _load_overload_unrefreshed
    caching._nqueens_distrusted = True


#: What a sealed cache file starts with, before its 32-byte seal.
MAGIC = b"nqueens_cp sealed 1\n"


def seal(payload: bytes, kernel: str, name: str) -> bytes:
    """The file's bytes: MAGIC, an HMAC-SHA256 of the kernel's name, the file's name and the
    payload under this user's key, then the payload. The names are in the seal so that a file
    copied from another kernel, or to another slot of the same kernel, does not hold."""
    return MAGIC + mac(payload, kernel, name) + payload


def unsealed(path: str, kernel: str, name: str) -> bytes | None:
    """The payload of the sealed file at path, or None if it is missing, unsealed, or sealed
    for another kernel, name, contents or key."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(MAGIC) + 32
    if not data.startswith(MAGIC) or len(data) < head:
        return None
    payload = data[head:]
    return payload if hmac.compare_digest(data[len(MAGIC) : head], mac(payload, kernel, name)) else None


def mac(payload: bytes, kernel: str, name: str) -> bytes:
    """The HMAC-SHA256 of the kernel's name, the file's name and the payload under this user's
    key: a cache file's seal (and a module compiled ahead of time's, `run.aot`)."""
    digest = hmac.new(_key(), digestmod=hashlib.sha256)
    for part in (kernel.encode(), name.encode()):
        digest.update(len(part).to_bytes(4, "big") + part)
    digest.update(payload)
    return digest.digest()


_KEY: list[bytes] = []


def _key() -> bytes:
    """This user's cache key: 32 random bytes in a file only the user can read, beside (not in)
    the kernels' folder, so that a NUMBA_CACHE_DIR shared with others holds no key. Made once,
    by whichever process comes first (linked into place whole), and made again once where it
    was left empty or cut short. Where it is `distrusted`, or can be neither read nor made, the
    key is this process's own: its files are then misses elsewhere, which costs compiling,
    never a wrong answer nor code of another's run."""
    if not _KEY:
        path = os.path.join(os.path.dirname(cache_dir()), "cache-key")
        mine = None if distrusted() else _read_key(path) or _make_key(path)
        _KEY.append(mine if mine is not None and distrusted() is None else os.urandom(32))
    return _KEY[0]


def _read_key(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        key = f.read(33)
    return key if len(key) == 32 else None


def _make_key(path: str) -> bytes | None:
    """A new key linked into place; a key file of the wrong length (empty, cut short) is
    replaced by it, once (another process's whole key is never replaced)."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".cache-key.")  # mode 0600
        try:
            os.write(fd, os.urandom(32))
            os.close(fd)
            try:
                os.link(tmp, path)
            except FileExistsError:  # another process made it first (theirs is the key), or it is short
                if _read_key(path) is None:
                    os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    except OSError:
        return None
    return _read_key(path)
