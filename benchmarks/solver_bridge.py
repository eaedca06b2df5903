"""Bridge deals for the solver's cross-check against DDS (endplay), shared by tests and the benchmark."""

from __future__ import annotations

import random

from mizerka.solver import Position

BRIDGE_SIDES = (0, 1, 0, 1)
"""N, E, S, W as players 0-3: N/S are side 0, E/W side 1."""


def random_bridge_hands(rng: random.Random, cards_each: int = 13) -> tuple[int, ...]:
    """Random N, E, S, W hands of *cards_each* cards (masks)."""
    deck = rng.sample(range(52), 4 * cards_each)
    return tuple(sum(1 << c for c in deck[i * cards_each : (i + 1) * cards_each]) for i in range(4))


def to_pbn(hands: tuple[int, ...]) -> str:
    """PBN deal text ``N:s.h.d.c ...`` of N, E, S, W masks."""
    def hand(mask: int) -> str:
        suits = []
        for suit in (3, 2, 1, 0):
            bits = mask >> (13 * suit) & 0x1FFF
            suits.append("".join("23456789TJQKA"[r] for r in range(12, -1, -1) if bits >> r & 1))
        return ".".join(suits)

    return "N:" + " ".join(hand(h) for h in hands)


def bridge_position(hands: tuple[int, ...], leader: int, trump: int | None) -> Position:
    """Our position of a bridge deal: players N, E, S, W; *leader* 0-3 (West = 3)."""
    return Position(hands, leader, (), trump, False, BRIDGE_SIDES)


def endplay_card_to_int(card: object) -> int:
    """endplay's Card (Denom spades=0 … clubs=3, Rank bit 2 = deuce … 14 = ace) as our card int."""
    suit = 3 - int(card.suit)  # type: ignore[attr-defined]
    rank = int(card.rank).bit_length() - 3  # type: ignore[attr-defined]
    return 13 * suit + rank
