"""The same solver with a classic bug: it checks only one of the two diagonals.

    python examples/nqueens_buggy.py 8     # prints too many "solutions", one per line: "0 4 7 5 2 6 1 3"

The anti-diagonal test (row + c) is missing, so boards with two queens on one are printed.
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
            if c in used or row - c in diag:  # BUG: row + c (the anti-diagonal) is not checked
                continue
            cols.append(c)
            place(row + 1, used | {c}, diag | {row - c}, anti | {row + c})
            cols.pop()

    place(0, set(), set(), set())
    return found


if __name__ == "__main__":
    for solution in solve(int(sys.argv[1])):
        print(" ".join(map(str, solution)))
