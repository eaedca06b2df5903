"""The arena's incidents: what a bot did wrong is reported, with its position, and the run goes on.

A decision without an action is an incident (the stand-in played for it without a word); an error whose ``str()``
raises, or an action whose ``repr()`` does, is still an incident (the run stopped); a decision over its time limit is
replaced by the stand-in's action, as the docs promise (the bot's late action was played).  The command prints each
incident as one whole line, with its ``[position: …]`` and any ``[...]`` of the bot's message (read as rich markup,
they vanished).  Only an ``Exception`` is a bot's incident: ``KeyboardInterrupt`` and ``SystemExit`` stop the run.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mizerka import Match, parse_variant
from mizerka.arena import match_seed, run_arena, stand_in
from mizerka.bots import BOT_LEVELS, BotLevel, Budget, Decision
from mizerka.bots.random_bot import RandomBot
from mizerka.cli import cli
from mizerka.deal import Exchange, Observation
from mizerka.record import read

TINY_VARIANT = ["--variant", "standard,contracts=NT"]  # three deals a match


SHORT = parse_variant("standard,contracts=NT+MZ")
"""Six deals a match."""


class _BracketBot(RandomBot):
    name = "bracket"
    badge = "Bracket"
    description = "Raises with square brackets in its message on every card play."
    message = "boom[red]x"

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        raise RuntimeError(self.message)


class _TwoLineBot(_BracketBot):
    name = "twoline"
    description = "Raises with a line break in its message on every card play."
    message = "first line\nsecond line"


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


def test_an_incident_with_a_line_break_stays_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message with a line break printed its incident over two lines: the break is written as \\n now."""
    monkeypatch.setitem(BOT_LEVELS, "twoline", BotLevel("twoline", "Two lines", "test", _TwoLineBot))
    result = CliRunner().invoke(cli, ["arena", "twoline", "random", "random", "-n", "1", *TINY_VARIANT,
                                      "--backend", "serial"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("incident: ")]
    assert lines and all("first line\\nsecond line" in line for line in lines)
    assert not any(line.startswith("second line") for line in result.output.splitlines())


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


def test_a_decision_over_its_time_limit_is_replaced_by_the_stand_in(tmp_path: Path) -> None:
    """The arena reported the overrun but played the bot's own late action.  With a limit every decision
    overruns, so every action of every recorded match must be the stand-in's for its position."""
    result = run_arena(["random", "random", "random"], 1, rules=SHORT, seed=3, backend="serial",
                       decision_limit=1e-9, record_dir=tmp_path, tables="rotations")
    assert result.incidents and {i.kind for i in result.incidents} == {"time"}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for path in files:
        recorded = read(path).to_match()
        replay = Match(SHORT, players=recorded.players, seed=match_seed(3, 0))
        while not replay.is_over():
            replay.push(stand_in(replay))
        assert [d.history for d in recorded.deals] == [d.history for d in replay.deals]
        assert any(isinstance(a, Exchange) for d in recorded.deals for a in d.history)  # exchanges: kept hands


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("this exception cannot be written")


class _Faceless:
    """An action whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("this action cannot be written")


class _UnprintableErrorBot(RandomBot):
    name = "unprintable"
    badge = "Unprintable"
    description = "Raises an exception whose str() raises."

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        raise _Unprintable()


class _FacelessBot(RandomBot):
    name = "faceless"
    badge = "Faceless"
    description = "Answers the contract choice with an object whose repr() raises."

    def choose(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return Decision(_Faceless())  # type: ignore[arg-type]


def test_a_bot_error_that_cannot_be_written_is_still_an_incident(monkeypatch: pytest.MonkeyPatch) -> None:
    """``f"{error}"`` and ``f"{action!r}"`` raised inside the arena's handler, and the run stopped."""
    monkeypatch.setitem(BOT_LEVELS, "unprintable", BotLevel("unprintable", "U", "test", _UnprintableErrorBot))
    monkeypatch.setitem(BOT_LEVELS, "faceless", BotLevel("faceless", "F", "test", _FacelessBot))
    result = run_arena(["unprintable", "faceless", "random"], 1, rules=SHORT, seed=2, backend="serial",
                       tables="rotations")
    assert result.matches == 1
    errors = [i for i in result.incidents if i.bot == "unprintable"]
    assert errors and all(i.kind == "error" for i in errors)
    assert "_Unprintable: <_Unprintable object, whose str() raised RuntimeError>" in errors[0].detail
    illegal = [i for i in result.incidents if i.bot == "faceless"]
    assert illegal and all(i.kind == "illegal" for i in illegal)
    assert "<_Faceless object, whose repr() raised RuntimeError>" in illegal[0].detail


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit])
def test_keyboard_interrupt_and_system_exit_still_stop_the_run(
    monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]
) -> None:
    """A guard for the change above: only ``Exception`` is a bot's incident; the user's Ctrl-C stops the run."""

    class _Stopper(RandomBot):
        name = "stopper"

        def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
            raise stop()

    monkeypatch.setitem(BOT_LEVELS, "stopper", BotLevel("stopper", "S", "test", _Stopper))
    with pytest.raises(stop):
        run_arena(["stopper", "random", "random"], 1, rules=SHORT, seed=2, backend="serial")
