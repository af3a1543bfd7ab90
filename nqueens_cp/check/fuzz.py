"""Differential fuzzing: random boards of the families a solver is meant to handle, each judged
against our engine as `verify` judges one, until a disagreement is found; that instance is then
shrunk to a 1-minimal one, as cnfuzz and cnfdd do for SAT solvers and Hypothesis does for Python
code: removing any one blocked square or pre-placed piece, or taking a smaller board, makes the
disagreement disappear.

The draw favours the cases where solvers go wrong (`draw`): the smallest boards and those
around the bit widths of 8 and 9 columns, blocks in the corners and the first and last rows,
several blocks in one row or on one diagonal, a piece pre-placed next to a block, and boards
with no solution. A subject (`Subject`) is anything that answers for a board: another program
(`ProgramSubject`, run under the guardian with a limit per instance) or one of our backends
(`BackendSubject`); a crash or a hang is a finding too. Nothing here knows a backend by name:
the oracle is the registry's (`oracle_backend`).
"""

from __future__ import annotations

import contextlib
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from ..backends import Backend, BackendError, Unknown, WrongAnswer
from ..io.formats import write_board
from ..model.drawing import draw as drawn
from ..model.fields import FIELDS, SQUARE_FIELDS, Kind
from ..model.problem import InvalidProblem, Problem, Solution
from .answers import AnswerFormatError, judge, read_answers
from .external import SHOWN, Comparison, ProgramFailed, ProgramTimeout, a_count, command, program_output

#: The tasks a subject is judged on: every solution, the count, one solution, or the count of
#: symmetry classes (`--unique`).
TASKS = ("solve", "count", "first", "unique")
#: The optimisations a backend's answer is judged on too (the optimum and the optimal
#: placements' count, against the oracle's); a program's output is not read for them.
OPTIMA = ("max", "dominate")
#: The sizes drawn more often than the others: the smallest boards, and around the bit widths.
EDGE_SIZES = (1, 2, 3, 4, 8, 9)
#: A finding about the output's kind, not its answer: no count where one was asked for, a
#: count where a solution was, text that is no answer at all (`verify` leaves it to the user).
WRONG_KIND = "output of another kind"
#: The share of draws that take an edge size (the rest are uniform over 1..max_n).
EDGE_SHARE = 0.6


@dataclass(frozen=True)
class Families:
    """What the subject is meant to handle: blocked squares, pre-placed pieces, the pieces, a
    torus, rectangles (fewer rows than columns), boards of 1 to `max_n` columns."""

    blocked: bool = True
    fixed: bool = True
    pieces: tuple[str, ...] = ("queen",)
    torus: bool = False
    rectangles: bool = False
    max_n: int = 12
    #: Region maps (exactly one piece in each region) are drawn too, a family of their own.
    regions: bool = False
    #: Pieces pre-placed on blocked squares (no solution by the rules alone) may be drawn: a
    #: backend takes such a problem; a program reads a board file, where a square holds one of
    #: X and Q, and cannot be handed one.
    overlap: bool = False
    #: Walls that stop lines, one piece a row (a family of its own).
    walls: bool = False
    #: Pieces anywhere, with walls and pawns placed by the search (a family of its own).
    pawns: bool = False

    def names(self) -> list[str]:
        squares = ["blocked"] * self.blocked + ["fixed"] * self.fixed
        regions = ["regions"] * self.regions
        walled = ["walls"] * self.walls + ["pawns"] * self.pawns
        return ["plain", *squares, *regions, *walled] + ["no solution"] * bool(squares)  # (by blocking, or fixing)


#: The largest board the families of walls and pieces anywhere draw: their counts grow fast, and
#: the CP backends state them in the squares formulation, which enumerates slower.
WALLED_MAX_N = 7


def draw(rng: random.Random, families: Families) -> tuple[str, Problem]:
    """(family, board): one random instance, its sizes and squares favouring the edges."""
    while True:
        family = rng.choice(families.names())
        try:
            return family, _drawn(rng, families, family)
        except InvalidProblem:  # a fixed piece on a blocked square, say: draw again
            continue


