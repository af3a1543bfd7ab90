"""The `nqueens` command line: parse, call the library, render. No solving logic lives here, and
no backend is named: what a backend can do is read from its capabilities and its plan.

Exit codes: 0 success; 1 verify disagreement; 2 the user must fix something (bad input, path,
unwritable output); 3 unknown (a limit reached: what was found is written and labelled partial);
130 Ctrl-C; 143 SIGTERM. Always one line on stderr, never a traceback. Progress bars go to stderr
and only when it is a terminal, so stdout stays clean for pipes.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import typer
from typer.core import TyperGroup

from . import api
from .backends import (
    BACKENDS,
    DEFAULT_BACKEND,
    Backend,
    Outcome,
    Plan,
    Status,
    Unknown,
    available_backends,
    backend_class,
)
from .interrupts import deliver, noted, said
from .problem import NQueensError, Problem
from .render import FORMATS, MAX_DRAWN_N, draw, write_solutions


class UserError(NQueensError):
    pass


class Terminated(BaseException):
    """SIGTERM, raised where the program is so that pools and files are cleaned up."""


class PartialResult(Exception):
    """The answer is unknown (a limit was reached); what was found has been written out."""


EXIT_DISAGREE, EXIT_USAGE, EXIT_UNKNOWN, EXIT_INTERRUPT, EXIT_TERMINATED = 1, 2, 3, 130, 143


def _say(message: str, code: int) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"nqueens: {message}\n")
        sys.stderr.flush()
    sys.exit(code)


class _Group(TyperGroup):
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
            _say(f"unknown: {exc}", EXIT_UNKNOWN)
        except PartialResult as exc:
            _say(f"unknown: {exc}", EXIT_UNKNOWN)
        except NQueensError as exc:
            _say(f"error: {exc}", EXIT_USAGE)
        except KeyboardInterrupt:
            _say("interrupted", EXIT_INTERRUPT)
        except Terminated:
            _say("terminated", EXIT_TERMINATED)
        except typer.Abort:
            _say("interrupted", EXIT_INTERRUPT)
        except BrokenPipeError:
            os._exit(0)  # the reader went away (`nqueens solve 14 | head`): end like any filter
        except OSError as exc:
            _say(f"error: cannot write the output: {exc.strerror or exc}", EXIT_USAGE)
        except Exception as exc:
            # Usage errors (bad option, missing value...) are click exceptions; typer vendors
            # click in recent releases, so they are recognised by their interface.
            if not hasattr(exc, "format_message"):
                _end_if_stopped()  # an interrupt that came back as another error
                raise
            message = exc.format_message()
            if not message:  # bare `nqueens generate`: the help was the answer
                sys.exit(getattr(exc, "exit_code", EXIT_USAGE))
            _say(f"error: {message}", EXIT_USAGE)
        sys.exit(rv if isinstance(rv, int) else 0)


def _end_if_stopped() -> None:
    """End as interrupted or terminated if a signal asked the process to stop (`interrupts`)."""
    signum = noted()
    if signum is not None:
        _say(said(signum), 128 + signum)


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
    cls=_Group,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Solve and cross-check the n-queens family of puzzles.",
)

# -- shared options --------------------------------------------------------------------------

NArg = Annotated[str | None, typer.Argument(metavar="N", help="Board size (may be omitted with --model).")]
PieceOpt = Annotated[str, typer.Option("--piece", help="queen, rook or superqueen (queen + knight).")]
TorusOpt = Annotated[bool, typer.Option("--torus", help="The board wraps around (diagonals continue).")]
BlockOpt = Annotated[list[str] | None, typer.Option("--block", metavar="R,C", help="Blocked square, 0-based.")]
FixOpt = Annotated[list[str] | None, typer.Option("--fix", metavar="R,C", help="Pre-placed piece, 0-based.")]
ModelOpt = Annotated[
    Path | None, typer.Option("--model", help="Instance file: .toml, .param (CSPLib), .lp (ASP), .txt board.")
]
BackendOpt = Annotated[str, typer.Option("--backend", "-b", help=f"One of {', '.join(BACKENDS)}.")]
TimeOpt = Annotated[
    float | None, typer.Option("--time-limit", help="Seconds; reaching it ends with exit 3 (answer unknown).")
]
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="Processes (bitmask count) or CP-SAT workers.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON record (same as --format json).")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Say on stderr which algorithm runs and why.")]
SatSolverOpt = Annotated[
    str | None,
    typer.Option(
        "--sat-solver",
        help="For -b sat: the python-sat solver (default cadical195; its lingeling has simplification off).",
    ),
]


def _square(text: str, flag: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*", text)
    if not m:
        raise UserError(f"{flag} expects R,C (0-based integers), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _size(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserError(f"N must be an integer, got {text!r}") from None


def _problem(
    n: str | None,
    piece: str,
    block: list[str] | None,
    fix: list[str] | None,
    model: Path | None,
    torus: bool = False,
) -> Problem:
    """The problem from N and the flags, or from a model file that the flags add to (a
    non-default --piece or --torus overrides the file's)."""
    blocked = [_square(b, "--block") for b in block or []]
    fixed = [_square(f, "--fix") for f in fix or []]
    if model is not None:
        from .formats import read_model

        base = read_model(model)
        if n is not None and _size(n) != base.n:
            raise UserError(f"N = {n} differs from the model's n = {base.n}")
        return Problem(
            base.n,
            piece if piece != "queen" else base.piece,
            (*base.blocked, *blocked),
            (*base.fixed, *fixed),
            torus or base.torus,
        )
    if n is None:
        raise UserError("give the board size N or --model FILE")
    return Problem(_size(n), piece, blocked, fixed, torus)


def _backend(name: str, **given: Any) -> Backend:
    """The backend with the options actually given; it refuses those it cannot honour."""
    return api.get_backend(name, **{k: v for k, v in given.items() if v is not None and v is not False})


def _prepare(problem: Problem, name: str, task: str, verbose: bool, **options: Any) -> tuple[Backend, Plan]:
    b = _backend(name, **options)
    plan = b.plan(problem, task)
    if verbose:
        workers = f" on {plan.workers} workers" if plan.workers > 1 else ""
        sys.stderr.write(f"plan: {b.name} {plan.algorithm}{workers}: {plan.reason}\n")
    return b, plan


def _record(problem: Problem, b: Backend, plan: Plan, outcome: Outcome | None, start: float) -> dict[str, Any]:
    rec: dict[str, Any] = {"n": problem.n, "piece": problem.piece, "torus": problem.torus, "backend": b.name}
    if outcome is not None:
        rec["status"] = outcome.status.value
        if outcome.reason is not None:
            rec["reason"] = outcome.reason.value
    rec["plan"] = plan.as_dict()
    rec["stats"] = outcome.stats if outcome is not None else b.stats
    rec["seconds"] = round(time.perf_counter() - start, 6)
    return rec


def _stdout() -> BinaryIO:
    if sys.stdout is None:
        raise UserError("standard output is closed: nowhere to write the result")
    sys.stdout.flush()
    return sys.stdout.buffer


def _echo(text: str) -> None:
    deliver()  # no answer is printed after a stop request, even one whose exception was lost
    out = _stdout()
    out.write(text.encode() + b"\n")
    out.flush()


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[tuple[BinaryIO, list[bool]]]:
    """(binary stream, keep flag): stdout, or a temporary file beside `path` that replaces it
    only when the command ends well or with a partial result it asked to keep (keep[0] set), so
    an existing file is never truncated by a run that fails."""
    if path is None:
        out = _stdout()
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
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
    keep = [False]
    ok = False
    try:
        f = os.fdopen(fd, "wb")
        try:
            yield f, keep
            ok = True
        finally:
            try:
                if ok or keep[0]:
                    f.flush()
                    os.fsync(f.fileno())
            finally:
                f.close()
            if ok or keep[0]:
                os.replace(tmp, path)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _progress(label: str):
    """A rich progress callback (done, total) on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return contextlib.nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    @contextlib.contextmanager
    def bar():
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as prog:
            task = prog.add_task(label, total=None)
            yield lambda done, total: prog.update(task, completed=done, total=total)

    return bar()


def _format(fmt: str | None, as_json: bool, known: tuple[str, ...], default: str) -> str:
    if as_json:
        if fmt not in (None, "json"):
            raise UserError(f"--json and --format {fmt} disagree")
        return "json"
    fmt = fmt or default
    if fmt not in known:
        raise UserError(f"unknown format {fmt!r} (known: {', '.join(known)})")
    return fmt


def _limited_batches(batches: Iterator[Any], limit: int | None) -> Iterator[Any]:
    left = limit
    for batch in batches:
        if left is not None:
            batch = batch[:left]
            left -= batch.shape[0]
        if batch.shape[0]:
            yield batch
        if left == 0:
            return


# -- commands --------------------------------------------------------------------------------


@app.command()
def solve(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    limit: Annotated[int | None, typer.Option("--limit", min=0, help="At most this many solutions.")] = None,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=f"One of {', '.join(FORMATS)}.")] = None,
    as_json: JsonOpt = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
    time_limit: TimeOpt = None,
    unique: Annotated[bool, typer.Option("--unique", help="One solution per symmetry class.")] = False,
    sat_solver: SatSolverOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Print the solutions, streamed. On a time limit, those found are written, then exit 3."""
    fmt = _format(fmt, as_json, FORMATS, "boards")
    p = _problem(n, piece, block, fix, model, torus)
    b, _ = _prepare(p, backend, "solve", verbose, time_limit=time_limit, sat_solver=sat_solver)
    if unique:
        from .symmetry import canonical, problem_symmetries

        group = problem_symmetries(p)
        _note_symmetries(group)
        sols: Iterator[Any] = (s for s in b.solutions(p) if canonical(s, group) == s)
        if limit is not None:
            sols = api.limited(sols, limit)
    else:
        sols = _limited_batches(b.batches(p), limit)
    with _output(output) as (out, keep):
        try:
            write_solutions(p, sols, fmt, out)
        except Unknown as exc:
            keep[0] = True
            raise PartialResult(f"{exc} (the solutions found are written)") from None


def _note_symmetries(group: tuple[str, ...]) -> None:
    sys.stderr.write(f"symmetry classes under {len(group)} symmetries: {', '.join(group)}\n")


@app.command()
def count(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    as_json: JsonOpt = False,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help="text or json.")] = None,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
    time_limit: TimeOpt = None,
    workers: WorkersOpt = None,
    unique: Annotated[bool, typer.Option("--unique", help="Count symmetry classes (fundamental solutions).")] = False,
    dask: Annotated[
        str | None, typer.Option("--dask", metavar="ADDRESS", help="Count on a Dask scheduler, or 'local'.")
    ] = None,
    checkpoint: Annotated[
        Path | None, typer.Option("--checkpoint", help="Record finished sub-problems here; resume from it.")
    ] = None,
    depth: Annotated[
        int | None, typer.Option("--depth", min=1, help="Rows fixed per sub-problem (--dask/--checkpoint; default 3).")
    ] = None,
    dask_wait: Annotated[
        float,
        typer.Option("--dask-wait", min=0.1, help="Seconds to wait for the Dask scheduler or for a worker."),
    ] = 20.0,
    check: Annotated[
        bool, typer.Option("--check", help="With --checkpoint: re-check and re-sum a finished checkpoint, run nothing.")
    ] = False,
    sat_solver: SatSolverOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Print the number of solutions (exit 3 with a lower bound when a limit is reached)."""
    fmt = _format(fmt, as_json, ("text", "json"), "text")
    p = _problem(n, piece, block, fix, model, torus)
    start = time.perf_counter()
    partitioned = dask is not None or checkpoint is not None
    if depth is not None and not partitioned:
        raise UserError("--depth goes with --dask or --checkpoint")
    if check and checkpoint is None:
        raise UserError("--check goes with --checkpoint FILE")
    if partitioned:
        b, plan = _prepare(p, backend, "count", verbose)
        if not b.capabilities.partition:
            raise UserError(f"backend {b.name!r} cannot cut a count into sub-problems (--dask, --checkpoint)")
        if unique or time_limit is not None:
            raise UserError("--dask and --checkpoint count without --unique or --time-limit")
        if dask is not None and not dask.strip():
            raise UserError("--dask needs a scheduler address (tcp://HOST:PORT) or 'local'")
        if dask is not None:
            from .partition import check_dask_address

            check_dask_address(dask)
        from .parallel import default_workers, max_workers
        from .partition import checked_total, count_partitioned, dask_runner, open_checkpoint, pool_runner

        if workers is not None and not 1 <= workers <= max_workers():
            raise UserError(f"--workers must be 1..{max_workers()} on this machine, got {workers}")
        part = b.partition(p, depth or 3)  # type: ignore[attr-defined]
        if check:
            assert checkpoint is not None
            total = checked_total(part, checkpoint)
        else:
            ckpt = open_checkpoint(part, checkpoint) if checkpoint is not None else None  # refused before any work
            runner = dask_runner(dask, workers, dask_wait) if dask else pool_runner(workers or default_workers())
            with _progress("sub-problems") as progress:
                total = count_partitioned(part, runner, ckpt, progress)
        outcome = Outcome(Status.SOLVED if total else Status.NO_SOLUTION, count=total)
        where = "checked from the checkpoint" if check else f"on Dask ({dask})" if dask else "on the process pool"
        plan = Plan("count", plan.algorithm, f"{part.size} numbered sub-problems {where}", workers or 1)
        rec = _record(p, b, plan, outcome, start) | {"count": total}
    elif unique:
        b, plan = _prepare(p, backend, "unique", verbose, time_limit=time_limit, workers=workers, sat_solver=sat_solver)
        classes = b.count_classes(p)
        rec = _record(p, b, plan, None, start) | {
            "count": classes.unique,
            "total": classes.total,
            "by_orbit": {str(k): v for k, v in sorted(classes.by_orbit.items())},
            **classes.symmetric,
            "symmetries": list(classes.group),
        }
        if fmt == "text":
            _note_symmetries(classes.group)
    else:
        with _progress("sub-problems") as progress:
            b, plan = _prepare(
                p,
                backend,
                "count",
                verbose,
                time_limit=time_limit,
                workers=workers,
                sat_solver=sat_solver,
                progress=progress if progress and "progress" in backend_class(backend).capabilities.options else None,
            )
            outcome = b.count(p)
        rec = _record(p, b, plan, outcome, start) | {"count": outcome.count}
        if outcome.status is Status.UNKNOWN:
            rec["partial"] = True
            why = f"{b.name}: {outcome.reason.value} reached"  # type: ignore[union-attr]
            if outcome.count is None:  # a count spread over processes that were stopped
                if fmt == "json":
                    _echo(json.dumps(rec))
                raise PartialResult(f"{why}; the count is unknown")
            _echo(json.dumps(rec) if fmt == "json" else f"{outcome.count} (partial: at least)")
            raise PartialResult(f"{why}; {outcome.count} solution(s) counted so far")
    _echo(json.dumps(rec) if fmt == "json" else str(rec["count"]))


@app.command()
def first(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help="board, json or jsonl.")] = None,
    as_json: JsonOpt = False,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
    time_limit: TimeOpt = None,
    workers: WorkersOpt = None,
    lexicographic: Annotated[
        bool, typer.Option("--lexicographic", help="The lexicographically first solution (a search; may be slow).")
    ] = False,
    sat_solver: SatSolverOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Find one solution and draw it, or say there is none (exit 3 when unknown)."""
    fmt = _format(fmt, as_json, ("board", "json", "jsonl"), "board")
    p = _problem(n, piece, block, fix, model, torus)
    if fmt == "board" and p.n > MAX_DRAWN_N:
        raise UserError(f"a {p.n}x{p.n} board is too large to draw (at most {MAX_DRAWN_N}); use --format jsonl")
    start = time.perf_counter()
    b, plan = _prepare(
        p,
        backend,
        "first",
        verbose,
        time_limit=time_limit,
        workers=workers,
        lexicographic=lexicographic,
        sat_solver=sat_solver,
    )
    outcome = b.first(p)
    sol = outcome.solution
    if fmt == "json":
        _echo(json.dumps(_record(p, b, plan, outcome, start) | {"solution": None if sol is None else list(sol)}))
    elif fmt == "jsonl" and outcome.status is not Status.UNKNOWN:
        _echo("null" if sol is None else f"[{', '.join(map(str, sol))}]")
    elif outcome.status is Status.SOLVED:
        _echo("\n".join(draw(p, sol)))
    elif outcome.status is Status.NO_SOLUTION:
        _echo("no solution")
    if outcome.status is Status.UNKNOWN:
        raise PartialResult(f"{b.name}: {outcome.reason.value} reached: unknown whether a solution exists")  # type: ignore[union-attr]


