"""The deal as a state machine: dealing (TV-D31), phases, actions and their codes, push/pop, bad input."""

from __future__ import annotations

import random

import pytest

from mizerka.cards import CARDS, Card, CardSet
from mizerka.deal import (
    CHOICES,
    KEEP,
    PLAYS,
    Choose,
    Deal,
    DeckError,
    Exchange,
    IllegalActionError,
    InvalidActionError,
    Phase,
    Play,
    action_from_code,
    deal_piles,
)
from mizerka.rules import STANDARD, Contract, DealPattern, Role, RulesError, get_variant, parse_variant

DECK = list(range(52))  # deck position p holds card p, so cards name positions


def mask_of(positions: range | list[int]) -> int:
    return sum(1 << p for p in positions)


def test_tv_d31_round_robin_piles() -> None:
    deal = Deal(DECK, dealer=0)
    fh, mh, d = deal.active_seats
    assert (fh, mh, d) == (1, 2, 0)
    # FH's six pre-choice cards are positions {0,4,8,12,16,20}; MH and D likewise
    assert deal.hands[fh] == mask_of([0, 4, 8, 12, 16, 20])
    assert deal.hands[mh] == mask_of([1, 5, 9, 13, 17, 21])
    assert deal.hands[d] == mask_of([2, 6, 10, 14, 18, 22])
    assert deal.talon == []  # the talon is completed only with the rest of the deal
    deal.play("NT")
    assert deal.hands[fh] == mask_of(range(0, 52, 4))
    assert deal.hands[mh] == mask_of(range(1, 52, 4))
    assert deal.hands[d] == mask_of(range(2, 52, 4))
    assert deal.talon[::-1] == list(range(51, 2, -4))  # top (last element) = position 51, then 47, 43, ...
    assert deal.talon[-1] == 51 and deal.talon[-2] == 47 and deal.talon[0] == 3


def test_tv_d31_seed002_blocks() -> None:
    rules = parse_variant("standard,seed002-blocks")
    deal = Deal(DECK, rules=rules, dealer=0)
    fh, mh, d = deal.active_seats
    assert deal.hands[fh] == mask_of(range(0, 18, 3))
    assert deal.hands[mh] == mask_of(range(1, 18, 3))
    assert deal.hands[d] == mask_of(range(2, 18, 3))
    deal.play("NT")
    assert deal.hands[fh] == mask_of(list(range(0, 18, 3)) + list(range(18, 39, 3)))
    assert deal.hands[mh] == mask_of(list(range(1, 18, 3)) + list(range(19, 39, 3)))
    assert deal.hands[d] == mask_of(list(range(2, 18, 3)) + list(range(20, 39, 3)))
    assert sorted(deal.talon) == list(range(39, 52))
    assert deal.talon[-1] == 39  # top = position 39
    deal.play("exchange " + str(CARDS[0]))
    assert deal.hands[fh] >> 39 & 1  # forehand drew the top card


def test_deal_piles_function() -> None:
    first, rest, talon = deal_piles(DECK, DealPattern.ROUND_ROBIN_4_PILES)
    assert first == [[0, 4, 8, 12, 16, 20], [1, 5, 9, 13, 17, 21], [2, 6, 10, 14, 18, 22]]
    assert rest[0] == [24, 28, 32, 36, 40, 44, 48]
    assert talon == list(range(3, 52, 4))
    first, rest, talon = deal_piles(DECK, DealPattern.SEED002_BLOCKS)
    assert rest[2] == list(range(20, 39, 3))
    assert talon == list(range(51, 38, -1))


def test_dealer_rotates_roles() -> None:
    for dealer in range(3):
        deal = Deal(DECK, dealer=dealer)
        assert deal.active_seats == ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
        assert deal.to_move == deal.forehand == (dealer + 1) % 3
        assert deal.role(dealer) is Role.DEALER
        assert deal.role(deal.forehand) is Role.FOREHAND
        assert deal.role(deal.middlehand) is Role.MIDDLEHAND
        assert deal.hands[deal.forehand] == mask_of([0, 4, 8, 12, 16, 20])


