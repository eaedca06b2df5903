"""Cards, suits, ranks and card sets (issue 2 §2): a ``CardSet`` equals and hashes like the equal frozenset of card
ints, and never equals a set of non-cards; ``mask_indices`` refuses a negative mask (it looped for ever)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mizerka.cards import (
    ALL_CARDS_MASK,
    CARDS,
    DECK_32,
    DECK_52,
    SUIT_MASKS,
    Card,
    CardParseError,
    CardSet,
    Rank,
    Suit,
    mask_indices,
    parse_cards,
)
from mizerka.rules import Contract

masks = st.integers(min_value=0, max_value=ALL_CARDS_MASK)


def test_card_numbering_is_suit_times_13_plus_rank() -> None:
    assert int(Card.from_str("2C")) == 0
    assert int(Card.from_str("AC")) == 12
    assert int(Card.from_str("2D")) == 13
    assert int(Card.from_str("JD")) == 22
    assert int(Card.from_str("AS")) == 51
    for i, card in enumerate(CARDS):
        assert card == i
        assert card.suit == i // 13 and card.rank == i % 13
        assert Card.make(card.rank, card.suit) is card
        assert card.mask == 1 << i


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS", "AS"), ("as", "AS"), ("sA", "AS"), ("A♠", "AS"), ("a♤", "AS"),
        ("10H", "TH"), ("10♥", "TH"), ("t♥", "TH"), ("Th", "TH"), ("♥10", "TH"), ("10♡", "TH"),
        ("9c", "9C"), ("2♣", "2C"), ("QD", "QD"), ("q♦", "QD"), ("K♢", "KD"), (" 7s ", "7S"), ("J♠\ufe0f", "JS"),
    ],
)
def test_card_parses_letters_symbols_any_case(text: str, expected: str) -> None:
    assert str(Card.from_str(text)) == expected


def test_card_text_forms() -> None:
    ten = Card.from_str("TH")
    assert str(ten) == "TH"
    assert ten.unicode() == "10♥"
    assert Card.from_str("AS").unicode() == "A♠"
    assert Card.from_str("2C").unicode() == "2♣"
    for card in CARDS:
        assert Card.from_str(str(card)) is card
        assert Card.from_str(card.unicode()) is card
        assert eval(repr(card)) == card  # repr pastes back into Python


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "ZS", "AX", "ASS", "A S", "10", "♠", "AS KS"])
def test_bad_card_text_raises_quoting_input(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.from_str(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_card_index_out_of_range(index: int) -> None:
    with pytest.raises(CardParseError, match=str(index)):
        Card(index)


def test_suit_and_rank() -> None:
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert Suit.from_str("h") is Suit.HEARTS
    assert Suit.from_str("♠") is Suit.SPADES
    assert Suit.from_str("Diamonds") is Suit.DIAMONDS
    assert Suit.HEARTS.is_red and not Suit.SPADES.is_red
    assert Rank.from_str("10") is Rank.TEN
    assert Rank.from_str("t") is Rank.TEN
    assert Rank.from_str("a") is Rank.ACE
    assert Rank.TEN.label == "10" and Rank.TEN.letter == "T"
    assert max(Rank) is Rank.ACE and min(Rank) is Rank.TWO
    with pytest.raises(CardParseError, match="'X'"):
        Suit.from_str("X")
    with pytest.raises(CardParseError, match="'1'"):
        Rank.from_str("1")


def test_suit_masks() -> None:
    assert sum(SUIT_MASKS) == ALL_CARDS_MASK
    for suit in Suit:
        assert CardSet.suit(suit) == {c for c in CARDS if c.suit == suit}
        assert CardSet(SUIT_MASKS[suit]) == CardSet.suit(suit)


def test_parse_cards_keeps_order_and_duplicates() -> None:
    assert [str(c) for c in parse_cards("AS, 10h 2♣ AS")] == ["AS", "TH", "2C", "AS"]
    assert parse_cards("") == []
    with pytest.raises(CardParseError, match=r"'XX'.*'AS XX'"):
        parse_cards("AS XX")


def test_cardset_text() -> None:
    hand = CardSet.from_str("AS KH TD 9C")
    assert str(hand) == "AS KH TD 9C"
    assert hand.unicode() == "A♠ K♥ 10♦ 9♣"
    assert CardSet.from_str("A♠ 10♥") == CardSet.from_str("as th")
    assert CardSet.from_str("A♠ K♥ 10♦ 9♣") == hand
    assert hand.grouped() == "S:A H:K D:T C:9"
    assert hand.grouped(unicode=True) == "♠:A ♥:K ♦:10 ♣:9"
    assert str(CardSet()) == ""
    assert repr(CardSet()) == "CardSet()"


def test_grouped_hand_round_trips() -> None:
    text = "S:AKQ H:T92 D:- C:32"
    hand = CardSet.from_str(text)
    assert len(hand) == 8
    assert hand.grouped() == text
    assert CardSet.from_str("s:aKq h:10 9 2".replace(" 9 2", "92")) == CardSet.from_str("S:AKQ H:T92")
    assert CardSet.from_str("♠:AKQ ♥:1092 ♣:32") == hand
    assert CardSet.from_str(hand.grouped(unicode=True)) == hand
    assert CardSet.from_str("S:- H:- D:- C:-") == CardSet()


@given(masks)
def test_cardset_text_round_trips(mask: int) -> None:
    cards = CardSet(mask)
    assert CardSet.from_str(str(cards)) == cards
    assert CardSet.from_str(cards.unicode()) == cards
    assert CardSet.from_str(cards.grouped()) == cards
    assert CardSet.from_str(cards.grouped(unicode=True)) == cards
    assert eval(repr(cards)) == cards


@pytest.mark.parametrize(
    "text",
    ["AS AS", "S:AKA", "S:AK S:Q", "X:AK", "S:AKX", "SAK", "AS ZZ", "S:AK H:1"],
)
def test_bad_cardset_text_raises_quoting_input(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        CardSet.from_str(text)
    assert repr(text) in str(info.value)


def test_cardset_bad_constructor_input() -> None:
    with pytest.raises(CardParseError):
        CardSet(1 << 52)
    with pytest.raises(CardParseError):
        CardSet(-1)
    with pytest.raises(CardParseError):
        CardSet([0, 52])


@given(masks, masks)
def test_cardset_matches_frozenset(a_mask: int, b_mask: int) -> None:
    a, b = CardSet(a_mask), CardSet(b_mask)
    fa, fb = frozenset(a), frozenset(b)
    assert len(a) == len(fa) == a_mask.bit_count()
    assert frozenset(a | b) == fa | fb
    assert frozenset(a & b) == fa & fb
    assert frozenset(a - b) == fa - fb
    assert frozenset(a ^ b) == fa ^ fb
    assert (a <= b) == (fa <= fb)
    assert (a < b) == (fa < fb)
    assert (a >= b) == (fa >= fb)
    assert (a > b) == (fa > fb)
    assert (a == b) == (fa == fb)
    assert a.isdisjoint(b) == fa.isdisjoint(fb)
    assert frozenset(a.union(b)) == fa.union(fb)
    assert frozenset(a.intersection(b)) == fa.intersection(fb)
    assert frozenset(a.difference(b)) == fa.difference(fb)
    assert frozenset(a.symmetric_difference(b)) == fa.symmetric_difference(fb)
    assert a.issubset(b) == fa.issubset(fb)
    assert a.issuperset(b) == fa.issuperset(fb)
    assert int(a) == a_mask == a.mask
    assert bool(a) == bool(fa)
    assert list(a) == sorted(fa)
    assert list(reversed(a)) == sorted(fa, reverse=True)
    assert frozenset(~a) == frozenset(CARDS) - fa
    for card in CARDS:
        assert (card in a) == (card in fa)


def test_cardset_mixes_with_builtin_sets() -> None:
    a = CardSet.from_str("AS KS 2C")
    assert a == {51, 50, 0}
    assert a | {1} == CardSet([0, 1, 50, 51])
    assert {1} | a == CardSet([0, 1, 50, 51])
    assert {0, 1} - a == CardSet([1])
    assert a & [0, 5] == CardSet([0])
    assert hash(a) == hash(CardSet([0, 50, 51]))
    assert len({a, CardSet([0, 50, 51])}) == 1
    assert "AS" not in a  # only cards are members
    assert 52 not in a and -1 not in a


def test_cardset_is_immutable() -> None:
    a = CardSet.from_str("AS")
    with pytest.raises(AttributeError):
        a.mask = 0  # type: ignore[misc]
    assert a.copy() == a


def test_cardset_helpers() -> None:
    hand = CardSet.from_str("S:AKQ H:T92 D:- C:32")
    assert hand.of_suit(Suit.HEARTS) == CardSet.from_str("TH 9H 2H")
    assert hand.highest() == Card.from_str("AS")
    assert hand.lowest() == Card.from_str("2C")
    assert [str(c) for c in hand.cards()] == ["AS", "KS", "QS", "TH", "9H", "2H", "3C", "2C"]
    with pytest.raises(ValueError, match="empty"):
        CardSet().highest()
    with pytest.raises(ValueError, match="empty"):
        CardSet().lowest()
    assert len(DECK_52) == 52 and CardSet.full() == DECK_52
    assert len(DECK_32) == 32
    assert all(c.rank >= Rank.SEVEN for c in DECK_32)


@pytest.mark.parametrize("value", ["AS", 1.5, None])
def test_card_and_cardset_reject_other_types(value: object) -> None:
    with pytest.raises(CardParseError, match="invalid card"):
        Card(value)  # type: ignore[arg-type]
    with pytest.raises(CardParseError, match="invalid card"):
        CardSet([value])  # type: ignore[list-item]
    with pytest.raises(CardParseError, match="from_str"):
        CardSet("AS")


@pytest.mark.parametrize("parse", [Card.from_str, CardSet.from_str, Suit.from_str, Rank.from_str, Contract.from_str])
def test_a_huge_bad_text_is_quoted_cut_short(parse: object) -> None:
    """A line of a megabyte piped into the line game used to come back in every message that quoted it (four times
    over, some 4 MB); the message now quotes its first 40 characters and says how long it was."""
    with pytest.raises(ValueError) as error:
        parse("x" * 1_000_000)  # type: ignore[operator]
    message = str(error.value)
    assert len(message) < 200 and "(1000000 characters)" in message, message[:300]


def test_a_short_bad_text_is_quoted_whole() -> None:
    with pytest.raises(ValueError, match=r"invalid card 'XS' in 'AS XS'"):
        CardSet.from_str("AS XS")


# -- CardSet equality and hashing agree ------------------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=ALL_CARDS_MASK))
def test_a_cardset_hashes_like_the_equal_frozenset(mask: int) -> None:
    cards = CardSet(mask)
    ints = frozenset(mask_indices(mask))
    assert cards == ints and ints == cards and cards == set(ints)
    assert hash(cards) == hash(ints)
    assert len({cards, ints}) == 1 and {cards: 1}[ints] == 1  # type: ignore[index]


def test_a_cardset_is_unequal_to_a_set_of_non_cards() -> None:
    assert (CardSet() == {"x"}) is False
    assert (CardSet.from_str("AS") == {99}) is False
    assert CardSet() != {"x"} and {"x"} != CardSet()
    assert CardSet.from_str("AS") != [51]  # only sets compare equal, as for frozenset


# -- mask_indices ----------------------------------------------------------------------------------------------------


@pytest.mark.timeout(10)  # it looped forever
@pytest.mark.parametrize("mask", [-1, -(1 << 52), -5])
def test_mask_indices_refuses_a_negative_mask(mask: int) -> None:
    with pytest.raises(CardParseError, match=f"invalid card mask: {mask}"):
        mask_indices(mask)


def test_mask_indices_of_valid_masks() -> None:
    assert mask_indices(0) == []
    assert mask_indices(ALL_CARDS_MASK) == list(range(52))