@app.command()
def verify(
    n: NArg = None,
    backends: Annotated[
        str | None, typer.Option("--backends", help="Comma-separated backends (default: all that model it).")
    ] = None,
    depth: Annotated[
        int | None, typer.Option("--depth", min=1, help="Compare per-prefix counts over the first DEPTH rows.")
    ] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="With --depth: this many random prefixes.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the prefix sample.")] = 0,
    against: Annotated[
        str | None,
        typer.Option("--against", metavar="CMD", help='Your program, e.g. "python my.py {n}" ({model}: the file).'),
    ] = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", help="With --against: seconds the program may run.")
    ] = 60.0,
    one_based: Annotated[
        bool, typer.Option("--one-based", help="With --against: the program prints columns counted from 1.")
    ] = False,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
) -> None:
    """Cross-validate backends, or your program (--against): exit 0 agree, 1 disagree, 3 nothing compared."""
    from . import verify as v

    names = None if backends is None else [b.strip() for b in backends.split(",") if b.strip()]
    for name in names or []:
        backend_class(name)  # an unknown name is a usage error before any work
    p = _problem(n, piece, block, fix, model, torus)
    if against is not None:
        _verify_program(against, p, model, names, time_limit, one_based, depth)
        return
    if one_based:
        raise UserError("--one-based goes with --against")
    if depth is None:
        if sample is not None:
            raise UserError("--sample goes with --depth")
        verdict = v.verify(p, names)
    else:
        with _progress("prefixes") as progress:
            verdict = v.verify_partition(p, names, depth=depth, sample=sample, seed=seed, progress=progress)
        _echo(f"{verdict.prefixes} prefixes of depth {depth}")
    _echo("\n".join(verdict.describe()))
    if not verdict.compared:
        raise PartialResult("nothing was compared")
    if not verdict.agree:
        raise typer.Exit(EXIT_DISAGREE)