def _drawn(rng: random.Random, f: Families, family: str) -> Problem:
    edges = [k for k in EDGE_SIZES if k <= f.max_n] + [f.max_n - 1, f.max_n]
    n = max(1, rng.choice(edges) if rng.random() < EDGE_SHARE else rng.randint(1, f.max_n))
    rows = rng.randint(max(1, n - 3), n) if f.rectangles and rng.random() < 0.4 else n
    piece = rng.choice(f.pieces)
    torus = f.torus and rng.random() < 0.5
    blocked: set[tuple[int, int]] = set()
    fixed: set[tuple[int, int]] = set()
    if family == "blocked" or (family == "fixed" and f.blocked and rng.random() < 0.5):
        blocked = _blocks(rng, n, rows)
    if family == "fixed":
        fixed = _fixed(rng, n, rows, blocked)
    if family == "no solution":
        blocked, fixed = _none(rng, f, n, rows)
    if blocked & fixed and not f.overlap:  # a board file holds one of X and Q a square: not for a program
        raise InvalidProblem("a square both blocked and pre-placed")
    regions = _map(rng, n, rows) if family == "regions" else []
    if family in ("walls", "pawns"):
        return _walled(rng, f, family, piece, torus)
    return Problem(n, piece, blocked=sorted(blocked), fixed=sorted(fixed), torus=torus, rows=rows, regions=regions)


def _walled(rng: random.Random, f: Families, family: str, piece: str, torus: bool) -> Problem:
    """Walls (one piece a row), or pieces anywhere with walls now and then and pawns placed by
    the search: n + k pieces and k pawns, as the N+k queens problem has, or no pawns and about
    as many pieces as rows."""
    top = min(f.max_n, WALLED_MAX_N)
    edges = [k for k in (1, 2, 3, 4, 5, top) if k <= top]
    n = rng.choice(edges) if rng.random() < EDGE_SHARE else rng.randint(1, top)
    rows = rng.randint(max(1, n - 2), n) if f.rectangles and rng.random() < 0.4 else n
    squares = [(r, c) for r in range(rows) for c in range(n)]
    walls = set(rng.sample(squares, min(len(squares), rng.randint(1, 4))))
    if family == "pawns" and rng.random() < 0.5:
        walls = set()
    free = [sq for sq in squares if sq not in walls]
    blocked = set(rng.sample(free, min(len(free), rng.randint(0, 2)))) if f.blocked and rng.random() < 0.4 else set()
    open_ = [sq for sq in free if sq not in blocked]
    fixed = set(rng.sample(open_, min(len(open_), 1))) if f.fixed and rng.random() < 0.3 else set()
    pieces = pawns = 0
    if family == "pawns":  # (pawns where fewer pieces need none would stand anywhere: counts explode)
        pawns = rng.choice((0, 1, 1, 2))
        pieces = rows + pawns if pawns else rng.choice((rows, rows, max(1, rows - 1), rng.randint(1, rows + 1)))
        pieces = max(pieces, len(fixed), 1)
        if pieces + pawns > len(open_):
            pieces, pawns = max(len(fixed), min(pieces, len(open_))), 0
    walled = sorted(walls)
    kept = {"blocked": sorted(blocked), "fixed": sorted(fixed), "walls": walled, "pieces": pieces, "pawns": pawns}
    return Problem(n, piece, torus=torus, rows=rows, **kept)


def _map(rng: random.Random, n: int, rows: int) -> list[str]:
    """A region map: a label a square at random, as many labels as rows (one short now and
    then: no solution), every label on the board."""
    k = rows if rng.random() < 0.85 else max(1, rows - 1)
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[:k]
    cells = [rng.choice(labels) for _ in range(rows * n)]
    cells[: len(labels)] = list(labels)
    rng.shuffle(cells)
    return ["".join(cells[r * n : (r + 1) * n]) for r in range(rows)]


