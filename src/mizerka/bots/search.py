"""The search levels PIMC and ISMCTS, and the simulations Expert (:mod:`mizerka.bots.expert`) shares with them.

All three decide the contract and the exchange by **simulation** (see :func:`choose_by_simulation` and
:func:`exchange_by_simulation`): worlds consistent with the seat's knowledge are sampled with
:meth:`Deal.from_observation <mizerka.deal.Deal.from_observation>`, each candidate is played out in the
same worlds (common random numbers) by the lean simulator of :mod:`mizerka.bots.fastsim`, and the
candidate with the best expected *score* wins.  The contract choice also weighs the opportunity cost:
each contract must be played once per match, so a contract's expected score is compared with what that
contract scores on an average deal (:func:`contract_baselines`), and the hand is spent on the contract
where it beats that average by the most.

Card play differs by level:

* **PIMC** samples worlds and evaluates every legal card in each: with the double-dummy solver once the
  endgame is small enough for it (:data:`SOLVE_TRICKS`), by a playout before that.
* **ISMCTS** runs single-observer information-set Monte Carlo tree search: each iteration picks a
  determinization from a pool, walks the shared tree with UCB restricted to the cards legal in that world
  (availability counts), expands one node and plays out with an ε-greedy playout policy, all on raw masks.
  In the solver's endgame it plays as PIMC.
* **Expert** is PIMC with more worlds, each weighted by how likely the opponents' earlier plays in this
  deal were under the playout policy (a world in which they would have played differently counts less),
  solving exactly only the last tricks (:data:`~mizerka.bots.expert.EXPERT_SOLVE_TRICKS`), and with more
  worlds for the contract and the exchange (:mod:`mizerka.bots.expert`).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterator
from functools import lru_cache

from mizerka.bots.base import Bot, Budget, Decision, exchange_limit
from mizerka.bots.fastsim import Table, legal_mask, playout, policy, random_rollout, role_scores
from mizerka.bots.heuristics import contract_estimate
from mizerka.bots.rules_bot import discard_order
from mizerka.bots.simulate import simulate_deal
from mizerka.bots.worlds import play_tables, setup_world
from mizerka.cards import CARDS, SUIT_MASKS, CardSet
from mizerka.deal import CHOICES, PLAYS, Deal, Exchange, Observation, Phase, Play
from mizerka.rules import Contract, ExchangeMode, Rules
from mizerka.solver import Position, solve_all
from mizerka.tricks import winner_of_three

__all__ = [
    "ISMCTSBot",
    "PIMCBot",
    "choose_by_simulation",
    "contract_baselines",
    "exchange_by_simulation",
    "play_by_ismcts",
    "play_by_pimc",
    "warm_up_tables",
]

SOLVE_TRICKS = {Contract.CLUBS: 7, Contract.DIAMONDS: 7, Contract.HEARTS: 7, Contract.SPADES: 7,
                Contract.NO_TRUMP: 8, Contract.MIZERKA: 4}
"""Tricks left at which play switches from playouts to the exact solver, per contract (where a solve of
every card costs about a millisecond or less).  Mizerka switches late: the solver is paranoid (everyone else
plays to hand the seat tricks), which in Mizerka, where the others avoid tricks themselves, misjudges long
endings; playouts from 7 tricks left lost 0.25 points per Mizerka deal against solving only the last 4
(40 paired deals, ±0.21)."""



class _Clock:
    """An optional deadline (only when the budget sets a time)."""

    def __init__(self, seconds: float | None) -> None:
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline


TIMED_CHUNK = 128
"""With a time budget, play-phase worlds are dealt this many at a time (about 2 ms of work each), so that a
large worlds or simulations budget cannot hold the answer past the clock.  A budget of at most this many
worlds is dealt in one batch, exactly as without a time budget."""


def _timed_tables(observation: Observation, count: int, rng: random.Random) -> Iterator[Table] | None:
    """*count* play-phase worlds as tables (:func:`~mizerka.bots.worlds.play_tables`), dealt lazily in batches of
    :data:`TIMED_CHUNK`, for a caller that checks a clock between them; ``None`` where the raw worlds do not
    model the observation.  The first batch draws from *rng* as ``play_tables(observation, count, rng)`` would
    when *count* is at most one batch; later batches draw differently (only a timed search asks for them)."""
    first = play_tables(observation, min(count, TIMED_CHUNK), rng)
    if first is None:
        return None
    return _more_tables(first, observation, count, rng)


def _more_tables(first: list[Table], observation: Observation, count: int, rng: random.Random) -> Iterator[Table]:
    yield from first
    made = len(first)
    while made < count:
        batch = play_tables(observation, min(count - made, TIMED_CHUNK), rng)
        assert batch is not None
        yield from batch
        made += len(batch)


def _worlds(observation: Observation, count: int, rng: random.Random, clock: _Clock) -> Iterator[Deal]:
    """Up to *count* sampled deals, one at a time: the clock is checked when the caller asks for the next one,
    after it has used this one, and none follows once it has expired."""
    for _ in range(count):
        yield Deal.from_observation(observation, rng)
        if clock.expired():
            return


def _raw_worlds(
    observation: Observation, count: int, rng: random.Random, clock: _Clock, contract: int
) -> Iterator[tuple[list[int], list[int]]]:
    """Worlds of a contract-choice or exchange observation as (hands by role, talon), for the lean simulator:
    dealt on raw masks (:func:`~mizerka.bots.worlds.setup_world`) or, for a variant those do not model, from
    checked deals.  One at a time, as :func:`_worlds`.  Only where the lean simulator covers the rules
    (:func:`_lean`)."""
    for _ in range(count):
        world = setup_world(observation, rng)
        if world is None:
            world = _raw_world(Deal.from_observation(observation, rng), contract)
        yield world
        if clock.expired():
            return


def _lean(rules: Rules) -> bool:
    """Whether the lean simulator covers *rules* (it has no stock to draw from during play)."""
    return rules.exchange_mode is not ExchangeMode.REPLENISH


def _quotas(rules: Rules, contract: int) -> tuple[int, int, int]:
    c = Contract(contract)
    return rules.quota(0, c), rules.quota(1, c), rules.quota(2, c)


# -- simulated exchanges ---------------------------------------------------------------------------

_AVERAGE_CARD: dict[int, float] = {}


def _average_card(contract: int) -> float:
    """What one random card adds to a random 13-card hand's trick estimate (a fixed seed: a constant)."""
    value = _AVERAGE_CARD.get(contract)
    if value is None:
        rng = random.Random(7)
        total = 0.0
        for _ in range(300):
            m = 0
            for c in rng.sample(range(52), 13):
                m |= 1 << c
            total += contract_estimate(m, contract) / 13
        value = _AVERAGE_CARD[contract] = total / 300
    return value


