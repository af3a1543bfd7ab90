"""Turning solutions into text: the output formats of `nqueens solve` and the board drawing of
`nqueens show`. Writers stream: each takes an iterator of solutions and writes as it goes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from ..model.drawing import OTHER_LETTER, PIECE_LETTER
from ..model.problem import Problem, Solution

if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy as np

    #: Solutions as a writer takes them: tuples, or 2-D arrays of them (the bitmask's batches).
    Stream: TypeAlias = Iterable[Solution] | Iterable[np.ndarray]

FORMATS = ("boards", "json", "jsonl", "csv")

#: Solutions are formatted and written in chunks of at most this many, one write call each...
CHUNK = 4096
#: ...and of at most this many bytes, so the buffer stays small however large the board.
CHUNK_BYTES = 16 << 20

#: Boards larger than this are not drawn as text (a 10^6 board would be 10^12 characters).
MAX_DRAWN_N = 1000

# (opening, separator, closing, between solutions) per machine format
_ROWS = {
    "jsonl": (b"[", b", ", b"]\n", b""),
    "json": (b"[", b", ", b"]", b","),
    "csv": (b"", b",", b"\n", b""),
}


def _batches(solutions: Iterable[Solution] | Iterable[np.ndarray], n: int) -> Iterator[np.ndarray]:
    """Arrays of solutions: batches pass through, tuples are gathered into CHUNK-row arrays. A
    stream that ends by raising (a time limit) has what it yielded written first."""
    import numpy as np  # (here: drawing a board, `nqueens show`, loads no numpy)

    chunk: list[Solution] = []
    try:
        for item in solutions:
            if isinstance(item, np.ndarray):
                yield item
                continue
            chunk.append(item)
            if len(chunk) == CHUNK:
                yield np.array(chunk, dtype=np.int64).reshape(-1, n)
                chunk = []
    except Exception:
        if chunk:
            yield np.array(chunk, dtype=np.int64).reshape(-1, n)
        raise
    if chunk:
        yield np.array(chunk, dtype=np.int64).reshape(-1, n)


def _layouts(solutions: Iterable[Solution] | Iterable[np.ndarray]) -> Iterator[Solution]:
    for item in solutions:
        if hasattr(item, "tolist"):
            yield from map(tuple, item.tolist())
        else:
            yield item


def _write_layouts(problem: Problem, solutions: Stream, fmt: str, out: BinaryIO) -> int:
    """`write_solutions`'s body for pieces anywhere: boards drawn with their walls and pawns
    (W, P, blocked squares X), JSON objects of squares ({"pieces": [[r, c], ...], "pawns":
    [...]}), CSV rows of the squares' coordinates (r0,c0,r1,c1,... the pieces', then
    pawn_r0,pawn_c0,... the pawns')."""
    import json

    from ..model.drawing import draw

    if fmt == "csv":
        head = [f"{x}{i}" for i in range(problem.pieces) for x in ("r", "c")]
        head += [f"pawn_{x}{i}" for i in range(problem.pawns) for x in ("r", "c")]
        out.write((",".join(head) + "\n").encode())
    written = 0
    for sol in _layouts(solutions):
        if fmt == "boards":  # (as the other boards are drawn: a letter a square, no spaces)
            rows = (row.replace(" ", "") for row in draw(problem, sol))
            text = ("" if written == 0 else "\n") + "\n".join(rows) + "\n"
        elif fmt == "csv":
            pieces, pawns = problem.layout(sol)
            text = ",".join(str(v) for sq in (*pieces, *pawns) for v in sq) + "\n"
        else:
            text = ("," if written and fmt == "json" else "") + json.dumps(problem.shown(sol))
            text += "\n" if fmt == "jsonl" else ""
        out.write(text.encode())
        out.flush()
        written += 1
    return written


def _write_columns(problem: Problem, solutions: Stream, fmt: str, out: BinaryIO) -> int:
    """`write_solutions`'s body for one piece a row: the compiled formatters, a chunk of
    solutions a call."""
    from . import render_kernels as k

    n, m = problem.n, problem.rows
    if fmt == "csv":
        out.write((",".join(f"r{r}" for r in range(m)) + "\n").encode())
    import numpy as np

    parts = [np.frombuffer(p, dtype=np.uint8) for p in _ROWS.get(fmt, ())]
    letter = ord(PIECE_LETTER.get(problem.piece, OTHER_LETTER))
    rows = max(1, min(CHUNK, CHUNK_BYTES // k.bytes_per_solution(n)))
    buf = k.buffer_for(rows, n)
    written = 0
    for batch in _batches(solutions, m):
        for lo in range(0, batch.shape[0], rows):
            part = batch[lo : lo + rows]
            if fmt == "boards":
                size = k.format_boards(part, n, letter, written == 0, buf)
            else:
                size = k.format_rows(part, *parts, written == 0, buf)
            out.write(buf[:size].tobytes())
            out.flush()
            written += part.shape[0]
    return written


def write_solutions(
    problem: Problem,
    solutions: Iterable[Solution] | Iterable[np.ndarray],
    fmt: str,
    out: BinaryIO,
    end: bytes = b"\n",
) -> int:
    """Write every solution in format `fmt` to the binary stream `out`; returns how many.

    `solutions` yields tuples, or 2-D arrays of solutions (the bitmask backend's batches).
    boards: 'Q'/'.' rows (LeetCode style; 'R' for rooks), a blank line between boards.
    json: one JSON array of solutions, then `end` (nothing, inside a one-line record). jsonl:
    one JSON array of columns per line. csv: a header `r0,r1,...` then one line of columns per
    solution."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt == "json":
        out.write(b"[")
    try:
        written = (_write_layouts if problem.anywhere else _write_columns)(problem, solutions, fmt, out)
    except Exception:  # a stream stopped by a limit: what was written stays valid JSON
        if fmt == "json":
            out.write(b"]" + end)
        raise
    if fmt == "json":
        out.write(b"]" + end)
    return written
