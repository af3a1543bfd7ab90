"""The 8 symmetries of the square acting on solutions, and canonical forms.

Each symmetry is defined once, in `TABLE`, as three switches applied to a square (r, c):
transpose (swap r and c), then reflect the row, then reflect the column. The compiled canonical
test of the bitmask backend takes the same rows as an array (`table_array`), so the two cannot
drift apart.

Leapers and riders take all 8 images of their moves, so they are invariant under all 8; a
one-way line keeps only the symmetries that map it onto itself. The group that matters for a
problem is the subgroup that keeps the piece and maps its blocked and fixed squares onto
themselves: `problem_symmetries`. A rectangular board (fewer rows than columns) keeps only the
four symmetries that do not transpose. A solution is canonical when no symmetry of that group
maps it to a lexicographically smaller solution.

Functions taking a solution read the board's columns from `cols` (len(solution) when omitted:
a square board).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .problem import Problem, Solution, Square

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    import numpy as np

#: name -> (transpose, reflect rows, reflect columns). Order is the symmetries' numbering.
TABLE: dict[str, tuple[bool, bool, bool]] = {
    "identity": (False, False, False),
    "rot90": (True, False, True),  # (r, c) -> (c, n-1-r)
    "rot180": (False, True, True),
    "rot270": (True, True, False),  # (r, c) -> (n-1-c, r)
    "flip-cols": (False, False, True),
    "flip-rows": (False, True, False),
    "transpose": (True, False, False),
    "anti-transpose": (True, True, True),  # (r, c) -> (n-1-c, n-1-r)
}
NAMES = tuple(TABLE)


def image_square(name: str, n: int, r: int, c: int, rows: int | None = None) -> Square:
    """The image of square (r, c) of a board of `rows` (n by default) x n squares."""
    transpose, flip_r, flip_c = TABLE[name]
    m = n if rows is None else rows
    if transpose and m != n:
        raise ValueError(f"{name} does not map a {m}x{n} board onto itself")
    a, b = (c, r) if transpose else (r, c)
    return (m - 1 - a if flip_r else a, n - 1 - b if flip_c else b)


def transform(solution: Solution, name: str, cols: int | None = None) -> Solution:
    m = len(solution)
    n = m if cols is None else cols
    image = [0] * m
    for r, c in enumerate(solution):
        r2, c2 = image_square(name, n, r, c, m)
        image[r2] = c2
    return tuple(image)


def image(problem: Problem, solution: Solution, name: str) -> Solution:
    """The image of a solution of `problem` under symmetry `name`: a placement's columns, or a
    layout's squares (pieces and pawns) mapped and written again (`Problem.encode`)."""
    if not problem.anywhere:
        return transform(solution, name, problem.n)
    n, m = problem.n, problem.rows
    pieces, pawns = problem.layout(solution)
    return problem.encode(*([image_square(name, n, r, c, m) for r, c in part] for part in (pieces, pawns)))


def table_array(group: tuple[str, ...] = NAMES) -> np.ndarray:
    """The rows of TABLE for `group`, as the (k, 3) int64 array the compiled test takes."""
    import numpy as np

    return np.array([TABLE[g] for g in group], dtype=np.int64).reshape(-1, 3)


def problem_symmetries(problem: Problem) -> tuple[str, ...]:
    """The symmetries that map the problem onto itself: the piece's moves onto themselves (a
    one-way line keeps only some), each set of squares (`fields.SQUARE_FIELDS`: blocked, fixed)
    onto itself; on a rectangle only those that do not transpose."""
    from .fields import SQUARE_FIELDS, Symmetry

    n, m = problem.n, problem.rows
    sets = [getattr(problem, f.name) for f in SQUARE_FIELDS if f.symmetry is Symmetry.SQUARES]
    return tuple(
        name
        for name in NAMES
        if (m == n or not TABLE[name][0])
        and problem.rule.symmetric_under(*TABLE[name])
        and all({image_square(name, n, r, c, m) for r, c in sq} == set(sq) for sq in sets)
        and _keeps_regions(problem, name)
    )


