"""The MiniZinc export: one fixed model (nqueens_cp/io/data/nqueens.mzn, reviewed by hand and
kept as a golden file) and a data file per board: its shape, the piece's families of lines and
forbidden offsets read from the piece's spec, blocked and fixed squares. MiniZinc counts from 1,
so the data file's squares are 1-based, as the model says."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files

from ..model.problem import Problem


def model_text(formulation: str = "permutation") -> str:
    """The fixed model of `formulation`: data/nqueens.mzn (the permutation), data/squares.mzn,
    or data/optimum.mzn (`optimum`: the most pieces or the fewest that cover)."""
    name = {"squares": "squares.mzn", "optimum": "optimum.mzn"}.get(formulation, "nqueens.mzn")
    return files("nqueens_cp.io").joinpath(f"data/{name}").read_text()


def squares_data_text(problem: Problem) -> str:
    """The .dzn of data/squares.mzn: the squares formulation (`model/squares.py`), 1-based."""
    from ..model.squares import squares_model

    sm = squares_model(problem)

    def sets(groups: Sequence[Sequence[int]]) -> str:
        return "[" + ", ".join("{" + ", ".join(str(i + 1) for i in g) + "}" for g in groups) + "]"

    text = [
        f"% nqueens_cp: n = {problem.n}, rows = {problem.rows}, piece = {problem.piece}, torus = "
        f"{str(problem.torus).lower()}, the squares formulation (squares 1-based)",
        f"m = {problem.rows};",
        f"n = {problem.n};",
        f"nsq = {len(sm.squares)};",
        f"square = {_table([(r + 1, c + 1) for r, c in sm.squares], 2)};",
        f"nrows = {len(sm.exactly_one)};",
        f"row = {sets(sm.exactly_one)};",
        f"nlines = {len(sm.at_most_one)};",
        f"line = {sets(sm.at_most_one)};",
        f"napart = {len(sm.apart)};",
        f"apart = {_table([(a + 1, b + 1) for a, b in sm.apart], 2)};",
        "fixed = {" + ", ".join(str(i + 1) for i in sm.fixed) + "};",
        f"nregions = {len(sm.regions)};",
        f"region = {sets(sm.regions)};",
        f"pieces = {sm.pieces};",
        f"npawnsq = {len(sm.pawn_at)};",
        f"pawnat = [{', '.join(str(i + 1) for i in sm.pawn_at)}];",
        f"pawns = {sm.pawns};",
        f"nsep = {len(sm.separated)};",
        f"sep = {_table([(a + 1, b + 1) for a, b, _ in sm.separated], 2)};",
        f"between = {sets([between for _, _, between in sm.separated])};",
    ]
    return "\n".join(text) + "\n"


def optimum_data_text(problem: Problem, task: str, independent: bool, target: int = 0) -> str:
    """The .dzn of data/optimum.mzn (`formulations.optimum_model`), 1-based; `target` above 0
    fixes the number of pieces (to list the optimal placements)."""
    from ..model.squares import optimum_model

    sm, covered = optimum_model(problem, task == "dominate")

    def sets(groups: Sequence[Sequence[int]]) -> str:
        return "[" + ", ".join("{" + ", ".join(str(i + 1) for i in g) + "}" for g in groups) + "]"

    quiet = task == "max" or independent
    text = [
        f"% nqueens_cp: {task}, n = {problem.n}, rows = {problem.rows}, piece = {problem.piece} (squares 1-based)",
        f"nsq = {len(sm.squares)};",
        f"square = {_table([(r + 1, c + 1) for r, c in sm.squares], 2)};",
        "fixed = {" + ", ".join(str(i + 1) for i in sm.fixed) + "};",
        f"quiet = {str(quiet).lower()};",
        f"nlines = {len(sm.at_most_one)};",
        f"line = {sets(sm.at_most_one)};",
        f"napart = {len(sm.apart)};",
        f"apart = {_table([(a + 1, b + 1) for a, b in sm.apart], 2)};",
        f"ncover = {len(covered)};",
        f"cover = {sets(covered)};",
        f"most = {str(task == 'max').lower()};",
        f"target = {target};",
    ]
    return "\n".join(text) + "\n"


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
