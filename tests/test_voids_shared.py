"""One reading of the turned-up talon card and of the voids that bind, shared by the sampler and the Rules bot.

:func:`mizerka.sampling.shown_card_holder` (with :func:`~mizerka.sampling.shown_card_drawer`) and
:func:`mizerka.sampling.binding_voids` are the single source: :mod:`mizerka.sampling` places hidden cards by
them and :mod:`mizerka.bots.rules_bot` re-exports them.  What is pinned here:

* (a) where nobody draws during play (every variant but seed002-literal) the readings are exactly the ones the
  Rules bot had: :meth:`Observation.voids` and "the first player who exchanged anything holds the card until
  he plays it", so the standard game's play cannot have changed;
* (b) where players draw from a stock during play (seed002-literal) a void shown after the player's own last
  draw binds, for every observer: the bot's old reading counted the draws from ``len(observation.dealt)``,
  which is empty for a spectator (and is not the 13 dealt cards in an observation rebuilt from the wire), and
  so dropped every void there;
* (c) a void shown before the player's own later draw does not bind (the draw may bring the suit back: it does,
  in these deals);
* (d) a world drawn by the sampler never gives a seat a card of a suit it is bound void in, and puts the
  turned-up card in its holder's hand.

Why the bot's play in seed002-literal does not change either: the player who fails to follow draws straight
after his card while the stock lasts, so "a draw by another seat since the void, none by this seat" never
happens; for a seat's own observation "after the seat's own last draw" and "after anyone's last draw" name the
same voids (checked in (c)).  Only observers whose draw count the old formula got wrong read differently.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from mizerka.bots import make_bot, rules_bot
from mizerka.cards import SUIT_MASKS, CardSet, Suit
from mizerka.deal import Action, Deal, Exchange, Observation, Phase, Play
from mizerka.rules import ExchangeMode, Rules, get_variant, parse_variant
from mizerka.sampling import binding_voids, sample_deal, shown_card_drawer, shown_card_holder

NO_DRAWING_IN_PLAY = [
    "standard",
    "standard,show_trump_card",
    "no-exchange,show_trump_card",
    "four-players,show_trump_card",
    "standard,seed002-blocks,show_trump_card",
]
"""Variants where a hand only shrinks during play (ExchangeMode STANDARD or NONE)."""

STOCK = 12
"""Cards drawn during play in seed002-literal: one after each of the first twelve cards played."""


def _random_action(deal: Deal, rng: random.Random) -> Action:
    if deal.phase is Phase.EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        return Exchange(CardSet(rng.sample(hand, rng.randint(0, min(3, len(deal.talon), len(hand))))))
    return rng.choice(list(deal.legal_actions))


def _positions(rules: Rules, seeds: range, policy: str) -> Iterator[Deal]:
    """Every position of real deals (the deal itself, before each action and at the end), played by Rules bots
    (their own decisions) or at random (exchanges of 0 to 3 cards, any legal card)."""
    for seed in seeds:
        deal = Deal.random(seed, rules=rules, dealer=seed % rules.n_seats)
        bots = {seat: make_bot("rules", seed=seat) for seat in deal.active_seats}
        rng = random.Random(seed)
        while True:
            yield deal
            if deal.phase is Phase.DONE:
                break
            seat = deal.to_move
            if policy == "rules":
                deal.play(bots[seat].decide(deal.observation(seat)).action)
            else:
                deal.play(_random_action(deal, rng))


def _observers(deal: Deal) -> list[int | None]:
    """Every seat at the table (in four-players the dealer too, who sits out) and a spectator."""
    return [None, *range(deal.rules.n_seats)]


def _old_holder(observation: Observation) -> int | None:
    """The Rules bot's reading before the functions were shared: in the standard exchange the first seat (in
    the order of the exchange) that exchanged anything holds the turned-up card until it is played."""
    shown = observation.shown_card
    if shown is None or observation.rules.exchange_mode is not ExchangeMode.STANDARD:
        return None
    if observation.played.mask >> shown & 1:
        return None
    return next((seat for seat in observation.active_seats if observation.exchange_counts[seat]), None)


def _literal_voids(observation: Observation) -> tuple[dict[int, set[int]], dict[int, int]]:
    """Read from the public history, independently of :mod:`mizerka.sampling`: every void shown, as the set of
    the times (numbers of the play) at which each seat failed to follow each suit, keyed ``seat * 4 + suit``,
    and each seat's last draw (the number of its last play while the stock lasted; -1: none)."""
    shown: dict[int, set[int]] = {}
    last_draw = {seat: -1 for seat in observation.active_seats}
    plays = [(actor, int(action.card)) for actor, action in observation.history if isinstance(action, Play)]
    for time, (actor, card) in enumerate(plays):
        led = plays[time - time % 3][1] // 13
        if card // 13 != led:
            shown.setdefault(actor * 4 + led, set()).add(time)
        if time < STOCK:
            last_draw[actor] = time
    return shown, last_draw