def test_phases_of_a_standard_deal() -> None:
    deal = Deal.random(5, dealer=2)
    assert deal.phase is Phase.CHOOSE
    assert len(deal.history) == 0
    deal.play("MZ")
    assert deal.phase is Phase.EXCHANGE and deal.exchanger == deal.forehand
    assert [deal.hand(s).__len__() for s in range(3)] == [13, 13, 13]
    assert len(deal.talon) == 13
    for seat in deal.active_seats:
        assert deal.to_move == seat
        deal.play(KEEP)
    assert deal.phase is Phase.PLAY and deal.to_move == deal.forehand
    rng = random.Random(0)
    while deal.phase is Phase.PLAY:
        deal.play(rng.choice(list(deal.legal_actions)))
    assert deal.phase is Phase.DONE
    assert deal.is_over()
    assert len(deal.tricks) == 13 and sum(deal.tricks_won) == 13
    assert len(deal.history) == 1 + 3 + 39
    assert sum(isinstance(a, Choose) for a in deal.history) == 1
    assert sum(isinstance(a, Exchange) for a in deal.history) == 3
    assert sum(isinstance(a, Play) for a in deal.history) == 39
    assert not deal.legal_actions and deal.legal_actions.count() == 0
    assert deal.illegal_reason(PLAYS[0]) == "the deal is over"


@pytest.mark.parametrize("variant", ["no-exchange", "seed002-literal"])
def test_variants_without_exchange_actions(variant: str) -> None:
    rules = get_variant(variant)
    deal = Deal.random(1, rules=rules)
    deal.play("NT")
    assert deal.phase is Phase.PLAY
    with pytest.raises(IllegalActionError, match="cannot exchange"):
        deal.play(KEEP)
    rng = random.Random(2)
    while not deal.is_over():
        deal.play(rng.choice(list(deal.legal_actions)))
    assert not any(isinstance(a, Exchange) for a in deal.history)
    assert len(deal.tricks) == rules.n_tricks
    assert sum(isinstance(a, Play) for a in deal.history) == 3 * rules.n_tricks


def test_tv_d33_seed002_literal_replenishment_is_card_consistent() -> None:
    """With one stock card set aside, 12 drawable cards: hands stay equal and the deal has 17 tricks."""
    rules = get_variant("seed002-literal")
    deal = Deal.random(3, rules=rules)
    deal.play("NT")
    assert deal.set_aside is not None and len(deal.stock) == 12
    assert deal.shown_card is None  # face down in no-trump
    rng = random.Random(4)
    while not deal.is_over():
        if not deal.trick:
            sizes = {deal.hands[s].bit_count() for s in deal.active_seats}
            assert len(sizes) == 1, sizes  # hands equal at every trick boundary
            expected = 13 if len(deal.tricks) <= 4 else 17 - len(deal.tricks)
            assert sizes == {expected}
        deal.play(rng.choice(list(deal.legal_actions)))
    assert len(deal.tricks) == 17 and sum(deal.tricks_won) == 17
    assert deal.stock == []
    trump_deal = Deal.random(3, rules=rules)
    trump_deal.play("H")
    assert trump_deal.shown_card == trump_deal.set_aside  # turned up as the reminder
    assert trump_deal.trump == Contract.HEARTS.trump  # the contract fixes trumps


def test_action_codes_are_stable() -> None:
    assert Play(CARDS[0]).code == 0 and Play(CARDS[51]).code == 51
    assert [c.code for c in CHOICES] == list(range(52, 58))
    assert KEEP.code == 64
    assert Exchange(CardSet.from_str("AS")).code == 64 + (1 << 51)
    for code in [0, 17, 51, 52, 57, 64, 64 + 5, 64 + (1 << 51) + 1]:
        assert action_from_code(code).code == code
    for action in [*PLAYS, *CHOICES, KEEP, Exchange(CardSet.from_str("AS KH 2C"))]:
        assert action_from_code(action.code) == action
    for bad in [-1, 58, 63, 64 + (1 << 52)]:
        with pytest.raises(InvalidActionError, match=str(bad)):
            action_from_code(bad)


def test_action_text() -> None:
    assert str(PLAYS[51]) == "AS"
    assert str(CHOICES[Contract.MIZERKA]) == "MZ"
    assert str(KEEP) == "exchange -"
    assert str(Exchange(CardSet.from_str("AS 2C"))) == "exchange AS 2C"


def test_parse_action_by_phase() -> None:
    deal = Deal(DECK, dealer=0)
    assert deal.parse_action("NT") == CHOICES[Contract.NO_TRUMP]
    assert deal.parse_action("choose ♥") == CHOICES[Contract.HEARTS]
    assert deal.parse_action("play AS") == PLAYS[51]
    assert deal.parse_action("exchange AS KS") == Exchange(CardSet.from_str("AS KS"))
    assert deal.parse_action("keep") == KEEP
    deal.play("NT")
    assert deal.parse_action("AS 10♥") == Exchange(CardSet.from_str("AS TH"))
    assert deal.parse_action("-") == KEEP
    assert deal.parse_action("exchange -") == KEEP
    for _ in range(3):
        deal.play("-")
    assert deal.parse_action("10♥") == PLAYS[Card.from_str("TH")]


