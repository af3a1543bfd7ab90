"""solve, count, first: one problem, one backend, one answer (or a stream of them)."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import api
from ..backends import DEFAULT_BACKEND, Outcome, Status, Unknown, backend_class
from ..backends.base import Reason, WrongAnswer, bad_time_limit
from ..backends.claims import checked_claim, checked_stream
from ..io.render import FORMATS, MAX_DRAWN_N, write_solutions
from ..model.drawing import draw
from ..model.problem import Problem
from ..run.interrupts import stop_wins, tell
from .app import PartialResult, Terminated, UserError, app
from .options import (
    PROBLEM,
    SOLVER_OPTIONS,
    BackendOpt,
    JsonOpt,
    NArg,
    ProblemSpec,
    TimeOpt,
    VerboseOpt,
    WorkersOpt,
    backend_options,
    problem_options,
    size_range,
)
from .output import backend as output_backend
from .output import (
    counted_so_far,
    described,
    echo,
    long_count_notice,
    no_solution,
    note_symmetries,
    output,
    output_format,
    prepare,
    progress,
    record,
    tell_resumed,
)


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


@app.command()
@problem_options
@backend_options("solve")
def solve(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    limit: Annotated[int | None, typer.Option("--limit", min=0, help="At most this many solutions.")] = None,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=f"One of {', '.join(FORMATS)}.")] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="One JSON record: the problem, plan, solutions (streamed), count, status and stats."
        ),
    ] = False,
    out: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    spec: ProblemSpec = PROBLEM,
    time_limit: TimeOpt = None,
    unique: Annotated[bool, typer.Option("--unique", help="One solution per symmetry class.")] = False,
    solver: dict[str, Any] = SOLVER_OPTIONS,
    verbose: VerboseOpt = False,
) -> None:
    """Print the solutions, streamed. On a time limit, those found are written, then exit 3."""
    if as_json and fmt not in (None, "json"):
        raise UserError(f"--json and --format {fmt} disagree")
    fmt = "json" if as_json else output_format(fmt, False, FORMATS, "boards")
    p = spec.problem(n)
    start = time.perf_counter()
    b, plan = prepare(p, backend, "solve", verbose, time_limit=time_limit, **solver)
    stats: dict[str, int] = {}
    if unique:
        from ..model.symmetry import canonical, problem_symmetries

        group = problem_symmetries(p)
        note_symmetries(group)
        sols: Iterator[Any] = (s for s in b.solutions(p, stats) if canonical(s, group, p.n) == s)
        if limit is not None:
            sols = api.limited(sols, limit)
    else:
        sols = checked_stream(p, b, _limited_batches(b.batches(p, stats), limit), limit)
    with output(out, [spec.model]) as (stream, keep):
        if not as_json:
            try:
                written = write_solutions(p, sols, fmt, stream)
            except Unknown as exc:
                keep[0] = True
                raise PartialResult(f"{exc} (the solutions found are written)") from None
            if not written and limit != 0:  # said as `first` says it: in words on a board, else on stderr
                on_board = fmt == "boards" and out is None
                if on_board:
                    stream.write(b"no solution\n")
                no_solution(p, on_board)
            return
        # one record, its solutions streamed between a head and a tail written at the end
        head = record(p, b, plan, None, start)
        del head["stats"], head["seconds"]
        stream.write((json.dumps(head)[:-1] + ', "solutions": ').encode())
        seen = [0]  # what the stream handed over, all of it written when a stop is raised

        def counted(items: Iterator[Any]) -> Iterator[Any]:
            for item in items:
                seen[0] += item.shape[0] if hasattr(item, "shape") else 1
                yield item

        stopped: Unknown | None = None
        try:
            write_solutions(p, counted(sols), "json", stream, end=b"")  # the record is one line
        except Unknown as exc:
            stopped = exc
        written = seen[0]
        status = Outcome(status=Status.UNKNOWN, count=written, reason=stopped.reason) if stopped else None
        tail = record(p, b, plan, status, start, stats)
        none = not written and not stopped and limit != 0
        # (a partial count is a lower bound)
        tail.update(count=written, status=tail.get("status") or ("no solution" if none else "solved"))
        if stopped is not None:
            tail["partial"] = True
        keys = ("count", "status", "reason", "partial", "stats", "seconds")
        stream.write((", " + json.dumps({k: tail[k] for k in keys if k in tail})[1:] + "\n").encode())
        if stopped is not None:
            keep[0] = True
            raise PartialResult(f"{stopped} (the solutions found are written)")
        if none:
            no_solution(p)


@app.command()
@problem_options
@backend_options("count")
def count(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    as_json: JsonOpt = False,
    fmt: Annotated[
        str | None, typer.Option("--format", "-f", help="text, json, or bfile (n a(n) lines, as OEIS's b-files).")
    ] = None,
    spec: ProblemSpec = PROBLEM,
    time_limit: TimeOpt = None,
    workers: WorkersOpt = None,
    unique: Annotated[bool, typer.Option("--unique", help="Count symmetry classes (fundamental solutions).")] = False,
    by_symmetry: Annotated[
        bool,
        typer.Option(
            "--by-symmetry",
            help="The classes split by their symmetry: fixed by the quarter turn, by the half turn only, by none.",
        ),
    ] = False,
    symmetric: Annotated[
        str | None,
        typer.Option(
            "--symmetric",
            metavar="SYMMETRY",
            help="Count only the solutions SYMMETRY (rot90, rot180, flip-cols, transpose...) maps onto themselves, "
            "by a search of those alone.",
        ),
    ] = None,
    profile: Annotated[
        bool,
        typer.Option(
            "--profile",
            help="The nodes at each depth of the search that places a piece a row (OEIS A319284's row; "
            "their sum A319283), or with --pieces K pieces anywhere (A348129's), from one node-counting search.",
        ),
    ] = False,
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
        float | None,
        typer.Option(
            "--dask-wait", min=0.1, help="With --dask: seconds to wait for the scheduler or for a worker (default 20)."
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="With --checkpoint: re-check and re-sum a finished checkpoint, run nothing.")
    ] = False,
    recount: Annotated[
        int,
        typer.Option(
            "--recount",
            min=0,
            metavar="K",
            help="With --checkpoint: --check, and count again K of its sub-problems chosen at random.",
        ),
    ] = 0,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No word on stderr that the count would take hours.")
    ] = False,
    solver: dict[str, Any] = SOLVER_OPTIONS,
    verbose: VerboseOpt = False,
) -> None:
    """Print the number of solutions; exit 3 when a limit is reached (with the count so far as a
    lower bound where the search keeps one)."""
    fmt = output_format(fmt, as_json, ("text", "json", "bfile"), "text")
    run = functools.partial(
        _count_one,
        backend=backend,
        fmt="json" if fmt == "json" else "text",
        time_limit=time_limit,
        workers=workers,
        unique=unique or by_symmetry,
        by_symmetry=by_symmetry,
        symmetric=symmetric,
        profile=profile,
        noted=[],  # (the groups said on stderr: a table says each once)
        dask=dask,
        checkpoint=checkpoint,
        depth=depth,
        dask_wait=dask_wait,
        check=check,
        recount=recount,
        quiet=quiet,
        solver=solver,
        verbose=verbose,
    )
    if by_symmetry and fmt == "bfile":
        raise UserError("-f bfile writes one sequence: --by-symmetry makes three (--json has them all)")
    varying = spec.varying()
    if varying is not None or (n is not None and ".." in n):  # a table: a count each, as OEIS prints terms
        keys = ["profile"] if profile else None if by_symmetry else ["count"]
        if varying is None:
            if spec.model is not None:
                raise UserError("a range of sizes goes without --model")
            # every board checked before the first count
            problems = [spec.problem(str(k)) for k in size_range(str(n), "N")]
            _table(problems, _each_term(run, checkpoint, "n"), fmt, keys or split_keys(problems[0]), "n")
            return
        if n is not None and ".." in n:
            raise UserError(f"a table varies one thing: a range of N, or of --{varying[0]}, not both")
        key, values = varying
        problems = [replace(spec, **{key: k}).problem(n) for k in values]
        top = problems[-1]
        plain = not (unique or by_symmetry or symmetric or profile)
        if key == "pieces" and plain and output_backend(backend, workers=workers, **solver).offers_profile(top):
            _table(problems, _from_profile(run, top), fmt, ["count"], key)
            return
        _table(problems, _each_term(run, checkpoint, key), fmt, keys or split_keys(problems[0]), key)
        return
    p = spec.problem(n)
    rec = run(p)
    if profile:
        rows = rec["profile"]
        said = {"json": json.dumps(rec), "bfile": "\n".join(f"{k} {v}" for k, v in enumerate(rows))}
        echo(said.get(fmt, ", ".join(map(str, rows))))
        return
    if rec["count"] == 0 and p.contradiction:
        no_solution(p, said_on_stdout=True)
    if by_symmetry and fmt == "text":
        classes = f"{rec['count']} class" + ("" if rec["count"] == 1 else "es")
        echo(", ".join(f"{SPLIT[key]} {rec[key]}" for key in split_keys(p)) + f" ({classes})")
        return
    echo(json.dumps(rec) if fmt == "json" else f"{p.n} {rec['count']}" if fmt == "bfile" else str(rec["count"]))


def _prepared(
    p: Problem, backend: str, task: str, verbose: bool, limit: float | None, workers: int | None, solver: Any, bar: Any
) -> tuple[Any, Any]:
    """The backend and its plan for a count (or its classes) that reports its progress to `bar`
    where the backend can, and `bar` told the plan's workers."""
    reports = backend_class(backend).capabilities.reports_progress
    b, plan = prepare(
        p, backend, task, verbose, time_limit=limit, workers=workers, **solver, progress=bar if reports else None
    )
    bar.workers = plan.workers
    return b, plan