def _literal() -> Rules:
    rules = get_variant("seed002-literal")
    assert rules.exchange_mode is ExchangeMode.REPLENISH
    return rules


# -- (a) without drawing during play: exactly the old readings -------------------------------------------------


def test_the_rules_bot_exports_the_shared_functions() -> None:
    assert rules_bot.binding_voids is binding_voids
    assert rules_bot.shown_card_holder is shown_card_holder
    assert {"binding_voids", "shown_card_holder"} <= set(rules_bot.__all__)


@pytest.mark.parametrize("policy", ["rules", "random"])
@pytest.mark.parametrize("spec", NO_DRAWING_IN_PLAY)
def test_without_drawing_during_play_the_readings_are_the_rules_bots_old_ones(spec: str, policy: str) -> None:
    """Every observer of every position of seeded deals: the voids are :meth:`Observation.voids`, the holder is
    the old one, and it is the truth (the holder's hand holds the turned-up card, no other hand does)."""
    rules = parse_variant(spec)
    observations = voids_seen = held = 0
    for deal in _positions(rules, range(10), policy):
        shown = deal.shown_card
        in_hands = [seat for seat in deal.active_seats if shown is not None and deal.hands[seat] >> shown & 1]
        for observer in _observers(deal):
            observation = deal.observation(observer)
            voids = binding_voids(observation)
            assert voids == observation.voids()
            holder = shown_card_holder(observation)
            assert holder == _old_holder(observation)
            assert in_hands == ([] if holder is None else [holder])
            drawer = shown_card_drawer(observation)
            assert holder is None or holder == drawer
            observations += 1
            voids_seen += sum(len(suits) for suits in voids.values())
            held += holder is not None
    assert observations > 100 and voids_seen > 0
    if rules.show_trump_card and rules.exchange_mode is ExchangeMode.STANDARD:
        assert held > 0  # the seeds do cover a turned-up card in a hand


def test_the_turned_up_card_of_a_talon_nobody_exchanges_with_is_held_by_nobody() -> None:
    """no-exchange: the card stays on top of the dead talon (the sampler puts it there); seed002-literal: it was
    set aside face up before play.  Either way no hand holds it and nobody drew it."""
    for rules in (parse_variant("no-exchange,show_trump_card"), _literal()):
        deal = Deal.random(5, rules=rules, dealer=0)
        deal.play("S")
        assert deal.shown_card is not None
        for observer in _observers(deal):
            observation = deal.observation(observer)
            assert shown_card_drawer(observation) is None and shown_card_holder(observation) is None
        world = sample_deal(deal.observation(1), random.Random(5))
        assert world.shown_card == deal.shown_card
        assert not any(world.hands[seat] >> deal.shown_card & 1 for seat in world.active_seats)


def test_the_drawer_of_the_turned_up_card_stays_known_after_it_is_played() -> None:
    """The sampler needs who drew it (the talon is rebuilt from the draws) also once it is played; the holder
    is then nobody."""
    played_after_drawn = 0
    for deal in _positions(parse_variant("standard,show_trump_card"), range(8), "random"):
        shown = deal.shown_card
        if shown is None or not deal.played >> shown & 1:
            continue
        observation = deal.observation(None)
        drawer = shown_card_drawer(observation)
        assert drawer is not None and deal.drawn[drawer] >> shown & 1
        assert shown_card_holder(observation) is None
        played_after_drawn += 1
    assert played_after_drawn > 0


# -- (b) drawing during play: a void shown after the player's own last draw binds, for every observer ------------