def _none(rng: random.Random, f: Families, n: int, rows: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(blocked, fixed) of a board with no solution: a row blocked whole, or pre-placed pieces that
    contradict the board (two in one row or one column, one on a blocked square, with blocks
    about), which every entry point, symmetry classes included, must answer with none."""
    ways = ["row blocked"] * f.blocked + ["two in a row", "two in a column"] * (f.fixed and n >= 2)
    ways += ["on a block"] * (f.fixed and f.blocked and f.overlap)
    way = rng.choice(ways) if ways else "plain"
    blocked: set[tuple[int, int]] = set()
    fixed: set[tuple[int, int]] = set()
    if way == "row blocked":
        r = rng.choice([0, rows - 1, rng.randrange(rows)])
        blocked = {(r, c) for c in range(n)}
    elif way == "two in a row":
        r = rng.randrange(rows)
        fixed = {(r, c) for c in rng.sample(range(n), 2)}
    elif way == "two in a column" and rows >= 2:
        c = rng.randrange(n)
        fixed = {(r, c) for r in rng.sample(range(rows), 2)}
    elif way == "on a block":
        sq = (rng.randrange(rows), rng.randrange(n))
        fixed, blocked = {sq}, {sq}
    if fixed and f.blocked and rng.random() < 0.5:
        blocked |= _blocks(rng, n, rows)
    return blocked, fixed


def _blocks(rng: random.Random, n: int, rows: int) -> set[tuple[int, int]]:
    """A few blocked squares: corners, the first and last rows, several in one row or on one
    diagonal, and some anywhere."""
    squares: set[tuple[int, int]] = set()
    for _ in range(rng.randint(1, 4)):
        how = rng.choice(("corner", "edge row", "one row", "one diagonal", "anywhere"))
        if how == "corner":
            squares.add((rng.choice((0, rows - 1)), rng.choice((0, n - 1))))
        elif how == "edge row":
            squares.add((rng.choice((0, rows - 1)), rng.randrange(n)))
        elif how == "one row":
            r = rng.randrange(rows)
            squares |= {(r, c) for c in rng.sample(range(n), min(n, rng.randint(2, 3)))}
        elif how == "one diagonal":
            r0, c0 = rng.randrange(rows), rng.randrange(n)
            step = rng.choice((1, -1))
            squares |= {(r0 + k, c0 + step * k) for k in range(3) if r0 + k < rows and 0 <= c0 + step * k < n}
        else:
            squares.add((rng.randrange(rows), rng.randrange(n)))
    return squares


def _fixed(rng: random.Random, n: int, rows: int, blocked: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """One or two pre-placed pieces, the first next to a block where there is one."""
    pieces: set[tuple[int, int]] = set()
    if blocked:
        r, c = rng.choice(sorted(blocked))
        near = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
        near = [sq for sq in near if 0 <= sq[0] < rows and 0 <= sq[1] < n and sq not in blocked]
        if near:
            pieces.add(rng.choice(near))
    free = [(r, c) for r in range(rows) for c in range(n) if (r, c) not in blocked]
    for sq in rng.sample(free, min(len(free), rng.randint(1, 2) - len(pieces))):
        pieces.add(sq)
    return pieces


# -- judging -----------------------------------------------------------------------------------


@dataclass
class Finding:
    """What is wrong with a subject's answer on one board: its kind ("wrong count", "invalid",
    "missing", "crashed", "hung"...) and the lines that show it."""

    kind: str
    lines: list[str] = field(default_factory=list)
    #: Which subject it is about, where several were judged.
    subject: str = ""

    @property
    def family(self) -> str:
        """Shrinking keeps a finding of the same family: a wrong answer, a crash, or a hang."""
        return self.kind if self.kind in ("crashed", "hung") else "wrong answer"


class Subject(Protocol):
    name: str

    def judge(self, problem: Problem) -> Finding | None:
        """What is wrong with the subject's answer on `problem`, or None where it is right."""
        ...


def _first_lines(problem: Problem, sol: Solution | None, title: str, indent: str = "") -> list[str]:
    if sol is None:
        return [indent + title]
    return [f"{indent}{title}: {problem.said(sol)}", *(f"{indent}  {row}" for row in drawn(problem, sol))]


class ProgramSubject:
    """Another program, run on each board as `verify --against` runs it ({n}, {rows}, {model}:
    the board as a .txt file, the format `show` writes and `--model` reads)."""

    def __init__(self, template: str, task: str, oracle: Backend, limit: float, one_based: bool = False) -> None:
        self.name, self.template, self.task = template, template, task
        self.oracle, self.limit, self.one_based = oracle, limit, one_based
        self._tmp = tempfile.TemporaryDirectory(prefix="nqueens-fuzz.")
        self.model = Path(self._tmp.name) / "board.txt"
        command(template, Problem(4), self.model)  # refused now (exit 2) where it cannot be filled in

    def close(self) -> None:
        self._tmp.cleanup()

    def judge(self, problem: Problem) -> Finding | None:
        self.model.write_text(write_board(problem))
        args = command(self.template, problem, self.model)
        try:
            with program_output(args, self.limit) as out:
                return judge_output(out, problem, self.oracle, self.task, self.one_based)
        except ProgramTimeout:
            return Finding("hung", [f"did not finish within {self.limit:g} s"])
        except ProgramFailed as exc:
            return Finding("crashed", [str(exc)])


