"""What commands write: answers on stdout, files replaced only when a run ends well, JSON records,
the plan on stderr with --verbose, and progress bars on stderr when it is a terminal (so stdout
stays clean for pipes)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from .. import api
from ..backends import Backend, Optimality, Outcome, Plan
from ..model.problem import Problem, plural
from ..run.files import replacing
from ..run.interrupts import deliver
from .app import UserError


def backend(name: str, **given: Any) -> Backend:
    """The backend with the options actually given; it refuses those it cannot honour."""
    return api.get_backend(name, **{k: v for k, v in given.items() if v is not None and v is not False})


def prepare(problem: Problem, name: str, task: str, verbose: bool, **options: Any) -> tuple[Backend, Plan]:
    """The backend and its plan for `task` (said on stderr with --verbose), before any work."""
    b = backend(name, **options)
    plan = b.plan(problem, task)
    if verbose:
        workers = f" on {plan.workers} workers" if plan.workers > 1 else ""
        sys.stderr.write(f"plan: {b.name} {plan.algorithm}{workers}: {plan.reason}\n")
    return b, plan


def described(problem: Problem, squares: bool = False) -> dict[str, Any]:
    """The problem as a record names it: every field of `fields.FIELDS` but the sets of squares,
    which can be long (`squares`: how many each holds, as verify's records say)."""
    from ..model.fields import FIELDS

    shown = problem.as_dict()
    return {
        f.key: len(shown[f.key]) if f.squares else shown[f.key]
        for f in FIELDS
        if (squares or not f.squares) and f.key in shown
    }


def record(
    problem: Problem, b: Backend, plan: Plan, outcome: Outcome | None, start: float, stats: dict | None = None
) -> dict[str, Any]:
    """The JSON record of a run: the problem, the backend, the outcome, the plan and the stats
    (the outcome's, or `stats` where the run has no outcome)."""
    rec: dict[str, Any] = {"format": f"nqueens_cp.{plan.task}/1"}  # (docs/json.md: one per task)
    rec |= described(problem)
    rec["backend"] = b.name
    rec["solver"] = b.label  # the backend and the solver it ran (sat (glucose4), cpmpy (choco))
    rec["version"] = type(b).version()
    if outcome is not None:
        rec["status"] = outcome.status.value
        if outcome.reason is not None:
            rec["reason"] = outcome.reason.value
        if outcome.optimality is not None:  # an optimisation: its value, the bound proved, whether they meet
            rec |= {"value": outcome.value, "bound": outcome.bound, "optimal": outcome.optimality is Optimality.OPTIMAL}
    rec["plan"] = plan.as_dict()
    rec["stats"] = outcome.stats if outcome is not None else dict(stats or {})
    rec["seconds"] = round(time.perf_counter() - start, 6)
    return rec


def no_solution(problem: Problem, said_on_stdout: bool = False) -> None:
    """One line on stderr where a command found no solution: why, where the rules alone leave
    none (pre-placed pieces that contradict the board); "no solution" itself where stdout did not
    say it (a format for programs: an empty list, `null`, a header alone)."""
    why = problem.contradiction
    if why or not said_on_stdout:
        sys.stderr.write("nqueens: no solution" + (f": {why}" if why else "") + "\n")


def note_symmetries(group: tuple[str, ...]) -> None:
    sys.stderr.write(f"symmetry classes under {len(group)} symmetries: {', '.join(group)}\n")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): then they are the same only by name
        return os.path.realpath(a) == os.path.realpath(b)


def stdout() -> BinaryIO:
    if sys.stdout is None:
        raise UserError("standard output is closed: nowhere to write the result")
    sys.stdout.flush()
    return sys.stdout.buffer


def echo(text: str, stopping: bool = False) -> None:
    """One answer on stdout, unless a stop request came first; `stopping`: what a stopped run
    found, said as it stops (labelled partial by the caller)."""
    if not stopping:
        deliver()  # no answer is printed after a stop request, even one whose exception was lost
    out = stdout()
    out.write(text.encode() + b"\n")
    out.flush()


@contextlib.contextmanager
def output(path: Path | None, inputs: Sequence[Path | None] = ()) -> Iterator[tuple[BinaryIO, list[bool]]]:
    """(binary stream, keep flag): stdout, or a temporary file beside `path` that replaces it
    only when the command ends well or with a partial result it asked to keep (keep[0] set), so
    an existing file is never truncated by a run that fails. `path` may not be one of the
    run's `inputs` (`solve --model m.toml -o m.toml` replaced its own instance)."""
    for given in inputs:
        if path is not None and given is not None and _same_file(path, given):
            raise UserError(f"-o {path} is this run's own input: write the output elsewhere")
    if path is None:
        out = stdout()
        try:
            yield out, [True]
        finally:
            with contextlib.suppress(OSError, ValueError):
                out.flush()
        return
    if path.is_dir():
        raise UserError(f"cannot write {path}: it is a directory")
    if path.exists() and not path.is_file():  # a device or a pipe: written in place, never replaced
        try:
            with path.open("wb") as f:
                yield f, [True]
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
        return
    try:
        with replacing(path) as (f, keep):
            yield f, keep
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None


