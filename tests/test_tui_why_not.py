"""The TUI's explanation of a refused card (:meth:`TableApp.why_not`), built on
:meth:`mizerka.deal.Observation.why_illegal`."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

pytest.importorskip("textual")

from mizerka.cards import Card, CardSet
from mizerka.deal import Deal, Observation, Play
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
    deal = Deal(list(range(52)), dealer=0)
    for action in ("H", "keep", "-", "keep", "AC"):  # seat 1 leads a club in a hearts contract
        deal.play(action)
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


def test_a_void_hand_must_trump_when_the_rules_say_so() -> None:
    obs = dataclasses.replace(_trick_in_progress(), hand=CardSet.from_str("KH 2H 9S"),
                              rules=SimpleNamespace(must_trump=True),
                              legal_actions=(Play(Card.from_str("KH")), Play(Card.from_str("2H"))))
    assert _App(obs).why_not(Card.from_str("9S")) == "9♠ cannot be played: you must trump (♥ hearts)"