def judge_output(path: Path, problem: Problem, oracle: Backend, task: str, one_based: bool) -> Finding | None:
    """The program's output for `task` judged against the oracle: for solve, as a set of
    solutions (`compare_with`); for count, one number; for first, one valid solution, or
    nothing exactly where there is none."""
    text = path.read_text(errors="replace")
    if task == "solve":  # the oracle's solutions, each checked a batch at a time, then the program's
        reference = {tuple(row) for batch in oracle.batches(problem) for row in batch.tolist()}
        try:
            j = judge(read_answers(text.splitlines(), problem, one_based), problem, reference)
        except AnswerFormatError as exc:
            return Finding(WRONG_KIND, [str(exc)])
        missing = sorted(reference - set(j.valid))
        c = Comparison(problem, j, oracle.name, len(reference), missing[:SHOWN], len(missing))
        c.extra = sorted(s for s in j.valid if s not in reference)
        if c.agree:
            return None
        shown = _first_lines(problem, missing[0], "the first missing, drawn", "  ") if missing and not j.invalid else []
        return Finding("disagree", c.describe()[2:] + shown)
    if task in ("count", "unique"):
        words = text.split()
        if len(words) != 1 or not words[0].isdigit():
            return Finding(WRONG_KIND, [f"printed {text.strip()[:80]!r} where one number was asked for"])
        said = int(words[0])
        truth = oracle.count(problem).count if task == "count" else oracle.count_classes(problem).unique
        what = "counts" if task == "count" else "counts classes:"
        return None if said == truth else Finding("wrong count", [f"counted {said:,}; {oracle.name} {what} {truth:,}"])
    said = a_count(path, problem)
    if said is not None:
        return Finding(WRONG_KIND, [f"printed one number ({said}), a count, where one solution was asked for"])
    try:
        answers = [a for a in read_answers(text.splitlines(), problem, one_based) if a.solution is not None]
    except AnswerFormatError as exc:
        return Finding(WRONG_KIND, [str(exc)])
    truth = oracle.first(problem).solution
    if not answers:
        return None if truth is None else Finding("wrong no-solution", _first_lines(problem, truth, "there is one"))
    if len(answers) > 1:
        return Finding("several answers", [f"printed {len(answers)} solutions where one was asked for"])
    j = judge(answers, problem)
    if j.invalid:
        a, why = j.invalid[0]
        return Finding("invalid", _first_lines(problem, a.solution, f"invalid ({why})"))
    return None


def _optimum_line(name: str, o: Any) -> str:
    return f"{name}: {o.value} ({o.count if o.count is not None else '?'} optimal placements)"


