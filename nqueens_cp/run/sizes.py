"""Sizes as people write them (`--memory 600M`): read where an option is declared, so that
building the command line loads no process machinery."""

from __future__ import annotations

import re

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes from a size people write: 512M, 2G, 1.5GiB, 4096 (K, M, G, T in powers of 1024);
    ValueError for anything else."""
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(f"a size such as 512M, 2G or 1.5GiB, got {text!r}")
    number, unit = float(match[1]), match[2].upper()
    size = int(number * 1024 ** "_KMGT".index(unit)) if unit else int(number)
    if size <= 0:
        raise ValueError(f"a positive size, got {text!r}")
    return size
