"""``show_trump_card`` without an exchange (RULES.md §8: "the top talon card is shown as a reminder").

In a trump contract the top card of the dead talon is turned up, for every seat and for a spectator, and taken back
with the contract; nothing is shown without the option, nor in no-trump and Mizerka.  Worlds sampled from an
observation keep the card, and a record replays it.
"""

from __future__ import annotations

import random

import pytest

from deal_helpers import played_match, random_action
from mizerka.cards import CARDS
from mizerka.deal import Deal, Phase
from mizerka.record import MatchRecord, read_text
from mizerka.rules import VARIANTS, Contract, parse_variant

DECK = list(range(52))
NO_EXCHANGE_SHOWN = parse_variant("no-exchange,show_trump_card")


@pytest.mark.parametrize("spec", ["no-exchange,show_trump_card", "no-exchange,show_trump_card,seed002-blocks"])
def test_show_trump_card_turns_up_the_dead_talons_top_in_trump_contracts(spec: str) -> None:
    rules = parse_variant(spec)
    for contract in Contract:
        deal = Deal(DECK, rules=rules, dealer=0)
        deal.play(str(contract))
        assert deal.phase is Phase.PLAY  # still no exchange
        if contract.trump is None:  # no trumps to remind of in no-trump and Mizerka
            assert deal.shown_card is None
            continue
        assert deal.shown_card == deal.talon[-1]
        for seat in (None, 0, 1, 2):
            assert deal.observation(seat).shown_card is CARDS[deal.talon[-1]]
        deal.pop()
        assert deal.shown_card is None and deal.observation(None).shown_card is None


def test_no_exchange_without_the_option_shows_nothing() -> None:
    deal = Deal(DECK, rules=VARIANTS["no-exchange"], dealer=0)
    deal.play("H")
    assert deal.shown_card is None


def test_worlds_sampled_under_a_dead_shown_card_match_the_observation() -> None:
    for seed in range(12):
        rng = random.Random(seed)
        deal = Deal.random(seed, rules=NO_EXCHANGE_SHOWN, dealer=seed % 3)
        deal.play(rng.choice("CDHS"))
        for _ in range(rng.randrange(39)):
            deal.push(random_action(deal, rng))
        for seat in (None, 0, 1, 2):
            observation = deal.observation(seat)
            world = Deal.from_observation(observation, rng)
            assert world.observation(seat) == observation
            assert world.talon[-1] == deal.talon[-1]


def test_a_record_replays_the_dead_shown_card() -> None:
    match = played_match(NO_EXCHANGE_SHOWN, seed=4, actions=100)
    record = MatchRecord.from_match(match)
    assert "no-exchange,show_trump_card" in record.to_text()
    replayed = read_text(record.to_text()).to_match()
    for seat in (None, 0, 1, 2):
        assert replayed.observation(seat) == match.observation(seat)
