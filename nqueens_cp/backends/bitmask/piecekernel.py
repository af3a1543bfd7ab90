"""A counting kernel written for one piece: the generic count with the piece's moves as constants.

Why: the generic kernel (`anykernel`) reads a piece's moves from tables, so each placement loops
over the slides with their shifts loaded from memory, and every row's lines live in arrays.
Written out for one set of slides and leaps, a row's whole state is a few words the compiler
keeps in registers: the columns used, for each slide the columns it attacks in the next a rows
(a: its row step), for leaps the next D rows' attacked columns. A placement computes the next
row's state from the current one in straight-line code; a row is pushed on a stack only while
it has squares left, and the last two rows are counted without descending, as the queen's own
kernel does. It walks the generic kernel's tree node for node (same rows, order and counts).

The source is generated from the tables (`source`), written once to numba's cache folder under
a name that is its digest, and compiled with numba's disk cache: the first count of a piece
pays a compile (about a second), later ones in any process load it. So that small counts never
wait for a compiler, a count compiles a piece's kernel only once the generic kernel has spent
SPECIALISE_AFTER placements on that piece in this process; a kernel already on disk is used
at once. Counting only: enumeration keeps the resumable generic search.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

#: Placements the generic kernel makes on a piece (in this process) before its own kernel is
#: compiled for it: about a quarter of a second, a fraction of the compile it saves.
SPECIALISE_AFTER = 1 << 24
#: A count whose deadline is nearer than this does not start a compile (it cannot be stopped).
COMPILE_SECONDS = 2.0
#: Words of a row's state (columns, slides' rows, leaps' rows) beyond which the generic kernel
#: serves (a torus, whose moves all go through leap rows, on a large board).
MAX_WORDS = 16

Key = tuple[tuple[tuple[int, int], ...], int]

_loaded: dict[Key, Callable[..., None]] = {}
_spent: dict[Key, int] = {}
_unavailable: set[Key] = set()


def key(slides: np.ndarray, reach: np.ndarray, rows: int) -> Key | None:
    """What a kernel is written for, (slides, leap depth); None where the generic kernel
    serves (fewer than 3 rows, or a state too large to hold in registers)."""
    moves = tuple((int(a), int(b)) for a, b in slides)
    depth = reach.shape[0] - 1
    if rows < 3 or 1 + sum(a for a, _ in moves) + depth > MAX_WORDS:
        return None
    return moves, depth


def _shifted(expr: str, b: int) -> str:
    return f"(({expr}) << np.uint64({b}))" if b > 0 else f"(({expr}) >> np.uint64({-b}))"


def source(slides: tuple[tuple[int, int], ...], depth: int) -> str:
    """The Python source of a module with `count_items(masks, reach, weights, out, stop)` for
    these slides (a, b) and leaps reaching `depth` rows (reach[d, c], as anykernel.tables).

    State words: `c` the columns used; `w{j}_{i}` the columns slide j attacks i rows below the
    current one (i < a); `t{i}` the same for leaps. Placing `bit` moves the state one row down:
    a slide's words move up one place and its new last one is the first plus the piece,
    shifted b columns; a leap's words take the piece's reach."""
    state = ["c"] + [f"w{j}_{i}" for j, (a, _) in enumerate(slides) for i in range(a)]
    state += [f"t{i}" for i in range(depth)]

    def step(src: str, dst: str, bit: str, col: str) -> list[str]:
        out = [f"{dst}c = {src}c | {bit}"]
        for j, (a, b) in enumerate(slides):
            out += [f"{dst}w{j}_{i} = {src}w{j}_{i + 1}" for i in range(a - 1)]
            out.append(f"{dst}w{j}_{a - 1} = " + _shifted(f"{src}w{j}_0 | {bit}", b))
        for i in range(depth):
            below = f"{src}t{i + 1} | " if i + 1 < depth else ""
            out.append(f"{dst}t{i} = {below}reach[{i + 1}, {col}]")
        return out

    def attacked(p: str) -> str:
        return " | ".join([f"{p}c"] + [f"{p}w{j}_0" for j in range(len(slides))] + [f"{p}t0"] * (depth > 0))

    frame = ["a", "r", *state]
    size = len(frame)
    push = [f"frames[sp + np.uint64({i})] = {s}" for i, s in enumerate(frame)]
    pop = [f"{s} = frames[sp + np.uint64({i})]" for i, s in enumerate(frame)]
    body = [
        "m = masks.shape[0]",
        "bottom = np.uint64(m - 3)  # from this row's placements on, the last two rows are counted",
        "final = masks[m - 1]",
        *(f"{s} = _ZERO" for s in state),
        "a = masks[0]",
        "if a == _ZERO:",
        "    return 0",
        f"frames = np.empty({size} * m, np.uint64)",
        "sp = _ZERO",
        "r = _ZERO",
        "total = 0",
        "placed = 0",
        "while True:",
        "    bit = _lowbit(a)",
        "    a ^= bit",
        "    placed += 1",
        *(["    col = trailing_zeros(bit)"] if depth else []),
        *("    " + s for s in step("", "n", "bit", "col")),
        f"    free = masks[r + _ONE] & ~({attacked('n')})",
        "    if r == bottom:",
        "        while free != _ZERO:",
        "            low = _lowbit(free)",
        "            free ^= low",
        *(["            col2 = trailing_zeros(low)"] if depth else []),
        *("            " + s for s in step("n", "o", "low", "col2")),
        f"            got = popcount(final & ~({attacked('o')}))",
        "            total += got",
        "            placed += 1 + got",
        "    elif free != _ZERO:",
        "        if a != _ZERO:",
        *("            " + s for s in push),
        f"            sp += np.uint64({size})",
        "        r += _ONE",
        "        a = free",
        *(f"        {s} = n{s}" for s in state),
        "        continue",
        "    if a == _ZERO:",
        "        if sp == _ZERO or stop[0] != 0:",
        "            stop[1] += placed",
        "            return total",
        f"        sp -= np.uint64({size})",
        *("        " + s for s in pop),
    ]
    return "\n".join(
        [
            f'"""Generated by nqueens_cp.backends.bitmask.piecekernel for slides {list(slides)}, leaps of '
            f'{depth} rows."""',
            "import numpy as np",
            "from numba import njit",
            "",
            "from nqueens_cp.backends.bitmask.bits import popcount, trailing_zeros",
            "from nqueens_cp.backends.bitmask.rowkernels import _lowbit",
            "",
            "_ONE = np.uint64(1)",
            "_ZERO = np.uint64(0)",
            "",
            "",
            '@njit(cache=True, nogil=True, inline="always")',
            "def _count(masks, reach, stop):",
            *("    " + line for line in body),
            "",
            "",
            "@njit(cache=True, nogil=True)",
            "def count_items(masks, reach, weights, out, stop):",
            "    for i in range(masks.shape[0]):",
            "        out[i] = weights[i] * _count(masks[i], reach, stop)  # stopped: those found so far",
            "        if stop[0] != 0:",
            "            return",
            "",
        ]
    )


