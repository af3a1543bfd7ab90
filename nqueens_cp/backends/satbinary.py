"""Any SAT solver binary, run on the exported DIMACS (`--sat-solver cmd:"PROGRAM ARGS {cnf}"`).

The program reads the CNF file named where `{cnf}` stands (appended when it does not) and
answers as the SAT competitions ask: an `s SATISFIABLE` / `s UNSATISFIABLE` line, `v` lines with
the model, exit code 10 or 20. It runs under a guardian (`run.programs`): past the time limit,
on Ctrl-C, SIGTERM or a kill of ours, everything it started ends with it, and what it may write
is bounded. Solutions are enumerated by calling it again with each model forbidden (a fresh
process per solution: for modest counts).
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from ..io.dimacs import write_cnf
from ..model.problem import Problem, Solution
from ..model.squares import SquaresModel
from ..run.programs import run_group
from .base import BackendError, Deadline, WrongAnswer


class Read(NamedTuple):
    """What a model says: its decision variables are 1..width (the auxiliary ones above), and
    `solution` makes the solution of the true ones among them (a binary's models and
    python-sat's alike)."""

    width: int
    solution: Callable[[list[int]], Solution]

PREFIX = "cmd:"

def command(spec: str) -> list[str]:
    """The program's words from `cmd:PROGRAM ARGS {cnf}`, checked: it must exist."""
    try:
        words = shlex.split(spec[len(PREFIX) :])
    except ValueError as exc:
        raise BackendError(f"--sat-solver {spec!r}: {exc}") from None
    if not words:
        raise BackendError("--sat-solver cmd: names no program")
    if shutil.which(words[0]) is None:
        raise BackendError(f"--sat-solver: the program {words[0]!r} is not found or not executable")
    if not any("{cnf}" in w for w in words):
        words.append("{cnf}")
    return words


def models(
    words: list[str],
    problem: Problem,
    clauses: list[list[int]],
    nv: int,
    read: Read,
    limit: int | None,
    deadline: Deadline,
    sm: SquaresModel | None = None,
) -> Iterator[Solution]:
    """The solutions the binary finds (`read` makes them of its models), each forbidden before
    the next call; a model of another size than a solution is a wrong answer. `sm`: the
    squares formulation's model where the CNF is of that formulation (its header names the
    variables as `export --to dimacs` does)."""
    clauses = list(clauses)
    found = 0
    with tempfile.TemporaryDirectory(prefix="nqueens-sat.") as folder:
        cnf = Path(folder) / "problem.cnf"
        while limit is None or found < limit:
            with cnf.open("w") as f:
                write_cnf(f, problem, clauses, nv, "sequential counter (Sinz 2005)", sm)
            true = _run(words, cnf, deadline, found, nv)
            if true is None:
                return
            model = [lit for lit in true if lit <= read.width]
            solution = read.solution(model)
            if len(solution) != problem.width or (not problem.anywhere and len(model) != problem.rows):
                shown = ", ".join(map(str, model[:12])) + (", ..." if len(model) > 12 else "")
                raise WrongAnswer(
                    f"sat (cmd:{Path(words[0]).name})", f"a model that is no placement: {len(model)} true ({shown})"
                )
            found += 1
            yield solution
            clauses.append([-lit for lit in model])


def output_bound(nv: int) -> int:
    """The most a binary may print for a CNF of `nv` variables: a model (a literal takes at
    most 16 bytes) and room for its comments and statistics."""
    return (16 << 20) + 16 * nv


def _run(words: list[str], cnf: Path, deadline: Deadline, found: int, nv: int) -> list[int] | None:
    """The true variables of the binary's model, or None when it says unsatisfiable. Its
    output is bounded (`output_bound`): a binary that prints without end is stopped there."""
    args = [w.replace("{cnf}", str(cnf)) for w in words]
    out = cnf.with_suffix(".out")
    bound = output_bound(nv)
    with out.open("wb") as sink:
        # the limit and a stop end it; a kill of ours leaves its folder to the guardian
        code = run_group(args, sink, poll=lambda: deadline.check(found), max_file=bound, scratch=cnf.parent)
    if out.stat().st_size >= bound:
        raise BackendError(f"sat: {Path(words[0]).name} printed more than {bound >> 20} MB for one model; stopped")
    return _answer(words[0], out.read_text(errors="replace"), code)


def _answer(program: str, text: str, code: int) -> list[int] | None:
    status = next((line.split()[1:] for line in text.splitlines() if line.startswith("s ")), None)
    word = " ".join(status or []).upper()
    if word == "UNSATISFIABLE" or (status is None and code == 20):
        return None
    if word != "SATISFIABLE" and not (status is None and code == 10):
        said = next((line for line in text.splitlines() if line.strip()), "nothing")
        raise BackendError(
            f"sat: {program} gave no SAT-competition answer (exit {code}; an 's' line or exit 10/20 expected, "
            f"it printed {said[:60]!r})"
        )
    true = []
    for line in text.splitlines():
        if line.startswith("v "):
            try:
                true += [int(t) for t in line[2:].split() if int(t) > 0]
            except ValueError:
                raise BackendError(f"sat: {program} printed a v line that is not literals: {line[:60]!r}") from None
    return true
