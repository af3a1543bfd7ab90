"""Long counts cut into numbered work items, run in this process, on a process pool or on a Dask
cluster, recorded in a checkpoint as they finish, and resumable after a kill.

Generic machinery: a backend that declares the `partition` capability hands over a `Partition`
(a picklable function, its context, how many items, and a fingerprint of what the numbering
means); nothing here knows which backend made it. A checkpoint names the fingerprint it was made
for and refuses any other.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import signal
import time
import weakref
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model.problem import NQueensError
from .files import read_regular, replacing
from .progress import report

#: The largest checkpoint journal read (a record is under 200 bytes: millions of items).
MAX_JOURNAL_BYTES = 1 << 30

#: The journals this process holds open and locked. An flock belongs to the open file, which a
#: forked child (a pool worker) shares: a run killed with SIGKILL would keep its checkpoint
#: locked until its last worker died, and a resume at once would be refused as "in use".
_HELD: weakref.WeakSet[Any] = weakref.WeakSet()


def _let_go_in_child() -> None:
    """In a freshly forked child: each held journal's descriptor pointed at /dev/null, so only
    the parent holds the lock, and nothing the child might flush reaches the journal."""
    held = [f for f in _HELD if not f.closed]
    if held:
        null = os.open(os.devnull, os.O_WRONLY)
        for f in held:
            os.dup2(null, f.fileno())
        os.close(null)


os.register_at_fork(after_in_child=_let_go_in_child)


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
    #: What a checkpoint records beside item i's count (its class, its weight...); reading a
    #: journal, each record's must be this.
    info: Callable[[int], dict[str, Any]] | None = None
    #: The backend's name for how it cut the count (the plan reports it), and, where it is not
    #: the cut the backend plans for this run but a checkpoint's own, what was followed.
    algorithm: str = ""
    followed: str = ""
    #: The bytes one worker holds, where the backend declares it, and so the most workers that
    #: may run at once under its memory budget (None: no bound).
    memory: int | None = None
    workers: int | None = None
    #: How a process that has nothing but this (a Dask worker that joined mid-run) builds the
    #: partition itself: a small picklable call, where `context` (tables of megabytes) is
    #: scattered to the workers present and lost with them. None: the context is scattered.
    rebuild: Callable[[], Partition] | None = None
    #: The packages (and versions) a worker must run for its counts to be this client's.
    requires: dict[str, str] | None = None
    #: Its items' counts may pass 64 bits (a vector written as one integer): the pool hands
    #: them over as messages, not in its shared 64-bit slots.
    wide: bool = False
    #: The items' counts add up to this many times the total (items that weigh what they count
    #: by a fraction of one, over this common denominator).
    denominator: int = 1

    def total(self, counts: int) -> int:
        """The total that the items' counts (all of them, or those finished: a lower bound) make."""
        return counts // self.denominator


#: A runner: (part, the items to count[, a poll it calls at least every second or so, which may
#: raise to stop the run: given under a time limit]) -> (item, count) as items finish.
Runner = Callable[[Partition, Sequence[int], Callable[[], None] | None], Iterator[tuple[int, int]]]


class PartialCount(NQueensError):
    """A partitioned count stopped at its time limit: what was counted, a lower bound; a
    checkpoint, if any, holds every finished item, and the same command resumes from it."""

    def __init__(self, found: int, done: int, total: int) -> None:
        super().__init__(f"{done:,} of {total:,} sub-problems counted, {found:,} solutions so far (a lower bound)")
        self.found, self.done, self.total = found, done, total


class _DeadlinePassed(Exception):
    pass


class CheckpointError(NQueensError):
    pass


#: The journal format written here (the first line of every checkpoint says it).
FORMAT = 2

#: Records reach the system at least this often (a killed process loses at most this much
#: work, which is simply run again)...
FLUSH_SECONDS = 0.1
#: ...and the disk at least this often (a machine that loses power, this much).
FSYNC_SECONDS = 1.0


