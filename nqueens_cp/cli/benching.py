"""compare and generate: backends side by side over many instances under hard limits, and the
instances to run them on."""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ..backends import available_backends, backend_class
from ..backends.base import bad_time_limit
from ..model.problem import plural
from ..run.interrupts import stop_wins
from . import completion
from .app import EXIT_DISAGREE, Terminated, UserError, app
from .options import (
    SOLVER_OPTIONS,
    JsonOpt,
    PieceOpt,
    ProblemSpec,
    RowsOpt,
    TorusOpt,
    backend_names,
    backend_options,
    backends_option,
    int_list,
    refuse_untaken,
    size_range,
)
from .output import echo, output


@app.command()
@backend_options()
def compare(
    ns: Annotated[str | None, typer.Option("--n", help="Board sizes: N or A..B (with --piece, --torus).")] = None,
    models: Annotated[
        list[str] | None,
        typer.Option("--model", help="Instance file, folder or quoted glob ('sets/*.param'); repeatable."),
    ] = None,
    backends: backends_option(
        "Comma-separated backends (default: every one installed that honours a time limit; "
        "name the others to include them)."
    ) = None,
    task: Annotated[
        str,
        typer.Option(
            "--task",
            help="first (decide: find one), count, solve (enumerate every solution), or max / dominate (the most "
            "pieces, the fewest that cover, proved).",
        ),
    ] = "count",
    piece: PieceOpt = None,
    torus: TorusOpt = None,
    rows: RowsOpt = None,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="Seconds per run; a run past it is killed (unknown).")
    ] = None,
    memory_limit: Annotated[
        int | None, typer.Option("--memory-limit", help="MB per run; a run past it is killed (unknown).")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Runs side by side, one worker process each.")] = 1,
    solver: dict[str, Any] = SOLVER_OPTIONS,
    target: Annotated[
        Path | None, typer.Option("--output", "-o", help="Stream one row per run to FILE.csv or FILE.jsonl.")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Skip the runs already in --output.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON line per run as it ends, then one with the summary.")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Cactus plot (and, for two backends, a scatter plot): .png or .svg.")
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write the report as one self-contained web page (kept current while it runs)."),
    ] = None,
    benchexec: Annotated[
        Path | None,
        typer.Option("--benchexec", help="Write BenchExec result files for its table-generator (a file per backend)."),
    ] = None,
) -> None:
    """Run backends side by side over instances with hard limits; check every answer (exit 1 on a wrong one)."""
    from ..bench import compare as c
    from ..bench.campaign import Campaign
    from ..bench.html import settings as report_settings
    from ..bench.plots import PLOT_SUFFIXES, pyplot
    from ..bench.report import RUNS_SHOWN, Live, page_order, runs_table, summary_table
    from ..bench.results import Row, summarize
    from ..bench.runs import TASKS
    from ..run.parallel import max_workers

    why = bad_time_limit(time_limit, "--time-limit")  # every run's limit, checked before any starts
    if why:
        raise UserError(why)
    names = backend_names(backends)
    if names is None:  # a backend whose search cannot be bounded would hold up a run without a limit
        names = [n for n in available_backends() if backend_class(n).capabilities.stoppable]
    if not names:
        raise UserError("--backends names no backend")
    refuse_untaken(solver, names, task)
    if task not in TASKS:
        raise UserError(f"--task must be one of {', '.join(TASKS)}, not {task!r}")
    if not 1 <= jobs <= max_workers():
        raise UserError(f"--jobs must be 1..{max_workers()} on this machine, got {jobs}")
    if resume and target is None:
        raise UserError("--resume continues an --output file: give one")
    if plot is not None:  # refused before the runs, not after them
        writable(plot, PLOT_SUFFIXES, "--plot")
        pyplot()
    if html is not None:
        writable(html, (".html", ".htm"), "--html")
    if benchexec is not None:
        writable(benchexec, (".xml",), "--benchexec")
    started = time.time()
    instances: list[c.Instance] = []
    if ns:
        boards = (ProblemSpec(piece, torus=torus, rows=rows).problem(str(k)) for k in size_range(ns))
        instances += [c.Instance(c.board_label(p), p) for p in boards]
    for path in c.model_paths(models or []):
        instances.append(c.Instance(str(path), ProblemSpec(piece, model=path, torus=torus, rows=rows).problem(None)))
    if not instances:
        raise UserError("give --n A..B and/or --model FILE|FOLDER|GLOB")
    if len({i.label for i in instances}) < len(instances):
        raise UserError("an instance is given twice")
    live = Live(names, time_limit, len(instances) * len(names), enabled=sys.stderr.isatty() and not as_json)
    about = functools.partial(report_settings, task, time_limit, memory_limit, jobs, names, started)

    def shown(row: Row) -> None:
        if as_json:
            echo(json.dumps(row.as_record()))
        live.add(row)

    campaign = Campaign(target, resume, time_limit, html, about)
    try:
        with stop_wins(), live.running():
            limits = {"time_limit": time_limit, "memory_limit_mb": memory_limit, "jobs": jobs, "options": solver}
            rows = campaign.run(instances, names, task, shown, **limits)
    except (KeyboardInterrupt, Terminated):  # what finished is on file and the page; show it, then end as interrupted
        if not as_json:
            from rich.console import Console

            Console().print(summary_table(summarize(live.rows, names, time_limit), time_limit))
        raise
    finally:
        campaign.close()
    everything = campaign.everything(task)
    # a resumed file's other backends stay in the summary: a wrong one was hidden there while
    # the run exited 1 for it
    backends = list(dict.fromkeys([*names, *(r.backend for r in everything)]))
    summaries = summarize(everything, backends, time_limit)
    if as_json:
        echo(json.dumps(summaries.as_record()))
    else:
        from rich.console import Console

        console = Console()
        if len(rows) <= RUNS_SHOWN:
            console.print(runs_table(page_order(rows)))
        console.print(summary_table(summaries, time_limit))
    if plot is not None:
        from ..bench.plots import plot as draw_plot

        draw_plot(everything, backends, time_limit, plot)
    campaign.finish(everything)
    if benchexec is not None:
        from ..bench.benchexec import write as write_benchexec

        write_benchexec(benchexec, everything, about(time.time()))
    bad = c.wrong(everything)
    if bad:
        first = f"{bad[0].instance} {bad[0].backend}: {bad[0].check}"
        sys.stderr.write(f"nqueens: {len(bad)} wrong answer(s), the first: {first}\n")
        raise typer.Exit(EXIT_DISAGREE)


