"""A time budget bounds a search bot's decision even when its worlds or simulations budget is huge.

Not a speed target: the bound is twenty times the budget, so a loaded machine passes; without the fix these
decisions took seconds (every world dealt, and per-simulation tables built, before the first clock check).
"""

from __future__ import annotations

import random
import time

import pytest

from mizerka import Deal
from mizerka.bots import Budget, Decision, make_bot
from mizerka.bots.fastsim import Table, policy
from mizerka.bots.search import _Clock, option_values, play_by_ismcts, play_by_pimc
from mizerka.deal import Phase
from mizerka.rules import STANDARD

BUDGET_S = 0.05
BOUND_S = 1.0


def _midgame(seed: int, contract: str) -> Deal:
    """A deal in the play phase, a few cards in, well before the solver's endgame."""
    deal = Deal.random(seed, dealer=seed % 3)
    for text in (contract, "keep", "keep", "keep"):
        deal.play(text)
    for _ in range(4):
        deal.push_card(policy(Table.from_deal(deal)))
    assert deal.phase is Phase.PLAY and len(deal.legal_actions) > 1
    return deal


@pytest.mark.parametrize(
    ("level", "budget"),
    [
        ("ismcts", Budget(time=BUDGET_S, simulations=3_000_000)),
        ("ismcts", Budget(time=BUDGET_S, worlds=20_000, simulations=3_000_000)),
        ("pimc", Budget(time=BUDGET_S, worlds=200_000)),
    ],
)
@pytest.mark.parametrize("contract", ["H", "MZ"])
def test_time_budget_bounds_a_huge_search_budget(level: str, budget: Budget, contract: str) -> None:
    deal = _midgame(2, contract)
    bot = make_bot(level, seed=1, budget=budget)
    start = time.perf_counter()
    decision = bot.decide(deal.observation(deal.to_move))
    elapsed = time.perf_counter() - start
    assert elapsed < BOUND_S, f"{level} took {elapsed:.2f} s on a {BUDGET_S} s budget"
    assert decision.action in deal.legal_actions
    assert set(decision.evaluations) <= {str(a) for a in deal.legal_actions}
    assert decision.info["worlds"] != 0


def test_ismcts_under_a_time_budget_reaches_past_its_first_batch_of_worlds() -> None:
    """The pool is dealt as the simulations reach it: each simulation gets a fresh world while any are left."""
    deal = _midgame(3, "NT")
    obs = deal.observation(deal.to_move)
    decision = play_by_ismcts(obs, 1_000, 1_000, random.Random(1), _Clock(60.0))
    assert decision.info["simulations"] == 1_000
    assert decision.info["worlds"] == 1_000
    assert decision.action in deal.legal_actions


def test_pimc_under_a_time_budget_uses_every_world_it_has_time_for() -> None:
    deal = _midgame(3, "NT")
    obs = deal.observation(deal.to_move)
    decision = play_by_pimc(obs, 300, random.Random(1), _Clock(60.0))
    assert decision.info["worlds"] == 300


@pytest.mark.parametrize("worlds", [16, 100])
def test_an_ample_time_budget_changes_nothing(worlds: int) -> None:
    """Up to one batch of worlds, a time budget that does not run out gives the untimed decision exactly."""
    deal = _midgame(4, "S")
    obs = deal.observation(deal.to_move)

    def pimc(clock: _Clock) -> Decision:
        return play_by_pimc(obs, worlds, random.Random(7), clock)

    def ismcts(clock: _Clock) -> Decision:
        return play_by_ismcts(obs, 400, worlds, random.Random(7), clock)

    for search in (pimc, ismcts):
        untimed, timed = search(_Clock(None)), search(_Clock(60.0))
        assert (timed.action, timed.info) == (untimed.action, untimed.info)


@pytest.mark.parametrize("level", ["pimc", "ismcts"])
def test_time_budget_bounds_the_contract_and_the_exchange(level: str) -> None:
    """The contract choice and the exchange play each world out before dealing the next, checking the clock."""
    option_values(STANDARD)  # the per-process table of contract values, built once, outside the timing
    deal = Deal.random(6, dealer=0)
    budget = Budget(time=BUDGET_S, worlds=200_000)
    bot = make_bot(level, seed=1, budget=budget)
    for phase in (Phase.CHOOSE, Phase.EXCHANGE):
        assert deal.phase is phase
        start = time.perf_counter()
        decision = bot.decide(deal.observation(deal.to_move))
        elapsed = time.perf_counter() - start
        assert elapsed < BOUND_S, f"{level} took {elapsed:.2f} s on a {BUDGET_S} s budget in {phase.name}"
        assert decision.action in deal.legal_actions
        assert decision.info["worlds"] != 0
        deal.push(decision.action)
