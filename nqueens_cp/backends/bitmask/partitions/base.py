"""What every list of work items shares: the result type (`Counts`), the description of a
list (`Items`), the one runner (`count_items`) and the fingerprint each list adds to."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ....model.problem import Problem
from ....run.progress import report
from ...base import Deadline
from ...watch import NODES

if TYPE_CHECKING:
    from ....run.partition import Partition


class Counts(NamedTuple):
    """What work items add up to, field by field (each item's counts already weighted by the
    symmetries that fold it)."""

    #: Solutions.
    count: int = 0
    #: Placements the searches made (the join lists and matches: none).
    nodes: int = 0
    #: Solutions the half turn fixes, and those the quarter turn fixes (the classes of queens).
    point: int = 0
    quarter: int = 0
    #: Canonical solutions whose symmetry class has 1, 2, 4 or 8 members (`classes`).
    of_1: int = 0
    of_2: int = 0
    of_4: int = 0
    of_8: int = 0

    def plus(self, other: Counts) -> Counts:
        return Counts(*(a + b for a, b in zip(self, other, strict=True)))

    @classmethod
    def of_classes(cls, by_orbit: dict[int, int]) -> Counts:
        """The canonical solutions by the size of their class (1, 2, 4 or 8), and their sum."""
        of = [by_orbit.get(size, 0) for size in ORBITS]
        return cls(sum(of), 0, 0, 0, *of)

    def by_orbit(self) -> dict[int, int]:
        """The classes by their size, sizes with none left out."""
        return {size: k for size, k in zip(ORBITS, self[-len(ORBITS) :], strict=True) if k}


#: The sizes a class of the board's symmetries can have (they divide the 8 of the square).
ORBITS = (1, 2, 4, 8)


WIDTH = len(Counts._fields)

#: Counts the items given, searching on until stop[FLAG] is set, adding its placements to
#: stop[NODES]; the deadline only decides whether a compile may start (None in pool workers,
#: which their parent stops).
Run = Callable[[Any, np.ndarray, np.ndarray, "Deadline | None"], Counts]


@dataclass(frozen=True)
class Items:
    """A count as `size` numbered work items: run(context, indices, stop, deadline) counts
    some of them. `load` loads the compiled kernels in this process (before forking workers that
    share them); `info` is what a checkpoint records beside item i's count; `per_call` how many
    items one call takes in this process (one call per item costs more than a small item);
    `denominator` how many times the count the items' counts add up to (items that weigh a
    set by a fraction of one, over this common denominator)."""

    fingerprint: dict[str, Any]
    size: int
    run: Run
    context: Any
    load: Callable[[], None]
    info: Callable[[int], dict[str, Any]] | None = None
    per_call: int = 1
    denominator: int = 1

    def partition(self) -> Partition:
        """The items for checkpoints and Dask (`run.partition`), which take each item's count."""
        from ....run.partition import Partition

        context = (self.run, self.context)
        return Partition(
            self.fingerprint, self.size, item_count, context, self.load, self.info, denominator=self.denominator
        )


def warm(run: Run, context: Any, indices: int = 1) -> None:
    """The compiled kernels of `run` loaded in this process (compiled first where the cache has
    none), by counting the first `indices` items of a small board's `context`: what each list's
    `load_kernels` does before forking workers that share them."""
    from ...watch import tally

    run(context, np.arange(indices), tally(), None)


def item_counts(context: tuple[Run, Any], i: int) -> Counts:
    """Item i counted to its end, with its nodes: what a pool worker runs."""
    from ...watch import tally

    run, ctx = context
    t = tally()
    return run(ctx, np.array([i]), t, None)._replace(nodes=int(t[NODES]))


def item_count(context: tuple[Run, Any], i: int) -> int:
    """Item i's count: what a checkpoint records."""
    return item_counts(context, i).count


class _Enough(Exception):
    """A run that has found what it was asked for (`count_items`'s `enough`)."""

    def __init__(self, found: int) -> None:
        self.found = found


def count_items(
    items: Items,
    workers: int,
    deadline: Deadline,
    progress: Any = None,
    bounded: bool = True,
    enough: int | None = None,
) -> Counts:
    """Every item's counts summed, on `workers` processes or in this one (`per_call` items a call,
    stopped mid-call by a watcher on Ctrl-C or at the deadline). At the deadline: Unknown, with
    the solutions counted so far as its lower bound where `bounded` (a count, not classes).
    With `enough`, the run ends as soon as that many are counted (a search for one: the pool's
    other items are dropped), the count then what was found."""
    from ...watch import watched

    share = items.denominator
    check = (lambda found: deadline.check(found // share)) if bounded else lambda _found: deadline.check(None)

    def poll(found: int) -> None:
        if enough is not None and found >= enough:
            raise _Enough(found)
        check(found)

    def whole(counts: Counts) -> Counts:
        """The count, the items' weights over their denominator added up."""
        if counts.count % share:
            raise ValueError(f"the items' weights ({counts.count}) are not a whole number of {share}ths")
        return counts._replace(count=counts.count // share)

    if workers > 1:
        from ....run.parallel import share_work

        items.load()
        context = (items.run, items.context)
        try:
            return whole(Counts(*share_work(item_counts, items.size, workers, context, WIDTH, progress, poll)))
        except _Enough as done:
            return Counts(done.found)
    total = Counts()
    spent = 0.0
    with watched(deadline) as stop:
        for lo in range(0, items.size, items.per_call):
            start = time.perf_counter()
            part = np.arange(lo, min(lo + items.per_call, items.size))
            got = items.run(items.context, part, stop, deadline)
            check(total.count)  # a call stopped at the deadline: its counts are not taken
            total = total.plus(got)
            spent += time.perf_counter() - start
            report(progress, lo + part.size, items.size, total.count // share, spent)
            if enough is not None and total.count >= enough:
                break
        return whole(total._replace(nodes=int(stop[NODES])))


class Split(StrEnum):
    """How a count was cut into items, as a checkpoint's fingerprint names it (its "split")."""

    ROWS = "rows"
    CLASSES = "classes"
    CONSTELLATIONS = "constellations"
    ANY_PIECE = "any-piece"
    JOIN = "join"
    LAYOUTS = "layouts"
    COVER = "cover"


def fingerprint(problem: Problem, depth: int, split: Split = Split.ROWS) -> dict[str, Any]:
    """What item numbers mean: the problem (a rectangle's rows too; a square's files stay as
    they were) and the cut, which each list adds to."""
    return problem.as_dict(brief=True) | {"split": split.value, "depth": depth}
