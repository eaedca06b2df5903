"""The blind talon exchange: one atomic action each for forehand, middlehand, dealer (TV-D18..D24); an answer that
names no card (a stray comma) is incomplete, not a keep."""

from __future__ import annotations

import pytest

from deal_helpers import exchanging
from mizerka.cards import Card, CardSet
from mizerka.deal import KEEP, Deal, Exchange, IllegalActionError, InvalidActionError, Phase
from mizerka.rules import Contract, parse_variant

DECK = list(range(52))  # deck position p holds card p; dealer 0: FH = seat 1, MH = seat 2, D = seat 0
FH, MH, D = 1, 2, 0


def dealt(contract: str = "NT", rules_spec: str = "standard") -> Deal:
    deal = Deal(DECK, rules=parse_variant(rules_spec), dealer=0)
    deal.play(contract)
    assert deal.phase is Phase.EXCHANGE
    return deal


def some_cards(deal: Deal, seat: int, count: int) -> Exchange:
    return Exchange(CardSet(list(deal.hand(seat))[:count]))


def check_conservation(deal: Deal) -> None:
    """RULES.md §2.11 invariant 2: hands stay at 13 and talon + dead piles = 13."""
    for seat in deal.active_seats:
        assert deal.hands[seat].bit_count() == 13
    assert len(deal.talon) + sum(d.bit_count() for d in deal.dead) == 13
    everything = 0
    for mask in (*deal.hands, *deal.dead, *(1 << c for c in deal.talon)):
        assert not everything & mask
        everything |= mask
    assert everything == (1 << 52) - 1


def test_tv_d18_forehand_exchanges_the_whole_hand() -> None:
    deal = dealt()
    old_hand = deal.hand(FH)
    top13 = CardSet(deal.talon)
    deal.play(Exchange(old_hand))
    assert deal.hand(FH) == top13
    assert deal.talon == [] and deal.exchange_counts[FH] == 13
    check_conservation(deal)
    for seat in (MH, D):
        assert deal.to_move == seat
        assert list(deal.legal_actions) == [KEEP]
        assert deal.forced_action() == KEEP
        with pytest.raises(IllegalActionError, match="only 0 left in the talon"):
            deal.play(some_cards(deal, seat, 1))
        deal.play(KEEP)
    assert deal.phase is Phase.PLAY


def test_tv_d19_middlehand_limited_to_the_cards_left() -> None:
    deal = dealt()
    deal.play(some_cards(deal, FH, 9))
    assert len(deal.talon) == 4
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="cannot discard 5 cards: only 4 left"):
        deal.play(some_cards(deal, MH, 5))
    assert deal == before
    assert max(len(a[0]) for a in deal.legal_actions) == 4  # type: ignore[arg-type]
    deal.play(some_cards(deal, MH, 4))
    assert deal.talon == []
    assert deal.to_move == D and list(deal.legal_actions) == [KEEP]
    deal.play(KEEP)
    assert deal.exchange_counts == [0, 9, 4]
    check_conservation(deal)


def test_tv_d20_dealer_may_exchange_what_remains() -> None:
    deal = dealt()
    deal.play(some_cards(deal, FH, 9))
    deal.play(some_cards(deal, MH, 2))
    assert len(deal.talon) == 2 and deal.to_move == D
    with pytest.raises(IllegalActionError, match="only 2 left"):
        deal.play(some_cards(deal, D, 3))
    last_two = CardSet(deal.talon)
    deal.play(some_cards(deal, D, 2))
    assert deal.hand(D) >= last_two
    assert deal.talon == []
    check_conservation(deal)


def test_tv_d21_dealer_may_exchange_thirteen_after_two_keeps() -> None:
    deal = dealt()
    deal.play(KEEP)
    deal.play(KEEP)
    assert deal.legal_actions.count() == 2**13
    talon = CardSet(deal.talon)
    deal.play(Exchange(deal.hand(D)))
    assert deal.hand(D) == talon
    assert deal.exchange_counts == [13, 0, 0]
    check_conservation(deal)


def test_tv_d22_discards_are_dead() -> None:
    deck = list(range(52))
    # put A♠ K♠ Q♠ into forehand's hand (positions 0, 4, 8) by swapping them with the cards there
    for position, card in zip((0, 4, 8), ("AS", "KS", "QS"), strict=True):
        other = deck.index(Card.from_str(card))
        deck[position], deck[other] = deck[other], deck[position]
    deal = Deal(deck, dealer=0)
    deal.play("NT")
    top3 = deal.talon[-3:]
    spades = CardSet.from_str("AS KS QS")
    assert deal.hand(FH) >= spades
    deal.play(Exchange(spades))
    assert deal.hand(FH) & spades == CardSet()
    assert deal.hand(FH) >= CardSet(top3)  # forehand drew the top 3 talon cards
    assert len(deal.talon) == 10
    assert CardSet(deal.dead[FH]) == spades
    assert CardSet(deal.drawn[FH]) == CardSet(top3)
    assert not spades & CardSet(deal.talon)  # not returned to the talon
    # middlehand's limit is 10, not 13
    with pytest.raises(IllegalActionError, match="only 10 left"):
        deal.play(some_cards(deal, MH, 11))
    deal.play(some_cards(deal, MH, 10))
    deal.play(KEEP)
    for seat in (MH, D):
        assert not deal.hand(seat) & spades  # the dead cards never reach a later player
    check_conservation(deal)