@pytest.mark.parametrize("text", ["", "   ", "XX", "choose XX", "play XX", "exchange AS AS", "exchange ZZ"])
def test_bad_action_text(text: str) -> None:
    deal = Deal(DECK, dealer=0)
    deal.play("NT")
    before = deal.copy()
    with pytest.raises(InvalidActionError) as info:
        deal.play(text)
    assert isinstance(info.value, ValueError)
    if text.strip():
        assert repr(text) in str(info.value) or "twice" in str(info.value)
    assert deal == before


def test_play_rejects_non_actions() -> None:
    deal = Deal(DECK, dealer=0)
    with pytest.raises(InvalidActionError):
        deal.parse_action(7)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not an action"):
        deal.play(7)  # type: ignore[arg-type]
    for contract in ([], "NT", 4):  # a list is unhashable: TypeError before; a str or int is no Contract
        with pytest.raises(IllegalActionError, match="is not a contract"):
            deal.play(Choose(contract))  # type: ignore[arg-type]
    assert deal.history == []


def test_illegal_actions_leave_the_deal_unchanged() -> None:
    deal = Deal(DECK, dealer=0)
    cases: list[tuple[object, str]] = [
        (PLAYS[0], "cannot play a card in the choose phase"),
        (KEEP, "cannot exchange in the choose phase"),
    ]
    for action, reason in cases:
        before = deal.copy()
        with pytest.raises(IllegalActionError, match=reason):
            deal.play(action)  # type: ignore[arg-type]
        assert deal == before
    deal.play("NT")
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="cannot choose"):
        deal.play("choose H")
    with pytest.raises(IllegalActionError, match="not in seat 1's hand"):
        deal.play("exchange 2D")  # card 13 belongs to middlehand
    with pytest.raises(IllegalActionError, match="cannot play"):
        deal.play(PLAYS[0])
    assert deal == before


def test_deck_errors() -> None:
    with pytest.raises(DeckError, match="52 cards, not 51"):
        Deal(list(range(51)))
    with pytest.raises(DeckError, match="twice"):
        Deal([0, *range(51)])
    with pytest.raises(DeckError, match="invalid card index 52"):
        Deal([*range(51), 52])
    with pytest.raises(DeckError, match="invalid deck order"):
        Deal(["AS"] * 52)  # type: ignore[list-item]
    assert Deal(list(CARDS)).deck == tuple(range(52))  # Card objects are fine


def test_constructor_errors() -> None:
    with pytest.raises(RulesError, match="dealer"):
        Deal(DECK, dealer=3)
    with pytest.raises(RulesError, match="dealer"):
        Deal(DECK, dealer=-1)
    with pytest.raises(RulesError, match="no contract left"):
        Deal(DECK, allowed_contracts=[])
    short = parse_variant("standard,contracts=NT+MZ")
    with pytest.raises(RulesError, match="not all in the rules"):
        Deal(DECK, rules=short, allowed_contracts=[Contract.HEARTS])


def test_random_is_seeded() -> None:
    assert Deal.random(11).deck == Deal.random(11).deck
    assert Deal.random(11).deck != Deal.random(12).deck
    assert Deal.random(random.Random(11)).deck == Deal.random(11).deck


def test_every_seed_gives_its_own_deal() -> None:
    # random.Random(-11) shuffles as random.Random(11): a negative seed must not repeat the positive one's deal
    assert Deal.random(-11).deck == Deal.random(-11).deck
    assert Deal.random(-11).deck != Deal.random(11).deck
    assert Deal.random(11).deck == Deal.random(random.Random(11)).deck  # non-negative seeds shuffle as before


@pytest.mark.parametrize("seed", [True, 1.5, "11", b"11", [11]])
def test_a_seed_that_is_no_int_is_refused(seed: object) -> None:
    with pytest.raises(DeckError, match="seed is an int"):
        Deal.random(seed)  # type: ignore[arg-type]


