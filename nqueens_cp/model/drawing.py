"""A board drawn: as text rows (`nqueens show`, `str(nq.draw(...))`) and as SVG, which Jupyter
shows for a `Problem` and for `nq.draw(problem, solution)` (`_repr_svg_`; no IPython needed).

The SVG marks what the problem says: blocked squares crossed, pre-placed pieces in their own
colour, the placed pieces, the board's shape (a rectangle has its rows), the piece named in the
caption, and a torus drawn with a dashed border (its edges wrap). Each square is a `rect` with
`data-row` and `data-col`, each piece a `circle` with the same, so that a page or a test can
find them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

Solution = tuple[int, ...]

if TYPE_CHECKING:
    from .board import Board as Problem  # (a Problem, which this module comes before)

PIECE_LETTER = {"queen": "Q", "rook": "R", "superqueen": "S"}
#: Any other piece is drawn as P.
OTHER_LETTER = "P"

#: Boards wider or taller than this are drawn as text only: an SVG of 10^4 squares is heavy.
MAX_SVG_N = 100

_COLOURS = {
    "light": "#f0d9b5",
    "dark": "#b58863",
    "blocked": "#555555",
    "wall": "#2f3b52",
    "piece": "#1b1b1b",
    "fixed": "#b22222",
    "pawn": "#3c7a3c",
}
#: The letter of a pawn the search placed, on a drawn solution.
PAWN_LETTER = "P"


def draw(problem: Problem, solution: Solution | None = None) -> list[str]:
    """The board as text rows: '.' free, 'X' blocked, and pieces. Without a solution the drawing
    is the instance in the plain-text board format ('Q' for a fixed piece), readable back with
    --model (a region map goes in its `# regions:` line). With one, placed pieces show as 'Q'
    (or 'R') and pre-placed ones as 'F', and a region map's free squares as their region's
    label in lower case."""
    from .fields import SQUARE_FIELDS

    grid = [["."] * problem.n for _ in range(problem.rows)]
    kept: set[tuple[int, int]] = set()  # squares whose mark a placed piece does not cover (pre-placed ones)
    for f in SQUARE_FIELDS:
        mark = f.glyph if solution is None else f.solved_glyph or f.glyph
        assert mark is not None
        for r, c in getattr(problem, f.name):
            grid[r][c] = mark
            if f.solved_glyph:
                kept.add((r, c))
    if solution is not None:
        for r, row in enumerate(problem.regions):  # a solved region map shows its regions
            for c, label in enumerate(row):
                if grid[r][c] == ".":
                    grid[r][c] = label.lower()
        letter = PIECE_LETTER.get(problem.piece, OTHER_LETTER)
        pieces, pawns = problem.layout(solution)
        for r, c in pieces:
            if (r, c) not in kept:
                grid[r][c] = letter
        for r, c in pawns:
            grid[r][c] = PAWN_LETTER
    return [" ".join(row) for row in grid]


@dataclass(frozen=True)
class Drawing:
    """A problem, with a solution or none, shown as SVG in a notebook and as text by print()."""

    problem: Problem
    solution: Solution | None = None

    def __str__(self) -> str:
        return "\n".join(draw(self.problem, self.solution))

    def _repr_svg_(self) -> str | None:
        p = self.problem
        return svg(p, self.solution) if max(p.n, p.rows) <= MAX_SVG_N else None


def svg(problem: Problem, solution: Solution | None = None) -> str:
    """The board as an SVG document (see the module)."""
    p = problem
    n, m = p.n, p.rows
    cell = max(6, min(36, 432 // max(n, m)))
    pad, caption = 4, 22
    width, height = n * cell + 2 * pad, m * cell + 2 * pad + caption
    blocked, fixed, walls = set(p.blocked), set(p.fixed), set(p.walls)
    said = escape(_caption(p, solution))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" class="nqueens-board" data-n="{n}" data-rows="{m}">',
        f"<title>{said}</title>",
    ]
    hue = region_colours(p)
    for r in range(m):
        for c in range(n):
            kind = "light" if (r + c) % 2 == 0 else "dark"
            kind = "blocked" if (r, c) in blocked else "wall" if (r, c) in walls else kind
            x, y = pad + c * cell, pad + r * cell
            fill = hue[p.regions[r][c]] if hue and kind not in ("blocked", "wall") else _COLOURS[kind]
            region = f' data-region="{escape(p.regions[r][c])}"' if hue else ""
            parts.append(
                f'<rect class="square {kind}" data-row="{r}" data-col="{c}"{region} x="{x}" y="{y}" '
                f'width="{cell}" height="{cell}" fill="{fill}"/>'
            )
            if kind == "blocked":
                a, b = x + cell * 0.25, x + cell * 0.75
                top, bottom = y + cell * 0.25, y + cell * 0.75
                parts.append(
                    f'<path class="cross" d="M{a:g} {top:g} L{b:g} {bottom:g} M{b:g} {top:g} L{a:g} {bottom:g}" '
                    f'stroke="#dddddd" stroke-width="{max(1, cell // 12)}"/>'
                )
    pieces = {(r, c): "fixed" for r, c in fixed}
    if solution is not None:
        placed, pawns = p.layout(solution)
        pieces |= {(r, c): "fixed" if (r, c) in fixed else "piece" for r, c in placed}
        pieces |= {sq: "pawn" for sq in pawns}
    for (r, c), kind in sorted(pieces.items()):
        letter = PAWN_LETTER if kind == "pawn" else PIECE_LETTER.get(p.piece, OTHER_LETTER)
        cx, cy = pad + c * cell + cell / 2, pad + r * cell + cell / 2
        parts.append(
            f'<circle class="{kind}" data-row="{r}" data-col="{c}" cx="{cx:g}" cy="{cy:g}" '
            f'r="{cell * 0.36:g}" fill="{_COLOURS[kind]}"/>'
        )
        if cell >= 14:
            parts.append(
                f'<text x="{cx:g}" y="{cy + cell * 0.14:g}" font-size="{cell * 0.42:g}" text-anchor="middle" '
                f'font-family="sans-serif" fill="#ffffff">{letter}</text>'
            )
    border = 'stroke-dasharray="6 4"' if p.torus else ""
    parts.append(
        f'<rect class="border{" torus" if p.torus else ""}" x="{pad}" y="{pad}" width="{n * cell}" '
        f'height="{m * cell}" fill="none" stroke="#333333" stroke-width="2" {border}/>'
    )
    parts.append(
        f'<text class="caption" x="{pad}" y="{height - 6}" font-size="13" font-family="sans-serif">{said}</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts)


#: The colours of a region map's regions, in the order their labels first appear (then again).
REGION_COLOURS = (
    "#e6a5a5", "#a5c8e6", "#b8e0a5", "#f2d49b", "#c9b3e6", "#9be0d4", "#f2b8d9", "#d9d9a5",
    "#a5a5e6", "#e6c3a5", "#b3e6c9", "#e0a5c8",
)  # fmt: skip


def region_colours(p: Problem) -> dict[str, str]:
    """A colour for each region of the map (none without one), so that the map shows."""
    labels = list(dict.fromkeys(ch for row in p.regions for ch in row))
    return {label: REGION_COLOURS[i % len(REGION_COLOURS)] for i, label in enumerate(labels)}


def _caption(p: Problem, solution: Solution | None) -> str:
    shape = f"{p.rows}x{p.n}" if p.rows != p.n else f"{p.n}x{p.n}"
    from .fields import SQUARE_FIELDS

    said = [f"{p.piece} on {shape}"] + (["torus"] if p.torus else [])
    said += [f"{p.pieces} pieces anywhere"] if p.pieces else []
    said += [f"{p.pawns} pawns placed"] if p.pawns else []
    said += [f"{len(getattr(p, f.name))} {f.said}" for f in SQUARE_FIELDS if getattr(p, f.name)]
    if solution is not None:
        said.append("a solution" if p.is_solution(solution) else "not a solution: " + (p.explain(solution) or ""))
    return ", ".join(said)


def html_table(caption: str, header: Sequence[str], rows: Sequence[Sequence[object]], notes: Sequence[str] = ()) -> str:
    """A small HTML table, for the `_repr_html_` of results in a notebook: every cell escaped,
    numbers with their thousands marked."""

    def cell(v: object) -> str:
        text = f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else "" if v is None else str(v)
        return escape(text)

    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    listed = "".join(f"<li>{escape(note)}</li>" for note in notes)
    return (
        f'<table class="nqueens"><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>" + (f"<ul>{listed}</ul>" if listed else "")
    )
