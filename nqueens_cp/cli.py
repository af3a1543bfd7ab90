"""The `nqueens` command line: parse, call the library, render. No solving logic lives here.

Errors the user can fix (bad N, bad squares, bad files, unknown backend, time limit) end in one
line on stderr and exit code 2; exit code 1 is kept for a verify disagreement. Progress bars
go to stderr and only when it is a terminal, so stdout stays clean for pipes.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from . import api
from .backends import BACKENDS, Status, get_backend
from .backends.bitmask import MAX_COMPILED_N, enumerate_arrays
from .problem import NQueensError, Problem
from .render import FORMATS, draw, write_solutions


class UserError(NQueensError):
    pass


#: Boards larger than this are not drawn as text (a 10^6 board would be 10^12 characters).
MAX_DRAWN_N = 1000


class _Group(TyperGroup):
    """Runs the app so that every error the user can fix is one line and exit code 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except NQueensError as exc:
            _fail(str(exc))
        except typer.Abort:
            sys.exit(130)
        except Exception as exc:
            # Usage errors (bad option, missing value...) are click exceptions; typer vendors
            # click in recent releases, so they are recognised by their interface.
            if not hasattr(exc, "format_message"):
                raise
            message = exc.format_message()
            if not message:  # bare `nqueens generate`: the help was the answer
                sys.exit(getattr(exc, "exit_code", 2))
            _fail(message)
        sys.exit(rv if isinstance(rv, int) else 0)


def _fail(message: str) -> None:
    sys.stderr.write(f"nqueens: error: {message}\n")
    sys.exit(2)


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
TimeOpt = Annotated[float | None, typer.Option("--time-limit", help="Seconds (cpsat); reaching it is an error.")]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", min=1, help="Processes (bitmask count; default all cores) or CP-SAT workers.")
]
UniqueOpt = Annotated[bool, typer.Option("--unique", help="One solution per symmetry class.")]


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


def _options(**given: Any) -> dict[str, Any]:
    """The options actually given; the backend refuses those it does not take."""
    return {k: v for k, v in given.items() if v is not None}


def _note_symmetries(group: tuple[str, ...]) -> None:
    sys.stderr.write(f"symmetry classes under {len(group)} symmetries: {', '.join(group)}\n")


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[Any]:
    """A binary stream: the file, or stdout's byte layer."""
    if path is None:
        sys.stdout.flush()
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    try:
        f = path.open("wb")
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
    with f:
        yield f


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


# -- commands --------------------------------------------------------------------------------


