"""The board as the compiled kernels take it: tables made from a Problem, shared by every search
and partition of the engine (a row search, a split, the classes, the generic kernel)."""

from __future__ import annotations

import numpy as np

from ...model.problem import Problem


def masks_array(problem: Problem) -> np.ndarray:
    """The problem's row masks (the columns each row may use) as the uint64 array the compiled
    kernels take."""
    return np.array(problem.row_masks, dtype=np.uint64)
