"""Audit (session 21) of the bot API: an Observation no deal can produce is refused by ``Bot.decide`` (and
``decide_async``) with a BotError naming the problem, before any level decides; level names in any case."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

import mizerka.bots
from mizerka import Match, Phase
from mizerka.bots import BOT_LEVELS, BotError, Budget, UnknownBotError, make_bot
from mizerka.cards import CardSet
from mizerka.deal import Choose, Observation, Play

SMALL = Budget(worlds=2, simulations=30)


def _observations() -> tuple[Observation, Observation]:
    """A contract choice, and a card play in the middle of the first deal of a match."""
    match = Match(seed=2)
    contract = match.observation(match.to_move)
    picker = make_bot("random", seed=1)
    while True:
        observation = match.observation(match.to_move)
        if observation.phase is Phase.PLAY and len(observation.history) > 12:
            return contract, observation
        match.push(picker.decide(observation).action)


CONTRACT, PLAY = _observations()
NOT_HELD = next(card for card in range(52) if card not in PLAY.hand)
CASES = {
    "contract, no legal action": (dataclasses.replace(CONTRACT, legal_actions=()), "no legal action"),
    "play, no legal action": (dataclasses.replace(PLAY, legal_actions=()), "no legal action"),
    "play, empty hand": (dataclasses.replace(PLAY, hand=CardSet()), "holds none"),
    "play, a card not held": (
        dataclasses.replace(PLAY, legal_actions=(Play(NOT_HELD),)),  # type: ignore[arg-type]
        "does not hold it",
    ),
    "play, a contract as legal": (
        dataclasses.replace(PLAY, legal_actions=(Choose(CONTRACT.allowed_contracts[0]),)), "no card to play",
    ),
    "a seat outside the deal": (dataclasses.replace(PLAY, seat=7, to_move=7), "not a seat of its deal"),
}


@pytest.mark.parametrize("level", list(BOT_LEVELS))
@pytest.mark.parametrize("case", list(CASES))
def test_an_impossible_observation_is_a_bot_error(level: str, case: str) -> None:
    """Such observations escaped as IndexError, AssertionError or KeyError (or a ValueError naming nothing, such
    as 'negative shift count'), or were even answered (a card from an empty hand)."""
    observation, problem = CASES[case]
    with pytest.raises(BotError, match=problem):
        make_bot(level, seed=1).decide(observation, SMALL)


def test_decide_async_refuses_an_impossible_observation_too() -> None:
    observation, problem = CASES["play, empty hand"]
    with pytest.raises(BotError, match=problem):
        asyncio.run(make_bot("ismcts", seed=1).decide_async(observation, SMALL))


@pytest.mark.parametrize("level", ["random", "rules", "pimc"])
def test_a_consistent_observation_is_answered_as_before(level: str) -> None:
    """The check refuses nothing a deal produces: the contract choice, an exchange (whose legal actions are empty
    by design) and a card play are each answered with a legal action."""
    match = Match(seed=5)
    bot = make_bot(level, seed=3, budget=SMALL)
    phases = set()
    while len(phases) < 3:
        observation = match.observation(match.to_move)
        decision = bot.decide(observation)
        assert match.deal.illegal_reason(decision.action) is None
        phases.add(observation.phase)
        match.push(decision.action)


def test_level_names_are_read_in_any_case_and_named_in_lower_case() -> None:
    assert make_bot(" Rules ").name == "rules"
    level_name = mizerka.bots.level_name
    assert [level_name(n) for n in ("PIMC", " Rules ", "expert")] == ["pimc", "rules", "expert"]
    assert make_bot("ISMCTS").name == "ismcts"
    for bad in ("grandmaster", "", 3, None):
        with pytest.raises(UnknownBotError, match="unknown bot"):
            level_name(bad)
