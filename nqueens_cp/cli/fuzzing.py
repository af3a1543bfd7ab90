"""fuzz: random boards against a program (or our backends against each other), until one
disagrees with our engine; that board shrunk to a 1-minimal one, drawn, and written to a file
that `verify --model FILE --against CMD` reproduces."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..backends import backend_class, oracle_backend, split_name
from ..backends.base import bad_time_limit
from ..model.drawing import draw
from ..model.problem import Problem, plural
from .app import EXIT_DISAGREE, UserError, app
from .options import OneBasedOpt, backend_names, backends_option
from .output import backend, echo
from .output import output as write_to

#: The campaign's budget when --time-limit is not given, and each instance's.
BUDGET_SECONDS = 60.0
INSTANCE_SECONDS = 10.0


@app.command()
def fuzz(
    against: Annotated[
        str | None,
        typer.Option(
            "--against", metavar="CMD", help='Your program, as verify runs it: "python my.py {n}" ({rows}, {model}).'
        ),
    ] = None,
    backends: backends_option("Our backends against each other instead (any sub-solver).") = None,
    task: Annotated[
        str,
        typer.Option(
            "--task",
            help="solve (every solution), count (one number), first (one, or nothing) or unique (classes, one number).",
        ),
    ] = "solve",
    max_n: Annotated[int, typer.Option("--max-n", min=1, max=64, help="The largest board drawn (columns).")] = 12,
    seed: Annotated[int, typer.Option("--seed", help="The draw's seed: the same seed draws the same boards.")] = 0,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit", help=f"Seconds for the whole campaign, shrinking included (default {BUDGET_SECONDS:g})."
        ),
    ] = None,
    instance_limit: Annotated[
        float, typer.Option("--instance-limit", help="Seconds for each run of the program (past it: a hang).")
    ] = INSTANCE_SECONDS,
    instances: Annotated[int | None, typer.Option("--instances", min=1, help="Stop after this many boards.")] = None,
    piece: Annotated[
        list[str] | None, typer.Option("--piece", help="Draw this piece too (repeatable; default: queen only).")
    ] = None,
    torus: Annotated[bool, typer.Option("--torus", help="Draw wrapped boards too.")] = False,
    rows: Annotated[bool, typer.Option("--rows", help="Draw rectangles too (fewer rows than columns).")] = False,
    regions: Annotated[bool, typer.Option("--regions", help="Draw region maps too (one piece in each).")] = False,
    walls: Annotated[bool, typer.Option("--walls", help="Draw walls that stop lines too (one piece a row).")] = False,
    pawns: Annotated[
        bool, typer.Option("--pawns", help="Draw pieces anywhere too, with walls and pawns the search places.")
    ] = False,
    no_blocked: Annotated[bool, typer.Option("--no-blocked", help="Draw no blocked squares.")] = False,
    no_fixed: Annotated[bool, typer.Option("--no-fixed", help="Draw no pre-placed pieces.")] = False,
    one_based: OneBasedOpt = False,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the counterexample as a board file (.txt).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON record: status, instances, seed, counterexample.")
    ] = False,
) -> None:
    """Find the smallest board on which a program (or a backend) is wrong: exit 1 with it, 0 when
    none was found within the budget."""
    from ..check import fuzz as fz

    if (against is None) == (backends is None):
        raise UserError("fuzz takes --against CMD or --backends A,B (one of them)")
    if task not in (*fz.TASKS, *fz.OPTIMA):
        raise UserError(f"--task must be one of {', '.join((*fz.TASKS, *fz.OPTIMA))}, got {task!r}")
    if task in fz.OPTIMA and against is not None:
        raise UserError(f"--task {task} judges our backends' optima (--backends), not a program's answers")
    budget = BUDGET_SECONDS if time_limit is None else time_limit
    for flag, value in (("--time-limit", budget), ("--instance-limit", instance_limit)):
        why = bad_time_limit(value, flag)  # what every other command's limit takes
        if why:
            raise UserError(why)
    if one_based and against is None:
        raise UserError("--one-based goes with --against")
    if output is not None and output.suffix.lower() != ".txt":
        raise UserError(f"-o writes a board file (.txt), not {output.suffix or 'no extension'!r}")
    pieces = tuple(dict.fromkeys(["queen", *(Problem(4, p).piece for p in piece or [])]))
    # pieces pre-placed on blocked squares reach our backends alone (a board file cannot hold one)
    overlap = against is None and output is None
    families = fz.Families(not no_blocked, not no_fixed, pieces, torus, rows, max_n, regions, overlap, walls, pawns)
    oracle = oracle_backend(time_limit=instance_limit)
    subject = _subjects(against, backends, task, oracle, instance_limit, one_based)
    live = _Live(sys.stderr.isatty() and not as_json)
    try:
        campaign = fz.fuzz(subject, families, seed, budget, instances, live.say)
    finally:
        live.done()
        subject.close()
    if campaign.found is None:
        _none_found(campaign, seed, as_json)
        return
    _counterexample(subject, campaign, seed, task, against, output, as_json)
    found = campaign.found
    p = found.problem
    name = found.finding.subject or subject.name
    sys.stderr.write(f"nqueens: {name}: {found.finding.kind} on a {p.rows}x{p.n} board (seed {seed})\n")
    raise typer.Exit(EXIT_DISAGREE)


def _subjects(against, backends, task, oracle, limit, one_based):
    from ..check import fuzz as fz

    if against is not None:
        return fz.ProgramSubject(against, task, oracle, limit, one_based)
    names = [name for name in backend_names(backends) or [] if split_name(name)[0] != oracle.name]
    if not names:
        raise UserError(f"--backends names only {oracle.name}, the oracle: name others to fuzz against it")
    subjects = []
    for name in names:  # each bounded by the instance limit where it takes one (python-constraint cannot)
        bounded = "time_limit" in backend_class(name).capabilities.names
        subjects.append(fz.BackendSubject(backend(name, **({"time_limit": limit} if bounded else {})), task, oracle))
    return fz.Several(subjects)


class _Live:
    """A live line on a terminal: instances tried, and the current shrink."""

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.shown = enabled, False

    def say(self, text: str) -> None:
        if self.enabled:
            sys.stderr.write(f"\r\x1b[Kfuzz: {text}")
            sys.stderr.flush()
            self.shown = True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def _families_said(campaign) -> str:
    return ", ".join(f"{k:,} {name}" for name, k in sorted(campaign.by_family.items()))


def _none_found(campaign, seed: int, as_json: bool) -> None:
    if as_json:
        echo(json.dumps(campaign.record(seed)))
        return
    echo(
        f"no disagreement in {campaign.tried:,} instances ({_families_said(campaign)}), seed {seed}, "
        f"{campaign.seconds:.1f} s"
    )


def _counterexample(subject, campaign, seed: int, task: str, against, output, as_json: bool) -> None:
    from ..io.formats import write_board

    shrunk = campaign.found
    p = shrunk.problem
    name = shrunk.finding.subject or subject.name
    if output is not None:
        with write_to(output) as (f, _):
            f.write(write_board(p).encode())
    if as_json:
        echo(json.dumps(campaign.record(seed, name)))
        return
    shape = f"{p.rows}x{p.n}"
    how = "1-minimal" if shrunk.minimal else "partly shrunk (the budget ran out)"
    echo(
        f"{name}: {shrunk.finding.kind} on a {shape} board ({how}, {plural(shrunk.steps, 'step')} from instance "
        f"{campaign.tried:,}, seed {seed})"
    )
    extras = [f"piece {p.piece}"] * (p.piece != "queen") + ["torus"] * p.torus
    extras += [f"{p.pieces} pieces anywhere"] * bool(p.pieces) + [f"{p.pawns} pawns"] * bool(p.pawns)
    if extras:
        echo(f"  {', '.join(extras)}")
    echo("\n".join(f"  {row}" for row in draw(p)))
    echo("\n".join(f"  {line}" for line in shrunk.finding.lines))
    if output is not None and against is not None:
        again = f"nqueens verify --model {shlex.quote(str(output))} --against {shlex.quote(against)}"
        echo(f"wrote {output}; again: {again}" + (f" --task {task}" if task != "solve" else ""))
    elif output is not None:
        echo(f"wrote {output}")
