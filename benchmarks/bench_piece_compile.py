"""What a piece's own counting kernel (kernels/generated.py) costs to compile, and to load again.

    python benchmarks/bench_piece_compile.py

For each piece, two fresh processes share an empty numba cache folder: the first compiles the
piece's kernel (its source written and compiled), the second loads it from numba's disk cache.
The generic kernels are compiled before the clock starts in both, so the seconds are the piece
kernel's alone, its first call on an 8x8 board included.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

PIECES = ("RN", "RNN", "QNN", "RF", "RZZ")

TIMED = """
import time
import numpy as np
from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.kernels import generated as pk
from nqueens_cp.backends.bitmask.kernels import generic as k
from nqueens_cp.backends.bitmask.tables import masks_array, moves
from nqueens_cp.backends.watch import tally

p = Problem(8, {piece!r})
slides, reach = moves(p)
masks, one = masks_array(p)[None], np.ones(1, np.int64)
k.count_items(masks, slides, reach, one, np.zeros(1, np.int64), tally(), 1 << 62)
start = time.perf_counter()
pk.CACHE.kernel(pk.key(slides, reach, p.rows))(masks, reach, one, np.zeros(1, np.int64), tally())
print(time.perf_counter() - start)
"""


def seconds(piece: str, folder: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=folder)
    out = subprocess.run([sys.executable, "-c", TIMED.format(piece=piece)], env=env, capture_output=True, text=True)
    out.check_returncode()
    return float(out.stdout)


def main() -> None:
    print(f"{'piece':<8}{'compile s':>11}{'load s':>9}")
    for piece in PIECES:
        with tempfile.TemporaryDirectory() as folder:
            compiled = seconds(piece, folder)
            loaded = seconds(piece, folder)
        print(f"{piece:<8}{compiled:>11.2f}{loaded:>9.3f}")


if __name__ == "__main__":
    main()
