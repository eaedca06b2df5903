"""The core where an audit (session 20) found it wrong: an exchange answer naming no card spent the exchange, a
refused contract under ``global_unique`` blamed the wrong player, and two library calls took impossible numbers."""

from __future__ import annotations

import pytest

from mizerka import Match
from mizerka.deal import KEEP, Deal, IllegalActionError, InvalidActionError, Phase
from mizerka.rules import STANDARD, Contract, Role, RulesError, parse_variant


def exchanging() -> Deal:
    deal = Deal(list(range(52)), dealer=0)
    deal.play("NT")
    assert deal.phase is Phase.EXCHANGE
    return deal


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


def test_a_contract_gone_under_global_unique_is_refused_as_played_in_the_match() -> None:
    """Under ``global_unique`` a contract is gone once anybody chose it: the refusal says so, and does not say the
    forehand used it (he never did)."""
    match = Match(parse_variant("standard,global_unique"), seed=1, first_dealer=0)
    match.play("H")
    while match.deal_no == 1:
        match.play(KEEP if match.deal.phase is Phase.EXCHANGE else next(iter(match.legal_actions)))
    assert Contract.HEARTS not in match.used[match.deal.forehand]
    with pytest.raises(IllegalActionError, match="contract H has already been played in this match") as refused:
        match.play("H")
    assert "forehand" not in str(refused.value)


def test_a_contract_used_up_under_uses_2_says_twice() -> None:
    deal_rules = parse_variant("standard,uses=2")
    match = Match(deal_rules, seed=1, first_dealer=0)
    hearts = 0
    while hearts < 3:
        deal = match.deal
        if deal.phase is Phase.CHOOSE and deal.to_move == 1:
            if Contract.HEARTS in deal.allowed_contracts:
                match.play("H")
                hearts += 1
                continue
            with pytest.raises(IllegalActionError, match=r"seat 1\) has already used contract H twice"):
                match.play("H")
            break
        match.play(KEEP if deal.phase is Phase.EXCHANGE else next(iter(match.legal_actions)))
    assert hearts == 2


@pytest.mark.parametrize("tricks", [14, -1, True, 9.5, "9", None])
def test_a_score_for_an_impossible_trick_count_is_refused(tricks: object) -> None:
    with pytest.raises(RulesError, match="tricks must be a whole number 0-13"):
        STANDARD.score(Role.FOREHAND, Contract.HEARTS, tricks)  # type: ignore[arg-type]
    assert STANDARD.score(Role.FOREHAND, Contract.HEARTS, 13) == 6
    assert STANDARD.score(Role.DEALER, Contract.MIZERKA, 0) == 7


@pytest.mark.parametrize("card", [-1, 52, True, "AS", 3.0])
def test_why_illegal_refuses_what_is_no_card(card: object) -> None:
    deal = exchanging()
    for _ in range(3):
        deal.play(KEEP)
    obs = deal.observation(deal.to_move)
    with pytest.raises(ValueError, match="a card is an index 0-51"):
        obs.why_illegal(card)  # type: ignore[arg-type]
    held = min(obs.hand)  # on lead: any card held may be played, one not held may not
    missing = next(card for card in range(52) if card not in obs.hand)
    assert obs.why_illegal(held) is None
    refused = obs.why_illegal(missing)
    assert refused is not None and refused.code == "not_in_hand"
