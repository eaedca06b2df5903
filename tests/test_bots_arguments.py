"""What the bot API accepts: observations, level names, budgets and the rng.

An ``Observation`` no deal can produce (no legal action, an empty hand, a card not held, a contract among the plays,
a seat outside the deal) is refused by ``Bot.decide`` and ``decide_async`` with a ``BotError`` naming the problem,
before any level decides; what a deal produces is still answered.  Level names are read in any case and named in
lower case.  A ``Budget`` takes any integral count as a plain int (``numpy.int64(8)`` was refused) and refuses absurd
ones (``worlds=10**12``); its text is text, each field given once; the rng is a ``random.Random``.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

import mizerka.bots
from mizerka import Match, Phase
from mizerka.bots import BOT_LEVELS, BotError, Budget, BudgetError, UnknownBotError, make_bot
from mizerka.bots.base import MAX_SIMULATIONS, MAX_WORLDS
from mizerka.cards import CardSet
from mizerka.deal import Choose, Observation, Play

SMALL = Budget(worlds=2, simulations=30)


def _observations() -> tuple[Observation, Observation]:
    """A contract choice, and a card play in the middle of the first deal of a match."""
    match = Match(seed=2)
    contract = match.observation(match.to_move)
    picker = make_bot("random", seed=1)
    while True:
        observation = match.observation(match.to_move)
        if observation.phase is Phase.PLAY and len(observation.history) > 12:
            return contract, observation
        match.push(picker.decide(observation).action)


CONTRACT, PLAY = _observations()
NOT_HELD = next(card for card in range(52) if card not in PLAY.hand)


CASES = {
    "contract, no legal action": (dataclasses.replace(CONTRACT, legal_actions=()), "no legal action"),
    "play, no legal action": (dataclasses.replace(PLAY, legal_actions=()), "no legal action"),
    "play, empty hand": (dataclasses.replace(PLAY, hand=CardSet()), "holds none"),
    "play, a card not held": (
        dataclasses.replace(PLAY, legal_actions=(Play(NOT_HELD),)),  # type: ignore[arg-type]
        "does not hold it",
    ),
    "play, a contract as legal": (
        dataclasses.replace(PLAY, legal_actions=(Choose(CONTRACT.allowed_contracts[0]),)), "no card to play",
    ),
    "a seat outside the deal": (dataclasses.replace(PLAY, seat=7, to_move=7), "not a seat of its deal"),
}


# -- observations no deal can produce --------------------------------------------------------------------------------


@pytest.mark.parametrize("level", list(BOT_LEVELS))
@pytest.mark.parametrize("case", list(CASES))
def test_an_impossible_observation_is_a_bot_error(level: str, case: str) -> None:
    """Such observations escaped as IndexError, AssertionError or KeyError (or a ValueError naming nothing, such
    as 'negative shift count'), or were even answered (a card from an empty hand)."""
    observation, problem = CASES[case]
    with pytest.raises(BotError, match=problem):
        make_bot(level, seed=1).decide(observation, SMALL)


def test_decide_async_refuses_an_impossible_observation_too() -> None:
    observation, problem = CASES["play, empty hand"]
    with pytest.raises(BotError, match=problem):
        asyncio.run(make_bot("ismcts", seed=1).decide_async(observation, SMALL))


@pytest.mark.parametrize("level", ["random", "rules", "pimc"])
def test_a_consistent_observation_is_answered_as_before(level: str) -> None:
    """The check refuses nothing a deal produces: the contract choice, an exchange (whose legal actions are empty
    by design) and a card play are each answered with a legal action."""
    match = Match(seed=5)
    bot = make_bot(level, seed=3, budget=SMALL)
    phases = set()
    while len(phases) < 3:
        observation = match.observation(match.to_move)
        decision = bot.decide(observation)
        assert match.deal.illegal_reason(decision.action) is None
        phases.add(observation.phase)
        match.push(decision.action)


# -- level names -----------------------------------------------------------------------------------------------------


def test_level_names_are_read_in_any_case_and_named_in_lower_case() -> None:
    assert make_bot(" Rules ").name == "rules"
    level_name = mizerka.bots.level_name
    assert [level_name(n) for n in ("PIMC", " Rules ", "expert")] == ["pimc", "rules", "expert"]
    assert make_bot("ISMCTS").name == "ismcts"
    for bad in ("grandmaster", "", 3, None):
        with pytest.raises(UnknownBotError, match="unknown bot"):
            level_name(bad)


# -- budgets and the rng ---------------------------------------------------------------------------------------------


def test_budget_text_and_the_rng_are_checked() -> None:
    """``Budget.parse(None)`` was an AttributeError, ``time=1,time=2`` kept the last value without a word, and an
    rng that is no ``random.Random`` failed deep inside the bot."""
    from mizerka.bots import BotError, BudgetError, make_bot
    from mizerka.deal import Deal

    for text in (None, 5):
        with pytest.raises(BudgetError, match="a budget is text"):
            Budget.parse(text)  # type: ignore[arg-type]
    with pytest.raises(BudgetError, match="gives time twice"):
        Budget.parse("time=1,time=2")
    assert Budget.parse("time=1,worlds=2") == Budget(time=1.0, worlds=2)
    deal = Deal.random(3)
    with pytest.raises(BotError, match=r"rng must be a random\.Random"):
        make_bot("rules").decide(deal.observation(deal.to_move), None, 5)  # type: ignore[arg-type]


class _Count:
    """An integral number that is not an int (as numpy's integers are): it has ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_a_budget_takes_any_integral_count_as_a_plain_int() -> None:
    """``Budget(worlds=numpy.int64(8))`` was refused: 'must be a whole number of at least 1, not np.int64(8)'."""
    budget = Budget(worlds=_Count(8), simulations=_Count(300))  # type: ignore[arg-type]
    assert budget == Budget(worlds=8, simulations=300)
    assert type(budget.worlds) is int and type(budget.simulations) is int
    numpy = pytest.importorskip("numpy")
    from_numpy = Budget(time=numpy.float32(0.5), worlds=numpy.int64(8))
    assert from_numpy == Budget(time=0.5, worlds=8) and type(from_numpy.worlds) is int
    assert make_bot("pimc", budget=from_numpy).budget.worlds == 8
    for bad in (True, 8.0, "8", _Count(0), _Count(-3)):
        with pytest.raises(BudgetError, match="budget worlds must be a whole number of at least 1"):
            Budget(worlds=bad)  # type: ignore[arg-type]


def test_a_budget_refuses_absurd_counts() -> None:
    """``Budget(worlds=10**12)`` was accepted: without a time budget a bot would deal them all before answering."""
    assert Budget(worlds=MAX_WORLDS, simulations=MAX_SIMULATIONS).worlds == MAX_WORLDS
    with pytest.raises(BudgetError, match=f"budget worlds must be at most {MAX_WORLDS:,}"):
        Budget(worlds=MAX_WORLDS + 1)
    with pytest.raises(BudgetError, match=f"budget simulations must be at most {MAX_SIMULATIONS:,}"):
        Budget(simulations=10**400)
    with pytest.raises(BudgetError, match="at most"):
        Budget.parse("worlds=1000000000000")
