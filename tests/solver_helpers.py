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


def random_ending(rng: random.Random) -> tuple[Position, int]:
    """A random short ending and a seat to solve it for: three hands of 1-7 cards in any Mizerka contract, or a
    bridge ending of 1-5 cards a hand (sides N/S against E/W), sometimes under must-trump, maybe mid-trick."""
    n = rng.choice((3, 3, 4))
    cards = rng.randint(1, 7) if n == 3 else rng.randint(1, 5)
    trump, misere = random_contract(rng)
    position = random_position(rng, n, cards, trump=trump, misere=misere,
                               sides=(0, 1, 0, 1) if n == 4 else None, must_trump=rng.random() < 0.15)
    return position, rng.randrange(n)
