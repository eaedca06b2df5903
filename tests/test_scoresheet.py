"""The score sheet (:class:`mizerka.scoresheet.ScoreSheet`) and its CSV export.

A sheet refuses results that do not fit its players or its variant (a ``ScoreSheetError``, which is a
``ValueError``); a dealer who sits out (four players) shows as sitting out, ``-``, not as a player who took no
tricks; a name that starts like a spreadsheet formula is written to the CSV after an apostrophe, so that opening the
file runs nothing.
"""

from __future__ import annotations

import pytest

from mizerka.match import DealResult
from mizerka.rules import STANDARD, Contract, parse_variant
from mizerka.scorekeeper import ScoreKeeper
from mizerka.scoresheet import ScoreSheet, ScoreSheetError

HEARTS = DealResult(1, 2, 0, Contract.HEARTS, (5, 4, 4), (-2, -1, 3), (0, 0, 0))


@pytest.mark.parametrize(
    ("players", "result", "problem"),
    [
        (["A", "B"], HEARTS, "seats 3 players"),
        (["A", "B", "C", "D"], HEARTS, "seats 3 players"),
        (["A", "B", "C"], DealResult(1, 5, 0, Contract.HEARTS, (5, 4, 4), (-2, -1, 3), (0, 0, 0)), "the dealer 5"),
        (["A", "B", "C"], DealResult(1, 2, -1, Contract.HEARTS, (5, 4, 4), (-2, -1, 3), (0, 0, 0)), "the chooser -1"),
        (["A", "B", "C"], DealResult(1, 2, 0, Contract.HEARTS, (5, 4, 4), (-2, -1), (0, 0, 0)), "the scores"),
        (["A", "B", "C"], DealResult(1, 2, 0, Contract.HEARTS, (5, 8), (-2, -1, 3), (0, 0, 0)), "the tricks"),
        (["A", "B", "C"], "deal 1", "not a DealResult"),
    ],
)
def test_sheet_refuses_results_that_do_not_fit(players: list[str], result: DealResult, problem: str) -> None:
    with pytest.raises(ScoreSheetError, match=problem):
        ScoreSheet(players, [result])


def test_sheet_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="seats 3 players"):
        ScoreSheet(["A", "B"], [])


def test_sheet_refuses_a_contract_the_variant_does_not_play() -> None:
    short = parse_variant("standard,contracts=NT+MZ")
    with pytest.raises(ScoreSheetError, match="not a contract of"):
        ScoreSheet(["A", "B", "C"], [HEARTS], short)  # the grid would drop its X without a word


def test_four_player_sheet_shows_the_sitting_out_dealer_as_such() -> None:
    keeper = ScoreKeeper.new(["A", "B", "C", "D"], "A", parse_variant("four-players"))
    keeper.enter_contract("H")
    keeper.enter_tricks("9 2 2")  # B, C, D: A deals and sits out
    keeper.enter_contract("MZ")
    keeper.enter_tricks("C 0, D 6")  # B deals and sits out; A plays the dealer's part and takes the 7 left
    rows = keeper.sheet().table().splitlines()
    assert rows[1].split() == ["1", "A", "B", "♥", "take", "-", "9", "2", "2", "-", "+2", "-3", "+1",
                               "|", "0", "+2", "-3", "+1"]
    assert rows[2].split() == ["2", "B", "C", "MZ", "avoid", "7", "-", "0", "6", "0", "-", "+1", "-1",
                               "|", "0", "+2", "-2", "0"]
    assert keeper.totals() == (0, 2, -2, 0)


def test_three_player_sheet_has_no_sitting_out_mark() -> None:
    sheet = ScoreSheet(["A", "B", "C"], [HEARTS], STANDARD)
    assert sheet.table().splitlines()[1].split()[5:] == ["5", "4", "4", "-2", "-1", "+3", "|", "-2", "-1", "+3"]


def test_csv_export_writes_formula_like_names_as_text() -> None:
    """A name that starts like a spreadsheet formula is written after an apostrophe: opening the CSV runs
    nothing (it went into the file raw)."""
    import csv
    import io

    keeper = ScoreKeeper.new(["=HYPERLINK(1)", "@Ola", "Jan"], "Jan")
    keeper.enter_contract("H")
    keeper.enter_tricks("5 4 4")
    rows = list(csv.reader(io.StringIO(keeper.to_csv())))
    assert rows[0][5:8] == ["tricks =HYPERLINK(1)", "tricks @Ola", "tricks Jan"]  # a header starts with a word
    assert rows[1][1] == "Jan" and rows[1][2] == "'=HYPERLINK(1)"
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row[1:3])
