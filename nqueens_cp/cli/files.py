"""export and show: the puzzle written for another solver, or drawn."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Annotated

import typer

from ..io.formats import write_board
from ..io.render import MAX_DRAWN_N
from ..model.drawing import draw
from . import completion
from .app import UserError, app
from .options import PROBLEM, NArg, ProblemSpec, problem_options
from .output import echo, output

#: Every format `export` writes, said once for --help (a test holds it to `export.formats()`).
FORMATS_HELP = (
    "dimacs (CNF; its at-most-ones take auxiliary variables), dimacs-pairwise (CNF whose models are exactly "
    "the placements), lp (clingo's ASP program), mzn (MiniZinc model + data) or cpsat (protobuf text)."
)


@app.command()
@problem_options
def export(
    n: NArg = None,
    to: Annotated[str, typer.Option("--to", autocompletion=completion.export_format, help=FORMATS_HELP)] = "dimacs",
    target: Annotated[
        Path | None, typer.Option("--output", "-o", help="The file (default stdout); for mzn, FILE.mzn and FILE.dzn.")
    ] = None,
    spec: ProblemSpec = PROBLEM,
) -> None:
    """Write the puzzle for an external solver: DIMACS CNF, MiniZinc, or the CP-SAT model (protobuf text)."""
    from ..export import check_format, export

    check_format(to)
    p = spec.problem(n)
    if to == "mzn":
        if target is None or target.suffix != ".mzn":
            raise UserError("--to mzn writes two files: give -o FILE.mzn (the data goes to FILE.dzn)")
        model_text, data_text = io.StringIO(), io.StringIO()
        export(p, to, model_text, data_text)
        inputs = [spec.model]
        with output(target, inputs) as (out, _), output(target.with_suffix(".dzn"), inputs) as (data, _):
            out.write(model_text.getvalue().encode())
            data.write(data_text.getvalue().encode())
        return
    text = io.StringIO()
    export(p, to, text)
    with output(target, [spec.model]) as (out, _):
        out.write(text.getvalue().encode())


@app.command()
@problem_options
def show(
    n: NArg = None,
    solution: Annotated[str | None, typer.Option("--solution", help="Columns per row, e.g. 1,3,0,2.")] = None,
    spec: ProblemSpec = PROBLEM,
) -> None:
    """Draw a solution ('.' free, 'X' blocked, 'F' pre-placed), or the instance alone in the
    .txt board format that --model reads back ('Q' pre-placed)."""
    p = spec.problem(n)
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
    echo("\n".join(draw(p, sol)) if sol is not None else write_board(p).rstrip("\n"))


