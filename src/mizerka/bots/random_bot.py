"""Level 1, Random: any legal action, uniformly.

For the exchange, where the legal actions are the subsets of the hand, it first draws how many cards
to discard (0 up to the limit, uniformly) and then which ones, so that it does not almost always
swap half its hand.
"""

from __future__ import annotations

import random

from mizerka.bots.base import Bot, Budget, Decision, exchange_limit
from mizerka.cards import CardSet
from mizerka.deal import Exchange, Observation

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Plays a uniformly random legal action.  The baseline of the ladder."""

    name = "random"
    badge = "Random"
    description = "Any legal move, at random."
    default_budget = Budget()

    def choose(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return Decision(rng.choice(observation.legal_actions))

    def exchange(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        count = rng.randint(0, exchange_limit(observation))
        discards = rng.sample(sorted(int(c) for c in observation.hand), count)
        return Decision(Exchange(CardSet(discards)))

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return Decision(rng.choice(observation.legal_actions))
