"""The bitmask engine: our own search, as one package.

- `backend`: the Backend class every caller goes through;
- `planner`: the one place that decides which algorithm serves a (problem, task);
- `rowkernels`, `mrvkernel`: the numba kernels (row-by-row and most-constrained-line search);
- `pysearch`: the row search on Python integers (over 64 columns, small counts);
- `construct`: explicit placements and the theorems that say there is none;
- `split`: the count cut into numbered sub-problems; `canonical`: symmetry classes.

Importing this package loads no numba: the kernels load when a search first needs them.
"""

from .backend import BitmaskBackend

BACKEND = BitmaskBackend

__all__ = ["BACKEND", "BitmaskBackend"]
