"""Where numba keeps the kernels it compiles: the user's cache folder, not the package.

By default numba caches a kernel beside its source, in the installed package's __pycache__.
pip's uninstall leaves those files behind, and the leftover nqueens_cp/ folder of a removed
install then shadows an editable install made in the same environment: following the README's
two install lines in one folder broke every `nqueens` call. So the kernels' modules call
`use_user_cache` before they define a kernel (numba picks the folder when a kernel is
decorated); a NUMBA_CACHE_DIR the user set is left as it is. The files in it are not trusted
(`_distrust_cache_files`).
"""

from __future__ import annotations

import os
import sys
from typing import TextIO


def cache_dir() -> str:
    """$XDG_CACHE_HOME/nqueens_cp/numba (~/.cache/nqueens_cp/numba). A relative XDG_CACHE_HOME
    is ignored, as the XDG spec asks (it put the cache under whatever folder a run started in);
    with no usable home either, the cache is a folder of this user's in the temporary folder."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~") if os.environ.get("HOME", "~") else ""  # an empty HOME reads as /
        base = os.path.join(home, ".cache") if os.path.isabs(home) and home != "/" else ""
    if not base:
        import tempfile

        base = os.path.join(tempfile.gettempdir(), f"nqueens_cp-{os.getuid()}")
    return os.path.join(base, "nqueens_cp", "numba")


def use_user_cache() -> None:
    from numba.core import config

    if not os.environ.get("NUMBA_CACHE_DIR"):
        config.CACHE_DIR = cache_dir()
    _distrust_cache_files()


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
    stream.write("nqueens: compiling the search kernels for this machine, once (it can take a minute)\n")
    stream.flush()


def _distrust_cache_files() -> None:
    """numba reads back its cache files as it wrote them: an empty or corrupt index (.nbi) or
    data file (.nbc) raised on every later run. Here a cache file that cannot be read is a miss:
    the kernel is compiled again and the file written anew."""
    from numba.core import caching

    if getattr(caching, "_nqueens_distrusted", False):
        return
    load_index = caching.IndexDataCacheFile._load_index
    load_overload = caching.Cache._load_overload

    def _load_index(self: object) -> dict:
        try:
            return load_index(self)
        except Exception:  # unreadable: no entries (saving then writes a new index)
            return {}

    def _load_overload(self: object, sig: object, target_context: object) -> object:
        try:
            found = load_overload(self, sig, target_context)
        except Exception:  # unreadable or not rebuildable: compiled again
            found = None
        if found is None:
            announce_compiling()
        return found

    caching.IndexDataCacheFile._load_index = _load_index
    caching.Cache._load_overload = _load_overload
    caching._nqueens_distrusted = True
