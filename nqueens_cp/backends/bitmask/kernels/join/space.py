"""The arrays the join reuses from one column set to the next (lists, tables, scratch), by
slot: allocated once per worker and grown by doubling, so memory follows the largest list."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _scratch(space, i, size):
    """space[i] with room for `size` words, grown (to twice the size) when it has less: the
    lists and tables are reused from one column set to the next, not allocated afresh."""
    if space[i].shape[0] < size:
        space[i] = np.empty(2 * size, np.uint64)
    return space[i]


#: The slots: the matcher's AND tables, its small list's entries and its big list arranged by
#: bucket; a band's placements as found, and the upper and lower bands grouped; a column set's
#: top and bottom partials, and the two flipped (top-bottom mirrored) lists; on a rectangle, the
#: weights of a set's bottom partials.
(
    SLOT_TABLE,
    SLOT_ENTRY,
    SLOT_ARRANGED,
    SLOT_PLACED,
    SLOT_UPPER,
    SLOT_LOWER,
    SLOT_TOP,
    SLOT_UNDER,
    SLOT_FLIPPED_UNDER,
    SLOT_FLIPPED_TOP,
    SLOT_WEIGHTS,
) = range(11)
SLOTS = 11


@njit(cache=True, nogil=True)
def new_space():
    """The reusable arrays of a worker's column sets (slots: SLOT_* above)."""
    return [np.empty(0, np.uint64) for _ in range(SLOTS)]

