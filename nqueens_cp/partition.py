"""Long counts cut into numbered sub-problems, run on a local process pool or a Dask cluster,
recorded in a checkpoint as they finish, and resumable after a kill.

The sub-problems are the bitmask backend's prefix partition (the placements of the first
`depth` rows), in a fixed order, so a sub-problem's number means the same thing in every run
of the same problem and depth. A checkpoint names the problem and the partition it was made
for and refuses any other.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .backends.bitmask import MAX_COMPILED_N, Subproblem, masks_array, split
from .problem import NQueensError, Problem

Runner = Callable[[np.ndarray, bool, Sequence[tuple[int, Subproblem]]], Iterator[tuple[int, int]]]


class CheckpointError(NQueensError):
    pass


def _fingerprint(problem: Problem, depth: int, total: int) -> dict[str, Any]:
    return {
        "n": problem.n,
        "piece": problem.piece,
        "torus": problem.torus,
        "blocked": [list(sq) for sq in problem.blocked],
        "fixed": [list(sq) for sq in problem.fixed],
        "depth": depth,
        "subproblems": total,
    }


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
            if any(not 0 <= i < fingerprint["subproblems"] for i in self.done):
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
    from .parallel import pool_counts

    return lambda masks, diag, items: pool_counts(masks, diag, items, workers)


def dask_runner(address: str, workers: int | None = None) -> Runner:
    """Sub-problems as Dask tasks. `address` is a scheduler ("tcp://host:8786") or "local"
    for a LocalCluster of `workers` single-threaded processes started here."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise NQueensError("--dask needs Dask: pip install 'nqueens_cp[dask]'") from None
    from .parallel import count_one

    def run(masks: np.ndarray, diag: bool, items: Sequence[tuple[int, Subproblem]]) -> Iterator[tuple[int, int]]:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1) if address == "local" else None
        try:
            client = Client(cluster or address, timeout=10)
        except (OSError, TimeoutError) as exc:
            raise NQueensError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        try:
            remote = client.scatter(masks, broadcast=True)
            futures = {client.submit(count_one, remote, diag, sub, pure=False): i for i, sub in items}
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    return run


def count_partitioned(
    problem: Problem,
    depth: int = 3,
    runner: Runner | None = None,
    checkpoint: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """The exact count, summed over the sub-problems; those a checkpoint records are skipped."""
    if problem.n > MAX_COMPILED_N or problem.torus or problem.rule.knight:
        raise NQueensError("partitioned counting covers queen and rook boards up to 64 columns")
    subs = split(problem, depth)
    masks = masks_array(problem)
    done: dict[int, int] = {}
    record: Callable[[int, int], None] = done.__setitem__
    if checkpoint is not None:
        ckpt = Checkpoint(checkpoint, _fingerprint(problem, depth, len(subs)))
        done, record = ckpt.done, ckpt.record
    todo = [(i, sub) for i, sub in enumerate(subs) if i not in done]
    if progress:
        progress(len(done), len(subs))
    if todo:
        run = runner or pool_runner(1)
        for index, count in run(masks, problem.rule.diagonals, todo):
            record(index, count)
            if progress:
                progress(len(done), len(subs))
    return sum(done.values())
