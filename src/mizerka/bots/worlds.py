"""Worlds on raw masks: the hidden cards of an observation dealt at random, fast.

:meth:`Deal.from_observation <mizerka.deal.Deal.from_observation>` builds a whole checked
:class:`~mizerka.deal.Deal` (a deck order, the public history replayed on it) and costs close to a
millisecond.  A search bot only needs the *hands*, so for the common cases this module deals the
unknown cards straight into masks, in a few dozen microseconds:

* :func:`play_tables`: in the play phase, one :class:`~mizerka.bots.fastsim.Table` per world.  The
  unknown cards (not in the seat's hand, its own discards or the cards played) go to the two other
  hands, as many as each holds, and to the *dead* pile (the rest of the talon and the others' discards),
  never a card of a suit a player has shown it lacks.  Every assignment that fits is equally likely (exact:
  the cards are grouped by who may hold them, the number each hand takes from each group is drawn with
  weights counting the ways, then the cards within the groups).  Nothing else constrains them: every other
  card of the deal was dealt at random, and a player's draws came from the unseen talon.
* :func:`setup_world`: in the contract choice and the exchange, the hands by role and the talon still to
  draw from.  No card has been played and nobody has shown a void, so the unknown cards are simply
  shuffled.

Both refuse (return ``None``) the variants whose extra knowledge they do not model (a turned-up talon
card, players drawing during play); the caller then uses ``Deal.from_observation``.  The worlds are drawn
from what the seat knows and from the RNG only, never from the real deal.

>>> import random
>>> from mizerka import Deal
>>> deal = Deal.random(3, dealer=0)
>>> for text in ("H", "keep", "keep", "keep"):
...     _ = deal.play(text)
>>> observation = deal.observation(deal.to_move)
>>> [table] = play_tables(observation, 1, random.Random(1))
>>> table.hands[0] == deal.hands[deal.active_seats[0]]      # the seat's own hand, as it is
True
>>> sum(h.bit_count() for h in table.hands), table.left
(39, 13)
"""

from __future__ import annotations

import random
from bisect import bisect_right
from math import comb

from mizerka.bots.fastsim import Table
from mizerka.cards import ALL_CARDS_MASK, SUIT_MASKS, mask_indices
from mizerka.deal import Observation, Phase
from mizerka.rules import Contract, ExchangeMode

__all__ = ["play_tables", "setup_world", "unseen_mask"]

def _modelled(observation: Observation) -> bool:
    return (
        observation.seat is not None
        and observation.shown_card is None
        and observation.stock_size == 0
        and observation.rules.exchange_mode is not ExchangeMode.REPLENISH
        and observation.seat in observation.active_seats
    )


def unseen_mask(observation: Observation) -> int:
    """The cards whose place the seat does not know."""
    known = observation.hand.mask | observation.discards.mask | observation.played.mask
    return ALL_CARDS_MASK & ~known


def _allowed(observation: Observation) -> dict[int, int]:
    """Per active seat, the mask of cards it may still hold (none of a suit it has shown it lacks)."""
    allowed = dict.fromkeys(observation.active_seats, ALL_CARDS_MASK)
    order = observation.active_seats
    tricks = [(t.leader, t.cards) for t in observation.tricks]
    if observation.trick:
        tricks.append((observation.trick_leader, observation.trick))
    for leader, cards in tricks:
        led = cards[0] // 13
        start = order.index(leader)
        for i in range(1, len(cards)):
            if cards[i] // 13 != led:
                allowed[order[(start + i) % 3]] &= ~SUIT_MASKS[led]
    return allowed


