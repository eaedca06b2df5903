"""Random positions for the solver tests and benchmark (seeded, never global randomness)."""

from __future__ import annotations

import random

from mizerka.solver import Position


def random_position(
    rng: random.Random,
    n_players: int,
    cards_each: int,
    *,
    trump: int | None = None,
    misere: bool = False,
    sides: tuple[int, ...] | None = None,
    must_trump: bool = False,
    mid_trick: bool = True,
) -> Position:
    """Deal *cards_each* random cards to each player, pick a leader, maybe play part of a trick."""
    deck = rng.sample(range(52), n_players * cards_each)
    hands = tuple(sum(1 << c for c in deck[i * cards_each : (i + 1) * cards_each]) for i in range(n_players))
    position = Position(hands, rng.randrange(n_players), (), trump, misere, sides, must_trump)
    if mid_trick and cards_each > 1:
        for _ in range(rng.randrange(n_players)):
            position = position.play(rng.choice(position.legal_cards()))
    return position


def random_contract(rng: random.Random) -> tuple[int | None, bool]:
    """(trump, misere) of a random Mizerka contract: 4 suits, no-trump or Mizerka."""
    choice = rng.randrange(6)
    return (choice, False) if choice < 4 else (None, choice == 5)
