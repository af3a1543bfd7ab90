"""The answer-set program export: one fixed encoding (nqueens_cp/io/data/nqueens.lp, reviewed by
hand and kept as a golden file, after the ASP competition's) and the facts of a board: its
shape, blocked and fixed squares, and the piece's families of lines and forbidden offsets read
from the piece's spec. ASP instances count from 1, so the facts do too."""

from __future__ import annotations

from importlib.resources import files

from ..model.problem import Problem


def encoding_text(formulation: str = "permutation") -> str:
    """The fixed encoding of `formulation`: data/nqueens.lp (the permutation) or data/squares.lp."""
    name = "squares.lp" if formulation == "squares" else "nqueens.lp"
    return files("nqueens_cp.io").joinpath(f"data/{name}").read_text()


def squares_facts_text(problem: Problem) -> str:
    """The facts of data/squares.lp: the squares formulation (`model/squares.py`), 1-based."""
    from ..model.squares import squares_model

    sm = squares_model(problem)
    sq = [(r + 1, c + 1) for r, c in sm.squares]
    out = [
        f"% nqueens_cp: n = {problem.n}, rows = {problem.rows}, piece = {problem.piece}, torus = "
        f"{str(problem.torus).lower()}, the squares formulation (squares 1-based)",
        f"row(1..{len(sm.exactly_one)}).",  # (an empty one where no solution can be)
        f"pieces({sm.pieces}).",
    ]
    out += [f"square({r},{c})." for r, c in sq]
    out += [f"inrow({k},{sq[i][0]},{sq[i][1]})." for k, group in enumerate(sm.exactly_one, 1) for i in group]
    out += [f"on({k},{sq[i][0]},{sq[i][1]})." for k, group in enumerate(sm.at_most_one, 1) for i in group]
    out += [f"apart({sq[a][0]},{sq[a][1]},{sq[b][0]},{sq[b][1]})." for a, b in sm.apart]
    out += [f"fixed({sq[i][0]},{sq[i][1]})." for i in sm.fixed]
    out += [f"region({k})." for k in range(1, len(sm.regions) + 1)]
    out += [f"in({k},{sq[i][0]},{sq[i][1]})." for k, group in enumerate(sm.regions, 1) for i in group]
    if sm.pawns:
        out += [f"pawns({sm.pawns})."] + [f"pawnsq({sq[i][0]},{sq[i][1]})." for i in sm.pawn_at]
    for k, (a, b, between) in enumerate(sm.separated, 1):
        out.append(f"sep({k},{sq[a][0]},{sq[a][1]},{sq[b][0]},{sq[b][1]}).")
        out += [f"between({k},{sq[sm.pawn_at[j]][0]},{sq[sm.pawn_at[j]][1]})." for j in between]
    return "\n".join(out) + "\n"


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