class BackendSubject:
    """One of our backends (any sub-solver), its answer judged against the oracle's; the base
    class checks every solution it gives, so an invalid one is a finding too."""

    def __init__(self, backend: Backend, task: str, oracle: Backend) -> None:
        self.name, self.backend, self.task, self.oracle = backend.label, backend, task, oracle

    def close(self) -> None:
        pass

    def _optimum(self, problem: Problem) -> Finding | None:
        """The backend's optimum and count of optimal placements, against the oracle's (the
        pieces and pawns a board draws are the optimisation's to choose: left out)."""
        p = replace(problem, pieces=0, pawns=0)
        mine, truth = (b.optimum(p, self.task, count=True) for b in (self.backend, self.oracle))
        if mine.status.value == "unknown":
            return Finding("hung", [f"{self.backend.label}: {mine.reason} within its limit"])
        if (mine.status, mine.value, mine.count) == (truth.status, truth.value, truth.count):
            return None
        said = [_optimum_line(self.backend.label, mine), _optimum_line(self.oracle.name, truth)]
        return Finding("wrong optimum", said)

    def judge(self, problem: Problem) -> Finding | None:
        b, task = self.backend, self.task
        try:
            if task in OPTIMA:
                return self._optimum(problem)
            if task == "count":
                said, truth = b.count(problem), self.oracle.count(problem).count
                if said.count is None or said.status.value == "unknown":
                    return Finding("hung", [f"{b.label}: {said.reason or 'no answer'} within its limit"])
                if said.count == truth:
                    return None
                return Finding("wrong count", [f"{b.label} counts {said.count:,}; {self.oracle.name} counts {truth:,}"])
            if task == "unique":
                mine, truths = b.count_classes(problem), self.oracle.count_classes(problem)
                if (mine.unique, mine.total) == (truths.unique, truths.total):
                    return None
                said_text = f"{mine.unique:,} classes of {mine.total:,} solutions"
                truth_text = f"{truths.unique:,} of {truths.total:,}"
                return Finding("wrong count", [f"{b.label} counts {said_text}; {self.oracle.name} {truth_text}"])
            if task == "first":
                got, truth = b.first(problem), self.oracle.first(problem).solution
                if got.status.value == "unknown":
                    return Finding("hung", [f"{b.label}: {got.reason} within its limit"])
                if (got.solution is None) != (truth is None):
                    said = "no solution" if got.solution is None else f"{list(got.solution)}"
                    where = _first_lines(problem, truth, "where")
                    return Finding("wrong no-solution", [f"{b.label} says {said}", *where])
                return None
            mine, theirs = set(b.solutions(problem)), set(self.oracle.solutions(problem))
        except WrongAnswer as exc:
            return Finding("invalid", [str(exc)])
        except Unknown as exc:
            return Finding("hung", [str(exc)])
        except BackendError as exc:
            return Finding("crashed", [str(exc)])
        if mine == theirs:
            return None
        lines = [f"{b.label} gives {len(mine):,} solutions, {self.oracle.name} {len(theirs):,}"]
        missing = sorted(theirs - mine)
        lines += [f"  missing: {problem.said(s)}" for s in missing[:3]]
        lines += [f"  extra: {problem.said(s)}" for s in sorted(mine - theirs)[:3]]
        lines += _first_lines(problem, missing[0], "the first missing, drawn", "  ") if missing else []
        return Finding("disagree", lines)


class Several:
    """Several subjects judged on each board (our backends against the oracle): the first
    finding, named by the subject that gave it."""

    def __init__(self, subjects: list[BackendSubject]) -> None:
        self.subjects = subjects
        self.name = ", ".join(s.name for s in subjects)

    def close(self) -> None:
        for s in self.subjects:
            s.close()

    def judge(self, problem: Problem) -> Finding | None:
        for s in self.subjects:
            found = s.judge(problem)
            if found is not None:
                return Finding(found.kind, found.lines, s.name)
        return None


# -- shrinking ---------------------------------------------------------------------------------


