"""A variant whose scores are not zero-sum (seed002-literal, or quotas changed): every command that uses it
(``play``, ``arena``, ``deal``) says so once, as a line, never as Python's ``UserWarning``; reading or replaying such
a record warns nothing."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import click
from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.match import Match
from mizerka.record import MatchRecord, read_text
from mizerka.rules import parse_variant


def invoke(*args: str, input: str | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), input=input)


def literal_record() -> MatchRecord:
    rules = parse_variant("seed002-literal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        match = Match(rules, players=["A", "B", "C"], seed=5)
    for _ in range(30):
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return MatchRecord.from_match(match)


def test_reading_a_non_zero_sum_record_warns_nothing() -> None:
    text = literal_record().to_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        record = read_text(text)
        record.to_match()


def test_replay_of_a_non_zero_sum_record_prints_no_python_warning(tmp_path: Path) -> None:
    path = tmp_path / "literal.mzn"
    path.write_text(literal_record().to_text(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-W", "default", "-m", "mizerka", "replay", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "UserWarning" not in done.stderr and "Match(" not in done.stderr


def test_play_with_a_non_zero_sum_variant_says_it_once_as_a_line() -> None:
    for variant, expected in (("seed002-literal", 1), ("standard,quota_ordinary=7/5/2", 1)):
        result = invoke("play", "--plain", "--seed", "1", "--opponents", "random", "--variant", variant,
                        input="quit\n")
        assert result.exit_code == 0, result.output
        assert "UserWarning" not in result.output
        assert result.output.count("not zero-sum") == expected, result.output


def test_arena_with_a_non_zero_sum_variant_says_it_once_as_a_line() -> None:
    result = invoke("arena", "random", "random", "random", "-n", "1", "--workers", "1", "--tables", "rotations",
                    "--variant", "seed002-literal", "--json")
    assert result.exit_code == 0, result.output
    assert "UserWarning" not in result.output
    # the warning once; the JSON's "rules" (every field of the rules, their source's text too) is data, not a warning
    warnings = [line for line in result.output.splitlines() if not line.startswith("{")]
    assert sum(line.count("not zero-sum") for line in warnings) == 1, result.output


def test_deal_with_a_non_zero_sum_variant_says_it_once_as_a_line() -> None:
    """``deal`` plays nothing, but the variant's note is said as for every command (a named variant used to
    say nothing, the same variant with an option did)."""
    for variant in ("seed002-literal", "seed002-literal,first_dealer=1"):
        result = invoke("deal", "--seed", "1", "--variant", variant)
        assert result.exit_code == 0, result.output
        assert result.output.count("not zero-sum") == 1, result.output
    assert "zero-sum" not in invoke("deal", "--seed", "1").output
