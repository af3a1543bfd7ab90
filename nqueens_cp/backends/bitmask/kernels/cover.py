"""The compiled search for dominating sets: the fewest pieces that occupy or attack every square
to cover, a uint64 a row (boards up to 64 columns).

Each node branches on one square u still uncovered: some piece of the set covers it, so the
children are the squares that could (`by[u]`, the squares whose piece covers u, less those
ruled out), and the u taken is the one with the fewest such squares, as Knuth's exact-cover
search chooses its column. Each set is reached once: the child that places the i-th square
rules out the first i - 1 for its whole subtree, so a set is found under the first of its
pieces that covers u. (Placing pieces in square order instead, the next anywhere up to the
last square that covers the first uncovered one, searched many times the nodes:
docs/benchmarks.md.)

Two bounds cut a branch that cannot end within `k` pieces: a row with more squares uncovered
than `spill` times the pieces left needs a piece of its own (a piece covers at most `spill`
squares of a row it does not stand in), so there can be no more such rows than pieces left;
and the pieces left must cover what is uncovered, at most `most` squares each. The last piece
is not branched on: the squares that take it are the allowed ones in `by[u]` of every
uncovered u, one AND a square (ended when nothing is left), and their number is the sets the
branch ends in. With `independent`, a piece may not stand on a square an earlier one attacks.

The search stops at the first set (`first`), counts them all (an `out` of no rows), or writes
them all (a set a row of `out`, as many rows as the count said); it stops early at stop[FLAG]
and adds its nodes to stop[NODES]. `branch` >= 0 names a work item: the root's child it
searches (-1: all). A count may weigh each set: with `scale` > 0, a set counts scale // a,
where a is how many of its pieces stand on the squares of `orbit`, plus `base` (a work item
cut by symmetries counts a set found under several of its images as a fraction of one each,
written over a common denominator: `partitions.cover`). tests/test_optimise.py holds it to
OEIS A075458, A075324, A002564, A002568 and a brute force.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...watch import FLAG, NODES
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import popcount as _popcount
from .bits import trailing_zeros


@njit(cache=True, inline="always")
def _hopeless(unc, left, spill, most):
    """Whether `left` more pieces cannot cover `unc` (see the module's bounds)."""
    total = 0
    crowded = 0
    for r in range(unc.shape[0]):
        got = _popcount(unc[r])
        total += got
        if got > spill * left:
            crowded += 1
    return crowded > left or total > most * left


@njit(cache=True, inline="always")
def _empty(words):
    some = _ZERO
    for r in range(words.shape[0]):
        some |= words[r]
    return some == _ZERO


@njit(cache=True, inline="always")
def _fewest_choices(n, by, unc, allow):
    """The uncovered square with the fewest allowed squares to cover it, and their number
    (ended early at one or none: nothing chooses better)."""
    best, chosen = 1 << 62, -1
    for r in range(unc.shape[0]):
        bits = unc[r]
        while bits != _ZERO:
            u = r * n + trailing_zeros(bits)
            bits &= bits - _ONE
            got = 0
            for rr in range(unc.shape[0]):
                got += _popcount(by[u, rr] & allow[rr])
            if got < best:
                best, chosen = got, u
                if got <= 1:
                    return chosen, best
    return chosen, best


@njit(cache=True, inline="always")
def _last_fits(n, by, unc, allow, into):
    """Into `into`, the allowed squares whose piece covers every square of `unc`; their number."""
    m = unc.shape[0]
    for r in range(m):
        into[r] = allow[r]
    for r in range(m):
        bits = unc[r]
        while bits != _ZERO:
            u = r * n + trailing_zeros(bits)
            bits &= bits - _ONE
            some = _ZERO
            for rr in range(m):
                into[rr] &= by[u, rr]
                some |= into[rr]
            if some == _ZERO:
                return 0
    total = 0
    for r in range(m):
        total += _popcount(into[r])
    return total


@njit(cache=True, inline="always")
def _write(out, row, chosen, d, last):
    """Set `row` of `out`: the pieces chosen[:d], then `last` where >= 0, then -1."""
    for i in range(d):
        out[row, i] = chosen[i]
    i = d
    if last >= 0:
        out[row, d] = last
        i += 1
    for j in range(i, out.shape[1]):
        out[row, j] = -1


@njit(cache=True, inline="always")
def _on(chosen, d, orbit, n, base):
    """`base` and how many of the pieces chosen[:d] stand on `orbit`'s squares."""
    a = base
    for i in range(d):
        a += np.int64((orbit[chosen[i] // n] >> np.uint64(chosen[i] % n)) & _ONE)
    return a


@njit(cache=True, inline="always")
def _keep_branch(cands, allow, which):
    """Keep only the `which`-th square of `cands`, those before it ruled out of `allow` as its
    earlier siblings would have been; False where there is no such branch."""
    seen = 0
    for r in range(cands.shape[0]):
        bits = cands[r]
        while bits != _ZERO:
            low = bits & (~bits + _ONE)
            bits &= bits - _ONE
            if seen == which:
                for rr in range(cands.shape[0]):
                    cands[rr] = low if rr == r else _ZERO
                return True
            allow[r] &= ~low
            seen += 1
    return False


@njit(cache=True, nogil=True)
def search(
    n, cover, by, attack, need, allow0, k, independent, spill, most, first, stop, out, branch, orbit, scale, base
):
    """The sets of at most `k` pieces (on squares `allow0` permits) that cover `need` (a row of
    bits a board row), each once (every set of the fewest pieces that cover is one): the
    number found, each written as a row of `out` (its squares r * n + c, -1 after them) while
    rows are left; with `first`, 1 at most. `branch` >= 0: only the sets below that child of
    the root (a work item). `scale` > 0 (a count, no rows
    written): each set weighed as the module says."""
    m = need.shape[0]
    unc = np.zeros((k + 1, m), np.uint64)
    allow = np.zeros((k + 1, m), np.uint64)
    cands = np.zeros((k + 1, m), np.uint64)
    chosen = np.zeros(k + 1, np.int64)
    fit = np.zeros(m, np.uint64)
    for r in range(m):
        unc[0, r] = need[r]
        allow[0, r] = allow0[r]
    found = 0
    nodes = 0
    d = 0
    entering = True
    while d >= 0:
        if stop[FLAG]:
            break
        if entering:  # (a node: end it, or choose the square its children cover)
            entering = False
            nodes += 1
            left = k - d
            if _empty(unc[d]):
                if d > 0 or branch <= 0:  # (the root covered already: item 0 holds it)
                    if found < out.shape[0]:
                        _write(out, found, chosen, d, -1)
                    found += scale // _on(chosen, d, orbit, n, base) if scale else 1
                if first or (out.shape[0] and found >= out.shape[0]):
                    break
                d -= 1
                continue
            if left == 0 or _hopeless(unc[d], left, spill, most):
                d -= 1
                continue
            if left == 1 and not (d == 0 and branch >= 0):
                got = _last_fits(n, by, unc[d], allow[d], fit)
                if scale:  # (the last piece on the orbit or not)
                    on = 0
                    for r in range(m):
                        on += _popcount(fit[r] & orbit[r])
                    a = _on(chosen, d, orbit, n, base)
                    found += (got - on) * (scale // a) + on * (scale // (a + 1))
                    d -= 1
                    continue
                row = found
                for r in range(m):
                    bits = fit[r]
                    while bits != _ZERO and row < out.shape[0]:
                        _write(out, row, chosen, d, r * n + trailing_zeros(bits))
                        bits &= bits - _ONE
                        row += 1
                found += got
                if first and found:
                    found = 1
                    break
                if out.shape[0] and found >= out.shape[0]:
                    break
                d -= 1
                continue
            u, choices = _fewest_choices(n, by, unc[d], allow[d])
            if choices == 0:
                d -= 1
                continue
            for r in range(m):
                cands[d, r] = by[u, r] & allow[d, r]
            if d == 0 and branch >= 0 and not _keep_branch(cands[d], allow[d], branch):
                d -= 1
                continue
        s = -1
        for r in range(m):
            if cands[d, r]:
                s = r * n + trailing_zeros(cands[d, r])
                cands[d, r] &= cands[d, r] - _ONE
                break
        if s < 0:
            d -= 1
            continue
        allow[d, s // n] &= ~(_ONE << np.uint64(s % n))  # (ruled out for the later siblings too)
        chosen[d] = s
        for r in range(m):
            unc[d + 1, r] = unc[d, r] & ~cover[s, r]
            allow[d + 1, r] = allow[d, r] & ~attack[s, r] if independent else allow[d, r]
        d += 1
        entering = True
    stop[NODES] += nodes
    return found


@njit(cache=True, nogil=True)
def coverers(n, cover):
    """by[u]: the squares whose piece covers square u, a row of bits a board row."""
    m = cover.shape[1]
    out = np.zeros((m * n, m), np.uint64)
    for s in range(m * n):
        for r in range(m):
            bits = cover[s, r]
            while bits != _ZERO:
                c = trailing_zeros(bits)
                bits &= bits - _ONE
                out[r * n + c, s // n] |= _ONE << np.uint64(s % n)
    return out
