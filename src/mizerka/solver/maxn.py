"""Max^n: each player for himself, for endings of at most :data:`MAXN_MAX_CARDS` cards per hand.

In max^n every player picks the card that is best *for himself*: most own tricks in a trump or
no-trump contract, fewest in Mizerka.  The value is a vector (one trick count per player) and only
shallow pruning applies, so this pure-Python search is kept to small endings.

**Tie-breaking rule.**  When two cards give the mover the same own value, he picks the one that
leaves the *fewest tricks to the next player in turn* in ordinary contracts and the *most* in Mizerka
(hurt the player after you); if still tied, the lowest card (lowest index: clubs 2 first).  Equivalent
cards always give the same vector.  The rule is deterministic, so results are reproducible.

>>> from mizerka.solver.position import Position
>>> p = Position.from_text("NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4")
>>> solve_maxn(p)
(2, 0, 1)
"""

from __future__ import annotations

from typing import Final

from mizerka.cards import SUIT_MASKS
from mizerka.solver.position import HandSizeError, Position

__all__ = ["MAXN_MAX_CARDS", "solve_maxn"]

MAXN_MAX_CARDS: Final = 6
"""The largest hand (cards per player) :func:`solve_maxn` accepts."""


def solve_maxn(position: Position) -> tuple[int, ...]:
    """Tricks each player takes from here to the end under max^n play (see the module docstring).

    The vector is indexed by player (the order of ``position.hands``); the trick in progress counts.
    ``position.sides`` is ignored: max^n is each for himself.

    Raises:
        HandSizeError: if a hand holds more than :data:`MAXN_MAX_CARDS` cards.
    """
    largest = max(h.bit_count() for h in position.hands)
    if largest > MAXN_MAX_CARDS:
        raise HandSizeError(f"max^n solves endings of at most {MAXN_MAX_CARDS} cards per hand, got {largest}")
    n = position.n_players
    trump = position.trump
    avoid = position.misere
    memo: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
    hands = list(position.hands)

    def legal(hand: int, trick: list[int]) -> int:
        if not trick:
            return hand
        follow = hand & SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
        if position.must_trump and trump is not None and hand & SUIT_MASKS[trump]:
            return hand & SUIT_MASKS[trump]
        return hand

    def winner(leader: int, trick: list[int]) -> int:
        best = 0
        for i in range(1, n):
            card, top = trick[i], trick[best]
            if (card // 13 == top // 13 and card > top) or (card // 13 == trump != top // 13):
                best = i
        return (leader + best) % n

    def rec(leader: int, trick: list[int]) -> tuple[int, ...]:
        if not trick:
            key = (tuple(hands), leader)
            cached = memo.get(key)
            if cached is not None:
                return cached
        player = (leader + len(trick)) % n
        if not hands[player]:
            return (0,) * n
        after = (player + 1) % n
        best: tuple[int, ...] | None = None
        best_rank: tuple[int, int] | None = None
        mask = legal(hands[player], trick)
        while mask:
            low = mask & -mask
            mask ^= low
            card = low.bit_length() - 1
            hands[player] ^= low
            played = [*trick, card]
            if len(played) == n:
                w = winner(leader, played)
                rest = rec(w, [])
                value = tuple(v + (1 if p == w else 0) for p, v in enumerate(rest))
            else:
                value = rec(leader, played)
            hands[player] ^= low
            own, nxt = value[player], value[after]
            rank = (-own, nxt) if avoid else (own, -nxt)
            if best_rank is None or rank > best_rank:  # strict: the lowest card wins remaining ties
                best, best_rank = value, rank
        assert best is not None
        if not trick:
            memo[(tuple(hands), leader)] = best
        return best

    return rec(position.leader, list(position.trick))