#: Counts that run longer than this (seconds) end with a one-line summary on stderr when it is
#: not a terminal (a log file, a CI job): how many sub-problems, solutions, seconds.
SUMMARY_AFTER = 5.0


def progress(label: str):
    """A Tally to follow a count's sub-problems: on a terminal a progress bar (done of total,
    the solutions so far, the time left estimated from the measured cost of the finished
    sub-problems); elsewhere nothing while it runs, then one summary line if it ran long."""

    @contextlib.contextmanager
    def tracked():
        from ..run.progress import Tally

        tally = Tally()
        if not sys.stderr.isatty():
            yield tally
            if tally.total > 1 and time.monotonic() - tally.started >= SUMMARY_AFTER:
                sys.stderr.write(f"nqueens: {label}: {tally.summary()}\n")
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[found]}"),
            TextColumn("[progress.remaining]{task.fields[left]}"),
            console=Console(stderr=True),
            transient=True,
        ) as prog:
            task = prog.add_task(label, total=None, found="", left="")

            def show(t: Tally) -> None:
                left = t.seconds_left
                prog.update(
                    task,
                    completed=t.done,
                    total=t.total,
                    found=f"{t.found:,} solutions" if t.counts else "",
                    left="" if left is None else f"about {_duration(left)} left",
                )

            tally.show = show
            yield tally

    return tracked()


#: A count expected to run longer than this is said to, on stderr, as it starts.
LONG_COUNT_SECONDS = 3600.0
#: Where the plan has no estimate, the one from the finished sub-problems is read this late.
MEASURED_AFTER = 10.0


@contextlib.contextmanager
def long_count_notice(plan: Plan, tally: Any, quiet: bool, checkpoint: Path | None = None) -> Iterator[None]:
    """One line on stderr where a count would run for more than an hour (`count 30` printed
    nothing for as long as it would run, years): the plan's estimate at once (for the items a
    resumed `checkpoint` has not recorded: it said the whole run's at every resume), else, a few
    seconds in, the one from the cost of the sub-problems finished by then (where a `tally` of
    them is kept). The count goes on; `--quiet` or a time limit silences it."""
    import threading

    from ..run.partition import journal_left

    kept = "its checkpoint keeps its work" if checkpoint is not None else "--checkpoint keeps its work"

    def say(seconds: float | None, how: str) -> None:
        if seconds is not None and seconds > LONG_COUNT_SECONDS:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write(
                    f"nqueens: this count would take about {_duration(seconds)} on {plural(plan.workers, 'worker')} "
                    f"({how}); it goes on: Ctrl-C stops it, --time-limit bounds it, {kept}\n"
                )

    if quiet or (plan.seconds is None and tally is None):  # (nothing to estimate from)
        yield
        return
    if plan.seconds is not None:
        left = None if checkpoint is None else journal_left(checkpoint)
        how = "estimated from a measured run and the growth of the number of solutions"
        if left is not None and left < 1:
            how += f", for the {left:.0%} of its sub-problems the checkpoint has not recorded"
        say(plan.seconds * (1.0 if left is None else left), how)
        yield
        return
    timer = threading.Timer(MEASURED_AFTER, lambda: say(tally.seconds_left, "from the sub-problems finished so far"))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _duration(seconds: float) -> str:
    if seconds >= 2 * 365 * 86400:
        return f"{seconds / (365 * 86400):,.0f} years"
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:,.0f} days"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def output_format(fmt: str | None, as_json: bool, known: tuple[str, ...], default: str) -> str:
    if as_json:
        if fmt not in (None, "json"):
            raise UserError(f"--json and --format {fmt} disagree")
        return "json"
    fmt = fmt or default
    alias = {"board": "boards", "boards": "board"}.get(fmt)  # one format, two names, both taken
    if fmt not in known and alias in known:
        fmt = alias
    if fmt not in known:
        raise UserError(f"unknown format {fmt!r} (known: {', '.join(known)})")
    return fmt


def counted_so_far(bar: Any, checkpoint: Path | None) -> str:
    """How far a stopped count of sub-problems got (a progress Tally's), and where it is kept."""
    saved = f", saved in {checkpoint}: the same command resumes" if checkpoint is not None else ""
    return f"{bar.done:,} of {bar.total:,} sub-problems counted{saved}"


def tell_resumed(bar: Any, checkpoint: Path | None) -> None:
    """One line on stderr where a run resumed a checkpoint: how many of its sub-problems were
    done before (a progress Tally's first update)."""
    if bar.before and checkpoint is not None:
        before = f"{bar.before:,} of {bar.total:,} sub-problems were done before"
        sys.stderr.write(f"nqueens: resumed {checkpoint}: {before}\n")
