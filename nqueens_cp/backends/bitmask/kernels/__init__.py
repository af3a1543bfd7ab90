"""The engine's compiled code, and nothing else: every module here defines numba kernels.

- `bits`: the bit operations every kernel shares (popcount, trailing zeros, the lowest bit);
- `queens`: the row search of rooks, queens and superqueens on square boards (count, and
  enumeration in resumable batches), the fastest path, and its ring count;
- `rings`: the count of a queens' ring constellation, and of the solutions a rotation fixes;
- `canonical`: the test that a solution is the smallest of its symmetry class;
- `generic`: the row search of any piece on any board, the piece's moves given as tables;
- `generated`: a counting kernel written for one piece's moves from a template, compiled once
  per machine (`KernelCache`);
- `mrv`: the most-constrained-line search of boards with few usable squares;
- `join/`: the half-boards' partial solutions, listed and matched 64 at a time (a module per step).

Importing this package sets where numba caches them (`run.compiled`) before any kernel is
decorated, and refuses a disabled JIT once for all of them: the bit tricks need fixed-width
integers that wrap (`planner.jit_enabled` routes around them then).
"""

from numba import config

from ....run.compiled import use_user_cache
from ...base import BackendError

if config.DISABLE_JIT:
    raise BackendError("bitmask: numba's JIT is disabled (NUMBA_DISABLE_JIT): the compiled kernels cannot run")

use_user_cache()
