"""max and dominate: the most pieces no two of which attack, the fewest that cover the board."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import api
from ..backends import DEFAULT_BACKEND, Optimality, Outcome, Status
from ..backends.base import Task
from ..model.drawing import draw
from ..model.problem import plural
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
)
from .output import counted_so_far, echo, no_solution, prepare, progress, record, tell_resumed

CountOpt = Annotated[bool, typer.Option("--count", help="Count the optimal placements too (a second search).")]
CheckpointOpt = Annotated[
    Path | None,
    typer.Option(
        "--checkpoint", help="With --count: record the finished sub-problems of the count here; resume from it."
    ),
]
DaskOpt = Annotated[
    str | None, typer.Option("--dask", metavar="ADDRESS", help="With --count: count on a Dask scheduler, or 'local'.")
]
UniqueOpt = Annotated[
    bool, typer.Option("--unique", help="Count the optimal placements by symmetry class too (with --count's count).")
]


@app.command("max")
@problem_options
@backend_options("max")
def max_(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    count: CountOpt = False,
    unique: UniqueOpt = False,
    checkpoint: CheckpointOpt = None,
    dask: DaskOpt = None,
    as_json: JsonOpt = False,
    spec: ProblemSpec = PROBLEM,
    time_limit: TimeOpt = None,
    workers: WorkersOpt = None,
    solver: dict[str, Any] = SOLVER_OPTIONS,
    verbose: VerboseOpt = False,
) -> None:
    """The most pieces, placed anywhere, no two attacking (walls, holes and pre-placed pieces
    too): the value, "optimal" or the best found and its bound (exit 3), a board."""
    cut = (checkpoint, dask)
    _optimum(Task.MAX, n, backend, count, unique, False, cut, as_json, spec, time_limit, workers, solver, verbose)


@app.command()
@problem_options
@backend_options("dominate")
def dominate(
    n: NArg = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    independent: Annotated[
        bool, typer.Option("--independent", help="No two of the pieces attack each other (independent domination).")
    ] = False,
    count: CountOpt = False,
    unique: UniqueOpt = False,
    checkpoint: CheckpointOpt = None,
    dask: DaskOpt = None,
    as_json: JsonOpt = False,
    spec: ProblemSpec = PROBLEM,
    time_limit: TimeOpt = None,
    workers: WorkersOpt = None,
    solver: dict[str, Any] = SOLVER_OPTIONS,
    verbose: VerboseOpt = False,
) -> None:
    """The fewest pieces that occupy or attack every free square (blocked squares and walls need
    no cover; lines pass blocked squares and stop at walls): the value, "optimal" or the best
    found and its bound (exit 3), a board."""
    cut = (checkpoint, dask)
    said = (as_json, spec, time_limit, workers, solver, verbose)
    _optimum(Task.DOMINATE, n, backend, count, unique, independent, cut, *said)


def _optimum(
    task: Task,
    n: str | None,
    backend: str,
    count: bool,
    unique: bool,
    independent: bool,
    cut: tuple[Path | None, str | None],
    as_json: bool,
    spec: ProblemSpec,
    time_limit: float | None,
    workers: int | None,
    solver: dict[str, Any],
    verbose: bool,
) -> None:
    p = spec.problem(n)
    start = time.perf_counter()
    kept = ""
    b, plan = prepare(p, backend, task, verbose, time_limit=time_limit, workers=workers, **solver)
    checkpoint, dask = cut
    if checkpoint is not None or dask is not None:  # the count of the optimal placements, cut into items
        if not count or unique:
            raise UserError(
                "--checkpoint and --dask cut the count of the optimal placements: give --count, not --unique"
            )
        with progress("sub-problems") as bar:
            try:
                with stop_wins():
                    outcome, plan = api.count_optimal(
                        p,
                        task,
                        b,
                        independent=independent,
                        workers=workers,
                        dask=dask,
                        checkpoint=checkpoint,
                        progress=bar,
                        time_limit=time_limit,
                    )
            except (KeyboardInterrupt, Terminated):  # stopped in the count: say what is kept, as count does
                if bar.total:
                    tell(counted_so_far(bar, checkpoint))
                raise
        if outcome.status is Status.UNKNOWN and outcome.optimality is Optimality.OPTIMAL:
            kept = f"; {counted_so_far(bar, checkpoint)}"  # (the optimum proved, its placements partly counted)
        else:
            tell_resumed(bar, checkpoint)
    else:
        outcome = b.optimum(p, task, independent=independent, count=count, unique=unique)
    # the value's pieces placed anywhere; a value of 0 (no square free) places none, drawn on p itself
    placed = replace(p, pieces=outcome.value) if outcome.value else p
    if as_json:
        rec = record(p, b, plan, outcome, start) | ({"independent": independent} if task == Task.DOMINATE else {})
        if outcome.status is Status.UNKNOWN and outcome.count is not None:  # stopped in the count
            rec["partial"] = True
        rec["count"] = outcome.count
        if unique:
            rec["classes"] = outcome.classes
        if outcome.solution is None:
            rec["solution"] = None
        else:  # (p, one piece a row, would write its empty placement as [])
            rec["solution"] = placed.shown(outcome.solution) if outcome.value else {"pieces": []}
        echo(json.dumps(rec))
    elif outcome.status is Status.NO_SOLUTION:
        echo("no solution")
    else:
        echo(_said(task, outcome))
        if outcome.solution is not None:
            echo("\n".join(draw(placed, outcome.solution)))
    if outcome.status is Status.NO_SOLUTION:
        no_solution(p, not as_json)
    if outcome.status is Status.UNKNOWN:
        assert outcome.reason is not None
        raise PartialResult(f"{b.name}: {outcome.reason.value} reached: {_said(task, outcome)}{kept}")


def _said(task: Task, outcome: Outcome) -> str:
    """`8 (optimal), 92 maximum placements`, or `best found 9, bound 10`."""
    what = "maximum placement" if task == Task.MAX else "minimum set"
    if outcome.optimality is Optimality.OPTIMAL and outcome.status is Status.UNKNOWN:  # stopped in the count
        counted = f"its {what}s not counted" if outcome.count is None else f"at least {plural(outcome.count, what)}"
        return f"{outcome.value} (optimal), {counted} (the count did not finish)"
    if outcome.status is Status.UNKNOWN:
        best = "nothing found" if outcome.value is None else f"best found {outcome.value}"
        side = "the most is at most" if task == Task.MAX else "the fewest is at least"
        return f"{best}, bound {outcome.bound} ({side} {outcome.bound})"
    counted = "" if outcome.count is None else f", {plural(outcome.count, what)}"
    if outcome.classes is not None:
        counted += f" in {plural(outcome.classes, 'symmetry class')}"
    return f"{outcome.value} (optimal){counted}"
