"""A count stopped by its time limit says what it found (issue 34, item 4): on the pool, the
solutions of the finished work items are a lower bound (it reported 0, or nothing, while its own
summary said 1.3 G solutions were found), and `count --unique --json` prints its record."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import script

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

#: OEIS A000170, n = 18.
QUEENS_18 = 666_090_624


def _json(*args: str) -> tuple[int, dict]:
    proc = subprocess.run([script(), *args, "--json"], capture_output=True, text=True, timeout=90)
    return proc.returncode, json.loads(proc.stdout)


def test_a_pool_count_stopped_by_its_limit_gives_a_lower_bound():
    code, rec = _json("count", "18", "--workers", "2", "--time-limit", "4")
    assert code == 3 and rec["status"] == "unknown" and rec["partial"] is True
    assert rec["plan"]["workers"] == 2
    assert isinstance(rec["count"], int) and 0 < rec["count"] < QUEENS_18, rec


def test_a_class_count_stopped_by_its_limit_prints_its_record():
    code, rec = _json("count", "18", "--unique", "--time-limit", "2")
    assert code == 3 and rec["status"] == "unknown" and rec["reason"] == "time limit"
    assert rec["count"] is None and rec["partial"] is True
    assert rec["total"] is None or 0 <= rec["total"] < QUEENS_18
