"""Level 2, Rules: sound heuristics for every contract, no search.

* **Contract.**  Forehand estimates, for each contract still open, the tricks its six cards will make
  once the hand is complete (the missing seven cards are drawn at random a few times and the full hand
  is valued with :mod:`mizerka.bots.heuristics`), turns that into the expected score against the
  forehand quota, and picks the contract whose expected score beats that contract's average (over random
  hands) by the most: each contract must be played once, so a hand is spent where it is unusually good.
* **Exchange.**  Cards are ranked by what they add to the hand (in Mizerka: by the danger they bring) and
  the bot discards the *k* weakest, with *k* chosen by comparing the hand's value after *k* random draws
  from the unseen cards, for every *k* up to the limit.  In a trump contract this sheds short side suits
  (voids for ruffing) and keeps trump length; in Mizerka it sheds high, unguarded cards.
* **Play.**  It tracks the cards played, its own discards and the voids each player has shown (where players
  draw from a stock during play, only a void shown after the player's last draw), and knows who holds a
  turned-up talon card (the first player who exchanged anything drew it): :func:`binding_voids` and
  :func:`shown_card_holder`, re-exported from :mod:`mizerka.sampling`, which places hidden cards by the
  same reading.  In an
  ordinary contract: cash a card that surely wins, draw trumps with a master trump, win a trick cheaply
  (lowest sure winner, or lowest winner when last), ruff or over-ruff when void, otherwise duck low
  and discard from short, weak suits.  In Mizerka: lead the card most likely to be beaten, duck under
  the trick with the highest card that stays below it, and throw away the most dangerous card when void.

Every score in Mizerka is linear in tricks (one point per trick above or below the quota), so the quota
shifts the score but never changes which card is best; the bot's aim is simply the most tricks in an
ordinary contract and the fewest in Mizerka.
"""

from __future__ import annotations

import random

from mizerka.bots.base import Bot, Budget, Decision, exchange_limit
from mizerka.bots.heuristics import (
    baseline_estimates,
    bits,
    card_risk,
    contract_estimate,
    holding,
    sample_cards,
)
from mizerka.cards import ALL_CARDS_MASK, CARDS, SUIT_MASKS, CardSet
from mizerka.deal import PLAYS, Action, Choose, Exchange, Observation
from mizerka.rules import Contract, ExchangeMode, Rules
from mizerka.sampling import binding_voids, shown_card_holder

__all__ = [
    "RulesBot",
    "binding_voids",
    "choose_by_rules",
    "exchange_by_rules",
    "play_by_rules",
    "shown_card_holder",
]

COMPLETIONS = 24
"""Random completions used to value a partial hand (contract choice) or the draws (exchange)."""


def _unseen(observation: Observation) -> int:
    """The cards whose place the seat does not know (a turned-up talon card counts as known: see
    :func:`shown_card_holder` for where it is)."""
    known = observation.hand.mask | observation.discards.mask | observation.played.mask
    if observation.shown_card is not None:
        known |= 1 << observation.shown_card
    return ALL_CARDS_MASK & ~known


def _expected_score(observation: Observation, contract: Contract, tricks: float) -> float:
    role = observation.role
    assert role is not None
    quota = observation.rules.quota(role, contract)
    return quota - tricks if contract is Contract.MIZERKA else tricks - quota


def choose_by_rules(observation: Observation, rng: random.Random, completions: int = COMPLETIONS) -> Decision:
    """The rules level's contract choice (see the module text).  Evaluations: expected score per contract."""
    hand = observation.hand.mask
    pool = bits(_unseen(observation))
    missing = max(0, 13 - hand.bit_count())
    fills = [sample_cards(pool, missing, rng) for _ in range(completions)] if missing else [0]
    baseline = baseline_estimates()
    best: tuple[float, int] | None = None
    evaluations: dict[str, float] = {}
    for action in observation.legal_actions:
        assert isinstance(action, Choose)
        contract = action.contract
        tricks = sum(contract_estimate(hand | fill, contract) for fill in fills) / len(fills)
        score = _expected_score(observation, contract, tricks)
        evaluations[str(contract)] = round(score, 3)
        advantage = score - _expected_score(observation, contract, baseline[contract])
        if best is None or advantage > best[0]:
            best = (advantage, contract)
    assert best is not None
    return Decision(Choose(Contract(best[1])), {"evaluations": evaluations})


def discard_order(hand: int, contract: int) -> list[int]:
    """The cards of *hand* in the order the rules level would discard them (weakest / most dangerous first)."""
    order = []
    avoid = contract == 5
    while hand:
        value = contract_estimate(hand, contract)
        best_card = -1
        best_key = 0.0
        for card in bits(hand):
            loss = value - contract_estimate(hand & ~(1 << card), contract)
            key = -loss if avoid else loss
            if best_card < 0 or key < best_key or (key == best_key and (card % 13) < (best_card % 13)):
                best_card, best_key = card, key
        order.append(best_card)
        hand &= ~(1 << best_card)
    return order


