"""Worlds on raw masks: the hidden cards of an observation dealt at random, fast.

:meth:`Deal.from_observation <mizerka.deal.Deal.from_observation>` builds a whole checked
:class:`~mizerka.deal.Deal` (a deck order, the public history replayed on it) and costs close to a
millisecond.  A search bot only needs the *hands*, so for the common cases this module deals the
unknown cards straight into masks, in a few dozen microseconds:

* :func:`play_tables`: in the play phase, one :class:`~mizerka.bots.fastsim.Table` per world.  The
  unknown cards (not in the seat's hand, its own discards or the cards played) go to the two other
  hands, as many as each holds, and to the *dead* pile (the rest of the talon and the others' discards),
  each card to a holder with room that may hold it (no card of a suit the holder has shown it lacks),
  chosen with probability proportional to the room left; a dead end restarts the draw.  Nothing else
  constrains them: every other card of the deal was dealt at random, and a player's draws came from the
  unseen talon.
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

from mizerka.bots.fastsim import Table
from mizerka.cards import ALL_CARDS_MASK, SUIT_MASKS, mask_indices
from mizerka.deal import Observation, Phase
from mizerka.rules import Contract, ExchangeMode

__all__ = ["play_tables", "setup_world", "unseen_mask"]

_RESTARTS = 50


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
    cards = mask_indices(unseen)
    rooms0 = [observation.hand_sizes[order[role]] for role in others]
    dead0 = len(cards) - rooms0[0] - rooms0[1]
    if dead0 < 0:
        raise ValueError("the observation's hands hold more cards than are unseen")
    masks = [allowed[order[role]] for role in others]
    free = [unseen & ~masks[0], unseen & ~masks[1]]
    # cards a holder may not take: without voids a plain shuffle deals the hands
    plain = not (free[0] or free[1])
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
    a, b = others
    n_a, n_b = rooms0
    out: list[Table] = []
    shuffle = rng.shuffle
    rand = rng.random
    for _ in range(count):
        deck = cards[:]
        for _attempt in range(_RESTARTS):
            shuffle(deck)
            if plain:
                ha = 0
                for card in deck[:n_a]:
                    ha |= 1 << card
                hb = 0
                for card in deck[n_a : n_a + n_b]:
                    hb |= 1 << card
                break
            ra, rb, rd = n_a, n_b, dead0
            ha = hb = 0
            ma, mb = masks
            ok = True
            for card in deck:
                bit = 1 << card
                wa = ra if ma & bit else 0
                wb = rb if mb & bit else 0
                total = wa + wb + rd
                if not total:
                    ok = False
                    break
                x = rand() * total
                if x < wa:
                    ha |= bit
                    ra -= 1
                elif x < wa + wb:
                    hb |= bit
                    rb -= 1
                else:
                    rd -= 1
            if ok:
                break
        else:
            raise ValueError("no deal of the unknown cards fits the observation (voids and hand sizes)")
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