def _shown(value: Any) -> str:
    """A fingerprint's value in a message: short ones whole, a long list by its length."""
    text = json.dumps(value)
    if len(text) <= 40:
        return text
    return f"{text[:30]}... ({len(value)} items)" if isinstance(value, list) else f"{text[:40]}..."


def journal_fingerprint(path: Path) -> dict[str, Any] | None:
    """The fingerprint a journal's header names, or None where there is no readable header (the
    checkpoint itself, opened, says why): what a backend follows when its plan for this run
    cuts the count otherwise (Backend.partition)."""
    try:
        if not path.is_file():  # (a FIFO would block the open)
            return None
        with path.open("rb") as f:
            return _fingerprint(f.readline(1 << 20))
    except OSError:
        return None


def journal_left(path: Path) -> float | None:
    """The share of a journal's items it has not recorded yet, from its header's item count and
    its record lines (a rough share: items differ in size); None where no journal stands there."""
    try:
        text = read_regular(path, MAX_JOURNAL_BYTES)  # (one read: its header and its lines)
    except OSError:
        return None
    saved = _fingerprint(text.split(b"\n", 1)[0])
    items = None if saved is None else saved.get("items")
    if type(items) is not int or items <= 0:
        return None
    return max(0, items - (text.count(b"\n") - 1)) / items


def _header(line: str | bytes) -> dict[str, Any] | None:
    """A journal's first line read as its header, or None where it is not one of this format."""
    try:
        head = json.loads(line)
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python parses
        return None
    ok = isinstance(head, dict) and head.get("nqueens_checkpoint") == FORMAT and "fingerprint" in head
    return head if ok else None


def _fingerprint(line: bytes) -> dict[str, Any] | None:
    """The fingerprint a journal's first line names, or None where it names none."""
    head = _header(line)
    saved = None if head is None else head["fingerprint"]
    return saved if isinstance(saved, dict) else None


def _digest(fingerprint: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fingerprint, sort_keys=True).encode()).hexdigest()


def record_check(problem_digest: str, index: int, count: int) -> str:
    """The check that ties a record to its checkpoint and its numbers: a hand-edited count is
    refused on reading. A CRC guards against mistakes (edits, copies between checkpoints), not
    against forgery, and costs a fraction of a microsecond per record."""
    return f"{zlib.crc32(f'{problem_digest}:{index}:{count}'.encode()):08x}"


