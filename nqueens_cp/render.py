"""Turning solutions into text: the output formats of `nqueens solve` and the board drawing of
`nqueens show`. Writers stream: each takes an iterator of solutions and writes as it goes."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TextIO

from .problem import Problem, Solution

FORMATS = ("boards", "json", "jsonl", "csv")
PIECE_LETTER = {"queen": "Q", "rook": "R"}

#: Solutions are written in chunks of this many, one write call each.
CHUNK = 2048


def _chunks(solutions: Iterable[Solution]) -> Iterator[list[Solution]]:
    chunk: list[Solution] = []
    for sol in solutions:
        chunk.append(sol)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def write_solutions(problem: Problem, solutions: Iterable[Solution], fmt: str, out: TextIO) -> int:
    """Write every solution in format `fmt`; returns how many were written.

    boards: 'Q'/'.' rows (LeetCode style; 'R' for rooks), a blank line between boards.
    json: one JSON array of solutions. jsonl: one JSON array of columns per line.
    csv: a header `r0,r1,...` then one line of columns per solution."""
    n = problem.n
    written = 0
    if fmt == "boards":
        letter = PIECE_LETTER[problem.piece]
        rows = ["." * c + letter + "." * (n - 1 - c) + "\n" for c in range(n)]
        for chunk in _chunks(solutions):
            text = "\n".join("".join([rows[c] for c in sol]) for sol in chunk)
            out.write(("\n" if written else "") + text)
            written += len(chunk)
    elif fmt == "jsonl":
        for chunk in _chunks(solutions):
            out.write("".join(f"[{', '.join(map(str, sol))}]\n" for sol in chunk))
            written += len(chunk)
    elif fmt == "csv":
        out.write(",".join(f"r{r}" for r in range(n)) + "\n")
        for chunk in _chunks(solutions):
            out.write("".join(",".join(map(str, sol)) + "\n" for sol in chunk))
            written += len(chunk)
    elif fmt == "json":
        out.write("[")
        for chunk in _chunks(solutions):
            out.write(("," if written else "") + ",".join(json.dumps(list(sol)) for sol in chunk))
            written += len(chunk)
        out.write("]\n")
    else:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    return written


def draw(problem: Problem, solution: Solution | None = None) -> list[str]:
    """The board as text rows: '.' free, 'X' blocked, and pieces. Without a solution the drawing
    is the instance in the plain-text board format ('Q' for a fixed piece), readable back with
    --model. With one, placed pieces show as 'Q' (or 'R') and pre-placed ones as 'F'."""
    n = problem.n
    grid = [["."] * n for _ in range(n)]
    for r, c in problem.blocked:
        grid[r][c] = "X"
    fixed_mark = "Q" if solution is None else "F"
    if solution is not None:
        letter = PIECE_LETTER[problem.piece]
        for r, c in enumerate(solution):
            grid[r][c] = letter
    for r, c in problem.fixed:
        grid[r][c] = fixed_mark
    return [" ".join(row) for row in grid]
