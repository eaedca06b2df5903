"""The bot protocol and every level: legal decisions in every phase and variant, reproducibility, errors."""

from __future__ import annotations

import asyncio
import random

import pytest

from mizerka import VARIANTS, Deal, Match, Phase
from mizerka.bots import (
    BOT_LEVELS,
    Bot,
    BotError,
    Budget,
    BudgetError,
    Decision,
    NotMyTurnError,
    UnknownBotError,
    make_bot,
)
from mizerka.cards import CardSet
from mizerka.deal import Choose, Exchange, Play

TINY = Budget(worlds=2, simulations=30)
"""Small enough to keep the search levels fast in tests."""


def _play_deal(bots: list[Bot], deal: Deal, budget: Budget = TINY) -> Deal:
    while deal.phase is not Phase.DONE:
        seat = deal.to_move
        observation = deal.observation(seat)
        decision = bots[seat].decide(observation, budget)
        assert isinstance(decision, Decision)
        action = decision.action
        if deal.phase is Phase.EXCHANGE:
            assert isinstance(action, Exchange)
            assert action.discards <= deal.hand(seat)
            assert len(action.discards) <= len(deal.talon)
        elif deal.phase is Phase.CHOOSE:
            assert isinstance(action, Choose)
        else:
            assert isinstance(action, Play)
        deal.play(action)  # checks legality
    return deal


def test_levels_are_named_and_documented() -> None:
    assert list(BOT_LEVELS)[:2] == ["random", "rules"]
    for name, level in BOT_LEVELS.items():
        bot = make_bot(name)
        assert bot.name == name == level.name
        assert bot.badge == level.badge and 0 < len(bot.badge) <= 12
        assert level.description
        assert isinstance(level.default_budget, Budget)


@pytest.mark.parametrize("name", list(BOT_LEVELS))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_level_plays_a_legal_deal_in_every_variant(name: str, variant: str) -> None:
    rules = VARIANTS[variant]
    bots = [make_bot(name, seed=seat) for seat in range(rules.n_seats)]
    deal = _play_deal(bots, Deal.random(11, rules=rules, dealer=1))
    assert sum(deal.tricks_won) == rules.n_tricks


@pytest.mark.parametrize("name", ["random", "rules"])
def test_fast_levels_play_whole_matches(name: str) -> None:
    match = Match(seed=4)
    bots = [make_bot(name, seed=seat) for seat in range(3)]
    while not match.is_over():
        seat = match.to_move
        match.play(bots[seat].decide(match.observation(seat)).action)
    assert sum(match.totals) == 0 and all(len(u) == 6 for u in match.used)


@pytest.mark.parametrize("name", list(BOT_LEVELS))
def test_exchange_respects_the_talon_limit(name: str) -> None:
    deal = Deal.random(8, dealer=0)
    deal.play("NT")
    deal.play(Exchange(CardSet(list(deal.hand(deal.to_move))[:12])))  # forehand leaves one talon card
    observation = deal.observation(deal.to_move)
    action = make_bot(name, seed=2).decide(observation, TINY).action
    assert isinstance(action, Exchange) and len(action.discards) <= 1 and action.discards <= observation.hand
    deal.play(action)
    if deal.talon:
        deal.play("keep")
    observation = deal.observation(deal.to_move) if deal.phase is Phase.EXCHANGE else None
    if observation is not None:
        assert make_bot(name).decide(observation, TINY).action == Exchange(CardSet())


@pytest.mark.parametrize("name", list(BOT_LEVELS))
def test_same_observation_and_seed_same_decision(name: str) -> None:
    deal = Deal.random(21, dealer=2)
    for text in ("S", "keep", "keep", "keep"):
        deal.play(text)
    deal.play(next(iter(deal.legal_actions)))
    observation = deal.observation(deal.to_move)
    first = make_bot(name, seed=9).decide(observation, TINY)
    again = make_bot(name, seed=9).decide(observation, TINY)
    assert first.action == again.action
    assert make_bot(name, seed=9).decide(observation, TINY, random.Random(5)).action in deal.legal_actions


def _positions() -> list[tuple[Deal, int]]:
    """Decision points in every phase: (deal, seat to move)."""
    out = []
    deal = Deal.random(33, dealer=0)
    out.append((deal.copy(), deal.to_move))
    deal.play("H")
    out.append((deal.copy(), deal.to_move))
    deal.play(Exchange(CardSet(list(deal.hand(deal.to_move))[:4])))
    out.append((deal.copy(), deal.to_move))
    deal.play("exchange " + str(deal.hand(deal.to_move).lowest()))
    deal.play("keep")
    for _ in range(7):
        deal.play(min(deal.legal_actions, key=lambda a: a.code))
    out.append((deal.copy(), deal.to_move))
    return out


