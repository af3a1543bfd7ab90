"""The comparison report as a web page, opened in a real browser (headless Chromium driven by
selenium): rows, sorting, filters, the scatter plot's hover, wrong answers first, several
result sets side by side, and no error in the browser's console. The browser tests skip where
Chromium or its driver is missing (apt-get install chromium chromium-driver)."""

import csv
import json
import re
from pathlib import Path

import pytest

from nqueens_cp.bench.html import RunSet, page
from nqueens_cp.bench.results import Row
from tests.conftest import browser_test, compared, run

#: The fields the rows of these tests share: a queen's run, solved and checked.
SOLVED = {"piece": "queen", "torus": False, "status": "solved", "check": "ok"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """A real comparison's results, with one answer made wrong and flagged as compare flags it
    (the comparison in a process of its own: 2 s, where in this one it took 4 to 26 s)."""

    def one_wrong(rows: list[dict[str, str]]) -> None:
        assert len(rows) == 18
        rows[7]["answer"], rows[7]["check"] = "41", "disagree: bitmask gave another count"

    return compared(tmp_path_factory.mktemp("report"), "4..9", "bitmask,cpsat,sat", one_wrong)


def _open(browser, path: Path):
    from selenium.webdriver.common.by import By

    browser.get(path.resolve().as_uri())
    return lambda css: browser.find_elements(By.CSS_SELECTOR, css)


def _errors(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


@pytest.mark.slow
@browser_test
@pytest.mark.timeout(120)
def test_the_report_lists_sorts_and_filters_the_runs(runs, browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    html = tmp_path / "report.html"
    # the rows as a long run would leave them: out of order, under long instance paths
    rows = list(csv.DictReader(runs.open()))[::-1]
    for row in rows:
        row["instance"] = "sets/generated/" + "blocked-boards-of-the-asp-competition/" * 3 + row["instance"]
    shuffled = tmp_path / "runs.csv"
    with shuffled.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    settings = runs.with_name(runs.name + ".settings.json")
    if settings.exists():
        shuffled.with_name(shuffled.name + ".settings.json").write_text(settings.read_text())
    assert run("report", shuffled, "--html", html).exit_code == 0
    find = _open(browser, html)
    lines = find("#runs-table tbody tr.run")
    assert len(lines) == 18
    first = lines[0]
    assert "wrong" in first.get_attribute("class") and "disagree" in first.text  # wrong answers first
    # then by instance and backend, not in the order the runs ended
    named = [tr.find_elements("css selector", "td")[0].text.replace("\n", "") for tr in lines[1:]]
    assert named == sorted(named, key=lambda s: int(s.split("-")[-1])), named
    # every column in view in a 1400-pixel window (peak MB and nodes were cut off)
    table, box = find("#runs-table")[0], find(".table-wrap")[0]
    assert table.rect["x"] + table.rect["width"] <= box.rect["x"] + box.rect["width"] + 1, (table.rect, box.rect)

    header = next(th for th in find("#runs-table thead th") if th.text.strip() == "seconds")
    column = [th.text.strip() for th in find("#runs-table thead th")].index("seconds")

    def times() -> list[float]:
        return [float(tr.find_elements("css selector", "td")[column].text) for tr in find("#runs-table tbody tr.run")]

    header.click()
    assert times() == sorted(times()) and len(times()) == 18
    header.click()
    assert times() == sorted(times(), reverse=True)

    Select(find("#filter-backend")[0]).select_by_value("cpsat")
    shown = find("#runs-table tbody tr.run")
    assert len(shown) == 6 and all(" cpsat " in f" {tr.text} " for tr in shown)
    assert find("#shown")[0].text == "6 of 18 shown"
    Select(find("#filter-backend")[0]).select_by_value("")
    Select(find("#filter-status")[0]).select_by_value("wrong")
    assert len(find("#runs-table tbody tr.run")) == 1
    Select(find("#filter-status")[0]).select_by_value("")
    find("#filter-text")[0].send_keys("queen-9")
    assert len(find("#runs-table tbody tr.run")) == 3

    summary = find("#summary-tables table tbody tr")
    assert [tr.text.split()[0] for tr in summary] == ["sat", "cpsat", "bitmask"]  # as the file names them first
    assert "Time limit 20" in find("#summary")[0].text
    assert "command" in find("#settings")[0].text and "cpu" in find("#settings")[0].text
    assert _errors(browser) == []


@pytest.mark.slow
@browser_test
@pytest.mark.timeout(120)
def test_hovering_a_scatter_point_names_its_instance_and_both_times(runs, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select

    html = tmp_path / "report.html"
    run("report", runs, "--html", html)
    find = _open(browser, html)
    Select(find("#scatter-y")[0]).select_by_visible_text("sat")
    points = find("#scatter circle.point")
    assert len(points) == 6  # the instances both backends ran
    ActionChains(browser).move_to_element(points[-1]).perform()
    tip = find("#tooltip")[0]
    assert tip.is_displayed()
    instance = points[-1].get_attribute("data-instance")
    assert instance.startswith("queen-") and re.search(rf"{instance}: bitmask [\d.e-]+ s, sat [\d.e-]+ s", tip.text)
    assert len(find("#cactus polyline")) == 3 and len(find("#plots ul.legend li")) == 3
    assert _errors(browser) == []


@pytest.mark.slow
@browser_test
@pytest.mark.timeout(120)
def test_several_result_sets_side_by_side(runs, browser, tmp_path):
    other = tmp_path / "other.jsonl"
    assert run("compare", "--n", "6..9", "--backends", "bitmask,cpsat", "-o", other).exit_code == 0
    html = tmp_path / "both.html"
    assert run("report", runs, other, "--html", html).exit_code == 0
    find = _open(browser, html)
    groups = [th.text for th in find("#runs-table thead th.group")]
    assert groups == [str(runs), str(other)]
    lines = find("#runs-table tbody tr.run")
    assert len(lines) == 18  # matched by instance and backend: the second set adds no row
    assert len(find("#summary-tables table")) == 2
    assert _errors(browser) == []


def test_the_page_is_self_contained_and_small():
    rows = [
        Row(
            instance=f"blocked-{i:04d}.param",
            n=30 + i % 20,
            backend=b,
            task="first",
            **SOLVED,
            answer=list(range(30 + i % 20)),
            seconds=0.001 * (i + 1),
            cpu_seconds=0.001 * i,
            peak_mb=110.0,
            nodes=1000 + i,
            time_limit=10.0,
        )
        for i in range(500)
        for b in ("bitmask", "cpsat")
    ]
    text = page([RunSet("runs.csv", rows, {"task": "first"})])
    assert len(text.encode()) < 2_000_000  # 1,000 runs
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text), "the page fetches something"
    assert "<script src" not in text and "<link" not in text
    data = json.loads(re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)[1])
    assert len(data["sets"][0]["rows"]) == 1000


def test_compare_keeps_the_page_and_the_settings(tmp_path):
    html, out = tmp_path / "r.html", tmp_path / "r.csv"
    r = run("compare", "--n", "5..6", "--backends", "bitmask", "-o", out, "--html", html)
    assert r.exit_code == 0 and html.exists()
    about = json.loads((tmp_path / "r.csv.settings.json").read_text())
    assert about["task"] == "count" and about["backends"] == ["bitmask"] and about["ended"] != "still running"
    r = run("compare", "--n", "5", "--backends", "bitmask", "--html", tmp_path / "r.png")
    assert r.exit_code == 2 and "--html writes .html" in r.stderr


def test_a_running_comparison_keeps_its_page_current(tmp_path, monkeypatch):
    from nqueens_cp.bench import campaign

    pages: list[int] = []
    write = campaign.write_page
    monkeypatch.setattr(campaign, "HTML_EVERY", 0.0)
    monkeypatch.setattr(campaign, "write_page", lambda path, sets: (pages.append(len(sets[0].rows)), write(path, sets)))
    r = run("compare", "--n", "4..6", "--backends", "bitmask", "--html", tmp_path / "r.html")
    assert r.exit_code == 0
    assert pages == [1, 2, 3, 3]  # after each run as it ended, then the final page
    assert "this run" in (tmp_path / "r.html").read_text()


# -- names and numbers from any file are data, never markup (issue 34, item 9) ------------------


def _row(instance: str, seconds: float | None = 0.01, status: str = "solved") -> Row:
    return Row(
        instance=instance,
        n=8,
        piece="queen",
        torus=False,
        backend="bitmask",
        task="count",
        status=status,
        check="ok",
        answer=92,
        seconds=seconds,
        cpu_seconds=0.01,
        peak_mb=50.0,
        nodes=10,
    )


def _data(text: str) -> dict:
    element = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    assert element is not None
    return json.loads(element[1])


@pytest.mark.parametrize("name", ["<!--<script>.toml", "</script><b>x</b>.toml", "a & b\u2028.toml"])
def test_a_hostile_file_name_stays_data_in_the_page(name):
    """A model file named `<!--<script>.toml` blanked the whole page: the embedded data was
    escaped only for `</`, and `<!--` opens an escaped state that swallows the page."""
    text = page([RunSet(name, [_row(name)], {"command": f"nqueens compare --model '{name}'"})])
    element = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    assert element is not None and not set(element[1]) & {"<", ">", "&"}
    assert _data(text)["sets"][0]["rows"][0]["instance"] == name  # reads back the same


@browser_test
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_hostile_file_name_leaves_the_page_working(browser, tmp_path):
    name = "<!--<script>.toml"
    html = tmp_path / "r.html"
    html.write_text(page([RunSet("runs.csv", [_row(name), _row("plain.toml")], {})]))
    find = _open(browser, html)
    cells = [c.text for c in find("#runs-table tbody td")]
    assert name in cells and "plain.toml" in cells and not _errors(browser)


@pytest.mark.parametrize(
    "cell, says",
    [("NaN", "seconds is nan"), ("Infinity", "seconds is inf"), ("-1", "seconds is -1"), ("", None)],
)
def test_a_results_file_with_bad_numbers_is_one_line(tmp_path, cell, says):
    """NaN or Infinity in a results file blanked the page while `report` exited 0; a solved row
    without seconds gave a traceback (it counts as unknown: a run with no time cannot be ranked)."""
    out = tmp_path / "r.csv"
    r = run("compare", "--n", "5", "--backends", "bitmask", "-o", out)
    assert r.exit_code == 0
    rows = list(csv.DictReader(out.open()))
    rows[0]["seconds"] = cell
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    r = run("report", out, "--html", tmp_path / "r.html")
    if says is None:
        assert r.exit_code == 0, r.output
        assert _data((tmp_path / "r.html").read_text())["sets"][0]["summary"][0]["unknown"] == 1
        return
    assert r.exit_code == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.output
    assert not (tmp_path / "r.html").exists()


def test_report_of_a_binary_file_or_a_folder_is_one_line(tmp_path):
    binary = tmp_path / "r.csv"
    binary.write_bytes(b"\xff\xfe\x00\x81" * 100)
    folder = tmp_path / "runs.jsonl"
    folder.mkdir()
    for target in (binary, folder):
        r = run("report", target, "--html", tmp_path / "r.html")
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.output


def test_a_path_with_brackets_is_shown_as_it_is():
    """A path with `[` crashed the terminal table (a rich markup error, exit 1, no page)."""
    from rich.console import Console

    from nqueens_cp.bench.report import runs_table

    console = Console(record=True, width=200)
    console.print(runs_table([_row("models/[bold]x[/].toml"), _row("a[/]b.toml")]))
    shown = console.export_text()
    assert "models/[bold]x[/].toml" in shown and "a[/]b.toml" in shown


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_an_interrupted_comparison_s_page_does_not_say_still_running(tmp_path):
    from tests.conftest import interrupt_when

    out, html = tmp_path / "r.csv", tmp_path / "r.html"
    args = ["compare", "--n", "4..40", "--backends", "bitmask", "--task", "solve", "-o", out, "--html", html]
    code, _, _, _ = interrupt_when(args, lambda _: out.exists() and len(out.read_text().splitlines()) >= 6)
    assert code == 130
    settings = _data(html.read_text())["sets"][0]["settings"]
    assert settings["ended"].endswith("(interrupted)")
    assert json.loads((tmp_path / "r.csv.settings.json").read_text())["ended"].endswith("(interrupted)")


def test_a_cut_answer_ends_in_an_ellipsis():
    """The terminal table cut long answers without a mark: the last number shown was wrong."""
    from nqueens_cp.bench.report import ANSWER_SHOWN, _answer

    long = Row(
        instance="a",
        n=30,
        backend="bitmask",
        task="first",
        **SOLVED,
        answer=list(range(30)),
        seconds=0.1,
        cpu_seconds=0.1,
        peak_mb=1.0,
        nodes=1,
    )
    shown = _answer(long)
    assert len(shown) == ANSWER_SHOWN and shown.endswith("…") and json.dumps(list(range(30))).startswith(shown[:-1])


def test_the_recorded_command_keeps_its_quoting(monkeypatch):
    """The settings' command runs again as shown: a model path with a space used to be joined
    bare, so the line named two files."""
    import shlex

    from nqueens_cp.bench.html import settings

    argv = ["nqueens", "compare", "--model", "my boards/q 8.toml", "-b", "bitmask"]
    monkeypatch.setattr("sys.argv", argv)
    shown = settings("count", 1.0, None, 1, ["bitmask"], 0.0)["command"]
    assert shlex.split(shown) == argv


# -- one declaration of the columns (issue 35, item 5; issue 34, item 10) ----------------------


def _first_row(n: int, backend: str = "bitmask", conflicts: int | None = 7) -> Row:
    answer = [(2 * i + 1) % n for i in range(n)]
    return Row(
        instance=f"queen-{n}",
        n=n,
        backend=backend,
        task="first",
        **SOLVED,
        answer=answer,
        seconds=0.01,
        cpu_seconds=0.01,
        peak_mb=50.0,
        nodes=10,
        conflicts=conflicts,
        time_limit=5.0,
    )


@pytest.mark.slow
@browser_test
@pytest.mark.timeout(120)
def test_a_run_s_details_on_the_page_hold_every_column_of_the_results_file(browser, tmp_path):
    """The details lacked fields of the CSV (conflicts, the time limit) and showed the answer
    cut as the table does."""
    from nqueens_cp.bench.columns import COLUMNS

    row = _first_row(61)
    html = tmp_path / "r.html"
    html.write_text(page([RunSet("runs.csv", [row], {})]))
    find = _open(browser, html)
    find("#runs-table tbody tr.run")[0].click()
    details = find("#runs-table tbody tr.details dl")[0]
    terms = [dt.text for dt in details.find_elements("css selector", "dt")]
    values = dict(zip(terms, [dd.text for dd in details.find_elements("css selector", "dd")], strict=True))
    assert terms == [c.label for c in COLUMNS]
    assert json.loads(values["answer"]) == row.answer  # whole, where the table cuts it
    assert "…" in find("#runs-table tbody tr.run")[0].text
    assert values["conflicts"] == "7" and values["time limit (s)"] == "5" and values["torus"] == "no"
    assert _errors(browser) == []


@pytest.mark.slow
@browser_test
@pytest.mark.timeout(120)
def test_each_backend_has_the_same_colour_in_the_plot_file_and_on_the_page(browser, tmp_path):
    """The page drew the second backend red where the PNG drew it orange."""
    from matplotlib.colors import to_hex

    from nqueens_cp.bench.plots import _cactus, pyplot

    backends = ["bitmask", "cpsat", "sat"]
    rows = [_first_row(n, b) for n in (8, 9) for b in backends]
    plt = pyplot()
    fig, ax = plt.subplots()
    _cactus(ax, rows, backends, None)
    in_file = {line.get_label().split()[0]: to_hex(line.get_color()) for line in ax.get_lines()}
    plt.close(fig)
    html = tmp_path / "r.html"
    html.write_text(page([RunSet("runs.csv", rows, {})]))
    find = _open(browser, html)
    on_page = {p.get_attribute("data-series"): p.get_attribute("stroke") for p in find("#cactus polyline")}
    assert on_page == in_file and len(set(on_page.values())) == 3


def test_answers_in_the_terminal_table_are_cut_to_the_width_it_has(monkeypatch):
    """COLUMNS was ignored: a wide terminal still cut a placement at 40 characters."""
    from rich.console import Console

    from nqueens_cp.bench.report import runs_table

    row = _first_row(30)
    whole = json.dumps(row.answer)

    def shown(width: int) -> str:
        console = Console(width=width, record=True)
        console.print(runs_table([row]))
        return console.export_text()

    monkeypatch.setenv("COLUMNS", "240")
    assert whole in shown(240).replace("\n", "")
    monkeypatch.setenv("COLUMNS", "80")
    assert whole not in shown(80).replace("\n", "") and "…" in shown(80)


#: A number of four or more digits with no thousands separator (digits after a point aside).
UNSEPARATED = re.compile(r"(?<![\d.,])\d{4,}")


def _large_row(backend: str) -> Row:
    return Row(
        instance="queen-16",
        n=16,
        backend=backend,
        task="count",
        **SOLVED,
        answer=14772512,
        seconds=1234.5,
        cpu_seconds=2345.25,
        peak_mb=12345.0,
        nodes=1234567,
        time_limit=3600.0,
    )


def test_every_number_of_the_terminal_tables_has_its_thousands_separated():
    """A report mixed separators: 14,772,512 solutions beside 12345 MB and 1234.5000 s."""
    from rich.console import Console

    from nqueens_cp.bench.report import runs_table, summary_table
    from nqueens_cp.bench.results import summarize

    rows = [_large_row("bitmask")] * 1000
    console = Console(record=True, width=200)
    console.print(runs_table(rows[:1]), summary_table(summarize(rows, ["bitmask"], 3600.0), 3600.0))
    shown = console.export_text()
    assert "14,772,512" in shown and "12,345" in shown and "1,234.5000" in shown and "1,000" in shown
    assert not UNSEPARATED.findall(shown), shown


@pytest.mark.slow
@browser_test
@pytest.mark.timeout(120)
def test_every_number_of_the_page_has_its_thousands_separated(browser, tmp_path):
    html = tmp_path / "r.html"
    html.write_text(page([RunSet("large", [_large_row("bitmask"), _large_row("cpsat")] * 1000, {})]))
    find = _open(browser, html)
    assert not _errors(browser)
    cells = [td.text for td in find("#runs-table tbody td") + find("#summary-tables td")]
    assert {"14,772,512", "12,345", "1,234.50", "1,234,567", "1,000"} <= set(cells), cells[:40]
    assert not [c for c in cells if UNSEPARATED.search(c)], cells
    assert not _errors(browser)