#: The classes `--by-symmetry` splits a count into, by the record's key (`model.symmetry.TURNS`;
#: superqueens: OEIS A352661, A352662, A352663).
SPLIT = {
    "quarter_turn": "quarter turn",
    "half_turn_only": "half turn only",
    "reflection_only": "a reflection only",
    "asymmetric": "none",
}


def split_keys(p: Problem) -> list[str]:
    """The parts of the split a table or a line shows: where no reflection fixes a solution
    (`model.symmetry.reflections_fix_none`), that part, always 0, is left to the JSON record."""
    from ..model.symmetry import reflections_fix_none

    return [key for key in SPLIT if not (key == "reflection_only" and reflections_fix_none(p))]


def _split(b: Any, classes: Any) -> dict[str, int]:
    """The classes by the turns that fix their members, as the backend's class count gives them."""
    if not classes.turns:
        raise UserError(f"{b.name}: its class count of this board does not tell the classes' symmetries")
    return dict(classes.turns)


def _each_term(run: Any, checkpoint: Path | None, index: str) -> Any:
    """A table's count of one term: with --checkpoint FILE, its own journal beside FILE, named
    by the term (c.jsonl: c-n13.jsonl, c-pieces5.jsonl), so a stopped table resumes term by
    term with the same command."""
    if checkpoint is None:
        return run

    def counted(p: Problem) -> dict[str, Any]:
        term = getattr(p, index)
        return run(p, checkpoint=checkpoint.with_name(f"{checkpoint.stem}-{index}{term}{checkpoint.suffix}"))

    return counted


