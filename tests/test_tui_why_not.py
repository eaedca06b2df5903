"""The TUI's explanation of a refused card (:meth:`TableApp.why_not`), built on
:meth:`mizerka.deal.Observation.why_illegal`."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("textual")

from deal_helpers import club_led_in_hearts
from mizerka.cards import Card, CardSet, Suit
from mizerka.deal import Observation, Play
from mizerka.tricks import IllegalPlay
from mizerka.tui.app import TableApp


class _App(TableApp):
    def __init__(self, obs: Observation) -> None:
        super().__init__()
        self.obs = obs

    def observation_now(self) -> Observation:
        return self.obs

    def playable(self) -> list[Card]:
        return [a.card for a in self.obs.legal_actions if isinstance(a, Play)]


def _trick_in_progress() -> Observation:
    deal = club_led_in_hearts()
    return deal.observation(deal.to_move)


def test_a_card_off_the_suit_led_must_follow_suit() -> None:
    obs = _trick_in_progress()
    off = next(Card(c) for c in obs.hand if c // 13 != 0)
    assert _App(obs).why_not(off) == f"{off.unicode()} cannot be played: follow suit (♣ clubs were led)"


def test_a_card_not_in_the_hand_and_a_card_off_turn() -> None:
    obs = _trick_in_progress()
    assert _App(obs).why_not(Card.from_str("AC")) == "A♣ is not in your hand"
    idle = dataclasses.replace(obs, legal_actions=())
    card = next(iter(obs.hand))
    assert _App(idle).why_not(card) == f"it is not your turn to play a card ({card.unicode()} stays in your hand)"


def test_a_must_trump_reason_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mizerka has no must-trump; a game with one (Preferans) would give the ``trump`` reason."""
    monkeypatch.setattr(Observation, "why_illegal", lambda self, card: IllegalPlay("trump", Suit.HEARTS))
    obs = dataclasses.replace(_trick_in_progress(), hand=CardSet.from_str("KH 2H 9S"),
                              legal_actions=(Play(Card.from_str("KH")), Play(Card.from_str("2H"))))
    assert _App(obs).why_not(Card.from_str("9S")) == "9♠ cannot be played: you must trump (♥ hearts)"
