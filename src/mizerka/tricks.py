"""Trick-taking machinery shared by every game the project plays.

These functions work on raw 52-bit masks and card ints so that the rules engine and the search code
can call them in their inner loops.  They know nothing of Mizerka: the follow rule takes a
``must_trump`` flag for Preferans, where a player void in the suit led must ruff if able.

>>> from mizerka.cards import CardSet, Suit, parse_cards
>>> hand = CardSet.from_str("JH 3H AC 2S").mask
>>> print(CardSet(legal_plays(hand, Suit.HEARTS, Suit.CLUBS)))
JH 3H
>>> print(CardSet(legal_plays(CardSet.from_str("AC 2S").mask, Suit.HEARTS, Suit.CLUBS, must_trump=True)))
AC
>>> cards = parse_cards("KS AS 2H")          # led K♠, then A♠, then a trump 2♥
>>> trick_winner_index(cards, Suit.HEARTS)
2
>>> trick_winner_index(cards, None)          # no trumps: the highest spade wins
1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from mizerka._checks import whole_number
from mizerka.cards import SUIT_MASKS, Suit

__all__ = ["IllegalPlay", "legal_plays", "trick_winner_index", "why_illegal", "winner_of_three", "winning_card"]


def legal_plays(hand: int, led_suit: int | None, trump: int | None, *, must_trump: bool = False) -> int:
    """The mask of cards in *hand* that may be played to a trick.

    Args:
        hand: the player's cards as a mask.
        led_suit: the suit led to this trick, or ``None`` if the player leads.
        trump: the trump suit, or ``None`` in no-trump games.
        must_trump: whether a player void in the suit led must play a trump if able (Preferans);
            Mizerka has no such obligation.
    """
    if led_suit is None:
        return hand
    follow = hand & SUIT_MASKS[led_suit]
    if follow:
        return follow
    if must_trump and trump is not None:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


@dataclasses.dataclass(frozen=True, slots=True)
class IllegalPlay:
    """Why a card may not be played to a trick (:func:`why_illegal`'s answer).

    ``code`` is one of:

    * ``"follow"``: the player holds a card of the suit led, ``suit``, and must play one;
    * ``"trump"``: the player is void in the suit led, must trump (Preferans), and holds a trump of ``suit``;
    * ``"not_in_hand"``: the card is not in the hand; ``suit`` is the card's own suit.
    """

    code: Literal["follow", "trump", "not_in_hand"]
    suit: Suit


def why_illegal(
    hand: int, card: int, led_suit: int | None, trump: int | None, *, must_trump: bool = False
) -> IllegalPlay | None:
    """Why *card* may not be played from *hand* to a trick, or ``None`` if it may.

    The arguments are those of :func:`legal_plays`, and *card* (an index 0-51) has no reason exactly when it is in
    :func:`legal_plays`'s mask.

    >>> from mizerka.cards import Card, CardSet, Suit
    >>> hand = CardSet.from_str("JH 3H AC 2S").mask
    >>> why_illegal(hand, Card.from_str("AC"), Suit.HEARTS, Suit.CLUBS)
    IllegalPlay(code='follow', suit=<Suit.HEARTS: 2>)
    >>> print(why_illegal(hand, Card.from_str("JH"), Suit.HEARTS, Suit.CLUBS))
    None
    >>> void = CardSet.from_str("AC 2S").mask       # no heart: a trump (clubs) must be played
    >>> why_illegal(void, Card.from_str("2S"), Suit.HEARTS, Suit.CLUBS, must_trump=True)
    IllegalPlay(code='trump', suit=<Suit.CLUBS: 0>)
    >>> print(why_illegal(void, Card.from_str("2S"), Suit.HEARTS, Suit.CLUBS))   # Mizerka: no must-trump
    None
    >>> why_illegal(void, Card.from_str("KD"), None, None)
    IllegalPlay(code='not_in_hand', suit=<Suit.DIAMONDS: 1>)

    Raises:
        ValueError: for a *card* that is no index 0-51 (a bool is none either).
    """
    index = whole_number(card)
    if index is None or not 0 <= index < 52:
        raise ValueError(f"a card is an index 0-51, not {card!r}")
    bit = 1 << index
    card = index
    if not hand & bit:
        return IllegalPlay("not_in_hand", Suit(card // 13))
    if led_suit is None:
        return None
    follow = hand & SUIT_MASKS[led_suit]
    if follow:
        return None if follow & bit else IllegalPlay("follow", Suit(led_suit))
    if must_trump and trump is not None:
        trumps = hand & SUIT_MASKS[trump]
        if trumps and not trumps & bit:
            return IllegalPlay("trump", Suit(trump))
    return None


def trick_winner_index(cards: Sequence[int], trump: int | None) -> int:
    """The position in *cards* (in order of play) of the card that wins the trick.

    The highest trump wins if any was played, otherwise the highest card of the suit led.
    """
    best = 0
    best_card = cards[0]
    best_suit = best_card // 13
    for i in range(1, len(cards)):
        card = cards[i]
        suit = card // 13
        if suit == best_suit:
            if card > best_card:
                best, best_card = i, card
        elif suit == trump:
            best, best_card, best_suit = i, card, suit
    return best


def winner_of_three(first: int, second: int, third: int, trump: int | None) -> int:
    """:func:`trick_winner_index` of a three-card trick, unrolled: the loops of playouts and search call it once a
    trick, and a fixed-size trick needs no loop.

    >>> from mizerka.cards import parse_cards
    >>> winner_of_three(*parse_cards("KS AS 2H"), trump=None), winner_of_three(*parse_cards("KS AS 2H"), trump=2)
    (1, 2)
    """
    best, index, best_suit = first, 0, first // 13
    suit = second // 13
    if suit == best_suit:
        if second > best:
            best, index = second, 1
    elif suit == trump:
        best, index, best_suit = second, 1, suit
    suit = third // 13
    if (suit == best_suit and third > best) or (suit != best_suit and suit == trump):
        index = 2
    return index


def winning_card(cards: Sequence[int], trump: int | None) -> int:
    """The card that wins (or, mid-trick, is winning) the trick so far: ``cards[trick_winner_index(...)]``.

    >>> from mizerka.cards import CARDS, parse_cards
    >>> CARDS[winning_card(parse_cards("KS AS"), None)]
    Card.from_str('AS')
    """
    return cards[trick_winner_index(cards, trump)]
