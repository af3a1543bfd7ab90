"""What the modules that come before `problem` read of a problem (the vectorised checker, the
drawings): a `Problem` is one; it uses them, so they cannot import it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Board(Protocol):
    @property
    def n(self) -> int: ...

    @property
    def rows(self) -> int: ...

    @property
    def piece(self) -> str: ...

    @property
    def torus(self) -> bool: ...

    @property
    def blocked(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def fixed(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def line_model(self) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]: ...

    def explain(self, solution: Sequence[int]) -> str | None: ...

    def is_solution(self, solution: Sequence[int]) -> bool: ...
