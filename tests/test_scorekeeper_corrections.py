"""Correcting an earlier deal at a real table: ``edit N`` (and :meth:`ScoreKeeper.correct`) asks deal N's contract
and tricks again, Enter keeping each, while the later deals stay as they are; only that deal's scores and the totals
change.  A contract its chooser has used in another deal, tricks that do not add up, a deal not finished: each is
refused with the reason and changes nothing.  ``undo`` at the correction's questions drops it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.cli import cli
from mizerka.record import read
from mizerka.rules import Contract, get_variant
from mizerka.scorekeeper import EntryError, ScoreKeeper

NAMES = ["Ala", "Bolek", "Cezary"]
DEALS = [("H", "5 4 4"), ("S", "7 5 1"), ("NT", "1 7 5"), ("C", "3 3 7")]


def keeper() -> ScoreKeeper:
    k = ScoreKeeper.new(NAMES, first_dealer="Cezary")
    for contract, tricks in DEALS:
        k.enter_contract(contract)
        k.enter_tricks(tricks)
    return k


def run(path: Path, lines: list[str], *args: str) -> Result:
    return CliRunner().invoke(cli, ["score", *args, "--file", str(path)], input="".join(f"{x}\n" for x in lines))


def test_correcting_the_tricks_of_an_earlier_deal_keeps_the_later_deals() -> None:
    k = keeper()
    assert k.totals() == (-4, 1, 3)
    result = k.correct(1, tricks="6 4 3")
    assert (result.tricks, result.scores) == ((6, 4, 3), (-1, -1, 2))
    assert k.totals() == (-3, 1, 2)
    assert [(d.contract, d.tricks_won) for d in k.deals[1:]] == [
        (Contract.SPADES, (7, 5, 1)), (Contract.NO_TRUMP, (1, 7, 5)), (Contract.CLUBS, (3, 3, 7))]
    assert k.deal_no == 5


def test_correcting_the_contract_rescores_the_deal() -> None:
    k = keeper()
    result = k.correct(1, contract="MZ")  # Mizerka quotas 1/5/7 for Ala/Bolek/Cezary, who took 5/4/4
    assert result.contract is Contract.MIZERKA and result.scores == (-4, 1, 3)
    assert k.used_by(0) == [Contract.MIZERKA, Contract.CLUBS]  # ♥ is free for Ala again


@pytest.mark.parametrize(
    ("deal", "contract", "tricks", "message"),
    [
        (1, "C", None, "Ala chose ♣ in deal 4 already; correct that deal first"),
        (2, "kier", None, None),  # Bolek has no ♥: accepted (checked below)
        (2, None, "7 7 7", "the tricks add up to 21, not 13"),
        (2, None, "Ala 14", "Ala cannot take 14 tricks"),
        (5, None, None, "there is no finished deal 5: deals 1 to 4 can be corrected"),
        (0, None, None, "there is no finished deal 0"),
        ("x", None, None, "give the number of a finished deal to correct"),
        ("", None, None, "say which finished deal to correct: edit N, N from 1 to 4"),
        (1, "XX", None, "'XX' is not a contract"),
    ],
)
def test_a_bad_correction_changes_nothing(deal: object, contract: str | None, tricks: str | None,
                                          message: str | None) -> None:
    k = keeper()
    before = k.record
    if message is None:
        assert k.correct(deal, contract=contract, tricks=tricks).contract is Contract.HEARTS  # type: ignore[arg-type]
        return
    with pytest.raises(EntryError, match=message):
        k.correct(deal, contract=contract, tricks=tricks)  # type: ignore[arg-type]
    assert k.record == before


def test_the_deal_being_entered_is_undone_not_corrected() -> None:
    k = keeper()
    k.enter_contract("D")
    with pytest.raises(EntryError, match="deal 5 is the deal being entered: undo takes back its contract"):
        k.correct(5)
    with pytest.raises(EntryError, match="Bolek chose ♦ in deal 5 already"):  # the pending deal's contract is used
        k.correct(2, contract="D")


def test_four_players_correct_the_three_in_play() -> None:
    k = ScoreKeeper.new([*NAMES, "Dorota"], first_dealer="Dorota", rules=get_variant("four-players"))
    k.enter_contract("H")
    k.enter_tricks("7 5 1")
    with pytest.raises(EntryError, match="Dorota deals and sits out this deal"):
        k.correct(1, tricks="Dorota 1, Ala 7")
    assert k.correct(1, tricks="6 5 2").tricks == (6, 5, 2, 0)


def test_edit_at_the_table(tmp_path: Path) -> None:
    save = tmp_path / "m.mzn"
    lines = [*NAMES, "Cezary"] + [x for deal in DEALS for x in deal]
    lines += ["edit 1", "", "6 4 3",  # deal 1: contract kept, tricks corrected
              "edit 9", "edit 2", "undo",  # refused; then dropped
              "edit 3", "C", "", "quit"]  # Cezary's ♣ is free: the contract corrected, the tricks kept
    result = run(save, lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Correcting deal 1, Cezary dealt. Contract chosen by Ala [♥; Enter keeps it]" in out
    assert "tricks of Ala, Bolek, Cezary [5 4 4; Enter keeps them]" in out
    assert "Corrected deal 1." in out and "Deal 1 (hearts, take): Ala 6 of 7 → -1" in out
    assert "Not accepted: there is no finished deal 9: deals 1 to 4 can be corrected." in out
    assert "Not corrected: deal 2 is as it was." in out
    assert "Corrected deal 3." in out
    record = read(save)
    assert [(d.contract, d.tricks_won) for d in record.deals] == [
        (Contract.HEARTS, (6, 4, 3)), (Contract.SPADES, (7, 5, 1)), (Contract.CLUBS, (1, 7, 5)),
        (Contract.CLUBS, (3, 3, 7))]
    assert record.totals == tuple(sum(d.scores[s] for d in record.deals if d.scores) for s in range(3))


def test_edit_at_the_end_question_shows_the_new_standing(tmp_path: Path) -> None:
    save = tmp_path / "m.mzn"
    contracts, lines = ["C", "D", "H", "S", "NT", "MZ"], [*NAMES, "Cezary"]
    for deal in range(18):
        lines += [contracts[deal // 3], "7 5 1"]
    result = run(save, [*lines, "edit 1", "", "13 0 0", ""])
    assert result.exit_code == 0, result.output
    before, after = result.output.split("Corrected deal 1.")
    assert "Ala wins." in before
    assert "1. Ala +38" in after and after.rstrip().endswith("take back deal 18's tricks:")
    assert read(save).deals[0].tricks_won == (13, 0, 0)
    replay = CliRunner().invoke(cli, ["replay", str(save)])
    assert replay.exit_code == 0 and "Winner: Ala" in replay.output


def test_a_player_named_edit_is_still_a_name_before_the_deals(tmp_path: Path) -> None:
    result = run(tmp_path / "m.mzn", ["Edit", "Bolek", "Cezary", "edit", "H", "Edit 7, Bolek 5", "quit"])
    assert result.exit_code == 0, result.output
    assert "Deal 1 of 18, Edit deals. Contract chosen by Bolek" in result.output
    assert "Not accepted" not in result.output


def test_undo_before_the_first_contract_reopens_the_seating(tmp_path: Path) -> None:
    """A misspelt name or a wrong first dealer noticed at the first contract: ``undo`` goes back to the first dealer,
    another ``undo`` to the last name (before, it said there was nothing to undo, and the only way out was to quit
    and delete the file)."""
    path = tmp_path / "m.mzn"
    result = run(path, ["Ala", "Bolek", "Cezar", "Cezar", "undo", "undo", "Cezary", "Ala", "H", "quit"])
    assert result.exit_code == 0, result.output
    assert "Undone: Cezar as the first dealer." in result.output
    assert "Undone: the name 'Cezar'." in result.output
    keeper = ScoreKeeper.load(path)
    assert keeper.players == ("Ala", "Bolek", "Cezary") and keeper.dealer_of(1) == 0
    assert [d.contract for d in keeper.deals] == [Contract.HEARTS]
    # once a contract is entered, undo takes it back as before; the seating stays
    again = run(tmp_path / "n.mzn", ["Ala", "Bolek", "Cezary", "Ala", "H", "undo", "quit"])
    assert "Undone: deal 1's contract" in again.output and "first dealer" not in again.output.split("H\n")[-1]
    assert ScoreKeeper.load(tmp_path / "n.mzn").deals == ()


def test_undo_before_the_first_contract_with_a_fixed_first_dealer_takes_back_the_last_name(tmp_path: Path) -> None:
    path = tmp_path / "m.mzn"
    result = run(path, ["Ala", "Bolek", "Cezar", "undo", "Cezary", "quit"], "--variant", "standard,first_dealer=0")
    assert result.exit_code == 0, result.output
    assert "Undone: the name 'Cezar'." in result.output
    assert ScoreKeeper.load(path).players == ("Ala", "Bolek", "Cezary")