def _verify_program(
    template: str,
    p: Problem,
    model: Path | None,
    names: list[str] | None,
    time_limit: float,
    one_based: bool,
    depth: int | None,
) -> None:
    from .external import ProgramFailed, ProgramTimeout, verify_program

    if depth is not None:
        raise UserError("--against compares whole solution sets: leave out --depth")
    if not 0 < time_limit < float("inf"):
        raise UserError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    reference = _backend(names[0] if names else DEFAULT_BACKEND)
    reference.plan(p, "solve")
    try:
        comparison = verify_program(template, p, model, reference, time_limit, one_based)
    except ProgramTimeout as exc:
        raise PartialResult(str(exc)) from None
    except ProgramFailed as exc:
        _echo(f"DISAGREE: the program failed: {exc}")
        sys.stderr.write(f"nqueens: the program failed: {exc}\n")
        raise typer.Exit(EXIT_DISAGREE) from None
    _echo("\n".join(comparison.describe()))
    if not comparison.agree:
        raise typer.Exit(EXIT_DISAGREE)


def _range(text: str) -> list[int]:
    m = re.fullmatch(r"\s*(\d+)\s*(?:(?:\.\.|-)\s*(\d+)\s*)?", text)
    if not m:
        raise UserError(f"--n expects N or A..B, got {text!r}")
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if lo > hi:
        raise UserError(f"--n range {text!r} is empty")
    return list(range(lo, hi + 1))


