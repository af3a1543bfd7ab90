"""Counting by symmetry classes of ring constellations: every solution counted once per class
of the symmetries the problem keeps, with a fraction of the search.

Ring k is rows k and m-1-k and columns k' and n-1-k' of an m x n board (k = k' on a square).
Every solution has one piece on each of those rows, and on a square one on each of those
columns (a rectangle may leave a column empty), so one constellation (a, b, c, d): the columns
of its pieces in rows k and m-1-k, and the rows of its pieces in columns k' and n-1-k' (-1: the
column is empty; a piece where a ring row meets a ring column counts for both). The symmetries
of the board map the ring onto itself, so they act on constellations, and a solution's image has
the image constellation. So the total is the sum, over one representative per class of
constellations (its image smallest in the order `_key`, chosen to make the search cheap), of its
completions times the size of its class. (After Preusser and Engelhardt's Q27 project, which
pins the two outer rings of the square under all 8 symmetries.)

The group is whatever the problem keeps (`symmetry.problem_symmetries`): all 8 for every leaper
and rider on a square; the half turn and the two transpositions for a square whose one-way lines
run along diagonals; the half turn alone for other one-way lines; the two reflections and the
half turn on a rectangle. Any piece on a plain board that is not a torus is counted this way
(a torus counts by its translations instead: tables.first_rows): the constellations are valid
quadruples by the model's own attack table (`attack_table`), and each class is searched by the
generic kernel (`kernels.generic`), with what the four pieces attack taken out of every row first.
Plain queens have their own compiled ring count (`count_ring`).

Which ring is free, and it matters: the innermost, k = (m-2) // 2 (and (n-2) // 2 for the
columns), is the default. Four queens pinned near the centre attack more squares, in every row,
from the first row searched; border queens (ring 0) leave the middle rows, where the tree is
widest, to the search. The figures per ring:
docs/benchmarks.md § Constellations on the innermost ring.

Symmetric solutions (for --unique, under all 8 symmetries) come out of the same run: no
solution of queen-like pieces is fixed by a reflection (a queen and its mirror image would share
a diagonal), so only rotations can fix one, and a solution fixed by a rotation has a
constellation fixed by it. For plain queens one search over half boards counts them
(count_point_symmetric); on other boards the rare constellations fixed by rot180 (or rot90)
have their completions enumerated and tested. By Burnside, classes = (Q + P + 2R) / 8 with Q all
solutions, P those fixed by rot180 and R those fixed by rot90.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ....model.problem import Problem
from ....model.symmetry import NAMES, TABLE, problem_symmetries
from ....run import aot
from ...base import Deadline
from ...watch import FLAG, NODES
from ..tables import attacks, innermost_ring, moves, pinned_masks, ring_lines
from .base import Counts, Items, Split, fingerprint, warm

#: Bits of the `fixed` flags: which rotations map a constellation onto itself; SYMMETRIC marks
#: the item that counts the solutions fixed by rotations directly (plain queens).
FIXED_BY_ROT180, FIXED_BY_ROT90, SYMMETRIC = 1, 2, 4

#: The largest board: the half-turn search keeps its diagonals in one 64-bit word.
MAX_N = 32


def queen_like(problem: Problem) -> bool:
    """A piece that rides the diagonals: no reflection fixes a solution (a piece and its mirror
    image would share a diagonal), so the classes follow from Q, P and R (see the module)."""
    return problem.rule.classic and problem.rule.diagonals


def plain_queens(problem: Problem) -> bool:
    """Queens on a plain square board: the compiled ring count (`count_ring`) serves them."""
    return queen_like(problem) and not problem.rule.knight and not problem.torus and problem.square


@dataclass(frozen=True)
class Constellations:
    """The numbered sub-problems of one board: items[i] = (a, b, c, d), a canonical constellation
    of ring `ring`, counted weights[i] times (its class size); fixed[i] says which rotations map
    it onto itself (FIXED_BY_* bits, kept on boards whose solutions are enumerated), or that the
    item is the search for the solutions fixed by rotations (SYMMETRIC, items[i] = -1s)."""

    n: int
    ring: int
    items: np.ndarray
    weights: np.ndarray
    fixed: np.ndarray
    #: Every item's row masks for the generic kernel (`pinned_masks`), made at once: one call
    #: per item cost more than a small class's search. None for plain queens (count_ring).
    masks: np.ndarray | None = None

    def __len__(self) -> int:
        return self.items.shape[0]

    def digest(self) -> str:
        """What the numbering means, for checkpoint fingerprints: a checkpoint made with another
        list of sub-problems (another ring, another order of representatives) is refused."""
        h = hashlib.sha256(str(self.ring).encode())
        for array in (self.items, self.weights, self.fixed):
            h.update(np.ascontiguousarray(array, np.int64).tobytes())
        return h.hexdigest()[:16]


def _image(n: int, ring: int, name: str, a, b, c, d, rows: int | None = None) -> tuple[np.ndarray, ...]:
    """The constellations (a, b, c, d) of ring `ring` under one symmetry of TABLE, vectorized; on
    a board of `rows` < n rows (the columns' ring then the innermost), a symmetry that does not
    transpose."""
    transpose, flip_r, flip_c = TABLE[name]
    m = n if rows is None else rows
    lo, hi, left, right = ring_lines(m, n, ring)
    out = [np.full_like(a, -1) for _ in range(4)]
    for r, col in ((lo, a), (hi, b), (c, left), (d, right)):
        r = np.broadcast_to(r, a.shape)
        col = np.broadcast_to(col, a.shape)
        there = r >= 0  # an empty ring column has no image
        r2, c2 = (col, r) if transpose else (r, col)
        r2 = m - 1 - r2 if flip_r else r2
        c2 = n - 1 - c2 if flip_c else c2
        out[0] = np.where(there & (r2 == lo), c2, out[0])
        out[1] = np.where(there & (r2 == hi), c2, out[1])
        out[2] = np.where(there & (c2 == left), r2, out[2])
        out[3] = np.where(there & (c2 == right), r2, out[3])
    return tuple(out)


def _lexicographic(n: int, a, b, c, d) -> np.ndarray:
    """(a, b, c, d) in lexicographic order, an empty ring column (-1) first."""
    return ((a * n + b) * (n + 1) + c + 1) * (n + 1) + d + 1


def _key(n: int, a, b, c, d) -> np.ndarray:
    """The order whose smallest image represents a class. Any total order counts right; this one
    makes the search cheap: the queens of the ring's columns as high on the board as their class
    allows (pinned rows met early prune the search from its first rows), then the queen of the
    ring's first row near the middle, then (a, b, c, d) to make it total.
    benchmarks/bench_constellations.py measures it against the lexicographic order."""
    order = (np.maximum(c, d) + 1) * n + np.abs(2 * a - n + 1)
    return order * (n * (n + 1)) ** 2 + _lexicographic(n, a, b, c, d)


@lru_cache(maxsize=16)
def constellations(problem: Problem, key: Callable[..., np.ndarray] = _key, ring: int | None = None) -> Constellations:
    """The canonical constellations of ring `ring` (default: the innermost; on a rectangle only
    that) of a plain board (at least 2 rows and 4 columns), under the symmetries the problem
    keeps, each class represented by its image smallest under `key`, in a fixed order."""
    m, n = problem.rows, problem.n
    if ring is not None and not problem.square:
        raise ValueError(f"a {problem.shape} board counts on its innermost ring only")
    k = innermost_ring(m) if ring is None else ring
    if not 0 <= k <= innermost_ring(m):
        raise ValueError(f"ring must be 0..{innermost_ring(m)} for n = {n}, got {k}")
    lo, hi, left, right = ring_lines(m, n, k)
    group = problem_symmetries(problem)
    every = np.arange(n, dtype=np.int64)
    rows = every if problem.square else np.arange(-1, m, dtype=np.int64)  # -1: an empty column
    a, b, c, d = (x.ravel() for x in np.meshgrid(every, every, rows, rows, indexing="ij"))
    # a piece where a ring row meets a ring column is the piece of both
    ok = ((a == left) == (c == lo)) & ((a == right) == (d == lo)) & ((b == left) == (c == hi))
    ok &= (b == right) == (d == hi)
    squares = ((lo, a, True), (hi, b, True), (c, left, c >= 0), (d, right, d >= 0))
    for i in range(4):
        for j in range(i + 1, 4):
            (r1, c1, in1), (r2, c2, in2) = squares[i], squares[j]
            ok &= ~(attacks(problem, np.maximum(r1, 0), c1, np.maximum(r2, 0), c2) & in1 & in2)
    a, b, c, d = a[ok], b[ok], c[ok], d[ok]
    own = key(n, a, b, c, d)
    canonical = np.ones(own.shape, bool)
    stabilizer = np.zeros(own.shape, np.int64)
    fixed = np.zeros(own.shape, np.int64)
    for name in group:
        other = key(n, *_image(n, k, name, a, b, c, d, m))
        canonical &= own <= other
        stabilizer += other == own
        if name == "rot180":
            fixed |= np.where(other == own, FIXED_BY_ROT180, 0)
        elif name == "rot90":
            fixed |= np.where(other == own, FIXED_BY_ROT90, 0)
    keep = np.flatnonzero(canonical)
    items = np.stack([a[keep], b[keep], c[keep], d[keep]], axis=1)
    weights = len(group) // stabilizer[keep]
    # the rotation flags serve --unique, which takes classes under all 8 symmetries
    fixed = fixed[keep] if queen_like(problem) and group == NAMES else np.zeros(keep.size, np.int64)
    if plain_queens(problem):  # the solutions fixed by rotations: one search
        items = np.vstack([items, np.full((1, 4), -1, np.int64)])
        weights = np.append(weights, 0)
        fixed = np.append(np.zeros(keep.size, np.int64), SYMMETRIC)
    items = np.ascontiguousarray(items, np.int64)
    masks = None if plain_queens(problem) else pinned_masks(problem, k, items)
    return Constellations(n, k, items, weights.astype(np.int64), fixed.astype(np.int64), masks)


def _enumerated(problem: Problem, cons: Constellations, i: int, stop: np.ndarray, deadline: Deadline | None) -> Counts:
    """Sub-problem i's weighted completions, those fixed by rot180 and those fixed by rot90, by
    enumerating its completions (the classes a rotation fixes, on variants' boards); the
    enumeration's placements are added to stop[NODES]."""
    from ..searches import enumerate_arrays

    assert cons.masks is not None
    n = problem.n
    flags = int(cons.fixed[i])
    total = p = r = 0
    rows = np.arange(n)
    clock = deadline or Deadline("bitmask", None)  # pool workers are stopped by their parent
    stats: dict[str, int] = {}
    try:
        for batch in enumerate_arrays(problem, clock, stats, cons.masks[i]):
            total += batch.shape[0]
            if flags & FIXED_BY_ROT180:
                p += int(np.all(batch[:, ::-1] == n - 1 - batch, axis=1).sum())
            if flags & FIXED_BY_ROT90:  # (r, s[r]) -> (s[r], n-1-r): fixed when s[s[r]] = n-1-r
                r += int(np.all(np.take_along_axis(batch, batch.astype(np.int64), 1) == n - 1 - rows, 1).sum())
    finally:
        stop[NODES] += stats.get("nodes", 0)
    w = int(cons.weights[i])
    return Counts(w * total, 0, w * p, w * r)


def _counted(
    problem: Problem, cons: Constellations, part: np.ndarray, stop: np.ndarray, deadline: Deadline | None
) -> int:
    """The weighted completions of sub-problems `part` (searched, not enumerated), all of them in
    one compiled call: plain queens by the ring count, every other piece and board on the pinned
    masks by `searches.count_into` (the generic kernel, or the piece's own; a hand-over between
    them is a second call). A call stopped by stop[FLAG] leaves its counts partial (the caller
    checks)."""
    out = np.zeros(part.size, np.int64)
    if plain_queens(problem):
        aot.kernels(RINGS).count_ring(problem.n, cons.ring, cons.items[part], cons.weights[part], out, stop)
    else:
        from ..searches import count_into

        assert cons.masks is not None
        count_into(cons.masks[part], *moves(problem), cons.weights[part], out, stop, deadline)
    return int(out.sum())


Context = tuple[Problem, Constellations]


def run(context: Context, indices: np.ndarray, stop: np.ndarray, deadline: Deadline | None = None) -> Counts:
    """Sub-problems `indices`' weighted contributions to (Q, P, R): all solutions, those fixed
    by rot180, those fixed by rot90. The searched ones in one compiled call, then each other
    one: enumerated (a rotation fixes its class) or the search for the solutions rotations fix
    (SYMMETRIC)."""
    problem, cons = context
    flags = cons.fixed[indices]
    total = Counts(_counted(problem, cons, indices[flags == 0], stop, deadline))
    for i in indices[flags != 0].tolist():
        if stop[FLAG]:
            break
        if cons.fixed[i] == SYMMETRIC:
            p, r = aot.kernels(RINGS).count_point_symmetric(problem.n, stop)
            total = total.plus(Counts(0, 0, int(p), int(r)))
        else:
            total = total.plus(_enumerated(problem, cons, i, stop, deadline))
    return total


def item_info(cons: Constellations, i: int) -> dict[str, Any]:
    """What a checkpoint records beside sub-problem i's count: its class and weight."""
    a, b, c, d = (int(v) for v in cons.items[i])
    return {"ring": cons.ring, "a": a, "b": b, "c": c, "d": d, "weight": int(cons.weights[i])}


#: Sub-problems counted per compiled call in this process (progress is reported between calls).
SLICE = 32


def items(problem: Problem, cons: Constellations | None = None) -> Items:
    """The sub-problems as numbered work items; the fingerprint names the list itself, so a
    checkpoint of another numbering is refused rather than mixed in."""
    cons = constellations(problem) if cons is None else cons
    return Items(
        fingerprint(problem, 0, Split.CONSTELLATIONS) | {"depth": None, "sub_problems": cons.digest()},
        len(cons),
        run,
        (problem, cons),
        lambda: load_kernels(problem),
        lambda i: item_info(cons, i),
        per_call=SLICE,
    )


#: The ring kernels that count plain queens, compiled ahead of time where they can be
#: (`run.aot`): the everyday counts of n = 13 to 15 then load no numba.
RINGS = aot.Group(
    "nqueens_rings",
    "nqueens_cp.backends.bitmask.kernels.rings",
    ("count_ring", "count_point_symmetric"),
    f"{__name__}:load_ring_kernels",
)


def load_ring_kernels() -> None:
    """Both ring kernels loaded (and so typed: n = 8 has plain and point-symmetric items),
    compiled ahead of time first where that is still to do (`aot.ensure`)."""
    aot.ensure(RINGS)
    small = Problem(8)
    cons = constellations(small)
    warm(run, (small, cons), len(cons))


def load_kernels(problem: Problem) -> None:
    """Load the compiled kernels in this process (before forking workers that share them)."""
    if plain_queens(problem):
        load_ring_kernels()
        return
    from ..kernels import generated

    small = Problem(8, problem.piece, torus=problem.torus)  # one kernel serves every board shape
    cons = constellations(small)
    warm(run, (small, cons), len(cons))
    generated.CACHE.chosen(generated.key(*moves(problem), problem.rows))  # the piece's, if on disk
