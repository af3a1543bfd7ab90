"""A Dask worker's preload: our engine's compiled kernels loaded once, as the worker starts,
so that its first work item counts at once (loading them takes a second, compiling them on a
machine that has none cached about a minute):

    dask worker tcp://SCHEDULER:8786 --nthreads 1 --nworkers 4 --preload nqueens_cp.backends.bitmask.preload
"""

from __future__ import annotations

from typing import Any


def dask_setup(worker: Any = None) -> None:
    """Dask calls this in each worker process before it takes work."""
    from ...model.problem import Problem
    from .backend import BitmaskBackend

    engine = BitmaskBackend(workers=1)
    for n in (13, 16):  # the counts of large boards: constellations, and the join
        part = engine.partition(Problem(n))
        if part.prepare is not None:
            part.prepare()
