"""Random blocked n-queens instances by the CSPLib prob080 random model.

The squares are visited in a random order (seeded) and each is blocked if its row and its
column keep at least `min_free` free squares afterwards, until `blocks` squares are blocked.
Hard instances sit near the threshold, with most squares blocked (for example n = 28 with
595 blocks, n = 56 with 2734).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
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


# -- region puzzles with exactly one solution ---------------------------------------------------

#: The grades of a region puzzle by the choices our search makes to solve it and prove the
#: solution the only one (a unit with one free square left is no choice): at most this many.
GRADES = {"easy": 2, "medium": 10, "hard": None}

#: Region maps tried for one puzzle of a set before the generator gives up (a grade asked for
#: may be rare at some sizes).
MAX_TRIES = 500

#: Squares moved from one region to a neighbour's while making one map unique.
MAX_MOVES = 400

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@dataclass(frozen=True)
class RegionPuzzle:
    """A region map whose puzzle has exactly one solution, the solution, and how hard our
    search finds it: the placements it makes and the choices among several squares."""

    problem: Problem
    solution: tuple[int, ...]
    nodes: int
    guesses: int

    @property
    def grade(self) -> str:
        return next(g for g, most in GRADES.items() if most is None or self.guesses <= most)


def region_puzzle(
    n: int, piece: str, rng: random.Random, count_two: Callable[[Problem], tuple[list, dict]]
) -> RegionPuzzle | None:
    """One map, or None where its making got stuck: a random placement of the piece, regions
    grown from its squares at random (connected, one square a step), then, while a second
    solution exists, one of its squares outside the first moves to a neighbouring region (one
    that holds another of its pieces where there is one), keeping every region connected.
    `count_two(problem)` gives at most two solutions and the search's stats."""
    base = Problem(n, piece)
    solution = _random_placement(base, rng)
    if solution is None:
        return None
    queens = set(enumerate(solution))
    label = _grown(n, solution, rng)
    for _ in range(MAX_MOVES):
        p = Problem(n, piece, regions=["".join(LABELS[k] for k in row) for row in label])
        found, stats = count_two(p)
        if len(found) == 1:
            return RegionPuzzle(p, found[0], stats.get("nodes", 0), stats.get("guesses", 0))
        other = found[1] if found[0] == solution else found[0]
        if not _split(label, n, other, queens, rng):
            return None
    return None


def _random_placement(p: Problem, rng: random.Random) -> tuple[int, ...] | None:
    """A placement of one piece a row, columns tried in a random order (a backtracking search)."""
    n, cols = p.n, []
    order = [rng.sample(range(n), n) for _ in range(n)]
    tried = [0] * n
    r = 0
    while 0 <= r < n:
        placed = False
        while tried[r] < n and not placed:
            c = order[r][tried[r]]
            tried[r] += 1
            if all(c != cols[i] and not p.attacks((i, cols[i]), (r, c)) for i in range(r)):
                cols.append(c)
                placed = True
        if placed:
            r += 1
        else:
            tried[r] = 0
            r -= 1
            if cols:
                cols.pop()
    return tuple(cols) if r == n else None


def _neighbours(n: int, r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= r + dr < n and 0 <= c + dc < n]


def _grown(n: int, solution: tuple[int, ...], rng: random.Random) -> list[list[int]]:
    """Regions grown from the placement's squares, a square at a time, each from a random edge."""
    label = [[-1] * n for _ in range(n)]
    edge = []
    for r, c in enumerate(solution):
        label[r][c] = r
        edge.append((r, c))
    while edge:
        i = rng.randrange(len(edge))
        r, c = edge[i]
        free = [sq for sq in _neighbours(n, r, c) if label[sq[0]][sq[1]] < 0]
        if not free:
            edge.pop(i)
            continue
        r2, c2 = rng.choice(free)
        label[r2][c2] = label[r][c]
        edge.append((r2, c2))
    return label


def _split(label: list[list[int]], n: int, other: tuple[int, ...], queens: set, rng: random.Random) -> bool:
    """Move one square of the second solution `other` (not one of the first's) into a
    neighbouring region, keeping its own region connected; False where none can move."""
    squares = [sq for sq in enumerate(other) if sq not in queens]
    rng.shuffle(squares)
    holders = {label[r][c] for r, c in enumerate(other)}
    for r, c in squares:
        old = label[r][c]
        near = {label[a][b] for a, b in _neighbours(n, r, c)} - {old}
        for k in sorted(near, key=lambda k: (k not in holders, rng.random())):
            label[r][c] = k
            if _connected(label, n, old):
                return True
            label[r][c] = old
    return False


def _connected(label: list[list[int]], n: int, k: int) -> bool:
    cells = [(r, c) for r in range(n) for c in range(n) if label[r][c] == k]
    if not cells:
        return False
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = todo.pop()
        for sq in _neighbours(n, r, c):
            if sq not in seen and label[sq[0]][sq[1]] == k:
                seen.add(sq)
                todo.append(sq)
    return len(seen) == len(cells)


def two_solutions(problem: Problem) -> tuple[list[tuple[int, ...]], dict[str, int]]:
    """At most two solutions of `problem` from our engine (the registry's oracle), each checked,
    and what its search measured: whether a puzzle has exactly one, and how hard it is."""
    from ..backends import oracle_backend
    from ..backends.base import close_stream

    stats: dict[str, int] = {}
    found: list[tuple[int, ...]] = []
    stream = oracle_backend().solutions(problem, stats)
    try:
        for sol in stream:
            found.append(sol)
            if len(found) == 2:
                break
    finally:
        close_stream(stream)
    return found, stats


def region_set(
    n: int,
    count: int,
    seed: int,
    count_two: Callable[[Problem], tuple[list, dict]] = two_solutions,
    piece: str = "RF",
    grade: str | None = None,
) -> list[RegionPuzzle]:
    """`count` region puzzles of n x n with exactly one solution each (of `grade` where one is
    asked for), the i-th made from its own seed (`instance_seed`): the same seed makes the same
    set. Refused where the tries run out."""
    if grade is not None and grade not in GRADES:
        raise InvalidProblem(f"the grade must be one of {', '.join(GRADES)}, got {grade!r}")
    if not 2 <= n <= len(LABELS):
        raise InvalidProblem(f"a region puzzle has n in 2..{len(LABELS)} (a label a region), got {n}")
    if _random_placement(Problem(n, piece), random.Random(seed)) is None:  # (a whole search: none, or one)
        raise InvalidProblem(
            f"no {n}x{n} region puzzle exists for the piece {piece}: no {n} of it fit one a row and a column, "
            "none attacking another"
        )
    out = []
    for i in range(count):
        rng = random.Random(instance_seed(seed, n, 0, i))
        for _ in range(MAX_TRIES):
            made = region_puzzle(n, piece, rng, count_two)
            if made is not None and (grade is None or made.grade == grade):
                out.append(made)
                break
        else:
            asked = f" of grade {grade}" if grade else ""
            raise NQueensError(f"no {n}x{n} region puzzle{asked} with one solution in {MAX_TRIES} maps (puzzle {i})")
    return out



def regions_record(seed: int, puzzles: list[dict[str, object]]) -> dict[str, object]:
    """`generate regions --json`: the set's seed and each puzzle written (schemas/regions-1.json)."""
    return {"format": "nqueens_cp.regions/1", "seed": seed, "puzzles": puzzles}
