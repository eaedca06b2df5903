"""The view's ``illegal`` and ``illegal_codes``: why each card of the hand may not be played, now built on
:meth:`mizerka.deal.Observation.why_illegal`.  For Mizerka the wire format is exactly the one the web client reads:
the same text, the same codes, the cards in the same order."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

pytest.importorskip("fastapi", reason="the server tests need the 'server' extra (pip install -e '.[dev]')")

from deal_helpers import club_led_in_hearts
from mizerka.cards import CardSet, Suit
from mizerka.deal import Deal, Observation, Phase
from mizerka.server.tables import card_list
from mizerka.server.views import illegal_codes, illegal_reasons
from mizerka.tricks import IllegalPlay


def _old_reasons(obs: Observation) -> dict[str, str]:
    """The follow-suit reasons as the view wrote them before the engine could say why (the oracle)."""
    if not obs.is_my_turn() or obs.phase is not Phase.PLAY or not obs.trick:
        return {}
    led = obs.trick[0] // 13
    hand = obs.hand.mask
    if not hand & (0x1FFF << (13 * led)):
        return {}
    reason = f"must follow suit: {Suit(led).name.lower()} were led"
    return {card: reason for card in card_list(hand & ~(0x1FFF << (13 * led)))}


def _old_codes(obs: Observation, illegal: dict[str, str]) -> dict[str, dict[str, str]]:
    if not illegal:
        return {}
    code = {"code": "follow", "suit": "CDHS"[obs.trick[0] // 13]}
    return {card: code for card in illegal}


def _observations(seed: int) -> list[Observation]:
    """Every seat's observation at each step of a deal played at random."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    deal = Deal(deck, dealer=seed % 3)
    seen = []
    while deal.phase is not Phase.DONE:
        seen.extend(deal.observation(seat) for seat in range(3))
        actions = list(deal.legal_actions) if deal.phase is not Phase.EXCHANGE else [next(iter(deal.legal_actions))]
        deal.push(rng.choice(actions))
    seen.extend(deal.observation(seat) for seat in range(3))
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_the_reasons_and_codes_are_those_of_before_to_the_byte(seed: int) -> None:
    refused = 0
    for obs in _observations(seed):
        reasons = illegal_reasons(obs)
        old = _old_reasons(obs)
        assert json.dumps(reasons) == json.dumps(old)  # the same cards, text and order
        assert json.dumps(illegal_codes(obs, reasons)) == json.dumps(_old_codes(obs, old))
        refused += bool(reasons)
    assert refused  # some position of the deal had a card to refuse


def _trick_in_progress() -> Observation:
    deal = club_led_in_hearts()
    return deal.observation(deal.to_move)


def test_a_follow_reason_names_the_suit_led() -> None:
    obs = _trick_in_progress()
    reasons = illegal_reasons(obs)
    assert reasons and set(reasons) == {str(c) for c in obs.hand if c // 13 != Suit.CLUBS}
    assert set(reasons.values()) == {"must follow suit: clubs were led"}
    assert all(code == {"code": "follow", "suit": "C"} for code in illegal_codes(obs, reasons).values())


def test_no_reasons_off_turn_or_when_the_hand_is_void() -> None:
    obs = _trick_in_progress()
    assert illegal_reasons(dataclasses.replace(obs, to_move=(obs.to_move + 1) % 3)) == {}
    void = dataclasses.replace(obs, hand=CardSet.from_str("KH 2H 9S"))
    assert illegal_reasons(void) == {} and illegal_codes(void, {}) == {}


def test_a_must_trump_reason_is_worded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mizerka has no must-trump; a game with one (Preferans) would give the ``trump`` reason."""
    obs = dataclasses.replace(_trick_in_progress(), hand=CardSet.from_str("KH 2H 9S"))
    monkeypatch.setattr(Observation, "why_illegal",
                        lambda self, card: IllegalPlay("trump", Suit.HEARTS) if card // 13 != Suit.HEARTS else None)
    reasons = illegal_reasons(obs)
    assert reasons == {"9S": "must trump: hearts are trumps"}
    assert illegal_codes(obs, reasons) == {"9S": {"code": "trump", "suit": "H"}}