def _folder() -> Path:
    from numba.core import config

    from ...run.compiled import cache_dir

    return Path(config.CACHE_DIR or cache_dir()) / "pieces"


#: The modules a generated kernel imports: numba's cache notices a change of the generated file
#: only, so their source is part of the file's name (a changed helper makes a new file).
_HELPERS = ("bits.py", "rowkernels.py")


@lru_cache(maxsize=1)
def _helpers_digest() -> bytes:
    here = Path(__file__).parent
    return hashlib.sha256(b"".join((here / name).read_bytes() for name in _HELPERS)).digest()


@lru_cache(maxsize=64)
def _written(k: Key) -> tuple[str, str]:
    """(source, file name): the name is the digest of the source and of the helpers it imports,
    so a file's right text never changes."""
    text = source(*k)
    digest = hashlib.sha256(text.encode() + _helpers_digest()).hexdigest()[:20]
    return text, f"piece_{digest}.py"


def _path(k: Key) -> tuple[str, Path]:
    text, name = _written(k)
    return text, _folder() / name


def on_disk(k: Key) -> bool:
    """Whether this piece's kernel was written before, by any process, and is still the text it
    must be: then numba's cache almost always holds its compiled code (not when its compile was
    cut short, or numba's cache was cleared or belongs to another numba: then loading it
    compiles it again)."""
    text, path = _path(k)
    return _read(path) == text


def _read(path: Path) -> str | None:
    """The file's text, or None where it cannot be read as text."""
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
        return None


def kernel(k: Key) -> Callable[..., None] | None:
    """The piece's compiled `count_items`, written to disk and loaded (compiled or read from
    numba's cache) on first use in this process; None where the folder cannot be written."""
    if k in _loaded:
        return _loaded[k]
    text, path = _path(k)
    if _read(path) != text and not _write(text, path):  # a file on disk is never trusted: an
        return None  # edited, empty or cut-short one is written again (and compiled anew)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[path.stem]
        raise
    _loaded[k] = module.count_items
    return _loaded[k]


def _write(text: str, path: Path) -> bool:
    """Write the file whole or not at all (another process may read it at any moment), leaving
    no temporary file behind; False where the folder cannot be written (or the disk is full)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
    return True


def chosen(k: Key | None, may_compile: bool = True) -> Callable[..., None] | None:
    """The piece's own kernel when it is loaded, on disk, or (`may_compile`) the generic kernel
    has spent SPECIALISE_AFTER placements on it in this process; else None (the generic kernel
    serves)."""
    if k is None or k in _unavailable:
        return None
    if k in _loaded or (may_compile and _spent.get(k, 0) >= SPECIALISE_AFTER) or on_disk(k):
        own = kernel(k)
        if own is None:
            _unavailable.add(k)
        return own
    return None


def budget(k: Key | None, may_compile: bool = True) -> int:
    """Placements the generic kernel may make on this piece before its own kernel takes over."""
    if k is None or k in _unavailable or not may_compile:
        return 1 << 62
    return max(SPECIALISE_AFTER - _spent.get(k, 0), 1)


def spent(k: Key | None, nodes: int) -> None:
    """Record placements the generic kernel made on this piece (towards SPECIALISE_AFTER)."""
    if k is not None:
        _spent[k] = _spent.get(k, 0) + nodes