def _from_profile(run: Any, top: Problem) -> Any:
    """A table of --pieces A..B from one search, where the backend offers it: the profile of the
    search that places pieces anywhere, up to B of them (`Backend.profile`), whose entry k is
    the count of k pieces; where a count a term would search the placements of fewer pieces
    again for each. Each term's record is a count's, its plan the profile's. The profile is
    whole or unknown: a stop prints no term (with --checkpoint FILE, the one search's journal,
    which the same command resumes)."""
    made: dict[str, Any] = {}

    def counted(p: Problem) -> dict[str, Any]:
        if not made:
            made.update(run(top, profile=True))
        value = made["profile"][p.pieces]
        why = made["plan"]["reason"] + "; the table's terms from that one search"
        rec = {key: v for key, v in made.items() if key not in ("nodes", "profile")}  # (record's layout kept)
        status = (Status.SOLVED if value else Status.NO_SOLUTION).value
        term = {"status": status, "plan": made["plan"] | {"task": "count", "reason": why}, "count": value}
        return rec | {"format": "nqueens_cp.count/1"} | described(p) | term

    return counted


def _table(problems: list[Problem], run: Any, fmt: str, keys: list[str], index: str) -> None:
    """Each board's count, as it finishes: a JSON record a line (`json`), `k a(k)` lines (`bfile`,
    OEIS's b-files; k the problem's field `index`: n, rows or pieces), or, at the end, one line
    of terms separated by commas (OEIS's data line; one a sequence of `keys`, labelled, where a
    count is split).
    A count stopped by its limit ends the table there: the terms before it are printed (the
    data line labelled partial), then exit 3."""
    terms: list[dict[str, Any]] = []
    label = (lambda key: f"{SPLIT[key]}: ") if keys != ["count"] else (lambda key: "")
    entry = [0]  # (a triangle's b-file numbers its entries row after row)

    def lines(partial: str = "") -> None:
        if keys == ["profile"]:  # a triangle: a row a line
            for rec in terms:
                echo(", ".join(map(str, rec["profile"])))
            if partial:
                echo(partial.strip())
            return
        for key in keys:
            echo(label(key) + ", ".join(str(rec[key]) for rec in terms) + partial)

    try:
        for p in problems:
            rec = run(p)
            if fmt == "json":
                echo(json.dumps(rec))
            elif fmt == "bfile" and keys == ["profile"]:
                for value in rec["profile"]:
                    echo(f"{entry[0]} {value}")
                    entry[0] += 1
            elif fmt == "bfile":
                echo(f"{getattr(p, index)} {rec['count']}")
            terms.append(rec)
    except PartialResult:
        if fmt == "text" and terms:
            lines(f" (partial: the terms up to {index} = {getattr(problems[len(terms) - 1], index)})")
        raise
    if fmt == "text":
        lines()


