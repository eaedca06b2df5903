"""The engine's arguments (cards, deals, matches, rules): invalid input gets a specific ``ValueError`` subclass
naming the problem, instead of a wrong answer, a coerced value, a bare ``TypeError``/``ValueError`` or an endless loop;
valid input keeps its old behaviour (the same legal actions, deals, RNG draws and scores).

* A bool is no seat, card, action code or flag value.  A play of a card int is stored as the ready-made play; a play
  of a bool is illegal and changes nothing.
* Deck orders: card ints in any ordered collection (NumPy's too); a set, a text, floats or None are refused.
* Constructors raise their module's own errors and keep no wrong value (``Rules``, ``Match``, allowed contracts given
  as ints, an observation for a seat off the table, a ``CardSet`` of what is neither a mask nor cards).
* An int out of range is an error, not another card, suit, seat, role, contract or deal; enums and their ints still
  work alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from deal_helpers import random_action
from mizerka.cards import CARDS, Card, CardParseError, CardSet, Rank, Suit
from mizerka.deal import PLAYS, Deal, DeckError, InvalidActionError, Play, action_from_code, check_deck
from mizerka.match import Match, MatchError
from mizerka.rules import STANDARD, Contract, Role, Rules, RulesError

DECK = list(range(52))


# -- a bool is no seat, card, action code or flag value --------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Match(first_dealer=True, seed=1), MatchError, "first dealer"),
        (lambda: Match(seed=True), MatchError, "seed"),
        (lambda: Deal(DECK, dealer=True), RulesError, "dealer"),
        (lambda: Deal(DECK).observation(True), RulesError, "invalid seat: True"),
        (lambda: Deal(DECK).hand(False), RulesError, "invalid seat: False"),
        (lambda: Deal(DECK).role(True), RulesError, "invalid seat: True"),
        (lambda: Card(True), CardParseError, "bool"),
        (lambda: CardSet(True), CardParseError, "bool"),
        (lambda: CardSet([False]), CardParseError, "False"),
        (lambda: action_from_code(True), InvalidActionError, "True"),
        (lambda: Rules(first_dealer=True), RulesError, "first_dealer"),
        (lambda: Deal(DECK, allowed_contracts=[True]), RulesError, "True"),  # type: ignore[list-item]
        (lambda: STANDARD.quota(True, Contract.HEARTS), RulesError, "role"),
        (lambda: STANDARD.score(Role.DEALER, True, 3), RulesError, "contract"),  # type: ignore[arg-type]
    ],
)
def test_a_bool_is_refused(make: Callable[[], object], error: type[ValueError], message: str) -> None:
    with pytest.raises(error, match=message):
        make()


def played_to_the_first_trick() -> Deal:
    deal = Deal(DECK, dealer=0)
    for action in ("NT", "keep", "keep", "keep"):
        deal.play(action)
    return deal


@pytest.mark.parametrize("card", [0, CARDS[0], np.int64(0)], ids=["int", "Card", "numpy"])
def test_a_play_of_a_card_int_is_stored_as_the_ready_made_play(card: int) -> None:
    deal = played_to_the_first_trick()  # forehand, seat 1, holds 2C
    if type(card) is not int and not isinstance(card, Card):
        with pytest.raises(ValueError, match="not a card"):  # NumPy ints never were cards here
            deal.play(Play(card))  # type: ignore[arg-type]
        return
    action = deal.play(Play(card))  # type: ignore[arg-type]
    assert action is PLAYS[0] and deal.history[-1] is PLAYS[0]
    assert str(deal.history[-1]) == "2C"
    assert deal.parse_action(str(deal.history[-1])) == deal.history[-1]
    assert deal.observation(2).history[-1] == (1, PLAYS[0])


def test_a_match_stores_a_play_of_a_card_int_as_the_ready_made_play() -> None:
    match = Match(seed=1, first_dealer=0)
    for action in ("NT", "keep", "keep", "keep"):
        match.play(action)
    card = int(match.deal.hand(match.to_move).lowest())
    assert match.play(Play(card)) is PLAYS[card]  # type: ignore[arg-type]
    assert match.deal.history[-1] is PLAYS[card]


def test_a_play_of_a_bool_is_illegal_and_changes_nothing() -> None:
    deal = played_to_the_first_trick()
    before = deal.copy()
    for flag in (False, True):
        with pytest.raises(ValueError, match=f"{flag} is not a card"):
            deal.play(Play(flag))  # type: ignore[arg-type]
        assert Play(flag) not in deal.legal_actions  # type: ignore[arg-type]
    assert deal == before


# -- deck orders -----------------------------------------------------------------------------------------------------


def with_card(index: int, value: object) -> list[object]:
    deck: list[object] = list(DECK)
    deck[index] = value
    return deck


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (with_card(5, 5.9), "5.9 is no card"),
        (with_card(5, 5.0), "5.0 is no card"),
        ([str(i) for i in DECK], "'0' is no card"),
        (with_card(1, True), "True is no card"),
        (with_card(0, None), "None is no card"),
        (set(DECK), "not a set"),
        (frozenset(DECK), "not a frozenset"),
        (CardSet.full(), "not a CardSet"),
        (dict.fromkeys(DECK), "not a dict"),
        ("0123", "not a str"),
        (5, "invalid deck order"),
    ],
)
def test_a_deck_order_of_the_wrong_type_is_refused(deck: object, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        check_deck(deck)  # type: ignore[arg-type]
    with pytest.raises(DeckError):
        Deal(deck)  # type: ignore[arg-type]
    with pytest.raises(MatchError):
        Match(decks=[deck])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "deck",
    [tuple(DECK), list(CARDS), range(52), iter(DECK), np.arange(52), [np.int64(i) for i in DECK]],
    ids=["tuple", "Cards", "range", "iterator", "numpy array", "numpy ints"],
)
def test_card_ints_in_any_order_type_still_make_a_deck(deck: object) -> None:
    cards = check_deck(deck)  # type: ignore[arg-type]
    assert cards == tuple(DECK) and all(type(card) is int for card in cards)


# -- constructors: the module's own errors, not TypeError, and no wrong values kept ----------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"first_dealer": "1"}, "first_dealer must be a seat number or None"),
        ({"first_dealer": 1.5}, "first_dealer must be a seat number or None"),
        ({"show_trump_card": "no"}, "show_trump_card must be True or False"),
        ({"global_unique_contracts": 1}, "global_unique_contracts must be True or False"),
        ({"name": 5}, "name must be text"),
        ({"source": None}, "source must be text"),
    ],
)
def test_rules_refuse_options_of_the_wrong_type(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**options)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=message):
        STANDARD.replace(**options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"decks": 5}, "decks must be a list of deck orders"),
        ({"decks": "x"}, "decks must be a list of deck orders"),
        ({"seed": [1]}, "seed must be an int or None"),
        ({"seed": 1.5}, "seed must be an int or None"),
        ({"players": "ABC"}, "not the text 'ABC'"),
    ],
)
def test_match_refuses_arguments_of_the_wrong_type(options: dict[str, object], message: str) -> None:
    with pytest.raises(MatchError, match=message):
        Match(**options)  # type: ignore[arg-type]


def test_allowed_contracts_given_as_ints_become_contracts() -> None:
    deal = Deal(DECK, allowed_contracts=frozenset({0, 4}))  # type: ignore[arg-type]
    assert deal.allowed_contracts == {Contract.CLUBS, Contract.NO_TRUMP}
    assert all(type(c) is Contract for c in deal.allowed_contracts)
    assert all(type(c) is Contract for c in deal.observation(1).allowed_contracts)
    assert [type(a.contract) for a in deal.legal_actions] == [Contract, Contract]  # type: ignore[union-attr]


@pytest.mark.parametrize("seat", [3, -1, 1.0, "1"])
def test_an_observation_for_a_seat_off_the_table_is_a_rules_error(seat: object) -> None:
    with pytest.raises(RulesError, match=f"invalid seat: {seat!r}"):
        Deal(DECK).observation(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("cards", [None, 3.0, object(), [1.5]])
def test_cardset_of_something_neither_mask_nor_cards_is_a_card_parse_error(cards: object) -> None:
    with pytest.raises(CardParseError, match="invalid card"):
        CardSet(cards)  # type: ignore[arg-type]


# -- out-of-range ints: an error, not another card, suit, seat or deal -----------------------------------------------


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Card.make(13, 0), CardParseError, "invalid rank: 13"),
        (lambda: Card.make(-1, 0), CardParseError, "invalid rank: -1"),
        (lambda: Card.make(0, 4), CardParseError, "invalid suit: 4"),
        (lambda: CardSet.suit(-1), CardParseError, "invalid suit: -1"),
        (lambda: CardSet.full().of_suit(4), CardParseError, "invalid suit: 4"),
        (lambda: Deal(DECK).role(-1), RulesError, "invalid seat: -1"),
        (lambda: Deal(DECK).hand(-1), RulesError, "invalid seat: -1"),
        (lambda: Deal(DECK).hand(3), RulesError, "invalid seat: 3"),
        (lambda: Match(seed=1).available_contracts(7), MatchError, "invalid seat: 7"),
        (lambda: Match(seed=1).role_of(3), MatchError, "invalid seat: 3"),
        (lambda: Match(seed=1).role_of(0, deal_no=0), MatchError, "invalid deal number: 0"),
        (lambda: Match(seed=1).role_of(0, deal_no=-1), MatchError, "invalid deal number: -1"),
        (lambda: Match(seed=1).role_of(0, deal_no=2), MatchError, "invalid deal number: 2"),
        (lambda: STANDARD.score(-1, Contract.HEARTS, 3), RulesError, "invalid role: -1"),
        (lambda: STANDARD.quota(3, Contract.HEARTS), RulesError, "invalid role: 3"),
        (lambda: STANDARD.score(Role.FOREHAND, "MZ", 9), RulesError, "invalid contract: 'MZ'"),  # type: ignore[arg-type]
        (lambda: STANDARD.quota(Role.FOREHAND, 6), RulesError, "invalid contract: 6"),  # type: ignore[arg-type]
    ],
)
def test_an_index_out_of_range_is_refused(make: Callable[[], object], error: type[ValueError], message: str) -> None:
    with pytest.raises(error, match=message):
        make()


def test_card_make_still_takes_enums_and_ints() -> None:
    assert Card.make(Rank.QUEEN, Suit.HEARTS) is Card.from_str("QH") is Card.make(10, 2)
    assert CardSet.suit(Suit.SPADES) == CardSet.suit(3)


def test_role_of_reads_each_deal_and_defaults_to_the_current_one() -> None:
    match = Match(seed=1, first_dealer=0)
    rng = random.Random(1)
    while match.deal_no < 3:
        match.push(random_action(match.deal, rng))
    assert [match.role_of(1, n) for n in (1, 2, 3)] == [Role.FOREHAND, Role.DEALER, Role.MIDDLEHAND]
    assert match.role_of(1) is match.role_of(1, 3)


def test_a_contracts_int_scores_as_that_contract() -> None:
    for contract in Contract:
        for role in Role:
            assert STANDARD.score(role, int(contract), 4) == STANDARD.score(role, contract, 4)  # type: ignore[arg-type]
            assert STANDARD.quota(int(role), int(contract)) == STANDARD.quota(role, contract)  # type: ignore[arg-type]
    assert STANDARD.score(Role.FOREHAND, 5, 9) == -8  # type: ignore[arg-type]  # Mizerka's quota, not 7
