"""Waiting in the main thread where a signal's exception may land anywhere.

The `nqueens` script's handlers raise KeyboardInterrupt or Terminated wherever the main thread
happens to be (`entry.py`). `queue.Queue`, `threading.Event.wait` and `Condition` are written in
Python: an exception raised between their lock's acquire and the `with` (or `try`) that would
release it leaves the lock held, and the next get, put or set, a helper thread's included, waits
on it for ever. `count -b minizinc` then outlived its SIGTERM now and then, its stream's reader
blocked on a queue whose lock the interrupted get had kept (`tests/test_programs.py` raises an
exception at every step of a get to hold the hand-over to this). So the main thread waits only
in single C calls that hold nothing when they raise: `time.sleep`, `select`, and the get of
`queue.SimpleQueue`, of which `Handoff` makes a bounded queue.
"""

from __future__ import annotations

import queue
import threading
from typing import Generic, TypeVar

T = TypeVar("T")

#: How long a producer waits for a free place before it looks at its stop flag again.
PUT_WAIT_SECONDS = 0.05


class Handoff(Generic[T]):
    """Items from a helper thread to the main thread, at most `places` of them waiting: a
    producer takes a free place before it puts an item, the consumer gives one back for each
    item it takes. Both sides are SimpleQueues, whose get and put are single C calls."""

    def __init__(self, places: int) -> None:
        self._items: queue.SimpleQueue[T] = queue.SimpleQueue()
        self._free: queue.SimpleQueue[None] = queue.SimpleQueue()
        for _ in range(places):
            self._free.put(None)

    def put(self, item: T, stop: threading.Event) -> bool:
        """Hand `item` over once a place is free; False (the item dropped) once `stop` is set,
        so that a producer never waits for a consumer that has gone."""
        while True:
            try:
                self._free.get(timeout=PUT_WAIT_SECONDS)
                break
            except queue.Empty:
                if stop.is_set():
                    return False
        self._items.put(item)
        return True

    def get(self, timeout: float | None = None) -> T:
        """The next item (queue.Empty after `timeout` seconds). An exception raised here by a
        signal loses at most the item and its place: the consumer is stopping."""
        item = self._items.get(timeout=timeout)
        self._free.put(None)
        return item

    def empty(self) -> bool:
        return self._items.empty()