def writable(path: Path, suffixes: tuple[str, ...], flag: str) -> None:
    """Refuse, before any work, an output the run could not write at its end."""
    if path.suffix.lower() not in suffixes:
        raise UserError(f"{flag} writes {' or '.join(suffixes)}, not {path.suffix or 'no extension'!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir() or not os.access(folder, os.W_OK) or path.is_dir():
        raise UserError(f"cannot write {path}: its folder is missing or not writable")


#: What `report --to` writes besides the web page.
REPORT_FORMATS = ("benchexec",)


@app.command()
def report(
    runs: Annotated[list[Path], typer.Argument(metavar="RUNS", help="Results files of compare -o (.csv or .jsonl).")],
    html: Annotated[Path | None, typer.Option("--html", help="The web page to write.")] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            autocompletion=completion.among(REPORT_FORMATS),
            help="benchexec: BenchExec result files (-o FILE.xml; a file per backend).",
        ),
    ] = None,
    target: Annotated[Path | None, typer.Option("--output", "-o", help="With --to: the file to write.")] = None,
) -> None:
    """Render saved comparison runs as one web page (several files side by side, rows matched by instance and
    backend), or as BenchExec result files for its table-generator (--to benchexec)."""
    from ..bench.campaign import settings_path, write_page
    from ..bench.html import RunSet
    from ..bench.results import read_rows

    if to is not None and to not in REPORT_FORMATS:
        raise UserError(f"unknown --to {to!r} (known: {', '.join(REPORT_FORMATS)})")
    if (to is None) == (html is None) or (to is None) != (target is None):
        raise UserError("give --html PAGE, or --to benchexec -o FILE.xml")
    if html is not None:
        writable(html, (".html", ".htm"), "--html")
    else:
        assert target is not None
        writable(target, (".xml",), "-o")
    sets = []
    for path in runs:
        if path.is_dir() or not path.name:
            raise UserError(f"{path} is a folder: give the results files that compare -o wrote (.csv or .jsonl)")
        about = {}
        meta = settings_path(path)
        if meta.exists():
            try:
                about = json.loads(meta.read_text())
            except (OSError, ValueError, RecursionError) as exc:
                raise UserError(f"cannot read {meta}: {exc}") from None
        sets.append(RunSet(str(path), read_rows(path), about if isinstance(about, dict) else {}))
    if len({s.name for s in sets}) < len(sets):
        raise UserError("a results file is given twice")
    if html is None:
        assert target is not None
        if len(sets) > 1:
            raise UserError("--to benchexec writes one results file's runs: give one (table-generator merges them)")
        from ..bench.benchexec import write as write_benchexec

        written = write_benchexec(target, sets[0].rows, sets[0].settings)
        echo("\n".join(f"wrote {path}: {backend}" for backend, path in written.items()))
        return
    write_page(html, sets)
    echo(f"wrote {html}: {sum(len(s.rows) for s in sets)} runs from {len(sets)} file(s)")