def exchange_by_rules(observation: Observation, rng: random.Random, completions: int = COMPLETIONS) -> Decision:
    """The rules level's exchange.  Evaluations: expected score for discarding the *k* weakest cards."""
    assert observation.contract is not None
    contract = int(observation.contract)
    hand = observation.hand.mask
    limit = exchange_limit(observation)
    order = discard_order(hand, contract)[:limit]
    pool = bits(_unseen(observation))
    # a turned-up talon card nobody has drawn yet is the talon's top card: this seat's first draw
    shown = observation.shown_card
    first_draw = 0
    if (
        shown is not None and observation.rules.exchange_mode is ExchangeMode.STANDARD
        and not any(observation.exchange_counts[s] for s in observation.active_seats)
    ):
        first_draw = 1 << shown
    best = (float("-inf"), 0)
    evaluations: dict[str, float] = {}
    discards = 0
    for k in range(limit + 1):
        if k:
            discards |= 1 << order[k - 1]
        kept = hand & ~discards
        unknown = k - 1 if k and first_draw else k  # the draws not known in advance
        if unknown:
            tricks = sum(
                contract_estimate(kept | first_draw | sample_cards(pool, unknown, rng), contract)
                for _ in range(completions)
            )
            tricks /= completions
        else:
            tricks = contract_estimate(kept | first_draw if k else kept, contract)
        score = _expected_score(observation, Contract(contract), tricks)
        evaluations[str(Exchange(CardSet(discards)))] = round(score, 3)
        if score > best[0] + 1e-9:
            best = (score, k)
    chosen = CardSet(order[: best[1]])
    return Decision(Exchange(chosen), {"evaluations": evaluations})


