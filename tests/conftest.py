"""Shared test helpers. Ground truth here is written independently of the package: an attack
check and a brute force over permutations, the OEIS tables, closed forms and Ryser's formula."""

from __future__ import annotations

from itertools import combinations, permutations
from pathlib import Path

import pytest

from nqueens_cp import Problem

#: OEIS A000170: solutions of n-queens, n = 1..
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512]
#: OEIS A002562: fundamental solutions (up to the 8 symmetries of the square), n = 1..
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CSPLIB_DIR = SHARED / "data" / "csplib-blocked-10"


def csplib_counts() -> dict[str, int]:
    """The instances' solution counts from the independent brute force that shipped them."""
    table = CSPLIB_DIR / "counts.tsv"
    if not table.exists():
        pytest.skip(f"{table} is not here")
    rows = [line.split("\t") for line in table.read_text().splitlines()[1:] if line.strip()]
    return {name: int(count) for name, _n, _blocks, count in rows}


def attacks(piece: str, a: tuple[int, int], b: tuple[int, int], n: int = 0, torus: bool = False) -> bool:
    """Written out from the definitions: on a torus, moves wrap (each difference mod n)."""
    dr, dc = a[0] - b[0], a[1] - b[1]
    if dr == 0 or dc == 0:
        return True
    if torus:
        diag = (dr - dc) % n == 0 or (dr + dc) % n == 0
        knight = any(
            (dr - x) % n == 0 and (dc - y) % n == 0 for x in (1, -1, 2, -2) for y in (1, -1, 2, -2) if abs(x) != abs(y)
        )
    else:
        diag = abs(dr) == abs(dc)
        knight = {abs(dr), abs(dc)} == {1, 2}
    if piece == "queen":
        return diag
    if piece == "superqueen":
        return diag or knight
    return False


def brute_force(n: int, piece: str = "queen", blocked=(), fixed=(), torus: bool = False) -> set[tuple[int, ...]]:
    """Every permutation of the columns, filtered by the rules written out again here."""
    blocked, fixed = set(blocked), set(fixed)
    out = set()
    for cols in permutations(range(n)):
        squares = list(enumerate(cols))
        if any(sq in blocked for sq in squares) or not fixed <= set(squares):
            continue
        if any(attacks(piece, a, b, n, torus) for a, b in combinations(squares, 2)):
            continue
        out.add(cols)
    return out


def brute_force_problem(p: Problem) -> set[tuple[int, ...]]:
    return brute_force(p.n, p.piece, p.blocked, p.fixed, p.torus)
