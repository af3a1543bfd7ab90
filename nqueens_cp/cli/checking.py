"""verify and check: whether answers are right, ours (backend against backend) or another
program's (its output, or the program itself run with --against)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .. import api
from ..backends import DEFAULT_BACKEND
from ..model.problem import Problem
from .app import EXIT_DISAGREE, PartialResult, UserError, app
from .options import PROBLEM, NArg, OneBasedOpt, ProblemSpec, backend_names, problem_options
from .output import backend, echo, progress


@app.command()
@problem_options
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
    spec: ProblemSpec = PROBLEM,
) -> None:
    """Cross-validate backends, or your program (--against): exit 0 agree, 1 disagree, 3 nothing compared."""
    from ..check import verify as v

    names = backend_names(backends)
    p = spec.problem(n)
    if against is not None:
        _verify_program(against, p, spec.model, names, time_limit, one_based, depth)
        return
    if one_based:
        raise UserError("--one-based goes with --against")
    if depth is None:
        if sample is not None:
            raise UserError("--sample goes with --depth")
        verdict = v.verify(p, names)
    else:
        with progress("prefixes") as bar:
            verdict = v.verify_partition(p, names, depth=depth, sample=sample, seed=seed, progress=bar)
        echo(f"{verdict.prefixes} prefixes of depth {depth}")
    echo("\n".join(verdict.describe()))
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
    from ..check.external import ProgramFailed, ProgramTimeout, verify_program

    if depth is not None:
        raise UserError("--against compares whole solution sets: leave out --depth")
    if not 0 < time_limit < float("inf"):
        raise UserError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    reference = backend(names[0] if names else DEFAULT_BACKEND)
    reference.plan(p, "solve")
    try:
        comparison = verify_program(template, p, model, reference, time_limit, one_based)
    except ProgramTimeout as exc:
        raise PartialResult(str(exc)) from None
    except ProgramFailed as exc:
        echo(f"DISAGREE: the program failed: {exc}")
        sys.stderr.write(f"nqueens: the program failed: {exc}\n")
        raise typer.Exit(EXIT_DISAGREE) from None
    echo("\n".join(comparison.describe()))
    if not comparison.agree:
        raise typer.Exit(EXIT_DISAGREE)


@app.command()
@problem_options
def check(
    args: Annotated[
        list[str], typer.Argument(metavar="[N] SOLUTIONS", help="Board size (or --model), then the file ('-': stdin).")
    ],
    one_based: OneBasedOpt = False,
    spec: ProblemSpec = PROBLEM,
) -> None:
    """Check solutions written by another program (SAT v-lines, columns, JSON, boards): exit 1 if any is wrong."""
    from ..check.answers import judge, read_answers

    if len(args) > 2:
        raise UserError("check takes N (or --model FILE) and one file of solutions")
    n, source = (None, args[0]) if len(args) == 1 else args
    p = spec.problem(n)
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
    echo("\n".join(lines))
    if wrong:
        raise typer.Exit(EXIT_DISAGREE)
