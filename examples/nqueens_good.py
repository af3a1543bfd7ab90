"""A small hand-written n-queens solver, the kind `nqueens verify --against` checks.

    python examples/nqueens_good.py 8      # prints every solution, one per line: "0 4 7 5 2 6 1 3"

Backtracking row by row, with sets for the columns and both diagonals in use.
"""

import sys


def solve(n: int) -> list[list[int]]:
    found: list[list[int]] = []
    cols: list[int] = []

    def place(row: int, used: set[int], diag: set[int], anti: set[int]) -> None:
        if row == n:
            found.append(list(cols))
            return
        for c in range(n):
            if c in used or row - c in diag or row + c in anti:
                continue
            cols.append(c)
            place(row + 1, used | {c}, diag | {row - c}, anti | {row + c})
            cols.pop()

    place(0, set(), set(), set())
    return found


if __name__ == "__main__":
    for solution in solve(int(sys.argv[1])):
        print(" ".join(map(str, solution)))