@app.command()
def compare(
    ns: Annotated[str | None, typer.Option("--n", help="Board sizes: N or A..B (with --piece, --torus).")] = None,
    models: Annotated[
        list[str] | None,
        typer.Option("--model", help="Instance file, folder or quoted glob ('sets/*.param'); repeatable."),
    ] = None,
    backends: Annotated[
        str | None, typer.Option("--backends", help="Comma-separated backends (default: every one installed).")
    ] = None,
    task: Annotated[
        str, typer.Option("--task", help="first (decide: find one), count, or solve (enumerate every solution).")
    ] = "count",
    piece: PieceOpt = "queen",
    torus: TorusOpt = False,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="Seconds per run; a run past it is killed (unknown).")
    ] = None,
    memory_limit: Annotated[
        int | None, typer.Option("--memory-limit", help="MB per run; a run past it is killed (unknown).")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Runs side by side, one worker process each.")] = 1,
    sat_solver: SatSolverOpt = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Stream one row per run to FILE.csv or FILE.jsonl.")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Skip the runs already in --output.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON line per run as it ends, then one with the summary.")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Cactus plot (and, for two backends, a scatter plot): .png or .svg.")
    ] = None,
) -> None:
    """Run backends side by side over instances with hard limits; check every answer (exit 1 on a wrong one)."""
    from . import compare as c
    from .parallel import max_workers
    from .plots import PLOT_SUFFIXES, pyplot
    from .report import RUNS_SHOWN, Live, runs_table, summary_table
    from .results import ResultsFile, summarize

    names = available_backends() if backends is None else [b.strip() for b in backends.split(",") if b.strip()]
    if not names:
        raise UserError("--backends names no backend")
    for name in names:
        backend_class(name)
    if task not in ("first", "count", "solve"):
        raise UserError(f"--task must be first, count or solve, not {task!r}")
    if not 1 <= jobs <= max_workers():
        raise UserError(f"--jobs must be 1..{max_workers()} on this machine, got {jobs}")
    if resume and output is None:
        raise UserError("--resume continues an --output file: give one")
    if plot is not None:  # refused before the runs, not after them
        if plot.suffix.lower() not in PLOT_SUFFIXES:
            raise UserError(f"--plot writes .png or .svg, not {plot.suffix or 'no extension'!r}")
        folder = plot.parent if str(plot.parent) else Path(".")
        if not folder.is_dir() or not os.access(folder, os.W_OK) or plot.is_dir():
            raise UserError(f"cannot write {plot}: its folder is missing or not writable")
        pyplot()
    instances: list[c.Instance] = []
    if ns:
        instances += [c.Instance(c.board_label(p), p) for p in (Problem(k, piece, torus=torus) for k in _range(ns))]
    for path in c.model_paths(models or []):
        instances.append(c.Instance(str(path), _problem(None, piece, None, None, path, torus)))
    if not instances:
        raise UserError("give --n A..B and/or --model FILE|FOLDER|GLOB")
    if len({i.label for i in instances}) < len(instances):
        raise UserError("an instance is given twice")
    results = ResultsFile(output, resume) if output is not None else None
    previous = results.previous if results is not None else []
    live = Live(names, time_limit, len(instances) * len(names), enabled=sys.stderr.isatty() and not as_json)

    def record(row: dict[str, Any]) -> None:
        if results is not None:
            results.write(row)
        if as_json:
            _echo(json.dumps(row))
        live.add(row)

    options = {"sat_solver": sat_solver} if sat_solver else {}
    try:
        with live.running():
            rows = c.compare(
                instances,
                names,
                task,
                time_limit=time_limit,
                memory_limit_mb=memory_limit,
                jobs=jobs,
                options=options,
                previous=previous,
                on_row=record,
            )
    except KeyboardInterrupt:  # what finished is in --output; show it, then end as interrupted
        if not as_json:
            from rich.console import Console

            Console().print(summary_table(summarize(live.rows, names, time_limit), time_limit))
        raise
    finally:
        if results is not None:
            results.close()
    everything = [r for r in previous if r["task"] == task] + rows
    summaries = summarize(everything, names, time_limit)
    if as_json:
        _echo(json.dumps({"summary": [s.as_dict() for s in summaries]}))
    else:
        from rich.console import Console

        console = Console()
        if len(rows) <= RUNS_SHOWN:
            console.print(runs_table(rows))
        console.print(summary_table(summaries, time_limit))
    if plot is not None:
        from .plots import plot as draw_plot

        draw_plot(everything, names, time_limit, plot)
    bad = c.wrong(everything)
    if bad:
        first = f"{bad[0]['instance']} {bad[0]['backend']}: {bad[0]['check']}"
        sys.stderr.write(f"nqueens: {len(bad)} wrong answer(s), the first: {first}\n")
        raise typer.Exit(EXIT_DISAGREE)


