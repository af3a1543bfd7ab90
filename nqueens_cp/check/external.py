"""Verifying someone else's solver: run their program, read its solutions in any format
`answers` knows, and compare them, as a set, with a backend's enumeration.

The program is started without a shell (the command is split like a shell would split it, then
{n}, {rows} and {model} are filled in), under a guardian (`run.programs`), with its output going
to a temporary file; past the time limit, or on Ctrl-C, it ends with everything it started. Its answers are judged by
the problem's validator, then compared with the solutions our backend finds: missing ones (we
found them, it did not), extra ones (valid, yet not found by our backend: worth a bug report
here), invalid ones (with the attacking pair or the blocked square) and repeats.
"""

from __future__ import annotations

import contextlib
import re
import shlex
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..backends import Backend, Unknown
from ..model.drawing import draw
from ..model.problem import NQueensError, Problem, Solution, plural
from ..run.programs import run_group
from .answers import AnswerFormatError, Judgement, judge, read_answers

#: What --against fills in: the board's columns, its rows, the instance file.
PLACEHOLDERS = ("{n}", "{rows}", "{model}")

#: How many examples of each kind of difference a report names.
SHOWN = 5
#: The first invalid answer is drawn as a board up to this size.
DRAWN_N = 16
#: The last bytes of a failing program's stderr kept for its error message.
STDERR_TAIL = 2000


class ProgramError(NQueensError):
    """The program could not be started (the user must fix the command)."""


class ProgramFailed(Exception):
    """The program ran and failed: it crashed, or exited with an error."""


class ProgramTimeout(Exception):
    """The program did not finish within its time limit."""


def command(template: str, problem: Problem, model: Path | None) -> list[str]:
    try:
        words = shlex.split(template)
    except ValueError as exc:
        raise ProgramError(f"--against {template!r}: {exc}") from None
    if not words:
        raise ProgramError("--against names no program")
    if any("{model}" in w for w in words) and model is None:
        raise ProgramError("--against uses {model}: give the instance with --model FILE")
    unknown = sorted({m for w in words for m in re.findall(r"\{\w*\}", w)} - set(PLACEHOLDERS))
    if unknown:
        raise ProgramError(f"--against: unknown placeholder {unknown[0]} (known: {', '.join(PLACEHOLDERS)})")
    return [
        w.replace("{n}", str(problem.n)).replace("{rows}", str(problem.rows)).replace("{model}", str(model))
        for w in words
    ]


@contextlib.contextmanager
def program_output(args: list[str], time_limit: float) -> Iterator[Path]:
    """Run `args`; yield the path of its stdout once it has exited with code 0."""
    with tempfile.TemporaryDirectory(prefix="nqueens-against.") as tmp:
        out_path, err_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                code = run_group(args, out, err, timeout=time_limit, scratch=tmp)
            except subprocess.TimeoutExpired:
                raise ProgramTimeout(f"{shlex.join(args)} did not finish within {time_limit:g} s") from None
            except OSError as exc:
                raise ProgramError(f"cannot run {args[0]!r}: {exc.strerror or exc}") from None
        if code != 0:
            tail = err_path.read_bytes()[-STDERR_TAIL:].decode(errors="replace").strip().splitlines()
            how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
            said = f": {tail[-1]}" if tail else ""
            raise ProgramFailed(f"{shlex.join(args)} {how}{said}")
        yield out_path