class Checkpoint:
    """An append-only journal: a header line {"nqueens_checkpoint": 2, "fingerprint": {...}}, then
    one line {"i": index, "count": count, "check": ...} per finished item. Recording an item is
    one small write (O(1), whatever the file's size); opening an existing journal validates all
    of it and compacts it (duplicates and a torn last line dropped, atomically) only where it
    holds one: a sound journal is appended to as it is, so a finished one run again stays byte
    for byte the file whose digest was published with its count."""

    def __init__(
        self,
        path: Path,
        fingerprint: dict[str, Any],
        info: Callable[[int], dict] | None = None,
        read_only: bool = False,
    ) -> None:
        self.path = path
        self.info = info
        self.fingerprint = fingerprint
        self.digest = _digest(fingerprint)
        self.size = int(fingerprint["items"])
        self.done: dict[int, int] = {}
        self._file: Any = None
        if path.exists() and not path.is_file():  # a FIFO would block the open, a device never end
            raise CheckpointError(f"{path} is not a regular file: a checkpoint is one")
        if read_only:  # --check: read and validated, never written or locked
            if not path.exists():
                raise CheckpointError(f"{path}: no such checkpoint")
            self._load()
            return
        existed = path.exists()
        held = self._locked(path)  # before anything is read: one run per journal
        try:
            if existed and self._load():
                self._file = held  # sound: appended to as it stands
            else:
                self._rewrite()
                self._file = self._locked(path)  # the compacted journal is a new file: held before the old is let go
                held.close()
        except BaseException:
            held.close()
            if not existed and path.exists() and not path.stat().st_size:
                path.unlink()
            raise
        self._synced = self._flushed = time.monotonic()

    def _locked(self, path: Path) -> Any:
        """The journal opened for appending, with an exclusive lock (flock): a second run on the
        same checkpoint is refused, since its rewrite would orphan the first run's appends."""
        try:
            f = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise CheckpointError(f"{path}: cannot write the checkpoint: {exc.strerror}") from None
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise CheckpointError(f"{path} is in use by another run (one run per checkpoint)") from None
        _HELD.add(f)
        return f

    def _load(self) -> bool:
        """The journal's records read into `done`, every one validated; True when it is sound as
        it stands (a whole last line, no record twice), False when it needs compacting."""
        path = self.path
        try:
            text = read_regular(path, MAX_JOURNAL_BYTES).decode("utf-8")
            lines = text.splitlines()
        except OSError as exc:
            raise CheckpointError(f"{path}: not a readable checkpoint ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            raise CheckpointError(f"{path}: not a readable checkpoint ({exc})") from None
        head = _header(lines[0]) if lines else None
        if head is None:
            raise CheckpointError(f"{path}: not a readable checkpoint (no nqueens checkpoint header on line 1)")
        saved = head["fingerprint"]
        if saved != self.fingerprint:
            if not isinstance(saved, dict):
                raise CheckpointError(f"{path}: not a readable checkpoint (its fingerprint is not an object)")
            keys = sorted(set(saved) | set(self.fingerprint))
            diff = "; ".join(
                f"{k} {_shown(saved.get(k))} there, {_shown(self.fingerprint.get(k))} here"
                for k in keys
                if saved.get(k) != self.fingerprint.get(k)
            )
            raise CheckpointError(f"{path} was made for a different problem or partition ({diff})")
        sound = True
        for lineno, line in enumerate(lines[1:], 2):
            try:
                rec = json.loads(line)
                i, count, check = rec["i"], rec["count"], rec["check"]
            except (ValueError, KeyError, TypeError, RecursionError):
                if lineno == len(lines):  # a write cut short by a kill: that item is simply run again
                    return False
                raise CheckpointError(f"{path}:{lineno}: not a checkpoint record") from None
            if not (type(i) is int and 0 <= i < self.size and type(count) is int and count >= 0):
                raise CheckpointError(f"{path}:{lineno}: item {i!r} with count {count!r} is out of range")
            if check != record_check(self.digest, i, count):
                raise CheckpointError(f"{path}:{lineno}: the record of item {i} does not check (edited?)")
            if self.info and rec.get("item") != self.info(i):
                raise CheckpointError(f"{path}:{lineno}: the record of item {i} does not describe item {i} (edited?)")
            if self.done.get(i, count) != count:
                raise CheckpointError(f"{path}:{lineno}: item {i} is recorded twice with different counts")
            sound = sound and i not in self.done
            self.done[i] = count
        return sound and text.endswith("\n")  # (a last record cut before its newline would join the next)

    def _line(self, i: int, count: int) -> str:
        about = f', "item": {json.dumps(self.info(i))}' if self.info else ""
        return f'{{"i": {i:d}, "count": {count:d}, "check": "{record_check(self.digest, i, count)}"{about}}}\n'

    def _rewrite(self) -> None:
        """The journal written afresh (temporary file, fsync, rename): header and records."""
        try:
            with replacing(self.path) as (f, _):
                f.write((json.dumps({"nqueens_checkpoint": FORMAT, "fingerprint": self.fingerprint}) + "\n").encode())
                f.writelines(self._line(i, c).encode() for i, c in sorted(self.done.items()))
        except OSError as exc:
            raise CheckpointError(f"{self.path}: cannot write the checkpoint: {exc.strerror or exc}") from None

    def record(self, index: int, count: int) -> None:
        """One record, appended (O(1)): buffered, written out every FLUSH_SECONDS."""
        self.done[index] = count
        self._file.write(self._line(index, count))
        now = time.monotonic()
        if now - self._flushed > FLUSH_SECONDS:
            self._file.flush()
            self._flushed = now
            if now - self._synced > FSYNC_SECONDS:
                os.fsync(self._file.fileno())
                self._synced = now

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()


def pool_runner(workers: int) -> Runner:
    """Items on a pool of `workers` processes, results as they finish: a worker process even for
    one, since an item is a compiled call that no signal reaches (`func` runs it unwatched), so
    Ctrl-C, SIGTERM or a poll stop it by ending its process, within a fraction of a second, where
    an item run in this process would go on to its end (minutes, for a profile's)."""

    def run(
        part: Partition, indices: Sequence[int], poll: Callable[[], None] | None = None
    ) -> Iterator[tuple[int, int]]:
        if part.prepare:
            part.prepare()
        if part.wide:
            return _messages(part, indices, workers, poll)
        from .parallel import run_items

        return run_items(part.func, indices, workers, part.context, poll=poll)

    return run


def _messages(
    part: Partition, indices: Sequence[int], workers: int, poll: Callable[[], None] | None
) -> Iterator[tuple[int, int]]:
    """Items of any size of count on a pool of fresh processes, each result a message, as they finish; the
    pool is terminated however the run ends (a stop, a poll that raises, the reader leaving)."""
    import multiprocessing

    pool = multiprocessing.get_context("spawn").Pool(workers)  # (a fork beside threads can inherit a held lock)
    try:
        pending = {i: pool.apply_async(part.func, (part.context, i)) for i in indices}
        while pending:
            ready = [i for i, result in pending.items() if result.ready()]
            for i in ready:
                yield i, pending.pop(i).get()
            if not ready:
                if poll is not None:
                    poll()
                time.sleep(MESSAGE_POLL_SECONDS)
    finally:
        pool.terminate()
        pool.join()


#: How long a pool of messages sleeps when no item has finished since it last looked.
MESSAGE_POLL_SECONDS = 0.05


#: How long a Dask run waits for its scheduler to answer, and then for at least one worker
#: (at the start, or after losing every worker), before it gives up with one line.
DASK_WAIT_SECONDS = 20.0

#: Dask tasks per worker (present at the start): enough to balance uneven items, few enough
#: that scheduling is not the work.
DASK_TASKS_PER_WORKER = 32

#: How long a Dask run sleeps when no item has finished since it last looked (Ctrl-C is handled
#: between looks).
DASK_POLL_SECONDS = 0.05

_DASK_ADDRESS = re.compile(r"(tcp|tls|ucx|ws|wss)://[^\s/]+:\d+|inproc://\S+")


def check_dask_address(address: str) -> None:
    if address != "local" and not _DASK_ADDRESS.fullmatch(address):
        raise NQueensError(f"--dask expects 'local' or a scheduler address such as tcp://HOST:8786, got {address!r}")


def _refused_at_once(address: str, wait: float) -> None:
    """A scheduler address that refuses the connection is one line now: Dask's client would
    try again until the whole wait had passed (20 s), though a refusal means that nothing
    listens there. Anything else (no answer yet, a name that does not resolve) is left to the
    client's own bounded wait."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    if parts.scheme not in {"tcp", "tls", "ws", "wss"} or not parts.hostname or not parts.port:
        return
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=wait):
            pass
    except ConnectionRefusedError:
        raise NQueensError(f"cannot reach the Dask scheduler at {address}: the connection was refused") from None
    except OSError:
        pass


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask logs recoverable trouble (a lost worker it recovered from, a shutdown) as warnings
    and tracebacks on stderr, from loggers it configures itself; the run's outcome is reported
    by us, in one line. This package logs nothing, so all logging is off during the run."""
    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(before)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Processes started in here never see SIGINT, and a Ctrl-C that comes meanwhile is held for
    this process, not dropped. A terminal's Ctrl-C reaches the whole process group, and it is
    for this process to stop the processes it started.

    SIGINT is blocked in this thread, so in the threads started from it, and in the processes
    they start (a blocked mask outlives exec; CPython starts its resource tracker so). A SIGINT
    that reaches a thread started earlier (numpy's BLAS starts one at import) is noted by the
    handler here and sent again at the end, to whatever handler is back. Ignoring SIGINT
    instead dropped a Ctrl-C made while a local cluster started (about a second): that thread
    took it, and the count ran on.

    The mask is put back before the handler: a SIGINT that another thread took runs its Python
    handler in this thread a moment later, maybe only once the handler before is back, and that
    KeyboardInterrupt, raised between the two, left SIGINT blocked in this thread for good (every
    later Ctrl-C ignored, and inherited by every process started afterwards)."""
    came: list[int] = []
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    before = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:  # the mask first (see above); a SIGINT pending in this thread reaches `came` there
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        finally:
            signal.signal(signal.SIGINT, before)
    if came:
        signal.raise_signal(signal.SIGINT)


def dask_runner(address: str, workers: int | None = None, wait: float = DASK_WAIT_SECONDS) -> Runner:
    """Items as Dask tasks. `address` is a scheduler ("tcp://host:8786") or "local" for a
    LocalCluster of `workers` single-threaded processes started here (dashboard off). Every wait
    is bounded by `wait` seconds: reaching the scheduler, finding a worker, and going on without
    any worker (Dask re-runs the tasks of a worker it lost on the others)."""
    check_dask_address(address)
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise NQueensError("--dask needs Dask: pip install 'nqueens_cp[dask]'") from None

    def run(
        part: Partition, indices: Sequence[int], poll: Callable[[], None] | None = None
    ) -> Iterator[tuple[int, int]]:
        with _quiet_dask(), contextlib.ExitStack() as cleanup:
            cluster = None
            try:
                if address == "local":
                    import tempfile

                    import dask

                    # the workers' scratch folder is ours to remove: Dask left dask-scratch-space in $TMPDIR
                    scratch = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="nqueens-dask-"))
                    cleanup.enter_context(dask.config.set({"temporary-directory": scratch}))
                    _quiet_resource_tracker()
                    with _sigint_held():  # a Ctrl-C meanwhile arrives as this ends, the cluster made
                        cluster = LocalCluster(
                            n_workers=workers,
                            threads_per_worker=1,
                            dashboard_address=None,
                            silence_logs=logging.CRITICAL,
                            local_directory=scratch,
                        )
                else:
                    _refused_at_once(address, wait)
                try:
                    client = Client(cluster or address, timeout=wait)
                except Exception as exc:  # OSError, TimeoutError, a handshake with something else...
                    why = f"cannot reach the Dask scheduler at {address} within {wait:g} s: {exc}"
                    raise NQueensError(why) from None
                try:
                    try:
                        client.wait_for_workers(1, timeout=wait)
                    except TimeoutError:
                        why = f"the Dask scheduler at {address} has no worker (waited {wait:g} s)"
                        raise NQueensError(why) from None
                    yield from _gather(client, as_completed, part, indices, wait, address, poll)
                finally:
                    with contextlib.suppress(Exception):
                        client.close(timeout=wait)
            except BaseException:
                if cluster is not None:  # stopped, or failed: its workers' tasks are not waited for
                    _kill_workers(cluster)
                raise
            finally:
                if cluster is not None:
                    with contextlib.suppress(Exception):
                        cluster.close(timeout=wait)

    return run


def _quiet_resource_tracker() -> None:
    """multiprocessing's resource tracker, started with its stderr on /dev/null, unless it runs
    already. A local cluster's processes register semaphores with it, and when this process is
    killed (kill -9) it outlives us and warns of "leaked semaphore objects" on the terminal,
    after the shell's prompt; it cleans them up all the same, which is all that matters."""
    from multiprocessing import resource_tracker

    if getattr(resource_tracker._resource_tracker, "_fd", None) is not None:
        return
    saved = os.dup(2)
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 2)
        os.close(quiet)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _kill_workers(cluster: Any) -> None:
    """A local cluster's worker processes, killed: closing the cluster waits for the tasks they
    run to end (Ctrl-C took 2.5 to 4 s, where the pool stops in half a second)."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(nanny, "pid", None)
        if isinstance(pid, int) and pid > 0:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


#: The partitions this process built for itself (`Partition.rebuild`), by fingerprint.
_BUILT: dict[str, Partition] = {}


def _built_chunk(
    rebuild: Callable[[], Partition], key: str, requires: dict[str, str], indices: tuple[int, ...]
) -> list[tuple[int, Any]]:
    """A Dask task: several items, on a worker that builds (once) and keeps the partition
    itself, after checking that it runs the versions the client runs."""
    from importlib.metadata import PackageNotFoundError, version

    for package, wanted in requires.items():
        try:
            here = version(package)
        except PackageNotFoundError:
            here = "none"
        if here != wanted:
            raise NQueensError(f"a Dask worker runs {package} {here}, the client {wanted}: install the same on both")
    if key not in _BUILT:
        _BUILT[key] = rebuild()
    part = _BUILT[key]
    return [(i, part.func(part.context, i)) for i in indices]


def _chunk(func: Callable[[Any, int], Any], context: Any, indices: tuple[int, ...]) -> list[tuple[int, Any]]:
    """A Dask task: several items, each result with its index."""
    return [(i, func(context, i)) for i in indices]


def _gather(
    client: Any,
    as_completed: Any,
    part: Partition,
    indices: Sequence[int],
    wait: float,
    address: str,
    poll: Callable[[], None] | None = None,
):
    """(i, count) as Dask finishes the items, watching (once a second) that some worker is left.
    Items go in chunks, DASK_TASKS_PER_WORKER per worker present at the start: a Dask task costs
    milliseconds of scheduling, where thousands of items take a few each (n = 17 as one task per
    item: 21 s instead of 5)."""
    if part.rebuild is not None:  # every worker builds what it needs: any of them may leave
        task: tuple[Any, ...] = (_built_chunk, part.rebuild, _digest(part.fingerprint), part.requires or {})
    else:
        task = (_chunk, part.func, client.scatter(part.context, broadcast=True))
    present = max(1, len(client.scheduler_info().get("workers", {})))
    size = max(1, -(-len(indices) // (present * DASK_TASKS_PER_WORKER)))
    chunks = [tuple(indices[k : k + size]) for k in range(0, len(indices), size)]
    futures = {client.submit(*task, chunk, pure=False): chunk for chunk in chunks}
    finishing = as_completed(list(futures))
    alone_since: float | None = None
    next_look = time.monotonic() + 1.0
    while not finishing.is_empty():
        finished = finishing.next_batch(block=False)
        if not finished:
            time.sleep(DASK_POLL_SECONDS)
        if poll is not None:
            poll()
        for future in finished:
            chunk = futures.pop(future)
            if future.status == "error":
                raise NQueensError(f"Dask items {chunk[0]}..{chunk[-1]} failed: {future.exception()!r}")
            if future.status not in ("finished", "lost"):
                raise NQueensError(f"Dask items were {future.status} (the scheduler at {address} was lost?)")
            try:
                results = future.result() if future.status == "finished" else None
            except Exception:  # the worker holding it died while we fetched it
                results = None
            if results is None:  # its result was on a worker that died: compute it again
                again = client.submit(*task, chunk, pure=False)
                futures[again] = chunk
                finishing.add(again)
                continue
            yield from results
        if time.monotonic() < next_look:
            continue
        next_look = time.monotonic() + 1.0
        try:
            has_workers = bool(client.scheduler_info().get("workers"))
        except Exception as exc:
            raise NQueensError(f"lost the Dask scheduler at {address}: {exc}") from None
        if has_workers:
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since > wait:
            undone = sum(len(c) for c in futures.values())
            raise NQueensError(f"no Dask worker left for {wait:g} s ({undone} items not done)")


def open_checkpoint(part: Partition, path: Path, read_only: bool = False) -> Checkpoint:
    """The checkpoint for `part` at `path`, validated (and created, and locked, unless
    `read_only`) before any work starts."""
    return Checkpoint(path, part.fingerprint | {"items": part.size}, part.info, read_only)


def count_partitioned(
    part: Partition,
    runner: Runner | None = None,
    checkpoint: Path | Checkpoint | None = None,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
) -> int:
    """The exact count, summed over the items; those a checkpoint records are skipped. Past
    `time_limit` seconds the run stops with PartialCount (the checkpoint keeps what finished)."""
    ckpt = open_checkpoint(part, checkpoint) if isinstance(checkpoint, Path) else checkpoint
    done: dict[int, int] = ckpt.done if ckpt else {}
    record: Callable[[int, int], None] = ckpt.record if ckpt else done.__setitem__
    deadline = None if time_limit is None else time.monotonic() + time_limit

    def poll() -> None:
        if deadline is not None and time.monotonic() >= deadline:
            raise _DeadlinePassed

    try:
        todo = [i for i in range(part.size) if i not in done]
        found = sum(done.values())
        report(progress, len(done), part.size, part.total(found))
        if todo:
            run = runner or pool_runner(1)
            for index, count in run(part, todo) if deadline is None else run(part, todo, poll):
                record(index, count)
                found += count
                report(progress, len(done), part.size, part.total(found))
    except _DeadlinePassed:
        if len(done) < part.size:  # (every item in before the look at the clock: the count is whole)
            raise PartialCount(part.total(sum(done.values())), len(done), part.size) from None
    finally:
        if ckpt:
            ckpt.close()
    return part.total(sum(done.values()))


def checked_total(part: Partition, path: Path) -> int:
    """The total of a finished checkpoint, every record checked, without running anything.

    What this proves: the journal is whole and well formed, made for this very problem and cut
    (its header's fingerprint), each record's count tied to its item by a CRC (so an edit by
    hand, or a record copied from another checkpoint, is refused), and the total is their sum.
    What it does not: that a count is right. The CRC is computed from public data, so anyone
    who can write the file can forge a record that passes; `recount` is the second source."""
    return part.total(sum(_finished(part, path).values()))


def _finished(part: Partition, path: Path) -> dict[int, int]:
    ckpt = open_checkpoint(part, path, read_only=True)
    missing = part.size - len(ckpt.done)
    if missing:
        raise CheckpointError(f"{path}: {missing} of {part.size} items are not recorded yet: run the count to finish")
    return ckpt.done


class RecountDisagrees(CheckpointError):
    """A record of a checkpoint whose item, counted again, gives another count: the checkpoint
    is wrong (forged, corrupt, or written by a wrong count)."""


def recount(part: Partition, path: Path, k: int, runner: Runner | None = None) -> list[int]:
    """Count again `k` of a finished checkpoint's items chosen at random (from the system's
    random source, so the one who wrote the file cannot know which) and compare each with its
    record: the items recounted, sorted, or RecountDisagrees at the first that differs. Where f
    of the N records are wrong, all k drawn miss them with a chance of at most (1 - f/N)^k: a
    single wrong record is caught with a chance of k/N, and k = N recounts everything."""
    import random

    done = _finished(part, path)
    chosen = sorted(random.SystemRandom().sample(sorted(done), min(k, len(done))))
    for index, count in (runner or pool_runner(1))(part, chosen, None):
        if count != done[index]:
            raise RecountDisagrees(
                f"{path}: item {index} is recorded as {done[index]:,}, but counts {count:,} again: "
                "the checkpoint is wrong (forged, corrupt, or from a wrong count)"
            )
    return chosen
