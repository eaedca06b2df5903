"""Positions, matches and records that several test modules share (importable from ``tests/`` and its
sub-folders)."""

from __future__ import annotations

import random

from mizerka.cards import CardSet
from mizerka.deal import Deal, Exchange, Phase, Play
from mizerka.match import Match
from mizerka.record import MatchRecord
from mizerka.rules import STANDARD, Rules, get_variant


def club_led_in_hearts() -> Deal:
    """A deck in order, dealer 0: forehand (seat 1) chooses hearts, nobody exchanges, and leads the ace of clubs;
    seat 2 is to play to the trick."""
    deal = Deal(list(range(52)), dealer=0)
    for action in ("H", "keep", "-", "keep", "AC"):
        deal.play(action)
    return deal


def exchanging() -> Deal:
    """A deck in order, dealer 0: forehand has chosen no-trump and is to exchange."""
    deal = Deal(list(range(52)), dealer=0)
    deal.play("NT")
    assert deal.phase is Phase.EXCHANGE
    return deal


def random_action(deal: Deal, rng: random.Random) -> Exchange | Play:
    """A random legal card, or a random exchange (any number of the hand's cards, up to the talon's size)."""
    if deal.phase is Phase.EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        return Exchange(CardSet(rng.sample(hand, rng.randint(0, min(len(deal.talon), len(hand))))))
    return rng.choice(list(deal.legal_actions))  # type: ignore[return-value]


def played_match(rules: Rules = STANDARD, seed: int = 1, actions: int = 30) -> Match:
    """A match of *rules* after *actions* random actions (:func:`random_action`, seeded by *seed*)."""
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        match.push(random_action(match.deal, rng))
    return match


def play_to_the_end(match: Match, rng: random.Random) -> None:
    """Random actions (:func:`random_action`) until *match* is over."""
    while not match.is_over():
        match.push(random_action(match.deal, rng))


def record_in_deal_2_exchange() -> MatchRecord:
    """Deal 1 played out, deal 2's contract chosen and forehand's exchange made: saved mid-exchange."""
    match = Match(get_variant("standard"), players=["A", "B", "C"], seed=5)
    while not (match.deal_no == 2 and match.deal.phase is Phase.EXCHANGE and match.deal.history):
        match.push(next(iter(match.legal_actions)))
    match.push(next(iter(match.legal_actions)))  # forehand's exchange
    assert match.deal_no == 2 and match.deal.phase is Phase.EXCHANGE
    return MatchRecord.from_match(match)
