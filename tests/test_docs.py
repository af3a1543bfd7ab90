"""The documentation against the code: a change that makes a document wrong fails here.

The conventions the documents keep (docs/architecture.md, "Documents that are tested"):
- a command shown with its output is a `$ ` line in a code block, followed by what it prints
  (stderr and stdout as a terminal shows them); `...` stands for any text (a whole line of it
  for any number of lines), and `~` before a number for a figure that varies (a time);
- every `nqueens` command a document names parses: its command and options exist and take
  the values shown;
- every Python example is a doctest (`>>>`), run with its output compared;
- every relative link, and every path named in inline code, exists; a code reference to a
  section of a document (`docs/NAME.md § Title`) names a heading that exists.
Ground truth here is the documents themselves: what they show is what a user will type.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _blocks(text: str) -> list[list[str]]:
    """The code blocks of a Markdown text that are not Python: indented by four spaces, or
    fenced; each a list of lines (indentation removed)."""
    blocks, current, fenced = [], None, None
    for line in text.splitlines():
        if fenced is not None:
            if line.startswith("```"):
                if fenced != "python":
                    blocks.append(current)
                fenced, current = None, None
            else:
                current.append(line)
            continue
        if line.startswith("```"):
            fenced, current = line[3:].strip(), []
        elif line.startswith("    ") or (current is not None and not line.strip()):
            if current is None:
                current = []
            current.append(line[4:])
        elif current is not None:
            blocks.append(current)
            current = None
    if current is not None:
        blocks.append(current)
    return [[line.rstrip() for line in block] for block in blocks]


def _joined(lines: list[str]) -> list[str]:
    """Lines continued by a trailing backslash, joined."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return out


def _cut(command: str, at: str = "#") -> str:
    """The command up to the first of the characters `at` outside quotes (a `#` only after a
    space: a comment)."""
    quote = None
    for i, ch in enumerate(command):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in at and (ch != "#" or i == 0 or command[i - 1] == " "):
            return command[:i].rstrip()
    return command.rstrip()


def shown_commands() -> list[tuple[str, str, list[str]]]:
    """(document, command, the output shown) for every `$ ` line with output below it."""
    found = []
    for doc in DOCUMENTS:
        for block in _blocks(doc.read_text()):
            lines = _joined(block)
            for i, line in enumerate(lines):
                if not line.startswith("$ "):
                    continue
                output = []
                for after in lines[i + 1 :]:
                    if after.startswith("$ "):
                        break
                    output.append(after)
                while output and not output[-1].strip():
                    output.pop()
                if output:
                    found.append((doc.name, _cut(line[2:]), output))
    return found


def named_commands() -> list[tuple[str, list[str]]]:
    """(document, arguments) of every `nqueens` command in a code block, shown with its output
    or not, up to the first pipe, redirection or `;`."""
    found = []
    for doc in DOCUMENTS:
        for block in _blocks(doc.read_text()):
            for line in _joined(block):
                line = line.removeprefix("$ ").strip()
                if not line.startswith("nqueens "):
                    continue
                words = shlex.split(_cut(line, "#|;&>"))
                found.append((doc.name, words[1:]))
    return found


def _pattern(expected: list[str]) -> re.Pattern[str]:
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = re.split(r"(\.\.\.|~\d+(?:\.\d+)?)", line)
        text = "".join(
            r"[^\n]*?" if piece == "..." else r"[0-9]+(?:\.[0-9]+)?" if piece.startswith("~") else re.escape(piece)
            for piece in pieces
        )
        parts.append(text + r"[ \t]*\n")
    return re.compile("".join(parts))


def _run_shown(command: str) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("COLUMNS", None)
    r = subprocess.run(
        ["bash", "-c", command + " 2>&1"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    return r.stdout


_SHOWN = shown_commands()

#: How the summary line of a long partitioned count starts (cli/output.py's SUMMARY_AFTER).
SUMMARY = "nqueens: sub-problems: "


def _in_process(command: str) -> str | None:
    """What a plain `nqueens ...` command prints, run in this process (Typer's runner: stderr,
    then stdout, as written); None for a command that needs a shell (a pipe, `;`, `$?`)."""
    if not command.startswith("nqueens ") or any(ch in command for ch in "|;&>$`"):
        return None
    from tests.conftest import run

    here = os.getcwd()
    os.chdir(ROOT)  # the documents name paths from the repository's root
    try:
        return run(*shlex.split(command)[1:]).output
    finally:
        os.chdir(here)


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    """What each shown command prints: in this process where it can (no start-up to pay each
    time), else in a shell, two at a time."""
    commands = sorted({command for _doc, command, _out in _SHOWN})
    found = {command: _in_process(command) for command in commands}
    shelled = [command for command, out in found.items() if out is None]
    with ThreadPoolExecutor(2) as pool:
        found.update(zip(shelled, pool.map(_run_shown, shelled), strict=True))
    return found


def test_the_documents_show_commands_with_their_output():
    """The collection itself: losing every shown command (a changed convention) is a failure."""
    assert {doc for doc, _, _ in _SHOWN} >= {"README.md", "command-line.md", "verifying.md", "pieces.md"}


@pytest.mark.parametrize(("doc", "command", "expected"), _SHOWN, ids=[f"{d}:{c[:50]}" for d, c, _ in _SHOWN])
def test_a_shown_command_prints_what_the_document_shows(outputs, doc, command, expected):
    """A count that ran over SUMMARY_AFTER (it compiled its kernels first, on a fresh cache or
    after an edit to them) adds its summary line on stderr: that line is left out unless the
    document shows one."""
    printed = outputs[command]
    if not any(line.startswith(SUMMARY) for line in expected):
        printed = "".join(line for line in printed.splitlines(True) if not line.startswith(SUMMARY))
    assert _pattern(expected).fullmatch(printed + ("" if printed.endswith("\n") else "\n")), (
        f"{doc}: `{command}` printed:\n{printed}\nwhere the document shows:\n" + "\n".join(expected)
    )


def test_every_command_a_document_names_parses():
    """Options renamed or removed, or a value they no longer take, show here."""
    from typer.main import get_command

    from nqueens_cp.cli import app

    # typer carries its own copy of click: its classes are reached through the commands
    def parsed(command, name: str, args: list[str], parent=None) -> None:
        with command.make_context(name, args, parent=parent) as ctx:
            if hasattr(command, "get_command"):  # a group: its command and their arguments follow
                rest = [*(getattr(ctx, "_protected_args", None) or getattr(ctx, "protected_args", [])), *ctx.args]
                sub = command.get_command(ctx, rest[0]) if rest else None
                if sub is None:
                    raise LookupError(f"no command {rest[:1]}")
                parsed(sub, rest[0], rest[1:], ctx)

    wrong = []
    for doc, args in named_commands():
        if {"--install-completion", "--show-completion"} & set(args):
            continue  # (parsing runs them: they would write to the shell's files of whoever runs the tests)
        try:
            parsed(get_command(app), "nqueens", list(args))
        except LookupError as exc:
            wrong.append(f"{doc}: nqueens {shlex.join(args)}: {exc}")
        except Exception as exc:
            if type(exc).__name__ == "Exit":  # --help, --version
                continue
            if not hasattr(exc, "format_message"):
                raise
            wrong.append(f"{doc}: nqueens {shlex.join(args)}: {exc.format_message()}")
    assert not wrong, "\n".join(wrong)


def _python_examples() -> list[tuple[str, str]]:
    found = []
    for doc in DOCUMENTS:
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)):
            found.append((f"{doc.name}[{i}]", block))
    return found


