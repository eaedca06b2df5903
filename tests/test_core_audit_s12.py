"""Core-engine audit fixes: one rule deviation (show_trump_card without an exchange) and bad input refused.

Each section names the concept it pins down.  Valid input keeps its old behaviour (the same legal actions, deals,
RNG draws and scores); what changes is that invalid input gets a specific ``ValueError`` subclass naming the
problem, instead of a wrong answer, a coerced value, a bare ``TypeError``/``ValueError`` or an endless loop.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import subprocess
import sys
import warnings
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mizerka.cards import ALL_CARDS_MASK, CARDS, Card, CardParseError, CardSet, Rank, Suit, mask_indices
from mizerka.deal import (
    KEEP,
    PLAYS,
    Deal,
    DeckError,
    Exchange,
    InvalidActionError,
    Phase,
    Play,
    action_from_code,
    check_deck,
)
from mizerka.match import Match, MatchError
from mizerka.record import MatchRecord, read_text
from mizerka.rules import (
    _FIXED_BY_NAME,
    STANDARD,
    VARIANTS,
    Contract,
    DealPattern,
    ExchangeMode,
    Role,
    Rules,
    RulesError,
    parse_variant,
)

DECK = list(range(52))
NO_EXCHANGE_SHOWN = parse_variant("no-exchange,show_trump_card")


def quiet(make: Callable[[], object]) -> object:
    """*make()* with the non-zero-sum warning of seed002-literal silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


def random_action(deal: Deal, rng: random.Random) -> Exchange | Play:
    if deal.phase is Phase.EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        return Exchange(CardSet(rng.sample(hand, rng.randint(0, min(len(deal.talon), len(hand))))))
    return rng.choice(list(deal.legal_actions))  # type: ignore[return-value]


def played_match(rules: Rules = STANDARD, seed: int = 1, actions: int = 30) -> Match:
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        match.push(random_action(match.deal, rng))
    return match


# -- show_trump_card without an exchange (RULES.md §8: "the top talon card is shown as a reminder") ----------


@pytest.mark.parametrize("spec", ["no-exchange,show_trump_card", "no-exchange,show_trump_card,seed002-blocks"])
def test_show_trump_card_turns_up_the_dead_talons_top_in_trump_contracts(spec: str) -> None:
    rules = parse_variant(spec)
    for contract in Contract:
        deal = Deal(DECK, rules=rules, dealer=0)
        deal.play(str(contract))
        assert deal.phase is Phase.PLAY  # still no exchange
        if contract.trump is None:  # no trumps to remind of in no-trump and Mizerka
            assert deal.shown_card is None
            continue
        assert deal.shown_card == deal.talon[-1]
        for seat in (None, 0, 1, 2):
            assert deal.observation(seat).shown_card is CARDS[deal.talon[-1]]
        deal.pop()
        assert deal.shown_card is None and deal.observation(None).shown_card is None


def test_no_exchange_without_the_option_shows_nothing() -> None:
    deal = Deal(DECK, rules=VARIANTS["no-exchange"], dealer=0)
    deal.play("H")
    assert deal.shown_card is None


def test_worlds_sampled_under_a_dead_shown_card_match_the_observation() -> None:
    for seed in range(12):
        rng = random.Random(seed)
        deal = Deal.random(seed, rules=NO_EXCHANGE_SHOWN, dealer=seed % 3)
        deal.play(rng.choice("CDHS"))
        for _ in range(rng.randrange(39)):
            deal.push(random_action(deal, rng))
        for seat in (None, 0, 1, 2):
            observation = deal.observation(seat)
            world = Deal.from_observation(observation, rng)
            assert world.observation(seat) == observation
            assert world.talon[-1] == deal.talon[-1]


def test_a_record_replays_the_dead_shown_card() -> None:
    match = played_match(NO_EXCHANGE_SHOWN, seed=4, actions=100)
    record = MatchRecord.from_match(match)
    assert "no-exchange,show_trump_card" in record.to_text()
    replayed = read_text(record.to_text()).to_match()
    for seat in (None, 0, 1, 2):
        assert replayed.observation(seat) == match.observation(seat)


# -- numbers in a variant spec -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("uses=" + "1" * 4301, "invalid uses"),
        ("first_dealer=" + "0" * 4301, "invalid first_dealer"),
        ("quota_ordinary=7/5/" + "1" * 5000, "invalid quota_ordinary"),
        ("uses=" + "9" * 10, "invalid uses"),
    ],
)
def test_a_number_too_long_for_a_variant_spec_is_a_rules_error(option: str, message: str) -> None:
    quoted = r"'[0-9]{10,20}'(\.\.\. \(\d+ digits\))?"  # the start of the number, and its length if cut
    with pytest.raises(RulesError, match=rf"{message}: {quoted} \(a number far too large\)"):
        parse_variant("standard," + option)


def test_variant_numbers_keep_their_leading_zeros_as_int_reads_them() -> None:
    rules = parse_variant("standard,uses=0002,first_dealer=01,quota_ordinary=007/05/1")
    assert (rules.uses_per_contract, rules.first_dealer, rules.quota_ordinary) == (2, 1, (7, 5, 1))


# -- a bool is no seat, card, action code or flag value ------------------------------------------------------


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


# -- deck orders -----------------------------------------------------------------------------------------------


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


# -- constructors: the module's own errors, not TypeError, and no wrong values kept -------------------------


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


# -- out-of-range ints: an error, not another card, suit, seat or deal --------------------------------------


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


# -- CardSet equality and hashing agree --------------------------------------------------------------------


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


