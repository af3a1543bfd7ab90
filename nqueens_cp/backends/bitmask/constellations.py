"""Counting by symmetry classes of border constellations: every solution counted once per class
of the 8 symmetries of the square, with 1/8 of the search.

Every solution has one constellation: (a, b, c, d), the column of its queen in the first row and
in the last row, and the row of its queen in the first column and in the last column (a corner
queen counts for its row and its column). The 8 symmetries map border to border, so they act on
constellations, and a solution's image has the image constellation. So the total is the sum,
over one representative per class of constellations (its image smallest in the order `_key`,
chosen to make the search cheap), of its completions times the size of its class: 8, 4 or 2.
(After Preusser and Engelhardt's Q27 project, which pre-places the two outer rows and columns
on each side; one per side keeps the sub-problems few and the search ours.)

Symmetric solutions (for --unique) come out of the same run: no solution of queen-like pieces is
fixed by a reflection (a queen and its mirror image would share a diagonal), so only rotations
can fix one, and a solution fixed by a rotation has a constellation fixed by it. The rare
constellations fixed by rot180 (or rot90) have their completions enumerated and tested; by
Burnside, classes = (Q + P + 2R) / 8 with Q all solutions, P those fixed by rot180 and R those
fixed by rot90.

Sub-problems are numbered in a fixed order: from SPLIT_FROM_N on, each constellation is also cut
by the column of the second row's queen, so one compiled call stays short (Ctrl-C, time limits).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ...problem import Problem
from ...symmetry import NAMES, TABLE
from ..base import Deadline

if TYPE_CHECKING:
    from ...partition import Partition

#: From this n on, sub-problems also pin the second row: more, smaller items keep every worker
#: of a pool busy to the end.
SPLIT_FROM_N = 17

#: Bits of the `fixed` flags: which rotations map a constellation onto itself; SYMMETRIC marks
#: the item that counts the solutions fixed by rotations directly (plain queens).
FIXED_BY_ROT180, FIXED_BY_ROT90, SYMMETRIC = 1, 2, 4

#: The largest board: the half-turn search keeps its diagonals in one 64-bit word.
MAX_N = 32


@dataclass(frozen=True)
class Constellations:
    """The numbered sub-problems of one board. items[i] = (a, b, c, d, e): with b = -1 a group
    searched once for every last-row column b, weights[i, b] being the class size of canonical
    constellation (a, b, c, d) (0 for the others); with b >= 0 one constellation fixed by a
    rotation (fixed[i] says which: FIXED_BY_* bits), weighted by weights[i, b] and enumerated.
    e: the column of the queen of row 1, or -1."""

    n: int
    items: np.ndarray
    weights: np.ndarray
    fixed: np.ndarray

    def __len__(self) -> int:
        return self.items.shape[0]

    def digest(self) -> str:
        """What the numbering means, for checkpoint fingerprints: a checkpoint made with another
        list of sub-problems (another order of representatives, another split) is refused."""
        h = hashlib.sha256()
        for array in (self.items, self.weights, self.fixed):
            h.update(np.ascontiguousarray(array, np.int64).tobytes())
        return h.hexdigest()[:16]


def _attacks(problem: Problem, r1, c1, r2, c2) -> np.ndarray:
    """Vectorized Problem.attacks for distinct squares (equal squares: no attack)."""
    n = problem.n
    dr, dc = r2 - r1, c2 - c1
    same = (dr == 0) & (dc == 0)
    hit = (dr == 0) | (dc == 0)
    if problem.rule.diagonals:
        if problem.torus:
            hit |= ((dr - dc) % n == 0) | ((dr + dc) % n == 0)
        else:
            hit |= (dr == dc) | (dr == -dc)
    if problem.rule.knight:
        for x, y in ((1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1)):
            if problem.torus:
                hit |= ((dr - x) % n == 0) & ((dc - y) % n == 0)
            else:
                hit |= (dr == x) & (dc == y)
    return hit & ~same


def _image(n: int, name: str, a, b, c, d) -> tuple[np.ndarray, ...]:
    """The constellations (a, b, c, d) under one symmetry of TABLE, vectorized."""
    transpose, flip_r, flip_c = TABLE[name]
    out = [np.full_like(a, -1) for _ in range(4)]
    for r, col in ((0, a), (n - 1, b), (c, 0), (d, n - 1)):
        r = np.broadcast_to(r, a.shape)
        col = np.broadcast_to(col, a.shape)
        r2, c2 = (col, r) if transpose else (r, col)
        r2 = n - 1 - r2 if flip_r else r2
        c2 = n - 1 - c2 if flip_c else c2
        out[0] = np.where(r2 == 0, c2, out[0])
        out[1] = np.where(r2 == n - 1, c2, out[1])
        out[2] = np.where(c2 == 0, r2, out[2])
        out[3] = np.where(c2 == n - 1, r2, out[3])
    return tuple(out)


def _lexicographic(n: int, a, b, c, d) -> np.ndarray:
    return ((a * n + b) * n + c) * n + d


def _key(n: int, a, b, c, d) -> np.ndarray:
    """The order whose smallest image represents a class. Any total order counts right; this one
    makes the search cheap: the border-column queens low on the board (their diagonals prune the
    deep rows, where the search tree is widest), the first row's queen near the middle, then the
    column queens' order, then (a, b, c, d) to make it total. benchmarks/bench_constellations.py
    measures it against the lexicographic order."""
    order = ((n - 1 - np.maximum(c, d)) * n + np.abs(2 * a - n + 1)) * (2 * n) + (d - c + n)
    return order * n**4 + _lexicographic(n, a, b, c, d)


@lru_cache(maxsize=16)
def constellations(problem: Problem, key: Callable[..., np.ndarray] = _key) -> Constellations:
    """The canonical constellations of a plain board whose rules keep all 8 symmetries (n >= 4),
    each class represented by its image smallest under `key`, with their sub-problem split, in a
    fixed order."""
    n = problem.n
    a, b, c, d = (x.ravel() for x in np.meshgrid(*[np.arange(n, dtype=np.int64)] * 4, indexing="ij"))
    # a corner queen is the queen of its row and of its column
    ok = ((a == 0) == (c == 0)) & ((a == n - 1) == (d == 0)) & ((b == 0) == (c == n - 1))
    ok &= (b == n - 1) == (d == n - 1)
    squares = ((0, a), (n - 1, b), (c, 0), (d, n - 1))
    for i in range(4):
        for j in range(i + 1, 4):
            ok &= ~_attacks(problem, *squares[i], *squares[j])
    a, b, c, d = a[ok], b[ok], c[ok], d[ok]
    own = key(n, a, b, c, d)
    canonical = np.ones(own.shape, bool)
    stabilizer = np.zeros(own.shape, np.int64)
    fixed = np.zeros(own.shape, np.int64)
    for name in NAMES:
        other = key(n, *_image(n, name, a, b, c, d))
        canonical &= own <= other
        stabilizer += other == own
        if name == "rot180":
            fixed |= np.where(other == own, FIXED_BY_ROT180, 0)
        elif name == "rot90":
            fixed |= np.where(other == own, FIXED_BY_ROT90, 0)
    keep = np.flatnonzero(canonical)
    a, b, c, d = a[keep], b[keep], c[keep], d[keep]
    weight = len(NAMES) // stabilizer[keep]
    fixed = fixed[keep]
    groups: dict[tuple[int, int, int], np.ndarray] = {}
    items, tables, flags = [], [], []
    plain = not (problem.torus or problem.rule.knight)
    for ai, bi, ci, di, wi, fi in zip(*(x.tolist() for x in (a, b, c, d, weight, fixed)), strict=True):
        if fi and not plain:  # fixed by a rotation: its own item, enumerated and tested
            table = np.zeros(64, np.int64)
            table[bi] = wi
            items.append((ai, bi, ci, di, -1))
            tables.append(table)
            flags.append(fi)
            continue
        table = groups.get((ai, ci, di))
        if table is None:
            table = groups[ai, ci, di] = np.zeros(64, np.int64)
            items.append((ai, -1, ci, di, -1))
            tables.append(table)
            flags.append(0)
        table[bi] = wi
    if plain:  # the solutions fixed by rotations: one search of their own
        items.append((-1, -1, -1, -1, -1))
        tables.append(np.zeros(64, np.int64))
        flags.append(SYMMETRIC)
    arrays = np.array(items, np.int64).reshape(-1, 5), np.array(tables).reshape(-1, 64), np.array(flags, np.int64)
    cons = Constellations(n, *arrays)
    return _split_second_row(cons) if n >= SPLIT_FROM_N else cons


def _split_second_row(cons: Constellations) -> Constellations:
    """Each plain group cut by the column of the second row's queen (items fixed by a rotation
    and the symmetric item stay whole; a cut that cannot hold a queen counts 0 in the kernel)."""
    n = cons.n
    items, tables, flags = [], [], []
    for (a, b, c, d, _), table, f in zip(cons.items.tolist(), cons.weights, cons.fixed.tolist(), strict=True):
        if f:
            cuts = [-1]
        elif 1 in (c, d):  # the second row holds a border queen: its column is known
            cuts = [0 if c == 1 else n - 1]
        else:
            cuts = [e for e in range(1, n - 1) if abs(e - a) > 1]
        for e in cuts:
            items.append((a, b, c, d, e))
            tables.append(table)
            flags.append(f)
    return Constellations(n, np.array(items, np.int64).reshape(-1, 5), np.array(tables), np.array(flags, np.int64))


def _masks(n: int, item: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The row masks of one sub-problem, for the enumerating kernel (the last row: the columns
    with a weight)."""
    a, _, c, d, e = (int(v) for v in item)
    full = (1 << n) - 1
    masks = np.full(n, full & ~1 & ~(1 << (n - 1)), dtype=np.uint64)
    if 0 < c < n - 1:
        masks[c] = 1
    if 0 < d < n - 1:
        masks[d] = 1 << (n - 1)
    masks[0] = 1 << a
    masks[n - 1] = sum(1 << b for b in range(n) if table[b])
    if e >= 0:
        masks[1] &= np.uint64(1 << e)
    return masks


