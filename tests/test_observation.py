"""What one seat may know: observations never leak another seat's hidden cards; sampling worlds from them."""

from __future__ import annotations

import random

import pytest

from mizerka.cards import CardSet
from mizerka.deal import Action, Choose, Deal, Exchange, Observation, Phase, Play
from mizerka.match import Match
from mizerka.rules import Role, get_variant, parse_variant
from mizerka.sampling import SamplingError, sample_deal

VARIANT_SPECS = ["standard", "standard,show_trump_card", "no-exchange", "four-players", "standard,seed002-blocks"]


def random_action(deal: Deal, rng: random.Random) -> Action:
    if deal.phase is Phase.EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        size = rng.randint(0, min(len(deal.talon), len(hand)))
        return Exchange(CardSet(rng.sample(hand, size)))
    return rng.choice(list(deal.legal_actions))


def positions(spec: str, seed: int) -> list[Deal]:
    """Copies of one random deal after every action."""
    rng = random.Random(seed)
    deal = Deal.random(rng, rules=parse_variant(spec), dealer=seed % parse_variant(spec).n_seats)
    out = [deal.copy()]
    while not deal.is_over():
        deal.push(random_action(deal, rng))
        out.append(deal.copy())
    return out


def cards_shown(obs: Observation) -> int:
    """Every card that appears anywhere in an observation, as a mask."""
    mask = obs.hand.mask | obs.first_cards.mask | obs.dealt.mask | obs.discards.mask | obs.drawn.mask
    if obs.shown_card is not None:
        mask |= 1 << obs.shown_card
    mask |= obs.played.mask
    for _, action in obs.history:
        if isinstance(action, Play):
            mask |= 1 << action.card
        elif isinstance(action, Exchange):
            mask |= action.discards.mask
    for action in obs.legal_actions:
        if isinstance(action, Play):
            mask |= 1 << action.card
        elif isinstance(action, Exchange):
            mask |= action.discards.mask
    return mask


def allowed_to_see(deal: Deal, seat: int | None) -> int:
    """The cards *seat* may know the place of: its own cards ever held or discarded, cards played, a shown card."""
    mask = 0
    for trick in deal.tricks:
        for card in trick.cards:
            mask |= 1 << card
    for card in deal.trick:
        mask |= 1 << card
    if deal.shown_card is not None:
        mask |= 1 << deal.shown_card
    if seat is not None:
        mask |= deal.hands[seat] | deal.dealt[seat] | deal.dead[seat] | deal.drawn[seat] | deal.first_cards[seat]
    return mask


@pytest.mark.parametrize("spec", [*VARIANT_SPECS, "seed002-literal"])
def test_no_hidden_card_leaks(spec: str) -> None:
    for seed in range(3):
        for deal in positions(spec, seed):
            for seat in [None, *range(deal.rules.n_seats)]:
                obs = deal.observation(seat)
                leaked = cards_shown(obs) & ~allowed_to_see(deal, seat)
                assert not leaked, (seat, CardSet(leaked))


def test_own_view() -> None:
    deal = Deal.random(4, dealer=0)
    obs = deal.observation(1)
    assert obs.seat == 1 and obs.role is Role.FOREHAND and obs.is_my_turn()
    assert obs.hand == deal.hand(1) == obs.first_cards == obs.dealt
    assert len(obs.hand) == 6 and obs.hand_sizes == (6, 6, 6)
    assert [a for a in obs.legal_actions] == list(deal.legal_actions)
    assert obs.talon_size == 0 and obs.exchange_counts == (None, None, None)
    other = deal.observation(2)
    assert other.hand == deal.hand(2) and not other.is_my_turn() and other.legal_actions == ()
    assert other.first_cards == deal.hand(2)
    assert other.role is Role.MIDDLEHAND
    deal.play("H")
    obs = deal.observation(1)
    assert obs.dealt == deal.hand(1) and len(obs.dealt) == 13 and len(obs.first_cards) == 6
    assert obs.talon_size == 13
    assert obs.legal_actions == ()  # the exchange phase: use the rules, not a list of 8,192 subsets


def test_exchanges_of_others_appear_as_counts_only() -> None:
    deal = Deal.random(6, dealer=0)
    deal.play("NT")
    fh_discards = CardSet(list(deal.hand(1))[:3])
    deal.play(Exchange(fh_discards))
    mh_discards = CardSet(list(deal.hand(2))[:1])
    deal.play(Exchange(mh_discards))
    deal.play(Exchange(CardSet()))
    for seat in range(3):
        obs = deal.observation(seat)
        assert obs.exchange_counts == (0, 3, 1)
        exchanges = [(actor, a) for actor, a in obs.history if not isinstance(a, (Choose, Play))]
        assert [actor for actor, _ in exchanges] == [1, 2, 0]
        for actor, action in exchanges:
            if actor == seat:
                assert isinstance(action, Exchange)
            else:
                assert isinstance(action, int)
                assert action == {1: 3, 2: 1, 0: 0}[actor]
    assert deal.observation(1).discards == fh_discards
    assert deal.observation(1).drawn == CardSet(deal.drawn[1])
    assert deal.observation(2).discards == mh_discards
    assert deal.observation(0).discards == CardSet() and deal.observation(0).drawn == CardSet()


