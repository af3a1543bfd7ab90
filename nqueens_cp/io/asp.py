"""The answer-set program export: one fixed encoding (nqueens_cp/io/data/nqueens.lp, reviewed by
hand and kept as a golden file, after the ASP competition's) and the facts of a board: its
shape, blocked and fixed squares, and the piece's families of lines and forbidden offsets read
from the piece's spec. ASP instances count from 1, so the facts do too."""

from __future__ import annotations

from importlib.resources import files
from math import gcd

from ..model.pieces import slide_directions
from ..model.problem import Problem


def encoding_text() -> str:
    return files("nqueens_cp.io").joinpath("data/nqueens.lp").read_text()


def facts_text(problem: Problem) -> str:
    """The facts of `problem` for the encoding."""
    p = problem
    m, n, torus = p.rows, p.n, p.torus
    families = [(a, b) for a, b in slide_directions(p.rule) if not torus or a == 1]
    skipping = torus and len(families) < len(slide_directions(p.rule))
    out = [
        f"% nqueens_cp: n = {n}, rows = {m}, piece = {p.piece}, torus = {str(torus).lower()} (squares 1-based)",
        f"row(1..{m}). col(1..{n}).",
    ]
    for a, b in families:
        g = gcd(m * b, n) if torus else 0
        out.append(f"line({a},{b},{g},{abs(b) * m * g}).")
    for dr in range(1, m):
        offsets = p.offsets(dr) if skipping else p.rule.leap_offsets(dr, n, torus, m)
        out += [f"forbid({dr},{dc})." for dc in sorted(offsets)]
    out += [f"block({r + 1},{c + 1})." for r, c in p.blocked]
    out += [f"fixed({r + 1},{c + 1})." for r, c in p.fixed]
    return "\n".join(out) + "\n"