def _count_one(
    p: Problem,
    *,
    backend: str,
    fmt: str,
    time_limit: float | None,
    workers: int | None,
    unique: bool,
    by_symmetry: bool,
    symmetric: str | None,
    profile: bool,
    noted: list[tuple[str, ...]],
    dask: str | None,
    checkpoint: Path | None,
    depth: int | None,
    dask_wait: float | None,
    check: bool,
    recount: int,
    quiet: bool,
    solver: dict[str, Any],
    verbose: bool,
) -> dict[str, Any]:
    """One board's count as its record (what `count` prints); a stop prints what was counted
    and raises, as a count's stop does."""
    start = time.perf_counter()
    partitioned = dask is not None or checkpoint is not None
    if depth is not None and not partitioned:
        raise UserError("--depth goes with --dask or --checkpoint")
    if (check or recount) and checkpoint is None:
        raise UserError(f"{'--check' if check else '--recount'} goes with --checkpoint FILE")
    check = check or bool(recount)
    if dask_wait is not None and dask is None:
        raise UserError("--dask-wait goes with --dask")
    if profile and (unique or symmetric is not None):
        raise UserError(
            "a profile counts nodes in one search (--profile, or a --pieces table): no --unique or --symmetric"
        )
    if check and time_limit is not None:
        raise UserError("--check runs nothing: it takes no --time-limit")
    if profile and depth is not None:  # (its items are the search's own: the first rows' nodes, or squares)
        raise UserError(
            "--depth does not apply: this count is one profile search (--profile, or a --pieces table), "
            "whose work items the search cuts itself"
        )
    if profile:
        from ..run.partition import RecountDisagrees

        b, plan = prepare(p, backend, "profile", verbose, time_limit=time_limit, workers=workers, **solver)
        saved = f", saved in {checkpoint}: the same command resumes" if checkpoint is not None else ""
        silent = quiet or check or time_limit is not None

        def unknown() -> str:  # (what a time limit's and a stop's line say alike)
            done = f"; {bar.done:,} of {bar.total:,} sub-problems counted" if partitioned and bar.total else ""
            return f"a profile is whole or unknown{done}{saved}"

        try:
            if partitioned:  # its work items on the pool or on Dask, into the checkpoint
                with stop_wins(), progress("sub-problems") as bar, long_count_notice(plan, bar, silent, checkpoint):
                    bar.counts = False  # (the items add up vectors written as integers)
                    nodes, plan = api.profile_partitioned(
                        p,
                        b,
                        workers=workers,
                        dask=dask,
                        dask_wait=dask_wait,
                        checkpoint=checkpoint,
                        check=check,
                        recount=recount,
                        progress=bar,
                        time_limit=time_limit,
                    )
                if recount:
                    sys.stderr.write(f"nqueens: {plan.reason}\n")
                if not check:
                    tell_resumed(bar, checkpoint)
            else:
                with stop_wins(), long_count_notice(plan, None, silent):
                    nodes = b.profile(p)
        except Unknown as exc:
            raise PartialResult(f"{b.name}: {exc.reason.value} reached; {unknown()}") from None
        except RecountDisagrees as exc:  # a wrong record: a wrong answer, not the user's to fix
            raise WrongAnswer("the checkpoint", str(exc)) from None
        except (KeyboardInterrupt, Terminated):
            tell(unknown())
            raise
        done = Outcome(status=Status.SOLVED if nodes[-1] else Status.NO_SOLUTION, count=nodes[-1])
        return record(p, b, plan, done, start) | {"count": nodes[-1], "nodes": sum(nodes), "profile": nodes}
    if symmetric is not None and (partitioned or unique):
        raise UserError("--symmetric counts the symmetric solutions in one search: no --unique, --dask or --checkpoint")
    if symmetric is not None:
        b, plan = prepare(p, backend, "symmetric", verbose, time_limit=time_limit, workers=workers, **solver)
        outcome = b.count_symmetric(p, symmetric)
        rec = record(p, b, plan, outcome, start) | {"count": outcome.count, "symmetric": symmetric}
        if outcome.status is Status.UNKNOWN:
            if fmt == "json":
                echo(json.dumps(rec | {"partial": True}))
            raise PartialResult(f"{b.name}: {outcome.reason.value} reached; the symmetric count is unknown")  # type: ignore[union-attr]
        return rec
    if partitioned:
        b, _ = prepare(p, backend, "count", verbose, **solver)  # refused, not dropped
        b.check_cuts()
        if unique:
            raise UserError("--unique counts classes in one run: it takes no --dask or --checkpoint")
        why = bad_time_limit(time_limit, "--time-limit")  # what the backends' own limit takes
        if why:
            raise UserError(why)
        with progress("sub-problems") as bar:
            from ..run.parallel import default_workers
            from ..run.partition import RecountDisagrees  # (here: a count not cut into items loads none of it)

            bar.workers = workers or default_workers()
            saved = f", saved in {checkpoint}: the same command resumes" if checkpoint is not None else ""
            silent = quiet or check or time_limit is not None
            planned = b.plan(p, "count")  # (the plan the count makes; the stop's records name it)
            try:
                with stop_wins(), long_count_notice(planned, bar, silent, checkpoint):
                    total, plan = api.count_partitioned(
                        p,
                        b,
                        depth=depth,
                        workers=workers,
                        dask=dask,
                        dask_wait=dask_wait,
                        checkpoint=checkpoint,
                        check=check,
                        recount=recount,
                        progress=bar,
                        time_limit=time_limit,
                        note=lambda said: sys.stderr.write(f"nqueens: {said}\n"),
                    )
            except Unknown as exc:  # the time limit: what was counted, and where it is kept
                partial = exc.__cause__ if exc.__cause__ is not None else exc
                stopped = Outcome(status=Status.UNKNOWN, reason=exc.reason, count=exc.partial)
                found = {"count": exc.partial, "partial": True}  # a lower bound, as every stopped count's
                rec = record(p, b, planned, stopped, start) | found
                echo(json.dumps(rec) if fmt == "json" else f"{exc.partial} (partial: at least)")
                raise PartialResult(f"{b.name}: time limit reached; {partial}{saved}") from None
            except RecountDisagrees as exc:  # a wrong record: a wrong answer, not the user's to fix
                raise WrongAnswer("the checkpoint", str(exc)) from None
            except (KeyboardInterrupt, Terminated):  # (said with the stop: what was counted, where it is kept)
                where = counted_so_far(bar, checkpoint) if checkpoint is not None else ""
                _stopped(p, b, planned, bar, start, fmt, where)
                raise
        if recount:
            sys.stderr.write(f"nqueens: {plan.reason}\n")
        if not check:
            tell_resumed(bar, checkpoint)
        outcome = Outcome(status=Status.SOLVED if total else Status.NO_SOLUTION, count=total)
        rec = record(p, b, plan, outcome, start) | {"count": total}
    elif unique:
        with progress("sub-problems") as bar:  # (where the classes come from a count that reports it)
            b, plan = _prepared(p, backend, "unique", verbose, time_limit, workers, solver, bar)
            try:
                classes = b.count_classes(p)
            except Unknown as exc:  # the classes are unknown; the record says so, as every count's does
                if fmt == "json":
                    stopped = Outcome(status=Status.UNKNOWN, reason=exc.reason)
                    found = {"count": None, "total": exc.partial, "partial": True}  # solutions: a lower bound
                    echo(json.dumps(record(p, b, plan, stopped, start) | found))
                raise
        rec = record(p, b, plan, None, start, classes.stats) | {
            "status": "solved",
            "count": classes.unique,
            "total": classes.total,
            "by_orbit": {str(k): v for k, v in sorted(classes.by_orbit.items())},
            **classes.symmetric,
            "symmetries": list(classes.group),
        }
        if by_symmetry:
            rec |= _split(b, classes)
        if fmt == "text" and classes.group not in noted:
            noted.append(classes.group)
            note_symmetries(classes.group)
    else:
        with progress("sub-problems") as bar:
            b, plan = _prepared(p, backend, "count", verbose, time_limit, workers, solver, bar)
            try:
                with stop_wins(), long_count_notice(plan, bar, quiet or time_limit is not None):
                    outcome = checked_claim(p, b, b.count(p))
            except (KeyboardInterrupt, Terminated):
                resumable = "--checkpoint FILE would let it resume" if b.capabilities.partition else ""
                _stopped(p, b, plan, bar, start, fmt, resumable)
                raise
        rec = record(p, b, plan, outcome, start) | {"count": outcome.count}
        if outcome.status is Status.UNKNOWN:
            rec["partial"] = True
            why = f"{b.name}: {outcome.reason.value} reached"  # type: ignore[union-attr]
            if outcome.count is None:  # a count spread over processes that were stopped
                if fmt == "json":
                    echo(json.dumps(rec))
                raise PartialResult(f"{why}; the count is unknown")
            echo(json.dumps(rec) if fmt == "json" else f"{outcome.count} (partial: at least)")
            raise PartialResult(f"{why}; {outcome.count} solution(s) counted so far")
    return rec


