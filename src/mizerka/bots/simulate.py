"""Fast simulation inside one sampled world: a quick play policy, playouts, and simulated exchanges.

The search levels play out many complete deals per decision.  Inside one *world* (a deal whose hidden
cards were sampled from what the deciding seat knows) every card is visible, so the quick policy here
may look at all hands: it is a rollout policy, not a player.  It follows the same rules of thumb as the
rules level (cash masters, win cheaply, ruff, duck; in Mizerka duck under the trick and throw away
high cards) in a few mask operations per card.
"""

from __future__ import annotations

import random

from mizerka.bots.heuristics import contract_estimate
from mizerka.cards import SUIT_MASKS, CardSet, mask_indices
from mizerka.deal import CHOICES, Deal, Exchange, Phase
from mizerka.rules import Contract, ExchangeMode
from mizerka.tricks import winning_card

__all__ = ["fast_exchange", "playout", "policy_card", "simulate_deal"]


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def policy_card(deal: Deal, rng: random.Random | None = None, epsilon: float = 0.0) -> int:
    """The quick policy's card for the player to move in *deal* (play phase), seeing every hand."""
    mask = deal.legal_play_mask()
    if mask & (mask - 1) == 0:
        return _lowest(mask)
    if rng is not None and epsilon and rng.random() < epsilon:
        cards = []
        m = mask
        while m:
            low = m & -m
            cards.append(low.bit_length() - 1)
            m ^= low
        return rng.choice(cards)
    hands = deal.hands
    seat = deal.to_move
    hand = hands[seat]
    others = 0
    for s in deal.active_seats:
        if s != seat:
            others |= hands[s]
    trick = deal.trick
    trump = deal.trump
    avoid = deal.contract is Contract.MIZERKA
    if not trick:
        if avoid:
            best, best_key = -1, 99
            for suit in range(4):
                mine = hand & SUIT_MASKS[suit]
                if not mine:
                    continue
                card = _lowest(mine)
                theirs = others & SUIT_MASKS[suit]
                above = (theirs >> card).bit_count()
                below = (theirs & ((1 << card) - 1)).bit_count()
                key = 50 if not above else below - above
                if key < best_key:
                    best, best_key = card, key
            return best
        if trump is not None:
            mine = hand & SUIT_MASKS[trump]
            theirs = others & SUIT_MASKS[trump]
            if mine and theirs and _highest(mine) > _highest(theirs):
                return _highest(mine)
        for suit in range(4):
            mine = hand & SUIT_MASKS[suit]
            if mine and suit != trump and _highest(mine) > _highest(others & SUIT_MASKS[suit] or 1):
                return _highest(mine)
        longest, length = 0, -1
        for suit in range(4):
            n = (hand & SUIT_MASKS[suit]).bit_count()
            if n > length and (suit != trump or n == hand.bit_count()):
                longest, length = suit, n
        return _lowest(hand & SUIT_MASKS[longest])
    led = trick[0] // 13
    best = winning_card(trick, trump)
    last = len(trick) == 2
    follow = mask & SUIT_MASKS[led]
    if avoid:
        if follow:
            under = follow & ((1 << best) - 1)
            if under:
                return _highest(under)
            return _highest(follow) if last else _lowest(follow)
        return max(mask_indices(mask), key=lambda c: (c % 13, -(hand & SUIT_MASKS[c // 13]).bit_count()))
    if follow:
        if best // 13 != led:
            return _lowest(follow)
        winners = follow & ~((2 << best) - 1)
        if not winners:
            return _lowest(follow)
        if last:
            return _lowest(winners)
        top = _highest(winners)
        nxt = deal.next_seat(seat)
        their = hands[nxt] & SUIT_MASKS[led]
        if their:
            return top if top > _highest(their) else _lowest(follow)
        if trump is not None and hands[nxt] & SUIT_MASKS[trump]:
            return _lowest(follow)
        return _lowest(winners)
    if trump is not None:
        trumps = mask & SUIT_MASKS[trump]
        if trumps:
            over = trumps & ~((2 << best) - 1) if best // 13 == trump else trumps
            if over:
                return _lowest(over)
        side = mask & ~SUIT_MASKS[trump]
        if side:
            mask = side
    return min(mask_indices(mask), key=lambda c: (c % 13, (hand & SUIT_MASKS[c // 13]).bit_count()))


def playout(deal: Deal, rng: random.Random | None = None, epsilon: float = 0.0) -> None:
    """Play *deal* (in its play phase) to the end with the quick policy, in place."""
    while deal.phase is Phase.PLAY:
        deal.push_card(policy_card(deal, rng, epsilon))


_CARD_VALUE_CACHE: dict[int, float] = {}


def fast_exchange(hand: int, contract: int, limit: int) -> int:
    """A quick exchange for simulations: the mask of cards to discard.

    Discards, weakest first, each card whose removal costs less than a random card is worth on average
    (in Mizerka: each card more dangerous than an average card).
    """
    if limit <= 0:
        return 0
    average = _CARD_VALUE_CACHE.get(contract)
    if average is None:
        rng = random.Random(7)
        total = 0.0
        for _ in range(400):
            cards = rng.sample(range(52), 13)
            m = 0
            for c in cards:
                m |= 1 << c
            total += contract_estimate(m, contract) / 13
        average = _CARD_VALUE_CACHE[contract] = total / 400
    avoid = contract == 5
    discards = 0
    value = contract_estimate(hand, contract)
    for _ in range(limit):
        best_card, best_delta = -1, 0.0
        for card in mask_indices(hand):
            delta = value - contract_estimate(hand & ~(1 << card), contract)
            key = -delta if avoid else delta
            if best_card < 0 or key < best_delta:
                best_card, best_delta = card, key
        gain = (-best_delta - average) if avoid else (average - best_delta)
        if gain <= 0.02:
            break
        hand &= ~(1 << best_card)
        discards |= 1 << best_card
        value = contract_estimate(hand, contract)
    return discards


def finish_exchanges(deal: Deal) -> None:
    """Let every player still to exchange in *deal* exchange with :func:`fast_exchange`."""
    while deal.phase is Phase.EXCHANGE:
        assert deal.contract is not None
        seat = deal.to_move
        deal.push(Exchange(CardSet(fast_exchange(deal.hands[seat], int(deal.contract), len(deal.talon)))))


def simulate_deal(deal: Deal, seat: int, contract: Contract | None = None, discards: int | None = None) -> int:
    """Play a world to its end (contract, exchanges, play) and return *seat*'s score.

    *contract* is pushed first if the deal waits for the choice; *discards* is *seat*'s own exchange
    if it is due; everything else is decided by :func:`fast_exchange` and the quick play policy.
    """
    if deal.phase is Phase.CHOOSE:
        assert contract is not None
        deal.push(CHOICES[contract])
    if discards is not None and deal.phase is Phase.EXCHANGE and deal.to_move == seat:
        deal.push(Exchange(CardSet(discards)))
    if deal.rules.exchange_mode is ExchangeMode.STANDARD:
        finish_exchanges(deal)
    playout(deal)
    return deal.scores()[seat]
