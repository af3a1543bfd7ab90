"""Where numba keeps the kernels it compiles: the user's cache folder, not the package.

By default numba caches a kernel beside its source, in the installed package's __pycache__.
pip's uninstall leaves those files behind, and the leftover nqueens_cp/ folder of a removed
install then shadows an editable install made in the same environment: following the README's
two install lines in one folder broke every `nqueens` call. So the kernels' modules call
`use_user_cache` before they define a kernel (numba picks the folder when a kernel is
decorated); a NUMBA_CACHE_DIR the user set is left as it is.
"""

from __future__ import annotations

import os


def cache_dir() -> str:
    """$XDG_CACHE_HOME/nqueens_cp/numba (~/.cache/nqueens_cp/numba)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nqueens_cp", "numba")


def use_user_cache() -> None:
    from numba.core import config

    if not os.environ.get("NUMBA_CACHE_DIR"):
        config.CACHE_DIR = cache_dir()
