"""The search levels' machinery: the lean simulator against the rules engine, simulated exchanges, baselines."""

from __future__ import annotations

import random

import pytest

from mizerka import Deal, parse_variant
from mizerka.bots import Budget, make_bot
from mizerka.bots.expert import EXPERT_SOLVE_TRICKS
from mizerka.bots.fastsim import Table, legal_mask, playout, policy, role_scores
from mizerka.bots.search import (
    SOLVE_TRICKS,
    _Clock,
    contract_baselines,
    evaluate_table,
    evaluate_world,
    play_by_ismcts,
    quick_discards,
)
from mizerka.deal import Phase
from mizerka.rules import STANDARD, Contract
from mizerka.solver import Position, solve_all


def _started(seed: int, contract: str) -> Deal:
    deal = Deal.random(seed, dealer=seed % 3)
    for text in (contract, "keep", "keep", "keep"):
        deal.play(text)
    return deal


@pytest.mark.parametrize("contract", ["C", "H", "NT", "MZ"])
def test_table_plays_like_the_rules_engine(contract: str) -> None:
    rng = random.Random(contract)
    for seed in range(6):
        deal = _started(seed, contract)
        for _ in range(rng.randrange(20)):  # from some point of the play, random legal cards first
            mask = deal.legal_play_mask()
            deal.push_card(rng.choice([c for c in range(52) if mask >> c & 1]))
        table = Table.from_deal(deal)
        assert legal_mask(table) == deal.legal_play_mask()
        won = playout(table.copy())
        while not deal.is_over():  # the same policy, card by card, through the engine
            t = Table.from_deal(deal)
            card = policy(t)
            assert deal.legal_play_mask() >> card & 1
            deal.push_card(card)
        assert won == [deal.tricks_won[s] for s in deal.active_seats]
        quotas = tuple(STANDARD.quota(r, Contract.from_str(contract)) for r in range(3))
        scores = role_scores(won, quotas, contract == "MZ")  # type: ignore[arg-type]
        assert scores == [deal.scores()[s] for s in deal.active_seats]


def test_random_rollouts_are_legal_and_complete() -> None:
    deal = _started(3, "S")
    won = playout(Table.from_deal(deal), random.Random(1), epsilon=1.0)
    assert sum(won) == 13


def test_table_needs_the_play_phase() -> None:
    deal = Deal.random(1, dealer=0)
    with pytest.raises(ValueError, match="play phase"):
        Table.from_deal(deal)


def test_quick_discards_stay_within_the_hand_and_limit() -> None:
    rng = random.Random(2)
    for _ in range(30):
        hand = 0
        for card in rng.sample(range(52), 13):
            hand |= 1 << card
        for contract in range(6):
            limit = rng.randrange(14)
            discards = quick_discards(hand, contract, limit)
            assert discards & ~hand == 0 and discards.bit_count() <= limit
    weak = sum(1 << c for c in (0, 1, 2, 13, 14, 15, 26, 27, 28, 39, 40, 41, 42))  # all small cards
    assert quick_discards(weak, 4, 13).bit_count() > 5  # no-trump: a hand of small cards is swapped
    assert quick_discards(weak, 5, 13) == 0  # Mizerka: small cards are kept


def test_contract_baselines_are_a_constant_table() -> None:
    rules = parse_variant("standard,contracts=NT+MZ")
    first = contract_baselines(rules, 20)
    contract_baselines.cache_clear()
    assert contract_baselines(rules, 20) == first
    assert len(first) == 6 and all(-13 <= v <= 13 for v in first)


def test_endgame_is_solved_and_midgame_played_out() -> None:
    deal = _started(8, "NT")
    while STANDARD.n_tricks - len(deal.tricks) > SOLVE_TRICKS[Contract.NO_TRUMP] or deal.trick:
        deal.push_card(policy(Table.from_deal(deal)))
    cards = [c for c in range(52) if deal.legal_play_mask() >> c & 1]
    values = evaluate_world(deal, deal.to_move, cards)
    assert sorted(values) == cards
    assert all(-13 <= v <= 13 for v in values.values())


