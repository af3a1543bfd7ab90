"""The `nqueens` command line: it parses, calls the library and renders; no solving logic lives
here, and no backend is named (what a backend can do is read from its capabilities and plan).

`app` holds the exit codes and the one place every ending goes through; `options` declares the
options commands share; `output` writes answers, files and progress; one module per family of
commands registers them on `app` when imported here.
"""

from . import about, benching, checking, files, fuzzing, optimising, solving
from .app import Terminated, app

__all__ = ["Terminated", "about", "app", "benching", "checking", "files", "fuzzing", "optimising", "solving"]
