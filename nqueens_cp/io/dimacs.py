"""DIMACS CNF as nqueens_cp writes it, and the answers SAT solvers print in return.

Variables 1..k are the usable squares (blocked squares have none), row by row, column by column;
variables above k are auxiliary (the at-most-one encoding's). The file's comment header names
each square's variable, 0-based as everywhere in nqueens_cp, so a reader needs no other key.
A solver's answer is its `s` line and `v` lines: the true square variables are the solution.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

from ..model.problem import NQueensError, Problem, Solution, Square, plural
from ..model.squares import SquaresModel


class SquareOfVariable:
    """The square of variable v (the inverse of `square_variables`) in O(n) memory: rows start
    at known variables, and only rows with blocked squares list their columns. Reading a SAT
    solver's answer used to build the n^2 dictionary first."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.starts: list[int] = []  # the first variable of each row
        v = 1
        for r in range(problem.rows):
            self.starts.append(v)
            v += len(problem.allowed_columns(r)) if self._irregular(r) else problem.n
        self.end = v  # one past the last square variable

    def _irregular(self, r: int) -> bool:
        return r in self.problem._fixed_by_row or r in self.problem._blocked_by_row

    def __call__(self, v: int) -> Square | None:
        if not 1 <= v < self.end:
            return None  # an auxiliary variable
        r = bisect.bisect_right(self.starts, v) - 1
        k = v - self.starts[r]
        return (r, self.problem.allowed_columns(r)[k] if self._irregular(r) else k)


def square_variables(problem: Problem) -> dict[Square, int]:
    """The variable of each usable square: 1, 2, ... row by row."""
    usable = [(r, c) for r in range(problem.rows) for c in problem.allowed_columns(r)]
    return {sq: i + 1 for i, sq in enumerate(usable)}


def write_cnf(
    out: TextIO, problem: Problem, clauses: list[list[int]], nvars: int, encoding: str, sm: SquaresModel | None = None
) -> None:
    """The CNF in DIMACS, its comment header naming each decision variable's square: the
    permutation's numbering (`square_variables`), or with `sm` the squares formulation's (a
    piece variable a free square, then a pawn variable a square a pawn may take)."""
    variables = square_variables(problem) if sm is None else {sq: i + 1 for i, sq in enumerate(sm.squares)}
    pawns = {} if sm is None else {sm.squares[i]: len(sm.squares) + k + 1 for k, i in enumerate(sm.pawn_at)}
    p = problem
    shape = "" if p.square else f", rows = {p.rows}"
    out.write(f"c nqueens_cp: n = {p.n}{shape}, piece = {p.piece}, torus = {str(p.torus).lower()}, ")
    out.write(f"{len(p.blocked)} blocked, {len(p.fixed)} fixed")
    out.write(f", {plural(len(p.walls), 'wall')}" if p.walls else "")
    out.write(", a region map" if p.regions else "")
    out.write(f", {plural(p.pieces, 'piece')} anywhere" if p.pieces else "")
    out.write(f", {plural(p.pawns, 'pawn')} placed" if p.pawns else "")
    out.write("\n" if sm is None else "; the squares formulation\n")
    decisions = len(variables) + len(pawns)
    if nvars > decisions:
        aux = f"variables above {decisions} are auxiliary (a placement can have several models)"
    else:
        aux = "no auxiliary variables: each model is one placement"
    out.write(f"c at most one per line: {encoding}; {aux}\n")
    out.write("c a true variable places a piece on its square (row, col), 0-based:\n")
    for (r, c), v in variables.items():
        out.write(f"c var {v} = ({r}, {c})\n")
    if pawns:
        out.write("c a true pawn variable places a pawn on its square:\n")
        for (r, c), v in pawns.items():
            out.write(f"c pawn var {v} = ({r}, {c})\n")
    out.write(f"p cnf {nvars} {len(clauses)}\n")
    for clause in clauses:
        out.write(" ".join(map(str, clause)) + " 0\n")


class AnswerError(NQueensError):
    pass


#: (line, solution, fault, model): `model` names the whole model, auxiliary variables included,
#: so that two models of one placement can be told from a repeat.
Answer = tuple[int, Solution | None, str | None, int | None]


