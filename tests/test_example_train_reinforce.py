"""The training example, examples/train_reinforce.py: bad arguments are refused by its argument parser (exit
status 2, no traceback; they ended in a StatisticsError or NumPy's ValueError, or trained nothing and reported), and
the win rate's 95% interval is a rate, within 0 and 1 (the normal approximation ran below 0 for few deals, printed as
"95% CI -0.015-0.265")."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--eval-deals", "0"], "--eval-deals"),
        (["--eval-deals", "1"], "--eval-deals"),
        (["--eval-deals", "-5"], "--eval-deals"),
        (["--learning-rate", "nan"], "--learning-rate"),
        (["--learning-rate", "0"], "--learning-rate"),
        (["--minutes", "-1"], "--minutes"),
        (["--minutes", "nan"], "--minutes"),
        (["--minutes", "inf"], "--minutes"),
        (["--seed", "-1"], "--seed"),
    ],
)
def test_training_example_refuses_bad_arguments(args: list[str], names: str) -> None:
    """Each used to end in a traceback (StatisticsError, numpy's ValueError) or to train nothing and report."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_reinforce.py"), "--minutes", "0.001", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"argument {names}" in result.stderr
    assert result.stdout == ""


def test_the_training_examples_win_rate_interval_is_a_rate() -> None:
    """examples/train_reinforce.py printed a win rate's interval as "95% CI -0.015-0.265": the normal
    approximation ran below 0 (and can run above 1) for few deals, and the minus sign read as a range."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location("_train_reinforce_example", ROOT / "examples" / "train_reinforce.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        for seed in range(3):
            result = module.evaluate(None, "random", 3, seed)  # 3 deals: a wide interval
            low, high = result["win_rate_ci95"]
            assert 0.0 <= low <= result["win_rate"] <= high <= 1.0, (seed, result)
            assert high - low > 0.3, result  # three deals say little, even when all went one way
        # no win in ten deals: the normal approximation printed "0.000-0.000", as if the rate were known exactly
        assert [round(x, 3) for x in module.wilson(0.0, 10)] == [0.0, 0.278]
        assert [round(x, 3) for x in module.wilson(1.0, 10)] == [0.722, 1.0]
    finally:
        del sys.modules[spec.name]
