"""Random blocked n-queens instances by the CSPLib prob080 random model.

The squares are visited in a random order (seeded) and each is blocked if its row and its
column keep at least `min_free` free squares afterwards, until `blocks` squares are blocked.
Hard instances sit near the threshold, with most squares blocked (for example n = 28 with
595 blocks, n = 56 with 2734).
"""

from __future__ import annotations

import random

from .problem import InvalidProblem, Problem

#: The generator lists all n^2 squares; boards this size are far past what search decides.
MAX_GENERATED_N = 1000


def blocked_instance(n: int, blocks: int, min_free: int = 1, seed: int = 0) -> Problem:
    if not 1 <= n <= MAX_GENERATED_N:
        raise InvalidProblem(f"board size {n} is out of range 1..{MAX_GENERATED_N} for the generator")
    if blocks < 0 or min_free < 0:
        raise InvalidProblem("blocks and min-free must be >= 0")
    rng = random.Random(seed)
    squares = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(squares)
    row_free = [n] * n
    col_free = [n] * n
    blocked = []
    for r, c in squares:
        if len(blocked) == blocks:
            break
        if row_free[r] > min_free and col_free[c] > min_free:
            row_free[r] -= 1
            col_free[c] -= 1
            blocked.append((r, c))
    if len(blocked) < blocks:
        raise InvalidProblem(
            f"cannot block {blocks} squares of a {n}x{n} board keeping {min_free} free in every row and column "
            f"(stopped at {len(blocked)})"
        )
    return Problem(n, blocked=blocked)
