"""Card play: follow suit, no obligation to trump or overtake, trick winners (TV-D25..D30)."""

from __future__ import annotations

import random

import pytest

from mizerka.cards import Card, CardSet, Suit
from mizerka.deal import KEEP, PLAYS, Deal, IllegalActionError, Phase, Play
from mizerka.rules import Contract
from mizerka.tricks import legal_plays, trick_winner_index

FH, MH, D = 1, 2, 0  # dealer 0


def deal_with_hands(fh: str, mh: str, d: str, contract: str) -> Deal:
    """A deal (dealer 0) whose players hold these hands after the deal; the talon gets the other 13 cards;
    everybody keeps their hand, so play starts at once."""
    hands = [CardSet.from_str(h) for h in (fh, mh, d)]
    assert all(len(h) == 13 for h in hands), [len(h) for h in hands]
    talon = ~(hands[0] | hands[1] | hands[2])
    assert len(talon) == 13
    piles = [list(h) for h in (*hands, talon)]
    deck = [piles[i % 4][i // 4] for i in range(52)]
    deal = Deal(deck, dealer=0)
    deal.play(contract)
    for _ in range(3):
        deal.play(KEEP)
    assert deal.phase is Phase.PLAY
    assert [deal.hand(s) for s in (FH, MH, D)] == hands
    return deal


def play_trick(deal: Deal, *cards: str) -> int:
    for card in cards:
        deal.play(card)
    return deal.tricks[-1].winner


def test_tv_d25_any_trump_beats_the_suit_led() -> None:
    deal = deal_with_hands("S:K C:AKQJT98765 D:AK", "S:AQJT9 H:AKQJ D:QJT9", "H:T98765432 D:8765", "H")
    assert play_trick(deal, "KS", "AS", "2H") == D
    assert deal.tricks_won == [1, 0, 0]
    assert deal.to_move == D and deal.trick_leader == D  # the winner leads


def test_tv_d26_highest_trump_wins() -> None:
    deal = deal_with_hands("C:AKQJT98765432", "H:5 S:AKQJT98765 D:32", "H:Q D:AKQJT98765 S:43", "H")
    assert play_trick(deal, "3C", "5H", "QH") == D


def test_tv_d27_no_obligation_to_trump() -> None:
    deal = deal_with_hands("C:AKQJT9876543 S:A", "H:AK D:AKQJT98765 S:K", "C:2 H:QJT98765 S:QJT D:4", "H")
    deal.play("3C")
    assert deal.is_legal(PLAYS[Card.from_str("AD")])  # void in clubs, holds hearts, may discard a diamond
    assert deal.legal_play_mask() == deal.hands[MH]
    deal.play("AD")
    assert play_trick(deal, "2C") == FH  # the off-suit ace does not win


def test_tv_d28_no_trump_suits_in_mizerka() -> None:
    hands = ("D:5432 C:AKQJT9876", "D:AKQJT9876 C:5432", "S:AKQJT98765432")
    for contract in ("MZ", "NT"):
        deal = deal_with_hands(*hands, contract)
        assert play_trick(deal, "5D", "9D", "AS") == MH
        assert deal.tricks_won[MH] == 1
    mizerka = deal_with_hands(*hands, "MZ")
    assert mizerka.contract is Contract.MIZERKA and mizerka.trump is None


def test_tv_d29_trump_led() -> None:
    deal = deal_with_hands("S:4 H:AKQJT9876543", "S:2 C:AKQJT9876543", "S:3 D:AKQJT9876543", "S")
    assert play_trick(deal, "4S", "2S", "3S") == FH


def test_tv_d30_follow_suit_without_overtaking() -> None:
    hand = CardSet.from_str("JH 3H AC 2S")
    legal = CardSet(legal_plays(hand.mask, Suit.HEARTS, Suit.CLUBS))
    assert legal == CardSet.from_str("JH 3H")
    deal = deal_with_hands("H:7 S:AKQJT9876543", "H:J3 C:A S:2 D:AKQJT9876", "C:KQJT98765432 D:5", "C")
    deal.play("7H")
    assert set(deal.legal_actions) == {PLAYS[Card.from_str("JH")], PLAYS[Card.from_str("3H")]}
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="must follow suit: hearts were led"):
        deal.play("AC")
    with pytest.raises(IllegalActionError, match="must follow suit"):
        deal.play("2S")
    assert deal == before
    deal.play("3H")  # legal although it cannot win


def test_trick_winner_function() -> None:
    def winner(cards: str, trump: Suit | None) -> int:
        return trick_winner_index([Card.from_str(t) for t in cards.split()], trump)

    assert winner("KS AS 2H", Suit.HEARTS) == 2
    assert winner("KS AS 2H", None) == 1
    assert winner("3C 5H QH", Suit.HEARTS) == 2
    assert winner("3C AD 2C", Suit.HEARTS) == 0
    assert winner("4S 2S 3S", Suit.SPADES) == 0
    assert winner("2C 3C 4C", Suit.CLUBS) == 2
    assert winner("2D AS AH", Suit.CLUBS) == 0


def test_cards_not_held_and_wrong_phase() -> None:
    deal = deal_with_hands("S:4 H:AKQJT9876543", "S:2 C:AKQJT9876543", "S:3 D:AKQJT9876543", "S")
    with pytest.raises(IllegalActionError, match="2S is not in seat 1's hand"):
        deal.play("2S")
    with pytest.raises(IllegalActionError, match="not a card"):
        deal.play(Play(99))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="cannot choose"):
        deal.play("choose NT")
    assert deal.history[-1] == KEEP


def test_winner_leads_and_play_runs_clockwise() -> None:
    rng = random.Random(5)
    for seed in range(20):
        deal = Deal.random(seed, dealer=seed % 3)
        deal.play(rng.choice(list(deal.legal_actions)))
        for _ in range(3):
            deal.play(KEEP)
        while not deal.is_over():
            if not deal.trick:
                assert deal.to_move == deal.trick_leader
                if deal.tricks:
                    assert deal.trick_leader == deal.tricks[-1].winner
                else:
                    assert deal.trick_leader == deal.forehand  # forehand leads to the first trick
            else:  # clockwise from the leader
                position = (deal.active_seats.index(deal.trick_leader) + len(deal.trick)) % 3
                assert deal.to_move == deal.active_seats[position]
            hand = deal.hands[deal.to_move]
            legal = deal.legal_play_mask()
            if deal.trick and hand & (0x1FFF << (13 * (deal.trick[0] // 13))):
                assert legal == hand & (0x1FFF << (13 * (deal.trick[0] // 13)))
            else:
                assert legal == hand
            deal.push(rng.choice(list(deal.legal_actions)))
        for trick in deal.tricks:
            order = [deal.active_seats[(deal.active_seats.index(trick.leader) + i) % 3] for i in range(3)]
            assert trick.winner == order[trick_winner_index(trick.cards, deal.trump)]
