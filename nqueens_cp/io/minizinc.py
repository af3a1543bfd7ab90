"""The MiniZinc export: one fixed model (nqueens_cp/io/data/nqueens.mzn, reviewed by hand and
kept as a golden file) and a data file per board: its shape, the piece's families of lines and
forbidden offsets read from the piece's spec, blocked and fixed squares. MiniZinc counts from 1,
so the data file's squares are 1-based, as the model says."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files

from ..model.problem import Problem


def model_text() -> str:
    return files("nqueens_cp.io").joinpath("data/nqueens.mzn").read_text()


def data_text(problem: Problem) -> str:
    """The .dzn for `problem`: the board's shape, the piece's lines and forbidden offsets (read
    from its spec), torus, blocked and fixed squares."""
    p = problem
    m, n, torus = p.rows, p.n, p.torus
    lines, forbidden = p.line_model
    header = f"% nqueens_cp: n = {n}, rows = {m}, piece = {p.piece}, torus = {str(torus).lower()} (squares 1-based)"
    text = [
        header,
        f"m = {m};",
        f"n = {n};",
        f"torus = {str(torus).lower()};",
        f"nlines = {len(lines)};",
        f"lines = {_table(lines, 3)};",
        f"nforbidden = {len(forbidden)};",
        f"forbidden = {_table(forbidden, 2)};",
        f"nblocked = {len(p.blocked)};",
        f"blocked = {_table([(r + 1, c + 1) for r, c in p.blocked], 2)};",
        f"nfixed = {len(p.fixed)};",
        f"fixed = {_table([(r + 1, c + 1) for r, c in p.fixed], 2)};",
    ]
    return "\n".join(text) + "\n"


def _table(rows: Sequence[tuple[int, ...]], width: int) -> str:
    """A MiniZinc 2d array literal (rows given as they are: 1-based squares already shifted)."""
    if not rows:
        return f"array2d(1..0, 1..{width}, [])"
    return "[|" + " |".join(" " + ", ".join(map(str, row)) for row in rows) + " |]"
