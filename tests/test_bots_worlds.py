"""Worlds dealt on raw masks (mizerka.bots.worlds): consistent with the observation, fair, and refused where the
variant knows more than they model."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mizerka import Deal, parse_variant
from mizerka.bots.fastsim import random_rollout
from mizerka.bots.search import _plays_by_role, table_play_weight
from mizerka.bots.worlds import play_tables, setup_world, unseen_mask
from mizerka.cards import SUIT_MASKS
from mizerka.deal import Phase


def _played(seed: int, contract: str, plays: int, exchange: bool = True) -> Deal:
    rng = random.Random(seed)
    deal = Deal.random(seed, dealer=seed % 3)
    deal.play(contract)
    while deal.phase is Phase.EXCHANGE:
        hand = deal.hand(deal.to_move)
        count = rng.randrange(4) if exchange else 0
        deal.play("exchange " + " ".join(str(c) for c in list(hand)[:count]) if count else "keep")
    for _ in range(plays):
        mask = deal.legal_play_mask()
        deal.push_card(rng.choice([c for c in range(52) if mask >> c & 1]))
    return deal


@pytest.mark.parametrize("contract", ["S", "NT", "MZ"])
def test_play_worlds_agree_with_everything_the_seat_knows(contract: str) -> None:
    for seed in range(12):
        deal = _played(seed, contract, plays=5 + 2 * seed)
        seat = deal.to_move
        observation = deal.observation(seat)
        order = deal.active_seats
        voids = observation.voids()
        unseen = unseen_mask(observation)
        tables = play_tables(observation, 20, random.Random(seed))
        assert tables is not None
        for table in tables:
            assert table.hands[order.index(seat)] == deal.hands[seat]
            assert table.trick == list(deal.trick) and table.left == 13 - len(deal.tricks)
            assert table.won == [deal.tricks_won[s] for s in order]
            for role, other in enumerate(order):
                if other == seat:
                    continue
                assert table.hands[role].bit_count() == deal.hands[other].bit_count()
                assert table.hands[role] & ~unseen == 0  # only cards the seat cannot place
                for suit in voids[other]:
                    assert table.hands[role] & SUIT_MASKS[suit] == 0
            others = [h for r, h in enumerate(table.hands) if order[r] != seat]
            assert others[0] & others[1] == 0
            won = random_rollout(table.hands[:], table.trick[:], table.leader, table.to_move, table.won[:],
                                 table.left, table.trump, random.Random(1).random)
            assert sum(won) == 13


def test_play_worlds_deal_the_unseen_cards_evenly() -> None:
    deal = _played(4, "NT", plays=0, exchange=False)
    seat = deal.to_move
    observation = deal.observation(seat)
    tables = play_tables(observation, 3000, random.Random(9))
    assert tables is not None
    counts: Counter[int] = Counter()
    for table in tables:
        h = table.hands[1]
        while h:
            low = h & -h
            counts[low.bit_length() - 1] += 1
            h ^= low
    unseen = unseen_mask(observation)
    expected = 3000 * 13 / unseen.bit_count()  # 13 of the 39 unseen cards are middlehand's
    for card in range(52):
        if unseen >> card & 1:
            assert abs(counts[card] - expected) < 5 * expected**0.5
        else:
            assert counts[card] == 0


def test_setup_worlds_for_the_choice_and_the_exchange() -> None:
    deal = Deal.random(7, dealer=1)
    observation = deal.observation(deal.to_move)
    world = setup_world(observation, random.Random(1))
    assert world is not None
    hands, talon = world
    assert hands[0] & deal.hands[deal.to_move] == deal.hands[deal.to_move]
    assert [h.bit_count() for h in hands] == [13, 13, 13] and len(talon) == 13
    assert hands[0] | hands[1] | hands[2] | sum(1 << c for c in talon) == (1 << 52) - 1
    deal.play("H")
    deal.play("exchange " + " ".join(str(c) for c in list(deal.hand(deal.to_move))[:4]))
    observation = deal.observation(deal.to_move)  # middlehand, after forehand took four cards
    world = setup_world(observation, random.Random(2))
    assert world is not None
    hands, talon = world
    assert hands[1] == deal.hands[deal.to_move] and len(talon) == 9
    assert hands[0].bit_count() == 13 and not (hands[0] | hands[2]) & hands[1]


def test_variants_with_more_knowledge_are_refused() -> None:
    rules = parse_variant("standard,show_trump_card")
    deal = Deal.random(2, rules=rules, dealer=0)
    deal.play("S")
    assert setup_world(deal.observation(deal.to_move), random.Random(1)) is None


def test_play_weights_replay_on_masks() -> None:
    deal = _played(5, "H", plays=10)
    observation = deal.observation(deal.to_move)
    [table] = play_tables(observation, 1, random.Random(3)) or []
    weight = table_play_weight(table, observation.active_seats.index(deal.to_move), _plays_by_role(observation), 13)
    assert 0 < weight <= 1


def test_play_worlds_exist_at_every_point_of_random_deals() -> None:
    # tight corners: players void in several suits late in the deal, large exchanges
    for seed in range(40):
        rng = random.Random(seed)
        deal = Deal.random(seed, dealer=seed % 3)
        deal.play(("C", "D", "H", "S", "NT", "MZ")[seed % 6])
        while deal.phase is Phase.EXCHANGE:
            hand = list(deal.hand(deal.to_move))
            count = min(rng.randrange(9), len(deal.talon))
            deal.play("exchange " + " ".join(str(c) for c in hand[:count]) if count else "keep")
        while not deal.is_over():
            observation = deal.observation(deal.to_move)
            tables = play_tables(observation, 2, rng)
            assert tables is not None and len(tables) == 2
            mask = deal.legal_play_mask()
            deal.push_card(rng.choice([c for c in range(52) if mask >> c & 1]))
