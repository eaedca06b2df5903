"""Why a card may not be played: :func:`mizerka.tricks.why_illegal` and :meth:`Observation.why_illegal`.

The follow rule (a card of the suit led if the hand holds one), the must-trump rule of the generic trick machinery
(Preferans: a hand void in the suit led must trump if it can; Mizerka has no such rule), a card not in the hand,
and the agreement of the reasons with :func:`mizerka.tricks.legal_plays`; what is no card index (a bool, a text, a
float) is refused.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deal_helpers import club_led_in_hearts, exchanging
from mizerka.cards import Card, CardSet, Suit
from mizerka.deal import KEEP, Deal, Phase, Play
from mizerka.rules import Contract
from mizerka.tricks import IllegalPlay, legal_plays, why_illegal


def _card(text: str) -> int:
    return Card.from_str(text)


def _hand(text: str) -> int:
    return CardSet.from_str(text).mask


# -- follow suit ------------------------------------------------------------------------------------------------------


def test_a_card_off_the_suit_led_is_refused_while_the_hand_holds_that_suit() -> None:
    hand = _hand("JH 3H AC 2S")
    for card in ("AC", "2S"):
        assert why_illegal(hand, _card(card), Suit.HEARTS, None) == IllegalPlay("follow", Suit.HEARTS)
    for card in ("JH", "3H"):
        assert why_illegal(hand, _card(card), Suit.HEARTS, None) is None


def test_following_suit_comes_before_trumping() -> None:
    hand = _hand("JH AC 2S")  # holds a heart: must follow even where a void hand would have to trump
    assert why_illegal(hand, _card("AC"), Suit.HEARTS, Suit.CLUBS, must_trump=True) == IllegalPlay(
        "follow", Suit.HEARTS)
    assert why_illegal(hand, _card("JH"), Suit.HEARTS, Suit.CLUBS, must_trump=True) is None


def test_a_void_hand_may_play_anything_without_must_trump() -> None:
    hand = _hand("AC 2S 9D")
    for card in ("AC", "2S", "9D"):
        assert why_illegal(hand, _card(card), Suit.HEARTS, Suit.CLUBS) is None


def test_the_leader_may_play_any_card_of_the_hand() -> None:
    hand = _hand("JH 3H AC 2S")
    for card in CardSet(hand):
        assert why_illegal(hand, card, None, Suit.CLUBS, must_trump=True) is None


# -- must trump -------------------------------------------------------------------------------------------------------


def test_a_void_hand_must_trump_when_the_rules_say_so() -> None:
    hand = _hand("AC 2C 2S 9D")
    for card in ("2S", "9D"):
        assert why_illegal(hand, _card(card), Suit.HEARTS, Suit.CLUBS, must_trump=True) == IllegalPlay(
            "trump", Suit.CLUBS)
    for card in ("AC", "2C"):
        assert why_illegal(hand, _card(card), Suit.HEARTS, Suit.CLUBS, must_trump=True) is None


def test_a_hand_void_in_the_suit_led_and_in_trumps_may_discard_anything() -> None:
    hand = _hand("2S 9D")
    for card in ("2S", "9D"):
        assert why_illegal(hand, _card(card), Suit.HEARTS, Suit.CLUBS, must_trump=True) is None


def test_must_trump_means_nothing_without_a_trump_suit() -> None:
    hand = _hand("AC 2S")
    assert why_illegal(hand, _card("2S"), Suit.HEARTS, None, must_trump=True) is None


# -- not in the hand --------------------------------------------------------------------------------------------------


def test_a_card_not_in_the_hand_names_its_own_suit() -> None:
    hand = _hand("JH 3H")
    assert why_illegal(hand, _card("KD"), None, None) == IllegalPlay("not_in_hand", Suit.DIAMONDS)
    assert why_illegal(hand, _card("QH"), Suit.HEARTS, None) == IllegalPlay("not_in_hand", Suit.HEARTS)
    assert why_illegal(0, _card("2C"), Suit.SPADES, Suit.SPADES, must_trump=True).code == "not_in_hand"  # type: ignore[union-attr]


def test_a_reason_is_a_small_frozen_value() -> None:
    reason = IllegalPlay("follow", Suit.SPADES)
    assert reason == IllegalPlay("follow", Suit.SPADES) and hash(reason) == hash(IllegalPlay("follow", Suit.SPADES))
    try:
        reason.code = "trump"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:  # pragma: no cover - a failure
        raise AssertionError("IllegalPlay is not frozen")


# -- agreement with legal_plays ---------------------------------------------------------------------------------------


@given(
    hand=st.integers(min_value=0, max_value=(1 << 52) - 1),
    card=st.integers(min_value=0, max_value=51),
    led=st.none() | st.sampled_from(list(Suit)),
    trump=st.none() | st.sampled_from(list(Suit)),
    must_trump=st.booleans(),
)
def test_a_card_has_no_reason_exactly_when_legal_plays_allows_it(
    hand: int, card: int, led: Suit | None, trump: Suit | None, must_trump: bool
) -> None:
    reason = why_illegal(hand, card, led, trump, must_trump=must_trump)
    legal = legal_plays(hand, led, trump, must_trump=must_trump)
    assert (reason is None) == bool(legal >> card & 1)
    if reason is not None:
        assert reason.code == "not_in_hand" if not hand >> card & 1 else reason.code in ("follow", "trump")
        assert reason.suit == {"follow": led, "trump": trump, "not_in_hand": card // 13}[reason.code]


@given(
    hand=st.integers(min_value=1, max_value=(1 << 52) - 1),
    led=st.sampled_from(list(Suit)),
    trump=st.sampled_from(list(Suit)),
)
def test_with_a_card_led_each_card_of_the_hand_has_one_reason_and_all_reasons_agree(
    hand: int, led: Suit, trump: Suit
) -> None:
    reasons = {why_illegal(hand, c, led, trump, must_trump=True) for c in CardSet(hand)} - {None}
    assert len(reasons) <= 1  # one rule refuses every refused card of a hand


# -- the observation --------------------------------------------------------------------------------------------------


def _deal_to_a_trick_in_progress(seed: int) -> Deal:
    """A deal of *seed*, played at random (trusted pushes) until a card is led and a follower is to play."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    deal = Deal(deck, dealer=seed % 3)
    while deal.phase is not Phase.DONE:
        if deal.phase is Phase.PLAY and deal.trick and rng.random() < 0.5:
            return deal
        deal.push(rng.choice(list(deal.legal_actions)) if deal.phase is not Phase.EXCHANGE
                  else next(iter(deal.legal_actions)))
    raise AssertionError("no trick in progress found")  # pragma: no cover