def _keeps_regions(problem: Problem, name: str) -> bool:
    """Whether symmetry `name` maps each region onto a region (labels may change): the label of
    a square's image is a function of the square's label, one to one."""
    if not problem.regions:
        return True
    n, m = problem.n, problem.rows
    to: dict[str, str] = {}
    for r in range(m):
        for c in range(n):
            r2, c2 = image_square(name, n, r, c, m)
            if to.setdefault(problem.regions[r][c], problem.regions[r2][c2]) != problem.regions[r2][c2]:
                return False
    return len(set(to.values())) == len(to)


def canonical(solution: Solution, group: tuple[str, ...] = NAMES, cols: int | None = None) -> Solution:
    """The lexicographically smallest image of `solution` under `group`."""
    return min(transform(solution, g, cols) for g in group)


def orbit(solution: Solution, group: tuple[str, ...] = NAMES, cols: int | None = None) -> set[Solution]:
    return {transform(solution, g, cols) for g in group}


def canonical_stabilizer(
    solution: Solution, group: tuple[str, ...] = NAMES, cols: int | None = None
) -> tuple[bool, int]:
    """(whether `solution` is the smallest of its orbit, how many symmetries of `group` fix it):
    its class then has len(group) // stabilizer members."""
    images = [transform(solution, g, cols) for g in group]
    return min(images) == solution, sum(img == solution for img in images)


# -- counting classes from the solutions each subgroup fixes (Burnside, by orbit size) -------


def _permutation(name: str, n: int = 5) -> tuple[Square, ...]:
    """The symmetry as the images of a 5x5 board's squares (large enough to tell all 8 apart)."""
    return tuple(image_square(name, n, r, c) for r in range(n) for c in range(n))


@functools.cache
def _product(a: str, b: str) -> str:
    """The symmetry that is `b` then `a` (a after b)."""
    n = 5
    pa, pb = _permutation(a, n), _permutation(b, n)
    composed = tuple(pa[r * n + c] for r, c in pb)
    return next(name for name in NAMES if _permutation(name, n) == composed)


def set_classes(problem: Problem, sets: np.ndarray) -> dict[int, int]:
    """{orbit size: classes} of `sets` (a set of squares a row, each r * n + c; every image of
    each among the rows) under the problem's symmetries: each row's images sorted, the least
    (in lexicographic order) its class's name, the distinct images its class's size."""
    import numpy as np

    group = problem_symmetries(problem)
    n, m = problem.n, problem.rows
    if sets.shape[0] == 0:
        return {}
    images = []
    for g in group:
        to = np.array([image_square(g, n, r, c, m) for r in range(m) for c in range(n)], np.int64)
        images.append(np.sort((to[:, 0] * n + to[:, 1])[sets], axis=1))
    least = images[0].copy()
    rows = np.arange(sets.shape[0])
    for img in images[1:]:
        differ = img != least
        first = differ.argmax(axis=1)
        smaller = differ.any(axis=1) & (img[rows, first] < least[rows, first])
        least[smaller] = img[smaller]
    _, members = np.unique(least, axis=0, return_index=True)
    out: dict[int, int] = {}
    for i in members.tolist():
        size = len({tuple(img[i].tolist()) for img in images})
        out[size] = out.get(size, 0) + 1
    return out


def generated(symmetry: str) -> frozenset[str]:
    """The subgroup `symmetry` generates (its powers): what a solution it maps onto itself is
    mapped onto itself by."""
    members, power = {"identity"}, symmetry
    while power not in members:
        members.add(power)
        power = _product(symmetry, power)
    return frozenset(members)


def closure(names: Iterable[str]) -> frozenset[str]:
    """The subgroup the symmetries `names` generate: their products, until none is new."""
    members = {"identity", *names}
    while True:
        grown = members | {_product(a, b) for a in members for b in members}
        if grown == members:
            return frozenset(members)
        members = grown


def subgroups(group: tuple[str, ...]) -> list[frozenset[str]]:
    """Every subgroup of `group` (a group of the square's symmetries, by name), each once: the
    closures of its subsets under composition, smallest first."""
    found = {closure(g for i, g in enumerate(group) if mask >> i & 1) for mask in range(1 << len(group))}
    return sorted(found, key=lambda k: (len(k), sorted(NAMES.index(g) for g in k)))


