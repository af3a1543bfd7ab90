"""The slots of a resumable search's state array (`st`), which the compiled kernels and their
Python callers share. Here, not in `bits`, so that a caller reads them without loading numba.
(The stop array's slots, FLAG and NODES, are `watch`'s.)"""

#: Where the search stands (its row, or its depth).
AT = 0
#: Set once the search is exhausted.
DONE = 1
#: The placements it has made (the row and generic searches keep this slot).
PLACED = 2
