"""Hand evaluation and card tracking shared by the bots.

All functions work on raw 52-bit masks (bit ``13*suit + rank``).  The two estimates are deliberately
simple, explainable rules of thumb, not search:

* :func:`take_estimate`: the tricks a hand should take in a trump or no-trump contract: honour tricks
  (an honour counts more the fewer higher cards are missing and the more small cards guard it), length
  tricks, and ruffing tricks from short side suits backed by trumps.
* :func:`avoid_estimate`: the tricks a hand risks taking in Mizerka: a card is dangerous when it is high
  and has few own lower cards beneath it in its suit; long suits risk being left with the last cards;
  voids help, because they let a player throw dangerous cards away.

>>> from mizerka.cards import CardSet
>>> strong = CardSet.from_str("S:AKQJ9 H:AK D:AK C:AK32").mask
>>> weak = CardSet.from_str("S:5432 H:432 D:432 C:432").mask
>>> take_estimate(strong, 3) > 10 > 1 > take_estimate(weak, 3)
True
>>> avoid_estimate(weak) < 1 < avoid_estimate(strong)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from mizerka.cards import ALL_CARDS_MASK, SUIT_MASKS, mask_indices

__all__ = [
    "avoid_estimate",
    "bits",
    "card_risk",
    "contract_estimate",
    "holding",
    "take_estimate",
]

_HONOUR_VALUE = (1.0, 0.55, 0.25, 0.1)
"""Chance that an honour with 0, 1, 2, 3 higher cards missing makes a trick (if guarded enough)."""


def holding(mask: int, suit: int) -> int:
    """The 13-bit rank pattern of *suit* in *mask*."""
    return (mask >> (13 * suit)) & 0x1FFF


bits = mask_indices
"""The set bits of *mask*, lowest first (:func:`mizerka.cards.mask_indices`)."""


def _honour_tricks(h: int, length: int, side_in_trump: bool) -> float:
    tricks = 0.0
    missing = 0
    for rank in range(12, 7, -1):  # A K Q J 10
        if h >> rank & 1:
            if missing < 4 and length > missing:
                value = _HONOUR_VALUE[missing]
                if side_in_trump and missing:
                    value *= 0.8
                tricks += value
        else:
            missing += 1
            if missing >= 4:
                break
    return tricks


_SUIT_TERMS: dict[tuple[int, int], tuple[float, float]] = {}


def _suit_term(h: int, kind: int) -> tuple[float, float]:
    """One suit's part of :func:`take_estimate`: (tricks, shortness) of the rank pattern *h*.

    *kind* 0: a suit in no-trump; 1: the trump suit; 2: a side suit in a trump contract.  Cached: a hand is
    valued four suits at a time, and the exchange code values many hands that differ in one card.
    """
    key = (h, kind)
    term = _SUIT_TERMS.get(key)
    if term is None:
        length = h.bit_count()
        shortness = 0.0
        if kind == 0:
            tricks = _honour_tricks(h, length, False)
            if length > 4:
                tricks += 0.5 * (length - 4)
        elif kind == 1:
            tricks = _honour_tricks(h, length, False)
            if length > 3:
                tricks += 0.8 * (length - 3)
        else:
            tricks = _honour_tricks(h, length, True)
            shortness = (1.2, 0.7, 0.25)[length] if length < 3 else 0.0
        term = _SUIT_TERMS[key] = (tricks, shortness)
    return term


def take_estimate(hand: int, trump: int | None) -> float:
    """Tricks *hand* (any number of cards) should take when trumps are *trump* (``None``: no trumps)."""
    total = 0.0
    shortness = 0.0
    for suit in range(4):
        h = (hand >> (13 * suit)) & 0x1FFF
        tricks, short = _suit_term(h, 0 if trump is None else 1 if suit == trump else 2)
        total += tricks
        shortness += short
    if trump is not None:
        trumps = ((hand >> (13 * trump)) & 0x1FFF).bit_count()
        if trumps:
            total += 0.8 * min(shortness, max(0, trumps - 1))
    return total


def card_risk(h: int, rank: int) -> float:
    """How likely the card of *rank* in the rank pattern *h* is to win a trick it would rather lose."""
    below = (h & ((1 << rank) - 1)).bit_count()
    return min(1.0, max(0.0, (rank - 2 * below - 4) / 7))


_SUIT_RISK: dict[int, float] = {}


def _suit_risk(h: int) -> float:
    """One suit's part of :func:`avoid_estimate` (cached by rank pattern)."""
    risk = _SUIT_RISK.get(h)
    if risk is None:
        risk = 0.0
        length = h.bit_count()
        below = 0
        m = h
        while m:
            low = m & -m
            rank = low.bit_length() - 1
            value = (rank - 2 * below - 4) / 7
            if value > 0:
                risk += 1.0 if value > 1 else value
            below += 1
            m ^= low
        if length > 5:
            risk += 0.3 * (length - 5)
        _SUIT_RISK[h] = risk
    return risk


def avoid_estimate(hand: int) -> float:
    """Tricks *hand* risks taking in Mizerka (no trumps, everybody avoiding tricks)."""
    risk = 0.0
    voids = 0
    for suit in range(4):
        h = (hand >> (13 * suit)) & 0x1FFF
        if h:
            risk += _suit_risk(h)
        else:
            voids += 1
    return max(0.0, risk - 0.4 * voids)


def contract_estimate(hand: int, contract: int) -> float:
    """Tricks expected of *hand* in *contract* (0–3 trumps, 4 no-trump, 5 Mizerka: tricks risked)."""
    if contract == 5:
        return avoid_estimate(hand)
    return take_estimate(hand, None if contract == 4 else contract)


def sample_cards(pool: Sequence[int], count: int, rng: random.Random) -> int:
    """A mask of *count* cards drawn at random from *pool*."""
    mask = 0
    for card in rng.sample(pool, count):
        mask |= 1 << card
    return mask


@lru_cache(maxsize=8)
def baseline_estimates(hand_size: int = 13, samples: int = 600) -> tuple[float, ...]:
    """The mean :func:`contract_estimate` of random hands, per contract (a fixed seed: a constant table)."""
    rng = random.Random(20_240_601)
    deck = list(range(52))
    sums = [0.0] * 6
    for _ in range(samples):
        hand = sample_cards(deck, hand_size, rng)
        for contract in range(6):
            sums[contract] += contract_estimate(hand, contract)
    return tuple(s / samples for s in sums)


def unseen_mask(known: int) -> int:
    """Every card not in *known*."""
    return ALL_CARDS_MASK & ~known


def suit_of_mask(mask: int, suit: int) -> int:
    return mask & SUIT_MASKS[suit]