def classes_by_orbit(group: tuple[str, ...], fixed: dict[frozenset[str], int]) -> dict[int, int]:
    """{orbit size: classes} from `fixed`, the number of solutions each subgroup K of `group`
    fixes (all of K at once; the whole count for the trivial subgroup). The solutions whose
    stabilizer is exactly K are fixed(K) less those of every larger subgroup (Moebius inversion
    over the subgroups, largest first); each lies in a class of len(group) / |K| members, whose
    members' stabilizers are K's conjugates, so the solutions are summed by class size first."""
    exact: dict[frozenset[str], int] = {}
    for k in sorted(fixed, key=len, reverse=True):
        exact[k] = fixed[k] - sum(exact[h] for h in exact if k < h)
    solutions: dict[int, int] = {}
    for k, count in exact.items():
        size = len(group) // len(k)
        solutions[size] = solutions.get(size, 0) + count
    by_orbit: dict[int, int] = {}
    for size, count in sorted(solutions.items()):
        if count % size:
            raise ArithmeticError(f"{count} solutions in classes of {size} do not fill whole classes")
        if count:
            by_orbit[size] = count // size
    return by_orbit


#: The classes split by the turns that map their members onto themselves (`--by-symmetry`):
#: the quarter turn (and so the half turn), the half turn alone, no turn but a reflection, and
#: no symmetry at all. For superqueens OEIS A352661, A352662 and A352663 (no reflection fixes a
#: solution of a piece that rides the diagonals, one a row).
TURNS = ("quarter_turn", "half_turn_only", "reflection_only", "asymmetric")


def reflections_fix_none(problem: Problem) -> bool:
    """Whether no reflection fixes any solution of `problem`: two pieces or more, one a row, of
    a piece that rides the diagonals, where no wall cuts a line. A reflection that fixes such a
    placement maps a piece to another on its own line (a row, a column or a diagonal), or puts
    two of them on its axis, one line; a board of one row has its one piece on the axis of the
    reflection of its rows."""
    return problem.rule.diagonals and not problem.walled and problem.rows > 1


def turns_of_class(images: Mapping[str, object], member: object) -> str:
    """Where in TURNS the class of `member` falls, from its images under the problem's
    symmetries (`images`, by name): a turn fixes one member of a class if and only if it fixes
    them all, since its conjugates in the square's group are itself or its inverse."""
    fixed = {g for g, img in images.items() if img == member}
    if "rot90" in fixed:
        return "quarter_turn"
    if "rot180" in fixed:
        return "half_turn_only"
    return "reflection_only" if len(fixed) > 1 else "asymmetric"


def turns_by_fixed(
    group: tuple[str, ...], fixed: dict[frozenset[str], int], by_orbit: dict[int, int]
) -> dict[str, int]:
    """TURNS' classes from the solutions each subgroup of `group` fixes (`classes_by_orbit`'s
    `fixed`, the trivial subgroup's the whole count) and the classes by orbit size it made of
    them (`by_orbit`). The solutions a turn t fixes form a set the
    group maps onto itself, whose classes Burnside's lemma counts: the mean over g in the group
    of the solutions both t and g fix, those of the subgroup they generate. The classes of no
    symmetry are the orbits of full size; what no turn fixes and a reflection does is the rest."""

    def classes_fixed_by(turn: str) -> int:
        if turn not in group:
            return 0
        total = sum(fixed[closure((turn, g))] for g in group)
        if total % len(group):
            raise ArithmeticError(f"the solutions {turn} fixes do not fill whole classes")
        return total // len(group)

    quarter, half = classes_fixed_by("rot90"), classes_fixed_by("rot180")
    asymmetric = by_orbit.get(len(group), 0)
    return {
        "quarter_turn": quarter,
        "half_turn_only": half - quarter,
        "reflection_only": sum(by_orbit.values()) - half - asymmetric,
        "asymmetric": asymmetric,
    }
