"""Audit (session 13) of ``mizerka arena``: the defects found in the command, each pinned by a test."""

from __future__ import annotations

import concurrent.futures
import os
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import mizerka.arena
import mizerka.bots.cli
from mizerka.arena import ArenaResult, run_arena
from mizerka.bots import BOT_LEVELS, BotLevel, Budget, Decision
from mizerka.bots.random_bot import RandomBot
from mizerka.cli import cli
from mizerka.deal import Observation

FAST = ["rules", "random", "random"]
TINY_VARIANT = ["--variant", "standard,contracts=NT"]  # three deals a match


def test_an_empty_records_folder_is_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--save-records ''`` was read as the current folder: every table's record was written there."""
    monkeypatch.chdir(tmp_path)
    for empty in ("", "  "):
        result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--save-records", empty])
        assert result.exit_code == 2, result.output
        assert "records' folder must be named" in result.output and "Traceback" not in result.output
    assert os.listdir(tmp_path) == []


def test_the_process_pool_is_no_larger_than_the_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workers 64 -n 2`` started 64 processes (the pool forks every worker at once); 10**6 exhausted the machine.
    The results do not depend on the workers, so the command asks for no more than one per match."""
    asked: list[int | None] = []
    real = concurrent.futures.ProcessPoolExecutor

    def spy(max_workers: int | None = None, **kwargs: Any) -> concurrent.futures.ProcessPoolExecutor:
        asked.append(max_workers)
        return real(max_workers=min(max_workers or 1, 2), **kwargs)  # never fork 64 here, even on the old code

    monkeypatch.setattr(mizerka.arena, "ProcessPoolExecutor", spy)
    runner = CliRunner()
    many = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--workers", "64", "--json"])
    assert many.exit_code == 0, many.output
    default = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--json"])  # default: the CPUs
    assert default.exit_code == 0, default.output
    assert asked and all(n is not None and n <= 2 for n in asked), asked
    serial = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--backend", "serial", "--json"])
    assert many.output.splitlines()[-1] == default.output.splitlines()[-1] == serial.output.splitlines()[-1]
    for bad in ("0", "-3"):  # still named by the arena
        refused = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--workers", bad])
        assert refused.exit_code == 2 and "workers must be" in refused.output


def test_a_plot_is_written_under_the_name_given(tmp_path: Path) -> None:
    """``--plot .png`` (a name that is all suffix) was saved as ``.png.png``: matplotlib added the suffix again."""
    plot = tmp_path / ".png"
    result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.is_file() and plot.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".png"]


def test_a_budget_for_a_level_that_does_not_play_is_refused() -> None:
    """``--budget pimc:worlds=8`` in an arena without PIMC was silently ignored (a typo went unnoticed)."""
    result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--budget", "pimc:worlds=8"])
    assert result.exit_code == 2
    assert "no pimc bot plays in this arena" in result.output and "Traceback" not in result.output
    unknown = CliRunner().invoke(cli, ["arena", "rules", "random", "champion", "--budget", "pimc:worlds=8"])
    assert unknown.exit_code == 2 and "unknown bot 'champion'" in unknown.output  # the unknown bot comes first


def test_a_level_budgeted_twice_gets_both_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--budget pimc:worlds=2 --budget pimc:time=5`` kept only the second: the worlds were dropped silently.
    (It was written with the rules level, which since session 21 refuses fields it never reads.)"""
    seen: list[list[Budget | None]] = []
    real = run_arena

    def spy(*args: Any, **kwargs: Any) -> ArenaResult:
        seen.append(list(kwargs["budgets"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(mizerka.bots.cli, "run_arena", spy)
    result = CliRunner().invoke(cli, ["arena", "pimc", "random", "random", "-n", "1", *TINY_VARIANT,
                                      "--backend", "serial", "--budget", "pimc:worlds=2", "--budget", "pimc:time=5",
                                      "--budget", "pimc:worlds=3"])
    assert result.exit_code == 0, result.output
    assert seen == [[Budget(time=5.0, worlds=3), None, None]]


class _BracketBot(RandomBot):
    name = "bracket"
    badge = "Bracket"
    description = "Raises with square brackets in its message on every card play."

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        raise RuntimeError("boom[red]x")


def test_incidents_are_printed_with_their_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command printed incidents as rich markup: '[position: deck …; dealer …; actions …]' was read as a style
    tag and vanished, and so did any '[...]' in a bot's message.  Each incident is now one whole line."""
    monkeypatch.setitem(BOT_LEVELS, "bracket", BotLevel("bracket", "Bracket", "test", _BracketBot))
    result = CliRunner().invoke(cli, ["arena", "bracket", "random", "random", "-n", "1", *TINY_VARIANT,
                                      "--backend", "serial"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("incident: ")]
    assert lines and all("seat " in line and "[position: deck " in line and "; dealer " in line for line in lines)
    assert all("boom[red]x" in line for line in lines)


class _NoAction(RandomBot):
    """A broken bot: its card play answers a decision that holds no action."""

    name = "noaction"

    def play(self, observation: Any, budget: Any, rng: Any) -> Decision:
        return Decision(None)  # type: ignore[arg-type]


def test_a_decision_without_an_action_is_an_incident(monkeypatch: pytest.MonkeyPatch) -> None:
    """The arena played the stand-in for it without a word: the bot's failures went unreported."""
    from mizerka.rules import parse_variant

    monkeypatch.setitem(BOT_LEVELS, "noaction", BotLevel("noaction", "NoAction", "", _NoAction))
    result = run_arena(["noaction", "random", "random"], 1, rules=parse_variant("standard,contracts=NT"), seed=2,
                       backend="serial")
    assert result.incidents, "the failed decisions were not reported"
    incident = result.incidents[0]
    assert incident.kind == "illegal" and "holds no action" in incident.detail and incident.bot == "noaction"


def test_run_arena_refuses_an_empty_records_folder_and_budgets_that_are_no_budgets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``record_dir=""`` wrote every record into the current folder; a budget given as text failed mid-run,
    after the records' folder was made."""
    from mizerka.arena import ArenaError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ArenaError, match="folder is empty"):
        run_arena(["rules", "random", "random"], 1, backend="serial", record_dir="")
    assert list(tmp_path.iterdir()) == []
    made = tmp_path / "made"
    with pytest.raises(ArenaError, match="must be a Budget"):
        run_arena(["rules", "random", "random"], 1, backend="serial",
                  budgets=["worlds=2", None, None], record_dir=made)  # type: ignore[list-item]
    assert not made.exists()


def test_budget_text_and_the_rng_are_checked() -> None:
    """``Budget.parse(None)`` was an AttributeError, ``time=1,time=2`` kept the last value without a word, and an
    rng that is no ``random.Random`` failed deep inside the bot."""
    from mizerka.bots import BotError, BudgetError, make_bot
    from mizerka.deal import Deal

    for text in (None, 5):
        with pytest.raises(BudgetError, match="a budget is text"):
            Budget.parse(text)  # type: ignore[arg-type]
    with pytest.raises(BudgetError, match="gives time twice"):
        Budget.parse("time=1,time=2")
    assert Budget.parse("time=1,worlds=2") == Budget(time=1.0, worlds=2)
    deal = Deal.random(3)
    with pytest.raises(BotError, match=r"rng must be a random\.Random"):
        make_bot("rules").decide(deal.observation(deal.to_move), None, 5)  # type: ignore[arg-type]