def quick_discards(hand: int, contract: int, limit: int, cache: dict[tuple[int, int, int], int] | None = None) -> int:
    """A simulated player's exchange: the mask of cards to discard.

    Each card's worth is what removing it costs the hand's trick estimate (in Mizerka: the danger it adds);
    the cards worth less than a random draw are discarded, weakest first, at most *limit* of them.
    """
    if limit <= 0:
        return 0
    key = (hand, contract, limit)
    if cache is not None and key in cache:
        return cache[key]
    average = _average_card(contract)
    avoid = contract == 5
    value = contract_estimate(hand, contract)
    gains = []
    m = hand
    while m:
        low = m & -m
        card = low.bit_length() - 1
        m ^= low
        delta = value - contract_estimate(hand ^ low, contract)  # what the card is worth (danger in Mizerka)
        gain = delta - average if avoid else average - delta
        if gain > 0.02:
            gains.append((gain, card))
    gains.sort(reverse=True)
    discards = 0
    for _, card in gains[:limit]:
        discards |= 1 << card
    if cache is not None:
        cache[key] = discards
    return discards


def _raw_world(world: Deal, contract: int) -> tuple[list[int], list[int]]:
    """Hands by role and the talon (top last) of *world*, with the contract pushed if it waits for one."""
    if world.phase is Phase.CHOOSE:
        world = world.copy()
        world.push(CHOICES[contract])
    return [world.hands[s] for s in world.active_seats], list(world.talon)


