"""The `nqueens` script's entry point: signals first, then everything else.

Ctrl-C or SIGTERM during start-up (imports take a few tenths of a second) ends the process at
once with 130 or 143 and no traceback: nothing has started yet that would need cleaning up.
Once the command line is loaded, Ctrl-C raises KeyboardInterrupt and SIGTERM raises
`Terminated` where the program is, so pools are stopped and partial files removed on the way out.
"""

from __future__ import annotations

import os
import signal


def _quit_now(signum: int, _frame: object) -> None:
    os.write(2, b"nqueens: interrupted\n" if signum == signal.SIGINT else b"nqueens: terminated\n")
    os._exit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGINT, _quit_now)
    signal.signal(signal.SIGTERM, _quit_now)
    # `nqueens solve 14 | head` ends like any Unix filter: quietly, by SIGPIPE.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    from .cli import Terminated, app

    def terminated(_signum: int, _frame: object) -> None:
        raise Terminated

    signal.signal(signal.SIGTERM, terminated)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    app()
