"""The bitmask engine: our own search, as one package, arranged by role.

- `backend`: the Backend class every caller goes through;
- `planner`: the one place that decides which algorithm serves a (problem, task), and why;
- `tables`: the board as the kernels take it (masks, moves, attack table, ring masks, the
  symmetries a count folds); `slots`: the named slots of the arrays kernels share with Python;
- `kernels/`: the compiled code, all of it (numba);
- `searches`: the compiled searches driven from Python, in bounded slices;
- `partitions/`: every count cut into numbered work items, one result type, one runner;
- `pysearch`: the row search on Python integers (over 64 columns, small counts);
- `construct`: explicit placements and the theorems that say there is none.

Importing this package loads no numba: the kernels load when a search first needs them.
"""

from .backend import BitmaskBackend

BACKEND = BitmaskBackend

__all__ = ["BACKEND", "BitmaskBackend"]
