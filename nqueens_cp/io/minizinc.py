"""The MiniZinc export: one fixed model (nqueens_cp/io/data/nqueens.mzn, reviewed by hand and
kept as a golden file) and a data file per board: its shape, the piece's families of lines and
forbidden offsets read from the piece's spec, blocked and fixed squares. MiniZinc counts from 1,
so the data file's squares are 1-based, as the model says."""

from __future__ import annotations

from importlib.resources import files
from math import gcd

from ..model.pieces import slide_directions
from ..model.problem import Problem


def model_text() -> str:
    return files("nqueens_cp.io").joinpath("data/nqueens.mzn").read_text()


def data_text(problem: Problem) -> str:
    """The .dzn for `problem`: the board's shape, the piece's lines and forbidden offsets (read
    from its spec), torus, blocked and fixed squares."""
    p = problem
    m, n, torus = p.rows, p.n, p.torus
    families = [(a, b) for a, b in slide_directions(p.rule) if not torus or a == 1]
    skipping = torus and len(families) < len(slide_directions(p.rule))
    forbidden = [
        (dr, dc)
        for dr in range(1, m)
        for dc in sorted(p.offsets(dr) if skipping else p.rule.leap_offsets(dr, n, torus, m))
    ]
    lines = [(a, b, gcd(m * b, n) if torus else 0) for a, b in families]
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


def _table(rows: list[tuple[int, ...]], width: int) -> str:
    """A MiniZinc 2d array literal (rows given as they are: 1-based squares already shifted)."""
    if not rows:
        return f"array2d(1..0, 1..{width}, [])"
    return "[|" + " |".join(" " + ", ".join(map(str, row)) for row in rows) + " |]"