def test_spectator_sees_public_information_only() -> None:
    deal = positions("standard", 9)[-1]
    obs = deal.observation(None)
    assert obs.seat is None and obs.role is None and not obs.is_my_turn()
    assert obs.hand == obs.first_cards == obs.dealt == obs.discards == obs.drawn == CardSet()
    assert obs.legal_actions == ()
    assert all(not isinstance(a, Exchange) for _, a in obs.history)
    assert obs.scores == tuple(deal.scores())
    assert obs.phase is Phase.DONE and obs.to_move == -1
    assert len(obs.tricks) == 13 and obs.played == CardSet.full() - CardSet(
        sum(deal.dead) | sum(1 << c for c in deal.talon))


def test_history_actors_match_the_deal() -> None:
    deal = positions("standard", 10)[-1]
    obs = deal.observation(0)
    plays = [(actor, a) for actor, a in obs.history if isinstance(a, Play)]
    assert len(plays) == 39
    for index, trick in enumerate(deal.tricks):
        order = [deal.active_seats[(deal.active_seats.index(trick.leader) + i) % 3] for i in range(3)]
        assert [actor for actor, _ in plays[3 * index: 3 * index + 3]] == order
        assert [a.card for _, a in plays[3 * index: 3 * index + 3]] == list(trick.cards)


def test_voids_shown() -> None:
    for deal in positions("standard", 11):
        obs = deal.observation(None)
        voids = obs.voids()
        for seat, suits in voids.items():
            for suit in suits:
                assert not deal.hands[seat] & CardSet.suit(suit).mask  # a shown void is real


def test_four_players_observation_of_the_idle_dealer() -> None:
    deal = Deal.random(1, rules=get_variant("four-players"), dealer=2)
    obs = deal.observation(2)
    assert obs.role is None and obs.hand == CardSet()
    assert obs.hand_sizes[2] == 0


def test_match_observation_bad_seat() -> None:
    match = Match(seed=1)
    with pytest.raises(ValueError, match="seat"):
        match.observation(3)
    with pytest.raises(ValueError, match="seat"):
        match.deal.observation(-1)
    with pytest.raises(ValueError, match="seat"):
        match.deal.observation("0")  # type: ignore[arg-type]


# -- sampling worlds from an observation (Deal.from_observation) -------------------------------------------


def check_world(world: Deal, obs: Observation) -> None:
    seat = obs.seat
    assert world.observation(seat) == obs  # the world looks the same from the observer's seat
    assert world.rules == obs.rules and world.dealer == obs.dealer
    if seat is not None:
        assert world.hand(seat) == obs.hand
        assert CardSet(world.dead[seat]) == obs.discards and CardSet(world.drawn[seat]) == obs.drawn
    assert tuple(world.exchange_counts) == obs.exchange_counts
    assert world.tricks == list(obs.tricks) and tuple(world.trick) == obs.trick
    for seat_, suits in obs.voids().items():
        for suit in suits:
            assert not world.hands[seat_] & CardSet.suit(suit).mask
    # the world is an ordinary deal that can be played on
    rng = random.Random(0)
    while not world.is_over():
        world.play(random_action(world, rng))


@pytest.mark.parametrize("spec", VARIANT_SPECS)
def test_sampled_worlds_agree_with_the_observation(spec: str) -> None:
    for seed in range(2):
        deals = positions(spec, seed)
        for deal in deals[:: max(1, len(deals) // 12)]:
            for seat in [None, *deal.active_seats]:
                obs = deal.observation(seat)
                world = Deal.from_observation(obs, random.Random(seed))
                check_world(world, obs)


def test_hidden_cards_vary_across_seeds() -> None:
    deal = positions("standard", 5)[10]  # early in play
    assert deal.phase is Phase.PLAY
    obs = deal.observation(deal.forehand)
    others = [s for s in deal.active_seats if s != deal.forehand]
    worlds = {tuple(Deal.from_observation(obs, random.Random(i)).hands[s] for s in others) for i in range(10)}
    assert len(worlds) > 5
    again = Deal.from_observation(obs, random.Random(3)), Deal.from_observation(obs, random.Random(3))
    assert again[0] == again[1]  # seeded


def test_sampling_respects_a_turned_up_card() -> None:
    deal = Deal.random(7, rules=parse_variant("standard,show_trump_card"), dealer=0)
    deal.play("S")
    obs = deal.observation(2)
    for i in range(5):
        world = sample_deal(obs, random.Random(i))
        assert world.shown_card == deal.shown_card == world.talon[-1]


def test_sampling_in_seed002_literal() -> None:
    rules = get_variant("seed002-literal")
    deal = Deal.random(2, rules=rules)
    rng = random.Random(2)
    deal.play("NT")
    for _ in range(8):
        deal.play(random_action(deal, rng))
    obs = deal.observation(deal.active_seats[1])
    world = sample_deal(obs, random.Random(1))
    assert world.observation(obs.seat) == obs


def test_sampling_rejects_an_impossible_observation() -> None:
    import dataclasses

    deal = positions("standard", 3)[20]
    obs = deal.observation(deal.forehand)
    bad = dataclasses.replace(obs, hand_sizes=(13, 13, 13), hand=obs.hand | CardSet(deal.hands[deal.middlehand]))
    with pytest.raises(SamplingError):
        sample_deal(bad, random.Random(0))