def _finish(
    hands: list[int], talon: list[int], contract: int, first_role: int, my_role: int, my_discards: int | None,
    rules: Rules, cache: dict[tuple[int, int, int], int],
) -> list[int]:
    """Exchange from *first_role* on (mine given, the others' simulated), play out; the scores by role."""
    hands = hands[:]
    if rules.exchange_mode is ExchangeMode.STANDARD:
        top = len(talon)
        for role in range(first_role, 3):
            limit = min(hands[role].bit_count(), top)
            if role == my_role and my_discards is not None:
                discards = my_discards
            else:
                discards = quick_discards(hands[role], contract, limit, cache)
            count = discards.bit_count()
            drawn = 0
            for card in talon[top - count : top]:
                drawn |= 1 << card
            top -= count
            hands[role] = (hands[role] & ~discards) | drawn
    avoid = contract == 5
    table = Table(hands, [], 0, 0, [0, 0, 0], rules.n_tricks, contract if contract < 4 else -1, avoid)
    return role_scores(playout(table), _quotas(rules, contract), avoid)


@lru_cache(maxsize=16)
def contract_baselines(rules: Rules, samples: int = 400) -> tuple[float, ...]:
    """Forehand's mean simulated score in each contract over random deals (a fixed seed: a constant table).

    This is what a contract is worth on an average hand, the price of using it now rather than later.
    """
    rng = random.Random(1_234_567)
    sums = [0.0] * 6
    lean = _lean(rules)
    cache: dict[tuple[int, int, int], int] = {}
    for _ in range(samples):
        deal = Deal.random(rng, rules=rules, dealer=0)
        hands, talon = _raw_world(deal, rules.contracts[0]) if lean else ([], [])
        for contract in rules.contracts:
            if lean:
                sums[contract] += _finish(hands, talon, contract, 0, 0, None, rules, cache)[0]
            else:
                sums[contract] += simulate_deal(deal.copy(), deal.forehand, contract)
    return tuple(s / samples for s in sums)


def choose_by_simulation(observation: Observation, worlds: int, rng: random.Random, clock: _Clock) -> Decision:
    """Each open contract played out in the same sampled completions of the six-card hand."""
    seat = observation.seat
    assert seat is not None
    rules = observation.rules
    contracts = [int(choice.contract) for choice in observation.legal_actions]  # type: ignore[union-attr]
    totals = dict.fromkeys(contracts, 0.0)
    cache: dict[tuple[int, int, int], int] = {}
    lean = _lean(rules)
    used = 0  # each world is played out before the next is dealt, so a time budget bounds both
    if lean:
        for hands, talon in _raw_worlds(observation, worlds, rng, clock, contracts[0]):
            for contract in contracts:
                totals[contract] += _finish(hands, talon, contract, 0, 0, None, rules, cache)[0]
            used += 1
    else:
        for world in _worlds(observation, worlds, rng, clock):
            for contract in contracts:
                totals[contract] += simulate_deal(world.copy(), seat, Contract(contract))
            used += 1
    evaluations: dict[str, float] = {}
    best: tuple[float, int] | None = None
    options = option_values(rules) if option_values_apply(rules) and lean else None
    baseline = contract_baselines(rules) if options is None else ()
    remaining = frozenset(contracts)
    for contract in contracts:
        mean = totals[contract] / used
        evaluations[str(Contract(contract))] = round(mean, 3)
        # with option values: this deal's score plus what the contracts left are worth in the deals to come
        advantage = mean + options[remaining - {contract}] if options is not None else mean - baseline[contract]
        if best is None or advantage > best[0]:
            best = (advantage, contract)
    assert best is not None
    return Decision(CHOICES[best[1]], {"evaluations": evaluations, "worlds": used})


def option_values_apply(rules: Rules) -> bool:
    """Whether :func:`option_values` models *rules*: each player chooses each contract once, on its own."""
    return rules.uses_per_contract == 1 and not rules.global_unique_contracts and _lean(rules)


