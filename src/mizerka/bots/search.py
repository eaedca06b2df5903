"""The search levels: PIMC, ISMCTS and Expert.

All three decide the contract and the exchange by **simulation** (see :func:`choose_by_simulation` and
:func:`exchange_by_simulation`): worlds consistent with the seat's knowledge are sampled with
:meth:`Deal.from_observation <mizerka.deal.Deal.from_observation>`, each candidate is played out in the
same worlds (common random numbers), and the candidate with the best expected *score* wins.  The contract
choice also weighs the opportunity cost: each contract must be played once, so a contract's expected
score is compared with what that contract scores on an average hand.

Card play differs by level:

* **PIMC** samples worlds and evaluates every legal card in each: with the double-dummy solver once the
  endgame is small enough for it (:data:`SOLVE_TRICKS`), by a quick-policy playout before that.
* **ISMCTS** runs single-observer information-set Monte Carlo tree search: each iteration picks a
  determinization, walks the shared tree with UCB restricted to the cards legal in that world
  (availability counts), expands one node and plays out with an ε-greedy quick policy.
* **Expert** is PIMC with more worlds, each weighted by how likely the opponents' earlier plays in this
  deal were under the quick play model (a world in which they would have played differently counts less),
  and with more simulations for the contract and the exchange.
"""

from __future__ import annotations

import math
import random
import time
from functools import lru_cache

from mizerka.bots.base import Bot, Budget, Decision, exchange_limit
from mizerka.bots.rules_bot import discard_order
from mizerka.bots.simulate import playout, policy_card, simulate_deal
from mizerka.cards import CARDS, CardSet
from mizerka.deal import CHOICES, PLAYS, Deal, Exchange, Observation, Phase, Play
from mizerka.rules import Contract, Rules
from mizerka.solver import Position, solve_all

__all__ = ["ExpertBot", "ISMCTSBot", "PIMCBot", "choose_by_simulation", "exchange_by_simulation"]

SOLVE_TRICKS = {True: 7, False: 9}
"""Tricks left at which play switches from playouts to the exact solver: trump contracts, others."""


class _Clock:
    """An optional deadline (only when the budget sets a time)."""

    def __init__(self, seconds: float | None) -> None:
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline


def _worlds(observation: Observation, count: int, rng: random.Random, clock: _Clock) -> list[Deal]:
    worlds = []
    for _ in range(count):
        worlds.append(Deal.from_observation(observation, rng))
        if clock.expired():
            break
    return worlds


@lru_cache(maxsize=16)
def contract_baselines(rules: Rules, samples: int = 48) -> tuple[float, ...]:
    """Forehand's mean simulated score in each contract over random deals (a fixed seed: a constant table)."""
    rng = random.Random(1_234_567)
    sums = [0.0] * 6
    for _ in range(samples):
        deal = Deal.random(rng, rules=rules, dealer=0)
        for contract in rules.contracts:
            sums[contract] += simulate_deal(deal.copy(), deal.forehand, contract)
    return tuple(s / samples for s in sums)


def choose_by_simulation(observation: Observation, worlds: int, rng: random.Random, clock: _Clock) -> Decision:
    """Each open contract played out in the same sampled completions of the six-card hand."""
    seat = observation.seat
    assert seat is not None
    sample = _worlds(observation, worlds, rng, clock)
    baseline = contract_baselines(observation.rules)
    evaluations: dict[str, float] = {}
    best: tuple[float, Contract] | None = None
    for choice in observation.legal_actions:
        contract = choice.contract  # type: ignore[union-attr]
        mean = sum(simulate_deal(w.copy(), seat, contract) for w in sample) / len(sample)
        evaluations[str(contract)] = round(mean, 3)
        advantage = mean - baseline[contract]
        if best is None or advantage > best[0]:
            best = (advantage, contract)
    assert best is not None
    return Decision(CHOICES[best[1]], {"evaluations": evaluations, "worlds": len(sample)})


