"""verify and check: whether answers are right, ours (backend against backend) or another
program's (its output, or the program itself run with --against)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import api
from ..backends import BACKENDS, DEFAULT_BACKEND, options_for
from ..model.problem import Problem, plural
from .app import EXIT_DISAGREE, EXIT_UNKNOWN, PartialResult, UserError, app
from .options import (
    PROBLEM,
    SOLVER_OPTIONS,
    OneBasedOpt,
    ProblemSpec,
    VerboseOpt,
    backend_names,
    backend_options,
    backends_option,
    problem_options,
    refuse_untaken,
    size_range,
)
from .output import backend, described, echo, progress

#: A solution that refutes a "no solution" claim is printed up to this size.
SHOWN_N = 1000

#: How long --against lets the program run when --time-limit is not given.
AGAINST_SECONDS = 60.0


@app.command()
@problem_options
@backend_options("solve", "count")
def verify(
    n: Annotated[
        str | None, typer.Argument(metavar="N", help="Board size, or sizes A..B (may be omitted with --model).")
    ] = None,
    backends: backends_option("Comma-separated backends (default: all that model it).") = None,
    depth: Annotated[
        int | None, typer.Option("--depth", min=1, help="Compare per-prefix counts over the first DEPTH rows.")
    ] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="With --depth: this many random prefixes.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the prefix sample.")] = 0,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="CMD",
            help='Your program, e.g. "python my.py {n}" ({rows}: the rows, {model}: the file).',
        ),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds for each run: every backend's enumeration (each prefix count with --depth) and, "
            f"with --against, your program (default there: {AGAINST_SECONDS:g}). Reaching it: exit 3.",
        ),
    ] = None,
    one_based: Annotated[
        bool, typer.Option("--one-based", help="With --against: the program prints columns counted from 1.")
    ] = False,
    task: Annotated[
        str,
        typer.Option(
            "--task", help="With --against: what the program prints: solve (every solution), count, or first."
        ),
    ] = "solve",
    spec: ProblemSpec = PROBLEM,
    solver: dict[str, Any] = SOLVER_OPTIONS,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON record per size: every run, its count, time and faults.")
    ] = False,
    verbose: VerboseOpt = False,
) -> None:
    """Cross-validate backends, or your program (--against): exit 0 agree, 1 disagree, 3 unknown or nothing compared."""
    say = Say(as_json, verbose)
    names = backend_names(backends)
    if time_limit is not None and not 0 < time_limit < float("inf"):
        raise UserError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    if one_based and against is None:
        raise UserError("--one-based goes with --against")
    from ..check.fuzz import TASKS

    if task not in (*TASKS, *OPTIMA):
        raise UserError(f"--task must be one of {', '.join((*TASKS, *OPTIMA))}, got {task!r}")
    if task in OPTIMA and (against is not None or depth is not None):
        raise UserError(f"--task {task} compares the backends' optima: it takes no --against and no --depth")
    if task not in ("solve", *OPTIMA) and against is None:
        raise UserError("--task goes with --against (or is max or dominate, which the backends answer)")
    if sample is not None and depth is None:
        raise UserError("--sample goes with --depth")
    if against is not None and depth is not None:
        raise UserError("--against compares whole solution sets: leave out --depth")
    sizes: list[str | None] = [n]
    if n is not None and ".." in n:
        if spec.model is not None:
            raise UserError("a range of sizes goes without --model")
        sizes = [str(k) for k in size_range(n)]
    problems = [spec.problem(k) for k in sizes]  # every size checked before any run
    ends: list[tuple[int, str | None]] = []
    for p in problems:
        if len(problems) > 1 and not as_json:
            echo(f"n = {p.n}:")
        if against is not None:
            ends.append(_verify_program(against, p, spec.model, names, time_limit, one_based, solver, say, task))
        elif task in OPTIMA:
            ends.append(_verify_optimum(p, task, names, time_limit, solver, say))
        else:
            ends.append(_verify_backends(p, names, depth, sample, seed, time_limit, solver, say))
    worst = max((code for code, _ in ends), key=_severity)
    said = next((why for code, why in ends if code == worst and why), None)  # one line on stderr
    if len(problems) > 1:  # the verdict over the range, naming the sizes that did not agree
        by = {
            label: [p.n for p, (code, _) in zip(problems, ends, strict=True) if code == c]
            for label, c in (("disagree", EXIT_DISAGREE), ("unknown", EXIT_UNKNOWN))
        }
        parts = [f"{label} at n = {', '.join(map(str, ns))}" for label, ns in by.items() if ns]
        verdict = "; ".join(parts) if parts else f"every size agrees (n = {problems[0].n}..{problems[-1].n})"
        if not as_json:
            echo(f"overall: {verdict}")
        if said and parts:
            said = f"{said} ({verdict})"
    if worst == EXIT_UNKNOWN:
        raise PartialResult(said or "nothing was compared")
    if worst:
        if said:
            sys.stderr.write(f"nqueens: {said}\n")
        raise typer.Exit(worst)


def _severity(code: int) -> int:
    """A disagreement outranks an unknown, which outranks agreement."""
    return {0: 0, EXIT_UNKNOWN: 1, EXIT_DISAGREE: 2}[code]


class Say:
    """How verify reports: lines for a person, or one JSON record per size; plans on stderr."""

    def __init__(self, as_json: bool, verbose: bool) -> None:
        self.as_json, self.verbose = as_json, verbose

    def plans(self, p: Problem, names: list[str]) -> None:
        if self.verbose:
            for name in names:
                plan = backend(name).plan(p, "solve")
                sys.stderr.write(f"plan: {name} {plan.algorithm}: {plan.reason}\n")

    def lines(self, lines: list[str]) -> None:
        if not self.as_json:
            echo("\n".join(lines))

    def record(self, p: Problem, status: str, **fields: object) -> None:
        if self.as_json:
            head = {"format": "nqueens_cp.verify/1"} | described(p, squares=True)
            echo(json.dumps(head | {"status": status} | fields))


#: The optimisations verify compares across the backends that answer them.
OPTIMA = ("max", "dominate")


def _verify_optimum(
    p: Problem, task: str, names: list[str] | None, time_limit: float | None, solver: dict[str, Any], say: Say
) -> tuple[int, str | None]:
    """(exit code, what stderr says) of comparing the optimum, and the number of optimal
    placements, of every backend that answers `task` (each answer checked by the rules as it
    is returned): two proved optima that differ, or two counts, disagree."""
    import time

    from ..backends import backend_class, get_backend
    from ..model.problem import NQueensError

    answering = [k for k in BACKENDS if task in backend_class(k).capabilities.tasks and not backend_class(k).missing()]
    names = names or answering
    refuse_untaken(solver, names)
    found: list[tuple[str, Any, float, str | None]] = []
    for name in names:
        start = time.perf_counter()
        try:
            b = get_backend(name, **({"time_limit": time_limit} if time_limit else {}), **options_for(name, solver))
            outcome, error = b.optimum(p, task, count=True), None
        except NQueensError as exc:
            outcome, error = None, str(exc)
        found.append((name, outcome, time.perf_counter() - start, error))
    lines = []
    for name, o, seconds, error in found:
        if o is None:
            lines.append(f"{name} failed: {error}")
        elif o.value is None:
            lines.append(f"{name}: {o.status.value} in {seconds:.3f}s")
        else:
            proved = "optimal" if o.value == o.bound else f"best found, bound {o.bound}"
            counted = "" if o.count is None else f", {plural(o.count, 'optimal placement')}"
            lines.append(f"{name}: {o.value} ({proved}){counted} in {seconds:.3f}s")
    proved = [(o.value, o.count) for _, o, _, _ in found if o is not None and o.value == o.bound]
    wrong = any(o is None for _, o, _, _ in found)
    values, counts = {v for v, _ in proved}, {c for _, c in proved if c is not None}
    if wrong or len(values) > 1 or len(counts) > 1:
        lines.append("DISAGREE")
        code, why = EXIT_DISAGREE, f"the backends' {task} answers disagree"
    elif len(proved) < 2:
        lines.append("unknown: fewer than two backends proved the optimum")
        code, why = EXIT_UNKNOWN, f"fewer than two backends proved the {task}"
    else:
        lines.append("agree")
        code, why = 0, None
    if say.as_json:
        record = {"format": "nqueens_cp.optima/1"} | described(p) | {"task": task}
        record["status"] = {0: "agree", EXIT_DISAGREE: "disagree"}.get(code, "unknown")
        record["runs"] = [
            {
                "backend": k,
                "value": None if o is None else o.value,
                "bound": None if o is None else o.bound,
                "count": None if o is None else o.count,
                "error": e,
            }
            for k, o, _, e in found
        ]
        echo(json.dumps(record))
    else:
        say.lines(lines)
    return code, why


def _verify_backends(
    p: Problem,
    names: list[str] | None,
    depth: int | None,
    sample: int | None,
    seed: int,
    time_limit: float | None,
    solver: dict[str, Any],
    say: Say,
) -> tuple[int, str | None]:
    """(exit code, what stderr says) of comparing backends on `p`, each with its own of the
    solver options given."""
    from ..check import verify as v

    refuse_untaken(solver, names or BACKENDS)
    options = {name: options_for(name, solver) for name in names or BACKENDS}
    if depth is None:
        verdict = v.verify(p, names, options, time_limit=time_limit)
    else:
        with progress("prefixes") as bar:
            verdict = v.verify_partition(
                p, names, depth=depth, sample=sample, seed=seed, options=options, progress=bar, time_limit=time_limit
            )
        say.lines([f"{verdict.prefixes} prefixes of depth {depth}"])
    say.plans(p, [r.backend for r in verdict.runs])
    say.lines(verdict.describe())
    runs = [
        {
            "backend": r.backend,
            "plan": r.plan,
            "version": r.version,
            "count": r.count,
            "seconds": round(r.seconds, 6),
            "unknown": r.unknown,
            "error": r.error,
            "invalid": [[p.shown(sol), why] for sol, why in r.invalid[:5]],
            "duplicates": len(r.duplicates),
            "missed": len(r.missed),
        }
        for r in verdict.runs
    ]
    left_out = [{"backend": name, "why": why} for name, why in verdict.left_out]
    prefixes = verdict.prefixes if verdict.partitioned else None
    say.record(p, verdict.status, runs=runs, left_out=left_out, prefixes=prefixes)
    if verdict.compared and verdict.disagree:
        counts = ", ".join(f"{r.backend} {'?' if r.count is None else f'{r.count:,}'}" for r in verdict.runs)
        return EXIT_DISAGREE, f"the backends disagree ({counts})"
    if verdict.agree:
        return 0, None
    return EXIT_UNKNOWN, "a limit was reached before every backend finished" if verdict.compared else None


def _verify_program(
    template: str,
    p: Problem,
    model: Path | None,
    names: list[str] | None,
    time_limit: float | None,
    one_based: bool,
    solver: dict[str, Any],
    say: Say,
    task: str = "solve",
) -> tuple[int, str | None]:
    """(exit code, what stderr says) of comparing the program's answers with a backend's on `p`:
    every solution as a set, or (`task`) its count, or its one solution."""
    from ..backends import Unknown
    from ..check.external import ProgramFailed, ProgramTimeout, verify_program

    seconds = AGAINST_SECONDS if time_limit is None else time_limit
    name = names[0] if names else DEFAULT_BACKEND
    refuse_untaken(solver, [name])
    reference = backend(name, time_limit=time_limit, **options_for(name, solver))
    reference.plan(p, "solve")
    say.plans(p, [reference.name])
    try:
        if task != "solve":
            return _verify_answer(template, p, model, reference, seconds, one_based, say, task)
        comparison = verify_program(template, p, model, reference, seconds, one_based)
    except (ProgramTimeout, Unknown) as exc:
        say.record(p, "unknown", reason=str(exc))
        return EXIT_UNKNOWN, str(exc)
    except ProgramFailed as exc:
        say.lines([f"DISAGREE: the program failed: {exc}"])
        say.record(p, "disagree", failed=str(exc))
        return EXIT_DISAGREE, f"the program failed: {exc}"
    say.lines(comparison.describe())
    j = comparison.judgement
    say.record(
        p,
        "agree" if comparison.agree else "disagree",
        reference=comparison.reference,
        expected=comparison.expected,
        read=j.read,
        invalid=j.invalid_count,
        duplicates=j.duplicate_count,
        missing=comparison.missing_count,
        extra=len(comparison.extra),
        claims_no_solution=bool(j.no_solution_claims),
        seconds=round(comparison.seconds, 6),
    )
    return (0, None) if comparison.agree else (EXIT_DISAGREE, comparison.summary())


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
    if solutions is None and sys.stdin is None:
        raise UserError("standard input is closed: nothing to read the solutions from")
    try:
        stream = solutions.open(errors="replace") if solutions is not None else sys.stdin
    except OSError as exc:
        raise UserError(f"cannot read {solutions}: {exc.strerror}") from None
    with stream:
        j = judge(read_answers(stream, p, one_based), p)
    if not j.read and not j.no_solution_claims:
        raise UserError(f"{source}: no solution and no claim of none in it: nothing to check")
    lines = [f"{plural(j.read, 'solution')} read: {j.distinct} valid and distinct"]
    lines += [f"invalid, {a.where}: {p.said(a.solution or ())}: {why}" for a, why in j.invalid]
    if j.invalid_count > len(j.invalid):
        lines.append(f"... and {j.invalid_count - len(j.invalid)} more invalid")
    lines += [f"repeated, {a.where}: {p.said(a.solution or ())}" for a in j.duplicates]
    if j.duplicate_count > len(j.duplicates):
        lines.append(f"... and {j.duplicate_count - len(j.duplicates)} more repeated")
    wrong = bool(j.invalid or j.duplicates)
    hint, note = j.hint(), j.aux_note()
    if hint:
        lines.append(f"hint: {hint}")
    if note:
        lines.append(f"note: {note}")
    if j.no_solution_claims:
        found = api.first(p)
        if found is not None:
            wrong = True
            shown = f"one exists (`nqueens first {p.n} -f jsonl` prints it)"
            if p.n <= SHOWN_N:
                shown = f"{list(found)} is one"
            lines.append(f"line {j.no_solution_claims[0]} claims no solution, but {shown}")
        else:
            lines.append(f"line {j.no_solution_claims[0]} claims no solution: right, there is none")
    echo("\n".join(lines))
    if wrong:
        parts = [f"{j.invalid_count:,} invalid"] * bool(j.invalid_count)
        parts += [f"{j.duplicate_count:,} repeated"] * bool(j.duplicate_count)
        parts += ["a wrong claim of no solution"] * (len(parts) == 0)
        sys.stderr.write(f"nqueens: {source}: {', '.join(parts)}\n")
        raise typer.Exit(EXIT_DISAGREE)


def _verify_answer(
    template: str, p: Problem, model: Path | None, reference: Any, seconds: float, one_based: bool, say: Say, task: str
) -> tuple[int, str | None]:
    """The program's count, or its one solution, judged as `fuzz --task` judges it."""
    from ..check.external import command, program_output
    from ..check.fuzz import WRONG_KIND, judge_output

    with program_output(command(template, p, model), seconds) as out:
        finding = judge_output(out, p, reference, task, one_based)
    if finding is not None and finding.kind == WRONG_KIND:  # the user's to fix, as docs/verifying.md says
        raise UserError(f"--task {task}: the program {finding.lines[0]}")
    if finding is None:
        say.lines([f"agree: the program's {'count' if task == 'count' else 'answer'} is right ({reference.name})"])
        say.record(p, "agree", task=task)
        return 0, None
    say.lines([f"DISAGREE: {finding.kind}", *(f"  {line}" for line in finding.lines)])
    say.record(p, "disagree", task=task, verdict=finding.kind, detail=finding.lines)
    return EXIT_DISAGREE, f"the program's {task} answer: {finding.kind}: {finding.lines[0] if finding.lines else ''}"
