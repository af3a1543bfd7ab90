"""The row-by-row bitmask search on Python integers: boards wider than 64 columns, and small
counts where loading the compiled kernels would cost more than the whole search.

It is the compiled row kernel's twin (same masks, same order), written with Python's unbounded
integers; it checks its deadline every CHECK_EVERY placements and, being Python, sees Ctrl-C at
once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...model.pieces import images, slide_directions
from ...model.problem import Problem, Solution
from ..base import Deadline, UnsupportedProblem

#: Placements between two looks at the clock: a few milliseconds on a board of up to 64
#: columns; a placement that costs more (wider boards, longer tables) looks more often.
CHECK_EVERY = 4096

#: The most memory the attack tables of a toroidal board's search may take: beyond it the
#: size is refused before anything is allocated.
MAX_TABLE_BYTES = 2 << 30


def solutions(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    """Every solution in lexicographic order; `stats["nodes"]` counts placements."""
    if not (problem.rule.classic and problem.square):
        return any_piece(problem, deadline, stats)
    return _classic(problem, deadline, stats)


def _every(cost_words: int) -> int:
    """Placements between two looks at the clock for placements of `cost_words` words each."""
    return max(1, CHECK_EVERY * 4 // max(4, cost_words))


def any_piece(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    """The row search for any piece: on a plain board its lines (`_lines`), on a torus, where
    lines wrap, from the attacks by row distance (`_by_distance`)."""
    if problem.torus:
        return _by_distance(problem, deadline, stats)
    return _lines(problem, deadline, stats)


def _walk(
    masks: list[int], every: int, descend: Callable[[int, int, int], int], deadline: Deadline, stats: dict[str, int]
) -> Iterator[Solution]:
    """The row search both any-piece searches share: each row's free columns lowest first, the
    clock read every `every` placements. `descend(r, c, bit)` takes the piece placed on row r,
    column c, and returns the columns it and the rows above rule out of row r + 1."""
    m = len(masks)
    place = [0] * m
    avail = [0] * m
    avail[0] = masks[0]
    r = nodes = found = 0
    stats["nodes"] = 0
    try:
        while True:
            a = avail[r]
            if not a:
                if r == 0:
                    return
                r -= 1
                continue
            bit = a & -a
            avail[r] = a ^ bit
            c = bit.bit_length() - 1
            place[r] = c
            nodes += 1
            if nodes % every == 0:
                deadline.check(found)
            if r == m - 1:
                found += 1
                yield tuple(place)
                continue
            ruled = descend(r, c, bit)
            r += 1
            avail[r] = masks[r] & ~ruled
    finally:
        stats["nodes"] = nodes


def _lines(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    """The row search on a plain board with a row's whole state in a few words, as the piece's
    own compiled kernel keeps it (`kernels.generated`): the columns used; for each slide (a, b) the
    columns it attacks in each of the next a rows, moved one row on by a shift of b columns;
    for the leaps, the columns they attack in each of the next rows they reach. A placement
    costs a few operations on n-bit integers, and the memory is a few words a row, where a
    table of every row distance took O(n^3) bits (3,000 columns ran out of memory)."""
    n, m, rule = problem.n, problem.rows, problem.rule
    full = (1 << n) - 1
    slides = slide_directions(rule)
    depth = max((a for move in rule.leapers for a, _ in images(move) if a > 0), default=0)
    reach = [[]] + [column_masks(problem, rule.leap_offsets(d, n, False, m)) for d in range(1, depth + 1)]
    every = _every((1 + sum(a for a, _ in slides) + depth) * (n // 64 + 1))

    def shift(v: int, b: int) -> int:
        return (v << b) & full if b > 0 else v >> -b

    states: list[tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...]]] = [(0, (), ())] * m
    states[0] = (0, tuple((0,) * a for a, _ in slides), (0,) * depth)

    def descend(r: int, c: int, bit: int) -> int:
        used, words, leaps = states[r]
        used |= bit
        words = tuple((*w[1:], shift(w[0] | bit, b)) for w, (_, b) in zip(words, slides, strict=True))
        leaps = tuple((leaps[i + 1] if i + 1 < depth else 0) | reach[i + 1][c] for i in range(depth))
        states[r + 1] = (used, words, leaps)
        attacked = used
        for w in words:
            attacked |= w[0]
        return attacked | leaps[0] if depth else attacked

    return _walk(problem.row_masks, every, descend, deadline, stats)


def _by_distance(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    """The row search for any piece, from its spec: a piece placed in row r takes, from every
    later row r', the columns its moves reach r' - r rows away (`Piece.offsets`, wrapped on a
    torus). Attacks are symmetric, so looking down from each piece checks every pair. Its
    tables grow as rows^2 * n bits: a board whose tables would pass MAX_TABLE_BYTES is refused
    before they are made."""
    n, m = problem.n, problem.rows
    table_bytes = m * m * (n // 8 + 36)
    if table_bytes > MAX_TABLE_BYTES:
        raise UnsupportedProblem(
            f"bitmask: a toroidal {m}x{n} board of this piece needs about {table_bytes >> 30} GB of attack tables "
            f"(at most {MAX_TABLE_BYTES >> 30} GB): use a smaller board"
        )
    reach: dict[int, list[int]] = {}

    def reached(d: int) -> list[int]:  # per column, the mask of columns attacked d rows below
        if d not in reach:  # every distance is made at the first placement: none found yet
            deadline.check(0)
            reach[d] = column_masks(problem, problem.offsets(d))
        return reach[d]

    taken = [[0] * m for _ in range(m + 1)]  # taken[r][r']: columns of row r' ruled out by rows < r

    def descend(r: int, c: int, bit: int) -> int:
        above, below = taken[r], taken[r + 1]
        for r2 in range(r + 1, m):
            below[r2] = above[r2] | bit | reached(r2 - r)[c]
        return below[r + 1]

    return _walk(problem.row_masks, _every(m * (n // 64 + 1)), descend, deadline, stats)


def column_masks(problem: Problem, offsets: frozenset[int]) -> list[int]:
    """Per column c, the mask of the columns c + o (o in `offsets`) on the board, wrapped on a
    torus (where offsets congruent mod n name one column: a set keeps it once)."""
    n, torus = problem.n, problem.torus
    columns = [{(c + o) % n if torus else c + o for o in offsets} for c in range(n)]
    return [sum(1 << x for x in cs if 0 <= x < n) for cs in columns]


def _classic(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    n, masks, rule, torus = problem.n, problem.row_masks, problem.rule, problem.torus
    full = (1 << n) - 1

    def shift(v: int, s: int) -> int:  # columns move by s (wrapping round a torus)
        if torus:
            s %= n
            return ((v << s) | (v >> (n - s))) & full
        return (v << s) & full if s >= 0 else v >> -s

    place, cols, d1, d2, k2, avail = ([0] * n for _ in range(6))
    avail[0] = masks[0]
    r = nodes = found = 0
    stats["nodes"] = 0
    try:
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
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                deadline.check(found)
            if r == n - 1:
                # knight moves wrapping across the first and last rows are checked at the end
                if not (rule.knight and torus) or problem.is_solution(place):
                    found += 1
                    yield tuple(place)
                continue
            c = cols[r] | bit
            x = shift(d1[r] | bit, 1) if rule.diagonals else 0
            y = shift(d2[r] | bit, -1) if rule.diagonals else 0
            n1 = k2[r] | shift(bit, 2) | shift(bit, -2) if rule.knight else 0
            n2 = shift(bit, 1) | shift(bit, -1) if rule.knight else 0
            r += 1
            cols[r], d1[r], d2[r], k2[r] = c, x, y, n2
            avail[r] = masks[r] & ~(c | x | y | n1)
    finally:
        stats["nodes"] = nodes
