"""The MiniZinc export: one fixed model (nqueens_cp/data/nqueens.mzn, reviewed by hand and
kept as a golden file) and a data file per board. MiniZinc counts from 1, so the data file's
squares are 1-based, as the model says."""

from __future__ import annotations

from importlib.resources import files

from ..model.problem import NQueensError, Problem, Square


def model_text() -> str:
    return files("nqueens_cp.io").joinpath("data/nqueens.mzn").read_text()


def _pairs(squares: tuple[Square, ...]) -> str:
    if not squares:
        return "array2d(1..0, 1..2, [])"
    return "[|" + " |".join(f" {r + 1}, {c + 1}" for r, c in squares) + " |]"


def data_text(problem: Problem) -> str:
    """The .dzn for `problem`: n, the piece's attack rules, torus, blocked and fixed squares."""
    p = problem
    if not p.rule.classic:
        raise NQueensError(
            f"the MiniZinc model covers the rook, queen and superqueen, not {p.piece}: "
            "export this piece as DIMACS (--to dimacs) or as the CP-SAT model (--to cpsat)"
        )
    lines = [
        f"% nqueens_cp: n = {p.n}, piece = {p.piece}, torus = {str(p.torus).lower()} (squares 1-based)",
        f"n = {p.n};",
        f"diagonals = {str(p.rule.diagonals).lower()};",
        f"knight = {str(p.rule.knight).lower()};",
        f"torus = {str(p.torus).lower()};",
        f"nblocked = {len(p.blocked)};",
        f"blocked = {_pairs(p.blocked)};",
        f"nfixed = {len(p.fixed)};",
        f"fixed = {_pairs(p.fixed)};",
    ]
    return "\n".join(lines) + "\n"
