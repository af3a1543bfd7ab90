"""The compiled join of half-boards: the count of queens as pairs of top and bottom partial
solutions that share no diagonal, matched 64 at a time, instead of a search to the leaves.

Why: the constellation counter walks the whole tree (at the C yardstick's node rate, with 4.4x
fewer nodes), and every refinement of that search measured lost; the fastest published CPU
counter joins partial boards instead. This is a join of our own, in the engine's style:
- Split the board into its top h = n // 2 rows and the other n - h. A solution puts its top
  queens on some set C of h columns and its bottom queens on the rest, so the count is a sum
  over C: a work item is a few such sets (`partitions.join`).
- For each C, every top partial solution (h queens on the top rows and the columns of C, no
  two attacking) and every bottom one is listed. A top and a bottom partial make a solution
  exactly when no diagonal holds a queen of each; only the diagonals that cross both halves
  can, n - 1 of each direction, so a partial is a 2n - 2 bit signature and a pair matches when
  the AND of the two words is zero (one word up to n = 33).
- A half's partials are themselves a join, of its two bands (its first rows and the rest):
  each band's placements are grouped by the columns they use, and pairs from complementary
  groups are kept where their diagonals differ. A search of the half would visit many nodes
  per partial; the bands' join tries about 11 pairs per partial. A band's placements on
  any columns are listed once (band_tables), not searched again for each C, where they are
  few enough (MOST_LISTED_ONCE).
- The larger list is stored bit-transposed, a word per group of 64 partials, and only the bits
  set on both sides count. Up to MAX_CUTS "cut" bits, those most often set on both sides,
  split it into buckets, and a partial of the smaller list visits only the buckets whose cut
  bits it does not share (a sieve). The other bits are numbered afresh and dealt into chunks
  of at most MAX_CHUNK: for each chunk, a table holds, per pattern of its bits, the words of
  the partials that lack all of them, so a partial ANDs one word per chunk (not one per bit)
  and counts the ones: 64 pairs per AND. A bucket's tables are made just before its visits,
  so they are read from the nearest caches.
- Symmetry. The left-right mirror maps C onto its mirror image; the reflections in the long
  diagonals map a queen on a long diagonal in the bottom half onto one in the top half; on an
  even board the top-bottom mirror maps C onto its complement (for solutions with no queen on
  a long diagonal only, since it swaps the halves). So one C of each class is counted, bottoms
  with a queen on a long diagonal are left out and tops weigh 2 per long diagonal they hold
  (_count_set): close to 8 solutions for each pair matched, on odd boards as well, where the
  centre, which both reflections keep, may hold a bottom queen.
- The bottom partials of a column set are the top-bottom mirror images of its top partials,
  so each set's top partials are listed once and serve both halves.
- A board of fewer rows than columns (`rectangles`) joins a top set's partials with every
  placement of the bottom rows on the columns it leaves, under the rectangle's mirrors.
Where each step lives: `column_sets` (the sets C, one of each class), `bands` (a half's partials
as the join of two bands of its rows), `matcher` (the sieve and the AND tables), `symmetry` (the
count of one set's class, and the entry point `count_with`), `intrinsics` (the two loops in LLVM
IR), `space` (the arrays reused from one set to the next). The tuning by board size is one table,
`partitions.join.TUNING`.
Its speed beside the constellation counter and the published quadrant counter, and where its
time goes, are measured in docs/benchmarks.md (benchmarks/bench_join.py, bench_quadrants.py,
profile_join.py). Memory grows with the longest list and is declared to the planner
(`partitions.join.memory`).
"""

from __future__ import annotations

from .bands import band_tables
from .column_sets import list_column_sets
from .rectangles import count_rectangles, list_rectangle_sets
from .symmetry import count_with

__all__ = ["band_tables", "count_rectangles", "count_with", "list_column_sets", "list_rectangle_sets"]
