"""Contracts, roles, quotas and the named variants (issue 2 §3, RULES.md §4 and §8), and variant specs: a number
too long for a spec is a ``RulesError`` (leading zeros are read as ``int`` reads them), and ``Rules.spec()`` reads back
to equal rules, or refuses the fields no option can write and a name that is no variant."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mizerka.cards import Suit
from mizerka.deal import Deal
from mizerka.match import Match
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
    get_variant,
    parse_variant,
)


def test_contracts() -> None:
    assert [str(c) for c in Contract] == ["C", "D", "H", "S", "NT", "MZ"]
    assert [c.trump for c in Contract] == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, None, None]
    assert [c.goal for c in Contract] == ["take"] * 5 + ["avoid"]
    assert [c.is_mizerka for c in Contract] == [False] * 5 + [True]
    assert [c.symbol for c in Contract] == ["♣", "♦", "♥", "♠", "NT", "MZ"]
    assert Contract.NO_TRUMP.label == "no-trump"


@pytest.mark.parametrize(
    ("text", "contract"),
    [
        ("C", Contract.CLUBS), ("dia", Contract.DIAMONDS), ("D", Contract.DIAMONDS), ("♦", Contract.DIAMONDS),
        ("hearts", Contract.HEARTS), ("♠", Contract.SPADES), ("nt", Contract.NO_TRUMP), ("sans", Contract.NO_TRUMP),
        ("no trump", Contract.NO_TRUMP), ("N", Contract.NO_TRUMP), ("n", Contract.NO_TRUMP),
        ("M", Contract.MIZERKA), ("MZ", Contract.MIZERKA), ("Mizerka", Contract.MIZERKA),
    ],
)
def test_contract_from_str(text: str, contract: Contract) -> None:
    assert Contract.from_str(text) is contract


@pytest.mark.parametrize("text", ["", "X", "misere", "NTT"])
def test_bad_contract_text(text: str) -> None:
    with pytest.raises(RulesError, match=repr(text)):
        Contract.from_str(text)


def test_roles() -> None:
    assert [r.short for r in Role] == ["FH", "MH", "D"]
    assert [int(r) for r in Role] == [0, 1, 2]


def test_standard_rules_are_rules_md_section_8() -> None:
    rules = get_variant("standard")
    assert rules is STANDARD
    assert rules.n_seats == 3
    assert rules.contracts == tuple(Contract)
    assert rules.uses_per_contract == 1
    assert rules.quota_ordinary == (7, 5, 1)
    assert rules.quota_mizerka == (1, 5, 7)
    assert rules.cards_before_choice == 6
    assert rules.deal_pattern is DealPattern.ROUND_ROBIN_4_PILES
    assert rules.exchange_mode is ExchangeMode.STANDARD
    assert rules.show_trump_card is False
    assert rules.first_dealer is None
    assert rules.n_tricks == 13
    assert rules.n_deals == 18
    assert rules.zero_sum
    for role, (ordinary, mizerka) in zip(Role, [(7, 1), (5, 5), (1, 7)], strict=True):
        for contract in Contract:
            expected = mizerka if contract is Contract.MIZERKA else ordinary
            assert rules.quota(role, contract) == expected


def test_every_variant_states_its_source() -> None:
    assert set(VARIANTS) == {"standard", "no-exchange", "four-players", "seed002-literal"}
    for name, rules in VARIANTS.items():
        assert rules.name == name
        assert rules.source.strip()
    assert "S002" in VARIANTS["no-exchange"].source
    assert "PAGAT-DE" in VARIANTS["four-players"].source
    assert "S002" in VARIANTS["seed002-literal"].source
    assert "PAGAT" in STANDARD.source


def test_no_exchange_variant() -> None:
    rules = get_variant("no-exchange")
    assert rules.exchange_mode is ExchangeMode.NONE
    assert rules.n_tricks == 13 and rules.n_deals == 18 and rules.zero_sum


def test_a_variant_name_reads_with_underscores_as_its_options_do() -> None:
    """``standard,show-trump-card`` was read and ``no_exchange`` was not: names and options now both take either."""
    assert get_variant("no_exchange") is get_variant("no-exchange")
    assert parse_variant(" Four_Players ,first_dealer=1") == get_variant("four-players").replace(first_dealer=1)
    with pytest.raises(RulesError, match="unknown variant: 'no_change'"):
        get_variant("no_change")


def test_the_zero_sum_warning_names_the_options_that_make_it() -> None:
    """The warning of rules whose quotas do not add up named the base variant alone ('standard'), which is
    zero-sum: the options given are what break it."""
    with pytest.warns(UserWarning, match=r"variant 'standard,quota_mizerka=1/5/6': quotas \(7, 5, 1\) / \(1, 5, 6\)"):
        parse_variant("standard,quota_mizerka=1/5/6")
    assert get_variant("seed002-literal").zero_sum_note.startswith("variant 'seed002-literal': ")


def test_four_players_variant_quotas_rules_md_v1() -> None:
    """V1: the dealer sits out; 1st active (dealer's left) = FH 7/1, 2nd = MH 5/5, 3rd (dealer's right) = D 1/7."""
    rules = get_variant("four-players")
    assert rules.n_seats == 4
    assert rules.n_deals == 24
    assert rules.zero_sum
    deal = Deal(list(range(52)), rules=rules, dealer=1)
    assert deal.active_seats == (2, 3, 0)
    assert deal.role(1) is None  # the dealer sits out
    assert [deal.role(s) for s in (2, 3, 0)] == [Role.FOREHAND, Role.MIDDLEHAND, Role.DEALER]
    assert deal.hands[1] == 0
    assert rules.quota(Role.FOREHAND, Contract.HEARTS) == 7 and rules.quota(Role.FOREHAND, Contract.MIZERKA) == 1
    assert rules.quota(Role.MIDDLEHAND, Contract.HEARTS) == 5 and rules.quota(Role.MIDDLEHAND, Contract.MIZERKA) == 5
    assert rules.quota(Role.DEALER, Contract.HEARTS) == 1 and rules.quota(Role.DEALER, Contract.MIZERKA) == 7


def test_seed002_literal_variant() -> None:
    rules = get_variant("seed002-literal")
    assert rules.exchange_mode is ExchangeMode.REPLENISH
    assert rules.deal_pattern is DealPattern.SEED002_BLOCKS
    assert rules.show_trump_card
    assert rules.n_tricks == 17
    assert not rules.zero_sum
    assert rules.quota_ordinary == (7, 5, 1)


def test_seed002_literal_warns_about_non_zero_sum_quotas() -> None:
    with pytest.warns(UserWarning, match="not zero-sum"):
        parse_variant("seed002-literal,first_dealer=0")
    with pytest.warns(UserWarning, match="17 tricks"):
        Rules(name="mine", exchange_mode=ExchangeMode.REPLENISH)
    with pytest.warns(UserWarning, match="not zero-sum"):
        STANDARD.replace(quota_ordinary=(7, 5, 2))
    # quotas that add up to 17 make the literal reading zero-sum again, without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fixed = Rules(exchange_mode=ExchangeMode.REPLENISH, quota_ordinary=(9, 6, 2), quota_mizerka=(2, 6, 9))
    assert fixed.zero_sum


@pytest.mark.parametrize(
    ("role", "contract", "tricks", "score"),
    [
        (Role.FOREHAND, Contract.HEARTS, 9, 2),
        (Role.MIDDLEHAND, Contract.HEARTS, 2, -3),
        (Role.DEALER, Contract.HEARTS, 2, 1),
        (Role.FOREHAND, Contract.MIZERKA, 9, -8),
        (Role.MIDDLEHAND, Contract.MIZERKA, 2, 3),
        (Role.DEALER, Contract.MIZERKA, 2, 5),
    ],
)
def test_score_function(role: Role, contract: Contract, tricks: int, score: int) -> None:
    assert STANDARD.score(role, contract, tricks) == score


def test_options() -> None:
    rules = parse_variant("standard,show_trump_card,contracts=NT+MZ,first_dealer=2")
    assert rules.show_trump_card
    assert rules.contracts == (Contract.NO_TRUMP, Contract.MIZERKA)
    assert rules.first_dealer == 2
    assert rules.n_deals == 6
    assert parse_variant("standard,seed002-blocks").deal_pattern is DealPattern.SEED002_BLOCKS
    assert parse_variant("standard,uses=2").n_deals == 36
    assert parse_variant("standard,global_unique").n_deals == 6
    assert parse_variant("standard,contracts=C+D+H,uses=2,global_unique").n_deals == 6
    assert parse_variant("four-players,contracts=NT").n_deals == 4
    assert parse_variant("standard,first_dealer=lot").first_dealer is None
    assert parse_variant("standard,show_trump_card=no").show_trump_card is False
    assert parse_variant("") is STANDARD
    assert parse_variant("no-exchange") is VARIANTS["no-exchange"]
    assert parse_variant(" Standard ") is STANDARD


@pytest.mark.parametrize(
    "spec",
    [
        "standard",
        "no-exchange,show_trump_card",
        "standard,seed002-blocks,first_dealer=1",
        "four-players,contracts=NT+MZ,uses=2",
        "standard,global_unique",
        "standard,contracts=MZ+C",
    ],
)
def test_spec_round_trips(spec: str) -> None:
    rules = parse_variant(spec)
    assert parse_variant(rules.spec()) == rules


def test_spec_round_trips_with_quotas() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rules = parse_variant("seed002-literal,quota_ordinary=9/6/2,quota_mizerka=2/6/9")
        assert rules.zero_sum
        assert parse_variant(rules.spec()) == rules


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nonsense", "unknown variant"),
        ("standard,frobnicate", "unknown option"),
        ("standard,contracts=NT+XX", "invalid contract"),
        ("standard,contracts=NT+NT", "twice"),
        ("standard,first_dealer=3", "first_dealer"),
        ("standard,first_dealer=x", "first_dealer"),
        ("standard,uses=0", "uses_per_contract"),
        ("standard,uses=x", "uses"),
        ("standard,quota_ordinary=7/5", "quota_ordinary"),
        ("standard,quota_ordinary=7/5/x", "quota_ordinary"),
        ("standard,quota_ordinary=14/0/0", "quotas"),
        ("standard,show_trump_card=maybe", "show_trump_card"),
    ],
)
def test_bad_variant_specs(spec: str, message: str) -> None:
    with pytest.raises(RulesError, match=message) as info:
        parse_variant(spec)
    assert isinstance(info.value, ValueError)


def test_rules_constructor_checks() -> None:
    with pytest.raises(RulesError, match="n_seats"):
        Rules(n_seats=2)
    with pytest.raises(RulesError, match="empty"):
        Rules(contracts=())
    with pytest.raises(RulesError, match="three players"):
        Rules(n_seats=4, exchange_mode=ExchangeMode.REPLENISH)
    with pytest.raises(RulesError, match="unknown rules option"):
        STANDARD.replace(colour="red")
    assert STANDARD.replace(show_trump_card=True).show_trump_card
    assert not STANDARD.show_trump_card  # replace copies


def test_custom_contract_list_in_a_match() -> None:
    rules = parse_variant("standard,contracts=NT+MZ,first_dealer=0")
    match = Match(rules, seed=1)
    assert match.deal.allowed_contracts == {Contract.NO_TRUMP, Contract.MIZERKA}
    with pytest.raises(ValueError, match="not played in this variant"):
        match.play("H")


def test_rules_are_hashable_values() -> None:
    assert parse_variant("standard,show_trump_card") == STANDARD.replace(show_trump_card=True)
    assert len({STANDARD, get_variant("standard"), VARIANTS["no-exchange"]}) == 2


# -- numbers in a variant spec ---------------------------------------------------------------------------------------


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


# -- Rules.spec() reads back to equal rules, or refuses --------------------------------------------------------------


def quiet(make: Callable[[], object]) -> object:
    """*make()* with the non-zero-sum warning of seed002-literal silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


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


@pytest.mark.parametrize("spec", ["standard,first_dealer=1,first_dealer=2", "standard,uses=1,uses_per_contract=2",
                                  "standard,seed002_blocks,round_robin", "standard,show_trump_card,show-trump-card=no",
                                  "standard,global_unique,global_unique=no"])
def test_an_option_given_twice_is_refused(spec: str) -> None:
    """The last one was taken silently, while ``mizerka solve`` refuses repeated parts of a position."""
    with pytest.raises(RulesError, match="a second time in"):
        parse_variant(spec)
