"""Boards drawn for a notebook: the SVG a Problem and `nq.draw` show (rendered in headless
Chromium, where the squares, the blocked ones, the pieces and the caption are looked for where
they should be), the text that print() shows, and the HTML tables of results."""

from __future__ import annotations

import re
import sys

import pytest

import nqueens_cp as nq
from nqueens_cp.bench.results import Row, summarize
from tests.conftest import browser_test


def test_a_drawing_prints_as_nqueens_show_draws():
    p = nq.Problem(5, blocked=[(0, 0)], fixed=[(1, 3)])
    sol = nq.first(p)
    assert sol is not None
    text = str(nq.draw(p, sol)).splitlines()
    assert len(text) == 5 and text[0].split()[0] == "X" and text[1].split()[3] == "F"
    assert all(row.split().count("Q") + row.split().count("F") == 1 for row in text)


def test_showing_a_board_in_a_notebook_needs_no_ipython():
    svg = nq.Problem(6)._repr_svg_()
    assert svg is not None and svg.startswith("<svg") and "IPython" not in sys.modules
    assert nq.Problem(101)._repr_svg_() is None  # too large to draw: the notebook shows repr()


CASES = [
    (nq.Problem(6, blocked=[(0, 0), (5, 5)], fixed=[(1, 3)]), True),
    (nq.Problem(7, rows=4, blocked=[(3, 6)]), True),
    (nq.Problem(5, "superqueen", torus=False), False),
    (nq.Problem(5, torus=True), True),
]


@browser_test
@pytest.mark.timeout(120)
@pytest.mark.parametrize("problem, solved", CASES)
def test_the_board_s_svg_shows_its_squares_and_pieces_in_a_browser(browser, tmp_path, problem, solved):
    from selenium.webdriver.common.by import By

    solution = nq.first(problem) if solved else None
    svg = nq.draw(problem, solution)._repr_svg_() if solved else problem._repr_svg_()
    assert svg is not None
    path = tmp_path / "board.svg"
    path.write_text(svg)
    browser.get(path.resolve().as_uri())
    find = lambda css: browser.find_elements(By.CSS_SELECTOR, css)  # noqa: E731

    squares = find("rect.square")
    assert len(squares) == problem.rows * problem.n
    boxes = {(int(s.get_attribute("data-row")), int(s.get_attribute("data-col"))): s.rect for s in squares}
    rows = sorted({box["y"] for box in boxes.values()})
    cols = sorted({box["x"] for box in boxes.values()})
    assert (len(rows), len(cols)) == (problem.rows, problem.n)  # a grid of rows x n, drawn in order
    assert all(boxes[r, c]["x"] == cols[c] and boxes[r, c]["y"] == rows[r] for r, c in boxes)
    blocked = {(int(s.get_attribute("data-row")), int(s.get_attribute("data-col"))) for s in find("rect.blocked")}
    assert blocked == set(problem.blocked)
    for sq in blocked:  # drawn in the blocked colour, as the browser computes it
        (el,) = [s for s in squares if (int(s.get_attribute("data-row")), int(s.get_attribute("data-col"))) == sq]
        assert el.value_of_css_property("fill") == "rgb(85, 85, 85)"

    def placed(css: str) -> set[tuple[int, int]]:
        found = set()
        for piece in find(css):
            r, c = int(piece.get_attribute("data-row")), int(piece.get_attribute("data-col"))
            box, square = piece.rect, boxes[r, c]
            middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            assert square["x"] < middle[0] < square["x"] + square["width"]  # inside its own square
            assert square["y"] < middle[1] < square["y"] + square["height"]
            found.add((r, c))
        return found

    assert placed("circle.fixed") == set(problem.fixed)
    expected = set() if solution is None else {(r, c) for r, c in enumerate(solution)} - set(problem.fixed)
    assert placed("circle.piece") == expected
    caption = find("text.caption")[0].text
    assert caption.startswith(f"{problem.piece} on {problem.rows}x{problem.n}")
    assert ("torus" in caption) == problem.torus and ("a solution" in caption) == solved
    border = find("rect.border")[0]
    assert (border.get_attribute("stroke-dasharray") is not None) == problem.torus


def test_results_show_as_tables_in_a_notebook():
    outcome = nq.get_backend("bitmask").count(nq.Problem(8))
    html = outcome._repr_html_()
    assert "<table" in html and re.search(r"<td>count</td><td>92</td>", html)
    verdict = nq.verify(6, ["bitmask", "cpsat"])
    html = verdict._repr_html_()
    assert html.count("<tr>") == 3 and "agree" in html and "<td>4</td>" in html  # A000170(6) = 4
    rows = [
        Row(instance="a", n=8, piece="queen", torus=False, task="count", backend="bitmask", status="solved",
            seconds=0.5, answer="92", check="ok")
    ]
    html = summarize(rows, ["bitmask"], 10.0)._repr_html_()
    assert "<td>bitmask</td>" in html and "PAR-2" in html
