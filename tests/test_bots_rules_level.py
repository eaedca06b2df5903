"""The rules level's reading of the table where the variant shows a card or deals during play.

* ``show_trump_card``: the first player who exchanges anything draws the turned-up talon card (the talon's top), so
  the level's exchange values that exact hand, and in play the card is held until it is played (the level took it
  as out of play, and led a queen "to draw trumps with a master trump" while the king turned up was still held).
* seed002-literal: a player draws from the stock after each card while it lasts, so a void shown before his later
  draw no longer binds (the level ruled the suit out for good); where nobody draws during play, voids bind as before.

The shared readings (:func:`mizerka.sampling.shown_card_holder`, :func:`~mizerka.sampling.binding_voids`) are
pinned in test_voids_shared.py.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable

from mizerka import Deal, Phase, parse_variant
from mizerka.bots import make_bot
from mizerka.bots.heuristics import contract_estimate
from mizerka.bots.rules_bot import (
    _Table,
    binding_voids,
    discard_order,
    exchange_by_rules,
    shown_card_holder,
)
from mizerka.cards import CARDS, SUIT_MASKS, CardSet
from mizerka.deal import Exchange, Observation
from mizerka.rules import Contract, get_variant

# -- the turned-up talon card ----------------------------------------------------------------------------------------

SHOWN = parse_variant("standard,show_trump_card")


def _to_exchange(seed: int, contract: str) -> Deal:
    deal = Deal.random(seed, rules=SHOWN, dealer=seed % 3)
    deal.play(contract)
    return deal


def test_the_first_player_to_exchange_draws_the_turned_up_card_in_the_rules_levels_exchange() -> None:
    """The exchange drew its imagined cards from the unseen ones only, never the turned-up card, although that
    card is the talon's top: the first player who discards anything draws it.  With one discard the draw is
    therefore known, and the evaluation is that exact hand's, not an average over random draws."""
    checked = 0
    for seed in range(6):
        deal = _to_exchange(seed, "H")
        shown = deal.shown_card
        assert shown is not None
        observation = deal.observation(deal.to_move)  # forehand: nobody has drawn yet
        assert shown_card_holder(observation) is None
        contract = Contract.HEARTS
        hand = observation.hand.mask
        weakest = discard_order(hand, int(contract))[0]
        evaluations = exchange_by_rules(observation, random.Random(seed)).evaluations
        kept = (hand & ~(1 << weakest)) | 1 << shown
        role = observation.role
        assert role is not None
        expected = contract_estimate(kept, int(contract)) - SHOWN.quota(role, contract)
        assert evaluations[str(Exchange(CardSet([weakest])))] == round(expected, 3)
        checked += 1
        # forehand discards one card (and draws the shown card): middlehand's draws no longer include it
        deal.play(Exchange(CardSet([weakest])))
        assert shown_card_holder(deal.observation(deal.to_move)) == deal.active_seats[0]
    assert checked == 6


def _play_shown_deals(check: Callable[[Deal, Observation, int, int], None]) -> None:
    """Rules bots play seeds 6, 86 and 222 of ``standard,show_trump_card`` in spades (a high spade turned up);
    *check* sees every decision of a seat other than the one holding the turned-up card, while it holds it."""
    for seed in (6, 86, 222):
        deal = _to_exchange(seed, "S")
        shown = deal.shown_card
        assert shown is not None
        bots = {s: make_bot("rules", seed=s) for s in range(3)}
        holder = None
        while deal.phase is Phase.EXCHANGE:
            seat = deal.to_move
            action = bots[seat].decide(deal.observation(seat)).action
            if holder is None and isinstance(action, Exchange) and action.discards:
                holder = seat
            deal.play(action)
        assert holder is not None and deal.hands[holder] >> shown & 1
        while deal.phase is Phase.PLAY:
            seat = deal.to_move
            observation = deal.observation(seat)
            if seat != holder and deal.hands[holder] >> shown & 1:
                check(deal, observation, holder, shown)
            deal.play(bots[seat].decide(observation).action)


def test_the_rules_level_plays_as_if_the_turned_up_card_were_held_until_played() -> None:
    """Seat 0 led the queen of spades 'to draw trumps with a master trump' while the turned-up king of spades
    was in seat 1's hand (seed 6; seeds 86 and 222 alike): the card was taken as out of play."""
    misjudged: list[str] = []
    decisions = 0

    def check(deal: Deal, observation: Observation, holder: int, shown: int) -> None:
        nonlocal decisions
        decision = make_bot("rules", seed=observation.seat).decide(observation)
        card = decision.action.card  # type: ignore[union-attr]
        reason = str(decision.info.get("reason", ""))
        decisions += 1
        if card // 13 == shown // 13 and card < shown and ("master" in reason or "sure winner" in reason):
            misjudged.append(f"{CARDS[card]} ({reason}) below {CARDS[shown]}")

    _play_shown_deals(check)
    assert decisions > 0 and misjudged == []


def test_the_rules_levels_table_puts_the_turned_up_card_in_its_holders_hand() -> None:
    seen = 0

    def check(deal: Deal, observation: Observation, holder: int, shown: int) -> None:
        nonlocal seen
        assert shown_card_holder(observation) == holder
        table = _Table(observation)
        third = next(s for s in table.opponents if s != holder)
        assert table.unseen_for(holder) >> shown & 1 and not table.unseen_for(third) >> shown & 1
        assert table.unseen_above(shown - 1) >> shown & 1  # a card below it is no master
        assert table.may_hold(holder, shown // 13)
        seen += 1

    _play_shown_deals(check)
    assert seen > 0


# -- voids shown before a later draw ---------------------------------------------------------------------------------


def test_the_rules_level_forgets_a_void_once_the_player_has_drawn_since() -> None:
    """seed002-literal: a player draws from the stock after each card while it lasts, so a suit he failed to
    follow may come back.  The rules level ruled such a suit out for good (it read ``Observation.voids``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rules = get_variant("seed002-literal")
    wrong = []
    kept = 0
    dropped = 0
    for seed in range(6):
        deal = Deal.random(seed, rules=rules, dealer=seed % 3)
        bots = {s: make_bot("rules", seed=s) for s in range(3)}
        while deal.phase is not Phase.DONE:
            seat = deal.to_move
            observation = deal.observation(seat)
            if deal.phase is Phase.PLAY:
                table = _Table(observation)
                voids = binding_voids(observation)
                for other in table.opponents:
                    for suit in range(4):
                        holds = bool(deal.hands[other] & SUIT_MASKS[suit])
                        if holds and not table.may_hold(other, suit):
                            wrong.append((seed, len(observation.tricks), other, suit))
                    kept += len(voids[other])
                    dropped += len(observation.voids()[other] - voids[other])
                    # a void that binds is true: the seat holds no card of that suit
                    assert not any(deal.hands[other] & SUIT_MASKS[int(s)] for s in voids[other])
            deal.play(bots[seat].decide(observation).action)
    assert wrong == []
    assert kept > 0 and dropped > 0  # voids shown after the stock ran out still count; earlier ones do not


def test_voids_bind_as_before_where_nobody_draws_during_play() -> None:
    deal = Deal.random(4, dealer=1)
    bots = {s: make_bot("rules", seed=s) for s in range(3)}
    while deal.phase is not Phase.DONE:
        observation = deal.observation(deal.to_move)
        if deal.phase is Phase.PLAY:
            assert binding_voids(observation) == observation.voids()
        deal.play(bots[deal.to_move].decide(observation).action)