@dataclass
class Comparison:
    problem: Problem
    judgement: Judgement
    reference: str
    expected: int = 0
    missing: list[Solution] = field(default_factory=list)  # the first SHOWN of them
    missing_count: int = 0
    extra: list[Solution] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def agree(self) -> bool:
        j = self.judgement
        claims_none = bool(j.no_solution_claims and self.expected)
        return not (j.invalid or j.duplicates or self.missing_count or self.extra or claims_none)

    def describe(self) -> list[str]:
        j = self.judgement
        gave = plural(j.read, "solution")
        lines = [f"the program gave {gave} in {self.seconds:.2f} s; {self.reference} finds {self.expected:,}"]
        note = j.aux_note()
        if note:
            lines.append(f"note: {note}")
        if self.agree:
            same = f"the same {plural(self.expected, 'solution')}" if self.expected != 1 else "the same solution"
            lines.append(f"agree: {same}, each valid, none repeated")
            return lines
        lines.append("DISAGREE")
        shown = self.problem.said
        hint = j.hint()
        if hint:
            lines.append(f"  hint: {hint}")
        if j.invalid:
            lines.append(f"  invalid: {j.invalid_count}")
            lines += [f"    {a.where}: {shown(a.solution or ())}: {why}" for a, why in j.invalid[:SHOWN]]
            lines += self._first_board()
        if self.missing_count:
            lines.append(f"  missing: {self.missing_count} (found by {self.reference}, not by the program)")
            lines += [f"    {shown(s)}" for s in self.missing[:SHOWN]]
        if self.extra:
            lines.append(f"  extra: {len(self.extra)} valid solutions {self.reference} did not find (please report)")
            lines += [f"    {shown(s)}" for s in self.extra[:SHOWN]]
        if j.duplicates:
            lines.append(f"  duplicates: {j.duplicate_count}")
            lines += [f"    {a.where}: {shown(a.solution or ())}" for a in j.duplicates[:SHOWN]]
        if j.no_solution_claims and self.expected:
            lines.append(f"  the program says there is no solution (line {j.no_solution_claims[0]})")
        return lines

    def summary(self) -> str:
        """The disagreement in one line, for stderr."""
        j = self.judgement
        parts = [f"{j.invalid_count:,} invalid"] * bool(j.invalid_count)
        parts += [f"{self.missing_count:,} missing"] * bool(self.missing_count)
        parts += [f"{len(self.extra):,} extra"] * bool(self.extra)
        parts += [f"{j.duplicate_count:,} repeated"] * bool(j.duplicate_count)
        parts += ["a wrong claim of no solution"] * bool(j.no_solution_claims and self.expected)
        return f"the program's solutions disagree with {self.reference}'s: {', '.join(parts)}"

    def _first_board(self) -> list[str]:
        """The first invalid answer drawn, when it is a placement that fits the board."""
        a, why = self.judgement.invalid[0]
        sol = a.solution or ()
        p = self.problem
        if not (len(sol) == p.rows and p.n <= DRAWN_N and all(0 <= c < p.n for c in sol)):
            return []
        return [f"    {a.where} drawn ({why}):", *(f"      {row}" for row in draw(self.problem, sol))]


def compare_with(path: Path, problem: Problem, backend: Backend, one_based: bool, seconds: float) -> Comparison:
    """Judge the answers in `path` and compare the valid ones with `backend`'s solutions. Output
    of another kind, a count where solutions were asked for, is the user's to fix
    (AnswerFormatError), not a wrong answer."""
    said = a_count(path, problem)
    if said is not None:
        raise AnswerFormatError(
            f"the program printed one number ({said}), a count, where every solution was asked for: add --task count"
        )
    with path.open(errors="replace") as f:
        j = judge(read_answers(f, problem, one_based), problem)
    c = Comparison(problem, j, backend.name, seconds=seconds)
    try:
        for sol in backend.solutions(problem):
            c.expected += 1
            if sol in j.valid:
                j.valid.discard(sol)  # what is left at the end, the reference did not find
                continue
            c.missing_count += 1
            if len(c.missing) < SHOWN:
                c.missing.append(sol)
    except Unknown:
        raise  # the reference's own limit: whether the program is right is unknown
    c.extra = sorted(j.valid)
    return c


def a_count(path: Path, problem: Problem) -> str | None:
    """The number a program's output is, where the whole of it is one number on a board of more
    than one row (a count, not a solution of one column), else None."""
    if problem.rows < 2 or path.stat().st_size > 64:
        return None
    text = path.read_text(errors="replace").strip()
    return text if text.isdigit() else None


def verify_program(
    template: str, problem: Problem, model: Path | None, backend: Backend, time_limit: float, one_based: bool
) -> Comparison:
    args = command(template, problem, model)
    start = time.perf_counter()
    with program_output(args, time_limit) as path:
        seconds = time.perf_counter() - start
        return compare_with(path, problem, backend, one_based, seconds)
