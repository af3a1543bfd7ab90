"""The answer-set program export: one fixed encoding (nqueens_cp/io/data/nqueens.lp, reviewed by
hand and kept as a golden file, after the ASP competition's) and the facts of a board: its
shape, blocked and fixed squares, and the piece's families of lines and forbidden offsets read
from the piece's spec. ASP instances count from 1, so the facts do too."""

from __future__ import annotations

from importlib.resources import files

from ..model.problem import Problem


def encoding_text() -> str:
    return files("nqueens_cp.io").joinpath("data/nqueens.lp").read_text()


def facts_text(problem: Problem) -> str:
    """The facts of `problem` for the encoding."""
    p = problem
    lines, forbidden = p.line_model
    out = [
        f"% nqueens_cp: n = {p.n}, rows = {p.rows}, piece = {p.piece}, torus = {str(p.torus).lower()} "
        "(squares 1-based)",
        f"row(1..{p.rows}). col(1..{p.n}).",
    ]
    out += [f"line({a},{b},{g},{abs(b) * p.rows * g})." for a, b, g in lines]
    out += [f"forbid({dr},{dc})." for dr, dc in forbidden]
    out += [f"block({r + 1},{c + 1})." for r, c in p.blocked]
    out += [f"fixed({r + 1},{c + 1})." for r, c in p.fixed]
    return "\n".join(out) + "\n"