def _enumerated(
    problem: Problem, item: np.ndarray, table: np.ndarray, flags: int, deadline: Deadline | None = None
) -> tuple[int, int, int]:
    """Weighted (completions, those fixed by rot180, those fixed by rot90) of one sub-problem, by
    enumerating its completions (variants, and constellations fixed by a rotation)."""
    from .rows import enumerate_arrays

    n = problem.n
    total = p = r = 0
    rows = np.arange(n)
    clock = deadline or Deadline("bitmask", None)  # pool workers are stopped by their parent
    for batch in enumerate_arrays(problem, clock, {}, _masks(n, item, table)):
        w = table[batch[:, -1]]
        total += int(w.sum())
        if flags & FIXED_BY_ROT180:
            p += int(w[np.all(batch[:, ::-1] == n - 1 - batch, axis=1)].sum())
        if flags & FIXED_BY_ROT90:  # (r, s[r]) -> (s[r], n-1-r): fixed when s[s[r]] = n-1-r
            r += int(w[np.all(np.take_along_axis(batch, batch.astype(np.int64), 1) == n - 1 - rows, 1)].sum())
    return total, p, r


def classes_item(context: tuple[Problem, Constellations], i: int) -> tuple[int, int, int]:
    """Sub-problem i's weighted contributions to (Q, P, R): all solutions, those fixed by rot180,
    those fixed by rot90."""
    problem, cons = context
    f = int(cons.fixed[i])
    if f == SYMMETRIC:
        from ..watch import NEVER
        from .rowkernels import count_point_symmetric

        p, r = count_point_symmetric(problem.n, NEVER)
        return 0, int(p), int(r)
    if f or problem.torus or problem.rule.knight:
        return _enumerated(problem, cons.items[i], cons.weights[i], f)
    from ..watch import NEVER
    from .rowkernels import count_constellations

    out = np.zeros(1, np.int64)
    count_constellations(problem.n, cons.items[i : i + 1, [0, 2, 3, 4]], cons.weights[i : i + 1], out, NEVER)
    return int(out[0]), 0, 0