@lru_cache(maxsize=16)
def contract_values(rules: Rules, hands: int = 100, worlds: int = 20) -> tuple[tuple[float, ...], ...]:
    """Forehand's simulated mean score in each contract (indexed by contract) for *hands* random first hands.

    Each first hand (``rules.cards_before_choice`` cards) is completed *worlds* times at random and every
    contract is played out in those worlds, as :func:`choose_by_simulation` does.  A fixed seed: a constant
    table, computed once per process.
    """
    rng = random.Random(1_234_567)
    first = rules.cards_before_choice
    n = rules.n_tricks
    out = []
    cache: dict[tuple[int, int, int], int] = {}
    for _ in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        mine, rest = deck[:first], deck[first:]
        sums = [0.0] * 6
        for _ in range(worlds):
            rng.shuffle(rest)
            cards = mine + rest
            hands_by_role = [0, 0, 0]
            for role in range(3):
                mask = 0
                for card in cards[role * n : (role + 1) * n]:
                    mask |= 1 << card
                hands_by_role[role] = mask
            talon = cards[3 * n : 4 * n]
            for contract in rules.contracts:
                sums[contract] += _finish(hands_by_role, talon, contract, 0, 0, None, rules, cache)[0]
        out.append(tuple(x / worlds for x in sums))
    return tuple(out)


@lru_cache(maxsize=16)
def option_values(rules: Rules) -> dict[frozenset[int], float]:
    """What a set of contracts still to choose is worth: forehand's expected total over the deals to come.

    Every player chooses each contract once, so forehand's later choices are made from the contracts left,
    each on a fresh hand.  With the scores *x* of random first hands (:func:`contract_values`),
    ``V(∅) = 0`` and ``V(S) = mean over hands of max over c in S of (x[c] + V(S − {c}))``: choosing well later
    is worth more than each contract's average, and a contract that is rarely good (Mizerka for forehand) is
    cheap to keep.  :func:`choose_by_simulation` picks the contract with the best ``this score + V(rest)``.
    """
    xs = contract_values(rules)
    contracts = [int(c) for c in rules.contracts]
    values: dict[frozenset[int], float] = {frozenset(): 0.0}
    for size in range(1, len(contracts) + 1):
        for subset in itertools.combinations(contracts, size):
            key = frozenset(subset)
            rests = [(c, values[key - {c}]) for c in subset]
            values[key] = sum(max(x[c] + rest for c, rest in rests) for x in xs) / len(xs)
    return values


def warm_up_tables(rules: Rules) -> None:
    """Compute what a search level's contract choice and exchange build on their first call in a process.

    The contract choice prices contracts by :func:`option_values` where those model *rules*
    (:func:`option_values_apply`), else by :func:`contract_baselines`; both are simulated once per process
    (about a second, and a quarter of a second) and cached.  The simulated exchanges value a card against
    :func:`_average_card` of the contract.  Called before a decision is timed (:func:`mizerka.bots.warm_up`,
    the arena), so that a time budget holds from the first decision on.  Nothing here draws from a bot's
    random numbers: a decision is the same whether or not the tables were ready.
    """
    if option_values_apply(rules):
        option_values(rules)
    else:
        contract_baselines(rules)
    for contract in rules.contracts:
        _average_card(int(contract))


def exchange_candidates(hand: int, contract: int, limit: int, max_discards: int = 9) -> list[int]:
    """The discard sets worth simulating: the *k* weakest cards for each *k* (the rules level's order), and in
    a trump or no-trump contract each short side suit thrown away whole (a void to ruff with, or simply no
    loser there), alone and with the next weakest cards."""
    order = discard_order(hand, contract)
    limit = min(limit, max_discards)
    candidates = [0]
    for card in order[:limit]:
        candidates.append(candidates[-1] | 1 << card)
    if contract != 5:
        for suit in range(4):
            if suit == contract:
                continue
            cards = hand & SUIT_MASKS[suit]
            if not cards or cards.bit_count() > min(4, limit):
                continue
            discards = cards
            candidates.append(discards)
            for card in order:
                if discards.bit_count() >= min(limit, cards.bit_count() + 3):
                    break
                if not discards >> card & 1:
                    discards |= 1 << card
                    candidates.append(discards)
    return list(dict.fromkeys(candidates))