@pytest.mark.parametrize("policy", ["rules", "random"])
def test_a_void_shown_after_the_players_own_last_draw_binds_for_every_observer(policy: str) -> None:
    """The voids that bind are public knowledge, the same for the three seats and a spectator, and true.  The
    Rules bot's old reading gave a spectator no void at all (it counted draws from the observer's dealt cards)."""
    kept_for_spectator = 0
    for deal in _positions(_literal(), range(10), policy):
        if deal.phase is Phase.CHOOSE:
            continue
        readings = []
        for observer in _observers(deal):
            observation = deal.observation(observer)
            shown, last_draw = _literal_voids(observation)
            expected = {
                seat: frozenset(
                    Suit(suit) for suit in range(4) if any(t > last_draw[seat] for t in shown.get(seat * 4 + suit, ()))
                )
                for seat in observation.active_seats
            }
            voids = rules_bot.binding_voids(observation)
            assert voids == expected, (observer, observation.history)
            for seat, suits in voids.items():
                assert not any(deal.hands[seat] & SUIT_MASKS[int(suit)] for suit in suits)  # a binding void is true
            readings.append(voids)
            if observer is None:
                kept_for_spectator += sum(len(suits) for suits in voids.values())
        assert all(reading == readings[0] for reading in readings)
    assert kept_for_spectator > 0


# -- (c) a void shown before the player's own later draw does not bind -------------------------------------------


@pytest.mark.parametrize("policy", ["rules", "random"])
def test_a_void_shown_before_the_players_own_later_draw_does_not_bind(policy: str) -> None:
    """A player who fails to follow while the stock lasts draws at once; the suit may come back with the draw,
    and here it does.  So such a void binds only if shown again after the stock ran out, which makes "after the
    player's own last draw" the same as "after the last draw of all" for every real history."""
    dropped = came_back = 0
    for deal in _positions(_literal(), range(10), policy):
        if deal.phase is not Phase.PLAY:
            continue
        observation = deal.observation(deal.to_move)
        shown, last_draw = _literal_voids(observation)
        voids = rules_bot.binding_voids(observation)
        draws = min(STOCK, len(observation.played))  # the draws of all players so far
        for key, times in shown.items():
            seat, suit = divmod(key, 4)
            if max(times) <= last_draw[seat]:  # shown, then the seat drew
                assert Suit(suit) not in voids[seat]
                dropped += 1
                came_back += bool(deal.hands[seat] & SUIT_MASKS[suit])
            assert (Suit(suit) in voids[seat]) == (max(times) >= draws)  # shown after anyone's last draw
    assert dropped > 0 and came_back > 0


def test_the_first_void_of_a_literal_deal_is_dropped_once_its_player_draws() -> None:
    """The example of :func:`binding_voids`: seat 2 fails to follow diamonds in trick 1 and draws."""
    deal = Deal.random(0, rules=_literal(), dealer=0)
    for action in ("NT", "3D", "8C"):
        deal.play(action)
    observation = deal.observation(1)
    assert observation.voids()[2] == frozenset({Suit.DIAMONDS})
    assert rules_bot.binding_voids(observation)[2] == frozenset()


# -- (d) the sampler respects the voids that bind and the turned-up card ----------------------------------------


@pytest.mark.parametrize("spec", ["seed002-literal", "standard,show_trump_card", "no-exchange,show_trump_card"])
def test_sampled_worlds_respect_the_binding_voids_and_the_turned_up_card(spec: str) -> None:
    rules = _literal() if spec == "seed002-literal" else parse_variant(spec)
    worlds = bound = 0
    for index, deal in enumerate(_positions(rules, range(4), "random")):
        if deal.phase is Phase.CHOOSE or index % 3:
            continue
        for observer in (None, *deal.active_seats):
            observation = deal.observation(observer)
            world = sample_deal(observation, random.Random(index))
            assert world.observation(observer) == observation
            for seat, suits in binding_voids(observation).items():
                for suit in suits:
                    assert not world.hands[seat] & SUIT_MASKS[int(suit)], (observer, seat, suit)
                    bound += 1
            holder = shown_card_holder(observation)
            if holder is not None and observation.shown_card is not None:
                assert world.hands[holder] >> observation.shown_card & 1
            worlds += 1
    assert worlds > 20 and bound > 0
