"""The bitmask backend: our hand-written backtracker, the primary enumerator and the fastest.

Row-by-row search over per-row bitmasks (see `_bitkernels`). Boards up to 64 columns run in
numba-compiled kernels; larger boards fall back to the same search on Python integers, so no
board size is refused for lack of bits (only for lack of time).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np

from ..problem import Problem, Solution
from .base import Backend, BackendError, Outcome, Status, TimeLimitReached

#: Boards up to this many columns fit one uint64 per row and run compiled.
MAX_COMPILED_N = 64

#: Enumeration hands solutions back in batches that start small (a `first` costs one
#: solution) and double up to this size (a full enumeration pays little per call).
MAX_BATCH = 8192


def masks_array(problem: Problem) -> np.ndarray:
    """The problem's row masks as the uint64 array the compiled kernels take."""
    return np.array(problem.row_masks, dtype=np.uint64)


def _python_solutions(problem: Problem) -> Iterator[Solution]:
    """The same row-by-row search on Python integers, for boards wider than 64 columns (and
    small counts in a process that has not paid for numba)."""
    n, masks, rule, torus = problem.n, problem.row_masks, problem.rule, problem.torus
    full = (1 << n) - 1

    def shift(v: int, s: int) -> int:  # columns move by s (wrapping round a torus)
        if torus:
            s %= n
            return ((v << s) | (v >> (n - s))) & full
        return (v << s) & full if s >= 0 else v >> -s

    place, cols, d1, d2, k1, k2, avail = ([0] * n for _ in range(7))
    avail[0] = masks[0]
    r = 0
    while True:
        a = avail[r]
        if not a:
            if r == 0:
                return
            r -= 1
            continue
        bit = a & -a
        avail[r] = a ^ bit
        place[r] = bit.bit_length() - 1
        if r == n - 1:
            if not (rule.knight and torus) or problem.is_solution(place):
                yield tuple(place)
            continue
        c = cols[r] | bit
        x = shift(d1[r] | bit, 1) if rule.diagonals else 0
        y = shift(d2[r] | bit, -1) if rule.diagonals else 0
        n1 = k2[r] | shift(bit, 2) | shift(bit, -2) if rule.knight else 0
        n2 = shift(bit, 1) | shift(bit, -1) if rule.knight else 0
        r += 1
        cols[r], d1[r], d2[r], k1[r], k2[r] = c, x, y, n1, n2
        avail[r] = masks[r] & ~(c | x | y | n1)


def enumerate_arrays(problem: Problem, masks: np.ndarray | None = None) -> Iterator[np.ndarray]:
    """Every solution, in lexicographic order, as batches (rows of an int16 array) from the
    resumable compiled kernel (n <= 64). Each yielded array is only valid until the next.
    `masks` narrows the problem's own row masks (a search restricted on purpose)."""
    from . import _bitkernels as k

    rule = problem.rule
    masks = masks_array(problem) if masks is None else masks
    state = k.new_state(masks)
    done = state[-1]
    batch = 1
    out = np.empty((batch, problem.n), dtype=np.int16)
    while not done[1]:
        if out.shape[0] != batch:
            out = np.empty((batch, problem.n), dtype=np.int16)
        got = k.enumerate_batch(masks, rule.diagonals, rule.knight, problem.torus, *state, out)
        if got:
            yield out[:got]
        batch = min(batch * 2, MAX_BATCH)


Subproblem = tuple[int, int, int, int, int]  # (weight, row, cols, d1, d2)


def split(problem: Problem, depth: int) -> list[Subproblem]:
    """The search cut into independent sub-problems: every placement of the first `depth` rows,
    as the attack masks on the next row. When the problem is mirror-symmetric only first-row
    columns in the left half are kept, with weight 2 (the middle column of odd n weight 1).
    Their weighted completion counts add up to the exact total."""
    masks, n = problem.row_masks, problem.n
    full = (1 << n) - 1
    diag, mirror = problem.rule.diagonals, problem.is_mirror_symmetric()
    states: list[Subproblem] = [(1, 0, 0, 0, 0)]
    for _ in range(min(depth, n - 1)):
        deeper = []
        for w, r, cols, d1, d2 in states:
            a = masks[r] & ~(cols | d1 | d2)
            while a:
                bit = a & -a
                a ^= bit
                weight = w
                if mirror and r == 0:
                    middle = 2 * (bit.bit_length() - 1) + 1 - n  # < 0 left half, 0 middle
                    if middle > 0:
                        break
                    weight = 2 * w if middle < 0 else w
                x, y = (((d1 | bit) << 1) & full, (d2 | bit) >> 1) if diag else (0, 0)
                deeper.append((weight, r + 1, cols | bit, x, y))
        states = deeper
    return states


#: Placements the constrained-board search makes between two looks at the clock (and at Ctrl-C):
#: a fraction of a second.
MRV_BUDGET = 500_000