class _Table:
    """What the seat knows during play, as masks.

    ``unseen`` holds every card another seat may hold: a turned-up talon card in another player's hand
    (:func:`shown_card_holder`) included, which only that player may hold (:meth:`may_hold`).
    """

    def __init__(self, observation: Observation) -> None:
        self.obs = observation
        self.seat = observation.seat
        self.hand = observation.hand.mask
        self.unseen = _unseen(observation)
        holder = shown_card_holder(observation)
        self.shown_holder = holder if holder != self.seat else None  # this seat's own is in its hand
        self.shown_bit = 0
        if self.shown_holder is not None and observation.shown_card is not None:
            self.shown_bit = 1 << observation.shown_card
            self.unseen |= self.shown_bit
        self.trump = observation.contract.trump if observation.contract is not None else None
        self.voids = binding_voids(observation)
        self.trick = [int(c) for c in observation.trick]
        seats = observation.active_seats
        start = seats.index(observation.trick_leader)
        order = [seats[(start + i) % 3] for i in range(3)]
        self.after = order[len(self.trick) + 1 :]
        self.opponents = [s for s in seats if s != self.seat]

    def unseen_for(self, seat: int) -> int:
        """The unseen cards *seat* may hold: all but a turned-up card known to be in another hand."""
        return self.unseen if seat == self.shown_holder else self.unseen & ~self.shown_bit

    def may_hold(self, seat: int, suit: int) -> bool:
        return not any(int(v) == suit for v in self.voids.get(seat, ())) and bool(
            self.unseen_for(seat) & SUIT_MASKS[suit]
        )

    def winner_card(self) -> int:
        best = self.trick[0]
        for card in self.trick[1:]:
            if card // 13 == best // 13:
                if card > best:
                    best = card
            elif self.trump is not None and card // 13 == self.trump:
                best = card
        return best

    def unseen_above(self, card: int, seat: int | None = None) -> int:
        """The unseen cards of *card*'s suit above it (that *seat* may hold, if given)."""
        unseen = self.unseen if seat is None else self.unseen_for(seat)
        return unseen & SUIT_MASKS[card // 13] & ~((2 << card) - 1)

    def unseen_below(self, card: int) -> int:
        return self.unseen & SUIT_MASKS[card // 13] & ((1 << card) - 1)

    def sure_to_win(self, card: int, players: list[int]) -> bool:
        """Whether *card*, now winning the trick, still wins after *players* have played."""
        suit = card // 13
        led = self.trick[0] // 13 if self.trick else suit
        for seat in players:
            if self.may_hold(seat, led):
                if suit == led and self.unseen_above(card, seat):
                    return False
                continue
            if self.trump is None or not self.may_hold(seat, self.trump):
                continue
            if suit != self.trump or self.unseen_above(card, seat):
                return False  # the player may ruff, or over-ruff
        return True


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _play_take(t: _Table) -> tuple[int, str]:
    hand = t.hand
    trump = t.trump
    if not t.trick:
        if trump is not None and hand & SUIT_MASKS[trump]:
            top = _highest(hand & SUIT_MASKS[trump])
            if not t.unseen_above(top) and any(t.may_hold(s, trump) for s in t.opponents):
                return top, "draw trumps with a master trump"
        for suit in range(4):
            if suit == trump or not hand & SUIT_MASKS[suit]:
                continue
            top = _highest(hand & SUIT_MASKS[suit])
            if not t.unseen_above(top) and t.sure_to_win(top, t.opponents):
                return top, "cash a sure winner"
        if trump is not None and hand & SUIT_MASKS[trump]:
            for suit in range(4):
                suit_cards = hand & SUIT_MASKS[suit]
                if suit != trump and suit_cards and suit_cards.bit_count() == 1 and not suit_cards & (
                    0b111 << (13 * suit + 10)
                ):
                    return _lowest(suit_cards), "lead a singleton to ruff later"
        best_suit = -1
        best_key = (-1, -1)
        for suit in range(4):
            suit_cards = hand & SUIT_MASKS[suit]
            if not suit_cards or (suit == trump and suit_cards != hand):
                continue
            key = (suit_cards.bit_count(), -int(bool(holding(hand, suit) & (1 << 11))))
            if key > best_key:
                best_suit, best_key = suit, key
        if best_suit < 0:
            best_suit = trump if trump is not None else _lowest(hand) // 13
        return _lowest(hand & SUIT_MASKS[best_suit]), "lead low from length"
    led = t.trick[0] // 13
    winner = t.winner_card()
    follow = hand & SUIT_MASKS[led]
    if follow:
        if winner // 13 != led:
            return _lowest(follow), "the trick is ruffed: play low"
        winning = follow & ~((2 << winner) - 1)
        if winning:
            if not t.after:
                return _lowest(winning), "win as cheaply as possible"
            for card in bits(winning):
                if t.sure_to_win(card, t.after):
                    return card, "win with the lowest sure winner"
        return _lowest(follow), "duck low"
    trumps = hand & SUIT_MASKS[trump] if trump is not None else 0
    if trumps:
        if winner // 13 == trump:
            over = trumps & ~((2 << winner) - 1)
            if over:
                return _lowest(over), "over-ruff"
        else:
            for card in bits(trumps):
                if t.sure_to_win(card, t.after):
                    return card, "ruff"
            return _lowest(trumps), "ruff low"
    side = hand & ~(SUIT_MASKS[trump] if trump is not None else 0) or hand
    best_card = -1
    lowest_key: tuple[int, int] = (99, 99)
    for card in bits(side):
        key = (card % 13, (side & SUIT_MASKS[card // 13]).bit_count())
        if not t.unseen_above(card):
            key = (13 + card % 13, key[1])
        if key < lowest_key:
            best_card, lowest_key = card, key
    return best_card, "discard a small card"


def _play_avoid(t: _Table) -> tuple[int, str]:
    hand = t.hand
    if not t.trick:
        best_card = -1
        best_danger = 2.0
        for suit in range(4):
            suit_cards = hand & SUIT_MASKS[suit]
            if not suit_cards:
                continue
            card = _lowest(suit_cards)
            followers = [s for s in t.opponents if t.may_hold(s, suit)]
            above = t.unseen_above(card).bit_count()
            below = t.unseen_below(card).bit_count()
            danger = 1.0 if not followers or not above else (below + 0.5) / (below + above + 1.0)
            danger += 0.02 * (suit_cards.bit_count() > 4)
            if danger < best_danger:
                best_card, best_danger = card, danger
        return best_card, "lead the card most likely to be beaten"
    led = t.trick[0] // 13
    winner = t.winner_card()
    follow = hand & SUIT_MASKS[led]
    if follow:
        under = follow & ((1 << winner) - 1)
        if under:
            return _highest(under), "duck under the trick with the highest card that stays below"
        if not t.after or not any(t.may_hold(s, led) for s in t.after):
            return _highest(follow), "the trick is ours anyway: shed the highest"
        return _lowest(follow), "play low and hope to be overtaken"
    best_card = -1
    best_key = (-1.0, -1)
    for card in bits(hand):
        h = holding(hand, card // 13)
        key = (card_risk(h, card % 13), card % 13)
        if key > best_key:
            best_card, best_key = card, key
    return best_card, "throw away the most dangerous card"


def play_by_rules(observation: Observation) -> Decision:
    """The rules level's card play (see the module text)."""
    table = _Table(observation)
    if observation.contract is Contract.MIZERKA:
        card, reason = _play_avoid(table)
    else:
        card, reason = _play_take(table)
    action: Action = PLAYS[card]
    if action not in observation.legal_actions:  # a safety net: never return an illegal card
        action = min(observation.legal_actions, key=lambda a: a.code % 13)
        reason = "lowest legal card"
    return Decision(action, {"reason": reason, "card": str(CARDS[card])})


class RulesBot(Bot):
    """Rules of thumb for the contract, the exchange and the play; no search (see the module text)."""

    name = "rules"
    badge = "Rules"
    description = "Counts tricks, builds voids, tracks cards and voids; no search."
    default_budget = Budget()

    @classmethod
    def warm_up(cls, rules: Rules) -> None:
        """The mean estimates of random hands the contract choice compares with (:func:`baseline_estimates`)."""
        baseline_estimates()

    def choose(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return choose_by_rules(observation, rng)

    def exchange(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return exchange_by_rules(observation, rng)

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return play_by_rules(observation)