@pytest.mark.parametrize("text", ["S", "NT"])
def test_expert_solves_only_its_last_tricks(text: str) -> None:
    """Expert plays out (the policy) where the other levels already solve, and solves its last tricks."""
    contract = Contract.from_str(text)
    deeper = EXPERT_SOLVE_TRICKS[contract] - SOLVE_TRICKS[contract]
    assert deeper < 0
    deal = _started(9, text)
    checked = set()
    while deal.phase is Phase.PLAY:
        table = Table.from_deal(deal)
        cards = [c for c in range(52) if legal_mask(table) >> c & 1]
        if table.left in (SOLVE_TRICKS[contract], EXPERT_SOLVE_TRICKS[contract]) and len(cards) > 1:
            role = table.to_move
            got = evaluate_table(table, role, cards, STANDARD, contract, deeper)
            if table.left > EXPERT_SOLVE_TRICKS[contract]:
                quotas = (STANDARD.quota(0, contract), STANDARD.quota(1, contract), STANDARD.quota(2, contract))
                expected = {}
                for card in cards:
                    t = table.copy()
                    t.play(card)
                    expected[card] = role_scores(playout(t), quotas, False)[role]
            else:
                position = Position(tuple(table.hands), table.leader, tuple(table.trick), contract.trump, False)
                won = table.won[role]
                values = solve_all(position, role)
                expected = {int(c): STANDARD.score(role, contract, won + v) for c, v in values.items()}
            assert got == expected
            checked.add(table.left)
        deal.push_card(policy(Table.from_deal(deal)))
    assert checked == {SOLVE_TRICKS[contract], EXPERT_SOLVE_TRICKS[contract]}


def test_ismcts_counts_its_simulations_and_evaluates_legal_cards() -> None:
    deal = _started(4, "D")
    deal.push_card(policy(Table.from_deal(deal)))
    obs = deal.observation(deal.to_move)
    decision = play_by_ismcts(obs, 60, 6, random.Random(1), _Clock(None))
    assert decision.action in deal.legal_actions
    assert decision.info["simulations"] == 60
    assert set(decision.evaluations) <= {str(a) for a in deal.legal_actions}


def test_ismcts_bot_plays_the_endgame_by_solving() -> None:
    deal = _started(5, "MZ")
    endgame = SOLVE_TRICKS[Contract.MIZERKA]
    while STANDARD.n_tricks - len(deal.tricks) > endgame or deal.legal_play_mask().bit_count() < 2:
        deal.push_card(policy(Table.from_deal(deal)))
        assert deal.phase is Phase.PLAY
    bot = make_bot("ismcts", seed=1, budget=Budget(worlds=2, simulations=30))
    decision = bot.decide(deal.observation(deal.to_move))
    assert "simulations" not in decision.info and decision.info["worlds"] == 2


def test_option_values_price_the_contracts_left() -> None:
    from statistics import fmean

    from mizerka.bots.search import contract_values, option_values

    values = option_values(STANDARD)
    xs = contract_values(STANDARD)
    assert values[frozenset()] == 0.0
    for contract in range(6):
        # one contract left: it is played on whatever hand comes
        assert values[frozenset({contract})] == pytest.approx(fmean(x[contract] for x in xs))
    everything = frozenset(range(6))
    for contract in range(6):
        # choosing among the contracts is worth at least committing to any one of them now (Jensen)
        rest = everything - {contract}
        assert values[everything] >= fmean(x[contract] for x in xs) + values[rest] - 1e-9
    assert values[everything] > sum(fmean(x[c] for x in xs) for c in range(6))


def test_exchange_candidates_are_distinct_subsets_within_the_limit() -> None:
    from mizerka.bots.search import exchange_candidates

    rng = random.Random(4)
    for contract in range(6):
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        for limit in (0, 3, 13):
            candidates = exchange_candidates(hand, contract, limit)
            assert candidates[0] == 0 and len(set(candidates)) == len(candidates)
            assert all(c & ~hand == 0 and c.bit_count() <= min(limit, 9) for c in candidates)
