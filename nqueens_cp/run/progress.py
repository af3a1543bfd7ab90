"""Progress of a count cut into sub-problems: how many are done, the solutions they found, and
the time left, estimated from the measured cost of the finished ones.

Sub-problems differ in cost by orders of magnitude, and the runners take the heavy ones first,
so "done / total" of the wall time says little. What is known is what each finished one cost
(the seconds its worker spent on it): the time left is their mean cost times the sub-problems
left, shared by the workers. Generic: any numbered work whose items report a count and a cost.

A progress callback is called `progress(done, total)`; one that also wants the solutions and
the estimate is a `Tally` (or has its `update`), which the runners feed through `report`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tally:
    """done of total sub-problems, `found` solutions so far, `cost` seconds of work on them."""

    workers: int = 1
    done: int = 0
    total: int = 0
    found: int = 0
    cost: float = 0.0
    started: float = field(default_factory=time.monotonic)
    #: Called after each update (a progress bar's redraw).
    show: Callable[[Tally], None] | None = None
    #: How many were done at the first update: those a resumed checkpoint held.
    before: int | None = None
    #: Whether `found` counts solutions (a profile's items add up vectors, not solutions).
    counts: bool = True

    def update(self, done: int, total: int, found: int | None = None, cost: float | None = None) -> None:
        if self.before is None:
            self.before = done
        self.done, self.total = done, total
        if found is not None:
            self.found = found
        if cost is not None:
            self.cost = cost
        if self.show:
            self.show(self)

    def __call__(self, done: int, total: int) -> None:
        self.update(done, total)

    @property
    def seconds_left(self) -> float | None:
        """The mean measured cost of a sub-problem finished in this run times those left, per
        worker (where the runner measures no cost, the workers' wall time stands for it). Those a
        resumed checkpoint held cost this run nothing: counted in the mean, they made a resumed
        count's time left look a fraction of what it was."""
        if self.done >= self.total:
            return 0.0 if self.done else None
        finished = self.done - (self.before or 0)
        if finished <= 0:
            return None
        cost = self.cost if self.cost > 0 else (time.monotonic() - self.started) * max(1, self.workers)
        return cost / finished * (self.total - self.done) / max(1, self.workers)

    def summary(self) -> str:
        took = time.monotonic() - self.started
        solutions = f", {self.found:,} solution" + ("" if self.found == 1 else "s") if self.counts else ""
        return f"{self.done:,} of {self.total:,} done{solutions}, {took:.1f} s"


def report(progress: Any, done: int, total: int, found: int | None = None, cost: float | None = None) -> None:
    """Tell `progress` (a callback, a Tally, or None) how far a run is."""
    if progress is None:
        return
    update = getattr(progress, "update", None)
    if callable(update):
        update(done, total, found, cost)
    else:
        progress(done, total)