def coloured(p: Problem, rows: list[str]) -> None:
    """A drawn board on a terminal, each region's squares on its colour (the SVG's)."""
    from rich.console import Console
    from rich.text import Text

    from ..model.drawing import region_colours

    hue = region_colours(p)
    console = Console(highlight=False)
    for r, row in enumerate(rows):
        line = Text()
        for c, mark in enumerate(row.split(" ")):
            line.append(f" {mark} ", style=f"black on {hue[p.regions[r][c]]}")
        console.print(line)


def _stopped(p: Problem, b: Any, plan: Any, bar: Any, start: float, fmt: str, where: str) -> None:
    """A count stopped by Ctrl-C or SIGTERM says what a time limit's stop says: the solutions
    counted so far (a lower bound: those of the finished sub-problems) on stdout, as text or as
    the partial record, and on the stop's one line on stderr, with where the work is kept, or
    how it could have been (`where`)."""
    found = bar.found
    stopped = Outcome(status=Status.UNKNOWN, count=found, reason=Reason.INTERRUPTED)
    rec = record(p, b, plan, stopped, start) | {"count": found, "partial": True}
    with contextlib.suppress(OSError, UserError):  # (a reader that is gone, or none, hears nothing more)
        echo(json.dumps(rec) if fmt == "json" else f"{found} (partial: at least)", stopping=True)
    tell(f"{found:,} solution(s) counted so far (a lower bound)" + (f"; {where}" if where else ""))