@app.command()
def export(
    n: NArg = None,
    to: Annotated[str, typer.Option("--to", help="dimacs (CNF), mzn (MiniZinc model + data) or cpsat.")] = "dimacs",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="The file (default stdout); for mzn, FILE.mzn and FILE.dzn.")
    ] = None,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
) -> None:
    """Write the puzzle for an external solver: DIMACS CNF, MiniZinc, or the CP-SAT model (protobuf text)."""
    from .export import check_format, export

    check_format(to)
    p = _problem(n, piece, block, fix, model, torus)
    if to == "mzn":
        if output is None or output.suffix != ".mzn":
            raise UserError("--to mzn writes two files: give -o FILE.mzn (the data goes to FILE.dzn)")
        model_text, data_text = io.StringIO(), io.StringIO()
        export(p, to, model_text, data_text)
        with _output(output) as (out, _), _output(output.with_suffix(".dzn")) as (data, _):
            out.write(model_text.getvalue().encode())
            data.write(data_text.getvalue().encode())
        return
    text = io.StringIO()
    export(p, to, text)
    with _output(output) as (out, _):
        out.write(text.getvalue().encode())


@app.command()
def check(
    args: Annotated[
        list[str], typer.Argument(metavar="[N] SOLUTIONS", help="Board size (or --model), then the file ('-': stdin).")
    ],
    one_based: Annotated[bool, typer.Option("--one-based", help="Columns are counted from 1.")] = False,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
) -> None:
    """Check solutions written by another program (SAT v-lines, columns, JSON, boards): exit 1 if any is wrong."""
    from .answers import judge, read_answers

    if len(args) > 2:
        raise UserError("check takes N (or --model FILE) and one file of solutions")
    n, source = (None, args[0]) if len(args) == 1 else args
    p = _problem(n, piece, block, fix, model, torus)
    solutions = None if source == "-" else Path(source)
    try:
        stream = solutions.open(errors="replace") if solutions is not None else sys.stdin
    except OSError as exc:
        raise UserError(f"cannot read {solutions}: {exc.strerror}") from None
    with stream:
        j = judge(read_answers(stream, p, one_based), p)
    lines = [f"{j.read} solutions read: {len(j.valid)} valid and distinct"]
    lines += [f"invalid, line {a.line}: {list(a.solution or ())}: {why}" for a, why in j.invalid]
    lines += [f"repeated, line {a.line}: {list(a.solution or ())}" for a in j.duplicates]
    wrong = bool(j.invalid or j.duplicates)
    if j.no_solution_claims:
        found = api.first(p)
        if found is not None:
            wrong = True
            lines.append(f"line {j.no_solution_claims[0]} claims no solution, but {list(found)} is one")
        else:
            lines.append(f"line {j.no_solution_claims[0]} claims no solution: right, there is none")
    _echo("\n".join(lines))
    if wrong:
        raise typer.Exit(EXIT_DISAGREE)


