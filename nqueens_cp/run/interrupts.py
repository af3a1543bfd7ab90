"""Stop requests that outlive a lost exception.

A signal's Python handler runs wherever the interpreter happens to be. In a ctypes callback or a
`__del__` (numba loading a cached kernel through llvmlite runs both) the exception it raises is
dropped, reported as "Exception ignored" or not at all, and the program goes on as though the
signal never came: a Ctrl-C at the wrong tenth of a second was lost and the count ran to its end.
So the `nqueens` script's handlers note the signal before raising, and the places where going on
would matter deliver it again: the deadline checks between a search's slices, and a command about
to report success. An error that escapes after a stop request (numba turns a KeyboardInterrupt in
its import into ImportError) ends the run as the signal would, and leaves a block that says what a
stopped run kept as the signal (`stop_wins`). Without those handlers (library use) nothing is
noted and nothing changes.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

_noted: int | None = None


def note(signum: int) -> None:
    """Remember that `signum` asked this process to stop (called by a signal handler)."""
    global _noted
    _noted = signum


def noted() -> int | None:
    """The signal that asked this process to stop, if one did."""
    return _noted


_detail: str | None = None


def tell(detail: str) -> None:
    """What the line that reports a stop adds after "interrupted:" (where the work is kept)."""
    global _detail
    _detail = detail


def said(signum: int) -> str:
    """How the run's one line on stderr names the end a stop request by `signum` brings."""
    return ("interrupted" if signum == signal.SIGINT else "terminated") + (f": {_detail}" if _detail else "")


def deliver() -> None:
    """Raise a noted signal again here, where its handler's exception is not lost."""
    if _noted is not None:
        signal.raise_signal(_noted)


@contextlib.contextmanager
def stop_wins() -> Iterator[None]:
    """An error that escapes the block after a stop request leaves it as that request: the
    handler's own exception (KeyboardInterrupt, or the app's SIGTERM one), chained on the error.
    A stop raised in a pool's clean-up or a library's callback comes back as another error, and
    the code around the block that says what a stopped run kept must still hear a stop."""
    try:
        yield
    except Exception:
        deliver()
        raise