@pytest.mark.parametrize(("name", "source"), _python_examples(), ids=[name for name, _ in _python_examples()])
def test_every_python_example_runs_and_prints_what_it_shows(name, source):
    assert ">>> " in source, f"{name}: a Python example is written as a doctest (>>>), so its output is checked"
    test = doctest.DocTestParser().get_doctest(source, {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_CODE = re.compile(r"(?<!`)`([^`\s]+)`(?!`)")
_PATHLIKE = re.compile(r"^[\w.-]+(?:/[\w.*-]+)*/?$")
_FORMAT_NAME = re.compile(r"^nqueens_cp\.[a-z]+/\d+$")  # a JSON record's format (docs/json.md), not a path
_EXTENSIONS = (".py", ".md", ".toml", ".param", ".lp", ".mzn", ".c", ".js", ".css", ".png", ".tsv", ".sh")


def _tracked() -> list[str]:
    listed = ["git", "ls-files", "--cached", "--others", "--exclude-standard"]  # new files count too
    out = subprocess.run(listed, cwd=ROOT, capture_output=True, text=True)
    files = out.stdout.split() if out.returncode == 0 else [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")]
    return files + sorted({str(Path(f).parent) + "/" for f in files})


def _prose(text: str) -> str:
    """The text outside code blocks (links and inline code are read there)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return "\n".join(line for line in text.splitlines() if not line.startswith("    "))


def test_every_link_and_named_path_exists():
    tracked = _tracked()
    missing = []
    for doc in DOCUMENTS:
        prose = _prose(doc.read_text())
        for target in _LINK.findall(prose):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            if not (doc.parent / target.split("#")[0]).exists():
                missing.append(f"{doc.name}: link {target}")
        for code in _CODE.findall(prose):
            if not _PATHLIKE.match(code) or ("/" not in code and not code.endswith(_EXTENSIONS)):
                continue
            if code.startswith(("~", ".", "-")) or "*" in code or _FORMAT_NAME.match(code):
                continue
            # a path from the repository's root, or the tail of one (`backends/base.py`)
            if not any(f == code or f.endswith("/" + code) for f in tracked):
                missing.append(f"{doc.name}: path `{code}`")
    assert not missing, "\n".join(missing)


_SECTION_REFERENCE = re.compile(r"docs/(\w+)\.md § ([^.;)\n]+)")


def _headings(path: Path) -> set[str]:
    return {line.lstrip("#").strip() for line in path.read_text().splitlines() if line.startswith("#")}


def test_code_that_names_a_section_of_a_document_names_one_that_exists():
    """Figures live in docs/: code that rests on one names the section that measured it, and
    the reference fails here once that section is renamed or gone."""
    wrong, seen = [], 0
    for source in [*ROOT.glob("nqueens_cp/**/*.py"), *ROOT.glob("benchmarks/*.py")]:
        for name, title in _SECTION_REFERENCE.findall(source.read_text()):
            seen += 1
            doc = ROOT / "docs" / f"{name}.md"
            if not doc.exists() or title.strip() not in _headings(doc):
                wrong.append(f"{source.relative_to(ROOT)}: docs/{name}.md § {title.strip()}")
    assert seen, "no code names a section of docs/ (the planner's thresholds do)"
    assert not wrong, "\n".join(wrong)


def test_code_does_not_point_to_a_readme_section_that_is_gone():
    stale = [
        str(p.relative_to(ROOT))
        for p in [*ROOT.glob("nqueens_cp/**/*.py"), *ROOT.glob("benchmarks/*.py"), *ROOT.glob("tests/*.py")]
        if re.search(r"README,? \(?Benchmarks", p.read_text())
    ]
    assert not stale, stale
