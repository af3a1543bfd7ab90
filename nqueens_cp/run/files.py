"""Files written whole or not at all, and as the user's own files would be.

A result is written to a temporary file beside its target and renamed over it only when it is
complete, so a run that fails (a full disk, Ctrl-C) never leaves a truncated file or a partial
one in place of a good one. The replacement keeps what the user set: a symbolic link is followed
(its target is replaced, the link stays), an existing file keeps its permission bits (and its
owner, where we may set it), and a new file gets the usual 0666 less the umask; mkstemp alone
would make every file 0600 and replace links with plain files.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


def target(path: Path) -> Path:
    """The file a write to `path` lands in: the end of its symbolic links."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[tuple[BinaryIO, list[bool]]]:
    """(binary stream, keep flag): a temporary file that replaces `path` (its link's target)
    when the block ends without an exception, or when the block set keep[0] (a partial result
    it means to keep). Raises OSError as the system reports it."""
    dest = target(path)
    folder = dest.parent if str(dest.parent) else Path(".")
    try:
        old = dest.stat()
    except FileNotFoundError:
        old = None
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{dest.name}.", suffix=".part")
    keep = [False]
    try:
        with os.fdopen(fd, "wb") as f:
            try:
                yield f, keep
            except BaseException:
                if keep[0]:  # a partial result the caller keeps: in place, then its exception goes on
                    _install(f, tmp, dest, old)
                raise
            _install(f, tmp, dest, old)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _install(f: BinaryIO, tmp: str, dest: Path, old: os.stat_result | None) -> None:
    """The finished temporary file, on disk with the target's mode and owner, renamed over it."""
    f.flush()
    os.fsync(f.fileno())
    os.chmod(tmp, stat.S_IMODE(old.st_mode) if old else 0o666 & ~_umask())
    if old is not None and (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):  # only root may give a file away
            os.chown(tmp, old.st_uid, old.st_gid)
    os.replace(tmp, dest)


def read_regular(path: Path, cap: int) -> bytes:
    """The bytes of the regular file at `path` (links followed), at most `cap` of them. A FIFO,
    a device or a folder is refused (a link to /dev/zero ate all memory, whatever the size stat
    gave; a FIFO with no writer blocked for ever), and so is a file that turns out longer than
    `cap` as it is read. OSError, its strerror saying why, in every case."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a FIFO to read waits for a writer
    except IsADirectoryError:
        raise OSError(errno.EISDIR, "a folder, not a file") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else "a device"
            raise OSError(errno.EINVAL, f"{kind}, not a regular file")
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= cap and (chunk := os.read(fd, min(1 << 20, cap + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > cap:
        raise OSError(errno.EFBIG, f"longer than the {cap} bytes such a file may have")
    return b"".join(chunks)