def test_the_observation_explains_exactly_the_cards_it_may_not_play() -> None:
    for seed in range(40):
        deal = _deal_to_a_trick_in_progress(seed)
        obs = deal.observation(deal.to_move)
        led = obs.trick[0] // 13
        legal = {a.card for a in obs.legal_actions if isinstance(a, Play)}
        for card in obs.hand:
            reason = obs.why_illegal(card)
            assert (reason is None) == (card in legal)
            if reason is not None:
                assert reason == IllegalPlay("follow", Suit(led))
        outside = next(c for c in range(52) if c not in obs.hand)
        assert obs.why_illegal(outside) == IllegalPlay("not_in_hand", Suit(outside // 13))


def test_the_observation_lets_the_leader_play_anything() -> None:
    deal = Deal(list(range(52)), dealer=0)
    for action in ("NT", "keep", "-", "keep"):
        deal.play(action)
    obs = deal.observation(deal.to_move)
    assert not obs.trick and all(obs.why_illegal(card) is None for card in obs.hand)


def test_the_observation_has_no_must_trump_obligation_like_the_deal() -> None:
    """Mizerka has no must-trump: a player void in the suit led may throw any card, and the observation's answer
    agrees with the deal's legal cards and its own reason for each card."""
    deal = club_led_in_hearts()
    obs = deal.observation(deal.to_move)
    assert obs.contract is Contract.HEARTS
    void = dataclasses.replace(obs, hand=CardSet.from_str("KH 2H 9S"))  # no club, trumps in hand
    assert void.why_illegal(_card("9S")) is None  # Mizerka: no obligation to trump
    legal = deal.legal_play_mask()
    for card in range(52):
        assert (obs.why_illegal(card) is None) == bool(legal >> card & 1)
        assert (deal.illegal_reason(Play(card)) is None) == bool(legal >> card & 1)


# -- what is no card -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", [-1, 52, True, "AS", 3.0])
def test_why_illegal_refuses_what_is_no_card(card: object) -> None:
    deal = exchanging()
    for _ in range(3):
        deal.play(KEEP)
    obs = deal.observation(deal.to_move)
    with pytest.raises(ValueError, match="a card is an index 0-51"):
        obs.why_illegal(card)  # type: ignore[arg-type]
    held = min(obs.hand)  # on lead: any card held may be played, one not held may not
    missing = next(card for card in range(52) if card not in obs.hand)
    assert obs.why_illegal(held) is None
    refused = obs.why_illegal(missing)
    assert refused is not None and refused.code == "not_in_hand"