# -- copying a match ------------------------------------------------------------------------------------------


def play_to_the_end(match: Match, rng: random.Random) -> None:
    while not match.is_over():
        match.push(random_action(match.deal, rng))


@pytest.mark.parametrize("make_copy", [copy.copy, Match.copy], ids=["copy.copy", "Match.copy"])
def test_a_match_copy_is_independent(make_copy: Callable[[Match], Match]) -> None:
    match = played_match(seed=3, actions=50)
    history, decks, deal_no = match.history(), list(match.decks), match.deal_no
    twin = make_copy(match)
    assert twin.history() == history and twin.decks == decks
    play_to_the_end(twin, random.Random(9))
    assert match.history() == history and match.decks == decks and match.deal_no == deal_no
    play_to_the_end(match, random.Random(9))  # the same actions from the same state: the same match
    assert match.history() == twin.history() and match.decks == twin.decks and match.totals == twin.totals
    twin.pop()
    assert match.is_over() and not twin.is_over()


# -- Rules.spec() reads back to equal rules, or refuses -------------------------------------------------------


SPEC_OPTIONS = {
    "show_trump_card": st.booleans(),
    "deal_pattern": st.sampled_from(DealPattern),
    "first_dealer": st.sampled_from([None, 0, 1, 2, 3]),
    "contracts": st.lists(st.sampled_from(Contract), min_size=1, max_size=6, unique=True).map(tuple),
    "uses_per_contract": st.integers(1, 6),
    "global_unique_contracts": st.booleans(),
    "quota_ordinary": st.tuples(st.integers(0, 13), st.integers(0, 13), st.integers(0, 13)),
    "quota_mizerka": st.tuples(st.integers(0, 13), st.integers(0, 13), st.integers(0, 13)),
}


def test_every_rules_field_is_written_by_spec_or_fixed_by_the_name() -> None:
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert fields == set(SPEC_OPTIONS) | set(_FIXED_BY_NAME) | {"name"}


@given(st.sampled_from(sorted(VARIANTS)), st.fixed_dictionaries({}, optional=SPEC_OPTIONS))
def test_spec_reads_back_to_equal_rules(name: str, options: dict[str, object]) -> None:
    base = VARIANTS[name]
    if options.get("first_dealer") == 3 and base.n_seats == 3:
        options["first_dealer"] = None  # seat 3 only where four sit
    rules = quiet(lambda: base.replace(**options))
    assert isinstance(rules, Rules)
    assert quiet(lambda: parse_variant(rules.spec())) == rules


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"cards_before_choice": 5}, "cards_before_choice=5"),
        ({"n_seats": 4}, "n_seats=4"),
        ({"exchange_mode": ExchangeMode.NONE}, "exchange_mode=<ExchangeMode.NONE: 'none'>"),
        ({"source": "my notes"}, "source='my notes'"),
    ],
)
def test_spec_refuses_fields_no_option_can_write(changes: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError, match=f"^{field} cannot be written as a variant spec"):
        STANDARD.replace(**changes).spec()


def test_spec_refuses_a_name_that_is_no_variant() -> None:
    with pytest.raises(RulesError, match="rules named 'homebrew' cannot be written"):
        STANDARD.replace(name="homebrew").spec()
    with pytest.raises(RulesError, match="rules named 'Standard'"):  # parse_variant would say 'standard'
        STANDARD.replace(name="Standard").spec()


# -- mask_indices -------------------------------------------------------------------------------------------------


@pytest.mark.timeout(10)  # it looped forever
@pytest.mark.parametrize("mask", [-1, -(1 << 52), -5])
def test_mask_indices_refuses_a_negative_mask(mask: int) -> None:
    with pytest.raises(CardParseError, match=f"invalid card mask: {mask}"):
        mask_indices(mask)


def test_mask_indices_of_valid_masks() -> None:
    assert mask_indices(0) == []
    assert mask_indices(ALL_CARDS_MASK) == list(range(52))


# -- per-deal scores sum to zero (RULES.md §8.5) --------------------------------------------------------------


def finished_deal(rules: Rules) -> Deal:
    deal = Deal.random(5, rules=rules, dealer=0)
    deal.play("H")
    while not deal.is_over():
        deal.push(KEEP if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    return deal


def test_scores_that_do_not_sum_to_zero_under_zero_sum_rules_fail_loudly() -> None:
    deal = finished_deal(STANDARD)
    assert sum(deal.scores()) == 0
    deal.tricks_won[deal.forehand] += 1  # a corrupted deal: 14 tricks
    with pytest.raises(AssertionError, match=r"do not sum to zero under zero-sum rules 'standard'"):
        deal.scores()


def test_non_zero_sum_rules_are_not_asserted() -> None:
    literal = quiet(lambda: VARIANTS["seed002-literal"])
    assert isinstance(literal, Rules) and not literal.zero_sum
    deal = finished_deal(literal)
    assert sum(deal.scores()) != 0


def test_the_zero_sum_check_survives_python_dash_o() -> None:
    code = (
        "from mizerka import Deal, Phase\n"
        "from mizerka.deal import KEEP\n"
        "d = Deal.random(5, dealer=0); d.play('H')\n"
        "while not d.is_over(): d.push(KEEP if d.phase is Phase.EXCHANGE else next(iter(d.legal_actions)))\n"
        "d.tricks_won[d.forehand] += 1\n"
        "try:\n    d.scores()\nexcept AssertionError:\n    print('asserted')\n"
    )
    result = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "asserted"