def count_item(context: tuple[Problem, Constellations], i: int) -> int:
    """Sub-problem i's weighted count (a work item of nqueens_cp.partition)."""
    return classes_item(context, i)[0]


def item_info(cons: Constellations, i: int) -> dict[str, Any]:
    """What a checkpoint records beside sub-problem i's count: its class and weights."""
    a, b, c, d, e = (int(v) for v in cons.items[i])
    weights = {str(k): int(w) for k, w in enumerate(cons.weights[i]) if w}
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "weights": weights}


def partition(problem: Problem, cons: Constellations) -> Partition:
    """The sub-problems as numbered work items (pool, Dask, checkpoints); the fingerprint names
    the list itself, so a checkpoint of another numbering is refused rather than mixed in."""
    from ...partition import Partition
    from .split import fingerprint

    return Partition(
        fingerprint(problem, 0) | {"split": "constellations", "depth": None, "sub_problems": cons.digest()},
        len(cons),
        count_item,
        (problem, cons),
        lambda: load_kernels(problem),
        lambda i: item_info(cons, i),
    )


#: Groups counted per compiled call in this process (progress is reported between calls).
SLICE = 16


def classes_in_process(
    problem: Problem, cons: Constellations, deadline: Deadline, progress: Any = None
) -> tuple[int, int, int]:
    """(Q, P, R) summed over every sub-problem in this process, the plain groups SLICE at a time
    in one compiled call. A watcher stops a call on Ctrl-C or at the deadline (watch.py)."""
    from ..watch import watched
    from .rowkernels import count_constellations, count_point_symmetric

    q = p = r = 0
    plain = np.flatnonzero(cons.fixed == 0) if not (problem.torus or problem.rule.knight) else np.array([], int)
    others = np.setdiff1d(np.arange(len(cons)), plain)
    items = np.ascontiguousarray(cons.items[:, [0, 2, 3, 4]])
    done = 0
    with watched(deadline) as stop:
        for lo in range(0, plain.size, SLICE):
            part = plain[lo : lo + SLICE]
            out = np.zeros(part.size, np.int64)
            count_constellations(problem.n, items[part], np.ascontiguousarray(cons.weights[part]), out, stop)
            deadline.check(None)  # a slice stopped at the deadline: its counts are not taken
            q += int(out.sum())
            done += part.size
            if progress:
                progress(done, len(cons))
        for i in others.tolist():
            if cons.fixed[i] == SYMMETRIC:
                dp, dr = count_point_symmetric(problem.n, stop)
                dq = 0
            else:
                dq, dp, dr = _enumerated(problem, cons.items[i], cons.weights[i], int(cons.fixed[i]), deadline)
            deadline.check(None)
            q, p, r = q + dq, p + int(dp), r + int(dr)
            done += 1
            if progress:
                progress(done, len(cons))
    return q, p, r


def load_kernels(problem: Problem) -> None:
    """Load the compiled kernels in this process (before forking workers that share them)."""
    small = Problem(8, problem.piece, torus=problem.torus)
    classes_in_process(small, constellations(small), Deadline("bitmask", None))