def test_tv_d23_one_exchange_each() -> None:
    deal = dealt()
    fh_hand_before = deal.hand(FH)
    discards = some_cards(deal, FH, 2)
    deal.play(discards)
    assert deal.to_move == MH  # forehand's turn to exchange is over at once
    before = deal.copy()
    # a second forehand exchange, e.g. discarding the cards just drawn, is rejected
    with pytest.raises(IllegalActionError, match="not in seat 2's hand"):
        deal.play(Exchange(CardSet(deal.drawn[FH])))
    with pytest.raises(IllegalActionError, match="not in seat 2's hand"):
        deal.play(Exchange(fh_hand_before - discards.discards))
    assert deal == before
    deal.play(KEEP)
    deal.play(KEEP)
    with pytest.raises(IllegalActionError, match="one exchange"):
        deal.play(KEEP)
    with pytest.raises(IllegalActionError, match="one exchange"):
        deal.play(Exchange(CardSet(deal.drawn[FH])))


def test_tv_d24_count_conservation() -> None:
    deal = dealt()
    for seat, count in ((FH, 5), (MH, 6), (D, 2)):
        deal.play(some_cards(deal, seat, count))
        check_conservation(deal)
    assert deal.talon == []
    assert [deal.dead[s].bit_count() for s in (FH, MH, D)] == [5, 6, 2]
    assert [deal.hands[s].bit_count() for s in (FH, MH, D)] == [13, 13, 13]
    assert sum(h.bit_count() for h in deal.hands) + sum(d.bit_count() for d in deal.dead) == 52


def test_cards_are_drawn_from_the_top_in_order() -> None:
    deal = dealt()
    deal.play(some_cards(deal, FH, 2))
    assert CardSet(deal.drawn[FH]) == CardSet([51, 47])
    deal.play(some_cards(deal, MH, 1))
    assert CardSet(deal.drawn[MH]) == CardSet([43])
    assert deal.talon[-1] == 39


def test_discarding_a_card_not_held() -> None:
    deal = dealt()
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="cannot discard 2D: not in seat 1's hand"):
        deal.play("exchange 2D")
    with pytest.raises(IllegalActionError, match="not a set of cards"):
        deal.play(Exchange({0}))  # type: ignore[arg-type]
    assert deal == before


def test_exchange_pop_restores_the_talon() -> None:
    deal = dealt()
    before = deal.copy()
    deal.play(some_cards(deal, FH, 4))
    deal.pop()
    assert deal == before
    assert deal.dead == before.dead and deal.drawn == before.drawn and deal.talon == before.talon


def test_show_trump_card_is_the_first_card_drawn() -> None:
    deal = dealt("H", "standard,show_trump_card")
    shown = deal.shown_card
    assert shown is not None and shown == deal.talon[-1] == 51  # A♠ turned up in a hearts contract
    assert deal.trump == Contract.HEARTS  # the turned-up card never changes trumps
    for seat in deal.active_seats:
        assert deal.observation(seat).shown_card == Card(51)
    assert deal.observation(None).shown_card == Card(51)
    deal.play(KEEP)
    assert deal.shown_card == 51 and deal.talon[-1] == 51  # still on top after forehand keeps
    deal.play(some_cards(deal, MH, 1))
    assert deal.drawn[MH] == 1 << 51  # the first player who exchanges draws it first


def test_no_shown_card_in_no_trump_or_without_the_option() -> None:
    assert dealt("NT", "standard,show_trump_card").shown_card is None
    assert dealt("MZ", "standard,show_trump_card").shown_card is None
    assert dealt("H").shown_card is None


# -- an answer that names no card ------------------------------------------------------------------------------------


@pytest.mark.parametrize("answer", [",", "exchange ,", "ex ,,", " , , ", "discard ,"])
def test_an_exchange_answer_that_names_no_card_is_incomplete_not_a_keep(answer: str) -> None:
    """The one blind exchange is never spent on an answer that names no card and no ``-``: a stray comma at the
    prompt kept the hand for good (an exchange is not undone)."""
    deal = exchanging()
    hand = deal.hands[deal.to_move]
    with pytest.raises(InvalidActionError, match=r"incomplete action .*name the cards to discard, or - to keep"):
        deal.play(answer)
    assert deal.phase is Phase.EXCHANGE and deal.hands[deal.to_move] == hand
    for keep in ("-", "keep", "exchange -", "none"):
        assert deal.parse_action(keep) == KEEP