@app.command()
@problem_options
@backend_options("first")
def first(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help="board, json or jsonl.")] = None,
    as_json: JsonOpt = False,
    spec: ProblemSpec = PROBLEM,
    time_limit: TimeOpt = None,
    workers: WorkersOpt = None,
    solver: dict[str, Any] = SOLVER_OPTIONS,
    verbose: VerboseOpt = False,
) -> None:
    """Find one solution and draw it, or say there is none (exit 3 when unknown)."""
    fmt = output_format(fmt, as_json, ("board", "json", "jsonl"), "board")
    p = spec.problem(n)
    if fmt == "board" and p.n > MAX_DRAWN_N:
        raise UserError(f"a {p.n}x{p.n} board is too large to draw (at most {MAX_DRAWN_N}); use --format jsonl")
    start = time.perf_counter()
    b, plan = prepare(
        p,
        backend,
        "first",
        verbose,
        time_limit=time_limit,
        workers=workers,
        **solver,
    )
    outcome = checked_claim(p, b, b.first(p))
    sol = outcome.solution
    if fmt == "json":
        echo(json.dumps(record(p, b, plan, outcome, start) | {"solution": None if sol is None else p.shown(sol)}))
    elif fmt == "jsonl" and outcome.status is not Status.UNKNOWN:
        echo("null" if sol is None else json.dumps(p.shown(sol)))
    elif outcome.status is Status.SOLVED:
        rows = draw(p, sol)
        if p.regions and sys.stdout is not None and sys.stdout.isatty():
            coloured(p, rows)
        else:
            echo("\n".join(rows))
    elif outcome.status is Status.NO_SOLUTION:
        echo("no solution")
    if outcome.status is Status.NO_SOLUTION:
        no_solution(p, fmt == "board")
    if outcome.status is Status.UNKNOWN:  # not "whether one exists": a plain board has one, --lexicographic or not
        raise PartialResult(f"{b.name}: {outcome.reason.value} reached before a solution was found")  # type: ignore[union-attr]
