"""A table of k pieces anywhere, every k (`count N --pieces 1..N`): one search against a count a
term, as ratios measured in one run.

    python benchmarks/bench_pieces_table.py                 # queens, n = 10..12, best of 3
    python benchmarks/bench_pieces_table.py --n 9 --piece knight --repeat 5

The one search is the profile of the search that places pieces anywhere (`Backend.profile` of
the board with N pieces: entry k the placements of k pieces), which the command line runs for a
range of --pieces where the backend offers it; a count a term is `count(Problem(N, pieces=k))`
for k = 1..N, the engine's layouts search each time, which the command line ran before. Both on
the backend's default workers, in this process, warm (each kernel loaded by a first run at
n = 6), alternating; the rows are checked equal.
"""

from __future__ import annotations

import argparse
import time

import nqueens_cp as nq


def one_search(n: int, piece: str) -> list[int]:
    return nq.get_backend("bitmask").profile(nq.Problem(n, piece, pieces=n))[1:]


def a_count_a_term(n: int, piece: str) -> list[int]:
    return [nq.count(nq.Problem(n, piece, pieces=k)) for k in range(1, n + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10, 11, 12])
    parser.add_argument("--piece", default="queen")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    one_search(6, args.piece), a_count_a_term(6, args.piece)  # (kernels loaded)
    print(f"{'n':>3} {'one search s':>13} {'a term each s':>14} {'ratio':>7}")
    for n in args.n:
        best = {one_search: float("inf"), a_count_a_term: float("inf")}
        rows = set()
        for _ in range(args.repeat):
            for way in best:
                start = time.perf_counter()
                rows.add(tuple(way(n, args.piece)))
                best[way] = min(best[way], time.perf_counter() - start)
        assert len(rows) == 1, f"the two ways disagree at n = {n}"
        one, each = best[one_search], best[a_count_a_term]
        print(f"{n:>3} {one:>13.3f} {each:>14.3f} {one / each:>7.3f}")


if __name__ == "__main__":
    main()