@pytest.mark.parametrize("name", list(BOT_LEVELS))
def test_decision_does_not_depend_on_the_hidden_cards(name: str) -> None:
    """Hidden information: other seats' real hands may change; the bot's decision must not."""
    rng = random.Random(1)
    for deal, seat in _positions():
        observation = deal.observation(seat)
        expected = make_bot(name, seed=3).decide(observation, TINY)
        for _ in range(3):
            other = Deal.from_observation(observation, rng)  # the same observation, other hidden cards
            assert other.observation(seat) == observation
            if deal.phase is not Phase.CHOOSE:
                assert [other.hands[s] for s in range(3) if s != seat] != [deal.hands[s] for s in range(3) if s != seat]
            decision = make_bot(name, seed=3).decide(other.observation(seat), TINY)
            assert decision.action == expected.action


def test_async_call_gives_the_sync_answer() -> None:
    deal = Deal.random(2, dealer=1)
    observation = deal.observation(deal.to_move)
    bot = make_bot("rules", seed=1)
    result = asyncio.run(bot.decide_async(observation))
    assert result.action == bot.decide(observation).action


def test_rules_evaluations_cover_the_candidates() -> None:
    deal = Deal.random(6, dealer=0)
    decision = make_bot("rules").decide(deal.observation(deal.to_move))
    assert set(decision.evaluations) == {str(c) for c in deal.allowed_contracts}
    assert str(decision.action) in decision.evaluations
    assert decision.evaluations[str(decision.action)] is not None
    deal.play(decision.action)
    decision = make_bot("rules").decide(deal.observation(deal.to_move))
    assert str(decision.action) in decision.evaluations
    assert decision.evaluations[str(decision.action)] == max(decision.evaluations.values())


def test_rules_beats_random() -> None:
    """A small duplicate check of the ladder's first step (the benchmark measures it properly)."""
    margin = 0
    for seed in range(2):
        for rules_seat in range(3):
            match = Match(seed=seed)
            bots = [make_bot("rules" if s == rules_seat else "random", seed=s) for s in range(3)]
            while not match.is_over():
                seat = match.to_move
                match.push(bots[seat].decide(match.observation(seat)).action)
            margin += match.totals[rules_seat]
    assert margin > 0


def test_rules_sheds_high_cards_in_mizerka() -> None:
    deal = Deal.random(40, dealer=0)
    deal.play("MZ")
    observation = deal.observation(deal.to_move)
    action = make_bot("rules").decide(observation).action
    assert isinstance(action, Exchange)
    if action.discards:
        kept = observation.hand - action.discards
        assert max(c % 13 for c in action.discards) >= max(c % 13 for c in kept) - 3


def test_bad_input_is_named() -> None:
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        make_bot("nobody")
    with pytest.raises(BudgetError, match="worlds"):
        Budget(worlds=0)
    with pytest.raises(BudgetError, match="time"):
        Budget(time=float("nan"))
    with pytest.raises(BudgetError, match="time"):  # too large for a float: OverflowError before
        Budget(time=10**400)
    with pytest.raises(BudgetError, match="simulations"):
        Budget(simulations=2.5)  # type: ignore[arg-type]
    with pytest.raises(BudgetError, match="invalid budget item"):
        Budget.parse("depth=3")
    with pytest.raises(BudgetError):
        make_bot("rules", budget="fast")  # type: ignore[arg-type]
    with pytest.raises(BotError, match="seed"):
        make_bot("rules", seed="x")  # type: ignore[arg-type]
    deal = Deal.random(1, dealer=0)
    not_to_move = (deal.to_move + 1) % 3
    with pytest.raises(NotMyTurnError, match="not to move"):
        make_bot("random").decide(deal.observation(not_to_move))
    with pytest.raises(BotError, match="Observation"):
        make_bot("random").decide(deal)  # type: ignore[arg-type]
    assert issubclass(UnknownBotError, ValueError) and issubclass(BudgetError, ValueError)


def test_budget_parse_and_merge() -> None:
    assert Budget.parse("time=0.5, worlds=3") == Budget(time=0.5, worlds=3)
    assert Budget(simulations=7).merged(Budget(time=1.0, simulations=9)) == Budget(time=1.0, simulations=7)