def test_push_pop_restore_every_step() -> None:
    deal = Deal.random(21, dealer=1)
    rng = random.Random(21)
    snapshots = [deal.copy()]
    actions = []
    while not deal.is_over():
        if deal.phase is Phase.EXCHANGE:
            hand = list(deal.hand(deal.to_move))
            action: Choose | Exchange | Play = Exchange(CardSet(rng.sample(hand, rng.randint(0, 3))))
        else:
            action = rng.choice(list(deal.legal_actions))
        deal.push(action)
        actions.append(action)
        snapshots.append(deal.copy())
    for expected in reversed(snapshots[:-1]):
        action = deal.pop()
        assert action == actions.pop()
        assert deal == expected
        assert deal.hands == expected.hands and deal.talon == expected.talon
        assert deal.tricks == expected.tricks and deal.trick == expected.trick
        assert deal.dead == expected.dead and deal.drawn == expected.drawn
        assert deal.played == expected.played and deal.trick_leader == expected.trick_leader
    with pytest.raises(IndexError):
        deal.pop()


def test_copy_is_independent() -> None:
    deal = Deal.random(8)
    deal.play("H")
    copy = deal.copy()
    copy.play(KEEP)
    assert deal.to_move == deal.forehand and deal.history == [CHOICES[Contract.HEARTS]]
    assert copy != deal
    copy.pop()
    assert copy == deal
    copy.pop()
    assert copy.phase is Phase.CHOOSE and deal.phase is Phase.EXCHANGE


def test_push_card_is_push_play() -> None:
    a, b = Deal.random(9), Deal.random(9)
    for deal in (a, b):
        deal.play("S")
        for _ in range(3):
            deal.play(KEEP)
    card = next(iter(a.legal_actions))
    a.push(card)
    b.push_card(card[0])
    assert a == b


def test_legal_actions_view() -> None:
    deal = Deal(DECK, dealer=0, allowed_contracts=[Contract.HEARTS, Contract.MIZERKA])
    legal = deal.legal_actions
    assert list(legal) == [CHOICES[Contract.HEARTS], CHOICES[Contract.MIZERKA]]
    assert len(legal) == 2 and legal.count() == 2 and bool(legal)
    assert CHOICES[Contract.HEARTS] in legal and CHOICES[Contract.SPADES] not in legal
    assert "H" not in legal
    deal.play("H")
    legal = deal.legal_actions
    assert len(legal) == 2**13  # every subset of 13 cards fits the 13-card talon
    assert KEEP in legal and Exchange(deal.hand(1)) in legal
    assert "exchanges" in repr(legal)
    deal.play(Exchange(CardSet([0, 4, 8, 12, 16, 20, 24, 28, 32, 36])))  # forehand exchanges 10
    legal = deal.legal_actions
    assert legal.count() == sum(1 for _ in legal) == 1 + 13 + 78 + 286  # subsets of size 0..3
    deal.play(Exchange(CardSet([1, 5, 9])))
    assert list(deal.legal_actions) == [KEEP]
    assert deal.forced_action() == KEEP  # empty talon: the dealer can only keep
    deal.play(KEEP)
    play_legal = deal.legal_actions
    assert len(play_legal) == 13 and set(play_legal) == {PLAYS[c] for c in deal.hand(deal.to_move)}
    assert "LegalActions" in repr(play_legal)


def test_forced_choice() -> None:
    deal = Deal(DECK, allowed_contracts=[Contract.MIZERKA])
    assert deal.forced_action() == CHOICES[Contract.MIZERKA]
    assert Deal(DECK).forced_action() is None


def test_scores_before_the_end() -> None:
    deal = Deal(DECK)
    with pytest.raises(IllegalActionError, match="not over"):
        deal.scores()


def test_text_views() -> None:
    deal = Deal(DECK, dealer=0)
    assert "phase=CHOOSE" in repr(deal)
    deal.play("NT")
    text = str(deal)
    assert "no-trump" in text and "seat 1  FH" in text


def test_standard_rules_default() -> None:
    assert Deal(DECK).rules is STANDARD


def test_legal_actions_follow_push_and_pop() -> None:
    """The view is live: listing, pushing, popping and copying never serve a stale list of legal cards."""
    deal = Deal.random(31, dealer=2)
    deal.play("S")
    for _ in range(3):
        deal.play(KEEP)
    view = deal.legal_actions
    rng = random.Random(31)
    while not deal.is_over():
        listed = list(view)
        assert listed == [PLAYS[c] for c in CardSet(deal.legal_play_mask())]
        assert len(view) == len(listed) == view.count()
        action = rng.choice(listed)
        deal.push(action)
        after = list(view)
        assert all(a in deal.legal_actions for a in after)
        deal.pop()
        assert list(view) == listed
        copy = deal.copy()
        assert list(copy.legal_actions) == listed
        copy.push(action)
        assert list(deal.legal_actions) == listed
        deal.push(action)
        assert list(copy.legal_actions) == list(deal.legal_actions)
