"""Long counts cut into numbered work items, run in this process, on a process pool or on a Dask
cluster, recorded in a checkpoint as they finish, and resumable after a kill.

Generic machinery: a backend that declares the `partition` capability hands over a `Partition`
(a picklable function, its context, how many items, and a fingerprint of what the numbering
means); nothing here knows which backend made it. A checkpoint names the fingerprint it was made
for and refuses any other.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .problem import NQueensError


@dataclass(frozen=True)
class Partition:
    """A count cut into `size` numbered items whose results add up to the total: item i counts
    func(context, i). `prepare`, if given, runs once in the parent before any worker starts (to
    load compiled code that forked workers then share)."""

    fingerprint: dict[str, Any]
    size: int
    func: Callable[[Any, int], int]
    context: Any
    prepare: Callable[[], None] | None = None


Runner = Callable[[Partition, Sequence[int]], Iterator[tuple[int, int]]]


class CheckpointError(NQueensError):
    pass


class Checkpoint:
    """A JSON file {"problem": fingerprint, "done": {index: count}}, rewritten atomically
    (temporary file, fsync, rename) each time a sub-problem finishes."""

    def __init__(self, path: Path, fingerprint: dict[str, Any]) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self.done: dict[int, int] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text())
                saved, done = data["problem"], data["done"]
                self.done = {int(i): int(c) for i, c in done.items()}
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
                raise CheckpointError(f"{path}: not a readable checkpoint ({exc})") from None
            if saved != fingerprint:
                diff = ", ".join(f"{k}={saved.get(k)!r}" for k in fingerprint if saved.get(k) != fingerprint[k])
                raise CheckpointError(f"{path} was made for a different problem or partition ({diff})")
            if any(not 0 <= i < fingerprint["items"] for i in self.done):
                raise CheckpointError(f"{path}: sub-problem numbers out of range")

    def record(self, index: int, count: int) -> None:
        self.done[index] = count
        data = json.dumps({"problem": self.fingerprint, "done": {str(i): c for i, c in sorted(self.done.items())}})
        fd, tmp = tempfile.mkstemp(dir=self.path.parent or ".", prefix=f".{self.path.name}.")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise


def pool_runner(workers: int) -> Runner:
    """Items in this process (workers = 1) or on a process pool, results as they finish."""

    def run(part: Partition, indices: Sequence[int]) -> Iterator[tuple[int, int]]:
        if part.prepare:
            part.prepare()
        if workers == 1:
            return ((i, part.func(part.context, i)) for i in indices)
        from .parallel import pool_imap

        return pool_imap(part.func, indices, workers, part.context)

    return run


def dask_runner(address: str, workers: int | None = None) -> Runner:
    """Items as Dask tasks. `address` is a scheduler ("tcp://host:8786") or "local" for a
    LocalCluster of `workers` single-threaded processes started here."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise NQueensError("--dask needs Dask: pip install 'nqueens_cp[dask]'") from None

    def run(part: Partition, indices: Sequence[int]) -> Iterator[tuple[int, int]]:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1) if address == "local" else None
        try:
            client = Client(cluster or address, timeout=10)
        except (OSError, TimeoutError) as exc:
            raise NQueensError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        try:
            context = client.scatter(part.context, broadcast=True)
            futures = {client.submit(part.func, context, i, pure=False): i for i in indices}
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    return run


def count_partitioned(
    part: Partition,
    runner: Runner | None = None,
    checkpoint: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """The exact count, summed over the items; those a checkpoint records are skipped."""
    done: dict[int, int] = {}
    record: Callable[[int, int], None] = done.__setitem__
    if checkpoint is not None:
        ckpt = Checkpoint(checkpoint, part.fingerprint | {"items": part.size})
        done, record = ckpt.done, ckpt.record
    todo = [i for i in range(part.size) if i not in done]
    if progress:
        progress(len(done), part.size)
    if todo:
        run = runner or pool_runner(1)
        for index, count in run(part, todo):
            record(index, count)
            if progress:
                progress(len(done), part.size)
    return sum(done.values())