def exchange_by_simulation(
    observation: Observation, worlds: int, rng: random.Random, clock: _Clock, max_discards: int = 9
) -> Decision:
    """Discarding the *k* weakest cards, for each *k*, played out in the same sampled worlds."""
    seat = observation.seat
    assert seat is not None and observation.contract is not None
    order = discard_order(observation.hand.mask, int(observation.contract))
    limit = min(exchange_limit(observation), max_discards)
    sample = _worlds(observation, worlds, rng, clock)
    evaluations: dict[str, float] = {}
    best: tuple[float, int] | None = None
    discards = 0
    for k in range(limit + 1):
        if k:
            discards |= 1 << order[k - 1]
        mean = sum(simulate_deal(w.copy(), seat, discards=discards) for w in sample) / len(sample)
        evaluations[str(Exchange(CardSet(discards)))] = round(mean, 3)
        if best is None or mean > best[0] + 1e-9:
            best = (mean, discards)
    assert best is not None
    return Decision(Exchange(CardSet(best[1])), {"evaluations": evaluations, "worlds": len(sample)})


def _solvable(world: Deal) -> bool:
    left = world.rules.n_tricks - len(world.tricks)
    return not world.stock and left <= SOLVE_TRICKS[world.trump is not None]


def evaluate_world(world: Deal, seat: int, cards: list[int]) -> dict[int, int]:
    """*seat*'s score after each of *cards* in one world: solved exactly in the endgame, else played out."""
    rules = world.rules
    role = world.roles[seat]
    contract = world.contract
    assert contract is not None
    if _solvable(world):
        values = solve_all(Position.from_deal(world), seat)
        won = world.tricks_won[seat]
        return {int(card): rules.score(role, contract, won + value) for card, value in values.items()}
    out = {}
    for card in cards:
        copy = world.copy()
        copy.push_card(card)
        playout(copy)
        out[card] = copy.scores()[seat]
    return out


def _opponent_play_weight(world: Deal, seat: int, miss: float = 0.35) -> float:
    """How likely the opponents' plays so far in *world* were under the quick play model."""
    replay = Deal(world.deck, rules=world.rules, dealer=world.dealer, allowed_contracts=world.allowed_contracts)
    weight = 1.0
    for action in world.history:
        if (
            replay.phase is Phase.PLAY
            and replay.to_move != seat
            and isinstance(action, Play)
            and replay.legal_play_mask().bit_count() > 1
            and policy_card(replay) != action.card
        ):
            weight *= miss
        replay.push(action)
    return weight


def play_by_pimc(
    observation: Observation, worlds: int, rng: random.Random, clock: _Clock, weighted: bool = False
) -> Decision:
    """Perfect-information Monte Carlo: the expected score of each legal card over sampled worlds."""
    seat = observation.seat
    assert seat is not None
    cards = [int(a.card) for a in observation.legal_actions]  # type: ignore[union-attr]
    totals = dict.fromkeys(cards, 0.0)
    weight_sum = 0.0
    used = 0
    for _ in range(worlds):
        world = Deal.from_observation(observation, rng)
        weight = _opponent_play_weight(world, seat) if weighted else 1.0
        for card, score in evaluate_world(world, seat, cards).items():
            totals[card] += weight * score
        weight_sum += weight
        used += 1
        if clock.expired():
            break
    means = {card: totals[card] / weight_sum for card in cards}
    best = max(cards, key=lambda c: (means[c], -c))
    evaluations = {str(CARDS[c]): round(v, 3) for c, v in means.items()}
    return Decision(PLAYS[best], {"evaluations": evaluations, "worlds": used})


