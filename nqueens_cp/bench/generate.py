"""Random blocked n-queens instances by the CSPLib prob080 random model.

The squares are visited in a random order (seeded) and each is blocked if its row and its
column keep at least `min_free` free squares afterwards, until `blocks` squares are blocked.
Hard instances sit near the threshold, with most squares blocked (for example n = 28 with
595 blocks, n = 56 with 2734).
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from ..io.formats import write_param
from ..model.problem import InvalidProblem, NQueensError, Problem
from ..run.files import replacing

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


def instance_seed(seed: int, n: int, blocks: int, index: int) -> int:
    """The seed of one instance of a set: fixed by the set's seed and the instance's place in
    it, so a set can be regrown (or extended) file for file."""
    digest = hashlib.blake2b(f"{seed}:{n}:{blocks}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def blocked_set(
    folder: Path, shapes: list[tuple[int, int]], count: int, min_free: int, seed: int, force: bool = False
) -> int:
    """`count` instances for each (n, blocks) in `shapes`, written to `folder` as
    n{n}-b{blocks}-{index}.param; returns how many files were written. Every instance is made,
    and every name checked, before the first file is written (a late failure leaves no partial
    set); an existing file is replaced only with `force`; each file is written whole or not at
    all."""
    if len(set(shapes)) < len(shapes):
        twice = next(s for s in shapes if shapes.count(s) > 1)
        raise NQueensError(f"the shape n = {twice[0]}, {twice[1]} blocks is given twice")
    width = len(str(count - 1))
    files = [
        (
            folder / f"n{n}-b{blocks}-{i:0{width}d}.param",
            blocked_instance(n, blocks, min_free, instance_seed(seed, n, blocks, i)),
        )
        for n, blocks in shapes
        for i in range(count)
    ]
    there = [path for path, _ in files if path.exists()]
    if there and not force:
        raise NQueensError(f"{there[0]} exists ({len(there)} of the set's files do): add --force to replace them")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NQueensError(f"cannot create {folder}: {exc.strerror}") from None
    for path, p in files:
        try:
            with replacing(path) as (out, _):
                out.write(write_param(p).encode())
        except OSError as exc:
            raise NQueensError(f"cannot write {path}: {exc.strerror}") from None
    return len(files)
