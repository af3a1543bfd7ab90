"""The `nqueens` script's entry point: signals first, then everything else.

Ctrl-C or SIGTERM during start-up (imports take a few tenths of a second) ends the process at
once with 130 or 143 and no traceback: nothing has started yet that would need cleaning up.
Once the command line is loaded, Ctrl-C raises KeyboardInterrupt and SIGTERM raises
`Terminated` where the program is, so pools are stopped and partial files removed on the way out;
each is noted first, in case the place it is raised in drops it (`interrupts`), and a dropped one
is not reported as "Exception ignored".
"""

from __future__ import annotations

import os
import signal
import sys

from .run.interrupts import said


def _quit_now(signum: int, _frame: object) -> None:
    os.write(2, f"nqueens: {said(signum)}\n".encode())
    os._exit(128 + signum)


def main() -> None:
    # A shell without job control starts a background job (`nqueens count 20 &` in a script)
    # with SIGINT ignored, so that a Ctrl-C meant for the foreground leaves it running: that
    # choice is kept, as Python keeps it. SIGTERM stops the run either way.
    keep_ignoring = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if not keep_ignoring:
        signal.signal(signal.SIGINT, _quit_now)
    signal.signal(signal.SIGTERM, _quit_now)
    if sys.argv[1:] == ["--version"]:  # what `--version` prints, without building the command line
        from . import version_line

        sys.stdout.write(version_line() + "\n")
        return
    # `nqueens solve 14 | head` ends quietly, but not by SIGPIPE's default, which would end the
    # process where it is and leave its working folders and solvers behind: a write to the closed
    # pipe raises BrokenPipeError, which ends the run with exit 0 after cleaning up (`cli.app`).
    from typer.main import get_command

    from .cli import Terminated, app
    from .run.interrupts import note

    # Building the click group reads every command's annotations (a tenth of a second): still
    # start-up, outside the handlers of `cli`, so a signal there must end the process here too.
    command = get_command(app)

    def interrupted(signum: int, _frame: object) -> None:
        note(signum)
        raise KeyboardInterrupt

    def terminated(signum: int, _frame: object) -> None:
        note(signum)
        raise Terminated

    def unraisable(info: sys.UnraisableHookArgs) -> None:
        if not isinstance(info.exc_value, KeyboardInterrupt | Terminated):  # those are noted
            sys.__unraisablehook__(info)

    sys.unraisablehook = unraisable
    signal.signal(signal.SIGTERM, terminated)
    if not keep_ignoring:
        signal.signal(signal.SIGINT, interrupted)
    command()