class _SearchBot(Bot):
    """Contract and exchange by simulation; subclasses play cards."""

    choose_worlds_factor = 1.0

    def _sim_worlds(self, budget: Budget) -> int:
        return max(1, round((budget.worlds or 8) * self.choose_worlds_factor))

    def choose(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return choose_by_simulation(observation, self._sim_worlds(budget), rng, _Clock(budget.time))

    def exchange(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return exchange_by_simulation(observation, self._sim_worlds(budget), rng, _Clock(budget.time))


class PIMCBot(_SearchBot):
    """Level 3: sample worlds, solve each (playouts before the endgame), choose by expected score."""

    name = "pimc"
    badge = "PIMC"
    description = "Samples the hidden cards, solves each world, picks the best expected score."
    default_budget = Budget(worlds=16)
    choose_worlds_factor = 0.5

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return play_by_pimc(observation, budget.worlds or 16, rng, _Clock(budget.time))


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def play_by_ismcts(
    observation: Observation, simulations: int, pool_size: int, rng: random.Random, clock: _Clock,
    exploration: float = 0.7, epsilon: float = 0.1,
) -> Decision:
    """Single-observer ISMCTS from *observation*'s seat; rewards are each player's own score / 13."""
    seat = observation.seat
    assert seat is not None
    pool = [Deal.from_observation(observation, rng) for _ in range(max(1, min(pool_size, simulations)))]
    root = _Node()
    n_tricks = observation.rules.n_tricks
    done = 0
    for i in range(simulations):
        world = pool[i % len(pool)].copy()
        node = root
        path: list[tuple[_Node, int]] = []
        while world.phase is Phase.PLAY:
            mask = world.legal_play_mask()
            mover = world.to_move
            untried = []
            m = mask
            children = node.children
            while m:
                low = m & -m
                card = low.bit_length() - 1
                if card not in children:
                    untried.append(card)
                m ^= low
            if untried:
                card = rng.choice(untried)
                child = children[card] = _Node()
                for other, c in children.items():
                    if mask >> other & 1:
                        c.avail += 1
                world.push_card(card)
                path.append((child, mover))
                break
            log_term = 0.0
            best_value = -1e9
            best_card = -1
            for card, c in children.items():
                if mask >> card & 1:
                    c.avail += 1
                    log_term = math.log(c.avail)
                    value = c.total / c.visits + exploration * math.sqrt(log_term / c.visits)
                    if value > best_value:
                        best_value, best_card = value, card
            node = children[best_card]
            world.push_card(best_card)
            path.append((node, mover))
        playout(world, rng, epsilon)
        scores = world.scores()
        for child, mover in path:
            child.visits += 1
            child.total += scores[mover] / n_tricks
        root.visits += 1
        done += 1
        if clock.expired():
            break
    legal = [int(a.card) for a in observation.legal_actions]  # type: ignore[union-attr]
    visited = {card: root.children[card] for card in legal if card in root.children}
    best = max(legal, key=lambda c: (visited[c].visits if c in visited else -1, -c))
    evaluations = {
        str(CARDS[c]): round(node.total / node.visits * n_tricks, 3) for c, node in visited.items() if node.visits
    }
    return Decision(PLAYS[best], {"evaluations": evaluations, "simulations": done, "worlds": len(pool)})


class ISMCTSBot(_SearchBot):
    """Level 4: information-set Monte Carlo tree search over determinized worlds."""

    name = "ismcts"
    badge = "ISMCTS"
    description = "Information-set Monte Carlo tree search with quick-policy playouts."
    default_budget = Budget(worlds=16, simulations=600)
    choose_worlds_factor = 0.75

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return play_by_ismcts(observation, budget.simulations or 600, 4 * (budget.worlds or 16), rng,
                              _Clock(budget.time))


class ExpertBot(_SearchBot):
    """Level 5: PIMC over worlds weighted by the opponents' earlier plays; more simulation for contract/exchange."""

    name = "expert"
    badge = "Expert"
    description = "PIMC with inference from the opponents' plays; contract and exchange by deeper simulation."
    default_budget = Budget(worlds=24)
    choose_worlds_factor = 0.75

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return play_by_pimc(observation, budget.worlds or 24, rng, _Clock(budget.time), weighted=True)
