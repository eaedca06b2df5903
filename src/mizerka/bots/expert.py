"""Level 5, Expert: PIMC over weighted worlds with late solving, IS-MCTS in Mizerka.

Expert shares its simulations with the other search levels (:mod:`mizerka.bots.search`): the contract and
the exchange by simulation with more worlds, card play by :func:`~mizerka.bots.search.play_by_pimc` with
each world weighted by how likely the opponents' earlier plays in this deal were under the playout policy,
and in Mizerka by :func:`~mizerka.bots.search.play_by_ismcts` until the solver's endgame.  Its own module
keeps what only Expert decides apart, so that a change to it leaves the other levels' code (and the arena
ladder's record of their matches, see ``benchmarks/bots.py --ledger``) untouched.
"""

from __future__ import annotations

import random

from mizerka.bots.base import Budget, Decision
from mizerka.bots.search import SOLVE_TRICKS, _Clock, _SearchBot, play_by_ismcts, play_by_pimc
from mizerka.deal import Observation
from mizerka.rules import Contract

__all__ = ["EXPERT_SOLVE_TRICKS", "ExpertBot"]

EXPERT_SOLVE_TRICKS = {Contract.CLUBS: 2, Contract.DIAMONDS: 2, Contract.HEARTS: 2, Contract.SPADES: 2,
                       Contract.NO_TRUMP: 3, Contract.MIZERKA: 4}
"""Tricks left at which Expert's card play switches from policy playouts to the exact solver: later than
:data:`SOLVE_TRICKS`.  The solver is paranoid (the other two play together against the seat), which
opponents who each play for themselves are not: on 600 paired trump and no-trump deals against two Rules
bots, solving only the last 2 tricks (3 in no-trump) gained +0.105 ± 0.048 points per deal over solving
the last 7 (8), and the last 4 (5) +0.097 ± 0.045; the two differ by +0.008 ± 0.021."""


class ExpertBot(_SearchBot):
    """Level 5: PIMC over worlds weighted by the opponents' earlier plays; more worlds everywhere; IS-MCTS with
    more simulations than the ISMCTS level in Mizerka before its endgame."""

    name = "expert"
    badge = "Expert"
    description = "PIMC with inference from the opponents' plays; contract and exchange by deeper simulation."
    default_budget = Budget(worlds=96, simulations=4000)
    choose_worlds = 192

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        contract = observation.contract
        left = observation.rules.n_tricks - len(observation.tricks)
        if contract is Contract.MIZERKA and observation.stock_size == 0 and left > SOLVE_TRICKS[contract]:
            # each for himself: the tree search (rewards by own score) judged Mizerka play at least as well
            return play_by_ismcts(observation, budget.simulations or 4000, budget.worlds or 96, rng,
                                  _Clock(budget.time))
        assert contract is not None
        return play_by_pimc(observation, budget.worlds or 96, rng, _Clock(budget.time), weighted=True,
                            deeper=EXPERT_SOLVE_TRICKS[contract] - SOLVE_TRICKS[contract])