def _model(true: list[int]) -> int:
    return hash(tuple(sorted(true)))


def read_answers(
    lines: Iterable[tuple[int, str]], problem: Problem, sm: SquaresModel | None = None
) -> Iterator[Answer]:
    """(line number, solution, fault, model) per model in a SAT solver's output, fault naming a
    row with no piece or several; (line, None, None, None) for an `s UNSATISFIABLE` line. A model
    lists literals on `v` lines ending with 0; several models (an enumerating solver) may follow.
    With `sm`, the variables are the squares formulation's (`write_cnf`)."""
    square = SquareOfVariable(problem) if sm is None else SquaresVariables(sm.squares, sm.pawn_at)
    true: list[int] = []
    start = 0
    for number, line in lines:
        text = line.strip()
        if text.startswith("s "):
            if "UNSAT" in text.upper():
                yield number, None, None, None
            continue
        if not text.startswith("v"):
            continue
        start = start or number
        try:
            words = [t for t in re.split(r"\s+", text[1:].strip()) if t]
            if any(len(t) > 19 for t in words):
                raise AnswerError(f"line {number}: a literal of more than 19 characters")
            lits = [int(t) for t in words]
        except ValueError:
            raise AnswerError(f"line {number}: a v line holds literals, got {text[:40]!r}") from None
        for lit in lits:
            if lit == 0:
                yield (start, *_placement(true, square, problem), _model(true))
                true, start = [], 0
            elif lit > 0:
                true.append(lit)
    if start:
        yield (start, *_placement(true, square, problem), _model(true))


class SquaresVariables:
    """The squares of a squares-formulation CNF's decision variables: variable i + 1 a piece on
    `squares[i]`, then variable len(squares) + k + 1 a pawn on `squares[pawn_at[k]]` (as
    `write_cnf` names them in its header, and the sat backend encodes them); above, auxiliary."""

    def __init__(self, squares: Sequence[Square], pawn_at: Sequence[int] = ()) -> None:
        self.squares, self.pawn_at = squares, pawn_at
        self.width = len(squares) + len(pawn_at)  # (the highest decision variable)

    def __call__(self, v: int) -> Square | None:
        return self.squares[v - 1] if 1 <= v <= len(self.squares) else None

    def pawn(self, v: int) -> Square | None:
        k = v - len(self.squares) - 1
        return self.squares[self.pawn_at[k]] if 0 <= k < len(self.pawn_at) else None

    def layout(self, true: Iterable[int]) -> tuple[list[Square], list[Square]]:
        """(the pieces' squares, the pawns' squares) of the true variables `true`."""
        true = list(true)
        return [sq for sq in map(self, true) if sq is not None], [sq for sq in map(self.pawn, true) if sq is not None]


def _placement(
    true: list[int], square: SquareOfVariable | SquaresVariables, problem: Problem
) -> tuple[Solution, str | None]:
    """The columns of the true square variables, row by row, and what is wrong with the rows
    if one has no piece or several (-1 stands for a missing column); for pieces anywhere, the
    layout of the true piece and pawn variables, which the problem's validator judges."""
    if problem.anywhere:
        assert isinstance(square, SquaresVariables)  # (pieces anywhere have no permutation CNF)
        pieces, pawns = square.layout(true)
        fault = None
        if (len(pieces), len(pawns)) != (problem.pieces, problem.pawns):  # (a layout's split needs both right)
            placed = f"{plural(problem.pieces, 'piece')} and {plural(problem.pawns, 'pawn')}"
            fault = f"{plural(len(pieces), 'piece')} and {plural(len(pawns), 'pawn')}, where {placed} stand"
        return problem.encode(pieces, pawns), fault
    n = problem.rows
    cols: dict[int, list[int]] = {}
    for r, c in sorted(sq for sq in map(square, true) if sq is not None):
        cols.setdefault(r, []).append(c)
    solution = tuple(cols.get(r, [-1])[0] for r in range(n))
    for r in range(n):
        if len(cols.get(r, ())) != 1:
            return solution, f"row {r} has {len(cols.get(r, ()))} pieces (columns {cols.get(r, [])})"
    return solution, None