def play_tables(observation: Observation, count: int, rng: random.Random) -> list[Table] | None:
    """*count* worlds of a play-phase observation as tables indexed by role, or ``None`` if not modelled.

    Raises:
        ValueError: if no assignment of the unknown cards fits the observation (it came from no real deal).
    """
    if observation.phase is not Phase.PLAY or not _modelled(observation):
        return None
    seat = observation.seat
    assert seat is not None
    order = observation.active_seats
    me = order.index(seat)
    others = [role for role in range(3) if role != me]
    allowed = _allowed(observation)
    unseen = unseen_mask(observation)
    rooms0 = [observation.hand_sizes[order[role]] for role in others]
    if unseen.bit_count() < rooms0[0] + rooms0[1]:
        raise ValueError("the observation's hands hold more cards than are unseen")
    ma, mb = (allowed[order[role]] for role in others)
    a, b = others
    n_a, n_b = rooms0
    # the unknown cards by who may hold them: both others, only one of them, or only the dead pile; every
    # assignment that fits is equally likely, so first the number each hand takes from each group is drawn
    # (weighted by the number of ways), then the cards within the groups
    both = mask_indices(unseen & ma & mb)
    only_a = mask_indices(unseen & ma & ~mb)
    only_b = mask_indices(unseen & mb & ~ma)
    splits: list[tuple[int, int, int, int]] = []
    weights: list[float] = []
    total = 0
    for a2 in range(min(len(only_a), n_a) + 1):
        a1 = n_a - a2
        if a1 > len(both):
            continue
        for b2 in range(min(len(only_b), n_b) + 1):
            b1 = n_b - b2
            if a1 + b1 > len(both):
                continue
            ways = comb(len(both), a1) * comb(len(both) - a1, b1) * comb(len(only_a), a2) * comb(len(only_b), b2)
            total += ways
            splits.append((a1, a2, b1, b2))
            weights.append(float(total))
    if not splits:
        raise ValueError("no deal of the unknown cards fits the observation (voids and hand sizes)")
    contract = observation.contract
    assert contract is not None
    trump = -1 if contract.trump is None else int(contract.trump)
    avoid = contract is Contract.MIZERKA
    trick = [int(c) for c in observation.trick]
    leader = order.index(observation.trick_leader)
    to_move = order.index(observation.to_move)
    won = [observation.tricks_won[s] for s in order]
    left = observation.rules.n_tricks - len(observation.tricks)
    hand = observation.hand.mask
    out: list[Table] = []
    shuffle = rng.shuffle
    last = weights[-1]
    for _ in range(count):
        a1, a2, b1, b2 = splits[bisect_right(weights, rng.random() * last)] if len(splits) > 1 else splits[0]
        shuffle(both)
        ha = hb = 0
        for card in both[:a1]:
            ha |= 1 << card
        for card in both[a1 : a1 + b1]:
            hb |= 1 << card
        if a2:
            shuffle(only_a)
            for card in only_a[:a2]:
                ha |= 1 << card
        if b2:
            shuffle(only_b)
            for card in only_b[:b2]:
                hb |= 1 << card
        hands = [0, 0, 0]
        hands[me] = hand
        hands[a] = ha
        hands[b] = hb
        out.append(Table(hands, trick[:], leader, to_move, won[:], left, trump, avoid))
    return out


def setup_world(observation: Observation, rng: random.Random) -> tuple[list[int], list[int]] | None:
    """One world of a contract-choice or exchange observation: hands by role and the talon (top last).

    In the contract choice the hands are complete (the rest of the deal dealt); in the exchange the hands
    are as they are now, those who exchanged already holding their draws, and the talon is what is left
    of it.  ``None`` where the variant's extra knowledge is not modelled.
    """
    if observation.phase not in (Phase.CHOOSE, Phase.EXCHANGE) or not _modelled(observation):
        return None
    seat = observation.seat
    assert seat is not None
    order = observation.active_seats
    me = order.index(seat)
    unseen = ALL_CARDS_MASK & ~(observation.hand.mask | observation.discards.mask)
    deck = mask_indices(unseen)
    rng.shuffle(deck)
    n = observation.rules.n_tricks
    hands = [0, 0, 0]
    pos = 0
    for role in range(3):
        if role == me:
            need = n - observation.hand.mask.bit_count()
            hand = observation.hand.mask
        else:
            need = n if observation.phase is Phase.CHOOSE else observation.hand_sizes[order[role]]
            hand = 0
        for card in deck[pos : pos + need]:
            hand |= 1 << card
        pos += need
        hands[role] = hand
    size = n if observation.phase is Phase.CHOOSE else observation.talon_size
    talon = deck[pos : pos + size]
    return hands, talon
