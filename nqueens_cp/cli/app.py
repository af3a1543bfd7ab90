"""The `nqueens` app: its exit codes, and the one place where every ending becomes an exit code
and at most one line on stderr.

Exit codes: 0 success; 1 disagreement or wrong answer; 2 the user must fix something (bad input,
path, unwritable output); 3 unknown (a limit was reached: what was found is written and
labelled partial); 130 Ctrl-C; 143 SIGTERM. Never a traceback.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import signal
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from ..backends import Unknown, WrongAnswer
from ..model.problem import NQueensError
from ..run.interrupts import deliver, noted, said


class UserError(NQueensError):
    """Something on the command line the user must fix (exit 2)."""


class Terminated(BaseException):
    """SIGTERM, raised where the program is so that pools and files are cleaned up."""


class PartialResult(Exception):
    """The answer is unknown (a limit was reached); what was found has been written out."""


EXIT_DISAGREE, EXIT_USAGE, EXIT_UNKNOWN, EXIT_INTERRUPT, EXIT_TERMINATED = 1, 2, 3, 130, 143


def say(message: str, code: int) -> None:
    """End the run with `code` and `message` as its one line on stderr."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"nqueens: {message}\n")
        sys.stderr.flush()
    sys.exit(code)


class Group(TyperGroup):
    """Runs the app so that every ending has its exit code and at most one line on stderr."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            _negative_size(kwargs.get("args", args[0] if args else None) or sys.argv[1:])
            rv = super().main(*args, **kwargs)
            deliver()  # a Ctrl-C whose exception was lost still ends the run as interrupted
            if rv == EXIT_INTERRUPT:  # typer turns KeyboardInterrupt into this return value
                raise KeyboardInterrupt
            _flush_stdout()
        except Unknown as exc:
            say(f"unknown: {exc}", EXIT_UNKNOWN)
        except PartialResult as exc:
            say(f"unknown: {exc}", EXIT_UNKNOWN)
        except WrongAnswer as exc:
            say(str(exc), EXIT_DISAGREE)
        except NQueensError as exc:
            say(f"error: {exc}", EXIT_USAGE)
        except KeyboardInterrupt:  # the line may say where the work is kept (`interrupts.tell`)
            say(said(signal.SIGINT), EXIT_INTERRUPT)
        except Terminated:
            say(said(signal.SIGTERM), EXIT_TERMINATED)
        except typer.Abort:
            say(said(signal.SIGINT), EXIT_INTERRUPT)
        except BrokenPipeError:
            # The reader went away (`nqueens solve 14 | head`): end quietly, once this handler
            # has let go of the stack, so that the searches' own clean-up runs (their working
            # folders, the solvers they started); later writes go nowhere.
            rv = _reader_gone()
        except SystemExit as exc:
            if not isinstance(exc.__context__, BrokenPipeError):
                raise
            rv = _reader_gone()  # click's own ending for a closed pipe is exit 1
        except OSError as exc:
            say(f"error: {os_error(exc)}", EXIT_USAGE)
        except Exception as exc:
            # Usage errors (bad option, missing value...) are click exceptions; typer vendors
            # click in recent releases, so they are recognised by their interface.
            if not hasattr(exc, "format_message"):
                end_if_stopped()  # an interrupt that came back as another error
                raise
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare `nqueens`: the help is the answer
                echo_help(exc)
                sys.exit(0)
            message = exc.format_message()
            if not message:  # bare `nqueens generate`: the help was the answer
                sys.exit(getattr(exc, "exit_code", EXIT_USAGE))
            say(f"error: {message}", EXIT_USAGE)
        sys.exit(rv if isinstance(rv, int) else 0)


def echo_help(exc: Exception) -> None:
    """The help of the command a bare invocation named, on stdout (it is what was asked for)."""
    ctx = getattr(exc, "ctx", None)
    sys.stdout.write((ctx.get_help() if ctx is not None else exc.format_message()) + "\n")  # type: ignore[attr-defined]


def _reader_gone() -> int:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return 0


def os_error(exc: OSError) -> str:
    """What the system said, and about which file: a full disk, too many open files and a
    library that failed to load all read "cannot write the output" before."""
    what = exc.strerror or str(exc)
    where = exc.filename if exc.filename is not None else None
    return f"{where}: {what}" if where else what


def end_if_stopped() -> None:
    """End as interrupted or terminated if a signal asked the process to stop (`interrupts`)."""
    signum = noted()
    if signum is not None:
        say(said(signum), 128 + signum)


def _negative_size(argv: list[str]) -> None:
    """`nqueens count -1` would read as an unknown option -1: say what is wrong with it instead
    (a negative number right after a command or another argument stands where N does)."""
    for prev, tok in itertools.pairwise(argv):
        if re.fullmatch(r"-\d+", tok) and not prev.startswith("-"):
            raise UserError(f"board size must be a positive integer, got {tok}")


def _flush_stdout() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


app = typer.Typer(
    cls=Group,
    add_completion=True,  # --install-completion, with the values of `completion`
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # click's plain help: typer's rich panels print "<bool>" beside every flag, and users typed
    # `--torus true`
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Solve and cross-check the n-queens family of puzzles.",
)
