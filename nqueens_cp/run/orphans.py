"""A child that must not outlive its parent: what every process we start asks of Linux first
(pool workers, forked children, sandboxed workers)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Ask Linux to SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG); if the
    parent is already gone by the time we ask, leave now."""
    if sys.platform.startswith("linux"):
        import ctypes  # (here: the command line's start-up never needs it)

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