generate_app = typer.Typer(help="Write benchmark instances.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(generate_app, name="generate")


@generate_app.command("blocked")
def generate_blocked(
    n: Annotated[str, typer.Option("--n", help="Board size, or sizes: 28,48,50,56.")],
    blocks: Annotated[str, typer.Option("--blocks", help="Squares to block, one count per size.")],
    min_free: Annotated[int, typer.Option("--min-free", help="Free squares every row and column keeps.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 0,
    count: Annotated[
        int | None, typer.Option("--count", min=1, help="Instances per size, written to --out DIR.")
    ] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="With --count: the folder to write them to.")] = None,
    target: Annotated[Path | None, typer.Option("--output", "-o", help="The .param file (default stdout).")] = None,
    force: Annotated[bool, typer.Option("--force", help="With --out: replace files of the set that exist.")] = False,
) -> None:
    """Random blocked n-queens instances (CSPLib prob080 model) as CSPLib .param files: one, or a set."""
    from ..bench.generate import blocked_instance, blocked_set
    from ..io.formats import write_param

    sizes, counts = int_list(n, "--n"), int_list(blocks, "--blocks")
    if len(sizes) != len(counts):
        raise UserError(f"--n gives {len(sizes)} sizes and --blocks {len(counts)} counts: give one count per size")
    device = target is not None and target.exists() and not target.is_file()  # /dev/stdout, a pipe
    if target is not None and target.suffix.lower() != ".param" and not device:
        what = target.suffix or "no extension"
        raise UserError(f"generate writes CSPLib .param files, not {what!r}: name it FILE.param")
    if count is None:
        if out_dir is not None:
            raise UserError("--out writes a set: give --count K too")
        if len(sizes) > 1:
            raise UserError("several sizes make a set: give --count K and --out DIR")
        text = write_param(blocked_instance(sizes[0], counts[0], min_free, seed)).encode()
        with output(target) as (out, _):
            out.write(text)
        return
    if out_dir is None or target is not None:
        raise UserError("--count writes a set to a folder: give --out DIR (not --output)")
    written = blocked_set(out_dir, list(zip(sizes, counts, strict=True)), count, min_free, seed, force)
    echo(f"wrote {plural(written, 'instance')} to {out_dir}")


@generate_app.command("regions")
def generate_regions(
    n: Annotated[int, typer.Option("--n", min=2, help="Board size: n rows, n columns, n regions.")],
    count: Annotated[int, typer.Option("--count", min=1, help="Puzzles to make.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: the same seed makes the same puzzles.")] = 0,
    out_dir: Annotated[Path | None, typer.Option("--out", help="The folder to write them to (TOML models).")] = None,
    piece: Annotated[str, typer.Option("--piece", help="The piece (default RF: no two touch).")] = "RF",
    difficulty: Annotated[
        str | None,
        typer.Option(
            "--difficulty",
            help="easy, medium or hard: by the choices our search makes to solve it (a unit left one square is none).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace files of the set that exist.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Region puzzles (the daily "Queens" puzzle) with exactly one solution, as TOML models."""
    from ..bench.generate import GRADES, region_set, regions_record
    from ..io.formats import write_toml
    from ..run.files import replacing

    if difficulty is not None and difficulty not in GRADES:
        raise UserError(f"--difficulty must be one of {', '.join(GRADES)}, got {difficulty!r}")
    if out_dir is None:
        raise UserError("generate regions writes TOML models to a folder: give --out DIR")
    width = len(str(count - 1))
    paths = [out_dir / f"regions-{n}-{i:0{width}d}.toml" for i in range(count)]
    there = [path for path in paths if path.exists()]
    if there and not force:
        raise UserError(f"{there[0]} exists ({len(there)} of the set's files do): add --force to replace them")
    puzzles = region_set(n, count, seed, piece=piece, grade=difficulty)  # every one made before any is written
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create {out_dir}: {exc.strerror}") from None
    listed = []
    for path, puzzle in zip(paths, puzzles, strict=True):
        said = (
            f"region puzzle {path.stem}, seed {seed}: one solution; {puzzle.grade} "
            f"({puzzle.guesses} choices, {puzzle.nodes} placements of our search)"
        )
        with replacing(path) as (out, _):
            out.write(write_toml(puzzle.problem, said).encode())
        listed.append(
            {"file": str(path), "n": n, "grade": puzzle.grade, "guesses": puzzle.guesses, "nodes": puzzle.nodes}
        )
    if as_json:
        echo(json.dumps(regions_record(seed, listed)))
        return
    grades = ", ".join(f"{sum(x['grade'] == g for x in listed)} {g}" for g in GRADES)
    echo(f"wrote {plural(count, 'region puzzle')} of {n}x{n} to {out_dir} ({grades})")