def smaller(p: Problem, families: Families) -> Iterator[Problem]:
    """The boards smaller than `p`, smallest first: `p` cut to k columns (k rows too on a square;
    a row fewer alone where rectangles are allowed) from each corner, for k = 1 .. n - 1, so that
    the first size that keeps a finding is the smallest board found (single steps alone stop at
    a size the bug skips, such as 6 queens when 5 and 7 show it); then each blocked square and
    each pre-placed piece left out. Squares that fall off the board go with it."""

    def board(n: int, rows: int, dr: int, dc: int) -> Problem | None:
        def kept(squares: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
            moved = ((r - dr, c - dc) for r, c in squares)
            return [(r, c) for r, c in moved if 0 <= r < rows and 0 <= c < n]

        def cut(labels: tuple[str, ...]) -> list[str]:
            return [row[dc : dc + n] for row in labels[dr : dr + rows]] if labels else []

        squares = {f.name: kept(getattr(p, f.name)) for f in SQUARE_FIELDS}
        maps = {f.name: cut(getattr(p, f.name)) for f in FIELDS if f.kind is Kind.LABELS}
        # every set of squares and every map of labels (`fields.FIELDS`) moves with the cut; pieces
        # anywhere as many, or as many fewer as rows were cut
        fewer = [{}] + ([{"pieces": max(1, len(squares["fixed"]), p.pieces - (p.rows - rows))}] if p.pieces else [])
        for counts in fewer:
            try:
                return replace(p, n=n, rows=rows, **squares, **maps, **counts)
            except InvalidProblem:
                continue
        return None

    seen: set[Problem] = set()
    for k in range(1, p.n):
        rows = k if p.square else min(p.rows, k)
        for dr in (0, p.rows - rows):
            for dc in (0, p.n - k):
                b = board(k, rows, dr, dc)
                if b is not None and b not in seen:
                    seen.add(b)
                    yield b
    if families.rectangles and p.rows > 1:
        for dr in (0, 1):
            b = board(p.n, p.rows - 1, dr, 0)
            if b is not None:
                yield b
    for f in SQUARE_FIELDS:
        squares = getattr(p, f.name)
        for i in range(len(squares)):
            yield replace(p, **{f.name: squares[:i] + squares[i + 1 :]})
    for counts in ({"pawns": p.pawns - 1}, {"pieces": p.pieces - 1}):  # a pawn fewer, a piece fewer
        with contextlib.suppress(InvalidProblem):
            if p.pieces and min(counts.values()) >= 0 and counts.get("pieces", 1) > 0:
                yield replace(p, **counts)


@dataclass
class Shrunk:
    problem: Problem
    finding: Finding
    steps: int
    minimal: bool  # no single step smaller keeps the finding (False: the budget ran out first)


def shrink(
    p: Problem,
    finding: Finding,
    subject: Subject,
    families: Families,
    left: Callable[[], float],
    progress: Callable[[int, Problem], None] | None = None,
) -> Shrunk:
    """Delta debugging by single steps: take the first smaller board on which the subject is
    still wrong in the same way (a wrong answer, a crash, a hang), until none is."""
    steps = 0
    while True:
        for candidate in smaller(p, families):
            if left() <= 0:
                return Shrunk(p, finding, steps, False)
            found = subject.judge(candidate)
            if found is not None and found.family == finding.family:
                p, finding, steps = candidate, found, steps + 1
                if progress:
                    progress(steps, p)
                break
        else:
            return Shrunk(p, finding, steps, True)


# -- the campaign ------------------------------------------------------------------------------


@dataclass
class Campaign:
    tried: int = 0
    by_family: dict[str, int] = field(default_factory=dict)
    found: Shrunk | None = None
    first: Problem | None = None  # the instance as drawn, before shrinking
    seconds: float = 0.0

    def record(self, seed: int, subject: str = "") -> dict[str, object]:
        """The campaign as one JSON record: status, instances tried, seed, families, and the
        counterexample (0-based squares) with its verdict."""
        out: dict[str, object] = {"format": "nqueens_cp.fuzz/1"}
        out["status"] = "none found" if self.found is None else "counterexample"
        out |= {"instances": self.tried, "seed": seed, "families": self.by_family, "seconds": round(self.seconds, 3)}
        if self.found is None:
            return out | {"counterexample": None}
        p, finding = self.found.problem, self.found.finding
        example = p.as_dict() | {"verdict": finding.kind, "detail": finding.lines, "minimal": self.found.minimal}
        return out | {"subject": subject, "shrink_steps": self.found.steps, "counterexample": example}


def fuzz(
    subject: Subject,
    families: Families,
    seed: int,
    budget: float,
    instances: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Campaign:
    """Draw and judge until a finding (then shrink it) or until `budget` seconds (the whole
    campaign, shrinking included) or `instances` boards have gone."""
    rng = random.Random(seed)
    start = time.monotonic()

    def left() -> float:
        return budget - (time.monotonic() - start)

    c = Campaign()
    while left() > 0 and (instances is None or c.tried < instances):
        family, p = draw(rng, families)
        c.tried += 1
        c.by_family[family] = c.by_family.get(family, 0) + 1
        if progress:
            progress(f"{c.tried:,} instances tried")
        finding = subject.judge(p)
        if finding is not None:
            c.first = p

            def said(steps: int, q: Problem) -> None:
                if progress:
                    progress(f"{c.tried:,} instances tried; shrinking: step {steps}, {q.rows}x{q.n}")

            c.found = shrink(p, finding, subject, families, left, said)
            break
    c.seconds = time.monotonic() - start
    return c
