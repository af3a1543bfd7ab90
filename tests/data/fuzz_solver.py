"""A board solver with a bug to order, for the fuzzer's tests (tests/test_fuzz.py).

    python fuzz_solver.py BUG BOARD.txt TASK      # TASK: solve, count or first

Reads a board file as `nqueens show` writes it (. free, X blocked, Q a pre-placed queen) and
answers for queens. BUG is one of:
- none: right on every board;
- fixed: a pre-placed queen is read as a free square (a skipped check);
- mirror: half the first row is searched and each solution mirrored (a symmetry shortcut that
  ignores blocked squares and pre-placed queens);
- bits8: the columns are a byte (a bit-width bug: no queen beyond column 7);
- last-row: blocks in the last row are forgotten (a case left out).
"""

import sys


def read(path):
    with open(path) as f:
        lines = [line.split("#", 1)[0].strip().replace(" ", "") for line in f]
    return [line for line in lines if line]


def solutions(rows, bug):
    m, n = len(rows), len(rows[0])
    blocked = {(r, c) for r in range(m) for c in range(n) if rows[r][c] == "X"}
    fixed = {r: c for r in range(m) for c in range(n) if rows[r][c] == "Q"}
    if any(rows[r].count("Q") > 1 for r in range(m)):  # two pre-placed queens in one row attack
        return
    if bug == "fixed":
        fixed = {}
    if bug == "last-row":
        blocked = {(r, c) for r, c in blocked if r != m - 1}
    width = min(n, 8) if bug == "bits8" else n
    first_row = range((n + 1) // 2) if bug == "mirror" else range(width)
    place = []

    def ok(r, c):
        if (r, c) in blocked or (r in fixed and fixed[r] != c):
            return False
        return all(c != pc and abs(c - pc) != r - pr for pr, pc in enumerate(place))

    def extend(r):
        if r == m:
            yield tuple(place)
            return
        for c in first_row if r == 0 else range(width):
            if ok(r, c):
                place.append(c)
                yield from extend(r + 1)
                place.pop()

    for s in extend(0):
        yield s
        if bug == "mirror" and s[0] != n - 1 - s[0]:
            yield tuple(n - 1 - c for c in s)


if __name__ == "__main__":
    bug, path, task = sys.argv[1:4]
    found = solutions(read(path), bug)
    if task == "count":
        print(sum(1 for _ in found))
    elif task == "first":
        for s in found:
            print(" ".join(map(str, s)))
            break
    else:
        for s in found:
            print(" ".join(map(str, s)))
