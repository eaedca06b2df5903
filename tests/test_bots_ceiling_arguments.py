"""The ceiling diagnostic (``benchmarks/bots_ceiling.py``) refuses bad arguments with a message naming them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bots_ceiling.py"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--swaps", "two"], "--swaps must be a whole number of swaps or 'sampled', not 'two'"),
        (["--swaps", "-1"], "--swaps must be a whole number of swaps or 'sampled', not '-1'"),
        (["--worlds", "0"], "--worlds must be at least 1"),
        (["--deals", "0"], "--deals must be at least 1"),
        (["--opponents", "experts"], "invalid choice: 'experts'"),
    ],
)
def test_a_bad_argument_is_refused_with_its_name_and_no_deal_played(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--mode", "play-near", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # nothing played, nothing reported