@app.command()
def show(
    n: NArg = None,
    solution: Annotated[str | None, typer.Option("--solution", help="Columns per row, e.g. 1,3,0,2.")] = None,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
) -> None:
    """Draw an instance, or a solution on it ('.' free, 'X' blocked, 'F' pre-placed)."""
    p = _problem(n, piece, block, fix, model, torus)
    if p.n > MAX_DRAWN_N:
        raise UserError(f"a {p.n}x{p.n} board is too large to draw (at most {MAX_DRAWN_N})")
    sol = None
    if solution is not None:
        try:
            sol = tuple(int(c) for c in solution.replace(" ", "").split(","))
        except ValueError:
            raise UserError(f"--solution expects comma-separated columns, got {solution!r}") from None
        why = p.explain(sol)
        if why:
            raise UserError(f"not a solution: {why}")
    _echo("\n".join(draw(p, sol)))


generate_app = typer.Typer(help="Write benchmark instances.", no_args_is_help=True)
app.add_typer(generate_app, name="generate")


def _int_list(text: str, flag: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UserError(f"{flag} expects integers separated by commas, got {text!r}") from None
    if not values:
        raise UserError(f"{flag} is empty")
    return values


@generate_app.command("blocked")
def generate_blocked(
    n: Annotated[str, typer.Option("--n", help="Board size, or sizes: 28,48,50,56.")],
    blocks: Annotated[str, typer.Option("--blocks", help="Squares to block, one count per size.")],
    min_free: Annotated[int, typer.Option("--min-free", help="Free squares every row and column keeps.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 0,
    count: Annotated[
        int | None, typer.Option("--count", min=1, help="Instances per size, written to --out DIR.")
    ] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="With --count: the folder to write them to.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The .param file (default stdout).")] = None,
) -> None:
    """Random blocked n-queens instances (CSPLib prob080 model) as CSPLib .param files: one, or a set."""
    from .formats import write_param
    from .generate import blocked_instance, blocked_set

    sizes, counts = _int_list(n, "--n"), _int_list(blocks, "--blocks")
    if len(sizes) != len(counts):
        raise UserError(f"--n gives {len(sizes)} sizes and --blocks {len(counts)} counts: give one count per size")
    if count is None:
        if out_dir is not None:
            raise UserError("--out writes a set: give --count K too")
        if len(sizes) > 1:
            raise UserError("several sizes make a set: give --count K and --out DIR")
        text = write_param(blocked_instance(sizes[0], counts[0], min_free, seed)).encode()
        with _output(output) as (out, _):
            out.write(text)
        return
    if out_dir is None or output is not None:
        raise UserError("--count writes a set to a folder: give --out DIR (not --output)")
    written = blocked_set(out_dir, list(zip(sizes, counts, strict=True)), count, min_free, seed)
    _echo(f"wrote {written} instances to {out_dir}")