#: A process that has not loaded the compiled kernels yet counts queen-like boards up to this
#: size in Python: n = 10 takes 0.04 s there, while importing numba and loading the kernel from its
#: cache takes about 0.85 s (benchmarks/bench_startup.py). Once loaded, the kernels are used.
PYTHON_COUNT_MAX_N = 10

#: Boards at least this large are counted on a process pool when workers > 1; below it the
#: whole count takes less than a pool costs to start.
PARALLEL_FROM_N = 13


class BitmaskBackend(Backend):
    """Options: `workers`, the processes a count may use (default: every core the process may
    run on; 1 counts in this process), `progress`, a callback (done, total) over the
    sub-problems of a count, and `time_limit` in seconds for `first` and `count` on
    constrained boards (reached: unknown, never "no solution")."""

    name = "bitmask"
    options = frozenset({"workers", "progress", "time_limit"})

    @staticmethod
    def constrained(problem: Problem) -> bool:
        """Blocked or fixed squares on a queen or rook board up to 64 columns: `first` searches
        most constrained line first (`_mrvkernel`), and so does `count` on boards more than half
        unusable; plain boards keep the row-order search."""
        return not problem.is_plain and not problem.torus and not problem.rule.knight and problem.n <= MAX_COMPILED_N

    def _mrv(self, problem: Problem, stop_at: int) -> tuple[int, Solution | None]:
        """(solutions, the last one found) by the constrained-board search, in budgeted steps."""
        import time

        from . import _mrvkernel as k

        masks = masks_array(problem)
        state = k.new_state(problem.n)
        k.start(masks, *state)
        place = np.zeros(problem.n, np.int64)
        limit = self.settings.get("time_limit")
        began = time.monotonic()
        found, last = 0, None
        while not state[-1][1]:
            got, _ = k.run(masks, problem.rule.diagonals, *state, stop_at - found if stop_at else 0, MRV_BUDGET, place)
            if got:
                found += got
                last = tuple(int(c) for c in place)
                if found == stop_at:
                    break
            if limit and time.monotonic() - began > limit:
                raise TimeLimitReached(self.name, limit, found)
        return found, last

    def solutions(self, problem: Problem) -> Iterator[Solution]:
        if problem.n > MAX_COMPILED_N:
            yield from _python_solutions(problem)
            return
        for batch in enumerate_arrays(problem):
            yield from map(tuple, batch.tolist())

    def first(self, problem: Problem) -> Outcome:
        """Above 64 columns a plain queen or rook board gets the explicit O(n) construction
        (a search would take far too long on huge boards); otherwise the first solution in
        lexicographic order."""
        if self.constrained(problem):
            try:
                found, sol = self._mrv(problem, stop_at=1)
            except TimeLimitReached:
                return Outcome(Status.TIME_LIMIT)
            return Outcome(Status.SOLVED, sol) if found else Outcome(Status.NO_SOLUTION)
        plain = problem.is_plain and not problem.torus and problem.piece in ("queen", "rook")
        if problem.n <= MAX_COMPILED_N or not plain:
            return super().first(problem)
        from .. import construct

        sol = construct.queens(problem.n) if problem.piece == "queen" else construct.rooks(problem.n)
        why = problem.explain(sol)
        if why:  # the construction is proven; this guards our transcription of it
            raise BackendError(f"internal error: constructed placement {why}")
        return Outcome(Status.SOLVED, sol)

    def count(self, problem: Problem) -> int:
        if problem.n > MAX_COMPILED_N:
            return super().count(problem)
        if (
            problem.n <= PYTHON_COUNT_MAX_N
            and problem.rule.diagonals  # rooks: 10! = 3.6 million solutions, seconds in Python
            and f"{__package__}._bitkernels" not in sys.modules
        ):
            return sum(1 for _ in _python_solutions(problem))
        if self.constrained(problem) and sum(m.bit_count() for m in problem.row_masks) < problem.n**2 / 2:
            # Counting visits every solution; the constrained search pays per solution, the row
            # search does not (its last row is counted, not placed). Measured: the constrained
            # search wins once over half the board is unusable (n = 20, 200 blocked: 0.64 s
            # against 1.12 s), the row search below that (n = 13, one blocked: 0.07 s against 1.05 s).
            return self._mrv(problem, stop_at=0)[0]
        if problem.rule.knight or problem.torus:
            # Variants have no count kernel: count the enumerated batches.
            return sum(batch.shape[0] for batch in enumerate_arrays(problem))
        from .. import parallel

        workers = self.settings.get("workers") or parallel.default_workers()
        if problem.n < PARALLEL_FROM_N:
            workers = 1
        # On a pool, three rows deep: ~n^3/6 sub-problems keep every worker busy to the end.
        # In this process, two rows deep: ~n^2/2 calls of a few seconds at most up to n = 18,
        # so Ctrl-C is seen between calls (a compiled call cannot be interrupted).
        subs = split(problem, 3 if workers > 1 else 2)
        progress = self.settings.get("progress")
        return parallel.count_parallel(masks_array(problem), problem.rule.diagonals, subs, workers, progress)