def exchange_by_simulation(
    observation: Observation, worlds: int, rng: random.Random, clock: _Clock, max_discards: int = 9
) -> Decision:
    """The candidate discard sets (:func:`exchange_candidates`) played out in the same sampled worlds.

    Successive halving: every candidate is played in the first quarter of the worlds, the best four in all
    of them; the best mean over all the worlds wins.  The evaluations are those of the candidates played in
    every world: a candidate dropped after the first quarter has a mean of fewer worlds, which may lie above the
    winner's by chance (a hint then showed a higher figure than the advised exchange's).
    """
    seat = observation.seat
    role = observation.role
    assert seat is not None and role is not None and observation.contract is not None
    rules = observation.rules
    contract = int(observation.contract)
    candidates = exchange_candidates(observation.hand.mask, contract, exchange_limit(observation), max_discards)
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    cache: dict[tuple[int, int, int], int] = {}
    if _lean(rules):
        # each world is played out before the next is dealt (a time budget bounds both); without a time budget
        # all *worlds* are played, so the first quarter is worlds // 4
        first = max(1, worlds // 4)
        alive = list(range(len(candidates)))
        for n, (hands, talon) in enumerate(_raw_worlds(observation, worlds, rng, clock, contract)):
            if n == first and len(alive) > 4:
                alive = sorted(alive, key=lambda i: -totals[i] / counts[i])[:4]
            for i in alive:
                totals[i] += _finish(hands, talon, contract, int(role), int(role), candidates[i], rules, cache)[role]
                counts[i] += 1
    else:
        for world in _worlds(observation, worlds, rng, clock):
            for i, discards in enumerate(candidates):
                totals[i] += simulate_deal(world.copy(), seat, discards=discards)
                counts[i] += 1
    evaluations: dict[str, float] = {}
    best: tuple[int, float, int] | None = None
    finalists = max(counts)  # the worlds the last candidates were all played in
    for i, discards in enumerate(candidates):
        mean = totals[i] / counts[i]
        if counts[i] == finalists:
            evaluations[str(Exchange(CardSet(discards)))] = round(mean, 3)
        if best is None or (counts[i], mean) > (best[0], best[1] + 1e-9):
            best = (counts[i], mean, discards)
    assert best is not None
    return Decision(Exchange(CardSet(best[2])), {"evaluations": evaluations, "worlds": finalists})


# -- card play -------------------------------------------------------------------------------------


def _solvable(world: Deal) -> bool:
    left = world.rules.n_tricks - len(world.tricks)
    return not world.stock and world.contract is not None and left <= SOLVE_TRICKS[world.contract]


def evaluate_world(world: Deal, seat: int, cards: list[int]) -> dict[int, int]:
    """*seat*'s score after each of *cards* in one world: solved exactly in the endgame, else played out."""
    rules = world.rules
    role = world.roles[seat]
    contract = world.contract
    assert contract is not None and role is not None
    if _solvable(world):
        values = solve_all(Position.from_deal(world), seat)
        won = world.tricks_won[seat]
        return {int(card): rules.score(role, contract, won + value) for card, value in values.items()}
    out = {}
    if world.stock:  # a variant the lean simulator does not cover
        from mizerka.bots.simulate import playout as deal_playout

        for card in cards:
            copy = world.copy()
            copy.push_card(card)
            deal_playout(copy)
            out[card] = copy.scores()[seat]
        return out
    table = Table.from_deal(world)
    quotas = _quotas(rules, contract)
    avoid = table.avoid
    for card in cards:
        t = table.copy()
        t.play(card)
        out[card] = role_scores(playout(t), quotas, avoid)[role]
    return out


def _opponent_play_weight(world: Deal, seat: int, miss: float = 0.6) -> float:
    """How likely the opponents' plays so far in *world* were under the playout policy."""
    replay = Deal(world.deck, rules=world.rules, dealer=world.dealer, allowed_contracts=world.allowed_contracts)
    weight = 1.0
    for action in world.history:
        if (
            replay.phase is Phase.PLAY and replay.to_move != seat and isinstance(action, Play) and not replay.stock
            and replay.legal_play_mask().bit_count() > 1 and policy(Table.from_deal(replay)) != action.card
        ):
            weight *= miss
        replay.push(action)
    return weight


def evaluate_table(
    table: Table, role: int, cards: list[int], rules: Rules, contract: Contract, deeper: int = 0
) -> dict[int, int]:
    """The score of *role* after each of *cards* in one world (a table): solved exactly once the endgame is
    small enough (:data:`SOLVE_TRICKS`, plus *deeper* tricks), played out by the policy before that."""
    if table.left <= SOLVE_TRICKS[contract] + deeper:
        position = Position(tuple(table.hands), table.leader, tuple(table.trick),
                            None if table.trump < 0 else table.trump, table.avoid)
        won = table.won[role]
        return {int(card): rules.score(role, contract, won + value)
                for card, value in solve_all(position, role).items()}
    quotas = _quotas(rules, contract)
    avoid = table.avoid
    out = {}
    for card in cards:
        t = table.copy()
        t.play(card)
        out[card] = role_scores(playout(t), quotas, avoid)[role]
    return out


def _plays_by_role(observation: Observation) -> list[tuple[int, int]]:
    """Every card played in the deal so far, in order, as ``(role, card)``."""
    order = observation.active_seats
    plays = []
    tricks = [(t.leader, t.cards) for t in observation.tricks]
    if observation.trick:
        tricks.append((observation.trick_leader, observation.trick))
    for leader, cards in tricks:
        start = order.index(leader)
        for i, card in enumerate(cards):
            plays.append(((start + i) % 3, int(card)))
    return plays


def table_play_weight(table: Table, me: int, plays: list[tuple[int, int]], n_tricks: int, miss: float = 0.6) -> float:
    """How likely the other players' plays so far were, in the world *table*, under the playout policy.

    The hands at the start of play are the world's hands now plus the cards each role has played; the
    plays are replayed from there and every choice of another player (not forced) that the policy would
    not have made multiplies the weight by *miss*.
    """
    hands = table.hands[:]
    for role, card in plays:
        hands[role] |= 1 << card
    replay = Table(hands, [], 0, 0, [0, 0, 0], n_tricks, table.trump, table.avoid)
    weight = 1.0
    for role, card in plays:
        if role != me:
            mask = legal_mask(replay)
            if mask & (mask - 1) and policy(replay) != card:
                weight *= miss
        replay.play(card)
    return weight


def play_by_pimc(
    observation: Observation, worlds: int, rng: random.Random, clock: _Clock, weighted: bool = False,
    deeper: int = 0,
) -> Decision:
    """Perfect-information Monte Carlo: the expected score of each legal card over sampled worlds.

    With *weighted*, each world counts by :func:`table_play_weight` (inference from the others' plays);
    *deeper* solves exactly that many tricks earlier than :data:`SOLVE_TRICKS` (later, if negative).
    """
    seat = observation.seat
    role = observation.role
    assert seat is not None and role is not None
    cards = [int(a.card) for a in observation.legal_actions]  # type: ignore[union-attr]
    totals = dict.fromkeys(cards, 0.0)
    weight_sum = 0.0
    used = 0
    # with a time budget the worlds are dealt in batches as they are used (a large worlds budget must not be
    # dealt before the first clock check); without one, all at once (the RNG draws the arena reproduces)
    tables: list[Table] | Iterator[Table] | None
    if clock.deadline is None:
        tables = play_tables(observation, worlds, rng)
    else:
        tables = _timed_tables(observation, worlds, rng)
    if tables is None:  # a variant the raw worlds do not model: checked deals
        for _ in range(worlds):
            world = Deal.from_observation(observation, rng)
            weight = _opponent_play_weight(world, seat) if weighted else 1.0
            for card, score in evaluate_world(world, seat, cards).items():
                totals[card] += weight * score
            weight_sum += weight
            used += 1
            if clock.expired():
                break
    else:
        contract = observation.contract
        assert contract is not None
        rules = observation.rules
        plays = _plays_by_role(observation) if weighted else []
        for table in tables:
            weight = table_play_weight(table, int(role), plays, rules.n_tricks) if weighted else 1.0
            for card, score in evaluate_table(table, int(role), cards, rules, contract, deeper).items():
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

    choose_worlds = 24

    @classmethod
    def warm_up(cls, rules: Rules) -> None:
        """The contract prices and card values of :func:`warm_up_tables`, once per process."""
        warm_up_tables(rules)

    def _sim_worlds(self, budget: Budget) -> int:
        # the contract and exchange scale with the worlds budget, relative to the level's default
        default = self.default_budget.worlds or 16
        return max(1, round(self.choose_worlds * (budget.worlds or default) / default))

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
    choose_worlds = 24

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return play_by_pimc(observation, budget.worlds or 16, rng, _Clock(budget.time))


class _Node:
    __slots__ = ("avail", "children", "seen", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.seen = 0  # the mask of the cards in children
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def play_by_ismcts(
    observation: Observation, simulations: int, pool_size: int, rng: random.Random, clock: _Clock,
    exploration: float = 0.7, epsilon: float = 0.1,
) -> Decision:
    """Single-observer ISMCTS from *observation*'s seat; rewards are each player's own score / tricks.

    The tree walk plays on raw masks held in local variables (no table objects): this loop is where the
    level spends its time.  ``epsilon=1`` plays random rollouts (:func:`~mizerka.bots.fastsim.random_rollout`),
    otherwise the playout policy with that much randomness.
    """
    seat = observation.seat
    assert seat is not None
    legal = [int(a.card) for a in observation.legal_actions]  # type: ignore[union-attr]
    n_tricks = observation.rules.n_tricks
    count = max(1, min(pool_size, simulations))
    timed = clock.deadline is not None
    # with a time budget the pool is dealt in batches as the simulations reach them (see below); without one,
    # all at once (the RNG draws the arena reproduces)
    more: Iterator[Table] | None = None
    if timed:
        more = _timed_tables(observation, count, rng)
        tables = None if more is None else list(itertools.islice(more, min(count, TIMED_CHUNK)))
    else:
        tables = play_tables(observation, count, rng)
    if tables is None:
        worlds = [Deal.from_observation(observation, rng)]
        if timed and worlds[0].stock:  # as below, without dealing worlds it would not use (the clock runs)
            return play_by_pimc(observation, count, rng, clock)
        for _ in range(count - 1):
            if timed and clock.expired():
                break
            worlds.append(Deal.from_observation(observation, rng))
        if worlds[0].stock:  # the lean simulator does not cover a stock: fall back to PIMC
            return play_by_pimc(observation, len(worlds), rng, clock)
        tables = [Table.from_deal(w) for w in worlds]
    pool = [(tuple(t.hands), tuple(t.trick), t.leader, t.to_move, tuple(t.won), t.left) for t in tables]
    contract = observation.contract
    assert contract is not None
    quotas = _quotas(observation.rules, contract)
    avoid = contract is Contract.MIZERKA
    trump = -1 if contract.trump is None else int(contract.trump)
    q0, q1, q2 = quotas
    scale = 1.0 / n_tricks
    root = _Node()
    done = 0
    # UCB terms from tables: exploration * sqrt(log(avail)) and 1 / sqrt(visits); simulation i reads entries up
    # to i + 1, so the tables grow with the simulations done (not sized by the budget: a time budget may stop
    # a huge simulations budget early)
    size = min(simulations, 1024) + 2
    explore = [0.0] + [exploration * math.sqrt(math.log(n)) for n in range(1, size)]
    inverse = [0.0] + [1.0 / math.sqrt(n) for n in range(1, size)]
    random_float = rng.random
    uniform = epsilon >= 1.0
    suit_masks = SUIT_MASKS
    nxt = (1, 2, 0)
    n_pool = len(pool)
    for i in range(simulations):
        if i + 2 > size:
            grown = min(2 * size, simulations + 2)
            explore.extend(exploration * math.sqrt(math.log(n)) for n in range(size, grown))
            inverse.extend(1.0 / math.sqrt(n) for n in range(size, grown))
            size = grown
        if i == n_pool and more is not None:  # timed: deal the next batch of the pool
            pool.extend((tuple(t.hands), tuple(t.trick), t.leader, t.to_move, tuple(t.won), t.left)
                        for t in itertools.islice(more, TIMED_CHUNK))
            if len(pool) == n_pool or len(pool) >= count:
                more = None
            n_pool = len(pool)
        h0, t0, leader, mover, w0, left = pool[i % n_pool]
        hands = list(h0)
        trick = list(t0)
        won = list(w0)
        node = root
        path: list[tuple[_Node, int]] = []
        while left:
            mask = hands[mover]
            if trick:
                follow = mask & suit_masks[trick[0] // 13]
                if follow:
                    mask = follow
            children = node.children
            untried = mask & ~node.seen
            if untried:
                if untried & (untried - 1):
                    for _ in range(int(random_float() * untried.bit_count())):
                        untried &= untried - 1
                card = (untried & -untried).bit_length() - 1
                node.seen |= 1 << card
                child = children[card] = _Node()
                for other, c in children.items():
                    if mask >> other & 1:
                        c.avail += 1
                node = child
                expanded = True
            else:
                best_value = -1e9
                card = -1
                for other, c in children.items():
                    if mask >> other & 1:
                        c.avail += 1
                        value = c.total / c.visits + explore[c.avail] * inverse[c.visits]
                        if value > best_value:
                            best_value, card = value, other
                node = children[card]
                expanded = False
            path.append((node, mover))
            # play the card
            hands[mover] ^= 1 << card
            trick.append(card)
            if len(trick) < 3:
                mover = nxt[mover]
            else:
                leader = mover = (leader + winner_of_three(trick[0], trick[1], trick[2], trump)) % 3
                won[leader] += 1
                left -= 1
                trick = []
            if expanded:
                break
        if left:
            if uniform:
                random_rollout(hands, trick, leader, mover, won, left, trump, random_float)
            else:
                playout(Table(hands, trick, leader, mover, won, left, trump, avoid), rng, epsilon)
        if avoid:
            rewards = ((q0 - won[0]) * scale, (q1 - won[1]) * scale, (q2 - won[2]) * scale)
        else:
            rewards = ((won[0] - q0) * scale, (won[1] - q1) * scale, (won[2] - q2) * scale)
        for child, who in path:
            child.visits += 1
            child.total += rewards[who]
        root.visits += 1
        done += 1
        if timed and clock.expired():
            break
    visited = {card: root.children[card] for card in legal if card in root.children}
    best_card = max(legal, key=lambda c: (visited[c].visits if c in visited else -1, -c))
    evaluations = {
        str(CARDS[c]): round(node.total / node.visits * n_tricks, 3) for c, node in visited.items() if node.visits
    }
    return Decision(PLAYS[best_card], {"evaluations": evaluations, "simulations": done, "worlds": len(pool)})


class ISMCTSBot(_SearchBot):
    """Level 4: information-set Monte Carlo tree search over determinized worlds."""

    name = "ismcts"
    badge = "ISMCTS"
    description = "Information-set Monte Carlo tree search with policy playouts on raw masks."
    default_budget = Budget(worlds=16, simulations=3000)
    choose_worlds = 64

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        contract = observation.contract
        left = observation.rules.n_tricks - len(observation.tricks)
        if contract is not None and observation.stock_size == 0 and left <= SOLVE_TRICKS[contract]:
            # the endgame: exact solutions of sampled worlds beat rollouts
            return play_by_pimc(observation, budget.worlds or 16, rng, _Clock(budget.time))
        return play_by_ismcts(observation, budget.simulations or 3000, 3 * (budget.worlds or 16), rng,
                              _Clock(budget.time))