@app.command()
def solve(
    n: NArg = None,
    backend: BackendOpt = "bitmask",
    limit: Annotated[int | None, typer.Option("--limit", min=0, help="At most this many solutions.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"One of {', '.join(FORMATS)}.")] = "boards",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
    time_limit: TimeOpt = None,
    unique: UniqueOpt = False,
) -> None:
    """Print the solutions, streamed."""
    if fmt not in FORMATS:
        raise UserError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    p = _problem(n, piece, block, fix, model, torus)
    opts = _options(time_limit=time_limit)
    if unique:
        from itertools import islice

        from .symmetry import problem_symmetries, unique_solutions

        _note_symmetries(problem_symmetries(p))
        sols = islice(unique_solutions(p, backend, **opts), limit)
    elif backend == "bitmask" and p.n <= MAX_COMPILED_N:
        sols = _limited_batches(enumerate_arrays(p), limit)  # formatted without building tuples
    else:
        sols = api.solve(p, backend, limit=limit, **opts)
    with _output(output) as out:
        write_solutions(p, sols, fmt, out)


@app.command()
def count(
    n: NArg = None,
    backend: BackendOpt = "bitmask",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
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
    depth: Annotated[int, typer.Option("--depth", min=1, help="Rows fixed per sub-problem (--dask/--checkpoint).")] = 3,
) -> None:
    """Print the number of solutions."""
    p = _problem(n, piece, block, fix, model, torus)
    record: dict[str, Any] = {"n": p.n, "piece": p.piece, "backend": backend}
    start = time.perf_counter()
    if dask is not None or checkpoint is not None:
        from .parallel import default_workers
        from .partition import count_partitioned, dask_runner, pool_runner

        if backend != "bitmask" or unique or time_limit is not None:
            raise UserError("--dask and --checkpoint count with the bitmask backend, without --unique or --time-limit")
        runner = dask_runner(dask, workers) if dask else pool_runner(workers or default_workers())
        with _progress("sub-problems") as progress:
            record["count"] = count_partitioned(p, depth, runner, checkpoint, progress)
    elif unique:
        from .symmetry import count_unique

        result = count_unique(p, backend, **_options(time_limit=time_limit))
        record |= {"count": result.unique, "total": result.total, "symmetries": list(result.symmetries)}
        if not as_json:
            _note_symmetries(result.symmetries)
    else:
        opts = _options(time_limit=time_limit, workers=workers)
        with _progress("sub-problems") as progress:
            if progress and backend == "bitmask":
                opts["progress"] = progress
            record["count"] = api.count(p, backend, **opts)
    record["seconds"] = round(time.perf_counter() - start, 6)
    typer.echo(json.dumps(record) if as_json else record["count"])


@app.command()
def first(
    n: NArg = None,
    backend: BackendOpt = "bitmask",
    fmt: Annotated[str, typer.Option("--format", "-f", help="board, json or jsonl.")] = "board",
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
    time_limit: TimeOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Find one solution and draw it, or say there is none."""
    if fmt not in ("board", "json", "jsonl"):
        raise UserError(f"unknown format {fmt!r} (known: board, json, jsonl)")
    p = _problem(n, piece, block, fix, model, torus)
    if fmt == "board" and p.n > MAX_DRAWN_N:
        raise UserError(f"a {p.n}x{p.n} board is too large to draw (at most {MAX_DRAWN_N}); use --format jsonl")
    b = get_backend(backend, **_options(time_limit=time_limit, workers=workers))
    b.check(p)
    outcome = b.first(p)
    if outcome.status is Status.TIME_LIMIT:
        raise UserError(f"{backend}: time limit of {time_limit:g}s reached: unknown whether a solution exists")
    sol = outcome.solution
    if fmt != "board":
        typer.echo("null" if sol is None else f"[{', '.join(map(str, sol))}]")
    elif sol is None:
        typer.echo("no solution")
    else:
        typer.echo("\n".join(draw(p, sol)))


@app.command()
def verify(
    n: NArg = None,
    backends: Annotated[str, typer.Option("--backends", help="Comma-separated backends.")] = "bitmask,cpsat,constraint",
    depth: Annotated[
        int | None, typer.Option("--depth", min=1, help="Compare per-prefix counts over the first DEPTH rows.")
    ] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="With --depth: this many random prefixes.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the prefix sample.")] = 0,
    piece: PieceOpt = "queen",
    block: BlockOpt = None,
    fix: FixOpt = None,
    model: ModelOpt = None,
    torus: TorusOpt = False,
) -> None:
    """Cross-validate backends: exit 0 when they agree, 1 when they do not."""
    from . import verify as v

    names = [b.strip() for b in backends.split(",") if b.strip()]
    for name in names:
        get_backend(name)  # an unknown name is a usage error before any work
    p = _problem(n, piece, block, fix, model, torus)
    if depth is None:
        if sample is not None:
            raise UserError("--sample goes with --depth")
        verdict = v.verify(p, names)
    else:
        with _progress("prefixes") as progress:
            verdict = v.verify_partition(p, names, depth=depth, sample=sample, seed=seed, progress=progress)
        typer.echo(f"{verdict.prefixes} prefixes of depth {depth}")
    typer.echo("\n".join(verdict.describe()))
    if not verdict.agree:
        raise typer.Exit(1)


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
    ns: Annotated[str | None, typer.Option("--n", help="Board sizes: N or A..B.")] = None,
    models: Annotated[list[Path] | None, typer.Option("--model", help="Instance file (repeatable).")] = None,
    backends: Annotated[str, typer.Option("--backends", help="Comma-separated backends.")] = "bitmask,cpsat,constraint",
    enumerate_: Annotated[
        bool, typer.Option("--enumerate", help="Time streaming every solution rather than counting.")
    ] = False,
    piece: PieceOpt = "queen",
    torus: TorusOpt = False,
    time_limit: TimeOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON records instead of a table.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw time against n to FILE.png or FILE.svg.")] = None,
) -> None:
    """Run backends side by side over a range of n and/or instance files."""
    from .compare import compare_runs, plot_runs, table

    names = [b.strip() for b in backends.split(",") if b.strip()]
    for name in names:
        get_backend(name)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise UserError(f"--plot writes .png or .svg, not {plot.suffix or 'no extension'!r}")
    problems: list[tuple[str, Problem]] = []
    if ns:
        problems += [(str(k), Problem(k, piece, torus=torus)) for k in _range(ns)]
    for path in models or []:
        problems.append((path.name, _problem(None, piece, None, None, path, torus)))
    if not problems:
        raise UserError("give --n A..B and/or --model FILE")
    with _progress("runs") as progress:
        rows = compare_runs(problems, names, enumerate_, time_limit, progress)
    if as_json:
        typer.echo(json.dumps(rows, indent=1))
    else:
        table(rows, names)
    if plot is not None:
        plot_runs(rows, names, plot)


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
    sol = None
    if solution is not None:
        try:
            sol = tuple(int(c) for c in solution.replace(" ", "").split(","))
        except ValueError:
            raise UserError(f"--solution expects comma-separated columns, got {solution!r}") from None
        why = p.explain(sol)
        if why:
            raise UserError(f"not a solution: {why}")
    typer.echo("\n".join(draw(p, sol)))


generate_app = typer.Typer(help="Write benchmark instances.", no_args_is_help=True)
app.add_typer(generate_app, name="generate")


@generate_app.command("blocked")
def generate_blocked(
    n: Annotated[int, typer.Option("--n", help="Board size.")],
    blocks: Annotated[int, typer.Option("--blocks", help="Squares to block.")],
    min_free: Annotated[int, typer.Option("--min-free", help="Free squares every row and column keeps.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The .param file (default stdout).")] = None,
) -> None:
    """A random blocked n-queens instance (CSPLib prob080 model) as a CSPLib .param file."""
    from .formats import write_param
    from .generate import blocked_instance

    text = write_param(blocked_instance(n, blocks, min_free, seed)).encode()
    with _output(output) as out:
        out.write(text)


def main() -> None:
    # `nqueens solve 14 | head` ends like any Unix filter: quietly, by SIGPIPE.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    app()
